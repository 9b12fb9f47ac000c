/* Pane 5, Overlap: communication time hidden behind computation per rank
 * (the report's table, formatted from the app's results). */
#include "config.h"

#include <math.h>

#include "tracetop/util.h"
#include "pane.h"

static int overlap_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "overlap", "comm_comp_overlap"))
		return -1;
	pane_add_bar_at(p->table, TT_OVERLAP_PCT, "comm hidden by compute", TT_ROLE_BAR_COMM, 100);
	tt_pane_set_table(p, p->table);
	/* the answer to "how much communication hides behind computation?" */
	const struct tt_overlap_res *r = tt_res_overlap(p->app->res);
	int64_t comm, ov;
	double pct = tt_overlap_sum(r->rows, r->n, &comm, &ov);
	if (!isnan(pct)) {
		char a[32], b[32];
		tt_fmt_dur(a, sizeof(a), ov);
		tt_fmt_dur(b, sizeof(b), comm);
		tt_pane_head(p, TT_ROLE_MARKED,
			     "all ranks shown: %.1f %% of communication time overlaps computation (%s "
			     "of %s)",
			     pct, a, b);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "the share of communication time during which computation runs too (HTA)");
	return 0;
}

/* the table has one row per result row, in order */
static struct tt_pane *overlap_drill(struct tt_pane *p, size_t row)
{
	const struct tt_overlap_res *r = tt_res_overlap(p->app->res);
	return row < r->n ? tt_rank_pane(p->app, r->rows[row].rank) : NULL;
}

static const struct tt_pane_diff overlap_diff = {
	.nkeys = 1,
	.cols = {TT_OVERLAP_PCT, TT_OVERLAP_COMM, TT_OVERLAP_COMP, TT_OVERLAP_TIME},
	.ncols = 4,
	.rank_col = TT_OVERLAP_RANK,
	.more_is = 1,
	.what = "overlap % per rank",
	.drill_both = tt_sides_drill,
};

const struct tt_pane_ops tt_overlap_ops = {
	.name = "overlap",
	.title = "Overlap",
	.help = "Per rank, the percentage of communication time (union of communication "
		"kernels) that overlaps computation (union of computation kernels), as HTA "
		"defines it; empty when the rank has no communication.  Enter shows the rank's "
		"streams.",
	.open = overlap_open,
	.drill = overlap_drill,
	.needs = TT_NEED(TT_RES_OVERLAP),
	.diff = &overlap_diff,
};
