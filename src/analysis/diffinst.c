/* One name's instances on both sides of a diff: see diffinst.h. */
#include "config.h"

#include "tracetop/diffinst.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/drill.h"
#include "tracetop/hmap.h"
#include "tracetop/util.h"

struct coll {
	struct tt_dinsts *out;
	size_t cap;
};

static void add(struct coll *c, const struct tt_dinst *x)
{
	TT_GROW(c->out->v, c->cap, c->out->n + 1);
	c->out->v[c->out->n++] = *x;
}

/* The pair of each rank index of side s in d (the first that names it), or
 * NULL: an array of n (free it). */
static const struct tt_diff_rank **pairs_of(const struct tt_diff *d, int s, size_t n)
{
	const struct tt_diff_rank **v = tt_calloc(n + 1, sizeof(*v));
	for (size_t p = 0; d && p < d->nranks; p++)
		if (d->ranks[p].idx[s] < n && !v[d->ranks[p].idx[s]])
			v[d->ranks[p].idx[s]] = &d->ranks[p];
	return v;
}

/* The slots of pair pr's steps on side s: step number -> its index j among
 * them (the first when one repeats).  One lookup per instance instead of a
 * walk of the steps: a trace of many steps stays linear. */
static void slots_build(struct tt_hmap *h, const struct tt_diff_rank *pr, int s)
{
	memset(h, 0, sizeof(*h));
	if (!pr || !pr->steps[s])
		return;
	tt_hmap_reserve(h, pr->nsteps);
	for (uint32_t j = 0; j < pr->nsteps; j++) {
		uint32_t *v = tt_hmap_slot(h, (uint64_t)pr->steps[s][j]);
		if (*v == TT_HMAP_NONE)
			*v = j;
	}
}

/* index j of step n among the steps of slots, or SIZE_MAX */
static size_t step_slot(const struct tt_hmap *slots, int64_t n)
{
	uint32_t j = tt_hmap_get(slots, (uint64_t)n);
	return j == TT_HMAP_NONE ? SIZE_MAX : j;
}

static void fill_pair(struct tt_dinst *x, const struct tt_diff_rank *pr,
		      const struct tt_hmap *slots)
{
	x->pair_ri = UINT32_MAX;
	x->pair_step = -1;
	if (!pr)
		return;
	x->pair_ri = pr->idx[!x->side];
	size_t j = step_slot(slots, x->step);
	if (j != SIZE_MAX)
		x->pair_step = pr->steps[!x->side][j];
}

static int inst_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_dinst *x = a, *y = b;
	(void)ctx;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int bin_of(const struct tt_dinsts *k, int64_t dur)
{
	return tt_hist_bin(k->lo, k->hi, TT_DI_BINS, k->log_scale, dur);
}

/* sort, and each side's figures */
static void finish(struct tt_dinsts *k)
{
	k->share_max = 1;
	if (!k->n)
		return;
	tt_msort(k->v, k->n, sizeof(*k->v), inst_cmp, NULL);
	k->hi = k->v[0].dur;
	k->lo = k->v[k->n - 1].dur;
	k->nbins = k->hi > k->lo ? TT_DI_BINS : 1;
	/* the scale that shows more of both sides' shapes */
	k->log_scale = false;
	if (tt_hist_log(k->lo, k->hi)) {
		size_t lin[TT_DI_BINS] = {0}, lg[TT_DI_BINS] = {0};
		for (size_t i = 0; i < k->n; i++) {
			lin[tt_hist_bin(k->lo, k->hi, TT_DI_BINS, false, k->v[i].dur)]++;
			lg[tt_hist_bin(k->lo, k->hi, TT_DI_BINS, true, k->v[i].dur)]++;
		}
		k->log_scale = tt_hist_spread(lg, TT_DI_BINS, k->n) >
			       tt_hist_spread(lin, TT_DI_BINS, k->n);
	}
	for (int s = 0; s < 2; s++) {
		struct tt_dinst_side *w = &k->side[s];
		/* the k-th longest of the side, walking the sorted list */
		size_t seen = 0, mid_hi = SIZE_MAX, mid_lo = SIZE_MAX;
		__int128 total = 0; /* (exact: the mean stays right past int64) */
		for (size_t i = 0; i < k->n; i++)
			if (k->v[i].side == s)
				w->n++;
		if (!w->n)
			continue;
		/* (descending: the middle ones are at n/2 and (n-1)/2) */
		for (size_t i = 0; i < k->n; i++) {
			const struct tt_dinst *x = &k->v[i];
			if (x->side != s)
				continue;
			if (!seen)
				w->max = x->dur;
			w->min = x->dur;
			total += x->dur;
			if (seen == (w->n - 1) / 2)
				mid_hi = i;
			if (seen == w->n / 2)
				mid_lo = i;
			w->bins[bin_of(k, x->dur)]++;
			seen++;
		}
		w->total = tt_sat_128(total);
		w->mean = (double)total / (double)w->n;
		int64_t a = k->v[mid_hi].dur, b = k->v[mid_lo].dur;
		w->median = b + (a - b) / 2;
	}
	k->share_max = 0;
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < TT_DI_BINS && k->side[s].n; b++)
			k->share_max = TT_MAX(k->share_max,
					      (double)k->side[s].bins[b] / (double)k->side[s].n);
}

/* ---- a row of the diff ---- */

/* does name id of r fall in the diff's row `name`? (cache: 0 not known,
 * 1 yes, 2 no) */
