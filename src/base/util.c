#include "config.h"

#include "tracetop/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

int tt_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

uint64_t tt_peak_rss(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_maxrss * 1024;
}

static void msort_rec(char *a, char *tmp, size_t n, size_t size,
		      int (*cmp)(const void *, const void *, void *), void *ctx)
{
	if (n < 2)
		return;
	if (n <= 8) {
		/* insertion sort: stable */
		for (size_t i = 1; i < n; i++) {
			size_t j = i;
			memcpy(tmp, a + i * size, size);
			while (j > 0 && cmp(a + (j - 1) * size, tmp, ctx) > 0) {
				memcpy(a + j * size, a + (j - 1) * size, size);
				j--;
			}
			memcpy(a + j * size, tmp, size);
		}
		return;
	}
	size_t h = n / 2;
	msort_rec(a, tmp, h, size, cmp, ctx);
	msort_rec(a + h * size, tmp, n - h, size, cmp, ctx);
	if (cmp(a + (h - 1) * size, a + h * size, ctx) <= 0)
		return; /* already in order */
	memcpy(tmp, a, n * size);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		if (cmp(tmp + j * size, tmp + i * size, ctx) < 0)
			memcpy(a + (k++) * size, tmp + (j++) * size, size);
		else
			memcpy(a + (k++) * size, tmp + (i++) * size, size);
	}
	if (i < h)
		memcpy(a + k * size, tmp + i * size, (h - i) * size);
	if (j < n)
		memcpy(a + k * size, tmp + j * size, (n - j) * size);
}

void tt_msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	      void *ctx)
{
	if (n < 2)
		return;
	char *tmp = tt_malloc(n * size);
	msort_rec(base, tmp, n, size, cmp, ctx);
	free(tmp);
}
