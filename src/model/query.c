/* Lookups over a finished rank, and freeing it. */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model_int.h"
#include "tracetop/ranklist.h"
#include "tracetop/util.h"

int64_t tt_model_origin(const struct tt_model *m)
{
	int64_t o = INT64_MAX;
	for (size_t i = 0; m && i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		if (r->t1 > r->t0 && r->t0 < o)
			o = r->t0;
	}
	return o == INT64_MAX ? 0 : o;
}

uint32_t tt_track_of(const struct tt_rank *r, uint32_t i)
{
	if (i < r->nev)
		return r->ev[i].track;
	uint32_t lo = 0, hi = r->ntracks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct tt_track *t = &r->tracks[mid];
		if (i < t->first)
			hi = mid;
		else if (i >= t->first + t->count)
			lo = mid + 1;
		else
			return mid;
	}
	return TT_NONE;
}

uint32_t tt_track_lower_ts(const struct tt_rank *r, const struct tt_track *t, int64_t ts)
{
	uint32_t lo = t->first, hi = t->first + t->count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r->ev[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void tt_track_window(const struct tt_rank *r, const struct tt_track *t, int64_t t0, int64_t t1,
		     uint32_t *lo, uint32_t *hi)
{
	int64_t from = t0 - t->max_dur;
	if (from > t0) /* overflow */
		from = INT64_MIN;
	uint32_t a = tt_track_lower_ts(r, t, from);
	uint32_t b = tt_track_lower_ts(r, t, t1);
	/* skip leading events that end before the window */
	while (a < b && r->ev[a].ts + r->ev[a].dur <= t0 && r->ev[a].dur > 0)
		a++;
	*lo = a;
	*hi = b;
}

void tt_links_of_cpu(const struct tt_rank *r, uint32_t cpu, uint32_t *lo, uint32_t *hi)
{
	uint32_t a = 0, b = r->nlinks;
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (r->links[m].cpu < cpu)
			a = m + 1;
		else
			b = m;
	}
	uint32_t e = a;
	while (e < r->nlinks && r->links[e].cpu == cpu)
		e++;
	*lo = a;
	*hi = e;
}

/* the GPU op of the link at place p of links_by_gpu */
static inline uint32_t gpu_at(const struct tt_rank *r, uint32_t p)
{
	return r->links[r->links_by_gpu[p]].gpu;
}

/* the first place in [a, b) of links_by_gpu whose GPU op is gpu or after
 * (b when none): a binary search */
static uint32_t gpu_lower_bound(const struct tt_rank *r, uint32_t gpu, uint32_t a, uint32_t b)
{
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (gpu_at(r, m) < gpu)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

uint32_t tt_launch_of(const struct tt_rank *r, uint32_t gpu)
{
	uint32_t a = gpu_lower_bound(r, gpu, 0, r->nlinks);
	if (a < r->nlinks && gpu_at(r, a) == gpu)
		return r->links[r->links_by_gpu[a]].cpu;
	return TT_NONE;
}

/* The galloping search of tt_u32_find_from (base/util.c), here over the
 * links' GPU ops in links_by_gpu order, read through that indirection.
 * Not one function with it: a key callback per probe made idle, launch,
 * overview and distributed slower (the bench's shared set), and an array
 * of the GPU ops in this order would cost the model 4 bytes a link.
 * (inline: in tt_launch_of_from too, a call per GPU op of those
 * analyses) */
static inline uint32_t link_of_from(const struct tt_rank *r, uint32_t gpu, uint32_t *pos)
{
	uint32_t n = r->nlinks, p = *pos < n ? *pos : n, a, b;
	if (p > 0 && gpu_at(r, p - 1) >= gpu) {
		a = 0; /* behind: the first at or after gpu is before p */
		b = p;
	} else {
		/* ahead: gallop until one at or after gpu */
		a = b = p;
		for (uint64_t step = 1; b < n && gpu_at(r, b) < gpu; step *= 2) {
			a = b + 1;
			b = n - b > step ? b + (uint32_t)step : n;
		}
	}
	a = gpu_lower_bound(r, gpu, a, b);
	*pos = a;
	return a < n && gpu_at(r, a) == gpu ? r->links_by_gpu[a] : TT_NONE;
}

uint32_t tt_link_of_from(const struct tt_rank *r, uint32_t gpu, uint32_t *pos)
{
	return link_of_from(r, gpu, pos);
}

uint32_t tt_launch_of_from(const struct tt_rank *r, uint32_t gpu, uint32_t *pos)
{
	uint32_t l = link_of_from(r, gpu, pos);
	return l != TT_NONE ? r->links[l].cpu : TT_NONE;
}

uint32_t tt_step_ev_find(const struct tt_step_ev *v, size_t n, int64_t num)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (v[m].num < num)
			a = m + 1;
		else
			b = m;
	}
	return a < n && v[a].num == num ? v[a].ev : TT_NONE;
}

