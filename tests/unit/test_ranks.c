/* Many ranks: distributions and robust z-scores worked out by hand, the
 * metrics of hand-made ranks, the outliers report, the distribution table,
 * the demo's planted stragglers, and the heatmap pane drawn headless. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/demo.h"
#include "tracetop/keymap.h"
#include "tracetop/ranks.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"
#include "testlib.h"
#include "../../src/tui/pane.h"

#define US 1000 /* ns */
#define EPS 1e-9

/* ---- distributions ---- */

START_TEST(test_quantiles)
{
	/* numpy.quantile, linear: index (n-1)q between neighbours */
	const double v[] = {1, 2, 3, 4, 100};
	ck_assert_double_eq_tol(tt_quantile(v, 5, 0.0), 1, EPS);
	ck_assert_double_eq_tol(tt_quantile(v, 5, 0.1), 1.4, EPS);  /* 0.4: 1 + 0.4 */
	ck_assert_double_eq_tol(tt_quantile(v, 5, 0.5), 3, EPS);
	ck_assert_double_eq_tol(tt_quantile(v, 5, 0.9), 61.6, EPS); /* 3.6: 100 - 96 * 0.4 */
	ck_assert_double_eq_tol(tt_quantile(v, 5, 1.0), 100, EPS);
	const double e[] = {1, 2, 3, 4};
	ck_assert_double_eq_tol(tt_quantile(e, 4, 0.5), 2.5, EPS); /* even count: the mean */
	ck_assert_double_eq_tol(tt_quantile(e, 1, 0.9), 1, EPS);
	ck_assert(isnan(tt_quantile(e, 0, 0.5)));
}
END_TEST

START_TEST(test_dist_pct)
{
	/* percentages 3, 1, NaN, 100, 2, 4 (NaN left out):
	 * sorted 1 2 3 4 100: min 1 (index 1), p10 1.4, median 3, p90 61.6,
	 * max 100 (index 3); |x - 3| = 0 2 97 1 1 -> sorted 0 1 1 2 97, MAD 1;
	 * scale max(1.4826 * 1, 0.5) = 1.4826 */
	const double v[] = {3, 1, NAN, 100, 2, 4};
	struct tt_rdist d;
	tt_rdist_of(v, 6, true, &d);
	ck_assert_uint_eq(d.n, 5);
	ck_assert_double_eq_tol(d.min, 1, EPS);
	ck_assert_double_eq_tol(d.p10, 1.4, EPS);
	ck_assert_double_eq_tol(d.median, 3, EPS);
	ck_assert_double_eq_tol(d.p90, 61.6, EPS);
	ck_assert_double_eq_tol(d.max, 100, EPS);
	ck_assert_uint_eq(d.min_i, 1);
	ck_assert_uint_eq(d.max_i, 3);
	ck_assert_double_eq_tol(d.mad, 1, EPS);
	ck_assert_double_eq_tol(d.scale, 1.4826, EPS);
	ck_assert_double_eq_tol(d.min_diff, 2, EPS);
	/* 100: (100 - 3) / 1.4826 = 65.4256...; far and 97 points away */
	ck_assert_double_eq_tol(tt_robust_z(&d, 100), 97 / 1.4826, 1e-9);
	ck_assert(tt_rdist_outlier(&d, 100));
	/* 1: -2 / 1.4826 = -1.349: not an outlier */
	ck_assert_double_eq_tol(tt_robust_z(&d, 1), -2 / 1.4826, 1e-9);
	ck_assert(!tt_rdist_outlier(&d, 1));
	/* 8.2: z = 5.2 / 1.4826 = 3.507 >= 3.5 and 5.2 >= 2 points */
	ck_assert(tt_rdist_outlier(&d, 8.2));
	/* 8.1: z = 3.440 < 3.5 */
	ck_assert(!tt_rdist_outlier(&d, 8.1));
	ck_assert(isnan(tt_robust_z(&d, NAN)));

	/* a constant percentage: MAD 0, the floor 0.5 points is the unit;
	 * 12 vs median 10: z 4 but only 2 points away -> an outlier (>= 2);
	 * 11.5: z 3, not one */
	const double c[] = {10, 10, 10, 10};
	tt_rdist_of(c, 4, true, &d);
	ck_assert_double_eq_tol(d.mad, 0, EPS);
	ck_assert_double_eq_tol(d.scale, 0.5, EPS);
	ck_assert_double_eq_tol(tt_robust_z(&d, 12), 4, EPS);
	ck_assert(tt_rdist_outlier(&d, 12));
	ck_assert(!tt_rdist_outlier(&d, 11.5));

	/* nothing at all */
	const double none[] = {NAN, NAN};
	tt_rdist_of(none, 2, true, &d);
	ck_assert_uint_eq(d.n, 0);
	ck_assert(isnan(d.median));
	ck_assert_uint_eq(d.min_i, SIZE_MAX);
	ck_assert(isnan(tt_robust_z(&d, 1)));
	ck_assert(!tt_rdist_outlier(&d, 1));
}
END_TEST

