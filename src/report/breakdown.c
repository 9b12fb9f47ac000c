/* tracetop report temporal | overlap | kernels: the breakdown analyses as
 * tables with HTA's DataFrame column names (extra columns at the end).
 * Times are TT_C_DUR cells in ns (µs in CSV/JSON); percentages are rounded
 * like HTA (numpy rint). */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/breakdown.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

static void give(struct tt_table ***out, size_t *n, struct tt_table **t, size_t k)
{
	*out = tt_malloc((k ? k : 1) * sizeof(**out));
	memcpy(*out, t, k * sizeof(*t));
	*n = k;
}

/* Say why a rank has no row values: no GPU event at all, or none left
 * after HTA's iteration filter (metrics.md §0.4). */
static void note_no_gpu(struct tt_table *t, int64_t rank, uint32_t in_trace, const char *extra)
{
	if (in_trace)
		tt_table_add_note(t, "rank %lld: no GPU activity left after HTA's iteration "
				     "filter (%u GPU events dropped; --exact keeps them)%s",
				  (long long)rank, in_trace, extra);
	else
		tt_table_add_note(t, "rank %lld: no GPU activity%s", (long long)rank, extra);
}

/* ---- temporal ---- */

int tt_report_temporal(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col cols[TT_TEMPORAL_NCOLS] = {
		[TT_TEMPORAL_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_TEMPORAL_IDLE] = {.name = "idle_time(us)", .title = "idle", .type = TT_C_DUR},
		[TT_TEMPORAL_COMPUTE] = {.name = "compute_time(us)", .title = "compute",
					 .type = TT_C_DUR},
		[TT_TEMPORAL_NON_COMPUTE] = {.name = "non_compute_time(us)", .title = "non-compute",
					     .type = TT_C_DUR},
		[TT_TEMPORAL_SPAN] = {.name = "kernel_time(us)", .title = "GPU span",
				      .type = TT_C_DUR},
		[TT_TEMPORAL_IDLE_PCT] = {.name = "idle_time_pctg", .title = "idle %",
					  .type = TT_C_PCT, .prec = 2},
		[TT_TEMPORAL_COMPUTE_PCT] = {.name = "compute_time_pctg", .title = "compute %",
					     .type = TT_C_PCT, .prec = 2},
		[TT_TEMPORAL_NON_COMPUTE_PCT] = {.name = "non_compute_time_pctg",
						 .title = "non-compute %", .type = TT_C_PCT,
						 .prec = 2},
	};
	(void)err;
	const struct tt_temporal_res *tr = tt_res_temporal(res);
	const struct tt_temporal_row *rows = tr->rows;
	size_t nr = tr->n;
	struct tt_table *t = tt_table_new("temporal_breakdown", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU time per rank: the GPU span, from the first GPU event start to "
			      "the last GPU event end, = idle + compute + non-compute; %s",
			   o->a.exact ? "every event with exact times (--exact)" :
					"HTA's view (the last ProfilerStep dropped, times rounded to microseconds)");
	for (size_t i = 0; i < nr; i++) {
		const struct tt_temporal_row *w = &rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		if (!w->has_gpu) {
			note_no_gpu(t, w->rank, w->nevents_trace, " (HTA raises on such a rank)");
			continue;
		}
		tt_table_set_int(t, k, 1, w->idle_ns);
		tt_table_set_int(t, k, 2, w->compute_ns);
		tt_table_set_int(t, k, 3, w->non_compute_ns);
		tt_table_set_int(t, k, 4, w->kernel_ns);
		tt_table_set_num(t, k, 5, tt_round(w->idle_pct, 2));
		tt_table_set_num(t, k, 6, tt_round(w->compute_pct, 2));
		tt_table_set_num(t, k, 7, tt_round(w->non_compute_pct, 2));
	}
	if (!nr)
		tt_table_add_note(t, "no rank selected");
	give(out, n, &t, 1);
	return 0;
}

