/* The performance model analysis: TraceLens' op tree, kernel launchers,
 * perf-model rows, GPU timeline, kernel summary and short kernels, over the
 * ranks selected (perfmodel.h).
 *
 * Per rank (on the analysis threads), then merged:
 *   1. the op tree of each CPU thread, TraceLens' way: cpu_ops and runtime
 *      calls by start; an event starting inside the open one but ending
 *      after it is a sibling when it overlaps by under 1 µs and the open
 *      one has a parent, else left out of the tree;
 *   2. each GPU op's launch by correlation id; its launcher: the first
 *      cpu_op above the runtime call (a cpu_op named `execute` passed
 *      through), else the runtime call itself; communication kernels have
 *      none (TraceLens' include_nccl=False);
 *   3. the ops with a perf model and their FLOPs and bytes (pmcalc.c, once
 *      per distinct name and args);
 *   4. each forward op's backward by Sequence number (the autograd
 *      engine's evaluate_function event of the number, and the latest
 *      event of the number on another thread as the forward);
 *   5. the GPU ops under every op that needs them (launchers, modelled
 *      ops, linked backward events): walking up from each GPU op's runtime
 *      call, at most MAX_UP levels (a deeper walk is cut and counted);
 *   6. busy time (the union of the intervals) of each such set.
 * Cost: O(E log E) per rank for E events, plus GPU ops times the depth of
 * the op tree above them (bounded by MAX_UP). */
#include "config.h"

#include "tracetop/perfmodel.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/pool.h"
#include "tracetop/sort.h"
#include "tracetop/stats.h"
#include "tracetop/util.h"

#define MAX_UP 256   /* ancestors walked above one runtime call */
#define BLEED_NS 1000 /* TraceLens' overlap tolerance, 1 µs */

void tt_perf_opts_init(struct tt_perf_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->short_us = 10;
}

const char *tt_pm_timeline_name(int k)
{
	static const char *const n[TT_PMT_N] = {
		"computation_time", "exposed_comm_time", "exposed_memcpy_time", "busy_time",
		"idle_time",	    "total_time",	 "total_comm_time",	"total_memcpy_time"};
	return k >= 0 && k < TT_PMT_N ? n[k] : "";
}

/* ---- names ---- */

static bool has_ci(const char *s, const char *lit)
{
	size_t n = strlen(lit);
	for (; *s; s++) {
		size_t i = 0;
		while (i < n && s[i] && (s[i] | 0x20) == lit[i])
			i++;
		if (i == n)
			return true;
	}
	return false;
}

/* TraceLens' communication kernels: nccl, rccl (any case), cross_device_reduce */
static bool is_comm_name(const char *s)
{
	return has_ci(s, "nccl") || has_ci(s, "rccl") || strstr(s, "cross_device_reduce");
}

/* ROCm 7.1's copy and fill kernels (TraceLens' rocclr patterns) */
static bool rocclr(const char *s, const char *stem, const char *const *alts)
{
	size_t n = strlen(stem);
	if (strncmp(s, stem, n) != 0)
		return false;
	s += n;
	for (; *alts; alts++) {
		size_t k = strlen(*alts);
		if (strncmp(s, *alts, k) == 0 && (strcmp(s + k, "") == 0 || strcmp(s + k, ".kd") == 0))
			return true;
	}
	return false;
}

static bool rocm_copy(const char *s)
{
	static const char *const mc[] = {"HOST_TO_DEVICE", "DEVICE_TO_HOST", "DEVICE_TO_DEVICE", NULL};
	static const char *const cb[] = {"", "Rect", "Aligned", "RectAligned", NULL};
	return rocclr(s, "MEMORY_COPY_", mc) || rocclr(s, "__amd_rocclr_copyBuffer", cb);
}

static bool rocm_fill(const char *s)
{
	static const char *const fb[] = {"", "Aligned", NULL};
	return rocclr(s, "__amd_rocclr_fillBuffer", fb);
}

/* qsort, which may not be given NULL even for nothing to sort */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* ---- the result's strings and rows ---- */

struct kacc { /* one kernel (name, stream) under a row */
	uint32_t row;
	uint32_t name; /* result string id */
	int64_t stream;
	uint64_t count;
	int64_t sum, min, max;
};

struct inst { /* one instance's values, for the statistics */
	uint32_t row;
	uint32_t ri;
	int64_t ts;
	double time_us, tflops, tbps, pct;
	double direct_us, subtree_us; /* launchers */
};

/* a row's key: up to 8 ids (unused ones TT_NONE) */
struct tkey {
	uint32_t v[8];
};

struct tindex {
	struct tt_hmap h;
	struct tkey *keys;
	size_t cap;
};

/* The row of key k among n rows so far: its index, or n when new (then
 * the caller adds row n). */
static uint32_t tfind(struct tindex *x, size_t n, const struct tkey *k)
{
	uint64_t hv = 0;
	for (int i = 0; i < 8; i++)
		hv = tt_hmap_mix(hv ^ k->v[i]) + (uint64_t)i;
	size_t pos = 0;
	for (uint32_t q = tt_hmap_first(&x->h, hv, &pos); q != TT_HMAP_NONE;
	     q = tt_hmap_next(&x->h, hv, &pos))
		if (memcmp(&x->keys[q], k, sizeof(*k)) == 0)
			return q;
	TT_GROW(x->keys, x->cap, n + 1);
	x->keys[n] = *k;
	tt_hmap_add(&x->h, hv, (uint32_t)n);
	return (uint32_t)n;
}

static void tindex_free(struct tindex *x)
{
	tt_hmap_free(&x->h);
	free(x->keys);
}

struct acc {
	struct tt_perf *p;
	pthread_mutex_t mu;
	/* the ranks merge in their order, whatever the order they finish in:
	 * each row's "first" instance and every sum the same on every run */
	pthread_cond_t turn;
	size_t next_merge;
	const struct tt_perf_opts *o;
	size_t nsel;
	/* modelled rows */
	struct tindex rowix;
	size_t crows;
	struct inst *ri_v;
	size_t nri, cri;
	struct kacc *rk;
	size_t nrk, crk;
	struct tt_hmap rkmap; /* (row, name, stream) -> rk */
	double *rflops;       /* per row: FLOPs over its instances */
	uint64_t *rranks;     /* per row: a bit per rank (first 64), for nranks */
	/* launchers */
	struct tindex lix;
	size_t claunch;
	struct inst *li_v;
	size_t nli, cli;
	struct kacc *lk;
	size_t nlk, clk;
	struct tt_hmap lkmap;
	/* ops_summary */
	uint32_t *omap;
	size_t comap, cops;
	/* kernel summary */
	struct tt_hmap ksmap;
	size_t cksum;
	struct {
		uint32_t name, parent;
		int cat;
	} *kskey;
	/* short kernels */
	struct tindex six;
	size_t cshort;
	double *short_durs;
	size_t nsd, csd;
};

static uint32_t intern(struct acc *a, const char *s)
{
	return tt_strtab_intern(&a->p->strs, s, strlen(s));
}

static const char *istr(struct acc *a, const char *s)
{
	if (!s)
		return NULL;
	return tt_strtab_get(&a->p->strs, intern(a, s));
}

/* a slot of a map from result string ids to indices (TT_NONE: new) */
static uint32_t *map_slot(uint32_t **map, size_t *cap, uint32_t id)
{
	if (id >= *cap) {
		size_t old = *cap, n = TT_MAX((size_t)id + 1, 2 * old);
		*map = tt_realloc_array(*map, n, sizeof(**map));
		memset(*map + old, 0xff, (n - old) * sizeof(**map));
		*cap = n;
	}
	return &(*map)[id];
}

static void kacc_add(struct kacc **v, size_t *n, size_t *cap, struct tt_hmap *h, uint32_t row,
		     uint32_t name, int64_t stream, int64_t dur)
{
	uint64_t key = tt_hmap_mix(((uint64_t)row << 32 | name) ^ ((uint64_t)stream * 0x9E3779B97F4A7C15ull));
	size_t pos = 0;
	for (uint32_t k = tt_hmap_first(h, key, &pos); k != TT_HMAP_NONE;
	     k = tt_hmap_next(h, key, &pos)) {
		struct kacc *x = &(*v)[k];
		if (x->row == row && x->name == name && x->stream == stream) {
			x->count++;
			tt_sat_acc(&x->sum, dur);
			x->min = TT_MIN(x->min, dur);
			x->max = TT_MAX(x->max, dur);
			return;
		}
	}
	TT_GROW(*v, *cap, *n + 1);
	(*v)[*n] = (struct kacc){row, name, stream, 1, dur, dur, dur};
	tt_hmap_add(h, key, (uint32_t)*n);
	(*n)++;
}

/* ---- one rank ---- */

struct gop {            /* a GPU op */
	uint32_t ev;
	uint32_t name;      /* its name (rank string id) */
	uint32_t call;      /* its runtime call, TT_NONE: no launch */
	uint32_t launcher;  /* TT_NONE: none (communication, no launch) */
	uint32_t pop;       /* the first cpu_op above its call (parent_op), TT_NONE */
	uint32_t pname;     /* that op's name, else the call's; TT_NONE: no call */
	int64_t ts, end;
	uint8_t kind;       /* enum tt_cat_kind */
	uint8_t cls;        /* 0 computation, 1 communication, 2 memcpy */
	uint32_t track;
};

struct pair {
	uint32_t node;      /* wanted node */
	uint32_t g;         /* gop index */
	int64_t ts;
};

