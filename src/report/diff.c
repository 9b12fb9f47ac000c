/* tracetop report diff A B: HTA TraceDiff.compare_traces and ops_diff
 * (metrics.md §11) as tables.
 *
 * "compare_traces": name (short_name with --short-names), <A>_counts,
 * <A>_total_duration, <B>_counts, <B>_total_duration, diff_counts,
 * diff_duration, counts_change_categories, then our "change" (the ops_diff
 * bucket).  Rows by name in CSV/JSON (HTA's index order), by impact
 * (|diff_duration| descending) in the text table.
 * "ops_diff": category, name; HTA's buckets in its order, names sorted. */
#include "config.h"

#include "tracetop/report.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

enum {
	C_NAME = TT_CMP_NAME,
	C_ACNT = TT_CMP_A_COUNT,
	C_ADUR = TT_CMP_A_TIME,
	C_BCNT = TT_CMP_B_COUNT,
	C_BDUR = TT_CMP_B_TIME,
	C_DCNT = TT_CMP_D_COUNT,
	C_DDUR = TT_CMP_D_TIME,
	C_SIGN = TT_CMP_SIGN,
	C_CHANGE = TT_CMP_CHANGE,
	C_N = TT_CMP_NCOLS
};

/* a string that lives as long as the table */
static const char *tstr(struct tt_table *t, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = tt_arena_alloc(&t->strs, la + lb + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

static const char *device_name(enum tt_diff_device d)
{
	return d == TT_DIFF_GPU ? "GPU events (with a stream)" :
	       d == TT_DIFF_CPU ? "CPU events (no stream)" :
				  "CPU and GPU events";
}

static void side_note(struct tt_table *t, const char *label, const struct tt_diff_side *s,
		      const struct tt_model *m)
{
	char ranks[64] = "";
	if (s->nranks > 1)
		snprintf(ranks, sizeof(ranks), " (+%u more)", s->nranks - 1);
	if (s->iteration >= 0)
		tt_table_add_note(t, "%s: %s, rank %lld%s, ProfilerStep#%lld: %llu events", label,
				  m->ranks[s->first_idx]->path, (long long)s->first_rank, ranks,
				  (long long)s->iteration, (unsigned long long)s->events);
	else
		tt_table_add_note(t, "%s: %s, rank %lld%s: no ProfilerStep, every event compared "
				     "(HTA raises here): %llu events",
				  label, m->ranks[s->first_idx]->path, (long long)s->first_rank, ranks,
				  (unsigned long long)s->events);
}

static struct tt_table *compare_table(const struct tt_diff *d, const struct tt_model *a,
				      const struct tt_model *b, const struct tt_report_opts *o,
				      size_t **order)
{
	struct tt_col cols[C_N] = {
		[C_NAME] = {.name = o->short_names ? "short_name" : "name", .type = TT_C_STR,
			    .width = 60},
		[C_ACNT] = {.type = TT_C_INT},
		[C_ADUR] = {.type = TT_C_DUR},
		[C_BCNT] = {.type = TT_C_INT},
		[C_BDUR] = {.type = TT_C_DUR},
		[C_DCNT] = {.name = "diff_counts", .title = "Δ count", .type = TT_C_INT},
		[C_DDUR] = {.name = "diff_duration", .title = "Δ time", .type = TT_C_DUR},
		[C_SIGN] = {.name = "counts_change_categories", .title = "±", .type = TT_C_STR},
		[C_CHANGE] = {.name = "change", .type = TT_C_STR},
	};
	const char *la = o->label_a ? o->label_a : "Control";
	const char *lb = o->label_b ? o->label_b : "Test";
	struct tt_table *t = tt_table_new("compare_traces", cols, C_N);
	t->cols[C_ACNT].name = tstr(t, la, "_counts");
	t->cols[C_ACNT].title = tstr(t, la, " count");
	t->cols[C_ADUR].name = tstr(t, la, "_total_duration");
	t->cols[C_ADUR].title = tstr(t, la, " time");
	t->cols[C_BCNT].name = tstr(t, lb, "_counts");
	t->cols[C_BCNT].title = tstr(t, lb, " count");
	t->cols[C_BDUR].name = tstr(t, lb, "_total_duration");
	t->cols[C_BDUR].title = tstr(t, lb, " time");
	enum tt_diff_device dev = o->gpu_only ? TT_DIFF_GPU : o->cpu_only ? TT_DIFF_CPU : TT_DIFF_ALL;
	tt_table_set_title(t, "%s vs %s: %s by %s, %s", la, lb,
			   o->short_names ? "short name" : "name",
			   o->format == TT_FMT_TABLE ? "largest time change first" : "name",
			   device_name(dev));
	/* by name (the rows' order) for CSV/JSON, by impact for text */
	size_t *ord;
	if (o->format == TT_FMT_TABLE) {
		ord = tt_diff_impact_order(d);
	} else {
		ord = tt_malloc((d->n + 1) * sizeof(*ord));
		for (size_t i = 0; i < d->n; i++)
			ord[i] = i;
	}
	size_t shown = d->n;
	if (o->top > 0 && (size_t)o->top < shown && o->format == TT_FMT_TABLE)
		shown = (size_t)o->top;
	for (size_t i = 0; i < shown; i++) {
		const struct tt_diff_row *w = &d->rows[ord[i]];
		size_t k = tt_table_add_row(t);
		char sign[2] = {w->sign, 0};
		tt_table_set_str(t, k, C_NAME, w->name);
		tt_table_set_int(t, k, C_ACNT, w->count[0]);
		tt_table_set_int(t, k, C_ADUR, w->dur[0]);
		tt_table_set_int(t, k, C_BCNT, w->count[1]);
		tt_table_set_int(t, k, C_BDUR, w->dur[1]);
		tt_table_set_int(t, k, C_DCNT, w->diff_count);
		tt_table_set_int(t, k, C_DDUR, w->diff_dur);
		tt_table_set_str(t, k, C_SIGN, sign);
		tt_table_set_str(t, k, C_CHANGE, tt_diff_change_name(w->change));
	}
	side_note(t, la, &d->side[0], a);
	side_note(t, lb, &d->side[1], b);
	tt_table_add_note(t, "total: %s %lld events, %s %lld events; %zu names: %zu added, "
			     "%zu deleted, %zu increased, %zu decreased, %zu unchanged",
			  la, (long long)d->side[0].events, lb, (long long)d->side[1].events, d->n,
			  d->nchange[TT_DIFF_ADDED], d->nchange[TT_DIFF_DELETED],
			  d->nchange[TT_DIFF_INCREASED], d->nchange[TT_DIFF_DECREASED],
			  d->nchange[TT_DIFF_UNCHANGED]);
	if (shown < d->n)
		tt_table_add_note(t, "%zu of %zu names shown (--top %d)", shown, d->n, o->top);
	if (order)
		*order = ord;
	else
		free(ord);
	return t;
}

/* the diff of res, or NULL with *err filled */
static const struct tt_diff *get_diff(struct tt_results *res, const struct tt_report_opts *o,
				      struct tt_err *err)
{
	if (!tt_results_model2(res)) {
		tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
			   "report diff needs two traces: CONTROL TEST");
		return NULL;
	}
	if (o->gpu_only && o->cpu_only) {
		tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
			   "diff: --gpu and --cpu exclude each other");
		return NULL;
	}
	return tt_res_diff(res, err);
}