/* ---- overlap ---- */

int tt_report_overlap(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col cols[TT_OVERLAP_NCOLS] = {
		[TT_OVERLAP_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_OVERLAP_PCT] = {.name = "comp_comm_overlap_pctg", .title = "overlap %",
				    .type = TT_C_PCT, .prec = 2},
		[TT_OVERLAP_COMM] = {.name = "communication_time(us)", .title = "communication",
				     .type = TT_C_DUR},
		[TT_OVERLAP_COMP] = {.name = "computation_time(us)", .title = "computation",
				     .type = TT_C_DUR},
		[TT_OVERLAP_TIME] = {.name = "overlap_time(us)", .title = "overlapped",
				     .type = TT_C_DUR},
	};
	(void)err;
	(void)o;
	const struct tt_overlap_res *orr = tt_res_overlap(res);
	const struct tt_overlap_row *rows = orr->rows;
	size_t nr = orr->n;
	struct tt_table *t = tt_table_new("comm_comp_overlap", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Share of communication time (union of communication kernels) "
			      "during which computation kernels run");
	for (size_t i = 0; i < nr; i++) {
		const struct tt_overlap_row *w = &rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		tt_table_set_num(t, k, 1, tt_round(w->pct, 2)); /* NaN: empty, like HTA */
		tt_table_set_int(t, k, 2, w->comm_ns);
		tt_table_set_int(t, k, 3, w->comp_ns);
		tt_table_set_int(t, k, 4, w->overlap_ns);
		if (!w->has_gpu)
			note_no_gpu(t, w->rank, w->nevents_trace, "");
		else if (!w->ncomm)
			tt_table_add_note(t, "rank %lld: no communication kernels (percentage "
					     "empty: HTA's 0/0)",
					  (long long)w->rank);
	}
	if (!nr)
		tt_table_add_note(t, "no rank selected");
	give(out, n, &t, 1);
	return 0;
}

/* ---- kernels ---- */

static struct tt_table *type_table(const struct tt_kbreak *k)
{
	static const struct tt_col cols[] = {
		{.name = "kernel_type", .title = "kernel type", .type = TT_C_STR, .width = 60},
		{.name = "sum", .type = TT_C_DUR},
		{.name = "percentage", .title = "share", .type = TT_C_PCT, .prec = 1},
		{.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = 2, .width = 20},
	};
	struct tt_table *t = tt_table_new("kernel_type_breakdown", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU time by kernel type, all ranks (overlaps counted once, under "
			      "the combination of types running)");
	char buf[128];
	unsigned masks[8];
	int nm = tt_kbreak_labels(k, masks);
	for (int i = 0; i < nm; i++) {
		unsigned mask = masks[i];
		size_t r = tt_table_add_row(t);
		tt_kbreak_label(k, mask, buf, sizeof(buf));
		tt_table_set_str(t, r, 0, buf);
		tt_table_set_int(t, r, 1, k->label_ns[mask]);
		/* HTA: round((sum / total) * 100, 1) */
		tt_table_set_num(t, r, 2, tt_round(tt_kbreak_share(k, mask), 1));
	}
	return t;
}

static struct tt_table *type_rank_table(const struct tt_model *m, const struct tt_kbreak *k)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "kernel_type", .title = "kernel type", .type = TT_C_STR, .width = 60},
		{.name = "sum", .type = TT_C_DUR},
		{.name = "percentage", .title = "share", .type = TT_C_PCT, .prec = 1},
	};
	struct tt_table *t = tt_table_new("kernel_type_by_rank", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU time by kernel type, per rank");
	char buf[128];
	for (size_t ri = 0; ri < k->nranks_model; ri++) {
		if (!k->rank_sel[ri])
			continue;
		const int64_t *lab = &k->rank_label_ns[ri * 8];
		int64_t tot = 0;
		for (int b = 0; b < 8; b++)
			tot += lab[b];
		size_t first = t->nrows;
		for (unsigned mask = 1; mask < (1u << k->ntypes); mask++) {
			if (!lab[mask])
				continue;
			size_t r = tt_table_add_row(t);
			tt_kbreak_label(k, mask, buf, sizeof(buf));
			tt_table_set_int(t, r, 0, m->ranks[ri]->rank);
			tt_table_set_str(t, r, 1, buf);
			tt_table_set_int(t, r, 2, lab[mask]);
			tt_table_set_num(t, r, 3, tt_round((double)lab[mask] / (double)tot * 100, 1));
		}
		/* within the rank: sum descending, label on ties (insertion sort, few rows) */
		for (size_t a = first + 1; a < t->nrows; a++) {
			for (size_t b = a; b > first; b--) {
				const struct tt_cell *x = tt_table_cell(t, b - 1, 2);
				const struct tt_cell *y = tt_table_cell(t, b, 2);
				int c = x->v.i < y->v.i ? 1 : x->v.i > y->v.i ? -1 : 0;
				if (!c)
					c = strcmp(tt_table_cell(t, b - 1, 1)->v.s,
						   tt_table_cell(t, b, 1)->v.s);
				if (c <= 0)
					break;
				struct tt_cell tmp[4];
				size_t w = (size_t)t->ncols;
				memcpy(tmp, &t->cells[(b - 1) * w], sizeof(tmp));
				memcpy(&t->cells[(b - 1) * w], &t->cells[b * w], sizeof(tmp));
				memcpy(&t->cells[b * w], tmp, sizeof(tmp));
			}
		}
	}
	return t;
}

