/* Critical path analysis: the graph of one window (critical-path.md
 * §4.3-4.7): the window's events clipped, two nodes for each CPU op,
 * runtime call and kernel, and the edges of HTA's three phases -- the
 * CUDA runtime lock, the call stacks, the kernels and their syncs; then
 * the path search (critpath_path.c).  The per-rank preparation is in
 * critpath.c. */
#include "config.h"

#include "critpath_int.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/collectives.h"
#include "tracetop/util.h"

/* ---- the graph of one window ---- */

/* an event of the window */
struct crow {
	uint32_t ev;
	uint32_t track;
	int64_t ts, end;
};

struct build {
	struct tt_cp *c;
	const struct tt_rank *r;
	struct cp_graph *g;
	struct tt_cp_result *out;
	uint32_t *node_of;     /* [rank's events] -> k (its nodes 2k, 2k+1), TT_NONE
				* (tt_cp.node_of) */
	struct crow *cpu;      /* clipped CPU rows */
	size_t ncpu, ccpu;
	struct crow *gpu;      /* clipped GPU rows (launched in the window) */
	size_t ngpu, cgpu;
	size_t nlaunched;      /* gpu[0 .. nlaunched): launched in the window (the
				* rest: Stream Wait Event rows of any time) */
	/* tracetop's model */
	uint32_t win_ev;       /* the step's annotation, TT_NONE */
	int64_t t0;            /* the window's start */
	uint32_t step_k;       /* graph event of the step's start, TT_NONE */
	uint32_t *arr_of;      /* [nne] kernel's graph event -> graph event of its
				* last arrival, TT_NONE */
	uint32_t *kpart;       /* [nne] the collective part of an arrival */
	uint8_t *nflags;       /* [nne] NF_* of its event's name */
};

/* what a graph event's name does (struct build's nflags) */
enum {
	NF_LOCK = 1,  /* takes the runtime lock (SF_LOCK) */
	NF_BLOCK = 2, /* blocks: its end edge weighs 0 (SF_BLOCK) */
};

static inline uint32_t node_k(const struct build *b, uint32_t ev)
{
	return b->node_of[ev];
}

static void add_edge(struct build *b, uint32_t u, uint32_t v, enum tt_cp_etype type, int phase,
		     bool zero, uint32_t attr)
{
	struct cp_graph *g = b->g;
	TT_GROW(g->e, g->ce, g->ne + 1);
	struct cp_edge *e = &g->e[g->ne++];
	e->u = u;
	e->v = v;
	e->w = (type == TT_CPE_DEPENDENCY || type == TT_CPE_SYNC || zero) ? 0 : g->ts[v] - g->ts[u];
	e->attr = attr;
	e->type = (uint8_t)type;
	e->phase = (uint8_t)phase;
	e->dead = 0;
	e->fixed = 0;
	e->part = TT_NONE;
	b->out->st.by_phase[phase]++;
	if (g->nx[u] == UINT32_MAX) {
		g->nx[u] = g->nnx;
		g->nx_node[g->nnx++] = u;
	}
	if (g->nx[v] == UINT32_MAX) {
		g->nx[v] = g->nnx;
		g->nx_node[g->nnx++] = v;
	}
}

/* HTA attribution (cpa.py 294-354): start -> src's event; end -> end:
 * dest's event; end -> start: the parent of the last event touched */
static uint32_t attribute(const struct cp_graph *g, uint32_t u, uint32_t v, uint32_t parent)
{
	if (!(u & 1))
		return g->ev[u >> 1];
	if (v & 1)
		return g->ev[v >> 1];
	return parent;
}

static bool is_lock_node(const struct build *b, uint32_t node)
{
	return b->nflags[node >> 1] & NF_LOCK;
}

/* two consecutive nodes share the runtime lock: both lock calls and not an
 * (end, start) pair (cpa.py 535-556) */
static bool shares_lock(const struct build *b, uint32_t first, uint32_t second)
{
	return is_lock_node(b, first) && is_lock_node(b, second) && (!(first & 1) || (second & 1));
}

/* does HTA give this event nodes: cat exactly cpu_op, cuda_runtime or
 * cuda_driver (its mask compares strings) */
static bool hta_node_cat(const struct tt_rank *r, const struct tt_event *e)
{
	const struct tt_cat *k = &r->cats[e->cat];
	return !k->legacy &&
	       (k->kind == TT_K_CPU_OP || k->kind == TT_K_RUNTIME || k->kind == TT_K_DRIVER);
}

/* ... and ours: legacy spellings and MTIA's runtime too */
static bool node_cat(const struct tt_rank *r, const struct tt_event *e)
{
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_CPU_OP || k == TT_K_RUNTIME || k == TT_K_DRIVER || k == TT_K_MTIA_RUNTIME;
}

/* Clip (cpa.py 1867-1892): CPU rows starting in [t0, t1] with a duration,
 * GPU rows whose launch is such a row. */
