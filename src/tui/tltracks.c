/* The timeline's track index and event links: see tltracks.h. */
#include "config.h"

#include "tltracks.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/pool.h"
#include "tracetop/util.h"
#include "pane.h"

/* ---- classes of events ---- */

#define TL_CLS_BY_NAME 0xFE /* ccls: a kernel, classified by its name */

static uint8_t cat_class(enum tt_cat_kind k)
{
	switch (k) {
	case TT_K_KERNEL:
		return TL_CLS_BY_NAME;
	case TT_K_MEMCPY:
	case TT_K_MEMSET:
		return TT_RC_MEM;
	case TT_K_CPU_OP:
		return TT_RC_CPU;
	case TT_K_RUNTIME:
	case TT_K_DRIVER:
	case TT_K_MTIA_RUNTIME:
		return TT_RC_RUNTIME;
	case TT_K_USER_ANNOT:
	case TT_K_GPU_ANNOT:
		return TT_RC_ANNOT;
	case TT_K_FLOW:
		return TT_RC_SKIP;
	default:
		return TT_RC_OTHER;
	}
}

static uint8_t name_class(const struct tl_rank *rk, uint32_t name)
{
	const struct tt_rank *r = rk->r;
	if (name >= r->strs.n)
		return TT_RC_COMP;
	/* indexes are built on several threads: the cache is atomic */
	uint8_t c = __atomic_load_n(&rk->ncls[name], __ATOMIC_RELAXED);
	if (c != 0xFF)
		return c;
	switch (tt_kernel_type(tt_str(r, name), NULL)) {
	case TT_KT_COMM:
		c = TT_RC_COMM;
		break;
	case TT_KT_MEM:
		c = TT_RC_MEM;
		break;
	case TT_KT_OTHER:
		c = TT_RC_OTHER;
		break;
	default:
		c = TT_RC_COMP;
		break;
	}
	__atomic_store_n(&rk->ncls[name], c, __ATOMIC_RELAXED);
	return c;
}

static inline uint8_t ev_class_in(const struct tl_rank *rk, const struct tt_event *e)
{
	if (e->flags & TT_EF_MARKER)
		return TT_RC_SKIP;
	uint8_t c = e->cat < rk->r->ncats ? rk->ccls[e->cat] : TT_RC_OTHER;
	return c == TL_CLS_BY_NAME ? name_class(rk, e->name) : c;
}

static void src_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	const struct tl_src *src = ctx;
	const struct tt_event *e = &src->rk->r->ev[src->tr->first + i];
	for (uint32_t k = 0; k < n; k++) {
		out[k].ts = e[k].ts;
		out[k].dur = e[k].dur;
		out[k].cls = ev_class_in(src->rk, &e[k]);
	}
}

static void index_one(size_t i, void *ctx)
{
	struct tl_src **v = ctx;
	v[i]->ix = tt_rix_build(v[i]->tr->count, src_fetch, v[i]);
}

static int by_count_desc(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	uint32_t x = (*(struct tl_src *const *)a)->tr->count;
	uint32_t y = (*(struct tl_src *const *)b)->tr->count;
	return x > y ? -1 : x < y;
}

void tl_index(struct tl_cache *c, struct tl_src **v, size_t n, struct tl_index_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	uint64_t events = 0;
	for (size_t k = 0; k < n; k++)
		events += v[k]->tr->count;
	int64_t t0 = tt_now_ns();
	/* several threads when there is much to do, the biggest tracks first */
	int threads = events > 200000 ? TT_MIN(tt_ncpus(), 8) : 1;
	if (threads > 1)
		tt_msort(v, n, sizeof(*v), by_count_desc, NULL);
	tt_parallel_for(n, threads, index_one, v);
	size_t bytes = 0;
	for (size_t k = 0; k < n; k++)
		bytes += tt_rix_memsize(v[k]->ix);
	st->tracks = n;
	st->events = events;
	st->bytes = bytes;
	st->ns = tt_now_ns() - t0;
	c->index_bytes += bytes;
	c->index_ns += st->ns;
	c->indexed += events;
}

/* ---- the cache ---- */

struct tl_cache *tl_cache_new(const struct tt_model *m)
{
	struct tl_cache *c = tt_calloc(1, sizeof(*c));
	c->m = m;
	c->ranks = tt_calloc(m->nranks + 1, sizeof(*c->ranks));
	return c;
}

