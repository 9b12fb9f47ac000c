/* Pane 1, the Overview: one row per rank with the shares of its GPU span,
 * its top kernel, and the ranks far from the median marked as stragglers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct tt_table *report_table(struct tt_app *a, const char *name, const char *table)
{
	char msg[300];
	return tt_app_table(a, name, table, msg, sizeof(msg));
}

static int overview_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "span", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "compute_pctg", .title = "comp %", .type = TT_C_PCT, .prec = 1},
		{.name = "comm_pctg", .title = "comm %", .type = TT_C_PCT, .prec = 1},
		{.name = "memory_pctg", .title = "mem %", .type = TT_C_PCT, .prec = 1},
		{.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT, .prec = 1},
		{.name = "overlap_pctg", .title = "overlap %", .type = TT_C_PCT, .prec = 1},
		{.name = "top_kernel", .title = "top kernel", .type = TT_C_STR, .width = 32},
		{.name = "flag", .title = "", .type = TT_C_STR, .width = 12},
		{.name = "non_compute_pctg", .type = TT_C_PCT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("overview", cols, (int)TT_ARRAY_SIZE(cols));
	struct tt_table *sum = report_table(a, "summary", "summary");
	struct tt_table *tmp = report_table(a, "temporal", "temporal_breakdown");
	struct tt_table *ov = report_table(a, "overlap", "comm_comp_overlap");
	struct tt_table *kt = report_table(a, "kernels", "kernel_type_by_rank");
	struct tt_table *kb = report_table(a, "kernels", "kernel_breakdown");
	const struct tt_model *m = a->m;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		int64_t rank = m->ranks[ri]->rank;
		if (!tt_aopts_has_rank(&a->ropts.a, rank))
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rank);
		double span = NAN;
		for (size_t i = 0; tmp && i < tmp->nrows; i++)
			if (pane_num(tmp, i, "rank") == (double)rank) {
				span = pane_num(tmp, i, "kernel_time(us)"); /* duration cells hold ns */
				tt_table_set_num(t, k, 3, pane_num(tmp, i, "compute_time_pctg"));
				tt_table_set_num(t, k, 6, pane_num(tmp, i, "idle_time_pctg"));
				tt_table_set_num(t, k, 10, pane_num(tmp, i, "non_compute_time_pctg"));
			}
		for (size_t i = 0; sum && i < sum->nrows; i++)
			if (pane_num(sum, i, "rank") == (double)rank) {
				tt_table_set_num(t, k, 2, pane_num(sum, i, "gpu_busy_pctg"));
				if (isnan(span))
					tt_table_set_int(t, k, 1, (int64_t)pane_num(sum, i, "span"));
			}
		if (!isnan(span))
			tt_table_set_int(t, k, 1, (int64_t)span);
		/* communication and memory: time in any label that names them */
		double comm = 0, mem = 0;
		for (size_t i = 0; kt && i < kt->nrows; i++) {
			if (pane_num(kt, i, "rank") != (double)rank)
				continue;
			const char *lab = pane_str(kt, i, "kernel_type");
			double v = pane_num(kt, i, "sum");
			if (strstr(lab, "COMMUNICATION"))
				comm += v;
			if (strstr(lab, "MEMORY"))
				mem += v;
		}
		if (span > 0) {
			tt_table_set_num(t, k, 4, 100 * comm / span);
			tt_table_set_num(t, k, 5, 100 * mem / span);
		}
		for (size_t i = 0; ov && i < ov->nrows; i++)
			if (pane_num(ov, i, "rank") == (double)rank)
				tt_table_set_num(t, k, 7, pane_num(ov, i, "comp_comm_overlap_pctg"));
		double best = -1;
		for (size_t i = 0; kb && i < kb->nrows; i++) {
			if (pane_num(kb, i, "rank") != (double)rank || strcmp(pane_str(kb, i, "name"), "others") == 0)
				continue;
			double v = pane_num(kb, i, "sum (us)");
			if (v > best) {
				best = v;
				tt_table_set_str(t, k, 8, pane_str(kb, i, "name"));
			}
		}
	}
	/* stragglers: idle or communication far from the median (robust z) */
	static const struct {
		int col;
		const char *what;
	} metrics[] = {{6, "idle"}, {4, "comm"}};
	size_t n = t->nrows;
	double *v = tt_calloc(n + 1, sizeof(*v)), *d = tt_calloc(n + 1, sizeof(*d));
	tt_pane_set_table(p, t);
	int flagged = 0;
	for (size_t mi = 0; mi < TT_ARRAY_SIZE(metrics) && n >= 3; mi++) {
		size_t nv = 0;
		for (size_t i = 0; i < n; i++) {
			double x = tt_cell_num(tt_table_cell(t, i, metrics[mi].col));
			if (!isnan(x))
				v[nv++] = x;
		}
		double med = median(v, nv);
		for (size_t i = 0; i < nv; i++)
			d[i] = fabs(v[i] - med);
		double mad = median(d, nv) * 1.4826;
		for (size_t i = 0; i < n; i++) {
			double x = tt_cell_num(tt_table_cell(t, i, metrics[mi].col));
			double z = (x - med) / (mad > 0.5 ? mad : 0.5);
			if (isnan(x) || z < 3.5 || x - med < 5)
				continue;
			char flag[64];
			snprintf(flag, sizeof(flag), "%s high", metrics[mi].what);
			tt_table_set_str(t, i, 9, flag);
			p->row_role[i] = TT_ROLE_MARKED;
			if (flagged++ < 3)
				tt_pane_head(p, TT_ROLE_MARKED,
					     "straggler: rank %lld, %s %.1f %% vs median %.1f %% across ranks",
					     (long long)tt_cell_num(tt_table_cell(t, i, 0)),
					     metrics[mi].what, x, med);
		}
	}
	free(v);
	free(d);
	/* compute, the rest of the busy time, idle: the span's three parts */
	struct tt_col stack = {.name = "bar", .title = "span", .type = TT_C_STACK, .nstack = 3,
			       .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = 3;
	stack.stack[1] = 10;
	stack.stack[2] = 6;
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_COMM;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t); /* the new column */
	if (!flagged && n >= 3)
		tt_pane_head(p, TT_ROLE_DIM, "no rank stands out in idle or communication time");
	else if (!flagged && n)
		tt_pane_head(p, TT_ROLE_DIM, "stragglers are looked for among 3 ranks or more%s",
			     a->nranks && m->nranks >= 3 ? " (a shows all ranks)" : "");
	tt_pane_head(p, TT_ROLE_DIM,
		     "%zu rank%s; %% of each rank's GPU span (HTA's view); bar: %s compute %s other "
		     "busy %s idle. Enter: the rank's streams",
		     n, n == 1 ? "" : "s", tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	tt_table_free(sum);
	tt_table_free(tmp);
	tt_table_free(ov);
	tt_table_free(kt);
	tt_table_free(kb);
	return n ? 0 : -1;
}

const struct tt_pane_ops tt_overview_ops = {
	.name = "overview",
	.title = "Overview",
	.help = "One row per rank: its GPU span, the share of the span busy, computing, "
		"communicating, copying memory and idle, the computation/communication overlap, "
		"and its top kernel.  Ranks whose idle or communication share is far from the "
		"median of all ranks (robust z-score over 3.5 and 5 points above) are marked as "
		"stragglers and explained above the table.  Enter shows the rank's streams.",
	.open = overview_open,
	.drill = tt_rank_drill,
};
