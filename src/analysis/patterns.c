/* The CPU call graph of a rank and the frequent CUDA kernel sequences under
 * an operator (metrics.md §10; HTA hta/common/trace_call_stack.py,
 * trace_call_graph.py, hta/analyzers/cuda_kernel_analysis.py). */
#include "config.h"

#include "tracetop/patterns.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

#include "optree.h"

/* ---- names ---- */

enum {
	NF_DONE = 0x01,
	NF_STEP = 0x02,     /* starts with "ProfilerStep#" */
	NF_AUTOGRAD = 0x04, /* contains "autograd::" */
	NF_BWD = 0x08,      /* starts with "## backward ##" */
};

static uint8_t name_flags(const struct tt_rank *r, uint8_t *cache, uint32_t id)
{
	if (id >= r->strs.n)
		return NF_DONE;
	if (cache[id] & NF_DONE)
		return cache[id];
	const char *s = tt_str(r, id);
	uint8_t f = NF_DONE;
	if (strncmp(s, "ProfilerStep#", 13) == 0)
		f |= NF_STEP;
	if (strstr(s, "autograd::"))
		f |= NF_AUTOGRAD;
	if (strncmp(s, "## backward ##", 14) == 0)
		f |= NF_BWD;
	cache[id] = f;
	return f;
}

static int64_t hta_dur(const struct tt_sel *s, const struct tt_event *e)
{
	return tt_sel_end(s, e) - tt_sel_ts(s, e);
}

/* ---- call graph ---- */

/* a CPU node candidate: kept by HTA, a complete event, no stream */
static bool cpu_node(const struct tt_callgraph *g, uint32_t i)
{
	const struct tt_event *e = &g->r->ev[i];
	return tt_sel_has(&g->sel, i) && e->ph == 'X' && !(e->flags & TT_EF_STREAM);
}

/* Nest the nodes of one thread.  The stack holds open events; the top is
 * closed when it ends before e starts, or exactly at e's start when e has a
 * duration (HTA orders a close before an open at the same time, but keeps a
 * zero-length event at a boundary inside the event that ends there).  An
 * event that starts inside the top but ends after it (ns traces) is still
 * its child. */
static void nest_track(struct tt_callgraph *g, const struct tt_track *t, uint32_t *stack)
{
	const struct tt_event *ev = g->r->ev;
	uint32_t sp = 0;
	for (uint32_t i = t->first; i < t->first + t->count; i++) {
		if (!cpu_node(g, i))
			continue;
		const struct tt_event *e = &ev[i];
		while (sp) {
			int64_t end = tt_ev_end(&ev[stack[sp - 1]]);
			if (end < e->ts || (end == e->ts && e->dur > 0))
				sp--;
			else
				break;
		}
		g->parent[i] = sp ? stack[sp - 1] : TT_NONE;
		g->depth[i] = 0; /* in the graph; the real depth comes later */
		stack[sp++] = i;
	}
}

/* HTA _link_main_and_bwd_stacks: the first-layer nodes of the backward
 * thread move under the first parent window (ts >= window start, end <=
 * window end, HTA's rounded times) of the main thread that holds them. */
