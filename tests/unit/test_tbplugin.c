/* analysis room: the TensorBoard plugin's definitions (steps, Overview step
 * breakdown, the op tree) on tiny hand-made traces.  Every expected number
 * is worked out by hand in the comment above it (µs in the traces, ns in
 * the model). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/advice.h"
#include "tracetop/report.h"
#include "tracetop/tbviews.h"
#include "tracetop/testing.h"
#include "tbfix.h"

/* ---- steps: the plugin's rules ---- */

/* A memcpy (corr 9, launched at 5, before any step) runs 10-120; step #1
 * (CPU 100-200) launches at 110 a kernel running 150-300.  The memcpy is no
 * step's and ends before step #1's first GPU op (150), so step #1 starts at
 * its end, 120 (not at its CPU start, 100), and ends at max(200, 300) =
 * 300.  Step #2 (300-400) launches 5 kernels (the last ends at 405): [300,
 * 405).  Step #3 (400-500) launches 3, fewer than 80 % of 5: dropped, and
 * step #4 (500-600) launches none: dropped too. */
static const char first_step_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 100, 100) "," ANNOT("ProfilerStep#2", 1, 300, 100) ","
	ANNOT("ProfilerStep#3", 1, 400, 100) "," ANNOT("ProfilerStep#4", 1, 500, 100) ","
	LAUNCH(1, 5, 2, 9) "," MEMCPYC(10, 110, 7, 9) ","
	LAUNCH(1, 110, 5, 1) "," KERNEL("k1", 150, 150, 7, 1) ","
	LAUNCH(1, 310, 2, 2) "," LAUNCH(1, 320, 2, 3) "," LAUNCH(1, 330, 2, 4) ","
	LAUNCH(1, 340, 2, 5) "," LAUNCH(1, 350, 2, 6) ","
	KERNEL("k2", 360, 5, 7, 2) "," KERNEL("k2", 370, 5, 7, 3) "," KERNEL("k2", 380, 5, 7, 4) ","
	KERNEL("k2", 390, 5, 7, 5) "," KERNEL("k2", 400, 5, 7, 6) ","
	LAUNCH(1, 410, 2, 20) "," LAUNCH(1, 420, 2, 21) "," LAUNCH(1, 430, 2, 22) ","
	KERNEL("k3", 440, 5, 7, 20) "," KERNEL("k3", 450, 5, 7, 21) ","
	KERNEL("k3", 460, 5, 7, 22) TAIL;

START_TEST(steps_first_start_and_tail)
{
	struct tt_model *m = load1(first_step_trace);
	struct tt_steps s;
	tt_steps_compute(m, &all, &s);
	ck_assert_uint_eq(s.nsteps, 4);
	const struct tt_steps_rank *sr = &s.ranks[0];
	ck_assert_uint_eq(sr->nkept, 2);
	ck_assert_int_eq(s.steps[0].t0, 120 * US);
	ck_assert_int_eq(s.steps[0].t1, 300 * US);
	ck_assert_uint_eq(s.steps[0].ngpu, 1);
	ck_assert_int_eq(s.steps[1].t0, 300 * US);
	ck_assert_int_eq(s.steps[1].t1, 405 * US);
	ck_assert_uint_eq(s.steps[1].ngpu, 5);
	ck_assert_uint_eq(s.steps[2].ngpu, 3);
	ck_assert(s.steps[2].dropped);
	ck_assert(s.steps[3].dropped);
	ck_assert_int_eq(sr->t0, 120 * US);
	ck_assert_int_eq(sr->t1, 405 * US);
	ck_assert_int_eq(sr->last_num, 2);
	tt_steps_free(&s);
	tt_model_free(m);
}
END_TEST

/* No ProfilerStep: one pseudo-step over the cpu_ops (50-350; the
 * user_annotation at 0-400 does not count), extended to the end of the GPU
 * op its runtime call launched (kernel 300-380): [50, 380). */
static const char pseudo_trace[] =
	HEAD ANNOT("## forward ##", 1, 0, 400) "," OP("aten::mm", 1, 50, 100) ","
	OP("aten::add", 1, 250, 100) "," LAUNCH(1, 260, 5, 1) ","
	KERNEL("k", 300, 80, 7, 1) TAIL;

