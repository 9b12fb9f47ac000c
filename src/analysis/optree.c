/* The analysis room's shared pieces of the TensorBoard views: the op tree of
 * a rank's CPU threads, GPU op blocks, kernel types, a 64-bit key map. */
#include "config.h"

#include "optree.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

bool tt_tb_is_op(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_CPU_OP || k == TT_K_USER_ANNOT;
}

bool tt_tb_is_gpu_op(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_KERNEL || k == TT_K_MEMCPY || k == TT_K_MEMSET;
}

/* ---- a small map from 64-bit keys to indices ---- */

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

static void u64map_grow(struct tt_tb_u64map *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	uint64_t *keys = tt_malloc(cap * sizeof(*keys));
	uint32_t *vals = tt_malloc(cap * sizeof(*vals));
	memset(vals, 0xff, cap * sizeof(*vals));
	for (size_t i = 0; i < h->cap; i++) {
		if (h->vals[i] == TT_NONE)
			continue;
		size_t j = mix64(h->keys[i]) & (cap - 1);
		while (vals[j] != TT_NONE)
			j = (j + 1) & (cap - 1);
		keys[j] = h->keys[i];
		vals[j] = h->vals[i];
	}
	free(h->keys);
	free(h->vals);
	h->keys = keys;
	h->vals = vals;
	h->cap = cap;
}

/* The value slot of key; a new slot holds TT_NONE. */
uint32_t *tt_tb_u64map_slot(struct tt_tb_u64map *h, uint64_t key)
{
	if ((h->n + 1) * 2 > h->cap)
		u64map_grow(h);
	size_t j = mix64(key) & (h->cap - 1);
	while (h->vals[j] != TT_NONE) {
		if (h->keys[j] == key)
			return &h->vals[j];
		j = (j + 1) & (h->cap - 1);
	}
	h->keys[j] = key;
	h->n++;
	return &h->vals[j];
}

void tt_tb_u64map_free(struct tt_tb_u64map *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

/* ---- the op tree ---- */

uint32_t *tt_tb_none_array(uint32_t n)
{
	uint32_t *a = tt_malloc(((size_t)n + 1) * sizeof(*a));
	memset(a, 0xff, ((size_t)n + 1) * sizeof(*a));
	return a;
}

struct stack {
	uint32_t *v;
	size_t n, cap;
};

static void pop_ended(const struct tt_rank *r, struct stack *s, int64_t ts)
{
	while (s->n && tt_ev_end(&r->ev[s->v[s->n - 1]]) <= ts)
		s->n--;
}

static void push(struct stack *s, uint32_t i)
{
	TT_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = i;
}

static uint32_t top(const struct stack *s)
{
	return s->n ? s->v[s->n - 1] : TT_NONE;
}

void tt_optree_build(const struct tt_rank *r, struct tt_optree *t, bool python)
{
	memset(t, 0, sizeof(*t));
	t->parent = tt_tb_none_array(r->nev);
	t->owner = tt_tb_none_array(r->nev);
	if (python) {
		t->py = tt_tb_none_array(r->nev);
		t->pyparent = tt_tb_none_array(r->nev);
	}
	t->order = tt_malloc(((size_t)r->nev + 1) * sizeof(*t->order));
	struct stack ops = {0}, py = {0};
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_CPU)
			continue;
		ops.n = py.n = 0;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->flags & TT_EF_MARKER)
				continue;
			pop_ended(r, &ops, e->ts);
			if (python)
				pop_ended(r, &py, e->ts);
			if (tt_tb_is_op(r, e)) {
				t->parent[i] = top(&ops);
				if (python)
					t->py[i] = top(&py);
				t->order[t->norder++] = i;
				push(&ops, i);
			} else if (e->ph == 'X' && tt_ev_kind(r, e) == TT_K_PYTHON) {
				if (python) {
					t->pyparent[i] = top(&py);
					push(&py, i);
				}
			} else {
				t->owner[i] = top(&ops);
			}
		}
	}
	free(ops.v);
	free(py.v);
}

void tt_optree_free(struct tt_optree *t)
{
	free(t->parent);
	free(t->owner);
	free(t->py);
	free(t->pyparent);
	free(t->order);
	memset(t, 0, sizeof(*t));
}


size_t tt_tb_gpu_blocks(const struct tt_rank *r, int which, const int8_t *ktype,
			    struct tt_iv **out)
{
	size_t n = 0, cap = 0;
	struct tt_iv *v = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tt_tb_is_gpu_op(r, e))
				continue;
			if (which != TT_TB_GPU_ALL) {
				if (tt_ev_kind(r, e) != TT_K_KERNEL)
					continue;
				bool comm = ktype[e->name] == TT_KT_COMM;
				if ((which == TT_TB_GPU_COMM) != comm)
					continue;
			}
			TT_GROW(v, cap, n + 1);
			v[n++] = (struct tt_iv){e->ts, tt_ev_end(e)};
		}
	}
	n = tt_iv_merge(v, n);
	*out = v;
	return n;
}

int8_t *tt_tb_kernel_types(const struct tt_rank *r)
{
	int8_t *t = tt_malloc((size_t)r->strs.n + 1);
	memset(t, -1, (size_t)r->strs.n + 1);
	for (uint32_t ti = 0, i0, i1; tt_next_gpu_track(r, &ti, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (t[e->name] < 0 && (e->flags & TT_EF_STREAM))
				t[e->name] = (int8_t)tt_kernel_type(tt_ev_name(r, e), NULL);
		}
	return t;
}


/* ==== operators and source ==== */

/* Index of `s` in t, with a side array grown to match. */
uint32_t tt_tb_key_index(struct tt_strtab *t, const char *s, size_t n, uint32_t **map, size_t *cap)
{
	uint32_t id = tt_strtab_intern(t, s, n);
	if (id >= *cap) {
		size_t old = *cap;
		TT_GROW(*map, *cap, (size_t)id + 1);
		memset(*map + old, 0xff, (*cap - old) * sizeof(**map));
	}
	return id;
}

