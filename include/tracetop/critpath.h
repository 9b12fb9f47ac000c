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

/* edge types (HTA CPEdgeType; the last two: tracetop's model only) */
enum tt_cp_etype {
	TT_CPE_OPERATOR = 0, /* inside a CPU op or a kernel */
	TT_CPE_DEPENDENCY,   /* between top-level ops, runtime lock (weight 0) */
	TT_CPE_LAUNCH,       /* launch call start -> kernel start */
	TT_CPE_KK,           /* previous kernel end -> kernel start, same stream */
	TT_CPE_SYNC,         /* synchronisation (weight 0) */
	TT_CPE_GAP,          /* a thread between top-level ops, or from the step's
			      * start to its first op (weight: that time) */
	TT_CPE_WAIT,         /* a collective kernel waiting for the last rank */
	TT_CPE_COUNT
};
#define TT_CPE_HTA_COUNT 5 /* HTA's types: the first five */
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
	TT_CPC_GAP,     /* gap (tracetop's model) */
	TT_CPC_WAIT,    /* wait (tracetop's model) */
	TT_CPC_COUNT
};
#define TT_CPC_HTA_COUNT 6
const char *tt_cp_cat_name(enum tt_cp_cat c);

/* what bounds an edge (HTA BoundType; NONE = HTA's ""; those after NONE:
 * tracetop's model only) */
enum tt_cp_bound {
	TT_CPB_CPU = 0, /* cpu_bound */
	TT_CPB_DATA,    /* data_loading */
	TT_CPB_COMPUTE, /* gpu_compute_bound */
	TT_CPB_COMM,    /* gpu_communication_bound */
	TT_CPB_KK,      /* gpu_kernel_kernel_overhead */
	TT_CPB_LAUNCH,  /* gpu_kernel_launch_overhead */
	TT_CPB_NONE,    /* none: dependency and sync edges (weight 0) */
	TT_CPB_MEM,     /* gpu_memory_bound: memcpy, memset */
	TT_CPB_OUTSIDE, /* cpu_outside_ops: a thread between its top-level ops
			 * (Python, waiting) */
	TT_CPB_START,   /* before_first_op: the step's start to its first op */
	TT_CPB_WAIT,    /* waiting_for_rank: a collective waiting for the last
			 * rank to arrive (the edge's peer_rank) */
	TT_CPB_COUNT
};
#define TT_CPB_HTA_COUNT 7 /* HTA's classes and none */
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

/* Which path.
 * HTA: HTA's graph and classes, exactly (critical-path.md).
 * TRACETOP: the same graph, plus: a step's window starts at the step's
 * start (an edge from there to the first op of the step's thread, class
 * "before the first op"); the time a thread spends between its top-level
 * ops is an edge of its own ("CPU outside ops": Python, waiting) where HTA
 * has a dependency of weight 0; the TensorBoard plugin's DataLoader spans
 * (enumerate(DataLoader)#...) are data loading ops; copies and memsets are
 * GPU memory, not GPU compute; and with collectives (opts.coll) a
 * collective kernel's wait for the last rank to arrive is an edge of its
 * own ("waiting for rank N") before the rest of the kernel.  A kernel
 * without a sync in HTA's graph that starts within 50 µs of an op of
 * another stream of its GPU ending, after its launch and after its own
 * stream's previous kernel, waited for that op: a sync edge from it (an
 * event wait HTA's graph misses: one issued on another thread, or a trace
 * without Stream Wait Event rows) where HTA's graph has no edge into it, or
 * only a launch delay or kernel gap of 500 µs or more (a kernel held back,
 * not launch overhead).  On a step bound by its host the path then spans
 * the step. */
enum tt_cp_model {
	TT_CPM_HTA = 0,
	TT_CPM_TRACETOP,
};
/* "HTA's" / "tracetop's" */
const char *tt_cp_model_name(enum tt_cp_model m);

struct tt_coll;

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
	enum tt_cp_model model;          /* HTA (0) or tracetop's */
	const struct tt_coll *coll;      /* tracetop's model: the collectives
					  * matched across ranks (waits), or NULL */
};

/* ---- the result ---- */

/* a node on the path */
struct tt_cp_node {
	uint32_t ev;  /* event index (rank->ev) */
	bool start;   /* start or end of the event */
	uint8_t mid;  /* tracetop's model: 0 an event's start or end; TT_CPN_STEP
		       * the step's start (ev: its annotation); TT_CPN_ARRIVAL the
		       * last rank's arrival inside a collective kernel (ev) */
	int64_t ts;   /* ns (HTA's view of the time) */
};
#define TT_CPN_STEP 1
#define TT_CPN_ARRIVAL 2

