/* The TensorBoard plugin's views as panes: Step time (the plugin's Overview
 * step breakdown), Utilisation, Distributed, Operators, Steps, Advice, and
 * their drill-downs (Memory and Source: tbmem.c).  Every row is drawn from
 * the typed results of the app (tracetop/results.h): a pane's table row i
 * is item i of the result it lists, which is how Enter finds what a row
 * stands for. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/advice.h"
#include "tracetop/collbw.h"
#include "tracetop/distributed.h"
#include "tracetop/report.h"
#include "tracetop/tbviews.h"
#include "tracetop/util.h"
#include "pane.h"

/* the sparkline of a device's busy share: the analysis' slices, two per
 * character */
#define SPARK 20

/* what a drill-down lists: a rank, a collective, an operator, a step */
struct pick {
	size_t index;      /* into the result's array */
	int64_t rank;
	int64_t num;
	char name[256];
	size_t *items;     /* the rows' items */
	size_t nitems;
};

static void pick_free(struct tt_pane *p)
{
	struct pick *s = p->state;
	if (s)
		free(s->items);
	free(s);
}

static struct tt_pane *child(struct tt_pane *p, const struct tt_pane_ops *ops, struct pick **st)
{
	struct tt_pane *np = tt_pane_new(p->app, ops);
	*st = tt_calloc(1, sizeof(**st));
	np->state = *st;
	return np;
}

static void add_item(struct pick *s, size_t i, size_t *cap)
{
	TT_GROW(s->items, *cap, s->nitems + 1);
	s->items[s->nitems++] = i;
}

/* ---- Step time: the plugin's Overview ---- */

enum { ST_RANK, ST_STEP, ST_TIME, ST_KERNEL_PCT, ST_COMM_PCT, ST_CAT0, ST_BAR = ST_CAT0 + TT_OV_NCAT,
       ST_N };
static const char st_glyphs[] = "#%:=+*-.";
static const uint8_t st_roles[TT_OV_NCAT] = {TT_ROLE_BAR_COMP,    TT_ROLE_BAR_MEM,
					     TT_ROLE_BAR_MEM,     TT_ROLE_BAR_COMM,
					     TT_ROLE_BAR_RUNTIME, TT_ROLE_BAR_OTHER,
					     TT_ROLE_BAR_CPU,     TT_ROLE_BAR_IDLE};

static int steptime_open(struct tt_pane *p)
{
	const struct tt_overview *v = tt_res_tb_overview(p->app->res);
	if (!v->nsteps) {
		snprintf(p->msg, sizeof(p->msg), "no steps: no ProfilerStep#N and no CPU operators");
		return -1;
	}
	struct tt_col cols[ST_N] = {
		[ST_RANK] = {.name = "rank", .type = TT_C_INT},
		[ST_STEP] = {.name = "step", .type = TT_C_STR},
		[ST_TIME] = {.name = "step_time", .title = "step", .type = TT_C_DUR},
		[ST_KERNEL_PCT] = {.name = "kernel_pctg", .title = "kernel", .type = TT_C_PCT, .prec = 0},
		[ST_COMM_PCT] = {.name = "communication_pctg", .title = "comm.", .type = TT_C_PCT,
				 .prec = 0},
		[ST_BAR] = {.name = "bar", .title = "the step, by category", .type = TT_C_STACK,
			    .width = 36, .nstack = TT_OV_NCAT, .glyphs = st_glyphs},
	};
	for (int c = 0; c < TT_OV_NCAT; c++) {
		cols[ST_CAT0 + c] = (struct tt_col){.name = tt_ov_cat_name((enum tt_ov_cat)c),
						    .type = TT_C_DUR, .hidden_text = true};
		cols[ST_BAR].stack[c] = ST_CAT0 + c;
		cols[ST_BAR].role[c] = st_roles[c];
	}
	/* one row per step (row i = v->steps[i]) */
	struct tt_table *t = tt_table_new("step-time", cols, ST_N);
	char buf[32];
	for (size_t i = 0; i < v->nsteps; i++) {
		const struct tt_ov_step *s = &v->steps[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, ST_RANK, s->rank);
		if (s->pseudo)
			snprintf(buf, sizeof(buf), "(all)");
		else
			snprintf(buf, sizeof(buf), "%lld", (long long)s->num);
		tt_table_set_str(t, k, ST_STEP, buf);
		tt_table_set_int(t, k, ST_TIME, s->t1 - s->t0);
		tt_table_set_num(t, k, ST_KERNEL_PCT, s->pct[TT_OV_KERNEL]);
		tt_table_set_num(t, k, ST_COMM_PCT, s->pct[TT_OV_COMM]);
		for (int c = 0; c < TT_OV_NCAT; c++)
			tt_table_set_int(t, k, ST_CAT0 + c, s->cost[c]);
	}
	tt_pane_set_table(p, t);
	pane_verdict_head(p);
	/* the mean step of each rank, its largest parts */
	for (size_t i = 0; i < v->nranks && i < 3; i++) {
		const struct tt_ov_rank *w = &v->ranks[i];
		char mean[32];
		tt_fmt_dur(mean, sizeof(mean), (int64_t)llround(w->avg_total));
		char parts[160] = "";
		size_t pl = 0;
		for (int c = 0; c < TT_OV_NCAT && pl < sizeof(parts); c++)
			if (w->avg_pct[c] >= 5)
				pl += (size_t)snprintf(parts + pl, sizeof(parts) - pl, "%s%s %.0f %%",
						       pl ? ", " : "", tt_ov_cat_name((enum tt_ov_cat)c),
						       w->avg_pct[c]);
		tt_pane_head(p, TT_ROLE_DEFAULT, "rank %lld: mean step %s: %s", (long long)w->rank,
			     mean, parts);
	}
	if (v->nranks > 3)
		tt_pane_head(p, TT_ROLE_DIM, "... %zu ranks", v->nranks);
	static const char *const brief[TT_OV_NCAT] = {"Kernel",  "Memcpy",     "Memset",
						      "Comm.",   "Runtime",    "DataLoader",
						      "CPU Exec", "Other"};
	char legend[200];
	size_t ll = 0;
	for (int c = 0; c < TT_OV_NCAT; c++)
		ll += (size_t)snprintf(legend + ll, sizeof(legend) - ll, "%s%c %s", c ? " " : "",
				       st_glyphs[c], brief[c]);
	tt_pane_head(p, TT_ROLE_DIM, "%s", legend);
	tt_pane_head(p, TT_ROLE_DIM, "each instant in the first category that holds it. Enter: "
				     "the timeline at the step");
	return 0;
}