/* the ids a calc is computed from: the op's name and args */
struct calckey {
	uint32_t id[5]; /* name, dims, types, strides, concrete */
};

struct rinst {          /* a modelled op instance */
	uint32_t ev;
	int64_t ts;         /* its start */
	uint32_t calc;      /* into calcs */
	uint32_t depth;
	bool kept;
	bool own_bwd;       /* it is the forward of a backward (TraceLens' row test) */
};

struct seqev { /* an op with a Sequence number, and what link_bwd reads of it */
	int64_t seq;
	uint32_t ev;
	uint32_t track;
	int64_t ts;
	bool ef; /* its name starts "autograd::engine::evaluate_function:" */
};

/* a forward op instance and one backward event of it */
struct blink {
	uint32_t inst, bwd;
};

struct rctx {
	const struct tt_rank *r;
	size_t ri;
	const struct tt_gpu_peak *gpu;
	uint32_t *parent;   /* by event: tree parent */
	uint8_t *intree;
	uint32_t *wid;      /* by event: wanted node id */
	uint32_t nwanted;
	int8_t *comm, *model; /* by name id: -1 unknown */
	int8_t *isef;       /* by name id: a backward's name, -1 unknown */
	int8_t *catname;    /* by name id: category by name, -1 unknown */
	int8_t *kcat;       /* by kernel name id: category by kernel name, -1 unknown */
	struct gop *g;
	uint32_t ng;
	size_t cg;
	uint32_t lcur;      /* tt_launch_of_from's place */
	struct pair *pairs;
	size_t npairs, cpairs;
	uint32_t *node_first; /* by node: [first, next first) into pairs */
	/* modelled */
	struct tt_pm_calc *calcs;
	struct calckey *calckeys; /* what each calc was computed from */
	uint32_t ncalcs;
	size_t ccalcs;
	struct tt_hmap calcmap;   /* calckey -> calc */
	struct rinst *inst;
	uint32_t ninst;
	size_t cinst;
	uint32_t *inst_of;  /* by event: instance, TT_NONE */
	/* the ops with a Sequence number (link_bwd) */
	struct seqev *seqv;
	size_t nseq, cseq;
	/* linked backward: (instance, bwd event) */
	struct blink *bl;
	size_t nbl, cbl;
	uint32_t *bl_first; /* by instance: [first, next first) into bl */
	uint64_t depth_cut;
	uint64_t unmodelled;
	const char *why;
	char whybuf[256];
};

static bool is_cpu_op(const struct tt_rank *r, const struct tt_event *e)
{
	return e->ph == 'X' && !(e->flags & TT_EF_MARKER) && tt_ev_kind(r, e) == TT_K_CPU_OP;
}

/* 1. the op tree of a CPU thread, TraceLens' way, one event at a time
 * (cpu_ops and runtime calls, by start): the ancestors of the next event
 * on a stack */
struct tstack {
	uint32_t *v;
	size_t n, cap;
};

/* Puts event i (the thread's next) in the tree; returns its depth (its
 * ancestors, at most MAX_UP), TT_NONE when it is left out of the tree.
 * (Each event on the stack is the parent of the one above it: an event
 * is only pushed on its parent, and only the top is ever popped.) */
static uint32_t tree_add(struct rctx *x, struct tstack *st, uint32_t i)
{
	const struct tt_event *ev = x->r->ev, *e = &ev[i];
	int64_t ts = e->ts, end = tt_ev_end(e);
	size_t n = st->n;
	while (n && ts >= tt_ev_end(&ev[st->v[n - 1]]))
		n--;
	if (n && end > tt_ev_end(&ev[st->v[n - 1]])) {
		int64_t ov = tt_ev_end(&ev[st->v[n - 1]]) - ts;
		if (ov < BLEED_NS && n >= 2)
			n--;
		else
			return st->n = n, TT_NONE; /* left out of the tree */
	}
	x->intree[i] = 1;
	x->parent[i] = n ? st->v[n - 1] : TT_NONE;
	TT_GROW(st->v, st->cap, n + 1);
	st->v[n++] = i;
	st->n = n;
	return (uint32_t)TT_MIN(n - 1, (size_t)MAX_UP);
}

static bool comm_name(struct rctx *x, uint32_t name)
{
	if (x->comm[name] < 0)
		x->comm[name] = is_comm_name(tt_str(x->r, name));
	return x->comm[name];
}

/* the first cpu_op above a runtime call (no pass-through), TT_NONE */
static uint32_t parent_op(const struct rctx *x, uint32_t call)
{
	uint32_t p = x->intree[call] ? x->parent[call] : TT_NONE;
	for (int up = 0; p != TT_NONE && up < MAX_UP; up++, p = x->parent[p])
		if (is_cpu_op(x->r, &x->r->ev[p]))
			return p;
	return TT_NONE;
}

/* 2. a GPU op (event i of track t) */
static void gop_add(struct rctx *x, uint32_t i, uint32_t t)
{
	const struct tt_rank *r = x->r;
	const struct tt_event *e = &r->ev[i];
	TT_GROW(x->g, x->cg, (size_t)x->ng + 1);
	struct gop *g = &x->g[x->ng++];
	g->ev = i;
	g->name = e->name;
	g->track = t;
	g->ts = e->ts;
	g->end = tt_ev_end(e);
	g->kind = (uint8_t)tt_ev_kind(r, e);
	g->call = tt_launch_of_from(r, i, &x->lcur);
	const char *nm = tt_ev_name(r, e);
	if (g->kind == TT_K_MEMCPY || (g->kind == TT_K_KERNEL && rocm_copy(nm)))
		g->cls = 2;
	else if (g->kind == TT_K_KERNEL && rocm_fill(nm))
		g->cls = 0;
	else
		g->cls = comm_name(x, e->name) ? 1 : 0;
}

/* each GPU op's parent op and launcher, once the trees are built */
static void find_launchers(struct rctx *x)
{
	const struct tt_rank *r = x->r;
	for (uint32_t k = 0; k < x->ng; k++) {
		struct gop *g = &x->g[k];
		g->launcher = TT_NONE;
		g->pop = g->pname = TT_NONE;
		if (g->call == TT_NONE)
			continue;
		/* (read here, where the walk below reads the same events) */
		g->pop = parent_op(x, g->call);
		g->pname = r->ev[g->pop != TT_NONE ? g->pop : g->call].name;
		if (comm_name(x, g->name))
			continue;
		uint32_t p = x->intree[g->call] ? x->parent[g->call] : TT_NONE, l = TT_NONE;
		for (int up = 0; p != TT_NONE && up < MAX_UP; up++) {
			const struct tt_event *pe = &r->ev[p];
			if (!is_cpu_op(r, pe))
				break;
			if (strcmp(tt_ev_name(r, pe), "execute") == 0) {
				p = x->parent[p];
				continue;
			}
			l = p;
			break;
		}
		g->launcher = l != TT_NONE ? l : g->call;
	}
}

/* the args of event e as rank string ids: dims, types, strides, concrete
 * (TT_NONE: absent) */
static void arg_ids(const struct tt_rank *r, const struct tt_event *e, uint32_t *v)
{
	v[0] = v[1] = v[2] = v[3] = TT_NONE;
	if (!(e->flags & TT_EF_OPINFO) || e->aux >= r->nopinfo)
		return;
	const struct tt_opinfo *o = &r->opinfo[e->aux];
	v[0] = o->input_dims;
	v[1] = o->input_type;
	v[2] = o->input_strides;
	v[3] = o->concrete;
}

/* the args of a cpu_op as text (NULL: absent) */
static void op_args(const struct tt_rank *r, uint32_t i, struct tt_pm_args *a)
{
	const struct tt_event *e = &r->ev[i];
	memset(a, 0, sizeof(*a));
	a->name = tt_ev_name(r, e);
	if (!(e->flags & TT_EF_OPINFO) || e->aux >= r->nopinfo)
		return;
	const struct tt_opinfo *o = &r->opinfo[e->aux];
	a->dims = o->input_dims != TT_NONE ? tt_str(r, o->input_dims) : NULL;
	a->types = o->input_type != TT_NONE ? tt_str(r, o->input_type) : NULL;
	a->strides = o->input_strides != TT_NONE ? tt_str(r, o->input_strides) : NULL;
	a->concrete = o->concrete != TT_NONE ? tt_str(r, o->concrete) : NULL;
}

/* the calc of op i: computed once per (name, args) */
static uint32_t calc_of(struct rctx *x, uint32_t i)
{
	const struct tt_rank *r = x->r;
	const struct tt_event *e = &r->ev[i];
	struct calckey k = {{e->name}};
	arg_ids(r, e, &k.id[1]);
	uint64_t hv = 0;
	for (int q = 0; q < 5; q++)
		hv = tt_hmap_mix(hv ^ k.id[q]) + (uint64_t)q;
	size_t pos = 0;
	for (uint32_t c = tt_hmap_first(&x->calcmap, hv, &pos); c != TT_HMAP_NONE;
	     c = tt_hmap_next(&x->calcmap, hv, &pos))
		if (memcmp(&x->calckeys[c], &k, sizeof(k)) == 0)
			return c;
	/* new */
	TT_GROW(x->calcs, x->ccalcs, (size_t)x->ncalcs + 1);
	x->calckeys = tt_realloc_array(x->calckeys, x->ccalcs, sizeof(*x->calckeys));
	x->calckeys[x->ncalcs] = k;
	struct tt_pm_args a;
	op_args(r, i, &a);
	if (tt_pm_calc(&a, &x->calcs[x->ncalcs]) != 0)
		x->calcs[x->ncalcs].family = TT_PMF_COUNT; /* not modelled */
	tt_hmap_add(&x->calcmap, hv, x->ncalcs);
	return x->ncalcs++;
}

