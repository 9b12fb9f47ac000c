/* The timeline pane: per rank (several stacked when several are chosen),
 * one row per GPU stream and CPU thread, time left to right, each cell drawn
 * with the class painted over most of it.  src/render/raster.c does the
 * exact rasterising; this file is the pane: the rows, the window, the keys,
 * the details of an event and the links between events.
 *
 * Layout (rows [y, y+h) of the screen):
 *     ruler: times at ticks, relative to the start of the shown ranks, in a
 *            unit that fits the zoom
 *     ticks: '|' at the ticks, 'v' at the cursor, 'M' at the mark
 *     cursor line: cursor time and the event under the cursor
 *     window line: the window and cell size, or the mark, the time from it
 *            to the cursor and the gap between their events
 *     one row per track: label ('>' on the cursor's row), then the cells
 *     legend (when there is room)
 *
 * The view is (v0, span) in long double ns relative to `base`: zooming
 * halves or doubles both around the cursor, exactly, so zooming in and out
 * again gives back the same window.  h/l move the cursor one cell and pan
 * by a quarter of the window at its edges.
 *
 * Speed: each track has a raster index (raster.h), built the first time
 * the track is in view -- one pass over its events, the tracks in view on
 * several threads -- and kept for the app's life in a cache owned by the
 * pane of key 9, which timelines opened from other panes share.  After
 * that a redraw costs O(cells x rows), whatever the zoom and the number of
 * events. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/raster.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"
#include "paneutil.h"

#define LINK_SCAN 200000 /* events looked at to find an enclosing op or a kernel */
#define ZOOM_OUT_MAX 4   /* widest window: this many times the whole span */

/* Raster indexes are kept per (rank, track) in a cache that belongs to the
 * timeline pane of key 9 (created when needed): timelines opened from
 * other panes use it too, so each track is indexed once per app (the app
 * frees drill-downs before top panes, so the cache outlives its users). */
struct tl_rank;

struct tl_src {
	struct tl_rank *rk;
	const struct tt_track *tr;
	struct tt_rix *ix; /* built when first drawn */
};

struct tl_rank {
	size_t ri;
	const struct tt_rank *r;
	uint8_t *ncls; /* class of kernel names by string id, 0xFF = not known yet */
	uint8_t *ccls; /* class by category (CLS_BY_NAME: by name) */
	struct tl_src *src; /* per track */
};

struct tl_cache {
	const struct tt_model *m;
	struct tl_rank *ranks; /* per model rank, set up when first used */
	int64_t index_ns;      /* time spent building indexes */
	size_t index_bytes;
	uint64_t indexed;      /* events indexed */
};

struct tl_row {
	struct tl_src *src;
	struct tl_rank *rk;
	const struct tt_track *tr;
	char label[96];
};

struct tl_hist {
	size_t row;
	int64_t tc;
	uint32_t sel;
	long double v0, span;
};

struct tl_state {
	/* where to open */
	size_t ri;
	uint32_t ev;
	int64_t t;
	bool top; /* the pane of key 9 */
	struct tt_app *app;

	struct tl_cache *cache; /* own, or the key-9 pane's */
	struct tl_cache *own;
	struct tl_rank **rks;
	size_t nrks;
	struct tl_row *rows;
	size_t nrows;
	size_t row, top_row;
	int64_t base, fit0, fit1; /* time origin; the span of the shown ranks */
	long double v0, span;     /* the window, relative to base */
	int64_t tc;               /* cursor time */
	uint32_t sel;             /* event chosen by Tab, c or opening, or TT_NONE */
	bool mark;
	size_t mark_row;
	int64_t mark_t;
	uint32_t mark_ev;
	struct tl_hist hist[16];
	int nhist;
	int w, page;              /* cells and track rows at the last draw */
	struct tt_rcell *cells;
	int capcells;
};

/* ---- classes of events ---- */

#define CLS_BY_NAME 0xFE /* ccls: a kernel, classified by its name */

static uint8_t cat_class(enum tt_cat_kind k)
{
	switch (k) {
	case TT_K_KERNEL:
		return CLS_BY_NAME;
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

static inline uint8_t ev_class(const struct tl_rank *rk, const struct tt_event *e)
{
	if (e->flags & TT_EF_MARKER)
		return TT_RC_SKIP;
	uint8_t c = e->cat < rk->r->ncats ? rk->ccls[e->cat] : TT_RC_OTHER;
	return c == CLS_BY_NAME ? name_class(rk, e->name) : c;
}

static void src_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	const struct tl_src *src = ctx;
	const struct tt_event *e = &src->rk->r->ev[src->tr->first + i];
	for (uint32_t k = 0; k < n; k++) {
		out[k].ts = e[k].ts;
		out[k].dur = e[k].dur;
		out[k].cls = ev_class(src->rk, &e[k]);
	}
}

struct build_job {
	struct tl_src **v;
	size_t n, next;
};

static void *build_worker(void *arg)
{
	struct build_job *j = arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
		if (i >= j->n)
			break;
		j->v[i]->ix = tt_rix_build(j->v[i]->tr->count, src_fetch, j->v[i]);
	}
	return NULL;
}

static int by_count_desc(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	uint32_t x = (*(struct tl_src *const *)a)->tr->count;
	uint32_t y = (*(struct tl_src *const *)b)->tr->count;
	return x > y ? -1 : x < y;
}

/* Index the tracks of rows [from, to) that have no index yet: on several
 * threads when there is much to do (a pass over every event of the tracks). */
static void build_rows(struct tl_state *s, size_t from, size_t to)
{
	struct tl_src *v[64];
	size_t n = 0;
	uint64_t events = 0;
	int64_t t0 = tt_now_ns();
	for (size_t i = from; i < to && i < s->nrows; i++) {
		struct tl_src *src = s->rows[i].src;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup = dup || v[k] == src;
		if (!src->ix && !dup && n < TT_ARRAY_SIZE(v)) {
			v[n++] = src;
			events += src->tr->count;
		}
	}
	if (!n)
		return;
	struct build_job job = {v, n, 0};
	int threads = TT_MIN(tt_ncpus(), (int)n);
	if (threads > 8)
		threads = 8;
	pthread_t th[8];
	int started = 0;
	if (threads > 1 && events > 200000) {
		tt_msort(v, n, sizeof(*v), by_count_desc, NULL);
		for (int i = 0; i < threads - 1; i++)
			if (pthread_create(&th[started], NULL, build_worker, &job) == 0)
				started++;
	}
	build_worker(&job);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	struct tl_cache *c = s->cache;
	size_t bytes = 0;
	for (size_t k = 0; k < n; k++)
		bytes += tt_rix_memsize(v[k]->ix);
	int64_t dt = tt_now_ns() - t0;
	c->index_bytes += bytes;
	c->index_ns += dt;
	c->indexed += events;
	if (dt > 100000000) {
		char mb[32];
		tt_fmt_bytes(mb, sizeof(mb), (double)bytes);
		tt_app_status(s->app, TT_ROLE_DIM,
			      "indexed %llu events of %zu tracks in %lld ms (%s, once per track)",
			      (unsigned long long)events, n, (long long)(dt / 1000000), mb);
	}
}