static void relink(struct tt_callgraph *g, uint8_t *nf)
{
	const struct tt_rank *r = g->r;
	const struct tt_track *mt = &r->tracks[g->main_track];
	const struct tt_track *bt = &r->tracks[g->bwd_track];
	size_t nf1 = 0;
	uint32_t *first = tt_malloc((bt->count ? bt->count : 1) * sizeof(*first));
	for (uint32_t i = bt->first; i < bt->first + bt->count; i++)
		if (g->depth[i] >= 0 && g->parent[i] == TT_NONE)
			first[nf1++] = i;
	for (int pass = 0; pass < 2; pass++) {
		uint8_t want = pass == 0 ? NF_BWD : NF_STEP;
		bool any = false;
		for (uint32_t p = mt->first; p < mt->first + mt->count; p++) {
			if (g->depth[p] < 0 || !(name_flags(r, nf, r->ev[p].name) & want))
				continue;
			any = true;
			int64_t w0 = tt_sel_ts(&g->sel, &r->ev[p]);
			int64_t w1 = tt_sel_end(&g->sel, &r->ev[p]);
			/* first node starting at or after w0 (rounding keeps ts order) */
			size_t lo = 0, hi = nf1;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (tt_sel_ts(&g->sel, &r->ev[first[mid]]) < w0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (size_t j = lo; j < nf1; j++) {
				const struct tt_event *f = &r->ev[first[j]];
				if (tt_sel_ts(&g->sel, f) > w1)
					break;
				if (g->parent[first[j]] == TT_NONE && tt_sel_end(&g->sel, f) <= w1) {
					g->parent[first[j]] = p;
					g->nrelinked++;
				}
			}
		}
		if (any)
			break; /* "## backward ##" found: ProfilerStep is only the fallback */
	}
	free(first);
}

void tt_callgraph_build(struct tt_callgraph *g, const struct tt_model *m, size_t ri,
			const struct tt_aopts *o)
{
	memset(g, 0, sizeof(*g));
	const struct tt_rank *r = m->ranks[ri];
	size_t n = r->nev ? r->nev : 1;
	g->r = r;
	g->rank_idx = (uint32_t)ri;
	g->main_track = g->bwd_track = TT_NONE;
	tt_sel_init(&g->sel, m, ri, o);
	g->parent = tt_malloc(n * sizeof(*g->parent));
	g->depth = tt_malloc(n * sizeof(*g->depth));
	g->nkern = tt_calloc(n, sizeof(*g->nkern));
	g->kdur = tt_calloc(n, sizeof(*g->kdur));
	g->order = tt_malloc(n * sizeof(*g->order));
	for (uint32_t i = 0; i < r->nev; i++) {
		g->parent[i] = TT_NONE;
		g->depth[i] = -1;
	}
	uint8_t *nf = tt_calloc(r->strs.n + 1, 1);
	uint32_t *stack = tt_malloc(n * sizeof(*stack));

	/* 1. nest each CPU thread; label the threads as HTA does */
	uint32_t nmain = 0, nbwd = 0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *t = &r->tracks[ti];
		if (t->kind != TT_TRACK_CPU)
			continue;
		nest_track(g, t, stack);
		uint8_t any = 0;
		bool used = false;
		for (uint32_t i = t->first; i < t->first + t->count; i++) {
			if (!tt_sel_has(&g->sel, i))
				continue;
			used = true;
			any |= name_flags(r, nf, r->ev[i].name);
		}
		if (!used)
			continue;
		if (any & NF_STEP) {
			nmain++;
			g->main_track = ti;
		} else if (any & NF_AUTOGRAD) {
			nbwd++;
			g->bwd_track = ti;
		}
	}
	/* 2. backward thread under the main thread: only with exactly one of each */
	if (nmain == 1 && nbwd == 1)
		relink(g, nf);
	else
		g->main_track = g->bwd_track = TT_NONE;

	/* 3. depths, parents first: the backward thread last, since its
	 * first layer may now hang under main-thread nodes */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t ti = 0; ti < r->ntracks; ti++) {
			const struct tt_track *t = &r->tracks[ti];
			if (t->kind != TT_TRACK_CPU || (ti == g->bwd_track) != (pass == 1))
				continue;
			for (uint32_t i = t->first; i < t->first + t->count; i++) {
				if (g->depth[i] < 0)
					continue;
				uint32_t p = g->parent[i];
				g->depth[i] = p == TT_NONE ? 0 : g->depth[p] + 1;
				g->order[g->norder++] = i;
			}
		}
	}

	/* 4. GPU events (stream > 0) under their launching call */
	size_t kcap = 0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *t = &r->tracks[ti];
		if (t->stream <= 0)
			continue;
		uint32_t lpos = 0; /* (tt_launch_of_from: in event order) */
		for (uint32_t i = t->first; i < t->first + t->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || !tt_sel_has(&g->sel, i))
				continue;
			uint32_t l = tt_launch_of_from(r, i, &lpos);
			/* (a launching call is never a GPU op: in the graph is
			 * enough, tt_callgraph_is_op without a read of its event) */
			if (l == TT_NONE || g->depth[l] < 0)
				continue;
			int64_t d = hta_dur(&g->sel, e);
			g->parent[i] = l;
			g->depth[i] = g->depth[l] + 1;
			g->nkern[i] = 1;
			g->kdur[i] = d;
			g->nkern[l]++;
			tt_sat_acc(&g->kdur[l], d);
			TT_GROW(g->kern, kcap, (size_t)g->nkern_linked + 1);
			g->kern[g->nkern_linked++] = i;
		}
	}
	/* 5. subtree sums, children before parents */
	for (uint32_t k = g->norder; k-- > 0;) {
		uint32_t i = g->order[k], p = g->parent[i];
		if (p != TT_NONE) {
			g->nkern[p] += g->nkern[i];
			tt_sat_acc(&g->kdur[p], g->kdur[i]);
		}
	}
	free(stack);
	free(nf);
}

