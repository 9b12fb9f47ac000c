/* builder_finish(): B/E pairing, track order and names, the flat sorted
 * event array, runtime->GPU links, counters, statistics. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "tracetop/util.h"

/* the builder's layout is private to build.c; finish.c reaches it through
 * this shared definition */
#include "build_int.h"

/* ---- B/E pairing ---- */

static int be_cmp(const void *a, const void *b, void *ctx)
{
	const struct be_ev *x = a, *y = b;
	(void)ctx;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void push_paired(struct builder *b, const struct be_ev *beg, int64_t end_ts,
			const struct be_ev *end)
{
	struct stage_track *st = &b->tracks[beg->track];
	struct tt_event *e = track_push(st);
	e->ts = beg->ts;
	e->dur = end_ts - beg->ts;
	e->name = beg->name != TT_NONE ? beg->name : (end && end->name != TT_NONE ? end->name : 0);
	e->corr = beg->corr != TT_NONE ? beg->corr : (end ? end->corr : TT_NONE);
	e->ext = beg->ext != TT_NONE ? beg->ext : (end ? end->ext : TT_NONE);
	e->aux = TT_NONE;
	e->cat = beg->cat;
	e->ph = 'X';
	e->flags = TT_EF_PAIRED;
	st->unsorted = true;
	if (beg->ts != 0 && beg->ts < b->min_ts_nonzero)
		b->min_ts_nonzero = beg->ts;
}

static void pair_be(struct builder *b)
{
	if (!b->nbe)
		return;
	tt_msort(b->be, b->nbe, sizeof(*b->be), be_cmp, NULL);
	size_t *stack = tt_malloc(b->nbe * sizeof(*stack));
	size_t i = 0;
	while (i < b->nbe) {
		uint32_t track = b->be[i].track;
		size_t sp = 0, j = i;
		int64_t last = INT64_MIN;
		for (; j < b->nbe && b->be[j].track == track; j++) {
			struct be_ev *x = &b->be[j];
			if (x->ts > last)
				last = x->ts;
			if (x->ph == 'B') {
				stack[sp++] = j;
			} else if (sp > 0) {
				struct be_ev *beg = &b->be[stack[--sp]];
				push_paired(b, beg, x->ts, x);
			} else {
				tt_report_warn(&b->rep, TT_W_UNMATCHED_E, 0);
			}
		}
		/* B without E: end at the last time seen on the track */
		struct stage_track *st = &b->tracks[track];
		if (st->t.t1 > last)
			last = st->t.t1;
		for (struct chunk *c = st->head; c; c = c->next)
			for (uint32_t k = 0; k < c->n; k++)
				if (c->ev[k].ts + c->ev[k].dur > last)
					last = c->ev[k].ts + c->ev[k].dur;
		while (sp > 0) {
			struct be_ev *beg = &b->be[stack[--sp]];
			tt_report_warn(&b->rep, TT_W_UNMATCHED_B, 0);
			push_paired(b, beg, last, NULL);
		}
		i = j;
	}
	free(stack);
}

/* ---- track order and names ---- */

static const struct mthread *find_thread(const struct builder *b, const struct tkey *k)
{
	for (size_t i = 0; i < b->nthreads; i++) {
		const struct tkey *m = &b->threads[i].key;
		if (m->pid == k->pid && m->tid == k->tid && m->pid_is_str == k->pid_is_str &&
		    m->tid_is_str == k->tid_is_str)
			return &b->threads[i];
	}
	return NULL;
}

static const struct mproc *find_proc(const struct builder *b, const struct tkey *k)
{
	for (size_t i = 0; i < b->nprocs; i++) {
		const struct tkey *m = &b->procs[i].key;
		if (m->pid == k->pid && m->pid_is_str == k->pid_is_str)
			return &b->procs[i];
	}
	return NULL;
}

static void name_tracks(struct builder *b)
{
	struct tt_rank *r = b->r;
	for (size_t i = 0; i < b->ntracks; i++) {
		struct stage_track *st = &b->tracks[i];
		struct tt_track *t = &st->t;
		const struct tkey *k = &st->key;
		t->kind = k->kind;
		t->pid_is_str = k->pid_is_str;
		t->tid_is_str = k->tid_is_str;
		t->pid_str = k->pid_is_str ? (uint32_t)k->pid : TT_NONE;
		t->tid_str = k->tid_is_str ? (uint32_t)k->tid : TT_NONE;
		t->pid = k->pid_is_str ? 0 : k->pid;
		t->tid = k->tid_is_str ? 0 : k->tid;
		if (k->pid_is_str)
			t->pid = 0;
		t->device = (k->kind == TT_TRACK_CPU || k->kind == TT_TRACK_GLOBAL) ? -1 : k->pid;
		t->stream = k->kind == TT_TRACK_GPU ? k->tid : -1;
		t->sort_index = 0;
		t->name = TT_NONE;
		t->proc_name = TT_NONE;
		const struct mthread *th = find_thread(b, k);
		if (k->kind == TT_TRACK_GPU || k->kind == TT_TRACK_GPU_ANNOT) {
			struct tkey mk = {0, false, false, k->pid, k->tid};
			th = find_thread(b, &mk);
		}
		if (th && th->has_name) {
			/* "stream 7 " comes with a trailing space */
			const char *s = tt_str(r, th->name);
			size_t n = strlen(s);
			while (n && s[n - 1] == ' ')
				n--;
			t->name = tt_strtab_intern(&r->strs, s, n);
		}
		if (th && th->has_sort)
			t->sort_index = th->sort;
		struct tkey pk = {0, k->pid_is_str, false, k->pid, 0};
		const struct mproc *pr = find_proc(b, &pk);
		if (pr)
			t->proc_name = pr->name != TT_NONE ? pr->name : pr->labels;
		char buf[96];
		if (t->name == TT_NONE) {
			switch (k->kind) {
			case TT_TRACK_GPU:
				snprintf(buf, sizeof(buf), "stream %lld", (long long)t->stream);
				break;
			case TT_TRACK_GPU_ANNOT:
				snprintf(buf, sizeof(buf), "annotations %lld", (long long)k->tid);
				break;
			case TT_TRACK_GPU_SYNC:
				snprintf(buf, sizeof(buf), "sync");
				break;
			case TT_TRACK_GLOBAL:
				snprintf(buf, sizeof(buf), "global");
				break;
			default:
				if (k->tid_is_str)
					snprintf(buf, sizeof(buf), "%s", tt_str(r, (uint32_t)k->tid));
				else
					snprintf(buf, sizeof(buf), "thread %lld", (long long)k->tid);
			}
			t->name = tt_strtab_intern(&r->strs, buf, strlen(buf));
		}
	}
}

static int track_order(const void *a, const void *b, void *ctx)
{
	const struct builder *bl = ctx;
	const struct stage_track *x = &bl->tracks[*(const uint32_t *)a];
	const struct stage_track *y = &bl->tracks[*(const uint32_t *)b];
	static const int rank_of_kind[] = {3, 0, 1, 2, 4};
	int kx = rank_of_kind[x->key.kind], ky = rank_of_kind[y->key.kind];
	if (kx != ky)
		return kx - ky;
	if (x->key.pid_is_str != y->key.pid_is_str)
		return x->key.pid_is_str ? 1 : -1;
	if (x->key.pid != y->key.pid)
		return x->key.pid < y->key.pid ? -1 : 1;
	if (x->t.sort_index != y->t.sort_index)
		return x->t.sort_index < y->t.sort_index ? -1 : 1;
	if (x->key.tid_is_str != y->key.tid_is_str)
		return x->key.tid_is_str ? 1 : -1;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	return 0;
}

/* ---- sorting one track: indices, then an in-place permutation ---- */

static int idx_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_event *ev = ctx;
	const struct tt_event *x = &ev[*(const uint32_t *)a], *y = &ev[*(const uint32_t *)b];
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return 0;
}

