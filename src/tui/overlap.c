/* Pane 5, Overlap: communication time hidden behind computation per rank. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int overlap_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "overlap", "comm_comp_overlap"))
		return -1;
	pane_add_bar(p->table, "comp_comm_overlap_pctg", "comm hidden by compute", TT_ROLE_BAR_COMM,
		100);
	tt_pane_set_table(p, p->table);
	/* the answer to "how much communication hides behind computation?" */
	double comm = 0, ov = 0;
	for (size_t i = 0; i < p->table->nrows; i++) {
		double c = pane_num(p->table, i, "communication_time(us)"),
		       o = pane_num(p->table, i, "overlap_time(us)");
		if (!isnan(c) && !isnan(o)) {
			comm += c;
			ov += o;
		}
	}
	if (comm > 0) {
		char a[32], b[32];
		tt_fmt_dur(a, sizeof(a), (int64_t)ov);
		tt_fmt_dur(b, sizeof(b), (int64_t)comm);
		tt_pane_head(p, TT_ROLE_MARKED,
			     "all ranks shown: %.1f %% of communication time overlaps computation (%s "
			     "of %s)",
			     100 * ov / comm, a, b);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "the share of communication time during which computation runs too (HTA)");
	return 0;
}

const struct tt_pane_ops tt_overlap_ops = {
	.name = "overlap",
	.title = "Overlap",
	.help = "Per rank, the percentage of communication time (union of communication "
		"kernels) that overlaps computation (union of computation kernels), as HTA "
		"defines it; empty when the rank has no communication.  Enter shows the rank's "
		"streams.",
	.open = overlap_open,
	.drill = tt_rank_drill,
};
