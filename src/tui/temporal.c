/* Pane 2, Temporal: HTA's temporal breakdown per rank (the report's table,
 * formatted from the app's results) with a stacked bar. */
#include "config.h"

#include "tracetop/util.h"
#include "pane.h"

static int temporal_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "temporal", "temporal_breakdown"))
		return -1;
	struct tt_table *t = p->table;
	struct tt_col stack = {.name = "bar", .title = "compute/non-compute/idle",
			       .type = TT_C_STACK, .nstack = 3, .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = TT_TEMPORAL_COMPUTE_PCT;
	stack.stack[1] = TT_TEMPORAL_NON_COMPUTE_PCT;
	stack.stack[2] = TT_TEMPORAL_IDLE_PCT;
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_OTHER;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM,
		     "%s compute  %s non-compute (communication, memory, other)  %s idle",
		     tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	return 0;
}

/* the table has one row per result row, in order */
static struct tt_pane *temporal_drill(struct tt_pane *p, size_t row)
{
	const struct tt_temporal_res *r = tt_res_temporal(p->app->res);
	return row < r->n ? tt_rank_pane(p->app, r->rows[row].rank) : NULL;
}

static const struct tt_pane_diff temporal_diff = {
	.nkeys = 1,
	.cols = {TT_TEMPORAL_IDLE, TT_TEMPORAL_COMPUTE, TT_TEMPORAL_NON_COMPUTE, TT_TEMPORAL_SPAN,
		 TT_TEMPORAL_IDLE_PCT, TT_TEMPORAL_COMPUTE_PCT, TT_TEMPORAL_NON_COMPUTE_PCT},
	.ncols = 7,
	.rank_col = TT_TEMPORAL_RANK,
	.more_is = -1,
	.what = "GPU idle time per rank, total over the steps HTA keeps (the last dropped)",
	.drill_both = tt_sides_drill,
};

const struct tt_pane_ops tt_temporal_ops = {
	.name = "temporal",
	.title = "Temporal",
	.help = "HTA's temporal breakdown per rank: over the GPU span (first GPU event to the "
		"last), the time idle (no GPU event running on any stream), computing (union of "
		"computation kernels) and the rest (communication, memory, other).  Enter shows "
		"the rank's streams.",
	.open = temporal_open,
	.drill = temporal_drill,
	.needs = TT_NEED(TT_RES_TEMPORAL),
	.diff = &temporal_diff,
};
