/* analysis: GPU idle time per stream (HTA get_idle_time_breakdown,
 * metrics.md §4) and CUDA kernel launch statistics (HTA
 * get_cuda_kernel_launch_stats, metrics.md §7).
 *
 * Both work on HTA's view of each rank (struct tt_sel: iteration filter and
 * µs rounding, unless tt_aopts.exact) and analyse every rank the options
 * select; HTA's own default is rank 0 only.  Results keep rank indices
 * (into model->ranks), track indices and event indices (into rank->ev) so a
 * pane can jump to the events.  Times are int64 ns; statistics that HTA
 * gives in µs as floats are doubles in µs (names end in _us). */
#ifndef TRACETOP_IDLE_H
#define TRACETOP_IDLE_H

#include "tracetop/analysis.h"

/* ---- idle time breakdown ---- */

enum tt_idle_cat {
	TT_IDLE_HOST_WAIT = 0, /* the next kernel's launch started after the
				* previous kernel ended: the CPU was late */
	TT_IDLE_KERNEL_WAIT,   /* otherwise, a gap below the consecutive
				* kernel delay: launch overhead */
	TT_IDLE_OTHER,         /* everything else, and the first kernel */
	TT_IDLE_NCAT
};

/* "host_wait", "kernel_wait", "other" (HTA's names) */
const char *tt_idle_cat_name(enum tt_idle_cat c);

/* HTA's category of the gap before a kernel: launch is the start of the
 * kernel's launching call (INT64_MIN when it has none), prev_end the end
 * of the stream's previous kernel, dur the gap, delay_ns the consecutive
 * kernel delay. */
enum tt_idle_cat tt_idle_gap_cat(int64_t launch, int64_t prev_end, int64_t dur, double delay_ns);

/* Whether an event category is one of HTA's G_k (kernels, memsets,
 * memcpys) whose gaps the idle breakdown measures. */
bool tt_idle_gk_cat(const char *cat);

/* pandas Series.describe() of a set of values: count, mean, sample std
 * (n-1), min, linear-interpolation 25/50/75 % quantiles, max.  Fields are
 * NaN where pandas gives NaN (everything when count is 0, std when 1). */
struct tt_idle_stats {
	uint32_t count;
	double mean, std, min, q25, q50, q75, max;
};

/* One gap between two consecutive kernels (ts order) of a stream. */
struct tt_idle_gap {
	uint32_t rank_idx;   /* index into model->ranks */
	uint32_t stream_idx; /* index into tt_idle.streams */
	uint32_t prev, next; /* event indices (rank->ev) of the kernels around it */
	uint32_t track;      /* track of `next` (streams are grouped by number,
			      * so `prev` may sit on another track of the
			      * same stream number: tt_track_of tells) */
	uint8_t cat;         /* enum tt_idle_cat */
	int64_t start;       /* end of prev, ns, HTA view (absolute) */
	int64_t dur;         /* ts(next) - end(prev), ns; negative on overlap */
	int64_t launch;      /* ts of next's launching runtime call (HTA view),
			      * INT64_MIN if it has none in the selection */
};

struct tt_idle_catsum {
	bool present;              /* some kernel of the stream got the category */
	int64_t idle_ns;           /* sum of its gaps */
	double ratio;              /* idle_ns / stream idle_ns; NaN for 0/0 */
	struct tt_idle_stats st;   /* describe() of its gaps, µs */
};

struct tt_idle_stream {
	uint32_t rank_idx;
	int64_t rank, stream;
	uint32_t track;      /* track of the stream's first kernel */
	uint32_t nkernels;   /* events of G_k on the stream */
	int64_t idle_ns;     /* sum of all gaps (may be negative) */
	int64_t max_gap_ns;  /* the longest gap (0 when there is none) */
	struct tt_idle_catsum cat[TT_IDLE_NCAT];
	size_t first_gap, ngaps; /* its gaps: tt_idle.gaps[first_gap ..), ts order */
};

struct tt_idle_rank {
	uint32_t rank_idx;
	int64_t rank;
	bool no_gpu;         /* no G_k event in the selection: skipped (HTA raises) */
	int64_t gpu_t0;      /* start of its first GPU event (HTA view), ns */
	size_t first_stream, nstreams; /* tt_idle.streams[first_stream ..) */
};

