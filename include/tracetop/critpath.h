/* analysis: critical path of one rank in one window (HTA's
 * critical_path_analysis and get_critical_path_breakdown, see
 * ../shared/docs/critical-path.md).
 *
 * The window's CPU operators, runtime calls and GPU kernels become a graph:
 * two nodes per event (start, end), edges in three phases (the CUDA runtime
 * lock, the call stack of every CPU thread, kernels with their launch,
 * kernel-to-kernel and synchronisation edges), weights = time between the
 * two nodes.  The graph is acyclic and built in time order, so the longest
 * path is one pass in topological order; that order and the tie-breaking
 * follow networkx's dag_longest_path (critical-path.md §4.9), so the path
 * is HTA's edge for edge where HTA's own choice is unique.  Every path edge
 * is attributed to an event and classified (bound_by: CPU, GPU compute,
 * communication, launch overhead, kernel-to-kernel gaps, data loading).
 *
 * Where tracetop differs from HTA, on purpose:
 *  - ties between events at the same time are ordered by the model's event
 *    index, not the trace file's row (the model does not keep it): the
 *    graph can differ where two events of different threads start or end in
 *    the same microsecond, the longest length cannot;
 *  - a rank without kernels (a CPU-only trace) gets its CPU path and
 *    no_gpu set (HTA raises: "Queue length time series is required");
 *  - launches whose category is the legacy "Runtime" or MTIA's
 *    "mtia_runtime" are launches with nodes (HTA raises an AssertionError
 *    when it needs their node);
 *  - a kernel at row 0 of traceEvents is one kernel (HTA's index_correlation
 *    cannot tell row 0 from "no partner" and duplicates it);
 *  - GPU streams are (device, stream) pairs (HTA: the stream number alone;
 *    the same with one GPU per rank);
 *  - a GPU-to-GPU sync edge between kernels of one stream is left out
 *    (HTA declares the graph invalid and gives no path).
 * And where HTA's choice is kept though another is arguable: a launch with
 * several GPU ops (cudaGraphLaunch) brings only its last op into the window,
 * as HTA's index_correlation links one (opts.graph_kernels: all of them).
 *
 * Pure: no printing, no wall clock.  Free results with tt_cp_result_free. */
#ifndef TRACETOP_CRITPATH_H
#define TRACETOP_CRITPATH_H

#include "tracetop/analysis.h"

/* HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US: a larger gap between two kernels of
 * a stream is not a kernel-to-kernel delay */
#define TT_CP_KK_CUT_NS (1500 * INT64_C(1000))

/* edge types (HTA CPEdgeType) */
enum tt_cp_etype {
	TT_CPE_OPERATOR = 0, /* inside a CPU op or a kernel */
	TT_CPE_DEPENDENCY,   /* between top-level ops, runtime lock (weight 0) */
	TT_CPE_LAUNCH,       /* launch call start -> kernel start */
	TT_CPE_KK,           /* previous kernel end -> kernel start, same stream */
	TT_CPE_SYNC,         /* synchronisation (weight 0) */
	TT_CPE_COUNT
};
/* "critical_path_operator", ... */
const char *tt_cp_etype_name(enum tt_cp_etype t);

/* categories of the reference summary: operator edges split by the stream
 * of the attributed event */
enum tt_cp_cat {
	TT_CPC_CPU = 0, /* cpu_op */
	TT_CPC_GPU,     /* gpu_kernel */
	TT_CPC_LAUNCH,  /* kernel_launch_delay */
	TT_CPC_KK,      /* kernel_kernel_delay */
	TT_CPC_SYNC,    /* sync_dependency */
	TT_CPC_DEP,     /* dependency */
	TT_CPC_COUNT
};
const char *tt_cp_cat_name(enum tt_cp_cat c);

/* what bounds an edge (HTA BoundType; NONE = HTA's "") */
enum tt_cp_bound {
	TT_CPB_CPU = 0, /* cpu_bound */
	TT_CPB_DATA,    /* data_loading */
	TT_CPB_COMPUTE, /* gpu_compute_bound */
	TT_CPB_COMM,    /* gpu_communication_bound */
	TT_CPB_KK,      /* gpu_kernel_kernel_overhead */
	TT_CPB_LAUNCH,  /* gpu_kernel_launch_overhead */
	TT_CPB_NONE,    /* none: dependency and sync edges (weight 0) */
	TT_CPB_COUNT
};
/* HTA's name ("cpu_bound", ..., "none") */
const char *tt_cp_bound_name(enum tt_cp_bound b);
/* a short label for screens ("CPU", "GPU compute", "launch overhead", ...) */
const char *tt_cp_bound_label(enum tt_cp_bound b);

