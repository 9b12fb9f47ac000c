/* Two traces compared op by op (metrics.md §11; HTA hta/trace_diff.py,
 * add_iteration in hta/common/trace.py, shorten_name in hta/utils/utils.py). */
#include "config.h"

#include "tracetop/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

/* ---- HTA's parser view without the iteration filter ---- */

/* step number of a name id, cached (-2 = not computed yet) */
static int64_t step_of(const struct tt_rank *r, int64_t *cache, uint32_t id)
{
	if (id >= r->strs.n)
		return -1;
	if (cache[id] == -2)
		cache[id] = tt_step_number(tt_str(r, id));
	return cache[id];
}

static int64_t *step_cache(const struct tt_rank *r)
{
	int64_t *c = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*c));
	for (uint32_t i = 0; i <= r->strs.n; i++)
		c[i] = -2;
	return c;
}

/* ---- iterations ---- */

struct step {
	int64_t ts, end, n;
};

static int step_cmp(const void *a, const void *b, void *ctx)
{
	const struct step *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

uint32_t tt_diff_iterations(const struct tt_rank *r, bool round, int64_t *iter)
{
	struct tt_sel s = {.r = r, .keep = NULL, .round = round}; /* times only */
	int64_t *cache = step_cache(r);
	size_t ns = 0, cap = 0;
	struct step *st = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		iter[i] = -1;
		if (!tt_hta_parsed(r, e) || (e->flags & TT_EF_STREAM))
			continue;
		int64_t n = step_of(r, cache, e->name);
		if (n < 0)
			continue;
		TT_GROW(st, cap, ns + 1);
		st[ns++] = (struct step){tt_sel_ts(&s, e), tt_sel_end(&s, e), n};
	}
	free(cache);
	if (!ns) {
		free(st);
		return 0;
	}
	tt_msort(st, ns, sizeof(*st), step_cmp, NULL);
	/* reach[k]: the largest end among steps 0..k, to stop the walk back */
	int64_t *reach = tt_malloc(ns * sizeof(*reach));
	for (size_t k = 0; k < ns; k++)
		reach[k] = k && reach[k - 1] > st[k].end ? reach[k - 1] : st[k].end;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || (e->flags & TT_EF_STREAM))
			continue;
		int64_t t = tt_sel_ts(&s, e);
		size_t lo = 0, hi = ns; /* first step starting after t */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (st[mid].ts <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k-- > 0 && reach[k] > t;) {
			if (t < st[k].end) {
				iter[i] = st[k].n;
				break;
			}
		}
	}
	/* GPU events: the iteration of the call that launched them */
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || !(e->flags & TT_EF_STREAM))
			continue;
		uint32_t l = tt_launch_of(r, i);
		if (l != TT_NONE && tt_hta_parsed(r, &r->ev[l]) && !(r->ev[l].flags & TT_EF_STREAM))
			iter[i] = iter[l];
	}
	free(reach);
	free(st);
	return (uint32_t)ns;
}

/* ---- the steps of one rank ---- */

/* a rank's ProfilerStep#N (CPU side), one per number (the longest) */
struct rstep {
	int64_t n, dur;
	int64_t ts; /* its start (HTA's view) */
};

static int rstep_cmp(const void *a, const void *b, void *ctx)
{
	const struct rstep *x = a, *y = b;
	(void)ctx;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

/* The step numbers of r, ascending, with their durations (malloc'd; NULL
 * with 0 when none). */
static size_t rank_steps(const struct tt_rank *r, bool round, struct rstep **out)
{
	struct tt_sel s = {.r = r, .keep = NULL, .round = round};
	int64_t *cache = step_cache(r);
	size_t n = 0, cap = 0;
	struct rstep *v = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || (e->flags & TT_EF_STREAM))
			continue;
		int64_t num = step_of(r, cache, e->name);
		if (num < 0)
			continue;
		TT_GROW(v, cap, n + 1);
		v[n++] = (struct rstep){num, tt_sel_end(&s, e) - tt_sel_ts(&s, e), tt_sel_ts(&s, e)};
	}
	free(cache);
	tt_msort(v, n, sizeof(*v), rstep_cmp, NULL);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1].n != v[i].n)
			v[k++] = v[i];
	*out = v;
	return k;
}

/* ---- the rows: one per name, both sides ---- */

struct acc {
	const char *name;
	size_t len;
	int64_t count[2], dur[2];
	double sq[2]; /* sum over samples of the sample's duration squared */
};

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
	return h;
}