void tt_callgraph_free(struct tt_callgraph *g)
{
	tt_sel_free(&g->sel);
	free(g->parent);
	free(g->depth);
	free(g->nkern);
	free(g->kdur);
	free(g->order);
	free(g->kern);
	memset(g, 0, sizeof(*g));
}

/* ---- patterns ---- */

struct kpair {
	uint32_t root, k;
	int64_t ts, ts_exact;
};

static int kpair_cmp(const void *a, const void *b, void *ctx)
{
	const struct kpair *x = a, *y = b;
	(void)ctx;
	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ts_exact != y->ts_exact)
		return x->ts_exact < y->ts_exact ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

struct occ {
	uint32_t root;
	uint32_t start, len; /* kernels: pairs[start .. start+len) */
	int64_t ts;
};

struct occ_ctx {
	const struct tt_rank *r;
	const struct kpair *pairs;
};

static int occ_cmp(const void *a, const void *b, void *vctx)
{
	const struct occ *x = a, *y = b;
	const struct occ_ctx *c = vctx;
	const struct tt_event *ev = c->r->ev;
	if (ev[x->root].name != ev[y->root].name)
		return ev[x->root].name < ev[y->root].name ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (uint32_t j = 0; j < x->len; j++) {
		uint32_t nx = ev[c->pairs[x->start + j].k].name;
		uint32_t ny = ev[c->pairs[y->start + j].k].name;
		if (nx != ny)
			return nx < ny ? -1 : 1;
	}
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->root < y->root ? -1 : x->root > y->root;
}

static bool same_seq(const struct occ_ctx *c, const struct occ *x, const struct occ *y)
{
	const struct tt_event *ev = c->r->ev;
	if (ev[x->root].name != ev[y->root].name || x->len != y->len)
		return false;
	for (uint32_t j = 0; j < x->len; j++)
		if (ev[c->pairs[x->start + j].k].name != ev[c->pairs[y->start + j].k].name)
			return false;
	return true;
}

static int pattern_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_pattern *x = a, *y = b;
	(void)ctx;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(x->text, y->text);
	if (c)
		return c;
	return x->roots[0] < y->roots[0] ? -1 : x->roots[0] > y->roots[0];
}

static void pattern_free(struct tt_pattern *p)
{
	free(p->seq);
	free(p->roots);
	free(p->kernels);
	free(p->kernel_ns);
	free(p->text);
}

static void patterns_clear(struct tt_patterns *res)
{
	for (size_t i = 0; i < res->n; i++)
		pattern_free(&res->p[i]);
	free(res->p);
	res->p = NULL;
	res->n = 0;
}

/* The patterns under the ops whose name contains op: fills res->p, n,
 * min_depth, ncandidates, nroots.  name[k] is the name of node g->order[k];
 * root_of is scratch (one per event). */