static void clip(struct build *b, int64_t t0, int64_t t1)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	/* a rounded start is at most 1 µs after the written one */
	int64_t lo_raw = t0 > INT64_MIN + 1000 ? t0 - 1000 : INT64_MIN;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind == TT_TRACK_GPU)
			continue; /* (events with a stream live only there) */
		for (uint32_t i = tt_track_lower_ts(r, tr, lo_raw); i < tr->first + tr->count && r->ev[i].ts <= t1; i++) {
			const struct tt_event *e = &r->ev[i];
			if ((e->flags & TT_EF_STREAM) || !tt_sel_has(&c->s, i))
				continue;
			int64_t ts = ev_ts(c, i);
			if (ts < t0 || ts > t1)
				continue;
			int64_t end = ev_end(c, i);
			if (end <= ts)
				continue;
			TT_GROW(b->cpu, b->ccpu, b->ncpu + 1);
			b->cpu[b->ncpu++] = (struct crow){i, t, ts, end};
		}
	}
	uint64_t *seen = c->taken; /* (all clear) */
	/* the links are by CPU event, and so are a track's rows: a search for
	 * a track's first row, then a cursor (over the links of the track's
	 * events in the window) */
	uint32_t lp = 0, ltrack = TT_NONE;
	for (size_t k = 0; k < b->ncpu; k++) {
		uint32_t l0, l1, ev = b->cpu[k].ev;
		if (!r->nlinks)
			break;
		if (r->ev[ev].corr == TT_NONE)
			continue; /* (most ops: no partner to look for) */
		if (b->cpu[k].track != ltrack) {
			tt_links_of_cpu(r, ev, &l0, &l1);
			ltrack = b->cpu[k].track;
			lp = l0;
		} else {
			while (lp < r->nlinks && r->links[lp].cpu < ev)
				lp++;
			l0 = l1 = lp;
			while (l1 < r->nlinks && r->links[l1].cpu == ev)
				l1++;
		}
		/* HTA links a launch to one GPU op, the last of its correlation
		 * in the file (its index_correlation is overwritten by each), so
		 * of a graph launch's ops only the last one is in the window */
		uint32_t only = TT_NONE, nparts = 0;
		for (uint32_t l = l0; l < l1 && !c->o.graph_kernels; l++) {
			uint32_t gi = r->links[l].gpu;
			const struct tt_event *e = &r->ev[gi];
			if (!(e->flags & TT_EF_STREAM) || !tt_hta_parsed(r, e))
				continue;
			nparts++;
			if (only == TT_NONE || e->ts > r->ev[only].ts ||
			    (e->ts == r->ev[only].ts && gi > only))
				only = gi;
		}
		if (nparts > 1)
			b->out->st.graph_left_out += nparts - 1;
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t gi = r->links[l].gpu;
			const struct tt_event *e = &r->ev[gi];
			if (!(e->flags & TT_EF_STREAM) || !tt_sel_has(&c->s, gi))
				continue;
			if (nparts > 1 && gi != only)
				continue;
			if (seen[gi >> 6] >> (gi & 63) & 1)
				continue;
			seen[gi >> 6] |= UINT64_C(1) << (gi & 63);
			TT_GROW(b->gpu, b->cgpu, b->ngpu + 1);
			b->gpu[b->ngpu++] = (struct crow){gi, e->track, ev_ts(c, gi), ev_end(c, gi)};
		}
	}
	b->nlaunched = b->ngpu;
	/* every Stream Wait Event row, whatever its time (1875-1890) */
	for (size_t k = 0; k < c->nswe; k++) {
		uint32_t gi = c->swe[k];
		if (seen[gi >> 6] >> (gi & 63) & 1)
			continue;
		const struct tt_event *e = &r->ev[gi];
		TT_GROW(b->gpu, b->cgpu, b->ngpu + 1);
		b->gpu[b->ngpu++] = (struct crow){gi, e->track, ev_ts(c, gi), ev_end(c, gi)};
	}
	for (size_t k = 0; k < b->nlaunched; k++)
		seen[b->gpu[k].ev >> 6] = 0;
}

/* Nodes (cpa.py 444-509): CPU ops, runtime and driver calls, data-loading
 * ops, and GPU rows other than syncs (those nodes would be isolated). */
