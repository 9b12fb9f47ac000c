/* The timeline rasteriser (see raster.h): a painter over sorted spans, with
 * its state saved every TT_RIX_BLOCK spans so that any instant can be
 * reached by a binary search and a short replay.
 *
 * The painter keeps a stack of open foreground spans; the innermost one is
 * the latest started that has not ended (ended spans are dropped when they
 * reach the top).  Saved stacks share their common bottoms: every entry is
 * stored once as a node {end, span, class, parent}, so saving the state of
 * every block costs only the entries pushed since the last save. */
#include "config.h"

#include "tracetop/raster.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/testing.h"
#include "tracetop/util.h"

#define NONE UINT32_MAX
#define B TT_RIX_BLOCK

struct pnode {
	int64_t end;
	uint32_t parent;
	uint32_t ev;
	uint8_t cls;
	uint8_t pad[7];
};

struct snap {
	int64_t t;      /* start of the block's first span */
	int64_t bg_end; /* end of the latest-ending annotation so far */
	uint64_t cov[TT_RC_COUNT]; /* modulo 2^64: differences are exact */
	uint32_t nfg;
	uint32_t top;   /* node on top of the saved stack */
	uint32_t bg_ev;
	uint32_t pad;
};

struct tt_rix {
	uint32_t n, nblocks;
	struct snap *snaps;
	struct pnode *nodes;
	size_t nnodes, capnodes;
	tt_span_fetch fetch;
	const void *ctx;
};

/* an entry of the painter's own (unsaved) stack */
struct pent {
	int64_t end;
	uint32_t ev;
	uint32_t node; /* saved as this node, or NONE */
	uint8_t cls;
	uint8_t pad[7];
};

struct painter {
	const struct tt_rix *ix;
	int64_t cur;
	uint64_t cov[TT_RC_COUNT];
	uint32_t nfg;
	struct pent *st;
	size_t sp, cap;
	bool grow; /* st may be reallocated (building) */
	uint32_t base; /* saved stack below st[0], or NONE */
	int64_t bg_end;
	uint32_t bg_ev;
};

/* ---- the painter ---- */

static bool p_top(const struct painter *p, int64_t *end, uint8_t *cls, uint32_t *ev)
{
	if (p->sp) {
		const struct pent *e = &p->st[p->sp - 1];
		*end = e->end;
		*cls = e->cls;
		*ev = e->ev;
		return true;
	}
	if (p->base != NONE) {
		const struct pnode *n = &p->ix->nodes[p->base];
		*end = n->end;
		*cls = n->cls;
		*ev = n->ev;
		return true;
	}
	return false;
}

static void p_pop(struct painter *p)
{
	if (p->sp)
		p->sp--;
	else if (p->base != NONE)
		p->base = p->ix->nodes[p->base].parent;
}

/* drop the ended spans on top of the stack */
static void p_prune(struct painter *p, int64_t t)
{
	int64_t end;
	uint8_t cls;
	uint32_t ev;
	while (p_top(p, &end, &cls, &ev) && end <= t)
		p_pop(p);
}

/* paint from p->cur up to `to` */
static void p_advance(struct painter *p, int64_t to)
{
	while (p->cur < to) {
		int64_t end;
		uint8_t cls;
		uint32_t ev;
		p_prune(p, p->cur);
		if (p_top(p, &end, &cls, &ev)) {
			/* innermost foreground span */
		} else if (p->bg_end > p->cur) {
			end = p->bg_end;
			cls = TT_RC_ANNOT;
		} else {
			end = to;
			cls = TT_RC_IDLE;
		}
		if (end > to)
			end = to;
		p->cov[cls] += (uint64_t)end - (uint64_t)p->cur;
		p->cur = end;
	}
}

/* span i starts (the painter is at its start) */
static void p_span(struct painter *p, const struct tt_span *s, uint32_t i)
{
	if (s->cls == TT_RC_SKIP || s->cls >= TT_RC_COUNT || s->cls == TT_RC_IDLE)
		return;
	int64_t end = s->dur > 0 && s->ts <= INT64_MAX - s->dur ? s->ts + s->dur : s->ts;
	if (s->cls == TT_RC_ANNOT) {
		if (end > s->ts && end > p->bg_end) {
			p->bg_end = end;
			p->bg_ev = i;
		}
		return;
	}
	p->nfg++;
	if (end <= s->ts)
		return;
	if (p->sp == p->cap) {
		if (!p->grow)
			return; /* cannot happen: a replay pushes at most a block */
		TT_GROW(p->st, p->cap, p->sp + 1);
	}
	struct pent *e = &p->st[p->sp++];
	e->end = end;
	e->ev = i;
	e->node = NONE;
	e->cls = s->cls;
}