/* text order: type in HTA's analysis order, then sum descending */
static int people_cmp(const void *a, const void *b)
{
	const struct tt_kstat *x = *(const struct tt_kstat *const *)a;
	const struct tt_kstat *y = *(const struct tt_kstat *const *)b;
	static const int pos[4] = {0, 1, 2, 3}; /* COMP, COMM, MEM, OTHER */
	if (x->type != y->type)
		return pos[x->type] - pos[y->type];
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	if (x->others != y->others)
		return x->others ? 1 : -1;
	int d = strcmp(x->name, y->name);
	if (d)
		return d;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static struct tt_table *kernel_table(const struct tt_kbreak *k, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "sum (us)", .title = "sum", .type = TT_C_DUR},
		{.name = "max (us)", .title = "max", .type = TT_C_DUR, .unit_group = 1},
		{.name = "min (us)", .title = "min", .type = TT_C_DUR, .unit_group = 1},
		{.name = "stddev", .title = "stddev", .type = TT_C_DUR, .unit_group = 1},
		{.name = "mean (us)", .title = "mean", .type = TT_C_DUR, .unit_group = 1},
		{.name = "kernel_type", .title = "type", .type = TT_C_STR},
		{.name = "rank", .type = TT_C_INT},
		{.name = "count", .type = TT_C_INT},
		{.name = "names", .type = TT_C_INT},
		{.name = "rule", .type = TT_C_STR, .width = 60},
	};
	int ncols = (int)TT_ARRAY_SIZE(cols) - (o->explain ? 0 : 1);
	struct tt_table *t = tt_table_new("kernel_breakdown", cols, ncols);
	tt_table_set_title(t, "Kernels per rank and type: the top %d names within %g of the "
			      "cumulative time, the rest as \"others\"",
			   o->num_kernels, o->duration_ratio);
	const struct tt_kstat **p = tt_malloc((k->nrows + 1) * sizeof(*p));
	for (size_t i = 0; i < k->nrows; i++)
		p[i] = &k->rows[i];
	/* CSV/JSON keep HTA's (kernel_type, name, rank) byte order */
	if (o->format == TT_FMT_TABLE && k->nrows)
		qsort(p, k->nrows, sizeof(*p), people_cmp);
	bool grouped = false;
	for (size_t i = 0; i < k->nrows; i++) {
		const struct tt_kstat *s = p[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, s->name);
		tt_table_set_int(t, r, 1, s->sum_ns);
		tt_table_set_int(t, r, 2, s->max_ns);
		tt_table_set_int(t, r, 3, s->min_ns);
		tt_table_set_num(t, r, 4, s->std_ns);
		tt_table_set_num(t, r, 5, s->mean_ns);
		tt_table_set_str(t, r, 6, tt_ktype_name(s->type));
		tt_table_set_int(t, r, 7, s->rank);
		tt_table_set_int(t, r, 8, (int64_t)s->count);
		tt_table_set_int(t, r, 9, s->nnames);
		if (o->explain && s->rule)
			tt_table_set_str(t, r, 10, s->rule);
		grouped |= s->others;
	}
	free(p);
	if (grouped)
		tt_table_add_note(t, "max, min, stddev and mean are over kernel durations, also for "
				     "\"others\" (HTA gives statistics of per-name sums there)");
	return t;
}

