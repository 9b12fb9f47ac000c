/* report launch: HTA's CUDA kernel launch statistics per rank (one row per
 * runtime call / GPU op pair), a per-rank summary, and the outlier lists of
 * HTA's plots with what a timeline needs to jump to both events. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/results.h"
#include "tracetop/sort.h"
#include "tracetop/util.h"

/* the column name, in the table's own arena */
static void set_col_name(struct tt_table *t, int col, const char *prefix, double v)
{
	char buf[96];
	int len = snprintf(buf, sizeof(buf), "%s%g", prefix, v);
	t->cols[col].name = tt_arena_strndup(&t->strs, buf, (size_t)len);
}

/* the note of a table made of the first max of all rows */
static void note_shown(struct tt_table *t, size_t max, size_t all, const char *what)
{
	if (all > max)
		tt_table_add_note(t, "%zu of %zu %s shown (--top N; -f csv gives all)", max, all,
				  what);
}

/* every pair, or the first max of them (a text report's --top: the rows
 * past it are never shown, so never made) */
static struct tt_table *pairs_table(const struct tt_launch *l, size_t max)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "correlation", .type = TT_C_INT},
		{.name = "cpu_duration", .title = "runtime call", .type = TT_C_DUR},
		{.name = "gpu_duration", .title = "GPU op", .type = TT_C_DUR},
		{.name = "launch_delay", .title = "launch delay", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "cpu_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "gpu_event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t =
		tt_table_new("cuda_kernel_launch_stats", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Kernel launches: runtime call and GPU op joined by correlation");
	size_t all = 0;
	for (size_t i = 0; i < l->nranks; i++)
		all += l->ranks[i].nrows;
	tt_table_reserve(t, TT_MIN(all, max));
	for (size_t i = 0; i < l->nranks && t->nrows < max; i++) {
		const struct tt_launch_rank *rk = &l->ranks[i];
		for (size_t j = 0; j < rk->nrows && t->nrows < max; j++) {
			const struct tt_launch_row *w = &rk->rows[j];
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, rk->rank);
			tt_table_set_int(t, k, 1, w->corr);
			tt_table_set_int(t, k, 2, w->cpu_dur);
			tt_table_set_int(t, k, 3, w->gpu_dur);
			tt_table_set_int(t, k, 4, w->delay);
			tt_table_set_int(t, k, 5, rk->rank_idx);
			tt_table_set_int(t, k, 6, w->cpu);
			tt_table_set_int(t, k, 7, w->gpu);
		}
	}
	note_shown(t, max, all, "launches");
	return t;
}

