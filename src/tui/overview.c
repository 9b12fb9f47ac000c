/* Pane 1, the Overview: one row per rank with the shares of its GPU span,
 * its top kernel, and the ranks far from the median marked as stragglers;
 * all of it from the overview analysis (tracetop/byrank.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

enum {
	C_RANK,
	C_SPAN,
	C_BUSY,
	C_COMPUTE,
	C_COMM,
	C_MEM,
	C_IDLE,
	C_OVERLAP,
	C_TOP,
	C_FLAG,
	C_NON_COMPUTE,
	C_N
};

static int overview_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	static const struct tt_col cols[C_N] = {
		[C_RANK] = {.name = "rank", .type = TT_C_INT},
		[C_SPAN] = {.name = "span", .type = TT_C_DUR},
		[C_BUSY] = {.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		[C_COMPUTE] = {.name = "compute_pctg", .title = "comp %", .type = TT_C_PCT, .prec = 1},
		[C_COMM] = {.name = "comm_pctg", .title = "comm %", .type = TT_C_PCT, .prec = 1},
		[C_MEM] = {.name = "memory_pctg", .title = "mem %", .type = TT_C_PCT, .prec = 1},
		[C_IDLE] = {.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT, .prec = 1},
		[C_OVERLAP] = {.name = "overlap_pctg", .title = "overlap %", .type = TT_C_PCT,
			       .prec = 1},
		[C_TOP] = {.name = "top_kernel", .title = "top kernel", .type = TT_C_STR, .width = 32},
		[C_FLAG] = {.name = "flag", .title = "", .type = TT_C_STR, .width = 12},
		[C_NON_COMPUTE] = {.name = "non_compute_pctg", .type = TT_C_PCT, .hidden_text = true},
	};
	static const char *const what[TT_BR_NMETRICS] = {"idle", "comm"};
	const struct tt_byrank *v = tt_res_byrank(a->res);
	struct tt_table *t = tt_table_new("overview", cols, C_N);
	for (size_t i = 0; i < v->n; i++) {
		const struct tt_byrank_row *w = &v->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, C_RANK, w->rank);
		tt_table_set_int(t, k, C_SPAN, w->span_ns);
		tt_table_set_num(t, k, C_BUSY, w->busy_pct);
		tt_table_set_num(t, k, C_COMPUTE, w->compute_pct);
		tt_table_set_num(t, k, C_COMM, w->comm_pct);
		tt_table_set_num(t, k, C_MEM, w->mem_pct);
		tt_table_set_num(t, k, C_IDLE, w->idle_pct);
		tt_table_set_num(t, k, C_OVERLAP, w->overlap_pct);
		if (w->top_kernel)
			tt_table_set_str(t, k, C_TOP, w->top_kernel);
		tt_table_set_num(t, k, C_NON_COMPUTE, w->non_compute_pct);
		/* the first metric flagged names the cell; the lines above say all */
		for (int mi = 0; mi < TT_BR_NMETRICS; mi++)
			if (w->side[mi]) {
				char flag[64];
				snprintf(flag, sizeof(flag), "%s %s", what[mi],
					 w->side[mi] > 0 ? "high" : "low");
				tt_table_set_str(t, k, C_FLAG, flag);
				break;
			}
	}
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < v->n; i++)
		if (v->rows[i].side[TT_BR_IDLE] || v->rows[i].side[TT_BR_COMM])
			p->row_role[i] = TT_ROLE_MARKED;
	for (size_t i = 0; i < v->nflags && i < 3; i++) {
		const struct tt_br_flag *f = &v->flags[i];
		tt_pane_head(p, TT_ROLE_MARKED,
			     "straggler: rank %lld, %s %.1f %% vs median %.1f %% across ranks",
			     (long long)v->rows[f->row].rank, what[f->metric], f->value, f->median);
	}
	/* compute, the rest of the busy time, idle: the span's three parts */
	struct tt_col stack = {.name = "bar", .title = "span", .type = TT_C_STACK, .nstack = 3,
			       .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = C_COMPUTE;
	stack.stack[1] = C_NON_COMPUTE;
	stack.stack[2] = C_IDLE;
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_COMM;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t); /* the new column */
	size_t n = v->n;
	if (!v->nflags && n >= 3)
		tt_pane_head(p, TT_ROLE_DIM, "no rank stands out in idle or communication time");
	else if (!v->nflags && n)
		tt_pane_head(p, TT_ROLE_DIM, "stragglers are looked for among 3 ranks or more%s",
			     a->nranks && a->m->nranks >= 3 ? " (a shows all ranks)" : "");
	tt_pane_head(p, TT_ROLE_DIM,
		     "%zu rank%s; %% of each rank's GPU span (HTA's view); bar: %s compute %s other "
		     "busy %s idle. Enter: the rank's streams",
		     n, n == 1 ? "" : "s", tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1),
		     tt_stack_glyph("#=.", 2));
	return n ? 0 : -1;
}

static struct tt_pane *overview_drill(struct tt_pane *p, size_t row)
{
	const struct tt_byrank *v = tt_res_byrank(p->app->res); /* kept: no work */
	return row < v->n ? tt_rank_pane(p->app, v->rows[row].rank) : NULL;
}

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
};
