#include "config.h"

#include "tracetop/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

struct tt_arena_block {
	struct tt_arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

void tt_arena_init(struct tt_arena *a, size_t block_size)
{
	a->head = NULL;
	a->block_size = block_size ? block_size : 64 * 1024;
	a->used = 0;
	a->reserved = 0;
}

static struct tt_arena_block *new_block(struct tt_arena *a, size_t need)
{
	size_t size = a->block_size;
	if (need > size)
		size = need;
	struct tt_arena_block *b = tt_malloc(sizeof(*b) + size);
	b->size = size;
	b->used = 0;
	a->reserved += size;
	tt_mem_account((int64_t)size);
	return b;
}

void *tt_arena_alloc(struct tt_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct tt_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		struct tt_arena_block *nb = new_block(a, n);
		if (b && n > a->block_size / 4) {
			/* a big request: keep filling the current block afterwards */
			nb->next = b->next;
			b->next = nb;
			b = nb;
		} else {
			nb->next = b;
			a->head = nb;
			b = nb;
		}
	}
	void *p = b->data + b->used;
	b->used += n;
	a->used += n;
	return p;
}

char *tt_arena_strndup(struct tt_arena *a, const char *s, size_t n)
{
	char *d = tt_arena_alloc(a, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void tt_arena_reset(struct tt_arena *a)
{
	struct tt_arena_block *b = a->head;
	if (!b)
		return;
	/* keep the last block of the chain (the first allocated) */
	while (b->next) {
		struct tt_arena_block *n = b->next;
		a->reserved -= b->size;
		tt_mem_account(-(int64_t)b->size);
		free(b);
		b = n;
	}
	b->used = 0;
	a->head = b;
	a->used = 0;
}

void tt_arena_free(struct tt_arena *a)
{
	struct tt_arena_block *b = a->head;
	while (b) {
		struct tt_arena_block *n = b->next;
		tt_mem_account(-(int64_t)b->size);
		free(b);
		b = n;
	}
	a->head = NULL;
	a->used = a->reserved = 0;
}
