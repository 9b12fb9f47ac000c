/* analysis: augmented counters (metrics.md §8, §9).
 *
 * Queue length: per rank and GPU stream, the number of operations launched
 * by the CPU and not yet started on the GPU, as a step series sampled at
 * every change (+1 at each launch call start, -1 at each GPU op start).
 * Memory bandwidth: per rank and memory sub-kind (Memcpy HtoD, DtoH, DtoD,
 * PtoP, Memset, Memcpy Unknown), the sum of `memory bandwidth (GB/s)` over
 * the copies in flight, sampled at every copy start and end.
 *
 * Both follow HTA's get_queue_length_* / get_memory_bw_* (trace_counters.py)
 * on the events HTA keeps (struct tt_sel); the summaries are pandas
 * describe() of the samples, not time-weighted, as in HTA.  Where HTA's
 * output depends on its unstable sort of equal timestamps, tracetop orders
 * ties explicitly (see counters.c) and differs a little; where HTA has a bug,
 * tracetop does what is right:
 *  - the time blocked on a full queue is given for every stream that reaches
 *    the limit (HTA keeps one stream per rank, metrics.md §13.10);
 *  - streams are keyed by (device, stream), HTA by stream alone (equal for
 *    one GPU per rank, the usual case);
 *  - a launch linked to the very first entry of traceEvents counts as linked
 *    (HTA's row-0 sentinel, metrics.md §0.3, is not reproduced);
 *  - bandwidth: copies ending at time t are removed before copies starting at
 *    t are added, |sum| < 1e-9 GB/s is 0, and a copy whose duration is 0 or
 *    negative after HTA's µs rounding lasts 1 µs (HTA: only 0 becomes 1).
 *
 * Pure: no printing.  Results are sorted for display. */
#ifndef TRACETOP_COUNTERS_H
#define TRACETOP_COUNTERS_H

#include "tracetop/analysis.h"

/* HTA's CUDA_MAX_LAUNCH_QUEUE_PER_STREAM */
#define TT_QUEUE_MAX 1024

/* pandas Series.describe() of n values: count, mean, sample std (ddof 1,
 * NaN for n < 2), min, 25/50/75 % (numpy linear interpolation), max.  All
 * NaN but count when n == 0. */
struct tt_describe {
	uint64_t count;
	double mean, std, min, q25, q50, q75, max;
};

/* one GPU stream of one rank */
struct tt_queue_series {
	int64_t device;           /* pid of the GPU ops */
	int64_t stream;           /* args.stream */
	struct tt_sample *pts;    /* change points in time order: ts (ns, HTA's
				   * view: whole µs when HTA rounds), value =
				   * queue length after the change */
	size_t npts;              /* 2 x launches */
	uint32_t launches;        /* (launch call, GPU op) pairs */
	struct tt_describe stats; /* describe() of the values */
	int64_t full_ns;          /* time with the queue >= TT_QUEUE_MAX: sum of
				   * (next ts - ts) over such samples */
	bool reaches_max;         /* some sample >= TT_QUEUE_MAX */
	double full_rel;          /* full_ns / the rank's trace duration (NaN if 0) */
};

/* one memory sub-kind of one rank */
struct tt_bw_series {
	char name[48];            /* "Memcpy HtoD", "Memset", "Memcpy Unknown", ... */
	int64_t device;           /* pid of the first copy of this kind */
	struct tt_sample *pts;    /* change points in time order (ns): value =
				   * GB/s of the copies in flight after the change,
				   * zeros included */
	size_t npts;              /* 2 x copies */
	uint32_t copies;
	struct tt_describe stats; /* describe() of the values > 0 */
};

struct tt_counters_rank {
	const struct tt_rank *r;
	size_t ri;                 /* index in model->ranks */
	bool gpu;                  /* has GPU events (stream != -1) in HTA's view */
	int64_t span_ns;           /* HTA's trace duration: max ts - min ts of
				    * the kept events */
	struct tt_queue_series *q; /* sorted by (stream, device) */
	size_t nq;
	struct tt_bw_series *bw;   /* sorted by name (byte order), as pandas */
	size_t nbw;
};

struct tt_counters {
	struct tt_counters_rank *ranks; /* the selected ranks, ascending */
	size_t nranks;
};

/* Compute both series and their summaries for every rank o selects (all by
 * default), on o->threads threads.  o->exact: exact ns times on every event
 * instead of HTA's view.  Never fails; free with tt_counters_free. */
void tt_counters_compute(const struct tt_model *m, const struct tt_aopts *o,
			 struct tt_counters *out);
/* The same for one rank index ri only (o's rank list is not consulted). */
void tt_counters_rank_compute(const struct tt_model *m, size_t ri, const struct tt_aopts *o,
			      struct tt_counters_rank *out);
void tt_counters_rank_free(struct tt_counters_rank *cr);
void tt_counters_free(struct tt_counters *c);

/* For sparklines: the largest value a step series (change points sorted by
 * ts, as above) holds during [t0, t1): the value in force at t0 (0 before
 * the first point) and every point in [t0, t1), zero-length intermediate
 * values at equal times included.  O(log n + points inside). */
double tt_step_max(const struct tt_sample *pts, size_t n, int64_t t0, int64_t t1);

#endif