START_TEST(test_dist_time)
{
	/* step times 100, 100, 100, 101, 130 ms: median 100 ms, |x - m| = 0 0 0
	 * 1 30 ms -> MAD 0; the floor is 1 % of the median = 1 ms; 101 ms is
	 * z 1; 130 ms is z 30 and 30 % away (>= 5 %): an outlier; 104 ms: z 4
	 * but only 4 % away: not one */
	const double v[] = {100e6, 100e6, 100e6, 101e6, 130e6};
	struct tt_rdist d;
	tt_rdist_of(v, 5, false, &d);
	ck_assert_double_eq_tol(d.median, 100e6, EPS);
	ck_assert_double_eq_tol(d.mad, 0, EPS);
	ck_assert_double_eq_tol(d.scale, 1e6, EPS);
	ck_assert_double_eq_tol(d.min_diff, 5e6, EPS);
	ck_assert_double_eq_tol(tt_robust_z(&d, 101e6), 1, EPS);
	ck_assert_double_eq_tol(tt_robust_z(&d, 130e6), 30, EPS);
	ck_assert(tt_rdist_outlier(&d, 130e6));
	ck_assert(!tt_rdist_outlier(&d, 104e6));
	/* tiny times: the floor is at least 1 µs */
	const double t[] = {10e3, 10e3, 10e3};
	tt_rdist_of(t, 3, false, &d);
	ck_assert_double_eq_tol(d.scale, 1000, EPS);
	/* the first of equal extremes */
	ck_assert_uint_eq(d.min_i, 0);
	ck_assert_uint_eq(d.max_i, 0);
}
END_TEST

