/* analysis room: idle time breakdown and kernel launch statistics on tiny
 * hand-made traces; every expected number is worked out in a comment. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/idle.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "testlib.h"

static const struct tt_load_opts one_thread = {.threads = 1};

#define US 1000 /* ns per µs */

#define RT(name, ts, dur, corr)                                                              \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,"   \
	"\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
#define KERN(name, stream, ts, dur, corr)                                                    \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream    \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"stream\":" #stream                      \
	",\"correlation\":" #corr "}}"

/* Stream 7 (times in µs; HTA does not round: every ts is an integer):
 *
 *   k1 [0,10)    launched by r1 at 0   first kernel: other, no gap
 *   k2 [15,20)   launched by r2 at 12  12 > end(k1) = 10: host_wait, gap 15-10 = 5
 *   k3 [100,110) no correlation        no launch; gap 100-20 = 80 >= 30: other, 80
 *   k4 [105,120) launched at 50        50 <= 110; gap 105-110 = -5 < 30: kernel_wait, -5
 *   k5 [130,135) launched at 60        60 <= 120; gap 130-120 = 10 < 30: kernel_wait, 10
 *   k6 [200,210) launched at 70        70 <= 135; gap 200-135 = 65 >= 30: other, 65
 *   a cuda_sync "Stream Wait Event" [20,95) on stream 7 is not in G_k: if it
 *   were, k3's gap would be 100-95 = 5.
 *
 *   host_wait   {5}      sum 5
 *   kernel_wait {-5, 10} sum 5
 *   other       {80, 65} sum 145     stream total 155
 *   ratios 5/155 = 0.0323 -> 0.03, 0.03, 145/155 = 0.9355 -> 0.94
 *
 * Stream 9: one kernel only, so one `other` row with no gap: idle 0, ratio
 * 0/0 = NaN, count 0. */
static const char *idle_trace =
	"{\"traceEvents\":["
	RT("cudaLaunchKernel", 0, 1, 1) ","
	RT("cudaLaunchKernel", 12, 2, 2) ","
	RT("cudaLaunchKernel", 50, 2, 4) ","
	RT("cudaLaunchKernel", 60, 2, 5) ","
	RT("cudaLaunchKernel", 70, 2, 6) ","
	RT("cudaLaunchKernel", 80, 2, 9) ","
	KERN("k1", 7, 0, 10, 1) ","
	KERN("k2", 7, 15, 5, 2) ","
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,\"ts\":100,"
	"\"dur\":10,\"args\":{\"stream\":7}},"
	KERN("k4", 7, 105, 15, 4) ","
	KERN("k5", 7, 130, 5, 5) ","
	KERN("k6", 7, 200, 10, 6) ","
	KERN("solo", 9, 300, 10, 9) ","
	"{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\",\"pid\":0,"
	"\"tid\":7,\"ts\":20,\"dur\":75,\"args\":{\"stream\":7,\"correlation\":99}}"
	"],\"distributedInfo\":{\"rank\":0},\"schemaVersion\":1}";

static const char *cpu_only_trace =
	"{\"traceEvents\":["
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,"
	"\"ts\":0,\"dur\":5,\"args\":{}}"
	"],\"distributedInfo\":{\"rank\":1},\"schemaVersion\":1}";

static const struct tt_idle_stream *stream_of(const struct tt_idle *r, int64_t stream)
{
	for (size_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].stream == stream)
			return &r->streams[i];
	ck_abort_msg("stream %lld missing", (long long)stream);
	return NULL;
}

