/* analysis room: critical path analysis on tiny hand-made traces, one per
 * rule of HTA's graph (../shared/docs/critical-path.md §4); every expected
 * path and number is worked out in the comment above its test.  Times in
 * the traces are whole µs, so nothing is rounded. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/critpath.h"
#include "tracetop/report.h"

#define US 1000 /* ns per µs */

static struct tt_model *load1(const char *json)
{
	const char *names[1] = {"rank0.json"};
	const void *data[1] = {json};
	size_t lens[1] = {strlen(json)};
	struct tt_model *m;
	struct tt_load_opts o = {0};
	o.threads = 1;
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, lens, 1, &o), 0);
	ck_assert_uint_eq(m->nfailures, 0);
	ck_assert_uint_eq(m->nranks, 1);
	return m;
}

/* the whole trace (HTA's annotation "") */
static const struct tt_cp_window whole = {.kind = TT_CPW_ALL};

static void run(const struct tt_model *m, const struct tt_cp_window *w, const struct tt_cp_opts *o,
		struct tt_cp_result *res)
{
	tt_critical_path(m, 0, w, o, res);
}

/* the path as text: one token per edge, "type:attributed event:weight µs" */
static void path_text(const struct tt_cp_result *res, char *buf, size_t n)
{
	static const char *const t[] = {"op", "dep", "launch", "kk", "sync"};
	size_t w = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < res->nedges && w < n; i++) {
		const struct tt_cp_edge *e = &res->edges[i];
		const char *name = e->attr == TT_NONE ? "-" : tt_ev_name(res->r, &res->r->ev[e->attr]);
		int k = snprintf(buf + w, n - w, "%s%s:%s:%g", i ? " " : "", t[e->type], name,
				 (double)e->weight / US);
		if (k < 0)
			break;
		w += (size_t)k;
	}
}

#define ASSERT_PATH(res, want)                                           \
	do {                                                             \
		char got_[2048];                                         \
		path_text((res), got_, sizeof(got_));                   \
		ck_assert_str_eq(got_, (want));                          \
	} while (0)

#define OP(name, tid, ts, dur)                                                               \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid       \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
#define RTC(cat, name, tid, ts, dur, corr)                                                  \
	"{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid     \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
#define RT(name, tid, ts, dur, corr) RTC("cuda_runtime", name, tid, ts, dur, corr)
#define KC(cat, name, stream, ts, dur, corr)                                                \
	"{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream  \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"stream\":" #stream                      \
	",\"correlation\":" #corr "}}"
#define K(name, stream, ts, dur, corr) KC("kernel", name, stream, ts, dur, corr)
#define HEAD "{\"traceEvents\":["
#define TAIL "],\"distributedInfo\":{\"rank\":0},\"schemaVersion\":1}"

/* ---- phase 2: call stacks ----
 *
 * One thread: A [10,110) holds B [20,40) and C [60,70); D [130,140) follows.
 *   enter A; enter B: A.s->B.s operator 10, in A (start -> start: the source)
 *   exit B: B.s->B.e 20, in B; enter C: B.e->C.s 20, in A (end -> start: the
 *   parent of B); exit C: C.s->C.e 10, in C; exit A: C.e->A.e 40, in A (end ->
 *   end: the destination); enter D at depth 0: A.e->D.s dependency 0; exit D:
 *   D.s->D.e 10.  One chain, length 110, all of it CPU; A holds 70 of it.
 * No kernel anywhere: no GPU work, and HTA would raise (no queue length). */
