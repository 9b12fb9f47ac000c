/* tracetop report utilization: GPU utilisation per device, kernels, the
 * busy share over time. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/grid.h"
#include "tracetop/utilization.h"
#include "tracetop/results.h"
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
		/* the plugin's GPU summary, over the steps window */
		{.name = "steps_time(us)", .title = "steps window", .type = TT_C_DUR},
		{.name = "gpu_utilization_pctg", .title = "GPU util. %", .type = TT_C_PCT, .prec = 1},
		{.name = "util_bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 5,
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
		{.name = "tensor_cores_pctg", .title = "TC %", .type = TT_C_PCT, .prec = 1},
		/* tracetop's own measures */
		/* (over every event of the device: not the GPU span of the other
		 * panes, which is HTA's view unless --exact) */
		{.name = "gpu_span_every_event(us)", .title = "GPU span, every event",
		 .type = TT_C_DUR},
		{.name = "gpu_busy_every_event(us)", .title = "busy, every event", .type = TT_C_DUR},
		{.name = "busy_of_gpu_span_every_event_pctg",
		 .title = "busy % of that span",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "sm_eff_per_kernel_time_pctg",
		 .title = "SM eff. per kernel time %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "occupancy_per_kernel_time_pctg", .type = TT_C_PCT, .prec = 1,
		 .hidden_text = true},
		{.name = "est_sm_efficiency_by_grid_pctg",
		 .title = "est. SM eff. by grid %",
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
		{.name = "kernels_with_blocks_per_sm", .type = TT_C_INT, .hidden_text = true},
		{.name = "kernels_with_occupancy", .type = TT_C_INT, .hidden_text = true},
		{.name = "steps_start(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("gpu_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU summary per device (the TensorBoard plugin's, over the steps "
			      "window), and tracetop's busy time over the device's GPU span with every "
			      "event (HTA's iteration filter not applied)");
	bool from_args = false, no_sms = false;
	char spark[400];
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, d->rank);
		tt_table_set_int(t, k, 1, d->device);
		tt_table_set_int(t, k, 2, d->nstreams);
		tt_table_set_int(t, k, 3, d->nkernels);
		if (d->win_t1 > d->win_t0)
			tt_table_set_int(t, k, 4, d->win_t1 - d->win_t0);
		tt_table_set_num(t, k, 5, d->gpu_util_pct);
		tt_table_set_num(t, k, 7, d->est_sm_eff_pct);
		tt_table_set_num(t, k, 8, d->est_occ_pct);
		tt_table_set_num(t, k, 9, d->tc_pct);
		tt_table_set_int(t, k, 10, d->t1 - d->t0);
		tt_table_set_int(t, k, 11, d->busy_ns);
		tt_table_set_num(t, k, 12, d->busy_span_pct);
		tt_table_set_num(t, k, 13, d->sm_eff_ktime_pct);
		tt_table_set_num(t, k, 14, d->occ_ktime_pct);
		tt_table_set_num(t, k, 15, d->est_sm_eff_grid_pct);
		if (d->num_sms > 0)
			tt_table_set_int(t, k, 16, d->num_sms);
		tt_sparkline(spark, sizeof(spark), d->series, u->nbuckets, 1.0);
		tt_table_set_str(t, k, 17, spark);
		tt_table_set_int(t, k, 18, d->kernel_busy_ns);
		tt_table_set_int(t, k, 19, d->nmem);
		tt_table_set_int(t, k, 20, d->nkernels_bps);
		tt_table_set_int(t, k, 21, d->nkernels_occ);
		if (d->win_t1 > d->win_t0)
			tt_table_set_int(t, k, 22, d->win_t0);
		tt_table_set_int(t, k, 23, (int64_t)d->ri);
		from_args |= d->sm_from_args;
		no_sms |= d->num_sms <= 0;
	}
	tt_table_add_note(t, "GPU util.: the union of kernels over the steps window (memcpy and "
			     "memset not counted); est. SM eff.: the time integral of min(blocks "
			     "per SM of the running kernels, 1) over the window, never above GPU "
			     "util., from the kernels' `blocks per SM` arg (none without it, as on "
			     "ROCm); est. occupancy: kernel-time-weighted; TC: tensor-core kernels' "
			     "share of the kernel time the operators launched");
	tt_table_add_note(t, "tracetop's measures: busy = union of kernels, memcpy and memset over "
			     "the device's GPU span (first to last GPU op); SM eff. per kernel "
			     "time = min(blocks / SMs, 1) weighted by kernel time; est. SM eff. by "
			     "grid = est. SM eff. with blocks per SM = grid blocks / SMs where the "
			     "arg is absent");
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
		{.name = "tc_used", .title = "TC", .type = TT_C_STR},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total(us)", .title = "total", .type = TT_C_DUR},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR, .unit_group = 1},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR, .unit_group = 1},
		{.name = "min(us)", .title = "min", .type = TT_C_DUR, .unit_group = 1},
		{.name = "time_pctg", .title = "time %", .type = TT_C_PCT, .prec = 1},
		{.name = "mean_blocks_per_sm", .title = "blocks/SM", .type = TT_C_NUM, .prec = 2},
		{.name = "mean_est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "sm_eff_per_kernel_time_pctg",
		 .title = "SM eff. per kernel time %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "occupancy_of_kernels_with_it_pctg", .type = TT_C_PCT, .prec = 1,
		 .hidden_text = true},
		{.name = "blocks", .type = TT_C_INT},
		{.name = "threads_per_block", .title = "threads/block", .type = TT_C_INT},
		{.name = "registers_per_thread", .title = "regs", .type = TT_C_INT},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("kernel_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Kernels by total time (the plugin's kernel view), with tracetop's SM "
			      "efficiency (launch parameters of the longest instance)");
	size_t n = u->nkernels;
	size_t top = o->top > 0 ? (size_t)o->top : 30;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	for (size_t i = 0; i < n; i++) {
		const struct tt_util_kernel *k = &u->kernels[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, k->name);
		tt_table_set_str(t, r, 1, k->tc ? "yes" : "no");
		tt_table_set_int(t, r, 2, (int64_t)k->count);
		tt_table_set_int(t, r, 3, k->sum_ns);
		tt_table_set_num(t, r, 4, tt_sat_mean(k->sum_ns, k->count));
		tt_table_set_int(t, r, 5, k->max_ns);
		tt_table_set_int(t, r, 6, k->min_ns);
		tt_table_set_num(t, r, 7, k->time_pct);
		tt_table_set_num(t, r, 8, k->mean_bps);
		tt_table_set_num(t, r, 9, k->mean_occ_pct);
		tt_table_set_num(t, r, 10, k->sm_eff_ktime_pct);
		tt_table_set_num(t, r, 11, k->occ_ktime_pct);
		if (k->blocks > 0)
			tt_table_set_int(t, r, 12, k->blocks);
		if (k->threads > 0)
			tt_table_set_int(t, r, 13, k->threads);
		if (k->regs > 0)
			tt_table_set_int(t, r, 14, k->regs);
		tt_table_set_int(t, r, 15, k->nranks);
		tt_table_set_int(t, r, 16, (int64_t)k->ri);
		tt_table_set_int(t, r, 17, k->longest);
	}
	if (n < u->nkernels)
		tt_table_add_note(t, "%zu of %zu kernels shown (--top N; CSV and JSON list all)", n,
				  u->nkernels);
	tt_table_add_note(t, "blocks/SM and est. occupancy: duration-weighted means, a kernel "
			     "without the arg counting as 0, blank when no kernel of the rank has "
			     "it (the plugin's); TC: a tensor-core kernel by the plugin's name "
			     "list");
	for (size_t i = 0; i < u->nranks; i++)
		if (!isnan(u->ranks[i].tc_kernel_pct))
			tt_table_add_note(t, "rank %lld: %.1f %% of kernel time in tensor-core "
					     "kernels",
					  (long long)u->ranks[i].rank, u->ranks[i].tc_kernel_pct);
	return t;
}