/* ---- the index ---- */

static uint32_t new_node(struct tt_rix *ix, const struct pent *e, uint32_t parent)
{
	TT_GROW(ix->nodes, ix->capnodes, ix->nnodes + 1);
	struct pnode *n = &ix->nodes[ix->nnodes];
	memset(n, 0, sizeof(*n));
	n->end = e->end;
	n->parent = parent;
	n->ev = e->ev;
	n->cls = e->cls;
	return (uint32_t)ix->nnodes++;
}

/* The painter of the build: the same rules as p_advance / p_span with the
 * state in locals (the build touches every span; queries replay few). */
struct tt_rix *tt_rix_build(uint32_t n, tt_span_fetch fetch, const void *ctx)
{
	struct tt_rix *ix = tt_calloc(1, sizeof(*ix));
	ix->n = n;
	ix->fetch = fetch;
	ix->ctx = ctx;
	ix->nblocks = (uint32_t)(((uint64_t)n + B - 1) / B);
	ix->snaps = tt_malloc(((size_t)ix->nblocks + 1) * sizeof(*ix->snaps));
	uint64_t cov[TT_RC_COUNT] = {0};
	int64_t cur = 0, bg_end = INT64_MIN;
	uint32_t nfg = 0, bg_ev = NONE;
	size_t sp = 0, cap = 64;
	struct pent *st = tt_malloc(cap * sizeof(*st));
	struct tt_span buf[B];
	for (uint32_t b = 0; b < ix->nblocks; b++) {
		uint32_t i0 = b * B, m = TT_MIN((uint32_t)B, n - i0);
		fetch(ctx, i0, m, buf);
		if (b == 0)
			cur = buf[0].ts;
		for (uint32_t j = 0; j <= m; j++) {
			/* paint up to the span's start (j == 0 again: the snapshot) */
			int64_t to = buf[j ? j - 1 : 0].ts;
			if (cur < to) {
				/* the open spans from the top, each up to its end or to */
				while (sp) {
					int64_t e = st[sp - 1].end;
					if (e > cur) {
						if (e >= to)
							break;
						cov[st[sp - 1].cls] += (uint64_t)e - (uint64_t)cur;
						cur = e;
					}
					sp--;
				}
				if (sp) {
					cov[st[sp - 1].cls] += (uint64_t)to - (uint64_t)cur;
				} else {
					if (bg_end > cur) {
						int64_t e = bg_end < to ? bg_end : to;
						cov[TT_RC_ANNOT] += (uint64_t)e - (uint64_t)cur;
						cur = e;
					}
					cov[TT_RC_IDLE] += (uint64_t)to - (uint64_t)cur;
				}
				cur = to;
			}
			if (j == 0) {
				while (sp && st[sp - 1].end <= cur)
					sp--;
				/* save the stack: the entries not saved yet are all on top */
				size_t u = sp;
				while (u > 0 && st[u - 1].node == NONE)
					u--;
				for (size_t k = u; k < sp; k++)
					st[k].node = new_node(ix, &st[k], k ? st[k - 1].node : NONE);
				struct snap *sn = &ix->snaps[b];
				memset(sn, 0, sizeof(*sn));
				sn->t = cur;
				sn->bg_end = bg_end;
				sn->bg_ev = bg_ev;
				memcpy(sn->cov, cov, sizeof(sn->cov));
				sn->nfg = nfg;
				sn->top = sp ? st[sp - 1].node : NONE;
				continue;
			}
			const struct tt_span *s = &buf[j - 1];
			uint8_t cls = s->cls;
			if (cls == TT_RC_SKIP || cls >= TT_RC_COUNT || cls == TT_RC_IDLE)
				continue;
			int64_t end = s->dur > 0 && s->ts <= INT64_MAX - s->dur ? s->ts + s->dur : s->ts;
			if (cls == TT_RC_ANNOT) {
				if (end > s->ts && end > bg_end) {
					bg_end = end;
					bg_ev = i0 + j - 1;
				}
				continue;
			}
			nfg++;
			if (end <= s->ts)
				continue;
			if (sp == cap)
				TT_GROW(st, cap, sp + 1);
			struct pent *e = &st[sp++];
			e->end = end;
			e->ev = i0 + j - 1;
			e->node = NONE;
			e->cls = cls;
		}
	}
	free(st);
	return ix;
}

