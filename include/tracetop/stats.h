/* Robust statistics: the one rule for "a value far from the others".
 *
 * A distribution is min, p10, median, p90 and max (numpy's linear
 * quantiles) with the indices of the extremes.  A value's robust z-score is
 * (x - median) / scale, scale = 1.4826 * MAD (the median absolute
 * deviation), floored so that a nearly constant metric does not turn noise
 * into outliers: 0.5 points for percentages, 1 % of the median (at least
 * 1 µs) for times in ns.  A value is an outlier when |z| >= 3.5 and it is at
 * least 2 points (percentages) or 5 % of the median (times) away from the
 * median, on either side: whether a low or a high value matters (little
 * idle is no problem, little communication may be) is for the caller to
 * say, never a different rule.
 *
 * Every analysis, report and pane that marks values as far from the others
 * (stragglers, outliers) uses these functions.  libc only. */
#ifndef TRACETOP_STATS_H
#define TRACETOP_STATS_H

#include <stdbool.h>
#include <stddef.h>

#define TT_RZ_LIMIT 3.5     /* |z| from which a value is an outlier */
#define TT_MAD_SCALE 1.4826 /* MAD -> standard deviation of a normal sample */

/* Median of v[0..n), as tt_quantile(sorted v, n, 0.5) (NaN values sort
 * last); NaN when n == 0.  Reorders v (a selection, linear on average; v
 * is not left sorted). */
double tt_median(double *v, size_t n);

/* numpy.quantile(v, q) (method "linear") of sorted v[0..n), n >= 1; NaN
 * when n == 0. */
double tt_quantile(const double *sorted, size_t n, double q);

struct tt_rdist {
	size_t n;                 /* values (NaN left out) */
	double min, p10, median, p90, max; /* NaN when n == 0 */
	double mad;               /* median of |x - median| */
	double scale;             /* the z unit: max(1.4826 * mad, floor) */
	double min_diff;          /* smallest |x - median| that counts as an outlier */
	size_t min_i, max_i;      /* index of the smallest and largest value (the
				   * first one on ties); SIZE_MAX when n == 0 */
};

/* Distribution of v[0..n) (NaN values skipped; v is not changed).  pct:
 * the values are percentages (else times in ns), which sets the floor of
 * the scale and the smallest distance that counts. */
void tt_rdist_of(const double *v, size_t n, bool pct, struct tt_rdist *d);
/* (x - median) / scale, NaN for NaN or an empty distribution */
double tt_robust_z(const struct tt_rdist *d, double x);
/* |z| >= TT_RZ_LIMIT and |x - median| >= min_diff */
bool tt_rdist_outlier(const struct tt_rdist *d, double x);
/* +1: an outlier above the median, -1: below, 0: not an outlier */
int tt_rdist_side(const struct tt_rdist *d, double x);

#endif
