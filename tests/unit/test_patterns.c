/* analysis room: frequent CUDA kernel sequences (call graph, roots,
 * patterns) and the trace diff, on tiny hand-made traces.  Every expected
 * number is worked out by hand in the comment above it (µs in the traces,
 * ns in the model). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/patterns.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "testlib.h"

#define US 1000 /* ns */

/* a CPU op on thread tid of pid 1 */
#define OP(name, tid, ts, dur)                                                               \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid       \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
#define ANNOT(name, tid, ts, dur)                                                            \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
/* a runtime launch with correlation corr */
#define LAUNCH(tid, ts, dur, corr)                                                           \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"      \
	"\"tid\":" #tid ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
#define KERNEL(name, ts, dur, stream, corr)                                                  \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream     \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"stream\":" #stream ",\"correlation\":" #corr \
	"}}"
#define HEAD "{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
#define TAIL "]}"

static const struct tt_aopts all = {0};

/* ---- one op, three kernels under nested children ---- */

/* thread 1:
 *   aten::linear  0-100                depth 0
 *     aten::addmm 10-90                depth 1
 *       cudaLaunchKernel 12-17 corr 1  -> gemm_a  stream 7, 40-47 (7 µs)
 *       aten::inner 20-50              depth 2
 *         cudaLaunchKernel 22-26 corr 2 -> bias   stream 7, 50-53 (3 µs)
 *         cudaLaunchKernel 30-34 corr 3 -> relu   stream 8, 47-49 (2 µs)
 * kernels by start: gemm_a (40), relu (47), bias (50). */
static const char nested_trace[] =
	HEAD OP("aten::linear", 1, 0, 100) "," OP("aten::addmm", 1, 10, 80) "," LAUNCH(1, 12, 5, 1)
	"," OP("aten::inner", 1, 20, 30) "," LAUNCH(1, 22, 4, 2) "," LAUNCH(1, 30, 4, 3) ","
	KERNEL("gemm_a", 40, 7, 7, 1) "," KERNEL("bias", 50, 3, 7, 2) ","
	KERNEL("relu", 47, 2, 8, 3) TAIL;

static uint32_t find(const struct tt_rank *r, const char *name)
{
	for (uint32_t i = 0; i < r->nev; i++)
		if (strcmp(tt_ev_name(r, &r->ev[i]), name) == 0)
			return i;
	ck_abort_msg("no event %s", name);
	return 0;
}

START_TEST(three_kernels_under_nested_children)
{
	struct tt_model *m = tl_load_json1(nested_trace);
	const struct tt_rank *r = m->ranks[0];

	/* the call graph: depths 0, 1, 2; linear holds all 3 kernels (12 µs),
	 * inner holds bias + relu = 5 µs */
	struct tt_callgraph g;
	tt_callgraph_build(&g, m, 0, &all);
	uint32_t lin = find(r, "aten::linear"), addmm = find(r, "aten::addmm");
	uint32_t inner = find(r, "aten::inner"), bias = find(r, "bias");
	ck_assert_int_eq(g.depth[lin], 0);
	ck_assert_int_eq(g.depth[addmm], 1);
	ck_assert_int_eq(g.depth[inner], 2);
	ck_assert_uint_eq(g.parent[inner], addmm);
	ck_assert_uint_eq(g.nkern[lin], 3);
	ck_assert_int_eq(g.kdur[lin], 12 * US);
	ck_assert_uint_eq(g.nkern[inner], 2);
	ck_assert_int_eq(g.kdur[inner], 5 * US);
	/* bias hangs under its launch (depth 3), which is under inner */
	ck_assert_int_eq(g.depth[bias], 4);
	ck_assert_uint_eq(g.parent[g.parent[bias]], inner);
	ck_assert_uint_eq(g.nkern_linked, 3);
	tt_callgraph_free(&g);

	/* op aten::addmm: one candidate at depth 1 with 3 kernels: pattern
	 * op|gemm_a|relu|bias, count 1, GPU 7+2+3 = 12 µs, CPU 80 µs */
	struct tt_patterns p;
	tt_patterns(&p, m, &all, "aten::addmm", 3);
	ck_assert_uint_eq(p.ncandidates, 1);
	ck_assert_int_eq(p.min_depth, 1);
	ck_assert_uint_eq(p.nroots, 1);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_str_eq(p.p[0].text, "aten::addmm|gemm_a|relu|bias");
	ck_assert_uint_eq(p.p[0].count, 1);
	ck_assert_int_eq(p.p[0].gpu_ns, 12 * US);
	ck_assert_int_eq(p.p[0].cpu_ns, 80 * US);
	ck_assert_uint_eq(p.p[0].len, 4);
	ck_assert_uint_eq(p.p[0].roots[0], addmm);
	ck_assert_uint_eq(p.p[0].kernels[2], bias);
	ck_assert_int_eq(p.p[0].kernel_ns[1], 2 * US); /* relu */
	tt_patterns_free(&p);

	/* op "aten::": candidates linear (0), addmm (1), inner (2): the root is
	 * linear alone, CPU 100 µs, same kernels */
	tt_patterns(&p, m, &all, "aten::", 3);
	ck_assert_uint_eq(p.ncandidates, 3);
	ck_assert_int_eq(p.min_depth, 0);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_str_eq(p.p[0].text, "aten::linear|gemm_a|relu|bias");
	ck_assert_int_eq(p.p[0].cpu_ns, 100 * US);
	tt_patterns_free(&p);

	/* min_pattern_len 4: addmm launches only 3 -> no root, no row */
	tt_patterns(&p, m, &all, "aten::addmm", 4);
	ck_assert_uint_eq(p.ncandidates, 1);
	ck_assert_uint_eq(p.nroots, 0);
	ck_assert_uint_eq(p.n, 0);
	tt_patterns_free(&p);
	tt_model_free(m);
}
END_TEST

