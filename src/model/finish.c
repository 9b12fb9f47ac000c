/* builder_finish(): B/E pairing, track order and names, the flat sorted
 * event array, runtime->GPU links, counters, statistics. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "tracetop/pool.h"
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
	/* (both ends are within 4e18 ns of 0: no overflow) */
	if (end_ts - beg->ts > TT_MAX_DUR_NS) {
		tt_report_warn(&b->rep, TT_W_LONG_DUR, 0);
		return;
	}
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
		const struct mthread *th = builder_thread(b, k, false);
		if (k->kind == TT_TRACK_GPU || k->kind == TT_TRACK_GPU_ANNOT) {
			struct tkey mk = {0, false, false, k->pid, k->tid};
			th = builder_thread(b, &mk, false);
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
		const struct mproc *pr = builder_proc(b, &pk, false);
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

/* ---- sorting one track ----
 *
 * Events are ordered by (start, -duration), ties in the order they came:
 * while a track is sorted, each event's `track` field holds its position
 * (reset afterwards), so the order is total and any sort gives the one
 * result.  Tracks come nearly in order: an event out of place by a few
 * positions is inserted where it belongs, the rare one far out of place
 * (an op written when it ends, long after its children) is set aside,
 * those are sorted, then merged back in one pass. */

static inline bool ev_before(const struct tt_event *x, const struct tt_event *y)
{
	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (x->dur != y->dur)
		return x->dur > y->dur;
	return x->track < y->track;
}

static void ev_msort(struct tt_event *a, struct tt_event *tmp, uint32_t n)
{
	if (n <= 16) {
		for (uint32_t i = 1; i < n; i++) {
			if (!ev_before(&a[i], &a[i - 1]))
				continue;
			struct tt_event x = a[i];
			uint32_t j = i;
			while (j > 0 && ev_before(&x, &a[j - 1])) {
				a[j] = a[j - 1];
				j--;
			}
			a[j] = x;
		}
		return;
	}
	uint32_t h = n / 2;
	ev_msort(a, tmp, h);
	ev_msort(a + h, tmp, n - h);
	if (!ev_before(&a[h], &a[h - 1]))
		return; /* already in order */
	memcpy(tmp, a, (size_t)h * sizeof(*a));
	uint32_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		if (ev_before(&a[j], &tmp[i]))
			a[k++] = a[j++];
		else
			a[k++] = tmp[i++];
	}
	while (i < h)
		a[k++] = tmp[i++];
}

#define NEAR 16 /* how far back an event is inserted in place */

static void sort_run(struct tt_event *ev, uint32_t n, int depth)
{
	struct tt_event *far = NULL;
	uint32_t nfar = 0, cfar = 0, m = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct tt_event x = ev[i];
		if (m == 0 || !ev_before(&x, &ev[m - 1])) {
			ev[m++] = x;
			continue;
		}
		if (m > NEAR && ev_before(&x, &ev[m - 1 - NEAR])) {
			if (nfar == cfar) {
				cfar = cfar ? cfar * 2 : 64;
				far = tt_realloc_array(far, cfar, sizeof(*far));
			}
			far[nfar++] = x;
			continue;
		}
		uint32_t j = m - 1;
		while (j > 0 && ev_before(&x, &ev[j - 1]))
			j--;
		memmove(ev + j + 1, ev + j, (size_t)(m - j) * sizeof(*ev));
		ev[j] = x;
		m++;
	}
	if (!nfar)
		return;
	/* what was set aside is often a sorted block of its own (Kineto
	 * writes a thread's runtime calls after its ops) */
	if (depth < 8) {
		sort_run(far, nfar, depth + 1);
	} else {
		struct tt_event *tmp = tt_malloc(((size_t)nfar / 2 + 1) * sizeof(*tmp));
		ev_msort(far, tmp, nfar);
		free(tmp);
	}
	/* merge from the back: the free space is at the end of ev */
	uint32_t k = n, i = m, j = nfar;
	while (j > 0) {
		if (i > 0 && ev_before(&far[j - 1], &ev[i - 1]))
			ev[--k] = ev[--i];
		else
			ev[--k] = far[--j];
	}
	free(far);
}

