/* Critical path analysis: the longest path and its breakdown
 * (critical-path.md §4.7-4.10).
 *
 * networkx 2.8.8's dag_longest_path, reproduced: the topological order is
 * Kahn's by generations (the in-degree-0 nodes in node insertion order, then
 * each generation's successors in edge insertion order: a FIFO queue), each
 * node takes the first best predecessor in the order its edges were added,
 * a node whose best is negative starts afresh, and the path ends at the
 * first node of the order with the largest distance. */
#include "config.h"

#include "critpath_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/hmap.h"
#include "tracetop/checked.h"
#include "tracetop/collectives.h"
#include "tracetop/diff.h"
#include "tracetop/util.h"

/* ---- names ---- */

const char *tt_cp_etype_name(enum tt_cp_etype t)
{
	static const char *const n[] = {
		"critical_path_operator",	     "critical_path_dependency",
		"critical_path_kernel_launch_delay", "critical_path_kernel_kernel_delay",
		"critical_path_sync_dependency",     "critical_path_gap",
		"critical_path_wait",
	};
	_Static_assert(TT_ARRAY_SIZE(n) == TT_CPE_COUNT, "a name per edge type");
	return (unsigned)t < TT_CPE_COUNT ? n[t] : "?";
}

const char *tt_cp_cat_name(enum tt_cp_cat c)
{
	static const char *const n[] = {"cpu_op",	       "gpu_kernel",	  "kernel_launch_delay",
					"kernel_kernel_delay", "sync_dependency", "dependency",
					"gap",		       "wait"};
	_Static_assert(TT_ARRAY_SIZE(n) == TT_CPC_COUNT, "a name per category");
	return (unsigned)c < TT_CPC_COUNT ? n[c] : "?";
}

const char *tt_cp_bound_name(enum tt_cp_bound b)
{
	static const char *const n[] = {
		"cpu_bound",		      "data_loading",		   "gpu_compute_bound",
		"gpu_communication_bound",    "gpu_kernel_kernel_overhead", "gpu_kernel_launch_overhead",
		"none",			      "gpu_memory_bound",	   "cpu_outside_ops",
		"before_first_op",	      "waiting_for_rank",
	};
	_Static_assert(TT_ARRAY_SIZE(n) == TT_CPB_COUNT, "a name per class");
	return (unsigned)b < TT_CPB_COUNT ? n[b] : "?";
}

const char *tt_cp_bound_label(enum tt_cp_bound b)
{
	static const char *const n[] = {"CPU",		   "data loading",	"GPU compute",
					"communication",   "kernel gaps",	"launch overhead",
					"dependency",	   "GPU memory",	"CPU outside ops",
					"before first op", "waiting for a rank"};
	_Static_assert(TT_ARRAY_SIZE(n) == TT_CPB_COUNT, "a label per class");
	return (unsigned)b < TT_CPB_COUNT ? n[b] : "?";
}

const char *tt_cp_model_name(enum tt_cp_model m)
{
	return m == TT_CPM_HTA ? "HTA's" : "tracetop's";
}

int tt_cp_whatif_parse(const char *s, struct tt_cp_whatif *out, char *why, size_t n)
{
	memset(out, 0, sizeof(*out));
	const char *star = strrchr(s, '*');
	if (!star || star == s) {
		snprintf(why, n, "'%s': expected SUBSTRING*FACTOR (e.g. 'gemm*0.5')", s);
		return -1;
	}
	char *end;
	double f = strtod(star + 1, &end);
	if (end == star + 1 || *end || !(f >= 0) || !isfinite(f) || f > 1e6) {
		snprintf(why, n, "'%s': the factor after '*' must be a number >= 0", s);
		return -1;
	}
	size_t len = (size_t)(star - s);
	if (len >= sizeof(out->pattern)) {
		snprintf(why, n, "'%s': the name is longer than %zu bytes", s,
			 sizeof(out->pattern) - 1);
		return -1;
	}
	memcpy(out->pattern, s, len);
	out->pattern[len] = '\0';
	out->factor = f;
	if (strcmp(out->pattern, "launch-overhead") == 0)
		out->kind = TT_CPWI_LAUNCH;
	else if (strcmp(out->pattern, "kernel-gaps") == 0)
		out->kind = TT_CPWI_GAPS;
	else
		out->kind = TT_CPWI_NAME;
	return 0;
}