/* everything the comparison builds while it walks the ranks */
struct ctx {
	struct tt_diff *d;
	const struct tt_diff_opts *o;
	struct acc *acc;
	size_t nacc, capacc;
	struct tt_hmap index; /* name hash -> acc */
	/* one sample's sums per row, and the rows it touched */
	int64_t *tcnt, *tdur;
	uint32_t *touched;
	size_t ntouched, captmp, captouched;
	char *buf;
	size_t capbuf;
	/* per-sample metrics: (pair, its step j) */
	struct sample {
		int64_t num[2];
		double v[2][TT_DM_COUNT];
	} *smp;
	size_t nsmp, capsmp;
	struct tt_iv *iv;
	size_t capiv;
};

static uint32_t row_of(struct ctx *c, const char *name, size_t len)
{
	uint64_t h = hash_str(name, len);
	size_t pos;
	for (uint32_t v = tt_hmap_first(&c->index, h, &pos); v != TT_HMAP_NONE;
	     v = tt_hmap_next(&c->index, h, &pos))
		if (c->acc[v].len == len && memcmp(c->acc[v].name, name, len) == 0)
			return v;
	TT_GROW(c->acc, c->capacc, c->nacc + 1);
	struct acc *a = &c->acc[c->nacc];
	memset(a, 0, sizeof(*a));
	a->name = tt_arena_strndup(&c->d->strs, name, len);
	a->len = len;
	tt_hmap_add(&c->index, h, (uint32_t)c->nacc);
	if (c->nacc + 1 > c->captmp) {
		size_t cap = c->captmp;
		TT_GROW(c->tcnt, cap, c->nacc + 1);
		cap = c->captmp;
		TT_GROW(c->tdur, cap, c->nacc + 1);
		for (size_t i = c->captmp; i < cap; i++)
			c->tcnt[i] = c->tdur[i] = 0;
		c->captmp = cap;
	}
	return (uint32_t)c->nacc++;
}

/* The row of name id of r (cached in rowof). */
static uint32_t key_row(struct ctx *c, const struct tt_rank *r, uint32_t *rowof, uint32_t id)
{
	if (rowof[id] != UINT32_MAX)
		return rowof[id];
	const char *name = tt_str(r, id);
	size_t len = tt_strtab_len(&r->strs, id);
	uint32_t row;
	if (c->o->iteration == TT_DIFF_COMMON && tt_step_number(name) >= 0) {
		row = row_of(c, "ProfilerStep#*", 14);
	} else if (c->o->short_names) {
		TT_GROW(c->buf, c->capbuf, len + 1);
		size_t sl = tt_diff_short_name(name, c->buf);
		row = row_of(c, c->buf, sl);
	} else {
		row = row_of(c, name, len);
	}
	rowof[id] = row;
	return row;
}

