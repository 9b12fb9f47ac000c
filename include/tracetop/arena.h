/* Arena: bump allocation in large blocks, freed all at once.
 * Each loaded rank owns one; no event ever costs its own malloc. */
#ifndef TRACETOP_ARENA_H
#define TRACETOP_ARENA_H

#include <stddef.h>

struct tt_arena_block;

struct tt_arena {
	struct tt_arena_block *head;
	size_t block_size; /* default size of new blocks */
	size_t used;       /* bytes handed out, for reporting */
	size_t reserved;   /* bytes obtained from malloc */
};

void tt_arena_init(struct tt_arena *a, size_t block_size);
/* Memory aligned to 16 bytes; never NULL (dies on out of memory). */
void *tt_arena_alloc(struct tt_arena *a, size_t n);
char *tt_arena_strndup(struct tt_arena *a, const char *s, size_t n);
/* Forget everything allocated but keep the first block for reuse. */
void tt_arena_reset(struct tt_arena *a);
void tt_arena_free(struct tt_arena *a);

#endif