START_TEST(nested_ops)
{
	struct tt_model *m = load1(HEAD OP("A", 1, 10, 100) "," OP("B", 1, 20, 20) ","
				   OP("C", 1, 60, 10) "," OP("D", 1, 130, 10) TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ck_assert_int_eq(res.status, TT_CP_OK);
	ASSERT_PATH(&res, "op:A:10 op:B:20 op:A:20 op:C:10 op:A:40 dep:-:0 op:D:10");
	ck_assert_int_eq(res.length, 110 * US);
	ck_assert_int_eq(res.length_graph, 110 * US);
	ck_assert_int_eq(res.span, 130 * US);
	ck_assert_uint_eq(res.nnodes, 8);
	ck_assert_uint_eq(res.critical_events, 4);
	ck_assert_int_eq(res.by_bound[TT_CPB_CPU].dur, 110 * US);
	ck_assert_uint_eq(res.by_bound[TT_CPB_CPU].count, 6);
	ck_assert_uint_eq(res.by_bound[TT_CPB_NONE].count, 1);
	ck_assert_int_eq(res.by_cat[TT_CPC_CPU].dur, 110 * US);
	ck_assert_uint_eq(res.ntop, 4);
	ck_assert_str_eq(tt_str(res.r, res.top[0].name), "A");
	ck_assert_int_eq(res.top[0].dur, 70 * US);
	ck_assert_uint_eq(res.top[0].edges, 3);
	ck_assert(res.no_gpu);
	ck_assert(res.hta_fails & TT_CP_HTA_NO_QUEUE);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* Partly overlapping siblings: A [10,50), B [40,80).  HTA's stack pops its
 * top at every end whatever it is, so B nests in A: A.s->B.s 30 (in A),
 * B.s->B.e 40 (in B), B.e->A.e = 50 - 80 = -30 (in A), which weighs 0 for
 * the path (<= -1 µs).  Distances: B.e 70, A.e 70 + 0; the path ends at the
 * first of them in topological order, B.e: length 70, two ends. */
START_TEST(overlapping_siblings)
{
	struct tt_model *m = load1(HEAD OP("A", 1, 10, 40) "," OP("B", 1, 40, 40) TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:A:30 op:B:40");
	ck_assert_int_eq(res.length, 70 * US);
	ck_assert_uint_eq(res.st.zeroed, 1);
	ck_assert_uint_eq(res.st.ends, 2);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* The backward thread joins the forward thread: "forward" on thread 1 at
 * [10,20), "autograd::...Backward" on thread 2 at [30,60).  Merged, one
 * chain: 10 + dependency + 30 = 40.  Without a "forward" op the threads
 * stay apart and the longest is the backward op alone, 30. */
START_TEST(thread_merge)
{
	struct tt_model *m =
		load1(HEAD OP("forward", 1, 10, 10) "," OP("autograd::engine::evaluate_"
							   "function: MmBackward0",
							   2, 30, 30) TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:forward:10 dep:-:0 "
			  "op:autograd::engine::evaluate_function: MmBackward0:30");
	ck_assert_int_eq(res.length, 40 * US);
	tt_cp_result_free(&res);
	tt_model_free(m);
	m = load1(HEAD OP("fwd", 1, 10, 10) "," OP("autograd::engine::evaluate_function: "
						    "MmBackward0",
						    2, 30, 30) TAIL);
	run(m, &whole, NULL, &res);
	ck_assert_int_eq(res.length, 30 * US);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- phase 1: the CUDA runtime lock ----
 *
 * cudaLaunchKernel L1 [10,20) on thread 1 and L2 [15,30) on thread 2.
 * Lock nodes in time order: L1.s, L2.s, L1.e, L2.e.  At L1.e both starts are
 * popped: L2.s->L1.e dependency, L1.s->L1.e operator 10 (L1's own); at L2.e
 * the previous lock node L1.e is an end: L1.e->L2.e dependency.  L2 never
 * gets its own span (L1 ended while it was open), and the call stacks add
 * nothing (consecutive lock nodes share the lock).  Distances: L1.e 10,
 * L2.e 10; the first in topological order, L1.e, ends the path: one edge. */
START_TEST(runtime_lock)
{
	struct tt_model *m = load1(HEAD RT("cudaLaunchKernel", 1, 10, 10, 1) ","
					RT("cudaLaunchKernel", 2, 15, 15, 2) TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:cudaLaunchKernel:10");
	ck_assert_int_eq(res.length, 10 * US);
	ck_assert_uint_eq(res.st.edges, 3);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_OPERATOR], 1);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_DEPENDENCY], 2);
	ck_assert_uint_eq(res.st.by_phase[0], 3);
	ck_assert_uint_eq(res.st.by_phase[1], 0);
	ck_assert_uint_eq(res.st.ends, 2);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- phase 3: launch delay ----
 *
 * Thread 1: cudaLaunchKernel L1 [10,15) -> gemm_a [20,30) on stream 7;
 * L2 [40,45) -> gemm_b [50,60).  Queue length on stream 7: +1 at 10 (1),
 * -1 at 20 (0), +1 at 40 (1), -1 at 50 (0): each kernel has 1 at its launch
 * and 0 at its start, and gemm_a ended (30) before L2 began (40), so both get
 * a launch delay edge: L1.s->gemm_a.s 10, L2.s->gemm_b.s 10.  The CPU chain
 * L1 (5) -> dependency -> L2 leads to L2.s at 5; then 10 + 10: length 25. */
static const char *launch_trace = HEAD RT("cudaLaunchKernel", 1, 10, 5, 1) ","
	RT("cudaLaunchKernel", 1, 40, 5, 2) "," K("gemm_a", 7, 20, 10, 1) ","
	K("gemm_b", 7, 50, 10, 2) TAIL;

START_TEST(launch_delay)
{
	struct tt_model *m = load1(launch_trace);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:cudaLaunchKernel:5 dep:-:0 launch:-:10 op:gemm_b:10");
	ck_assert_int_eq(res.length, 25 * US);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_LAUNCH], 2);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_KK], 0);
	ck_assert_int_eq(res.by_bound[TT_CPB_CPU].dur, 5 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_LAUNCH].dur, 10 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_COMPUTE].dur, 10 * US);
	ck_assert_int_eq(res.by_cat[TT_CPC_GPU].dur, 10 * US);
	ck_assert_int_eq(res.by_cat[TT_CPC_LAUNCH].dur, 10 * US);
	ck_assert(!res.no_gpu);
	ck_assert_uint_eq(res.hta_fails, 0);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- phase 3: kernel-kernel delay and its 1500 µs cut ----
 *
 * Launches at 10, 13, 16 (2 µs each) queue k1 [20,30), k2 [35,40) and k3 on
 * stream 7.  Queue: 1, 2, 3 after the launches, then 2, 1, 0 at the
 * kernels' starts.  k1 (queue 1 at launch, 2 at start): no launch edge and
 * no kernel before it: no edge (HTA: "No edge was added").  k2 (2 at launch):
 * kernel-kernel delay from k1's end, 35 - 30 = 5, given to k1.  k3 (3 at
 * launch): a delay from k2's end if it is under 1500 µs.
 *   k3 at 1539: 1539 - 40 = 1499 -> edge; path k1 10, 5, k2 5, 1499, k3 10
 *               = 1529.
 *   k3 at 1540: 1500 is not under the cut -> no edge; k3 starts a chain of
 *               its own (10) and the longest is k1 -> k2: 20. */