static void sort_events(struct tt_event *ev, uint32_t n)
{
	sort_run(ev, n, 0);
}

static bool same_event(const struct tt_event *a, const struct tt_event *b)
{
	return a->ts == b->ts && a->dur == b->dur && a->name == b->name && a->corr == b->corr &&
	       a->ext == b->ext && a->cat == b->cat && a->ph == b->ph &&
	       (a->corr != TT_NONE || a->ext != TT_NONE);
}

/* ---- identical duplicates (merged files) ----
 * An event with an id (correlation or External id) equal in every field
 * same_event compares to an earlier one is a duplicate; an event without
 * an id never is.  Equal events share (ts, dur), so they lie in one run of
 * the sorted track: a short run is compared pair by pair (at most DUP_PAIRS
 * events, so DUP_PAIRS^2 / 2 comparisons), a longer one sorted by those
 * fields (r log r), so that a million events at one time cost no more than
 * a million at different times. */

#define DUP_PAIRS 16

struct dup_ctx {
	const struct tt_event *ev;
};

static int dup_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_event *ev = ((const struct dup_ctx *)ctx)->ev;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct tt_event *x = &ev[i], *y = &ev[j];
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	if (x->ext != y->ext)
		return x->ext < y->ext ? -1 : 1;
	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	if (x->ph != y->ph)
		return x->ph < y->ph ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Drop the duplicates of ev[0..w) in place (the others keep their order);
 * returns how many are kept and adds the dropped to *ndup. */
static uint32_t drop_duplicates(struct tt_event *ev, uint32_t w, uint64_t *ndup)
{
	uint32_t *ord = NULL; /* a long run's positions, sorted */
	uint8_t *dup = NULL;  /* by position in the run: 1 = a duplicate */
	size_t cap = 0;
	uint32_t k = 0;
	for (uint32_t g = 0, e; g < w; g = e) {
		for (e = g + 1; e < w && ev[e].ts == ev[g].ts && ev[e].dur == ev[g].dur; e++)
			;
		uint32_t n = e - g;
		if (n > DUP_PAIRS) {
			if (n > cap) {
				cap = n;
				free(ord);
				free(dup);
				ord = tt_malloc(cap * sizeof(*ord));
				dup = tt_malloc(cap);
			}
			for (uint32_t i = 0; i < n; i++)
				ord[i] = g + i;
			memset(dup, 0, n);
			struct dup_ctx c = {ev};
			tt_msort(ord, n, sizeof(*ord), dup_cmp, &c);
			/* in each class of equal events the first by position stays */
			for (uint32_t i = 1; i < n; i++)
				if (same_event(&ev[ord[i - 1]], &ev[ord[i]]))
					dup[ord[i] - g] = 1;
		}
		uint32_t k0 = k; /* this run's events kept so far: ev[k0..k) */
		for (uint32_t i = g; i < e; i++) {
			bool d = false;
			if (n > DUP_PAIRS)
				d = dup[i - g];
			else
				for (uint32_t m = k0; m < k && !d; m++)
					d = same_event(&ev[m], &ev[i]);
			if (d) {
				(*ndup)++;
				continue;
			}
			ev[k++] = ev[i];
		}
	}
	free(ord);
	free(dup);
	return k;
}

/* ---- links ---- */

/* Stable LSD radix sort of 64-bit words by their high 32 bits, one byte
 * per pass (passes where every word has the same byte are skipped). */
