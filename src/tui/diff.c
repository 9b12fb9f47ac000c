/* Pane 0, Diff: two traces compared op by op (HTA's compare_traces, the
 * report's table formatted from the diff in the app's results). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int diff_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	if (!a->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	struct tt_table *t;
	size_t *order;
	struct tt_err err;
	p->state = NULL;
	tt_err_clear(&err);
	if (tt_report_diff_table(tt_ui_diff_results(a), &a->ropts, &t, &order, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(a), NULL);
	snprintf(p->source, sizeof(p->source), "diff");
	for (size_t i = 0; i < t->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", t->notes[i]);
	pane_add_bar_at(t, TT_CMP_A_TIME, a->ropts.label_a, TT_ROLE_BAR_IDLE, 0);
	pane_add_bar_at(t, TT_CMP_B_TIME, a->ropts.label_b, TT_ROLE_BAR_COMP, 0);
	/* by impact: the largest change in time first */
	struct tt_col absc = {.name = "impact", .type = TT_C_DUR, .hidden_text = true};
	int ic = tt_table_add_col(t, &absc);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < t->nrows; i++) {
		int64_t dd = d->rows[order[i]].diff_dur;
		p->row_role[i] = dd > 0 ? TT_ROLE_WORSE : dd < 0 ? TT_ROLE_BETTER : 0;
		tt_table_set_int(t, i, ic, dd < 0 ? -dd : dd);
	}
	p->state = order; /* table row i is d->rows[order[i]] (Enter) */
	tt_pane_set_table(p, t);
	tt_pane_sort(p, ic, true);
	tt_pane_head(p, TT_ROLE_DIM, "largest change first, more time highlighted; Enter: the "
				     "instances on both sides; v: Diff steps, Diff ranks");
	return 0;
}

/* Enter: the row's instances on both sides */
static struct tt_pane *diff_drill(struct tt_pane *p, size_t row)
{
	const size_t *order = p->state;
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(p->app), NULL);
	if (!order || !d || row >= d->n)
		return NULL;
	return tt_dinst_pane(p->app, d->rows[order[row]].name, TT_DINST_ROW);
}

/* ---- the steps and the rank pairs (views) ---- */

/* Table `table` of the diff report with a signed bar of column `of` (the
 * sides' difference), rows by its size; more time is worse. */
static int diff_view_open(struct tt_pane *p, const char *table, const char *of)
{
	if (!p->app->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	if (tt_pane_report(p, "diff", table))
		return -1;
	struct tt_table *t = p->table;
	int dc = tt_table_col(t, of);
	if (dc < 0)
		return 0;
	struct tt_col bar = {.name = "bar", .title = "Δ", .type = TT_C_BAR, .bar_of = dc,
			     .signed_bar = true};
	bar.role[0] = TT_ROLE_WORSE;
	bar.role[1] = TT_ROLE_BETTER;
	tt_table_add_col(t, &bar);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < t->nrows; i++) {
		double d = tt_cell_num(tt_table_cell(t, i, dc));
		p->row_role[i] = d > 0 ? TT_ROLE_WORSE : d < 0 ? TT_ROLE_BETTER : 0;
	}
	return 0;
}

static int steps_open(struct tt_pane *p)
{
	if (diff_view_open(p, "diff_steps", "diff_step"))
		return -1;
	/* room for the bar and the verdict at 80 columns (the CSV has them) */
	for (int c = 0; c < p->table->ncols; c++)
		if (strstr(p->table->cols[c].name, "_gpu_idle"))
			p->table->cols[c].hidden_text = true;
	tt_pane_head(p, TT_ROLE_DIM, "each step both sides have: its time (the mean over the rank "
				     "pairs), GPU idle, and the verdict");
	return 0;
}

static int ranks_open(struct tt_pane *p)
{
	if (diff_view_open(p, "diff_ranks", "diff_step"))
		return -1;
	tt_pane_head(p, TT_ROLE_DIM, "each rank pair, per step: step time, GPU busy, computation, "
				     "communication, memory, GPU idle; Δ = Test - Control; the ranks "
				     "whose time moved most first");
	return 0;
}

const struct tt_pane_ops tt_diff_steps_ops = {
	.name = "diffsteps",
	.title = "Diff steps",
	.help = "Two traces (--diff CONTROL TEST): every ProfilerStep both sides have, its time "
		"on each side (the mean over the rank pairs that have it), the difference, GPU "
		"idle time, and the verdict against --diff-threshold and --diff-floor.  The "
		"table of `tracetop report diff --table diff_steps`.",
	.open = steps_open,
};

const struct tt_pane_ops tt_diff_ranks_ops = {
	.name = "diffranks",
	.title = "Diff ranks",
	.help = "Two traces (--diff CONTROL TEST): per rank pair (rank r with rank r, or --map), "
		"the per-step means of step time, GPU busy, computation, communication, memory "
		"and GPU idle time on each side and their differences; the pairs whose time "
		"moved most first.  The table of `tracetop report diff --table diff_ranks`.",
	.open = ranks_open,
};

const struct tt_pane_ops tt_diff_ops = {
	.name = "diff",
	.title = "Diff",
	.help = "HTA's trace diff of two traces (start with --diff CONTROL TEST): for the first "
		"rank and iteration of each side, every op and kernel name with its count and "
		"total time on both sides and the difference, sorted by the size of the change.  "
		"Enter opens the name's instances on both sides.",
	.open = diff_open,
	.close = pane_free_state,
	.drill = diff_drill,
	.needs = TT_NEED(TT_RES_DIFF),
};