static struct tt_rix *row_ix(struct tl_state *s, struct tl_row *row)
{
	if (!row->src->ix)
		build_rows(s, (size_t)(row - s->rows), (size_t)(row - s->rows) + 1);
	return row->src->ix;
}

/* ---- time and the window ---- */

static int cells(const struct tl_state *s)
{
	return s->w > 0 ? s->w : 100;
}

#define SPAN_MAX ((int64_t)1 << 61) /* 73 years: windows stay far from int64 limits */
#define T_LIMIT ((int64_t)1 << 62)

static void window(const struct tl_state *s, int64_t *t0, int64_t *t1)
{
	long double a = (long double)s->base + floorl(s->v0);
	if (a < (long double)-T_LIMIT)
		a = (long double)-T_LIMIT;
	if (a > (long double)T_LIMIT)
		a = (long double)T_LIMIT;
	*t0 = (int64_t)a;
	int64_t span = s->span < (long double)SPAN_MAX ? (int64_t)llroundl(s->span) : SPAN_MAX;
	if (span < cells(s))
		span = cells(s);
	*t1 = *t0 + span;
}

static int64_t fit_len(const struct tl_state *s)
{
	return s->fit1 - s->fit0;
}

/* keep the window over the data: inside the span when it is narrower, else
 * holding all of it */
static void clamp_view(struct tl_state *s)
{
	long double lo = (long double)(s->fit0 - s->base);
	long double hi = (long double)(s->fit1 - s->base) - s->span;
	if (hi < lo) {
		long double t = lo;
		lo = hi;
		hi = t;
	}
	if (s->v0 < lo)
		s->v0 = lo;
	if (s->v0 > hi)
		s->v0 = hi;
}

/* put the cursor at the middle of its cell */
static void snap_cursor(struct tl_state *s)
{
	int64_t t0, t1;
	int w = cells(s);
	window(s, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, s->tc);
	if (k < 0)
		k = 0;
	if (k >= w)
		k = w - 1;
	int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
	s->tc = a + (b - a) / 2;
}

/* bring time t into the window: pan by quarters when it is near, else centre it */
static void show_time(struct tl_state *s, int64_t t)
{
	int64_t t0, t1;
	window(s, &t0, &t1);
	if (t >= t0 && t < t1)
		return;
	long double rel = (long double)(t - s->base);
	if (t < t0 && (long double)(t0 - t) <= s->span / 4)
		s->v0 -= s->span / 4;
	else if (t >= t1 && (long double)(t - t1) < s->span / 4)
		s->v0 += s->span / 4;
	else
		s->v0 = rel - s->span / 2;
	clamp_view(s);
	window(s, &t0, &t1);
	if (t < t0 || t >= t1)
		s->v0 = rel - s->span / 2;
}

/* v / div with dec decimals (truncated), exactly: no doubles */
static int fmt_fixed(char *buf, size_t n, int64_t v, int64_t div, int dec)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t whole = a / (uint64_t)div, rem = a % (uint64_t)div, q = (uint64_t)div;
	for (int i = 0; i < dec; i++)
		q /= 10;
	if (!dec || !q)
		return snprintf(buf, n, "%s%llu", v < 0 ? "-" : "", (unsigned long long)whole);
	return snprintf(buf, n, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)whole, dec,
			(unsigned long long)(rem / q));
}

/* time as text in the unit that fits max(|v|, ref), with decimals down to
 * a tenth of res ns, trailing zeros dropped */
static void fmt_time(char *buf, size_t n, int64_t v, int64_t res, int64_t ref)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int64_t av = v < 0 ? -v : v;
	enum tt_unit u = tt_unit_pick(TT_MAX(av, ref < 0 ? -ref : ref));
	int dec = 0;
	int64_t step = div[u];
	res /= 10;
	if (res < 1)
		res = 1;
	while (dec < 9 && step > res && step >= 10) {
		step /= 10;
		dec++;
	}
	int k = fmt_fixed(buf, n, v, div[u], dec);
	if (dec > 0 && k > 0 && (size_t)k < n) {
		while (k > 1 && buf[k - 1] == '0')
			buf[--k] = '\0';
		if (buf[k - 1] == '.')
			buf[--k] = '\0';
	}
	if (k < 0 || (size_t)k >= n)
		return;
	snprintf(buf + k, n - (size_t)k, " %s", tt_unit_name(u));
}

/* ---- events on a row ---- */

static const struct tt_event *evp(const struct tl_row *row, uint32_t ev)
{
	return &row->rk->r->ev[ev];
}

/* first event of the track with ts >= t (a rank event index) */
static uint32_t lower_ts(const struct tl_row *row, int64_t t)
{
	const struct tt_event *v = row->rk->r->ev;
	uint32_t lo = row->tr->first, hi = row->tr->first + row->tr->count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool drawn(const struct tl_row *row, uint32_t ev)
{
	return ev_class(row->rk, evp(row, ev)) != TT_RC_SKIP;
}

static bool foreground(const struct tl_row *row, uint32_t ev)
{
	uint8_t c = ev_class(row->rk, evp(row, ev));
	return c != TT_RC_SKIP && c != TT_RC_ANNOT;
}

/* The event under the cursor: the chosen one, else the innermost covering
 * the cursor, else the first starting in the cursor's cell, else the
 * annotation covering the cursor. */
static uint32_t under_cursor(struct tl_state *s)
{
	if (!s->nrows)
		return TT_NONE;
	struct tl_row *row = &s->rows[s->row];
	if (s->sel != TT_NONE)
		return s->sel;
	struct tt_rpoint pt;
	tt_rix_at(row_ix(s, row), s->tc, &pt);
	if (pt.fg != UINT32_MAX)
		return row->tr->first + pt.fg;
	int64_t t0, t1;
	int w = cells(s);
	window(s, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, s->tc);
	if (k >= 0 && k < w) {
		int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
		uint32_t end = row->tr->first + row->tr->count;
		for (uint32_t i = lower_ts(row, a), n = 0; i < end && evp(row, i)->ts < b && n < 1000;
		     i++, n++)
			if (foreground(row, i))
				return i;
	}
	if (pt.bg != UINT32_MAX)
		return row->tr->first + pt.bg;
	return TT_NONE;
}

static size_t row_of(const struct tl_state *s, const struct tt_rank *r, uint32_t track)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].rk->r == r && s->rows[i].tr == &r->tracks[track])
			return i;
	return SIZE_MAX;
}

static const char *short_name(const struct tl_row *row, uint32_t ev)
{
	return tt_ev_name(row->rk->r, evp(row, ev));
}

/* move the cursor to event ev of the rank of the current row; false if it has no row */
static bool go_event(struct tl_state *s, const struct tt_rank *r, uint32_t ev)
{
	size_t ri = row_of(s, r, r->ev[ev].track);
	if (ri == SIZE_MAX)
		return false;
	s->row = ri;
	s->sel = ev;
	s->tc = r->ev[ev].ts;
	show_time(s, s->tc);
	return true;
}

/* ---- opening ---- */