static bool row_match(const struct tt_diff *d, const struct tt_rank *r, uint8_t *cache,
		      uint32_t id, const char *name, char **buf, size_t *cap)
{
	if (!cache[id]) {
		const char *nm = tt_str(r, id);
		size_t len = tt_strtab_len(&r->strs, id);
		bool yes;
		if (d->iteration == TT_DIFF_COMMON && tt_step_number(nm) >= 0) {
			yes = strcmp(name, "ProfilerStep#*") == 0;
		} else if (d->short_names) {
			TT_GROW(*buf, *cap, len + 1);
			tt_diff_short_name(nm, *buf);
			yes = strcmp(*buf, name) == 0;
		} else {
			yes = strcmp(nm, name) == 0;
		}
		cache[id] = yes ? 1 : 2;
	}
	return cache[id] == 1;
}

void tt_dinsts_of_row(const struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
		      const char *name, struct tt_dinsts *out)
{
	const struct tt_model *m[2] = {a, b};
	struct coll c = {.out = out};
	char *buf = NULL;
	size_t bufcap = 0;
	memset(out, 0, sizeof(*out));
	/* (once: it walks the ranks) */
	int64_t origins[2] = {tt_model_origin(a), tt_model_origin(b)};
	for (size_t p = 0; p < d->nranks; p++) {
		const struct tt_diff_rank *pr = &d->ranks[p];
		for (int s = 0; s < 2; s++) {
			if (pr->idx[s] >= m[s]->nranks || !pr->steps[s])
				continue;
			const struct tt_rank *r = m[s]->ranks[pr->idx[s]];
			int64_t origin = origins[s];
			struct tt_sel sel = {.r = r, .round = r->hta_round && !d->exact};
			int64_t *iter = tt_malloc(((size_t)r->nev + 1) * sizeof(*iter));
			tt_diff_iterations(r, sel.round, iter);
			uint8_t *cache = tt_calloc((size_t)r->strs.n + 1, 1);
			bool whole = pr->nsteps == 1 && pr->steps[s][0] < 0;
			struct tt_hmap slots;
			slots_build(&slots, pr, s);
			for (uint32_t i = 0; i < r->nev; i++) {
				const struct tt_event *e = &r->ev[i];
				if (!tt_hta_parsed(r, e) || e->name >= r->strs.n)
					continue;
				bool gpu = e->flags & TT_EF_STREAM;
				if ((d->device == TT_DIFF_GPU && !gpu) ||
				    (d->device == TT_DIFF_CPU && gpu))
					continue;
				if (!row_match(d, r, cache, e->name, name, &buf, &bufcap))
					continue;
				if (!whole && step_slot(&slots, iter[i]) == SIZE_MAX)
					continue;
				struct tt_dinst x = {
					.side = (uint8_t)s,
					.ri = pr->idx[s],
					.ev = i,
					.rank = r->rank,
					.step = whole ? -1 : iter[i],
					.start = e->ts - origin,
					.dur = tt_sel_end(&sel, e) - tt_sel_ts(&sel, e),
				};
				fill_pair(&x, pr, &slots);
				add(&c, &x);
			}
			tt_hmap_free(&slots);
			free(cache);
			free(iter);
		}
	}
	free(buf);
	finish(out);
}

/* ---- a kernel of a side-by-side pane ---- */

void tt_dinsts_of_kernel(const struct tt_model *const m[2], const struct tt_aopts *const o[2],
			 const struct tt_diff *d, const char *name, struct tt_dinsts *out)
{
	struct coll c = {.out = out};
	memset(out, 0, sizeof(*out));
	for (int s = 0; s < 2; s++) {
		if (!m[s])
			continue;
		int64_t origin = tt_model_origin(m[s]);
		const struct tt_diff_rank **pairs = pairs_of(d, s, m[s]->nranks);
		for (size_t ri = 0; ri < m[s]->nranks; ri++) {
			const struct tt_rank *r = m[s]->ranks[ri];
			if (!tt_aopts_has_rank(o[s], r->rank))
				continue;
			uint32_t id = tt_strtab_find(&r->strs, name, strlen(name));
			if (id == TT_NONE)
				continue;
			struct tt_sel sel;
			tt_sel_init(&sel, m[s], ri, o[s]);
			int64_t *iter = NULL;
			const struct tt_diff_rank *pr = pairs[ri];
			struct tt_hmap slots;
			slots_build(&slots, pr, s);
			for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
				for (uint32_t i = i0; i < i1; i++) {
					const struct tt_event *e = &r->ev[i];
					if (e->name != id || e->ph != 'X' ||
					    (e->flags & TT_EF_MARKER) || !tt_sel_has(&sel, i))
						continue;
					if (!iter) {
						iter = tt_malloc(((size_t)r->nev + 1) * sizeof(*iter));
						tt_diff_iterations(r, sel.round, iter);
					}
					struct tt_dinst x = {
						.side = (uint8_t)s,
						.ri = (uint32_t)ri,
						.ev = i,
						.rank = r->rank,
						.step = iter[i],
						.start = e->ts - origin,
						.dur = tt_sel_end(&sel, e) - tt_sel_ts(&sel, e),
					};
					fill_pair(&x, pr, &slots);
					add(&c, &x);
				}
			tt_hmap_free(&slots);
			free(iter);
			tt_sel_free(&sel);
		}
		free(pairs);
	}
	finish(out);
}

void tt_dinsts_free(struct tt_dinsts *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}

int64_t tt_dinsts_edge(const struct tt_dinsts *k, int b)
{
	return tt_hist_edge(k->lo, k->hi, TT_DI_BINS, k->log_scale, b);
}
