/* The analysis room's shared pieces of the TensorBoard views: the op tree of
 * a rank's CPU threads, GPU op blocks, kernel types, a 64-bit key map. */
#include "config.h"

#include "optree.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/operators.h"
#include "tracetop/util.h"

/* cpu_op or user_annotation X event (not a marker) */
static bool tt_tb_is_op(const struct tt_rank *r, const struct tt_event *e)
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

/* ---- the events of a CPU thread ----
 *
 * A CPU op or annotation with args.stream (torch.compile's triton_* ops)
 * sits on that GPU stream's track, as HTA reads it; the op trees take it
 * back into its thread (tt_opinfo.thread).  A thread's events are its
 * track's and those, merged by start, longer first (a tie: the track's
 * first). */

struct stray {
	uint32_t thread, ev;
};

static int stray_cmp(const void *a, const void *b, void *ctx)
{
	const struct stray *x = a, *y = b;
	const struct tt_rank *r = ctx;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	const struct tt_event *p = &r->ev[x->ev], *q = &r->ev[y->ev];
	if (p->ts != q->ts)
		return p->ts < q->ts ? -1 : 1;
	if (p->dur != q->dur)
		return p->dur > q->dur ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* the CPU-side events of GPU stream tracks with their threads, by thread
 * then start; returns the count, *out freed by the caller */
static size_t strays(const struct tt_rank *r, struct stray **out)
{
	size_t n = 0, cap = 0;
	struct stray *v = NULL;
	for (uint32_t ti = 0, i0, i1; tt_next_gpu_track(r, &ti, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_OPINFO) || r->opinfo[e->aux].thread == TT_NONE)
				continue;
			TT_GROW(v, cap, n + 1);
			v[n++] = (struct stray){r->opinfo[e->aux].thread, i};
		}
	if (n > 1)
		tt_msort(v, n, sizeof(*v), stray_cmp, (void *)r);
	*out = v;
	return n;
}

/* walks one thread's events in order */
struct walk {
	const struct tt_rank *r;
	uint32_t i, end;           /* the track's events left */
	const struct stray *x, *xend; /* the strays of the thread left */
};

/* the walk of CPU track ti; *xs: the strays not yet walked (by thread) */
static void walk_init(struct walk *w, const struct tt_rank *r, uint32_t ti,
		      const struct stray **xs, const struct stray *xend)
{
	const struct tt_track *tr = &r->tracks[ti];
	w->r = r;
	w->i = tr->first;
	w->end = tr->first + tr->count;
	while (*xs < xend && (*xs)->thread < ti)
		(*xs)++;
	w->x = *xs;
	while (*xs < xend && (*xs)->thread == ti)
		(*xs)++;
	w->xend = *xs;
}

/* the next event of the thread, TT_NONE at the end */
static uint32_t walk_next(struct walk *w)
{
	if (w->x < w->xend) {
		const struct tt_event *s = &w->r->ev[w->x->ev];
		if (w->i >= w->end || s->ts < w->r->ev[w->i].ts ||
		    (s->ts == w->r->ev[w->i].ts && s->dur > w->r->ev[w->i].dur))
			return (w->x++)->ev;
	}
	return w->i < w->end ? w->i++ : TT_NONE;
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
	struct stray *xs;
	size_t nxs = strays(r, &xs);
	const struct stray *xp = xs;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		if (r->tracks[ti].kind != TT_TRACK_CPU)
			continue;
		ops.n = py.n = 0;
		struct walk w;
		walk_init(&w, r, ti, &xp, nxs ? xs + nxs : xs); /* (xs: NULL when none) */
		for (uint32_t i; (i = walk_next(&w)) != TT_NONE;) {
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
	free(xs);
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

/* ---- the TensorBoard plugin's op tree ---- */

static bool starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool ends_with(const char *s, const char *p)
{
	size_t n = strlen(s), k = strlen(p);
	return n >= k && memcmp(s + n - k, p, k) == 0;
}

/* Is the name one of the plugin's collective ops ("nccl:all_reduce",
 * "gloo:broadcast", ...: broadcast, reduce, all_reduce, all_gather,
 * reduce_scatter)?  *gloo (optional) says which library. */
static bool tt_tb_is_comm_op_name(const char *name, bool *gloo)
{
	static const char *const ops[] = {"broadcast", "reduce", "all_reduce", "all_gather",
					  "reduce_scatter"};
	const char *s;
	if (starts_with(name, "nccl:"))
		s = name + 5;
	else if (starts_with(name, "gloo:"))
		s = name + 5;
	else
		return false;
	for (size_t i = 0; i < TT_ARRAY_SIZE(ops); i++)
		if (strcmp(s, ops[i]) == 0) {
			if (gloo)
				*gloo = name[0] == 'g';
			return true;
		}
	return false;
}

bool tt_tb_is_runtime(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_RUNTIME || k == TT_K_MTIA_RUNTIME;
}

static uint16_t name_flags(const char *nm)
{
	uint16_t f = 0;
	bool gloo = false;
	if (starts_with(nm, "ProfilerStep#")) {
		f |= TT_NF_STEP_PREFIX;
		if (tt_step_number(nm) >= 0)
			f |= TT_NF_STEP;
	}
	if ((starts_with(nm, "enumerate(DataLoader)#") && ends_with(nm, ".__next__")) ||
	    starts_with(nm, "enumerate(DataPipe)#"))
		f |= TT_NF_DATALOADER;
	if (starts_with(nm, "Optimizer.step"))
		f |= TT_NF_OPT_STEP;
	if (starts_with(nm, "Optimizer."))
		f |= TT_NF_OPT;
	if (strcmp(nm, "DataParallel.forward") == 0)
		f |= TT_NF_DP_FWD;
	if (strcmp(nm, "DistributedDataParallel.forward") == 0)
		f |= TT_NF_DDP_FWD;
	if (tt_tb_is_comm_op_name(nm, &gloo))
		f |= TT_NF_COMM | (gloo ? TT_NF_GLOO : 0);
	if (tt_tb_op_tc_eligible(nm))
		f |= TT_NF_TC_ELIGIBLE;
	return f;
}

static void *name_flags_build(const struct tt_rank *r, void *ctx)
{
	(void)ctx;
	uint16_t *f = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*f));
	for (uint32_t id = 0; id < r->strs.n; id++)
		f[id] = name_flags(tt_str(r, id));
	f[r->strs.n] = 0;
	return f;
}