static void make_nodes(struct build *b)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	struct cp_graph *g = b->g;
	size_t n = 0;
	/* (room for tracetop's points: the step's start, one arrival per
	 * kernel at most) */
	size_t cap = b->ncpu + 2 * b->ngpu + 2;
	uint32_t *ev = tt_malloc(cap * sizeof(*ev));
	int64_t *ts = tt_malloc(2 * cap * sizeof(*ts));
	uint8_t *kind = tt_calloc(cap, sizeof(*kind));
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		if (!node_cat(r, e) && !(c->sf[e->name] & SF_DATA))
			continue;
		b->node_of[b->cpu[k].ev] = (uint32_t)n;
		ev[n] = b->cpu[k].ev;
		ts[2 * n] = b->cpu[k].ts;
		ts[2 * n + 1] = b->cpu[k].end;
		n++;
	}
	for (size_t k = 0; k < b->ngpu; k++) {
		const struct tt_event *e = &r->ev[b->gpu[k].ev];
		if (tt_ev_kind(r, e) == TT_K_SYNC || e->corr == TT_NONE)
			continue;
		b->node_of[b->gpu[k].ev] = (uint32_t)n;
		ev[n] = b->gpu[k].ev;
		ts[2 * n] = b->gpu[k].ts;
		ts[2 * n + 1] = b->gpu[k].end;
		n++;
	}
	/* tracetop's model: the step's start; in each collective kernel that
	 * waited, the last rank's arrival (its wait after the kernel's start,
	 * within the kernel; collectives.h) */
	b->step_k = TT_NONE;
	if (c->tt && b->win_ev != TT_NONE) {
		b->step_k = (uint32_t)n;
		ev[n] = b->win_ev;
		kind[n] = CPK_STEP;
		ts[2 * n] = ts[2 * n + 1] = b->t0;
		n++;
	}
	b->kpart = tt_malloc(cap * sizeof(*b->kpart));
	b->arr_of = tt_malloc(cap * sizeof(*b->arr_of));
	memset(b->arr_of, 0xff, cap * sizeof(*b->arr_of));
	const struct tt_coll *cl = c->tt ? c->o.coll : NULL;
	size_t ntg = 0;
	for (size_t k = 0; cl && k < b->ngpu; k++) {
		uint32_t gi = b->gpu[k].ev;
		uint32_t pi = tt_coll_part_of(cl, c->ri, gi);
		uint32_t gk = b->node_of[gi];
		if (pi == TT_NONE || gk == TT_NONE)
			continue;
		const struct tt_coll_part *pt = &cl->parts[pi];
		if (pt->kernel != gi || pt->coll == TT_NONE || cl->colls[pt->coll].last == TT_NONE)
			continue;
		const struct tt_coll_op *co = &cl->colls[pt->coll];
		if (co->last == pi && co->wait_sum > 0) {
			/* this rank arrived last and others waited: the job's
			 * path may come to its arrival */
			if (!g->tgt_node) {
				g->tgt_node = tt_malloc((b->ngpu + 1) * sizeof(*g->tgt_node));
				g->tgt_part = tt_malloc((b->ngpu + 1) * sizeof(*g->tgt_part));
			}
			g->tgt_node[ntg] = 2 * gk;
			g->tgt_part[ntg++] = pi;
		}
		if (pt->wait <= 0)
			continue;
		int64_t at = b->gpu[k].ts + pt->wait;
		if (at > b->gpu[k].end)
			at = b->gpu[k].end;
		/* (this rank arrived last: the job's path may come here) */
		b->arr_of[gk] = (uint32_t)n;
		b->kpart[n] = pi;
		ev[n] = gi;
		kind[n] = CPK_ARRIVAL;
		ts[2 * n] = b->gpu[k].ts;
		ts[2 * n + 1] = at;
		n++;
	}
	g->ntgt = ntg;
	b->nflags = tt_malloc(n + 1);
	for (size_t k = 0; k < n; k++) {
		uint8_t f = c->sf[r->ev[ev[k]].name];
		b->nflags[k] = (uint8_t)((f & SF_LOCK ? NF_LOCK : 0) | (f & SF_BLOCK ? NF_BLOCK : 0));
	}
	g->nne = (uint32_t)n;
	g->ev = ev;
	g->ts = ts;
	g->kind = kind;
	g->tt = c->tt;
	g->coll = cl;
	g->nx = tt_malloc((2 * n + 1) * sizeof(*g->nx));
	memset(g->nx, 0xff, (2 * n + 1) * sizeof(*g->nx));
	g->nx_node = tt_malloc((2 * n + 1) * sizeof(*g->nx_node));
}

/* ---- phase 1: the CUDA runtime lock (cpa.py 523-627) ---- */

struct lnode {
	int64_t ts;
	uint32_t ev;
	uint32_t node; /* 2k or 2k+1 */
};

static int lnode_cmp(const void *a, const void *b, void *ctx)
{
	const struct lnode *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return (x->node & 1) < (y->node & 1) ? -1 : (x->node & 1) > (y->node & 1);
}

static void phase_lock(struct build *b)
{
	struct cp_graph *g = b->g;
	size_t n = 0, cap = 0;
	struct lnode *v = NULL;
	for (uint32_t k = 0; k < g->nne; k++) {
		if (!(b->nflags[k] & NF_LOCK))
			continue;
		TT_GROW(v, cap, n + 2);
		v[n++] = (struct lnode){g->ts[2 * k], g->ev[k], 2 * k};
		v[n++] = (struct lnode){g->ts[2 * k + 1], g->ev[k], 2 * k + 1};
	}
	tt_msort(v, n, sizeof(*v), lnode_cmp, NULL);
	uint32_t *stack = tt_malloc((n + 1) * sizeof(*stack));
	size_t sp = 0;
	uint32_t prev = TT_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t node = v[i].node;
		if (!(node & 1)) {
			stack[sp++] = node;
		} else {
			while (sp) {
				uint32_t s = stack[--sp];
				if (s == (node ^ 1))
					add_edge(b, s, node, TT_CPE_OPERATOR, 0, false, v[i].ev);
				else
					add_edge(b, s, node, TT_CPE_DEPENDENCY, 0, false, TT_NONE);
			}
			if (prev != TT_NONE && (prev & 1))
				add_edge(b, prev, node, TT_CPE_DEPENDENCY, 0, false, TT_NONE);
		}
		prev = node;
	}
	free(stack);
	free(v);
}

/* ---- phase 2: call stacks (cpa.py 629-795, call_stack.py) ---- */

struct srow {
	int64_t ts, dur;
	uint32_t ev;
	uint32_t k; /* its graph event, TT_NONE: no nodes */
	int64_t end;
};

