/* analysis room: typed results, computed once and kept.
 *
 * A struct tt_results stands for one model (and the second model of a
 * diff), one set of analysis options and one rank selection.  It holds the
 * typed result of each analysis, computed the first time it is asked for
 * and kept until tt_results_free.  `tracetop report` formats its tables
 * from these results and the TUI's panes draw from the same ones, so a
 * number on screen and in a report comes from one computation.
 *
 * Thread-safe: any thread may ask for any result.  A result another thread
 * is computing is waited for (the getters) or reported as not ready
 * (tt_results_ready), so a caller that must not block can look first.
 * tt_results_prefetch computes a list of results on one background
 * thread.  Results are const: nobody changes them once made.
 *
 * Adding an analysis: one line in TT_RESULTS (results.c), its compute and
 * free functions there, and a typed getter below. */
#ifndef TRACETOP_RESULTS_H
#define TRACETOP_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/analysis.h"
#include "tracetop/err.h"
#include "tracetop/byrank.h"
#include "tracetop/collectives.h"
#include "tracetop/critpath.h"

/* What the analyses are computed with (the options that change a number;
 * formatting options such as --top are not here). */
struct tt_results_opts {
	struct tt_aopts a;                /* a.ranks is copied */
	double kernel_delay_us;           /* idle, ranks (HTA: 30) */
	double runtime_cutoff_us;         /* launch (HTA: 50) */
	double launch_delay_cutoff_us;    /* launch (HTA: 100) */
	struct tt_kbreak_opts kb;         /* kernels */
	const char *op_name;              /* patterns: operator substring, NULL: chosen
					   * automatically (copied) */
	int min_pattern_len;              /* patterns (3) */
	enum tt_diff_device diff_device;  /* diff */
	bool diff_short_names;
	int64_t diff_iteration;           /* >= 0, TT_DIFF_FIRST or TT_DIFF_COMMON */
	const struct tt_diff_pair *diff_map; /* rank pairs, or NULL (copied) */
	size_t diff_nmap;
	double diff_threshold;            /* the verdict rule (tt_diff_judge) */
	int64_t diff_floor_ns;
	struct tt_cp_steps_opts cp;       /* critical path: the windows, data
					   * loading and what-if (strings and
					   * arrays copied; cp.cp.a is a) */
	const char *peaks_file;           /* perf model: a user GPU peak file (copied) */
	const char *gpu;                  /* perf model: this GPU's peaks (copied) */
};

/* HTA's defaults, every rank; the diff's defaults (tt_diff_opts_init). */
void tt_results_opts_init(struct tt_results_opts *o);

/* The analyses, in the order a prefetch of "everything" takes them. */
#define TT_RESULTS(_)                                                          \
	_(SUMMARY, "summary")     /* struct tt_summary_res */                  \
	_(TEMPORAL, "temporal")   /* struct tt_temporal_res */                 \
	_(OVERLAP, "overlap")     /* struct tt_overlap_res */                  \
	_(KBREAK, "kernels")      /* struct tt_kbreak */                       \
	_(BYRANK, "byrank")       /* struct tt_byrank (joins the three above) */ \
	_(IDLE, "idle")           /* struct tt_idle */                         \
	_(LAUNCH, "launch")       /* struct tt_launch */                       \
	_(COUNTERS, "counters")   /* struct tt_counters */                     \
	_(PATTERNS, "patterns")   /* struct tt_patterns */                     \
	_(RANKS, "ranks")         /* struct tt_ranks */                        \
	_(DIFF, "diff")           /* struct tt_diff (needs the second model) */ \
	_(TBOVERVIEW, "tb-overview") /* struct tt_overview (the plugin's) */    \
	_(UTIL, "utilization")    /* struct tt_util (TT_UTIL_BUCKETS) */        \
	_(STEPS, "steps")         /* struct tt_steps */                         \
	_(COLL, "collectives")    /* struct tt_coll (collectives.h) */          \
	_(DIST, "distributed")    /* struct tt_dist (reads COLL) */             \
	_(OPS, "operators")       /* struct tt_ops by name */                   \
	_(OPS_SHAPES, "operators-shapes") /* struct tt_ops by name and shapes */ \
	_(MEM, "memory")          /* struct tt_mem */                           \
	_(SRC, "source")          /* struct tt_src */                           \
	_(ADVICE, "advice")       /* struct tt_advice */                        \
	_(CRITPATH, "critical-path") /* struct tt_cp_steps */                \
	_(PERF, "perf-model")     /* struct tt_perf */                          \
	_(COLLBW, "collective-bandwidth") /* struct tt_coll_bw (reads COLL) */