static struct tt_pane *steptime_drill(struct tt_pane *p, size_t row)
{
	const struct tt_overview *v = tt_res_tb_overview(p->app->res);
	if (row >= v->nsteps)
		return NULL;
	return tt_timeline_new(p->app, v->steps[row].ri, TT_NONE, v->steps[row].t0);
}

/* side by side: the split timeline of the step's rank pair at the step */
static struct tt_pane *steptime_drill_both(struct tt_pane *p, struct tt_pane *const side[2],
					   const size_t row[2])
{
	int s = row[0] != SIZE_MAX && side[0] ? 0 : 1;
	if (!side[s] || row[s] == SIZE_MAX)
		return NULL;
	struct tt_ui_side sv;
	tt_ui_side_enter(p->app, s, &sv);
	const struct tt_overview *v = tt_res_tb_overview(p->app->res);
	struct tt_pane *np = row[s] < v->nsteps ? tt_split_side(p->app, s, v->steps[row[s]].ri,
								  v->steps[row[s]].t0) :
						  NULL;
	tt_ui_side_leave(p->app, &sv);
	return np;
}

static const struct tt_pane_diff steptime_diff = {
	.nkeys = 2, /* rank, step */
	.cols = {ST_TIME, ST_CAT0 + TT_OV_KERNEL, ST_CAT0 + TT_OV_MEMCPY, ST_CAT0 + TT_OV_MEMSET,
		 ST_CAT0 + TT_OV_COMM, ST_CAT0 + TT_OV_RUNTIME, ST_CAT0 + TT_OV_DATALOADER,
		 ST_CAT0 + TT_OV_CPU_EXEC, ST_CAT0 + TT_OV_OTHER},
	.ncols = 9,
	.rank_col = ST_RANK,
	.more_is = -1,
	.what = "time per step, by category",
	.drill_both = steptime_drill_both,
};
const struct tt_pane_ops tt_steptime_ops = {
	.name = "step-time",
	.title = "Step time",
	.help = "The TensorBoard plugin's landing view: every step of every rank (its window: "
		"from the CPU start, the first step after the GPU work launched before it, to the "
		"end of the GPU work it launched), each instant charged to one category in this "
		"order: Kernel, Memcpy, Memset, Communication (collective ops and communication "
		"kernels), Runtime, DataLoader, CPU Exec, Other.  The parts sum to the step.  "
		"Enter opens the timeline at the step.",
	.open = steptime_open,
	.drill = steptime_drill,
	.needs = TT_NEED(TT_RES_TBOVERVIEW),
	.diff = &steptime_diff,
	.refresh = pane_verdict_refresh,
};

/* ---- Utilisation ---- */

enum { U_RANK, U_DEV, U_UTIL, U_SM, U_OCC, U_TC, U_BUSY, U_SPARK, U_N };

static int util_open(struct tt_pane *p)
{
	const struct tt_util *u = tt_res_util(p->app->res);
	if (!u->ndevs) {
		snprintf(p->msg, sizeof(p->msg), "no GPU activity in the ranks shown");
		return -1;
	}
	static const struct tt_col cols[U_N] = {
		[U_RANK] = {.name = "rank", .type = TT_C_INT},
		[U_DEV] = {.name = "device", .title = "GPU", .type = TT_C_INT},
		[U_UTIL] = {.name = "gpu_utilization", .title = "util.", .type = TT_C_PCT, .prec = 1},
		[U_SM] = {.name = "est_sm_efficiency", .title = "SM eff.", .type = TT_C_PCT,
			  .prec = 1},
		[U_OCC] = {.name = "est_achieved_occupancy", .title = "occ.", .type = TT_C_PCT,
			   .prec = 1},
		[U_TC] = {.name = "tensor_cores", .title = "TC", .type = TT_C_PCT, .prec = 0},
		[U_BUSY] = {.name = "busy_of_gpu_span", .title = "busy/span", .type = TT_C_PCT,
			    .prec = 1},
		[U_SPARK] = {.name = "busy_over_time", .title = "busy over time", .type = TT_C_STR,
			     .width = SPARK, .free_text = true},
	};
	/* one row per device (row i = u->devs[i]) */
	struct tt_table *t = tt_table_new("utilization", cols, U_N);
	char buf[400];
	float spark[SPARK];
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, U_RANK, d->rank);
		tt_table_set_int(t, k, U_DEV, d->device);
		tt_table_set_num(t, k, U_UTIL, d->gpu_util_pct);
		tt_table_set_num(t, k, U_SM, d->est_sm_eff_pct);
		tt_table_set_num(t, k, U_OCC, d->est_occ_pct);
		tt_table_set_num(t, k, U_TC, d->tc_pct);
		tt_table_set_num(t, k, U_BUSY, d->busy_span_pct);
		for (int b = 0; b < SPARK; b++) {
			int a = b * u->nbuckets / SPARK, e = (b + 1) * u->nbuckets / SPARK;
			float s = 0;
			for (int j = a; j < e; j++)
				s += d->series[j];
			spark[b] = e > a ? s / (float)(e - a) : 0;
		}
		tt_sparkline(buf, sizeof(buf), spark, SPARK, 1.0);
		tt_table_set_str(t, k, U_SPARK, buf);
	}
	tt_pane_set_table(p, t);
	size_t low = 0;
	for (size_t i = 0; i < u->ndevs; i++)
		if (u->devs[i].gpu_util_pct < TT_UTIL_LOW_PCT) {
			p->row_role[i] = TT_ROLE_WARNING;
			low++;
		}
	tt_pane_head(p, TT_ROLE_DEFAULT,
		     "util., SM eff., occ., TC: the plugin's GPU summary over the steps window "
		     "(kernels only); busy/span: kernels, memcpy and memset over the GPU's span");
	if (low)
		tt_pane_head(p, TT_ROLE_WARNING, "%zu of %zu GPUs under %.0f %% utilization", low,
			     u->ndevs, TT_UTIL_LOW_PCT);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the kernels of the ranks shown");
	return 0;
}

