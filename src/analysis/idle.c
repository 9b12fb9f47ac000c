/* Idle time breakdown per GPU stream (HTA get_idle_time_breakdown,
 * metrics.md §4). */
#include "config.h"

#include "tracetop/idle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/sort.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

#include "optree.h"

const char *tt_idle_cat_name(enum tt_idle_cat c)
{
	static const char *const n[] = {"host_wait", "kernel_wait", "other"};
	return (unsigned)c < TT_IDLE_NCAT ? n[c] : "other";
}

/* ---- describe() ---- */

/* numpy's _lerp (1.24): a + (b-a)*t, or b - (b-a)*(1-t) when t >= 0.5 */
static double lerp(double a, double b, double t)
{
	double d = b - a;
	return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

/* numpy percentile, method "linear": virtual index (n-1)*q */
static double quantile(const double *v, size_t n, double q)
{
	double vi = (double)(n - 1) * q;
	double lo = floor(vi);
	size_t i = (size_t)lo;
	size_t j = i + 1 < n ? i + 1 : n - 1;
	return lerp(v[i], v[j], vi - lo);
}

void tt_idle_describe(const double *v, size_t n, struct tt_idle_stats *st)
{
	st->count = (uint32_t)n;
	st->mean = st->std = st->min = st->q25 = st->q50 = st->q75 = st->max = NAN;
	if (!n)
		return;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	st->mean = sum / (double)n;
	if (n > 1) {
		/* pandas nanvar: mean first, then the squared deviations */
		double sq = 0;
		for (size_t i = 0; i < n; i++) {
			double d = st->mean - v[i];
			sq += d * d;
		}
		st->std = sqrt(sq / (double)(n - 1));
	}
	st->min = v[0];
	st->max = v[n - 1];
	st->q25 = quantile(v, n, 0.25);
	st->q50 = quantile(v, n, 0.5);
	st->q75 = quantile(v, n, 0.75);
}

static inline bool dbl_before(const double *a, const double *b)
{
	return *a < *b;
}
/* (ascending, stable: the order of qsort with x < y ? -1 : x > y; no NaN
 * among the values sorted) */
TT_STABLE_SORT(dbl_sort, double, dbl_before)

/* ---- per rank ---- */

/* a kernel of G_k as HTA sees it */
struct kern {
	int64_t stream;
	int64_t ts, end;
	uint32_t idx;
};

static int kern_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct kern *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* HTA's sort is unstable here; the model's order (longer first
	 * within a track) is our tie-breaker */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

enum tt_idle_cat tt_idle_gap_cat(int64_t launch, int64_t prev_end, int64_t dur, double delay_ns)
{
	if (launch != INT64_MIN && launch > prev_end)
		return TT_IDLE_HOST_WAIT;
	if ((double)dur < delay_ns)
		return TT_IDLE_KERNEL_WAIT;
	return TT_IDLE_OTHER;
}

/* HTA's G_k categories, spelled exactly */
bool tt_idle_gk_cat(const char *s)
{
	static const char *const names[] = {"kernel", "Kernel",	"gpu_memset",     "Memset",
					    "gpu_memcpy", "Memcpy", "mtia_ccp_events"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(names); i++)
		if (strcmp(s, names[i]) == 0)
			return true;
	return false;
}

struct rank_out {
	bool no_gpu;
	int64_t gpu_t0;
	struct tt_idle_stream *streams;
	size_t nstreams;
	struct tt_idle_gap *gaps;
	size_t ngaps;
};

struct ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	double delay_ns;
	struct rank_out *out; /* one per model rank */
};