static void run_op(const struct tt_callgraph *g, const uint32_t *name, const char *op,
		   int min_len, struct tt_patterns *res, uint8_t *match, uint32_t *root_of)
{
	const struct tt_rank *r = g->r;
	const struct tt_sel *s = &g->sel;
	memset(match, 0, r->strs.n + 1);
	res->min_depth = -1;
	res->ncandidates = res->nroots = 0;

	/* candidates and their smallest depth */
	int32_t min_depth = INT32_MAX;
	for (uint32_t k = 0; k < g->norder; k++) {
		uint32_t i = g->order[k], id = name[k];
		if (id >= r->strs.n)
			continue;
		if (!match[id])
			match[id] = strstr(tt_str(r, id), op) ? 1 : 2;
		if (match[id] != 1)
			continue;
		res->ncandidates++;
		if (g->depth[i] < min_depth)
			min_depth = g->depth[i];
	}
	if (!res->ncandidates)
		return;
	res->min_depth = min_depth;

	/* roots, and the root above every node (roots never nest: same depth) */
	size_t ncap = 0;
	struct occ *occ = NULL;
	for (uint32_t k = 0; k < g->norder; k++) {
		uint32_t i = g->order[k], p = g->parent[i];
		bool root = g->depth[i] == min_depth && name[k] < r->strs.n &&
			    match[name[k]] == 1 && (int64_t)g->nkern[i] >= (int64_t)min_len;
		root_of[i] = root ? i : p == TT_NONE ? TT_NONE : root_of[p];
		if (root) {
			TT_GROW(occ, ncap, (size_t)res->nroots + 1);
			occ[res->nroots++] = (struct occ){.root = i, .ts = tt_sel_ts(s, &r->ev[i])};
		}
	}
	if (!res->nroots) {
		free(occ);
		return;
	}
	/* kernels of each root in ts order */
	size_t np = 0;
	struct kpair *pairs = tt_malloc(((size_t)g->nkern_linked + 1) * sizeof(*pairs));
	for (uint32_t j = 0; j < g->nkern_linked; j++) {
		uint32_t k = g->kern[j], root = root_of[g->parent[k]];
		if (root == TT_NONE)
			continue;
		const struct tt_event *e = &r->ev[k];
		pairs[np++] = (struct kpair){root, k, tt_sel_ts(s, e), e->ts};
	}
	tt_msort(pairs, np, sizeof(*pairs), kpair_cmp, NULL);
	/* occ is in call-graph order; find each root's range by event index */
	for (uint32_t o = 0; o < res->nroots; o++) {
		uint32_t root = occ[o].root;
		size_t lo = 0, hi = np;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (pairs[mid].root < root)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t e = lo;
		while (e < np && pairs[e].root == root)
			e++;
		occ[o].start = (uint32_t)lo;
		occ[o].len = (uint32_t)(e - lo);
	}
	struct occ_ctx c = {r, pairs};
	tt_msort(occ, res->nroots, sizeof(*occ), occ_cmp, &c);

	/* one pattern per distinct sequence */
	size_t pcap = 0;
	for (uint32_t o = 0; o < res->nroots;) {
		uint32_t end = o + 1;
		while (end < res->nroots && same_seq(&c, &occ[o], &occ[end]))
			end++;
		uint32_t nk = occ[o].len, cnt = end - o;
		TT_GROW(res->p, pcap, res->n + 1);
		struct tt_pattern *p = &res->p[res->n++];
		memset(p, 0, sizeof(*p));
		p->len = nk + 1;
		p->count = cnt;
		p->seq = tt_malloc((size_t)p->len * sizeof(*p->seq));
		p->roots = tt_malloc((size_t)cnt * sizeof(*p->roots));
		p->kernels = tt_malloc(((size_t)cnt * nk + 1) * sizeof(*p->kernels));
		p->kernel_ns = tt_calloc((size_t)nk + 1, sizeof(*p->kernel_ns));
		p->seq[0] = r->ev[occ[o].root].name;
		for (uint32_t j = 0; j < nk; j++)
			p->seq[j + 1] = r->ev[pairs[occ[o].start + j].k].name;
		size_t tlen = 0;
		for (uint32_t j = 0; j < p->len; j++)
			tlen += strlen(tt_str(r, p->seq[j])) + 1;
		p->text = tt_malloc(tlen + 1);
		char *w = p->text;
		for (uint32_t j = 0; j < p->len; j++) {
			const char *nm = tt_str(r, p->seq[j]);
			size_t l = strlen(nm);
			if (j)
				*w++ = '|';
			memcpy(w, nm, l);
			w += l;
		}
		*w = '\0';
		for (uint32_t q = 0; q < cnt; q++) {
			const struct occ *x = &occ[o + q];
			const struct tt_event *re = &r->ev[x->root];
			p->roots[q] = x->root;
			tt_sat_acc(&p->gpu_ns, g->kdur[x->root]);
			tt_sat_acc(&p->cpu_ns, hta_dur(s, re));
			for (uint32_t j = 0; j < nk; j++) {
				uint32_t k = pairs[x->start + j].k;
				p->kernels[(size_t)q * nk + j] = k;
				tt_sat_acc(&p->kernel_ns[j], hta_dur(s, &r->ev[k]));
			}
		}
		o = end;
	}
	tt_msort(res->p, res->n, sizeof(*res->p), pattern_cmp, NULL);
	free(pairs);
	free(occ);
}