static bool track_shown(const struct tt_rank *r, const struct tt_track *t)
{
	if (t->kind != TT_TRACK_GPU && t->kind != TT_TRACK_GPU_SYNC && t->kind != TT_TRACK_CPU)
		return false;
	for (uint32_t i = t->first; i < t->first + t->count; i++)
		if (!(r->ev[i].flags & TT_EF_MARKER))
			return true;
	return false;
}

static struct tl_cache *cache_new(const struct tt_model *m)
{
	struct tl_cache *c = tt_calloc(1, sizeof(*c));
	c->m = m;
	c->ranks = tt_calloc(m->nranks + 1, sizeof(*c->ranks));
	return c;
}

static void cache_free(struct tl_cache *c)
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

static struct tl_rank *cache_rank(struct tl_cache *c, size_t ri)
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

/* the cache of the key-9 pane, made if needed; NULL if there is none to share */
static struct tl_cache *shared_cache(struct tt_app *a)
{
	int k = -1;
	for (int i = 0; i < 10; i++)
		if (tt_top_panes[i] == &tt_timeline_ops)
			k = i;
	if (k < 0)
		return NULL;
	if (!a->top[k])
		a->top[k] = tt_pane_new(a, &tt_timeline_ops);
	struct tt_pane *tp = a->top[k];
	if (!tp->state) {
		struct tl_state *ts = tt_calloc(1, sizeof(*ts));
		ts->ev = TT_NONE;
		ts->top = true;
		tp->state = ts;
	}
	struct tl_state *ts = tp->state;
	if (!ts->own)
		ts->own = cache_new(a->m);
	return ts->own;
}

static void add_rank(struct tl_state *s, size_t ri)
{
	for (size_t i = 0; i < s->nrks; i++)
		if (s->rks[i]->ri == ri)
			return;
	s->rks = tt_realloc_array(s->rks, s->nrks + 1, sizeof(*s->rks));
	s->rks[s->nrks++] = cache_rank(s->cache, ri);
}

static void pick_ranks(struct tl_state *s, struct tt_app *a)
{
	const struct tt_model *m = a->m;
	bool many = false;
	if (!s->top)
		for (size_t i = 0; i < a->nranks; i++)
			if (pane_rank_index(m, a->ranks[i]) == s->ri)
				many = a->nranks > 1;
	if (s->top || many) {
		/* the selected ranks, in the model's order */
		for (size_t i = 0; i < m->nranks; i++)
			for (size_t k = 0; k < a->nranks; k++)
				if (m->ranks[i]->rank == a->ranks[k])
					add_rank(s, i);
	}
	if (!s->nrks && s->ri < m->nranks)
		add_rank(s, s->ri);
	if (!s->nrks && m->nranks)
		add_rank(s, 0);
}

static int tl_open(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	struct tt_app *a = p->app;
	if (!s) {
		s = tt_calloc(1, sizeof(*s));
		s->ev = TT_NONE;
		s->top = true;
		p->state = s;
	}
	s->sel = TT_NONE;
	s->app = a;
	if (!a->m || !a->m->nranks) {
		snprintf(p->msg, sizeof(p->msg), "no ranks loaded");
		return -1;
	}
	s->cache = shared_cache(a);
	if (!s->cache || s->cache->m != a->m) {
		if (!s->own)
			s->own = cache_new(a->m);
		s->cache = s->own;
	}
	pick_ranks(s, a);
	/* rows: GPU streams then CPU threads (the model's track order), per rank */
	size_t n = 0;
	for (size_t i = 0; i < s->nrks; i++)
		n += s->rks[i]->r->ntracks;
	s->rows = tt_calloc(n + 1, sizeof(*s->rows));
	s->fit0 = INT64_MAX;
	s->fit1 = INT64_MIN;
	for (size_t i = 0; i < s->nrks; i++) {
		struct tl_rank *rk = s->rks[i];
		const struct tt_rank *r = rk->r;
		for (uint32_t t = 0; t < r->ntracks; t++) {
			if (!track_shown(r, &r->tracks[t]))
				continue;
			struct tl_row *row = &s->rows[s->nrows++];
			row->src = &rk->src[t];
			row->rk = rk;
			row->tr = &r->tracks[t];
			char lab[80];
			tt_track_label(r, row->tr, lab, sizeof(lab));
			snprintf(row->label, sizeof(row->label), "r%lld %s", (long long)r->rank, lab);
		}
		if (r->t1 > r->t0) {
			s->fit0 = TT_MIN(s->fit0, r->t0);
			s->fit1 = TT_MAX(s->fit1, r->t1);
		}
	}
	char ranks[120];
	size_t k = 0;
	k += (size_t)snprintf(ranks, sizeof(ranks), "rank%s ", s->nrks > 1 ? "s" : "");
	for (size_t i = 0; i < s->nrks && k < sizeof(ranks) - 24; i++)
		k += (size_t)snprintf(ranks + k, sizeof(ranks) - k, "%s%lld", i ? "," : "",
				      (long long)s->rks[i]->r->rank);
	snprintf(p->subtitle, sizeof(p->subtitle), "%s%s", s->top ? "" : "timeline ", ranks);
	if (!s->nrows) {
		snprintf(p->msg, sizeof(p->msg), "%s has no GPU stream or CPU thread with events",
			 ranks);
		return -1;
	}
	if (s->fit1 <= s->fit0) {
		s->fit0 = s->rows[0].tr->t0;
		s->fit1 = s->fit0 + 1000;
	}
	s->base = s->fit0;
	s->v0 = 0;
	s->span = (long double)TT_MAX(fit_len(s), 1000);
	s->tc = s->fit0;
	/* opened at an event or a time */
	const struct tt_rank *r0 = s->ri < a->m->nranks ? a->m->ranks[s->ri] : NULL;
	if (s->ev != TT_NONE && r0 && s->ev < r0->nev && row_of(s, r0, r0->ev[s->ev].track) != SIZE_MAX) {
		const struct tt_event *e = &r0->ev[s->ev];
		const struct tt_track *tr = &r0->tracks[e->track];
		int64_t lo = e->ts, hi = tt_ev_end(e);
		/* with the next event on the track: the gap after it shows */
		for (uint32_t i = s->ev + 1; i < tr->first + tr->count; i++)
			if (!(r0->ev[i].flags & TT_EF_MARKER)) {
				hi = TT_MAX(hi, tt_ev_end(&r0->ev[i]));
				break;
			}
		int64_t pad = (hi - lo) / 3 + 200;
		s->span = (long double)TT_MAX(hi - lo + 2 * pad, 1000);
		s->v0 = (long double)(lo - pad - s->base);
		s->row = row_of(s, r0, e->track);
		s->tc = e->ts;
		s->sel = s->ev;
	} else if (s->t && r0) {
		s->span = (long double)TT_MAX(fit_len(s) / 16, 10000);
		s->v0 = (long double)(s->t - s->base) - s->span / 2;
		s->tc = s->t;
		for (size_t i = 0; i < s->nrows; i++)
			if (s->rows[i].rk->r == r0) {
				s->row = i;
				break;
			}
	}
	return 0;
}

