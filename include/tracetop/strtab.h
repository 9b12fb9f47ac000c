/* String table: interns strings, returns dense uint32_t ids.
 * Id 0 is always the empty string.  Pointers returned stay valid until the
 * table is freed; strings are NUL-terminated and may not contain NUL. */
#ifndef TRACETOP_STRTAB_H
#define TRACETOP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/arena.h"
#include "tracetop/hmap.h"

#define TT_NO_STR UINT32_MAX

struct tt_strtab {
	struct tt_arena arena; /* string bytes */
	const char **str;      /* id -> string */
	uint32_t *len;         /* id -> length */
	uint32_t n, cap;
	struct tt_hmap index;  /* string hash -> id */
	uint64_t bytes;        /* total string bytes */
};

void tt_strtab_init(struct tt_strtab *t);
void tt_strtab_free(struct tt_strtab *t);
uint32_t tt_strtab_intern(struct tt_strtab *t, const char *s, size_t n);
/* Id of s or TT_NO_STR if it was never interned. */
uint32_t tt_strtab_find(const struct tt_strtab *t, const char *s, size_t n);
static inline const char *tt_strtab_get(const struct tt_strtab *t, uint32_t id)
{
	return id < t->n ? t->str[id] : "";
}
static inline uint32_t tt_strtab_len(const struct tt_strtab *t, uint32_t id)
{
	return id < t->n ? t->len[id] : 0;
}
/* Rebuild the hash index (after str/len were filled from elsewhere). */
void tt_strtab_reindex(struct tt_strtab *t);
/* Bytes used by the table (strings, index and hash). */
size_t tt_strtab_memsize(const struct tt_strtab *t);

#endif