START_TEST(idle_categories)
{
	struct tt_model *m = tl_load_json_opts(&idle_trace, 1, &one_thread);
	struct tt_idle *r = tt_idle_breakdown(m, NULL, 30);
	ck_assert_uint_eq(r->nranks, 1);
	ck_assert(!r->ranks[0].no_gpu);
	ck_assert_uint_eq(r->nstreams, 2);
	const struct tt_idle_stream *s7 = stream_of(r, 7);
	ck_assert_uint_eq(s7->nkernels, 6); /* the wait event is not a kernel */
	ck_assert_uint_eq(s7->ngaps, 5);
	ck_assert_int_eq(s7->idle_ns, 155 * US);
	const struct tt_idle_catsum *h = &s7->cat[TT_IDLE_HOST_WAIT];
	const struct tt_idle_catsum *k = &s7->cat[TT_IDLE_KERNEL_WAIT];
	const struct tt_idle_catsum *o = &s7->cat[TT_IDLE_OTHER];
	ck_assert(h->present && k->present && o->present);
	ck_assert_int_eq(h->idle_ns, 5 * US);
	ck_assert_int_eq(k->idle_ns, 5 * US);
	ck_assert_int_eq(o->idle_ns, 145 * US);
	ck_assert_double_eq_tol(h->ratio, 5.0 / 155, 1e-12);
	ck_assert_double_eq_tol(o->ratio, 145.0 / 155, 1e-12);
	/* the gaps in ts order, with their neighbours */
	const struct tt_idle_gap *g = &r->gaps[s7->first_gap];
	const struct tt_rank *rk = m->ranks[0];
	static const int64_t dur[] = {5, 80, -5, 10, 65};
	static const uint8_t cat[] = {TT_IDLE_HOST_WAIT, TT_IDLE_OTHER, TT_IDLE_KERNEL_WAIT,
				      TT_IDLE_KERNEL_WAIT, TT_IDLE_OTHER};
	static const char *const next[] = {"k2", "k3", "k4", "k5", "k6"};
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(g[i].dur, dur[i] * US);
		ck_assert_uint_eq(g[i].cat, cat[i]);
		ck_assert_str_eq(tt_ev_name(rk, &rk->ev[g[i].next]), next[i]);
	}
	ck_assert_str_eq(tt_ev_name(rk, &rk->ev[g[0].prev]), "k1");
	ck_assert_int_eq(g[0].launch - rk->ev[g[0].next].ts, -3 * US); /* r2 at 12, k2 at 15 */
	ck_assert_int_eq(g[1].launch, INT64_MIN);                     /* k3: no launch */
	/* largest first: 80 (k3), 65 (k6), 10, 5, -5 */
	ck_assert_int_eq(r->gaps[r->by_dur[0]].dur, 80 * US);
	ck_assert_int_eq(r->gaps[r->by_dur[1]].dur, 65 * US);
	ck_assert_int_eq(r->gaps[r->by_dur[4]].dur, -5 * US);

	/* stream 9: a single kernel */
	const struct tt_idle_stream *s9 = stream_of(r, 9);
	ck_assert(s9->cat[TT_IDLE_OTHER].present);
	ck_assert(!s9->cat[TT_IDLE_HOST_WAIT].present && !s9->cat[TT_IDLE_KERNEL_WAIT].present);
	ck_assert_int_eq(s9->cat[TT_IDLE_OTHER].idle_ns, 0);
	ck_assert(isnan(s9->cat[TT_IDLE_OTHER].ratio));
	ck_assert_uint_eq(s9->cat[TT_IDLE_OTHER].st.count, 0);
	ck_assert(isnan(s9->cat[TT_IDLE_OTHER].st.mean));
	tt_idle_free(r);

	/* kernel delay 90 µs: the gaps 80 and 65 become kernel_wait, and no
	 * `other` gap is left (only the first kernel keeps the row) */
	r = tt_idle_breakdown(m, NULL, 90);
	s7 = stream_of(r, 7);
	ck_assert_int_eq(s7->cat[TT_IDLE_KERNEL_WAIT].idle_ns, (-5 + 10 + 80 + 65) * US);
	ck_assert(s7->cat[TT_IDLE_OTHER].present);
	ck_assert_uint_eq(s7->cat[TT_IDLE_OTHER].st.count, 0);
	ck_assert_int_eq(s7->cat[TT_IDLE_OTHER].idle_ns, 0);
	tt_idle_free(r);
	tt_model_free(m);
}
END_TEST

/* describe() of the kernel_wait gaps {-5, 10} and other gaps {65, 80}:
 *   kernel_wait: mean 2.5; std = sqrt((7.5^2 + 7.5^2) / 1) = sqrt(112.5) = 10.6066;
 *                25% at position 0.25: -5 + 15 * 0.25 = -1.25; 50% 2.5; 75% 6.25
 *   other:       mean 72.5, std 10.6066, 25% 68.75, 50% 72.5, 75% 76.25
 *   host_wait {5}: count 1, mean 5, std NaN (n - 1 = 0), quantiles 5 */