START_TEST(steps_pseudo)
{
	struct tt_model *m = load1(pseudo_trace);
	struct tt_steps s;
	tt_steps_compute(m, &all, &s);
	ck_assert_uint_eq(s.nsteps, 1);
	ck_assert(s.steps[0].pseudo);
	ck_assert(s.ranks[0].pseudo);
	ck_assert_int_eq(s.steps[0].t0, 50 * US);
	ck_assert_int_eq(s.steps[0].t1, 380 * US);
	ck_assert_int_eq(s.ranks[0].first_num, -1);
	tt_steps_free(&s);
	tt_model_free(m);
}
END_TEST

/* ---- Overview step-time breakdown ---- */

/* One step 0-1000 (CPU span; no GPU op runs past it).  Kernel gemm 100-300;
 * memcpy 250-400 (corr 3); memset 380-450; an NCCL kernel 600-700 (by
 * name: communication); nccl:all_reduce (user_annotation) 550-650; runtime
 * calls 20-30 and 40-45 and 560-565; DataLoader 700-800; aten::mm 10-60
 * and aten::add 780-900 (CPU Exec).
 *   Kernel        100-300                                  = 200
 *   Memcpy        300-400                                  = 100
 *   Memset        400-450                                  =  50
 *   Communication 550-700 (annotation 550-650, kernel to 700) = 150
 *   Runtime       20-30, 40-45 (560-565 is communication)  =  15
 *   DataLoader    700-800                                  = 100
 *   CPU Exec      10-20, 30-40, 45-60, 800-900             = 135
 *   Other         1000 - 750                               = 250 */
static const char ov_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 0, 1000) "," OP("aten::mm", 1, 10, 50) ","
	LAUNCH(1, 20, 10, 1) "," LAUNCH(1, 40, 5, 3) ","
	ANNOT("nccl:all_reduce", 1, 550, 100) "," LAUNCH(1, 560, 5, 2) ","
	ANNOT("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 700, 100) ","
	OP("aten::add", 1, 780, 120) ","
	KERNEL("gemm", 100, 200, 7, 1) "," MEMCPYC(250, 150, 7, 3) "," MEMSET(380, 70, 7) ","
	KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 600, 100, 20, 2) TAIL;

START_TEST(overview_breakdown)
{
	struct tt_model *m = load1(ov_trace);
	struct tt_overview v;
	tt_overview_compute(m, &all, &v);
	ck_assert_uint_eq(v.nsteps, 1);
	const struct tt_ov_step *s = &v.steps[0];
	ck_assert_int_eq(s->t1 - s->t0, 1000 * US);
	static const int64_t want[TT_OV_NCAT] = {200, 100, 50, 150, 15, 100, 135, 250};
	int64_t sum = 0;
	for (int c = 0; c < TT_OV_NCAT; c++) {
		ck_assert_msg(s->cost[c] == want[c] * US, "%s: %lld", tt_ov_cat_name((enum tt_ov_cat)c),
			      (long long)s->cost[c]);
		sum += s->cost[c];
	}
	ck_assert_int_eq(sum, 1000 * US);
	/* the NCCL kernel is launched inside nccl:all_reduce: linked */
	ck_assert_uint_eq(v.ranks[0].comm_kernels_linked, 1);
	ck_assert_uint_eq(v.ranks[0].comm_kernels_by_name, 0);
	ck_assert(v.ranks[0].nccl);
	/* distributed overlap: computation = kernels 200, communication
	 * 550-700 = 150, overlap 0, other 650 */
	ck_assert_int_eq(s->comp_ns, 200 * US);
	ck_assert_int_eq(s->comm_ns, 150 * US);
	ck_assert_int_eq(s->overlap_ns, 0);
	ck_assert_int_eq(s->other_ns, 650 * US);
	tt_overview_free(&v);
	tt_model_free(m);
}
END_TEST

/* ---- the GPU summary over the steps window ---- */

/* ProfilerStep#1 (CPU 0-1000) launches A 100-300 (blocks per SM 0.5, occ.
 * 40), B 200-400 on another stream (0.75, 60) and C 900-1100 (2, 10): the
 * window is [0, 1100).  E 1200-1300 (1, 90), launched at 1050, lies
 * outside it.
 *   GPU Utilization  (300 + 200) / 1100 = 45.4545 %
 *   Est. SM Eff.     100-200 0.5, 200-300 min(1.25, 1), 300-400 0.75,
 *                    900-1100 min(2, 1): 425 / 1100 = 38.6364 %
 *   Est. Occupancy   (200*40 + 200*60 + 200*10) / 600 = 36.6667 %
 *   tracetop's occupancy per kernel time (E too): 31000 / 700 = 44.2857 % */