/* ---- the graph's adjacency ---- */

struct adj {
	uint32_t *off;  /* [nodes + 1] */
	uint32_t *e;    /* edge ids */
	uint32_t *to;   /* [k]: the other end of edge e[k] (its head in the
			 * successor lists, its tail in the predecessor lists):
			 * read in order, not through the edge */
};

/* the lists of live edges per node by tail (succ) and by head (pred), in
 * insertion order: one pass over the edges counts, one places */
static void adj_build(const struct cp_graph *g, size_t nodes, struct adj *succ, struct adj *pred)
{
	succ->off = tt_calloc(nodes + 2, sizeof(*succ->off));
	pred->off = tt_calloc(nodes + 2, sizeof(*pred->off));
	for (size_t i = 0; i < g->ne; i++)
		if (!g->e[i].dead) {
			succ->off[g->e[i].u + 2]++;
			pred->off[g->e[i].v + 2]++;
		}
	for (size_t x = 2; x < nodes + 2; x++) {
		succ->off[x] += succ->off[x - 1];
		pred->off[x] += pred->off[x - 1];
	}
	size_t ns = succ->off[nodes + 1], np = pred->off[nodes + 1];
	succ->e = tt_malloc((ns + 1) * sizeof(*succ->e));
	succ->to = tt_malloc((ns + 1) * sizeof(*succ->to));
	pred->e = tt_malloc((np + 1) * sizeof(*pred->e));
	pred->to = tt_malloc((np + 1) * sizeof(*pred->to));
	/* off[x + 1] is where x's list starts; placing an edge moves it on, so
	 * that it ends where x's list ends: off[x + 1], x + 1's start */
	for (size_t i = 0; i < g->ne; i++) {
		const struct cp_edge *e = &g->e[i];
		if (e->dead)
			continue;
		uint32_t ks = succ->off[e->u + 1]++, kp = pred->off[e->v + 1]++;
		succ->e[ks] = pred->e[kp] = (uint32_t)i;
		succ->to[ks] = e->v;
		pred->to[kp] = e->u;
	}
}

static void adj_free(struct adj *a)
{
	free(a->off);
	free(a->e);
	free(a->to);
}

struct vpos {
	uint32_t v, pos;
};