static int num_cmp(const void *a, const void *b, void *ctx)
{
	const int64_t *x = a, *y = b; /* {number, index} */
	(void)ctx;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Count the events of rank r (side `side`) in steps nums[0..k) (whole: every
 * event, as one step) into the rows, and its per-step metrics into
 * c->smp[s0 .. s0 + k). */
static void walk_rank(struct ctx *c, int side, const struct tt_rank *r, const int64_t *nums,
		      size_t k, bool whole, size_t s0)
{
	const struct tt_diff_opts *o = c->o;
	struct tt_diff_side *sd = &c->d->side[side];
	struct tt_sel s = {.r = r, .keep = NULL, .round = r->hta_round && !o->exact};
	int64_t *iter = tt_malloc(((size_t)r->nev + 1) * sizeof(*iter));
	tt_diff_iterations(r, s.round, iter);
	struct rstep *rs;
	size_t nrs = rank_steps(r, s.round, &rs);
	/* nums sorted with their sample index, for the lookup of an event's step */
	int64_t(*look)[2] = tt_malloc((k + 1) * sizeof(*look));
	for (size_t j = 0; j < k; j++) {
		look[j][0] = whole ? -1 : nums[j];
		look[j][1] = (int64_t)j;
	}
	tt_msort(look, k, sizeof(*look), num_cmp, NULL);
	/* each event's sample: bucket by j (counting sort) */
	uint32_t *bucket = tt_malloc(((size_t)r->nev + 1) * sizeof(*bucket));
	size_t *start = tt_calloc(k + 2, sizeof(*start));
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		bucket[i] = UINT32_MAX;
		if (!tt_hta_parsed(r, e) || e->name >= r->strs.n)
			continue;
		size_t j = 0;
		if (!whole) {
			size_t lo = 0, hi = k;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (look[mid][0] < iter[i])
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == k || look[lo][0] != iter[i])
				continue;
			j = (size_t)look[lo][1];
		}
		bucket[i] = (uint32_t)j;
		start[j + 1]++;
	}
	for (size_t j = 0; j < k; j++)
		start[j + 1] += start[j];
	uint32_t *order = tt_malloc((start[k] + 1) * sizeof(*order));
	size_t *fill = tt_malloc((k + 1) * sizeof(*fill));
	memcpy(fill, start, (k + 1) * sizeof(*fill));
	for (uint32_t i = 0; i < r->nev; i++)
		if (bucket[i] != UINT32_MAX)
			order[fill[bucket[i]]++] = i;
	free(fill);
	free(bucket);

	uint32_t *rowof = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*rowof));
	uint8_t *ktype = tt_malloc((size_t)r->strs.n + 1);
	for (uint32_t id = 0; id <= r->strs.n; id++) {
		rowof[id] = UINT32_MAX;
		ktype[id] = 0xff;
	}
	for (size_t j = 0; j < k; j++) {
		struct sample *sm = &c->smp[s0 + j];
		double *v = sm->v[side];
		size_t niv = 0;
		sm->num[side] = whole ? -1 : nums[j];
		for (size_t q = start[j]; q < start[j + 1]; q++) {
			uint32_t i = order[q];
			const struct tt_event *e = &r->ev[i];
			bool gpu = e->flags & TT_EF_STREAM;
			int64_t ts = tt_sel_ts(&s, e), end = tt_sel_end(&s, e);
			int64_t dur = end - ts;
			if (!(o->device == TT_DIFF_GPU && !gpu) && !(o->device == TT_DIFF_CPU && gpu)) {
				uint32_t row = key_row(c, r, rowof, e->name);
				if (!c->tcnt[row]) {
					TT_GROW(c->touched, c->captouched, c->ntouched + 1);
					c->touched[c->ntouched++] = row;
				}
				c->tcnt[row]++;
				tt_sat_acc(&c->tdur[row], dur);
				sd->events++;
				tt_sat_acc(&sd->total_ns, dur);
			}
			if (!gpu)
				continue;
			if (ktype[e->name] == 0xff)
				ktype[e->name] = (uint8_t)tt_kernel_type(tt_str(r, e->name), NULL);
			switch (ktype[e->name]) {
			case TT_KT_COMP:
				v[TT_DM_COMP] += (double)dur;
				break;
			case TT_KT_COMM:
				v[TT_DM_COMM] += (double)dur;
				break;
			case TT_KT_MEM:
				v[TT_DM_MEM] += (double)dur;
				break;
			default:
				break;
			}
			TT_GROW(c->iv, c->capiv, niv + 1);
			c->iv[niv++] = (struct tt_iv){ts, end};
		}
		/* the sample's rows */
		for (size_t t = 0; t < c->ntouched; t++) {
			uint32_t row = c->touched[t];
			struct acc *a = &c->acc[row];
			a->count[side] += c->tcnt[row];
			tt_sat_acc(&a->dur[side], c->tdur[row]);
			a->sq[side] += (double)c->tdur[row] * (double)c->tdur[row];
			c->tcnt[row] = c->tdur[row] = 0;
		}
		c->ntouched = 0;
		/* its metrics: the step's window, and the GPU busy inside it (its
		 * GPU events run past it: clipped to it, so busy + idle is the
		 * step) */
		int64_t w0 = INT64_MIN, w1 = INT64_MAX;
		if (whole) {
			v[TT_DM_STEP] = (double)(r->t1 - r->t0);
		} else {
			v[TT_DM_STEP] = 0;
			size_t lo = 0, hi = nrs;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (rs[mid].n < nums[j])
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < nrs && rs[lo].n == nums[j]) {
				v[TT_DM_STEP] = (double)rs[lo].dur;
				w0 = rs[lo].ts;
				w1 = rs[lo].ts + rs[lo].dur;
			}
		}
		size_t nin = 0;
		for (size_t q = 0; q < niv; q++) {
			struct tt_iv x = c->iv[q];
			x.ts = TT_MAX(x.ts, w0);
			x.end = TT_MIN(x.end, w1);
			if (x.end > x.ts)
				c->iv[nin++] = x;
		}
		niv = tt_iv_merge(c->iv, nin);
		v[TT_DM_BUSY] = (double)tt_iv_total(c->iv, niv);
		v[TT_DM_IDLE] = fmax(0, v[TT_DM_STEP] - v[TT_DM_BUSY]);
	}
	free(rowof);
	free(ktype);
	free(order);
	free(start);
	free(look);
	free(rs);
	free(iter);
}