#define BK(name, ts, dur, stream, corr, bps, occ)                                            \
	KERNELA(name, ts, dur, stream, corr,                                                 \
		",\"blocks per SM\":" #bps ",\"est. achieved occupancy %\":" #occ)
static const char gpu_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 0, 1000) "," LAUNCH(1, 10, 5, 1) "," LAUNCH(1, 20, 5, 2) ","
	LAUNCH(1, 30, 5, 3) "," LAUNCH(1, 1050, 5, 4) ","
	BK("A", 100, 200, 7, 1, 0.5, 40) "," BK("B", 200, 200, 8, 2, 0.75, 60) ","
	BK("C", 900, 200, 7, 3, 2, 10) "," BK("E", 1200, 100, 7, 4, 1, 90) TAIL;

START_TEST(gpu_summary)
{
	struct tt_model *m = load1(gpu_trace);
	struct tt_util u;
	tt_util_compute(m, &all, 10, &u);
	ck_assert_uint_eq(u.ndevs, 1);
	const struct tt_util_dev *d = &u.devs[0];
	ck_assert_int_eq(d->win_t0, 0);
	ck_assert_int_eq(d->win_t1, 1100 * US);
	ck_assert_double_eq_tol(d->gpu_util_pct, 100.0 * 500 / 1100, 1e-9);
	ck_assert_double_eq_tol(d->est_sm_eff_pct, 100.0 * 425 / 1100, 1e-9);
	ck_assert_double_eq_tol(d->est_occ_pct, 22000.0 / 600, 1e-9);
	ck_assert_double_eq_tol(d->occ_ktime_pct, 31000.0 / 700, 1e-9);
	ck_assert_uint_eq(d->nkernels_bps, 4);
	ck_assert(d->est_sm_eff_pct <= d->gpu_util_pct);
	tt_util_free(&u);
	tt_model_free(m);
}
END_TEST

/* ---- memory per operator ---- */

/* aten::linear 100-400 > aten::empty 110-120 (GPU 0: +1000 at 112; CPU: +64
 * at 115), aten::mm 200-300 (+500 at 210, -500 at 250); linear itself
 * allocates 200 at 350; +300 at 500 lies in the step but in no op: left
 * out.  GPU 0 rows:
 *   aten::linear  self: increase 200, 1 alloc of 200; with the ops below:
 *                 increase 1200, 3 allocs of 1700
 *   aten::empty   1000 / 1 / 1000 both ways
 *   aten::mm      self increase 0, 1 alloc of 500
 * CPU: aten::empty 64, aten::linear 64 with the ops below. */
static const char memop_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 0, 1000) "," OP("aten::linear", 1, 100, 300) ","
	OP("aten::empty", 1, 110, 10) "," OP("aten::mm", 1, 200, 100) ","
	MEM(112, 1000, 1000, 2048, 4096, 0) "," MEM(115, 64, 64, 64, 8192, -1) ","
	MEM(210, 500, 1500, 2048, 12288, 0) "," MEM(250, -500, 1000, 2048, 12288, 0) ","
	MEM(350, 200, 1200, 2048, 16384, 0) "," MEM(500, 300, 1500, 2048, 20480, 0) TAIL;

static const struct tt_mem_op *mem_op(const struct tt_mem *mm, int64_t dev, const char *name)
{
	for (size_t i = 0; i < mm->nops; i++)
		if (mm->ops[i].device == dev && strcmp(mm->ops[i].name, name) == 0)
			return &mm->ops[i];
	return NULL;
}