/* starts in HTA's stack order: time, longer first, lower index */
static int srow_cmp(const void *a, const void *b, void *ctx)
{
	const struct srow *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* A thread's rows in stack order.  They come in its tracks' order, most
 * often already so: one look, the comparison inlined, and a sort only when
 * a row is out of order. */
static void sort_rows(struct srow *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (srow_cmp(&v[i - 1], &v[i], NULL) > 0) {
			tt_msort(v, n, sizeof(*v), srow_cmp, NULL);
			return;
		}
}

/* a binary min-heap of end times */
struct heap {
	int64_t *v;
	size_t n, cap;
};

static void heap_push(struct heap *h, int64_t x)
{
	TT_GROW(h->v, h->cap, h->n + 1);
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->v[p] <= x)
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = x;
}

static void heap_pop(struct heap *h)
{
	int64_t x = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= h->n)
			break;
		if (l + 1 < h->n && h->v[l + 1] < h->v[l])
			l++;
		if (h->v[l] >= x)
			break;
		h->v[i] = h->v[l];
		i = l;
	}
	if (h->n)
		h->v[i] = x;
}

/* the walk of one CPU thread's call stack */
struct walk {
	struct build *b;
	uint32_t last;   /* last node touched */
	uint32_t lparent; /* the stack parent of the event last touched */
	int depth;       /* open events with nodes */
	uint32_t step;   /* tracetop's model, the step's thread: the node of the
			  * step's start, TT_NONE */
};

/* an event with nodes (graph event k) opens, inside parent (an event) */
static void walk_enter(struct walk *w, uint32_t k, uint32_t parent)
{
	struct build *b = w->b;
	uint32_t sn = 2 * k;
	if (w->last == TT_NONE && w->step != TT_NONE) {
		/* tracetop's model: from the step's start to its first op */
		add_edge(b, w->step, sn, TT_CPE_GAP, 1, false, TT_NONE);
	} else if (w->last != TT_NONE && !shares_lock(b, w->last, sn)) {
		/* between top-level ops: HTA's dependency weighs 0, tracetop's
		 * gap weighs the time the thread spent outside ops */
		enum tt_cp_etype t = w->depth != 0 ? TT_CPE_OPERATOR :
				     b->c->tt	   ? TT_CPE_GAP :
						     TT_CPE_DEPENDENCY;
		uint32_t attr = t == TT_CPE_OPERATOR ? attribute(b->g, w->last, sn, w->lparent) :
						       TT_NONE;
		add_edge(b, w->last, sn, t, 1, false, attr);
	}
	w->last = sn;
	w->lparent = parent;
	w->depth++;
}

/* ... and closes */
static void walk_exit(struct walk *w, uint32_t k, uint32_t parent)
{
	struct build *b = w->b;
	uint32_t en = 2 * k + 1;
	if (w->last != TT_NONE && !shares_lock(b, w->last, en)) {
		bool blocking = b->nflags[k] & NF_BLOCK;
		add_edge(b, w->last, en, TT_CPE_OPERATOR, 1, blocking,
			 attribute(b->g, w->last, en, w->lparent));
	}
	w->last = en;
	w->lparent = parent;
	w->depth--;
}

/* One thread: events in start order; an end pops the top of the stack
 * whatever it is (call_stack.py 230-262), and that pop is the depth-first
 * walk's exit of the popped event (413-431). */
static void walk_thread(struct build *b, struct srow *v, size_t n, bool step_thread)
{
	sort_rows(v, n);
	struct walk w = {b, TT_NONE, TT_NONE, 0, TT_NONE};
	if (step_thread && b->step_k != TT_NONE)
		w.step = 2 * b->step_k;
	struct heap h = {0};
	struct open {
		uint32_t ev, k, parent;
	} *stack = tt_malloc((n + 1) * sizeof(*stack));
	size_t sp = 0;
	for (size_t i = 0; i < n; i++) {
		while (h.n && h.v[0] <= v[i].ts) {
			heap_pop(&h);
			if (sp && stack[--sp].k != TT_NONE)
				walk_exit(&w, stack[sp].k, stack[sp].parent);
		}
		uint32_t parent = sp ? stack[sp - 1].ev : TT_NONE;
		if (v[i].k != TT_NONE)
			walk_enter(&w, v[i].k, parent);
		stack[sp++] = (struct open){v[i].ev, v[i].k, parent};
		heap_push(&h, v[i].end);
	}
	while (sp) {
		if (stack[--sp].k != TT_NONE)
			walk_exit(&w, stack[sp].k, stack[sp].parent);
	}
	free(h.v);
	free(stack);
}

struct tkey {
	int64_t pid, tid;
	uint32_t track;
};

static int tkey_cmp(const void *a, const void *b, void *ctx)
{
	const struct tkey *x = a, *y = b;
	(void)ctx;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

/* The forward thread and the backward thread: for each of SF_FWD and
 * SF_AUTOGRAD, the one thread with rows of category cpu_op or
 * user_annotation whose name has the flag; false when a flag has none or
 * several.  One pass over the rows for both. */
static bool fwd_bwd_tids(const struct build *b, int64_t *fwd, int64_t *bwd)
{
	const struct tt_rank *r = b->r;
	static const uint8_t flag[2] = {SF_FWD, SF_AUTOGRAD};
	int64_t tid[2] = {0, 0};
	bool found[2] = {false, false}, several[2] = {false, false};
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		uint8_t f = b->c->sf[e->name];
		const struct tt_cat *cat = &r->cats[e->cat];
		if (!(f & (SF_FWD | SF_AUTOGRAD)) || cat->legacy ||
		    (cat->kind != TT_K_CPU_OP && cat->kind != TT_K_USER_ANNOT))
			continue;
		int64_t t = r->tracks[b->cpu[k].track].tid;
		for (int j = 0; j < 2; j++) {
			if (!(f & flag[j]))
				continue;
			several[j] |= found[j] && t != tid[j];
			found[j] = true;
			tid[j] = t;
		}
	}
	*fwd = tid[0];
	*bwd = tid[1];
	return found[0] && !several[0] && found[1] && !several[1];
}

