/* Queue length and memory bandwidth series (metrics.md §8, §9), and pandas
 * describe() of their samples.
 *
 * Both series are built the same way: collect signed steps, sort them by
 * (series, time, tie rule, event index), and run a cumulative sum.  HTA
 * sorts with numpy's unstable quicksort, so at equal times its order is
 * arbitrary; here it is fixed:
 *  - queue length: +1 (launch) before -1 (GPU start) at equal times.  A GPU
 *    op cannot start before its own launch, and this order is what a stable
 *    sort of HTA's concatenation [launches, GPU ops] gives.
 *  - bandwidth: ends (-b) before starts (+b) at equal times, so copies that
 *    touch are never counted as overlapping.
 * Among steps of the same sign at the same time the event index decides;
 * it changes no summary value, only which intermediate sample comes first. */
#include "config.h"

#include "tracetop/counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/testing.h"
#include "tracetop/utf8.h"
#include "tracetop/sort.h"
#include "tracetop/util.h"

/* ---- describe() ---- */

/* numpy's pairwise summation (numpy/core/src/umath/loops_utils.h.src) */
static double pairwise_sum(const double *a, size_t n)
{
	if (n < 8) {
		double res = 0.;
		for (size_t i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		double r[8], res;
		size_t i;
		for (int j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
			for (int j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

static inline bool dbl_before(const double *a, const double *b)
{
	return *a < *b;
}
/* (ascending, stable: the order of qsort with x < y ? -1 : x > y; no NaN
 * among the values sorted) */
TT_STABLE_SORT(dbl_sort, double, dbl_before)

/* Sort v ascending (as dbl_sort).  Whole numbers in a range no wider than
 * n (queue lengths, say) are counted instead, in one pass: the sorted
 * array holds each value as many times as v does, and equal values are the
 * same bits (-0, which equals 0 but is not the same bits, takes the sort). */
static void sort_values(double *v, size_t n)
{
	double lo = n ? v[0] : 0, hi = lo;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		if (!(fabs(x) < 0x1p52 && x == floor(x)) || (x == 0 && signbit(x))) {
			dbl_sort(v, n);
			return;
		}
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (hi - lo > (double)n) {
		dbl_sort(v, n);
		return;
	}
	size_t nvals = (size_t)(hi - lo) + 1;
	size_t *count = tt_calloc(nvals, sizeof(*count));
	for (size_t i = 0; i < n; i++)
		count[(size_t)(v[i] - lo)]++;
	size_t w = 0;
	for (size_t k = 0; k < nvals; k++)
		for (size_t c = 0; c < count[k]; c++)
			v[w++] = lo + (double)k;
	free(count);
}

/* numpy.percentile(method="linear") on sorted v: index q*(n-1), then
 * numpy's _lerp (which computes from the upper end when t >= 0.5) */
static double quantile(const double *v, size_t n, double q)
{
	double idx = q * (double)(n - 1);
	double lo = floor(idx);
	size_t i = (size_t)lo;
	if (i + 1 >= n)
		return v[n - 1];
	double t = idx - lo, a = v[i], b = v[i + 1], d = b - a;
	return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

void tt_describe(double *v, size_t n, struct tt_describe *d)
{
	d->count = n;
	d->mean = d->std = d->min = d->q25 = d->q50 = d->q75 = d->max = NAN;
	if (!n)
		return;
	/* mean and variance (pandas nanops: two passes) before sorting, so
	 * the sums run in the series' own order as in pandas */
	double mean = pairwise_sum(v, n) / (double)n;
	d->mean = mean;
	if (n > 1) {
		double *sq = tt_malloc(n * sizeof(*sq));
		for (size_t i = 0; i < n; i++)
			sq[i] = (mean - v[i]) * (mean - v[i]);
		d->std = sqrt(pairwise_sum(sq, n) / (double)(n - 1));
		free(sq);
	}
	sort_values(v, n);
	d->min = v[0];
	d->max = v[n - 1];
	d->q25 = quantile(v, n, 0.25);
	d->q50 = quantile(v, n, 0.5);
	d->q75 = quantile(v, n, 0.75);
}

/* ---- memory kinds ---- */

void tt_memory_kind(const char *name, char *buf, size_t n)
{
	if (strncmp(name, "Memset", 6) == 0) {
		snprintf(buf, n, "Memset");
		return;
	}
	if (strncmp(name, "Memcpy", 6) != 0) {
		snprintf(buf, n, "Memcpy Unknown");
		return;
	}
	/* the first 11 characters (code points, as Python slices) */
	size_t k = 0, chars = 0;
	while (name[k] && chars < 11) {
		k += tt_utf8_seqlen(name + k);
		chars++;
	}
	if (k >= n)
		k = n - 1;
	memcpy(buf, name, k);
	buf[k] = '\0';
}

/* ---- steps ---- */

struct step {
	uint32_t series; /* index into the rank's series list */
	int32_t order;   /* tie rank at equal times: lower first */
	int64_t ts;
	uint32_t ev;     /* event index (tie-breaker) */
	double delta;
};

/* by (series, ts, order, ev): steps equal in all four are equal in all */
static inline bool step_before(const struct step *x, const struct step *y)
{
	if (x->series != y->series)
		return x->series < y->series;
	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (x->order != y->order)
		return x->order < y->order;
	return x->ev < y->ev;
}
TT_STABLE_SORT(step_sort, struct step, step_before)

/* ---- queue length ---- */

static const char *const launch_names[] = {
	"cudaLaunchKernel",  "cudaLaunchKernelExC",
	"cuLaunchKernel",    "cuLaunchKernelEx",
	"cudaMemcpyAsync",   "cudaMemsetAsync",
	"runFunction - job_prep_and_submit_for_execution",
	"hipLaunchKernel",   "hipExtModuleLaunchKernel",
	"hipMemcpyAsync",    "hipMemsetAsync",
	"hipMemcpyWithStream",
};

/* a GPU track is one (device, stream): series are numbered per track */
struct qkey {
	int64_t device, stream;
};

static int qseries_cmp(const void *a, const void *b)
{
	const struct tt_queue_series *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->device < y->device ? -1 : x->device > y->device;
}

static void queue_series(const struct tt_sel *s, struct tt_counters_rank *out)
{
	const struct tt_rank *r = s->r;
	uint32_t ids[TT_ARRAY_SIZE(launch_names)];
	size_t nids = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(launch_names); i++) {
		uint32_t id = tt_strtab_find(&r->strs, launch_names[i], strlen(launch_names[i]));
		if (id != TT_NO_STR)
			ids[nids++] = id;
	}
	if (!nids || !r->nlinks)
		return;

	/* (two steps a link at most) */
	size_t nst = 0, cst = 2 * (size_t)r->nlinks;
	struct step *st = tt_malloc(cst * sizeof(*st));
	struct qkey *keys = NULL;
	size_t nkeys = 0, ckeys = 0;
	uint32_t *key_of = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*key_of));
	for (uint32_t t = 0; t < r->ntracks; t++)
		key_of[t] = UINT32_MAX;
	/* walk the links (sorted by launching event): each (launch, GPU op)
	 * pair gives +1 at the launch and -1 at the op, on the op's stream */
	for (uint32_t l = 0; l < r->nlinks; l++) {
		const struct tt_link *lk = &r->links[l];
		const struct tt_event *c = &r->ev[lk->cpu], *g = &r->ev[lk->gpu];
		if (!(g->flags & TT_EF_STREAM) || !tt_sel_has(s, lk->cpu) ||
		    !tt_sel_has(s, lk->gpu))
			continue;
		bool launch = false;
		for (size_t k = 0; k < nids && !launch; k++)
			launch = c->name == ids[k];
		if (!launch)
			continue;
		uint32_t ti = tt_track_of(r, lk->gpu);
		if (key_of[ti] == UINT32_MAX) {
			TT_GROW(keys, ckeys, nkeys + 1);
			keys[nkeys].device = r->tracks[ti].device;
			keys[nkeys].stream = r->tracks[ti].stream;
			key_of[ti] = (uint32_t)nkeys++;
		}
		uint32_t key = key_of[ti];
		st[nst++] = (struct step){key, 0, tt_sel_ts(s, c), lk->cpu, 1};
		st[nst++] = (struct step){key, 1, tt_sel_ts(s, g), lk->gpu, -1};
	}
	free(key_of);
	if (!nst) {
		free(st);
		free(keys);
		return;
	}
	/* grouped by series, launches before GPU ops: a few sorted runs a
	 * series (steps that compare equal are equal, so no order is lost) */
	size_t *at = tt_calloc(2 * nkeys + 1, sizeof(*at));
	for (size_t k = 0; k < nst; k++)
		at[2 * st[k].series + (st[k].delta < 0)]++;
	for (size_t k = 0, sum = 0; k < 2 * nkeys; k++) {
		size_t c = at[k];
		at[k] = sum;
		sum += c;
	}
	struct step *grouped = tt_malloc(nst * sizeof(*grouped));
	for (size_t k = 0; k < nst; k++)
		grouped[at[2 * st[k].series + (st[k].delta < 0)]++] = st[k];
	free(at);
	free(st);
	st = grouped;
	step_sort(st, nst);

	out->q = tt_calloc(nkeys, sizeof(*out->q));
	out->nq = nkeys;
	struct tt_sample *pts = tt_malloc(nst * sizeof(*pts));
	double *vals = tt_malloc(nst * sizeof(*vals));
	size_t i = 0;
	while (i < nst) {
		size_t j = i;
		int64_t len = 0;
		while (j < nst && st[j].series == st[i].series) {
			len += (int64_t)st[j].delta;
			pts[j].ts = st[j].ts;
			pts[j].value = (double)len;
			j++;
		}
		struct tt_queue_series *q = &out->q[st[i].series];
		q->device = keys[st[i].series].device;
		q->stream = keys[st[i].series].stream;
		q->npts = j - i;
		q->launches = (uint32_t)(q->npts / 2);
		q->pts = tt_malloc(q->npts * sizeof(*q->pts));
		memcpy(q->pts, pts + i, q->npts * sizeof(*q->pts));
		/* time at a full queue: each such sample holds until the next
		 * one; the last sample has no next (NaN in HTA, skipped) */
		for (size_t k = 0; k < q->npts; k++) {
			if (q->pts[k].value < TT_QUEUE_MAX)
				continue;
			q->reaches_max = true;
			if (k + 1 < q->npts)
				tt_sat_acc(&q->full_ns, q->pts[k + 1].ts - q->pts[k].ts);
		}
		q->full_rel = out->span_ns > 0 ? (double)q->full_ns / (double)out->span_ns : NAN;
		for (size_t k = 0; k < q->npts; k++)
			vals[k] = q->pts[k].value;
		tt_describe(vals, q->npts, &q->stats);
		i = j;
	}
	free(vals);
	free(pts);
	free(st);
	free(keys);
	qsort(out->q, out->nq, sizeof(*out->q), qseries_cmp);
}

/* ---- memory bandwidth ---- */

static int bw_cmp(const void *a, const void *b)
{
	const struct tt_bw_series *x = a, *y = b;
	return strcmp(x->name, y->name);
}

#define KIND_UNSET UINT32_MAX
#define KIND_NONE (UINT32_MAX - 1)

static void bw_series(const struct tt_sel *s, struct tt_counters_rank *out)
{
	const struct tt_rank *r = s->r;
	/* kind per name id, computed once per distinct name */
	uint32_t *kind_of = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*kind_of));
	for (uint32_t i = 0; i < r->strs.n; i++)
		kind_of[i] = KIND_UNSET;
	struct tt_bw_series *kinds = NULL;
	size_t nk = 0, ck = 0;
	struct step *st = NULL;
	size_t nst = 0, cst = 0;

	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *t = &r->tracks[ti];
		if (t->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = t->first; i < t->first + t->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || e->ph != 'X' || !tt_sel_has(s, i))
				continue;
			uint32_t *k = &kind_of[e->name];
			if (*k == KIND_UNSET) {
				const char *name = tt_ev_name(r, e);
				*k = KIND_NONE;
				if (tt_kernel_type(name, NULL) == TT_KT_MEM) {
					char kn[48];
					tt_memory_kind(name, kn, sizeof(kn));
					size_t j = 0;
					while (j < nk && strcmp(kinds[j].name, kn) != 0)
						j++;
					if (j == nk) {
						TT_GROW(kinds, ck, nk + 1);
						memset(&kinds[nk], 0, sizeof(kinds[nk]));
						memcpy(kinds[nk].name, kn, sizeof(kn));
						nk++;
					}
					*k = (uint32_t)j;
				}
			}
			if (*k == KIND_NONE)
				continue;
			double b = (e->flags & TT_EF_MINFO) ? r->minfo[e->aux].bw_gbps : 0.0;
			int64_t ts = tt_sel_ts(s, e), end = tt_sel_end(s, e);
			/* HTA turns dur 0 into 1 µs; a duration made negative by
			 * its rounding is an artefact too: both last 1 µs here */
			if (end <= ts)
				end = ts + 1000;
			kinds[*k].copies++;
			TT_GROW(st, cst, nst + 2);
			st[nst++] = (struct step){*k, 1, ts, i, b};
			st[nst++] = (struct step){*k, 0, end, i, -b};
		}
	}
	free(kind_of);
	if (!nst) {
		free(kinds);
		return;
	}
	step_sort(st, nst);
	/* the first copy of a kind in time gives its device */
	for (size_t i = 0; i < nst; i++)
		if (i == 0 || st[i].series != st[i - 1].series)
			kinds[st[i].series].device =
				r->tracks[tt_track_of(r, st[i].ev)].device;

	double *vals = tt_malloc(nst * sizeof(*vals));
	size_t i = 0;
	while (i < nst) {
		struct tt_bw_series *bs = &kinds[st[i].series];
		size_t j = i, nv = 0;
		double sum = 0;
		bs->pts = tt_malloc(2 * (size_t)bs->copies * sizeof(*bs->pts));
		while (j < nst && st[j].series == st[i].series) {
			sum += st[j].delta;
			/* floating residues of adding and removing different
			 * bandwidths are not traffic */
			if (fabs(sum) < 1e-9)
				sum = 0;
			bs->pts[bs->npts].ts = st[j].ts;
			bs->pts[bs->npts].value = sum;
			bs->npts++;
			if (sum > 0)
				vals[nv++] = sum;
			j++;
		}
		tt_describe(vals, nv, &bs->stats);
		i = j;
	}
	free(vals);
	free(st);
	qsort(kinds, nk, sizeof(*kinds), bw_cmp);
	out->bw = kinds;
	out->nbw = nk;
}