static void sort_events(struct tt_event *ev, uint32_t n)
{
	uint32_t *idx = tt_malloc((size_t)n * sizeof(*idx));
	for (uint32_t i = 0; i < n; i++)
		idx[i] = i;
	tt_msort(idx, n, sizeof(*idx), idx_cmp, ev);
	for (uint32_t i = 0; i < n; i++) {
		if (idx[i] == i)
			continue;
		struct tt_event saved = ev[i];
		uint32_t j = i;
		for (;;) {
			uint32_t k = idx[j];
			idx[j] = j;
			if (k == i) {
				ev[j] = saved;
				break;
			}
			ev[j] = ev[k];
			j = k;
		}
	}
	free(idx);
}

static bool same_event(const struct tt_event *a, const struct tt_event *b)
{
	return a->ts == b->ts && a->dur == b->dur && a->name == b->name && a->corr == b->corr &&
	       a->ext == b->ext && a->cat == b->cat && a->ph == b->ph &&
	       (a->corr != TT_NONE || a->ext != TT_NONE);
}

/* ---- links ---- */

struct cref {
	uint32_t corr, idx;
};

static int cref_cmp(const void *a, const void *b, void *ctx)
{
	const struct cref *x = a, *y = b;
	(void)ctx;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int link_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_link *x = a, *y = b;
	(void)ctx;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->gpu < y->gpu ? -1 : x->gpu > y->gpu;
}