enum { K_NAME, K_TC, K_CALLS, K_TOTAL, K_PCT, K_OCC, K_SM, K_N };

static int ukern_open(struct tt_pane *p)
{
	const struct tt_util *u = tt_res_util(p->app->res);
	static const struct tt_col cols[K_N] = {
		[K_NAME] = {.name = "name", .type = TT_C_STR, .width = 40},
		[K_TC] = {.name = "tc_used", .title = "TC", .type = TT_C_STR},
		[K_CALLS] = {.name = "calls", .type = TT_C_INT},
		[K_TOTAL] = {.name = "total", .type = TT_C_DUR},
		[K_PCT] = {.name = "time_pctg", .title = "time", .type = TT_C_PCT, .prec = 1},
		[K_OCC] = {.name = "occupancy", .title = "occ.", .type = TT_C_PCT, .prec = 1},
		[K_SM] = {.name = "sm_eff_per_kernel_time", .title = "SM eff.", .type = TT_C_PCT,
			  .prec = 1},
	};
	if (!u->nkernels) {
		snprintf(p->msg, sizeof(p->msg), "no kernels in the ranks shown");
		return -1;
	}
	/* row i = u->kernels[i] */
	struct tt_table *t = tt_table_new("kernels", cols, K_N);
	for (size_t i = 0; i < u->nkernels; i++) {
		const struct tt_util_kernel *k = &u->kernels[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, K_NAME, k->name);
		tt_table_set_str(t, r, K_TC, k->tc ? "yes" : "no");
		tt_table_set_int(t, r, K_CALLS, (int64_t)k->count);
		tt_table_set_int(t, r, K_TOTAL, k->sum_ns);
		tt_table_set_num(t, r, K_PCT, k->time_pct);
		tt_table_set_num(t, r, K_OCC, k->mean_occ_pct);
		tt_table_set_num(t, r, K_SM, k->sm_eff_ktime_pct);
	}
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < u->nkernels; i++)
		if (u->kernels[i].mean_occ_pct < TT_OCC_LOW_PCT)
			p->row_role[i] = TT_ROLE_WARNING;
	tt_pane_head(p, TT_ROLE_DIM,
		     "occ.: the plugin's mean est. occupancy (highlighted under %.0f %%); SM eff.: "
		     "min(blocks / SMs, 1) by kernel time. Enter: the longest instance",
		     TT_OCC_LOW_PCT);
	return 0;
}

static struct tt_pane *ukern_drill(struct tt_pane *p, size_t row)
{
	const struct tt_util *u = tt_res_util(p->app->res);
	if (row >= u->nkernels)
		return NULL;
	return tt_timeline_new(p->app, u->kernels[row].ri, u->kernels[row].longest, 0);
}

static const struct tt_pane_ops ukern_ops = {
	.name = "util-kernels",
	.title = "Kernels",
	.help = "The kernels of the ranks shown by total time (the plugin's kernel view): "
		"tensor-core kernels, calls, the plugin's mean est. achieved occupancy (a kernel "
		"without the arg counts 0) and tracetop's SM efficiency per kernel time.  Enter "
		"opens the timeline at the longest instance.",
	.open = ukern_open,
	.drill = ukern_drill,
	.needs = TT_NEED(TT_RES_UTIL),
};

static struct tt_pane *util_drill(struct tt_pane *p, size_t row)
{
	(void)row;
	return tt_pane_new(p->app, &ukern_ops);
}

static const struct tt_pane_diff util_diff = {
	.nkeys = 1, /* rank (its devices: one a rank, as the ranks pair) */
	.cols = {U_UTIL, U_SM, U_OCC, U_TC, U_BUSY},
	.ncols = 5,
	.rank_col = U_RANK,
	.more_is = 1,
	.what = "GPU utilisation per device",
	.drill_both = tt_sides_drill,
};
const struct tt_pane_ops tt_util_ops = {
	.name = "utilization",
	.title = "Utilisation",
	.help = "The TensorBoard plugin's GPU summary per rank and device over the steps window: "
		"GPU Utilization (the union of kernels, memcpy and memset not counted), Est. SM "
		"Efficiency (the time integral of min(blocks per SM of the running kernels, 1), "
		"never above the utilization), Est. Achieved Occupancy (kernel-time-weighted) and "
		"the tensor-core share of the operators' kernel time; and tracetop's busy share of "
		"the GPU's span (kernels, memcpy, memset) with a sparkline of it over time.  Enter "
		"lists the kernels.",
	.open = util_open,
	.drill = util_drill,
	.needs = TT_NEED(TT_RES_UTIL),
	.diff = &util_diff,
};

/* ---- Distributed ---- */

enum { D_RANK, D_STEP, D_COMP, D_OVL, D_COMM, D_OTHER, D_BAR, D_N };

