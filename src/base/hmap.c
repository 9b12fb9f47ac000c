/* The hash map of tracetop/hmap.h. */
#include "config.h"

#include "tracetop/hmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/err.h"
#include "tracetop/util.h"

uint64_t tt_hash_seed;

/* (before main, so before any map or string table is used, on any thread) */
__attribute__((constructor)) static void seed_init(void)
{
	uint64_t s = 0;
	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != (ssize_t)sizeof(s)) {
		/* (no entropy yet: the clock, the process and where it was
		 * loaded -- enough that a file cannot be made for it) */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s = (uint64_t)ts.tv_nsec * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)ts.tv_sec ^
		    (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&s;
	}
	tt_hash_seed = s;
}

void tt_hmap_free(struct tt_hmap *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

static void put(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key, uint32_t val)
{
	size_t i = tt_hmap_mix(key) & (cap - 1);
	while (vals[i] != TT_HMAP_NONE)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static void resize(struct tt_hmap *h, size_t cap)
{
	uint64_t *keys = tt_malloc(cap * sizeof(*keys));
	uint32_t *vals = tt_malloc(cap * sizeof(*vals));
	memset(vals, 0xff, cap * sizeof(*vals));
	for (size_t i = 0; i < h->cap; i++)
		if (h->vals[i] != TT_HMAP_NONE)
			put(keys, vals, cap, h->keys[i], h->vals[i]);
	free(h->keys);
	free(h->vals);
	h->keys = keys;
	h->vals = vals;
	h->cap = cap;
}

void tt_hmap_reserve(struct tt_hmap *h, size_t n)
{
	if (n <= h->cap / 2)
		return;
	size_t cap = h->cap ? h->cap : 64;
	while (cap / 2 < n) {
		if (cap > SIZE_MAX / 4 / sizeof(uint64_t))
			tt_die("hash map too large (%zu entries)", n);
		cap *= 2;
	}
	resize(h, cap);
}

uint32_t *tt_hmap_slot(struct tt_hmap *h, uint64_t key)
{
	tt_hmap_reserve(h, h->n + 1);
	size_t i = tt_hmap_mix(key) & (h->cap - 1);
	while (h->vals[i] != TT_HMAP_NONE) {
		if (h->keys[i] == key)
			return &h->vals[i];
		i = (i + 1) & (h->cap - 1);
	}
	h->keys[i] = key;
	h->n++;
	return &h->vals[i];
}

uint32_t tt_hmap_get(const struct tt_hmap *h, uint64_t key)
{
	size_t pos;
	return tt_hmap_first(h, key, &pos);
}

void tt_hmap_add(struct tt_hmap *h, uint64_t key, uint32_t val)
{
	tt_hmap_reserve(h, h->n + 1);
	put(h->keys, h->vals, h->cap, key, val);
	h->n++;
}

size_t tt_hmap_memsize(const struct tt_hmap *h)
{
	return h->cap * (sizeof(*h->keys) + sizeof(*h->vals));
}