static void sort_hi32(uint64_t *a, size_t n)
{
	if (n < 2)
		return;
	uint64_t *tmp = tt_malloc(n * sizeof(*tmp));
	uint64_t *src = a, *dst = tmp;
	for (int shift = 32; shift < 64; shift += 8) {
		size_t cnt[256] = {0};
		for (size_t i = 0; i < n; i++)
			cnt[(src[i] >> shift) & 0xFF]++;
		if (cnt[(src[0] >> shift) & 0xFF] == n)
			continue;
		size_t sum = 0;
		for (int k = 0; k < 256; k++) {
			size_t c = cnt[k];
			cnt[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 0xFF]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(tmp);
}

/* (ts, event index) of one member of a correlation group */
struct corr_member {
	int64_t ts;
	uint32_t ev;
};

static int member_cmp(const void *a, const void *b, void *ctx)
{
	const struct corr_member *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* the members [p, p+n) of one group (words as built below), in time order */
static struct corr_member *in_time_order(const struct tt_rank *r, const uint64_t *p, size_t n)
{
	struct corr_member *m = tt_malloc(n * sizeof(*m));
	for (size_t k = 0; k < n; k++) {
		m[k].ev = (uint32_t)p[k];
		m[k].ts = r->ev[m[k].ev].ts;
	}
	tt_msort(m, n, sizeof(*m), member_cmp, NULL);
	return m;
}

/* Runtime -> GPU links by correlation id, in O(n log n).  One launching
 * call with an id links to every GPU op with it (a CUDA graph launch runs
 * several).  An id that several calls share (merged or wrapped ids, a writer
 * that puts 0 everywhere) is paired in time order instead: the k-th call
 * with the k-th GPU op, the rest left unlinked; the calls that share an id
 * are counted in one warning.  (A cross product would be quadratic: 20,000
 * calls and kernels with one id would make 4e8 links.) */
static void build_links(struct tt_rank *r, struct tt_load_report *rep)
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
	/* (corr, event index) as one word: sorting by corr keeps the indices,
	 * which were added in order, ascending */
	uint64_t *g = tt_malloc(ng * sizeof(*g)), *c = tt_malloc(nc * sizeof(*c));
	ng = nc = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->corr == TT_NONE)
			continue;
		bool gpu = (e->flags & TT_EF_STREAM) || e->name == sync1 || e->name == sync2;
		uint64_t x = (uint64_t)e->corr << 32 | i;
		if (gpu)
			g[ng++] = x;
		else
			c[nc++] = x;
	}
	sort_hi32(g, ng);
	sort_hi32(c, nc);
	/* pairs as (cpu, gpu) words; at most one per GPU op */
	uint64_t *pairs = tt_malloc(ng * sizeof(*pairs));
	size_t n = 0, i = 0, j = 0;
	uint64_t shared = 0;
	while (i < ng && j < nc) {
		uint32_t gc = (uint32_t)(g[i] >> 32), cc = (uint32_t)(c[j] >> 32);
		if (gc < cc) {
			i++;
		} else if (gc > cc) {
			j++;
		} else {
			size_t i2 = i, j2 = j;
			while (i2 < ng && (uint32_t)(g[i2] >> 32) == gc)
				i2++;
			while (j2 < nc && (uint32_t)(c[j2] >> 32) == gc)
				j2++;
			if (j2 - j == 1) {
				for (size_t y = i; y < i2; y++)
					pairs[n++] = (c[j] & 0xFFFFFFFFu) << 32 | (g[y] & 0xFFFFFFFFu);
			} else {
				struct corr_member *mc = in_time_order(r, c + j, j2 - j);
				struct corr_member *mg = in_time_order(r, g + i, i2 - i);
				size_t k2 = TT_MIN(j2 - j, i2 - i);
				for (size_t k = 0; k < k2; k++)
					pairs[n++] = (uint64_t)mc[k].ev << 32 | mg[k].ev;
				free(mc);
				free(mg);
				shared += j2 - j;
			}
			i = i2;
			j = j2;
		}
	}
	free(g);
	free(c);
	if (shared) {
		if (!rep->count[TT_W_DUP_CORR])
			rep->first_off[TT_W_DUP_CORR] = 0;
		rep->count[TT_W_DUP_CORR] += shared;
	}
	/* by launching event; one launch has one corr, so its GPU ops are
	 * already in order */
	sort_hi32(pairs, n);
	struct tt_link *links = n ? tt_malloc(n * sizeof(*links)) : NULL;
	uint64_t *by_gpu = tt_malloc((n ? n : 1) * sizeof(*by_gpu));
	for (size_t k = 0; k < n; k++) {
		uint32_t cpu = (uint32_t)(pairs[k] >> 32), gpu = (uint32_t)pairs[k];
		links[k].corr = r->ev[cpu].corr;
		links[k].cpu = cpu;
		links[k].gpu = gpu;
		by_gpu[k] = (uint64_t)gpu << 32 | k;
	}
	free(pairs);
	sort_hi32(by_gpu, n);
	r->links = links;
	r->nlinks = (uint32_t)n;
	r->links_by_gpu = tt_malloc((n ? n : 1) * sizeof(*r->links_by_gpu));
	for (size_t k = 0; k < n; k++)
		r->links_by_gpu[k] = (uint32_t)by_gpu[k];
	free(by_gpu);
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

/* ---- the tracks' events into the flat array ---- */

struct fin_track {
	uint32_t src;   /* builder track */
	uint32_t nt;    /* its index in the rank */
	uint32_t off;   /* where its events were copied */
	uint32_t count; /* events kept */
	uint64_t nzero, ndup;
	struct tt_track t;
};

struct fin_job {
	struct builder *b;
	struct tt_rank *r;
	struct fin_track *ft;
	uint32_t n;
	bool drop_zero;
	int64_t base;
	uint32_t *by_size; /* tracks, biggest first (threads take them in turn) */
};

/* one track: copy (dropping zero events), sort, drop identical
 * duplicates, bounds.  Touches only its own track and range. */
static void finish_track(struct fin_job *j, struct fin_track *f)
{
	struct stage_track *st = &j->b->tracks[f->src];
	struct tt_event *ev = j->r->ev + f->off;
	uint32_t w = 0;
	for (struct chunk *c = st->head; c; c = c->next) {
		for (uint32_t k = 0; k < c->n; k++) {
			const struct tt_event *e = &c->ev[k];
			if (j->drop_zero && e->ts == 0 && e->dur == 0 && e->ph == 'X' &&
			    !(e->flags & TT_EF_MARKER)) {
				f->nzero++;
				continue;
			}
			ev[w] = *e;
			ev[w].ts += j->base;
			ev[w].track = w; /* position, for sort_events */
			w++;
		}
	}
	free_chunks(st);
	if (st->unsorted)
		sort_events(ev, w);
	uint32_t k = drop_duplicates(ev, w, &f->ndup);
	struct tt_track t = st->t;
	t.t0 = INT64_MAX;
	t.t1 = INT64_MIN;
	t.max_dur = 0;
	for (uint32_t i = 0; i < k; i++) {
		struct tt_event *e = &ev[i];
		e->track = f->nt;
		if (e->dur > t.max_dur)
			t.max_dur = e->dur;
		if (e->flags & TT_EF_MARKER)
			continue;
		if (e->ts < t.t0)
			t.t0 = e->ts;
		if (e->ts + e->dur > t.t1)
			t.t1 = e->ts + e->dur;
	}
	if (k == 0)
		t.t0 = t.t1 = 0;
	f->count = k;
	f->t = t;
}

static void track_item(size_t i, void *ctx)
{
	struct fin_job *j = ctx;
	finish_track(j, &j->ft[j->by_size[i]]);
}

static int by_size_cmp(const void *a, const void *b, void *ctx)
{
	const struct fin_job *j = ctx;
	uint32_t x = j->b->tracks[j->ft[*(const uint32_t *)a].src].n;
	uint32_t y = j->b->tracks[j->ft[*(const uint32_t *)b].src].n;
	return x > y ? -1 : x < y;
}

#define PAR_MIN_EVENTS 100000 /* fewer: one thread finishes them faster */

static void run_tracks(struct fin_job *j, size_t total)
{
	int nth = j->b->fin_threads > 1 && total >= PAR_MIN_EVENTS ? j->b->fin_threads : 1;
	if (nth > (int)j->n)
		nth = (int)j->n;
	if (nth <= 1) {
		for (uint32_t i = 0; i < j->n; i++)
			finish_track(j, &j->ft[i]);
		return;
	}
	j->by_size = tt_malloc(j->n * sizeof(*j->by_size));
	for (uint32_t i = 0; i < j->n; i++)
		j->by_size[i] = i;
	tt_msort(j->by_size, j->n, sizeof(*j->by_size), by_size_cmp, j);
	/* the largest tracks first */
	tt_parallel_for(j->n, nth, track_item, j);
	free(j->by_size);
	j->by_size = NULL;
}

static void warn_n(struct tt_load_report *rep, enum tt_warning w, uint64_t n)
{
	if (!n)
		return;
	if (!rep->count[w])
		rep->first_off[w] = 0;
	rep->count[w] += n;
}

/* ---- statistics ---- */

void rank_stats(struct tt_rank *r)
{
	r->t0 = INT64_MAX;
	r->t1 = INT64_MIN;
	r->n_kernel = r->n_memcpy = r->n_memset = r->n_cpu_op = r->n_runtime = r->n_annot = 0;
	r->n_gpu_tracks = r->n_steps = 0;
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
}

/* ---- finish ---- */

struct tt_rank *builder_finish(struct builder *b, struct tt_trace_meta *meta,
			       struct tt_load_report *rep)
{
	struct tt_rank *r = b->r;
	/* a base that puts times beyond 4e18 ns is ignored (trace.h) */
	if (meta->has_base_time && b->max_ts > TT_MAX_TS_NS - meta->base_time_ns) {
		tt_report_warn(&b->rep, TT_W_BASE_RANGE, 0);
		meta->has_base_time = false;
	}
	int64_t base = meta->has_base_time ? meta->base_time_ns : 0;
	r->base_ns = base;
	r->meta = *meta;
	memset(meta, 0, sizeof(*meta));
	pair_be(b);
	name_tracks(b);

	bool drop_zero = b->nzero && b->min_ts_nonzero != INT64_MAX && b->min_ts_nonzero > 0;

	/* order the tracks; each one's events go to its place in the flat
	 * array (several tracks at once), then the array is closed up */
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
	struct fin_track *ft = tt_calloc(b->ntracks + 1, sizeof(*ft));
	uint32_t off = 0;
	for (uint32_t oi = 0; oi < b->ntracks; oi++) {
		ft[oi].src = order[oi];
		ft[oi].nt = oi;
		ft[oi].off = off;
		off += b->tracks[order[oi]].n;
	}
	struct fin_job job = {b, r, ft, (uint32_t)b->ntracks, drop_zero, base, NULL};
	run_tracks(&job, total);
	uint32_t w = 0, nt = 0;
	r->t0 = INT64_MAX;
	r->t1 = INT64_MIN;
	for (uint32_t oi = 0; oi < b->ntracks; oi++) {
		struct fin_track *f = &ft[oi];
		if (f->off != w && f->count)
			memmove(r->ev + w, r->ev + f->off, (size_t)f->count * sizeof(*r->ev));
		struct tt_track t = f->t;
		t.first = w;
		t.count = f->count;
		w += f->count;
		warn_n(&b->rep, TT_W_ZERO_TS, f->nzero);
		warn_n(&b->rep, TT_W_DUP_EVENT, f->ndup);
		newpos[order[oi]] = nt;
		r->tracks[nt++] = t;
	}
	free(ft);
	r->nev = w;
	r->ntracks = nt;
	if (w < total)
		r->ev = tt_realloc_array(r->ev, w ? w : 1, sizeof(*r->ev));
	for (uint32_t i = 0; i < r->nflows; i++)
		r->flows[i].track = newpos[r->flows[i].track];
	for (uint32_t i = 0; i < r->nopinfo; i++)
		if (r->opinfo[i].thread != TT_NONE)
			r->opinfo[i].thread = newpos[r->opinfo[i].thread];
	for (uint32_t i = 0; i < r->nflows; i++)
		r->flows[i].ts += base;
	free(order);
	free(newpos);

	build_links(r, &b->rep);
	build_counters(b, base);

	rank_stats(r);
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
