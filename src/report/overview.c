/* tracetop report overview: the TensorBoard plugin's landing view, the
 * step-time breakdown per step and its average per rank. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/overview.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* CSV names of the categories: the plugin's, as columns */
static const char *const cat_col[TT_OV_NCAT] = {
	"kernel(us)",	  "memcpy(us)",	    "memset(us)",   "communication(us)",
	"runtime(us)",	  "dataloader(us)", "cpu_exec(us)", "other(us)"};
static const char *const cat_pct[TT_OV_NCAT] = {
	"kernel_pctg",	"memcpy_pctg",	   "memset_pctg",   "communication_pctg",
	"runtime_pctg", "dataloader_pctg", "cpu_exec_pctg", "other_pctg"};

/* the columns both tables share after their first `lead` ones: the
 * categories, a bar (GPU ops, communication, CPU side, other) */
static int add_cat_cols(struct tt_col *cols, int k)
{
	for (int c = 0; c < TT_OV_NCAT; c++)
		cols[k++] = (struct tt_col){.name = cat_col[c],
					    .title = tt_ov_cat_name((enum tt_ov_cat)c),
					    .type = TT_C_DUR};
	int first = k;
	static const char *const grp[4] = {"gpu_ops(us)", "communication_part(us)",
					   "cpu_side(us)", "other_part(us)"};
	for (int g = 0; g < 4; g++)
		cols[k++] = (struct tt_col){.name = grp[g], .type = TT_C_DUR, .hidden_text = true,
					    .hidden_csv = true};
	struct tt_col bar = {.name = "bar",
			     .title = "GPU ops / comm. / CPU / other",
			     .type = TT_C_STACK,
			     .width = 24,
			     .nstack = 4,
			     .role = {TT_ROLE_BAR_COMP, TT_ROLE_BAR_COMM, TT_ROLE_BAR_CPU,
				      TT_ROLE_BAR_IDLE},
			     .glyphs = "#=:."};
	for (int g = 0; g < 4; g++)
		bar.stack[g] = first + g;
	cols[k++] = bar;
	return k;
}

/* the category cells from column k on (durations as doubles: averages) */
static void set_cats(struct tt_table *t, size_t row, int k, const double *cost)
{
	for (int c = 0; c < TT_OV_NCAT; c++)
		tt_table_set_num(t, row, k + c, cost[c]);
	k += TT_OV_NCAT;
	tt_table_set_num(t, row, k, cost[TT_OV_KERNEL] + cost[TT_OV_MEMCPY] + cost[TT_OV_MEMSET]);
	tt_table_set_num(t, row, k + 1, cost[TT_OV_COMM]);
	tt_table_set_num(t, row, k + 2,
			 cost[TT_OV_RUNTIME] + cost[TT_OV_DATALOADER] + cost[TT_OV_CPU_EXEC]);
	tt_table_set_num(t, row, k + 3, cost[TT_OV_OTHER]);
}

static void comm_note(struct tt_table *t, const struct tt_overview *v)
{
	uint64_t linked = 0, named = 0;
	for (size_t i = 0; i < v->nranks; i++) {
		linked += v->ranks[i].comm_kernels_linked;
		named += v->ranks[i].comm_kernels_by_name;
	}
	if (named)
		tt_table_add_note(t,
				  "communication kernels: %llu recognised by name (NCCL/RCCL), %llu "
				  "launched inside a collective op; the plugin counts only kernels "
				  "its External ids link to nccl:/gloo: ops, and shows the others "
				  "as Kernel",
				  (unsigned long long)named, (unsigned long long)linked);
}