START_TEST(test_metric_names)
{
	for (int k = 0; k < TT_RM_COUNT; k++)
		ck_assert_int_eq(tt_rmetric_lookup(tt_rmetric_name((enum tt_rmetric)k)), k);
	ck_assert_int_eq(tt_rmetric_lookup("nope"), -1);
	ck_assert(tt_rmetric_is_pct(TT_RM_IDLE));
	ck_assert(!tt_rmetric_is_pct(TT_RM_STEP));
	char buf[32];
	tt_rmetric_fmt(TT_RM_IDLE, 41.26, buf, sizeof(buf));
	ck_assert_str_eq(buf, "41 %");
	tt_rmetric_fmt(TT_RM_IDLE, 8.84, buf, sizeof(buf));
	ck_assert_str_eq(buf, "8.8 %");
	tt_rmetric_fmt(TT_RM_STEP, 12.34e6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12.3 ms");
	tt_rmetric_fmt(TT_RM_STEP, NAN, buf, sizeof(buf));
	ck_assert_str_eq(buf, "-");
}
END_TEST

/* ---- three hand-made ranks ---- */

#define KERNEL(name, pid, ts, dur, stream, corr)                                           \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":" #pid                 \
	",\"tid\":" #stream ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"stream\":" #stream  \
	",\"correlation\":" #corr "}}"
#define STEP(ts, dur)                                                                       \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":100,"   \
	"\"tid\":100,\"ts\":" #ts ",\"dur\":" #dur "}"
#define NCCL "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"

/* (µs) rank 0 on host a, GPU 3: gemm [0,100) on stream 7, the all-reduce
 * [50,150) on stream 13, a step of 200.
 * rank 1 on host a, GPU 1: gemm [0,100), all-reduce [80,150), step 200.
 * rank 2 on host b, GPU 0: gemm [0,100), all-reduce [110,190), gemm2
 * [130,140) on stream 7 launched at 120 (after gemm ended: host wait), a
 * step of 300. */
static const char *const hand[3] = {
	"{\"distributedInfo\":{\"rank\":0},\"host_name\":\"a\",\"traceEvents\":[" STEP(0, 200)
	"," KERNEL("gemm", 3, 0, 100, 7, 1) "," KERNEL(NCCL, 3, 50, 100, 13, 2) "]}",
	"{\"distributedInfo\":{\"rank\":1},\"host_name\":\"a\",\"traceEvents\":[" STEP(0, 200)
	"," KERNEL("gemm", 1, 0, 100, 7, 1) "," KERNEL(NCCL, 1, 80, 70, 13, 2) "]}",
	"{\"distributedInfo\":{\"rank\":2},\"host_name\":\"b\",\"traceEvents\":[" STEP(0, 300)
	"," KERNEL("gemm", 0, 0, 100, 7, 1) "," KERNEL(NCCL, 0, 110, 80, 13, 2)
	",{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,"
	"\"tid\":100,\"ts\":120,\"dur\":5,\"args\":{\"correlation\":5}},"
	KERNEL("gemm2", 0, 130, 10, 7, 5) "]}",
};

static struct tt_model *load_hand(void)
{
	return tl_load_json(hand, 3);
}

START_TEST(test_hand_metrics)
{
	struct tt_model *m = load_hand();
	struct tt_aopts o = {0};
	struct tt_ranks *s = tt_ranks_compute(m, &o, 30);
	ck_assert_uint_eq(s->n, 3);
	const struct tt_rank_metrics *r0 = &s->rows[0], *r1 = &s->rows[1], *r2 = &s->rows[2];
	ck_assert(r0->has_gpu && r1->has_gpu && r2->has_gpu);

	/* spans 150, 150, 190; busy 150, 150, 180 (gap [100,110) on rank 2) */
	ck_assert_int_eq(r0->span_ns, 150 * US);
	ck_assert_int_eq(r2->span_ns, 190 * US);
	ck_assert_int_eq(r2->idle_ns, 10 * US);
	ck_assert_double_eq_tol(r0->v[TT_RM_IDLE], 0, EPS);
	ck_assert_double_eq_tol(r2->v[TT_RM_IDLE], 100.0 * 10 / 190, EPS);
	/* comm 100/150, 70/150, 80/190 */
	ck_assert_double_eq_tol(r0->v[TT_RM_COMM], 100.0 * 100 / 150, EPS);
	ck_assert_double_eq_tol(r1->v[TT_RM_COMM], 100.0 * 70 / 150, EPS);
	ck_assert_double_eq_tol(r2->v[TT_RM_COMM], 100.0 * 80 / 190, EPS);
	/* overlap with computation [50,100) = 50, [80,100) = 20, gemm2
	 * [130,140) = 10: exposed 50, 50, 70 */
	ck_assert_int_eq(r0->overlap_ns, 50 * US);
	ck_assert_int_eq(r2->overlap_ns, 10 * US);
	ck_assert_double_eq_tol(r0->v[TT_RM_EXPOSED], 100.0 * 50 / 150, EPS);
	ck_assert_double_eq_tol(r1->v[TT_RM_EXPOSED], 100.0 * 50 / 150, EPS);
	ck_assert_double_eq_tol(r2->v[TT_RM_EXPOSED], 100.0 * 70 / 190, EPS);
	/* the all-reduce's latest start is 110 (rank 2): transfer 150-110,
	 * 150-110, 190-110 */
	ck_assert_int_eq(r0->xfer_ns, 40 * US);
	ck_assert_int_eq(r1->xfer_ns, 40 * US);
	ck_assert_int_eq(r2->xfer_ns, 80 * US);
	ck_assert_double_eq_tol(r2->v[TT_RM_XFER], 100.0 * 80 / 190, EPS);
	/* steps 200, 200, 300 µs */
	ck_assert_uint_eq(r0->nsteps, 1);
	ck_assert_double_eq_tol(r0->v[TT_RM_STEP], 200 * US, EPS);
	ck_assert_double_eq_tol(r2->v[TT_RM_STEP], 300 * US, EPS);
	/* the top computation kernel of the job: gemm, 100 µs on each rank */
	ck_assert_str_eq(s->top_kernel, "gemm");
	ck_assert_double_eq_tol(r2->v[TT_RM_TOPK], 100 * US, EPS);
	/* rank 2's gap before gemm2: launched at 120 after gemm ended at 100 */
	ck_assert_int_eq(r2->idle_cat_ns[TT_IDLE_HOST_WAIT], 30 * US);
	ck_assert_int_eq(r2->idle_cat_ns[TT_IDLE_OTHER], 0);

	/* the same numbers as the temporal and overlap analyses */
	size_t n;
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	struct tt_overlap_row *ov = tt_overlap(m, &o, &n);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_double_eq_tol(s->rows[i].v[TT_RM_IDLE], t[i].idle_pct, EPS);
		ck_assert_int_eq(s->rows[i].comm_ns, ov[i].comm_ns);
		ck_assert_int_eq(s->rows[i].overlap_ns, ov[i].overlap_ns);
	}
	tt_temporal_free(t);
	tt_overlap_free(ov);

	/* robust z: steps 200 200 300 µs -> median 200, MAD 0, unit 1 % of
	 * 200 µs = 2 µs: rank 2 is z 50; transfer 26.7 26.7 42.1 % -> MAD 0,
	 * unit 0.5: z (42.105 - 26.667) / 0.5 = 30.9; idle 0 0 5.26 -> z 10.5;
	 * exposed 33.3 33.3 36.8 -> z 7.0 (3.5 points); comm 66.7 46.7 42.1 ->
	 * median 46.7, |x - m| 20 0 4.56 -> MAD 4.56, unit 6.77: rank 0 is z
	 * 2.96, not an outlier */
	ck_assert_double_eq_tol(r2->z[TT_RM_STEP], 50, 1e-9);
	ck_assert_double_eq_tol(r2->z[TT_RM_XFER], (100.0 * 80 / 190 - 100.0 * 40 / 150) / 0.5,
				1e-9);
	ck_assert_double_eq_tol(r2->z[TT_RM_IDLE], (100.0 * 10 / 190) / 0.5, 1e-9);
	double mad = 100.0 * 70 / 150 - 100.0 * 80 / 190;
	ck_assert_double_eq_tol(r0->z[TT_RM_COMM], (100.0 * 30 / 150) / (1.4826 * mad), 1e-9);
	struct tt_outlier *out;
	size_t no = tt_ranks_outliers(s, -1, true, &out);
	ck_assert_uint_eq(no, 1);
	ck_assert_uint_eq(out[0].i, 2);
	ck_assert_int_eq(out[0].metric, TT_RM_STEP); /* its largest |z| */
	ck_assert(out[0].flagged);
	free(out);
	/* one metric, every rank, outliers first then |z| */
	no = tt_ranks_outliers(s, TT_RM_COMM, false, &out);
	ck_assert_uint_eq(no, 3);
	ck_assert_uint_eq(out[0].i, 0); /* z 2.96 */
	ck_assert(!out[0].flagged);
	free(out);

	/* nodes: a holds ranks 0 (GPU 3) and 1 (GPU 1), b holds rank 2 */
	ck_assert(s->by_node);
	ck_assert_uint_eq(s->nnodes, 2);
	ck_assert_str_eq(s->node_name[0], "a");
	ck_assert_str_eq(s->node_name[1], "b");
	ck_assert_str_eq(r0->host, "a");
	ck_assert_uint_eq(r0->node, 0);
	ck_assert_uint_eq(r2->node, 1);
	ck_assert_uint_eq(r1->local, 0); /* by device: GPU 1 before GPU 3 */
	ck_assert_uint_eq(r0->local, 1);
	ck_assert_uint_eq(r2->local, 0);
	ck_assert_uint_eq(s->max_local, 2);

	/* the reason line */
	char buf[256];
	tt_outlier_reason(s, 2, TT_RM_STEP, buf, sizeof(buf));
	ck_assert_str_eq(buf, "step 300 \xC2\xB5s vs median 200 \xC2\xB5s, idle 5.3 %, mostly host "
			      "wait (the CPU side is late)");
	tt_outlier_reason(s, 2, TT_RM_XFER, buf, sizeof(buf));
	ck_assert_str_eq(buf, "transfer 42 % vs median 27 %, idle 5.3 %, mostly host wait (the CPU "
			      "side is late)");
	tt_ranks_free(s);

	/* only some ranks */
	int64_t one[] = {0, 1};
	o.ranks = one;
	o.nranks = 2;
	s = tt_ranks_compute(m, &o, 30);
	ck_assert_uint_eq(s->n, 2);
	ck_assert(!s->by_node); /* one host */
	ck_assert_uint_eq(s->nnodes, 1);
	tt_ranks_free(s);
	tt_model_free(m);
}
END_TEST