START_TEST(kernel_kernel_delay)
{
	static const char *pre = HEAD RT("cudaLaunchKernel", 1, 10, 2, 1) ","
		RT("cudaLaunchKernel", 1, 13, 2, 2) "," RT("cudaLaunchKernel", 1, 16, 2, 3) ","
		K("k1", 7, 20, 10, 1) "," K("k2", 7, 35, 5, 2) ",";
	char json[2048];
	struct tt_cp_result res;

	snprintf(json, sizeof(json), "%s" K("k3", 7, %d, 10, 3) TAIL, pre, 1539);
	struct tt_model *m = load1(json);
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:k1:10 kk:k1:5 op:k2:5 kk:k2:1499 op:k3:10");
	ck_assert_int_eq(res.length, 1529 * US);
	ck_assert_uint_eq(res.st.no_edge, 1);
	ck_assert_int_eq(res.by_bound[TT_CPB_KK].dur, 1504 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_COMPUTE].dur, 25 * US);
	tt_cp_result_free(&res);
	tt_model_free(m);

	snprintf(json, sizeof(json), "%s" K("k3", 7, %d, 10, 3) TAIL, pre, 1540);
	m = load1(json);
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:k1:10 kk:k1:5 op:k2:5");
	ck_assert_int_eq(res.length, 20 * US);
	ck_assert_uint_eq(res.st.no_edge, 2);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_KK], 1);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- phase 3: synchronisation ----
 *
 * L1 cudaLaunchKernel [10,12) -> k1 [15,100) on stream 7 (launch delay 5);
 * the thread then blocks in a sync call [20,105) and runs "after"
 * [110,120).  The sync call's exit edge weighs 0 (a blocking call); the
 * sync row links k1's end to the call's end.  Path: L1.s -> k1.s (launch 5)
 * -> k1.e (85) -> sync.e (sync 0) -> after.s (dependency 0) -> after.e (10):
 * 100.  The same for cudaDeviceSynchronize + "Context Sync", for
 * cudaStreamSynchronize + "Stream Sync" (on stream 7), and for
 * cudaEventSynchronize + "Event Sync" waiting on a cudaEventRecord [13,14)
 * made after L1 on stream 7 (its kernel: the last launch onto stream 7 at or
 * before the record). */
