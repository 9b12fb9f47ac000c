/* report outliers: the ranks furthest from the median of each metric, with
 * a one-line reason, and the distribution of every metric over the ranks
 * (min, p10, median, p90, max, with the ranks at the extremes) instead of
 * one row per rank.  The distribution builder works on any per-rank table,
 * so panes can summarise their own tables the same way. */
#include "config.h"

#include "tracetop/ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/report.h"
#include "tracetop/results.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

/* ---- text ---- */

size_t tt_rmetric_fmt(enum tt_rmetric k, double v, char *buf, size_t n)
{
	int len;
	if (isnan(v))
		len = snprintf(buf, n, "-");
	else if (!tt_rmetric_is_pct(k))
		return tt_fmt_dur(buf, n, (int64_t)llround(v));
	else if (fabs(v) >= 10)
		len = snprintf(buf, n, "%.0f %%", v);
	else
		len = snprintf(buf, n, "%.1f %%", v);
	return len < 0 ? 0 : (size_t)len;
}

static const char *const short_name[TT_RM_COUNT] = {
	[TT_RM_IDLE] = "idle",	       [TT_RM_COMPUTE] = "compute",
	[TT_RM_COMM] = "comm",	       [TT_RM_EXPOSED] = "exposed comm",
	[TT_RM_XFER] = "transfer", [TT_RM_STEP] = "step", [TT_RM_TOPK] = "top kernel",
};

static bool high(const struct tt_ranks *s, size_t i, enum tt_rmetric k)
{
	const struct tt_rank_metrics *w = &s->rows[i];
	return tt_rdist_outlier(&s->dist[k], w->v[k]) && w->z[k] > 0;
}

/* the idle category holding most of the rank's idle gaps, if over half */
static int idle_mostly(const struct tt_rank_metrics *w)
{
	int64_t tot = 0;
	for (int c = 0; c < TT_IDLE_NCAT; c++)
		tt_sat_acc(&tot, TT_MAX(w->idle_cat_ns[c], 0));
	for (int c = 0; c < TT_IDLE_NCAT && tot > 0; c++)
		if (TT_MAX(w->idle_cat_ns[c], 0) > tot - TT_MAX(w->idle_cat_ns[c], 0))
			return c;
	return -1;
}

size_t tt_outlier_reason(const struct tt_ranks *s, size_t i, enum tt_rmetric k, char *buf,
			 size_t n)
{
	const struct tt_rank_metrics *w = &s->rows[i];
	char a[48], b[48];
	tt_rmetric_fmt(k, w->v[k], a, sizeof(a));
	tt_rmetric_fmt(k, s->dist[k].median, b, sizeof(b));
	int len = snprintf(buf, n, "%s %s vs median %s", short_name[k], a, b);
	if (len < 0)
		return 0;
	size_t used = (size_t)len < n ? (size_t)len : (n ? n - 1 : 0);
	/* the likely cause, from all of the rank's metrics */
	char cause[160] = "";
	int mostly = idle_mostly(w);
	static const char *const cat_text[] = {"host wait", "kernel wait", "other gaps"};
	if (high(s, i, TT_RM_IDLE) && mostly >= 0) {
		if (k == TT_RM_IDLE) {
			snprintf(cause, sizeof(cause), "mostly %s%s", cat_text[mostly],
				 mostly == TT_IDLE_HOST_WAIT ? " (the CPU side is late)" : "");
		} else {
			tt_rmetric_fmt(TT_RM_IDLE, w->v[TT_RM_IDLE], a, sizeof(a));
			snprintf(cause, sizeof(cause), "idle %s, mostly %s%s", a, cat_text[mostly],
				 mostly == TT_IDLE_HOST_WAIT ? " (the CPU side is late)" : "");
		}
	} else if (high(s, i, TT_RM_TOPK) || high(s, i, TT_RM_COMPUTE)) {
		snprintf(cause, sizeof(cause), "its kernels run slower (a slow GPU?)");
	} else if (high(s, i, TT_RM_XFER)) {
		snprintf(cause, sizeof(cause),
			 "its collectives run on after all ranks joined (a slow link?)");
	} else if (high(s, i, TT_RM_COMM) || high(s, i, TT_RM_EXPOSED)) {
		snprintf(cause, sizeof(cause), "it waits longer in collectives than the others");
	} else if (tt_rdist_outlier(&s->dist[TT_RM_COMM], w->v[TT_RM_COMM]) &&
		   w->z[TT_RM_COMM] < 0) {
		snprintf(cause, sizeof(cause), "the other ranks wait for it in collectives");
	} else if (high(s, i, TT_RM_IDLE)) {
		snprintf(cause, sizeof(cause), "GPU idle between kernels");
	}
	if (cause[0] && used + 3 < n) {
		len = snprintf(buf + used, n - used, ", %s", cause);
		if (len > 0)
			used += (size_t)len < n - used ? (size_t)len : n - used - 1;
	}
	return used;
}