static void phase_stacks(struct build *b)
{
	const struct tt_rank *r = b->r;
	/* the backward thread joins the forward thread (cpa.py 629-697) */
	int64_t fwd = 0, bwd = 0;
	bool merge = fwd_bwd_tids(b, &fwd, &bwd) && fwd != bwd;
	/* CPU threads with rows, by (pid, tid) */
	uint32_t *rows_of = tt_calloc((size_t)r->ntracks + 1, sizeof(*rows_of));
	for (size_t k = 0; k < b->ncpu; k++)
		rows_of[b->cpu[k].track]++;
	size_t nt = 0;
	struct tkey *tk = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*tk));
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind != TT_TRACK_CPU || !rows_of[t])
			continue;
		int64_t tid = merge && tr->tid == bwd ? fwd : tr->tid;
		tk[nt++] = (struct tkey){tr->pid, tid, t};
	}
	tt_msort(tk, nt, sizeof(*tk), tkey_cmp, NULL);
	/* first row of each track in b->cpu (rows are grouped by track) */
	uint32_t *first = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*first));
	for (size_t k = b->ncpu; k-- > 0;)
		first[b->cpu[k].track] = (uint32_t)k;
	struct srow *v = b->c->rows_thread;
	size_t cap = b->c->cap_thread;
	uint32_t step_track = b->win_ev != TT_NONE ? r->ev[b->win_ev].track : TT_NONE;
	for (size_t i = 0; i < nt;) {
		size_t j = i, n = 0;
		bool step_thread = false;
		while (j < nt && tk[j].pid == tk[i].pid && tk[j].tid == tk[i].tid) {
			uint32_t t = tk[j].track;
			step_thread |= t == step_track;
			TT_GROW(v, cap, n + rows_of[t]);
			for (uint32_t k = first[t]; k < first[t] + rows_of[t]; k++) {
				const struct crow *cr = &b->cpu[k];
				v[n++] = (struct srow){cr->ts, cr->end - cr->ts, cr->ev,
						       node_k(b, cr->ev), cr->end};
			}
			j++;
		}
		walk_thread(b, v, n, step_thread);
		i = j;
	}
	b->c->rows_thread = v;
	b->c->cap_thread = cap;
	free(first);
	free(tk);
	free(rows_of);
}

/* ---- phase 3: kernels and syncs (cpa.py 1153-1439) ---- */

struct krow {
	int64_t key; /* ts, or the end of a sync */
	uint32_t ev;
	uint32_t track;
	uint8_t sync;
	uint8_t pad[7];
};

