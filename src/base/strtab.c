#include "config.h"

#include "tracetop/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* A word-at-a-time multiplicative hash: names are 10 to 2000 bytes, and
 * interning runs once per event, so this is on the loader's hot path. */
static uint64_t hash_bytes(const char *s, size_t n)
{
	/* (seeded: a trace cannot make names that share a hash) */
	uint64_t h = 0x9E3779B97F4A7C15ull ^ tt_hash_seed ^ (n * 0xC2B2AE3D27D4EB4Full);
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
	h ^= h >> 29;
	return h;
}

void tt_strtab_init(struct tt_strtab *t)
{
	memset(t, 0, sizeof(*t));
	tt_arena_init(&t->arena, 64 * 1024);
	tt_strtab_intern(t, "", 0);
}

void tt_strtab_free(struct tt_strtab *t)
{
	tt_arena_free(&t->arena);
	free(t->str);
	free(t->len);
	tt_hmap_free(&t->index);
	memset(t, 0, sizeof(*t));
}

static uint32_t lookup(const struct tt_strtab *t, const char *s, size_t n, uint64_t hv)
{
	size_t pos;
	for (uint32_t id = tt_hmap_first(&t->index, hv, &pos); id != TT_HMAP_NONE;
	     id = tt_hmap_next(&t->index, hv, &pos))
		if (t->len[id] == n && memcmp(t->str[id], s, n) == 0)
			return id;
	return TT_NO_STR;
}

uint32_t tt_strtab_find(const struct tt_strtab *t, const char *s, size_t n)
{
	return lookup(t, s, n, hash_bytes(s, n));
}

uint32_t tt_strtab_intern(struct tt_strtab *t, const char *s, size_t n)
{
	if (n > UINT32_MAX - 1)
		n = UINT32_MAX - 1;
	uint64_t hv = hash_bytes(s, n);
	uint32_t id = lookup(t, s, n, hv);
	if (id != TT_NO_STR)
		return id;
	if (t->n == t->cap) {
		uint32_t c = t->cap ? t->cap * 2 : 256;
		t->str = tt_realloc_array(t->str, c, sizeof(*t->str));
		t->len = tt_realloc_array(t->len, c, sizeof(*t->len));
		t->cap = c;
	}
	id = t->n++;
	t->str[id] = tt_arena_strndup(&t->arena, s, n);
	t->len[id] = (uint32_t)n;
	tt_hmap_add(&t->index, hv, id);
	t->bytes += n;
	return id;
}

void tt_strtab_reindex(struct tt_strtab *t)
{
	tt_hmap_free(&t->index);
	tt_hmap_reserve(&t->index, (size_t)t->n + 1);
	for (uint32_t id = 0; id < t->n; id++)
		tt_hmap_add(&t->index, hash_bytes(t->str[id], t->len[id]), id);
}

size_t tt_strtab_memsize(const struct tt_strtab *t)
{
	return t->arena.reserved +
	       (size_t)t->cap * (sizeof(*t->str) + sizeof(*t->len)) + tt_hmap_memsize(&t->index);
}
