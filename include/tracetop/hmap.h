/* One hash map: 64-bit keys to 32-bit values, open addressing with linear
 * probing, at most half full.  libc only.
 *
 * Two uses:
 *   - a map: one value per key (tt_hmap_slot, tt_hmap_get);
 *   - an index over records the caller keeps (strings, tracks): the key is
 *     the record's hash and the value its index; records may share a hash,
 *     so the caller walks the candidates (tt_hmap_first / tt_hmap_next),
 *     compares the records itself, and adds a new one with tt_hmap_add.
 * Keys are mixed before use, with a seed of the process, so any key
 * distribution works (small integers, packed pairs, hashes), even one made
 * to collide.  A zeroed struct is an empty map. */
#ifndef TRACETOP_HMAP_H
#define TRACETOP_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define TT_HMAP_NONE UINT32_MAX /* no value; never stored */

struct tt_hmap {
	uint64_t *keys;
	uint32_t *vals; /* TT_HMAP_NONE: an empty slot */
	size_t n, cap;  /* entries; slots (0 or a power of two) */
};

/* A random value taken once per process, before main: mixed into every
 * key and every name's hash, so that no trace can choose ids or names
 * that all land in one place of a table (which would make each lookup a
 * walk of them all).  Nothing may depend on a hash's value beyond one
 * process (no order, no file). */
extern uint64_t tt_hash_seed;

static inline uint64_t tt_hmap_mix(uint64_t k)
{
	k ^= tt_hash_seed;
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

void tt_hmap_free(struct tt_hmap *h);
/* Make room for n entries in all (never shrinks). */
void tt_hmap_reserve(struct tt_hmap *h, size_t n);

/* The map: the value slot of key, added if missing (a new slot holds
 * TT_HMAP_NONE; store a value other than TT_HMAP_NONE in it before the
 * next call).  The pointer is valid until the next insertion. */
uint32_t *tt_hmap_slot(struct tt_hmap *h, uint64_t key);
/* The value of key, or TT_HMAP_NONE. */
uint32_t tt_hmap_get(const struct tt_hmap *h, uint64_t key);

/* The index: add (key, val) without looking for key (val != TT_HMAP_NONE). */
void tt_hmap_add(struct tt_hmap *h, uint64_t key, uint32_t val);

/* The index: the first value stored under key (TT_HMAP_NONE if none); *pos
 * keeps the place for tt_hmap_next, which gives the following ones. */
static inline uint32_t tt_hmap_next(const struct tt_hmap *h, uint64_t key, size_t *pos)
{
	if (!h->cap)
		return TT_HMAP_NONE;
	size_t mask = h->cap - 1;
	for (size_t i = *pos;; i = (i + 1) & mask) {
		uint32_t v = h->vals[i];
		if (v == TT_HMAP_NONE) {
			*pos = i;
			return TT_HMAP_NONE;
		}
		if (h->keys[i] == key) {
			*pos = (i + 1) & mask;
			return v;
		}
	}
}

static inline uint32_t tt_hmap_first(const struct tt_hmap *h, uint64_t key, size_t *pos)
{
	*pos = h->cap ? tt_hmap_mix(key) & (h->cap - 1) : 0;
	return tt_hmap_next(h, key, pos);
}

/* Bytes held by the map's arrays. */
size_t tt_hmap_memsize(const struct tt_hmap *h);

#endif
