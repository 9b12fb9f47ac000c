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
	int64_t num;        /* N of ProfilerStep#N; 0 for the pseudo-step */
	uint32_t ev;        /* the annotation; TT_NONE for the pseudo-step */
	bool pseudo;        /* no ProfilerStep#N on the rank: one step over its CPU ops */
	bool dropped;       /* a tail step the plugin drops (no GPU ops, or fewer than
			     * 80 % of the previous step's) */
	int64_t cpu_ts, cpu_dur;
	/* the plugin's window (event_parser.py, StepParser): start = max(end of
	 * the previous window, CPU start), the first step's start moved to the
	 * end of the last GPU op no step launched that ends before the step's
	 * first GPU op; end = max(CPU end, end of the GPU ops launched by the
	 * runtime calls lying wholly inside the CPU span), never before start */
	int64_t t0, t1;
	uint32_t ngpu;       /* GPU ops launched inside the CPU span */
	int64_t gpu_busy_ns; /* |union of the rank's GPU ops ∩ window| */
	double gpu_busy_pct; /* 100 gpu_busy_ns / window; NaN for an empty window */
	double num_median_ns; /* the median window of its step number over the
			       * ranks (kept ProfilerSteps; NaN for the others) */
	double vs_median_pct; /* 100 (window - num_median_ns) / num_median_ns;
			       * NaN without a median */
};

/* One step number across ranks (kept ProfilerSteps only). */
struct tt_step_num {
	int64_t num;
	uint32_t nranks;
	int64_t min_ns, max_ns;
	double median_ns;
	double spread_pct;   /* 100 (max - median) / median; NaN without a median */
	size_t slowest;      /* index into tt_steps.steps of the longest */
};

struct tt_steps_rank {
	size_t ri;
	int64_t rank;
	size_t first, n;    /* tt_steps.steps[first .. first+n), by start */
	size_t nkept;       /* the first nkept of them are kept (the rest dropped) */
	bool pseudo;        /* its one step is the pseudo-step */
	int64_t t0, t1;     /* the steps window: first kept start to last kept end */
	int64_t first_num, last_num; /* of the kept ProfilerSteps; -1 without */
	/* durations of the kept windows; 0 without */
	int64_t min_ns, median_ns, max_ns, mean_ns, sum_ns;
};

struct tt_steps {
	struct tt_step *steps;
	size_t nsteps;
	struct tt_step_num *nums; /* by step number */
	size_t nnums;
	struct tt_steps_rank *ranks; /* selected ranks, model order */
	size_t nranks;
};

/* The plugin's steps of every rank o selects: ProfilerStep#N annotations
 * (cpu_op or user_annotation, any thread) by start, or, without any, one
 * pseudo-step spanning the rank's cpu_ops (none without cpu_ops).  Never
 * fails.  Free with tt_steps_free. */
void tt_steps_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_steps *out);
void tt_steps_free(struct tt_steps *s);

/* The ProfilerStep#N annotations of rank r, one per number: its first CPU
 * one by event index, else its first (markers aside); by number, for
 * tt_step_ev_find.  Built once per rank (a pass over its events) and kept
 * with it; *n gets their count. */
const struct tt_step_ev *tt_step_index(const struct tt_rank *r, size_t *n);

#endif