static int across_total_cmp(const void *a, const void *b)
{
	const struct tt_kacross *x = *(const struct tt_kacross *const *)a;
	const struct tt_kacross *y = *(const struct tt_kacross *const *)b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	int d = strcmp(tt_ktype_name(x->type), tt_ktype_name(y->type));
	return d ? d : strcmp(x->name, y->name);
}

static int across_name_cmp(const void *a, const void *b)
{
	const struct tt_kacross *x = *(const struct tt_kacross *const *)a;
	const struct tt_kacross *y = *(const struct tt_kacross *const *)b;
	int d = strcmp(tt_ktype_name(x->type), tt_ktype_name(y->type));
	return d ? d : strcmp(x->name, y->name);
}

static int across_people_cmp(const void *a, const void *b)
{
	const struct tt_kacross *x = *(const struct tt_kacross *const *)a;
	const struct tt_kacross *y = *(const struct tt_kacross *const *)b;
	if (x->type != y->type)
		return (int)x->type - (int)y->type;
	return across_total_cmp(a, b);
}

struct tt_table *tt_kernels_across_table(const struct tt_kbreak *k, const struct tt_report_opts *o,
					 size_t **order)
{
	static const struct tt_col cols[TT_ACROSS_NCOLS] = {
		[TT_ACROSS_NAME] = {.name = "name", .type = TT_C_STR, .width = 60},
		[TT_ACROSS_TYPE] = {.name = "kernel_type", .title = "type", .type = TT_C_STR},
		[TT_ACROSS_RANKS] = {.name = "ranks", .type = TT_C_INT},
		[TT_ACROSS_TOTAL] = {.name = "total (us)", .title = "total", .type = TT_C_DUR},
		[TT_ACROSS_MIN_RANK] = {.name = "min_rank", .title = "min rank", .type = TT_C_INT},
		[TT_ACROSS_MIN] = {.name = "min (us)", .title = "min", .type = TT_C_DUR, .unit_group = 1},
		[TT_ACROSS_MEDIAN_RANK] = {.name = "median_rank", .title = "median rank",
					   .type = TT_C_INT},
		[TT_ACROSS_MEDIAN] = {.name = "median (us)", .title = "median", .type = TT_C_DUR},
		[TT_ACROSS_MAX_RANK] = {.name = "max_rank", .title = "max rank", .type = TT_C_INT},
		[TT_ACROSS_MAX] = {.name = "max (us)", .title = "max", .type = TT_C_DUR, .unit_group = 1},
	};
	struct tt_table *t = tt_table_new("kernels_across_ranks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Each top kernel across ranks: the ranks with the least, median and "
			      "most total time in it");
	const struct tt_kacross **p = tt_malloc((k->nacross + 1) * sizeof(*p));
	for (size_t i = 0; i < k->nacross; i++)
		p[i] = &k->across[i];
	size_t n = k->nacross;
	if (o->top > 0 && (size_t)o->top < n) {
		qsort(p, n, sizeof(*p), across_total_cmp);
		tt_table_add_note(t, "%zu of %zu kernels shown (--top %d)", (size_t)o->top, n,
				  o->top);
		n = (size_t)o->top;
	}
	if (n)
		qsort(p, n, sizeof(*p),
		      o->format == TT_FMT_TABLE ? across_people_cmp : across_name_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct tt_kacross *a = p[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, a->name);
		tt_table_set_str(t, r, 1, tt_ktype_name(a->type));
		tt_table_set_int(t, r, 2, a->nranks);
		tt_table_set_int(t, r, 3, a->total_ns);
		tt_table_set_int(t, r, 4, a->min_rank);
		tt_table_set_int(t, r, 5, a->min_ns);
		tt_table_set_int(t, r, 6, a->med_rank);
		tt_table_set_int(t, r, 7, a->med_ns);
		tt_table_set_int(t, r, 8, a->max_rank);
		tt_table_set_int(t, r, 9, a->max_ns);
	}
	if (order) {
		*order = tt_malloc((n + 1) * sizeof(**order));
		for (size_t i = 0; i < n; i++)
			(*order)[i] = (size_t)(p[i] - k->across);
	}
	free(p);
	return t;
}