int tt_report_diff_table(struct tt_results *res, const struct tt_report_opts *o,
			 struct tt_table **t, size_t **order, struct tt_err *err)
{
	struct tt_err e;
	tt_err_clear(&e);
	const struct tt_diff *d = get_diff(res, o, &e);
	if (!d) {
		if (err)
			*err = e;
		*t = NULL;
		return -(int)e.code;
	}
	*t = compare_table(d, tt_results_model(res), tt_results_model2(res), o, order);
	return 0;
}

int tt_report_diff(struct tt_results *res, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col ocols[] = {
		{.name = "category", .type = TT_C_STR},
		{.name = "name", .type = TT_C_STR, .width = 100},
	};
	const char *la = o->label_a ? o->label_a : "Control";
	const char *lb = o->label_b ? o->label_b : "Test";
	const struct tt_model *a = tt_results_model(res), *b = tt_results_model2(res);
	struct tt_err e;
	tt_err_clear(&e);
	const struct tt_diff *d = get_diff(res, o, &e);
	if (!d) {
		if (err)
			*err = e;
		return -(int)e.code;
	}
	*out = tt_malloc(2 * sizeof(**out));
	*n = 0;
	if (!o->table || strcmp(o->table, "compare_traces") == 0)
		(*out)[(*n)++] = compare_table(d, a, b, o, NULL);
	if (!o->table || strcmp(o->table, "ops_diff") == 0) {
		/* ops_diff: by bucket, names in byte order (the rows' order) */
		struct tt_table *od = tt_table_new("ops_diff", ocols, (int)TT_ARRAY_SIZE(ocols));
		tt_table_set_title(od, "Names added, deleted, more, fewer or as often in %s than "
				       "in %s (HTA ops_diff)",
				   lb, la);
		for (int c = 0; c < TT_DIFF_NCHANGE; c++)
			for (size_t i = 0; i < d->n; i++) {
				if (d->rows[i].change != c)
					continue;
				size_t k = tt_table_add_row(od);
				tt_table_set_str(od, k, 0, tt_diff_change_name((enum tt_diff_change)c));
				tt_table_set_str(od, k, 1, d->rows[i].name);
			}
		(*out)[(*n)++] = od;
	}
	return 0;
}