static int krow_cmp(const void *a, const void *b, void *ctx)
{
	const struct krow *x = a, *y = b;
	(void)ctx;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* the end node of the last kernel per (device, stream), in insertion order */
struct lastk {
	int64_t dev, stream;
	uint32_t node;
};

struct lasts {
	struct lastk *v;
	size_t n, cap;
	size_t hint;
	struct tt_hmap ix; /* (dev, stream) hashed -> index in v: a lookup, not a
			    * walk of every stream, per event */
};

static uint64_t last_key(int64_t dev, int64_t stream)
{
	return tt_hmap_mix((uint64_t)dev) ^ (uint64_t)stream;
}

static struct lastk *last_find(struct lasts *l, int64_t dev, int64_t stream)
{
	if (l->hint < l->n && l->v[l->hint].dev == dev && l->v[l->hint].stream == stream)
		return &l->v[l->hint];
	size_t pos;
	uint64_t key = last_key(dev, stream);
	for (uint32_t i = tt_hmap_first(&l->ix, key, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(&l->ix, key, &pos))
		if (l->v[i].dev == dev && l->v[i].stream == stream) {
			l->hint = i;
			return &l->v[i];
		}
	return NULL;
}

static void last_set(struct lasts *l, int64_t dev, int64_t stream, uint32_t node)
{
	struct lastk *x = last_find(l, dev, stream);
	if (x) {
		x->node = node;
		return;
	}
	TT_GROW(l->v, l->cap, l->n + 1);
	tt_hmap_add(&l->ix, last_key(dev, stream), (uint32_t)l->n);
	l->v[l->n++] = (struct lastk){dev, stream, node};
}

/* the end node of the runtime call a sync row is linked to, or TT_NONE */
static uint32_t runtime_end(struct build *b, uint32_t sync_ev)
{
	uint32_t call = tt_launch_of(b->r, sync_ev);
	if (call == TT_NONE)
		return TT_NONE;
	uint32_t k = node_k(b, call);
	return k == TT_NONE ? TT_NONE : 2 * k + 1;
}

/* tracetop's model: a kernel that starts within this long of another
 * stream's op ending, launched before that op ended and after its own
 * stream's previous kernel ended, with no sync into it, waited for that op
 * (an event wait the graph has no edge for, e.g. one issued on another
 * thread, or no Stream Wait Event row in the trace) */
#define CP_IMPLICIT_WAIT_NS (50 * INT64_C(1000))
/* ... and it replaces HTA's launch delay or kernel gap only when that
 * would be this long (a launch takes microseconds, not a millisecond: the
 * kernel was held back) */
#define CP_IMPLICIT_STALL_NS (500 * INT64_C(1000))

/* a GPU op's end, by device and time */
struct gend {
	int64_t dev, end;
	uint32_t track; /* its stream */
	uint32_t k;     /* its graph event */
};

static int gend_cmp(const void *a, const void *b, void *ctx)
{
	const struct gend *x = a, *y = b;
	(void)ctx;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* The graph event of the op that kernel k (of track tr, starting at ts,
 * launched at lts) waited for, or TT_NONE: the op of another stream of
 * its device that ended last at or before ts, within CP_IMPLICIT_WAIT_NS,
 * after lts. */
static uint32_t implicit_wait(const struct build *b, const struct gend *v, size_t n,
			      const struct tt_track *tr, uint32_t track, int64_t ts, int64_t lts)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].dev < tr->pid || (v[mid].dev == tr->pid && v[mid].end <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back over the ops of its own stream (a few: it runs one at a time) */
	for (size_t i = lo, steps = 0; i-- > 0 && steps < 64; steps++) {
		const struct gend *x = &v[i];
		if (x->dev != tr->pid || ts - x->end > CP_IMPLICIT_WAIT_NS || x->end <= lts)
			return TT_NONE;
		if (x->track != track && b->g->ts[2 * x->k] < ts)
			return x->k;
	}
	return TT_NONE;
}

static void phase_kernels(struct build *b)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	struct cp_graph *g = b->g;
	size_t n = 0;
	struct krow *v = tt_malloc((b->ngpu + b->ncpu + 1) * sizeof(*v));
	for (size_t k = 0; k < b->ngpu; k++) {
		const struct tt_event *e = &r->ev[b->gpu[k].ev];
		if (e->corr == TT_NONE)
			continue;
		bool sync = tt_ev_kind(r, e) == TT_K_SYNC;
		v[n++] = (struct krow){sync ? b->gpu[k].end : b->gpu[k].ts, b->gpu[k].ev,
				       b->gpu[k].track, sync, {0}};
	}
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		if (e->corr == TT_NONE || tt_ev_kind(r, e) != TT_K_SYNC ||
		    (e->name != c->id_event_sync && e->name != c->id_context_sync))
			continue;
		v[n++] = (struct krow){b->cpu[k].end, b->cpu[k].ev, b->cpu[k].track, 1, {0}};
	}
	tt_msort(v, n, sizeof(*v), krow_cmp, NULL);
	/* tracetop's model: the ops' ends for implicit waits */
	struct gend *ge = NULL;
	size_t nge = 0;
	if (c->tt) {
		ge = tt_malloc((b->ngpu + 1) * sizeof(*ge));
		for (size_t k = 0; k < b->ngpu; k++) {
			uint32_t gk = node_k(b, b->gpu[k].ev);
			if (gk == TT_NONE)
				continue;
			ge[nge++] = (struct gend){r->tracks[b->gpu[k].track].pid, b->gpu[k].end,
						  b->gpu[k].track, gk};
		}
		tt_msort(ge, nge, sizeof(*ge), gend_cmp, NULL);
	}

	struct lasts last = {0};
	struct tt_hmap ksync = {0}; /* kernel -> the kernel it waits for */
	for (size_t i = 0; i < n; i++) {
		uint32_t ev = v[i].ev;
		const struct tt_event *e = &r->ev[ev];
		const struct tt_track *tr = &r->tracks[v[i].track];
		if (v[i].sync) {
			if (e->name == c->id_swe || e->name == c->id_event_sync) {
				if (!(e->flags & TT_EF_SYNCINFO) || e->aux >= r->nsyncinfo)
					continue;
				int64_t wc = r->syncinfo[e->aux].wait_corr;
				if (wc < 0 || wc >= UINT32_MAX)
					continue;
				uint32_t src = map_get(&c->rec_src, (uint32_t)wc);
				if (src == TT_NONE)
					continue;
				if (e->name == c->id_swe) {
					uint32_t call = tt_launch_of(r, ev);
					uint32_t dest =
						call == TT_NONE ? TT_NONE : map_get(&c->swe_dest, call);
					if (dest != TT_NONE)
						map_put(&ksync, dest, src);
				} else {
					uint32_t sk = node_k(b, src), re = runtime_end(b, ev);
					if (sk != TT_NONE && re != TT_NONE)
						add_edge(b, 2 * sk + 1, re, TT_CPE_SYNC, 2, false,
							 TT_NONE);
				}
			} else if (e->name == c->id_stream_sync && (e->flags & TT_EF_STREAM)) {
				uint32_t re = runtime_end(b, ev);
				struct lastk *l = last_find(&last, tr->pid, tr->stream);
				if (re != TT_NONE && l)
					add_edge(b, l->node, re, TT_CPE_SYNC, 2, false, TT_NONE);
			} else if (e->name == c->id_context_sync) {
				uint32_t re = runtime_end(b, ev);
				for (size_t j = 0; re != TT_NONE && j < last.n; j++)
					add_edge(b, last.v[j].node, re, TT_CPE_SYNC, 2, false,
						 TT_NONE);
			}
			continue;
		}
		uint32_t k = node_k(b, ev);
		if (k == TT_NONE)
			continue;
		b->out->st.kernels++;
		uint32_t sn = 2 * k, en = 2 * k + 1;
		uint32_t aj = b->arr_of[k];
		if (aj != TT_NONE) {
			/* tracetop's model: waiting for the last rank, then the
			 * collective itself */
			add_edge(b, sn, 2 * aj + 1, TT_CPE_WAIT, 2, false, ev);
			g->e[g->ne - 1].part = b->kpart[aj];
			add_edge(b, 2 * aj + 1, en, TT_CPE_OPERATOR, 2, false, ev);
			/* the arrival is not before the late rank's: weight 0 here,
			 * its time in a what-if (whatif(), critpath_path.c) */
			if (b->step_k != TT_NONE) {
				add_edge(b, 2 * b->step_k, 2 * aj + 1, TT_CPE_WAIT, 2, true, ev);
				g->e[g->ne - 1].part = b->kpart[aj];
				g->e[g->ne - 1].fixed = 1;
			}
		} else {
			add_edge(b, sn, en, TT_CPE_OPERATOR, 2, false, ev);
		}
		bool added = false, has_sync = false;
		int64_t sync_ts = 0;
		uint32_t src = map_get(&ksync, ev);
		if (src != TT_NONE) {
			uint32_t sk = node_k(b, src);
			const struct tt_track *st = &r->tracks[r->ev[src].track];
			if (sk != TT_NONE && st->pid == tr->pid && st->stream == tr->stream) {
				/* HTA: "Seeing a CUDA sync between kernels on same
				 * stream", the graph is invalid; the stream's order
				 * already holds */
				b->out->hta_fails |= TT_CP_HTA_SAME_STREAM;
			} else if (sk != TT_NONE) {
				add_edge(b, 2 * sk + 1, sn, TT_CPE_SYNC, 2, false, TT_NONE);
				added = has_sync = true;
				sync_ts = g->ts[2 * sk + 1];
			}
			map_put(&ksync, ev, TT_NONE);
		}
		struct lastk *l = last_find(&last, tr->pid, tr->stream);
		int64_t last_ts = l ? g->ts[l->node] : 0;
		uint32_t launch = tt_launch_of(r, ev);
		int64_t launch_ts = launch != TT_NONE ? ev_ts(c, launch) : 0;
		/* tracetop's model: a wait for another stream's op the graph has
		 * no sync for counts as one (then HTA's rules below add no launch
		 * delay or kernel gap that it explains) -- when HTA's rules would
		 * add nothing, or a delay or gap too long to be one */
		if (!has_sync && c->tt && launch != TT_NONE) {
			bool hta_launch = c->qr[ev] == 1 && c->qk[ev] == 0 && (!l || last_ts < launch_ts);
			int64_t hta_w = hta_launch ? g->ts[sn] - launch_ts :
				      l && g->ts[sn] - last_ts < TT_CP_KK_CUT_NS ? g->ts[sn] - last_ts :
										   -1;
			uint32_t wk = hta_w < 0 || hta_w >= CP_IMPLICIT_STALL_NS ?
					      implicit_wait(b, ge, nge, tr, v[i].track, g->ts[sn],
							    launch_ts) :
					      TT_NONE;
			if (wk != TT_NONE && (!l || g->ts[2 * wk + 1] > last_ts)) {
				add_edge(b, 2 * wk + 1, sn, TT_CPE_SYNC, 2, false, TT_NONE);
				added = has_sync = true;
				sync_ts = g->ts[2 * wk + 1];
				b->out->st.implicit_waits++;
			}
		}
		if (launch != TT_NONE && c->qr[ev] == 1 && c->qk[ev] == 0 &&
		    (!l || last_ts < launch_ts) && (!has_sync || sync_ts < launch_ts)) {
			uint32_t lk = node_k(b, launch);
			if (lk != TT_NONE) {
				add_edge(b, 2 * lk, sn, TT_CPE_LAUNCH, 2, false, TT_NONE);
				added = true;
				if (!hta_node_cat(r, &r->ev[launch]))
					b->out->hta_fails |= TT_CP_HTA_LAUNCH_NODE;
			}
		} else if (l && g->ts[sn] - last_ts < TT_CP_KK_CUT_NS &&
			   (!has_sync || sync_ts < last_ts)) {
			add_edge(b, l->node, sn, TT_CPE_KK, 2, false, g->ev[l->node >> 1]);
			added = true;
		}
		if (!added)
			b->out->st.no_edge++;
		last_set(&last, tr->pid, tr->stream, en);
	}
	free(ge);
	map_free(&ksync);
	free(last.v);
	tt_hmap_free(&last.ix);
	free(v);
}