static int vpos_cmp(const void *a, const void *b, void *ctx)
{
	const struct vpos *x = a, *y = b;
	(void)ctx;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* networkx keeps one edge per (u, v): adding it again keeps its place and
 * takes the new data.  The lists (succ, pred) are rebuilt when an edge
 * goes. */
static uint32_t merge_duplicates(struct cp_graph *g, size_t nodes, struct adj *succ,
				 struct adj *pred)
{
	struct adj a = *succ;
	uint32_t n = 0;
	struct vpos *tmp = NULL;
	size_t ctmp = 0;
	for (size_t u = 0; u < nodes; u++) {
		uint32_t lo = a.off[u], hi = a.off[u + 1];
		if (hi - lo < 2)
			continue;
		if (hi - lo <= 8) {
			/* (the usual case: a few successors, compared pairwise) */
			for (uint32_t i = lo + 1; i < hi; i++) {
				struct cp_edge *dup = &g->e[a.e[i]];
				for (uint32_t j = lo; j < i; j++) {
					struct cp_edge *keep = &g->e[a.e[j]];
					if (keep->dead || keep->v != dup->v)
						continue;
					keep->w = dup->w;
					keep->attr = dup->attr;
					keep->type = dup->type;
					dup->dead = 1;
					n++;
					break;
				}
			}
			continue;
		}
		TT_GROW(tmp, ctmp, hi - lo);
		for (uint32_t i = lo; i < hi; i++)
			tmp[i - lo] = (struct vpos){g->e[a.e[i]].v, a.e[i]};
		tt_msort(tmp, hi - lo, sizeof(*tmp), vpos_cmp, NULL);
		for (uint32_t i = 1; i < hi - lo; i++) {
			if (tmp[i].v != tmp[i - 1].v)
				continue;
			/* tmp[i] is a later insertion of the same edge */
			struct cp_edge *keep = &g->e[tmp[i - 1].pos], *dup = &g->e[tmp[i].pos];
			keep->w = dup->w;
			keep->attr = dup->attr;
			keep->type = dup->type;
			dup->dead = 1;
			tmp[i].pos = tmp[i - 1].pos;
			n++;
		}
	}
	free(tmp);
	if (n) {
		adj_free(succ);
		adj_free(pred);
		adj_build(g, nodes, succ, pred);
	}
	return n;
}

/* Longest distances in topological order (weights w[edge]); from[v] = the
 * chosen edge into v or UINT32_MAX.  Returns the end node; *nends: the
 * nodes at its distance (may be NULL). */
static uint32_t longest(const struct adj *pred, const uint32_t *topo, size_t ntopo,
			const int64_t *w, int64_t *dist, uint32_t *from, uint32_t *nends)
{
	uint32_t end = UINT32_MAX, ends = 0;
	int64_t best_all = 0;
	for (size_t i = 0; i < ntopo; i++) {
		uint32_t v = topo[i];
		bool any = false;
		int64_t best = 0;
		uint32_t be = UINT32_MAX;
		for (uint32_t k = pred->off[v]; k < pred->off[v + 1]; k++) {
			uint32_t e = pred->e[k];
			int64_t cand = tt_sat_add(dist[pred->to[k]], w[e]);
			if (!any || cand > best) {
				best = cand;
				be = e;
				any = true;
			}
		}
		if (!any || best < 0) {
			dist[v] = 0;
			from[v] = UINT32_MAX;
		} else {
			dist[v] = best;
			from[v] = be;
		}
		if (end == UINT32_MAX || dist[v] > best_all) {
			end = v;
			best_all = dist[v];
			ends = 1;
		} else if (dist[v] == best_all) {
			ends++;
		}
	}
	if (nends)
		*nends = ends;
	return end;
}

/* ---- classification ---- */

struct classify {
	const struct cp_graph *g;
	char *buf;
	size_t cap;
};

static int64_t ev_stream(const struct tt_rank *r, uint32_t ev)
{
	if (ev == TT_NONE || !(r->ev[ev].flags & TT_EF_STREAM))
		return -1;
	return r->tracks[r->ev[ev].track].stream;
}

int64_t tt_cp_attr_stream(const struct tt_rank *r, const struct tt_cp_edge *e)
{
	return ev_stream(r, e->attr);
}

/* category and bound of an edge (cpa.py 1563-1620) */
static void classify_edge(struct classify *cl, const struct cp_edge *e, uint8_t *cat,
			  uint8_t *bound)
{
	const struct tt_rank *r = cl->g->r;
	switch (e->type) {
	case TT_CPE_DEPENDENCY:
		*cat = TT_CPC_DEP;
		*bound = TT_CPB_NONE;
		return;
	case TT_CPE_SYNC:
		*cat = TT_CPC_SYNC;
		*bound = TT_CPB_NONE;
		return;
	case TT_CPE_LAUNCH:
		*cat = TT_CPC_LAUNCH;
		*bound = TT_CPB_LAUNCH;
		return;
	case TT_CPE_KK:
		*cat = TT_CPC_KK;
		*bound = TT_CPB_KK;
		return;
	case TT_CPE_GAP:
		*cat = TT_CPC_GAP;
		*bound = cl->g->kind[e->u >> 1] == CPK_STEP ? TT_CPB_START : TT_CPB_OUTSIDE;
		return;
	case TT_CPE_WAIT:
		*cat = TT_CPC_WAIT;
		*bound = TT_CPB_WAIT;
		return;
	default:
		break;
	}
	if (ev_stream(r, e->attr) < 0) {
		*cat = TT_CPC_CPU;
		bool data = e->attr != TT_NONE && (cl->g->sf[r->ev[e->attr].name] & SF_DATA);
		*bound = data ? TT_CPB_DATA : TT_CPB_CPU;
		return;
	}
	*cat = TT_CPC_GPU;
	enum tt_cat_kind k = tt_ev_kind(r, &r->ev[e->attr]);
	if (cl->g->tt && (k == TT_K_MEMCPY || k == TT_K_MEMSET)) {
		*bound = TT_CPB_MEM;
		return;
	}
	uint32_t id = r->ev[e->attr].name;
	uint8_t *known = id < r->strs.n ? &cl->g->name_bound[id] : NULL;
	if (known && *known) {
		*bound = (uint8_t)(*known - 1);
		return;
	}
	const char *name = tt_ev_name(r, &r->ev[e->attr]);
	size_t len = strlen(name);
	TT_GROW(cl->buf, cl->cap, len + 1);
	tt_diff_short_name(name, cl->buf);
	*bound = tt_kernel_type(cl->buf, NULL) == TT_KT_COMM ? TT_CPB_COMM : TT_CPB_COMPUTE;
	if (known)
		*known = (uint8_t)(*bound + 1);
}

/* ---- top events ---- */

static int top_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_cp_top *x = a, *y = b;
	const struct tt_rank *r = ctx;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return strcmp(tt_str(r, x->name), tt_str(r, y->name));
}

