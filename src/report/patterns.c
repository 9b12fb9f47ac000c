/* tracetop report patterns: frequent CUDA kernel sequences under an
 * operator (HTA get_frequent_cuda_kernel_sequences, metrics.md §10).
 *
 * Table "frequent_cuda_kernel_sequences" has HTA's columns (pattern, count,
 * GPU kernel duration (us), CPU op duration (us)) plus "kernels" (kernels
 * per occurrence); the text form shows a pattern number, the op and the
 * kernels by their short names instead of the long pattern.  Table
 * "pattern_kernels" lists every pattern's kernels in order, with their
 * durations summed over the occurrences. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/patterns.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

enum {
	C_NUM = TT_PAT_NUM,
	C_OP = TT_PAT_OP,
	C_PATTERN = TT_PAT_PATTERN,
	C_COUNT = TT_PAT_COUNT,
	C_GPU = TT_PAT_GPU,
	C_CPU = TT_PAT_CPU,
	C_KERNELS = TT_PAT_KERNELS,
	C_SEQ = TT_PAT_SEQ,
};

/* text only: the kernels by their short names, "a | b | c" */
static void set_sequence(struct tt_table *t, size_t row, const struct tt_rank *r,
			 const struct tt_pattern *q)
{
	size_t cap = 1;
	for (uint32_t j = 1; j < q->len; j++)
		cap += strlen(tt_str(r, q->seq[j])) + 3;
	char *buf = tt_malloc(cap), *w = buf;
	for (uint32_t j = 1; j < q->len; j++) {
		if (j > 1) {
			memcpy(w, " | ", 3);
			w += 3;
		}
		w += tt_diff_short_name(tt_str(r, q->seq[j]), w);
	}
	*w = '\0';
	tt_table_set_str(t, row, C_SEQ, buf);
	free(buf);
}

static void notes(struct tt_table *t, const struct tt_patterns *p, const struct tt_model *m)
{
	if (p->no_rank) {
		tt_table_add_note(t, "no rank selected");
		return;
	}
	if (p->op_auto) {
		if (!p->op) {
			tt_table_add_note(t, "no aten:: op of rank %lld launches %d or more kernels "
					     "(%zu tried): nothing to report (HTA returns an empty frame)",
					  (long long)p->rank, p->min_len, p->ntried);
			return;
		}
		tt_table_add_note(t, "operator chosen automatically: %s (the aten:: name with the most "
				     "ops launching >= %d kernels that gives a pattern; use --op NAME)",
				  p->op, p->min_len);
		for (size_t i = 0; i + 1 < p->ntried; i++)
			tt_table_add_note(t, "  tried first: %s (%u ops with >= %d kernels): no pattern",
					  p->tried[i].op, p->tried[i].nodes, p->min_len);
	}
	if (!p->ncandidates) {
		tt_table_add_note(t, "no CPU op of rank %lld has '%s' in its name", (long long)p->rank,
				  p->op);
		return;
	}
	tt_table_add_note(t, "%u ops contain '%s'; the shallowest are at depth %d, %u of them "
			     "launch >= %d kernels",
			  p->ncandidates, p->op, p->min_depth, p->nroots, p->min_len);
	if (!p->nroots)
		tt_table_add_note(t, "nothing to report: HTA returns an empty frame here");
	if (m->ranks[p->rank_idx]->hta_round)
		tt_table_add_note(t, "fractional timestamps: ops nest by their exact times (HTA "
				     "stops with \"Unexpected case\" on such traces), durations "
				     "are HTA's rounded ones");
}

