/* Pane 0, Diff: two traces compared op by op (HTA's compare_traces, the
 * report's table formatted from the diff in the app's results). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

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
	tt_err_clear(&err);
	if (tt_report_diff_table(a->res, &a->ropts, &t, &order, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	const struct tt_diff *d = tt_res_diff(a->res, NULL);
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
	free(order);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, ic, true);
	tt_pane_head(p, TT_ROLE_DIM, "ops and kernels by change in total time; more time is "
				     "highlighted as worse, less as better");
	return 0;
}

const struct tt_pane_ops tt_diff_ops = {
	.name = "diff",
	.title = "Diff",
	.help = "HTA's trace diff of two traces (start with --diff CONTROL TEST): for the first "
		"rank and iteration of each side, every op and kernel name with its count and "
		"total time on both sides and the difference, sorted by the size of the change.",
	.open = diff_open,
	.needs = TT_NEED(TT_RES_DIFF),
};