static int dist_open(struct tt_pane *p)
{
	const struct tt_dist *d = tt_res_dist(p->app->res);
	if (!d->nranks) {
		snprintf(p->msg, sizeof(p->msg), "no rank selected");
		return -1;
	}
	static const struct tt_col cols[D_N] = {
		[D_RANK] = {.name = "rank", .type = TT_C_INT},
		[D_STEP] = {.name = "step", .type = TT_C_DUR},
		[D_COMP] = {.name = "computation", .title = "comp.", .type = TT_C_DUR},
		[D_OVL] = {.name = "overlapping", .title = "ovl.", .type = TT_C_DUR},
		[D_COMM] = {.name = "communication", .title = "comm.", .type = TT_C_DUR},
		[D_OTHER] = {.name = "other", .type = TT_C_DUR},
		[D_BAR] = {.name = "bar", .title = "", .type = TT_C_STACK, .width = 12, .nstack = 4,
			   .stack = {D_COMP, D_OVL, D_COMM, D_OTHER},
			   .role = {TT_ROLE_BAR_COMP, TT_ROLE_BAR_OTHER, TT_ROLE_BAR_COMM,
				    TT_ROLE_BAR_IDLE},
			   .glyphs = "#%=."},
	};
	/* row i = d->ranks[i] */
	struct tt_table *t = tt_table_new("distributed", cols, D_N);
	for (size_t i = 0; i < d->nranks; i++) {
		const struct tt_dist_rank *w = &d->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, D_RANK, w->rank);
		tt_table_set_int(t, k, D_STEP, w->step_ns);
		tt_table_set_int(t, k, D_COMP, w->comp_ns);
		tt_table_set_int(t, k, D_OVL, w->overlap_ns);
		tt_table_set_int(t, k, D_COMM, w->comm_ns);
		tt_table_set_int(t, k, D_OTHER, w->other_ns);
	}
	tt_pane_set_table(p, t);
	/* the job's verdict: the critical path across ranks says who makes
	 * the others wait, and why */
	pane_verdict_head(p);
	for (size_t i = 0; i < d->nstragglers && i < 3; i++)
		tt_pane_head(p, TT_ROLE_MARKED, "straggler: rank %lld: %s",
			     (long long)d->stragglers[i].rank, d->stragglers[i].reason);
	for (size_t i = 0; i < d->nstragglers; i++)
		for (size_t r = 0; r < d->nranks; r++)
			if (d->ranks[r].ri == d->stragglers[i].ri)
				p->row_role[r] = TT_ROLE_MARKED;
	for (size_t i = 0; i < d->nstats && i < 2; i++) {
		const struct tt_coll_stat *c = &d->stats[i];
		if (!(c->total_ns > 0))
			continue;
		char lat[32];
		tt_fmt_dur(lat, sizeof(lat), c->total_ns);
		tt_pane_head(p, TT_ROLE_DEFAULT,
			     "%.24s: %llu calls in all, latency %s in all, sync %.1f %% (waiting "
			     "for the last rank)",
			     c->name, (unsigned long long)c->calls, lat, c->sync_pct);
	}
	if (!d->tb_shown)
		tt_pane_head(p, TT_ROLE_DIM, "the plugin shows no distributed view: %s", d->tb_why);
	tt_pane_head(p, TT_ROLE_DIM,
		     "mean per step: %s comp.  %s overlapping  %s comm.  %s other. Enter: the "
		     "rank's collectives",
		     tt_stack_glyph("#%=.", 0), tt_stack_glyph("#%=.", 1), tt_stack_glyph("#%=.", 2),
		     tt_stack_glyph("#%=.", 3));
	return 0;
}

enum { C_NAME, C_CALLS, C_LAT, C_TR, C_SYNC, C_BAR, C_BUSBW, C_SIZE, C_RI, C_N };

