/* analysis: the TensorBoard profiler plugin's views (issue 9).
 *
 *   tt_util_compute()   GPU utilisation, estimated SM efficiency and
 *                       achieved occupancy per device, per kernel, over time
 *   tt_steps_compute()  ProfilerStep#N windows per rank
 *   tt_dist_compute()   computation / overlap / communication / other per
 *                       rank, collective statistics with a transfer / sync
 *                       split, stragglers
 *   tt_ops_compute()    host and device self / total time per operator
 *   tt_mem_compute()    [memory] instants: curves, peak, allocations alive
 *   tt_src_compute()    the Python stacks of operators
 *
 * The plugin's view, not HTA's: every event of the ranks o selects, with
 * exact ns times (no iteration filter, no µs rounding; o->exact and
 * o->include_last_step do not change these results).  "GPU ops" are the
 * kernel, gpu_memcpy and gpu_memset events of GPU stream tracks.
 *
 * Results are plain arrays owned by the caller (free with the matching
 * _free()).  Strings point into the model's string tables or into the
 * result's own table, so the model must outlive the results.  Rank indices
 * (into model->ranks) and event indices (into rank->ev) are kept for
 * drill-down.  Pure: no output; ranks are analysed on o->threads threads. */
#ifndef TRACETOP_TBVIEWS_H
#define TRACETOP_TBVIEWS_H

#include "tracetop/analysis.h"

/* ---- small shared pieces ---- */

/* Median of v[0..n) (sorts v in place); NaN when n == 0. */
double tt_tb_median(double *v, size_t n);

/* Robust z-scores of v[0..n): z[i] = (v[i] - median) / s with s = 1.4826 *
 * MAD, or 1.2533 * the mean absolute deviation when the MAD is 0 (more than
 * half of the values equal).  When every value equals the median, z is 0.
 * *med and *scale (optional) get the median and s. */
void tt_tb_robust_z(const double *v, size_t n, double *z, double *med, double *scale);

/* Bytes of one element of a tensor type as written in traces: "float",
 * "c10::Half", "unsigned char", "Float", "BFloat16", "long int", ...
 * 0 when unknown or not a tensor ("Scalar", "TensorList", ""). */
int tt_tb_dtype_size(const char *type, size_t n);

/* Bytes of an op's inputs from its "Input Dims" and "Input type" args
 * (compact JSON: [[2,3],[4]] and ["float","long"]): the sum over inputs of
 * the product of the dims times the element size.  -1 when nothing is
 * known (no dims, or only types of unknown size). */
int64_t tt_tb_input_bytes(const char *dims, const char *types);

/* SM count of GPU `device` of rank r from its deviceProperties: the entry
 * with that id, else the count every entry agrees on; 0 when unknown. */
int64_t tt_tb_num_sms(const struct tt_rank *r, int64_t device);

/* Estimated SM efficiency of one kernel, 0..1: min(blocks / SMs, 1) with
 * blocks = grid x * y * z; without an SM count, min(`blocks per SM`, 1) as
 * the trace gives it; NaN when neither is known. */
double tt_tb_sm_efficiency(const struct tt_kinfo *k, int64_t num_sms);

/* ---- GPU utilisation ---- */

#define TT_UTIL_BUCKETS 60

struct tt_util_dev {
	size_t ri;
	int64_t rank;
	int64_t device;          /* GPU (track device), -1 when unknown */
	uint32_t nstreams;
	uint32_t nkernels, nmem; /* kernels; memcpy + memset */
	int64_t t0, t1;          /* first start and last end of its GPU ops */
	int64_t busy_ns;         /* |union of kernels, memcpy and memset| over its streams */
	int64_t kernel_busy_ns;  /* |union of kernels| */
	int64_t kernel_sum_ns;   /* sum of kernel durations */
	double util_pct;         /* 100 busy / (t1 - t0); NaN for an empty span */
	int64_t num_sms;         /* from deviceProperties, 0 when unknown */
	/* 100 * Σ dur·eff / Σ dur over the kernels whose efficiency is known
	 * (tt_tb_sm_efficiency); NaN when none is */
	double sm_eff_pct;
	int64_t sm_eff_ns;       /* Σ dur of those kernels */
	bool sm_from_args;       /* some efficiency came from `blocks per SM` */
	/* Σ dur·occ / Σ dur over the kernels with `est. achieved occupancy %` */
	double occ_pct;
	int64_t occ_ns;
	float *series;           /* nbuckets busy fractions (0..1) over [t0, t1) */
};

