/* analysis room: the TensorBoard views (utilisation, steps, distributed,
 * operators, memory, source) on tiny hand-made traces.  Every expected
 * number is worked out by hand in the comment above it (µs in the traces,
 * ns in the model). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/tbviews.h"
#include "tracetop/testing.h"

#include "tbfix.h"

/* ---- small pieces ---- */

START_TEST(small_pieces)
{
	ck_assert_int_eq(tt_step_number("ProfilerStep#12"), 12);
	ck_assert_int_eq(tt_step_number("ProfilerStep#"), -1);
	ck_assert_int_eq(tt_step_number("ProfilerStep#3x"), -1);

	/* [[2,3],[4]] float, long: 6*4 + 4*8 = 56 bytes */
	ck_assert_int_eq(tt_tb_input_bytes("[[2,3],[4]]", "[\"float\",\"long\"]"), 56);
	/* a scalar input (size unknown) and a 0-dim float: 0 + 1*4 */
	ck_assert_int_eq(tt_tb_input_bytes("[[],[]]", "[\"Scalar\",\"float\"]"), 4);
	/* record_param_comms: [[384],[],[]] long, Scalar, Scalar: 384*8 */
	ck_assert_int_eq(tt_tb_input_bytes("[[384], [], []]", "[\"long\", \"Scalar\", \"Scalar\"]"),
			 3072);
	ck_assert_int_eq(tt_tb_input_bytes("[[5]]", "[\"TensorList\"]"), -1);
	ck_assert_int_eq(tt_tb_dtype_size("BFloat16", 8), 2);
	ck_assert_int_eq(tt_tb_dtype_size("unsigned char", 13), 1);

	char key[64];
	tt_tb_coll_key("nccl:all_reduce", key, sizeof(key));
	ck_assert_str_eq(key, "allreduce");
	tt_tb_coll_key("c10d::allreduce_", key, sizeof(key));
	ck_assert_str_eq(key, "allreduce");
	tt_tb_coll_key("AllReduce", key, sizeof(key));
	ck_assert_str_eq(key, "allreduce");

	char file[64];
	int64_t line = 0;
	const char *f = "torch/nn/modules/module.py(1501): _call_impl";
	ck_assert(tt_tb_frame_parse(f, strlen(f), file, sizeof(file), &line));
	ck_assert_str_eq(file, "torch/nn/modules/module.py");
	ck_assert_int_eq(line, 1501);
	f = "<built-in method conv2d of type object at 0x7f>";
	ck_assert(!tt_tb_frame_parse(f, strlen(f), file, sizeof(file), &line));
	char cmd[128];
	tt_tb_editor_command(cmd, sizeof(cmd), NULL, "a b.py", 7);
	ck_assert_str_eq(cmd, "vi +7 -- 'a b.py'");
	tt_tb_editor_command(cmd, sizeof(cmd), "nvim", "it's.py", 12);
	ck_assert_str_eq(cmd, "nvim +12 -- 'it'\\''s.py'");
	/* a file of 298 quotes does not fit: the command is cut at a whole
	 * piece, every byte before its NUL written (they were left
	 * uninitialised: valgrind in the explorer's status line) */
	char quotes[299], big[1300];
	memset(quotes, '\'', 298);
	quotes[298] = '\0';
	memset(cmd, 0xAA, sizeof(cmd));
	size_t full = tt_tb_editor_command(cmd, sizeof(cmd), NULL, quotes, 1);
	ck_assert_uint_eq(full, strlen("vi +1 -- '") + 298 * 4 + 1);
	ck_assert_ptr_null(memchr(cmd, 0xAA, strlen(cmd)));
	ck_assert_uint_le(strlen(cmd), sizeof(cmd) - 1);
	ck_assert_int_eq((strlen(cmd) - strlen("vi +1 -- '")) % 4, 0);
	tt_tb_editor_command(big, sizeof(big), NULL, quotes, 1);
	ck_assert_uint_eq(strlen(big), full);
	ck_assert_int_eq(big[strlen(big) - 1], '\'');

}
END_TEST

/* ---- utilisation: SM efficiency and occupancy ---- */

/* numSms 108 on GPU 0.
 *   k_half  grid [54,1,1]   stream 7  1000-1100  occ 50  -> eff 54/108 = 0.5
 *   k_full  grid [216,1,1]  stream 7  1200-1500  occ 20  -> eff min(2, 1) = 1
 *   k_two   grid [27,2,1]   stream 8  1450-1550  no occ  -> eff 54/108 = 0.5
 *   memcpy                  stream 7  1600-1650
 * SM efficiency = (100*0.5 + 300*1 + 100*0.5) / 500 = 80 %
 * occupancy = (100*50 + 300*20) / 400 = 27.5 %
 * busy = [1000,1100] + [1200,1550] + [1600,1650] = 100 + 350 + 50 = 500 µs
 * span = 1000-1650 = 650 µs -> 76.923 %; kernels alone: 450 µs busy,
 * 500 µs summed. */