START_TEST(idle_stats)
{
	struct tt_model *m = tl_load_json_opts(&idle_trace, 1, &one_thread);
	struct tt_idle *r = tt_idle_breakdown(m, NULL, 30);
	const struct tt_idle_stream *s7 = stream_of(r, 7);
	const struct tt_idle_stats *k = &s7->cat[TT_IDLE_KERNEL_WAIT].st;
	ck_assert_uint_eq(k->count, 2);
	ck_assert_double_eq_tol(k->mean, 2.5, 1e-12);
	ck_assert_double_eq_tol(k->std, sqrt(112.5), 1e-12);
	ck_assert_double_eq(k->min, -5);
	ck_assert_double_eq_tol(k->q25, -1.25, 1e-12);
	ck_assert_double_eq_tol(k->q50, 2.5, 1e-12);
	ck_assert_double_eq_tol(k->q75, 6.25, 1e-12);
	ck_assert_double_eq(k->max, 10);
	const struct tt_idle_stats *o = &s7->cat[TT_IDLE_OTHER].st;
	ck_assert_uint_eq(o->count, 2); /* the first kernel's missing gap is not counted */
	ck_assert_double_eq_tol(o->mean, 72.5, 1e-12);
	ck_assert_double_eq_tol(o->q25, 68.75, 1e-12);
	ck_assert_double_eq_tol(o->q75, 76.25, 1e-12);
	const struct tt_idle_stats *h = &s7->cat[TT_IDLE_HOST_WAIT].st;
	ck_assert_uint_eq(h->count, 1);
	ck_assert_double_eq(h->mean, 5);
	ck_assert(isnan(h->std));
	ck_assert_double_eq(h->q25, 5);
	tt_idle_free(r);
	tt_model_free(m);

	/* {1, 2, 4, 8}: mean 3.75; squared deviations 7.5625 + 3.0625 + 0.0625 +
	 * 18.0625 = 28.75, std = sqrt(28.75 / 3) = 3.0957; quantile positions
	 * 0.75, 1.5, 2.25: 1.75, 3, 4 + 4 * 0.25 = 5 */
	static const double v[] = {1, 2, 4, 8};
	struct tt_idle_stats st;
	tt_idle_describe(v, 4, &st);
	ck_assert_uint_eq(st.count, 4);
	ck_assert_double_eq_tol(st.mean, 3.75, 1e-12);
	ck_assert_double_eq_tol(st.std, sqrt(28.75 / 3), 1e-12);
	ck_assert_double_eq_tol(st.q25, 1.75, 1e-12);
	ck_assert_double_eq_tol(st.q50, 3, 1e-12);
	ck_assert_double_eq_tol(st.q75, 5, 1e-12);
	tt_idle_describe(v, 0, &st);
	ck_assert_uint_eq(st.count, 0);
	ck_assert(isnan(st.mean) && isnan(st.min) && isnan(st.max));
}
END_TEST

