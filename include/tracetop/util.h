/* Small helpers shared by every room: checked allocation, growable arrays, time. */
#ifndef TRACETOP_UTIL_H
#define TRACETOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TT_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TT_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Allocation never returns NULL: out of memory ends the program via tt_die(). */
void *tt_malloc(size_t n);
void *tt_calloc(size_t n, size_t size);
void *tt_realloc_array(void *p, size_t n, size_t size);
char *tt_strdup(const char *s);
char *tt_strndup(const char *s, size_t n);
/* s without its leading and trailing white space (cut in place) */
char *tt_trim(char *s);

/* Grow *pp (an array of *cap elements of size sz) so that it holds at least need. */
void tt_grow(void **pp, size_t *cap, size_t need, size_t sz);
#define TT_GROW(p, cap, need) tt_grow((void **)&(p), &(cap), (need), sizeof(*(p)))

/* Monotonic clock in nanoseconds. */
int64_t tt_now_ns(void);

/* Bytes allocated through the model arenas and tables, for --max-memory. */
void tt_mem_account(int64_t delta);
int64_t tt_mem_used(void);
/* Bytes of the ranks loaded and kept (whole, strings included): unlike
 * tt_mem_used(), it does not count the files still being loaded by other
 * threads, so whether a finished file fits the budget does not depend on
 * what loads beside it. */
void tt_mem_keep(int64_t delta);
int64_t tt_mem_kept(void);

/* The time i/n of the way from t0 to t1: t0 + (t1 - t0) * i / n, rounded
 * toward t0, in 128-bit arithmetic (a product of times overflows int64).
 * Needs n > 0 and 0 <= i <= n; the result lies between t0 and t1. */
static inline int64_t tt_lerp_ns(int64_t t0, int64_t t1, int64_t i, int64_t n)
{
	return (int64_t)((__int128)t0 + ((__int128)t1 - t0) * i / n);
}

/* Number of online CPUs (at least 1). */
int tt_ncpus(void);

/* Stable natural merge sort (a temporary buffer of n elements): sorted input
 * costs n comparisons, k sorted pieces n log k. */
void tt_msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	      void *ctx);

/* v in decimal into out ("0", "-12", "-9223372036854775808"), without a
 * NUL; returns the characters written, at most TT_I64_DEC_MAX. */
#define TT_I64_DEC_MAX 20
size_t tt_i64_dec(char *out, int64_t v);

/* Whether x is in the ascending v[0..n): a search that starts where the
 * last one ended (*at, 0 at first; left at x's place), stepping 1, 2, 4,
 * ... towards x, then halving.  The answer of a binary search of the whole
 * array, in O(log distance): cheap when x's come mostly in ascending order. */
bool tt_u32_find_from(const uint32_t *v, size_t n, uint32_t x, size_t *at);

#endif