/* time inside events (operator edges), grouped by the event's name; in
 * the rank's arrays by name and by event (g's scratch), cleared after: a
 * window costs its path, not the rank's names and events */
static void make_top(const struct cp_graph *g, struct tt_cp_result *out)
{
	const struct tt_rank *r = out->r;
	uint32_t *slot = g->name_slot; /* name -> index in out->top */
	uint64_t *seen = g->evbits;    /* events counted */
	size_t cap = 0;
	out->top = NULL;
	out->ntop = 0;
	for (size_t i = 0; i < out->nedges; i++) {
		const struct tt_cp_edge *e = &out->edges[i];
		if (e->type != TT_CPE_OPERATOR || e->attr == TT_NONE)
			continue;
		uint32_t name = r->ev[e->attr].name;
		uint32_t *sl = &slot[name < r->strs.n ? name : r->strs.n]; /* (no name: the last) */
		if (*sl == TT_NONE) {
			TT_GROW(out->top, cap, out->ntop + 1);
			out->top[out->ntop] = (struct tt_cp_top){.name = name, .bound = e->bound,
								  .first_ev = e->attr};
			*sl = (uint32_t)out->ntop++;
		}
		struct tt_cp_top *t = &out->top[*sl];
		tt_sat_acc(&t->dur, e->weight);
		t->edges++;
		uint64_t bit = UINT64_C(1) << (e->attr & 63);
		if (!(seen[e->attr >> 6] & bit)) {
			seen[e->attr >> 6] |= bit;
			t->events++;
		}
	}
	for (size_t i = 0; i < out->ntop; i++)
		slot[out->top[i].name < r->strs.n ? out->top[i].name : r->strs.n] = TT_NONE;
	for (size_t i = 0; i < out->nedges; i++)
		if (out->edges[i].attr != TT_NONE)
			seen[out->edges[i].attr >> 6] = 0;
	tt_msort(out->top, out->ntop, sizeof(*out->top), top_cmp, (void *)r);
}

/* ---- what-if ---- */