/* "[x, y, z]" of a grid or block; false (blank) when the kernel had none */
static bool dim3(char *buf, size_t n, const int32_t *v)
{
	if (!v[0] && !v[1] && !v[2])
		return false;
	snprintf(buf, n, "[%d, %d, %d]", v[0], v[1], v[2]);
	return true;
}

static struct tt_table *util_kop_table(const struct tt_util *u, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 50},
		{.name = "operator", .type = TT_C_STR, .width = 40},
		{.name = "grid", .type = TT_C_STR},
		{.name = "block", .type = TT_C_STR},
		{.name = "registers_per_thread", .title = "regs", .type = TT_C_INT},
		{.name = "shared_memory", .title = "shared mem.", .type = TT_C_INT},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total(us)", .title = "total", .type = TT_C_DUR},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR, .unit_group = 1},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR, .unit_group = 1},
		{.name = "min(us)", .title = "min", .type = TT_C_DUR, .unit_group = 1},
		{.name = "mean_blocks_per_sm", .title = "blocks/SM", .type = TT_C_NUM, .prec = 2},
		{.name = "mean_est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("kernels_by_operator", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Kernels by kernel, operator and launch parameters (the plugin's "
			      "kernel view grouped by operator)");
	size_t n = u->nkops, top = o->top > 0 ? (size_t)o->top : 30;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	char buf[64];
	for (size_t i = 0; i < n; i++) {
		const struct tt_util_kop *k = &u->kops[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, k->name);
		tt_table_set_str(t, r, 1, k->op);
		if (dim3(buf, sizeof(buf), k->grid))
			tt_table_set_str(t, r, 2, buf);
		if (dim3(buf, sizeof(buf), k->block))
			tt_table_set_str(t, r, 3, buf);
		tt_table_set_int(t, r, 4, k->regs);
		tt_table_set_int(t, r, 5, k->shmem);
		tt_table_set_int(t, r, 6, (int64_t)k->count);
		tt_table_set_int(t, r, 7, k->sum_ns);
		tt_table_set_num(t, r, 8, tt_sat_mean(k->sum_ns, k->count));
		tt_table_set_int(t, r, 9, k->max_ns);
		tt_table_set_int(t, r, 10, k->min_ns);
		tt_table_set_num(t, r, 11, k->mean_bps);
		tt_table_set_num(t, r, 12, k->mean_occ_pct);
		tt_table_set_int(t, r, 13, (int64_t)k->ri);
		tt_table_set_int(t, r, 14, k->longest);
	}
	if (n < u->nkops)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N; CSV and JSON list all)", n,
				  u->nkops);
	tt_table_add_note(t, "operator: the op or step whose runtime call launched the kernel (by "
			     "time; the plugin links by External id, which newer traces break); "
			     "(no op): the plugin's CallTreeRoot, a call outside every op, or no "
			     "call on a rank with steps; blank grid, block: no such arg; blank "
			     "blocks/SM, occupancy: no kernel of the rank has the arg");
	return t;
}

static struct tt_table *util_series_table(const struct tt_util *u)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_INT},
		{.name = "bucket", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "end(us)", .title = "end", .type = TT_C_DUR, .unit_group = 2},
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

int tt_report_utilization(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_util *u = tt_res_util(res);
	struct tt_table *t[4];
	size_t k = 0;
	t[k++] = util_dev_table(u);
	t[k++] = util_kernel_table(u, o);
	t[k++] = util_kop_table(u, o);
	if (tt_tb_want(o, "utilization_timeline"))
		t[k++] = util_series_table(u);
	tt_tb_give(out, n, t, k);
	return 0;
}