/* The instances deepest first, then by event: a counting sort by depth
 * (at most MAX_UP), stable, of instances found in event order. */
static void sort_inst_depth(struct rinst *v, uint32_t n)
{
	if (n < 2)
		return;
	size_t at[MAX_UP + 2] = {0};
	for (uint32_t k = 0; k < n; k++)
		at[MAX_UP - v[k].depth + 1]++;
	for (size_t d = 0; d <= MAX_UP; d++)
		at[d + 1] += at[d];
	struct rinst *t = tt_malloc((size_t)n * sizeof(*t));
	for (uint32_t k = 0; k < n; k++)
		t[at[MAX_UP - v[k].depth]++] = v[k];
	memcpy(v, t, (size_t)n * sizeof(*v));
	free(t);
}

/* 3. the modelled ops: each op with a model name and args that give the
 * shapes; a composite only when no modelled op is under it.  A cpu_op
 * (event i, depth in the tree: 0 when not in a tree) with a model name: */
static void model_add(struct rctx *x, uint32_t i, uint32_t depth)
{
	const struct tt_rank *r = x->r;
	const struct tt_event *e = &r->ev[i];
	if (x->model[e->name] < 0)
		x->model[e->name] = tt_pm_has_model(tt_ev_name(r, e));
	if (!x->model[e->name])
		return;
	uint32_t c = calc_of(x, i);
	TT_GROW(x->inst, x->cinst, (size_t)x->ninst + 1);
	x->inst[x->ninst++] = (struct rinst){i, e->ts, c, depth, false, false};
}

/* ... the modelled ops kept, deepest first */
static void keep_models(struct rctx *x)
{
	const struct tt_rank *r = x->r;
	sort_inst_depth(x->inst, x->ninst);
	uint8_t *covered = tt_calloc((size_t)r->nev + 1, 1);
	for (uint32_t k = 0; k < x->ninst; k++) {
		struct rinst *in = &x->inst[k];
		const struct tt_pm_calc *c = &x->calcs[in->calc];
		if (c->family == TT_PMF_COUNT) {
			x->unmodelled++;
			if (!x->why) {
				snprintf(x->whybuf, sizeof(x->whybuf), "%s", c->why);
				x->why = x->whybuf;
			}
			continue;
		}
		if (c->composite && covered[in->ev])
			continue;
		in->kept = true;
		for (uint32_t p = x->intree[in->ev] ? x->parent[in->ev] : TT_NONE, up = 0;
		     p != TT_NONE && up < MAX_UP && !covered[p]; p = x->parent[p], up++)
			covered[p] = 1;
	}
	free(covered);
	/* compact: the kept ones, in event order */
	uint32_t n = 0;
	for (uint32_t k = 0; k < x->ninst; k++)
		if (x->inst[k].kept)
			x->inst[n++] = x->inst[k];
	x->ninst = n;
	for (uint32_t k = 0; k < n; k++)
		x->inst[k].depth = 0;
	x->inst_of = tt_malloc(((size_t)r->nev + 1) * sizeof(*x->inst_of));
	memset(x->inst_of, 0xff, ((size_t)r->nev + 1) * sizeof(*x->inst_of));
	for (uint32_t k = 0; k < n; k++)
		x->inst_of[x->inst[k].ev] = k;
}

static int seq_cmp(const void *a, const void *b)
{
	const struct seqev *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}
static inline bool seq_before(const struct seqev *a, const struct seqev *b)
{
	return seq_cmp(a, b) < 0;
}
TT_STABLE_SORT(sort_seq, struct seqev, seq_before)

/* 4. forward -> backward by Sequence number, for the ops with a backward
 * row (TraceLens' link_all_fwd_bwd_events and get_subtree_bwd_events).
 * A cpu_op (event i) with its Sequence number, if any: */
static void seq_add(struct rctx *x, uint32_t i)
{
	const struct tt_rank *r = x->r;
	const struct tt_event *e = &r->ev[i];
	if (!(e->flags & TT_EF_OPINFO) || e->aux >= r->nopinfo)
		return;
	int64_t s = r->opinfo[e->aux].seq;
	if (s < 0)
		return;
	static const char ef[] = "autograd::engine::evaluate_function:";
	if (x->isef[e->name] < 0)
		x->isef[e->name] = strncmp(tt_ev_name(r, e), ef, sizeof(ef) - 1) == 0;
	TT_GROW(x->seqv, x->cseq, x->nseq + 1);
	x->seqv[x->nseq++] = (struct seqev){s, i, e->track, e->ts, x->isef[e->name]}; /* (tt_track_of) */
}

/* ... the links, once the modelled ops are known */
static void link_bwd(struct rctx *x)
{
	bool any = false;
	for (uint32_t k = 0; k < x->ninst && !any; k++)
		any = x->calcs[x->inst[k].calc].has_bwd;
	if (!any)
		return;
	struct seqev *v = x->seqv;
	size_t n = x->nseq;
	sort_seq(v, n);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && v[b].seq == v[a].seq; b++)
			;
		uint32_t bwd = TT_NONE, bt = TT_NONE;
		for (size_t k = a; k < b && bwd == TT_NONE; k++)
			if (v[k].ef)
				bwd = v[k].ev, bt = v[k].track;
		if (bwd == TT_NONE)
			continue;
		uint32_t fwd = TT_NONE;
		int64_t fts = -1;
		for (size_t k = a; k < b; k++) {
			if (v[k].track == bt)
				continue;
			if (v[k].ts > fts) {
				fts = v[k].ts;
				fwd = v[k].ev;
			}
		}
		if (fwd == TT_NONE)
			continue;
		if (x->inst_of[fwd] != TT_NONE)
			x->inst[x->inst_of[fwd]].own_bwd = true;
		/* every modelled op at or above the forward gets the backward */
		for (uint32_t p = fwd, up = 0; p != TT_NONE && up < MAX_UP; up++) {
			uint32_t k = x->inst_of[p];
			if (k != TT_NONE && x->calcs[x->inst[k].calc].has_bwd) {
				TT_GROW(x->bl, x->cbl, x->nbl + 1);
				x->bl[x->nbl].inst = k;
				x->bl[x->nbl].bwd = bwd;
				x->nbl++;
			}
			p = x->intree[p] ? x->parent[p] : TT_NONE;
		}
	}
}

/* 1.-4.: one pass over the rank's events, track by track (the tracks
 * hold the events in index order): the op trees of the CPU threads
 * (their cpu_ops and runtime calls), the GPU ops (kernels, memcpy,
 * memset), the ops with a model and those with a Sequence number (any
 * cpu_op) */
static void scan_rank(struct rctx *x)
{
	const struct tt_rank *r = x->r;
	struct tstack st = {0};
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		bool cpu = tr->kind == TT_TRACK_CPU;
		st.n = 0;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
				continue;
			switch (tt_ev_kind(r, e)) {
			case TT_K_CPU_OP: {
				uint32_t depth = cpu ? tree_add(x, &st, i) : TT_NONE;
				model_add(x, i, depth != TT_NONE ? depth : 0);
				seq_add(x, i);
				break;
			}
			case TT_K_RUNTIME:
			case TT_K_DRIVER:
				if (cpu)
					tree_add(x, &st, i);
				break;
			case TT_K_KERNEL:
			case TT_K_MEMCPY:
			case TT_K_MEMSET:
				gop_add(x, i, t);
				break;
			default:
				break;
			}
		}
	}
	free(st.v);
}

/* the backward links by instance (a counting sort: each instance's in the
 * order found): bl_first[k] to bl_first[k + 1] */
static void index_bwd(struct rctx *x)
{
	x->bl_first = tt_calloc((size_t)x->ninst + 2, sizeof(*x->bl_first));
	for (size_t q = 0; q < x->nbl; q++)
		x->bl_first[x->bl[q].inst + 2]++;
	for (uint32_t k = 0; k < x->ninst; k++)
		x->bl_first[k + 2] += x->bl_first[k + 1];
	struct blink *sorted = tt_malloc((x->nbl + 1) * sizeof(*sorted));
	for (size_t q = 0; q < x->nbl; q++)
		sorted[x->bl_first[x->bl[q].inst + 1]++] = x->bl[q];
	free(x->bl);
	x->bl = sorted;
}

/* GPU ops by start, then index */
static int gts_cmp(const void *a, const void *b, void *ctx)
{
	const struct gop *base = ctx;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct gop *g = &base[i], *h = &base[j];
	if (g->ts != h->ts)
		return g->ts < h->ts ? -1 : 1;
	return i < j ? -1 : i > j;
}

struct gkey { /* a GPU op's sort key, and the op */
	int64_t ts;
	uint32_t a, e, k;
};

/* (a, ts, e): with a 0 and e the op's index, gts_cmp; with a the launcher
 * and e the event, the launchers' direct kernels grouped by launcher, each
 * by start then event */
static inline bool gkey_before(const struct gkey *x, const struct gkey *y)
{
	if (x->a != y->a)
		return x->a < y->a;
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return x->e < y->e;
}
TT_STABLE_SORT(sort_gkey, struct gkey, gkey_before)

/* The GPU ops' indices into ord, sorted: all of them by start, then index
 * (gts_cmp's order); or, by_launcher, those with a launcher, by launcher,
 * start, event (the launchers' direct kernels grouped).  Returns how
 * many. */