enum tt_rkind {
#define _(id, name) TT_RES_##id,
	TT_RESULTS(_)
#undef _
	TT_RES_COUNT
};

/* The rows of the analyses that return arrays. */
struct tt_summary_res {
	struct tt_summary_row *rows; /* every rank of the model */
	size_t n;
};
struct tt_temporal_res {
	struct tt_temporal_row *rows; /* the selected ranks, model order */
	size_t n;
};
struct tt_overlap_res {
	struct tt_overlap_row *rows; /* the selected ranks, model order */
	size_t n;
};

struct tt_results;

/* Results over m (and m2 for the diff, else NULL) with options o (copied).
 * The models must outlive the results.  Nothing is computed yet. */
struct tt_results *tt_results_new(const struct tt_model *m, const struct tt_model *m2,
				  const struct tt_results_opts *o);
/* Wait for the background thread, then free every result.  NULL is fine. */
void tt_results_free(struct tt_results *r);
/* Ask the background thread to stop after the analysis it is computing;
 * does not wait. */
void tt_results_stop(struct tt_results *r);
/* Whether the background thread is still computing. */
bool tt_results_busy(struct tt_results *r);

const struct tt_model *tt_results_model(const struct tt_results *r);
const struct tt_model *tt_results_model2(const struct tt_results *r);
const struct tt_results_opts *tt_results_options(const struct tt_results *r);

/* Compute kinds k[0..n) in that order on one background thread (once per
 * results; later calls do nothing).  Results asked for meanwhile are
 * computed by the asking thread unless the background thread is at them. */
void tt_results_prefetch(struct tt_results *r, const enum tt_rkind *k, size_t n);
/* Have the background thread compute kinds k[0..n) after what it was
 * asked (those not computed, being computed nor asked already), in that
 * order; it starts again when it had finished.  Never blocks on a
 * computation. */
void tt_results_enqueue(struct tt_results *r, const enum tt_rkind *k, size_t n);
/* Have the background thread compute kinds k[0..n) next, before the rest
 * of what it was asked (those not computed nor being computed); it starts
 * again when it had finished.  Never blocks on a computation. */
void tt_results_want(struct tt_results *r, const enum tt_rkind *k, size_t n);
/* Wait until the background thread has finished. */
void tt_results_wait(struct tt_results *r);
/* Whether result k is there (never blocks, never starts a computation). */
bool tt_results_ready(struct tt_results *r, enum tt_rkind k);

/* ---- the results, computed on first use (by this thread, or waited for
 * while another computes them); never NULL ---- */
const struct tt_summary_res *tt_res_summary(struct tt_results *r);
const struct tt_temporal_res *tt_res_temporal(struct tt_results *r);
const struct tt_overlap_res *tt_res_overlap(struct tt_results *r);
const struct tt_kbreak *tt_res_kbreak(struct tt_results *r);
const struct tt_byrank *tt_res_byrank(struct tt_results *r);
const struct tt_idle *tt_res_idle(struct tt_results *r);
const struct tt_launch *tt_res_launch(struct tt_results *r);
const struct tt_counters *tt_res_counters(struct tt_results *r);
const struct tt_patterns *tt_res_patterns(struct tt_results *r);
const struct tt_ranks *tt_res_ranks(struct tt_results *r);
/* the TensorBoard views (tbviews.h, overview.h, advice.h) */
const struct tt_overview *tt_res_tb_overview(struct tt_results *r);
const struct tt_util *tt_res_util(struct tt_results *r);
const struct tt_steps *tt_res_steps(struct tt_results *r);
const struct tt_dist *tt_res_dist(struct tt_results *r);
/* collectives matched across ranks, clocks, waits (collectives.h) */
const struct tt_coll *tt_res_collectives(struct tt_results *r);
const struct tt_ops *tt_res_ops(struct tt_results *r, bool by_shapes);
/* the critical path of each rank and window (critpath.h) */
const struct tt_cp_steps *tt_res_critpath(struct tt_results *r);
const struct tt_mem *tt_res_mem(struct tt_results *r);
/* the performance model per op and shape (perfmodel.h) */
const struct tt_perf *tt_res_perf(struct tt_results *r);
/* the bandwidth of each collective matched across ranks (collbw.h) */
const struct tt_coll_bw *tt_res_coll_bw(struct tt_results *r);
const struct tt_src *tt_res_src(struct tt_results *r);
const struct tt_advice *tt_res_advice(struct tt_results *r);
/* NULL with *err filled when there is no second model or the two cannot
 * be compared (err may be NULL). */
const struct tt_diff *tt_res_diff(struct tt_results *r, struct tt_err *err);

#endif
