/* analysis: GPU time breakdowns (metrics.md §3, §5, §6).
 *
 *   tt_temporal()  idle / compute / non-compute time per rank (HTA
 *                  get_temporal_breakdown)
 *   tt_overlap()   communication time hidden under computation per rank
 *                  (HTA get_comm_comp_overlap)
 *   tt_kbreak()    time per kernel-type combination, per-kernel statistics
 *                  with HTA's "others" grouping, the same kernels across
 *                  ranks, and the GPU user-annotation breakdown (HTA
 *                  get_gpu_kernel_breakdown, get_gpu_user_annotation_breakdown)
 *
 * All three see each rank through struct tt_sel (HTA's event selection and
 * µs rounding unless o->exact) and only the ranks o selects.  "GPU events"
 * are the kept events with args.stream != -1 (TT_EF_STREAM): kernels,
 * memcpy, memset, cuda_sync wait events.  Times are int64 ns.
 *
 * Results are plain arrays owned by the caller (free with the matching
 * _free()); strings point into the model's string tables (or are static),
 * so the model must outlive the results.  Rank and event indices are kept
 * for drill-down (m->ranks[ri]->ev[i]).  Pure: no output, thread-safe over
 * an immutable model; ranks are analysed on o->threads threads. */
#ifndef TRACETOP_BREAKDOWN_H
#define TRACETOP_BREAKDOWN_H

#include "tracetop/analysis.h"

/* ---- temporal breakdown (metrics.md §3) ---- */

struct tt_temporal_row {
	size_t ri;            /* rank index in the model */
	int64_t rank;
	bool has_gpu;         /* false: no GPU event (HTA raises); all times 0, pcts NaN */
	uint32_t first_ev;    /* GPU event starting the span (TT_NONE without GPU) */
	uint32_t last_ev;     /* GPU event ending the span */
	uint32_t nevents;     /* GPU events counted */
	uint32_t nevents_trace; /* GPU events in the trace, before HTA's selection */
	int64_t kernel_ns;    /* span: first GPU start to last GPU end */
	int64_t busy_ns;      /* |union of all GPU events| */
	int64_t idle_ns;      /* kernel_ns - busy_ns */
	int64_t compute_ns;   /* |union of COMPUTATION events| */
	int64_t non_compute_ns; /* kernel_ns - compute_ns - idle_ns */
	/* 100 * x / kernel_ns, unrounded (HTA prints them rounded to 2 dp);
	 * NaN without GPU events or with a zero span */
	double idle_pct, compute_pct, non_compute_pct;
};

/* One row per selected rank, in model order (ascending rank).  *n gets the
 * count; never NULL (free with tt_temporal_free). */
struct tt_temporal_row *tt_temporal(const struct tt_model *m, const struct tt_aopts *o,
				    size_t *n);
void tt_temporal_free(struct tt_temporal_row *rows);

/* ---- communication / computation overlap (metrics.md §6) ---- */

struct tt_overlap_row {
	size_t ri;
	int64_t rank;
	bool has_gpu;          /* the rank has GPU events at all */
	uint32_t ncomm, ncomp; /* COMMUNICATION / COMPUTATION events */
	uint32_t nevents_trace; /* GPU events in the trace, before HTA's selection */
	uint32_t first_comm;   /* first communication event (TT_NONE if none) */
	int64_t comm_ns;       /* |union of COMMUNICATION events| */
	int64_t comp_ns;       /* |union of COMPUTATION events| */
	int64_t overlap_ns;    /* time where both run */
	double pct;            /* 100 * overlap / comm, unrounded; NaN when comm_ns == 0
				* (HTA's 0/0) */
};

struct tt_overlap_row *tt_overlap(const struct tt_model *m, const struct tt_aopts *o, size_t *n);
void tt_overlap_free(struct tt_overlap_row *rows);
/* Communication time and the part of it overlapped, summed over rows;
 * returns 100 * overlap / communication (NaN without communication). */
double tt_overlap_sum(const struct tt_overlap_row *rows, size_t n, int64_t *comm_ns,
		      int64_t *overlap_ns);

/* ---- kernel breakdown (metrics.md §5) ---- */

/* Analysed types, in HTA's order; bit j of a label mask is types[j]. */
#define TT_KB_MAXTYPES 3

/* Statistics of one group of GPU events on one rank: one kernel name, or
 * the "others" group of a (rank, type), or one user annotation name. */
