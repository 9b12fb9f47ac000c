/* analysis room: temporal breakdown, comm/comp overlap and kernel breakdown
 * on tiny hand-made traces; every expected number is worked out by hand in
 * the comment above it (µs in the traces, ns in the model). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/breakdown.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "testlib.h"

#define US 1000 /* ns */

#define KERNEL(name, ts, dur, stream, corr)                                                  \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream     \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"stream\":" #stream ",\"correlation\":" #corr \
	"}}"

/* ---- two overlapping kernels on two streams ---- */

/* compute 0-100 µs on stream 7 (launched), NCCL 50-150 µs on stream 13 with
 * no launch event (no ProfilerStep: HTA keeps it) */
static const char overlap_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	"\"tid\":1,\"ts\":0,\"dur\":5,\"args\":{\"correlation\":1}},"
	KERNEL("gemm_kernel", 0, 100, 7, 1) ","
	KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", 50, 100, 13, 2)
	"]}";

START_TEST(test_overlap_two_streams)
{
	struct tt_model *m = tl_load_json1(overlap_trace);
	struct tt_aopts o = {0};
	size_t n;

	/* span 0..150 = 150, union 150 -> idle 0; compute |[0,100)| = 100;
	 * non-compute 150 - 100 - 0 = 50; 100*(100/150) = 66.67, 33.33 */
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(t[0].has_gpu);
	ck_assert_int_eq(t[0].kernel_ns, 150 * US);
	ck_assert_int_eq(t[0].idle_ns, 0);
	ck_assert_int_eq(t[0].compute_ns, 100 * US);
	ck_assert_int_eq(t[0].non_compute_ns, 50 * US);
	ck_assert_double_eq(tt_round(t[0].idle_pct, 2), 0);
	ck_assert_double_eq(tt_round(t[0].compute_pct, 2), 66.67);
	ck_assert_double_eq(tt_round(t[0].non_compute_pct, 2), 33.33);
	/* the span starts with gemm (event index kept for drill-down) */
	ck_assert_str_eq(tt_ev_name(m->ranks[0], &m->ranks[0]->ev[t[0].first_ev]), "gemm_kernel");
	tt_temporal_free(t);

	/* comm 100, comp 100, both run in [50,100) = 50 -> 50 % */
	struct tt_overlap_row *ov = tt_overlap(m, &o, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ov[0].comm_ns, 100 * US);
	ck_assert_int_eq(ov[0].comp_ns, 100 * US);
	ck_assert_int_eq(ov[0].overlap_ns, 50 * US);
	ck_assert_double_eq(tt_round(ov[0].pct, 2), 50);
	tt_overlap_free(ov);

	/* sweep: [0,50) COMPUTATION, [50,100) both, [100,150) COMMUNICATION,
	 * 50 µs each, 33.3 % each of 150 */
	struct tt_kbreak_opts ko = {.num_kernels = 10, .duration_ratio = 0.8};
	struct tt_kbreak k;
	tt_kbreak(m, &o, &ko, &k);
	ck_assert_int_eq(k.ntypes, 3);
	ck_assert_int_eq(k.label_ns[1], 50 * US);
	ck_assert_int_eq(k.label_ns[3], 50 * US);
	ck_assert_int_eq(k.label_ns[2], 50 * US);
	ck_assert_int_eq(k.total_ns, 150 * US);
	char buf[128];
	tt_kbreak_label(&k, 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "COMPUTATION overlapping COMMUNICATION");
	tt_kbreak_label(&k, 7, buf, sizeof(buf));
	ck_assert_str_eq(buf, "COMPUTATION overlapping COMMUNICATION overlapping MEMORY");
	/* rows in HTA's byte order: COMMUNICATION before COMPUTATION */
	ck_assert_uint_eq(k.nrows, 2);
	ck_assert_int_eq(k.rows[0].type, TT_KT_COMM);
	ck_assert_int_eq(k.rows[1].type, TT_KT_COMP);
	ck_assert_str_eq(k.rows[1].name, "gemm_kernel");
	ck_assert_int_eq(k.rows[1].sum_ns, 100 * US);
	ck_assert_uint_eq(k.rows[1].count, 1);
	ck_assert_double_eq(k.rows[1].std_ns, 0); /* one kernel: 0, like HTA's fillna */
	ck_assert(!k.has_annot);
	tt_kbreak_free(&k);
	tt_model_free(m);
}
END_TEST