/* ---- the window ---- */

enum tt_cp_wkind {
	TT_CPW_ANNOT = 0, /* instances first..last of an annotation */
	TT_CPW_TIME,      /* events starting in [t0, t1] */
	TT_CPW_ALL,       /* the whole trace (HTA's annotation "") */
};

struct tt_cp_window {
	enum tt_cp_wkind kind;
	const char *annotation; /* ANNOT: a substring of the rows' names */
	int64_t first, last;    /* ANNOT: instance range, inclusive, HTA's
				 * numbering (0 = the first matching row) */
	int64_t t0, t1;         /* TIME: ns, model time (as tt_event.ts) */
};

/* ---- what-if ---- */

enum tt_cp_wi_kind {
	TT_CPWI_NAME = 0, /* operator edges of events whose name contains pattern */
	TT_CPWI_LAUNCH,   /* every launch delay edge */
	TT_CPWI_GAPS,     /* every kernel-to-kernel delay edge */
};

struct tt_cp_whatif {
	enum tt_cp_wi_kind kind;
	char pattern[128];
	double factor; /* >= 0 */
};

/* Parse "SUBSTRING*F" (F a factor >= 0: 0.5 = twice as fast), or the words
 * "launch-overhead*F" and "kernel-gaps*F".  Returns 0, or -1 with a reason
 * in why. */
int tt_cp_whatif_parse(const char *s, struct tt_cp_whatif *out, char *why, size_t n);

/* ---- options ---- */

struct tt_cp_opts {
	const struct tt_aopts *a;        /* HTA's view (iteration filter, µs
					  * rounding) or exact; may be NULL */
	const char *const *data_load;    /* HTA data_load_events: substrings of
					  * data-loading op names (may be NULL) */
	size_t ndata_load;
	const struct tt_cp_whatif *whatif; /* applied in order (may be NULL) */
	size_t nwhatif;
	bool graph_kernels;              /* every GPU op of a launch with several
					  * (cudaGraphLaunch); HTA keeps the last */
};

/* ---- the result ---- */

/* a node on the path */
struct tt_cp_node {
	uint32_t ev;  /* event index (rank->ev) */
	bool start;   /* start or end of the event */
	int64_t ts;   /* ns (HTA's view of the time) */
};

/* an edge on the path */
struct tt_cp_edge {
	uint32_t u, v;          /* indices into the result's nodes */
	int64_t weight;         /* ns, as created (may be < 0) */
	int64_t graph_weight;   /* what the longest path used: <= -1 µs -> 0 */
	uint8_t type;           /* enum tt_cp_etype */
	uint8_t cat;            /* enum tt_cp_cat */
	uint8_t bound;          /* enum tt_cp_bound */
	uint8_t pad;
	uint32_t attr;          /* attributed event (operator and kernel-kernel
				 * edges) or TT_NONE */
	int64_t attr_stream;    /* args.stream of attr, -1 for CPU events */
};

struct tt_cp_sum {
	int64_t dur;    /* ns */
	uint32_t count; /* edges */
};

/* time on the path by attributed event name */
struct tt_cp_top {
	uint32_t name;   /* string id of the rank */
	int64_t dur;     /* ns on the path */
	uint32_t edges;  /* path edges attributed to events of this name */
	uint32_t events; /* distinct events */
	uint8_t bound;   /* enum tt_cp_bound of the first such edge */
	uint8_t pad[3];
	uint32_t first_ev; /* the first such event along the path */
};

enum tt_cp_status {
	TT_CP_OK = 0,
	TT_CP_NO_ANNOTATION, /* no row's name contains the annotation */
	TT_CP_NO_INSTANCE,   /* instance range outside 0 .. ninstances-1 */
	TT_CP_EMPTY,         /* the window holds no edge */
	TT_CP_CYCLE,         /* the graph has a cycle (no path) */
};
/* a sentence for the status ("ok", "no row named *X*", ...) */
const char *tt_cp_status_text(enum tt_cp_status s);