void tl_cache_free(struct tl_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->m->nranks; i++) {
		struct tl_rank *rk = &c->ranks[i];
		if (!rk->r)
			continue;
		for (uint32_t t = 0; t < rk->r->ntracks; t++)
			tt_rix_free(rk->src[t].ix);
		free(rk->src);
		free(rk->ncls);
		free(rk->ccls);
	}
	free(c->ranks);
	free(c);
}

struct tl_rank *tl_cache_rank(struct tl_cache *c, size_t ri)
{
	struct tl_rank *rk = &c->ranks[ri];
	if (!rk->r) {
		rk->ri = ri;
		rk->r = c->m->ranks[ri];
		rk->ncls = tt_malloc(rk->r->strs.n + 1);
		memset(rk->ncls, 0xFF, rk->r->strs.n + 1);
		rk->ccls = tt_malloc(rk->r->ncats + 1);
		for (uint32_t k = 0; k < rk->r->ncats; k++)
			rk->ccls[k] = cat_class((enum tt_cat_kind)rk->r->cats[k].kind);
		rk->src = tt_calloc(rk->r->ntracks + 1, sizeof(*rk->src));
		for (uint32_t t = 0; t < rk->r->ntracks; t++) {
			rk->src[t].rk = rk;
			rk->src[t].tr = &rk->r->tracks[t];
		}
	}
	return rk;
}

/* ---- tracks shown ---- */

bool tl_track_has_work(const struct tt_rank *r, const struct tt_track *t)
{
	for (uint32_t i = t->first; i < t->first + t->count; i++)
		if (!(r->ev[i].flags & TT_EF_MARKER))
			return true;
	return false;
}

bool tl_track_shown(const struct tt_rank *r, const struct tt_track *t, bool gpu_only)
{
	if (t->kind != TT_TRACK_GPU && t->kind != TT_TRACK_GPU_SYNC && t->kind != TT_TRACK_CPU)
		return false;
	if (gpu_only && t->kind == TT_TRACK_CPU)
		return false;
	return tl_track_has_work(r, t);
}

/* ---- links ---- */

/* the innermost CPU op enclosing event ev on its thread, or TT_NONE */
uint32_t tl_enclosing_op(const struct tt_rank *r, uint32_t ev)
{
	const struct tt_event *e = &r->ev[ev];
	const struct tt_track *tr = &r->tracks[e->track];
	uint32_t n = 0;
	for (uint32_t i = ev; i > tr->first && n < TL_LINK_SCAN; n++) {
		i--;
		const struct tt_event *o = &r->ev[i];
		if (tt_ev_kind(r, o) == TT_K_CPU_OP && o->ts <= e->ts && tt_ev_end(o) >= tt_ev_end(e))
			return i;
	}
	return TT_NONE;
}

/* the first GPU op launched from inside CPU event ev, or TT_NONE */
uint32_t tl_first_launch(const struct tt_rank *r, uint32_t ev)
{
	const struct tt_event *e = &r->ev[ev];
	const struct tt_track *tr = &r->tracks[e->track];
	uint32_t n = 0;
	for (uint32_t i = ev; i < tr->first + tr->count && r->ev[i].ts < tt_ev_end(e) && n < TL_LINK_SCAN;
	     i++, n++) {
		uint32_t lo, hi;
		tt_links_of_cpu(r, i, &lo, &hi);
		if (lo < hi)
			return r->links[lo].gpu;
	}
	return TT_NONE;
}

uint8_t tl_ev_class(const struct tl_rank *rk, const struct tt_event *e)
{
	return ev_class_in(rk, e);
}

/* ---- the app's shared indexes ---- */

/* the app's shared track index of each side, made if needed; NULL if it
 * cannot be shared */
static const char cache_tag[2] = "";

static void drop_cache(void *c)
{
	tl_cache_free(c);
}

struct tl_cache *tl_shared_cache(struct tt_app *a, const struct tt_model *m)
{
	int side = a->m2 && m == a->side_m[1] ? 1 : 0;
	if (m != a->side_m[side])
		return NULL;
	struct tl_cache *c = tt_ui_shared(a, &cache_tag[side]);
	if (!c) {
		c = tl_cache_new(m);
		if (!tt_ui_share(a, &cache_tag[side], c, drop_cache)) {
			tl_cache_free(c);
			c = NULL;
		}
	}
	return c;
}