/* ---- a gap, a zero-length kernel, memset, a wait event, an OTHER kernel ---- */

static const char gap_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
	KERNEL("gemm_a", 0, 10, 7, 1) ","
	KERNEL("gemm_a", 30, 10, 7, 2) ","
	KERNEL("zero_kernel", 50, 0, 7, 3) ","
	"{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":7,"
	"\"ts\":60,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":4}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\",\"pid\":0,\"tid\":7,"
	"\"ts\":70,\"dur\":2,\"args\":{\"stream\":7,\"correlation\":5}},"
	KERNEL("SyncBatchNormKernel", 80, 10, 8, 6)
	"]}";

START_TEST(test_gap_zero_other)
{
	struct tt_model *m = tl_load_json1(gap_trace);
	struct tt_aopts o = {0};
	size_t n;
	/* every event with a stream counts: span 0..90 = 90; union
	 * [0,10)+[30,40)+[50,50)+[60,65)+[70,72)+[80,90) = 10+10+0+5+2+10 = 37;
	 * idle 90-37 = 53; compute (gemm_a, zero_kernel) 20; non-compute
	 * 90-20-53 = 17 = memset 5 + wait event 2 + SyncBatchNorm (OTHER) 10.
	 * 100*53/90 = 58.89, 100*20/90 = 22.22, 100*17/90 = 18.89 */
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	ck_assert_int_eq(t[0].nevents, 6);
	ck_assert_int_eq(t[0].kernel_ns, 90 * US);
	ck_assert_int_eq(t[0].busy_ns, 37 * US);
	ck_assert_int_eq(t[0].idle_ns, 53 * US);
	ck_assert_int_eq(t[0].compute_ns, 20 * US);
	ck_assert_int_eq(t[0].non_compute_ns, 17 * US);
	ck_assert_double_eq(tt_round(t[0].idle_pct, 2), 58.89);
	ck_assert_double_eq(tt_round(t[0].compute_pct, 2), 22.22);
	ck_assert_double_eq(tt_round(t[0].non_compute_pct, 2), 18.89);
	tt_temporal_free(t);

	/* no communication: 0/0, NaN (an empty cell) */
	struct tt_overlap_row *ov = tt_overlap(m, &o, &n);
	ck_assert(ov[0].has_gpu);
	ck_assert_int_eq(ov[0].comm_ns, 0);
	ck_assert_int_eq(ov[0].comp_ns, 20 * US);
	ck_assert(isnan(ov[0].pct));
	tt_overlap_free(ov);

	/* types: COMPUTATION 20, MEMORY 5 (the zero-length block adds
	 * nothing; OTHER and the wait event are not analysed); 80 %, 20 % */
	struct tt_kbreak_opts ko = {.num_kernels = 10, .duration_ratio = 0.8};
	struct tt_kbreak k;
	tt_kbreak(m, &o, &ko, &k);
	ck_assert_int_eq(k.label_ns[1], 20 * US);
	ck_assert_int_eq(k.label_ns[4], 5 * US);
	ck_assert_int_eq(k.total_ns, 25 * US);
	for (unsigned b = 0; b < 8; b++)
		if (b != 1 && b != 4)
			ck_assert_int_eq(k.label_ns[b], 0);
	/* rows: COMPUTATION gemm_a (2 x 10), zero_kernel (1 x 0); MEMORY memset */
	ck_assert_uint_eq(k.nrows, 3);
	ck_assert_str_eq(k.rows[0].name, "gemm_a");
	ck_assert_uint_eq(k.rows[0].count, 2);
	ck_assert_int_eq(k.rows[0].sum_ns, 20 * US);
	ck_assert_int_eq(k.rows[0].max_ns, 10 * US);
	ck_assert_int_eq(k.rows[0].min_ns, 10 * US);
	ck_assert_double_eq(k.rows[0].mean_ns, 10 * US);
	ck_assert_double_eq(k.rows[0].std_ns, 0);
	ck_assert_str_eq(k.rows[1].name, "zero_kernel");
	ck_assert_int_eq(k.rows[1].sum_ns, 0);
	ck_assert_uint_eq(k.rows[1].count, 1);
	ck_assert_str_eq(k.rows[2].name, "Memset (Device)");
	ck_assert_int_eq(k.rows[2].type, TT_KT_MEM);

	/* without memory: COMPUTATION 20 only */
	tt_kbreak_free(&k);
	ko.no_memory = true;
	tt_kbreak(m, &o, &ko, &k);
	ck_assert_int_eq(k.ntypes, 2);
	ck_assert_int_eq(k.total_ns, 20 * US);
	ck_assert_uint_eq(k.nrows, 2);
	tt_kbreak_free(&k);
	tt_model_free(m);
}
END_TEST