struct tt_idle {
	double kernel_delay_us;       /* HTA consecutive_kernel_delay used */
	struct tt_idle_rank *ranks;   /* selected ranks, model order */
	size_t nranks;
	struct tt_idle_stream *streams; /* per rank, by stream number (HTA:
					 * first appearance in the file) */
	size_t nstreams;
	struct tt_idle_gap *gaps;     /* per stream, in ts order */
	size_t ngaps;
	uint32_t *by_dur;             /* gap indices, longest first (ties: rank,
				       * stream, time) */
};

/* Idle time breakdown of every rank o selects.
 *
 * Kernels G_k = events with a stream whose cat is kernel, Kernel,
 * gpu_memcpy, Memcpy, gpu_memset, Memset or mtia_ccp_events (exact
 * spelling, as HTA), grouped by stream number and sorted by start.  The
 * gap before kernel k_i is ts(k_i) - end(k_{i-1}); its category is
 * host_wait if k_i's launching runtime call (tt_launch_of) starts after
 * end(k_{i-1}), else kernel_wait if the gap is < kernel_delay_us, else
 * other.  The first kernel of a stream lands in `other` with no gap.
 * Never fails; ranks without kernels are listed with no_gpu set.  O(n log n)
 * over the events of a rank; ranks run on o->threads threads.  Free with
 * tt_idle_free. */
struct tt_idle *tt_idle_breakdown(const struct tt_model *m, const struct tt_aopts *o,
				  double kernel_delay_us);
void tt_idle_free(struct tt_idle *r);

/* ---- CUDA kernel launch statistics ---- */

/* One (runtime call, GPU op) pair joined by correlation id. */
struct tt_launch_row {
	uint32_t corr;
	uint32_t cpu, gpu;   /* event indices (rank->ev) */
	int64_t cpu_dur;     /* ns, HTA view (rounded times when HTA rounds) */
	int64_t gpu_dur;
	int64_t delay;       /* max(0, ts(gpu) - end(cpu)) */
};

struct tt_launch_rank {
	uint32_t rank_idx;
	int64_t rank;
	bool no_gpu;          /* no event with a stream in the selection */
	struct tt_launch_row *rows; /* ordered by the CPU call's start (then
				     * event index), partners by start; HTA
				     * keeps the file order of the calls,
				     * which the model does not record */
	size_t nrows;
	int64_t cpu_sum, gpu_sum, delay_sum; /* INT64_MAX when beyond (sums_clamped) */
	bool sums_clamped;
	double cpu_mean, gpu_mean, delay_mean; /* ns, exact sums / nrows (0: no rows) */
	int64_t delay_max;    /* 0 when there are no rows */
	uint32_t n_runtime_outliers, n_delay_outliers, n_short;
	uint32_t n_ignored;   /* launch calls HTA's list leaves out
			       * (cuLaunchKernel*, hip*): not in rows */
};

struct tt_launch {
	double runtime_cutoff_us;     /* HTA runtime_cutoff */
	double delay_cutoff_us;       /* HTA launch_delay_cutoff */
	struct tt_launch_rank *ranks; /* selected ranks, model order */
	size_t nranks;
};

/* The outlier classes of HTA's plots. */
static inline bool tt_launch_runtime_outlier(const struct tt_launch *l,
					     const struct tt_launch_row *w)
{
	return (double)w->cpu_dur > l->runtime_cutoff_us * 1000.0;
}
static inline bool tt_launch_delay_outlier(const struct tt_launch *l,
					   const struct tt_launch_row *w)
{
	return (double)w->delay > l->delay_cutoff_us * 1000.0;
}
static inline bool tt_launch_short_kernel(const struct tt_launch *l,
					  const struct tt_launch_row *w)
{
	return !tt_launch_runtime_outlier(l, w) && w->gpu_dur < w->cpu_dur;
}

/* Launch statistics of every rank o selects.
 *
 * L = correlation ids of the events named cudaLaunchKernel,
 * cudaLaunchKernelExC, runFunction - job_prep_and_submit_for_execution,
 * cudaMemcpyAsync or cudaMemsetAsync (HTA with include_memory_events).
 * Every event without a stream whose correlation is in L is paired with
 * every event with a stream and the same correlation (inner join: a graph
 * launch gives one row per GPU op).  Events without a correlation id take
 * no part.  Never fails.  Free with tt_launch_free. */
struct tt_launch *tt_launch_stats(const struct tt_model *m, const struct tt_aopts *o,
				  double runtime_cutoff_us, double delay_cutoff_us);
void tt_launch_free(struct tt_launch *l);

#endif