/* an edge on the path: edge i of a result goes from nodes[i] to
 * nodes[i + 1] (32 bytes: a long path's edges are many) */
struct tt_cp_edge {
	int64_t weight;         /* ns, as created (may be < 0); what the longest
				 * path used: tt_cp_graph_weight(weight) */
	int64_t peer_rank;      /* TT_CPB_WAIT: the rank waited for; else -1 */
	uint32_t attr;          /* attributed event (operator and kernel-kernel
				 * edges) or TT_NONE */
	uint32_t coll_part;     /* TT_CPB_WAIT: the part (tt_coll.parts) */
	uint8_t type;           /* enum tt_cp_etype */
	uint8_t cat;            /* enum tt_cp_cat */
	uint8_t bound;          /* enum tt_cp_bound */
};

/* HTA's validation: an edge's weight as the longest path counts it
 * (weights <= -1 µs count 0) */
static inline int64_t tt_cp_graph_weight(int64_t weight)
{
	return weight <= -1000 ? 0 : weight;
}

/* args.stream of an edge's attributed event; -1 for a CPU event or none */
int64_t tt_cp_attr_stream(const struct tt_rank *r, const struct tt_cp_edge *e);

struct tt_cp_sum {
	int64_t dur;    /* ns */
	uint32_t count; /* edges */
};

/* a node of a result's tree of paths (tt_cp_result.tnodes): the node, and
 * the edge into it from its parent (edge.u, edge.v unused) */
struct tt_cp_tnode {
	struct tt_cp_node node;
	struct tt_cp_edge edge;  /* valid when parent != TT_NONE */
	uint32_t parent;         /* index into tnodes, TT_NONE: the path's start */
};

struct tt_cp_target {
	uint32_t part;  /* tt_coll.parts: this rank's part, last to arrive */
	uint32_t tnode; /* its arrival (its kernel's start) in tnodes */
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
	uint32_t implicit_waits;         /* tracetop's model: kernels that waited
					  * for another stream's op (below) */
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

	enum tt_cp_model model;
	int64_t length;        /* sum of the path's weights (HTA's denominator) */
	int64_t length_graph;  /* sum of graph weights (what was maximised) */
	int64_t span;          /* last node's ts - first node's */
	/* what the path covers (ANNOT windows of one instance, both models):
	 * the step from its annotation's start to the end of the last GPU op
	 * it launched (or its own end, if later) */
	bool has_step;
	int64_t step_t0, step_t1;
	int64_t not_before;    /* the step's start to the path's first node */
	int64_t not_after;     /* the path's last node to the step's end */
	int64_t not_inside;    /* span - length: time the path's edges do not
				* weigh (dependencies, syncs, overlaps) */
	uint32_t critical_events; /* distinct events of the path's nodes */
	struct tt_cp_sum by_type[TT_CPE_COUNT];
	struct tt_cp_sum by_cat[TT_CPC_COUNT];
	struct tt_cp_sum by_bound[TT_CPB_COUNT];
	int64_t wait_rank;     /* the rank waited for longest on the path, -1 */
	struct tt_cp_top *top; /* by dur, largest first (ties: name) */
	size_t ntop;
	struct tt_cp_stats st;

	/* tracetop's model with collectives: the longest paths from the
	 * window's start to this rank's arrivals in the collectives it
	 * arrived last in while others waited -- what the job's path follows
	 * on this rank (tt_cp_job) -- as one tree: a target's node, then
	 * tnodes[].parent back to the start */
	struct tt_cp_tnode *tnodes;
	size_t ntnodes;
	struct tt_cp_target *targets;
	size_t ntargets;

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
	bool bounds_job;      /* tracetop's model: this rank bounds the job in
			       * this step (tt_cp_job.rank_step) */
};

/* across ranks, per instance: the rank whose path is longest */
struct tt_cp_straggler {
	size_t step;      /* index into steps[] of the longest path */
	uint32_t ranks;   /* ranks with a path in this instance */
	int64_t median;   /* median length over them, ns (rounded) */
	double over_pct;  /* (longest - median) / median * 100 */
};

/* the groups of the bar: what bounds a path, in six */
enum tt_cp_group {
	TT_CPG_DATA = 0, /* data loading */
	TT_CPG_CPU,      /* CPU work: in ops, outside them, before the first */
	TT_CPG_GPU,      /* GPU compute and memory */
	TT_CPG_COMM,     /* communication */
	TT_CPG_WAIT,     /* waiting for another rank */
	TT_CPG_OVERHEAD, /* launch overhead and kernel-to-kernel gaps */
	TT_CPG_COUNT
};
/* the bound_by sums of res in the four groups, ns */
void tt_cp_groups(const struct tt_cp_result *res, int64_t out[TT_CPG_COUNT]);
/* The k-th largest of the bound sums by[] (k = 0, 1, ...; TT_CPB_NONE and
 * empty ones left out; ties: the first), or -1 when there are fewer.  by is
 * a result's by_bound, or its wi_bound for the what-if path. */
