/* Robust statistics: median, quantiles, MAD, robust z-scores and the
 * outlier rule (include/tracetop/stats.h). */
#include "config.h"

#include "tracetop/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* ascending, NaN last */
static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return x < y ? -1 : x > y;
}

/* numpy's _lerp: a + (b - a) * t, from the nearer end */
static double lerp(double a, double b, double t)
{
	double d = b - a;
	return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

static void dswap(double *v, size_t i, size_t j)
{
	double t = v[i];
	v[i] = v[j];
	v[j] = t;
}

/* Puts the k-th smallest of v[0..n) (no NaN, no -0) at v[k], those before
 * it no larger, those after no smaller: Hoare partitions around the
 * median of three, then an insertion sort of the last few.  Linear on
 * average; a range that has not shrunk to a few after 2 log2(n) + 8
 * partitions (a hostile order) is sorted instead, so n log n at worst. */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	int budget = 8;
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	while (hi - lo > 16) {
		if (budget-- == 0) {
			qsort(v + lo, hi - lo, sizeof(*v), dbl_cmp);
			return;
		}
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			dswap(v, mid, lo);
		if (v[hi - 1] < v[mid]) {
			dswap(v, hi - 1, mid);
			if (v[mid] < v[lo])
				dswap(v, mid, lo);
		}
		double p = v[mid];
		/* v[lo] <= p <= v[hi - 1] stop both scans: lo <= j < hi - 1 */
		size_t i = lo - 1, j = hi;
		for (;;) {
			do
				i++;
			while (v[i] < p);
			do
				j--;
			while (v[j] > p);
			if (i >= j)
				break;
			dswap(v, i, j);
		}
		if (k <= j)
			hi = j + 1;
		else
			lo = j + 1;
	}
	for (size_t i = lo + 1; i < hi; i++) {
		double x = v[i];
		size_t j = i;
		for (; j > lo && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

double tt_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	/* NaN and -0 have ties whose order in a sort (stable) picks the bits
	 * of the result: those go through the sort, as they always did */
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]) || (v[i] == 0 && signbit(v[i]))) {
			qsort(v, n, sizeof(*v), dbl_cmp);
			return tt_quantile(v, n, 0.5);
		}
	/* tt_quantile(sorted, n, 0.5) from the two middle values alone */
	size_t i = (n - 1) / 2;
	select_kth(v, n, i);
	if (i >= n - 1)
		return v[i];
	double next = v[i + 1];
	for (size_t j = i + 2; j < n; j++)
		if (v[j] < next)
			next = v[j];
	double vi = (double)(n - 1) * 0.5;
	return lerp(v[i], next, vi - floor(vi));
}

double tt_quantile(const double *v, size_t n, double q)
{
	if (!n)
		return NAN;
	double vi = (double)(n - 1) * q;
	double lo = floor(vi);
	size_t i = (size_t)lo;
	if (i >= n - 1)
		return v[n - 1];
	return lerp(v[i], v[i + 1], vi - lo);
}

void tt_rdist_of(const double *v, size_t n, bool pct, struct tt_rdist *d)
{
	memset(d, 0, sizeof(*d));
	d->min = d->p10 = d->median = d->p90 = d->max = d->mad = d->scale = d->min_diff = NAN;
	d->min_i = d->max_i = SIZE_MAX;
	double *s = tt_malloc((n + 1) * sizeof(*s));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		s[k++] = v[i];
		if (d->min_i == SIZE_MAX || v[i] < v[d->min_i])
			d->min_i = i;
		if (d->max_i == SIZE_MAX || v[i] > v[d->max_i])
			d->max_i = i;
	}
	d->n = k;
	if (!k) {
		free(s);
		return;
	}
	qsort(s, k, sizeof(*s), dbl_cmp);
	d->min = s[0];
	d->max = s[k - 1];
	d->p10 = tt_quantile(s, k, 0.10);
	d->median = tt_quantile(s, k, 0.50);
	d->p90 = tt_quantile(s, k, 0.90);
	for (size_t i = 0; i < k; i++)
		s[i] = fabs(s[i] - d->median);
	qsort(s, k, sizeof(*s), dbl_cmp);
	d->mad = tt_quantile(s, k, 0.50);
	free(s);
	double floor_ = pct ? 0.5 : fmax(0.01 * fabs(d->median), 1000.0);
	d->scale = fmax(TT_MAD_SCALE * d->mad, floor_);
	d->min_diff = pct ? 2.0 : 0.05 * fabs(d->median);
}

double tt_robust_z(const struct tt_rdist *d, double x)
{
	if (isnan(x) || !d->n)
		return NAN;
	return (x - d->median) / d->scale;
}

bool tt_rdist_outlier(const struct tt_rdist *d, double x)
{
	double z = tt_robust_z(d, x);
	return !isnan(z) && fabs(z) >= TT_RZ_LIMIT && fabs(x - d->median) >= d->min_diff;
}

int tt_rdist_side(const struct tt_rdist *d, double x)
{
	if (!tt_rdist_outlier(d, x))
		return 0;
	return x > d->median ? 1 : -1;
}