/* ---- tables ---- */

static double to_ms(double ns)
{
	return isnan(ns) ? NAN : ns / 1e6;
}

/* a metric's value in the unit the outliers table gives it */
static double shown(enum tt_rmetric k, double v)
{
	return tt_rmetric_is_pct(k) ? v : to_ms(v);
}

struct tt_table *tt_ranks_table(const struct tt_ranks *s)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "host", .type = TT_C_STR, .width = 24},
		{.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT, .prec = 1},
		{.name = "compute_pctg", .title = "compute %", .type = TT_C_PCT, .prec = 1},
		{.name = "comm_pctg", .title = "comm %", .type = TT_C_PCT, .prec = 1},
		{.name = "exposed_comm_pctg", .title = "exposed comm %", .type = TT_C_PCT,
		 .prec = 1},
		{.name = "transfer_pctg", .title = "transfer %", .type = TT_C_PCT, .prec = 1},
		{.name = "step_time", .title = "step time", .type = TT_C_DUR},
		{.name = "top_kernel_time", .title = "top kernel", .type = TT_C_DUR},
		{.name = "gpu_span", .title = "GPU span", .type = TT_C_DUR, .hidden_text = true},
		{.name = "steps", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("rank_metrics", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Metrics per rank (HTA's view of each rank)");
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_rank_metrics *w = &s->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		if (w->host)
			tt_table_set_str(t, k, 1, w->host);
		int c = 2;
		for (int j = 0; j < TT_RM_COUNT; j++, c++) {
			double v = w->v[j];
			if (tt_rmetric_is_pct((enum tt_rmetric)j))
				tt_table_set_num(t, k, c, v);
			else if (!isnan(v))
				tt_table_set_int(t, k, c, (int64_t)llround(v));
		}
		if (w->has_gpu)
			tt_table_set_int(t, k, c, w->span_ns);
		tt_table_set_int(t, k, c + 1, w->nsteps);
		tt_table_set_int(t, k, c + 2, (int64_t)w->ri);
	}
	if (s->top_kernel)
		tt_table_add_note(t, "top kernel: %s", s->top_kernel);
	return t;
}

static const char *unit_ascii(enum tt_unit u)
{
	static const char *const n[] = {"ns", "us", "ms", "s"};
	return n[u];
}

struct tt_table *tt_table_distributions(const struct tt_table *t, const char *rank_col,
					const char *name)
{
	static const struct tt_col cols[] = {
		{.name = "metric", .type = TT_C_STR, .hidden_text = true},
		{.name = "what", .title = "metric", .type = TT_C_STR, .width = 28,
		 .hidden_csv = true},
		{.name = "n", .title = "ranks", .type = TT_C_INT},
		{.name = "min", .type = TT_C_NUM, .prec = 1},
		{.name = "min_rank", .title = "(rank)", .type = TT_C_INT},
		{.name = "p10", .type = TT_C_NUM, .prec = 1},
		{.name = "median", .type = TT_C_NUM, .prec = 1},
		{.name = "p90", .type = TT_C_NUM, .prec = 1},
		{.name = "max", .type = TT_C_NUM, .prec = 1},
		{.name = "max_rank", .title = "(rank)", .type = TT_C_INT},
		{.name = "unit", .type = TT_C_STR},
	};
	struct tt_table *d = tt_table_new(name, cols, (int)TT_ARRAY_SIZE(cols));
	int rc = tt_table_col(t, rank_col);
	double *v = tt_malloc((t->nrows + 1) * sizeof(*v));
	for (int c = 0; c < t->ncols; c++) {
		const struct tt_col *col = &t->cols[c];
		if (c == rc || col->hidden_text || col->type == TT_C_STR || col->type == TT_C_BAR ||
		    col->type == TT_C_STACK)
			continue;
		enum tt_unit u = TT_U_NS;
		double div = 1;
		if (col->type == TT_C_DUR) {
			static const double divs[] = {1, 1e3, 1e6, 1e9};
			u = tt_table_col_unit(t, c);
			div = divs[u];
		}
		for (size_t r = 0; r < t->nrows; r++)
			v[r] = tt_cell_num(tt_table_cell(t, r, c)) / div;
		struct tt_rdist ds;
		tt_rdist_of(v, t->nrows, col->type == TT_C_PCT, &ds);
		size_t k = tt_table_add_row(d);
		tt_table_set_str(d, k, 0, col->name);
		tt_table_set_str(d, k, 1, col->title ? col->title : col->name);
		tt_table_set_int(d, k, 2, (int64_t)ds.n);
		tt_table_set_num(d, k, 3, ds.min);
		tt_table_set_num(d, k, 5, ds.p10);
		tt_table_set_num(d, k, 6, ds.median);
		tt_table_set_num(d, k, 7, ds.p90);
		tt_table_set_num(d, k, 8, ds.max);
		if (rc >= 0 && ds.n) {
			double a = tt_cell_num(tt_table_cell(t, ds.min_i, rc));
			double b = tt_cell_num(tt_table_cell(t, ds.max_i, rc));
			if (!isnan(a))
				tt_table_set_int(d, k, 4, (int64_t)a);
			if (!isnan(b))
				tt_table_set_int(d, k, 9, (int64_t)b);
		}
		tt_table_set_str(d, k, 10, col->type == TT_C_DUR ? unit_ascii(u) :
					   col->type == TT_C_PCT ? "%" :
								   "");
	}
	free(v);
	return d;
}

static struct tt_table *outliers_table(const struct tt_ranks *s, int metric, int top)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "host", .type = TT_C_STR, .width = 20},
		{.name = "metric", .type = TT_C_STR},
		{.name = "robust_z", .title = "z", .type = TT_C_NUM, .prec = 1},
		{.name = "value", .type = TT_C_NUM, .prec = 1},
		{.name = "median", .type = TT_C_NUM, .prec = 1},
		{.name = "unit", .type = TT_C_STR},
		{.name = "also", .title = "also out", .type = TT_C_STR, .width = 24},
		{.name = "reason", .type = TT_C_STR, .width = 90},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("outliers", cols, (int)TT_ARRAY_SIZE(cols));
	struct tt_outlier *o;
	size_t n = tt_ranks_outliers(s, metric, true, &o);
	if (metric >= 0)
		tt_table_set_title(t, "Ranks furthest from the median in %s (robust z-score over %zu "
				      "ranks)",
				   tt_rmetric_title((enum tt_rmetric)metric),
				   s->dist[metric].n);
	else
		tt_table_set_title(t, "Ranks furthest from the median (robust z-score over %zu ranks; "
				      "each rank with its strongest metric)",
				   s->n);
	size_t shown_n = TT_MIN(n, (size_t)top);
	for (size_t j = 0; j < shown_n; j++) {
		const struct tt_rank_metrics *w = &s->rows[o[j].i];
		enum tt_rmetric k = o[j].metric;
		size_t r = tt_table_add_row(t);
		char also[96] = "", reason[256];
		size_t al = 0;
		for (int q = 0; q < TT_RM_COUNT; q++) {
			if (q == (int)k || !tt_rdist_outlier(&s->dist[q], w->v[q]))
				continue;
			int len = snprintf(also + al, sizeof(also) - al, "%s%s", al ? ", " : "",
					   tt_rmetric_name((enum tt_rmetric)q));
			if (len > 0 && (size_t)len < sizeof(also) - al)
				al += (size_t)len;
		}
		tt_outlier_reason(s, o[j].i, k, reason, sizeof(reason));
		tt_table_set_int(t, r, 0, w->rank);
		if (w->host)
			tt_table_set_str(t, r, 1, w->host);
		tt_table_set_str(t, r, 2, tt_rmetric_name(k));
		tt_table_set_num(t, r, 3, tt_round(o[j].z, 1));
		tt_table_set_num(t, r, 4, tt_round(shown(k, w->v[k]), 3));
		tt_table_set_num(t, r, 5, tt_round(shown(k, s->dist[k].median), 3));
		tt_table_set_str(t, r, 6, tt_rmetric_is_pct(k) ? "%" : "ms");
		tt_table_set_str(t, r, 7, also);
		tt_table_set_str(t, r, 8, reason);
		tt_table_set_int(t, r, 9, (int64_t)w->ri);
	}
	if (!n)
		tt_table_add_note(t, "no rank stands out: every value is within %.1f robust "
				     "z-scores of the median (or too close to it to matter)",
				  TT_RZ_LIMIT);
	else if (n > shown_n)
		tt_table_add_note(t, "%zu of %zu outlying ranks shown (--top N)", shown_n, n);
	tt_table_add_note(t, "z = (value - median) / (1.4826 x MAD); a rank is listed when |z| >= "
			     "%.1f and it is at least 2 points (percentages) or 5 %% (times) "
			     "from the median",
			  TT_RZ_LIMIT);
	tt_table_add_note(t, "transfer: collective time after every rank has joined (calls matched "
			     "by kernel name and order; assumes the ranks' clocks agree)");
	free(o);
	return t;
}

