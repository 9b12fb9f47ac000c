/* Pane 6, Launch: kernel launch statistics per rank, and its drill-down,
 * the launch outliers of one rank. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int launch_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "launch", "launch_summary"))
		return -1;
	pane_add_bar(p->table, "launch_delay_mean", "mean delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_head(p, TT_ROLE_DIM,
		     "cutoffs: runtime %.0f us, launch delay %.0f us (--runtime-cutoff, "
		     "--launch-delay-cutoff). Enter: the outliers of the rank",
		     p->app->ropts.runtime_cutoff_us, p->app->ropts.launch_delay_cutoff_us);
	return 0;
}

struct outlier_state {
	int64_t rank;
};

static int outliers_open(struct tt_pane *p)
{
	struct outlier_state *s = p->state;
	struct tt_report_opts o = p->app->ropts;
	int64_t one = s->rank;
	o.a.ranks = &one;
	o.a.nranks = 1;
	o.format = TT_FMT_CSV; /* every row */
	struct tt_table **tabs;
	size_t n;
	struct tt_err err;
	if (tt_report_build("launch", p->app->m, NULL, &o, &tabs, &n, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	struct tt_table *t = NULL;
	int src[64]; /* source column of each column of t (the three tables share them) */
	static const char *const kinds[] = {"launch_delay_outliers", "runtime_outliers",
					    "short_kernels"};
	/* the kind first: one launch can be an outlier of several kinds */
	static const char *const why[] = {"long delay", "long runtime", "short kernel"};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < 3; k++)
			if (strcmp(tabs[i]->name, kinds[k]) == 0) {
				/* columns: the kind, the launch delay (the sort), the rest
				 * but the rank (the subtitle names it) */
				if (!t) {
					struct tt_col cc[64];
					int nc = 0, delay = tt_table_col(tabs[i], "launch_delay");
					cc[nc++] = (struct tt_col){.name = "kind", .type = TT_C_STR};
					if (delay >= 0)
						src[nc] = delay, cc[nc++] = tabs[i]->cols[delay];
					for (int c = 0; c < tabs[i]->ncols && nc < 64; c++)
						if (c != delay && strcmp(tabs[i]->cols[c].name, "rank") != 0) {
							src[nc] = c;
							cc[nc++] = tabs[i]->cols[c];
						}
					t = tt_table_new("outliers", cc, nc);
				}
				for (size_t r = 0; r < tabs[i]->nrows; r++) {
					size_t w = tt_table_add_row(t);
					tt_table_set_str(t, w, 0, why[k]);
					for (int c = 1; c < t->ncols; c++) {
						const struct tt_cell *x = tt_table_cell(tabs[i], r, src[c]);
						if (x->kind == TT_CV_S)
							tt_table_set_str(t, w, c, x->v.s);
						else if (x->kind == TT_CV_I)
							tt_table_set_int(t, w, c, x->v.i);
						else if (x->kind == TT_CV_D)
							tt_table_set_num(t, w, c, x->v.d);
					}
				}
			}
	tt_tables_free(tabs, n);
	if (!t) {
		snprintf(p->msg, sizeof(p->msg), "no outliers");
		return -1;
	}
	pane_add_bar(t, "launch_delay", "launch delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, tt_table_col(t, "launch_delay"), true);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the kernel");
	return 0;
}

static struct tt_pane *outlier_drill(struct tt_pane *p, size_t row)
{
	double ri = pane_num(p->table, row, "rank_index"), gpu = pane_num(p->table, row, "gpu_event");
	if (isnan(ri) || isnan(gpu))
		return NULL;
	return tt_timeline_new(p->app, (size_t)ri, (uint32_t)gpu, 0);
}

static const struct tt_pane_ops outliers_ops = {
	.name = "outliers",
	.title = "Outliers",
	.help = "Kernel launches of one rank that stand out: a long launch delay (the GPU "
		"started the kernel long after the runtime call returned), a long runtime call, "
		"or a short kernel (shorter than its own launch call).  Enter opens the timeline.",
	.open = outliers_open,
	.close = pane_free_state,
	.drill = outlier_drill,
};

static struct tt_pane *launch_drill(struct tt_pane *p, size_t row)
{
	double rank = pane_num(p->table, row, "rank");
	if (isnan(rank))
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &outliers_ops);
	struct outlier_state *s = tt_calloc(1, sizeof(*s));
	s->rank = (int64_t)rank;
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)s->rank);
	return np;
}

const struct tt_pane_ops tt_launch_ops = {
	.name = "launch",
	.title = "Launch",
	.help = "CUDA kernel launch statistics per rank (HTA): each launch call joined with "
		"its GPU op by correlation id; the CPU duration of the call, the GPU duration, "
		"and the launch delay (GPU start - end of the call).  Outliers use the cutoffs "
		"shown above.  Enter lists the rank's outliers.",
	.open = launch_open,
	.drill = launch_drill,
};