static void whatif(struct cp_graph *g, const struct tt_cp_opts *o, const struct adj *pred,
		   const uint32_t *topo, size_t ntopo, struct classify *cl,
		   struct tt_cp_result *out)
{
	const struct tt_rank *r = g->r;
	size_t nw = o->nwhatif < 8 ? o->nwhatif : 8;
	/* which names each NAME rule matches, as a bit per rule */
	uint8_t *match = tt_calloc((size_t)r->strs.n + 1, 1);
	for (size_t k = 0; k < nw; k++) {
		if (o->whatif[k].kind != TT_CPWI_NAME)
			continue;
		for (uint32_t id = 0; id < r->strs.n; id++)
			if (strstr(tt_str(r, id), o->whatif[k].pattern))
				match[id] |= (uint8_t)(1u << k);
	}
	int64_t *w = tt_malloc((g->ne + 1) * sizeof(*w));
	for (size_t i = 0; i < g->ne; i++) {
		const struct cp_edge *e = &g->e[i];
		int64_t x = e->w;
		if (e->type == TT_CPE_WAIT) {
			/* the late rank arrives when it arrives, whatever this rank
			 * does: its arrival's time from the step's start, and no
			 * wait of its own beyond that */
			x = e->fixed ? g->ts[e->v] - g->ts[e->u] : 0;
			if (x != e->w && !e->dead)
				out->wi_edges++;
			w[i] = tt_cp_graph_weight(x);
			continue;
		}
		for (size_t k = 0; k < nw; k++) {
			const struct tt_cp_whatif *q = &o->whatif[k];
			bool hit = q->kind == TT_CPWI_LAUNCH ? e->type == TT_CPE_LAUNCH :
				   q->kind == TT_CPWI_GAPS   ? e->type == TT_CPE_KK :
							       e->type == TT_CPE_OPERATOR &&
							       e->attr != TT_NONE &&
							       (match[r->ev[e->attr].name] >> k & 1);
			if (hit) /* (scaled up past int64: the largest time) */
				x = (double)x * q->factor < 9.2e18 ? llround((double)x * q->factor)
								  : INT64_MAX;
		}
		if (x != e->w && !e->dead)
			out->wi_edges++;
		w[i] = tt_cp_graph_weight(x);
	}
	size_t nodes = 2 * (size_t)g->nne;
	int64_t *dist = tt_malloc((nodes + 1) * sizeof(*dist));
	uint32_t *from = tt_malloc((nodes + 1) * sizeof(*from));
	uint32_t end = longest(pred, topo, ntopo, w, dist, from, NULL);
	out->has_whatif = true;
	out->wi_length = end == UINT32_MAX ? 0 : dist[end];
	for (uint32_t v = end; v != UINT32_MAX && from[v] != UINT32_MAX; v = g->e[from[v]].u) {
		const struct cp_edge *e = &g->e[from[v]];
		uint8_t cat, bound;
		classify_edge(cl, e, &cat, &bound);
		tt_sat_acc(&out->wi_bound[bound].dur, w[from[v]]);
		out->wi_bound[bound].count++;
	}
	free(dist);
	free(from);
	free(w);
	free(match);
}

/* by the first int64 (a rank) */
static int i64_first_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* ---- the paths to the targets ---- */

/* out->tnodes: the longest paths from the window's start to g's targets,
 * as a tree (each walk back stops at a node already in it) */
/* A path or tree edge from the graph's edge ge, classified; a wait on a
 * collective names the collective and its last rank. */
static void fill_edge(const struct cp_graph *g, const struct cp_edge *ge, struct classify *cl,
		      struct tt_cp_edge *pe)
{
	memset(pe, 0, sizeof(*pe));
	pe->weight = ge->w;
	pe->type = ge->type;
	pe->attr = ge->attr;
	pe->peer_rank = -1;
	pe->coll_part = TT_NONE;
	if (ge->type == TT_CPE_WAIT && g->coll && ge->part != TT_NONE) {
		const struct tt_coll_part *pt = &g->coll->parts[ge->part];
		pe->coll_part = ge->part;
		pe->peer_rank = g->coll->parts[g->coll->colls[pt->coll].last].rank;
	}
	classify_edge(cl, ge, &pe->cat, &pe->bound);
}