const uint16_t *tt_tb_name_flags(const struct tt_rank *r)
{
	return tt_rank_memo(r, TT_MEMO_TB_NAMES, name_flags_build, NULL, free);
}

bool tt_tb_is_python_span(const struct tt_rank *r, const struct tt_event *e)
{
	const struct tt_cat *c = &r->cats[e->cat];
	if (c->kind != TT_K_PYTHON || !c->legacy || e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false; /* (python_function, as written, is not legacy) */
	const char *s = tt_str(r, c->name);
	return strlen(s) == 6 && strncasecmp(s, "python", 6) == 0;
}

static enum tt_tbn tbn_kind(const struct tt_rank *r, const struct tt_event *e,
			    const uint16_t *nf)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return TT_TBN_NONE;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	if (k == TT_K_PYTHON)
		return tt_tb_is_python_span(r, e) ? TT_TBN_PYTHON : TT_TBN_NONE;
	if (k != TT_K_CPU_OP && k != TT_K_USER_ANNOT)
		return TT_TBN_NONE;
	uint16_t f = nf[e->name];
	if (f & TT_NF_STEP_PREFIX)
		return TT_TBN_STEP;
	if (f & TT_NF_DATALOADER)
		return TT_TBN_DATALOADER;
	if (f & TT_NF_OPT_STEP)
		return TT_TBN_OPTIMIZER;
	if (k == TT_K_USER_ANNOT)
		return (f & TT_NF_COMM) ? TT_TBN_COMM : TT_TBN_NONE;
	if (f & (TT_NF_OPT | TT_NF_DP_FWD | TT_NF_DDP_FWD))
		return TT_TBN_OP_HIDDEN;
	return TT_TBN_OP;
}

/* cpu_op nodes other than ProfilerStep (the plugin's EventTypes.OPERATOR) */
static bool tbn_is_operator(const struct tt_rank *r, uint32_t i, uint8_t kind)
{
	return kind != TT_TBN_STEP && kind != TT_TBN_NONE &&
	       tt_ev_kind(r, &r->ev[i]) == TT_K_CPU_OP;
}

/* Whether node o takes the GPU work of the runtime calls under it: a
 * ProfilerStep or a cpu_op (tt_tbtree_gpu_owner). */
static bool owns_gpu(const struct tt_rank *r, const struct tt_tbtree *t, uint32_t o)
{
	return t->kind[o] == TT_TBN_STEP || tt_ev_kind(r, &r->ev[o]) == TT_K_CPU_OP;
}

static uint32_t resolve(const uint32_t *alias, uint32_t i)
{
	while (i != TT_NONE && alias[i] != TT_NONE)
		i = alias[i];
	return i;
}

/* The open nodes of a thread while its tree is built, each with its count
 * of child nodes and its last child: what the merge of a cpu_op's only
 * child of the same name asks, known when the node closes. */
struct open_node {
	uint32_t ev, nchild, child;
};
struct open_nodes {
	struct open_node *v;
	size_t n, cap;
};

/* a cpu_op absorbing its only child, a cpu_op of the same name */
struct absorb {
	uint32_t into, ev;
};
struct absorbs {
	struct absorb *v;
	size_t n, cap;
};

/* Closes the innermost open node, noting the absorption it makes. */
static void close_node(const struct tt_rank *r, const struct tt_tbtree *t, struct open_nodes *s,
		       struct absorbs *ab)
{
	const struct open_node *o = &s->v[--s->n];
	if (o->nchild == 1 && r->ev[o->child].name == r->ev[o->ev].name &&
	    tbn_is_operator(r, o->ev, t->kind[o->ev]) &&
	    tbn_is_operator(r, o->child, t->kind[o->child])) {
		TT_GROW(ab->v, ab->cap, ab->n + 1);
		ab->v[ab->n++] = (struct absorb){o->ev, o->child};
	}
}