static struct tt_table *annot_table(const struct tt_kbreak *k)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "sum (us)", .title = "sum", .type = TT_C_DUR},
		{.name = "max (us)", .title = "max", .type = TT_C_DUR, .unit_group = 1},
		{.name = "min (us)", .title = "min", .type = TT_C_DUR, .unit_group = 1},
		{.name = "stddev", .title = "stddev", .type = TT_C_DUR, .unit_group = 1},
		{.name = "mean (us)", .title = "mean", .type = TT_C_DUR, .unit_group = 1},
		{.name = "rank", .type = TT_C_INT},
		{.name = "count", .type = TT_C_INT},
	};
	struct tt_table *t =
		tt_table_new("gpu_user_annotation_breakdown", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU user annotations per rank");
	for (size_t i = 0; i < k->nannot; i++) {
		const struct tt_kstat *s = &k->annot[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, s->name);
		tt_table_set_int(t, r, 1, s->sum_ns);
		tt_table_set_int(t, r, 2, s->max_ns);
		tt_table_set_int(t, r, 3, s->min_ns);
		tt_table_set_num(t, r, 4, s->std_ns);
		tt_table_set_num(t, r, 5, s->mean_ns);
		tt_table_set_int(t, r, 6, s->rank);
		tt_table_set_int(t, r, 7, (int64_t)s->count);
	}
	return t;
}

/* the table is wanted: all of them, or the one o->table names */
static bool want(const struct tt_report_opts *o, const char *name)
{
	return !o->table || strcmp(o->table, name) == 0;
}

int tt_report_kernels(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_kbreak *k = tt_res_kbreak(res);
	struct tt_table *t[5];
	size_t nt = 0;
	if (want(o, "kernel_type_breakdown"))
		t[nt++] = type_table(k);
	if (want(o, "kernel_breakdown"))
		t[nt++] = kernel_table(k, o);
	if (want(o, "kernels_across_ranks"))
		t[nt++] = tt_kernels_across_table(k, o, NULL);
	if (want(o, "kernel_type_by_rank"))
		t[nt++] = type_rank_table(m, k);
	if (k->has_annot && want(o, "gpu_user_annotation_breakdown"))
		t[nt++] = annot_table(k);
	for (size_t ri = 0; ri < k->nranks_model; ri++)
		if (k->rank_sel[ri] && !k->rank_gpu[ri])
			for (size_t i = 0; i < nt; i++)
				if (strcmp(t[i]->name, "kernel_type_breakdown") == 0 ||
				    strcmp(t[i]->name, "kernel_breakdown") == 0)
					note_no_gpu(t[i], m->ranks[ri]->rank, k->rank_gpu_trace[ri],
						    "");
	give(out, n, t, nt);
	return 0;
}