/* where HTA v0.6.1 would have failed on this window (bits) */
#define TT_CP_HTA_NO_QUEUE 0x01    /* no launch with a kernel: AssertionError
				    * "Queue length time series is required" */
#define TT_CP_HTA_LAUNCH_NODE 0x02 /* a launch HTA gives no node (legacy
				    * "Runtime" or "mtia_runtime" category):
				    * AssertionError "Could not find runtime" */
#define TT_CP_HTA_SAME_STREAM 0x04 /* a sync between kernels of one stream:
				    * HTA's graph is invalid (no path) */

struct tt_cp_stats {
	uint32_t nodes;                  /* nodes in the graph (touched by an edge) */
	uint32_t edges;                  /* distinct edges */
	uint32_t by_type[TT_CPE_COUNT];  /* edges by type */
	uint32_t by_phase[3];            /* edges added by phase 1, 2, 3 */
	uint32_t reinserted;             /* (u, v) added again (networkx keeps
					  * the first place, the last data) */
	uint32_t zeroed;                 /* weights <= -1 µs set to 0 */
	uint32_t no_edge;                /* kernels that got no incoming edge
					  * (HTA: "No edge was added") */
	uint32_t ends;                   /* nodes at the longest distance */
	uint32_t several_best;           /* path nodes with two best predecessors */
	uint32_t kernels;                /* kernel rows in the window */
	uint32_t graph_left_out;         /* GPU ops of multi-op launches left out */
	uint32_t clipped;                /* events of the window */
};

struct tt_cp_result {
	const struct tt_rank *r;
	size_t ri;
	int64_t rank;
	enum tt_cp_status status;
	enum tt_cp_wkind wkind;
	int64_t first, last;   /* ANNOT: the instances */
	uint32_t ninstances;   /* ANNOT: rows matching the annotation */
	uint32_t win_ev;       /* ANNOT: the first instance's event, or TT_NONE */
	int64_t t0, t1;        /* the window (ns; t1 = INT64_MAX: open) */
	bool no_gpu;           /* no kernel in the window: nothing on a GPU bounds it */
	unsigned hta_fails;    /* TT_CP_HTA_* */

	struct tt_cp_node *nodes; /* the path, in order */
	size_t nnodes;
	struct tt_cp_edge *edges; /* nnodes - 1 of them (0 without a path) */
	size_t nedges;

	int64_t length;        /* sum of the path's weights (HTA's denominator) */
	int64_t length_graph;  /* sum of graph weights (what was maximised) */
	int64_t span;          /* last node's ts - first node's */
	uint32_t critical_events; /* distinct events of the path's nodes */
	struct tt_cp_sum by_type[TT_CPE_COUNT];
	struct tt_cp_sum by_cat[TT_CPC_COUNT];
	struct tt_cp_sum by_bound[TT_CPB_COUNT];
	struct tt_cp_top *top; /* by dur, largest first (ties: name) */
	size_t ntop;
	struct tt_cp_stats st;

	/* what-if (when options named some) */
	bool has_whatif;
	uint32_t wi_edges;     /* graph edges whose weight changed */
	int64_t wi_length;     /* the new longest path (graph weights) */
	struct tt_cp_sum wi_bound[TT_CPB_COUNT]; /* its breakdown */
};

/* ---- running it ---- */

/* Per-rank preparation shared by every window of the rank: HTA's event
 * selection, queue lengths, the kernels CUDA event syncs wait on.  O(n log
 * n) in the rank's events.  Not shared across threads (it caches the rows of
 * the last annotation asked for).  Free with tt_cp_free. */
struct tt_cp *tt_cp_prepare(const struct tt_model *m, size_t ri, const struct tt_cp_opts *o);
void tt_cp_free(struct tt_cp *c);

/* The rows matching an annotation in HTA's instance order (position in
 * HTA's frame: GPU-side rows first when the iteration filter applies, then
 * by time).  *ev (valid until the next call on c) gets their event indices.
 * Returns their count. */
size_t tt_cp_instances(struct tt_cp *c, const char *annotation, const uint32_t **ev);

