/* The base room's shared modules: robust statistics, the hash map, the rank
 * list parser, the thread pool and UTF-8 with display widths. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tracetop/hmap.h"
#include "tracetop/pool.h"
#include "tracetop/ranklist.h"
#include "tracetop/stats.h"
#include "tracetop/strtab.h"
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

/* ---- the hash map ---- */

START_TEST(test_hmap_map)
{
	struct tt_hmap h = {0};
	ck_assert_uint_eq(tt_hmap_get(&h, 42), TT_HMAP_NONE); /* empty, never allocated */
	/* packed pairs and small integers, enough to grow several times */
	for (uint32_t i = 0; i < 5000; i++) {
		uint32_t *s = tt_hmap_slot(&h, ((uint64_t)i << 32) | (i % 7));
		ck_assert_uint_eq(*s, TT_HMAP_NONE);
		*s = i;
	}
	ck_assert_uint_eq(h.n, 5000);
	ck_assert_uint_ge(h.cap, 10000); /* at most half full */
	for (uint32_t i = 0; i < 5000; i++)
		ck_assert_uint_eq(tt_hmap_get(&h, ((uint64_t)i << 32) | (i % 7)), i);
	ck_assert_uint_eq(tt_hmap_get(&h, ((uint64_t)3 << 32) | 4), TT_HMAP_NONE);
	/* an existing key gives its slot back */
	uint32_t *s = tt_hmap_slot(&h, ((uint64_t)17 << 32) | 3);
	ck_assert_uint_eq(*s, 17);
	ck_assert_uint_eq(h.n, 5000);
	ck_assert_uint_eq(tt_hmap_memsize(&h), h.cap * 12);
	tt_hmap_free(&h);
	ck_assert_uint_eq(h.cap, 0);
	ck_assert_uint_eq(tt_hmap_get(&h, 0), TT_HMAP_NONE);
}
END_TEST

/* the index: several values under one key come back, all of them */
START_TEST(test_hmap_index)
{
	struct tt_hmap h = {0};
	for (uint32_t i = 0; i < 300; i++)
		tt_hmap_add(&h, i % 3, i); /* three keys, 100 values each */
	for (uint64_t k = 0; k < 3; k++) {
		size_t pos, n = 0;
		uint64_t sum = 0;
		for (uint32_t v = tt_hmap_first(&h, k, &pos); v != TT_HMAP_NONE;
		     v = tt_hmap_next(&h, k, &pos)) {
			ck_assert_uint_eq(v % 3, k);
			sum += v;
			n++;
		}
		ck_assert_uint_eq(n, 100);
		ck_assert_uint_eq(sum, 100 * k + 3 * (99 * 100 / 2));
	}
	size_t pos;
	ck_assert_uint_eq(tt_hmap_first(&h, 3, &pos), TT_HMAP_NONE);
	tt_hmap_free(&h);
}
END_TEST

/* the string table over the map: ids stay, lookups find, a rebuilt index
 * finds the same */
START_TEST(test_strtab_index)
{
	struct tt_strtab t;
	tt_strtab_init(&t);
	char buf[32];
	for (int i = 0; i < 3000; i++) {
		int n = snprintf(buf, sizeof(buf), "kernel_%d", i);
		ck_assert_uint_eq(tt_strtab_intern(&t, buf, (size_t)n), (uint32_t)i + 1);
	}
	ck_assert_uint_eq(tt_strtab_intern(&t, "kernel_7", 8), 8);
	ck_assert_uint_eq(tt_strtab_find(&t, "", 0), 0);
	ck_assert_uint_eq(tt_strtab_find(&t, "kernel_2999", 11), 3000);
	ck_assert_uint_eq(tt_strtab_find(&t, "kernel_3000", 11), TT_NO_STR);
	ck_assert_uint_eq(tt_strtab_find(&t, "kernel_1", 7), TT_NO_STR); /* a prefix */
	tt_strtab_reindex(&t);
	ck_assert_uint_eq(tt_strtab_find(&t, "kernel_1234", 11), 1235);
	ck_assert_uint_eq(tt_strtab_intern(&t, "new", 3), 3001);
	ck_assert_str_eq(tt_strtab_get(&t, 3001), "new");
	tt_strtab_free(&t);
}
END_TEST

/* ---- rank lists ---- */