static struct tt_table *summary_table(const struct tt_model *m, const struct tt_launch *l)
{
	static const struct tt_col cols[TT_LSUM_NCOLS] = {
		[TT_LSUM_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_LSUM_ROWS] = {.name = "rows", .type = TT_C_INT},
		[TT_LSUM_CPU_SUM] = {.name = "cpu_duration_sum", .title = "runtime sum",
				     .type = TT_C_DUR},
		[TT_LSUM_GPU_SUM] = {.name = "gpu_duration_sum", .title = "GPU sum",
				     .type = TT_C_DUR},
		[TT_LSUM_DELAY_SUM] = {.name = "launch_delay_sum", .title = "delay sum",
				       .type = TT_C_DUR},
		[TT_LSUM_CPU_MEAN] = {.name = "cpu_duration_mean", .title = "runtime mean",
				      .type = TT_C_DUR, .unit_group = 1},
		[TT_LSUM_GPU_MEAN] = {.name = "gpu_duration_mean", .title = "GPU mean",
				      .type = TT_C_DUR, .unit_group = 1},
		[TT_LSUM_DELAY_MEAN] = {.name = "launch_delay_mean", .title = "delay mean",
					.type = TT_C_DUR, .unit_group = 1},
		[TT_LSUM_DELAY_MAX] = {.name = "launch_delay_max", .title = "delay max",
				       .type = TT_C_DUR, .unit_group = 1},
		[TT_LSUM_RUNTIME_OUTLIERS] = {.name = "runtime_outliers", .title = "runtime outliers",
					      .type = TT_C_INT},
		[TT_LSUM_DELAY_OUTLIERS] = {.name = "launch_delay_outliers",
					    .title = "delay outliers", .type = TT_C_INT},
		[TT_LSUM_SHORT] = {.name = "short_kernels", .title = "short kernels",
				   .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("launch_summary", cols, (int)TT_ARRAY_SIZE(cols));
	/* named after the cutoffs used, e.g. runtime_outliers_gt50 */
	set_col_name(t, 9, "runtime_outliers_gt", l->runtime_cutoff_us);
	set_col_name(t, 10, "launch_delay_outliers_gt", l->delay_cutoff_us);
	tt_table_set_title(t, "Kernel launches per rank (runtime outlier: call > %g us; delay "
			      "outlier: delay > %g us; short kernel: GPU op shorter than its call)",
			   l->runtime_cutoff_us, l->delay_cutoff_us);
	for (size_t i = 0; i < l->nranks; i++) {
		const struct tt_launch_rank *rk = &l->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rk->rank);
		tt_table_set_int(t, k, 1, (int64_t)rk->nrows);
		tt_table_set_int(t, k, 2, rk->cpu_sum);
		tt_table_set_int(t, k, 3, rk->gpu_sum);
		tt_table_set_int(t, k, 4, rk->delay_sum);
		if (rk->nrows) {
			tt_table_set_num(t, k, 5, rk->cpu_mean);
			tt_table_set_num(t, k, 6, rk->gpu_mean);
			tt_table_set_num(t, k, 7, rk->delay_mean);
			tt_table_set_int(t, k, 8, rk->delay_max);
		}
		tt_table_set_int(t, k, 9, rk->n_runtime_outliers);
		tt_table_set_int(t, k, 10, rk->n_delay_outliers);
		tt_table_set_int(t, k, 11, rk->n_short);
		const char *file = m->ranks[rk->rank_idx]->file;
		if (rk->sums_clamped)
			tt_table_add_note(t, "rank %lld (%s): sums beyond 292 years are shown as "
					     "the largest time there is", (long long)rk->rank, file);
		if (rk->no_gpu)
			tt_table_add_note(t, "rank %lld (%s): no GPU activity", (long long)rk->rank,
					  file);
		if (rk->n_ignored)
			tt_table_add_note(t,
					  "rank %lld: %u launch calls (cuLaunchKernel*, hip*) are "
					  "not counted: HTA's launch statistics do not know them",
					  (long long)rk->rank, rk->n_ignored);
	}
	tt_table_add_note(t, "all ranks analysed (HTA's default is rank 0 only: --ranks 0)");
	return t;
}

/* ---- outlier lists ---- */

enum kind { RUNTIME, DELAY, SHORT };

struct ref {
	const struct tt_launch_rank *rk;
	const struct tt_launch_row *w;
	int64_t key;
};

/* the larger key first; stable: rank, row order */
static inline bool ref_before(const struct ref *x, const struct ref *y)
{
	return x->key > y->key;
}
TT_STABLE_SORT(ref_sort, struct ref, ref_before)

/* the rows of one outlier list, or the first max of them (a text report's
 * --top: the rows past it are never shown, so never made) */
static struct tt_table *outlier_table(const struct tt_model *m, const struct tt_launch *l,
				      enum kind kind, size_t max)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "correlation", .type = TT_C_INT},
		{.name = "runtime", .type = TT_C_STR, .width = 20},
		{.name = "kernel", .type = TT_C_STR, .width = 50},
		{.name = "cpu_duration", .title = "runtime call", .type = TT_C_DUR},
		{.name = "gpu_duration", .title = "GPU op", .type = TT_C_DUR},
		{.name = "launch_delay", .title = "launch delay", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "cpu_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "gpu_event", .type = TT_C_INT, .hidden_text = true},
	};
	static const char *const names[] = {"runtime_outliers", "launch_delay_outliers",
					    "short_kernels"};
	struct tt_table *t = tt_table_new(names[kind], cols, (int)TT_ARRAY_SIZE(cols));
	switch (kind) {
	case RUNTIME:
		tt_table_set_title(t, "Runtime calls longer than %g us", l->runtime_cutoff_us);
		break;
	case DELAY:
		tt_table_set_title(t, "Launch delays longer than %g us", l->delay_cutoff_us);
		break;
	case SHORT:
		tt_table_set_title(t, "Short kernels: GPU op shorter than its launch call (call "
				      "<= %g us)",
				   l->runtime_cutoff_us);
		break;
	}
	size_t n = 0, cap = 0;
	struct ref *v = NULL;
	for (size_t i = 0; i < l->nranks; i++) {
		const struct tt_launch_rank *rk = &l->ranks[i];
		for (size_t j = 0; j < rk->nrows; j++) {
			const struct tt_launch_row *w = &rk->rows[j];
			bool in = kind == RUNTIME ? tt_launch_runtime_outlier(l, w) :
				  kind == DELAY	  ? tt_launch_delay_outlier(l, w) :
						    tt_launch_short_kernel(l, w);
			if (!in)
				continue;
			TT_GROW(v, cap, n + 1);
			v[n].rk = rk;
			v[n].w = w;
			v[n].key = kind == DELAY ? w->delay : w->cpu_dur;
			n++;
		}
	}
	ref_sort(v, n);
	size_t shown = TT_MIN(n, max);
	tt_table_reserve(t, shown);
	for (size_t i = 0; i < shown; i++) {
		const struct tt_launch_rank *rk = v[i].rk;
		const struct tt_launch_row *w = v[i].w;
		const struct tt_rank *r = m->ranks[rk->rank_idx];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rk->rank);
		tt_table_set_int(t, k, 1, w->corr);
		/* (each rank's name copied once) */
		const struct tt_event *ce = &r->ev[w->cpu], *ge = &r->ev[w->gpu];
		uint64_t rk32 = (uint64_t)rk->rank_idx << 32;
		tt_table_set_keyed(t, k, 2, rk32 | ce->name, tt_ev_name(r, ce));
		tt_table_set_keyed(t, k, 3, rk32 | ge->name, tt_ev_name(r, ge));
		tt_table_set_int(t, k, 4, w->cpu_dur);
		tt_table_set_int(t, k, 5, w->gpu_dur);
		tt_table_set_int(t, k, 6, w->delay);
		tt_table_set_int(t, k, 7, rk->rank_idx);
		tt_table_set_int(t, k, 8, w->cpu);
		tt_table_set_int(t, k, 9, w->gpu);
	}
	note_shown(t, max, n, "rows");
	free(v);
	return t;
}

static bool want(const struct tt_report_opts *o, const char *name)
{
	return !o->table || strcmp(o->table, name) == 0;
}

int tt_report_launch(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_launch *l = tt_res_launch(res);
	size_t top = o->top > 0 ? (size_t)o->top : 20;
	bool text = o->format == TT_FMT_TABLE;
	struct tt_table **t = tt_malloc(5 * sizeof(*t));
	size_t nt = 0;
	if (want(o, "cuda_kernel_launch_stats")) {
		/* the full pair list only when asked for by name */
		t[nt++] = pairs_table(l, text && !o->table ? top : SIZE_MAX);
	}
	if (want(o, "launch_summary"))
		t[nt++] = summary_table(m, l);
	static const enum kind kinds[] = {RUNTIME, DELAY, SHORT};
	static const char *const names[] = {"runtime_outliers", "launch_delay_outliers",
					    "short_kernels"};
	for (int i = 0; i < 3; i++)
		if (want(o, names[i]))
			t[nt++] = outlier_table(m, l, kinds[i], text ? top : SIZE_MAX);
	*out = t;
	*n = nt;
	return 0;
}