#define SYNC_HEAD HEAD RT("cudaLaunchKernel", 1, 10, 2, 1) "," K("k1", 7, 15, 85, 1) ","
#define SYNC_TAIL "," OP("after", 1, 110, 10) TAIL
#define SYNC_ROW(name, tid, stream, corr, extra)                                             \
	"{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #tid    \
	",\"ts\":21,\"dur\":83,\"args\":{\"stream\":" #stream ",\"correlation\":" #corr extra  \
	",\"device\":0}}"

START_TEST(sync_edges)
{
	static const char *const traces[] = {
		SYNC_HEAD RT("cudaDeviceSynchronize", 1, 20, 85, 9) ","
			SYNC_ROW("Context Sync", -1, -1, 9, "") SYNC_TAIL,
		SYNC_HEAD RT("cudaStreamSynchronize", 1, 20, 85, 9) ","
			SYNC_ROW("Stream Sync", 7, 7, 9, "") SYNC_TAIL,
		SYNC_HEAD RT("cudaEventRecord", 1, 13, 1, 20) ","
			RT("cudaEventSynchronize", 1, 20, 85, 9) ","
			SYNC_ROW("Event Sync", -1, -1, 9,
				 ",\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":20")
				SYNC_TAIL,
	};
	static const char *const want[] = {
		"launch:-:5 op:k1:85 sync:-:0 dep:-:0 op:after:10",
		"launch:-:5 op:k1:85 sync:-:0 dep:-:0 op:after:10",
		"launch:-:5 op:k1:85 sync:-:0 dep:-:0 op:after:10",
	};
	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		struct tt_model *m = load1(traces[i]);
		struct tt_cp_result res;
		run(m, &whole, NULL, &res);
		ASSERT_PATH(&res, want[i]);
		ck_assert_int_eq(res.length, 100 * US);
		ck_assert_uint_eq(res.st.by_type[TT_CPE_SYNC], 1);
		ck_assert_int_eq(res.by_cat[TT_CPC_SYNC].count, 1);
		tt_cp_result_free(&res);
		tt_model_free(m);
	}
}
END_TEST

/* Stream Wait Event: k1 [15,100) on stream 7 (launched at 10); a
 * cudaEventRecord [13,14) records stream 7 after it; cudaStreamWaitEvent
 * [16,17) makes stream 8 wait for that event; the next launch onto stream 8
 * from the same thread, L2 [20,22), queues k2 [101,111).  k2 waits for k1:
 * sync edge k1.e -> k2.s.  k2's launch delay edge needs the sync source to
 * end before its launch (100 < 20: no), and stream 8 has no kernel before
 * it: the sync edge is its only way in.  Path: L1.s -> k1.s (5) -> k1.e (85)
 * -> k2.s (0) -> k2.e (10) = 100. */
