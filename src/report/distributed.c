/* tracetop report distributed: computation / communication per rank,
 * collectives, stragglers. */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/collbw.h"
#include "tracetop/grid.h"
#include "tracetop/distributed.h"
#include "tracetop/overview.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* ---- distributed ---- */

static struct tt_table *dist_overview_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "steps", .type = TT_C_INT},
		{.name = "step_time(us)", .title = "step", .type = TT_C_DUR},
		{.name = "computation(us)", .title = "computation", .type = TT_C_DUR},
		{.name = "overlapping(us)", .title = "overlapping", .type = TT_C_DUR},
		{.name = "communication(us)", .title = "communication", .type = TT_C_DUR},
		{.name = "other(us)", .title = "other", .type = TT_C_DUR},
		{.name = "computation_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "overlapping_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "communication_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "other_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "bar",
		 .title = "of the step",
		 .type = TT_C_STACK,
		 .width = 24,
		 .bar_max = 100,
		 .stack = {7, 8, 9, 10},
		 .nstack = 4,
		 .role = {TT_ROLE_BAR_COMP, TT_ROLE_BAR_OTHER, TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "#%=."},
		{.name = "gpu_idle(us)", .title = "GPU idle", .type = TT_C_DUR},
		{.name = "collective_calls", .title = "calls in all", .type = TT_C_INT},
		{.name = "sync(us)", .title = "sync in all", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("distributed_overview", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Computation / communication per rank, mean per step (the "
			      "TensorBoard plugin's distributed view); collective calls and "
			      "their sync: in all, over the whole trace");
	bool no_steps = false;
	for (size_t i = 0; i < d->nranks; i++) {
		const struct tt_dist_rank *w = &d->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		tt_table_set_int(t, k, 1, w->has_steps ? w->nwindows : 0);
		tt_table_set_int(t, k, 2, w->step_ns);
		tt_table_set_int(t, k, 3, w->comp_ns);
		tt_table_set_int(t, k, 4, w->overlap_ns);
		tt_table_set_int(t, k, 5, w->comm_ns);
		tt_table_set_int(t, k, 6, w->other_ns);
		const int64_t part[4] = {w->comp_ns, w->overlap_ns, w->comm_ns, w->other_ns};
		for (int j = 0; j < 4; j++)
			tt_table_set_num(t, k, 7 + j,
					 w->step_ns > 0
						 ? 100.0 * (double)part[j] / (double)w->step_ns
						 : NAN);
		tt_table_set_int(t, k, 12, w->idle_ns);
		tt_table_set_int(t, k, 13, w->ncalls);
		tt_table_set_int(t, k, 14, w->sync_ns);
		tt_table_set_int(t, k, 15, (int64_t)w->ri);
		no_steps |= !w->has_steps;
	}
	tt_table_add_note(t, "computation: only non-communication kernels run; overlapping: "
			     "both; communication: only communication kernels; other: the rest of "
			     "the step (idle, memcpy, memset)");
	if (no_steps)
		tt_table_add_note(t,
				  "ranks without ProfilerStep#N (steps 0) count their whole span "
				  "as one step");
	if (!d->nranks)
		tt_table_add_note(t, "no rank selected");
	return t;
}

static struct tt_table *coll_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 40},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "mean_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "mean_size", .title = "size/call", .type = TT_C_STR, .hidden_csv = true},
		{.name = "total_latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "mean_latency(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "data_transfer(us)", .title = "transfer", .type = TT_C_DUR},
		{.name = "mean_data_transfer(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "sync_pctg", .title = "sync %", .type = TT_C_PCT, .prec = 1},
		{.name = "matched_calls", .title = "matched", .type = TT_C_INT},
		{.name = "name_from", .title = "name from", .type = TT_C_STR},
	};
	struct tt_table *t = tt_table_new("collectives", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Collective operations over the ranks shown: latency split into "
			      "data transfer and synchronisation (waiting for the slowest rank)");
	bool differ = false;
	for (size_t s = 0; s < d->nstats; s++) {
		const struct tt_coll_stat *c = &d->stats[s];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, c->name);
		tt_table_set_int(t, k, 1, c->nranks);
		tt_table_set_int(t, k, 2, (int64_t)c->calls);
		if (c->with_bytes) {
			int64_t mean = c->bytes / (int64_t)c->with_bytes;
			tt_table_set_int(t, k, 3, c->bytes);
			tt_tb_set_bytes(t, k, 4, 5, mean);
		}
		tt_table_set_int(t, k, 6, c->total_ns);
		tt_table_set_num(t, k, 7, tt_sat_mean(c->total_ns, c->calls));
		tt_table_set_int(t, k, 8, c->transfer_ns);
		tt_table_set_num(t, k, 9, tt_sat_mean(c->transfer_ns, c->calls));
		tt_table_set_int(t, k, 10, c->sync_ns);
		tt_table_set_num(t, k, 11, c->sync_pct);
		tt_table_set_int(t, k, 12, (int64_t)c->matched);
		tt_table_set_str(t, k, 13, c->source);
		differ |= c->counts_differ;
	}
	tt_table_add_note(t, "latency: the communication kernels of a call; calls are matched "
			     "across ranks by process group and place in its sequence (report "
			     "collectives); sync: from a rank's arrival to the last rank's, the "
			     "rest is transfer; unmatched calls count as transfer");
	tt_table_add_note(t, "size: In msg nelems x dtype size (collective args), else the "
			     "Input Dims x Input type of the collective op");
	if (differ) {
		char names[200];
		size_t k = 0;
		names[0] = '\0';
		for (size_t s = 0; s < d->nstats && k < sizeof(names) - 50; s++)
			if (d->stats[s].counts_differ)
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
						      k ? ", " : "", d->stats[s].name);
		tt_table_add_note(t,
				  "ranks made different numbers of calls of %s (sampled or cut "
				  "traces?): calls are matched only among the ranks that have "
				  "them",
				  names);
	}
	if (d->nranks < 2 && d->ncalls)
		tt_table_add_note(t, "one rank: no synchronisation estimate (every call counts as "
				     "transfer)");
	if (!d->nstats)
		tt_table_add_note(t, "no communication kernels");
	return t;
}

