/* Pane 7, Counters: queue length and memory bandwidth series per rank,
 * with sparklines. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/util.h"
#include "pane.h"

/* A sparkline of the step series pts over [t0, t1): each of `width` cells
 * shows the largest value in its slice. */
static void sparkline(const struct tt_sample *pts, size_t n, int64_t t0, int64_t t1, double vmax,
		      char *buf, size_t cap, int width)
{
	float *v = tt_malloc((size_t)(width > 0 ? width : 1) * sizeof(*v));
	for (int i = 0; i < width; i++) {
		int64_t a = tt_lerp_ns(t0, t1, i, width), b = tt_lerp_ns(t0, t1, i + 1, width);
		v[i] = (float)tt_step_max(pts, n, a, b);
	}
	tt_sparkline(buf, cap, v, width, vmax);
	free(v);
}

static int counters_open(struct tt_pane *p)
{
	/* the series, computed once (in the background when the app starts) */
	const struct tt_counters *cs = tt_res_counters(p->app->res);
	const struct tt_counters c = *cs;
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "series", .type = TT_C_STR, .width = 22},
		{.name = "count", .type = TT_C_INT},
		{.name = "mean", .type = TT_C_NUM, .prec = 1},
		{.name = "max", .type = TT_C_NUM, .prec = 1},
		{.name = "full_queue", .title = "time >= 1024", .type = TT_C_DUR},
		{.name = "over_time", .title = "over time (max per slice)", .type = TT_C_STR,
		 .width = 40, .free_text = true},
	};
	struct tt_table *t = tt_table_new("counters", cols, (int)TT_ARRAY_SIZE(cols));
	size_t nfull = 0;
	for (size_t i = 0; i < c.nranks; i++) {
		const struct tt_counters_rank *cr = &c.ranks[i];
		const struct tt_rank *r = cr->r;
		char spark[400], name[64];
		for (size_t q = 0; q < cr->nq; q++) {
			const struct tt_queue_series *s = &cr->q[q];
			size_t k = tt_table_add_row(t);
			snprintf(name, sizeof(name), "queue, stream %lld", (long long)s->stream);
			tt_table_set_int(t, k, 0, r->rank);
			tt_table_set_str(t, k, 1, name);
			tt_table_set_int(t, k, 2, (int64_t)s->stats.count);
			tt_table_set_num(t, k, 3, s->stats.mean);
			tt_table_set_num(t, k, 4, s->stats.max);
			tt_table_set_int(t, k, 5, s->full_ns);
			sparkline(s->pts, s->npts, r->t0, r->t1, s->stats.max, spark, sizeof(spark), 32);
			tt_table_set_str(t, k, 6, spark);
			if (s->reaches_max)
				nfull++;
		}
		for (size_t b = 0; b < cr->nbw; b++) {
			const struct tt_bw_series *s = &cr->bw[b];
			size_t k = tt_table_add_row(t);
			snprintf(name, sizeof(name), "GB/s, %s", s->name);
			tt_table_set_int(t, k, 0, r->rank);
			tt_table_set_str(t, k, 1, name);
			tt_table_set_int(t, k, 2, (int64_t)s->stats.count);
			tt_table_set_num(t, k, 3, s->stats.mean);
			tt_table_set_num(t, k, 4, s->stats.max);
			sparkline(s->pts, s->npts, r->t0, r->t1, s->stats.max, spark, sizeof(spark), 32);
			tt_table_set_str(t, k, 6, spark);
		}
	}
	tt_pane_set_table(p, t);
	/* queue length >= 1024: launches stall */
	for (size_t i = 0; i < t->nrows; i++)
		if (tt_cell_num(tt_table_cell(t, i, 5)) > 0)
			p->row_role[i] = TT_ROLE_WARNING;
	tt_pane_head(p, TT_ROLE_DIM,
		     "queue length: kernels launched and not started, per stream; GB/s: memory "
		     "bandwidth of the copies in flight%s",
		     nfull ? "; highlighted rows reach 1024 (launches stall)" : "");
	if (!t->nrows)
		snprintf(p->msg, sizeof(p->msg), "no launches or memory copies in the ranks shown");
	return 0;
}

static const struct tt_pane_diff counters_diff = {
	.nkeys = 2,
	.cols = {3, 4, 2, 5},
	.ncols = 4,
	.rank_col = 0,
	.stream_key = "series",
	.more_is = 0,
	.what = "mean per counter series",
};

const struct tt_pane_ops tt_counters_ops = {
	.name = "counters",
	.title = "Counters",
	.help = "HTA's counters: the queue length of each stream (kernels launched on the CPU "
		"and not yet started on the GPU) and the memory bandwidth of copies in flight, "
		"with statistics over their change points (as HTA) and a sparkline over the "
		"rank's span.  A queue at 1024 means launches block.  `tracetop counters PATH -o "
		"OUT.json.gz` writes them into the trace for Perfetto.",
	.open = counters_open,
	.needs = TT_NEED(TT_RES_COUNTERS),
	.diff = &counters_diff,
};