static void tl_close(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	if (!s)
		return;
	cache_free(s->own);
	free(s->rks);
	free(s->rows);
	free(s->cells);
	free(s);
}

/* ---- the details of an event (a list pane) ---- */

struct ev_state {
	const struct tt_rank *r;
	uint32_t ev;
};

static void kv(struct tt_table *t, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kv(struct tt_table *t, const char *k, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	size_t row = tt_table_add_row(t);
	tt_table_set_str(t, row, 0, k);
	tt_table_set_str(t, row, 1, buf);
}

static void kv_comm(struct tt_table *t, const struct tt_rank *r, uint32_t ci)
{
	if (ci == TT_NONE || ci >= r->ncomm)
		return;
	const struct tt_comm *c = &r->comm[ci];
	kv(t, "collective", "%s", tt_str(r, c->name));
	if (c->dtype != TT_NONE)
		kv(t, "dtype", "%s", tt_str(r, c->dtype));
	if (c->in_nelems >= 0 || c->out_nelems >= 0)
		kv(t, "elements", "in %lld, out %lld", (long long)c->in_nelems,
		   (long long)c->out_nelems);
	if (c->group_size >= 0)
		kv(t, "group size", "%lld", (long long)c->group_size);
	if (c->pg != TT_NONE)
		kv(t, "process group", "%s", tt_str(r, c->pg));
	if (c->pg_ranks != TT_NONE)
		kv(t, "group ranks", "%s", tt_str(r, c->pg_ranks));
}

/* the innermost CPU op enclosing event ev on its thread, or TT_NONE */
static uint32_t enclosing_op(const struct tt_rank *r, uint32_t ev)
{
	const struct tt_event *e = &r->ev[ev];
	const struct tt_track *tr = &r->tracks[e->track];
	uint32_t n = 0;
	for (uint32_t i = ev; i > tr->first && n < LINK_SCAN; n++) {
		i--;
		const struct tt_event *o = &r->ev[i];
		if (tt_ev_kind(r, o) == TT_K_CPU_OP && o->ts <= e->ts && tt_ev_end(o) >= tt_ev_end(e))
			return i;
	}
	return TT_NONE;
}

/* the first GPU op launched from inside CPU event ev, or TT_NONE */
static uint32_t first_launch(const struct tt_rank *r, uint32_t ev)
{
	const struct tt_event *e = &r->ev[ev];
	const struct tt_track *tr = &r->tracks[e->track];
	uint32_t n = 0;
	for (uint32_t i = ev; i < tr->first + tr->count && r->ev[i].ts < tt_ev_end(e) && n < LINK_SCAN;
	     i++, n++) {
		uint32_t lo, hi;
		tt_links_of_cpu(r, i, &lo, &hi);
		if (lo < hi)
			return r->links[lo].gpu;
	}
	return TT_NONE;
}

static int ev_open(struct tt_pane *p)
{
	struct ev_state *es = p->state;
	const struct tt_rank *r = es->r;
	const struct tt_event *e = &r->ev[es->ev];
	static const struct tt_col cols[] = {
		{.name = "field", .type = TT_C_STR, .width = 18},
		{.name = "value", .type = TT_C_STR, .width = 400},
	};
	struct tt_table *t = tt_table_new("event", cols, 2);
	char a[64], b[64], c[64];
	const struct tt_track *tr = &r->tracks[e->track];
	char lab[96];
	tt_track_label(r, tr, lab, sizeof(lab));
	kv(t, "name", "%s", tt_ev_name(r, e));
	kv(t, "category", "%s", tt_str(r, r->cats[e->cat].name));
	if (tt_ev_kind(r, e) == TT_K_KERNEL) {
		const char *rule = NULL;
		enum tt_ktype kt = tt_kernel_type(tt_ev_name(r, e), &rule);
		kv(t, "kernel type", "%s (%s)", tt_ktype_name(kt), rule ? rule : "");
	}
	kv(t, "rank", "%lld (%s)", (long long)r->rank, r->file ? r->file : "");
	kv(t, "track", "%s", lab);
	if (tr->kind == TT_TRACK_GPU)
		kv(t, "device, stream", "%lld, %lld", (long long)tr->device, (long long)tr->stream);
	else
		kv(t, "pid, tid", "%lld, %lld", (long long)tr->pid, (long long)tr->tid);
	fmt_time(a, sizeof(a), e->ts - r->t0, 1, 0);
	int64_t ts = e->ts - r->base_ns;
	kv(t, "start", "%s after the rank's start (ts %s%lld.%03lld us in the trace)", a,
	   ts < 0 ? "-" : "", (long long)(llabs(ts) / 1000), (long long)(llabs(ts) % 1000));
	tt_fmt_dur(b, sizeof(b), e->dur);
	kv(t, "duration", "%s (%lld ns)", b, (long long)e->dur);
	fmt_time(c, sizeof(c), tt_ev_end(e) - r->t0, 1, 0);
	kv(t, "end", "%s after the rank's start", c);
	if (e->corr != TT_NONE)
		kv(t, "correlation", "%u", e->corr);
	if (e->ext != TT_NONE)
		kv(t, "external id", "%u", e->ext);
	if ((e->flags & TT_EF_KINFO) && e->aux < r->nkinfo) {
		const struct tt_kinfo *k = &r->kinfo[e->aux];
		kv(t, "grid", "[%d, %d, %d]", k->grid[0], k->grid[1], k->grid[2]);
		kv(t, "block", "[%d, %d, %d]", k->block[0], k->block[1], k->block[2]);
		kv(t, "registers", "%d per thread", k->regs);
		kv(t, "shared memory", "%d bytes", k->shmem);
		if (k->occupancy >= 0)
			kv(t, "occupancy", "%.1f%% (estimated achieved)", (double)k->occupancy);
		if (k->blocks_per_sm > 0)
			kv(t, "blocks per SM", "%.2f", (double)k->blocks_per_sm);
		if (k->warps_per_sm > 0)
			kv(t, "warps per SM", "%.2f", (double)k->warps_per_sm);
		kv_comm(t, r, k->comm);
	}
	if ((e->flags & TT_EF_MINFO) && e->aux < r->nminfo) {
		const struct tt_minfo *mi = &r->minfo[e->aux];
		if (mi->bytes >= 0) {
			tt_fmt_bytes(a, sizeof(a), (double)mi->bytes);
			kv(t, "bytes", "%s (%lld)", a, (long long)mi->bytes);
		}
		if (mi->bw_gbps > 0)
			kv(t, "bandwidth", "%.2f GB/s", mi->bw_gbps);
		else if (mi->bytes > 0 && e->dur > 0)
			kv(t, "bandwidth", "%.2f GB/s (bytes / duration)",
			   (double)mi->bytes / (double)e->dur);
	}
	if ((e->flags & TT_EF_OPINFO) && e->aux < r->nopinfo) {
		const struct tt_opinfo *o = &r->opinfo[e->aux];
		if (o->input_dims != TT_NONE)
			kv(t, "input dims", "%s", tt_str(r, o->input_dims));
		if (o->input_type != TT_NONE)
			kv(t, "input types", "%s", tt_str(r, o->input_type));
		if (o->call_stack != TT_NONE)
			kv(t, "call stack", "%s", tt_str(r, o->call_stack));
		kv_comm(t, r, o->comm);
	}
	if ((e->flags & TT_EF_MEMEV) && e->aux < r->nmeminfo) {
		const struct tt_meminfo *mm = &r->meminfo[e->aux];
		kv(t, "bytes", "%lld", (long long)mm->bytes);
		kv(t, "total allocated", "%lld", (long long)mm->total_alloc);
		kv(t, "total reserved", "%lld", (long long)mm->total_reserved);
	}
	uint32_t l = tt_launch_of(r, es->ev);
	if (l != TT_NONE) {
		const struct tt_event *le = &r->ev[l];
		fmt_time(a, sizeof(a), e->ts - tt_ev_end(le), 1, 0);
		kv(t, "launched by", "%s (corr %u), %s after the call ended", tt_ev_name(r, le),
		   le->corr, a);
	}
	uint32_t lo, hi;
	tt_links_of_cpu(r, es->ev, &lo, &hi);
	for (uint32_t i = lo; i < hi && i < lo + 8; i++)
		kv(t, "launches", "%s", tt_ev_name(r, &r->ev[r->links[i].gpu]));
	if (hi > lo + 8)
		kv(t, "launches", "... %u more", hi - lo - 8);
	if (tr->kind == TT_TRACK_CPU && tt_ev_kind(r, e) == TT_K_CPU_OP) {
		/* the GPU ops its runtime calls launched */
		uint32_t shown = 0, more = 0, n = 0;
		for (uint32_t i = es->ev + 1; i < tr->first + tr->count && r->ev[i].ts < tt_ev_end(e) &&
					       n < LINK_SCAN;
		     i++, n++) {
			tt_links_of_cpu(r, i, &lo, &hi);
			for (uint32_t k = lo; k < hi; k++) {
				if (shown < 8)
					kv(t, "launches", "%s (via %s)",
					   tt_ev_name(r, &r->ev[r->links[k].gpu]), tt_ev_name(r, &r->ev[i]));
				else
					more++;
				shown++;
			}
		}
		if (more)
			kv(t, "launches", "... %u more", more);
	}
	if (tr->kind == TT_TRACK_CPU && tt_ev_kind(r, e) != TT_K_CPU_OP) {
		uint32_t op = enclosing_op(r, es->ev);
		if (op != TT_NONE)
			kv(t, "inside op", "%s", tt_ev_name(r, &r->ev[op]));
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "Esc: back to the timeline");
	return 0;
}

static void ev_close(struct tt_pane *p)
{
	free(p->state);
}

static const struct tt_pane_ops event_ops = {
	.name = "event",
	.title = "Event",
	.help = "One event of the trace: its name, times, track, correlation id and the args "
		"the model keeps (kernel launch parameters, bytes and bandwidth of copies, input "
		"dims of operators, collective info), and what launched it or what it launched.",
	.open = ev_open,
	.close = ev_close,
};

static void open_details(struct tt_app *a, const struct tt_rank *r, uint32_t ev)
{
	struct tt_pane *p = tt_pane_new(a, &event_ops);
	struct ev_state *es = tt_calloc(1, sizeof(*es));
	es->r = r;
	es->ev = ev;
	p->state = es;
	char nm[48];
	tt_utf8_fit(nm, sizeof(nm), tt_ev_name(r, &r->ev[ev]), 40);
	snprintf(p->subtitle, sizeof(p->subtitle), "%s", nm);
	tt_app_push(a, p);
}

/* ---- keys ---- */

static void hist_push(struct tl_state *s)
{
	if (s->nhist == (int)TT_ARRAY_SIZE(s->hist)) {
		memmove(s->hist, s->hist + 1, sizeof(s->hist) - sizeof(s->hist[0]));
		s->nhist--;
	}
	struct tl_hist *h = &s->hist[s->nhist++];
	h->row = s->row;
	h->tc = s->tc;
	h->sel = s->sel;
	h->v0 = s->v0;
	h->span = s->span;
}

static void hist_restore(struct tl_state *s, const struct tl_hist *h)
{
	s->row = h->row;
	s->tc = h->tc;
	s->sel = h->sel;
	s->v0 = h->v0;
	s->span = h->span;
}

static int follow_link(struct tt_pane *p, struct tl_state *s)
{
	struct tt_app *a = p->app;
	uint32_t ev = under_cursor(s);
	if (ev == TT_NONE) {
		tt_app_status(a, TT_ROLE_WARNING, "no event under the cursor");
		return TT_R_REDRAW;
	}
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = row->rk->r;
	const struct tt_event *e = evp(row, ev);
	enum tt_cat_kind k = tt_ev_kind(r, e);
	uint32_t to = TT_NONE;
	const char *what = "";
	if (row->tr->kind != TT_TRACK_CPU) {
		to = tt_launch_of(r, ev);
		what = "the runtime call that launched it (c: its op)";
		if (to == TT_NONE) {
			tt_app_status(a, TT_ROLE_WARNING, "no launching call for %s (no correlation)",
				      short_name(row, ev));
			return TT_R_REDRAW;
		}
	} else if (k == TT_K_RUNTIME || k == TT_K_DRIVER || k == TT_K_MTIA_RUNTIME) {
		to = enclosing_op(r, ev);
		what = "the op it runs in (c: back)";
		if (to == TT_NONE) {
			/* no op: its kernel, if it launched one */
			uint32_t lo, hi;
			tt_links_of_cpu(r, ev, &lo, &hi);
			if (lo < hi) {
				to = r->links[lo].gpu;
				what = "the GPU op it launched";
			}
		}
	} else if (s->nhist) {
		/* the end of a chain: back to where it started */
		hist_restore(s, &s->hist[0]);
		s->nhist = 0;
		tt_app_status(a, TT_ROLE_DEFAULT, "back to %s",
			      s->sel != TT_NONE ? short_name(&s->rows[s->row], s->sel) : "the start");
		return TT_R_REDRAW;
	} else {
		to = first_launch(r, ev);
		what = "the first GPU op it launched (c: its launch)";
	}
	if (to == TT_NONE) {
		tt_app_status(a, TT_ROLE_WARNING, "%s: nothing to follow", short_name(row, ev));
		return TT_R_REDRAW;
	}
	hist_push(s);
	s->sel = ev; /* where we came from, exactly */
	s->hist[s->nhist - 1].sel = ev;
	if (!go_event(s, r, to)) {
		s->nhist--;
		tt_app_status(a, TT_ROLE_WARNING, "%s is on a track not shown", tt_ev_name(r, &r->ev[to]));
		return TT_R_REDRAW;
	}
	tt_app_status(a, TT_ROLE_DEFAULT, "c: %s (Esc: back)", what);
	return TT_R_REDRAW;
}

static void set_row(struct tl_state *s, size_t row)
{
	if (row >= s->nrows)
		row = s->nrows ? s->nrows - 1 : 0;
	if (row != s->row)
		s->sel = TT_NONE;
	s->row = row;
}

static int step_event(struct tt_pane *p, struct tl_state *s, int dir)
{
	struct tl_row *row = &s->rows[s->row];
	uint32_t first = row->tr->first, end = first + row->tr->count;
	uint32_t cur = s->sel != TT_NONE ? s->sel : under_cursor(s);
	uint32_t i;
	if (dir > 0) {
		i = cur != TT_NONE ? cur + 1 : lower_ts(row, s->tc + 1);
		while (i < end && !drawn(row, i))
			i++;
		if (i >= end) {
			tt_app_status(p->app, TT_ROLE_DIM, "no later event on this row");
			return TT_R_REDRAW;
		}
	} else {
		i = cur != TT_NONE ? cur : lower_ts(row, s->tc);
		do {
			if (i <= first) {
				tt_app_status(p->app, TT_ROLE_DIM, "no earlier event on this row");
				return TT_R_REDRAW;
			}
			i--;
		} while (!drawn(row, i));
	}
	s->sel = i;
	s->tc = evp(row, i)->ts;
	show_time(s, s->tc);
	tt_app_status(p->app, TT_ROLE_DEFAULT, "%s", "");
	return TT_R_REDRAW;
}

static void move_cell(struct tl_state *s, int dir)
{
	int64_t t0, t1;
	int w = cells(s);
	window(s, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, s->tc);
	if (k < 0)
		k = 0;
	if (k >= w)
		k = w - 1;
	int64_t target = dir > 0 ? tt_raster_edge(t0, t1, w, k + 1) : tt_raster_edge(t0, t1, w, k) - 1;
	if (target < t0 || target >= t1) {
		/* at the edge: pan by a quarter of the window */
		s->v0 += dir > 0 ? s->span / 4 : -s->span / 4;
		clamp_view(s);
		window(s, &t0, &t1);
		if (target < t0)
			target = t0;
		if (target >= t1)
			target = t1 - 1;
	}
	s->tc = target;
	s->sel = TT_NONE;
	snap_cursor(s);
}

static int zoom(struct tt_pane *p, struct tl_state *s, int dir)
{
	long double rel = (long double)(s->tc - s->base);
	if (dir > 0) {
		if (s->span / 2 < (long double)cells(s)) {
			tt_app_status(p->app, TT_ROLE_DIM, "finest zoom: 1 ns per cell");
			return TT_R_REDRAW;
		}
		s->v0 = rel - (rel - s->v0) / 2;
		s->span /= 2;
	} else if (dir < 0) {
		if ((s->span * 2 > (long double)fit_len(s) * ZOOM_OUT_MAX &&
		     s->span * 2 > (long double)cells(s) * 1000) ||
		    s->span * 2 > (long double)SPAN_MAX) {
			tt_app_status(p->app, TT_ROLE_DIM, "widest zoom");
			return TT_R_REDRAW;
		}
		s->v0 = rel - (rel - s->v0) * 2;
		s->span *= 2;
	} else {
		s->v0 = 0;
		s->span = (long double)TT_MAX(fit_len(s), cells(s));
		int64_t t0, t1;
		window(s, &t0, &t1);
		if (s->tc < t0 || s->tc >= t1) {
			s->tc = t0;
			s->sel = TT_NONE;
		}
	}
	return TT_R_REDRAW;
}

static int tl_key(struct tt_pane *p, enum tt_action act)
{
	struct tl_state *s = p->state;
	if (!s || !s->nrows)
		return TT_R_UNHANDLED;
	int page = s->page > 1 ? s->page - 1 : 1;
	switch (act) {
	case TT_ACT_ZOOM_IN:
		return zoom(p, s, 1);
	case TT_ACT_ZOOM_OUT:
		return zoom(p, s, -1);
	case TT_ACT_ZOOM_FIT:
		return zoom(p, s, 0);
	case TT_ACT_MOVE_LEFT:
		move_cell(s, -1);
		return TT_R_REDRAW;
	case TT_ACT_MOVE_RIGHT:
		move_cell(s, 1);
		return TT_R_REDRAW;
	case TT_ACT_MOVE_DOWN:
		set_row(s, s->row + 1);
		return TT_R_REDRAW;
	case TT_ACT_MOVE_UP:
		set_row(s, s->row ? s->row - 1 : 0);
		return TT_R_REDRAW;
	case TT_ACT_PAGE_DOWN:
		set_row(s, s->row + (size_t)page);
		return TT_R_REDRAW;
	case TT_ACT_PAGE_UP:
		set_row(s, s->row > (size_t)page ? s->row - (size_t)page : 0);
		return TT_R_REDRAW;
	case TT_ACT_MOVE_FIRST:
	case TT_ACT_MOVE_LAST:
		s->tc = act == TT_ACT_MOVE_FIRST ? s->fit0 : s->fit1 - 1;
		s->sel = TT_NONE;
		show_time(s, s->tc);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_EVENT:
		return step_event(p, s, 1);
	case TT_ACT_PREV_EVENT:
		return step_event(p, s, -1);
	case TT_ACT_ENTER: {
		uint32_t ev = under_cursor(s);
		if (ev == TT_NONE) {
			tt_app_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		open_details(p->app, s->rows[s->row].rk->r, ev);
		return TT_R_REDRAW;
	}
	case TT_ACT_FOLLOW_LINK:
		return follow_link(p, s);
	case TT_ACT_SET_MARK:
		if (s->mark && s->mark_t == s->tc && s->mark_row == s->row) {
			s->mark = false;
			tt_app_status(p->app, TT_ROLE_DEFAULT, "mark cleared");
			return TT_R_REDRAW;
		}
		s->mark = true;
		s->mark_t = s->tc;
		s->mark_row = s->row;
		s->mark_ev = under_cursor(s);
		tt_app_status(p->app, TT_ROLE_DEFAULT,
			      "mark set: move the cursor to measure (m again here clears it)");
		return TT_R_REDRAW;
	case TT_ACT_BACK:
		if (s->nhist) {
			hist_restore(s, &s->hist[--s->nhist]);
			tt_app_status(p->app, TT_ROLE_DEFAULT, "back (%d more)", s->nhist);
			return TT_R_REDRAW;
		}
		return TT_R_UNHANDLED;
	case TT_ACT_FILTER:
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH:
	case TT_ACT_SORT_NEXT:
	case TT_ACT_SORT_REVERSE:
	case TT_ACT_WRITE_CSV:
		tt_app_status(p->app, TT_ROLE_DIM,
			      "%s: not in the timeline (Tab/S-Tab step through events)",
			      tt_action_name(act));
		return TT_R_REDRAW;
	default:
		return TT_R_UNHANDLED;
	}
}

/* ---- drawing ---- */

static const int64_t nice[] = {1, 2, 5};

/* ticks: a step of 1, 2 or 5 x 10^k ns with labels that fit between them */
static int64_t ruler_step(const struct tl_state *s, int64_t t0, int64_t t1, int w, int *dec,
			  enum tt_unit *unit)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int64_t far = TT_MAX(llabs(t0 - s->base), llabs(t1 - s->base));
	*unit = tt_unit_pick(far);
	int64_t p10 = 1;
	for (int e = 0; e < 19; e++) {
		for (int i = 0; i < 3; i++) {
			int64_t step = nice[i] * p10;
			/* decimals that show the step in the unit */
			int d = 0;
			int64_t q = div[*unit];
			while (d < 9 && q > 1 && step % q != 0) {
				q /= 10;
				d++;
			}
			char buf[48];
			int len = fmt_fixed(buf, sizeof(buf), far, div[*unit], d);
			len += 1 + (int)tt_utf8_width(tt_unit_name(*unit));
			double cols = (double)step * w / (double)(t1 - t0);
			if (cols >= len + 2 && cols >= 8) {
				*dec = d;
				return step;
			}
		}
		if (p10 > INT64_MAX / 10)
			break;
		p10 *= 10;
	}
	*dec = 0;
	return t1 - t0;
}

static void draw_ruler(const struct tl_state *s, struct tt_grid *g, int x, int y, int w,
		       int64_t t0, int64_t t1, bool ticks)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int dec;
	enum tt_unit unit;
	int64_t step = ruler_step(s, t0, t1, w, &dec, &unit);
	int64_t rel0 = t0 - s->base;
	/* first multiple of step at or after rel0 */
	int64_t m = rel0 >= 0 ? (rel0 + step - 1) / step : -((-rel0) / step);
	tt_grid_fill(g, x, y, w, ' ', TT_ROLE_RULER);
	if (ticks)
		tt_grid_fill(g, x, y + 1, w, ' ', TT_ROLE_RULER);
	for (int guard = 0; guard < 1000; guard++, m++) {
		int64_t t = s->base + m * step;
		if (t >= t1)
			break;
		int k = tt_raster_cell_of(t0, t1, w, t);
		if (k < 0 || k >= w)
			continue;
		char buf[64];
		int len = fmt_fixed(buf, sizeof(buf), m * step, div[unit], dec);
		if (len > 0 && (size_t)len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - (size_t)len, " %s", tt_unit_name(unit));
		tt_grid_put(g, x + k, y, TT_ROLE_RULER, buf, w - k);
		if (ticks)
			tt_grid_put(g, x + k, y + 1, TT_ROLE_RULER, "|", 1);
	}
}