void tt_track_label(const struct tt_rank *r, const struct tt_track *t, char *buf, size_t n)
{
	switch (t->kind) {
	case TT_TRACK_GPU:
		snprintf(buf, n, "GPU %lld %s", (long long)t->device, tt_str(r, t->name));
		break;
	case TT_TRACK_GPU_ANNOT:
		snprintf(buf, n, "GPU %lld %s", (long long)t->device, tt_str(r, t->name));
		break;
	case TT_TRACK_GPU_SYNC:
		snprintf(buf, n, "GPU %lld sync", (long long)t->device);
		break;
	case TT_TRACK_GLOBAL:
		snprintf(buf, n, "global");
		break;
	default:
		if (t->pid_is_str)
			snprintf(buf, n, "%s %s", tt_str(r, t->pid_str), tt_str(r, t->name));
		else
			snprintf(buf, n, "%lld %s", (long long)t->tid, tt_str(r, t->name));
		if (!t->tid_is_str && t->name != TT_NONE &&
		    strncmp(tt_str(r, t->name), "thread ", 7) == 0)
			snprintf(buf, n, "thread %lld", (long long)t->tid);
		break;
	}
}

int64_t tt_rank_from_name(const char *file)
{
	/* rank[-_]?N or worker[-_]?N, case-insensitive, at the start of the
	 * name or after a non-letter */
	static const char *const words[] = {"rank", "worker"};
	for (size_t i = 0; file[i]; i++) {
		if (i > 0 && isalpha((unsigned char)file[i - 1]))
			continue;
		for (size_t w = 0; w < TT_ARRAY_SIZE(words); w++) {
			size_t n = strlen(words[w]);
			if (strncasecmp(file + i, words[w], n) != 0)
				continue;
			const char *p = file + i + n;
			if (*p == '-' || *p == '_')
				p++;
			if (!isdigit((unsigned char)*p))
				continue;
			/* (a number beyond the largest rank is no rank: it was
			 * cut to its first digits, 922337203 for 2^63-1) */
			int64_t v = 0;
			while (isdigit((unsigned char)*p) && v <= TT_RANK_MAX)
				v = v * 10 + (*p++ - '0');
			if (v > TT_RANK_MAX || isdigit((unsigned char)*p))
				return -1;
			return v;
		}
	}
	return -1;
}

size_t tt_rank_memsize(const struct tt_rank *r)
{
	size_t n = sizeof(*r);
	n += tt_strtab_memsize(&r->strs);
	n += (size_t)r->ncats * sizeof(*r->cats);
	n += (size_t)r->ntracks * sizeof(*r->tracks);
	n += (size_t)r->nev * sizeof(*r->ev);
	n += (size_t)r->nkinfo * sizeof(*r->kinfo);
	n += (size_t)r->nminfo * sizeof(*r->minfo);
	n += (size_t)r->nopinfo * sizeof(*r->opinfo);
	n += (size_t)r->ncomm * sizeof(*r->comm);
	n += (size_t)r->nmeminfo * sizeof(*r->meminfo);
	n += (size_t)r->nsyncinfo * sizeof(*r->syncinfo);
	n += (size_t)r->nlinks * (sizeof(*r->links) + sizeof(*r->links_by_gpu));
	n += (size_t)r->ncounters * sizeof(*r->counters);
	n += (size_t)r->nsamples * sizeof(*r->samples);
	n += (size_t)r->nflows * sizeof(*r->flows);
	return n;
}