START_TEST(test_reasons)
{
	/* hand-filled metrics: 9 ordinary ranks and one with high idle, mostly
	 * host wait */
	struct tt_ranks s = {0};
	struct tt_rank_metrics rows[10];
	memset(rows, 0, sizeof(rows));
	s.rows = rows;
	s.n = 10;
	for (int i = 0; i < 10; i++) {
		rows[i].rank = i;
		rows[i].has_gpu = true;
		rows[i].v[TT_RM_IDLE] = 12 + 0.1 * i;
		rows[i].v[TT_RM_COMM] = 30 + 0.1 * i;
		rows[i].v[TT_RM_EXPOSED] = 10;
		rows[i].v[TT_RM_XFER] = 2;
		rows[i].v[TT_RM_STEP] = 100e6;
		rows[i].v[TT_RM_TOPK] = 30e6;
	}
	rows[7].v[TT_RM_IDLE] = 41.2;
	rows[7].v[TT_RM_COMM] = 3;
	rows[7].idle_cat_ns[TT_IDLE_HOST_WAIT] = 80;
	rows[7].idle_cat_ns[TT_IDLE_OTHER] = 20;
	rows[3].v[TT_RM_TOPK] = 45e6;
	tt_ranks_score(&s);
	char buf[256];
	tt_outlier_reason(&s, 7, TT_RM_IDLE, buf, sizeof(buf));
	ck_assert_str_eq(buf, "idle 41 % vs median 12 %, mostly host wait (the CPU side is late)");
	tt_outlier_reason(&s, 7, TT_RM_COMM, buf, sizeof(buf));
	ck_assert_str_eq(buf, "comm 3.0 % vs median 30 %, idle 41 %, mostly host wait (the CPU "
			      "side is late)");
	tt_outlier_reason(&s, 3, TT_RM_TOPK, buf, sizeof(buf));
	ck_assert_str_eq(buf, "top kernel 45.0 ms vs median 30.0 ms, its kernels run slower (a "
			      "slow GPU?)");
	struct tt_outlier *out;
	size_t n = tt_ranks_outliers(&s, -1, true, &out);
	ck_assert_uint_eq(n, 2);
	/* rank 3: (45 - 30) / 0.3 = 50; rank 7: idle (41.2 - 12.45) / scale */
	ck_assert_uint_eq(out[0].i, 7);
	ck_assert_uint_eq(out[1].i, 3);
	ck_assert_int_eq(out[1].metric, TT_RM_TOPK);
	ck_assert_double_eq_tol(out[1].z, 50, 1e-9);
	free(out);
}
END_TEST