START_TEST(memory_per_operator)
{
	struct tt_model *m = load1(memop_trace);
	struct tt_mem mm;
	tt_mem_compute(m, &all, &mm);
	ck_assert_uint_eq(mm.nops, 5);
	const struct tt_mem_op *x = mem_op(&mm, 0, "aten::linear");
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->calls, 1);
	ck_assert_int_eq(x->self_increase, 200);
	ck_assert_int_eq(x->self_alloc_bytes, 200);
	ck_assert_uint_eq(x->self_allocs, 1);
	ck_assert_int_eq(x->increase, 1200);
	ck_assert_int_eq(x->alloc_bytes, 1700);
	ck_assert_uint_eq(x->allocs, 3);
	x = mem_op(&mm, 0, "aten::mm");
	ck_assert_int_eq(x->self_increase, 0);
	ck_assert_int_eq(x->self_alloc_bytes, 500);
	x = mem_op(&mm, -1, "aten::linear");
	ck_assert_int_eq(x->increase, 64);
	ck_assert_int_eq(x->self_increase, 0);
	ck_assert_ptr_nonnull(mem_op(&mm, -1, "aten::empty"));
	/* the peak of Total Allocated: 1500 (at 210, the first maximum) */
	for (size_t i = 0; i < mm.ndevs; i++)
		if (mm.devs[i].device == 0) {
			ck_assert_int_eq(mm.devs[i].peak_alloc, 1500);
			ck_assert_int_eq(mm.devs[i].peak_ts, 210 * US);
			ck_assert_uint_eq(mm.devs[i].nwith_addr, mm.devs[i].nevents);
		}
	tt_mem_free(&mm);
	tt_model_free(m);
}
END_TEST

/* ---- advice: the plugin's recommendations ---- */

/* Compute capability 8.0.  Step 0-1000; DataLoader 0-200 (20 % of the
 * step); DataParallel.forward 300-900 > aten::mm 310-400 launches sgemm on
 * GPU 0 (400-450) and on GPU 1 (400-420): DataParallel on 2 GPUs; aten::mm
 * is tensor-core eligible and no kernel uses tensor cores: 100 % eligible;
 * DistributedDataParallel.forward and no nccl op; GPU utilization 50 / 1000
 * and 20 / 1000: both under 50 %. */
#define KERNEL1(name, ts, dur, stream, corr)                                                 \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #stream     \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"device\":1,\"stream\":" #stream            \
	",\"correlation\":" #corr "}}"
static const char advice_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"deviceProperties\": [{\"id\": 0, "
	"\"computeMajor\": 8, \"computeMinor\": 0, \"totalGlobalMem\": 1000000}, {\"id\": 1, "
	"\"computeMajor\": 8, \"computeMinor\": 0}], \"traceEvents\": ["
	ANNOT("ProfilerStep#1", 1, 0, 1000) ","
	ANNOT("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 0, 200) ","
	OP("DataParallel.forward", 1, 300, 600) "," OP("aten::mm", 1, 310, 90) ","
	LAUNCH(1, 320, 5, 1) "," LAUNCH(1, 330, 5, 2) ","
	OP("DistributedDataParallel.forward", 1, 950, 40) ","
	KERNEL("ampere_sgemm_128x64_nn", 400, 50, 7, 1) "," KERNEL1("ampere_sgemm_128x64_nn", 400, 20, 7, 2)
	TAIL;

static const struct tt_finding *finding(const struct tt_advice *a, enum tt_finding_kind k)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].kind == k)
			return &a->v[i];
	return NULL;
}

START_TEST(advice_plugin_topics)
{
	struct tt_model *m = load1(advice_trace);
	struct tt_advice a;
	const struct tt_advice_opts ao = {30, 50, 100};
	tt_advice_compute(m, &all, &ao, &a);
	const struct tt_finding *x = finding(&a, TT_FIND_DATALOADER);
	ck_assert_ptr_nonnull(x);
	ck_assert_double_eq_tol(x->x[0], 20.0, 1e-9);
	x = finding(&a, TT_FIND_DATA_PARALLEL);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->n[0], 2);
	ck_assert_ptr_nonnull(finding(&a, TT_FIND_DDP_NO_NCCL));
	x = finding(&a, TT_FIND_AMP);
	ck_assert_ptr_nonnull(x);
	ck_assert_double_eq_tol(x->x[0], 100.0, 1e-9);
	x = finding(&a, TT_FIND_LOW_GPU_UTIL);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->n[0], 2);
	ck_assert_double_eq_tol(x->x[0], 2.0, 1e-9);
	ck_assert_ptr_null(finding(&a, TT_FIND_COMM_SHARE));
	ck_assert_str_eq(tt_finding_topic(TT_FIND_AMP), "tensor_cores");
	tt_advice_free(&a);
	tt_model_free(m);
}
END_TEST

/* A finding's name is at most 127 bytes: a longer kernel name loses its
 * argument list "(...)" first (here 60 bytes of template, then 93 of
 * parameters: the template stays whole), then its end, cut before a UTF-8
 * character and marked "…".  Both kernels run at 5 % occupancy, so the
 * longer one (120 µs) is the low-occupancy finding's name. */
