/* The base room's shared modules: robust statistics, the hash map, the rank
 * list parser, the thread pool and UTF-8 with display widths. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>
#include <wchar.h>

#include "tracetop/hmap.h"
#include "tracetop/pool.h"
#include "tracetop/ranklist.h"
#include "tracetop/grid.h"
#include "tracetop/render.h"
#include "tracetop/stats.h"
#include "tracetop/strtab.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"

#define EPS 1e-9

/* ---- robust statistics ---- */

START_TEST(test_median)
{
	double odd[] = {5, 1, 3};
	ck_assert_double_eq_tol(tt_median(odd, 3), 3, EPS);
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

static int median_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return x < y ? -1 : x > y;
}

/* The selection gives the bits the sort gave (tt_quantile of the sorted
 * values): odd and even counts, ties, runs, sorted and reversed input,
 * infinities, -0 and NaN among the values. */
START_TEST(test_median_select)
{
	enum { N = 300 };
	double v[N], s[N];
	uint64_t seed = 12345;
	size_t compared = 0;
	for (int round = 0; round < 400; round++) {
		size_t n = 1 + (size_t)round % 7 * 41 + (size_t)round / 7 % 13;
		if (n > N)
			n = N;
		int shape = round % 8;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			double x = (double)(seed >> 40) / 1024.0;
			switch (shape) {
			case 0: v[i] = x; break;
			case 1: v[i] = (double)((seed >> 33) % 5); break; /* ties */
			case 2: v[i] = (double)i; break;                  /* sorted */
			case 3: v[i] = (double)(n - i); break;            /* reversed */
			case 4: v[i] = 7.0; break;                        /* all equal */
			case 5: v[i] = i % 11 == 3 ? INFINITY : i % 13 == 5 ? -INFINITY : x; break;
			case 6: v[i] = i % 9 == 2 ? -0.0 : i % 9 == 4 ? 0.0 : x - 8000; break;
			default: v[i] = i % 17 == 1 ? NAN : x; break;
			}
		}
		memcpy(s, v, n * sizeof(*v));
		qsort(s, n, sizeof(*s), median_dbl_cmp);
		double want = tt_quantile(s, n, 0.5), got = tt_median(v, n);
		ck_assert_msg(memcmp(&want, &got, sizeof(got)) == 0 || (isnan(want) && isnan(got)),
			      "round %d (n %zu, shape %d): median %.17g, sorted %.17g", round, n,
			      shape, got, want);
		/* v is a permutation of the values */
		qsort(v, n, sizeof(*v), median_dbl_cmp);
		for (size_t i = 0; i < n; i++)
			ck_assert(memcmp(&v[i], &s[i], sizeof(*v)) == 0 || (isnan(v[i]) && isnan(s[i])) ||
				  (v[i] == 0 && s[i] == 0));
		compared++;
	}
	ck_assert_uint_eq(compared, 400);
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