/* ---- tables ---- */

START_TEST(test_distribution_table)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "name", .type = TT_C_STR},
		{.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT},
		{.name = "time", .type = TT_C_DUR},
		{.name = "hidden", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("per_rank", cols, 5);
	/* ranks 10..14: idle 5 1 9 3 7 %, time 2 4 6 8 10 ms */
	const double idle[] = {5, 1, 9, 3, 7};
	for (int i = 0; i < 5; i++) {
		size_t r = tt_table_add_row(t);
		tt_table_set_int(t, r, 0, 10 + i);
		tt_table_set_str(t, r, 1, "x");
		tt_table_set_num(t, r, 2, idle[i]);
		tt_table_set_int(t, r, 3, (int64_t)(2 + 2 * i) * 1000000);
		tt_table_set_int(t, r, 4, i);
	}
	struct tt_table *d = tt_table_distributions(t, "rank", "dists");
	ck_assert_str_eq(d->name, "dists");
	ck_assert_uint_eq(d->nrows, 2); /* idle and time: not rank, name, hidden */
	int cmin = tt_table_col(d, "min"), cmed = tt_table_col(d, "median"),
	    cp10 = tt_table_col(d, "p10"), cmax = tt_table_col(d, "max"),
	    cminr = tt_table_col(d, "min_rank"), cmaxr = tt_table_col(d, "max_rank"),
	    cu = tt_table_col(d, "unit"), cm = tt_table_col(d, "metric");
	ck_assert_str_eq(tt_table_cell(d, 0, cm)->v.s, "idle_pctg");
	/* 1 3 5 7 9: p10 = 1 + 0.4 * 2 = 1.8, median 5; min 1 at rank 11, max 9
	 * at rank 12 */
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(d, 0, cmin)), 1, EPS);
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(d, 0, cp10)), 1.8, EPS);
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(d, 0, cmed)), 5, EPS);
	ck_assert_int_eq(tt_table_cell(d, 0, cminr)->v.i, 11);
	ck_assert_int_eq(tt_table_cell(d, 0, cmaxr)->v.i, 12);
	ck_assert_str_eq(tt_table_cell(d, 0, cu)->v.s, "%");
	/* durations in the column's unit (ms): 2..10, median 6 */
	ck_assert_str_eq(tt_table_cell(d, 1, cm)->v.s, "time");
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(d, 1, cmed)), 6, EPS);
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(d, 1, cmax)), 10, EPS);
	ck_assert_int_eq(tt_table_cell(d, 1, cmaxr)->v.i, 14);
	ck_assert_str_eq(tt_table_cell(d, 1, cu)->v.s, "ms");
	tt_table_free(d);
	tt_table_free(t);
}
END_TEST