static uint32_t gops_sorted(const struct rctx *x, bool by_launcher, uint32_t *ord)
{
	struct gkey *v = tt_malloc(((size_t)x->ng + 1) * sizeof(*v));
	uint32_t n = 0;
	for (uint32_t k = 0; k < x->ng; k++) {
		const struct gop *g = &x->g[k];
		if (!by_launcher)
			v[n++] = (struct gkey){g->ts, 0, k, k};
		else if (g->launcher != TT_NONE)
			v[n++] = (struct gkey){g->ts, g->launcher, g->ev, k};
	}
	sort_gkey(v, n);
	for (uint32_t k = 0; k < n; k++)
		ord[k] = v[k].k;
	free(v);
	return n;
}

static void want(struct rctx *x, uint32_t ev)
{
	if (x->wid[ev] == TT_NONE)
		x->wid[ev] = x->nwanted++;
}

/* 5. the GPU ops under every wanted node */
static void gather(struct rctx *x)
{
	for (uint32_t k = 0; k < x->ng; k++)
		if (x->g[k].launcher != TT_NONE)
			want(x, x->g[k].launcher);
	for (uint32_t k = 0; k < x->ninst; k++)
		want(x, x->inst[k].ev);
	for (size_t k = 0; k < x->nbl; k++)
		want(x, x->bl[k].bwd);
	/* the pairs (wanted node, GPU op) by node, then by the op's start and
	 * index: the ops taken in that order, then a counting sort by node
	 * (stable), no comparison of pairs */
	uint32_t *ord = tt_malloc(((size_t)x->ng + 1) * sizeof(*ord));
	gops_sorted(x, false, ord);
	struct pair *tmp = NULL;
	size_t ntmp = 0, ctmp = 0;
	x->node_first = tt_calloc((size_t)x->nwanted + 2, sizeof(*x->node_first));
	for (uint32_t o = 0; o < x->ng; o++) {
		uint32_t k = ord[o];
		const struct gop *g = &x->g[k];
		if (g->call == TT_NONE)
			continue;
		uint32_t p = g->call, up = 0;
		for (; p != TT_NONE && up < MAX_UP; up++) {
			if (x->wid[p] != TT_NONE) {
				TT_GROW(tmp, ctmp, ntmp + 1);
				tmp[ntmp++] = (struct pair){x->wid[p], k, g->ts};
				x->node_first[x->wid[p] + 1]++;
			}
			p = x->intree[p] ? x->parent[p] : TT_NONE;
		}
		if (p != TT_NONE)
			x->depth_cut++;
	}
	free(ord);
	for (uint32_t i = 0; i < x->nwanted; i++)
		x->node_first[i + 1] += x->node_first[i];
	uint32_t *at = tt_malloc(((size_t)x->nwanted + 1) * sizeof(*at));
	memcpy(at, x->node_first, ((size_t)x->nwanted + 1) * sizeof(*at));
	x->pairs = tt_malloc((ntmp + 1) * sizeof(*x->pairs));
	x->npairs = x->cpairs = ntmp;
	for (size_t i = 0; i < ntmp; i++)
		x->pairs[at[tmp[i].node]++] = tmp[i];
	free(at);
	free(tmp);
}

/* 6. busy time of GPU ops (sorted by start): the union's length, ns */
static int64_t busy(const struct rctx *x, const uint32_t *gi, size_t n)
{
	int64_t sum = 0, s = 0, e = 0;
	bool open = false;
	for (size_t i = 0; i < n; i++) {
		const struct gop *g = &x->g[gi[i]];
		if (!open || g->ts > e) {
			if (open)
				sum += e - s;
			s = g->ts, e = g->end, open = true;
		} else if (g->end > e) {
			e = g->end;
		}
	}
	return open ? sum + e - s : 0;
}

static int64_t node_busy(const struct rctx *x, uint32_t node, uint32_t **buf, size_t *cap)
{
	uint32_t a = x->node_first[node], b = x->node_first[node + 1];
	TT_GROW(*buf, *cap, (size_t)(b - a) + 1);
	for (uint32_t i = a; i < b; i++)
		(*buf)[i - a] = x->pairs[i].g;
	return busy(x, *buf, b - a);
}

/* ---- the classes timeline (TraceLens' GPUEventAnalyser) ---- */

static int iv_cmp(const void *a, const void *b)
{
	const struct tt_iv *x = a, *y = b;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}
static inline bool iv_before(const struct tt_iv *a, const struct tt_iv *b)
{
	return iv_cmp(a, b) < 0;
}
TT_STABLE_SORT(sort_iv, struct tt_iv, iv_before)

/* merge (TraceLens: an interval joins when start <= the last end) */
static size_t merge(struct tt_iv *v, size_t n)
{
	if (!n)
		return 0;
	sort_iv(v, n);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].ts <= v[k].end) {
			if (v[i].end > v[k].end)
				v[k].end = v[i].end;
		} else {
			v[++k] = v[i];
		}
	}
	return k + 1;
}

static void timeline(const struct rctx *x, bool linked_only, double *out)
{
	struct tt_iv *c[4];
	size_t n[4] = {0};
	for (int i = 0; i < 4; i++)
		c[i] = tt_malloc(((size_t)x->ng + 1) * sizeof(struct tt_iv));
	for (uint32_t k = 0; k < x->ng; k++) {
		const struct gop *g = &x->g[k];
		if (linked_only && g->call == TT_NONE)
			continue;
		struct tt_iv iv = {g->ts, g->end};
		c[3][n[3]++] = iv;
		c[g->cls][n[g->cls]++] = iv;
	}
	for (int i = 0; i < TT_PMT_N; i++)
		out[i] = 0;
	if (!n[3])
		goto done;
	for (int i = 0; i < 4; i++)
		n[i] = merge(c[i], n[i]);
	int64_t total = c[3][n[3] - 1].end - c[3][0].ts;
	int64_t comp = tt_iv_total(c[0], n[0]), comm = tt_iv_total(c[1], n[1]),
		mcp = tt_iv_total(c[2], n[2]), all = tt_iv_total(c[3], n[3]);
	struct tt_iv *ec = NULL, *m1 = NULL, *m2 = NULL;
	size_t nec = tt_iv_sub(c[1], n[1], c[0], n[0], &ec);
	size_t nm1 = tt_iv_sub(c[2], n[2], c[0], n[0], &m1);
	size_t nm2 = tt_iv_sub(m1, nm1, c[1], n[1], &m2);
	out[TT_PMT_COMP] = comp / 1e3;
	out[TT_PMT_EXPOSED_COMM] = tt_iv_total(ec, nec) / 1e3;
	out[TT_PMT_EXPOSED_MEMCPY] = tt_iv_total(m2, nm2) / 1e3;
	out[TT_PMT_BUSY] = all / 1e3;
	out[TT_PMT_IDLE] = (total - all) / 1e3;
	out[TT_PMT_TOTAL] = total / 1e3;
	out[TT_PMT_TOTAL_COMM] = comm / 1e3;
	out[TT_PMT_TOTAL_MEMCPY] = mcp / 1e3;
	free(ec);
	free(m1);
	free(m2);
done:
	for (int i = 0; i < 4; i++)
		free(c[i]);
}

/* ---- categories ---- */

/* the category of an op of another category by name, by the name of its
 * first kernel */
static int cat_by_kernel(const char *k)
{
	if (strncmp(k, "void at::native", 15) != 0)
		return TT_PMC_OTHER;
	if (strstr(k, "elementwise"))
		return TT_PMC_ELEMENTWISE;
	if (strstr(k, "reduce"))
		return TT_PMC_REDUCE;
	if (strstr(k, "multi_tensor_apply"))
		return TT_PMC_MTA;
	return TT_PMC_OTHER;
}

/* TraceLens' categorize_torch_op of an op named nid: by name, then the
 * first (by start) of the kernels it launched (gi: sorted by start; n may
 * be 0); each name's answer computed once */
static int categorize(const struct rctx *x, uint32_t nid, const uint32_t *gi, size_t n)
{
	if (x->catname[nid] < 0)
		x->catname[nid] = (int8_t)tt_pm_cat_by_name(tt_str(x->r, nid));
	int c = x->catname[nid];
	if (c != TT_PMC_OTHER || !n)
		return c;
	uint32_t k = x->g[gi[0]].name;
	if (x->kcat[k] < 0)
		x->kcat[k] = (int8_t)cat_by_kernel(tt_str(x->r, k));
	return x->kcat[k];
}

/* ---- merging a rank into the result ---- */

static const char *thread_key(const struct acc *a, const char *label, char *buf, size_t n)
{
	/* several ranks: "thread 4515 (python3.8)" -> "thread (python3.8)",
	 * the same thread on every rank */
	if (a->nsel > 1 && strncmp(label, "thread ", 7) == 0) {
		const char *p = label + 7;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p > label + 7 && *p == ' ') {
			snprintf(buf, n, "thread%s", p);
			return buf;
		}
	}
	return label;
}

/* the result's string id of rank string id (TT_NONE stays TT_NONE),
 * through a per-rank cache */
static uint32_t rid(struct acc *a, uint32_t *cache, const struct tt_rank *r, uint32_t id)
{
	if (id == TT_NONE || id >= r->strs.n)
		return TT_NONE;
	if (cache[id] == TT_NONE)
		cache[id] = tt_strtab_intern(&a->p->strs, tt_str(r, id), tt_strtab_len(&r->strs, id));
	return cache[id];
}

static const char *rstr(const struct acc *a, uint32_t id)
{
	return id == TT_NONE ? NULL : tt_strtab_get(&a->p->strs, id);
}