struct tt_util_kernel {
	const char *name;
	uint32_t nranks;         /* ranks where it ran */
	uint64_t count;
	int64_t sum_ns, max_ns;
	double sm_eff_pct;       /* time-weighted as for devices; NaN unknown */
	double occ_pct;          /* time-weighted; NaN unknown */
	int64_t blocks;          /* grid x*y*z of the longest instance, -1 unknown */
	int32_t threads;         /* block x*y*z of the longest instance, -1 unknown */
	int32_t regs;            /* registers per thread of the longest instance */
	size_t ri;               /* the longest instance */
	uint32_t longest;
};

struct tt_util {
	int nbuckets;
	struct tt_util_dev *devs;  /* by rank index, then device */
	size_t ndevs;
	struct tt_util_kernel *kernels; /* sum descending, then name */
	size_t nkernels;
	uint32_t nranks_sel;       /* ranks analysed */
	uint32_t nranks_nogpu;     /* of them without GPU ops */
	struct tt_strtab names;    /* kernel names across ranks */
};

/* Compute for every rank o selects; nbuckets (>= 1, else TT_UTIL_BUCKETS)
 * time buckets per device.  Never fails.  Free with tt_util_free. */
void tt_util_compute(const struct tt_model *m, const struct tt_aopts *o, int nbuckets,
		     struct tt_util *out);
void tt_util_free(struct tt_util *u);

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

/* ---- distributed ---- */

struct tt_dist_rank {
	size_t ri;
	int64_t rank;
	bool has_gpu;
	bool has_steps;     /* false: one window, the rank's span */
	uint32_t nwindows;
	/* means per window (step) of the plugin's four parts:
	 * computation = |non-communication kernels| - overlap,
	 * overlap = |non-communication kernels ∩ communication kernels|,
	 * communication = |communication kernels| - overlap,
	 * other = window - computation - overlap - communication */
	int64_t step_ns, comp_ns, overlap_ns, comm_ns, other_ns;
	int64_t idle_ns;    /* mean per window: window - |GPU ops| */
	uint32_t ncalls;    /* collective calls */
	int64_t coll_ns, transfer_ns, sync_ns; /* sums over its calls */
};

/* One collective call: the kernels launched under one CPU collective op
 * (or one kernel when no CPU op is linked). */
struct tt_coll_call {
	size_t ri;
	int64_t rank;
	uint32_t stat;      /* index into tt_dist.stats */
	uint32_t kernel;    /* first kernel (event index) */
	uint32_t nkernels;
	uint32_t cpu;       /* the CPU collective op, TT_NONE if none is linked */
	const char *source; /* where the name came from: "kernel args",
			     * "record_param_comms", "annotation", "c10d op",
			     * "kernel name" */
	uint32_t seq;       /* its place among the rank's calls of that name */
	int64_t ts;         /* start of the first kernel */
	int64_t dur;        /* latency: sum of its kernel durations */
	int64_t bytes;      /* -1 when unknown */
	bool matched;       /* other ranks have a call of the same seq */
	int64_t transfer, sync; /* transfer = min latency over the matched
				 * ranks, sync = dur - transfer; unmatched:
				 * transfer = dur, sync = 0 */
};

struct tt_coll_stat {
	const char *name;   /* as first seen (e.g. "all_reduce") */
	uint32_t nranks;
	uint64_t calls, matched, with_bytes;
	int64_t bytes;      /* sum over calls with known size */
	int64_t total_ns, transfer_ns, sync_ns;
	bool counts_differ; /* ranks made different numbers of calls */
};