static int by_gpu_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_link *l = ctx;
	uint32_t x = l[*(const uint32_t *)a].gpu, y = l[*(const uint32_t *)b].gpu;
	return x < y ? -1 : x > y;
}

static void build_links(struct tt_rank *r)
{
	uint32_t sync1 = tt_strtab_find(&r->strs, "Event Sync", 10);
	uint32_t sync2 = tt_strtab_find(&r->strs, "Context Sync", 12);
	size_t ng = 0, nc = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->corr == TT_NONE)
			continue;
		bool gpu = (e->flags & TT_EF_STREAM) || e->name == sync1 || e->name == sync2;
		if (gpu)
			ng++;
		else
			nc++;
	}
	if (!ng || !nc)
		return;
	struct cref *g = tt_malloc(ng * sizeof(*g)), *c = tt_malloc(nc * sizeof(*c));
	ng = nc = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->corr == TT_NONE)
			continue;
		bool gpu = (e->flags & TT_EF_STREAM) || e->name == sync1 || e->name == sync2;
		struct cref x = {e->corr, i};
		if (gpu)
			g[ng++] = x;
		else
			c[nc++] = x;
	}
	tt_msort(g, ng, sizeof(*g), cref_cmp, NULL);
	tt_msort(c, nc, sizeof(*c), cref_cmp, NULL);
	size_t cap = 0, n = 0;
	struct tt_link *links = NULL;
	size_t i = 0, j = 0;
	while (i < ng && j < nc) {
		if (g[i].corr < c[j].corr) {
			i++;
		} else if (g[i].corr > c[j].corr) {
			j++;
		} else {
			uint32_t corr = g[i].corr;
			size_t i2 = i, j2 = j;
			while (i2 < ng && g[i2].corr == corr)
				i2++;
			while (j2 < nc && c[j2].corr == corr)
				j2++;
			for (size_t a = j; a < j2; a++)
				for (size_t b = i; b < i2; b++) {
					TT_GROW(links, cap, n + 1);
					links[n].corr = corr;
					links[n].cpu = c[a].idx;
					links[n].gpu = g[b].idx;
					n++;
				}
			i = i2;
			j = j2;
		}
	}
	free(g);
	free(c);
	tt_msort(links, n, sizeof(*links), link_cmp, NULL);
	r->links = links;
	r->nlinks = (uint32_t)n;
	r->links_by_gpu = tt_malloc((n ? n : 1) * sizeof(*r->links_by_gpu));
	for (uint32_t k = 0; k < n; k++)
		r->links_by_gpu[k] = k;
	tt_msort(r->links_by_gpu, n, sizeof(*r->links_by_gpu), by_gpu_cmp, links);
}