/* args as rank string ids (arg_ids) -> as result string ids */
static void arg_rids(struct acc *a, uint32_t *cache, const struct tt_rank *r, const uint32_t *ids,
		     uint32_t *v)
{
	for (int q = 0; q < 4; q++)
		v[q] = rid(a, cache, r, ids[q]);
}

struct lrec { /* a launcher instance */
	uint32_t ev;
	uint32_t name, track; /* its event's */
	int64_t ts;
	uint32_t args[4];     /* a cpu_op's args (arg_ids); a runtime call's TT_NONE */
	bool cpu_op;
	uint8_t cat;
	int64_t direct, subtree;
	uint32_t k0, nk; /* its direct kernels: into dk */
};

static void merge_rank(struct acc *a, struct rctx *x)
{
	const struct tt_rank *r = x->r;
	struct tt_perf *p = a->p;
	uint32_t *buf = NULL;
	size_t cbuf = 0;
	char tb[300];

	/* launchers: their direct kernels, grouped */
	uint32_t *dk = tt_malloc(((size_t)x->ng + 1) * sizeof(*dk));
	uint32_t ndk = gops_sorted(x, true, dk);
	struct lrec *lr = NULL;
	size_t nlr = 0, clr = 0;
	uint32_t *glr = tt_malloc(((size_t)x->ng + 1) * sizeof(*glr)); /* by GPU op: its lrec */
	memset(glr, 0xff, ((size_t)x->ng + 1) * sizeof(*glr));
	for (uint32_t i = 0, j; i < ndk; i = j) {
		uint32_t l = x->g[dk[i]].launcher;
		for (j = i; j < ndk && x->g[dk[j]].launcher == l; j++)
			;
		TT_GROW(lr, clr, nlr + 1);
		lr[nlr].ev = l;
		lr[nlr].k0 = i, lr[nlr].nk = j - i;
		for (uint32_t z = i; z < j; z++)
			glr[dk[z]] = (uint32_t)nlr;
		nlr++;
	}
	/* what is read of each launcher's event and args (in a loop of its
	 * own, where the reads of one launcher need not wait for another's) */
	for (size_t i = 0; i < nlr; i++) {
		struct lrec *w = &lr[i];
		const struct tt_event *e = &r->ev[w->ev];
		w->name = e->name;
		w->track = e->track; /* (tt_track_of) */
		w->ts = e->ts;
		w->cpu_op = is_cpu_op(r, e);
		arg_ids(r, e, w->args);
		if (!w->cpu_op)
			w->args[0] = w->args[1] = w->args[2] = w->args[3] = TT_NONE;
	}
	for (size_t i = 0; i < nlr; i++) {
		struct lrec *w = &lr[i];
		w->direct = busy(x, dk + w->k0, w->nk);
		w->subtree = x->wid[w->ev] != TT_NONE ? node_busy(x, x->wid[w->ev], &buf, &cbuf) : 0;
		w->cat = (uint8_t)categorize(x, w->name, dk + w->k0, w->nk);
	}

	/* kernel summary and short kernels: the parent cpu_op of each kernel */
	uint8_t *lcat = NULL; /* category of each launcher event, by event */
	lcat = tt_malloc((size_t)r->nev + 1);
	memset(lcat, 0xff, (size_t)r->nev + 1);
	for (size_t i = 0; i < nlr; i++)
		lcat[lr[i].ev] = lr[i].cat;

	pthread_mutex_lock(&a->mu);
	while (a->next_merge != x->ri)
		pthread_cond_wait(&a->turn, &a->mu);
	uint32_t *sc = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*sc));
	memset(sc, 0xff, ((size_t)r->strs.n + 1) * sizeof(*sc));
	uint32_t *tk = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*tk)); /* thread keys */
	memset(tk, 0xff, ((size_t)r->ntracks + 1) * sizeof(*tk));
	/* the row of each (calc, pass): its key (sheet, name, params) is the
	 * calc's, so every instance of the calc has the row of the first */
	uint32_t *crow = tt_malloc((2 * (size_t)x->ncalcs + 1) * sizeof(*crow));
	memset(crow, 0xff, (2 * (size_t)x->ncalcs + 1) * sizeof(*crow));
	size_t ri = x->ri;
	p->rank_gpu[ri] = x->gpu;
	p->gpu_ops += x->ng;
	p->depth_cut += x->depth_cut;
	p->ops_unmodelled += x->unmodelled;
	if (!p->why_first && x->why)
		p->why_first = istr(a, x->why);
	if (x->ng)
		p->has_gpu = true;

	/* unlinked GPU work */
	{
		uint32_t *ul = tt_malloc(((size_t)x->ng + 1) * sizeof(*ul));
		size_t nu = 0;
		for (uint32_t k = 0; k < x->ng; k++)
			if (x->g[k].call == TT_NONE)
				ul[nu++] = k;
		p->gpu_unlinked += nu;
		/* (gops are in event order: sort each track's... by start) */
		struct tt_iv *iv = tt_malloc((nu + 1) * sizeof(*iv));
		for (size_t k = 0; k < nu; k++)
			iv[k] = (struct tt_iv){x->g[ul[k]].ts, x->g[ul[k]].end};
		size_t m = merge(iv, nu);
		p->gpu_unlinked_us += tt_iv_total(iv, m) / 1e3;
		free(iv);
		free(ul);
	}

	/* modelled rows */
	for (uint32_t k = 0; k < x->ninst; k++) {
		const struct rinst *in = &x->inst[k];
		const struct tt_pm_calc *c = &x->calcs[in->calc];
		const struct tt_event *e = &r->ev[in->ev];
		p->ops_modelled++;
		for (int pass = 0; pass < 2; pass++) {
			bool bwd = pass == 1;
			if (bwd && !c->has_bwd)
				break;
			int64_t t;
			uint32_t nk;
			if (!bwd) {
				uint32_t node = x->wid[in->ev];
				t = node_busy(x, node, &buf, &cbuf);
				nk = x->node_first[node + 1] - x->node_first[node];
			} else {
				if (!in->own_bwd) {
					p->bwd_unlinked++;
					break;
				}
				/* the GPU ops under its backward events */
				size_t nb = 0;
				for (uint32_t q = x->bl_first[k]; q < x->bl_first[k + 1]; q++) {
					uint32_t node = x->wid[x->bl[q].bwd];
					uint32_t f = x->node_first[node], l = x->node_first[node + 1];
					TT_GROW(buf, cbuf, nb + (l - f) + 1);
					for (uint32_t z = f; z < l; z++)
						buf[nb++] = x->pairs[z].g;
				}
				/* sort by start and drop repeats */
				tt_msort(buf, nb, sizeof(*buf), gts_cmp, x->g);
				size_t u = 0;
				for (size_t z = 0; z < nb; z++)
					if (!u || buf[u - 1] != buf[z])
						buf[u++] = buf[z];
				nb = u;
				t = busy(x, buf, nb);
				nk = (uint32_t)nb;
			}
			int sheet = bwd ? c->bwd_sheet : c->sheet;
			double flops = bwd ? c->flops_bwd : c->flops, bytes = bwd ? c->bytes_bwd : c->bytes;
			/* the spec: TF32 when fp32 matrix work ran TF32 kernels */
			int spec = c->spec;
			if (c->tf32_able && spec == TT_PMSPEC_MATRIX_FP32) {
				for (uint32_t z = 0; z < nk; z++) {
					const char *kn = tt_str(r, x->g[buf[z]].name);
					if (strstr(kn, "tf32") || strstr(kn, "s1688gemm") ||
					    strstr(kn, "s16816gemm")) {
						spec = TT_PMSPEC_MATRIX_TF32;
						break;
					}
				}
			}
			/* the row */
			uint32_t *slot = &crow[2 * (size_t)in->calc + pass];
			if (*slot == TT_NONE) {
				struct tkey key = {{(uint32_t)sheet, rid(a, sc, r, e->name),
						    intern(a, c->params), TT_NONE, TT_NONE, TT_NONE,
						    TT_NONE, TT_NONE}};
				*slot = tfind(&a->rowix, p->nrows, &key);
			}
			if (*slot == p->nrows) {
				TT_GROW(p->rows, a->crows, p->nrows + 1);
				a->rflops = tt_realloc_array(a->rflops, a->crows, sizeof(*a->rflops));
				a->rranks = tt_realloc_array(a->rranks, a->crows, sizeof(*a->rranks));
				struct tt_pm_row *w = &p->rows[p->nrows++];
				memset(w, 0, sizeof(*w));
				a->rflops[*slot] = 0;
				a->rranks[*slot] = 0;
				w->sheet = (uint8_t)sheet;
				w->family = c->family;
				w->cat = c->cat;
				w->spec = (int8_t)spec;
				w->bwd = bwd;
				w->name = istr(a, tt_ev_name(r, e));
				w->params = istr(a, c->params);
				struct tt_pm_args ar;
				op_args(r, in->ev, &ar);
				w->dims = istr(a, ar.dims);
				w->types = istr(a, ar.types);
				w->strides = istr(a, ar.strides);
				w->concrete = istr(a, ar.concrete);
				const struct tt_track *tr = &r->tracks[tt_track_of(r, in->ev)];
				w->process = istr(a, tt_str(r, tr->proc_name));
				w->thread = istr(a, tt_str(r, tr->name));
				w->flops = flops;
				w->bytes = bytes;
				w->gpu = x->gpu;
				bool fb;
				w->peak_tflops = tt_gpu_peak_of(x->gpu, spec, &fb);
				w->mem_gbps = x->gpu ? x->gpu->mem_gbps : 0;
				w->roof_us = NAN;
				if (w->peak_tflops > 0 && w->mem_gbps > 0 && bytes >= 0 && flops > 0) {
					double ct = flops / (w->peak_tflops * 1e12) * 1e6,
					       mt = bytes / (w->mem_gbps * 1e9) * 1e6;
					w->roof_us = TT_MAX(ct, mt);
					w->compute_bound = ct >= mt;
				}
				w->ri = ri;
				w->ev = in->ev;
				w->uid_first = ((uint64_t)ri << 48) ^ (uint64_t)(e->ts - r->t0);
			}
			uint32_t row = *slot;
			struct tt_pm_row *w = &p->rows[row];
			w->count++;
			a->rflops[row] += flops;
			if (ri < 64)
				a->rranks[row] |= UINT64_C(1) << ri;
			double tu = (double)t / 1e3;
			struct inst iv = {row, (uint32_t)ri, in->ts, tu, NAN, NAN, NAN, 0, 0};
			if (t > 0) {
				iv.tflops = flops / 1e12 / (tu / 1e6);
				if (bytes >= 0)
					iv.tbps = bytes / 1e12 / (tu / 1e6);
				/* this instance's roofline on its own GPU */
				double pk = tt_gpu_peak_of(x->gpu, spec, NULL),
				       bw = x->gpu ? x->gpu->mem_gbps : 0;
				if (pk > 0 && bw > 0 && bytes >= 0 && flops > 0) {
					double roof = TT_MAX(flops / (pk * 1e12), bytes / (bw * 1e9)) * 1e6;
					iv.pct = roof / tu * 100;
				}
			}
			TT_GROW(a->ri_v, a->cri, a->nri + 1);
			a->ri_v[a->nri++] = iv;
			for (uint32_t z = 0; z < nk; z++) {
				const struct gop *g = &x->g[buf[z]];
				int64_t stream = r->tracks[g->track].stream;
				kacc_add(&a->rk, &a->nrk, &a->crk, &a->rkmap, row,
					 rid(a, sc, r, g->name), stream, g->end - g->ts);
			}
		}
	}

	/* launchers */
	for (size_t i = 0; i < nlr; i++) {
		const struct lrec *w = &lr[i];
		uint32_t t = w->track;
		const struct tt_track *tr = &r->tracks[t];
		if (tk[t] == TT_NONE)
			tk[t] = intern(a, thread_key(a, tt_str(r, tr->name), tb, sizeof(tb)));
		uint32_t ar[4];
		arg_rids(a, sc, r, w->args, ar);
		uint32_t nm = rid(a, sc, r, w->name), pn = rid(a, sc, r, tr->proc_name);
		struct tkey key = {{nm, w->cat, pn, tk[t], ar[0], ar[1], ar[2], ar[3]}};
		uint32_t li = tfind(&a->lix, p->nlaunch, &key);
		uint32_t *slot = &li;
		if (li == p->nlaunch) {
			TT_GROW(p->launch, a->claunch, p->nlaunch + 1);
			struct tt_pm_launch *l = &p->launch[p->nlaunch++];
			memset(l, 0, sizeof(*l));
			l->name = rstr(a, nm);
			l->cat = w->cat;
			l->runtime = !w->cpu_op;
			l->process = rstr(a, pn);
			l->thread = rstr(a, tk[t]);
			l->dims = rstr(a, ar[0]);
			l->types = rstr(a, ar[1]);
			l->strides = rstr(a, ar[2]);
			l->concrete = rstr(a, ar[3]);
			l->ri = ri;
			l->ev = w->ev;
			l->uid_first = ((uint64_t)ri << 48) ^ (uint64_t)(w->ts - r->t0);
		}
		uint32_t row = *slot;
		p->launch[row].count++;
		struct inst iv = {row, (uint32_t)ri, w->ts, 0, 0, 0, 0, w->direct / 1e3, w->subtree / 1e3};
		TT_GROW(a->li_v, a->cli, a->nli + 1);
		a->li_v[a->nli++] = iv;
		for (uint32_t z = 0; z < w->nk; z++) {
			const struct gop *g = &x->g[dk[w->k0 + z]];
			int64_t stream = r->tracks[g->track].stream;
			kacc_add(&a->lk, &a->nlk, &a->clk, &a->lkmap, row, rid(a, sc, r, g->name),
				 stream, g->end - g->ts);
		}
		/* ops_summary */
		uint32_t *os = map_slot(&a->omap, &a->comap, nm);
		if (*os == TT_NONE) {
			*os = (uint32_t)p->nops;
			TT_GROW(p->ops, a->cops, p->nops + 1);
			p->ops[p->nops++] = (struct tt_pm_opsum){rstr(a, nm), 0, 0, 0, 0};
		}
		struct tt_pm_opsum *o = &p->ops[*os];
		o->count++;
		o->direct_us += w->direct / 1e3;
		o->subtree_us += w->subtree / 1e3;
		o->cats |= 1u << w->cat;
		p->cats[w->cat].count++;
		p->cats[w->cat].direct_us += w->direct / 1e3;
	}

	/* kernel summary, short kernels (kernels only) */
	for (uint32_t k = 0; k < x->ng; k++) {
		const struct gop *g = &x->g[k];
		if (g->kind != TT_K_KERNEL)
			continue;
		int cat = -1;
		uint32_t pop = g->pop;
		if (g->call != TT_NONE) {
			if (pop != TT_NONE) {
				cat = lcat[pop] != 0xff ? lcat[pop] : categorize(x, g->pname, NULL, 0);
			} else {
				const char *parent = tt_str(r, g->pname);
				cat = has_ci(parent, "cudagraph") || has_ci(parent, "graphlaunch") ? -3 : -2;
			}
		}
		int64_t stream = r->tracks[g->track].stream;
		double dur = (g->end - g->ts) / 1e3;
		p->kernels_us += dur;
		uint32_t kn = rid(a, sc, r, g->name);
		uint32_t pr = rid(a, sc, r, g->pname); /* (TT_NONE: no call) */
		uint64_t hk = tt_hmap_mix(((uint64_t)kn << 32 | pr) ^
					  tt_hmap_mix((uint64_t)stream * 31 + (uint64_t)(cat + 8)));
		size_t pos = 0;
		uint32_t ks = TT_HMAP_NONE;
		for (uint32_t q = tt_hmap_first(&a->ksmap, hk, &pos); q != TT_HMAP_NONE;
		     q = tt_hmap_next(&a->ksmap, hk, &pos))
			if (a->kskey[q].name == kn && a->kskey[q].parent == pr && a->kskey[q].cat == cat &&
			    p->ksum[q].stream == stream) {
				ks = q;
				break;
			}
		if (ks == TT_HMAP_NONE) {
			ks = (uint32_t)p->nksum;
			TT_GROW(p->ksum, a->cksum, p->nksum + 1);
			a->kskey = tt_realloc_array(a->kskey, a->cksum, sizeof(*a->kskey));
			a->kskey[ks].name = kn;
			a->kskey[ks].parent = pr;
			a->kskey[ks].cat = cat;
			p->ksum[p->nksum++] =
				(struct tt_pm_ksum){cat, rstr(a, pr), rstr(a, kn), stream, 0, 0, dur, dur};
			tt_hmap_add(&a->ksmap, hk, ks);
		}
		struct tt_pm_ksum *s = &p->ksum[ks];
		s->count++;
		s->sum_us += dur;
		s->min_us = TT_MIN(s->min_us, dur);
		s->max_us = TT_MAX(s->max_us, dur);
		if (dur < a->o->short_us) {
			p->nshort++;
			p->short_sum_us += dur;
			TT_GROW(a->short_durs, a->csd, a->nsd + 1);
			a->short_durs[a->nsd++] = dur;
			uint32_t ids[4] = {TT_NONE, TT_NONE, TT_NONE, TT_NONE}, ar[4];
			if (pop != TT_NONE && pop == g->launcher)
				memcpy(ids, lr[glr[k]].args, sizeof(ids)); /* (a cpu_op's, read there) */
			else if (pop != TT_NONE)
				arg_ids(r, &r->ev[pop], ids);
			arg_rids(a, sc, r, ids, ar);
			struct tkey sk = {{pr, ar[0], ar[2], ar[3], kn, TT_NONE, TT_NONE, TT_NONE}};
			uint32_t si = tfind(&a->six, p->nshorts, &sk);
			uint32_t *ss = &si;
			if (si == p->nshorts) {
				TT_GROW(p->shorts, a->cshort, p->nshorts + 1);
				p->shorts[p->nshorts++] =
					(struct tt_pm_short){rstr(a, pr), rstr(a, ar[0]), rstr(a, ar[2]),
							     rstr(a, ar[3]), rstr(a, kn), 0, 0};
			}
			p->shorts[*ss].count++;
			p->shorts[*ss].sum_us += dur;
		}
	}
	a->next_merge++;
	pthread_cond_broadcast(&a->turn);
	pthread_mutex_unlock(&a->mu);
	free(sc);
	free(tk);
	free(crow);
	free(lcat);
	free(glr);
	free(lr);
	free(dk);
	free(buf);
}