static struct tt_table *coll_rank_table(const struct tt_dist *d, const struct tt_coll *cl,
				       const struct tt_coll_bw *bw)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "name", .type = TT_C_STR, .width = 40},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "size", .title = "size", .type = TT_C_STR, .hidden_csv = true},
		{.name = "total_latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "mean_latency(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "data_transfer(us)", .title = "transfer", .type = TT_C_DUR},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "sync_pctg", .title = "sync %", .type = TT_C_PCT, .prec = 1},
		{.name = "bar",
		 .title = "transfer/sync",
		 .type = TT_C_STACK,
		 .width = 20,
		 .stack = {7, 8},
		 .nstack = 2,
		 .role = {TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "=."},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "busbw_mean(GB/s)", .title = "busbw", .type = TT_C_NUM, .prec = 1},
	};
	struct tt_table *t = tt_table_new("collectives_by_rank", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Collective operations per rank");
	for (size_t i = 0; i < d->nrstats; i++) {
		const struct tt_coll_rstat *x = &d->rstats[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, x->rank);
		tt_table_set_str(t, k, 1, d->stats[x->stat].name);
		tt_table_set_int(t, k, 2, (int64_t)x->calls);
		if (x->with_bytes)
			tt_tb_set_bytes(t, k, 3, 4, x->bytes);
		tt_table_set_int(t, k, 5, x->total_ns);
		tt_table_set_num(t, k, 6, tt_sat_mean(x->total_ns, x->calls));
		tt_table_set_int(t, k, 7, x->transfer_ns);
		tt_table_set_int(t, k, 8, x->sync_ns);
		tt_table_set_num(t, k, 9, x->sync_pct);
		tt_table_set_int(t, k, 11, (int64_t)x->ri);
		char key[64];
		tt_tb_coll_key(d->stats[x->stat].name, key, sizeof(key));
		tt_table_set_num(t, k, 12, tt_coll_bw_rank_mean(bw, cl, x->ri, key, NULL));
	}
	tt_table_add_note(t, "busbw: the mean bus bandwidth of the rank's calls, GB/s (10^9 B/s; "
			     "report perf-model has each collective's)");
	return t;
}

