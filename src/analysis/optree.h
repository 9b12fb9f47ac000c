/* analysis room, private: the pieces the TensorBoard views share.
 *
 * The op tree of a rank's CPU threads (nesting by time), the merged blocks
 * of its GPU ops, the kernel type of every GPU op name, the plugin's step
 * windows, and a small map from 64-bit keys to 32-bit values.  Arrays are
 * malloc'd and freed by the caller unless a _free() is named. */
#ifndef TRACETOP_ANALYSIS_OPTREE_H
#define TRACETOP_ANALYSIS_OPTREE_H

#include "tracetop/tbviews.h"

/* cpu_op or user_annotation X event (not a marker) */
bool tt_tb_is_op(const struct tt_rank *r, const struct tt_event *e);
/* kernel, gpu_memcpy or gpu_memset X event (not a marker) */
bool tt_tb_is_gpu_op(const struct tt_rank *r, const struct tt_event *e);

/* An array of n + 1 uint32_t, every one TT_NONE. */
uint32_t *tt_tb_none_array(uint32_t n);

/* The op tree of a rank's CPU threads, by time (start ascending, longer
 * first; an op partly overlapping an earlier one nests under it).  Arrays
 * by event index; TT_NONE where nothing applies. */
struct tt_optree {
	uint32_t *parent;   /* op -> enclosing op */
	uint32_t *owner;    /* runtime call, instant -> innermost op around it */
	uint32_t *py;       /* op -> innermost python_function around it (with python) */
	uint32_t *pyparent; /* python_function -> enclosing python_function */
	uint32_t *order;    /* the ops, parents before children */
	uint32_t norder;
};

/* Build the tree of rank r (python: also the python_function stacks).
 * Free with tt_optree_free. */
void tt_optree_build(const struct tt_rank *r, struct tt_optree *t, bool python);
void tt_optree_free(struct tt_optree *t);

/* Merged GPU op blocks of a rank (every GPU stream): all GPU ops, or the
 * computation (non-communication) or communication kernels, by the kernel
 * types of tt_tb_kernel_types (not needed for TT_TB_GPU_ALL).  Returns the
 * count; *out freed by the caller. */
enum { TT_TB_GPU_ALL, TT_TB_GPU_COMP, TT_TB_GPU_COMM };
size_t tt_tb_gpu_blocks(const struct tt_rank *r, int which, const int8_t *ktype,
			struct tt_iv **out);
/* enum tt_ktype of every GPU op name id of r (-1 for other names); an array
 * of r->strs.n + 1, freed by the caller. */
int8_t *tt_tb_kernel_types(const struct tt_rank *r);

/* The ProfilerStep#N windows of one rank (struct tt_step), by start; gpu:
 * merged blocks of all its GPU ops.  Returns the count; *out freed by the
 * caller. */
size_t tt_tb_rank_steps(const struct tt_rank *r, size_t ri, const struct tt_iv *gpu, size_t ngpu,
			struct tt_step **out);

/* A map from 64-bit keys to 32-bit values (open addressing, no removal). */
struct tt_tb_u64map {
	uint64_t *keys;
	uint32_t *vals; /* TT_NONE = empty */
	size_t cap, n;  /* cap: a power of two */
};
/* The value slot of key; a new slot holds TT_NONE (store anything else). */
uint32_t *tt_tb_u64map_slot(struct tt_tb_u64map *h, uint64_t key);
void tt_tb_u64map_free(struct tt_tb_u64map *h);

/* Id of s[0..n) interned in t, with the side array *map (TT_NONE for new
 * slots) grown to cover it. */
uint32_t tt_tb_key_index(struct tt_strtab *t, const char *s, size_t n, uint32_t **map,
			 size_t *cap);

/* Id of the NUL-terminated s in t (interned), as an index into arrays kept
 * beside t. */
static inline uint32_t tt_tb_intern(struct tt_strtab *t, const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return tt_strtab_intern(t, s, n);
}

#endif
