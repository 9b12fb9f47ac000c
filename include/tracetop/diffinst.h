/* analysis: one name's instances on both sides of a diff -- the events
 * behind a row of the diff (or of a side-by-side pane), with each side's
 * count, total, mean, median and longest duration and a histogram of the
 * durations of both sides on one scale.  Pure over the two models. */
#ifndef TRACETOP_DIFFINST_H
#define TRACETOP_DIFFINST_H

#include "tracetop/analysis.h"
#include "tracetop/diff.h"

#define TT_DI_BINS 8

/* one instance */
struct tt_dinst {
	uint8_t side;     /* 0: control, 1: test */
	uint32_t ri;      /* rank index in its side's model */
	uint32_t ev;      /* event index in the rank */
	int64_t rank;     /* its rank number */
	uint32_t pair_ri; /* the rank index paired with it on the other side,
			   * UINT32_MAX when none */
	int64_t step;     /* its ProfilerStep number, -1 when none */
	int64_t pair_step; /* the step compared with it on the other side, -1
			    * when none */
	int64_t start;    /* ns from its side's origin (tt_model_origin), exact */
	int64_t dur;      /* ns, as the row counts it (HTA's rounding unless exact) */
};

/* one side's figures */
struct tt_dinst_side {
	size_t n;
	int64_t total;   /* ns */
	double mean;     /* ns; 0 without instances */
	int64_t median;  /* ns: the middle one, or the mean of the two middle
			  * ones (rounded down) */
	int64_t min, max;
	size_t bins[TT_DI_BINS]; /* counts on the shared scale */
};

struct tt_dinsts {
	struct tt_dinst *v; /* both sides, longest first (ties: side, rank
			     * index, event) */
	size_t n;
	struct tt_dinst_side side[2];
	/* the histograms' shared scale: nbins bins from lo (the shortest
	 * over both sides) to hi (the longest), of equal width, or of equal
	 * ratio when hi is 10 times lo or more (log_scale, as tt_log_bins);
	 * lo == hi: one bin */
	int64_t lo, hi;
	int nbins;
	bool log_scale;
	/* the largest share of one side's instances in one bin (0..1]: bars
	 * of bins[b] / n scaled to it compare the sides' shapes whatever
	 * their counts; 1 without instances */
	double share_max;
};

/* The events row `name` of diff d counts (d computed over a and b): on
 * each rank pair, the events of the pair's compared steps with the diff's
 * device and name rule (full name, short name, or "ProfilerStep#*" for
 * every step annotation), times as the diff takes them.  Each side's n and
 * total then equal the row's count and dur.  Fills *out (n = 0 when none);
 * free with tt_dinsts_free. */
void tt_dinsts_of_row(const struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
		      const char *name, struct tt_dinsts *out);

/* The GPU kernels (work with a stream) named `name` on each side: of
 * model m[s] on the ranks o[s] selects, in the selection o[s] gives
 * (HTA's view unless exact), as the Kernels report counts them.  d (may be
 * NULL) pairs the ranks and steps of the two sides (tt_diff_rank); an
 * instance's step is the one its launch ran in.  Fills *out; free with
 * tt_dinsts_free. */
void tt_dinsts_of_kernel(const struct tt_model *const m[2], const struct tt_aopts *const o[2],
			 const struct tt_diff *d, const char *name, struct tt_dinsts *out);

void tt_dinsts_free(struct tt_dinsts *k);
/* The lower edge of bin b (b = nbins: the upper edge of the last). */
int64_t tt_dinsts_edge(const struct tt_dinsts *k, int b);

#endif