static struct tt_table *straggler_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "metric", .type = TT_C_STR},
		{.name = "value(us)", .title = "value", .type = TT_C_DUR},
		{.name = "median(us)", .title = "median", .type = TT_C_DUR},
		{.name = "robust_z", .title = "z", .type = TT_C_NUM, .prec = 1},
		{.name = "reason", .type = TT_C_STR, .width = 100},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("stragglers", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Ranks far from the others: robust z-score (median, MAD) of the "
			      "mean step time, GPU idle per step and sync time over the whole "
			      "trace");
	for (size_t i = 0; i < d->nstragglers; i++) {
		const struct tt_straggler *s = &d->stragglers[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, s->rank);
		tt_table_set_str(t, k, 1, s->metric);
		tt_table_set_num(t, k, 2, s->value);
		tt_table_set_num(t, k, 3, s->median);
		tt_table_set_num(t, k, 4, s->z);
		tt_table_set_str(t, k, 5, s->reason);
		tt_table_set_int(t, k, 6, (int64_t)s->ri);
	}
	tt_table_add_note(t, "flagged by the one outlier rule (report outliers uses it too): |z| "
			     ">= 3.5 and >= 5 %% from the median, z = (x - median) / max(1.4826 "
			     "MAD, 1 %% of the median); high step time or idle, high or low sync");
	if (d->nranks < 3)
		tt_table_add_note(t, "stragglers need at least 3 ranks (%zu shown)", d->nranks);
	else if (!d->nstragglers)
		tt_table_add_note(t, "no rank stands out");
	return t;
}

/* ---- the plugin's distributed view ---- */

static void step_label(char *buf, size_t n, bool all, bool pseudo, bool outside, int64_t num)
{
	if (all)
		snprintf(buf, n, "all");
	else if (pseudo)
		snprintf(buf, n, "(all)");
	else if (outside)
		snprintf(buf, n, "(no step)");
	else
		snprintf(buf, n, "%lld", (long long)num);
}

static void not_shown_note(struct tt_table *t, const struct tt_dist *d)
{
	if (!d->tb_shown)
		tt_table_add_note(t, "the plugin shows no distributed view here: %s", d->tb_why);
}

static struct tt_table *tb_steps_table(const struct tt_overview *v, const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_STR},
		{.name = "computation(us)", .title = "computation", .type = TT_C_DUR},
		{.name = "overlapping(us)", .title = "overlapping", .type = TT_C_DUR},
		{.name = "communication(us)", .title = "communication", .type = TT_C_DUR},
		{.name = "other(us)", .title = "other", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_STACK,
		 .width = 24,
		 .stack = {2, 3, 4, 5},
		 .nstack = 4,
		 .role = {TT_ROLE_BAR_COMP, TT_ROLE_BAR_OTHER, TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "#%=."},
	};
	struct tt_table *t = tt_table_new("distributed_steps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Computation / communication per step (the plugin's distributed "
			      "view; all: the mean over the steps)");
	char buf[32];
	for (size_t i = 0; i < v->nranks; i++) {
		const struct tt_ov_rank *w = &v->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		tt_table_set_str(t, k, 1, "all");
		tt_table_set_int(t, k, 2, w->comp_ns);
		tt_table_set_int(t, k, 3, w->overlap_ns);
		tt_table_set_int(t, k, 4, w->comm_ns);
		tt_table_set_int(t, k, 5, w->other_ns);
		for (size_t j = w->first; j < w->first + w->nsteps; j++) {
			const struct tt_ov_step *s = &v->steps[j];
			k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, s->rank);
			step_label(buf, sizeof(buf), false, s->pseudo, false, s->num);
			tt_table_set_str(t, k, 1, buf);
			tt_table_set_int(t, k, 2, s->comp_ns);
			tt_table_set_int(t, k, 3, s->overlap_ns);
			tt_table_set_int(t, k, 4, s->comm_ns);
			tt_table_set_int(t, k, 5, s->other_ns);
		}
	}
	tt_table_add_note(t, "computation: kernels other than communication (CPU ops on a rank "
			     "without kernels); communication: nccl:/gloo: collective ops and "
			     "communication kernels; overlapping: both at once");
	not_shown_note(t, d);
	return t;
}