START_TEST(test_report_tables)
{
	struct tt_model *m = load_hand();
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("outliers", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(t[0]->name, "outliers");
	ck_assert_str_eq(t[1]->name, "rank_distributions");
	ck_assert_uint_eq(t[0]->nrows, 1);
	ck_assert_int_eq(tt_table_cell(t[0], 0, tt_table_col(t[0], "rank"))->v.i, 2);
	ck_assert_str_eq(tt_table_cell(t[0], 0, tt_table_col(t[0], "metric"))->v.s, "step");
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(t[0], 0, tt_table_col(t[0], "robust_z"))),
				50, EPS);
	ck_assert_uint_eq(t[1]->nrows, TT_RM_COUNT);
	tt_tables_free(t, n);
	/* every rank on demand */
	o.table = "rank_metrics";
	ck_assert_int_eq(tt_report_build("outliers", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(t[2]->name, "rank_metrics");
	ck_assert_uint_eq(t[2]->nrows, 3);
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* ---- the demo's planted stragglers ---- */

static struct tt_model *demo_model;
static struct tt_demo_opts demo_opts;

static void setup_demo(void)
{
	if (demo_model)
		return;
	tt_demo_defaults(&demo_opts);
	tt_demo_set_ranks(&demo_opts, 24);
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	tt_demo_load(&demo_opts, &lo, &demo_model);
}

static void teardown_demo(void)
{
	tt_model_free(demo_model);
	demo_model = NULL;
}

START_TEST(test_demo_set_ranks)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	tt_demo_set_ranks(&o, 4);
	ck_assert_int_eq(o.steps, 6);
	ck_assert_int_eq(o.layers, 24);
	ck_assert_int_eq(o.nstragglers, 1);
	ck_assert_int_eq(o.stragglers[0], 3);
	tt_demo_set_ranks(&o, 8);
	ck_assert_int_eq(o.stragglers[0], 5);
	tt_demo_set_ranks(&o, 1024);
	ck_assert_int_eq(o.steps, 3);
	ck_assert_int_eq(o.layers, 6);
	ck_assert_int_eq(o.nstragglers, 3);
	ck_assert_int_eq(o.stragglers[0], 5);
	ck_assert_int_eq(o.straggler_kind[0], TT_DEMO_SLOW_HOST);
	ck_assert_int_eq(o.stragglers[1], 515);
	ck_assert_int_eq(o.straggler_kind[1], TT_DEMO_SLOW_GPU);
	ck_assert_int_eq(o.stragglers[2], 1018);
	ck_assert_int_eq(o.straggler_kind[2], TT_DEMO_SLOW_LINK);
}
END_TEST

START_TEST(test_demo_outliers)
{
	ck_assert_uint_eq(demo_model->nranks, 24);
	struct tt_aopts o = {0};
	o.threads = 2;
	struct tt_ranks *s = tt_ranks_compute(demo_model, &o, 30);
	struct tt_outlier *out;
	size_t n = tt_ranks_outliers(s, -1, true, &out);
	/* exactly the planted ranks, each for its own cause */
	ck_assert_uint_eq(n, 3);
	bool seen[3] = {false, false, false};
	for (size_t j = 0; j < n; j++) {
		int64_t rank = s->rows[out[j].i].rank;
		for (int k = 0; k < 3; k++)
			if (rank == demo_opts.stragglers[k])
				seen[k] = true;
	}
	ck_assert(seen[0] && seen[1] && seen[2]);
	/* host: idle high, mostly host wait; GPU: its top kernel slower; link:
	 * transfer high */
	const struct tt_rank_metrics *h = &s->rows[demo_opts.stragglers[0]];
	ck_assert(tt_rdist_outlier(&s->dist[TT_RM_IDLE], h->v[TT_RM_IDLE]));
	ck_assert_int_gt(h->idle_cat_ns[TT_IDLE_HOST_WAIT], h->idle_cat_ns[TT_IDLE_OTHER]);
	const struct tt_rank_metrics *g = &s->rows[demo_opts.stragglers[1]];
	ck_assert(tt_rdist_outlier(&s->dist[TT_RM_TOPK], g->v[TT_RM_TOPK]));
	ck_assert(g->z[TT_RM_TOPK] > 0);
	const struct tt_rank_metrics *l = &s->rows[demo_opts.stragglers[2]];
	ck_assert(tt_rdist_outlier(&s->dist[TT_RM_XFER], l->v[TT_RM_XFER]));
	char buf[256];
	tt_outlier_reason(s, demo_opts.stragglers[0], TT_RM_IDLE, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "mostly host wait"), "%s", buf);
	tt_outlier_reason(s, demo_opts.stragglers[1], TT_RM_TOPK, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "slow GPU"), "%s", buf);
	tt_outlier_reason(s, demo_opts.stragglers[2], TT_RM_XFER, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "slow link"), "%s", buf);
	/* 8 GPUs per host: 3 nodes of 8 */
	ck_assert(s->by_node);
	ck_assert_uint_eq(s->nnodes, 3);
	ck_assert_uint_eq(s->max_local, 8);
	free(out);
	tt_ranks_free(s);
}
END_TEST