START_TEST(stream_wait_event)
{
	struct tt_model *m = load1(
		HEAD RT("cudaLaunchKernel", 1, 10, 2, 1) "," RT("cudaEventRecord", 1, 13, 1, 30) ","
		RT("cudaStreamWaitEvent", 1, 16, 1, 31) "," RT("cudaLaunchKernel", 1, 20, 2, 2) ","
		K("k1", 7, 15, 85, 1) "," K("k2", 8, 101, 10, 2) ","
		"{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\",\"pid\":0,"
		"\"tid\":8,\"ts\":17,\"dur\":1,\"args\":{\"stream\":8,\"correlation\":31,"
		"\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":30,\"device\":0}}" TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "launch:-:5 op:k1:85 sync:-:0 op:k2:10");
	ck_assert_int_eq(res.length, 100 * US);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_LAUNCH], 1);
	ck_assert_uint_eq(res.st.by_type[TT_CPE_SYNC], 1);
	ck_assert_uint_eq(res.hta_fails, 0);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- negative weights ----
 *
 * k2 [35,45) starts before k1 [20,40) ends on the same stream (launched at
 * 10 and 12: queue 2 at k1's start, so k1 has no edge in and k2 gets a
 * kernel-kernel delay of 35 - 40 = -5 µs).  HTA keeps -5 as the edge's
 * weight (the breakdown's duration) and uses 0 for the path: graph length
 * 20 + 0 + 10 = 30, length 20 - 5 + 10 = 25.  With k1 20.5 µs long instead
 * and k2 at 40 (no rounding: every ts is an integer) the delay is -0.5 µs,
 * above HTA's -1 µs limit: it counts as it is, 20.5 - 0.5 + 10 = 30 both
 * ways. */
START_TEST(negative_weights)
{
	static const char *pre = HEAD RT("cudaLaunchKernel", 1, 10, 1, 1) ","
		RT("cudaLaunchKernel", 1, 12, 1, 2) ",";
	char json[1024];
	struct tt_cp_result res;
	snprintf(json, sizeof(json), "%s" K("k1", 7, 20, %s, 1) "," K("k2", 7, %d, 10, 2) TAIL,
		 pre, "20", 35);
	struct tt_model *m = load1(json);
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:k1:20 kk:k1:-5 op:k2:10");
	ck_assert_int_eq(res.length, 25 * US);
	ck_assert_int_eq(res.length_graph, 30 * US);
	ck_assert_int_eq(tt_cp_graph_weight(res.edges[1].weight), 0);
	ck_assert_uint_eq(res.st.zeroed, 1);
	tt_cp_result_free(&res);
	tt_model_free(m);

	snprintf(json, sizeof(json), "%s" K("k1", 7, 20, %s, 1) "," K("k2", 7, %d, 10, 2) TAIL,
		 pre, "20.5", 40);
	m = load1(json);
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "op:k1:20.5 kk:k1:-0.5 op:k2:10");
	ck_assert_int_eq(res.length, 30 * US);
	ck_assert_int_eq(res.length_graph, 30 * US);
	ck_assert_uint_eq(res.st.zeroed, 0);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- where HTA fails ----
 *
 * Old traces give launches the category "Runtime", MTIA traces
 * "mtia_runtime" (launch "runFunction - job_prep_and_submit_for_execution").
 * HTA's nodes are only for cpu_op, cuda_runtime and cuda_driver, so the
 * launch delay edge has no source and it raises "AssertionError: Could not
 * find runtime index".  They are launches: the launch_trace answer, 25 (the
 * MTIA launch is no lock call, so its span comes from the call stack). */