static void make_tree(const struct cp_graph *g, const uint32_t *from, struct classify *cl,
		      struct tt_cp_result *out)
{
	struct tt_hmap at = {0}; /* graph node -> tree node */
	size_t cap = 0;
	out->targets = tt_malloc(g->ntgt * sizeof(*out->targets));
	for (size_t t = 0; t < g->ntgt; t++) {
		uint32_t v = g->tgt_node[t];
		if (g->nx[v] == UINT32_MAX)
			continue; /* (not in the graph) */
		out->targets[out->ntargets++] = (struct tt_cp_target){g->tgt_part[t], TT_NONE};
		/* walk back until a node already in the tree; link the chain */
		uint32_t child = TT_NONE;
		for (;;) {
			uint32_t have = map_get(&at, v);
			uint32_t me;
			if (have != TT_NONE) {
				me = have;
			} else {
				TT_GROW(out->tnodes, cap, out->ntnodes + 1);
				me = (uint32_t)out->ntnodes++;
				struct tt_cp_tnode *x = &out->tnodes[me];
				memset(x, 0, sizeof(*x));
				x->node = (struct tt_cp_node){g->ev[v >> 1], !(v & 1), g->kind[v >> 1],
							      g->ts[v]};
				x->parent = TT_NONE;
				map_put(&at, v, me);
			}
			if (child != TT_NONE)
				out->tnodes[child].parent = me;
			else
				out->targets[out->ntargets - 1].tnode = me;
			if (have != TT_NONE || from[v] == UINT32_MAX)
				break;
			/* the edge into me, from its tail */
			const struct cp_edge *ge = &g->e[from[v]];
			fill_edge(g, ge, cl, &out->tnodes[me].edge);
			child = me;
			v = ge->u;
		}
	}
	map_free(&at);
}

/* ---- the path ---- */