/* ---- sparklines ---- */

double tt_step_max(const struct tt_sample *pts, size_t n, int64_t t0, int64_t t1)
{
	/* first point with ts >= t0 */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pts[mid].ts < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the value held at t0: the last one before it, unless points at t0
	 * itself change it (they are counted below) */
	double v = -INFINITY;
	if (lo == n || pts[lo].ts > t0)
		v = lo ? pts[lo - 1].value : 0;
	for (size_t i = lo; i < n && pts[i].ts < t1; i++)
		if (pts[i].value > v)
			v = pts[i].value;
	/* an empty window (t1 <= t0) that starts on a point */
	return v == -INFINITY ? pts[lo].value : v;
}

/* ---- per rank ---- */

void tt_counters_rank_compute(const struct tt_model *m, size_t ri, const struct tt_aopts *o,
			      struct tt_counters_rank *out)
{
	memset(out, 0, sizeof(*out));
	const struct tt_rank *r = m->ranks[ri];
	out->r = r;
	out->ri = ri;
	struct tt_sel s;
	tt_sel_init(&s, m, ri, o);
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (uint32_t i = 0; i < r->nev; i++) {
		if (!tt_sel_has(&s, i))
			continue;
		const struct tt_event *e = &r->ev[i];
		int64_t ts = tt_sel_ts(&s, e);
		lo = TT_MIN(lo, ts);
		hi = TT_MAX(hi, ts);
		if (e->flags & TT_EF_STREAM)
			out->gpu = true;
	}
	out->span_ns = lo <= hi ? hi - lo : 0;
	queue_series(&s, out);
	bw_series(&s, out);
	tt_sel_free(&s);
}