struct tt_straggler {
	size_t ri;
	int64_t rank;
	const char *metric; /* "step", "idle", "sync" */
	double value, median, z; /* value and median in ns */
	char reason[200];
};

struct tt_dist {
	struct tt_dist_rank *ranks; /* selected ranks, model order */
	size_t nranks;
	struct tt_coll_call *calls; /* by rank index, then start */
	size_t ncalls;
	struct tt_coll_stat *stats; /* total latency descending */
	size_t nstats;
	struct tt_straggler *stragglers; /* |z| descending */
	size_t nstragglers;
	struct tt_strtab names;    /* collective names */
};

/* Communication kernels are those tt_kernel_type() calls COMMUNICATION.
 * A kernel's collective name and size come from, in order of preference:
 * its own collective args; the chain of collective ops around its
 * launching runtime call (record_param_comms, "nccl:NAME"/"gloo:NAME"
 * annotations, "c10d::NAME" ops): collective args, then an annotation's
 * name, then a c10d op's, the innermost on a tie, with sizes from
 * collective args (In msg nelems x dtype size), else Input Dims x Input
 * type; last the kernel name (ncclKernel_AllReduce_... -> AllReduce).  The
 * kernels launched under one collective op make one call.  Names are
 * compared ignoring case and everything but letters and digits
 * ("all_reduce" = "allreduce").  Calls of one name are matched across
 * ranks by their order.
 * Stragglers need >= 3 ranks: robust |z| >= 3.5 and >= 5 % from the median
 * in mean step time, mean GPU idle per step, or total sync time.  Free with
 * tt_dist_free. */
void tt_dist_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_dist *out);
void tt_dist_free(struct tt_dist *d);

/* Normalised collective key of a name into buf ("nccl:all_reduce" ->
 * "allreduce"); returns its length. */
size_t tt_tb_coll_key(const char *name, char *buf, size_t n);

/* ---- operators ---- */

struct tt_op_row {
	const char *name;
	const char *shapes;  /* Input Dims (by_shapes), else NULL */
	bool annotation;     /* user_annotation (else cpu_op) */
	uint32_t nranks;
	uint64_t calls;
	/* host: total = durations; self = total - time of direct child ops on
	 * the same thread (clipped to the op).  device: self = GPU ops launched
	 * by runtime calls whose innermost op is this one; total = self plus
	 * that of every descendant op */
	int64_t host_total, host_self, dev_total, dev_self;
	uint64_t gpu_ops_self, gpu_ops_total;
	size_t ri;           /* longest call */
	uint32_t ev;
};

struct tt_ops {
	struct tt_op_row *rows; /* device self desc, host self desc, name, shapes */
	size_t n;
	bool any_shapes;     /* some op had Input Dims */
	struct tt_strtab keys;
};

/* Every cpu_op and user_annotation of the CPU threads except
 * ProfilerStep#N, grouped by name (and Input Dims when by_shapes).  Nesting
 * is by time on each thread (start ascending, longer first); a partial
 * overlap nests the later op under the earlier.  Free with tt_ops_free. */
void tt_ops_compute(const struct tt_model *m, const struct tt_aopts *o, bool by_shapes,
		    struct tt_ops *out);
void tt_ops_free(struct tt_ops *p);

/* GPU ops launched under the ops named `op` (with Input Dims `shapes` when
 * not NULL), grouped by GPU op name: all = under the op or a descendant,
 * self = launched by the op's own runtime calls. */
struct tt_op_kernel {
	const char *name;
	uint64_t count, count_self;
	int64_t sum_ns, self_ns;
	size_t ri;           /* longest instance */
	uint32_t longest;
};
/* Sum descending.  Returns the count; *out freed by the caller (free()). */
size_t tt_op_kernels(const struct tt_model *m, const struct tt_aopts *o, const char *op,
		     const char *shapes, struct tt_op_kernel **out);

/* ---- memory ---- */