START_TEST(hta_fails_launch_categories)
{
	static const char *const traces[] = {
		HEAD RTC("Runtime", "cudaLaunchKernel", 1, 10, 5, 1) ","
			RTC("Runtime", "cudaLaunchKernel", 1, 40, 5, 2) ","
			KC("Kernel", "gemm_a", 7, 20, 10, 1) ","
			KC("Kernel", "gemm_b", 7, 50, 10, 2) TAIL,
		HEAD RTC("mtia_runtime", "runFunction - job_prep_and_submit_for_execution", 1, 10,
			 5, 1) ","
			RTC("mtia_runtime", "runFunction - job_prep_and_submit_for_execution", 1,
			    40, 5, 2) ","
			KC("mtia_ccp_events", "gemm_a", 7, 20, 10, 1) ","
			KC("mtia_ccp_events", "gemm_b", 7, 50, 10, 2) TAIL,
	};
	static const char *const want[] = {
		"op:cudaLaunchKernel:5 dep:-:0 launch:-:10 op:gemm_b:10",
		"op:runFunction - job_prep_and_submit_for_execution:5 dep:-:0 launch:-:10 "
		"op:gemm_b:10",
	};
	for (size_t i = 0; i < 2; i++) {
		struct tt_model *m = load1(traces[i]);
		struct tt_cp_result res;
		run(m, &whole, NULL, &res);
		ASSERT_PATH(&res, want[i]);
		ck_assert_int_eq(res.length, 25 * US);
		ck_assert(res.hta_fails & TT_CP_HTA_LAUNCH_NODE);
		tt_cp_result_free(&res);
		tt_model_free(m);
	}
}
END_TEST

/* A kernel at row 0 of traceEvents: HTA stores its launch's partner as row
 * 0, which it reads as "no partner", so the launch does not count for the
 * queue length (no launch delay edge) and the kernel joins every runtime
 * call without a partner (here cudaStreamIsCapturing): HTA duplicates it.
 * The right answer: one kernel, launched by L1: L1.s -> k.s (launch 10) ->
 * k.e (10) = 20. */