struct tt_kstat {
	size_t ri;
	int64_t rank;
	enum tt_ktype type;    /* TT_KT_OTHER for user annotations */
	const char *name;      /* kernel name, or "others" */
	uint32_t name_id;      /* string id in the rank's table, TT_NONE for others */
	bool others;           /* the "others" group (several names) */
	bool grouped;          /* (names list) this name went into "others" */
	uint32_t nnames;       /* names in the group (1 for a single name) */
	uint64_t count;        /* events */
	int64_t sum_ns, max_ns, min_ns;
	double mean_ns;
	double std_ns;         /* sample standard deviation (n-1), 0 when count == 1 */
	uint32_t longest;      /* event index of the longest event of the group */
	const char *rule;      /* classification rule (tt_kernel_type), "several
				* rules" for an others group that mixes them */
};

/* The same kernel name across ranks: the ranks with the smallest, median
 * (lower median for an even count) and largest total time. */
struct tt_kacross {
	const char *name;
	enum tt_ktype type;
	uint32_t nranks;       /* ranks where the name ran */
	int64_t total_ns;      /* summed over those ranks */
	size_t min_ri, med_ri, max_ri;
	int64_t min_rank, med_rank, max_rank;
	int64_t min_ns, med_ns, max_ns;
};

struct tt_kbreak_opts {
	int num_kernels;       /* HTA num_kernels (>= 1) */
	double duration_ratio; /* HTA duration_ratio (0..1) */
	bool no_memory;        /* HTA include_memory_kernels=False */
};

struct tt_kbreak {
	int ntypes;
	enum tt_ktype types[TT_KB_MAXTYPES];  /* COMPUTATION, COMMUNICATION[, MEMORY] */
	/* time by label mask (1..7), summed over ranks; in HTA mode each swept
	 * segment is truncated to whole µs as HTA's astype(int) does */
	int64_t label_ns[1 << TT_KB_MAXTYPES];
	int64_t total_ns;      /* sum over labels = Σ ranks |union of analysed types| */
	/* per rank: rank_label_ns[ri * 8 + mask]; ranks not selected stay 0 */
	int64_t *rank_label_ns;
	size_t nranks_model;
	bool *rank_sel;        /* [ri]: the rank was analysed */
	bool *rank_gpu;        /* [ri]: the rank has GPU events */
	uint32_t *rank_gpu_trace; /* [ri]: GPU events before HTA's selection */

	/* every kernel name, true per-duration statistics; sorted by (rank
	 * index, type in `types` order, sum descending, name bytewise) */
	struct tt_kstat *names;
	size_t nnames;
	/* HTA's rows: a kept name or an "others" group per (rank, type), with
	 * the true statistics of the durations in it (not HTA's statistics of
	 * per-name sums, metrics.md §5.2 / §13.1); sorted by (type name, name,
	 * rank) bytewise like HTA's CSV */
	struct tt_kstat *rows;
	size_t nrows;
	/* each name kept on at least one rank, across ranks; sorted by (type
	 * name, name) bytewise */
	struct tt_kacross *across;
	size_t nacross;

	/* GPU user annotations (§5.3): has_annot when some analysed rank has
	 * the gpu_user_annotation category (HTA: when the category is in the
	 * symbol table); num_kernels 1000, ratio 0.8 as HTA's defaults; the
	 * same true statistics as `rows`; sorted by (rank, name) */
	bool has_annot;
	struct tt_kstat *annot;
	size_t nannot;
};

/* Label of a mask: the types of the set bits in `types` order joined with
 * " overlapping ", e.g. "COMPUTATION overlapping COMMUNICATION". */
size_t tt_kbreak_label(const struct tt_kbreak *k, unsigned mask, char *buf, size_t n);

/* The labels with time, largest first (ties: label text): masks[0..n),
 * returns n (at most 7). */
int tt_kbreak_labels(const struct tt_kbreak *k, unsigned masks[8]);
/* The share of label `mask` in all the time analysed, % (unrounded). */
double tt_kbreak_share(const struct tt_kbreak *k, unsigned mask);

/* Compute everything.  *out is filled; free with tt_kbreak_free. */
void tt_kbreak(const struct tt_model *m, const struct tt_aopts *o, const struct tt_kbreak_opts *ko,
	       struct tt_kbreak *out);
void tt_kbreak_free(struct tt_kbreak *k);

#endif