static void draw_legend(struct tt_grid *g, int x, int y, int w)
{
	static const uint8_t order[] = {TT_RC_COMP, TT_RC_COMM,	 TT_RC_MEM,   TT_RC_CPU,
					TT_RC_RUNTIME, TT_RC_OTHER, TT_RC_ANNOT, TT_RC_IDLE};
	static const char *const shortn[TT_RC_COUNT] = {
		[TT_RC_IDLE] = "idle",	 [TT_RC_ANNOT] = "annot",  [TT_RC_COMP] = "comp",
		[TT_RC_COMM] = "comm",	 [TT_RC_MEM] = "mem",	   [TT_RC_CPU] = "op",
		[TT_RC_RUNTIME] = "rt", [TT_RC_OTHER] = "other",
	};
	bool longn = w >= 100;
	int cx = x;
	for (size_t i = 0; i < TT_ARRAY_SIZE(order) && cx < x + w; i++) {
		char gl[2] = {tt_rclass_glyph((enum tt_rclass)order[i]), 0};
		cx += tt_grid_put(g, cx, y, tt_rclass_role((enum tt_rclass)order[i]), gl, x + w - cx);
		cx += tt_grid_printf(g, cx, y, TT_ROLE_DIM, x + w - cx, " %s  ",
				     longn ? tt_rclass_name((enum tt_rclass)order[i]) : shortn[order[i]]);
	}
	if (cx < x + w) {
		char gl[2] = {TT_RASTER_BUSY_GLYPH, 0};
		cx += tt_grid_put(g, cx, y, TT_ROLE_DEFAULT, gl, x + w - cx);
		tt_grid_put(g, cx, y, TT_ROLE_DIM, longn ? " many tiny events" : " busy", x + w - cx);
	}
}