static const struct tt_devprop *devprop_of(const struct tt_rank *r)
{
	if (!r->meta.ndevprops)
		return NULL;
	int64_t dev = -1;
	for (uint32_t t = 0; t < r->ntracks && dev < 0; t++)
		if (r->tracks[t].kind == TT_TRACK_GPU && r->tracks[t].count)
			dev = r->tracks[t].device;
	for (size_t i = 0; i < r->meta.ndevprops; i++)
		if (r->meta.devprops[i].id == dev)
			return &r->meta.devprops[i];
	return &r->meta.devprops[0];
}

struct job {
	struct acc *a;
	const struct tt_model *m;
	size_t *ri;
};

static void rank_job(size_t i, void *ctx)
{
	struct job *j = ctx;
	struct acc *a = j->a;
	size_t ri = j->ri[i];
	const struct tt_rank *r = j->m->ranks[ri];
	struct rctx x = {0};
	x.r = r;
	x.ri = i;
	const struct tt_devprop *dp = devprop_of(r);
	x.gpu = tt_gpu_lookup(a->p->user, dp ? dp->name : NULL, dp ? dp->total_mem : 0,
			      a->o->gpu);
	size_t nev = (size_t)r->nev + 1;
	x.parent = tt_malloc(nev * sizeof(*x.parent));
	memset(x.parent, 0xff, nev * sizeof(*x.parent));
	x.intree = tt_calloc(nev, 1);
	x.wid = tt_malloc(nev * sizeof(*x.wid));
	memset(x.wid, 0xff, nev * sizeof(*x.wid));
	x.comm = tt_malloc((size_t)r->strs.n + 1);
	memset(x.comm, -1, (size_t)r->strs.n + 1);
	x.model = tt_malloc((size_t)r->strs.n + 1);
	memset(x.model, -1, (size_t)r->strs.n + 1);
	x.isef = tt_malloc((size_t)r->strs.n + 1);
	memset(x.isef, -1, (size_t)r->strs.n + 1);
	x.catname = tt_malloc((size_t)r->strs.n + 1);
	memset(x.catname, -1, (size_t)r->strs.n + 1);
	x.kcat = tt_malloc((size_t)r->strs.n + 1);
	memset(x.kcat, -1, (size_t)r->strs.n + 1);
	scan_rank(&x);
	find_launchers(&x);
	keep_models(&x);
	link_bwd(&x);
	index_bwd(&x);
	gather(&x);
	double tl[TT_PMT_N], tll[TT_PMT_N];
	timeline(&x, false, tl);
	timeline(&x, true, tll);
	merge_rank(a, &x);
	pthread_mutex_lock(&a->mu);
	struct tt_perf *p = a->p;
	memcpy(&p->rank_timeline[i * TT_PMT_N], tl, sizeof(tl));
	memcpy(&p->rank_timeline_linked[i * TT_PMT_N], tll, sizeof(tll));
	p->rank_devname[i] = dp ? istr(a, dp->name) : NULL;
	bool shapes = false;
	for (uint32_t k = 0; k < r->nopinfo && !shapes; k++)
		shapes = r->opinfo[k].input_dims != TT_NONE;
	if (shapes)
		p->any_shapes = true;
	pthread_mutex_unlock(&a->mu);
	free(x.parent);
	free(x.intree);
	free(x.wid);
	free(x.comm);
	free(x.model);
	free(x.isef);
	free(x.seqv);
	free(x.catname);
	free(x.kcat);
	free(x.g);
	free(x.pairs);
	free(x.node_first);
	free(x.calcs);
	free(x.calckeys);
	tt_hmap_free(&x.calcmap);
	free(x.inst);
	free(x.inst_of);
	free(x.bl);
	free(x.bl_first);
}