static const char util_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, " DEVPROPS "\"traceEvents\": ["
	KERNELA("k_half", 1000, 100, 7, 1,
		",\"grid\":[54,1,1],\"block\":[128,1,1],\"est. achieved occupancy %\":50") ","
	KERNELA("k_full", 1200, 300, 7, 2,
		",\"grid\":[216,1,1],\"block\":[256,1,1],\"registers per thread\":32,"
		"\"est. achieved occupancy %\":20") ","
	KERNELA("k_two", 1450, 100, 8, 3, ",\"grid\":[27,2,1],\"block\":[64,1,1]") ","
	MEMCPY(1600, 50, 7) TAIL;

/* no deviceProperties: `blocks per SM` 0.25 gives the efficiency */
static const char util_noprops[] =
	HEAD KERNELA("k", 1000, 100, 7, 1, ",\"grid\":[27,1,1],\"blocks per SM\":0.25") TAIL;

START_TEST(utilization_hand_checked)
{
	struct tt_model *m = load1(util_trace);
	ck_assert_int_eq(tt_tb_num_sms(m->ranks[0], 0), 108);
	struct tt_util u;
	tt_util_compute(m, &all, 13, &u);
	ck_assert_uint_eq(u.ndevs, 1);
	const struct tt_util_dev *d = &u.devs[0];
	ck_assert_int_eq(d->device, 0);
	ck_assert_uint_eq(d->nstreams, 2);
	ck_assert_uint_eq(d->nkernels, 3);
	ck_assert_uint_eq(d->nmem, 1);
	ck_assert_int_eq(d->t1 - d->t0, 650 * US);
	ck_assert_int_eq(d->busy_ns, 500 * US);
	ck_assert_int_eq(d->kernel_busy_ns, 450 * US);
	ck_assert_int_eq(d->kernel_sum_ns, 500 * US);
	ck_assert_double_eq_tol(d->busy_span_pct, 100.0 * 500 / 650, 1e-9);
	ck_assert_int_eq(d->num_sms, 108);
	ck_assert_double_eq_tol(d->sm_eff_ktime_pct, 80.0, 1e-9);
	ck_assert_int_eq(d->sm_eff_ns, 500 * US);
	ck_assert_double_eq_tol(d->occ_ktime_pct, 27.5, 1e-9);
	ck_assert_int_eq(d->occ_ns, 400 * US);
	/* 13 buckets of 50 µs from 1000: [1000,1050) busy, [1100,1150) idle,
	 * [1450,1500) busy (two kernels, counted once), [1550,1600) idle,
	 * [1600,1650) busy */
	ck_assert_double_eq_tol(d->series[0], 1.0, 1e-6);
	ck_assert_double_eq_tol(d->series[2], 0.0, 1e-6);
	ck_assert_double_eq_tol(d->series[9], 1.0, 1e-6);
	ck_assert_double_eq_tol(d->series[11], 0.0, 1e-6);
	ck_assert_double_eq_tol(d->series[12], 1.0, 1e-6);
	/* per kernel, by time: k_full 300 µs (100 %, 20 %), then the two 100 µs
	 * kernels by name: k_half (50 %, 50 %), k_two (50 %, no occupancy) */
	ck_assert_uint_eq(u.nkernels, 3);
	ck_assert_str_eq(u.kernels[0].name, "k_full");
	ck_assert_int_eq(u.kernels[0].sum_ns, 300 * US);
	ck_assert_double_eq_tol(u.kernels[0].sm_eff_ktime_pct, 100.0, 1e-9);
	ck_assert_double_eq_tol(u.kernels[0].occ_ktime_pct, 20.0, 1e-6);
	ck_assert_int_eq(u.kernels[0].blocks, 216);
	ck_assert_int_eq(u.kernels[0].threads, 256);
	ck_assert_int_eq(u.kernels[0].regs, 32);
	ck_assert_str_eq(u.kernels[1].name, "k_half");
	ck_assert_double_eq_tol(u.kernels[1].sm_eff_ktime_pct, 50.0, 1e-9);
	ck_assert_str_eq(u.kernels[2].name, "k_two");
	ck_assert_int_eq(u.kernels[2].blocks, 54);
	ck_assert(isnan(u.kernels[2].occ_ktime_pct));
	tt_util_free(&u);
	tt_model_free(m);

	m = load1(util_noprops);
	tt_util_compute(m, &all, 0, &u);
	ck_assert_int_eq(u.nbuckets, TT_UTIL_BUCKETS);
	ck_assert_uint_eq(u.ndevs, 1);
	ck_assert_int_eq(u.devs[0].num_sms, 0);
	ck_assert(u.devs[0].sm_from_args);
	ck_assert_double_eq_tol(u.devs[0].sm_eff_ktime_pct, 25.0, 1e-4);
	ck_assert(isnan(u.devs[0].occ_ktime_pct));
	tt_util_free(&u);
	tt_model_free(m);
}
END_TEST