void cp_path(struct cp_graph *g, const struct tt_cp_opts *o, struct tt_cp_result *out)
{
	size_t nodes = 2 * (size_t)g->nne;
	if (!g->ne) {
		out->status = TT_CP_EMPTY;
		return;
	}
	struct adj succ, pred;
	adj_build(g, nodes, &succ, &pred);
	out->st.reinserted = merge_duplicates(g, nodes, &succ, &pred);
	out->st.nodes = g->nnx;
	/* the weights, and the live edges counted (in locals: out->st's
	 * counters in memory made each edge wait for the last one's store) */
	int64_t *w = tt_malloc((g->ne + 1) * sizeof(*w));
	uint32_t by_type[TT_CPE_COUNT] = {0}, zeroed = 0;
	for (size_t i = 0; i < g->ne; i++) {
		w[i] = tt_cp_graph_weight(g->e[i].w);
		if (g->e[i].dead)
			continue;
		by_type[g->e[i].type]++;
		zeroed += g->e[i].w <= -1000;
	}
	for (int t = 0; t < TT_CPE_COUNT; t++) {
		out->st.by_type[t] = by_type[t];
		out->st.edges += by_type[t];
	}
	out->st.zeroed = zeroed;

	/* Kahn's order, generation by generation */
	uint32_t *indeg = tt_calloc(nodes + 1, sizeof(*indeg));
	for (size_t v = 0; v < nodes; v++)
		indeg[v] = pred.off[v + 1] - pred.off[v];
	uint32_t *topo = tt_malloc(((size_t)g->nnx + 1) * sizeof(*topo));
	size_t nt = 0;
	for (uint32_t i = 0; i < g->nnx; i++)
		if (!indeg[g->nx_node[i]])
			topo[nt++] = g->nx_node[i];
	for (size_t h = 0; h < nt; h++) {
		uint32_t u = topo[h];
		for (uint32_t k = succ.off[u]; k < succ.off[u + 1]; k++) {
			uint32_t v = succ.to[k];
			if (--indeg[v] == 0)
				topo[nt++] = v;
		}
	}
	free(indeg);
	if (nt < g->nnx) {
		out->status = TT_CP_CYCLE;
		free(w);
		free(topo);
		adj_free(&succ);
		adj_free(&pred);
		return;
	}

	int64_t *dist = tt_malloc((nodes + 1) * sizeof(*dist));
	uint32_t *from = tt_malloc((nodes + 1) * sizeof(*from));
	uint32_t end = longest(&pred, topo, nt, w, dist, from, &out->st.ends);

	/* the path's graph nodes, walked back from its end (one walk: each
	 * step a dependent load) */
	uint32_t *back = tt_malloc(((size_t)g->nnx + 1) * sizeof(*back));
	size_t np = 0;
	for (uint32_t v = end;; v = g->e[from[v]].u) {
		back[np++] = v;
		if (from[v] == UINT32_MAX)
			break;
	}
	out->nnodes = np;
	out->nodes = tt_malloc(np * sizeof(*out->nodes));
	out->nedges = np - 1;
	out->edges = tt_malloc((np ? np : 1) * sizeof(*out->edges));
	struct classify cl = {g, NULL, 0};
	/* the distinct events of its nodes (an event's nodes are 2k, 2k+1) */
	uint64_t *seen = tt_calloc((size_t)g->nne / 64 + 1, sizeof(*seen));
	for (size_t i = 0; i < np; i++) {
		uint32_t v = back[np - 1 - i], k = v >> 1;
		out->nodes[i] = (struct tt_cp_node){g->ev[k], !(v & 1), g->kind[k], g->ts[v]};
		if (g->kind[k] == CPK_EVENT && !(seen[k >> 6] >> (k & 63) & 1)) {
			seen[k >> 6] |= UINT64_C(1) << (k & 63);
			out->critical_events++;
		}
		if (i == 0)
			continue;
		/* path nodes with another best predecessor (ties) */
		unsigned nbest = 0;
		for (uint32_t j = pred.off[v]; j < pred.off[v + 1]; j++)
			nbest += tt_sat_add(dist[pred.to[j]], w[pred.e[j]]) == dist[v];
		out->st.several_best += nbest > 1;
		struct tt_cp_edge *pe = &out->edges[i - 1];
		fill_edge(g, &g->e[from[v]], &cl, pe);
		tt_sat_acc(&out->length, pe->weight);
		tt_sat_acc(&out->length_graph, tt_cp_graph_weight(pe->weight));
		tt_sat_acc(&out->by_type[pe->type].dur, pe->weight);
		out->by_type[pe->type].count++;
		tt_sat_acc(&out->by_cat[pe->cat].dur, pe->weight);
		out->by_cat[pe->cat].count++;
		tt_sat_acc(&out->by_bound[pe->bound].dur, pe->weight);
		out->by_bound[pe->bound].count++;
	}
	free(seen);
	free(back);
	out->span = out->nodes[np - 1].ts - out->nodes[0].ts;
	/* the rank waited for longest: the wait edges by peer, summed */
	out->wait_rank = -1;
	{
		struct pw {
			int64_t rank, w;
		} *pv = NULL;
		size_t n = 0, cap = 0;
		for (size_t i = 0; i < out->nedges; i++) {
			const struct tt_cp_edge *e = &out->edges[i];
			if (e->bound != TT_CPB_WAIT || e->peer_rank < 0)
				continue;
			TT_GROW(pv, cap, n + 1);
			pv[n++] = (struct pw){e->peer_rank, e->weight};
		}
		tt_msort(pv, n, sizeof(*pv), i64_first_cmp, NULL);
		int64_t best = 0;
		for (size_t i = 0; i < n;) {
			size_t j = i;
			int64_t sum = 0;
			for (; j < n && pv[j].rank == pv[i].rank; j++)
				tt_sat_acc(&sum, pv[j].w);
			if (sum > best) {
				best = sum;
				out->wait_rank = pv[i].rank;
			}
			i = j;
		}
		free(pv);
	}
	make_top(g, out);
	if (g->ntgt)
		make_tree(g, from, &cl, out);
	if (o && o->nwhatif)
		whatif(g, o, &pred, topo, nt, &cl, out);
	free(cl.buf);
	free(w);
	free(dist);
	free(from);
	free(topo);
	adj_free(&succ);
	adj_free(&pred);
	out->status = TT_CP_OK;
}

void tt_cp_result_free(struct tt_cp_result *res)
{
	if (!res)
		return;
	free(res->nodes);
	free(res->edges);
	free(res->top);
	free(res->tnodes);
	free(res->targets);
	res->nodes = NULL;
	res->edges = NULL;
	res->top = NULL;
	res->tnodes = NULL;
	res->targets = NULL;
}