/* ---- HTA's iteration filter: a kernel with no launch disappears ---- */

static const char steps_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,"
	"\"tid\":1,\"ts\":0,\"dur\":100,\"args\":{}},"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,"
	"\"tid\":1,\"ts\":100,\"dur\":100,\"args\":{}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	"\"tid\":1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	"\"tid\":1,\"ts\":110,\"dur\":5,\"args\":{\"correlation\":2}},"
	KERNEL("k1", 20, 10, 7, 1) ","
	KERNEL("k2", 120, 10, 7, 2) ","
	KERNEL("k3", 40, 10, 7, 3)
	"]}";

START_TEST(test_no_launch_filtered)
{
	struct tt_model *m = tl_load_json1(steps_trace);
	struct tt_aopts o = {0};
	size_t n;
	/* two ProfilerStep names: CPU events before the last step start (100)
	 * stay, so only launch 1; k2 (launched in the last step) and k3 (no
	 * launch) go.  k1 alone: span 10, busy 10, idle 0, compute 10 */
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	ck_assert_int_eq(t[0].nevents, 1);
	ck_assert_int_eq(t[0].kernel_ns, 10 * US);
	ck_assert_int_eq(t[0].idle_ns, 0);
	ck_assert_int_eq(t[0].compute_ns, 10 * US);
	tt_temporal_free(t);
	/* --exact: every event; span 20..130 = 110, busy 30, idle 80 */
	o.exact = true;
	t = tt_temporal(m, &o, &n);
	ck_assert_int_eq(t[0].nevents, 3);
	ck_assert_int_eq(t[0].kernel_ns, 110 * US);
	ck_assert_int_eq(t[0].idle_ns, 80 * US);
	ck_assert_int_eq(t[0].compute_ns, 30 * US);
	tt_temporal_free(t);
	tt_model_free(m);
}
END_TEST

/* A rank without a ProfilerStep of its own, beside a rank with two: HTA's
 * filter keeps none of its events (metrics.md §0.4); the note says so. */