int tt_report_outliers(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	/* TODO(cli): `--metric NAME` restricts the list to one metric; until
	 * tt_report_opts carries it, every metric is shown */
	int metric = -1;
	if (o->metric && (metric = tt_rmetric_lookup(o->metric)) < 0)
		return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET, "unknown metric '%s'", o->metric);
	const struct tt_ranks *s = tt_res_ranks(res);
	if (!s->n) {
		return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET, "no rank selected");
	}
	int top = o->top > 0 ? o->top : 20;
	struct tt_table *all = tt_ranks_table(s);
	struct tt_table *dist = tt_table_distributions(all, "rank", "rank_distributions");
	tt_table_set_title(dist, "Each metric over %zu ranks (one rank per row: --table "
				 "rank_metrics)",
			   s->n);
	size_t nogpu = 0;
	for (size_t i = 0; i < s->n; i++)
		nogpu += !s->rows[i].has_gpu;
	if (nogpu)
		tt_table_add_note(dist, "%zu rank%s without GPU events left out", nogpu,
				  nogpu > 1 ? "s" : "");
	if (s->top_kernel)
		tt_table_add_note(dist, "top kernel: %s", s->top_kernel);
	bool want_all = o->table && strcmp(o->table, "rank_metrics") == 0;
	*out = tt_malloc(3 * sizeof(**out));
	*n = 0;
	(*out)[(*n)++] = outliers_table(s, metric, top);
	(*out)[(*n)++] = dist;
	if (want_all)
		(*out)[(*n)++] = all;
	else
		tt_table_free(all);
	return 0;
}
