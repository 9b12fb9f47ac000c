/* analysis counters: queue length and memory bandwidth on hand-made traces,
 * every expected number worked out by hand; the report tables; the trace
 * rewriter and `tracetop counters` output read back by the loader. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/counters.h"
#include "tracetop/report.h"
#include "tracetop/rewrite.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"
#include "testlib.h"

#define EPS 1e-12

/* fast path and cJSON must agree on every event */
static const struct tt_load_opts verify = {.verify = true, .no_cache = true};

static void compute1(const struct tt_model *m, bool exact, struct tt_counters_rank *cr)
{
	struct tt_aopts a = {0};
	a.exact = exact;
	tt_counters_rank_compute(m, 0, &a, cr);
}

#define LAUNCH(ts, corr)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,"  \
	"\"tid\":1,\"ts\":" ts ",\"dur\":5,\"args\":{\"correlation\":" corr "}}"
#define KERNEL(ts, corr)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":" ts    \
	",\"dur\":10,\"args\":{\"stream\":7,\"correlation\":" corr "}}"
#define COPY(name, ts, dur, bw)                                                             \
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"" name "\",\"pid\":0,\"tid\":8,"     \
	"\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"stream\":8,\"memory bandwidth (GB/s)\":" bw \
	"}}"

/* two launches (ts 10, 20) and their kernels (ts 30, 45) on stream 7 */
static const char two_launches[] = "{\"traceEvents\":[" LAUNCH("10", "1") "," LAUNCH("20", "2")
	"," KERNEL("30", "1") "," KERNEL("45", "2") "]}";

START_TEST(queue_two_launches)
{
	struct tt_model *m = tl_load_json1_opts(two_launches, &verify);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert(cr.gpu);
	ck_assert_uint_eq(cr.nq, 1);
	const struct tt_queue_series *q = &cr.q[0];
	ck_assert_int_eq(q->stream, 7);
	ck_assert_int_eq(q->device, 0);
	ck_assert_uint_eq(q->launches, 2);
	/* +1@10 -> 1, +1@20 -> 2, -1@30 -> 1, -1@45 -> 0 */
	ck_assert_uint_eq(q->npts, 4);
	const int64_t ts[4] = {10000, 20000, 30000, 45000};
	const double v[4] = {1, 2, 1, 0};
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(q->pts[i].ts, ts[i]);
		ck_assert(q->pts[i].value == v[i]);
	}
	/* describe([1,2,1,0]): mean 4/4 = 1; deviations 0,1,0,-1, squares sum
	 * 2, std = sqrt(2/3); sorted [0,1,1,2]: 25% at index 0.75 -> 0.75,
	 * 50% at 1.5 -> 1, 75% at 2.25 -> 1.25 */
	ck_assert_uint_eq(q->stats.count, 4);
	ck_assert_double_eq_tol(q->stats.mean, 1.0, EPS);
	ck_assert_double_eq_tol(q->stats.std, sqrt(2.0 / 3.0), EPS);
	ck_assert(q->stats.min == 0 && q->stats.max == 2);
	ck_assert_double_eq_tol(q->stats.q25, 0.75, EPS);
	ck_assert_double_eq_tol(q->stats.q50, 1.0, EPS);
	ck_assert_double_eq_tol(q->stats.q75, 1.25, EPS);
	/* sparkline bins: [0,10) before anything, [15,25) holds 1 then 2,
	 * [30,40) holds 1 (a step down at 30), [50,60) after the end */
	ck_assert(tt_step_max(q->pts, q->npts, 0, 10000) == 0);
	ck_assert(tt_step_max(q->pts, q->npts, 15000, 25000) == 2);
	ck_assert(tt_step_max(q->pts, q->npts, 30000, 40000) == 1);
	ck_assert(tt_step_max(q->pts, q->npts, 50000, 60000) == 0);
	ck_assert(tt_step_max(q->pts, q->npts, 21000, 22000) == 2); /* held, no point inside */
	/* never full; trace duration = last ts 45 - first ts 10 = 35 µs */
	ck_assert(!q->reaches_max);
	ck_assert_int_eq(q->full_ns, 0);
	ck_assert_int_eq(cr.span_ns, 35000);
	ck_assert_uint_eq(cr.nbw, 0); /* no memory events: no series */
	tt_counters_rank_free(&cr);
	tt_model_free(m);
}
END_TEST