void tt_rix_free(struct tt_rix *ix)
{
	if (!ix)
		return;
	free(ix->snaps);
	free(ix->nodes);
	free(ix);
}

size_t tt_rix_memsize(const struct tt_rix *ix)
{
	return sizeof(*ix) + ((size_t)ix->nblocks + 1) * sizeof(*ix->snaps) +
	       ix->capnodes * sizeof(*ix->nodes);
}

uint32_t tt_rix_count(const struct tt_rix *ix)
{
	return ix->n;
}

/* ---- queries: replaying one block ---- */

struct replay {
	const struct tt_rix *ix;
	bool valid;
	uint32_t b, j, m;
	struct painter p;
	struct tt_span buf[B];
	struct pent st[B];
};

static void replay_init(struct replay *r, const struct tt_rix *ix)
{
	r->ix = ix;
	r->valid = false;
}

static void replay_load(struct replay *r, uint32_t b)
{
	const struct tt_rix *ix = r->ix;
	const struct snap *s = &ix->snaps[b];
	struct painter *p = &r->p;
	memset(p, 0, sizeof(*p));
	p->ix = ix;
	p->cur = s->t;
	memcpy(p->cov, s->cov, sizeof(p->cov));
	p->nfg = s->nfg;
	p->st = r->st;
	p->cap = B;
	p->base = s->top;
	p->bg_end = s->bg_end;
	p->bg_ev = s->bg_ev;
	r->b = b;
	r->j = 0;
	r->m = TT_MIN((uint32_t)B, ix->n - b * B);
	ix->fetch(ix->ctx, b * B, r->m, r->buf);
	r->valid = true;
}