int tt_report_patterns(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col cols[TT_PAT_NCOLS] = {
		[C_NUM] = {.name = "#", .type = TT_C_INT, .hidden_csv = true},
		[C_OP] = {.name = "op", .type = TT_C_STR, .width = 40, .hidden_csv = true},
		[C_PATTERN] = {.name = "pattern", .type = TT_C_STR, .hidden_text = true},
		[C_COUNT] = {.name = "count", .type = TT_C_INT},
		[C_GPU] = {.name = "GPU kernel duration (us)", .title = "GPU kernels",
			   .type = TT_C_DUR},
		[C_CPU] = {.name = "CPU op duration (us)", .title = "CPU op", .type = TT_C_DUR},
		[C_KERNELS] = {.name = "kernels", .type = TT_C_INT},
		[C_SEQ] = {.name = "sequence", .type = TT_C_STR, .width = 90, .hidden_csv = true},
	};
	static const struct tt_col kcols[] = {
		{.name = "pattern", .title = "#", .type = TT_C_INT},
		{.name = "position", .title = "pos", .type = TT_C_INT},
		{.name = "kernel", .type = TT_C_STR, .width = 70},
		{.name = "count", .type = TT_C_INT},
		{.name = "total_duration (us)", .title = "total", .type = TT_C_DUR},
		{.name = "mean_duration (us)", .title = "mean", .type = TT_C_DUR, .unit_group = 1},
		{.name = "pattern_pctg", .title = "% of pattern", .type = TT_C_PCT, .prec = 1},
	};
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_patterns *pp = tt_res_patterns(res);
	const struct tt_patterns p = *pp;
	struct tt_table *t = tt_table_new("frequent_cuda_kernel_sequences", cols,
					  (int)TT_ARRAY_SIZE(cols));
	struct tt_table *k = tt_table_new("pattern_kernels", kcols, (int)TT_ARRAY_SIZE(kcols));
	if (!p.no_rank) {
		if (p.op)
			tt_table_set_title(t, "Frequent CUDA kernel sequences under '%s' on rank %lld",
					   p.op, (long long)p.rank);
		else
			tt_table_set_title(t, "Frequent CUDA kernel sequences on rank %lld",
					   (long long)p.rank);
		tt_table_set_title(k, "Kernels of each pattern, in launch order (rank %lld)",
				   (long long)p.rank);
	}
	const struct tt_rank *r = p.no_rank ? NULL : m->ranks[p.rank_idx];
	size_t shown = p.n;
	if (o->top > 0 && (size_t)o->top < shown)
		shown = (size_t)o->top;
	for (size_t i = 0; i < shown; i++) {
		const struct tt_pattern *q = &p.p[i];
		size_t row = tt_table_add_row(t);
		tt_table_set_int(t, row, C_NUM, (int64_t)i + 1);
		tt_table_set_str(t, row, C_OP, tt_str(r, q->seq[0]));
		tt_table_set_str(t, row, C_PATTERN, q->text);
		tt_table_set_int(t, row, C_COUNT, q->count);
		tt_table_set_int(t, row, C_GPU, q->gpu_ns);
		tt_table_set_int(t, row, C_CPU, q->cpu_ns);
		tt_table_set_int(t, row, C_KERNELS, (int64_t)q->len - 1);
		set_sequence(t, row, r, q);
		for (uint32_t j = 0; j + 1 < q->len; j++) {
			size_t kr = tt_table_add_row(k);
			tt_table_set_int(k, kr, 0, (int64_t)i + 1);
			tt_table_set_int(k, kr, 1, (int64_t)j + 1);
			tt_table_set_str(k, kr, 2, tt_str(r, q->seq[j + 1]));
			tt_table_set_int(k, kr, 3, q->count);
			tt_table_set_int(k, kr, 4, q->kernel_ns[j]);
			tt_table_set_num(k, kr, 5, (double)q->kernel_ns[j] / q->count);
			tt_table_set_num(k, kr, 6,
					 q->gpu_ns ? 100.0 * (double)q->kernel_ns[j] / (double)q->gpu_ns
						   : NAN);
		}
	}
	notes(t, &p, m);
	if (shown < p.n)
		tt_table_add_note(t, "%zu of %zu patterns shown (--top %d)", shown, p.n, o->top);
	if (p.n)
		tt_table_add_note(t, "pattern = the op, then every kernel under it in start order; "
				     "tracetop report patterns -f csv prints the full patterns");
	*out = tt_malloc(2 * sizeof(**out));
	(*out)[0] = t;
	(*out)[1] = k;
	*n = 2;
	return 0;
}
