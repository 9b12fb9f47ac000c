/* analysis: the rows of the Overview pane -- one row per rank joining the
 * temporal breakdown, the overlap, the kernel time by type and the summary,
 * and the ranks whose idle or communication share stands out.
 *
 * A join of results the other analyses computed (results.h keeps them):
 * O(ranks + kernel rows), no pass over the events. */
#ifndef TRACETOP_BYRANK_H
#define TRACETOP_BYRANK_H

#include "tracetop/analysis.h"

/* the metrics checked for stragglers */
enum tt_br_metric { TT_BR_IDLE = 0, TT_BR_COMM, TT_BR_NMETRICS };

struct tt_byrank_row {
	size_t ri;                /* rank index in the model */
	int64_t rank;
	/* Every share below is of one span, the GPU span, over one selection
	 * of events, the temporal breakdown's (HTA's view, or every event with
	 * --exact): busy + idle = compute + non-compute + idle = 100. */
	bool has_gpu;             /* GPU events in the selection (temporal) */
	int64_t span_ns;          /* the GPU span: first GPU start to last GPU end;
				   * 0 without GPU events (the shares are NaN) */
	double busy_pct;          /* |union of the GPU events| */
	double compute_pct, non_compute_pct, idle_pct; /* temporal */
	/* time communication / memory kernels run (the kernel breakdown's
	 * labels that name them), % of the GPU span; NaN without GPU events */
	double comm_pct, mem_pct;
	double overlap_pct;       /* overlap: % of communication time under computation;
				   * NaN without communication */
	const char *top_kernel;   /* the kernel name with the most time on the rank
				   * (kernel breakdown, "others" left out), or NULL */
	/* a straggler in that metric: +1 above the median, -1 below, 0 not */
	int8_t side[TT_BR_NMETRICS];
};

struct tt_br_flag {
	size_t row;               /* into rows */
	enum tt_br_metric metric;
	int side;                 /* +1: above the median, -1: below */
	double value, median;     /* the rank's share and the median of all ranks */
	double z;                 /* robust z-score */
};

struct tt_byrank {
	struct tt_byrank_row *rows; /* the selected ranks, model order */
	size_t n;
	/* stragglers (with 3 ranks or more), by the one outlier rule of
	 * tracetop/stats.h over the shares shown: idle far above the median
	 * (little idle is no problem), communication far from it on either
	 * side (little communication: the rank the others wait for); idle
	 * first, then communication, rows in order */
	struct tt_br_flag *flags;
	size_t nflags;
};

/* Join the results for the ranks o selects (the results must have been
 * computed with the same o).  Never NULL; free with tt_byrank_free.
 * Strings point into the model. */
struct tt_byrank *tt_byrank(const struct tt_model *m, const struct tt_aopts *o,
				const struct tt_temporal_row *tmp, size_t ntmp,
				const struct tt_overlap_row *ov, size_t nov,
				const struct tt_kbreak *k);
void tt_byrank_free(struct tt_byrank *v);
/* Which span and which events the shares are of, in words, for a header:
 * HTA's view (the default) or every event (o->exact). */
const char *tt_byrank_span_words(const struct tt_aopts *o);

#endif