/* ---- which ranks and steps ---- */

static int i64_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* index in m->ranks of rank number `rank` (the first file of it), or SIZE_MAX */
/* rank number -> the index of its first file in m */
static void rank_firsts(const struct tt_model *m, struct tt_hmap *h)
{
	tt_hmap_reserve(h, m->nranks);
	for (size_t i = 0; i < m->nranks; i++) {
		uint32_t *v = tt_hmap_slot(h, (uint64_t)m->ranks[i]->rank);
		if (*v == TT_HMAP_NONE)
			*v = (uint32_t)i;
	}
}

static int ord_rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_model *m = ctx;
	int64_t x = m->ranks[*(const size_t *)a]->rank, y = m->ranks[*(const size_t *)b]->rank;
	return (x > y) - (x < y);
}

/* The side's ProfilerStep#N names over all its ranks (HTA looks at the
 * symbol table): how many distinct numbers, the smallest, and whether
 * `want` is one. */
static void side_steps(const struct tt_model *m, struct tt_diff_side *sd, int64_t want,
		       int64_t *first, bool *found)
{
	*first = -1;
	*found = false;
	size_t nsteps = 0, scap = 0;
	int64_t *steps = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		int64_t *cache = step_cache(r);
		for (uint32_t i = 0; i < r->nev; i++) {
			const struct tt_event *e = &r->ev[i];
			/* each name once per rank: skip ids already looked at */
			if (!tt_hta_parsed(r, e) || e->name >= r->strs.n || cache[e->name] != -2)
				continue;
			int64_t n = step_of(r, cache, e->name);
			if (n < 0)
				continue;
			TT_GROW(steps, scap, nsteps + 1);
			steps[nsteps++] = n;
			if (*first < 0 || n < *first)
				*first = n;
			if (n == want)
				*found = true;
		}
		free(cache);
	}
	/* distinct numbers (names repeat across ranks) */
	tt_msort(steps, nsteps, sizeof(*steps), i64_cmp, NULL);
	for (size_t i = 0; i < nsteps; i++)
		if (!i || steps[i] != steps[i - 1])
			sd->nsteps++;
	free(steps);
}