/* Categories and statistics of one stream: kernels k[0..n). */
static void one_stream(const struct ctx *c, const struct tt_sel *s, size_t ri, const struct kern *k,
		       size_t n, struct tt_idle_stream *st, struct tt_idle_gap *g, double *scratch)
{
	const struct tt_rank *r = s->r;
	memset(st, 0, sizeof(*st));
	st->rank_idx = (uint32_t)ri;
	st->rank = r->rank;
	st->stream = k[0].stream;
	st->track = tt_track_of(r, k[0].idx);
	st->nkernels = (uint32_t)n;
	st->ngaps = n - 1;
	/* the first kernel: category other, no gap */
	st->cat[TT_IDLE_OTHER].present = true;
	uint32_t lpos = 0; /* (tt_launch_of_from: a stream's kernels come in event order) */
	for (size_t i = 1; i < n; i++) {
		struct tt_idle_gap *w = &g[i - 1];
		int64_t prev_end = k[i - 1].end;
		uint32_t l = tt_launch_of_from(r, k[i].idx, &lpos);
		w->rank_idx = (uint32_t)ri;
		w->prev = k[i - 1].idx;
		w->next = k[i].idx;
		w->track = tt_track_of(r, k[i].idx);
		w->start = prev_end;
		w->dur = k[i].ts - prev_end;
		w->launch = INT64_MIN;
		if (l != TT_NONE && tt_sel_has(s, l))
			w->launch = tt_sel_ts(s, &r->ev[l]);
		w->cat = (uint8_t)tt_idle_gap_cat(w->launch, prev_end, w->dur, c->delay_ns);
		st->cat[w->cat].present = true;
		tt_sat_acc(&st->cat[w->cat].idle_ns, w->dur);
		tt_sat_acc(&st->idle_ns, w->dur);
		if (i == 1 || w->dur > st->max_gap_ns)
			st->max_gap_ns = w->dur;
	}
	for (int cat = 0; cat < TT_IDLE_NCAT; cat++) {
		struct tt_idle_catsum *cs = &st->cat[cat];
		size_t m = 0;
		for (size_t i = 0; i + 1 < n; i++)
			if (g[i].cat == cat)
				scratch[m++] = (double)g[i].dur / 1000.0;
		dbl_sort(scratch, m);
		tt_idle_describe(scratch, m, &cs->st);
		cs->ratio = st->idle_ns ? (double)cs->idle_ns / (double)st->idle_ns : NAN;
	}
}

static void rank_work(size_t ri, void *arg)
{
	struct ctx *c = arg;
	const struct tt_rank *r = c->m->ranks[ri];
	struct rank_out *out = &c->out[ri];
	struct tt_sel s;
	tt_sel_init(&s, c->m, ri, c->o);

	bool *gk = tt_calloc(r->ncats + 1, sizeof(*gk));
	for (uint32_t i = 0; i < r->ncats; i++)
		gk[i] = tt_idle_gk_cat(tt_str(r, r->cats[i].name));

	size_t nk = 0;
	out->gpu_t0 = INT64_MAX;
	for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || !tt_sel_has(&s, i))
				continue;
			int64_t ts = tt_sel_ts(&s, e);
			if (ts < out->gpu_t0)
				out->gpu_t0 = ts;
			if (gk[e->cat])
				nk++;
		}
	if (!nk) {
		out->no_gpu = true;
		if (out->gpu_t0 == INT64_MAX)
			out->gpu_t0 = 0;
		free(gk);
		tt_sel_free(&s);
		return;
	}
	struct kern *k = tt_malloc(nk * sizeof(*k));
	nk = 0;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind != TT_TRACK_GPU)
			continue; /* (stream events live only there) */
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || !gk[e->cat] || !tt_sel_has(&s, i))
				continue;
			k[nk].stream = tr->stream;
			k[nk].ts = tt_sel_ts(&s, e);
			k[nk].end = tt_sel_end(&s, e);
			k[nk].idx = i;
			nk++;
		}
	}
	tt_msort(k, nk, sizeof(*k), kern_cmp, NULL); /* (collected in track order) */

	size_t ns = 0;
	for (size_t i = 0; i < nk; i++)
		if (i == 0 || k[i].stream != k[i - 1].stream)
			ns++;
	out->streams = tt_calloc(ns, sizeof(*out->streams));
	out->gaps = tt_calloc(nk, sizeof(*out->gaps)); /* nk - ns gaps */
	double *scratch = tt_malloc(nk * sizeof(*scratch));
	size_t a = 0;
	while (a < nk) {
		size_t b = a + 1;
		while (b < nk && k[b].stream == k[a].stream)
			b++;
		struct tt_idle_stream *st = &out->streams[out->nstreams++];
		one_stream(c, &s, ri, k + a, b - a, st, out->gaps + out->ngaps, scratch);
		st->first_gap = out->ngaps; /* rebased when the ranks are joined */
		out->ngaps += st->ngaps;
		a = b;
	}
	free(scratch);
	free(k);
	free(gk);
	tt_sel_free(&s);
}

