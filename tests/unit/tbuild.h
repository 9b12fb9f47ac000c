/* Traces written in C for the unit tests of the job-wide analyses: a
 * growable JSON text, one event per call (µs in the traces).  Included by
 * the Check programs only. */
#ifndef TRACETOP_TEST_TBUILD_H
#define TRACETOP_TEST_TBUILD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/model.h"
#include "tracetop/util.h"
#include "testlib.h"

#define US 1000 /* ns per µs */

/* ---- a small trace writer ---- */

struct tb {
	char *s;
	size_t n, cap;
	int corr;
	bool first;
};

static inline void tb_add(struct tb *b, const char *fmt, ...) TT_PRINTF(2, 3);
static inline void tb_add(struct tb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	TT_GROW(b->s, b->cap, b->n + (size_t)k + 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

/* an event: a comma before every one but the first */
static inline void tb_ev(struct tb *b)
{
	if (!b->first)
		tb_add(b, ",\n");
	b->first = false;
}

static inline void tb_begin(struct tb *b, int rank, int world, const char *host)
{
	memset(b, 0, sizeof(*b));
	b->first = true;
	b->corr = 100;
	tb_add(b, "{\"distributedInfo\": {\"rank\": %d, \"world_size\": %d}, ", rank, world);
	if (host)
		tb_add(b, "\"host_name\": \"%s\", ", host);
	tb_add(b, "\"traceEvents\": [\n");
}

static inline void tb_step(struct tb *b, int num, long ts, long dur)
{
	tb_ev(b);
	tb_add(b,
	       "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\",\"pid\":1,"
	       "\"tid\":1,\"ts\":%ld,\"dur\":%ld}",
	       num, ts, dur);
}

/* a collective: record_param_comms (name, Float, nelems, group pg with
 * ranks pgr; pg NULL: no group args) around a launch at t of a kernel
 * kname at [kts, kts + kdur) on stream */
static inline void tb_coll_on(struct tb *b, const char *name, const char *pg, const char *pgr,
			      long nelems, long t, long kts, long kdur, const char *kname,
			      int stream)
{
	int corr = b->corr++;
	tb_ev(b);
	tb_add(b,
	       "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,"
	       "\"tid\":1,\"ts\":%ld,\"dur\":20,\"args\":{\"Collective name\":\"%s\","
	       "\"dtype\":\"Float\",\"In msg nelems\":%ld,\"Out msg nelems\":%ld",
	       t, name, nelems, nelems);
	if (pg)
		tb_add(b, ",\"Process Group Name\":\"%s\",\"Process Group Ranks\":\"%s\"", pg,
		       pgr);
	tb_add(b, "}}");
	tb_ev(b);
	tb_add(b,
	       "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	       "\"tid\":1,\"ts\":%ld,\"dur\":10,\"args\":{\"correlation\":%d}}",
	       t + 5, corr);
	tb_ev(b);
	tb_add(b,
	       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":%ld,"
	       "\"dur\":%ld,\"args\":{\"device\":0,\"stream\":%d,\"correlation\":%d}}",
	       kname, stream, kts, kdur, stream, corr);
}

/* the same on stream 20 */
static inline void tb_coll(struct tb *b, const char *name, const char *pg, const char *pgr,
			   long nelems, long t, long kts, long kdur, const char *kname)
{
	tb_coll_on(b, name, pg, pgr, nelems, t, kts, kdur, kname, 20);
}

/* a CPU event (cat "cpu_op", "user_annotation", "cuda_runtime") on thread
 * tid; corr >= 0: its correlation id */
static inline void tb_cpu(struct tb *b, const char *cat, const char *name, int tid, long ts,
			  long dur, int corr)
{
	tb_ev(b);
	tb_add(b, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,"
		  "\"ts\":%ld,\"dur\":%ld",
	       cat, name, tid, ts, dur);
	if (corr >= 0)
		tb_add(b, ",\"args\":{\"correlation\":%d}", corr);
	tb_add(b, "}");
}

/* a GPU op (cat "kernel", "gpu_memcpy") on stream of GPU 0 */
static inline void tb_gpu(struct tb *b, const char *cat, const char *name, long ts, long dur,
			  int stream, int corr)
{
	tb_ev(b);
	tb_add(b,
	       "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":%ld,"
	       "\"dur\":%ld,\"args\":{\"device\":0,\"stream\":%d,\"correlation\":%d}}",
	       cat, name, stream, ts, dur, stream, corr);
}

#define AR_KERNEL "ncclDevKernel_AllReduce_Sum_f32_RING_LL"

static inline char *tb_end(struct tb *b)
{
	tb_add(b, "\n]}");
	return b->s;
}

static inline struct tt_model *load(char **text, size_t n)
{
	struct tt_model *m = tl_load_json((const char *const *)text, n);
	for (size_t i = 0; i < n; i++)
		free(text[i]);
	return m;
}

/* Two ranks that disagree on a step's collectives: in step 1 rank 0 makes
 * three all_reduces of pg 0, rank 1 two; in step 2 each makes one, rank 1
 * 300 µs late (its kernel at 10400, rank 0's at 10200 for 400 µs). */
static inline struct tt_model *tb_ranks_disagree(void)
{
	char *t[2];
	struct tb b;
	tb_begin(&b, 0, 2, NULL);
	tb_step(&b, 1, 0, 10000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 100, 200, 100, AR_KERNEL);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 1100, 1200, 100, AR_KERNEL);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 2100, 2200, 100, AR_KERNEL);
	tb_step(&b, 2, 10000, 10000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 10100, 10200, 400, AR_KERNEL);
	t[0] = tb_end(&b);
	tb_begin(&b, 1, 2, NULL);
	tb_step(&b, 1, 0, 10000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 100, 200, 100, AR_KERNEL);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 1100, 1200, 100, AR_KERNEL);
	tb_step(&b, 2, 10000, 10000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 10400, 10500, 100, AR_KERNEL);
	t[1] = tb_end(&b);
	return load(t, 2);
}

#endif
