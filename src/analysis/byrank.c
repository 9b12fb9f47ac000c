/* The Overview's rows: a join of the other analyses' results by rank
 * index, and the stragglers among them.  See byrank.h. */
#include "config.h"

#include "tracetop/byrank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/stats.h"
#include "tracetop/util.h"

/* the time of each type, per rank: the labels that contain it */
static int64_t type_ns(const struct tt_kbreak *k, size_t ri, enum tt_ktype type)
{
	int64_t t = 0;
	for (int j = 0; j < k->ntypes; j++) {
		if (k->types[j] != type)
			continue;
		for (unsigned mask = 1; mask < (1u << k->ntypes); mask++)
			if (mask & (1u << j))
				tt_sat_acc(&t, k->rank_label_ns[ri * 8 + mask]);
	}
	return t;
}

static void stragglers(struct tt_byrank *v)
{
	size_t n = v->n;
	if (n < 3)
		return;
	double *x = tt_calloc(n + 1, sizeof(*x));
	size_t cap = 0;
	for (int mi = 0; mi < TT_BR_NMETRICS; mi++) {
		for (size_t i = 0; i < n; i++)
			x[i] = mi == TT_BR_IDLE ? v->rows[i].idle_pct : v->rows[i].comm_pct;
		struct tt_rdist d;
		tt_rdist_of(x, n, true, &d);
		for (size_t i = 0; i < n; i++) {
			int side = tt_rdist_side(&d, x[i]);
			if (!side || (mi == TT_BR_IDLE && side < 0))
				continue;
			v->rows[i].side[mi] = (int8_t)side;
			TT_GROW(v->flags, cap, v->nflags + 1);
			v->flags[v->nflags++] = (struct tt_br_flag){
				i, (enum tt_br_metric)mi, side, x[i], d.median, tt_robust_z(&d, x[i])};
		}
	}
	free(x);
}

struct tt_byrank *tt_byrank(const struct tt_model *m, const struct tt_aopts *o,
				const struct tt_temporal_row *tmp, size_t ntmp,
				const struct tt_overlap_row *ov, size_t nov,
				const struct tt_kbreak *k)
{
	struct tt_byrank *v = tt_calloc(1, sizeof(*v));
	size_t nr = m->nranks;
	/* each result's row of a rank index */
	const struct tt_temporal_row **bt = tt_calloc(nr + 1, sizeof(*bt));
	const struct tt_overlap_row **bo = tt_calloc(nr + 1, sizeof(*bo));
	const struct tt_kstat **top = tt_calloc(nr + 1, sizeof(*top));
	for (size_t i = 0; i < ntmp; i++)
		if (tmp[i].ri < nr)
			bt[tmp[i].ri] = &tmp[i];
	for (size_t i = 0; i < nov; i++)
		if (ov[i].ri < nr)
			bo[ov[i].ri] = &ov[i];
	/* the top kernel: the largest sum, the first in the rows' order on ties */
	for (size_t i = 0; k && i < k->nrows; i++) {
		const struct tt_kstat *s = &k->rows[i];
		if (s->others || s->ri >= nr)
			continue;
		if (!top[s->ri] || s->sum_ns > top[s->ri]->sum_ns)
			top[s->ri] = s;
	}
	v->rows = tt_calloc(nr + 1, sizeof(*v->rows));
	for (size_t ri = 0; ri < nr; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		struct tt_byrank_row *w = &v->rows[v->n++];
		w->ri = ri;
		w->rank = m->ranks[ri]->rank;
		/* every share of one span (the GPU span) and one selection (the
		 * temporal breakdown's: HTA's view, or every event with --exact) */
		w->span_ns = 0;
		w->busy_pct = w->compute_pct = w->non_compute_pct = w->idle_pct = NAN;
		w->comm_pct = w->mem_pct = w->overlap_pct = NAN;
		const struct tt_temporal_row *t = bt[ri];
		if (t && t->has_gpu) {
			w->has_gpu = true;
			w->span_ns = t->kernel_ns;
			w->busy_pct = t->kernel_ns > 0 ? 100.0 * (double)t->busy_ns / (double)t->kernel_ns
						       : NAN;
			w->compute_pct = t->compute_pct;
			w->non_compute_pct = t->non_compute_pct;
			w->idle_pct = t->idle_pct;
			if (t->kernel_ns > 0 && k && ri < k->nranks_model) {
				double span = (double)t->kernel_ns;
				w->comm_pct = 100 * (double)type_ns(k, ri, TT_KT_COMM) / span;
				w->mem_pct = 100 * (double)type_ns(k, ri, TT_KT_MEM) / span;
			}
		}
		if (bo[ri])
			w->overlap_pct = bo[ri]->pct;
		if (top[ri])
			w->top_kernel = top[ri]->name;
	}
	free(bt);
	free(bo);
	free(top);
	stragglers(v);
	return v;
}

const char *tt_byrank_span_words(const struct tt_aopts *o)
{
	return o && o->exact ? "% of each rank's GPU span (first GPU start to last GPU end), "
			       "every event, exact times (--exact)" :
			       "% of each rank's GPU span (first GPU start to last GPU end), "
			       "HTA's view (last ProfilerStep dropped, whole microseconds; "
			       "--exact: every event)";
}

void tt_byrank_free(struct tt_byrank *v)
{
	if (!v)
		return;
	free(v->rows);
	free(v->flags);
	free(v);
}
