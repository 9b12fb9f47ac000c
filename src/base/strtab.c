#include "config.h"

#include "tracetop/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* A word-at-a-time multiplicative hash: names are 10 to 2000 bytes, and
 * interning runs once per event, so this is on the loader's hot path. */
static uint32_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xC2B2AE3D27D4EB4Full);
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
	return (uint32_t)h;
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
	free(t->hv);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static void rehash(struct tt_strtab *t, uint32_t ncap)
{
	uint32_t *h = tt_calloc(ncap, sizeof(*h));
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t i = t->hv[id] & (ncap - 1);
		while (h[i])
			i = (i + 1) & (ncap - 1);
		h[i] = id + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = ncap;
}

static uint32_t lookup(const struct tt_strtab *t, const char *s, size_t n, uint32_t hv,
		       uint32_t *slot)
{
	uint32_t i = hv & (t->hcap - 1);
	for (;;) {
		uint32_t v = t->hash[i];
		if (!v)
			break;
		uint32_t id = v - 1;
		if (t->hv[id] == hv && t->len[id] == n && memcmp(t->str[id], s, n) == 0)
			return id;
		i = (i + 1) & (t->hcap - 1);
	}
	*slot = i;
	return TT_NO_STR;
}

uint32_t tt_strtab_find(const struct tt_strtab *t, const char *s, size_t n)
{
	uint32_t slot;
	if (!t->hcap)
		return TT_NO_STR;
	return lookup(t, s, n, hash_bytes(s, n), &slot);
}

uint32_t tt_strtab_intern(struct tt_strtab *t, const char *s, size_t n)
{
	if (n > UINT32_MAX - 1)
		n = UINT32_MAX - 1;
	if ((uint64_t)(t->n + 1) * 2 > t->hcap)
		rehash(t, t->hcap ? t->hcap * 2 : 256);
	uint32_t slot = 0, hv = hash_bytes(s, n);
	uint32_t id = lookup(t, s, n, hv, &slot);
	if (id != TT_NO_STR)
		return id;
	if (t->n == t->cap) {
		uint32_t c = t->cap ? t->cap * 2 : 256;
		t->str = tt_realloc_array(t->str, c, sizeof(*t->str));
		t->len = tt_realloc_array(t->len, c, sizeof(*t->len));
		t->hv = tt_realloc_array(t->hv, c, sizeof(*t->hv));
		t->cap = c;
	}
	id = t->n++;
	t->str[id] = tt_arena_strndup(&t->arena, s, n);
	t->len[id] = (uint32_t)n;
	t->hv[id] = hv;
	t->hash[slot] = id + 1;
	t->bytes += n;
	return id;
}

void tt_strtab_reindex(struct tt_strtab *t)
{
	for (uint32_t id = 0; id < t->n; id++)
		t->hv[id] = hash_bytes(t->str[id], t->len[id]);
	uint32_t cap = 256;
	while (cap < t->n * 2 + 2)
		cap *= 2;
	rehash(t, cap);
}

size_t tt_strtab_memsize(const struct tt_strtab *t)
{
	return t->arena.reserved +
	       (size_t)t->cap * (sizeof(*t->str) + sizeof(*t->len) + sizeof(*t->hv)) +
	       (size_t)t->hcap * sizeof(*t->hash);
}