static int coll_open(struct tt_pane *p)
{
	struct pick *s = p->state;
	const struct tt_dist *d = tt_res_dist(p->app->res);
	static const struct tt_col cols[C_N] = {
		[C_NAME] = {.name = "name", .type = TT_C_STR, .width = 24},
		[C_CALLS] = {.name = "calls", .type = TT_C_INT},
		[C_LAT] = {.name = "latency", .type = TT_C_DUR},
		[C_TR] = {.name = "transfer", .type = TT_C_DUR},
		[C_SYNC] = {.name = "sync", .type = TT_C_DUR},
		[C_BAR] = {.name = "bar", .title = "", .type = TT_C_STACK, .width = 10,
			   .nstack = 2, .stack = {C_TR, C_SYNC},
			   .role = {TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE}, .glyphs = "=."},
		[C_SIZE] = {.name = "size", .type = TT_C_STR},
		[C_BUSBW] = {.name = "busbw_GBps", .title = "busbw", .type = TT_C_NUM, .prec = 1},
		/* (the rank a side-by-side row's split timeline opens at) */
		[C_RI] = {.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	const struct tt_coll *cl = tt_res_collectives(p->app->res);
	const struct tt_coll_bw *bw = tt_res_coll_bw(p->app->res);
	char key[64];
	/* row i = d->rstats[s->items[i]] */
	struct tt_table *t = tt_table_new("collectives", cols, C_N);
	size_t cap = 0;
	for (size_t i = 0; i < d->nrstats; i++) {
		const struct tt_coll_rstat *x = &d->rstats[i];
		if (x->rank != s->rank)
			continue;
		add_item(s, i, &cap);
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, C_NAME, d->stats[x->stat].name);
		tt_table_set_int(t, k, C_CALLS, (int64_t)x->calls);
		tt_table_set_int(t, k, C_RI, (int64_t)x->ri);
		tt_table_set_int(t, k, C_LAT, x->total_ns);
		tt_table_set_int(t, k, C_TR, x->transfer_ns);
		tt_table_set_int(t, k, C_SYNC, x->sync_ns);
		if (x->with_bytes) {
			char b[32];
			tt_fmt_bytes(b, sizeof(b), (double)x->bytes);
			tt_table_set_str(t, k, C_SIZE, b);
		}
		tt_tb_coll_key(d->stats[x->stat].name, key, sizeof(key));
		tt_table_set_num(t, k, C_BUSBW, tt_coll_bw_rank_mean(bw, cl, x->ri, key, NULL));
	}
	tt_pane_set_table(p, t);
	if (!t->nrows)
		snprintf(p->msg, sizeof(p->msg), "no collectives on this rank");
	tt_pane_head(p, TT_ROLE_DIM, "busbw: the calls' mean bus bandwidth, GB/s (10^9 B/s)");
	tt_pane_head(p, TT_ROLE_DIM,
		     "sync (%s): waiting for the last rank to arrive; transfer (%s): the rest. "
		     "Enter: the calls",
		     tt_stack_glyph("=.", 1), tt_stack_glyph("=.", 0));
	return 0;
}

enum { L_SEQ, L_START, L_LAT, L_TR, L_SYNC, L_BUSBW, L_OP, L_N };

static int calls_open(struct tt_pane *p)
{
	struct pick *s = p->state;
	const struct tt_dist *d = tt_res_dist(p->app->res);
	static const struct tt_col cols[L_N] = {
		[L_SEQ] = {.name = "seq", .title = "#", .type = TT_C_INT},
		[L_START] = {.name = "start", .type = TT_C_DUR, .unit_group = 2},
		[L_LAT] = {.name = "latency", .type = TT_C_DUR},
		[L_TR] = {.name = "transfer", .type = TT_C_DUR},
		[L_SYNC] = {.name = "sync", .type = TT_C_DUR},
		[L_BUSBW] = {.name = "busbw_GBps", .title = "busbw", .type = TT_C_NUM, .prec = 1},
		[L_OP] = {.name = "cpu_op", .title = "CPU op", .type = TT_C_STR, .width = 20},
	};
	/* (calls are the matching's parts, in its order: collectives.h) */
	const struct tt_coll_bw *bw = tt_res_coll_bw(p->app->res);
	/* row i = d->calls[s->items[i]] */
	struct tt_table *t = tt_table_new("calls", cols, L_N);
	size_t cap = 0;
	const struct tt_coll_rstat *x = &d->rstats[s->index];
	for (size_t i = 0; i < d->ncalls; i++) {
		const struct tt_coll_call *c = &d->calls[i];
		if (c->ri != x->ri || c->stat != x->stat)
			continue;
		const struct tt_rank *r = p->app->m->ranks[c->ri];
		add_item(s, i, &cap);
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, L_SEQ, c->seq);
		tt_table_set_int(t, k, L_START, c->ts - r->t0);
		tt_table_set_int(t, k, L_LAT, c->dur);
		tt_table_set_int(t, k, L_TR, c->transfer);
		tt_table_set_int(t, k, L_SYNC, c->sync);
		if (bw->nparts == d->ncalls)
			tt_table_set_num(t, k, L_BUSBW, bw->part_busbw[i]);
		if (c->cpu != TT_NONE)
			tt_table_set_str(t, k, L_OP, tt_ev_name(r, &r->ev[c->cpu]));
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM,
		     "start: since the rank's first event; busbw: its collective's bus bandwidth, "
		     "GB/s. Enter: the timeline at the call's first kernel");
	return 0;
}

static struct tt_pane *calls_drill(struct tt_pane *p, size_t row)
{
	struct pick *s = p->state;
	const struct tt_dist *d = tt_res_dist(p->app->res);
	if (row >= s->nitems)
		return NULL;
	const struct tt_coll_call *c = &d->calls[s->items[row]];
	return tt_timeline_new(p->app, c->ri, c->kernel, 0);
}

static const struct tt_pane_ops calls_ops = {
	.name = "collective-calls",
	.title = "Calls",
	.help = "Every call of one collective on one rank: its latency (its communication "
		"kernels), its sync (from its arrival to the last rank's, matched by process group "
		"and place in the group's sequence) and transfer (the rest), and the CPU op that "
		"issued it, and its collective's bus bandwidth (nccl-tests' busbw: the size over "
		"the shortest latency of the ranks, times 2(n-1)/n for all_reduce, (n-1)/n for "
		"all_gather, reduce_scatter and all_to_all).  Enter opens the timeline at its "
		"first kernel.",
	.open = calls_open,
	.close = pick_free,
	.drill = calls_drill,
	.needs = TT_NEED(TT_RES_DIST) | TT_NEED(TT_RES_COLLBW),
};

static struct tt_pane *coll_drill(struct tt_pane *p, size_t row)
{
	struct pick *ps = p->state, *s;
	const struct tt_dist *d = tt_res_dist(p->app->res);
	if (row >= ps->nitems)
		return NULL;
	struct tt_pane *np = child(p, &calls_ops, &s);
	s->index = ps->items[row];
	s->rank = ps->rank;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld, %.100s", (long long)s->rank,
		 d->stats[d->rstats[s->index].stat].name);
	return np;
}

static const struct tt_pane_ops coll_ops = {
	.name = "collectives",
	.title = "Collectives",
	.help = "The collective operations of one rank: calls, latency, and its split into data "
		"transfer and synchronisation (waiting for the last rank to arrive, from the "
		"collectives matched across ranks), their size and their mean bus bandwidth "
		"(GB/s = 10^9 B/s).  Enter lists the calls.",
	.open = coll_open,
	.close = pick_free,
	.drill = coll_drill,
	.needs = TT_NEED(TT_RES_DIST) | TT_NEED(TT_RES_COLLBW),
};

static struct tt_pane *dist_drill(struct tt_pane *p, size_t row)
{
	const struct tt_dist *d = tt_res_dist(p->app->res);
	if (row >= d->nranks)
		return NULL;
	struct pick *s;
	struct tt_pane *np = child(p, &coll_ops, &s);
	s->rank = d->ranks[row].rank;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)s->rank);
	return np;
}