/* ---- counters ---- */

static int cs_cmp(const void *a, const void *b, void *ctx)
{
	const struct csample *x = a, *y = b;
	(void)ctx;
	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void build_counters(struct builder *b, int64_t base)
{
	struct tt_rank *r = b->r;
	if (!b->ncounters)
		return;
	tt_msort(b->cs, b->ncs, sizeof(*b->cs), cs_cmp, NULL);
	r->samples = tt_malloc(b->ncs * sizeof(*r->samples));
	for (size_t i = 0; i < b->ncs; i++) {
		r->samples[i].ts = b->cs[i].ts + base;
		r->samples[i].value = b->cs[i].value;
	}
	r->nsamples = (uint32_t)b->ncs;
	r->counters = b->counters;
	r->ncounters = (uint32_t)b->ncounters;
	b->counters = NULL;
	b->ncounters = 0;
	size_t k = 0;
	for (uint32_t c = 0; c < r->ncounters; c++) {
		r->counters[c].first = (uint32_t)k;
		while (k < b->ncs && b->cs[k].counter == c)
			k++;
		r->counters[c].count = (uint32_t)k - r->counters[c].first;
	}
}

/* ---- finish ---- */

struct tt_rank *builder_finish(struct builder *b, struct tt_trace_meta *meta,
			       struct tt_load_report *rep)
{
	struct tt_rank *r = b->r;
	int64_t base = meta->has_base_time ? meta->base_time_ns : 0;
	r->base_ns = base;
	r->meta = *meta;
	memset(meta, 0, sizeof(*meta));
	pair_be(b);
	name_tracks(b);

	bool drop_zero = b->nzero && b->min_ts_nonzero != INT64_MAX && b->min_ts_nonzero > 0;

	/* order the tracks, then copy them one by one into the flat array */
	uint32_t *order = tt_malloc((b->ntracks + 1) * sizeof(*order));
	uint32_t *newpos = tt_malloc((b->ntracks + 1) * sizeof(*newpos));
	for (uint32_t i = 0; i < b->ntracks; i++)
		order[i] = i;
	tt_msort(order, b->ntracks, sizeof(*order), track_order, b);
	size_t total = 0;
	for (size_t i = 0; i < b->ntracks; i++)
		total += b->tracks[i].n;
	if (total > UINT32_MAX - 1)
		tt_die("more than 4 billion events in one rank");
	r->ev = tt_malloc((total ? total : 1) * sizeof(*r->ev));
	r->tracks = tt_calloc(b->ntracks + 1, sizeof(*r->tracks));
	uint32_t w = 0, nt = 0;
	r->t0 = INT64_MAX;
	r->t1 = INT64_MIN;
	for (size_t oi = 0; oi < b->ntracks; oi++) {
		struct stage_track *st = &b->tracks[order[oi]];
		struct tt_track t = st->t;
		t.first = w;
		for (struct chunk *c = st->head; c; c = c->next) {
			for (uint32_t j = 0; j < c->n; j++) {
				struct tt_event *e = &c->ev[j];
				if (drop_zero && e->ts == 0 && e->dur == 0 && e->ph == 'X' &&
				    !(e->flags & TT_EF_MARKER)) {
					tt_report_warn(&b->rep, TT_W_ZERO_TS, 0);
					continue;
				}
				r->ev[w] = *e;
				r->ev[w].ts += base;
				r->ev[w].track = nt;
				w++;
			}
		}
		free_chunks(st);
		t.count = w - t.first;
		if (st->unsorted)
			sort_events(r->ev + t.first, t.count);
		/* identical duplicates (merged files) */
		uint32_t k = t.first;
		for (uint32_t j = t.first; j < t.first + t.count; j++) {
			bool dup = false;
			for (uint32_t m = k; m-- > t.first;) {
				if (r->ev[m].ts != r->ev[j].ts || r->ev[m].dur != r->ev[j].dur)
					break;
				if (same_event(&r->ev[m], &r->ev[j])) {
					dup = true;
					break;
				}
			}
			if (dup) {
				tt_report_warn(&b->rep, TT_W_DUP_EVENT, 0);
				continue;
			}
			r->ev[k++] = r->ev[j];
		}
		w = k;
		t.count = w - t.first;
		t.t0 = INT64_MAX;
		t.t1 = INT64_MIN;
		t.max_dur = 0;
		for (uint32_t j = t.first; j < w; j++) {
			const struct tt_event *e = &r->ev[j];
			if (e->dur > t.max_dur)
				t.max_dur = e->dur;
			if (e->flags & TT_EF_MARKER)
				continue;
			if (e->ts < t.t0)
				t.t0 = e->ts;
			if (e->ts + e->dur > t.t1)
				t.t1 = e->ts + e->dur;
		}
		if (t.count == 0)
			t.t0 = t.t1 = 0;
		newpos[order[oi]] = nt;
		r->tracks[nt++] = t;
	}
	r->nev = w;
	r->ntracks = nt;
	if (w < total)
		r->ev = tt_realloc_array(r->ev, w ? w : 1, sizeof(*r->ev));
	for (uint32_t i = 0; i < r->nflows; i++)
		r->flows[i].track = newpos[r->flows[i].track];
	for (uint32_t i = 0; i < r->nflows; i++)
		r->flows[i].ts += base;
	free(order);
	free(newpos);

	build_links(r);
	build_counters(b, base);

	/* statistics */
	uint32_t step_prefix_len = 13; /* "ProfilerStep#" */
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *t = &r->tracks[ti];
		if (t->kind == TT_TRACK_GPU)
			r->n_gpu_tracks++;
		for (uint32_t i = t->first; i < t->first + t->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
				continue;
			if (e->ts < r->t0)
				r->t0 = e->ts;
			if (e->ts + e->dur > r->t1)
				r->t1 = e->ts + e->dur;
			switch (r->cats[e->cat].kind) {
			case TT_K_KERNEL:
				r->n_kernel++;
				break;
			case TT_K_MEMCPY:
				r->n_memcpy++;
				break;
			case TT_K_MEMSET:
				r->n_memset++;
				break;
			case TT_K_CPU_OP:
				r->n_cpu_op++;
				break;
			case TT_K_RUNTIME:
			case TT_K_DRIVER:
				r->n_runtime++;
				break;
			case TT_K_USER_ANNOT:
				r->n_annot++;
				if (strncmp(tt_ev_name(r, e), "ProfilerStep#", step_prefix_len) == 0)
					r->n_steps++;
				break;
			default:
				break;
			}
		}
	}
	if (r->t0 == INT64_MAX)
		r->t0 = r->t1 = 0;
	r->hta_round = b->any_float_ts || b->any_no_ts;
	r->nflows_total = b->nflows_total;
	if (b->frac3 && b->shortfrac)
		tt_report_warn(&b->rep, TT_W_MIXED_FRACTION, b->frac_off);
	if (r->n_kernel + r->n_memcpy + r->n_memset == 0)
		tt_report_warn(&b->rep, TT_W_NO_GPU, 0);
	if (!r->meta.has_devprops || (r->meta.ndevprops == 0 && r->n_gpu_tracks))
		if (r->meta.is_object)
			tt_report_warn(&b->rep, TT_W_NO_DEVPROPS, 0);
	uint64_t nx = 0;
	for (uint32_t i = 0; i < r->nev; i++)
		nx += r->ev[i].ph == 'X';
	if (!nx)
		tt_report_warn(&b->rep, TT_W_NO_X, 0);
	tt_report_merge(rep, &b->rep);
	r->report = *rep;
	r->bytes_model = tt_rank_memsize(r);
	b->r = NULL;
	return r;
}