/* the rank pairs o asks for, into *pairs (indices into a->ranks, b->ranks) */
static int pick_pairs(struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
		      const struct tt_diff_opts *o, size_t (**pairs)[2], size_t *np,
		      struct tt_err *err)
{
	const struct tt_model *m[2] = {a, b};
	size_t cap = 0;
	*pairs = NULL;
	*np = 0;
	/* each side's rank numbers: their first file (one pass, not a walk of
	 * the ranks per rank) */
	struct tt_hmap first[2] = {{0}};
	for (int s = 0; s < 2; s++)
		rank_firsts(m[s], &first[s]);
	if (o->map || o->ranks) {
		size_t n = o->map ? o->nmap : o->nranks;
		struct tt_hmap seen = {0};
		int rc = 0;
		for (size_t k = 0; k < n && !rc; k++) {
			int64_t want[2] = {o->map ? o->map[k].a : o->ranks[k],
					   o->map ? o->map[k].b : o->ranks[k]};
			size_t idx[2];
			for (int s = 0; s < 2 && !rc; s++) {
				uint32_t v = tt_hmap_get(&first[s], (uint64_t)want[s]);
				idx[s] = v == TT_HMAP_NONE ? SIZE_MAX : v;
				if (idx[s] == SIZE_MAX)
					rc = tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
							"diff: the %s side has no rank %lld",
							s ? "test" : "control", (long long)want[s]);
			}
			if (rc)
				break;
			/* a rank listed twice counts once */
			uint32_t *dup = tt_hmap_slot(&seen, ((uint64_t)idx[0] << 32) | idx[1]);
			if (*dup != TT_HMAP_NONE)
				continue;
			*dup = 1;
			TT_GROW(*pairs, cap, *np + 1);
			(*pairs)[*np][0] = idx[0];
			(*pairs)[(*np)++][1] = idx[1];
		}
		tt_hmap_free(&seen);
		tt_hmap_free(&first[0]);
		tt_hmap_free(&first[1]);
		return rc;
	}
	/* the side's distinct rank numbers, ascending (first file of each) */
	size_t *ord[2], n[2];
	for (int s = 0; s < 2; s++) {
		ord[s] = tt_malloc((m[s]->nranks + 1) * sizeof(**ord));
		n[s] = 0;
		for (size_t i = 0; i < m[s]->nranks; i++)
			if (tt_hmap_get(&first[s], (uint64_t)m[s]->ranks[i]->rank) == i)
				ord[s][n[s]++] = i;
		/* by rank, stable (the model keeps its ranks sorted already) */
		tt_msort(ord[s], n[s], sizeof(*ord[s]), ord_rank_cmp, (void *)m[s]);
		tt_hmap_free(&first[s]);
	}
	if (o->iteration != TT_DIFF_COMMON) {
		/* HTA: each side's smallest rank */
		*pairs = tt_malloc(sizeof(**pairs));
		(*pairs)[0][0] = ord[0][0];
		(*pairs)[0][1] = ord[1][0];
		*np = 1;
	} else {
		/* rank numbers on both sides (both lists ascending) */
		size_t i = 0, j = 0;
		while (i < n[0] && j < n[1]) {
			int64_t ra = m[0]->ranks[ord[0][i]]->rank, rb = m[1]->ranks[ord[1][j]]->rank;
			if (ra != rb) {
				ra < rb ? i++ : j++;
				continue;
			}
			TT_GROW(*pairs, cap, *np + 1);
			(*pairs)[*np][0] = ord[0][i++];
			(*pairs)[(*np)++][1] = ord[1][j++];
		}
		if (!*np) {
			/* none in common: in order */
			d->ranks_by_order = true;
			*np = TT_MIN(n[0], n[1]);
			*pairs = tt_malloc((*np + 1) * sizeof(**pairs));
			for (size_t q = 0; q < *np; q++) {
				(*pairs)[q][0] = ord[0][q];
				(*pairs)[q][1] = ord[1][q];
			}
		}
		d->side[0].unpaired = (uint32_t)(n[0] - *np);
		d->side[1].unpaired = (uint32_t)(n[1] - *np);
	}
	free(ord[0]);
	free(ord[1]);
	return 0;
}

int tt_diff_pairs(const struct tt_model *a, const struct tt_model *b,
		  const struct tt_diff_opts *o, struct tt_diff_pair **out, size_t *n,
		  struct tt_err *err)
{
	struct tt_diff d;
	memset(&d, 0, sizeof(d));
	struct tt_diff_opts all = *o;
	all.iteration = TT_DIFF_COMMON;
	all.ranks = NULL;
	all.nranks = 0;
	size_t(*pairs)[2] = NULL, np = 0;
	*out = NULL;
	*n = 0;
	int rc = a->nranks && b->nranks ? pick_pairs(&d, a, b, &all, &pairs, &np, err) : 0;
	if (rc == 0) {
		*out = tt_malloc((np + 1) * sizeof(**out));
		for (size_t i = 0; i < np; i++)
			(*out)[i] = (struct tt_diff_pair){a->ranks[pairs[i][0]]->rank,
							  b->ranks[pairs[i][1]]->rank};
		*n = np;
	}
	free(pairs);
	return rc;
}

/* the step numbers of one pair: common ones, or both lists in order */
static size_t common_steps(const struct rstep *a, size_t na, const struct rstep *b, size_t nb,
			   int64_t *outa, int64_t *outb, bool *by_order)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb) {
		if (a[i].n != b[j].n) {
			a[i].n < b[j].n ? i++ : j++;
			continue;
		}
		outa[k] = outb[k] = a[i].n;
		k++;
		i++;
		j++;
	}
	if (k)
		return k;
	*by_order = true;
	k = TT_MIN(na, nb);
	for (size_t q = 0; q < k; q++) {
		outa[q] = a[q].n;
		outb[q] = b[q].n;
	}
	return k;
}

/* ---- the result ---- */

static int row_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct tt_diff_row *)a)->name, ((const struct tt_diff_row *)b)->name);
}