/* ---- statistics ---- */

static int inst_cmp(const void *a, const void *b)
{
	const struct inst *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}
static inline bool inst_before(const struct inst *a, const struct inst *b)
{
	return inst_cmp(a, b) < 0;
}
TT_STABLE_SORT(sort_inst, struct inst, inst_before)

/* v in sort_inst's order (row, rank, start; stable): by row through a
 * counting sort (stable), then each row's instances by rank and start
 * (those mostly come in that order already: one pass).  Rows from nrows
 * on, which row_stats leaves out, share the last bucket. */
static void sort_inst_by_row(struct inst *v, size_t n, size_t nrows)
{
	if (n < 2)
		return;
	size_t *at = tt_calloc(nrows + 2, sizeof(*at));
	for (size_t i = 0; i < n; i++)
		at[TT_MIN((size_t)v[i].row, nrows) + 1]++;
	for (size_t k = 0; k <= nrows; k++)
		at[k + 1] += at[k];
	struct inst *t = tt_malloc((n + 1) * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		t[at[TT_MIN((size_t)v[i].row, nrows)]++] = v[i];
	memcpy(v, t, n * sizeof(*v));
	free(t);
	free(at);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].row == v[i].row; j++)
			;
		sort_inst(v + i, j - i);
	}
}

/* pandas: NaN left out, std with ddof 1 */
static void stat(double *v, size_t n, struct tt_pm_stat *s)
{
	size_t k = 0;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			v[k++] = v[i];
			sum += v[i];
		}
	memset(s, 0, sizeof(*s));
	s->n = k;
	s->sum = sum;
	if (!k) {
		s->mean = s->median = s->std = s->min = s->max = NAN;
		return;
	}
	s->mean = sum / (double)k;
	double ss = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < k; i++) {
		ss += (v[i] - s->mean) * (v[i] - s->mean);
		s->min = TT_MIN(s->min, v[i]);
		s->max = TT_MAX(s->max, v[i]);
	}
	s->std = k > 1 ? sqrt(ss / (double)(k - 1)) : NAN;
	s->median = tt_median(v, k);
}

/* per row: the statistics of each value over its instances */
static void row_stats(struct inst *v, size_t n, size_t nrows, bool launch, struct tt_perf *p)
{
	sort_inst_by_row(v, n, nrows);
	double *a = tt_malloc((n + 1) * sizeof(*a));
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t row = v[i].row;
		for (j = i; j < n && v[j].row == row; j++)
			;
		size_t m = j - i;
		if (row >= nrows)
			continue;
#define STAT(field, dst)                               \
	do {                                           \
		for (size_t z = 0; z < m; z++)         \
			a[z] = v[i + z].field;         \
		stat(a, m, dst);                       \
	} while (0)
		if (launch) {
			STAT(direct_us, &p->launch[row].direct_us);
			STAT(subtree_us, &p->launch[row].subtree_us);
		} else {
			struct tt_pm_row *w = &p->rows[row];
			STAT(time_us, &w->time_us);
			STAT(tflops, &w->tflops);
			STAT(tbps, &w->tbps);
			STAT(pct, &w->pct_roof);
		}
#undef STAT
	}
	free(a);
}

static int kacc_cmp(const void *a, const void *b)
{
	const struct kacc *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return x->stream < y->stream ? -1 : x->stream > y->stream;
}
static inline bool kacc_before(const struct kacc *a, const struct kacc *b)
{
	return kacc_cmp(a, b) < 0;
}
TT_STABLE_SORT(sort_kacc, struct kacc, kacc_before)

/* each row's kernels: their own arrays, largest total first */
static void give_kernels(struct kacc *k, size_t n, const struct tt_strtab *s, size_t nrows,
			 struct tt_pm_kernel **dst_of_row(void *, size_t), size_t *(*cnt_of_row)(void *, size_t),
			 void *ctx)
{
	sort_kacc(k, n);
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t row = k[i].row;
		for (j = i; j < n && k[j].row == row; j++)
			;
		if (row >= nrows)
			continue;
		struct tt_pm_kernel *v = tt_malloc((j - i) * sizeof(*v));
		for (size_t z = i; z < j; z++)
			v[z - i] = (struct tt_pm_kernel){tt_strtab_get(s, k[z].name), k[z].stream,
							 k[z].count, k[z].sum, k[z].min, k[z].max,
							 (double)k[z].sum / (double)k[z].count};
		*dst_of_row(ctx, row) = v;
		*cnt_of_row(ctx, row) = j - i;
	}
}

static struct tt_pm_kernel **row_k(void *c, size_t i)
{
	return &((struct tt_perf *)c)->rows[i].kernels;
}
static size_t *row_nk(void *c, size_t i)
{
	return &((struct tt_perf *)c)->rows[i].nkernels;
}
static struct tt_pm_kernel **l_k(void *c, size_t i)
{
	return &((struct tt_perf *)c)->launch[i].kernels;
}
static size_t *l_nk(void *c, size_t i)
{
	return &((struct tt_perf *)c)->launch[i].nkernels;
}

/* ---- ordering ---- */

static int row_cmp(const void *a, const void *b)
{
	const struct tt_pm_row *x = a, *y = b;
	if (x->sheet != y->sheet)
		return x->sheet < y->sheet ? -1 : 1;
	if (x->time_us.sum != y->time_us.sum)
		return x->time_us.sum > y->time_us.sum ? -1 : 1;
	if (x->uid_first != y->uid_first)
		return x->uid_first < y->uid_first ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->params, y->params);
}