struct tt_mem_point {
	int64_t ts;
	int64_t alloc, reserved; /* totals after the event; reserved -1 unknown */
};

struct tt_mem_dev {
	size_t ri;
	int64_t rank;
	int64_t device;      /* Device Id: -1 for the CPU */
	uint32_t nevents, nallocs, nfrees;
	uint32_t unmatched_frees; /* frees of memory allocated before the trace */
	struct tt_mem_point *pts; /* by time */
	size_t npts;
	int64_t peak_alloc, peak_ts;
	int64_t peak_reserved, peak_reserved_ts; /* -1 unknown */
	int64_t total_mem;   /* deviceProperties totalGlobalMem, 0 unknown */
	size_t first_live, nlive; /* tt_mem.live[first_live ..) */
	int64_t live_bytes;  /* sum of those; peak_alloc - live_bytes was
			      * allocated before the trace started */
};

struct tt_mem_live {
	size_t dev;          /* index into tt_mem.devs */
	size_t ri;
	uint32_t ev;         /* the allocation's [memory] event */
	int64_t ts, bytes, addr;
	uint32_t op;         /* innermost CPU op around it on its thread, TT_NONE */
};

struct tt_mem {
	struct tt_mem_dev *devs; /* by rank index, device */
	size_t ndevs;
	struct tt_mem_live *live; /* per device, bytes descending */
	size_t nlive;
	uint32_t nranks_sel;
};

/* [memory] instants (Bytes > 0: an allocation, < 0: a free) per rank and
 * Device Id.  The curve is Total Allocated / Total Reserved after each
 * event (a running sum of Bytes when Total Allocated is absent); the peak
 * is its first maximum; allocations alive there are the allocations before
 * or at the peak whose address was not freed since (a free matches the
 * latest allocation of its address).  Free with tt_mem_free. */
void tt_mem_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_mem *out);
void tt_mem_free(struct tt_mem *mm);
/* The largest value (alloc, or reserved when `reserved`) of the curve over
 * [a, b): the value in force at a, and every point inside.  -1 before the
 * first point. */
int64_t tt_mem_max(const struct tt_mem_dev *d, int64_t a, int64_t b, bool reserved);

/* ---- source (Python stacks) ---- */

struct tt_src_stack {
	const char *op;
	const char *stack;   /* frames joined by '\n', innermost first */
	uint32_t nframes;
	bool python;         /* from python_function events (else `Call stack`) */
	uint64_t calls;
	int64_t host_ns;
	size_t ri;           /* longest call */
	uint32_t ev;
};

struct tt_src_line {
	const char *frame;   /* innermost frame, "file.py(12): func" */
	uint64_t calls;      /* op calls whose innermost frame it is */
	int64_t host_ns;
	uint32_t nops;       /* distinct op names */
};

struct tt_src {
	struct tt_src_stack *stacks; /* host time desc, op, stack */
	size_t nstacks;
	struct tt_src_line *lines;   /* host time desc, frame */
	size_t nlines;
	uint64_t n_python;   /* python_function events seen */
	uint64_t n_call_stack; /* ops with a `Call stack` */
	struct tt_strtab strs;
};

/* Stacks of the cpu_op and user_annotation events: their `Call stack` arg
 * (split at ';', in the recorded order), else the python_function events
 * around them on their thread.  Free with tt_src_free. */
void tt_src_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_src *out);
void tt_src_free(struct tt_src *s);

/* Split a frame "path/file.py(123): func" into its file and line; false
 * when it names none (built-ins, "<string>"). */
bool tt_tb_frame_parse(const char *frame, size_t len, char *file, size_t fn, int64_t *line);

/* The command line that opens file at line: "EDITOR +LINE 'FILE'" (the file
 * quoted for sh; editor NULL or "" -> "vi").  Returns the length (as
 * snprintf).  The TUI runs it after leaving curses. */
size_t tt_tb_editor_command(char *buf, size_t n, const char *editor, const char *file,
			    int64_t line);

#endif