/* ---- all ranks ---- */

/* a gap's duration and index, sorted longest first; a stable sort of the
 * gaps in index order, which is (rank, stream, time): the index breaks ties */
struct gap_key {
	int64_t dur;
	uint32_t i;
};

static inline bool gap_before(const struct gap_key *a, const struct gap_key *b)
{
	return a->dur > b->dur;
}
TT_STABLE_SORT(gap_sort, struct gap_key, gap_before)

struct tt_idle *tt_idle_breakdown(const struct tt_model *m, const struct tt_aopts *o,
				  double kernel_delay_us)
{
	struct tt_idle *res = tt_calloc(1, sizeof(*res));
	struct ctx c = {m, o, kernel_delay_us * 1000.0, NULL};
	res->kernel_delay_us = kernel_delay_us;
	c.out = tt_calloc(m->nranks + 1, sizeof(*c.out));
	tt_for_ranks(m, o, rank_work, &c);

	size_t nr = 0, ns = 0, ng = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		nr++;
		ns += c.out[ri].nstreams;
		ng += c.out[ri].ngaps;
	}
	res->ranks = tt_calloc(nr + 1, sizeof(*res->ranks));
	res->streams = tt_calloc(ns + 1, sizeof(*res->streams));
	res->gaps = tt_malloc((ng + 1) * sizeof(*res->gaps));
	res->by_dur = tt_malloc((ng + 1) * sizeof(*res->by_dur));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		struct rank_out *w = &c.out[ri];
		struct tt_idle_rank *rk = &res->ranks[res->nranks++];
		rk->rank_idx = (uint32_t)ri;
		rk->rank = m->ranks[ri]->rank;
		rk->no_gpu = w->no_gpu;
		rk->gpu_t0 = w->gpu_t0;
		rk->first_stream = res->nstreams;
		rk->nstreams = w->nstreams;
		for (size_t i = 0; i < w->nstreams; i++) {
			struct tt_idle_stream *st = &res->streams[res->nstreams];
			*st = w->streams[i];
			st->first_gap += res->ngaps;
			for (size_t j = 0; j < st->ngaps; j++)
				w->gaps[st->first_gap - res->ngaps + j].stream_idx =
					(uint32_t)res->nstreams;
			res->nstreams++;
		}
		if (w->ngaps)
			memcpy(res->gaps + res->ngaps, w->gaps, w->ngaps * sizeof(*w->gaps));
		res->ngaps += w->ngaps;
		free(w->streams);
		free(w->gaps);
	}
	free(c.out);
	struct gap_key *key = tt_malloc((res->ngaps + 1) * sizeof(*key));
	for (size_t i = 0; i < res->ngaps; i++)
		key[i] = (struct gap_key){res->gaps[i].dur, (uint32_t)i};
	gap_sort(key, res->ngaps);
	for (size_t i = 0; i < res->ngaps; i++)
		res->by_dur[i] = key[i].i;
	free(key);
	return res;
}

void tt_idle_free(struct tt_idle *r)
{
	if (!r)
		return;
	free(r->ranks);
	free(r->streams);
	free(r->gaps);
	free(r->by_dur);
	free(r);
}