static struct tt_table *steps_table(const struct tt_model *m, const struct tt_overview *v)
{
	struct tt_col cols[6 + TT_OV_NCAT + 5];
	int k = 0;
	cols[k++] = (struct tt_col){.name = "rank", .type = TT_C_INT};
	cols[k++] = (struct tt_col){.name = "step", .type = TT_C_STR};
	cols[k++] = (struct tt_col){.name = "start(us)", .title = "start", .type = TT_C_DUR};
	cols[k++] = (struct tt_col){.name = "step_time(us)", .title = "step", .type = TT_C_DUR};
	k = add_cat_cols(cols, k);
	int extra = k;
	cols[k++] = (struct tt_col){.name = "cpu_start(us)", .type = TT_C_DUR, .hidden_text = true};
	cols[k++] = (struct tt_col){.name = "cpu_duration(us)", .type = TT_C_DUR, .hidden_text = true};
	struct tt_table *t = tt_table_new("step_time_breakdown", cols, k);
	tt_table_set_title(t, "Step time breakdown (the TensorBoard plugin's Overview): every "
			      "instant of a step charged to one category, by priority from the left");
	char buf[32];
	double cost[TT_OV_NCAT];
	bool pseudo = false;
	for (size_t i = 0; i < v->nsteps; i++) {
		const struct tt_ov_step *s = &v->steps[i];
		size_t row = tt_table_add_row(t);
		tt_table_set_int(t, row, 0, s->rank);
		if (s->pseudo)
			snprintf(buf, sizeof(buf), "(all)");
		else
			snprintf(buf, sizeof(buf), "%lld", (long long)s->num);
		pseudo |= s->pseudo;
		tt_table_set_str(t, row, 1, buf);
		tt_table_set_int(t, row, 2, s->t0 - m->ranks[s->ri]->t0);
		tt_table_set_int(t, row, 3, s->t1 - s->t0);
		for (int c = 0; c < TT_OV_NCAT; c++)
			cost[c] = (double)s->cost[c];
		set_cats(t, row, 4, cost);
		tt_table_set_int(t, row, extra, s->cpu_ts - m->ranks[s->ri]->t0);
		tt_table_set_int(t, row, extra + 1, s->cpu_dur);
	}
	tt_table_add_note(t, "Communication: nccl:/gloo: collective ops (broadcast, reduce, "
			     "all_reduce, all_gather, reduce_scatter) and communication kernels; "
			     "CPU Exec: other CPU ops; start: since the rank's first event");
	if (pseudo)
		tt_table_add_note(t, "step (all): no ProfilerStep#N on the rank, one step over its "
				     "CPU ops (the plugin's step \"0\")");
	size_t dropped = 0;
	for (size_t i = 0; i < v->nranks; i++)
		dropped += v->ranks[i].ndropped;
	if (dropped)
		tt_table_add_note(t,
				  "%zu tail steps left out, as the plugin does: they launched no GPU "
				  "op, or fewer than 80 %% of the previous step's (see report steps)",
				  dropped);
	comm_note(t, v);
	if (!v->nsteps)
		tt_table_add_note(t, "no steps: no ProfilerStep#N and no CPU operators");
	return t;
}

static struct tt_table *avg_table(const struct tt_overview *v)
{
	struct tt_col cols[3 + TT_OV_NCAT * 2 + 5];
	int k = 0;
	cols[k++] = (struct tt_col){.name = "rank", .type = TT_C_INT};
	cols[k++] = (struct tt_col){.name = "steps", .type = TT_C_INT};
	cols[k++] = (struct tt_col){.name = "step_time(us)", .title = "step", .type = TT_C_DUR};
	k = add_cat_cols(cols, k);
	int pct0 = k;
	for (int c = 0; c < TT_OV_NCAT; c++)
		cols[k++] = (struct tt_col){
			.name = cat_pct[c], .type = TT_C_PCT, .prec = 1, .hidden_text = true};
	struct tt_table *t = tt_table_new("step_time_average", cols, k);
	tt_table_set_title(t, "Average step time per rank and its parts (the plugin's Average "
			      "Step Time)");
	for (size_t i = 0; i < v->nranks; i++) {
		const struct tt_ov_rank *w = &v->ranks[i];
		size_t row = tt_table_add_row(t);
		tt_table_set_int(t, row, 0, w->rank);
		tt_table_set_int(t, row, 1, (int64_t)w->nsteps);
		tt_table_set_num(t, row, 2, w->avg_total);
		set_cats(t, row, 3, w->avg);
		for (int c = 0; c < TT_OV_NCAT; c++)
			tt_table_set_num(t, row, pct0 + c, w->avg_pct[c]);
	}
	if (!v->nranks)
		tt_table_add_note(t, "no steps: no ProfilerStep#N and no CPU operators");
	return t;
}

int tt_report_overview(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	(void)o;
	const struct tt_overview *v = tt_res_tb_overview(res);
	struct tt_table *t[2];
	t[0] = avg_table(v);
	t[1] = steps_table(tt_results_model(res), v);
	tt_tb_give(out, n, t, 2);
	return 0;
}