static struct tt_table *tb_wait_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_STR},
		{.name = "data_transfer(us)", .title = "data transfer", .type = TT_C_DUR},
		{.name = "synchronizing(us)", .title = "synchronizing", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_STACK,
		 .width = 24,
		 .stack = {2, 3},
		 .nstack = 2,
		 .role = {TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "=."},
	};
	struct tt_table *t = tt_table_new("distributed_wait", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Data transfer and synchronizing time of the collectives per step "
			      "(the plugin's Synchronizing/Communication Overview)");
	char buf[32];
	for (size_t i = 0; i < d->nwaits; i++) {
		const struct tt_tb_wait *w = &d->waits[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		step_label(buf, sizeof(buf), w->all, w->pseudo, w->outside, w->step);
		tt_table_set_str(t, k, 1, buf);
		if (w->transfer_ns >= 0) {
			tt_table_set_int(t, k, 2, w->transfer_ns);
			tt_table_set_int(t, k, 3, w->total_ns - w->transfer_ns);
		}
	}
	tt_table_add_note(t, "a collective's time: its CPU span and the kernels launched inside "
			     "it; calls matched across ranks by their order, the transfer part of "
			     "each the shortest over the ranks, the rest synchronizing");
	not_shown_note(t, d);
	if (!d->nwaits)
		tt_table_add_note(t, "no nccl:/gloo: collective ops (broadcast, reduce, all_reduce, "
				     "all_gather, reduce_scatter)");
	return t;
}

static struct tt_table *tb_ops_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "name", .type = TT_C_STR, .width = 32},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total_size_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "total_size", .title = "size", .type = TT_C_STR, .hidden_csv = true},
		{.name = "avg_size_bytes", .type = TT_C_NUM, .prec = 0, .hidden_text = true},
		{.name = "total_latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "avg_latency(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "data_transfer(us)", .title = "data transfer", .type = TT_C_DUR},
		{.name = "avg_data_transfer(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "kernels", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("distributed_ops", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Communication operations per rank (the plugin's Communication "
			      "Operations Stats)");
	for (size_t i = 0; i < d->nops; i++) {
		const struct tt_tb_commop *op = &d->ops[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, op->rank);
		tt_table_set_str(t, k, 1, op->name);
		tt_table_set_int(t, k, 2, (int64_t)op->calls);
		if (op->bytes >= 0) {
			tt_tb_set_bytes(t, k, 3, 4, op->bytes);
			tt_table_set_num(t, k, 5, tt_sat_mean(op->bytes, op->calls));
		}
		tt_table_set_int(t, k, 6, op->latency_ns);
		tt_table_set_num(t, k, 7, tt_sat_mean(op->latency_ns, op->calls));
		if (op->transfer_ns >= 0) {
			tt_table_set_int(t, k, 8, op->transfer_ns);
			tt_table_set_num(t, k, 9, tt_sat_mean(op->transfer_ns, op->calls));
		}
		tt_table_set_int(t, k, 10, op->nkernels);
	}
	tt_table_add_note(t, "size: Input Dims x Input type of the op (empty: the trace gives "
			     "none; the plugin shows 0); latency: the union of the calls' CPU "
			     "spans and kernels (the plugin links kernels by External id, which "
			     "newer traces break: it then counts the CPU spans only)");
	not_shown_note(t, d);
	return t;
}

int tt_report_distributed(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	(void)o;
	const struct tt_dist *d = tt_res_dist(res);
	const struct tt_overview *v = tt_res_tb_overview(res);
	struct tt_table *t[7];
	t[0] = dist_overview_table(d);
	t[1] = tb_steps_table(v, d);
	t[2] = tb_wait_table(d);
	t[3] = tb_ops_table(d);
	t[4] = coll_table(d);
	t[5] = coll_rank_table(d, tt_res_collectives(res), tt_res_coll_bw(res));
	t[6] = straggler_table(d);
	tt_tb_give(out, n, t, 7);
	return 0;
}