/* ---- operators: host and device self / total ---- */

/* thread 1:
 *   ProfilerStep#1           0-1000   (left out of the table)
 *     aten::linear         100-500    Input Dims [[2,3]]
 *       aten::t            110-130
 *       aten::addmm        150-450
 *         launch 160 corr 1  -> gemm  600-700 (100)
 *         aten::inner      200-300
 *           launch 210 corr 2 -> relu 700-720 (20)
 *       launch 460 corr 3    -> bias  720-730 (10)
 *     aten::linear         600-700    Input Dims [[4,5]]
 *       launch 610 corr 4    -> gemm  800-900 (100)
 * Host self subtracts the child ops and the op's own runtime calls (5 µs
 * each), as the plugin does:
 * linear: 2 calls, host total 400 + 100 = 500; self (400 - 20 - 300 - 5)
 *   + (100 - 5) = 170; device self bias + gemm = 110; total 10 + 120 + 100
 *   = 230
 * addmm: host 300, self 300 - 100 - 5 = 195; device self 100, total 120
 * inner: host 100, self 95; device 20, 20.   t: 20, 20, 0, 0 */
static const char ops_trace[] =
	HEAD ANNOT("ProfilerStep#1", 1, 0, 1000) ","
	OPA("aten::linear", 1, 100, 400, "\"Input Dims\":[[2,3]],\"Input type\":[\"float\"]") ","
	OP("aten::t", 1, 110, 20) "," OP("aten::addmm", 1, 150, 300) "," LAUNCH(1, 160, 5, 1) ","
	OP("aten::inner", 1, 200, 100) "," LAUNCH(1, 210, 5, 2) "," LAUNCH(1, 460, 5, 3) ","
	OPA("aten::linear", 1, 600, 100, "\"Input Dims\":[[4,5]],\"Input type\":[\"float\"]") ","
	LAUNCH(1, 610, 5, 4) ","
	KERNEL("gemm", 600, 100, 7, 1) "," KERNEL("relu", 700, 20, 7, 2) ","
	KERNEL("bias", 720, 10, 7, 3) "," KERNEL("gemm", 800, 100, 7, 4) TAIL;

static const struct tt_op_row *op_row(const struct tt_ops *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->rows[i].name, name) == 0)
			return &p->rows[i];
	ck_abort_msg("no op %s", name);
	return NULL;
}