/* Critical path of one window.  Always fills *out (free with
 * tt_cp_result_free); returns 0, or -1 when out->status says there is no
 * path (no such annotation or instance, an empty window, a cycle). */
int tt_cp_run(struct tt_cp *c, const struct tt_cp_window *w, struct tt_cp_result *out);

/* The same without keeping the preparation: rank index ri of m. */
int tt_critical_path(const struct tt_model *m, size_t ri, const struct tt_cp_window *w,
		     const struct tt_cp_opts *o, struct tt_cp_result *out);

void tt_cp_result_free(struct tt_cp_result *res);

/* ---- every rank and step: what `report critical-path` and its pane show ---- */

/* the annotation of the windows when none is given */
#define TT_CP_DEFAULT_ANNOTATION "ProfilerStep"

struct tt_cp_steps_opts {
	struct tt_cp_opts cp;      /* the analysis' options (cp.a: the ranks too) */
	const char *annotation;    /* NULL: ProfilerStep; "": the whole trace */
	int64_t inst_first, inst_last; /* instances, inclusive; -1: each one */
	bool has_from, has_to;     /* a time range instead of instances */
	int64_t from, to;          /* ns since the job's origin (tt_model_origin) */
};

/* one analysed window of one rank */
struct tt_cp_step {
	struct tt_cp_result res;
	size_t ri;            /* rank index in the model */
	char annotation[64];  /* as used ("" = the whole trace or a time range) */
	char inst[48];        /* the instances: "1", "0-3" ("0" for the rest) */
	char step[96];        /* the window's name: its first instance's name (" +"
			       * for a range), "whole trace", "" for a time
			       * range (t0, t1 say it) */
	int64_t t0, t1;       /* a time range as asked (INT64_MIN, INT64_MAX:
			       * open), model time */
	bool fell_back;       /* the rank has no row of the annotation: the
			       * whole trace instead (as HTA) */
	bool longest;         /* the longest path among the ranks' windows of
			       * the same instances (several ranks only) */
};

/* across ranks, per instance: the rank whose path is longest */
struct tt_cp_straggler {
	size_t step;      /* index into steps[] of the longest path */
	uint32_t ranks;   /* ranks with a path in this instance */
	int64_t median;   /* median length over them, ns (rounded) */
	double over_pct;  /* (longest - median) / median * 100 */
};

/* the groups of the bar: what bounds a path, in four */
enum tt_cp_group {
	TT_CPG_CPU = 0,  /* CPU work and data loading */
	TT_CPG_GPU,      /* GPU compute */
	TT_CPG_COMM,     /* communication */
	TT_CPG_OVERHEAD, /* launch overhead and kernel-to-kernel gaps */
	TT_CPG_COUNT
};
/* "CPU", "GPU compute", "communication", "launch overhead, kernel gaps" */
const char *tt_cp_group_label(enum tt_cp_group g);
/* the bound_by sums of res in the four groups, ns */
void tt_cp_groups(const struct tt_cp_result *res, int64_t out[TT_CPG_COUNT]);
/* The k-th largest of the bound sums by[] (k = 0, 1, ...; TT_CPB_NONE and
 * empty ones left out; ties: the first), or -1 when there are fewer.  by is
 * a result's by_bound, or its wi_bound for the what-if path. */
int tt_cp_bound_rank(const struct tt_cp_sum by[TT_CPB_COUNT], int k);

struct tt_cp_steps {
	struct tt_cp_step *steps; /* by rank (model order), then window */
	size_t n;
	size_t longest;           /* index of the longest path of all, or
				   * SIZE_MAX when there is no path */
	struct tt_cp_straggler *strag; /* per instance with two ranks or more,
					* in the order first met */
	size_t nstrag;
	size_t nranks;            /* ranks analysed */
};

void tt_cp_steps_opts_init(struct tt_cp_steps_opts *o);

/* Every selected rank's critical path per window: each instance of the
 * annotation (or the instances asked for, or the time range, or the whole
 * trace when the rank has no row of the annotation).  Ranks in parallel.
 * Free with tt_cp_steps_free. */
void tt_cp_steps_compute(const struct tt_model *m, const struct tt_cp_steps_opts *o,
			 struct tt_cp_steps *out);
void tt_cp_steps_free(struct tt_cp_steps *s);

#endif