/* ---- the heatmap, headless ---- */

struct ui {
	struct tt_app *a;
	struct tt_keymap *k;
	struct tt_grid g;
	char line[4096];
};

static struct ui *ui_new(const struct tt_model *m, int w, int h)
{
	struct ui *u = tt_calloc(1, sizeof(*u));
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	u->k = tt_keymap_new();
	u->a = tt_app_new(m, NULL, &o, u->k, "test");
	tt_grid_init(&u->g, w, h);
	tt_app_push(u->a, tt_heatmap_new(u->a));
	tt_app_draw(u->a, &u->g);
	return u;
}

static void ui_free(struct ui *u)
{
	tt_app_free(u->a);
	tt_keymap_free(u->k);
	tt_grid_free(&u->g);
	free(u);
}

static void ui_keys(struct ui *u, const char *keys)
{
	char key[32];
	const char *s = keys;
	while ((s = tt_key_next(s, key, sizeof(key))) != NULL) {
		tt_app_key(u->a, key);
		tt_app_draw(u->a, &u->g);
	}
}

static const char *row(struct ui *u, int y)
{
	size_t k = tt_grid_row_text(&u->g, y, u->line, sizeof(u->line));
	while (k > 0 && u->line[k - 1] == ' ')
		u->line[--k] = '\0';
	return u->line;
}

static int find_row(struct ui *u, const char *s)
{
	for (int y = 0; y < u->g.h; y++)
		if (strstr(row(u, y), s))
			return y;
	return -1;
}

/* the grid line of node `name`: label, then 8 cells of 2 columns */
static const char *node_cells(struct ui *u, const char *name)
{
	for (int y = 0; y < u->g.h; y++) {
		const char *r = row(u, y);
		if (strncmp(r, name, strlen(name)) == 0 && r[strlen(name)] == ' ')
			return r;
	}
	return NULL;
}