START_TEST(operators_self_and_total)
{
	struct tt_model *m = load1(ops_trace);
	struct tt_ops p;
	tt_ops_compute(m, &all, false, &p);
	ck_assert_uint_eq(p.n, 4); /* no ProfilerStep */
	/* by device self: linear 110, addmm 100, inner 20, t 0 */
	ck_assert_str_eq(p.rows[0].name, "aten::linear");
	ck_assert_str_eq(p.rows[1].name, "aten::addmm");
	ck_assert_str_eq(p.rows[2].name, "aten::inner");
	ck_assert_str_eq(p.rows[3].name, "aten::t");
	const struct tt_op_row *w = op_row(&p, "aten::linear");
	ck_assert_uint_eq(w->calls, 2);
	ck_assert_int_eq(w->host_total, 500 * US);
	ck_assert_int_eq(w->host_self, 170 * US);
	ck_assert_int_eq(w->runtime_ns, 10 * US);
	ck_assert_int_eq(w->dev_self, 110 * US);
	ck_assert_int_eq(w->dev_total, 230 * US);
	ck_assert_uint_eq(w->gpu_ops_self, 2);
	ck_assert_uint_eq(w->gpu_ops_total, 4);
	ck_assert_uint_eq(w->ev, find(m->ranks[0], "aten::linear")); /* the longer one */
	w = op_row(&p, "aten::addmm");
	ck_assert_int_eq(w->host_total, 300 * US);
	ck_assert_int_eq(w->host_self, 195 * US);
	ck_assert_int_eq(w->dev_self, 100 * US);
	ck_assert_int_eq(w->dev_total, 120 * US);
	w = op_row(&p, "aten::inner");
	ck_assert_int_eq(w->host_self, 95 * US);
	ck_assert_int_eq(w->dev_total, 20 * US);
	w = op_row(&p, "aten::t");
	ck_assert_int_eq(w->host_self, 20 * US);
	ck_assert_int_eq(w->dev_total, 0);
	ck_assert(p.any_shapes);
	tt_ops_free(&p);

	/* by shapes: the two linear calls apart */
	tt_ops_compute(m, &all, true, &p);
	ck_assert_uint_eq(p.n, 5);
	int seen = 0;
	for (size_t i = 0; i < p.n; i++) {
		if (strcmp(p.rows[i].name, "aten::linear") != 0)
			continue;
		ck_assert_uint_eq(p.rows[i].calls, 1);
		if (strcmp(p.rows[i].shapes, "[[2,3]]") == 0) {
			ck_assert_int_eq(p.rows[i].host_self, 75 * US);
			ck_assert_int_eq(p.rows[i].dev_total, 130 * US);
			seen |= 1;
		} else {
			ck_assert_str_eq(p.rows[i].shapes, "[[4,5]]");
			ck_assert_int_eq(p.rows[i].dev_self, 100 * US);
			seen |= 2;
		}
	}
	ck_assert_int_eq(seen, 3);
	tt_ops_free(&p);

	/* kernels under aten::linear: gemm 2 (200 µs, self 1: 100), relu 1
	 * (20, not self), bias 1 (10, self) */
	struct tt_op_kernel *k;
	size_t n = tt_op_kernels(m, &all, "aten::linear", NULL, &k);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(k[0].name, "gemm");
	ck_assert_uint_eq(k[0].count, 2);
	ck_assert_int_eq(k[0].sum_ns, 200 * US);
	ck_assert_uint_eq(k[0].count_self, 1);
	ck_assert_int_eq(k[0].self_ns, 100 * US);
	ck_assert_str_eq(k[1].name, "relu");
	ck_assert_uint_eq(k[1].count_self, 0);
	ck_assert_str_eq(k[2].name, "bias");
	ck_assert_int_eq(k[2].self_ns, 10 * US);
	free(k);
	/* only the [[4,5]] call: one gemm, its own */
	n = tt_op_kernels(m, &all, "aten::linear", "[[4,5]]", &k);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(k[0].count_self, 1);
	free(k);
	tt_model_free(m);
}
END_TEST

/* ---- memory: peak and allocations alive at the peak ---- */

/* thread 1: aten::empty 100-110, aten::mul 200-250, aten::zeros 300-320;
 * 300 bytes at 0x9000 were allocated before the trace.  GPU 0:
 *   105  +1000 A 0x1000  total 1300  reserved 2048   (in aten::empty)
 *   205   +500 B 0x2000  total 1800  reserved 2048   (in aten::mul)
 *   210  -1000 A         total  800
 *   305  +2000 C 0x1000  total 2800  reserved 4096   (in aten::zeros) <- peak
 *   400   -500 B         total 2300
 *   410   -300 0x9000    total 2000   (allocated before the trace: unmatched)
 * CPU (Device Id -1): 106 +64 at 0x5, total 64.
 * Alive at the peak: C (2000, aten::zeros), B (500, aten::mul): 2500
 * bytes; 2800 - 2500 = 300 from before the trace. */
static const char mem_trace[] =
	"{\"distributedInfo\": {\"rank\": 0}, " DEVPROPS "\"traceEvents\": ["
	OP("aten::empty", 1, 100, 10) "," OP("aten::mul", 1, 200, 50) ","
	OP("aten::zeros", 1, 300, 20) ","
	MEM(105, 1000, 1300, 2048, 4096, 0) "," MEM(106, 64, 64, 0, 5, -1) ","
	MEM(205, 500, 1800, 2048, 8192, 0) "," MEM(210, -1000, 800, 2048, 4096, 0) ","
	MEM(305, 2000, 2800, 4096, 4096, 0) "," MEM(400, -500, 2300, 4096, 8192, 0) ","
	MEM(410, -300, 2000, 4096, 36864, 0) TAIL;