static int sample_cmp(const void *a, const void *b, void *ctx)
{
	const struct sample *x = a, *y = b;
	(void)ctx;
	for (int s = 0; s < 2; s++)
		if (x->num[s] != y->num[s])
			return x->num[s] < y->num[s] ? -1 : 1;
	return 0;
}

static void make_rows(struct ctx *c)
{
	struct tt_diff *d = c->d;
	double S = (double)(d->nsamples ? d->nsamples : 1);
	d->rows = tt_calloc(c->nacc + 1, sizeof(*d->rows));
	d->n = c->nacc;
	for (size_t i = 0; i < c->nacc; i++) {
		const struct acc *a = &c->acc[i];
		struct tt_diff_row *w = &d->rows[i];
		w->name = a->name;
		for (int s = 0; s < 2; s++) {
			w->count[s] = a->count[s];
			w->dur[s] = a->dur[s];
			w->mean[s] = (double)a->dur[s] / S;
			w->cmean[s] = (double)a->count[s] / S;
			double var = S > 1 ? (a->sq[s] - S * w->mean[s] * w->mean[s]) / (S - 1) : 0;
			w->sd[s] = var > 0 ? sqrt(var) : 0;
		}
		w->diff_count = w->count[1] - w->count[0];
		w->diff_dur = w->dur[1] - w->dur[0];
		w->dmean = w->mean[1] - w->mean[0];
		w->sign = w->diff_count > 0 ? '+' : w->diff_count < 0 ? '-' : '=';
		if (w->count[0] == 0)
			w->change = TT_DIFF_ADDED;
		else if (w->count[1] == 0)
			w->change = TT_DIFF_DELETED;
		else if (w->diff_count > 0)
			w->change = TT_DIFF_INCREASED;
		else if (w->diff_count < 0)
			w->change = TT_DIFF_DECREASED;
		else
			w->change = TT_DIFF_UNCHANGED;
		w->verdict = (uint8_t)tt_diff_judge(w->mean[0], w->mean[1], d->threshold, d->floor_ns);
		d->nchange[w->change]++;
		d->nverdict[w->verdict]++;
	}
	tt_msort(d->rows, d->n, sizeof(*d->rows), row_cmp, NULL);
}

/* the step table: samples of the same step numbers averaged over pairs */
static void make_steps(struct ctx *c)
{
	struct tt_diff *d = c->d;
	tt_msort(c->smp, c->nsmp, sizeof(*c->smp), sample_cmp, NULL);
	d->steps = tt_calloc(c->nsmp + 1, sizeof(*d->steps));
	for (size_t i = 0; i < c->nsmp; i++) {
		const struct sample *sm = &c->smp[i];
		struct tt_diff_step *st = &d->steps[d->nsteps];
		if (!st->npairs) {
			st->num[0] = sm->num[0];
			st->num[1] = sm->num[1];
		}
		st->npairs++;
		for (int s = 0; s < 2; s++)
			for (int m = 0; m < TT_DM_COUNT; m++)
				st->v[s][m] += sm->v[s][m];
		if (i + 1 == c->nsmp || sample_cmp(sm, sm + 1, NULL) != 0)
			d->nsteps++;
	}
	for (size_t i = 0; i < d->nsteps; i++) {
		struct tt_diff_step *st = &d->steps[i];
		for (int m = 0; m < TT_DM_COUNT; m++) {
			for (int s = 0; s < 2; s++)
				st->v[s][m] /= st->npairs;
			st->verdict[m] = (uint8_t)tt_diff_judge(st->v[0][m], st->v[1][m],
								d->threshold, d->floor_ns);
		}
	}
}

static bool step_row(const char *name)
{
	return tt_is_step_name(name) || strcmp(name, "ProfilerStep#*") == 0;
}