static void ranks_ok(const char *s, size_t n, const int64_t *want)
{
	int64_t *v;
	size_t nv;
	char why[128] = "";
	ck_assert_msg(tt_ranks_parse(s, &v, &nv, why, sizeof(why)) == 0, "'%s': %s", s, why);
	ck_assert_uint_eq(nv, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(v[i], want[i]);
	free(v);
}

static void ranks_bad(const char *s, const char *reason)
{
	int64_t *v = (int64_t *)1;
	size_t nv = 7;
	char why[128] = "";
	ck_assert_int_eq(tt_ranks_parse(s, &v, &nv, why, sizeof(why)), -1);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(nv, 0);
	ck_assert_msg(strcmp(why, reason) == 0, "'%s': got '%s', want '%s'", s, why, reason);
	ck_assert_uint_le(strlen(why), 40);
}

START_TEST(test_ranks_parse)
{
	ranks_ok("0,2,4-7", 6, (const int64_t[]){0, 2, 4, 5, 6, 7});
	ranks_ok(" 3 , 1 ", 2, (const int64_t[]){3, 1}); /* in the order given */
	ranks_ok("0 2", 2, (const int64_t[]){0, 2});
	ranks_ok("5 - 6,", 2, (const int64_t[]){5, 6});
	ranks_ok("16777215", 1, (const int64_t[]){TT_RANK_MAX});
	ranks_ok("16777214-16777215", 2, (const int64_t[]){TT_RANK_MAX - 1, TT_RANK_MAX});
	ranks_bad("", "no rank given");
	ranks_bad(" , ", "no rank given");
	ranks_bad("x", "not a number: 'x'");
	ranks_bad("-1", "not a number: '-1'");
	ranks_bad("1;2", "not a number: ';2'");
	ranks_bad("two-three-four", "not a number: 'two-thre...'");
	ranks_bad("3-", "a number is missing at the end");
	ranks_bad("7-3", "range 7-3 runs backwards");
	ranks_bad("16777216", "ranks go up to 16777215");
	/* overflow: saturated, never wrapped; no loop runs past the limit */
	ranks_bad("9223372036854775807", "ranks go up to 16777215");
	ranks_bad("0-9223372036854775807", "ranks go up to 16777215");
	ranks_bad("99999999999999999999999-3", "ranks go up to 16777215");
	ranks_bad("9223372036854775806-9223372036854775807", "ranks go up to 16777215");
	ranks_bad("0-16777215", "more than 1048576 ranks");
	ranks_bad("0-600000,0-600000", "more than 1048576 ranks");
	/* why may be NULL */
	int64_t *v;
	size_t n;
	ck_assert_int_eq(tt_ranks_parse("x", &v, &n, NULL, 0), -1);
}
END_TEST

/* the largest list allowed is built, exactly */
START_TEST(test_ranks_parse_max)
{
	int64_t *v;
	size_t n;
	ck_assert_int_eq(tt_ranks_parse("1-1048576", &v, &n, NULL, 0), 0);
	ck_assert_uint_eq(n, TT_RANKS_LIST_MAX);
	ck_assert_int_eq(v[0], 1);
	ck_assert_int_eq(v[n - 1], 1048576);
	free(v);
}
END_TEST

/* ---- the thread pool ---- */

struct count {
	atomic_uint *hits; /* per item */
	atomic_uint calls;
	pthread_t first_thread;
	atomic_uint other_threads; /* items run on another thread than the caller */
};

static void count_item(size_t i, void *ctx)
{
	struct count *c = ctx;
	atomic_fetch_add(&c->hits[i], 1);
	atomic_fetch_add(&c->calls, 1);
	if (!pthread_equal(pthread_self(), c->first_thread))
		atomic_fetch_add(&c->other_threads, 1);
}

static unsigned run_count(size_t n, int nthreads)
{
	struct count c;
	c.hits = calloc(n + 1, sizeof(*c.hits));
	atomic_init(&c.calls, 0);
	atomic_init(&c.other_threads, 0);
	c.first_thread = pthread_self();
	tt_parallel_for(n, nthreads, count_item, &c);
	ck_assert_uint_eq(atomic_load(&c.calls), n);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(atomic_load(&c.hits[i]), 1);
	free(c.hits);
	return atomic_load(&c.other_threads);
}

START_TEST(test_parallel_for)
{
	ck_assert_uint_eq(run_count(0, 4), 0);
	ck_assert_uint_eq(run_count(1000, 1), 0); /* one thread: the caller alone */
	run_count(1000, 4);
	run_count(1000, 0);   /* one per CPU */
	run_count(3, 100);    /* more threads than items */
	run_count(5000, 200); /* more than TT_POOL_MAX */
}
END_TEST

/* The policy: when no thread can be started, the caller does every item.
 * (An address-space limit just above what the process uses makes
 * pthread_create fail for want of room for a stack.  Check runs each test
 * in a child of its own, so the limit ends with it.) */
static void *noop(void *arg)
{
	return arg;
}

START_TEST(test_parallel_for_no_threads)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return; /* the sanitizers' shadow memory needs the address space */
#else
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	if (!f || fscanf(f, "%lu", &pages) != 1) {
		if (f)
			fclose(f);
		return; /* no /proc: nothing to limit by */
	}
	fclose(f);
	struct count c;
	size_t n = 100;
	c.hits = calloc(n, sizeof(*c.hits));
	atomic_init(&c.calls, 0);
	atomic_init(&c.other_threads, 0);
	c.first_thread = pthread_self();
	struct rlimit rl;
	getrlimit(RLIMIT_AS, &rl);
	rl.rlim_cur = pages * (rlim_t)sysconf(_SC_PAGESIZE) + (1 << 20);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
	pthread_t th;
	if (tt_thread_start(&th, noop, NULL)) {
		pthread_join(th, NULL);
		ck_abort_msg("a thread started despite the limit");
	}
	tt_parallel_for(n, 8, count_item, &c);
	ck_assert_uint_eq(atomic_load(&c.calls), n);
	ck_assert_uint_eq(atomic_load(&c.other_threads), 0);
	free(c.hits);
#endif
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
	tc = tcase_create("hmap");
	tcase_add_test(tc, test_hmap_map);
	tcase_add_test(tc, test_hmap_index);
	tcase_add_test(tc, test_strtab_index);
	suite_add_tcase(s, tc);
	tc = tcase_create("ranklist");
	tcase_add_test(tc, test_ranks_parse);
	tcase_add_test(tc, test_ranks_parse_max);
	suite_add_tcase(s, tc);
	tc = tcase_create("pool");
	tcase_add_test(tc, test_parallel_for);
	tcase_add_test(tc, test_parallel_for_no_threads);
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