START_TEST(memory_peak_and_live)
{
	struct tt_model *m = load1(mem_trace);
	const struct tt_rank *r = m->ranks[0];
	struct tt_mem mm;
	tt_mem_compute(m, &all, &mm);
	ck_assert_uint_eq(mm.ndevs, 2);
	ck_assert_int_eq(mm.devs[0].device, -1); /* the CPU first */
	ck_assert_int_eq(mm.devs[0].peak_alloc, 64);
	ck_assert_uint_eq(mm.devs[0].nlive, 1);
	const struct tt_mem_dev *d = &mm.devs[1];
	ck_assert_int_eq(d->device, 0);
	ck_assert_uint_eq(d->nevents, 6);
	ck_assert_uint_eq(d->nallocs, 3);
	ck_assert_uint_eq(d->nfrees, 3);
	ck_assert_uint_eq(d->unmatched_frees, 1);
	ck_assert_int_eq(d->peak_alloc, 2800);
	ck_assert_int_eq(d->peak_ts, r->ev[find(r, "aten::zeros")].ts + 5 * US);
	ck_assert_int_eq(d->peak_reserved, 4096);
	ck_assert_int_eq(d->total_mem, 10000);
	ck_assert_uint_eq(d->npts, 6);
	ck_assert_int_eq(d->pts[2].alloc, 800);
	ck_assert_uint_eq(d->nlive, 2);
	ck_assert_int_eq(d->live_bytes, 2500);
	const struct tt_mem_live *a = &mm.live[d->first_live];
	ck_assert_int_eq(a[0].bytes, 2000);
	ck_assert_int_eq(a[0].addr, 4096);
	ck_assert_str_eq(tt_ev_name(r, &r->ev[a[0].op]), "aten::zeros");
	ck_assert_int_eq(a[1].bytes, 500);
	ck_assert_str_eq(tt_ev_name(r, &r->ev[a[1].op]), "aten::mul");
	/* the curve's maximum over [t(105), t(300)): 1800 (at 205); over
	 * [t(215), t(220)): 800, the value in force */
	int64_t t0 = r->ev[find(r, "aten::empty")].ts - 100 * US; /* µs 0 */
	ck_assert_int_eq(tt_mem_max(d, t0 + 105 * US, t0 + 300 * US, false), 1800);
	ck_assert_int_eq(tt_mem_max(d, t0 + 215 * US, t0 + 220 * US, false), 800);
	ck_assert_int_eq(tt_mem_max(d, t0, t0 + 100 * US, false), -1);
	ck_assert_int_eq(tt_mem_max(d, t0, t0 + 1000 * US, true), 4096);
	tt_mem_free(&mm);

	/* the report: the peak and the live allocations as rows */
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.format = TT_FMT_CSV;
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	ck_assert_int_eq(tt_report_build("memory", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(t[0]->name, "memory_devices");
	ck_assert_str_eq(t[2]->name, "memory_operators");
	ck_assert_uint_eq(t[0]->nrows, 2);
	int pc = tt_table_col(t[0], "peak_allocated"), bc = tt_table_col(t[0], "before_trace");
	ck_assert_double_eq(tt_cell_num(tt_table_cell(t[0], 1, pc)), 2800);
	ck_assert_double_eq(tt_cell_num(tt_table_cell(t[0], 1, bc)), 300);
	ck_assert_uint_eq(t[1]->nrows, 3);
	ck_assert_uint_eq(t[3]->nrows, 7);
	tt_tables_free(t, n);
	tt_model_free(m);

	/* no [memory] events: an empty table that says how to record them */
	m = load1(ops_trace);
	ck_assert_int_eq(tt_report_build("memory", m, NULL, &o, &t, &n, &err), 0);
	ck_assert_uint_eq(t[0]->nrows, 0);
	ck_assert_uint_eq(t[0]->nnotes, 1);
	ck_assert(strstr(t[0]->notes[0], "profile_memory=True") != NULL);
	tt_tables_free(t, n);
	tt_model_free(m);
}
END_TEST

/* ---- steps ---- */

/* ProfilerStep#7 0-1000 launches (at 900) a kernel running 1100-1300;
 * ProfilerStep#8 1000-1500.  Windows: step 7 [0, 1300): 1300 µs; step 8
 * [max(1300, 1000), max(1300, 1500)) = [1300, 1500): 200 µs.  Step 8
 * launched no GPU op: the plugin drops it (a tail step), so the rank's
 * statistics are step 7's. */
static const char steps_trace[] =
	HEAD ANNOT("ProfilerStep#7", 1, 0, 1000) "," ANNOT("ProfilerStep#8", 1, 1000, 500) ","
	LAUNCH(1, 900, 5, 1) "," KERNEL("k", 1100, 200, 7, 1) TAIL;

START_TEST(steps_windows)
{
	struct tt_model *m = load1(steps_trace);
	struct tt_steps s;
	tt_steps_compute(m, &all, &s);
	ck_assert_uint_eq(s.nsteps, 2);
	ck_assert_uint_eq(s.nranks, 1);
	ck_assert_int_eq(s.steps[0].num, 7);
	ck_assert_int_eq(s.steps[0].t1 - s.steps[0].t0, 1300 * US);
	ck_assert_int_eq(s.steps[0].cpu_dur, 1000 * US);
	ck_assert_int_eq(s.steps[0].gpu_busy_ns, 200 * US);
	ck_assert_int_eq(s.steps[1].num, 8);
	ck_assert_int_eq(s.steps[1].t0, s.steps[0].t1);
	ck_assert_int_eq(s.steps[1].t1 - s.steps[1].t0, 200 * US);
	ck_assert_int_eq(s.steps[1].gpu_busy_ns, 0);
	ck_assert(!s.steps[0].dropped);
	ck_assert(s.steps[1].dropped);
	const struct tt_steps_rank *sr = &s.ranks[0];
	ck_assert_uint_eq(sr->nkept, 1);
	ck_assert_int_eq(sr->first_num, 7);
	ck_assert_int_eq(sr->last_num, 7);
	ck_assert_int_eq(sr->max_ns, 1300 * US);
	ck_assert_int_eq(sr->min_ns, 1300 * US);
	ck_assert_int_eq(sr->mean_ns, 1300 * US);
	ck_assert_int_eq(sr->median_ns, 1300 * US);
	ck_assert_int_eq(sr->t0, 0);
	ck_assert_int_eq(sr->t1, 1300 * US);
	tt_steps_free(&s);
	tt_model_free(m);
}
END_TEST

/* ---- distributed ---- */

/* Three ranks, one step 0-1000 each.  aten::mm launches gemm 100-300
 * (stream 7); two record_param_comms (allreduce, Float, 1000 elements =
 * 4000 bytes) > nccl:all_reduce > launch an NCCL kernel on stream 20:
 *   rank 0: 250-350 (100)  and 500-550 (50)
 *   rank 1: 250-400 (150)  and 500-550 (50)
 *   rank 2: 250-650 (400)  and 700-780 (80)
 * sync = the wait for the last rank to arrive (collectives.h): in the first
 * all-reduce every rank arrives at 250, nobody waits; in the second rank 2
 * arrives at 700, 200 after ranks 0 and 1, whose kernels last 50: they
 * wait 50 each (a wait never exceeds the kernel).  The ends disagree by up
 * to 300, but two collectives are too few to estimate a clock offset.
 * sync = 50, 50, 0; totals: latency 830, sync 100, transfer 730, bytes
 * 6 x 4000 = 24000.
 * Rank 0 in its step [0, 1000) (the plugin's parts; communication: the
 * nccl:all_reduce spans 205-235 and 452-478 and the NCCL kernels):
 * overlapping = gemm ∩ communication = 205-235 + 250-300 = 80,
 * computation 200 - 80 = 120, communication 30 + 100 + 26 + 50 - 80 = 126,
 * other 1000 - 326 = 674; idle 1000 - |100-350, 500-550| = 700.
 * The plugin's collective tables: a call's ranges are its nccl:all_reduce
 * span and the kernel launched inside; spans last 30 and 26 on every rank,
 * the kernels' transfer parts are the shortest (100, 50) ending where each
 * kernel ends.  Rank 0: latency 30 + 100 + 26 + 50 = 206 = transfer; rank
 * 2: latency |205-235, 250-650 (holding 452-478), 700-780| = 510, transfer
 * |205-235, 550-650, 452-478, 730-780| = 206, synchronizing 304.
 * Stragglers: sync 50, 50, 0 -> median 50, MAD 0, scale the floor 1 µs:
 * z(rank 2) = -50 (the others wait for it); idle 700, 650, 370 -> rank 2
 * is low (z -3.78), which is no straggler; steps are equal. */
#define DIST(rank, c1ts, c1dur, c2ts, c2dur)                                                 \
	HEADR(rank) "\"traceEvents\": [" ANNOT("ProfilerStep#1", 1, 0, 1000) ","               \
	OP("aten::mm", 1, 50, 40) "," LAUNCH(1, 60, 5, 10) ","                                  \
	OPA("record_param_comms", 1, 200, 40,                                                   \
	    "\"Collective name\":\"allreduce\",\"dtype\":\"Float\",\"In msg nelems\":1000,"     \
	    "\"Out msg nelems\":1000,\"Group size\":3") ","                                     \
	ANNOT("nccl:all_reduce", 1, 205, 30) "," LAUNCH(1, 210, 5, 11) ","                      \
	OPA("record_param_comms", 1, 450, 30,                                                   \
	    "\"Collective name\":\"allreduce\",\"dtype\":\"Float\",\"In msg nelems\":1000,"     \
	    "\"Out msg nelems\":1000,\"Group size\":3") ","                                     \
	ANNOT("nccl:all_reduce", 1, 452, 26) "," LAUNCH(1, 455, 5, 12) ","                      \
	KERNEL("gemm", 100, 200, 7, 10) ","                                                     \
	KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL", c1ts, c1dur, 20, 11) ","              \
	KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL", c2ts, c2dur, 20, 12) TAIL

START_TEST(distributed_hand_checked)
{
	const char *const texts[3] = {DIST(0, 250, 100, 500, 50), DIST(1, 250, 150, 500, 50),
				      DIST(2, 250, 400, 700, 80)};
	struct tt_model *m = loadn(texts, 3);
	struct tt_dist d;
	tt_dist_compute(m, &all, &d);
	ck_assert_uint_eq(d.nranks, 3);
	const struct tt_dist_rank *w = &d.ranks[0];
	ck_assert(w->has_steps);
	ck_assert_uint_eq(w->nwindows, 1);
	ck_assert_int_eq(w->step_ns, 1000 * US);
	ck_assert_int_eq(w->comp_ns, 120 * US);
	ck_assert_int_eq(w->overlap_ns, 80 * US);
	ck_assert_int_eq(w->comm_ns, 126 * US);
	ck_assert_int_eq(w->other_ns, 674 * US);
	/* the plugin's tables */
	ck_assert(d.tb_shown);
	ck_assert_uint_eq(d.nops, 3);
	ck_assert_str_eq(d.ops[0].name, "nccl:all_reduce");
	ck_assert_uint_eq(d.ops[0].calls, 2);
	ck_assert_int_eq(d.ops[0].bytes, -1);
	ck_assert_int_eq(d.ops[0].latency_ns, 206 * US);
	ck_assert_int_eq(d.ops[0].transfer_ns, 206 * US);
	ck_assert_int_eq(d.ops[2].latency_ns, 510 * US);
	ck_assert_int_eq(d.ops[2].transfer_ns, 206 * US);
	ck_assert_uint_eq(d.ops[2].nkernels, 2);
	/* waits: rank 2's "all" row and step 1 */
	ck_assert_uint_eq(d.nwaits, 6);
	ck_assert(d.waits[4].all);
	ck_assert_int_eq(d.waits[5].step, 1);
	ck_assert_int_eq(d.waits[5].total_ns - d.waits[5].transfer_ns, 304 * US);
	ck_assert_int_eq(w->idle_ns, 700 * US);
	ck_assert_uint_eq(w->ncalls, 2);
	ck_assert_int_eq(w->sync_ns, 50 * US);
	ck_assert_int_eq(d.ranks[1].sync_ns, 50 * US);
	ck_assert_int_eq(d.ranks[2].sync_ns, 0);
	ck_assert_int_eq(d.ranks[2].idle_ns, 370 * US);

	/* the collective's runtime calls lie in its nccl:all_reduce annotation:
	 * record_param_comms' host self subtracts them once (with the child's
	 * span: (40 - 30) + (30 - 26) = 14 per rank), its device self has the
	 * NCCL kernels (150 + 200 + 480) */
	struct tt_ops ops;
	tt_ops_compute(m, &all, false, &ops);
	const struct tt_op_row *rpc = op_row(&ops, "record_param_comms");
	ck_assert_int_eq(rpc->host_self, 3 * 14 * US);
	ck_assert_int_eq(rpc->dev_self, 830 * US);
	tt_ops_free(&ops);
	ck_assert_uint_eq(d.nstats, 1);
	const struct tt_coll_stat *s = &d.stats[0];
	ck_assert_str_eq(s->name, "allreduce");
	ck_assert_uint_eq(s->nranks, 3);
	ck_assert_uint_eq(s->calls, 6);
	ck_assert_uint_eq(s->matched, 6);
	ck_assert_int_eq(s->bytes, 24000);
	ck_assert_int_eq(s->total_ns, 830 * US);
	ck_assert_int_eq(s->transfer_ns, 730 * US);
	ck_assert_int_eq(s->sync_ns, 100 * US);
	ck_assert(!s->counts_differ);
	/* the calls: name from record_param_comms, the CPU op is the
	 * innermost collective op (the nccl: annotation) */
	ck_assert_uint_eq(d.ncalls, 6);
	ck_assert_str_eq(d.calls[0].source, "record_param_comms");
	ck_assert_str_eq(tt_ev_name(m->ranks[0], &m->ranks[0]->ev[d.calls[0].cpu]),
			 "nccl:all_reduce");
	ck_assert_uint_eq(d.calls[1].seq, 1);

	ck_assert_uint_eq(d.nstragglers, 1);
	ck_assert_int_eq(d.stragglers[0].rank, 2);
	ck_assert_str_eq(d.stragglers[0].metric, "sync");
	ck_assert_double_eq_tol(d.stragglers[0].z, -50.0, 1e-9);
	tt_dist_free(&d);
	tt_model_free(m);
}
END_TEST

/* the collective name from the kernel name, without CPU ops */
static const char kname_trace[] =
	HEAD KERNEL("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long)", 100,
		    10, 20, 1) TAIL;

START_TEST(distributed_name_from_kernel)
{
	struct tt_model *m = load1(kname_trace);
	struct tt_dist d;
	tt_dist_compute(m, &all, &d);
	ck_assert_uint_eq(d.nstats, 1);
	ck_assert_str_eq(d.stats[0].name, "SendRecv");
	ck_assert_str_eq(d.calls[0].source, "kernel name");
	ck_assert_int_eq(d.calls[0].bytes, -1);
	ck_assert_int_eq(d.stats[0].transfer_ns, 10 * US); /* one rank: all transfer */
	ck_assert(!d.ranks[0].has_steps);
	tt_dist_free(&d);
	tt_model_free(m);
}
END_TEST

/* ---- source ---- */

/* thread 1: python main 0-1000 > python forward 100-500 > aten::mm
 * 200-300; aten::add 600-700 under main only; aten::relu 800-850 with a
 * `Call stack` (its own, taken first). */
static const char src_trace[] =
	HEAD PY("train.py(10): main", 1, 0, 1000) "," PY("model.py(20): forward", 1, 100, 400) ","
	OP("aten::mm", 1, 200, 100) "," OP("aten::add", 1, 600, 100) ","
	OPA("aten::relu", 1, 800, 50, "\"Call stack\":\"a.py(1): f;b.py(2): g\"") TAIL;

START_TEST(source_stacks)
{
	struct tt_model *m = load1(src_trace);
	struct tt_src s;
	tt_src_compute(m, &all, &s);
	ck_assert_uint_eq(s.n_python, 2);
	ck_assert_uint_eq(s.n_call_stack, 1);
	ck_assert_uint_eq(s.nstacks, 3);
	/* host time desc, then op: aten::add 100, aten::mm 100, relu 50 */
	ck_assert_str_eq(s.stacks[0].op, "aten::add");
	ck_assert_str_eq(s.stacks[0].stack, "train.py(10): main");
	ck_assert(s.stacks[0].python);
	ck_assert_str_eq(s.stacks[1].op, "aten::mm");
	ck_assert_str_eq(s.stacks[1].stack, "model.py(20): forward\ntrain.py(10): main");
	ck_assert_uint_eq(s.stacks[1].nframes, 2);
	ck_assert_str_eq(s.stacks[2].op, "aten::relu");
	ck_assert_str_eq(s.stacks[2].stack, "a.py(1): f\nb.py(2): g");
	ck_assert(!s.stacks[2].python);
	ck_assert_uint_eq(s.nlines, 3);
	ck_assert_str_eq(s.lines[2].frame, "a.py(1): f");
	ck_assert_int_eq(s.lines[2].host_ns, 50 * US);
	tt_src_free(&s);
	tt_model_free(m);
}
END_TEST

/* ---- every report builds on every trace above ---- */

START_TEST(reports_build)
{
	static const char *const reports[] = {"utilization", "distributed", "operators", "memory",
					      "source",	     "steps",	    "advice"};
	const char *const traces[] = {util_trace, ops_trace, mem_trace, steps_trace, src_trace,
				      kname_trace};
	for (size_t ti = 0; ti < sizeof(traces) / sizeof(traces[0]); ti++) {
		struct tt_model *m = load1(traces[ti]);
		for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
			for (int f = 0; f < 3; f++) {
				struct tt_report_opts o;
				tt_report_opts_init(&o);
				o.format = (enum tt_format)f;
				struct tt_table **t;
				size_t n;
				struct tt_err err;
				int rc = tt_report_build(reports[i], m, NULL, &o, &t, &n, &err);
				ck_assert_msg(rc == 0, "%s: %s", reports[i], err.msg);
				ck_assert_uint_ge(n, 1);
				tt_tables_free(t, n);
			}
		tt_model_free(m);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tbviews");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, small_pieces);
	tcase_add_test(tc, utilization_hand_checked);
	tcase_add_test(tc, operators_self_and_total);
	tcase_add_test(tc, memory_peak_and_live);
	tcase_add_test(tc, steps_windows);
	tcase_add_test(tc, distributed_hand_checked);
	tcase_add_test(tc, distributed_name_from_kernel);
	tcase_add_test(tc, source_stacks);
	tcase_add_test(tc, reports_build);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
