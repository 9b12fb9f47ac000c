/* Pane 1, the Overview: one row per rank with the shares of its GPU span,
 * its top kernel, and the ranks far from the median marked as stragglers;
 * the table of `tracetop report byrank` (tracetop/byrank.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int overview_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	/* the byrank report's table: the numbers of `tracetop report byrank` */
	struct tt_table *t = tt_pane_table(p, "byrank", "byrank");
	if (!t)
		return -1;
	const struct tt_byrank *v = tt_res_byrank(a->res); /* (kept: no work) */
	size_t n = t->nrows;
	/* first: what bounds the job (the critical path across ranks) */
	pane_verdict_head(p);
	tt_pane_head(p, TT_ROLE_DIM, "%s", tt_byrank_span_words(&a->ropts.a));
	for (size_t i = 0; i < v->nflags && i < 3; i++) {
		const struct tt_br_flag *f = &v->flags[i];
		tt_pane_head(p, TT_ROLE_MARKED,
			     "straggler: rank %lld, %s %.1f %% vs median %.1f %% across ranks",
			     (long long)v->rows[f->row].rank, f->metric == TT_BR_IDLE ? "idle" : "comm",
			     f->value, f->median);
	}
	/* ranks without a share: said, not left as a row of dashes */
	size_t nogpu = 0, first = 0;
	for (size_t i = 0; i < v->n; i++)
		if (!v->rows[i].has_gpu && !nogpu++)
			first = i;
	if (nogpu) {
		const struct tt_rank *r = a->m->ranks[v->rows[first].ri];
		bool none = !r->n_kernel && !r->n_memcpy && !r->n_memset;
		const char *why = none ? "no GPU activity (no kernel, memcpy or memset)" :
					 "no GPU event left in HTA's view (--exact: every event)";
		if (nogpu == 1)
			tt_pane_head(p, TT_ROLE_MARKED, "rank %lld: %s: no shares",
				     (long long)v->rows[first].rank, why);
		else
			tt_pane_head(p, TT_ROLE_MARKED, "%zu of %zu ranks: no GPU event, no shares "
				     "(rank %lld: %s)", nogpu, v->n,
				     (long long)v->rows[first].rank, why);
	}
	/* compute, the rest of the busy time, idle: the span's three parts */
	struct tt_col stack = {.name = "bar", .title = "GPU span", .type = TT_C_STACK, .nstack = 3,
			       .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = TT_BYRANK_COMPUTE;
	stack.stack[1] = TT_BYRANK_NON_COMPUTE;
	stack.stack[2] = TT_BYRANK_IDLE;
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_COMM;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < v->n && i < n; i++)
		if (v->rows[i].side[TT_BR_IDLE] || v->rows[i].side[TT_BR_COMM])
			p->row_role[i] = TT_ROLE_MARKED;
	if (!v->nflags && n >= 3)
		tt_pane_head(p, TT_ROLE_DIM, "no rank stands out in idle or communication time");
	else if (!v->nflags && n)
		tt_pane_head(p, TT_ROLE_DIM, "stragglers are looked for among 3 ranks or more%s",
			     a->nranks && a->m->nranks >= 3 ? " (a shows all ranks)" : "");
	tt_pane_head(p, TT_ROLE_DIM, "bar: %s compute %s other busy %s idle (busy + idle = 100 %%)",
		     tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	tt_pane_head(p, TT_ROLE_DIM, "%zu rank%s. Enter: the rank's streams", n, n == 1 ? "" : "s");
	return n ? 0 : -1;
}

static struct tt_pane *overview_drill(struct tt_pane *p, size_t row)
{
	const struct tt_byrank *v = tt_res_byrank(p->app->res); /* kept: no work */
	return row < v->n ? tt_rank_pane(p->app, v->rows[row].rank) : NULL;
}

static const struct tt_pane_diff overview_diff = {
	.nkeys = 1,
	.cols = {TT_BYRANK_IDLE, TT_BYRANK_BUSY, TT_BYRANK_COMPUTE, TT_BYRANK_COMM, TT_BYRANK_MEM,
		 TT_BYRANK_OVERLAP, TT_BYRANK_SPAN},
	.ncols = 7,
	.rank_col = TT_BYRANK_RANK,
	.more_is = -1,
	.what = "GPU idle % per rank",
	.drill_both = tt_sides_drill,
};

const struct tt_pane_ops tt_overview_ops = {
	.name = "overview",
	.title = "Overview",
	.help = "One row per rank: its GPU span, the share of the span busy, computing, "
		"communicating, copying memory and idle, the computation/communication overlap, "
		"and its top kernel.  Ranks whose idle share is far above the median of all ranks, "
		"or whose communication share is far from it either way (robust z-score of 3.5 "
		"or more and 2 points from the median, as `tracetop report outliers`), are marked "
		"as stragglers and explained above the table.  Enter shows the rank's streams.",
	.open = overview_open,
	.drill = overview_drill,
	.needs = TT_NEED(TT_RES_BYRANK),
	.refresh = pane_verdict_refresh,
	.diff = &overview_diff,
};