/* the last block starting before t (incl: at or before t), or NONE */
static uint32_t block_of(const struct tt_rix *ix, int64_t t, bool incl)
{
	uint32_t lo = 0, hi = ix->nblocks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ix->snaps[mid].t < t || (incl && ix->snaps[mid].t == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : NONE;
}

/* The state at t: spans starting before t (incl: at or before t) have
 * started, time before t is painted. */
static void replay_to(struct replay *r, int64_t t, bool incl, struct tt_rpoint *out)
{
	const struct tt_rix *ix = r->ix;
	uint32_t b = block_of(ix, t, incl);
	if (b == NONE) {
		memset(out, 0, sizeof(*out));
		out->fg = NONE;
		out->bg = NONE;
		return;
	}
	if (!r->valid || r->b != b || t < r->p.cur)
		replay_load(r, b);
	struct painter *p = &r->p;
	while (r->j < r->m && (r->buf[r->j].ts < t || (incl && r->buf[r->j].ts == t))) {
		p_advance(p, r->buf[r->j].ts);
		p_span(p, &r->buf[r->j], b * B + r->j);
		r->j++;
	}
	p_advance(p, t);
	p_prune(p, t);
	memcpy(out->cov, p->cov, sizeof(out->cov));
	out->nfg = p->nfg;
	out->next = b * B + r->j;
	int64_t end;
	uint8_t cls;
	uint32_t ev;
	out->fg = p_top(p, &end, &cls, &ev) ? ev : NONE;
	out->bg = p->bg_end > t ? p->bg_ev : NONE;
}

void tt_rix_at(const struct tt_rix *ix, int64_t t, struct tt_rpoint *out)
{
	struct replay *r = tt_malloc(sizeof(*r));
	replay_init(r, ix);
	replay_to(r, t, true, out);
	free(r);
}

/* ---- cells ---- */

int64_t tt_raster_edge(int64_t t0, int64_t t1, int w, int k)
{
	if (w <= 0)
		return t0;
	__int128 d = (__int128)(t1 - t0) * k / w;
	return t0 + (int64_t)d;
}

int tt_raster_cell_of(int64_t t0, int64_t t1, int w, int64_t t)
{
	if (t < t0)
		return -1;
	if (t >= t1 || w <= 0)
		return w;
	int k = (int)((__int128)(t - t0) * w / (t1 - t0));
	if (k >= w)
		k = w - 1;
	while (k + 1 < w && tt_raster_edge(t0, t1, w, k + 1) <= t)
		k++;
	while (k > 0 && tt_raster_edge(t0, t1, w, k) > t)
		k--;
	return k;
}

/* foreground classes, in the order that wins ties */
static const uint8_t fg_order[] = {TT_RC_COMM, TT_RC_MEM,	  TT_RC_COMP,
				   TT_RC_RUNTIME, TT_RC_CPU, TT_RC_OTHER};

static void decide(const struct tt_rix *ix, const struct tt_rpoint *a, const struct tt_rpoint *b,
		   int64_t width, struct tt_rcell *c)
{
	int64_t fg = 0, best = 0;
	uint8_t cls = TT_RC_IDLE;
	for (size_t i = 0; i < TT_ARRAY_SIZE(fg_order); i++) {
		int64_t v = (int64_t)(b->cov[fg_order[i]] - a->cov[fg_order[i]]);
		fg += v;
		if (v > best) {
			best = v;
			cls = fg_order[i];
		}
	}
	uint32_t nfg = b->nfg - a->nfg;
	if (!fg && nfg) {
		/* only spans of zero length: the first one's class */
		for (uint32_t i = a->next; i < b->next; i++) {
			struct tt_span s;
			ix->fetch(ix->ctx, i, 1, &s);
			if (s.cls != TT_RC_SKIP && s.cls != TT_RC_ANNOT && s.cls != TT_RC_IDLE &&
			    s.cls < TT_RC_COUNT) {
				cls = s.cls;
				break;
			}
		}
	}
	if (cls == TT_RC_IDLE && b->cov[TT_RC_ANNOT] != a->cov[TT_RC_ANNOT])
		cls = TT_RC_ANNOT;
	c->cls = cls;
	c->busy = nfg >= TT_RASTER_BUSY_MIN && 2 * fg < width;
	c->pad = 0;
	c->nfg = nfg;
	c->first = a->next;
}

void tt_raster_row(const struct tt_rix *ix, int64_t t0, int64_t t1, int w, struct tt_rcell *out)
{
	if (w <= 0)
		return;
	struct replay *r = tt_malloc(sizeof(*r));
	replay_init(r, ix);
	struct tt_rpoint a, b;
	int64_t x0 = t0;
	replay_to(r, x0, false, &a);
	for (int k = 0; k < w; k++) {
		int64_t x1 = tt_raster_edge(t0, t1, w, k + 1);
		replay_to(r, x1, false, &b);
		decide(ix, &a, &b, x1 - x0, &out[k]);
		a = b;
		x0 = x1;
	}
	free(r);
}

void tt_raster_merge(const struct tt_rix *const *ix, size_t n, int64_t t0, int64_t t1, int w,
		     struct tt_rcell *out)
{
	if (w <= 0)
		return;
	if (!n) {
		memset(out, 0, (size_t)w * sizeof(*out));
		return;
	}
	struct replay *r = tt_malloc(n * sizeof(*r));
	struct tt_rpoint *a = tt_malloc(n * sizeof(*a)), b;
	for (size_t i = 0; i < n; i++) {
		replay_init(&r[i], ix[i]);
		replay_to(&r[i], t0, false, &a[i]);
	}
	int64_t x0 = t0;
	for (int k = 0; k < w; k++) {
		int64_t x1 = tt_raster_edge(t0, t1, w, k + 1);
		uint64_t cov[TT_RC_COUNT] = {0};
		uint64_t maxfg = 0; /* the busiest row's foreground time */
		uint32_t nfg = 0;
		struct tt_rcell tiny = {.cls = TT_RC_IDLE};
		for (size_t i = 0; i < n; i++) {
			replay_to(&r[i], x1, false, &b);
			uint64_t rowfg = 0;
			for (int c = 0; c < TT_RC_COUNT; c++)
				cov[c] += b.cov[c] - a[i].cov[c];
			for (size_t q = 0; q < TT_ARRAY_SIZE(fg_order); q++)
				rowfg += b.cov[fg_order[q]] - a[i].cov[fg_order[q]];
			maxfg = TT_MAX(maxfg, rowfg);
			if (b.nfg != a[i].nfg && tiny.cls == TT_RC_IDLE) {
				/* the class a row alone would show (for spans of zero length) */
				decide(ix[i], &a[i], &b, x1 - x0, &tiny);
			}
			nfg += b.nfg - a[i].nfg;
			a[i] = b;
		}
		uint64_t fg = 0, best = 0;
		uint8_t cls = TT_RC_IDLE;
		for (size_t i = 0; i < TT_ARRAY_SIZE(fg_order); i++) {
			fg += cov[fg_order[i]];
			if (cov[fg_order[i]] > best) {
				best = cov[fg_order[i]];
				cls = fg_order[i];
			}
		}
		if (!fg && nfg && tiny.cls != TT_RC_ANNOT)
			cls = tiny.cls;
		if (cls == TT_RC_IDLE && cov[TT_RC_ANNOT])
			cls = TT_RC_ANNOT;
		out[k].cls = cls;
		/* busy: many starts while every row is mostly empty (a row
		 * full of short kernels beside an idle one is that row's class) */
		out[k].busy = nfg >= TT_RASTER_BUSY_MIN && 2 * maxfg < (uint64_t)(x1 - x0);
		out[k].pad = 0;
		out[k].nfg = nfg;
		out[k].first = 0;
		x0 = x1;
	}
	free(a);
	free(r);
}

int tt_rcell_severity(const struct tt_rcell *c)
{
	static const int8_t sev[TT_RC_COUNT] = {
		[TT_RC_IDLE] = 0,  [TT_RC_ANNOT] = 1,	[TT_RC_COMM] = 3, [TT_RC_MEM] = 4,
		[TT_RC_OTHER] = 5, [TT_RC_RUNTIME] = 6, [TT_RC_CPU] = 7,  [TT_RC_COMP] = 8,
	};
	if (c->cls >= TT_RC_COUNT)
		return 9;
	if (c->busy && sev[c->cls] > 2)
		return 2;
	return sev[c->cls];
}

void tt_raster_worst(struct tt_rcell *acc, const struct tt_rcell *c, int w)
{
	for (int k = 0; k < w; k++)
		if (tt_rcell_severity(&c[k]) < tt_rcell_severity(&acc[k]))
			acc[k] = c[k];
}

static void array_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	memcpy(out, (const struct tt_span *)ctx + i, (size_t)n * sizeof(*out));
}