/* Closes the open nodes that ended by ts. */
static void close_ended(const struct tt_rank *r, const struct tt_tbtree *t, struct open_nodes *s,
			struct absorbs *ab, int64_t ts)
{
	while (s->n && tt_ev_end(&r->ev[s->v[s->n - 1].ev]) <= ts)
		close_node(r, t, s, ab);
}

static void tt_tbtree_build(const struct tt_rank *r, struct tt_tbtree *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = tt_calloc((size_t)r->nev + 1, 1);
	t->parent = tt_tb_none_array(r->nev);
	t->owner = tt_tb_none_array(r->nev);
	t->gpu_owner = tt_tb_none_array(r->nev);
	t->comm = tt_tb_none_array(r->nev);
	t->order = tt_malloc(((size_t)r->nev + 1) * sizeof(*t->order));
	t->nflags = tt_tb_name_flags(r);
	struct open_nodes st = {0};
	struct absorbs ab = {0};
	struct stray *xs;
	size_t nxs = strays(r, &xs);
	const struct stray *xp = xs;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		if (r->tracks[ti].kind != TT_TRACK_CPU)
			continue;
		struct walk w;
		walk_init(&w, r, ti, &xp, nxs ? xs + nxs : xs); /* (xs: NULL when none) */
		for (uint32_t i; (i = walk_next(&w)) != TT_NONE;) {
			const struct tt_event *e = &r->ev[i];
			if (e->flags & TT_EF_MARKER)
				continue;
			close_ended(r, t, &st, &ab, e->ts);
			struct open_node *top = st.n ? &st.v[st.n - 1] : NULL;
			uint32_t p = top ? top->ev : TT_NONE;
			enum tt_tbn k = tbn_kind(r, e, t->nflags);
			if (k == TT_TBN_NONE) {
				t->owner[i] = p;
				continue;
			}
			if (p != TT_NONE && tt_ev_end(e) > tt_ev_end(&r->ev[p])) {
				t->ndropped++; /* ranges on a thread must nest */
				continue;
			}
			t->kind[i] = (uint8_t)k;
			t->parent[i] = p;
			/* (the parent's is set: it was pushed before) */
			t->gpu_owner[i] = owns_gpu(r, t, i) ? i : p != TT_NONE ? t->gpu_owner[p] : TT_NONE;
			bool coll = k == TT_TBN_COMM || (k == TT_TBN_OP && (t->nflags[e->name] & TT_NF_COMM));
			t->comm[i] = coll ? i : p != TT_NONE ? t->comm[p] : TT_NONE;
			t->order[t->norder++] = i;
			if (top) {
				top->nchild++;
				top->child = i;
			}
			TT_GROW(st.v, st.cap, st.n + 1);
			st.v[st.n++] = (struct open_node){i, 0, TT_NONE};
		}
		while (st.n)
			close_node(r, t, &st, &ab);
	}
	free(st.v);
	free(xs);
	if (!ab.n)
		return; /* nothing to merge */
	/* merge a cpu_op's only child of the same name into it, a chain of
	 * them into its first: a node closes before its parent, so from the
	 * last absorption back each one's `into` already has its alias (one
	 * step for resolve: a deep chain stays linear) */
	uint32_t *alias = tt_tb_none_array(r->nev);
	for (size_t j = ab.n; j-- > 0;) {
		uint32_t into = ab.v[j].into;
		alias[ab.v[j].ev] = alias[into] != TT_NONE ? alias[into] : into;
		t->kind[ab.v[j].ev] = TT_TBN_NONE;
	}
	t->nmerged = (uint32_t)ab.n;
	free(ab.v);
	uint32_t w = 0;
	for (uint32_t k = 0; k < t->norder; k++) {
		uint32_t i = t->order[k];
		if (alias[i] != TT_NONE)
			continue;
		t->parent[i] = resolve(alias, t->parent[i]);
		/* (an absorbed cpu_op's: it was its own GPU owner, and a collective
		 * when the op of its name that absorbs it is) */
		t->gpu_owner[i] = resolve(alias, t->gpu_owner[i]);
		t->comm[i] = resolve(alias, t->comm[i]);
		t->order[w++] = i;
	}
	t->norder = w;
	for (uint32_t i = 0; i < r->nev; i++)
		t->owner[i] = resolve(alias, t->owner[i]);
	free(alias);
}

static void *tree_build(const struct tt_rank *r, void *ctx)
{
	(void)ctx;
	struct tt_tbtree *t = tt_malloc(sizeof(*t));
	tt_tbtree_build(r, t);
	return t;
}

static void tt_tbtree_free(struct tt_tbtree *t)
{
	free(t->comm);
	free(t->kind);
	free(t->parent);
	free(t->owner);
	free(t->gpu_owner);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

static void tree_drop(void *v)
{
	tt_tbtree_free(v);
	free(v);
}

const struct tt_tbtree *tt_tbtree_of(const struct tt_rank *r)
{
	return tt_rank_memo(r, TT_MEMO_TB_TREE, tree_build, NULL, tree_drop);
}
