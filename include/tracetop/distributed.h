/* analysis: the distributed view: computation / overlap / communication /
 * other per rank, collective statistics with a transfer / sync split,
 * stragglers.
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads. */
#ifndef TRACETOP_DISTRIBUTED_H
#define TRACETOP_DISTRIBUTED_H

#include "tracetop/analysis.h"

/* ---- distributed ---- */

struct tt_dist_rank {
	size_t ri;
	int64_t rank;
	bool has_gpu;
	bool has_steps;     /* false: the pseudo-step over its CPU ops, or none */
	uint32_t nwindows;  /* kept steps (steps.h) */
	/* means per kept step of the plugin's four parts (overview.h):
	 * computation = kernels other than communication (CPU ops on a rank
	 * without kernels) - overlap; overlap = computation ∩ communication;
	 * communication = collective ops and communication kernels - overlap;
	 * other = the rest of the step */
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
	bool matched;       /* matched across ranks (collectives.h), unflagged */
	int64_t transfer, sync; /* the part's transfer and wait (collectives.h):
				 * sync from its arrival to the last rank's,
				 * transfer the rest; unmatched: transfer =
				 * dur, sync = 0 */
};

struct tt_coll_stat {
	const char *name;   /* as first seen (e.g. "all_reduce") */
	uint32_t nranks;
	uint64_t calls, matched, with_bytes;
	int64_t bytes;      /* sum over calls with known size */
	int64_t total_ns, transfer_ns, sync_ns;
	double sync_pct;    /* 100 sync_ns / total_ns; NaN when total_ns is 0 */
	bool counts_differ; /* ranks made different numbers of calls */
	const char *source; /* where its first call's name came from (tt_coll_call) */
};

/* One collective on one rank: the sums over its calls. */
struct tt_coll_rstat {
	size_t ri;
	int64_t rank;
	uint32_t stat;      /* index into tt_dist.stats */
	uint64_t calls, with_bytes;
	int64_t bytes;      /* over the calls with a known size */
	int64_t total_ns, transfer_ns, sync_ns;
	double sync_pct;    /* 100 sync_ns / total_ns; NaN when total_ns is 0 */
};

struct tt_straggler {
	size_t ri;
	int64_t rank;
	const char *metric; /* "step", "idle", "sync" */
	double value, median, z; /* value and median in ns */
	char reason[200];
};

/* The plugin's collective tables (communication.py, loader.py).  Its
 * collectives are the ops named nccl:/gloo: broadcast, reduce, all_reduce,
 * all_gather, reduce_scatter; a call's ranges are its CPU span and the
 * kernels launched inside it (the plugin links them by External id, which
 * newer traces break: it then has the CPU spans only).  Calls are matched
 * across ranks by their order, and each range's transfer time is the
 * shortest of that range over the ranks, ending where the range ends. */
struct tt_tb_wait {
	size_t ri;
	int64_t rank;
	int64_t step;        /* step number; see below */
	bool all;            /* the mean over the rank's steps (truncated to µs by
			      * the plugin: here to ns) */
	bool pseudo;         /* the pseudo-step */
	bool outside;        /* calls in no step (the plugin's unnamed step) */
	int64_t total_ns;    /* |union of the calls' ranges| */
	int64_t transfer_ns; /* |union of their transfer ranges| */
};

struct tt_tb_commop {
	size_t ri;
	int64_t rank;
	const char *name;    /* "nccl:all_reduce" */
	uint64_t calls;
	int64_t bytes;       /* Input Dims x Input type of the inputs whose size
			      * is known; -1 when none is */
	int64_t latency_ns;  /* |union of the calls' ranges| */
	int64_t transfer_ns; /* |union of their transfer ranges| */
	uint32_t nkernels;   /* kernels counted in the ranges */
};

struct tt_dist {
	struct tt_dist_rank *ranks; /* selected ranks, model order */
	size_t nranks;
	struct tt_coll_call *calls; /* by rank index, then start */
	size_t ncalls;
	struct tt_coll_stat *stats; /* total latency descending */
	size_t nstats;
	struct tt_coll_rstat *rstats; /* by rank index, then as stats */
	size_t nrstats;
	struct tt_straggler *stragglers; /* |z| descending */
	size_t nstragglers;
	/* the plugin's view: shown only when every rank has collectives and
	 * they match (same calls, same ranges per call) */
	bool tb_shown;
	char tb_why[160];          /* why not */
	struct tt_tb_wait *waits;  /* by rank, then step ("all" first) */
	size_t nwaits;
	struct tt_tb_commop *ops;  /* by rank, then name */
	size_t nops;
	struct tt_strtab names;    /* collective names */
};

/* The calls are the parts of tt_coll (collectives.h): communication
 * kernels grouped by the collective op that launched them, named and sized
 * there, matched across ranks by process group and position, with their
 * wait (here: sync) and transfer.  seq is a call's place among its rank's
 * calls of that name; names are compared ignoring case and everything but
 * letters and digits ("all_reduce" = "allreduce").
 * Stragglers need >= 3 ranks: outliers by tt_rdist_outlier (stats.h) in
 * mean step time, mean GPU idle per step (high only), or total sync time.
 * tt_dist_compute computes the collectives and the Overview itself;
 * tt_dist_compute_coll takes the collectives and the Overview (NULL: it
 * computes it) of the same ranks and options.  Free with tt_dist_free. */
struct tt_coll;
struct tt_overview;
void tt_dist_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_dist *out);
void tt_dist_compute_coll(const struct tt_model *m, const struct tt_aopts *o,
			  const struct tt_coll *coll, const struct tt_overview *ov,
			  struct tt_dist *out);
void tt_dist_free(struct tt_dist *d);

/* Normalised collective key of a name into buf ("nccl:all_reduce" ->
 * "allreduce"); returns its length. */
size_t tt_tb_coll_key(const char *name, char *buf, size_t n);

#endif