static const struct tt_pane_diff dist_diff = {
	.nkeys = 1, /* rank */
	.cols = {D_STEP, D_COMP, D_OVL, D_COMM, D_OTHER},
	.ncols = 5,
	.rank_col = D_RANK,
	.more_is = -1,
	.what = "computation and communication per rank",
	.drill_both = tt_sides_drill,
};
const struct tt_pane_ops tt_dist_ops = {
	.name = "distributed",
	.title = "Distributed",
	.help = "The TensorBoard plugin's distributed view, per rank and mean per step: "
		"computation (kernels other than communication), overlapping (both at once), "
		"communication (collective ops and communication kernels) and other (the rest of "
		"the step).  Above: stragglers (the one outlier rule on step time, idle and sync) and "
		"the main collectives.  `tracetop report distributed` has the plugin's wait and "
		"collective tables too.  Enter lists the rank's collectives.",
	.open = dist_open,
	.drill = dist_drill,
	.needs = TT_NEED(TT_RES_DIST),
	.diff = &dist_diff,
	.refresh = pane_verdict_refresh,
};

/* ---- Operators ---- */

enum { O_NAME, O_CALLS, O_HSELF, O_DSELF, O_TC, O_N };

static int ops_open(struct tt_pane *p)
{
	const struct tt_ops *o = tt_res_ops(p->app->res, false);
	if (!o->n) {
		snprintf(p->msg, sizeof(p->msg), "no CPU operators in the ranks shown");
		return -1;
	}
	static const struct tt_col cols[O_N] = {
		[O_NAME] = {.name = "name", .type = TT_C_STR, .width = 30},
		[O_CALLS] = {.name = "calls", .type = TT_C_INT},
		[O_HSELF] = {.name = "host_self", .title = "host self", .type = TT_C_DUR},
		[O_DSELF] = {.name = "device_self", .title = "dev. self", .type = TT_C_DUR},
		[O_TC] = {.name = "tc_eligible", .title = "TC", .type = TT_C_STR},
	};
	/* row i = o->rows[i] */
	struct tt_table *t = tt_table_new("operators", cols, O_N);
	for (size_t i = 0; i < o->n; i++) {
		const struct tt_op_row *w = &o->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, O_NAME, w->name);
		tt_table_set_int(t, k, O_CALLS, (int64_t)w->calls);
		tt_table_set_int(t, k, O_HSELF, w->host_self);
		tt_table_set_int(t, k, O_DSELF, w->dev_self);
		tt_table_set_str(t, k, O_TC, w->tc_eligible ? "yes" : "no");
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM,
		     "host self: without child ops and the op's own runtime calls; dev. self: the "
		     "GPU ops its runtime calls launched (by time, not the plugin's External id)");
	if (o->ndropped)
		tt_pane_head(p, TT_ROLE_DIM, "%u ops left out: they partly overlap an open op",
			     o->ndropped);
	tt_pane_head(p, TT_ROLE_DIM, "s: sort, /: filter. Enter: the kernels the operator launched");
	return 0;
}

enum { P_NAME, P_COUNT, P_TOTAL, P_SELF, P_SELFT, P_N };

static int opk_open(struct tt_pane *p)
{
	struct pick *s = p->state;
	struct tt_op_kernel *v;
	size_t n = tt_op_kernels(p->app->m, &p->app->ropts.a, s->name, NULL, &v);
	static const struct tt_col cols[P_N] = {
		[P_NAME] = {.name = "name", .type = TT_C_STR, .width = 36},
		[P_COUNT] = {.name = "count", .type = TT_C_INT},
		[P_TOTAL] = {.name = "total", .type = TT_C_DUR},
		[P_SELF] = {.name = "self_count", .title = "self", .type = TT_C_INT},
		[P_SELFT] = {.name = "self", .title = "self time", .type = TT_C_DUR},
	};
	/* row i = v[i]: the drill keeps where each one's longest is */
	struct tt_table *t = tt_table_new("op-kernels", cols, P_N);
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, P_NAME, v[i].name);
		tt_table_set_int(t, k, P_COUNT, (int64_t)v[i].count);
		tt_table_set_int(t, k, P_TOTAL, v[i].sum_ns);
		tt_table_set_int(t, k, P_SELF, (int64_t)v[i].count_self);
		tt_table_set_int(t, k, P_SELFT, v[i].self_ns);
		add_item(s, v[i].ri, &cap);
		add_item(s, v[i].longest, &cap);
	}
	free(v);
	tt_pane_set_table(p, t);
	if (!n)
		snprintf(p->msg, sizeof(p->msg), "this operator launched no GPU work");
	tt_pane_head(p, TT_ROLE_DIM,
		     "GPU ops launched under the operator or its children; self: by its own "
		     "runtime calls. Enter: the timeline at the longest");
	return 0;
}

static struct tt_pane *opk_drill(struct tt_pane *p, size_t row)
{
	struct pick *s = p->state;
	if (2 * row + 1 >= s->nitems)
		return NULL;
	return tt_timeline_new(p->app, s->items[2 * row], (uint32_t)s->items[2 * row + 1], 0);
}

static const struct tt_pane_ops opk_ops = {
	.name = "op-kernels",
	.title = "Op kernels",
	.help = "The kernels, copies and sets launched under one operator (its own runtime "
		"calls: self; or its children's), by total time.  Enter opens the timeline at the "
		"longest instance.",
	.open = opk_open,
	.close = pick_free,
	.drill = opk_drill,
};

static struct tt_pane *ops_drill(struct tt_pane *p, size_t row)
{
	const struct tt_ops *o = tt_res_ops(p->app->res, false);
	if (row >= o->n)
		return NULL;
	struct pick *s;
	struct tt_pane *np = child(p, &opk_ops, &s);
	snprintf(s->name, sizeof(s->name), "%s", o->rows[row].name);
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", o->rows[row].name);
	return np;
}

