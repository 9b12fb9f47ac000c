/* Pane 0, Diff: two traces compared op by op (HTA's compare_traces). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int diff_open(struct tt_pane *p)
{
	if (!p->app->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	if (tt_pane_report(p, "diff", "compare_traces"))
		return -1;
	struct tt_table *t = p->table;
	char a[64], b[64];
	snprintf(a, sizeof(a), "%s_total_duration", p->app->ropts.label_a);
	snprintf(b, sizeof(b), "%s_total_duration", p->app->ropts.label_b);
	pane_add_bar(t, a, p->app->ropts.label_a, TT_ROLE_BAR_IDLE, 0);
	pane_add_bar(t, b, p->app->ropts.label_b, TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	int dc = tt_table_col(t, "diff_duration");
	for (size_t i = 0; dc >= 0 && i < t->nrows; i++) {
		double d = tt_cell_num(tt_table_cell(t, i, dc));
		p->row_role[i] = d > 0 ? TT_ROLE_WORSE : d < 0 ? TT_ROLE_BETTER : 0;
	}
	/* by impact: the largest change in time first */
	struct tt_col absc = {.name = "impact", .type = TT_C_DUR, .hidden_text = true};
	int ic = tt_table_add_col(t, &absc);
	for (size_t i = 0; dc >= 0 && i < t->nrows; i++)
		tt_table_set_num(t, i, ic, fabs(tt_cell_num(tt_table_cell(t, i, dc))) * 1000);
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
};