/* ---- two roots with the same sequence ---- */

/* three aten::mm at depth 0 on thread 1:
 *   mm 0-20:   A (100-110, 10 µs), B (110-115, 5), C (115-118, 3)
 *   mm 30-50:  A (200-212, 12),    B (212-216, 4), C (216-218, 2)
 *   mm 60-70:  A (300-301, 1),     C (301-302, 1), B (302-303, 1)
 * patterns: mm|A|B|C count 2, GPU (10+5+3)+(12+4+2) = 36 µs, CPU 20+20 =
 * 40 µs; mm|A|C|B count 1, GPU 3 µs, CPU 10 µs; count 2 first. */
static const char two_roots_trace[] =
	HEAD OP("aten::mm", 1, 0, 20) "," LAUNCH(1, 1, 1, 1) "," LAUNCH(1, 3, 1, 2) ","
	LAUNCH(1, 5, 1, 3) "," OP("aten::mm", 1, 30, 20) "," LAUNCH(1, 31, 1, 4) ","
	LAUNCH(1, 33, 1, 5) "," LAUNCH(1, 35, 1, 6) "," OP("aten::mm", 1, 60, 10) ","
	LAUNCH(1, 61, 1, 7) "," LAUNCH(1, 63, 1, 8) "," LAUNCH(1, 65, 1, 9) ","
	KERNEL("A", 100, 10, 7, 1) "," KERNEL("B", 110, 5, 7, 2) "," KERNEL("C", 115, 3, 7, 3) ","
	KERNEL("A", 200, 12, 7, 4) "," KERNEL("B", 212, 4, 7, 5) "," KERNEL("C", 216, 2, 7, 6) ","
	KERNEL("A", 300, 1, 7, 7) "," KERNEL("C", 301, 1, 7, 8) "," KERNEL("B", 302, 1, 7, 9) TAIL;