int tt_cp_bound_rank(const struct tt_cp_sum by[TT_CPB_COUNT], int k);

/* ---- the job's path per step, across ranks (tracetop's model) ----
 *
 * For each step number N (ProfilerStep#N) of the ranks: the path starts
 * at the end of the rank whose step ends last (on the job's clock,
 * collectives.h) and runs back along that rank's path.  Where it meets a
 * wait for another rank (TT_CPB_WAIT: a collective this rank reached
 * before the last rank did), the time before that rank's arrival is
 * explained by what that rank did: the path continues on the late rank,
 * along its longest path to its arrival (tt_cp_result.targets), and so
 * on back to a step's start.  The rank the path spends most time on
 * bounds the job; the class that bounds it is the one in which its path
 * exceeds the median of the other ranks' paths most (what makes it late),
 * or, with no excess or no other rank, its largest class; when its step
 * started later than the others' by more than any class exceeds theirs,
 * it was late from the step before: the class is the one that bound it
 * there (carried). */

/* an edge of the job's path */
struct tt_cp_jedge {
	size_t ri;
	int64_t rank;
	int64_t offset;          /* the rank's clock offset (collectives.h):
				  * job time = ts - offset */
	struct tt_cp_node u, v;  /* its nodes (the rank's clock) */
	struct tt_cp_edge e;
};

struct tt_cp_job {
	int64_t step;            /* N */
	uint32_t nranks;         /* ranks with a path for step N */
	int64_t t0, t1;          /* the step on the job's clock: the first rank's
				  * start to the last rank's end */
	int64_t length;          /* the job path's weights, summed */
	size_t end_ri;           /* the rank whose step ends last */
	int64_t end_rank;
	size_t ri;               /* the rank that bounds the job */
	int64_t rank;
	int64_t rank_ns;         /* the job path's time on it */
	size_t rank_step;        /* its window: index into tt_cp_steps.steps */
	uint8_t bound;           /* enum tt_cp_bound that bounds it */
	int64_t bound_ns;        /* that class on its own path */
	int64_t excess_ns;       /* ... over the other ranks' median (0: none) */
	int64_t late_ns;         /* its step started this much later than the other
				  * ranks' (their median), on the job's clock */
	bool carried;            /* the late start explains more than any class:
				  * the class is the one that bound it in the
				  * step before (its lateness carried over) */
	int64_t wait_caused;     /* the other ranks' waits for it in step N */
	uint32_t nwaiting;       /* ranks that waited for it */
	char coll[64];           /* the operation most of that wait was in */
	uint32_t ndisagree;      /* the step's collectives the ranks disagree on
				  * (TT_COLL_MISMATCH, TT_COLL_MISSING): none of
				  * them has a last rank, so no wait in them is
				  * on the path */
	char disagree[64];       /* the first of them ("allreduce #3 of pg 0") */
	uint32_t nsegs;          /* stretches on one rank the path is made of */
	bool cut;                /* a late rank's path to its arrival was not
				  * found: the path starts there */
	struct tt_cp_sum by_bound[TT_CPB_COUNT]; /* the job path's breakdown */
	size_t first, n;         /* its edges: tt_cp_steps.jedges[first .. +n) */
};

/* what bounds the job over its steps: the rank that bounds most of them */
struct tt_cp_verdict {
	bool has;
	size_t ri;
	int64_t rank;
	uint32_t nsteps;         /* steps with a job path */
	uint32_t nbound;         /* ... bound by this rank */
	uint8_t bound;           /* its class in most of them */
	int64_t bound_ns;        /* mean of that class on its path per step */
	int64_t excess_ns;       /* mean excess over the median rank */
	int64_t wait_ns;         /* mean of the others' waits for it per step */
	uint32_t nwaiting;       /* most ranks that waited for it in a step */
	char coll[64];
	bool one_rank;           /* a job of one rank: nobody waits */
};

struct tt_cp_steps {
	struct tt_cp_step *steps; /* by rank (model order), then window */
	size_t n;
	size_t longest;           /* index of the longest path of all, or
				   * SIZE_MAX when there is no path */
	struct tt_cp_straggler *strag; /* per instance with two ranks or more,
					* in the order first met */
	size_t nstrag;
	size_t nranks;            /* ranks analysed */
	/* tracetop's model: the job's path per step number, across ranks */
	struct tt_cp_job *jobs;   /* by step number */
	size_t njobs;
	struct tt_cp_jedge *jedges;
	size_t njedges;
	struct tt_cp_verdict verdict;
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