static void make_headline(struct tt_diff *d)
{
	struct tt_diff_headline *h = &d->head;
	h->slowest_step = h->rank = SIZE_MAX;
	double S = (double)(d->nsamples ? d->nsamples : 1);
	for (size_t i = 0; i < d->nsteps; i++) {
		if (d->steps[i].num[0] >= 0 || d->steps[i].num[1] >= 0)
			h->steps = true;
		for (int s = 0; s < 2; s++)
			h->t[s] += d->steps[i].v[s][TT_DM_STEP] * d->steps[i].npairs / S;
	}
	h->verdict = (uint8_t)tt_diff_judge(h->t[0], h->t[1], d->threshold, d->floor_ns);
	int dir = h->verdict == TT_DIFF_SLOWER ? 1 : h->verdict == TT_DIFF_FASTER ? -1 : 0;
	/* rows: the largest changes in the step's direction */
	for (size_t i = 0; i < d->n; i++) {
		const struct tt_diff_row *w = &d->rows[i];
		if (w->verdict == TT_DIFF_SAME || step_row(w->name))
			continue;
		double v = dir ? dir * w->dmean : fabs(w->dmean);
		if (v <= 0)
			continue;
		size_t k = h->ntop;
		while (k > 0) {
			const struct tt_diff_row *o = &d->rows[h->top[k - 1]];
			if ((dir ? dir * o->dmean : fabs(o->dmean)) >= v)
				break;
			k--;
		}
		if (k >= TT_ARRAY_SIZE(h->top))
			continue;
		size_t last = TT_MIN(h->ntop, TT_ARRAY_SIZE(h->top) - 1);
		memmove(&h->top[k + 1], &h->top[k], (last - k) * sizeof(h->top[0]));
		h->top[k] = i;
		if (h->ntop < TT_ARRAY_SIZE(h->top))
			h->ntop++;
	}
	/* the step and the rank pair that moved most (that way) */
	double best = 0;
	for (size_t i = 0; i < d->nsteps; i++) {
		double dv = d->steps[i].v[1][TT_DM_STEP] - d->steps[i].v[0][TT_DM_STEP];
		double v = dir ? dir * dv : fabs(dv);
		if (d->steps[i].verdict[TT_DM_STEP] != TT_DIFF_SAME && v > best) {
			best = v;
			h->slowest_step = i;
		}
	}
	best = 0;
	for (size_t i = 0; i < d->nranks; i++) {
		if (d->ranks[i].moved > best) {
			best = d->ranks[i].moved;
			h->rank = i;
		}
	}
}