static const struct tt_pane_diff ops_diff = {
	.nkeys = 1, /* name */
	.cols = {O_DSELF, O_HSELF, O_CALLS},
	.ncols = 3,
	.rank_col = -1,
	.more_is = -1,
	.what = "time per operator",
	.drill_both = tt_sides_drill,
};
const struct tt_pane_ops tt_operators_ops = {
	.name = "operators",
	.title = "Operators",
	.help = "The TensorBoard plugin's operator view: per plain cpu_op name, calls, host "
		"total and self time (self: without its child operators and its own runtime "
		"calls), device self time (the GPU ops its own runtime calls launched) and total "
		"(with its children's), tensor-core eligibility.  Runtime calls belong to the "
		"innermost operator around them (the plugin's External ids break on newer "
		"traces).  `tracetop report operators` also groups by input shapes.  Enter lists "
		"the kernels it launched.",
	.open = ops_open,
	.drill = ops_drill,
	.needs = TT_NEED(TT_RES_OPS),
	.diff = &ops_diff,
};

/* ---- Steps ---- */

enum { N_STEP, N_RANKS, N_MIN, N_MED, N_MAX, N_BAR, N_SLOW, N_N };

static int steps_open(struct tt_pane *p)
{
	const struct tt_steps *s = tt_res_steps(p->app->res);
	if (!s->nnums) {
		snprintf(p->msg, sizeof(p->msg),
			 "no ProfilerStep#N annotations: call prof.step() each iteration under "
			 "torch.profiler.profile(schedule=...)");
		return -1;
	}
	static const struct tt_col cols[N_N] = {
		[N_STEP] = {.name = "step", .type = TT_C_INT},
		[N_RANKS] = {.name = "ranks", .type = TT_C_INT},
		[N_MIN] = {.name = "min", .type = TT_C_DUR},
		[N_MED] = {.name = "median", .type = TT_C_DUR},
		[N_MAX] = {.name = "max", .type = TT_C_DUR},
		[N_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = N_MAX, .width = 16,
			   .role = {TT_ROLE_BAR_CPU}},
		[N_SLOW] = {.name = "slowest_rank", .title = "slowest rank", .type = TT_C_INT},
	};
	/* row i = s->nums[i] */
	struct tt_table *t = tt_table_new("steps", cols, N_N);
	/* the step whose slowest rank is furthest (>= 20 %) above its median */
	size_t worst = SIZE_MAX;
	double worst_x = 20;
	for (size_t i = 0; i < s->nnums; i++) {
		const struct tt_step_num *w = &s->nums[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, N_STEP, w->num);
		tt_table_set_int(t, k, N_RANKS, w->nranks);
		tt_table_set_int(t, k, N_MIN, w->min_ns);
		tt_table_set_num(t, k, N_MED, w->median_ns);
		tt_table_set_int(t, k, N_MAX, w->max_ns);
		tt_table_set_int(t, k, N_SLOW, s->steps[w->slowest].rank);
		if (w->spread_pct >= worst_x) {
			worst_x = w->spread_pct;
			worst = i;
		}
	}
	tt_pane_set_table(p, t);
	if (worst != SIZE_MAX)
		p->row_role[worst] = TT_ROLE_MARKED;
	for (size_t i = 0; i < s->nranks && i < 4; i++) {
		const struct tt_steps_rank *r = &s->ranks[i];
		char mean[32];
		tt_fmt_dur(mean, sizeof(mean), r->mean_ns);
		if (r->first_num >= 0)
			tt_pane_head(p, TT_ROLE_DEFAULT, "rank %lld: steps %lld-%lld (%zu kept of %zu), "
						       "mean %s",
				     (long long)r->rank, (long long)r->first_num,
				     (long long)r->last_num, r->nkept, r->n, mean);
	}
	if (s->nranks > 4)
		tt_pane_head(p, TT_ROLE_DIM, "... %zu ranks", s->nranks);
	tt_pane_head(p, TT_ROLE_DIM,
		     "the plugin's steps: from the CPU start to the end of the GPU work launched; "
		     "tail steps with too few GPU ops left out. Enter: the step on every rank");
	return 0;
}

enum { R_RANK, R_START, R_CPU, R_DUR, R_BAR, R_BUSY, R_N };

static int step_ranks_open(struct tt_pane *p)
{
	struct pick *s = p->state;
	const struct tt_steps *st = tt_res_steps(p->app->res);
	static const struct tt_col cols[R_N] = {
		[R_RANK] = {.name = "rank", .type = TT_C_INT},
		[R_START] = {.name = "start", .type = TT_C_DUR, .unit_group = 2},
		[R_CPU] = {.name = "cpu", .title = "CPU", .type = TT_C_DUR},
		[R_DUR] = {.name = "duration", .type = TT_C_DUR},
		[R_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = R_DUR, .width = 16,
			   .role = {TT_ROLE_BAR_CPU}},
		[R_BUSY] = {.name = "gpu_busy", .title = "GPU busy", .type = TT_C_PCT, .prec = 1},
	};
	/* row i = st->steps[s->items[i]] */
	struct tt_table *t = tt_table_new("step", cols, R_N);
	size_t cap = 0;
	for (size_t i = 0; i < st->nsteps; i++) {
		const struct tt_step *x = &st->steps[i];
		if (x->pseudo || x->dropped || x->num != s->num)
			continue;
		add_item(s, i, &cap);
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, R_RANK, x->rank);
		tt_table_set_int(t, k, R_START, x->t0 - p->app->m->ranks[x->ri]->t0);
		tt_table_set_int(t, k, R_CPU, x->cpu_dur);
		tt_table_set_int(t, k, R_DUR, x->t1 - x->t0);
		tt_table_set_num(t, k, R_BUSY, x->gpu_busy_pct);
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "start: since the rank's first event. Enter: the timeline "
				     "at the step on that rank");
	return 0;
}

static struct tt_pane *step_ranks_drill(struct tt_pane *p, size_t row)
{
	struct pick *s = p->state;
	const struct tt_steps *st = tt_res_steps(p->app->res);
	if (row >= s->nitems)
		return NULL;
	const struct tt_step *x = &st->steps[s->items[row]];
	return tt_timeline_new(p->app, x->ri, x->ev, 0);
}