START_TEST(test_heatmap_draw)
{
	struct ui *u = ui_new(demo_model, 80, 24);
	struct tt_pane *p = tt_app_pane(u->a);
	ck_assert_str_eq(p->ops->name, "heatmap");
	ck_assert_msg(find_row(u, "24 ranks on 3 nodes") >= 0, "subtitle: %s", row(u, 1));
	/* it opens on the strongest outlier's metric; the legend has the
	 * density ramp with the extremes, their ranks and the median */
	int ly = find_row(u, ".:-=+*#%@");
	ck_assert_int_ge(ly, 0);
	const char *legend = row(u, ly);
	ck_assert_msg(strstr(legend, "median"), "%s", legend);
	ck_assert_msg(strstr(legend, " r"), "%s", legend);
	/* one line per node (labels are the host names), 2 columns per cell */
	const char *n0 = node_cells(u, "demo-node-0");
	ck_assert_ptr_nonnull(n0);
	ck_assert_ptr_nonnull(node_cells(u, "demo-node-2"));
	/* outliers first, below the cells */
	ck_assert_int_gt(find_row(u, "furthest first"), ly);

	/* shade by idle: m until the legend names it */
	for (int i = 0; i < TT_RM_COUNT && !strstr(row(u, ly), "idle %"); i++)
		ui_keys(u, "m");
	ck_assert_msg(strstr(row(u, ly), "idle %"), "%s", row(u, ly));
	/* the host straggler (rank 5, local 5 of node 0) has the densest
	 * glyph, every other rank of node 0 a light one */
	n0 = node_cells(u, "demo-node-0");
	ck_assert_ptr_nonnull(n0);
	const char *cells = n0 + strlen("demo-node-0") + 1;
	for (int l = 0; l < 8; l++) {
		char c = cells[2 * l];
		ck_assert_int_eq(c, cells[2 * l + 1]);
		if (l == 5)
			ck_assert_msg(c == '@', "rank 5 shows '%c' in %s", c, n0);
		else
			ck_assert_msg(strchr(".:-", c) != NULL, "rank %d shows '%c' in %s", l, c,
				      n0);
	}
	ck_assert_int_ge(find_row(u, "rank 5 "), 0);
	ck_assert_int_ge(find_row(u, "mostly host wait"), 0);

	/* arrows move over the cells: first cell, right, down (next node) */
	ui_keys(u, "g");
	ck_assert_int_ge(find_row(u, "rank 0 demo-node-0"), 0);
	ui_keys(u, "<Right><Right>");
	ck_assert_int_ge(find_row(u, "rank 2 demo-node-0"), 0);
	ui_keys(u, "<Down>");
	ck_assert_int_ge(find_row(u, "rank 10 demo-node-1"), 0);
	ui_keys(u, "<Left><Up>");
	ck_assert_int_ge(find_row(u, "rank 1 demo-node-0"), 0);
	/* n jumps to the outlier */
	ui_keys(u, "n");
	ck_assert_int_ge(find_row(u, "rank 5 demo-node-0"), 0);
	/* Enter opens the rank */
	ui_keys(u, "<Enter>");
	ck_assert_int_eq(u->a->depth, 2);
	p = tt_app_pane(u->a);
	ck_assert_msg(strcmp(p->ops->name, "rank") == 0 || strcmp(p->ops->name, "timeline") == 0,
		      "Enter opened %s", p->ops->name);
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 1);
	ui_free(u);
}
END_TEST

START_TEST(test_heatmap_small_screens)
{
	/* too narrow for one node per line: nodes share lines, cells shrink;
	 * nothing is written past the edge and the cursor stays visible */
	struct ui *u = ui_new(demo_model, 50, 12);
	ck_assert_int_ge(find_row(u, ".:-=+*#%@"), 0);
	ck_assert_int_ge(find_row(u, "rank "), 0);
	ui_keys(u, "GGgjjjjjj");
	ck_assert_int_ge(find_row(u, "rank "), 0);
	ui_free(u);
	/* a wide screen: one line per node */
	u = ui_new(demo_model, 200, 40);
	ck_assert_int_ge(find_row(u, "demo-node-2"), 0);
	ui_free(u);
}
END_TEST

static Suite *ranks_suite(void)
{
	Suite *s = suite_create("ranks");
	TCase *tc = tcase_create("dist");
	tcase_add_test(tc, test_quantiles);
	tcase_add_test(tc, test_dist_pct);
	tcase_add_test(tc, test_dist_time);
	tcase_add_test(tc, test_metric_names);
	tcase_add_test(tc, test_hand_metrics);
	tcase_add_test(tc, test_reasons);
	tcase_add_test(tc, test_distribution_table);
	tcase_add_test(tc, test_report_tables);
	tcase_add_test(tc, test_demo_set_ranks);
	suite_add_tcase(s, tc);
	TCase *td = tcase_create("demo");
	tcase_set_timeout(td, 120);
	tcase_add_unchecked_fixture(td, setup_demo, teardown_demo);
	tcase_add_test(td, test_demo_outliers);
	tcase_add_test(td, test_heatmap_draw);
	tcase_add_test(td, test_heatmap_small_screens);
	suite_add_tcase(s, td);
	return s;
}

int main(void)
{
	return tl_run(ranks_suite());
}