START_TEST(hta_fails_row0)
{
	struct tt_model *m = load1(HEAD K("k", 7, 20, 10, 1) ","
				   RT("cudaLaunchKernel", 1, 10, 5, 1) ","
				   RT("cudaStreamIsCapturing", 1, 16, 1, 5) TAIL);
	struct tt_cp_result res;
	run(m, &whole, NULL, &res);
	ASSERT_PATH(&res, "launch:-:10 op:k:10");
	ck_assert_int_eq(res.length, 20 * US);
	ck_assert_uint_eq(res.st.kernels, 1);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- what-if, by hand on launch_trace ----
 *
 * Paths there: P1 = L1 5 -> dep 0 -> launch 10 -> gemm_b 10 (25);
 * P2 = launch 10 -> gemm_a 10 (20); P3 = L1 5 -> dep -> L2 5 (10).
 *   gemm_b*0.5:        P1 = 5 + 10 + 5 = 20, P2 = 20        -> 20
 *   launch-overhead*0: P1 = 5 + 0 + 10 = 15, P2 = 10, P3 10 -> 15
 *   gemm*2:            P1 = 5 + 10 + 20 = 35, P2 = 30       -> 35
 * and the new path's bound sums add up to it. */
START_TEST(what_if)
{
	struct tt_model *m = load1(launch_trace);
	static const char *const spec[] = {"gemm_b*0.5", "launch-overhead*0", "gemm*2"};
	static const int64_t want[] = {20, 15, 35};
	for (size_t i = 0; i < 3; i++) {
		struct tt_cp_whatif w;
		char why[200];
		ck_assert_int_eq(tt_cp_whatif_parse(spec[i], &w, why, sizeof(why)), 0);
		struct tt_cp_opts o = {.whatif = &w, .nwhatif = 1};
		struct tt_cp_result res;
		run(m, &whole, &o, &res);
		ck_assert(res.has_whatif);
		ck_assert_int_eq(res.length, 25 * US); /* (the path itself is unchanged) */
		ck_assert_int_eq(res.wi_length, want[i] * US);
		int64_t sum = 0;
		for (int b = 0; b < TT_CPB_COUNT; b++)
			sum += res.wi_bound[b].dur;
		ck_assert_int_eq(sum, res.wi_length);
		tt_cp_result_free(&res);
	}
	struct tt_cp_whatif w;
	char why[200];
	ck_assert_int_eq(tt_cp_whatif_parse("launch-overhead*0", &w, why, sizeof(why)), 0);
	ck_assert_int_eq(w.kind, TT_CPWI_LAUNCH);
	ck_assert_int_eq(tt_cp_whatif_parse("gemm", &w, why, sizeof(why)), -1);
	ck_assert_int_eq(tt_cp_whatif_parse("gemm*-1", &w, why, sizeof(why)), -1);
	ck_assert_int_eq(tt_cp_whatif_parse("*2", &w, why, sizeof(why)), -1);
	tt_model_free(m);
}
END_TEST

/* ---- windows ----
 *
 * Three steps on thread 1: #1 [10,100) holds op1 [20,50), #2 [100,200) op2
 * [120,170), #3 [200,300) op3 [210,220).  Three step names: HTA drops the
 * last step and everything from its start (op3).  Instances: #1, #2.
 *   instance 0: [10,100]: op1: 30       instance 1: [100,200]: op2: 50
 *   instances 0-1: op1 -> dep -> op2: 80
 *   instance 2: none; annotation "Nope": no row
 *   time window [115,180] µs: op2: 50   whole trace: 80
 *   exact (no filter): three instances, the whole trace 30 + 50 + 10 = 90 */
#define STEP(n, ts, dur)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" #n "\",\"pid\":1," \
	"\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"

START_TEST(windows)
{
	struct tt_model *m = load1(HEAD STEP(1, 10, 90) "," STEP(2, 100, 100) ","
				   STEP(3, 200, 100) "," OP("op1", 1, 20, 30) ","
				   OP("op2", 1, 120, 50) "," OP("op3", 1, 210, 10) TAIL);
	struct tt_cp_result res;
	struct tt_cp_window w = {.kind = TT_CPW_ANNOT, .annotation = "ProfilerStep"};
	static const int64_t want[][3] = {{0, 0, 30}, {1, 1, 50}, {0, 1, 80}};
	for (int i = 0; i < 3; i++) {
		w.first = want[i][0];
		w.last = want[i][1];
		run(m, &w, NULL, &res);
		ck_assert_int_eq(res.status, TT_CP_OK);
		ck_assert_uint_eq(res.ninstances, 2);
		ck_assert_int_eq(res.length, want[i][2] * US);
		ck_assert_str_eq(tt_ev_name(res.r, &res.r->ev[res.win_ev]),
				 want[i][0] ? "ProfilerStep#2" : "ProfilerStep#1");
		tt_cp_result_free(&res);
	}
	w.first = w.last = 2;
	ck_assert_int_eq(tt_critical_path(m, 0, &w, NULL, &res), -1);
	ck_assert_int_eq(res.status, TT_CP_NO_INSTANCE);
	tt_cp_result_free(&res);
	w.annotation = "Nope";
	w.first = w.last = 0;
	ck_assert_int_eq(tt_critical_path(m, 0, &w, NULL, &res), -1);
	ck_assert_int_eq(res.status, TT_CP_NO_ANNOTATION);
	tt_cp_result_free(&res);

	int64_t t0 = m->ranks[0]->ev[0].ts - m->ranks[0]->ev[0].ts; /* (times as written) */
	struct tt_cp_window tw = {.kind = TT_CPW_TIME, .t0 = t0 + 115 * US, .t1 = t0 + 180 * US};
	run(m, &tw, NULL, &res);
	ASSERT_PATH(&res, "op:op2:50");
	tt_cp_result_free(&res);

	run(m, &whole, NULL, &res);
	ck_assert_int_eq(res.length, 80 * US);
	tt_cp_result_free(&res);

	struct tt_aopts exact = {.exact = true};
	struct tt_cp_opts o = {.a = &exact};
	run(m, &whole, &o, &res);
	ck_assert_int_eq(res.length, 90 * US);
	tt_cp_result_free(&res);
	w.annotation = "ProfilerStep";
	w.first = w.last = 2;
	run(m, &w, &o, &res);
	ck_assert_int_eq(res.status, TT_CP_OK);
	ck_assert_uint_eq(res.ninstances, 3);
	ck_assert_int_eq(res.length, 10 * US);
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* ---- the report ----
 *
 * launch_trace has no step: the whole trace, with a note; with --model hta
 * the summary has HTA's 23 rows and its length; the what-if table says
 * what it assumes. */
START_TEST(report)
{
	struct tt_model *m = load1(launch_trace);
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	ck_assert_int_eq(o.cp_model, TT_CPM_TRACETOP); /* (the default) */
	o.cp_model = TT_CPM_HTA;
	o.format = TT_FMT_CSV;
	char why[200];
	ck_assert_int_eq(tt_cp_whatif_parse("launch-overhead*0", &o.whatif[0], why, sizeof(why)),
			 0);
	o.nwhatif = 1;
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("critical-path", m, NULL, &o, &t, &n, &err), 0);
	const struct tt_table *sum = NULL, *steps = NULL, *wi = NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i]->name, "critical_path_summary") == 0)
			sum = t[i];
		else if (strcmp(t[i]->name, "critical_path_steps") == 0)
			steps = t[i];
		else if (strcmp(t[i]->name, "critical_path_what_if") == 0)
			wi = t[i];
	}
	ck_assert_ptr_nonnull(sum);
	ck_assert_ptr_nonnull(steps);
	ck_assert_ptr_nonnull(wi);
	ck_assert_uint_eq(sum->nrows, 23);
	ck_assert_str_eq(tt_table_cell(sum, 0, 4)->v.s, "critical_path_length");
	ck_assert_int_eq(tt_table_cell(sum, 0, 5)->v.i, 25 * US);
	ck_assert_str_eq(tt_table_cell(steps, 0, TT_CPS_STEP)->v.s, "whole trace");
	/* (GPU compute and launch overhead 10 µs each: ties go in bound_by order) */
	ck_assert_str_eq(tt_table_cell(steps, 0, TT_CPS_BOUND_1)->v.s, "GPU compute 40.0%");
	ck_assert_str_eq(tt_table_cell(steps, 0, TT_CPS_BOUND_2)->v.s, "launch overhead 40.0%");
	bool said = false;
	for (size_t i = 0; i < steps->nnotes; i++)
		said |= strstr(steps->notes[i], "no row named *ProfilerStep*") != NULL;
	ck_assert(said);
	ck_assert_int_eq(tt_table_cell(wi, 0, tt_table_col(wi, "what_if_length"))->v.i, 15 * US);
	said = false;
	for (size_t i = 0; i < wi->nnotes; i++)
		said |= strstr(wi->notes[i], "assumes the graph's dependencies stay as recorded") !=
			NULL;
	ck_assert(said);
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("critpath");
	TCase *tc = tcase_create("critpath");
	tcase_add_test(tc, nested_ops);
	tcase_add_test(tc, overlapping_siblings);
	tcase_add_test(tc, thread_merge);
	tcase_add_test(tc, runtime_lock);
	tcase_add_test(tc, launch_delay);
	tcase_add_test(tc, kernel_kernel_delay);
	tcase_add_test(tc, sync_edges);
	tcase_add_test(tc, stream_wait_event);
	tcase_add_test(tc, negative_weights);
	tcase_add_test(tc, hta_fails_launch_categories);
	tcase_add_test(tc, hta_fails_row0);
	tcase_add_test(tc, what_if);
	tcase_add_test(tc, windows);
	tcase_add_test(tc, report);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