void tt_raster_spans(const struct tt_span *v, uint32_t n, int64_t t0, int64_t t1, int w,
		     struct tt_rcell *out)
{
	struct tt_rix *ix = tt_rix_build(n, array_fetch, v);
	tt_raster_row(ix, t0, t1, w, out);
	tt_rix_free(ix);
}

/* ---- looks ---- */

static const struct {
	char glyph;
	uint8_t role;
	const char *name;
} looks[TT_RC_COUNT] = {
	[TT_RC_IDLE] = {'.', TT_ROLE_BAR_IDLE, "idle"},
	[TT_RC_ANNOT] = {'-', TT_ROLE_DIM, "annotation"},
	[TT_RC_COMP] = {'#', TT_ROLE_BAR_COMP, "compute"},
	[TT_RC_COMM] = {'=', TT_ROLE_BAR_COMM, "communication"},
	[TT_RC_MEM] = {'+', TT_ROLE_BAR_MEM, "memory"},
	[TT_RC_CPU] = {'o', TT_ROLE_BAR_CPU, "CPU op"},
	[TT_RC_RUNTIME] = {'r', TT_ROLE_BAR_RUNTIME, "runtime"},
	[TT_RC_OTHER] = {'~', TT_ROLE_BAR_OTHER, "other"},
};

char tt_rclass_glyph(enum tt_rclass c)
{
	return (unsigned)c < TT_RC_COUNT ? looks[c].glyph : ' ';
}

enum tt_role tt_rclass_role(enum tt_rclass c)
{
	return (unsigned)c < TT_RC_COUNT ? (enum tt_role)looks[c].role : TT_ROLE_DEFAULT;
}

const char *tt_rclass_name(enum tt_rclass c)
{
	return (unsigned)c < TT_RC_COUNT ? looks[c].name : "";
}

void tt_raster_text(const struct tt_rcell *cells, int w, char *buf)
{
	for (int k = 0; k < w; k++)
		buf[k] = tt_rcell_glyph(&cells[k]);
	buf[w > 0 ? w : 0] = '\0';
}