START_TEST(test_ranks_format)
{
	char b[64];
	const int64_t a[] = {0, 1, 2, 3, 4, 5, 6, 7};
	ck_assert_uint_eq(tt_ranks_format(a, 8, b, sizeof(b)), 3);
	ck_assert_str_eq(b, "0-7");
	const int64_t c[] = {0, 2, 4, 5, 6, 7, 9};
	tt_ranks_format(c, 7, b, sizeof(b));
	ck_assert_str_eq(b, "0,2,4-7,9");
	/* read back by the parser */
	int64_t *v;
	size_t n;
	ck_assert_int_eq(tt_ranks_parse(b, &v, &n, NULL, 0), 0);
	ck_assert_uint_eq(n, 7);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(v[i], c[i]);
	free(v);
	/* in the order given: a run only upwards */
	const int64_t d[] = {3, 2, 1};
	tt_ranks_format(d, 3, b, sizeof(b));
	ck_assert_str_eq(b, "3,2,1");
	/* too long: whole items, then ",..." */
	const int64_t e[] = {100, 200, 300, 400, 500};
	ck_assert_uint_eq(tt_ranks_format(e, 5, b, 13), 11);
	ck_assert_str_eq(b, "100,200,...");
	ck_assert_uint_eq(tt_ranks_format(e, 5, b, 3), 0);
	ck_assert_str_eq(b, "");
	ck_assert_uint_eq(tt_ranks_format(e, 0, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "");
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
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
static void *noop(void *arg)
{
	return arg;
}
#endif

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

/* ---- UTF-8 ---- */

START_TEST(test_utf8_decode)
{
	uint32_t cp = 0;
	ck_assert_uint_eq(tt_utf8_decode("A", 1, &cp), 1);
	ck_assert_uint_eq(cp, 'A');
	ck_assert_uint_eq(tt_utf8_decode("\xC3\xA9", 2, &cp), 2); /* é */
	ck_assert_uint_eq(cp, 0xE9);
	ck_assert_uint_eq(tt_utf8_decode("\xE7\xAE\x97", 3, &cp), 3); /* 算 */
	ck_assert_uint_eq(cp, 0x7B97);
	ck_assert_uint_eq(tt_utf8_decode("\xF0\x9F\x98\x80", 4, &cp), 4); /* 😀 */
	ck_assert_uint_eq(cp, 0x1F600);
	/* not UTF-8 */
	ck_assert_uint_eq(tt_utf8_decode("\xC3", 1, &cp), 0);          /* cut short */
	ck_assert_uint_eq(tt_utf8_decode("\xC3(", 2, &cp), 0);         /* bad continuation */
	ck_assert_uint_eq(tt_utf8_decode("\xC0\xAF", 2, &cp), 0);      /* overlong '/' */
	ck_assert_uint_eq(tt_utf8_decode("\xE0\x80\xAF", 3, &cp), 0);  /* overlong */
	ck_assert_uint_eq(tt_utf8_decode("\xED\xA0\x80", 3, &cp), 0);  /* surrogate */
	ck_assert_uint_eq(tt_utf8_decode("\xF4\x90\x80\x80", 4, &cp), 0); /* > U+10FFFF */
	ck_assert_uint_eq(tt_utf8_decode("\x80", 1, &cp), 0);
	ck_assert_uint_eq(tt_utf8_decode("\xFF", 1, &cp), 0);
	ck_assert_uint_eq(tt_utf8_decode("", 0, &cp), 0);
	/* lenient reading: a bad byte is U+FFFD and one byte, never past the NUL */
	const char *s = "a\xFF\xE7\xAE";
	ck_assert_uint_eq(tt_utf8_next(&s), 'a');
	ck_assert_uint_eq(tt_utf8_next(&s), TT_UTF8_BAD);
	ck_assert_uint_eq(tt_utf8_seqlen(s), 1); /* a cut-short sequence */
	ck_assert_uint_eq(tt_utf8_next(&s), TT_UTF8_BAD);
	ck_assert_uint_eq(tt_utf8_next(&s), TT_UTF8_BAD);
	ck_assert_int_eq(*s, '\0');
	ck_assert_uint_eq(tt_utf8_seqlen(""), 0);
	/* encoding round trips */
	const uint32_t cps[] = {0x24, 0xA2, 0x20AC, 0x10348, 0x10FFFF};
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		char b[5] = {0};
		size_t k = tt_utf8_encode(cps[i], b);
		ck_assert_uint_eq(tt_utf8_decode(b, k, &cp), k);
		ck_assert_uint_eq(cp, cps[i]);
	}
	char b[5] = {0};
	ck_assert_uint_eq(tt_utf8_encode(0xD800, b), 3); /* a surrogate is not encoded */
	ck_assert_str_eq(b, "\xEF\xBF\xBD");
}
END_TEST

START_TEST(test_utf8_width)
{
	ck_assert_int_eq(tt_cp_width('a'), 1);
	ck_assert_int_eq(tt_cp_width(0xE9), 1);    /* é */
	ck_assert_int_eq(tt_cp_width(0x301), 0);   /* combining acute */
	ck_assert_int_eq(tt_cp_width(0x200B), 0);  /* zero width space */
	ck_assert_int_eq(tt_cp_width(0x4E2D), 2);  /* 中 */
	ck_assert_int_eq(tt_cp_width(0xAC00), 2);  /* 가 */
	ck_assert_int_eq(tt_cp_width(0x3042), 2);  /* あ */
	ck_assert_int_eq(tt_cp_width(0xFF21), 2);  /* fullwidth A */
	ck_assert_int_eq(tt_cp_width(0x1F600), 2); /* 😀 */
	ck_assert_int_eq(tt_cp_width(0x2026), 1);  /* … */
	ck_assert_int_eq(tt_cp_width(0x2588), 1);  /* █ */
	ck_assert_int_eq(tt_cp_width(0x20000), 2); /* CJK extension B */
	ck_assert_uint_eq(tt_utf8_width("matmul"), 6);
	ck_assert_uint_eq(tt_utf8_width("\xE7\x9F\xA9\xE9\x98\xB5"), 4); /* 矩阵 */
	ck_assert_uint_eq(tt_utf8_width("e\xCC\x81"), 1);                /* e + acute */
	ck_assert_uint_eq(tt_utf8_width(""), 0);
	/* cutting never splits a wide character, keeps marks with their base */
	size_t used;
	ck_assert_uint_eq(tt_utf8_cut("\xE7\x9F\xA9\xE9\x98\xB5", 3, &used), 3);
	ck_assert_uint_eq(used, 2);
	ck_assert_uint_eq(tt_utf8_cut("e\xCC\x81x", 1, &used), 3);
	ck_assert_uint_eq(used, 1);
	ck_assert_uint_eq(tt_utf8_cut("abc", 10, &used), 3);
	ck_assert_uint_eq(used, 3);
	/* fitting: the ellipsis takes the last column */
	char buf[64];
	tt_render_set_ascii(false);
	tt_utf8_fit(buf, sizeof(buf), "\xE7\x9F\xA9\xE9\x98\xB5\xE4\xB9\x98\xE6\xB3\x95", 5);
	ck_assert_str_eq(buf, "\xE7\x9F\xA9\xE9\x98\xB5\xE2\x80\xA6"); /* 矩阵… */
	ck_assert_uint_eq(tt_utf8_width(buf), 5);
	tt_utf8_fit(buf, sizeof(buf), "\xE7\x9F\xA9\xE9\x98\xB5", 4);
	ck_assert_str_eq(buf, "\xE7\x9F\xA9\xE9\x98\xB5"); /* fits exactly */
}
END_TEST

/* Columns as the C library counts them (wcswidth in C.UTF-8), an oracle
 * independent of the module; -1 when that locale is missing. */
static int libc_width(const char *s)
{
	if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "C.utf8"))
		return -1;
	wchar_t w[512];
	size_t n = mbstowcs(w, s, 511);
	int r = n == (size_t)-1 ? -1 : wcswidth(w, n);
	setlocale(LC_CTYPE, "C");
	return r;
}