static int launch_cmp(const void *a, const void *b)
{
	const struct tt_pm_launch *x = a, *y = b;
	if (x->direct_us.sum != y->direct_us.sum)
		return x->direct_us.sum > y->direct_us.sum ? -1 : 1;
	if (x->uid_first != y->uid_first)
		return x->uid_first < y->uid_first ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int ops_cmp(const void *a, const void *b)
{
	const struct tt_pm_opsum *x = a, *y = b;
	if (x->direct_us != y->direct_us)
		return x->direct_us > y->direct_us ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cat_cmp(const void *a, const void *b)
{
	const struct tt_pm_catsum *x = a, *y = b;
	if (x->direct_us != y->direct_us)
		return x->direct_us > y->direct_us ? -1 : 1;
	return x->cat < y->cat ? -1 : x->cat > y->cat;
}

static int ksum_cmp(const void *a, const void *b)
{
	const struct tt_pm_ksum *x = a, *y = b;
	if (x->sum_us != y->sum_us)
		return x->sum_us > y->sum_us ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return strcmp(x->parent ? x->parent : "", y->parent ? y->parent : "");
}

static int short_cmp(const void *a, const void *b)
{
	const struct tt_pm_short *x = a, *y = b;
	if (x->sum_us != y->sum_us)
		return x->sum_us > y->sum_us ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->parent ? x->parent : "", y->parent ? y->parent : "");
}

/* numpy.histogram(v, bins=100) */
static void histogram(double *v, size_t n, struct tt_perf *p)
{
	if (!n)
		return;
	double lo = v[0], hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = TT_MIN(lo, v[i]);
		hi = TT_MAX(hi, v[i]);
	}
	if (lo == hi)
		lo -= 0.5, hi += 0.5;
	p->short_min_us = lo;
	p->short_max_us = hi;
	for (size_t i = 0; i < n; i++) {
		double f = (v[i] - lo) / (hi - lo) * 100;
		int b = (int)f;
		if (b >= 100)
			b = 99;
		if (b < 0)
			b = 0;
		/* numpy compares with the edges themselves */
		double e0 = lo + (hi - lo) * b / 100.0, e1 = lo + (hi - lo) * (b + 1) / 100.0;
		if (v[i] < e0 && b > 0)
			b--;
		else if (v[i] >= e1 && b < 99)
			b++;
		p->short_hist[b]++;
	}
}

void tt_perf_compute(const struct tt_model *m, const struct tt_perf_opts *o, struct tt_perf *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->strs);
	out->short_us = o->short_us > 0 ? o->short_us : 10;
	struct tt_perf_opts oo = *o;
	oo.short_us = out->short_us;
	if (o->peaks_file) {
		struct tt_err err;
		tt_err_clear(&err);
		out->user = tt_gpu_table_load(o->peaks_file, &err);
		if (!out->user)
			tt_err_format(&err, out->error, sizeof(out->error));
	}
	size_t *sel = tt_malloc((m->nranks + 1) * sizeof(*sel)), nsel = 0;
	for (size_t i = 0; i < m->nranks; i++)
		if (!o->a || tt_aopts_has_rank(o->a, m->ranks[i]->rank))
			sel[nsel++] = i;
	out->nranks = nsel;
	out->rank_gpu = tt_calloc(nsel + 1, sizeof(*out->rank_gpu));
	out->rank_devname = tt_calloc(nsel + 1, sizeof(*out->rank_devname));
	out->rank = tt_calloc(nsel + 1, sizeof(*out->rank));
	out->rank_timeline = tt_calloc((nsel + 1) * TT_PMT_N, sizeof(double));
	out->rank_timeline_linked = tt_calloc((nsel + 1) * TT_PMT_N, sizeof(double));
	for (size_t i = 0; i < nsel; i++)
		out->rank[i] = m->ranks[sel[i]]->rank;
	struct acc a = {0};
	a.p = out;
	a.o = &oo;
	a.nsel = nsel;
	pthread_mutex_init(&a.mu, NULL);
	pthread_cond_init(&a.turn, NULL);
	struct job j = {&a, m, sel};
	tt_parallel_for(nsel, o->a ? o->a->threads : 0, rank_job, &j);
	pthread_mutex_destroy(&a.mu);
	pthread_cond_destroy(&a.turn);

	/* statistics and order */
	row_stats(a.ri_v, a.nri, out->nrows, false, out);
	for (size_t i = 0; i < out->nrows; i++) {
		struct tt_pm_row *w = &out->rows[i];
		w->flops_total = a.rflops[i];
		w->nranks = (uint32_t)__builtin_popcountll(a.rranks[i]);
		double sec = w->time_us.sum / 1e6;
		w->tflops_all = sec > 0 ? w->flops_total / 1e12 / sec : NAN;
		w->tbps_all = sec > 0 && w->bytes >= 0 ? w->bytes * (double)w->count / 1e12 / sec : NAN;
		/* (every instance of a row has the row's FLOPs and bytes; the
		 * peak may differ per rank: the per-instance % is in pct_roof) */
		w->roof_pct_all = sec > 0 && !isnan(w->roof_us)
					  ? w->roof_us * (double)w->count / w->time_us.sum * 100
					  : NAN;
	}
	row_stats(a.li_v, a.nli, out->nlaunch, true, out);
	give_kernels(a.rk, a.nrk, &out->strs, out->nrows, row_k, row_nk, out);
	give_kernels(a.lk, a.nlk, &out->strs, out->nlaunch, l_k, l_nk, out);
	sort(out->rows, out->nrows, sizeof(*out->rows), row_cmp);
	sort(out->launch, out->nlaunch, sizeof(*out->launch), launch_cmp);
	sort(out->ops, out->nops, sizeof(*out->ops), ops_cmp);
	struct tt_pm_catsum cs[TT_PMC_COUNT];
	size_t nc = 0;
	for (int c = 0; c < TT_PMC_COUNT; c++)
		if (out->cats[c].count) {
			cs[nc] = out->cats[c];
			cs[nc++].cat = (uint8_t)c;
		}
	sort(cs, nc, sizeof(*cs), cat_cmp);
	memset(out->cats, 0, sizeof(out->cats));
	memcpy(out->cats, cs, nc * sizeof(*cs));
	out->ncats = nc;
	sort(out->ksum, out->nksum, sizeof(*out->ksum), ksum_cmp);
	sort(out->shorts, out->nshorts, sizeof(*out->shorts), short_cmp);
	histogram(a.short_durs, a.nsd, out);
	/* the whole job's timeline: the ranks' sums (one rank: its own) */
	for (size_t i = 0; i < nsel; i++)
		for (int k = 0; k < TT_PMT_N; k++) {
			out->timeline_us[k] += out->rank_timeline[i * TT_PMT_N + k];
			out->timeline_linked_us[k] += out->rank_timeline_linked[i * TT_PMT_N + k];
		}

	tindex_free(&a.rowix);
	free(a.ri_v);
	free(a.rk);
	tt_hmap_free(&a.rkmap);
	free(a.rflops);
	free(a.rranks);
	tindex_free(&a.lix);
	free(a.li_v);
	free(a.lk);
	tt_hmap_free(&a.lkmap);
	free(a.omap);
	tt_hmap_free(&a.ksmap);
	free(a.kskey);
	tindex_free(&a.six);
	free(a.short_durs);
	free(sel);
}

void tt_perf_free(struct tt_perf *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrows; i++)
		free(p->rows[i].kernels);
	for (size_t i = 0; i < p->nlaunch; i++)
		free(p->launch[i].kernels);
	free(p->rows);
	free(p->launch);
	free(p->ops);
	free(p->ksum);
	free(p->shorts);
	free(p->rank_gpu);
	free(p->rank_devname);
	free(p->rank);
	free(p->rank_timeline);
	free(p->rank_timeline_linked);
	tt_gpu_table_free(p->user);
	tt_strtab_free(&p->strs);
	memset(p, 0, sizeof(*p));
}

/* ---- the explorer's per-op list ---- */

static int agg_cmp(const void *a, const void *b)
{
	const struct tt_pm_opagg *x = a, *y = b;
	if (x->time_us != y->time_us)
		return x->time_us > y->time_us ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t tt_perf_by_op(const struct tt_perf *p, struct tt_pm_opagg **out)
{
	struct tt_pm_opagg *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < p->nrows; i++) {
		const struct tt_pm_row *w = &p->rows[i];
		size_t k = 0;
		for (; k < n; k++)
			if (v[k].sheet == w->sheet && strcmp(v[k].name, w->name) == 0)
				break;
		if (k == n) {
			TT_GROW(v, cap, n + 1);
			memset(&v[n], 0, sizeof(v[n]));
			v[n].name = w->name;
			v[n].sheet = w->sheet;
			v[n].cat = w->cat;
			v[n].spec = w->spec;
			v[n].first_row = i;
			n++;
		}
		struct tt_pm_opagg *g = &v[k];
		g->count += w->count;
		g->nshapes++;
		g->time_us += w->time_us.sum;
		g->flops += w->flops_total;
		if (w->bytes >= 0)
			g->bytes += w->bytes * (double)w->count;
		if (!isnan(w->roof_us)) {
			/* the roofline time of the instances that ran */
			double ran = (double)w->time_us.n;
			(void)ran;
			g->roof_us += w->roof_us * (double)w->count;
			g->roof_time_us += w->time_us.sum;
			if (w->compute_bound)
				g->nbound_compute++;
			else
				g->nbound_memory++;
		}
		if (g->spec != w->spec)
			g->spec = TT_PMSPEC_NONE;
	}
	sort(v, n, sizeof(*v), agg_cmp);
	*out = v;
	return n;
}

const char *tt_perf_gpu_label(const struct tt_perf *p, char *buf, size_t n)
{
	const struct tt_gpu_peak *g = NULL;
	bool mixed = false, none = false;
	for (size_t i = 0; i < p->nranks; i++) {
		if (!p->rank_gpu[i])
			none = true;
		else if (!g)
			g = p->rank_gpu[i];
		else if (g != p->rank_gpu[i])
			mixed = true;
	}
	if (mixed)
		snprintf(buf, n, "mixed GPUs");
	else if (g)
		snprintf(buf, n, "%s%s", g->name, none ? " (some ranks unknown)" : "");
	else
		snprintf(buf, n, "unknown GPU");
	return buf;
}