void tt_counters_rank_free(struct tt_counters_rank *cr)
{
	for (size_t i = 0; i < cr->nq; i++)
		free(cr->q[i].pts);
	free(cr->q);
	for (size_t i = 0; i < cr->nbw; i++)
		free(cr->bw[i].pts);
	free(cr->bw);
	memset(cr, 0, sizeof(*cr));
}

struct job {
	const struct tt_model *m;
	const struct tt_aopts *o;
	struct tt_counters_rank *slot; /* per rank index */
};

static void one_rank(size_t ri, void *ctx)
{
	struct job *j = ctx;
	tt_counters_rank_compute(j->m, ri, j->o, &j->slot[ri]);
}

void tt_counters_compute(const struct tt_model *m, const struct tt_aopts *o,
			 struct tt_counters *out)
{
	memset(out, 0, sizeof(*out));
	struct tt_counters_rank *slot = tt_calloc(m->nranks + 1, sizeof(*slot));
	struct job j = {m, o, slot};
	tt_for_ranks(m, o, one_rank, &j);
	/* keep the selected ranks, in model order (ascending rank) */
	size_t n = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		if (slot[ri].r)
			slot[n++] = slot[ri];
	out->ranks = slot;
	out->nranks = n;
}

void tt_counters_free(struct tt_counters *c)
{
	for (size_t i = 0; i < c->nranks; i++)
		tt_counters_rank_free(&c->ranks[i]);
	free(c->ranks);
	memset(c, 0, sizeof(*c));
}