static void tl_draw(struct tt_pane *p, struct tt_grid *g, int y, int h)
{
	struct tl_state *s = p->state;
	if (!s || !s->nrows) {
		tt_grid_put(g, 2, y + 1, TT_ROLE_DIM, p->msg[0] ? p->msg : "nothing to show", g->w - 4);
		return;
	}
	/* geometry */
	int lw = 8;
	for (size_t i = 0; i < s->nrows; i++)
		lw = TT_MAX(lw, (int)tt_utf8_width(s->rows[i].label) + 2);
	lw = TT_MIN(lw, TT_MAX(10, g->w / 4));
	int x = lw + 1, w = g->w - x;
	if (w < 4 || h < 4)
		return;
	bool first = s->w == 0;
	s->w = w;
	if (s->span < (long double)w)
		s->span = (long double)w;
	int64_t t0, t1;
	window(s, &t0, &t1);
	if (s->tc < t0 || s->tc >= t1) {
		s->tc = TT_MIN(TT_MAX(s->tc, t0), t1 - 1);
		s->sel = TT_NONE;
	}
	if (first && s->sel == TT_NONE)
		snap_cursor(s); /* opened at a time: the middle of its cell */
	bool legend = h >= 9, line2 = h >= 7;
	int head = 3 + (line2 ? 1 : 0);
	int nvis = h - head - (legend ? 1 : 0);
	if (nvis < 1)
		nvis = 1;
	s->page = nvis;
	if (s->row >= s->nrows)
		s->row = s->nrows - 1;
	if (s->row < s->top_row)
		s->top_row = s->row;
	if (s->row >= s->top_row + (size_t)nvis)
		s->top_row = s->row - (size_t)nvis + 1;
	if (s->top_row + (size_t)nvis > s->nrows)
		s->top_row = s->nrows > (size_t)nvis ? s->nrows - (size_t)nvis : 0;

	/* index the tracks in view (all at once: on several threads) */
	build_rows(s, s->top_row, s->top_row + (size_t)nvis);

	int ccol = tt_raster_cell_of(t0, t1, w, s->tc);
	int mcol = s->mark ? tt_raster_cell_of(t0, t1, w, s->mark_t) : -1;
	int64_t cw = TT_MAX((t1 - t0) / w, 1);
	int64_t far = TT_MAX(llabs(t0 - s->base), llabs(t1 - s->base));

	/* ruler and ticks */
	draw_ruler(s, g, x, y, w, t0, t1, true);
	tt_grid_put(g, 0, y, TT_ROLE_DIM, "time", lw);
	if (ccol >= 0 && ccol < w)
		tt_grid_put(g, x + ccol, y + 1, TT_ROLE_TL_CURSOR, "v", 1);
	if (mcol >= 0 && mcol < w)
		tt_grid_put(g, x + mcol, y + 1, TT_ROLE_TL_MARK, mcol == ccol ? "X" : "M", 1);
	if (s->mark && mcol < 0)
		tt_grid_put(g, x, y + 1, TT_ROLE_TL_MARK, "<M", 2);
	if (s->mark && mcol >= w)
		tt_grid_put(g, x + w - 2, y + 1, TT_ROLE_TL_MARK, "M>", 2);

	/* the cursor line */
	struct tl_row *crow = &s->rows[s->row];
	uint32_t ev = under_cursor(s);
	char tbuf[64], dbuf[64], line[600];
	fmt_time(tbuf, sizeof(tbuf), s->tc - s->base, cw, far);
	int cx = tt_grid_printf(g, 1, y + 2, TT_ROLE_HEADER, -1, "cursor %s", tbuf);
	cx += 3;
	if (ev != TT_NONE) {
		const struct tt_event *e = evp(crow, ev);
		enum tt_rclass c = (enum tt_rclass)ev_class(crow->rk, e);
		char gl[2] = {tt_rclass_glyph(c), 0};
		cx += tt_grid_put(g, cx, y + 2, tt_rclass_role(c), gl, 1) + 1;
		tt_fmt_dur(dbuf, sizeof(dbuf), e->dur);
		fmt_time(tbuf, sizeof(tbuf), e->ts - s->base, 1, far);
		snprintf(line, sizeof(line), "%s  %s at %s", tt_ev_name(crow->rk->r, e), dbuf, tbuf);
		/* the name gives way first */
		int room = g->w - cx - 1;
		int tail = (int)tt_utf8_width(line) - (int)tt_utf8_width(tt_ev_name(crow->rk->r, e));
		if ((int)tt_utf8_width(line) > room && room > tail + 8) {
			char nm[400];
			tt_utf8_fit(nm, sizeof(nm), tt_ev_name(crow->rk->r, e), (size_t)(room - tail));
			snprintf(line, sizeof(line), "%s  %s at %s", nm, dbuf, tbuf);
		}
		tt_grid_put(g, cx, y + 2, TT_ROLE_DEFAULT, line, room);
	} else {
		tt_grid_put(g, cx, y + 2, TT_ROLE_DIM, "(idle)", -1);
	}

	/* the window line, or the mark */
	if (line2) {
		if (s->mark) {
			char mb[64], db[64];
			fmt_time(mb, sizeof(mb), s->mark_t - s->base, cw, far);
			int64_t d = s->tc - s->mark_t;
			fmt_time(db, sizeof(db), d < 0 ? -d : d, cw, 0);
			int k = snprintf(line, sizeof(line), "mark %s   cursor - mark %s%s", mb,
					 d < 0 ? "-" : "+", db);
			if (s->mark_ev != TT_NONE && ev != TT_NONE && s->mark_ev != ev &&
			    s->mark_row < s->nrows && s->rows[s->mark_row].rk == crow->rk) {
				const struct tt_rank *r = crow->rk->r;
				const struct tt_event *me = &r->ev[s->mark_ev], *ce = evp(crow, ev);
				const struct tt_event *e1 = me->ts <= ce->ts ? me : ce;
				const struct tt_event *e2 = e1 == me ? ce : me;
				int64_t gap = e2->ts - tt_ev_end(e1);
				if (gap >= 0) {
					tt_fmt_dur(db, sizeof(db), gap);
					k += snprintf(line + k, sizeof(line) - (size_t)k,
						      "   gap between their events %s", db);
				} else {
					tt_fmt_dur(db, sizeof(db), -gap);
					k += snprintf(line + k, sizeof(line) - (size_t)k,
						      "   their events overlap by %s", db);
				}
			}
			tt_grid_put(g, 1, y + 3, TT_ROLE_TL_MARK, line, g->w - 2);
		} else {
			char a[64], b[64], c[64];
			fmt_time(a, sizeof(a), t0 - s->base, cw, far);
			fmt_time(b, sizeof(b), t1 - s->base, cw, far);
			tt_fmt_dur(c, sizeof(c), cw);
			snprintf(line, sizeof(line), "window %s .. %s   %s per cell   rows %zu-%zu of %zu",
				 a, b, c, s->top_row + 1, TT_MIN(s->top_row + (size_t)nvis, s->nrows),
				 s->nrows);
			tt_grid_put(g, 1, y + 3, TT_ROLE_DIM, line, g->w - 2);
		}
	}

	/* the rows */
	if (s->capcells < w) {
		s->cells = tt_realloc_array(s->cells, (size_t)w, sizeof(*s->cells));
		s->capcells = w;
	}
	const char *sep = tt_render_ascii() ? "|" : "\xE2\x94\x82";
	for (int i = 0; i < nvis && s->top_row + (size_t)i < s->nrows; i++) {
		size_t ri = s->top_row + (size_t)i;
		struct tl_row *row = &s->rows[ri];
		int yy = y + head + i;
		bool cur = ri == s->row;
		char lab[128];
		tt_utf8_fit(lab, sizeof(lab), row->label, (size_t)lw - 2);
		if (cur)
			tt_grid_fill(g, 0, yy, lw, ' ', TT_ROLE_CURSOR);
		tt_grid_put(g, 0, yy, cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, cur ? ">" : " ", 1);
		tt_grid_put(g, 1, yy, cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, lab, lw - 1);
		tt_grid_put(g, lw, yy, TT_ROLE_BORDER, sep, 1);
		tt_raster_row(row_ix(s, row), t0, t1, w, s->cells);
		for (int k = 0; k < w; k++) {
			const struct tt_rcell *c = &s->cells[k];
			struct tt_gcell *gc = tt_grid_at(g, x + k, yy);
			gc->cp = (uint32_t)(unsigned char)tt_rcell_glyph(c);
			gc->role = (uint8_t)tt_rclass_role((enum tt_rclass)c->cls);
		}
		if (s->mark && ri == s->mark_row && mcol >= 0 && mcol < w)
			tt_grid_paint(g, x + mcol, yy, 1, TT_ROLE_TL_MARK);
		if (cur && ccol >= 0 && ccol < w)
			tt_grid_paint(g, x + ccol, yy, 1, TT_ROLE_TL_CURSOR);
	}
	if (legend)
		draw_legend(g, 1, y + h - 1, g->w - 2);
}

