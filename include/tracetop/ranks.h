/* Many ranks: one row of metrics per rank, their distributions, and the
 * ranks furthest from the median (src/analysis/ranks.c), the tables of
 * `tracetop report outliers` (src/report/outliers.c) and the heatmap pane
 * (src/tui/heatmap.c).
 *
 * The metrics of a rank come from one pass over HTA's view of it (struct
 * tt_sel, as the temporal, overlap and idle analyses see it), so they equal
 * what those reports print:
 *
 *   idle %          GPU idle time / GPU span (HTA temporal breakdown)
 *   compute %       union of computation kernels / GPU span
 *   comm %          union of communication kernels / GPU span
 *   exposed comm %  communication time not overlapped by computation / span
 *   transfer %      communication after every rank has joined the collective
 *                   (the transfer itself, not the wait for other ranks) / span
 *   step time       median duration of the rank's ProfilerStep#N spans
 *   top kernel      time of the job's top computation kernel on the rank
 *
 * Collectives are matched across ranks by kernel name and order (the k-th
 * call of a name is the same collective on every rank that calls the name
 * equally often); the transfer time compares start times across ranks, so
 * it assumes the ranks' clocks agree.
 *
 * Each metric's distribution, robust z-scores and outliers follow the one
 * rule of tracetop/stats.h (percentages for the shares, times in ns for
 * the step and top kernel). */
#ifndef TRACETOP_RANKS_H
#define TRACETOP_RANKS_H

#include "tracetop/analysis.h"
#include "tracetop/stats.h"

enum tt_rmetric {
	TT_RM_IDLE = 0, /* % of the GPU span */
	TT_RM_COMPUTE,  /* % of the GPU span */
	TT_RM_COMM,     /* % of the GPU span */
	TT_RM_EXPOSED,  /* % of the GPU span */
	TT_RM_XFER,     /* % of the GPU span */
	TT_RM_STEP,     /* ns */
	TT_RM_TOPK,     /* ns */
	TT_RM_COUNT
};

/* "idle", "compute", "comm", "exposed", "transfer", "step", "topk" */
const char *tt_rmetric_name(enum tt_rmetric k);
const char *tt_rmetric_title(enum tt_rmetric k); /* "idle %", "comm %", ... */
bool tt_rmetric_is_pct(enum tt_rmetric k);       /* a percentage (else ns) */
/* by name (as tt_rmetric_name gives), or -1 */
int tt_rmetric_lookup(const char *name);

/* ---- metrics per rank ---- */

struct tt_rank_metrics {
	size_t ri;             /* rank index in the model */
	int64_t rank;
	bool has_gpu;          /* some GPU event in HTA's view */
	double v[TT_RM_COUNT]; /* the metrics; NaN when the rank has none */
	double z[TT_RM_COUNT]; /* robust z against all ranks, NaN with v */
	int64_t span_ns;       /* GPU span: first GPU start to last GPU end */
	int64_t idle_ns, comm_ns, comp_ns, overlap_ns;
	int64_t xfer_ns;       /* transfer time of its collectives */
	int64_t idle_cat_ns[3]; /* idle gaps by HTA category (enum tt_idle_cat),
				 * summed over the rank's streams */
	uint32_t nsteps;       /* ProfilerStep spans */
	const char *host;      /* host_name of the trace (owned by tt_ranks), or NULL */
	int64_t device;        /* device of the first GPU stream, or -1 */
	uint32_t node, local;  /* place in the node layout (see tt_ranks) */
};

struct tt_ranks {
	struct tt_rank_metrics *rows; /* the ranks o selects, model order */
	size_t n;
	struct tt_rdist dist[TT_RM_COUNT];
	const char *top_kernel;  /* name behind TT_RM_TOPK, or NULL */
	/* the distinct host names, in the order of their lowest rank */
	const char **node_name;
	size_t nnodes;
	/* layout: by_node when every rank names its host, there are at least
	 * two hosts and some host has several ranks; a rank's node indexes
	 * node_name, its local index orders it by device (then rank) within
	 * the node.  Otherwise node = 0 and local = row for every rank. */
	bool by_node;
	uint32_t max_local;      /* most ranks on one node (n without nodes) */
};

/* Metrics of every rank o selects, on o->threads threads.  kernel_delay_us
 * is HTA's consecutive kernel delay for the idle categories (30).  Never
 * NULL; free with tt_ranks_free.  Strings point into the model. */
struct tt_ranks *tt_ranks_compute(const struct tt_model *m, const struct tt_aopts *o,
				  double kernel_delay_us);
void tt_ranks_free(struct tt_ranks *s);

struct tt_outlier {
	size_t i;               /* row */
	enum tt_rmetric metric;
	double z;
	bool flagged;           /* tt_rdist_outlier */
};

/* The ranks furthest from the median: for metric k, or for k = -1 each
 * rank once with its strongest metric (an outlying one first, then the
 * largest |z|).  Sorted outliers first, then by |z| descending (ties:
 * row).  With only_flagged, outliers only.  Returns the
 * count; *out is malloc'd (free()). */
size_t tt_ranks_outliers(const struct tt_ranks *s, int k, bool only_flagged,
			 struct tt_outlier **out);

/* ---- report side (src/report/outliers.c) ---- */

struct tt_table;

/* The metric of a rank as text: "41 %", "12.3 ms" */
size_t tt_rmetric_fmt(enum tt_rmetric k, double v, char *buf, size_t n);
/* One line on why row i stands out in metric k:
 * "idle 41 % vs median 12 %, mostly host wait". */
size_t tt_outlier_reason(const struct tt_ranks *s, size_t i, enum tt_rmetric k, char *buf,
			 size_t n);
/* The metrics of every rank as a table "rank_metrics" (one row per rank). */
struct tt_table *tt_ranks_table(const struct tt_ranks *s);

#endif
