#include "config.h"

#include "tracetop/util.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/err.h"

void *tt_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		tt_die("out of memory (%zu bytes)", n);
	return p;
}

void *tt_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		tt_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *tt_realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		tt_die("allocation overflow (%zu x %zu bytes)", n, size);
	void *q = realloc(p, (n && size) ? n * size : 1);
	if (!q)
		tt_die("out of memory (%zu x %zu bytes)", n, size);
	return q;
}

char *tt_strdup(const char *s)
{
	return tt_strndup(s, strlen(s));
}

char *tt_strndup(const char *s, size_t n)
{
	char *d = tt_malloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void tt_grow(void **pp, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			tt_die("allocation overflow");
		c *= 2;
	}
	*pp = tt_realloc_array(*pp, c, sz);
	*cap = c;
}

int64_t tt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static _Atomic int64_t mem_used;

void tt_mem_account(int64_t delta)
{
	atomic_fetch_add_explicit(&mem_used, delta, memory_order_relaxed);
}

int64_t tt_mem_used(void)
{
	return atomic_load_explicit(&mem_used, memory_order_relaxed);
}

static _Atomic int64_t mem_kept;

void tt_mem_keep(int64_t delta)
{
	atomic_fetch_add_explicit(&mem_kept, delta, memory_order_relaxed);
}

int64_t tt_mem_kept(void)
{
	return atomic_load_explicit(&mem_kept, memory_order_relaxed);
}

int tt_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* one element of `size` bytes: the common sizes as moves, not a call */
static inline void el_copy(char *d, const char *s, size_t size)
{
	switch (size) {
	case 4:
		memcpy(d, s, 4);
		break;
	case 8:
		memcpy(d, s, 8);
		break;
	case 16:
		memcpy(d, s, 16);
		break;
	case 24:
		memcpy(d, s, 24);
		break;
	case 32:
		memcpy(d, s, 32);
		break;
	default:
		memcpy(d, s, size);
	}
}

/* insertion sort of a[0..n): stable; tmp holds one element */
static void isort(char *a, char *tmp, size_t n, size_t size,
		  int (*cmp)(const void *, const void *, void *), void *ctx)
{
	for (size_t i = 1; i < n; i++) {
		if (cmp(a + (i - 1) * size, a + i * size, ctx) <= 0)
			continue;
		size_t j = i;
		el_copy(tmp, a + i * size, size);
		while (j > 0 && cmp(a + (j - 1) * size, tmp, ctx) > 0) {
			el_copy(a + j * size, a + (j - 1) * size, size);
			j--;
		}
		el_copy(a + j * size, tmp, size);
	}
}

/* merge the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi) */
static void merge_runs(const char *src, char *dst, size_t lo, size_t mid, size_t hi, size_t size,
		       int (*cmp)(const void *, const void *, void *), void *ctx)
{
	size_t i = lo, j = mid, k = lo;
	while (i < mid && j < hi) {
		if (cmp(src + j * size, src + i * size, ctx) < 0)
			el_copy(dst + (k++) * size, src + (j++) * size, size);
		else
			el_copy(dst + (k++) * size, src + (i++) * size, size);
	}
	if (i < mid)
		memcpy(dst + k * size, src + i * size, (mid - i) * size);
	else if (j < hi)
		memcpy(dst + k * size, src + j * size, (hi - j) * size);
}

/* A natural merge sort: the input is cut into its ascending runs (short ones
 * extended to MIN_RUN by insertion sort), then neighbouring runs are merged
 * pairwise until one is left.  Input made of a few sorted pieces (one per
 * stream, say) costs n log(pieces) comparisons, sorted input n. */
#define MIN_RUN 16
void tt_msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	      void *ctx)
{
	if (n < 2)
		return;
	char *a = base;
	char *tmp = tt_malloc(n * size);
	size_t *run = tt_malloc((n / MIN_RUN + 2) * sizeof(*run)); /* run starts, then n */
	size_t nr = 0;
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;
		while (hi < n && cmp(a + (hi - 1) * size, a + hi * size, ctx) <= 0)
			hi++;
		if (hi - lo < MIN_RUN && hi < n) {
			hi = lo + MIN_RUN < n ? lo + MIN_RUN : n;
			isort(a + lo * size, tmp, hi - lo, size, cmp, ctx);
		}
		run[nr++] = lo;
		lo = hi;
	}
	run[nr] = n;
	char *src = a, *dst = tmp;
	while (nr > 1) {
		size_t w = 0;
		for (size_t r = 0; r < nr; r += 2) {
			if (r + 1 < nr)
				merge_runs(src, dst, run[r], run[r + 1], run[r + 2], size, cmp, ctx);
			else
				memcpy(dst + run[r] * size, src + run[r] * size,
				       (run[r + 1] - run[r]) * size);
			run[w++] = run[r];
		}
		run[w] = n;
		nr = w;
		char *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * size);
	free(run);
	free(tmp);
}

char *tt_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

size_t tt_i64_dec(char *out, int64_t v)
{
	char tmp[TT_I64_DEC_MAX];
	size_t i = sizeof(tmp);
	/* the magnitude in unsigned arithmetic: right for INT64_MIN too */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	memcpy(out, tmp + i, sizeof(tmp) - i);
	return sizeof(tmp) - i;
}

bool tt_u32_find_from(const uint32_t *v, size_t n, uint32_t x, size_t *at)
{
	size_t lo = 0, hi = n; /* v[i] < x for i < lo, v[i] >= x for i >= hi */
	size_t p = *at, step = 1;
	if (p < n && v[p] < x) {
		lo = p + 1;
		while (lo + step <= n && v[lo + step - 1] < x) {
			lo += step;
			step *= 2;
		}
		hi = TT_MIN(lo + step - 1, n);
	} else {
		hi = TT_MIN(p, n);
		while (hi >= step && v[hi - step] >= x) {
			hi -= step;
			step *= 2;
		}
		lo = hi >= step ? hi - step + 1 : 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < n && v[lo] == x;
}