/* launch at 10.2 µs, its kernel at 10.7 µs: HTA rounds both starts up to
 * 11 µs; the tie is ordered +1 before -1, so the queue reads 1 then 0 */
static const char tie[] = "{\"traceEvents\":[" LAUNCH("10.2", "1") "," KERNEL("10.7", "1") "]}";

START_TEST(queue_tie_launch_first)
{
	struct tt_model *m = tl_load_json1_opts(tie, &verify);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert_uint_eq(cr.nq, 1);
	ck_assert_uint_eq(cr.q[0].npts, 2);
	ck_assert_int_eq(cr.q[0].pts[0].ts, 11000);
	ck_assert_int_eq(cr.q[0].pts[1].ts, 11000);
	ck_assert(cr.q[0].pts[0].value == 1 && cr.q[0].pts[1].value == 0);
	ck_assert(cr.q[0].stats.min == 0); /* not -1 */
	tt_counters_rank_free(&cr);
	/* exact mode keeps the ns times */
	compute1(m, true, &cr);
	ck_assert_int_eq(cr.q[0].pts[0].ts, 10200);
	ck_assert_int_eq(cr.q[0].pts[1].ts, 10700);
	tt_counters_rank_free(&cr);
	tt_model_free(m);
}
END_TEST

/* a kernel linked to a runtime call that is not a launch, in a trace that
 * has a launch's name elsewhere: no queue steps, so no series (the steps'
 * array was not freed on that path; the unit tests run under ASan in CI) */
static const char not_a_launch[] = "{\"traceEvents\":["
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaFuncGetAttributes\","
	"\"pid\":100,\"tid\":1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1}},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"cudaLaunchKernel\",\"pid\":100,"
	"\"tid\":1,\"ts\":40,\"dur\":1}," KERNEL("30", "1") "]}";

START_TEST(queue_link_not_a_launch)
{
	struct tt_model *m = tl_load_json1_opts(not_a_launch, &verify);
	ck_assert_uint_eq(m->ranks[0]->nlinks, 1);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert(cr.gpu);
	ck_assert_uint_eq(cr.nq, 0);
	tt_counters_rank_free(&cr);
	tt_model_free(m);
}
END_TEST

/* HtoD A [100,110) 2 GB/s, B [105,115) 3 GB/s, C [115,120) 1 GB/s (C starts
 * where B ends), and one DtoH [50,60) 0.5 GB/s of its own kind */
static const char copies[] = "{\"traceEvents\":["
	COPY("Memcpy HtoD (Pinned -> Device)", "100", "10", "2.0") ","
	COPY("Memcpy HtoD (Pinned -> Device)", "105", "10", "3.0") ","
	COPY("Memcpy HtoD (Pageable -> Device)", "115", "5", "1.0") ","
	COPY("Memcpy DtoH (Device -> Pinned)", "50", "10", "0.5") "]}";