#define T60 "void k<aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa>"
#define P93 "(float*, float*, float*, float*, float*, float*, float*, float*, " \
	     "float*, float*, float*, int)"
#define ULONG "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
	     "x"
#define OCC5 ",\"est. achieved occupancy %\":5"
static const char long_name_trace[] =
	HEAD LAUNCH(1, 0, 5, 1) "," LAUNCH(1, 10, 5, 2) ","
	KERNELA(T60 P93, 20, 120, 7, 1, OCC5) "," KERNELA(ULONG, 200, 100, 7, 2, OCC5) TAIL;

static const char long_name_trace2[] =
	HEAD LAUNCH(1, 0, 5, 1) "," LAUNCH(1, 10, 5, 2) ","
	KERNELA(T60 P93, 20, 100, 7, 1, OCC5) "," KERNELA(ULONG, 200, 120, 7, 2, OCC5) TAIL;

START_TEST(advice_long_names)
{
	const struct tt_advice_opts ao = {30, 50, 100};
	struct tt_advice a;
	struct tt_model *m = load1(long_name_trace);
	tt_advice_compute(m, &all, &ao, &a);
	const struct tt_finding *x = finding(&a, TT_FIND_LOW_OCC);
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(x->name, T60);
	tt_advice_free(&a);
	tt_model_free(m);

	m = load1(long_name_trace2);
	tt_advice_compute(m, &all, &ao, &a);
	x = finding(&a, TT_FIND_LOW_OCC);
	ck_assert_ptr_nonnull(x);
	/* 62 "é" (124 bytes), then "…": 127 bytes */
	ck_assert_uint_eq(strlen(x->name), 127);
	ck_assert_int_eq(memcmp(x->name, ULONG, 124), 0);
	ck_assert_str_eq(x->name + 124, "\xe2\x80\xa6");
	tt_advice_free(&a);
	tt_model_free(m);
}
END_TEST

/* ---- the plugin's op tree ---- */

/* aten::linear 0-100 > aten::linear 10-90 (merged: same name, only child)
 * > aten::mm 20-60 > runtime 30-35; aten::bad 80-120 partly overlaps the
 * open aten::linear: dropped.  A user_annotation "## fwd ##" is no node. */
static const char tree_trace[] =
	HEAD ANNOT("## fwd ##", 1, 0, 200) "," OP("aten::linear", 1, 0, 100) ","
	OP("aten::linear", 1, 10, 80) "," OP("aten::mm", 1, 20, 40) "," LAUNCH(1, 30, 5, 1) ","
	OP("aten::bad", 1, 80, 40) "," KERNEL("k", 40, 10, 7, 1) TAIL;

START_TEST(tree_rules)
{
	struct tt_model *m = load1(tree_trace);
	struct tt_ops p;
	tt_ops_compute(m, &all, false, &p);
	/* rows: aten::linear (1 call: the inner one merged), aten::mm */
	ck_assert_uint_eq(p.n, 2);
	const struct tt_op_row *lin = NULL, *mm = NULL;
	for (size_t i = 0; i < p.n; i++) {
		if (strcmp(p.rows[i].name, "aten::linear") == 0)
			lin = &p.rows[i];
		if (strcmp(p.rows[i].name, "aten::mm") == 0)
			mm = &p.rows[i];
	}
	ck_assert_ptr_nonnull(lin);
	ck_assert_ptr_nonnull(mm);
	ck_assert_uint_eq(lin->calls, 1);
	/* linear: host self = 100 - mm 40 = 60; mm: 40 - runtime 5 = 35 */
	ck_assert_int_eq(lin->host_total, 100 * US);
	ck_assert_int_eq(lin->host_self, 60 * US);
	ck_assert_int_eq(mm->host_self, 35 * US);
	ck_assert_int_eq(mm->dev_self, 10 * US);
	ck_assert_int_eq(lin->dev_total, 10 * US);
	ck_assert_int_eq(lin->dev_self, 0);
	tt_ops_free(&p);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tbplugin");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, steps_first_start_and_tail);
	tcase_add_test(tc, steps_pseudo);
	tcase_add_test(tc, overview_breakdown);
	tcase_add_test(tc, tree_rules);
	tcase_add_test(tc, gpu_summary);
	tcase_add_test(tc, memory_per_operator);
	tcase_add_test(tc, advice_plugin_topics);
	tcase_add_test(tc, advice_long_names);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