int tt_diff(struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
	    const struct tt_diff_opts *o, struct tt_err *err)
{
	const struct tt_model *m[2] = {a, b};
	memset(d, 0, sizeof(*d));
	tt_arena_init(&d->strs, 64 * 1024);
	d->iteration = o->iteration;
	d->threshold = o->threshold;
	d->floor_ns = o->floor_ns;
	d->device = (uint8_t)o->device;
	d->short_names = o->short_names;
	d->exact = o->exact;
	for (int s = 0; s < 2; s++)
		d->side[s].iteration = -1;
	for (int s = 0; s < 2; s++)
		if (!m[s]->nranks)
			return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
					  "diff: the %s side has no rank", s ? "test" : "control");
	int64_t first[2];
	for (int s = 0; s < 2; s++) {
		bool found;
		side_steps(m[s], &d->side[s], o->iteration, &first[s], &found);
		if (o->iteration >= 0 && !found && d->side[s].nsteps)
			return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
					  "diff: the %s side has no ProfilerStep#%lld",
					  s ? "test" : "control", (long long)o->iteration);
	}
	size_t(*pairs)[2], np;
	int rc = pick_pairs(d, a, b, o, &pairs, &np, err);
	if (rc)
		return rc;

	struct ctx c = {.d = d, .o = o};
	d->ranks = tt_calloc(np + 1, sizeof(*d->ranks));
	d->nranks = np;
	bool *used[2];
	for (int s = 0; s < 2; s++)
		used[s] = tt_calloc(m[s]->nranks + 1, sizeof(*used[s]));
	for (size_t p = 0; p < np; p++) {
		const struct tt_rank *r[2] = {a->ranks[pairs[p][0]], b->ranks[pairs[p][1]]};
		bool round[2];
		struct rstep *rs[2];
		size_t nrs[2];
		for (int s = 0; s < 2; s++) {
			round[s] = r[s]->hta_round && !o->exact;
			nrs[s] = rank_steps(r[s], round[s], &rs[s]);
		}
		/* the steps of this pair, on each side */
		size_t kmax = TT_MAX(nrs[0], nrs[1]) + 1;
		int64_t *nums[2] = {tt_malloc(kmax * sizeof(int64_t)), tt_malloc(kmax * sizeof(int64_t))};
		bool whole[2] = {false, false};
		size_t k = 1;
		if (o->iteration >= 0) {
			nums[0][0] = nums[1][0] = o->iteration;
			for (int s = 0; s < 2; s++)
				whole[s] = !d->side[s].nsteps;
		} else if (o->iteration == TT_DIFF_FIRST) {
			for (int s = 0; s < 2; s++) {
				nums[s][0] = first[s];
				whole[s] = first[s] < 0;
			}
		} else if (nrs[0] && nrs[1]) {
			k = common_steps(rs[0], nrs[0], rs[1], nrs[1], nums[0], nums[1],
					 &d->steps_by_order);
		} else {
			whole[0] = whole[1] = true;
		}
		TT_GROW(c.smp, c.capsmp, c.nsmp + k);
		memset(&c.smp[c.nsmp], 0, k * sizeof(*c.smp));
		for (int s = 0; s < 2; s++) {
			walk_rank(&c, s, r[s], nums[s], k, whole[s], c.nsmp);
			if (!whole[s] && (d->side[s].iteration < 0 || nums[s][0] < d->side[s].iteration))
				d->side[s].iteration = nums[s][0];
			struct tt_diff_side *sd = &d->side[s];
			if (!used[s][pairs[p][s]]) {
				used[s][pairs[p][s]] = true;
				if (!sd->nranks || r[s]->rank < sd->first_rank) {
					sd->first_rank = r[s]->rank;
					sd->first_idx = (uint32_t)pairs[p][s];
				}
				sd->nranks++;
			}
		}
		/* the pair's row of the rank table */
		struct tt_diff_rank *rr = &d->ranks[p];
		for (int s = 0; s < 2; s++) {
			rr->rank[s] = r[s]->rank;
			rr->idx[s] = (uint32_t)pairs[p][s];
			int64_t *sv = tt_arena_alloc(&d->strs, k * sizeof(*sv));
			for (size_t j = 0; j < k; j++)
				sv[j] = whole[s] ? -1 : nums[s][j];
			rr->steps[s] = sv;
			for (size_t j = 0; j < k; j++)
				for (int mm = 0; mm < TT_DM_COUNT; mm++)
					rr->v[s][mm] += c.smp[c.nsmp + j].v[s][mm] / (double)k;
		}
		rr->nsteps = (uint32_t)k;
		for (int mm = 0; mm < TT_DM_COUNT; mm++)
			rr->verdict[mm] = (uint8_t)tt_diff_judge(rr->v[0][mm], rr->v[1][mm],
								 d->threshold, d->floor_ns);
		static const uint8_t parts[] = {TT_DM_COMP, TT_DM_COMM, TT_DM_MEM, TT_DM_IDLE};
		rr->most = TT_DM_COMP;
		for (size_t q = 0; q < TT_ARRAY_SIZE(parts); q++) {
			double dv = fabs(rr->v[1][parts[q]] - rr->v[0][parts[q]]);
			rr->moved += dv;
			if (dv > fabs(rr->v[1][rr->most] - rr->v[0][rr->most]))
				rr->most = parts[q];
		}
		c.nsmp += k;
		free(nums[0]);
		free(nums[1]);
		free(rs[0]);
		free(rs[1]);
	}
	d->nsamples = c.nsmp;
	make_rows(&c);
	make_steps(&c);
	make_headline(d);
	free(used[0]);
	free(used[1]);
	free(pairs);
	free(c.acc);
	tt_hmap_free(&c.index);
	free(c.tcnt);
	free(c.tdur);
	free(c.touched);
	free(c.buf);
	free(c.smp);
	free(c.iv);
	return 0;
}

void tt_diff_free(struct tt_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->steps);
	free(d->ranks);
	tt_arena_free(&d->strs);
	memset(d, 0, sizeof(*d));
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static int impact_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_diff_row *x = a, *y = b;
	(void)ctx;
	int64_t dx = abs64(x->diff_dur), dy = abs64(y->diff_dur);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = abs64(x->diff_count);
	dy = abs64(y->diff_count);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

void tt_diff_sort_impact(struct tt_diff *d)
{
	tt_msort(d->rows, d->n, sizeof(*d->rows), impact_cmp, NULL);
}

static int impact_idx_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_diff *d = ctx;
	return impact_cmp(&d->rows[*(const size_t *)a], &d->rows[*(const size_t *)b], NULL);
}

size_t *tt_diff_impact_order(const struct tt_diff *d)
{
	size_t *v = tt_malloc((d->n + 1) * sizeof(*v));
	for (size_t i = 0; i < d->n; i++)
		v[i] = i;
	tt_msort(v, d->n, sizeof(*v), impact_idx_cmp, (void *)d);
	return v;
}