/* CJK names align in text tables and in grids: every line of a table is
 * as wide on screen as the others (counted by the C library). */
START_TEST(test_cjk_table)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR},
		{.name = "calls", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("ops", cols, 2);
	const char *names[] = {"aten::mm", "\xE7\x9F\xA9\xE9\x98\xB5\xE4\xB9\x98\xE6\xB3\x95",
			       "caf\xC3\xA9", "e\xCC\x81t\xC3\xA9", "\xED\x95\x9C\xEA\xB8\x80 op"};
	for (int i = 0; i < 5; i++) {
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, names[i]);
		tt_table_set_int(t, r, 1, 10 + i);
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	tt_table_print(t, TT_FMT_TABLE, NULL, f);
	fclose(f);
	size_t want = 0;
	int lines = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		int lw = libc_width(line);
		size_t w = lw >= 0 ? (size_t)lw : tt_utf8_width(line);
		if (!lines++)
			want = w;
		ck_assert_msg(w == want, "line %d is %zu columns, the first %zu: '%s'", lines, w,
			      want, line);
	}
	ck_assert_int_eq(lines, 6);
	free(text);

	/* the same table in a grid: the calls column ends at the same cell */
	struct tt_grid g;
	tt_grid_init(&g, 40, 7);
	size_t rows[5] = {0, 1, 2, 3, 4};
	struct tt_table_view v = {.rows = rows, .nrows = 5, .sort_col = -1};
	tt_table_draw(t, &v, &g, 0, 7);
	char row[256];
	size_t end = 0;
	for (int y = 1; y <= 5; y++) {
		tt_grid_row_text(&g, y, row, sizeof(row));
		int full = libc_width(row);
		ck_assert_int_eq(full >= 0 ? full : (int)tt_utf8_width(row), 40);
		char num[8];
		snprintf(num, sizeof(num), "%d", 10 + y - 1);
		size_t k = strlen(row);
		while (k > 0 && row[k - 1] == ' ')
			row[--k] = '\0';
		ck_assert_msg(k >= 2 && strcmp(row + k - 2, num) == 0, "row %d: '%s'", y, row);
		int lw = libc_width(row);
		size_t rw = lw >= 0 ? (size_t)lw : tt_utf8_width(row);
		if (y == 1)
			end = rw;
		ck_assert_msg(rw == end, "row %d ends at %zu, row 1 at %zu: '%s'", y, rw, end, row);
	}
	tt_grid_free(&g);
	tt_table_free(t);
}
END_TEST