START_TEST(test_rank_emptied)
{
	const char *t[2] = {
		steps_trace,
		"{\"distributedInfo\": {\"rank\": 1}, \"traceEvents\": ["
		KERNEL("k1", 20, 10, 7, 1) "]}",
	};
	struct tt_model *m = tl_load_json(t, 2);
	struct tt_aopts o = {0};
	size_t n;
	struct tt_temporal_row *tr = tt_temporal(m, &o, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert(tr[0].has_gpu);
	ck_assert(!tr[1].has_gpu);
	ck_assert_uint_eq(tr[1].nevents_trace, 1);
	tt_temporal_free(tr);
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	struct tt_table **tab;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("temporal", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_uint_eq(tab[0]->nnotes, 1);
	ck_assert(strstr(tab[0]->notes[0], "rank 1: no GPU activity left after HTA's iteration "
					   "filter (1 GPU events dropped"));
	tt_tables_free(tab, n);
	tt_model_free(m);
}
END_TEST

/* ---- fractional timestamps: HTA's float64 view ---- */

/* k:    ts 1712195495505772.1 dur 10: as a double the ts is ...772.0 (doubles
 *       are 0.25 µs apart there), ceil -> 772, end floor(772.0+10) = 782
 *       (rounding the exact decimal would give 773..782)
 * k2:   [800, 805)
 * tiny: ts ...900.4 -> double ...900.5 -> ceil 901; end 900.5+0.3 = 900.8
 *       -> double 900.75 -> floor 900: a -1 µs kernel, as in HTA */
static const char frac_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
	KERNEL("k", 1712195495505772.1, 10.0, 7, 1) ","
	KERNEL("k2", 1712195495505800.0, 5.0, 7, 2) ","
	KERNEL("tiny", 1712195495505900.4, 0.3, 7, 3)
	"]}";

START_TEST(test_fractional_ts)
{
	struct tt_model *m = tl_load_json1(frac_trace);
	struct tt_aopts o = {0};
	size_t n;
	/* blocks [772,782) [800,805) [901,900); HTA's span = end of the last
	 * block - start of the first = 900 - 772 = 128; busy 10 + 5 - 1 = 14;
	 * idle 114; compute = busy (all COMPUTATION) 14 */
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	ck_assert_int_eq(t[0].kernel_ns, 128 * US);
	ck_assert_int_eq(t[0].busy_ns, 14 * US);
	ck_assert_int_eq(t[0].idle_ns, 114 * US);
	ck_assert_int_eq(t[0].compute_ns, 14 * US);
	tt_temporal_free(t);
	struct tt_kbreak_opts ko = {.num_kernels = 10, .duration_ratio = 0.8};
	struct tt_kbreak k;
	tt_kbreak(m, &o, &ko, &k);
	/* rows by name: k (10), k2 (5), tiny (-1) */
	ck_assert_uint_eq(k.nrows, 3);
	ck_assert_int_eq(k.rows[0].sum_ns, 10 * US);
	ck_assert_int_eq(k.rows[2].sum_ns, -1 * US);
	tt_kbreak_free(&k);
	/* exact: 772.1 .. 905 for k, k2 and tiny [900.4, 900.7):
	 * span 900.7 - 772.1 = 128.6 µs; busy 10 + 5 + 0.3 = 15.3; idle 113.3 */
	o.exact = true;
	t = tt_temporal(m, &o, &n);
	ck_assert_int_eq(t[0].kernel_ns, 128600);
	ck_assert_int_eq(t[0].busy_ns, 15300);
	ck_assert_int_eq(t[0].idle_ns, 113300);
	tt_temporal_free(t);
	tt_model_free(m);
}
END_TEST

/* the integer paths of tt_sel_ts and tt_sel_end against the doubles
 * (HTA's parse, tt_us_written) on every kind of value: whole and
 * fractional µs, at epoch scale and near the time base, around 2^40 µs,
 * fractions adding up to a whole µs, negative times */
static uint64_t rnd_state = 88172645463325252u;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

START_TEST(test_rounding_paths)
{
	const int64_t bases[] = {0, INT64_C(1719853884000000000), INT64_C(1234567)};
	const int64_t origins[] = {INT64_C(1661203462598738000), 0, INT64_C(1000) << 40,
				   INT64_C(1712195495519689047), -INT64_C(5000000), INT64_C(1) << 62};
	struct tt_rank rk;
	memset(&rk, 0, sizeof(rk));
	struct tt_sel s;
	memset(&s, 0, sizeof(s));
	s.r = &rk;
	s.round = true;
	unsigned n = 0, whole = 0, frac1000 = 0;
	for (size_t bi = 0; bi < TT_ARRAY_SIZE(bases); bi++)
		for (size_t oi = 0; oi < TT_ARRAY_SIZE(origins); oi++)
			for (int i = 0; i < 20000; i++) {
				rk.base_ns = bases[bi];
				uint64_t x = rnd();
				int64_t t = origins[oi] + (int64_t)(x % 2000000) - 1000000;
				int64_t d = (int64_t)(rnd() % 3000000);
				switch (x >> 60 & 3) {
				case 0: /* whole µs */
					t -= t % 1000;
					d -= d % 1000;
					whole++;
					break;
				case 1: /* fractions making a whole µs */
					d += 1000 - ((t % 1000) + 1000) % 1000 - d % 1000;
					frac1000++;
					break;
				default:
					break;
				}
				struct tt_event e = {.ts = t + rk.base_ns, .dur = d};
				int64_t b = rk.base_ns;
				int64_t ts = (int64_t)ceil(tt_us_written(e.ts - b)) * 1000 + b;
				int64_t end = (int64_t)floor(tt_us_written(e.ts - b) +
							     tt_us_written(e.dur)) * 1000 + b;
				if (tt_sel_ts(&s, &e) != ts || tt_sel_end(&s, &e) != end)
					ck_abort_msg("ts %lld dur %lld base %lld: %lld %lld, doubles %lld %lld",
						     (long long)e.ts, (long long)e.dur, (long long)b,
						     (long long)tt_sel_ts(&s, &e),
						     (long long)tt_sel_end(&s, &e), (long long)ts,
						     (long long)end);
				n++;
			}
	/* (every kind came up) */
	ck_assert_uint_eq(n, 3 * 6 * 20000);
	ck_assert_uint_gt(whole, n / 8);
	ck_assert_uint_gt(frac1000, n / 8);
}
END_TEST

/* ---- the "others" cut ---- */

START_TEST(test_cut)
{
	/* sums 50 20 10 8 5 4 2 1 (µs): cum 50 70 80 88 93 97 99 100.
	 * ratio 0.8: position 0.8*7 = 5.6 -> between cum[5] = 97 and cum[6] = 99,
	 * gamma 0.6 -> 99 - 2*0.4 = 98.2; cum > 98.2: names 6, 7 */
	const int64_t s[8] = {50 * US, 20 * US, 10 * US, 8 * US, 5 * US, 4 * US, 2 * US, 1 * US};
	bool g[8];
	/* num_kernels 5: also every position >= 5 -> {5, 6, 7} */
	ck_assert_uint_eq(tt_kbreak_cut(s, 8, 5, 0.8, g), 3);
	ck_assert(!g[4] && g[5] && g[6] && g[7]);
	/* num_kernels 7: the quantile trims more -> {6, 7} */
	ck_assert_uint_eq(tt_kbreak_cut(s, 8, 7, 0.8, g), 2);
	ck_assert(!g[5] && g[6] && g[7]);
	/* ratio 0.5: position 3.5, gamma 0.5 -> 93 - 5*0.5 = 90.5; cum > 90.5:
	 * names 4..7 */
	ck_assert_uint_eq(tt_kbreak_cut(s, 8, 7, 0.5, g), 4);
	ck_assert(!g[3] && g[4]);
	/* ratio 1: the quantile is the largest cum, nothing above it */
	ck_assert_uint_eq(tt_kbreak_cut(s, 8, 7, 1.0, g), 1);
	ck_assert(g[7] && !g[6]);
	/* n <= num_kernels: nothing is grouped */
	ck_assert_uint_eq(tt_kbreak_cut(s, 8, 8, 0.1, g), 0);
}
END_TEST

/* k_a 40+40, k_b 10, k_c 6+2, k_d 2 (µs), one stream, no overlaps */
static const char others_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
	KERNEL("k_a", 0, 40, 7, 1) "," KERNEL("k_a", 100, 40, 7, 2) ","
	KERNEL("k_b", 200, 10, 7, 3) ","
	KERNEL("k_c", 300, 6, 7, 4) "," KERNEL("k_c", 400, 2, 7, 5) ","
	KERNEL("k_d", 500, 2, 7, 6)
	"]}";

START_TEST(test_others_grouping)
{
	struct tt_model *m = tl_load_json1(others_trace);
	struct tt_aopts o = {0};
	/* sums 80 10 8 2, cum 80 90 98 100; 4 names > num_kernels 2.
	 * position 0.8*3 = 2.4 -> 98 + 2*0.4 = 98.8: cum > 98.8 is k_d;
	 * positions >= 2 are k_c, k_d.  Kept: k_a, k_b.
	 * others = durations 6, 2, 2: count 3, sum 10, max 6, min 2,
	 * mean 10/3; squares of deviations (8/3)^2 + 2 (4/3)^2 = 96/9,
	 * / (3-1) = 16/3, std = 4/sqrt(3) = 2.3094 µs.
	 * (HTA would report statistics of the sums 8 and 2: max 8, min 2,
	 * mean 5, std 4.24, and max = min = mean = 80 for k_a.) */
	struct tt_kbreak_opts ko = {.num_kernels = 2, .duration_ratio = 0.8};
	struct tt_kbreak k;
	tt_kbreak(m, &o, &ko, &k);
	ck_assert_uint_eq(k.nrows, 3);
	/* byte order: k_a, k_b, others */
	ck_assert_str_eq(k.rows[0].name, "k_a");
	ck_assert_int_eq(k.rows[0].max_ns, 40 * US);
	ck_assert_double_eq(k.rows[0].mean_ns, 40 * US);
	ck_assert_uint_eq(k.rows[0].count, 2);
	ck_assert_str_eq(k.rows[1].name, "k_b");
	const struct tt_kstat *ot = &k.rows[2];
	ck_assert_str_eq(ot->name, "others");
	ck_assert(ot->others);
	ck_assert_uint_eq(ot->nnames, 2);
	ck_assert_uint_eq(ot->count, 3);
	ck_assert_int_eq(ot->sum_ns, 10 * US);
	ck_assert_int_eq(ot->max_ns, 6 * US);
	ck_assert_int_eq(ot->min_ns, 2 * US);
	ck_assert_double_eq_tol(ot->mean_ns, 10000.0 / 3, 1e-6);
	ck_assert_double_eq_tol(ot->std_ns, 4000 / sqrt(3), 1e-6);
	ck_assert_str_eq(ot->rule, "any other name");
	/* the name list keeps all four, grouped ones marked */
	ck_assert_uint_eq(k.nnames, 4);
	ck_assert(!k.names[0].grouped && !k.names[1].grouped);
	ck_assert(k.names[2].grouped && k.names[3].grouped);
	ck_assert_str_eq(k.names[2].name, "k_c");
	/* the across-rank view lists kept names only */
	ck_assert_uint_eq(k.nacross, 2);
	tt_kbreak_free(&k);

	/* default num_kernels 10: four rows, no others */
	ko.num_kernels = 10;
	tt_kbreak(m, &o, &ko, &k);
	ck_assert_uint_eq(k.nrows, 4);
	for (size_t i = 0; i < k.nrows; i++)
		ck_assert(!k.rows[i].others);
	tt_kbreak_free(&k);
	tt_model_free(m);
}
END_TEST

/* ---- the same kernel across ranks ---- */

START_TEST(test_across_ranks)
{
	/* gemm: rank 0 30 µs, rank 1 10 µs, rank 2 20 µs; only_r2 on rank 2 */
	const char *t[3] = {
		"{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
		KERNEL("gemm", 0, 30, 7, 1) "]}",
		"{\"distributedInfo\": {\"rank\": 1}, \"traceEvents\": ["
		KERNEL("gemm", 0, 10, 7, 1) "]}",
		"{\"distributedInfo\": {\"rank\": 2}, \"traceEvents\": ["
		KERNEL("gemm", 0, 20, 7, 1) "," KERNEL("only_r2", 50, 5, 7, 2) "]}",
	};
	struct tt_model *m = tl_load_json(t, 3);
	struct tt_aopts o = {0};
	struct tt_kbreak_opts ko = {.num_kernels = 10, .duration_ratio = 0.8};
	struct tt_kbreak k;
	tt_kbreak(m, &o, &ko, &k);
	/* sorted by (type, name): gemm, only_r2.  gemm: 3 ranks, total 60,
	 * least rank 1 (10), median rank 2 (20), most rank 0 (30) */
	ck_assert_uint_eq(k.nacross, 2);
	const struct tt_kacross *a = &k.across[0];
	ck_assert_str_eq(a->name, "gemm");
	ck_assert_uint_eq(a->nranks, 3);
	ck_assert_int_eq(a->total_ns, 60 * US);
	ck_assert_int_eq(a->min_rank, 1);
	ck_assert_int_eq(a->min_ns, 10 * US);
	ck_assert_int_eq(a->med_rank, 2);
	ck_assert_int_eq(a->med_ns, 20 * US);
	ck_assert_int_eq(a->max_rank, 0);
	ck_assert_int_eq(a->max_ns, 30 * US);
	ck_assert_uint_eq(k.across[1].nranks, 1);
	/* type sum over ranks: 30 + 10 + 25 = 65 µs of COMPUTATION */
	ck_assert_int_eq(k.label_ns[1], 65 * US);
	ck_assert_int_eq(k.rank_label_ns[2 * 8 + 1], 25 * US);
	/* rows by (type, name, rank): gemm 0, gemm 1, gemm 2, only_r2 2 */
	ck_assert_uint_eq(k.nrows, 4);
	ck_assert_int_eq(k.rows[0].rank, 0);
	ck_assert_int_eq(k.rows[2].rank, 2);
	ck_assert_str_eq(k.rows[3].name, "only_r2");
	tt_kbreak_free(&k);

	/* --ranks 1: one rank only */
	int64_t only[1] = {1};
	o.ranks = only;
	o.nranks = 1;
	size_t n;
	struct tt_temporal_row *tr = tt_temporal(m, &o, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(tr[0].rank, 1);
	ck_assert_int_eq(tr[0].kernel_ns, 10 * US);
	tt_temporal_free(tr);
	tt_model_free(m);
}
END_TEST

/* ---- a rank without GPU events ---- */

static const char cpu_trace[] =
	"{\"distributedInfo\": {\"rank\": 34}, \"traceEvents\": ["
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"
	"\"ts\":0,\"dur\":50,\"args\":{}}"
	"]}";

static bool has_note(const struct tt_table *t, const char *s)
{
	for (size_t i = 0; i < t->nnotes; i++)
		if (strstr(t->notes[i], s))
			return true;
	return false;
}

START_TEST(test_no_gpu)
{
	struct tt_model *m = tl_load_json1(cpu_trace);
	struct tt_aopts o = {0};
	size_t n;
	struct tt_temporal_row *t = tt_temporal(m, &o, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(!t[0].has_gpu);
	ck_assert(isnan(t[0].idle_pct));
	tt_temporal_free(t);

	/* the reports build, keep the rank with empty cells and say why */
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	struct tt_table **tab;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("temporal", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(tab[0]->nrows, 1);
	ck_assert_int_eq(tt_table_cell(tab[0], 0, 0)->v.i, 34);
	ck_assert_int_eq(tt_table_cell(tab[0], 0, 1)->kind, TT_CV_NONE);
	ck_assert(has_note(tab[0], "no GPU activity"));
	tt_tables_free(tab, n);

	ck_assert_int_eq(tt_report_build("overlap", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_uint_eq(tab[0]->nrows, 1);
	ck_assert_int_eq(tt_table_cell(tab[0], 0, 1)->kind, TT_CV_NONE); /* HTA's NaN */
	tt_tables_free(tab, n);

	ck_assert_int_eq(tt_report_build("kernels", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_uint_eq(n, 4); /* no user annotations: no 5th table */
	ck_assert_str_eq(tab[0]->name, "kernel_type_breakdown");
	ck_assert_uint_eq(tab[0]->nrows, 0);
	ck_assert_str_eq(tab[1]->name, "kernel_breakdown");
	ck_assert_uint_eq(tab[1]->nrows, 0);
	ck_assert(has_note(tab[1], "no GPU activity"));
	tt_tables_free(tab, n);
	tt_model_free(m);
}
END_TEST

/* ---- the report tables carry HTA's column names ---- */

START_TEST(test_report_columns)
{
	struct tt_model *m = tl_load_json1(overlap_trace);
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	ro.format = TT_FMT_CSV;
	ro.explain = true;
	struct tt_table **tab;
	size_t n;
	struct tt_err err;
	static const char *const temporal[] = {
		"rank", "idle_time(us)", "compute_time(us)", "non_compute_time(us)",
		"kernel_time(us)", "idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"};
	ck_assert_int_eq(tt_report_build("temporal", m, NULL, &ro, &tab, &n, &err), 0);
	for (int c = 0; c < 8; c++)
		ck_assert_str_eq(tab[0]->cols[c].name, temporal[c]);
	/* 66.67 rounded like numpy */
	ck_assert_double_eq(tt_table_cell(tab[0], 0, 6)->v.d, 66.67);
	tt_tables_free(tab, n);

	ck_assert_int_eq(tt_report_build("overlap", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_str_eq(tab[0]->cols[1].name, "comp_comm_overlap_pctg");
	ck_assert_double_eq(tt_table_cell(tab[0], 0, 1)->v.d, 50);
	tt_tables_free(tab, n);

	static const char *const kb[] = {"name",      "sum (us)",  "max (us)", "min (us)",
					 "stddev",    "mean (us)", "kernel_type", "rank"};
	ck_assert_int_eq(tt_report_build("kernels", m, NULL, &ro, &tab, &n, &err), 0);
	ck_assert_str_eq(tab[0]->cols[0].name, "kernel_type");
	ck_assert_str_eq(tab[0]->cols[1].name, "sum");
	ck_assert_str_eq(tab[0]->cols[2].name, "percentage");
	/* 50/150*100 = 33.33 -> 33.3, three rows of 50 µs */
	ck_assert_uint_eq(tab[0]->nrows, 3);
	ck_assert_double_eq(tt_table_cell(tab[0], 0, 2)->v.d, 33.3);
	for (int c = 0; c < 8; c++)
		ck_assert_str_eq(tab[1]->cols[c].name, kb[c]);
	int rule = tt_table_col(tab[1], "rule");
	ck_assert_int_ge(rule, 0);
	/* row 0 is the NCCL kernel (COMMUNICATION sorts first) */
	ck_assert_str_eq(tt_table_cell(tab[1], 0, rule)->v.s, "name starts with 'nccl'");
	ck_assert_str_eq(tab[2]->name, "kernels_across_ranks");
	tt_tables_free(tab, n);
	tt_model_free(m);
}
END_TEST

/* ---- classification (metrics.md §1) ---- */

START_TEST(test_classify)
{
	const char *rule;
	ck_assert_int_eq(tt_kernel_type("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)",
					&rule),
			 TT_KT_COMM);
	ck_assert_str_eq(rule, "name starts with 'nccl'");
	ck_assert_int_eq(tt_kernel_type("void ncclKernel_AllGather(ncclWork*)", &rule), TT_KT_COMM);
	ck_assert_str_eq(rule, "name contains 'ncclKernel'");
	/* HTA: COMPUTATION (no rule matches "void ncclDevKernel"); tracetop's
	 * own rule makes it COMMUNICATION */
	ck_assert_int_eq(tt_kernel_type("void ncclDevKernel_Generic(ncclDevComm*)", &rule),
			 TT_KT_COMM);
	ck_assert(strstr(rule, "tracetop rule") != NULL);
	/* "Sync" anywhere: OTHER, even for a real kernel */
	ck_assert_int_eq(tt_kernel_type("void at::native::SyncBatchNormForward<float>()", NULL),
			 TT_KT_OTHER);
	ck_assert_int_eq(tt_kernel_type("Stream Wait Event", NULL), TT_KT_OTHER);
	ck_assert_int_eq(tt_kernel_type("Memset (Device)", &rule), TT_KT_MEM);
	ck_assert_str_eq(rule, "name starts with 'Memset'");
	ck_assert_int_eq(tt_kernel_type("Memcpy DtoD (Device -> Device)", NULL), TT_KT_MEM);
	ck_assert_int_eq(tt_kernel_type("dma_copy", NULL), TT_KT_MEM);
	/* Memcpy inside a name: not memory, not computation */
	ck_assert_int_eq(tt_kernel_type("void my_Memcpy_kernel()", NULL), TT_KT_OTHER);
	/* hip*: COMMUNICATION, even memcpy-like names */
	ck_assert_int_eq(tt_kernel_type("hipMemcpyAsync", &rule), TT_KT_COMM);
	ck_assert_str_eq(rule, "name starts with 'hip'");
	ck_assert_int_eq(tt_kernel_type("hipLaunchKernel", NULL), TT_KT_COMM);
	ck_assert_int_eq(tt_kernel_type("cudaLaunchKernel", NULL), TT_KT_OTHER);
	ck_assert_int_eq(tt_kernel_type("ampere_sgemm_128x64_nn", &rule), TT_KT_COMP);
}
END_TEST

static Suite *breakdown_suite(void)
{
	Suite *s = suite_create("breakdown");
	TCase *tc = tcase_create("breakdown");
	tcase_add_test(tc, test_overlap_two_streams);
	tcase_add_test(tc, test_gap_zero_other);
	tcase_add_test(tc, test_no_launch_filtered);
	tcase_add_test(tc, test_rank_emptied);
	tcase_add_test(tc, test_fractional_ts);
	tcase_add_test(tc, test_rounding_paths);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_others_grouping);
	tcase_add_test(tc, test_across_ranks);
	tcase_add_test(tc, test_no_gpu);
	tcase_add_test(tc, test_report_columns);
	tcase_add_test(tc, test_classify);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(breakdown_suite());
}