struct op_count {
	uint32_t name, nodes;
	const char *s;
};

static int op_count_cmp(const void *a, const void *b, void *ctx)
{
	const struct op_count *x = a, *y = b;
	(void)ctx;
	if (x->nodes != y->nodes)
		return x->nodes > y->nodes ? -1 : 1;
	return strcmp(x->s, y->s);
}

int tt_patterns(struct tt_patterns *out, const struct tt_model *m, const struct tt_aopts *o,
		const char *op_name, int min_len)
{
	memset(out, 0, sizeof(*out));
	out->min_len = min_len;
	out->min_depth = -1;
	size_t ri = m->nranks;
	for (size_t i = 0; i < m->nranks; i++)
		if (tt_aopts_has_rank(o, m->ranks[i]->rank)) {
			ri = i;
			break;
		}
	if (ri == m->nranks) {
		out->no_rank = true;
		return 0;
	}
	out->rank_idx = (uint32_t)ri;
	out->rank = m->ranks[ri]->rank;
	struct tt_callgraph g;
	tt_callgraph_build(&g, m, ri, o);
	const struct tt_rank *r = g.r;
	uint8_t *match = tt_malloc(r->strs.n + 1);
	uint32_t *root_of = tt_malloc((r->nev ? r->nev : 1) * sizeof(*root_of));
	/* the nodes' names in the graph's order, read once from the events
	 * (ten times wider) for the passes below */
	uint32_t *name = tt_malloc(((size_t)g.norder + 1) * sizeof(*name));
	for (uint32_t k = 0; k < g.norder; k++)
		name[k] = r->ev[g.order[k]].name;

	if (op_name) {
		out->op = tt_strdup(op_name);
		run_op(&g, name, op_name, min_len, out, match, root_of);
	} else {
		out->op_auto = true;
		/* aten:: names by how many of their ops launch >= min_len kernels */
		uint32_t *cnt = tt_calloc(r->strs.n + 1, sizeof(*cnt));
		size_t nops = 0, cap = 0;
		struct op_count *ops = NULL;
		for (uint32_t k = 0; k < g.norder; k++) {
			uint32_t i = g.order[k], id = name[k];
			if (id >= r->strs.n || (int64_t)g.nkern[i] < (int64_t)min_len ||
			    strncmp(tt_str(r, id), "aten::", 6) != 0)
				continue;
			if (!cnt[id]++) {
				TT_GROW(ops, cap, nops + 1);
				ops[nops++] = (struct op_count){id, 0, tt_str(r, id)};
			}
		}
		for (size_t k = 0; k < nops; k++)
			ops[k].nodes = cnt[ops[k].name];
		tt_msort(ops, nops, sizeof(*ops), op_count_cmp, NULL);
		out->tried = tt_calloc(nops + 1, sizeof(*out->tried));
		for (size_t k = 0; k < nops; k++) {
			struct tt_pattern_try *t = &out->tried[out->ntried++];
			t->op = tt_strdup(ops[k].s);
			t->nodes = ops[k].nodes;
			patterns_clear(out);
			run_op(&g, name, ops[k].s, min_len, out, match, root_of);
			t->rows = out->n;
			if (out->n) {
				out->op = tt_strdup(ops[k].s);
				break;
			}
		}
		free(cnt);
		free(ops);
	}
	free(match);
	free(root_of);
	free(name);
	tt_callgraph_free(&g);
	return 0;
}

void tt_patterns_free(struct tt_patterns *p)
{
	if (!p)
		return;
	patterns_clear(p);
	for (size_t i = 0; i < p->ntried; i++)
		free(p->tried[i].op);
	free(p->tried);
	free(p->op);
	memset(p, 0, sizeof(*p));
}