/* a time column's unit is in its header when the column shows a value; an
 * empty table's header, or a column of dashes, says none (text and grid) */
START_TEST(test_empty_table_no_unit)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR},
		{.name = "time", .type = TT_C_DUR},
	};
	/* mode 0: no row; 1: a row without a time; 2: a row with one */
	for (int mode = 0; mode < 3; mode++) {
		struct tt_table *t = tt_table_new("times", cols, 2);
		if (mode) {
			size_t r = tt_table_add_row(t);
			tt_table_set_str(t, r, 0, "a");
			if (mode == 2)
				tt_table_set_int(t, r, 1, 2500000);
		}
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		tt_table_print(t, TT_FMT_TABLE, NULL, f);
		fclose(f);
		ck_assert_msg(mode == 2 ? strstr(text, "time (") != NULL : strstr(text, "(") == NULL,
			      "mode %d: '%s'", mode, text);
		ck_assert_ptr_nonnull(strstr(text, "time"));
		free(text);
		struct tt_grid g;
		tt_grid_init(&g, 40, 3);
		size_t idx[1] = {0};
		struct tt_table_view v = {.rows = idx, .nrows = mode ? 1 : 0, .sort_col = -1};
		tt_table_draw(t, &v, &g, 0, 3);
		char head[256];
		tt_grid_row_text(&g, 0, head, sizeof(head));
		ck_assert_msg(mode == 2 ? strstr(head, "time (") != NULL :
					  strstr(head, "time") && !strstr(head, "("),
			      "mode %d, grid header: '%s'", mode, head);
		tt_grid_free(&g);
		tt_table_free(t);
	}
}
END_TEST

/* the grid: a wide character takes two cells; half of one is never shown */
START_TEST(test_grid_wide)
{
	struct tt_grid g;
	tt_grid_init(&g, 6, 1);
	ck_assert_int_eq(tt_grid_put(&g, 0, 0, TT_ROLE_DEFAULT, "\xE4\xB8\xAD" "a", -1), 3);
	char row[64];
	tt_grid_row_text(&g, 0, row, sizeof(row));
	ck_assert_str_eq(row, "\xE4\xB8\xAD" "a   ");
	/* writing over the right half blanks the left one */
	tt_grid_put(&g, 1, 0, TT_ROLE_DEFAULT, "b", -1);
	tt_grid_row_text(&g, 0, row, sizeof(row));
	ck_assert_str_eq(row, " ba   ");
	/* no room for the second half: a space */
	tt_grid_clear(&g);
	ck_assert_int_eq(tt_grid_put(&g, 3, 0, TT_ROLE_DEFAULT, "xy\xE4\xB8\xAD", -1), 3);
	tt_grid_row_text(&g, 0, row, sizeof(row));
	ck_assert_str_eq(row, "   xy ");
	/* combining marks take no cell */
	tt_grid_clear(&g);
	ck_assert_int_eq(tt_grid_put(&g, 0, 0, TT_ROLE_DEFAULT, "e\xCC\x81z", -1), 2);
	tt_grid_free(&g);
}
END_TEST

/* tt_u32_find_from: the answer of a search of the whole array, whatever
 * the place the last search left (ids in order, backwards, at random, on
 * arrays with repeats and gaps, empty and of one); each query's answer is
 * compared with a linear scan, and the place left is x's lower bound */
