/* The base room's shared modules: robust statistics, the hash map, the rank
 * list parser, the thread pool and UTF-8 with display widths. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/stats.h"
#include "tracetop/util.h"

#define EPS 1e-9

/* ---- robust statistics ---- */

START_TEST(test_median)
{
	double odd[] = {5, 1, 3};
	ck_assert_double_eq_tol(tt_median(odd, 3), 3, EPS);
	ck_assert_double_eq_tol(odd[0], 1, EPS); /* sorted in place */
	double even[] = {4, 1, 3, 2};
	ck_assert_double_eq_tol(tt_median(even, 4), 2.5, EPS);
	double one[] = {7};
	ck_assert_double_eq_tol(tt_median(one, 1), 7, EPS);
	ck_assert(isnan(tt_median(NULL, 0)));
	/* NaN sorts last, so it never lands in the middle of real values */
	double nan3[] = {NAN, 2, 1};
	tt_median(nan3, 3);
	ck_assert_double_eq_tol(nan3[0], 1, EPS);
	ck_assert(isnan(nan3[2]));
}
END_TEST

/* The rule, worked by hand: 31 ranks near 52.5 % communication and one at
 * 4.1 % (a rank that others wait for spends little time in all-reduce).
 * The low value is an outlier as much as a high one would be. */
START_TEST(test_outlier_both_sides)
{
	double v[32];
	for (int i = 0; i < 32; i++)
		v[i] = 52.5 + (i % 5 - 2) * 0.5; /* 51.5 .. 53.5 */
	v[5] = 4.1;
	struct tt_rdist d;
	tt_rdist_of(v, 32, true, &d);
	ck_assert_uint_eq(d.n, 32);
	ck_assert_double_eq_tol(d.median, 52.5, EPS);
	ck_assert_double_eq_tol(d.mad, 0.5, EPS);
	ck_assert_double_eq_tol(d.scale, 1.4826 * 0.5, EPS);
	ck_assert_uint_eq(d.min_i, 5);
	ck_assert_double_eq_tol(tt_robust_z(&d, 4.1), (4.1 - 52.5) / (1.4826 * 0.5), 1e-9);
	ck_assert(tt_rdist_outlier(&d, 4.1));
	ck_assert_int_eq(tt_rdist_side(&d, 4.1), -1);
	ck_assert_int_eq(tt_rdist_side(&d, 60), 1);
	/* within 2 points: never an outlier, however small the MAD */
	ck_assert_int_eq(tt_rdist_side(&d, 54.4), 0);
	ck_assert(!tt_rdist_outlier(&d, 54.4));
	ck_assert_int_eq(tt_rdist_side(&d, NAN), 0);
}
END_TEST

/* Times: the scale's floor is 1 % of the median (at least 1 µs), the
 * smallest distance 5 % of the median. */
START_TEST(test_outlier_times)
{
	const double v[] = {100e6, 100e6, 100e6, 100e6, 100e6, 104e6, 106e6};
	struct tt_rdist d;
	tt_rdist_of(v, 7, false, &d);
	ck_assert_double_eq_tol(d.mad, 0, EPS);
	ck_assert_double_eq_tol(d.scale, 1e6, EPS);
	ck_assert_double_eq_tol(d.min_diff, 5e6, EPS);
	ck_assert(!tt_rdist_outlier(&d, 104e6)); /* z 4, but only 4 % away */
	ck_assert(tt_rdist_outlier(&d, 106e6));  /* z 6 and 6 % away */
	ck_assert_uint_eq(d.max_i, 6);
	struct tt_rdist e;
	tt_rdist_of(NULL, 0, false, &e);
	ck_assert_uint_eq(e.n, 0);
	ck_assert(isnan(e.median));
	ck_assert(!tt_rdist_outlier(&e, 1));
}
END_TEST

static Suite *base_suite(void)
{
	Suite *s = suite_create("base");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_median);
	tcase_add_test(tc, test_outlier_both_sides);
	tcase_add_test(tc, test_outlier_times);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(base_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
