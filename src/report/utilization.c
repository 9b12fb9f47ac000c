/* tracetop report utilization: GPU utilisation per device, kernels, the
 * busy share over time. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/utilization.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* ---- utilization ---- */

static struct tt_table *util_dev_table(const struct tt_util *u)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_INT},
		{.name = "streams", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "gpu_span(us)", .title = "GPU span", .type = TT_C_DUR},
		{.name = "gpu_busy(us)", .title = "busy", .type = TT_C_DUR},
		{.name = "gpu_utilization_pctg", .title = "util %", .type = TT_C_PCT, .prec = 1},
		{.name = "util_bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 6,
		 .bar_max = 100,
		 .width = 12,
		 .role = {TT_ROLE_BAR_COMP}},
		{.name = "est_sm_efficiency_pctg",
		 .title = "est. SM eff. %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "num_sms", .title = "SMs", .type = TT_C_INT},
		{.name = "busy_over_time",
		 .title = "busy over time",
		 .type = TT_C_STR,
		 .width = 64,
		 .hidden_csv = true},
		{.name = "kernel_busy(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "memcpy_memset", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("gpu_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(
		t, "GPU utilisation per device: busy = union of kernels, memcpy and "
		   "memset over its streams, of the span from its first to its last GPU op");
	bool from_args = false, no_sms = false;
	char spark[400];
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, d->rank);
		tt_table_set_int(t, k, 1, d->device);
		tt_table_set_int(t, k, 2, d->nstreams);
		tt_table_set_int(t, k, 3, d->nkernels);
		tt_table_set_int(t, k, 4, d->t1 - d->t0);
		tt_table_set_int(t, k, 5, d->busy_ns);
		tt_table_set_num(t, k, 6, d->util_pct);
		tt_table_set_num(t, k, 8, d->sm_eff_pct);
		tt_table_set_num(t, k, 9, d->occ_pct);
		if (d->num_sms > 0)
			tt_table_set_int(t, k, 10, d->num_sms);
		tt_sparkline(spark, sizeof(spark), d->series, u->nbuckets, 1.0);
		tt_table_set_str(t, k, 11, spark);
		tt_table_set_int(t, k, 12, d->kernel_busy_ns);
		tt_table_set_int(t, k, 13, d->nmem);
		tt_table_set_int(t, k, 14, (int64_t)d->ri);
		from_args |= d->sm_from_args;
		no_sms |= d->num_sms <= 0;
	}
	tt_table_add_note(t, "est. SM efficiency: per kernel min(blocks / SMs, 1), blocks = grid "
			     "x*y*z, weighted by kernel time; est. occupancy: the kernels' `est. "
			     "achieved occupancy %%` weighted by kernel time");
	if (from_args || no_sms)
		tt_table_add_note(t, "some devices have no SM count in deviceProperties: their SM "
				     "efficiency uses the kernels' `blocks per SM` arg");
	if (u->nranks_nogpu)
		tt_table_add_note(t, "%u of %u ranks have no GPU activity", u->nranks_nogpu,
				  u->nranks_sel);
	if (!u->nranks_sel)
		tt_table_add_note(t, "no rank selected");
	return t;
}

static struct tt_table *util_kernel_table(const struct tt_util *u, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "count", .type = TT_C_INT},
		{.name = "sum(us)", .title = "sum", .type = TT_C_DUR},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR},
		{.name = "time_pctg", .title = "time %", .type = TT_C_PCT, .prec = 1},
		{.name = "est_sm_efficiency_pctg",
		 .title = "est. SM eff. %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "blocks", .type = TT_C_INT},
		{.name = "threads_per_block", .title = "threads/block", .type = TT_C_INT},
		{.name = "registers_per_thread", .title = "regs", .type = TT_C_INT},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("kernel_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Kernels by total time, with their estimated SM efficiency and "
			      "achieved occupancy (launch parameters of the longest instance)");
	int64_t total = 0;
	for (size_t i = 0; i < u->nkernels; i++)
		total += u->kernels[i].sum_ns;
	size_t n = u->nkernels;
	size_t top = o->top > 0 ? (size_t)o->top : 30;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	for (size_t i = 0; i < n; i++) {
		const struct tt_util_kernel *k = &u->kernels[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, k->name);
		tt_table_set_int(t, r, 1, (int64_t)k->count);
		tt_table_set_int(t, r, 2, k->sum_ns);
		tt_table_set_num(t, r, 3, (double)k->sum_ns / (double)k->count);
		tt_table_set_int(t, r, 4, k->max_ns);
		tt_table_set_num(t, r, 5,
				 total > 0 ? 100.0 * (double)k->sum_ns / (double)total : NAN);
		tt_table_set_num(t, r, 6, k->sm_eff_pct);
		tt_table_set_num(t, r, 7, k->occ_pct);
		if (k->blocks > 0)
			tt_table_set_int(t, r, 8, k->blocks);
		if (k->threads > 0)
			tt_table_set_int(t, r, 9, k->threads);
		if (k->regs > 0)
			tt_table_set_int(t, r, 10, k->regs);
		tt_table_set_int(t, r, 11, k->nranks);
		tt_table_set_int(t, r, 12, (int64_t)k->ri);
		tt_table_set_int(t, r, 13, k->longest);
	}
	if (n < u->nkernels)
		tt_table_add_note(t, "%zu of %zu kernels shown (--top N; CSV and JSON list all)", n,
				  u->nkernels);
	return t;
}

static struct tt_table *util_series_table(const struct tt_util *u)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_INT},
		{.name = "bucket", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR},
		{.name = "end(us)", .title = "end", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
	};
	struct tt_table *t = tt_table_new("utilization_timeline", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t,
			   "Busy share of each of %d time buckets of a device's GPU span "
			   "(times from the span's start)",
			   u->nbuckets);
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		int64_t span = d->t1 - d->t0;
		for (int b = 0; b < u->nbuckets && span > 0; b++) {
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			tt_table_set_int(t, k, 1, d->device);
			tt_table_set_int(t, k, 2, b);
			tt_table_set_int(t, k, 3, (int64_t)((double)span * b / u->nbuckets));
			tt_table_set_int(t, k, 4,
					 b + 1 == u->nbuckets
						 ? span
						 : (int64_t)((double)span * (b + 1) / u->nbuckets));
			tt_table_set_num(t, k, 5, 100.0 * d->series[b]);
		}
	}
	return t;
}

int tt_report_utilization(const struct tt_model *m, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_util u;
	tt_util_compute(m, &o->a, TT_UTIL_BUCKETS, &u);
	struct tt_table *t[3];
	size_t k = 0;
	t[k++] = util_dev_table(&u);
	t[k++] = util_kernel_table(&u, o);
	if (tt_tb_want(o, "utilization_timeline"))
		t[k++] = util_series_table(&u);
	tt_util_free(&u);
	tt_tb_give(out, n, t, k);
	return 0;
}