START_TEST(two_roots_same_sequence)
{
	struct tt_model *m = tl_load_json1(two_roots_trace);
	struct tt_patterns p;
	tt_patterns(&p, m, &all, "aten::mm", 3);
	ck_assert_uint_eq(p.nroots, 3);
	ck_assert_uint_eq(p.n, 2);
	ck_assert_str_eq(p.p[0].text, "aten::mm|A|B|C");
	ck_assert_uint_eq(p.p[0].count, 2);
	ck_assert_int_eq(p.p[0].gpu_ns, 36 * US);
	ck_assert_int_eq(p.p[0].cpu_ns, 40 * US);
	/* per position over the two occurrences: A 22, B 9, C 5 µs */
	ck_assert_int_eq(p.p[0].kernel_ns[0], 22 * US);
	ck_assert_int_eq(p.p[0].kernel_ns[1], 9 * US);
	ck_assert_int_eq(p.p[0].kernel_ns[2], 5 * US);
	ck_assert_str_eq(p.p[1].text, "aten::mm|A|C|B");
	ck_assert_uint_eq(p.p[1].count, 1);
	ck_assert_int_eq(p.p[1].gpu_ns, 3 * US);
	ck_assert_int_eq(p.p[1].cpu_ns, 10 * US);
	tt_patterns_free(&p);

	/* the report: HTA's columns in CSV, µs */
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.op_name = "aten::mm";
	o.format = TT_FMT_CSV;
	struct tt_table **t;
	size_t n;
	ck_assert_int_eq(tt_report_build("patterns", m, NULL, &o, &t, &n, NULL), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(t[0]->name, "frequent_cuda_kernel_sequences");
	int cc = tt_table_col(t[0], "count"), cg = tt_table_col(t[0], "GPU kernel duration (us)");
	ck_assert_int_ge(cc, 0);
	ck_assert_int_ge(cg, 0);
	ck_assert_int_ge(tt_table_col(t[0], "CPU op duration (us)"), 0);
	ck_assert_uint_eq(t[0]->nrows, 2);
	ck_assert(tt_cell_num(tt_table_cell(t[0], 0, cc)) == 2);
	ck_assert(tt_cell_num(tt_table_cell(t[0], 0, cg)) == 36 * US);
	ck_assert_uint_eq(t[1]->nrows, 6); /* 3 + 3 kernels */
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* ---- the shallowest candidate launches too few kernels ---- */

/* thread 1:
 *   aten::sum 0-10, depth 0, one kernel (K1 corr 1)
 *   my_module 20-60, depth 0
 *     aten::sum 21-50, depth 1, three kernels (corr 2, 3, 4)
 * op aten::sum: candidates at depths 0 and 1, min depth 0, the depth-0 sum
 * has 1 < 3 kernels: no root, no row, although the deeper sum has 3 (HTA).
 * Automatic choice: the aten:: names with ops launching >= 3 kernels are
 * just aten::sum (1 op); it gives no row, so nothing is chosen. */
static const char shallow_trace[] =
	HEAD OP("aten::sum", 1, 0, 10) "," LAUNCH(1, 1, 1, 1) "," ANNOT("my_module", 1, 20, 40)
	"," OP("aten::sum", 1, 21, 29) "," LAUNCH(1, 22, 1, 2) "," LAUNCH(1, 24, 1, 3) ","
	LAUNCH(1, 26, 1, 4) "," KERNEL("K1", 100, 1, 7, 1) "," KERNEL("K2", 101, 1, 7, 2) ","
	KERNEL("K3", 102, 1, 7, 3) "," KERNEL("K4", 103, 1, 7, 4) TAIL;

START_TEST(shallow_candidate_without_enough_kernels)
{
	struct tt_model *m = tl_load_json1(shallow_trace);
	struct tt_patterns p;
	tt_patterns(&p, m, &all, "aten::sum", 3);
	ck_assert_uint_eq(p.ncandidates, 2);
	ck_assert_int_eq(p.min_depth, 0);
	ck_assert_uint_eq(p.nroots, 0);
	ck_assert_uint_eq(p.n, 0);
	tt_patterns_free(&p);

	/* with min_pattern_len 1 the depth-0 sum is a root: sum|K1 */
	tt_patterns(&p, m, &all, "aten::sum", 1);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_str_eq(p.p[0].text, "aten::sum|K1");
	tt_patterns_free(&p);

	tt_patterns(&p, m, &all, NULL, 3);
	ck_assert(p.op_auto);
	ck_assert_ptr_null(p.op);
	ck_assert_uint_eq(p.ntried, 1);
	ck_assert_str_eq(p.tried[0].op, "aten::sum");
	ck_assert_uint_eq(p.tried[0].nodes, 1);
	ck_assert_uint_eq(p.tried[0].rows, 0);
	ck_assert_uint_eq(p.n, 0);
	tt_patterns_free(&p);
	tt_model_free(m);
}
END_TEST

/* ---- the backward thread hangs under "## backward ##" ---- */

/* main thread 1 (has ProfilerStep#N):
 *   ProfilerStep#1 0-1000 > aten::mm 100-200 (launch corr 1 -> K 300-310)
 *                         > ## backward ## 500-900
 *   ProfilerStep#2 1000-1100 (the last step: HTA's filter drops it)
 * backward thread 2 (has autograd::):
 *   autograd::engine::evaluate_function: MmBackward0 510-600
 *     aten::mm 520-590 (launch corr 2 -> K 700-705)
 * HTA moves evaluate_function (inside 500-900) under ## backward ##, so the
 * backward aten::mm sits at depth 3 (step 0, backward 1, evaluate 2), the
 * forward one at depth 1: op aten::mm with min length 1 keeps only the
 * forward mm: aten::mm|K, count 1, GPU 10 µs, CPU 100 µs. */
static const char bwd_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 0, 1000) "," OP("aten::mm", 1, 100, 100) ","
	LAUNCH(1, 110, 5, 1) "," ANNOT("## backward ##", 1, 500, 400) ","
	ANNOT("ProfilerStep#2", 1, 1000, 100) ","
	OP("autograd::engine::evaluate_function: MmBackward0", 2, 510, 90) ","
	OP("aten::mm", 2, 520, 70) "," LAUNCH(2, 530, 5, 2) "," KERNEL("K", 300, 10, 7, 1) ","
	KERNEL("K", 700, 5, 7, 2) TAIL;

START_TEST(backward_thread_relinked)
{
	struct tt_model *m = tl_load_json1(bwd_trace);
	const struct tt_rank *r = m->ranks[0];
	struct tt_callgraph g;
	tt_callgraph_build(&g, m, 0, &all);
	ck_assert_uint_eq(g.nrelinked, 1);
	uint32_t ev = find(r, "autograd::engine::evaluate_function: MmBackward0");
	uint32_t bwd = find(r, "## backward ##");
	ck_assert_uint_eq(g.parent[ev], bwd);
	ck_assert_int_eq(g.depth[ev], 2);
	/* ProfilerStep#2 is outside HTA's view (last step) */
	ck_assert_int_eq(g.depth[find(r, "ProfilerStep#2")], -1);
	/* the step holds both kernels now: 10 + 5 µs */
	uint32_t step = find(r, "ProfilerStep#1");
	ck_assert_uint_eq(g.nkern[step], 2);
	ck_assert_int_eq(g.kdur[step], 15 * US);
	tt_callgraph_free(&g);

	struct tt_patterns p;
	tt_patterns(&p, m, &all, "aten::mm", 1);
	ck_assert_uint_eq(p.ncandidates, 2);
	ck_assert_int_eq(p.min_depth, 1);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_str_eq(p.p[0].text, "aten::mm|K");
	ck_assert_uint_eq(p.p[0].count, 1);
	ck_assert_int_eq(p.p[0].gpu_ns, 10 * US);
	ck_assert_int_eq(p.p[0].cpu_ns, 100 * US);
	tt_patterns_free(&p);
	tt_model_free(m);
}
END_TEST

/* ---- ns timestamps: zero-length and partial overlaps do not fail ---- */

/* thread 1 (fractional µs):
 *   aten::a 0.5-10.5, aten::b 5.2-15.2 (starts inside a, ends after it),
 *   aten::z 10.5-10.5 (zero length at a's end: inside b, the top)
 *   launch in b at 6.0 (corr 1) -> K 20.2-21.9
 * b nests under a (depth 1), z under b (depth 2).  HTA's view rounds: K is
 * [21, 21] -> 0 µs; b [6, 15] -> 9 µs.  op aten::b, min length 1:
 * aten::b|K, GPU 0, CPU 9 µs. */
static const char ns_trace[] =
	HEAD OP("aten::a", 1, 0.5, 10.0) "," OP("aten::b", 1, 5.2, 10.0) ","
	OP("aten::z", 1, 10.5, 0) "," LAUNCH(1, 6.0, 1.0, 1) "," KERNEL("K", 20.2, 1.7, 7, 1) TAIL;

START_TEST(ns_partial_overlap)
{
	struct tt_model *m = tl_load_json1(ns_trace);
	const struct tt_rank *r = m->ranks[0];
	ck_assert(r->hta_round);
	struct tt_callgraph g;
	tt_callgraph_build(&g, m, 0, &all);
	ck_assert_int_eq(g.depth[find(r, "aten::a")], 0);
	ck_assert_int_eq(g.depth[find(r, "aten::b")], 1);
	ck_assert_int_eq(g.depth[find(r, "aten::z")], 2);
	tt_callgraph_free(&g);
	struct tt_patterns p;
	tt_patterns(&p, m, &all, "aten::b", 1);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_str_eq(p.p[0].text, "aten::b|K");
	ck_assert_int_eq(p.p[0].gpu_ns, 0);
	ck_assert_int_eq(p.p[0].cpu_ns, 9 * US);
	tt_patterns_free(&p);
	tt_model_free(m);
}
END_TEST

/* ---- trace diff ---- */

/* control:
 *   ProfilerStep#5 0-100: aten::add 10-20, 20-30; aten::del 30-35;
 *     aten::same 40-47; cudaLaunchKernel 60-65 corr 1
 *   ProfilerStep#6 100-200: aten::add 110-113
 *   k1 on stream 7 150-170 (corr 1): starts in step 6's window but belongs
 *     to iteration 5 through its launch
 *   k_orphan 120-121 corr 99: no launch -> iteration -1
 * test:
 *   ProfilerStep#5 0-100: aten::add x3 (10 µs each); aten::new 40-44;
 *     aten::same 50-59; cudaLaunchKernel 60-65 corr 1; k1 150-175
 * first iteration on both sides: 5.
 *   name              control     test        diff        bucket
 *   ProfilerStep#5    1, 100      1, 100      0, 0        unchanged
 *   aten::add         2, 20       3, 30       +1, +10     increased
 *   aten::del         1, 5        0, 0        -1, -5      deleted
 *   aten::new         0, 0        1, 4        +1, +4      added
 *   aten::same        1, 7        1, 9        0, +2       unchanged
 *   cudaLaunchKernel  1, 5        1, 5        0, 0        unchanged
 *   k1                1, 20       1, 25       0, +5       unchanged */
static const char diff_a[] =
	HEAD ANNOT("ProfilerStep#5", 1, 0, 100) "," OP("aten::add", 1, 10, 10) ","
	OP("aten::add", 1, 20, 10) "," OP("aten::del", 1, 30, 5) "," OP("aten::same", 1, 40, 7) ","
	LAUNCH(1, 60, 5, 1) "," ANNOT("ProfilerStep#6", 1, 100, 100) ","
	OP("aten::add", 1, 110, 3) "," KERNEL("k1", 150, 20, 7, 1) ","
	KERNEL("k_orphan", 120, 1, 7, 99) TAIL;
static const char diff_b[] =
	HEAD ANNOT("ProfilerStep#5", 1, 0, 100) "," OP("aten::add", 1, 10, 10) ","
	OP("aten::add", 1, 20, 10) "," OP("aten::add", 1, 30, 10) "," OP("aten::new", 1, 40, 4)
	"," OP("aten::same", 1, 50, 9) "," LAUNCH(1, 60, 5, 1) "," KERNEL("k1", 150, 25, 7, 1) TAIL;

static const struct tt_diff_row *row(const struct tt_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	ck_abort_msg("no row %s", name);
	return NULL;
}

START_TEST(diff_two_traces)
{
	struct tt_model *a = tl_load_json1(diff_a), *b = tl_load_json1(diff_b);
	const struct tt_rank *ra = a->ranks[0];

	/* iterations: k1 inherits 5 from its launch, k_orphan has none, the
	 * add of step 6 is 6 */
	int64_t *it = malloc(ra->nev * sizeof(*it));
	ck_assert_uint_eq(tt_diff_iterations(ra, false, it), 2);
	ck_assert_int_eq(it[find(ra, "k1")], 5);
	ck_assert_int_eq(it[find(ra, "k_orphan")], -1);
	ck_assert_int_eq(it[find(ra, "ProfilerStep#6")], 6);
	ck_assert_int_eq(it[find(ra, "cudaLaunchKernel")], 5);
	free(it);

	struct tt_diff d;
	struct tt_diff_opts o = {.iteration = -1};
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.n, 7);
	ck_assert_int_eq(d.side[0].iteration, 5);
	ck_assert_int_eq(d.side[1].iteration, 5);
	ck_assert_uint_eq(d.side[0].nsteps, 2);
	/* rows by name, bytewise */
	ck_assert_str_eq(d.rows[0].name, "ProfilerStep#5");
	ck_assert_str_eq(d.rows[6].name, "k1");
	const struct tt_diff_row *w = row(&d, "aten::add");
	ck_assert_int_eq(w->count[0], 2);
	ck_assert_int_eq(w->count[1], 3);
	ck_assert_int_eq(w->dur[0], 20 * US);
	ck_assert_int_eq(w->diff_dur, 10 * US);
	ck_assert_int_eq(w->sign, '+');
	ck_assert_int_eq(w->change, TT_DIFF_INCREASED);
	w = row(&d, "aten::del");
	ck_assert_int_eq(w->diff_count, -1);
	ck_assert_int_eq(w->sign, '-');
	ck_assert_int_eq(w->change, TT_DIFF_DELETED);
	w = row(&d, "aten::new");
	ck_assert_int_eq(w->count[0], 0);
	ck_assert_int_eq(w->dur[1], 4 * US);
	ck_assert_int_eq(w->change, TT_DIFF_ADDED);
	w = row(&d, "aten::same");
	ck_assert_int_eq(w->diff_count, 0);
	ck_assert_int_eq(w->diff_dur, 2 * US);
	ck_assert_int_eq(w->sign, '=');
	ck_assert_int_eq(w->change, TT_DIFF_UNCHANGED);
	w = row(&d, "k1");
	ck_assert_int_eq(w->dur[0], 20 * US);
	ck_assert_int_eq(w->dur[1], 25 * US);
	ck_assert_uint_eq(d.nchange[TT_DIFF_UNCHANGED], 4);
	/* by impact: aten::add (10) first, then k1 (5) and aten::del (-5):
	 * same |duration|, same |count| 0 vs 1 -> del first */
	tt_diff_sort_impact(&d);
	ck_assert_str_eq(d.rows[0].name, "aten::add");
	ck_assert_str_eq(d.rows[1].name, "aten::del");
	ck_assert_str_eq(d.rows[2].name, "k1");
	tt_diff_free(&d);

	/* GPU only: k1 alone; CPU only: the other 6 */
	o.device = TT_DIFF_GPU;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.rows[0].name, "k1");
	tt_diff_free(&d);
	o.device = TT_DIFF_CPU;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.n, 6);
	tt_diff_free(&d);

	/* iteration 6: the test side has no ProfilerStep#6 (HTA raises) */
	o.device = TT_DIFF_ALL;
	o.iteration = 6;
	struct tt_err err;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, &err), -TT_E_USAGE);
	tt_diff_free(&d);

	/* the report: HTA's column names with the labels */
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	ro.format = TT_FMT_CSV;
	struct tt_table **t;
	size_t n;
	ro.iteration = TT_DIFF_FIRST;
	ck_assert_int_eq(tt_report_build("diff", a, b, &ro, &t, &n, NULL), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(t[2]->name, "compare_traces");
	ck_assert_int_eq(tt_table_col(t[2], "name"), 0);
	ck_assert_int_eq(tt_table_col(t[2], "Control_counts"), 1);
	ck_assert_int_eq(tt_table_col(t[2], "Test_total_duration"), 4);
	ck_assert_int_eq(tt_table_col(t[2], "counts_change_categories"), 7);
	ck_assert_uint_eq(t[3]->nrows, 7);
	ck_assert_str_eq(tt_table_cell(t[3], 0, 0)->v.s, "added");
	ck_assert_str_eq(tt_table_cell(t[3], 0, 1)->v.s, "aten::new");
	tt_tables_free(t, n);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

START_TEST(short_names)
{
	static const char *const cases[][2] = {
		{"void foo<int>(float*)", "foo"},
		{"Memset (Device)", "Memset (Device)"},
		{"Memcpy DtoD (Device -> Device)", "Memcpy DtoD (Device -> Device)"},
		{"## backward ##", "## backward ##"},
		{"autograd::engine::evaluate_function: AddmmBackward0",
		 "autograd::engine::evaluate_function: AddmmBackward0"},
		{"autograd::engine::evaluate_function: torch::autograd::CppNode<X<&y> >",
		 "torch::autograd::CppNode"},
		{"void at::native::(anonymous namespace)::k<1>(x)", "at::native::::k"},
		{"enumerate(DataLoader)#_Iter.__next__", "enumerate#_Iter.__next__"},
		{"std::enable_if<!(false), void>::type internal::gemvx::kernel<int>(int)",
		 "internal::gemvx::kernel"},
		{"a->b(c)", "ab"},
		{"aten::mm", "aten::mm"},
	};
	char buf[128];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = tt_diff_short_name(cases[i][0], buf);
		ck_assert_str_eq(buf, cases[i][1]);
		ck_assert_uint_eq(n, strlen(cases[i][1]));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("patterns");
	TCase *tc = tcase_create("patterns");
	tcase_add_test(tc, three_kernels_under_nested_children);
	tcase_add_test(tc, two_roots_same_sequence);
	tcase_add_test(tc, shallow_candidate_without_enough_kernels);
	tcase_add_test(tc, backward_thread_relinked);
	tcase_add_test(tc, ns_partial_overlap);
	tcase_add_test(tc, diff_two_traces);
	tcase_add_test(tc, short_names);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
