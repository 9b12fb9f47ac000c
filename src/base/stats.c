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

double tt_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), dbl_cmp);
	return tt_quantile(v, n, 0.5); /* the middle, or the mean of the two */
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
	double t = vi - lo, d = v[i + 1] - v[i];
	/* numpy's _lerp */
	return t >= 0.5 ? v[i + 1] - d * (1.0 - t) : v[i] + d * t;
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