START_TEST(bw_overlapping_copies)
{
	struct tt_model *m = tl_load_json1_opts(copies, &verify);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert_uint_eq(cr.nq, 0); /* no launches */
	ck_assert_uint_eq(cr.nbw, 2);
	/* sorted by name: "Memcpy DtoH" < "Memcpy HtoD" */
	ck_assert_str_eq(cr.bw[0].name, "Memcpy DtoH");
	ck_assert_str_eq(cr.bw[1].name, "Memcpy HtoD");
	const struct tt_bw_series *d = &cr.bw[0], *h = &cr.bw[1];
	/* DtoH: +0.5@50 -> 0.5, -0.5@60 -> 0; one sample > 0 */
	ck_assert_uint_eq(d->npts, 2);
	ck_assert_uint_eq(d->stats.count, 1);
	ck_assert(d->stats.mean == 0.5 && isnan(d->stats.std));
	/* HtoD: +2@100 -> 2, +3@105 -> 5, -2@110 -> 3, at 115 B's end first:
	 * -3 -> 0, then C's start +1 -> 1, -1@120 -> 0 */
	ck_assert_uint_eq(h->copies, 3);
	ck_assert_uint_eq(h->npts, 6);
	const int64_t ts[6] = {100000, 105000, 110000, 115000, 115000, 120000};
	const double v[6] = {2, 5, 3, 0, 1, 0};
	for (int i = 0; i < 6; i++) {
		ck_assert_int_eq(h->pts[i].ts, ts[i]);
		ck_assert_double_eq_tol(h->pts[i].value, v[i], EPS);
	}
	/* samples > 0: [2,5,3,1]: mean 11/4 = 2.75; deviations -0.75, 2.25,
	 * 0.25, -1.75, squares 0.5625 + 5.0625 + 0.0625 + 3.0625 = 8.75,
	 * std = sqrt(8.75/3); sorted [1,2,3,5]: 25% 1.75, 50% 2.5, 75% 3.5 */
	ck_assert_uint_eq(h->stats.count, 4);
	ck_assert_double_eq_tol(h->stats.mean, 2.75, EPS);
	ck_assert_double_eq_tol(h->stats.std, sqrt(8.75 / 3), EPS);
	ck_assert(h->stats.min == 1 && h->stats.max == 5);
	ck_assert_double_eq_tol(h->stats.q25, 1.75, EPS);
	ck_assert_double_eq_tol(h->stats.q50, 2.5, EPS);
	ck_assert_double_eq_tol(h->stats.q75, 3.5, EPS);
	tt_counters_rank_free(&cr);
	tt_model_free(m);
}
END_TEST

/* Memset X at 200 with dur 0 and 4 GB/s lasts 1 µs; Memset Y [199,202)
 * 1 GB/s: +1@199 -> 1, +4@200 -> 5, -4@201 -> 1, -1@202 -> 0.  (With dur 0
 * kept, X's end would come before its start at 200 and the sum would dip.) */
static const char zero_dur[] = "{\"traceEvents\":["
	COPY("Memset (Device)", "200", "0", "4.0") ","
	COPY("Memset (Device)", "199", "3", "1.0") "]}";

START_TEST(bw_zero_duration_is_one_us)
{
	struct tt_model *m = tl_load_json1_opts(zero_dur, &verify);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert_uint_eq(cr.nbw, 1);
	const struct tt_bw_series *b = &cr.bw[0];
	ck_assert_str_eq(b->name, "Memset");
	ck_assert_uint_eq(b->npts, 4);
	const int64_t ts[4] = {199000, 200000, 201000, 202000};
	const double v[4] = {1, 5, 1, 0};
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(b->pts[i].ts, ts[i]);
		ck_assert_double_eq_tol(b->pts[i].value, v[i], EPS);
	}
	/* samples > 0: [1,5,1]: count 3, mean 7/3, min 1, max 5, median 1 */
	ck_assert_uint_eq(b->stats.count, 3);
	ck_assert_double_eq_tol(b->stats.mean, 7.0 / 3, EPS);
	ck_assert(b->stats.min == 1 && b->stats.max == 5 && b->stats.q50 == 1);
	tt_counters_rank_free(&cr);
	tt_model_free(m);
}
END_TEST

