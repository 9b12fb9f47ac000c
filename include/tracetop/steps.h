/* analysis: ProfilerStep#N windows per rank (the TensorBoard plugin's steps).
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads. */
#ifndef TRACETOP_STEPS_H
#define TRACETOP_STEPS_H

#include "tracetop/analysis.h"

/* ---- steps ---- */

struct tt_step {
	size_t ri;
	int64_t rank;
	int64_t num;        /* N of ProfilerStep#N */
	uint32_t ev;        /* the annotation */
	int64_t cpu_ts, cpu_dur;
	/* the plugin's window: start = max(end of the previous window, CPU
	 * start), end = max(end of the previous window, CPU end, end of the
	 * last GPU op launched by a runtime call inside the CPU span) */
	int64_t t0, t1;
	int64_t gpu_busy_ns; /* |union of the rank's GPU ops ∩ window| */
};

struct tt_steps_rank {
	size_t ri;
	int64_t rank;
	size_t first, n;    /* tt_steps.steps[first .. first+n), by start */
	int64_t first_num, last_num; /* -1 without steps */
	int64_t min_ns, median_ns, max_ns, mean_ns, sum_ns; /* window durations */
};

struct tt_steps {
	struct tt_step *steps;
	size_t nsteps;
	struct tt_steps_rank *ranks; /* selected ranks, model order */
	size_t nranks;
};

/* ProfilerStep#N annotations (any CPU thread; cpu_op or user_annotation),
 * by start per rank.  Never fails.  Free with tt_steps_free. */
void tt_steps_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_steps *out);
void tt_steps_free(struct tt_steps *s);

#endif