START_TEST(test_u32_find_from)
{
	uint32_t v[300];
	unsigned seed = 7;
	size_t compared = 0;
	for (size_t n = 0; n < 300; n = n * 2 + 1) {
		uint32_t x = 0;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			x += (seed >> 16) % 4; /* repeats (0) and gaps */
			v[i] = x;
		}
		size_t at = 0;
		for (int order = 0; order < 3; order++)
			for (uint32_t q = 0; q <= x + 2; q++) {
				seed = seed * 1103515245u + 12345u;
				uint32_t y = order == 0 ? q : order == 1 ? x + 2 - q : (seed >> 16) % (x + 3);
				size_t lb = 0;
				while (lb < n && v[lb] < y)
					lb++;
				bool in = tt_u32_find_from(v, n, y, &at);
				ck_assert_int_eq(in, lb < n && v[lb] == y);
				ck_assert_uint_eq(at, lb);
				compared++;
			}
	}
	ck_assert_uint_ge(compared, 1000);
}
END_TEST

/* tt_i64_dec: the text of printf's %" PRId64 "", nothing written after
 * it, for the extremes (0, -1, INT64_MIN, INT64_MAX) and each power of
 * ten, one less and one more, both signs */
START_TEST(test_i64_dec)
{
	int64_t v[4 + 6 * 19] = {0, -1, INT64_MIN, INT64_MAX};
	size_t nv = 4;
	int64_t p = 1; /* 10^e, e = 0 .. 18 (10^18 + 1 < INT64_MAX) */
	for (int e = 0; e <= 18; e++) {
		if (e > 0)
			p *= 10;
		int64_t near[3] = {p - 1, p, p + 1};
		for (int k = 0; k < 3; k++) {
			v[nv++] = near[k];
			v[nv++] = -near[k];
		}
	}
	size_t compared = 0, longest = 0;
	for (size_t i = 0; i < nv; i++) {
		char want[32], got[TT_I64_DEC_MAX + 1];
		int w = snprintf(want, sizeof(want), "%" PRId64, v[i]);
		memset(got, 'x', sizeof(got));
		size_t n = tt_i64_dec(got, v[i]);
		ck_assert_uint_eq(n, (size_t)w);
		ck_assert_uint_le(n, TT_I64_DEC_MAX);
		ck_assert_mem_eq(got, want, n);
		ck_assert_int_eq(got[n], 'x');
		longest = TT_MAX(longest, n);
		compared++;
	}
	ck_assert_uint_eq(compared, TT_ARRAY_SIZE(v));
	ck_assert_uint_eq(longest, TT_I64_DEC_MAX); /* INT64_MIN: the bound is reached */
}
END_TEST

static Suite *base_suite(void)
{
	Suite *s = suite_create("base");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_median);
	tcase_add_test(tc, test_median_select);
	tcase_add_test(tc, test_outlier_both_sides);
	tcase_add_test(tc, test_outlier_times);
	suite_add_tcase(s, tc);
	tc = tcase_create("hmap");
	tcase_add_test(tc, test_hmap_map);
	tcase_add_test(tc, test_hmap_index);
	tcase_add_test(tc, test_strtab_index);
	tcase_add_test(tc, test_u32_find_from);
	tcase_add_test(tc, test_i64_dec);
	suite_add_tcase(s, tc);
	tc = tcase_create("ranklist");
	tcase_add_test(tc, test_ranks_parse);
	tcase_add_test(tc, test_ranks_format);
	tcase_add_test(tc, test_ranks_parse_max);
	suite_add_tcase(s, tc);
	tc = tcase_create("pool");
	tcase_add_test(tc, test_parallel_for);
	tcase_add_test(tc, test_parallel_for_no_threads);
	suite_add_tcase(s, tc);
	tc = tcase_create("utf8");
	tcase_add_test(tc, test_utf8_decode);
	tcase_add_test(tc, test_utf8_width);
	tcase_add_test(tc, test_cjk_table);
	tcase_add_test(tc, test_empty_table_no_unit);
	tcase_add_test(tc, test_grid_wide);
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