static const struct tt_pane_ops step_ranks_ops = {
	.name = "step",
	.title = "Step",
	.help = "One ProfilerStep#N on every rank: its start, its CPU duration, its window up "
		"to the end of the GPU work it launched, and the GPU busy share.  Enter opens the "
		"timeline at the step.",
	.open = step_ranks_open,
	.close = pick_free,
	.drill = step_ranks_drill,
	.needs = TT_NEED(TT_RES_STEPS),
};

static struct tt_pane *steps_drill(struct tt_pane *p, size_t row)
{
	const struct tt_steps *st = tt_res_steps(p->app->res);
	if (row >= st->nnums)
		return NULL;
	struct pick *s;
	struct tt_pane *np = child(p, &step_ranks_ops, &s);
	s->num = st->nums[row].num;
	snprintf(np->subtitle, sizeof(np->subtitle), "ProfilerStep#%lld", (long long)s->num);
	return np;
}

static const struct tt_pane_diff steps_diff = {
	.nkeys = 1, /* step */
	.cols = {N_MAX, N_MED, N_MIN, N_RANKS},
	.ncols = 4,
	.rank_col = -1,
	.more_is = -1,
	.what = "step time across ranks",
	.drill_both = tt_sides_drill,
};
const struct tt_pane_ops tt_steps_ops = {
	.name = "steps",
	.title = "Steps",
	.help = "ProfilerStep#N across ranks (the plugin's step windows): for each step number "
		"the shortest, median and longest duration over the ranks and the slowest rank; "
		"above, the steps each rank kept.  Enter shows the step on every rank.",
	.open = steps_open,
	.drill = steps_drill,
	.needs = TT_NEED(TT_RES_STEPS),
	.diff = &steps_diff,
};

/* ---- Advice ---- */

enum { A_SEV, A_TEXT, A_SEE, A_N };

/* the finding of each row: a finding's sentence wraps over several rows */
struct advice_rows {
	size_t *of;
	size_t n;
};

#define ADVICE_WIDTH 48

static int advice_open(struct tt_pane *p)
{
	const struct tt_advice *a = tt_res_advice(p->app->res);
	static const char *const sevs[] = {"high", "medium", "info"};
	static const struct tt_col cols[A_N] = {
		[A_SEV] = {.name = "severity", .type = TT_C_STR},
		[A_TEXT] = {.name = "finding", .type = TT_C_STR, .width = ADVICE_WIDTH,
			    .free_text = true},
		[A_SEE] = {.name = "see", .type = TT_C_STR},
	};
	struct advice_rows *ar = tt_calloc(1, sizeof(*ar));
	p->state = ar;
	size_t cap = 0;
	struct tt_table *t = tt_table_new("advice", cols, A_N);
	char text[400], see[64], line[ADVICE_WIDTH + 1];
	for (size_t i = 0; i < a->n; i++) {
		/* a kernel or operator name shortened to fit a few rows */
		struct tt_finding x1 = a->v[i];
		const struct tt_finding *x = &x1;
		tt_name_fit(x1.name, sizeof(x1.name), a->v[i].name, ADVICE_WIDTH - 6);
		tt_finding_text(x, text, sizeof(text));
		snprintf(see, sizeof(see), "see %s", x->where);
		/* the sentence in lines of at most ADVICE_WIDTH bytes, cut at spaces */
		for (const char *q = text; *q;) {
			size_t n = strlen(q);
			if (n > ADVICE_WIDTH) {
				n = ADVICE_WIDTH;
				while (n > ADVICE_WIDTH / 2 && q[n] != ' ')
					n--;
			}
			snprintf(line, sizeof(line), "%.*s", (int)n, q);
			q += n;
			while (*q == ' ')
				q++;
			size_t k = tt_table_add_row(t);
			TT_GROW(ar->of, cap, ar->n + 1);
			bool head = ar->n == 0 || ar->of[ar->n - 1] != i;
			ar->of[ar->n++] = i;
			tt_table_set_str(t, k, A_TEXT, line);
			if (head) {
				tt_table_set_str(t, k, A_SEV, sevs[x->sev]);
				tt_table_set_str(t, k, A_SEE, see);
			}
		}
	}
	tt_pane_set_table(p, t);
	for (size_t r = 0; r < ar->n; r++) {
		enum tt_sev sev = a->v[ar->of[r]].sev;
		p->row_role[r] = sev == TT_SEV_HIGH   ? TT_ROLE_WARNING
				 : sev == TT_SEV_INFO ? TT_ROLE_DIM
						      : 0;
	}
	if (!a->n)
		snprintf(p->msg, sizeof(p->msg), "no finding");
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the pane that shows the numbers");
	return 0;
}

static void advice_close(struct tt_pane *p)
{
	struct advice_rows *ar = p->state;
	if (ar)
		free(ar->of);
	free(ar);
}

static struct tt_pane *advice_drill(struct tt_pane *p, size_t row)
{
	const struct tt_advice *a = tt_res_advice(p->app->res);
	const struct advice_rows *ar = p->state;
	if (!ar || row >= ar->n)
		return NULL;
	/* the registered view of that name (a warning when there is none) */
	const char *pane = a->v[ar->of[row]].pane;
	if (strcmp(pane, p->ops->name) == 0)
		tt_ui_status(p->app, TT_ROLE_WARNING, "no pane named %s", pane);
	else
		tt_ui_open_view(p->app, pane);
	return NULL;
}

const struct tt_pane_ops tt_advice_ops = {
	.name = "advice",
	.title = "Advice",
	.help = "Findings from the other analyses, most important first, each with the numbers "
		"behind it: GPU idle and its cause, exposed communication, low occupancy or SM "
		"efficiency, launch-bound kernels, stragglers and synchronisation, uneven steps, "
		"memory close to the device's size, and the TensorBoard plugin's recommendations "
		"(GPU utilization, DataLoader and communication shares, DataParallel, DDP without "
		"NCCL, tensor cores).  Enter opens the pane that shows it.",
	.open = advice_open,
	.close = advice_close,
	.drill = advice_drill,
	.needs = TT_NEED(TT_RES_ADVICE),
};