/* ---- running a window ---- */

const char *tt_cp_status_text(enum tt_cp_status s)
{
	switch (s) {
	case TT_CP_OK:
		return "ok";
	case TT_CP_NO_ANNOTATION:
		return "no event's name contains the annotation";
	case TT_CP_NO_INSTANCE:
		return "no such instance of the annotation";
	case TT_CP_EMPTY:
		return "the window holds no CPU op, runtime call or kernel";
	case TT_CP_CYCLE:
		return "the graph has a cycle: no longest path";
	}
	return "?";
}

int tt_cp_run(struct tt_cp *c, const struct tt_cp_window *w, struct tt_cp_result *out)
{
	const struct tt_rank *r = c->r;
	memset(out, 0, sizeof(*out));
	out->r = r;
	out->ri = c->ri;
	out->rank = r->rank;
	out->wkind = w->kind;
	out->win_ev = TT_NONE;
	if (!c->any_queue)
		out->hta_fails |= TT_CP_HTA_NO_QUEUE;
	int64_t t0, t1;
	if (w->kind == TT_CPW_ANNOT) {
		const uint32_t *rows;
		size_t n = tt_cp_instances(c, w->annotation ? w->annotation : "", &rows);
		out->ninstances = (uint32_t)n;
		out->first = w->first;
		out->last = w->last;
		if (!n) {
			out->status = TT_CP_NO_ANNOTATION;
			return -1;
		}
		if (w->first < 0 || w->last < w->first || (uint64_t)w->first >= n) {
			out->status = TT_CP_NO_INSTANCE;
			return -1;
		}
		/* (HTA slices the rows: a range past the end stops at the end) */
		size_t last = (uint64_t)w->last >= n ? n - 1 : (size_t)w->last;
		out->last = (int64_t)last;
		out->win_ev = rows[w->first];
		t0 = INT64_MAX;
		t1 = INT64_MIN;
		for (size_t i = (size_t)w->first; i <= last; i++) {
			int64_t a = ev_ts(c, rows[i]), z = ev_end(c, rows[i]);
			if (a < t0)
				t0 = a;
			if (z > t1)
				t1 = z;
		}
	} else if (w->kind == TT_CPW_TIME) {
		t0 = w->t0;
		t1 = w->t1;
	} else {
		/* from the first event on (HTA's end is the unshifted absolute
		 * end: nothing is cut at the end) */
		t0 = c->min_ts;
		t1 = INT64_MAX;
	}
	out->t0 = t0;
	out->t1 = t1;

	struct cp_graph g = {.r = r, .sf = c->sf};
	if (!c->node_of) {
		c->node_of = tt_malloc(((size_t)r->nev + 1) * sizeof(*c->node_of));
		memset(c->node_of, 0xff, ((size_t)r->nev + 1) * sizeof(*c->node_of));
		c->taken = tt_calloc((size_t)r->nev / 64 + 1, sizeof(*c->taken));
		c->name_slot = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*c->name_slot));
		memset(c->name_slot, 0xff, ((size_t)r->strs.n + 1) * sizeof(*c->name_slot));
		c->name_bound = tt_calloc((size_t)r->strs.n + 1, 1);
	}
	struct build b = {.c = c, .r = r, .g = &g, .out = out, .t0 = t0, .node_of = c->node_of};
	b.cpu = c->rows_cpu;
	b.ccpu = c->cap_cpu;
	b.gpu = c->rows_gpu;
	b.cgpu = c->cap_gpu;
	g.e = c->edges;
	g.ce = c->cap_edges;
	g.name_slot = c->name_slot;
	g.name_bound = c->name_bound;
	g.evbits = c->taken;
	/* tracetop's model: a step (one instance) starts at its start */
	b.win_ev = w->kind == TT_CPW_ANNOT && out->first == out->last ? out->win_ev : TT_NONE;
	out->model = c->tt ? TT_CPM_TRACETOP : TT_CPM_HTA;
	clip(&b, t0, t1);
	out->st.clipped = (uint32_t)(b.ncpu + b.ngpu);
	make_nodes(&b);
	phase_lock(&b);
	phase_stacks(&b);
	phase_kernels(&b);
	out->no_gpu = out->st.kernels == 0;
	cp_path(&g, &c->o, out);
	/* what the path covers of the step: from its start to the end of the
	 * last GPU op it launched */
	if (b.win_ev != TT_NONE) {
		out->has_step = true;
		out->step_t0 = t0;
		out->step_t1 = t1;
		for (size_t k = 0; k < b.nlaunched; k++)
			if (b.gpu[k].end > out->step_t1)
				out->step_t1 = b.gpu[k].end;
		if (out->status == TT_CP_OK) {
			out->not_before = out->nodes[0].ts - out->step_t0;
			out->not_after = out->step_t1 - out->nodes[out->nnodes - 1].ts;
			out->not_inside = out->span - out->length;
		}
	}

	for (uint32_t k = 0; k < g.nne; k++)
		if (g.kind[k] == CPK_EVENT)
			c->node_of[g.ev[k]] = TT_NONE;
	free(b.arr_of);
	free(b.nflags);
	free(b.kpart);
	free(g.kind);
	free(g.tgt_node);
	free(g.tgt_part);
	c->rows_cpu = b.cpu;
	c->cap_cpu = b.ccpu;
	c->rows_gpu = b.gpu;
	c->cap_gpu = b.cgpu;
	c->edges = g.e;
	c->cap_edges = g.ce;
	free(g.ev);
	free(g.ts);
	free(g.nx);
	free(g.nx_node);
	return out->status == TT_CP_OK ? 0 : -1;
}

int tt_critical_path(const struct tt_model *m, size_t ri, const struct tt_cp_window *w,
		     const struct tt_cp_opts *o, struct tt_cp_result *out)
{
	struct tt_cp *c = tt_cp_prepare(m, ri, o);
	int rc = tt_cp_run(c, w, out);
	tt_cp_free(c);
	return rc;
}