/* ---- derived data ---- */

struct tt_rank_memo {
	/* one lock per slot, held while its value is built: a build may ask
	 * for another slot's value (the op tree asks for the name flags) */
	pthread_mutex_t lock[TT_MEMO_SLOTS];
	void *v[TT_MEMO_SLOTS];
	void (*free_fn[TT_MEMO_SLOTS])(void *);
};

/* (guards the creation of a rank's memo; builds take the slot's own lock) */
static pthread_mutex_t memo_create = PTHREAD_MUTEX_INITIALIZER;

void *tt_rank_memo(const struct tt_rank *r, unsigned slot,
		   void *(*build)(const struct tt_rank *r, void *ctx), void *ctx,
		   void (*free_fn)(void *))
{
	if (slot >= TT_MEMO_SLOTS)
		return NULL;
	pthread_mutex_lock(&memo_create);
	struct tt_rank_memo *mm = r->memo;
	if (!mm) {
		mm = tt_calloc(1, sizeof(*mm));
		for (unsigned i = 0; i < TT_MEMO_SLOTS; i++)
			pthread_mutex_init(&mm->lock[i], NULL);
		((struct tt_rank *)r)->memo = mm; /* (the memo is not part of the model) */
	}
	pthread_mutex_unlock(&memo_create);
	pthread_mutex_lock(&mm->lock[slot]);
	if (!mm->v[slot]) {
		mm->v[slot] = build(r, ctx);
		mm->free_fn[slot] = free_fn;
	}
	void *v = mm->v[slot];
	pthread_mutex_unlock(&mm->lock[slot]);
	return v;
}

static void memo_free(struct tt_rank_memo *mm)
{
	if (!mm)
		return;
	for (unsigned i = 0; i < TT_MEMO_SLOTS; i++) {
		if (mm->v[i] && mm->free_fn[i])
			mm->free_fn[i](mm->v[i]);
		pthread_mutex_destroy(&mm->lock[i]);
	}
	free(mm);
}

void tt_model_forget(struct tt_model *m)
{
	for (size_t i = 0; m && i < m->nranks; i++) {
		memo_free(m->ranks[i]->memo);
		m->ranks[i]->memo = NULL;
	}
}

void rank_account(struct tt_rank *r)
{
	/* (its strings are counted by their arena already) */
	size_t n = tt_rank_memsize(r), a = r->strs.arena.reserved;
	r->mem_accounted = n > a ? n - a : 0;
	tt_mem_account((int64_t)r->mem_accounted);
	r->mem_kept = n;
	tt_mem_keep((int64_t)n);
}

void tt_rank_free(struct tt_rank *r)
{
	if (!r)
		return;
	tt_mem_account(-(int64_t)r->mem_accounted);
	tt_mem_keep(-(int64_t)r->mem_kept);
	memo_free(r->memo);
	if (r->cache_map) {
		/* arrays point into the mapping */
		cache_unmap(r->cache_map, r->cache_len);
	} else {
		free(r->cats);
		free(r->tracks);
		free(r->ev);
		free(r->kinfo);
		free(r->minfo);
		free(r->opinfo);
		free(r->comm);
		free(r->meminfo);
		free(r->syncinfo);
		free(r->links);
		free(r->links_by_gpu);
		free(r->counters);
		free(r->samples);
		free(r->flows);
	}
	tt_strtab_free(&r->strs);
	tt_meta_free(&r->meta);
	free(r->path);
	free(r);
}