/* a CPU-only rank and a rank with GPU work but no memory events */
START_TEST(no_memory_no_gpu)
{
	static const char cpu_only[] =
		"{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\","
		"\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":3}]}";
	struct tt_model *m = tl_load_json1_opts(cpu_only, &verify);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert(!cr.gpu);
	ck_assert_uint_eq(cr.nq + cr.nbw, 0);
	tt_counters_rank_free(&cr);

	/* the report: empty tables with a note, no error */
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("counters", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(t[i]->nrows, 0);
	ck_assert_str_eq(t[0]->name, "queue_length_summary");
	ck_assert_str_eq(t[2]->name, "memory_bw_summary");
	ck_assert_uint_ge(t[2]->nnotes, 1);
	ck_assert_ptr_nonnull(strstr(t[2]->notes[0], "no GPU activity"));
	tt_tables_free(t, n);
	/* nothing to write */
	ck_assert_int_eq(tt_counters_write(m, &o, "/nonexistent/out.json", &err), -TT_E_NOTFOUND);
	tt_model_free(m);

	m = tl_load_json1_opts(two_launches, &verify);
	ck_assert_int_eq(tt_report_build("counters", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(t[0]->nrows, 1);
	ck_assert_uint_eq(t[2]->nrows, 0);
	ck_assert_ptr_nonnull(strstr(t[2]->notes[0], "no memory copy"));
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* Streams 7 and 9: 1100 launches each at 1000 + i µs, kernels at base + 2i
 * (base 5000 for stream 7, 6000 for stream 9).  The queue reaches 1024 at
 * launch 1023 (ts 2023) and falls below after kernel 76 (1100 - 77 = 1023)
 * at base + 152, so stream 7 is full 5152 - 2023 = 3129 µs and stream 9
 * 6152 - 2023 = 4129 µs.  Trace duration: last start 6000 + 2198 = 8198
 * minus first start 1000 = 7198 µs.  Both streams are reported (HTA would
 * keep only stream 9). */
static char *full_queue_trace(void)
{
	size_t cap = 1 << 20, n = 0;
	char *s = tt_malloc(cap);
	n += (size_t)snprintf(s + n, cap - n, "{\"traceEvents\":[");
	int corr = 1;
	for (int st = 0; st < 2; st++) {
		int stream = st ? 9 : 7, base = st ? 6000 : 5000;
		for (int i = 0; i < 1100; i++, corr++) {
			if (cap - n < 512) {
				cap *= 2;
				s = tt_realloc_array(s, cap, 1);
			}
			n += (size_t)snprintf(
				s + n, cap - n,
				"%s{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
				"\"pid\":100,\"tid\":%d,\"ts\":%d,\"dur\":1,\"args\":{\"correlation\":%d}},"
				"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":%d,"
				"\"ts\":%d,\"dur\":1,\"args\":{\"stream\":%d,\"correlation\":%d}}",
				corr > 1 ? "," : "", st + 1, 1000 + i, corr, stream, base + 2 * i, stream,
				corr);
		}
	}
	snprintf(s + n, cap - n, "]}");
	return s;
}

START_TEST(full_queue_every_stream)
{
	char *json = full_queue_trace();
	struct tt_model *m = tl_load_json1_opts(json, &verify);
	free(json);
	struct tt_counters_rank cr;
	compute1(m, false, &cr);
	ck_assert_uint_eq(cr.nq, 2);
	ck_assert_int_eq(cr.span_ns, 7198000);
	ck_assert_int_eq(cr.q[0].stream, 7);
	ck_assert(cr.q[0].reaches_max && cr.q[1].reaches_max);
	ck_assert_int_eq(cr.q[0].full_ns, 3129000);
	ck_assert_int_eq(cr.q[1].full_ns, 4129000);
	ck_assert_double_eq_tol(cr.q[0].full_rel, 3129.0 / 7198, EPS);
	ck_assert(cr.q[0].stats.max == 1100 && cr.q[0].stats.count == 2200);
	tt_counters_rank_free(&cr);

	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("counters", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_str_eq(t[1]->name, "time_blocked_on_full_queue");
	ck_assert_uint_eq(t[1]->nrows, 2);
	ck_assert_int_eq(tt_table_cell(t[1], 1, 1)->v.i, 9);
	ck_assert_int_eq(tt_table_cell(t[1], 1, 2)->v.i, 4129000); /* ns, printed in µs */
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

START_TEST(describe_and_kinds)
{
	struct tt_describe d;
	tt_describe(NULL, 0, &d);
	ck_assert(d.count == 0 && isnan(d.mean) && isnan(d.max));
	double one[1] = {3};
	tt_describe(one, 1, &d);
	ck_assert(d.mean == 3 && isnan(d.std) && d.q25 == 3 && d.q75 == 3);
	char k[48];
	tt_memory_kind("Memcpy HtoD (Pinned -> Device)", k, sizeof(k));
	ck_assert_str_eq(k, "Memcpy HtoD");
	tt_memory_kind("Memset (Device)", k, sizeof(k));
	ck_assert_str_eq(k, "Memset");
	tt_memory_kind("dma_copy", k, sizeof(k));
	ck_assert_str_eq(k, "Memcpy Unknown");
	tt_memory_kind("Memcpy", k, sizeof(k));
	ck_assert_str_eq(k, "Memcpy");
}
END_TEST

/* a stable insertion sort: equal values (0 and -0) keep their order */
static void sort_stable(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* tt_describe's quantiles on whole numbers (counted, not sorted) and on
 * values that are not (sorted; -0 among 0s too): the array left the same
 * bits as a stable sort of a copy, and the quantiles numpy's over it */
START_TEST(describe_whole_and_not)
{
	enum { N = 101 };
	double v[N], ref[N];
	unsigned seed = 3;
	size_t compared = 0;
	for (int kind = 0; kind < 4; kind++) {
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			int x = (int)((seed >> 16) % 40) - 10;
			v[i] = kind == 0 ? x : kind == 1 ? x + 0.5 : kind == 2 ? x * 1e6 : x > 0 ? -0.0 : x;
			ref[i] = v[i];
		}
		sort_stable(ref, N);
		struct tt_describe d;
		tt_describe(v, N, &d);
		/* (n - 1) * q: 25, 50, 75 whole: numpy takes the value there */
		ck_assert(d.min == ref[0] && d.max == ref[N - 1]);
		ck_assert(d.q25 == ref[25] && d.q50 == ref[50] && d.q75 == ref[75]);
		/* the array left sorted: the same bits as the stable sort's */
		for (int i = 0; i < N; i++)
			ck_assert(memcmp(&v[i], &ref[i], sizeof(double)) == 0);
		compared += N;
	}
	ck_assert_uint_eq(compared, 4 * N);
}
END_TEST

/* ---- the rewriter ---- */

static char tmpdir[256];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/tt_counters_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static char *slurp(const char *path)
{
	char *s;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_read_file(path, &s, &n, &err), 0);
	return s;
}

static int add_two(void *ctx, struct tt_writer *w, bool comma, struct tt_err *err)
{
	(void)ctx;
	return tt_writer_puts(w, comma ? ",{\"n\":1},{\"n\":2}" : "{\"n\":1},{\"n\":2}", err);
}

static void rewrite_case(const char *in, const char *want, int want_rc)
{
	struct tt_reader *rd;
	struct tt_err err;
	char out[512];
	snprintf(out, sizeof(out), "%s/rw.json", tmpdir);
	unlink(out);
	ck_assert_int_eq(tt_reader_open_mem(&rd, "mem", in, strlen(in), &err), 0);
	struct tt_writer *w;
	ck_assert_int_eq(tt_writer_open(&w, out, &err), 0);
	int rc = tt_rewrite_trace(rd, w, add_two, NULL, &err);
	ck_assert_int_eq(rc, want_rc);
	ck_assert_int_eq(tt_writer_close(w, rc == 0, &err), 0);
	tt_reader_close(rd);
	if (want_rc) {
		ck_assert_int_ne(access(out, F_OK), 0); /* nothing left behind */
		return;
	}
	char *got = slurp(out);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(rewrite_finds_the_end)
{
	make_tmpdir();
	/* brackets and a fake key inside strings, nested arrays, a key that
	 * only starts with traceEvents, metadata after the events */
	rewrite_case("{\"traceEventsX\": [1], \"a\": \"]\\\"traceEvents\", "
		     "\"traceEvents\": [{\"s\": \"]\", \"v\": [[1], {\"traceEvents\": []}]}], "
		     "\"b\": [2]}",
		     "{\"traceEventsX\": [1], \"a\": \"]\\\"traceEvents\", "
		     "\"traceEvents\": [{\"s\": \"]\", \"v\": [[1], {\"traceEvents\": []}]},"
		     "{\"n\":1},{\"n\":2}], \"b\": [2]}",
		     0);
	/* empty array: no leading comma */
	rewrite_case("{\"traceEvents\":[ ]}", "{\"traceEvents\":[ {\"n\":1},{\"n\":2}]}", 0);
	/* trailing comma already there */
	rewrite_case("{\"traceEvents\":[{},\n]}", "{\"traceEvents\":[{},\n{\"n\":1},{\"n\":2}]}", 0);
	/* bare array, and bare array without its ']' */
	rewrite_case("[{}]\n", "[{},{\"n\":1},{\"n\":2}]\n", 0);
	rewrite_case("[{},\n", "[{},\n{\"n\":1},{\"n\":2}]\n", 0);
	/* no traceEvents; cut inside traceEvents */
	rewrite_case("{\"x\": [1]}", NULL, -TT_E_NOEVENTS);
	rewrite_case("{\"traceEvents\": [{\"a\": 1}", NULL, -TT_E_TRUNCATED);
	rmdir(tmpdir);
}
END_TEST

static const char with_copies[] = "{\"schemaVersion\": 1, \"traceEvents\":["
	LAUNCH("10", "1") "," LAUNCH("20", "2") "," KERNEL("30", "1") "," KERNEL("45", "2") ","
	COPY("Memcpy HtoD (Pinned -> Device)", "100", "10", "2.0") ","
	COPY("Memcpy HtoD (Pinned -> Device)", "105.5", "10", "3.0") ","
	"{\"ph\":\"C\",\"name\":\"other\",\"pid\":0,\"ts\":1,\"args\":{\"x\":1}}\n"
	"], \"baseTimeNanoseconds\": 1000000000}";

static const struct tt_counter *counter(const struct tt_rank *r, const char *name,
					const char *series)
{
	for (uint32_t i = 0; i < r->ncounters; i++)
		if (strcmp(tt_str(r, r->counters[i].name), name) == 0 &&
		    strcmp(tt_str(r, r->counters[i].series), series) == 0)
			return &r->counters[i];
	return NULL;
}

static void check_written(const char *in, const char *out)
{
	struct tt_model *a = tl_load_files((const char *const[]){in}, 1, &verify);
	struct tt_model *b = tl_load_files((const char *const[]){out}, 1, &verify);
	const struct tt_rank *ra = a->ranks[0], *rb = b->ranks[0];
	/* the original events are all there */
	ck_assert_uint_eq(ra->nev, rb->nev);
	for (uint32_t i = 0; i < ra->nev; i++) {
		ck_assert_int_eq(ra->ev[i].ts, rb->ev[i].ts);
		ck_assert_int_eq(ra->ev[i].dur, rb->ev[i].dur);
	}
	/* queue: 2 launches -> 4 samples; HtoD: 2 copies -> 4 samples; one
	 * original counter kept */
	ck_assert_uint_eq(rb->ncounters, 3);
	ck_assert_uint_eq(rb->report.events_seen, ra->report.events_seen + 8);
	const struct tt_counter *q = counter(rb, "Queue Length", "stream 7");
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(q->count, 4);
	ck_assert_int_eq(q->pid, 0);
	/* HTA's view: the float ts 105.5 makes HTA round every ts; the first
	 * sample is the launch at 10 µs after the base time */
	ck_assert_int_eq(rb->samples[q->first].ts, 1000000000 + 10000);
	ck_assert(rb->samples[q->first + 1].value == 2);
	const struct tt_counter *h = counter(rb, "Memcpy HtoD", "Memcpy BW");
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->count, 4);
	/* +2@100, +3@106 (105.5 rounded up), -2@110, -3@115 (115.5 down) */
	const struct tt_sample *s = &rb->samples[h->first];
	ck_assert_int_eq(s[1].ts, 1000000000 + 106000);
	ck_assert_double_eq_tol(s[1].value, 5, EPS);
	ck_assert_int_eq(s[3].ts, 1000000000 + 115000);
	ck_assert(s[3].value == 0);
	ck_assert_ptr_nonnull(counter(rb, "other", "x"));
	tt_model_free(a);
	tt_model_free(b);
}

START_TEST(write_and_reload)
{
	make_tmpdir();
	char in[512], out[512], outgz[512];
	snprintf(in, sizeof(in), "%s/rank0.json", tmpdir);
	snprintf(out, sizeof(out), "%s/rank0_with_counters.json", tmpdir);
	snprintf(outgz, sizeof(outgz), "%s/rank0_with_counters.json.gz", tmpdir);
	FILE *f = fopen(in, "w");
	ck_assert_ptr_nonnull(f);
	fputs(with_copies, f);
	fclose(f);

	struct tt_model *m = tl_load_files((const char *const[]){in}, 1, &verify);
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_err err;
	ck_assert_int_eq(tt_counters_write(m, &o, out, &err), 0);
	ck_assert_int_eq(tt_counters_write(m, &o, outgz, &err), 0);
	/* a rank that is not loaded */
	int64_t r9 = 9;
	o.a.ranks = &r9;
	o.a.nranks = 1;
	ck_assert_int_eq(tt_counters_write(m, &o, out, &err), -TT_E_NOTFOUND);
	tt_model_free(m);

	check_written(in, out);
	check_written(in, outgz);
	/* gzip really: magic bytes */
	f = fopen(outgz, "rb");
	unsigned char mg[2] = {0, 0};
	ck_assert_uint_eq(fread(mg, 1, 2, f), 2);
	fclose(f);
	ck_assert(mg[0] == 0x1f && mg[1] == 0x8b);
	/* the plain copy is the input with the counters before the ']' */
	char *txt = slurp(out);
	const char *end = strstr(with_copies, "\n], \"baseTimeNanoseconds\"");
	ck_assert_int_eq(strncmp(txt, with_copies, (size_t)(end - with_copies) + 1), 0);
	ck_assert_ptr_nonnull(strstr(txt, "{\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": 0, "
					  "\"ts\": 10, \"args\": {\"stream 7\": 1}}"));
	ck_assert_ptr_nonnull(strstr(txt, "\n], \"baseTimeNanoseconds\": 1000000000}"));
	free(txt);
	unlink(in);
	unlink(out);
	unlink(outgz);
	rmdir(tmpdir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("counters");
	tcase_add_test(tc, queue_two_launches);
	tcase_add_test(tc, queue_tie_launch_first);
	tcase_add_test(tc, queue_link_not_a_launch);
	tcase_add_test(tc, bw_overlapping_copies);
	tcase_add_test(tc, bw_zero_duration_is_one_us);
	tcase_add_test(tc, no_memory_no_gpu);
	tcase_add_test(tc, full_queue_every_stream);
	tcase_add_test(tc, describe_and_kinds);
	tcase_add_test(tc, describe_whole_and_not);
	tcase_add_test(tc, rewrite_finds_the_end);
	tcase_add_test(tc, write_and_reload);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