const struct tt_pane_ops tt_timeline_ops = {
	.name = "timeline",
	.title = "Timeline",
	.help = "The trace itself: one row per GPU stream and CPU thread of the chosen rank "
		"(r picks ranks; several are stacked), time left to right.  Each cell shows the "
		"class painted over most of it, the innermost event winning: # compute, "
		"= communication, + memory, o CPU op, r runtime call, ~ other, - annotation "
		"(ProfilerStep and record_function ranges, drawn only where nothing else runs), "
		". idle; * marks a cell where many tiny events start.  A cell that holds any event, "
		"however short, shows its class.  + and - zoom around the cursor, = fits the whole "
		"span, h/l move the cursor a cell (the view pans at the edges), j/k change rows, "
		"Tab and S-Tab step through the events of the row, Enter shows the event under the "
		"cursor, c follows links (kernel -> the runtime call that launched it -> its op -> "
		"back; Esc goes back one jump), m sets a mark and shows the time from the mark to "
		"the cursor and the gap between their events.",
	.open = tl_open,
	.close = tl_close,
	.draw = tl_draw,
	.key = tl_key,
};

struct tt_pane *tt_timeline_new(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	struct tt_pane *p = tt_pane_new(a, &tt_timeline_ops);
	struct tl_state *s = tt_calloc(1, sizeof(*s));
	s->ri = ri;
	s->ev = ev;
	s->t = t;
	p->state = s;
	return p;
}