/* The report: HTA's rounding and a rank without GPU that does not fail. */
START_TEST(idle_report)
{
	const char *json[2] = {idle_trace, cpu_only_trace};
	struct tt_model *m = tl_load_json_opts(json, 2, &one_thread);
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_table **t;
	size_t n;
	struct tt_err err = {0};
	ck_assert_int_eq(tt_report_build("idle", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	struct tt_table *b = t[0];
	ck_assert_str_eq(b->name, "idle_time_breakdown");
	/* rows: stream 7 host/kernel/other, stream 9 other */
	ck_assert_uint_eq(b->nrows, 4);
	int ratio = tt_table_col(b, "idle_time_ratio"), idle = tt_table_col(b, "idle_time");
	ck_assert_double_eq(tt_cell_num(tt_table_cell(b, 0, ratio)), 0.03);
	ck_assert_double_eq(tt_cell_num(tt_table_cell(b, 2, ratio)), 0.94);
	ck_assert_double_eq(tt_cell_num(tt_table_cell(b, 2, idle)), 145 * US);
	ck_assert(isnan(tt_cell_num(tt_table_cell(b, 3, ratio)))); /* 0/0: empty */
	bool noted = false;
	for (size_t i = 0; i < b->nnotes; i++)
		noted |= strstr(b->notes[i], "rank 1") && strstr(b->notes[i], "no GPU activity");
	ck_assert(noted);
	/* stats: kernel_wait std sqrt(112.5) = 10.6066 -> 10.61 */
	struct tt_table *s = t[1];
	ck_assert_str_eq(s->name, "idle_interval_stats");
	ck_assert_double_eq(tt_cell_num(tt_table_cell(s, 1, tt_table_col(s, "std"))), 10.61);
	ck_assert(isnan(tt_cell_num(tt_table_cell(s, 3, tt_table_col(s, "mean")))));
	/* gaps: the largest is k2 -> k3, 80 µs, starting at 20 µs */
	struct tt_table *g = t[2];
	ck_assert_str_eq(g->name, "idle_gaps");
	ck_assert_uint_eq(g->nrows, 5);
	ck_assert_double_eq(tt_cell_num(tt_table_cell(g, 0, tt_table_col(g, "duration"))), 80 * US);
	ck_assert_double_eq(tt_cell_num(tt_table_cell(g, 0, tt_table_col(g, "start"))), 20 * US);
	ck_assert_str_eq(tt_table_cell(g, 0, tt_table_col(g, "next_kernel"))->v.s, "k3");
	tt_tables_free(t, n);

	/* --ranks 1: only the CPU-only rank, still no error */
	int64_t one = 1;
	o.a.ranks = &one;
	o.a.nranks = 1;
	ck_assert_int_eq(tt_report_build("idle", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(t[0]->nrows, 0);
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* Launch statistics (µs):
 *   corr 1: cudaLaunchKernel [0,10), kernel at 5 dur 3: delay max(0, 5 - 10) = 0
 *   corr 2: cudaLaunchKernel [20,80) (60 > 50: runtime outlier), kernel at
 *           300 dur 100: delay 300 - 80 = 220 > 100: delay outlier
 *   corr 3: cudaLaunchKernel [400,410) launching two GPU ops (a graph-like
 *           launch: one correlation), at 420 dur 2 and at 425 dur 20:
 *           two rows, delays 10 and 15; the first is a short kernel (2 < 10)
 *   corr 4: cuLaunchKernel [500,505) + kernel: not in HTA's list, no row
 *   corr 5: cudaMemcpyAsync [600,604) + Memcpy [610,611): delay 6, short
 *   corr 6: cudaGraphLaunch [700,710) + kernel: not in HTA's list, no row
 *   rows 5: cpu sum 10+60+10+10+4 = 94, gpu sum 3+100+2+20+1 = 126,
 *   delay sum 0+220+10+15+6 = 251, max 220; short kernels (call <= 50 and
 *   GPU op shorter than the call): corr 1 (3 < 10), corr 3's first op
 *   (2 < 10), corr 5 (1 < 4) = 3 */
static const char *launch_trace =
	"{\"traceEvents\":["
	RT("cudaLaunchKernel", 0, 10, 1) ","
	KERN("a", 7, 5, 3, 1) ","
	RT("cudaLaunchKernel", 20, 60, 2) ","
	KERN("b", 7, 300, 100, 2) ","
	RT("cudaLaunchKernel", 400, 10, 3) ","
	KERN("c1", 7, 420, 2, 3) ","
	KERN("c2", 8, 425, 20, 3) ","
	RT("cuLaunchKernel", 500, 5, 4) ","
	KERN("triton", 7, 510, 5, 4) ","
	RT("cudaMemcpyAsync", 600, 4, 5) ","
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD\",\"pid\":0,\"tid\":7,"
	"\"ts\":610,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":5}},"
	RT("cudaGraphLaunch", 700, 10, 6) ","
	KERN("g", 7, 720, 5, 6)
	"],\"distributedInfo\":{\"rank\":0},\"schemaVersion\":1}";

START_TEST(launch_pairs)
{
	const char *json[2] = {launch_trace, cpu_only_trace};
	struct tt_model *m = tl_load_json_opts(json, 2, &one_thread);
	struct tt_launch *l = tt_launch_stats(m, NULL, 50, 100);
	ck_assert_uint_eq(l->nranks, 2);
	const struct tt_launch_rank *r = &l->ranks[0];
	const struct tt_rank *rk = m->ranks[r->rank_idx];
	ck_assert_uint_eq(r->nrows, 5);
	static const uint32_t corr[] = {1, 2, 3, 3, 5};
	static const int64_t cpu[] = {10, 60, 10, 10, 4}, gpu[] = {3, 100, 2, 20, 1},
			     delay[] = {0, 220, 10, 15, 6};
	for (int i = 0; i < 5; i++) {
		ck_assert_uint_eq(r->rows[i].corr, corr[i]);
		ck_assert_int_eq(r->rows[i].cpu_dur, cpu[i] * US);
		ck_assert_int_eq(r->rows[i].gpu_dur, gpu[i] * US);
		ck_assert_int_eq(r->rows[i].delay, delay[i] * US);
	}
	ck_assert_str_eq(tt_ev_name(rk, &rk->ev[r->rows[2].gpu]), "c1");
	ck_assert_str_eq(tt_ev_name(rk, &rk->ev[r->rows[3].gpu]), "c2");
	ck_assert_str_eq(tt_ev_name(rk, &rk->ev[r->rows[3].cpu]), "cudaLaunchKernel");
	ck_assert_int_eq(r->cpu_sum, 94 * US);
	ck_assert_int_eq(r->gpu_sum, 126 * US);
	ck_assert_int_eq(r->delay_sum, 251 * US);
	ck_assert_int_eq(r->delay_max, 220 * US);
	ck_assert_uint_eq(r->n_runtime_outliers, 1);
	ck_assert_uint_eq(r->n_delay_outliers, 1);
	ck_assert_uint_eq(r->n_short, 3);
	ck_assert_uint_eq(r->n_ignored, 1); /* the cuLaunchKernel */
	ck_assert(!r->no_gpu);
	/* rank 1: no GPU, no rows */
	ck_assert(l->ranks[1].no_gpu);
	ck_assert_uint_eq(l->ranks[1].nrows, 0);
	tt_launch_free(l);

	/* other cutoffs: runtime 5 -> every call but the memcpy's (4) is an
	 * outlier; the short kernels need cpu <= 5: only corr 5 */
	l = tt_launch_stats(m, NULL, 5, 1000);
	ck_assert_uint_eq(l->ranks[0].n_runtime_outliers, 4);
	ck_assert_uint_eq(l->ranks[0].n_delay_outliers, 0);
	ck_assert_uint_eq(l->ranks[0].n_short, 1);
	tt_launch_free(l);
	tt_model_free(m);
}
END_TEST

START_TEST(launch_report)
{
	const char *json[2] = {launch_trace, cpu_only_trace};
	struct tt_model *m = tl_load_json_opts(json, 2, &one_thread);
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.format = TT_FMT_CSV;
	struct tt_table **t;
	size_t n;
	struct tt_err err = {0};
	ck_assert_int_eq(tt_report_build("launch", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(t[0]->name, "cuda_kernel_launch_stats");
	ck_assert_uint_eq(t[0]->nrows, 5);
	struct tt_table *s = t[1];
	ck_assert_str_eq(s->name, "launch_summary");
	ck_assert_int_ge(tt_table_col(s, "runtime_outliers_gt50"), 0);
	ck_assert_int_ge(tt_table_col(s, "launch_delay_outliers_gt100"), 0);
	/* mean delay 251 / 5 = 50.2 µs; the CPU-only rank: 0 rows, empty means */
	ck_assert_double_eq_tol(tt_cell_num(tt_table_cell(s, 0, tt_table_col(s, "launch_delay_mean"))),
				50.2 * US, 1e-9);
	ck_assert_int_eq(tt_cell_num(tt_table_cell(s, 1, tt_table_col(s, "rows"))), 0);
	ck_assert(isnan(tt_cell_num(tt_table_cell(s, 1, tt_table_col(s, "cpu_duration_mean")))));
	/* outlier lists, longest first, with names for drilldown */
	ck_assert_str_eq(t[2]->name, "runtime_outliers");
	ck_assert_uint_eq(t[2]->nrows, 1);
	ck_assert_str_eq(tt_table_cell(t[2], 0, tt_table_col(t[2], "kernel"))->v.s, "b");
	ck_assert_str_eq(t[4]->name, "short_kernels");
	ck_assert_uint_eq(t[4]->nrows, 3);
	/* cpu 10 (corr 1, then corr 3 in row order), then cpu 4 */
	ck_assert_int_eq(tt_cell_num(tt_table_cell(t[4], 0, tt_table_col(t[4], "correlation"))), 1);
	ck_assert_int_eq(tt_cell_num(tt_table_cell(t[4], 2, tt_table_col(t[4], "correlation"))), 5);
	tt_tables_free(t, n);

	/* text: the outlier lists are cut to --top rows */
	o.format = TT_FMT_TABLE;
	o.top = 2;
	ck_assert_int_eq(tt_report_build("launch", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(t[0]->nrows, 2);
	ck_assert_uint_eq(t[4]->nrows, 2);
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* The same launches with correlation ids far apart (each id N as
 * N00000007: too sparse for a bit per id, so each is searched in the
 * sorted list of the launch calls' ids): the same rows, in the same order,
 * the same calls and GPU ops, and cuLaunchKernel's and cudaGraphLaunch's
 * kernels (ids between the listed ones) still left out. */
START_TEST(launch_sparse_ids)
{
	const char *key = "\"correlation\":";
	size_t len = strlen(launch_trace);
	char *sparse = tt_malloc(2 * len), *w = sparse;
	for (const char *p = launch_trace; *p;) {
		if (strncmp(p, key, strlen(key)) != 0) {
			*w++ = *p++;
			continue;
		}
		w += sprintf(w, "%s", key);
		for (p += strlen(key); *p >= '0' && *p <= '9';)
			*w++ = *p++;
		w += sprintf(w, "00000007");
	}
	*w = 0;
	const char *json[2] = {launch_trace, sparse};
	struct tt_model *m = tl_load_json_opts(json, 2, &one_thread);
	struct tt_launch *l = tt_launch_stats(m, NULL, 50, 100);
	ck_assert_uint_eq(l->nranks, 2);
	const struct tt_launch_rank *d = &l->ranks[0], *s = &l->ranks[1];
	ck_assert_uint_eq(d->nrows, 5);
	ck_assert_uint_eq(s->nrows, d->nrows);
	for (size_t i = 0; i < d->nrows; i++) {
		ck_assert_uint_eq(s->rows[i].corr, d->rows[i].corr * 100000000u + 7);
		ck_assert_uint_eq(s->rows[i].cpu, d->rows[i].cpu);
		ck_assert_uint_eq(s->rows[i].gpu, d->rows[i].gpu);
		ck_assert_int_eq(s->rows[i].delay, d->rows[i].delay);
	}
	ck_assert_uint_eq(s->n_ignored, 1);
	tt_launch_free(l);
	tt_model_free(m);
	free(sparse);
}
END_TEST

/* HTA rounds fractional timestamps in float64: at epoch scale a double
 * holds µs in steps of 0.25.  cudaMemcpyAsync ts 1712195495506240.028 is
 * read as ...240.0 (ceil 240); its end 240.0 + 4.95 = ...244.95 is stored
 * as ...245.0 (floor 245): cpu 5 µs (the exact rule would give 244 - 241 =
 * 3).  The memcpy at ...247.208 is read as ...247.25 (ceil 248), its end
 * 247.25 + 1.28 = 248.53 -> 248.5 (floor 248): gpu 0; delay 248 - 245 = 3.
 * (These are HTA's numbers for correlation 135184 of ns-resolution.) */
START_TEST(launch_float_rounding)
{
	static const char *json =
		"{\"traceEvents\":["
		RT("cudaMemcpyAsync", 1712195495506240.028, 4.95, 135184) ","
		"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoD\",\"pid\":0,"
		"\"tid\":7,\"ts\":1712195495506247.208,\"dur\":1.28,"
		"\"args\":{\"stream\":7,\"correlation\":135184}}"
		"],\"distributedInfo\":{\"rank\":0},\"schemaVersion\":1}";
	struct tt_model *m = tl_load_json_opts(&json, 1, &one_thread);
	ck_assert(m->ranks[0]->hta_round);
	struct tt_launch *l = tt_launch_stats(m, NULL, 50, 100);
	ck_assert_uint_eq(l->ranks[0].nrows, 1);
	ck_assert_int_eq(l->ranks[0].rows[0].cpu_dur, 5 * US);
	ck_assert_int_eq(l->ranks[0].rows[0].gpu_dur, 0);
	ck_assert_int_eq(l->ranks[0].rows[0].delay, 3 * US);
	tt_launch_free(l);
	/* --exact: the ns times as written: 4.95, 1.28, 247.208 - 244.978 = 2.23 */
	struct tt_aopts ex = {0};
	ex.exact = true;
	l = tt_launch_stats(m, &ex, 50, 100);
	ck_assert_int_eq(l->ranks[0].rows[0].cpu_dur, 4950);
	ck_assert_int_eq(l->ranks[0].rows[0].gpu_dur, 1280);
	ck_assert_int_eq(l->ranks[0].rows[0].delay, 2230);
	tt_launch_free(l);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("idle");
	TCase *tc = tcase_create("idle");
	tcase_add_test(tc, idle_categories);
	tcase_add_test(tc, idle_stats);
	tcase_add_test(tc, idle_report);
	tcase_add_test(tc, launch_pairs);
	tcase_add_test(tc, launch_report);
	tcase_add_test(tc, launch_sparse_ids);
	tcase_add_test(tc, launch_float_rounding);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
