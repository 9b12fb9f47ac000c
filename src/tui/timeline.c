/* The timeline pane: per rank (several stacked when several are chosen),
 * one row per GPU stream and CPU thread (or GPU streams only, or one
 * summary row per rank), time left to right, each cell drawn with the class
 * painted over most of it.  src/render/raster.c does the exact rasterising,
 * tlwindow.c the window maths, tltracks.c the track index, tlhits.c the
 * highlighted events (search matches, a set another pane hands over); this
 * file is the pane: the rows, the keys, the links between events, the
 * drawing.
 *
 * Every time shown or typed is relative to the job's origin
 * (tt_model_origin: the first event across all ranks), whichever ranks are
 * shown, so a time reads the same here, in the event pane and in reports.
 *
 * Layout (rows [y, y+h) of the screen):
 *     ruler: times at ticks, in the unit of the scale (ns, µs, ms, s)
 *     ticks: '|' at the ticks, 'v' at the cursor, 'M' at the mark
 *     cursor line: cursor time and the event under the cursor
 *     window line: the window and cell size, or the mark, the time from it
 *            to the cursor and the gap between their events
 *     one row per track: label ('>' on the cursor's row), then the cells
 *     legend (when there is room)
 *
 * The window never leaves the data: zoom and pan stop at its ends.  The
 * selected kernel's launch ('^') and the op around it ('[' ']') are marked
 * on their CPU rows, a runtime call's kernel ('v') on its stream.
 *
 * Speed: each track has a raster index (raster.h), built the first time
 * the track is in view -- one pass over its events, the tracks in view on
 * several threads -- and kept for the app's life in a cache the app's
 * timelines share (tt_ui_shared).  After that a redraw costs
 * O(cells x rows), whatever the zoom and the number of events. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/raster.h"
#include "tracetop/util.h"
#include "pane.h"
#include "tlhits.h"
#include "tltracks.h"
#include "tlwindow.h"

enum tl_mode { TL_ALL, TL_GPU, TL_RANKS, TL_NMODES };

static const char *const mode_name[TL_NMODES] = {
	[TL_ALL] = "every stream and thread",
	[TL_GPU] = "GPU streams only",
	[TL_RANKS] = "one row per rank",
};

struct tl_row {
	size_t rki;                /* index into s->rks */
	struct tl_rank *rk;
	struct tl_src *src;        /* the track; NULL on a rank's summary row */
	const struct tt_track *tr; /* NULL on a summary row */
	char label[96];
};

/* the tracks a rank's summary row merges */
struct tl_sum {
	struct tl_src **v;
	size_t n;
};

struct tl_hist {
	size_t row;
	int64_t tc;
	uint32_t sel;
	long double v0, span;
};

/* the window last shown in a timeline of the app (tt_timeline_like) */
struct tl_last {
	int64_t t0, t1;
};

struct tl_state {
	/* where to open */
	size_t ri;
	uint32_t ev;
	int64_t t;
	bool top;  /* the pane of key 9 */
	bool like; /* over the window last shown */
	struct tt_pane *pane;

	struct tl_cache *cache; /* the app's shared one, or own */
	struct tl_cache *own;
	struct tl_rank **rks;
	struct tl_sum *sums; /* per rks entry */
	size_t nrks;
	enum tl_mode mode;
	struct tl_row *rows;
	size_t nrows;
	size_t row, top_row;
	struct tl_view v;         /* the window and the cursor */
	uint32_t sel;             /* event chosen by Tab, c, n or opening, or TT_NONE */
	bool mark;
	size_t mark_row;
	int64_t mark_t;
	uint32_t mark_ev;
	struct tl_hist hist[16];
	int nhist;
	int page;                 /* track rows at the last draw */
	int lw;                   /* label width at the last draw */
	int rows_y;               /* screen row of the first track row at the last draw */
	int page_head;            /* rows above it (ruler, ticks, cursor and window lines) */
	struct tt_rcell *cells;
	int capcells;
	/* highlighted events: search matches or a set handed over */
	struct tl_hits hits;
	char pattern[128];        /* the last search */
	bool searched;            /* hits are the matches of pattern */
	/* the flow of the selected event, found once per selection */
	size_t flow_rki;
	uint32_t flow_for, flow_launch, flow_op, flow_kernel;
};

/* ---- rows and their tracks ---- */

/* The tracks a row draws: one, or a rank's summary set. */
static struct tl_src *const *row_srcs(const struct tl_state *s, const struct tl_row *row,
				      size_t *n)
{
	if (row->src) {
		*n = 1;
		return &row->src;
	}
	*n = s->sums[row->rki].n;
	return s->sums[row->rki].v;
}

/* Index the tracks of rows [from, to) that have no index yet (on several
 * threads when there is much to do). */
static void build_rows(struct tl_state *s, size_t from, size_t to)
{
	struct tl_src *v[64];
	size_t n = 0;
	for (size_t i = from; i < to && i < s->nrows; i++) {
		size_t k;
		struct tl_src *const *srcs = row_srcs(s, &s->rows[i], &k);
		for (size_t j = 0; j < k; j++) {
			struct tl_src *src = srcs[j];
			bool dup = false;
			for (size_t q = 0; q < n; q++)
				dup = dup || v[q] == src;
			if (!src->ix && !dup) {
				if (n == TT_ARRAY_SIZE(v)) {
					struct tl_index_stats st;
					tl_index(s->cache, v, n, &st);
					n = 0;
				}
				v[n++] = src;
			}
		}
	}
	if (!n)
		return;
	struct tl_index_stats st;
	tl_index(s->cache, v, n, &st);
	if (st.ns > 100000000) {
		char mb[32];
		tt_fmt_bytes(mb, sizeof(mb), (double)st.bytes);
		tt_ui_status(s->pane->app, TT_ROLE_DIM,
			     "indexed %llu events of %zu tracks in %lld ms (%s, once per track)",
			     (unsigned long long)st.events, n, (long long)(st.ns / 1000000), mb);
	}
}

static struct tt_rix *src_ix(struct tl_state *s, struct tl_row *row, struct tl_src *src)
{
	if (!src->ix)
		build_rows(s, (size_t)(row - s->rows), (size_t)(row - s->rows) + 1);
	return src->ix;
}

/* ---- events on a row ---- */

static const struct tt_rank *row_rank(const struct tl_row *row)
{
	return row->rk->r;
}

/* first event of track tr with ts >= t (a rank event index) */
static uint32_t lower_ts(const struct tt_rank *r, const struct tt_track *tr, int64_t t)
{
	const struct tt_event *v = r->ev;
	uint32_t lo = tr->first, hi = tr->first + tr->count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool drawn(const struct tl_rank *rk, uint32_t ev)
{
	return tl_ev_class(rk, &rk->r->ev[ev]) != TT_RC_SKIP;
}

static bool foreground(const struct tl_rank *rk, uint32_t ev)
{
	uint8_t c = tl_ev_class(rk, &rk->r->ev[ev]);
	return c != TT_RC_SKIP && c != TT_RC_ANNOT;
}

/* The event under the cursor: the chosen one, else the innermost covering
 * the cursor, else the first starting in the cursor's cell, else the
 * annotation covering the cursor (on a summary row: the first of its
 * tracks that has one). */
static uint32_t under_cursor(struct tl_state *s)
{
	if (!s->nrows)
		return TT_NONE;
	if (s->sel != TT_NONE)
		return s->sel;
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = row_rank(row);
	size_t n;
	struct tl_src *const *srcs = row_srcs(s, row, &n);
	uint32_t bg = TT_NONE;
	for (size_t j = 0; j < n; j++) {
		struct tt_rpoint pt;
		tt_rix_at(src_ix(s, row, srcs[j]), s->v.tc, &pt);
		if (pt.fg != UINT32_MAX)
			return srcs[j]->tr->first + pt.fg;
		if (pt.bg != UINT32_MAX && bg == TT_NONE)
			bg = srcs[j]->tr->first + pt.bg;
	}
	int64_t t0, t1;
	int w = tl_cells(&s->v);
	tl_window(&s->v, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, s->v.tc);
	if (k >= 0 && k < w) {
		int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
		uint32_t best = TT_NONE;
		for (size_t j = 0; j < n; j++) {
			const struct tt_track *tr = srcs[j]->tr;
			uint32_t end = tr->first + tr->count;
			for (uint32_t i = lower_ts(r, tr, a), c = 0; i < end && r->ev[i].ts < b && c < 1000;
			     i++, c++)
				if (foreground(row->rk, i)) {
					if (best == TT_NONE || r->ev[i].ts < r->ev[best].ts)
						best = i;
					break;
				}
		}
		if (best != TT_NONE)
			return best;
	}
	return bg;
}

/* the row showing event ev of rank r (its track's, or its rank's summary
 * row), or SIZE_MAX */
static size_t row_of(const struct tl_state *s, const struct tt_rank *r, uint32_t track)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct tl_row *row = &s->rows[i];
		if (row->rk->r != r)
			continue;
		size_t n;
		struct tl_src *const *srcs = row_srcs(s, row, &n);
		for (size_t j = 0; j < n; j++)
			if (srcs[j]->tr == &r->tracks[track])
				return i;
	}
	return SIZE_MAX;
}

static const char *ev_name(const struct tt_rank *r, uint32_t ev)
{
	return tt_ev_name(r, &r->ev[ev]);
}

/* move the cursor to event ev of rank r; false if it has no row */
static bool go_event(struct tl_state *s, const struct tt_rank *r, uint32_t ev)
{
	size_t ri = row_of(s, r, r->ev[ev].track);
	if (ri == SIZE_MAX)
		return false;
	s->row = ri;
	s->sel = ev;
	s->v.tc = r->ev[ev].ts;
	tl_show_time(&s->v, s->v.tc);
	return true;
}

/* ---- opening ---- */

static bool track_has_work(const struct tt_rank *r, const struct tt_track *t)
{
	for (uint32_t i = t->first; i < t->first + t->count; i++)
		if (!(r->ev[i].flags & TT_EF_MARKER))
			return true;
	return false;
}

static bool track_shown(const struct tt_rank *r, const struct tt_track *t, enum tl_mode mode)
{
	if (t->kind != TT_TRACK_GPU && t->kind != TT_TRACK_GPU_SYNC && t->kind != TT_TRACK_CPU)
		return false;
	if (mode == TL_GPU && t->kind == TT_TRACK_CPU)
		return false;
	return track_has_work(r, t);
}

/* the app's shared track index, made if needed; NULL if it cannot be shared */
static const char cache_tag[] = "timeline track index";
static const char last_tag[] = "timeline last window";

static void drop_cache(void *c)
{
	tl_cache_free(c);
}

static struct tl_cache *shared_cache(struct tt_app *a)
{
	struct tl_cache *c = tt_ui_shared(a, cache_tag);
	if (!c) {
		c = tl_cache_new(a->m);
		if (!tt_ui_share(a, cache_tag, c, drop_cache)) {
			tl_cache_free(c);
			c = NULL;
		}
	}
	return c;
}

static void add_rank(struct tl_state *s, size_t ri)
{
	for (size_t i = 0; i < s->nrks; i++)
		if (s->rks[i]->ri == ri)
			return;
	s->rks = tt_realloc_array(s->rks, s->nrks + 1, sizeof(*s->rks));
	s->rks[s->nrks++] = tl_cache_rank(s->cache, ri);
}

static void pick_ranks(struct tl_state *s, struct tt_app *a)
{
	const struct tt_model *m = a->m;
	bool many = false;
	if (!s->top)
		for (size_t i = 0; i < a->nranks; i++)
			if (pane_rank_index(m, a->ranks[i]) == s->ri)
				many = a->nranks > 1;
	if (s->hits.n) {
		/* a set handed over: the ranks of its events, in the model's order */
		for (size_t i = 0; i < m->nranks; i++)
			for (size_t k = 0; k < s->hits.n; k++)
				if (s->hits.v[k].ri == i) {
					add_rank(s, i);
					break;
				}
	} else if (s->top || many) {
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

/* The rows of the current mode.  The cursor stays on its rank (and track
 * when it has a row). */
static void make_rows(struct tl_state *s)
{
	const struct tt_rank *cr = s->nrows ? row_rank(&s->rows[s->row]) : NULL;
	const struct tt_track *ctr = s->nrows ? s->rows[s->row].tr : NULL;
	if (!ctr && s->nrows && s->sel != TT_NONE)
		ctr = &cr->tracks[cr->ev[s->sel].track];
	size_t n = 0;
	for (size_t i = 0; i < s->nrks; i++)
		n += s->rks[i]->r->ntracks + 1;
	free(s->rows);
	s->rows = tt_calloc(n + 1, sizeof(*s->rows));
	s->nrows = 0;
	for (size_t i = 0; i < s->nrks; i++) {
		struct tl_rank *rk = s->rks[i];
		const struct tt_rank *r = rk->r;
		struct tl_sum *sum = &s->sums[i];
		if (!sum->v) {
			/* a rank's summary: its GPU streams, or its threads without any */
			sum->v = tt_calloc(r->ntracks + 1, sizeof(*sum->v));
			for (int pass = 0; pass < 2 && !sum->n; pass++)
				for (uint32_t t = 0; t < r->ntracks; t++) {
					const struct tt_track *tr = &r->tracks[t];
					bool want = pass == 0 ? tr->kind == TT_TRACK_GPU :
								tr->kind == TT_TRACK_CPU;
					if (want && track_has_work(r, tr))
						sum->v[sum->n++] = &rk->src[t];
				}
		}
		if (s->mode == TL_RANKS) {
			if (!sum->n)
				continue;
			struct tl_row *row = &s->rows[s->nrows++];
			row->rki = i;
			row->rk = rk;
			bool gpu = sum->v[0]->tr->kind == TT_TRACK_GPU;
			snprintf(row->label, sizeof(row->label), "r%lld %zu %s", (long long)r->rank,
				 sum->n,
				 gpu ? (sum->n == 1 ? "stream" : "streams") :
				       (sum->n == 1 ? "thread" : "threads"));
			continue;
		}
		for (uint32_t t = 0; t < r->ntracks; t++) {
			if (!track_shown(r, &r->tracks[t], s->mode))
				continue;
			struct tl_row *row = &s->rows[s->nrows++];
			row->rki = i;
			row->src = &rk->src[t];
			row->rk = rk;
			row->tr = &r->tracks[t];
			char lab[80];
			tt_track_label(r, row->tr, lab, sizeof(lab));
			snprintf(row->label, sizeof(row->label), "r%lld %s", (long long)r->rank, lab);
		}
	}
	/* the cursor's row again: its track's, else its rank's first */
	size_t keep = SIZE_MAX;
	for (size_t i = 0; cr && i < s->nrows && keep == SIZE_MAX; i++)
		if (row_rank(&s->rows[i]) == cr && ctr && row_of(s, cr, (uint32_t)(ctr - cr->tracks)) == i)
			keep = i;
	for (size_t i = 0; cr && i < s->nrows && keep == SIZE_MAX; i++)
		if (row_rank(&s->rows[i]) == cr)
			keep = i;
	if (keep == SIZE_MAX || s->sel == TT_NONE ||
	    row_of(s, cr, cr->ev[s->sel].track) != keep)
		s->sel = TT_NONE;
	s->row = keep == SIZE_MAX ? 0 : keep;
	if (s->mark && s->mark_row >= s->nrows)
		s->mark_row = s->row;
}

static int tl_open(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	struct tt_app *a = p->app;
	if (!s) {
		s = tt_calloc(1, sizeof(*s));
		s->ev = TT_NONE;
		s->top = true;
		s->hits.cur = SIZE_MAX;
		p->state = s;
	}
	s->sel = TT_NONE;
	s->pane = p;
	s->flow_for = s->flow_launch = s->flow_op = s->flow_kernel = TT_NONE;
	s->flow_rki = SIZE_MAX;
	if (!a->m || !a->m->nranks) {
		snprintf(p->msg, sizeof(p->msg), "no ranks loaded");
		return -1;
	}
	s->cache = shared_cache(a);
	if (!s->cache || s->cache->m != a->m) {
		if (!s->own)
			s->own = tl_cache_new(a->m);
		s->cache = s->own;
	}
	pick_ranks(s, a);
	s->sums = tt_calloc(s->nrks + 1, sizeof(*s->sums));
	make_rows(s);
	s->v.base = tt_model_origin(a->m);
	s->v.fit0 = INT64_MAX;
	s->v.fit1 = INT64_MIN;
	for (size_t i = 0; i < s->nrks; i++) {
		const struct tt_rank *r = s->rks[i]->r;
		if (r->t1 > r->t0) {
			s->v.fit0 = TT_MIN(s->v.fit0, r->t0);
			s->v.fit1 = TT_MAX(s->v.fit1, r->t1);
		}
	}
	char ranks[120];
	size_t k = 0;
	k += (size_t)snprintf(ranks, sizeof(ranks), "rank%s ", s->nrks > 1 ? "s" : "");
	size_t shown = 0;
	for (; shown < s->nrks; shown++) {
		char one[32];
		int n = snprintf(one, sizeof(one), "%s%lld", shown ? "," : "",
				 (long long)s->rks[shown]->r->rank);
		if (k + (size_t)n > 50)
			break; /* whole numbers only, the rest counted: 80 columns */
		memcpy(ranks + k, one, (size_t)n + 1);
		k += (size_t)n;
	}
	if (shown < s->nrks)
		snprintf(ranks + k, sizeof(ranks) - k, ",... (%zu ranks)", s->nrks);
	snprintf(p->subtitle, sizeof(p->subtitle), "%s%s", s->top ? "" : "timeline ", ranks);
	if (!s->nrows) {
		snprintf(p->msg, sizeof(p->msg), "%s has no GPU stream or CPU thread with events",
			 ranks);
		return -1;
	}
	if (s->v.fit1 <= s->v.fit0) {
		s->v.fit0 = s->rows[0].tr ? s->rows[0].tr->t0 : s->v.base;
		s->v.fit1 = s->v.fit0 + 1000;
	}
	s->v.v0 = (long double)(s->v.fit0 - s->v.base);
	s->v.span = (long double)TT_MAX(tl_fit_len(&s->v), 1000);
	s->v.tc = s->v.fit0;
	/* opened at an event, a time, a set of events or the last window */
	const struct tt_rank *r0 = s->ri < a->m->nranks ? a->m->ranks[s->ri] : NULL;
	struct tl_last *last = tt_ui_shared(a, last_tag);
	if (s->hits.n) {
		s->ri = s->hits.v[0].ri;
		s->ev = s->hits.v[0].ev;
		r0 = a->m->ranks[s->ri];
		s->hits.cur = 0;
	}
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
		s->v.span = (long double)TT_MAX(hi - lo + 2 * pad, 1000);
		s->v.v0 = (long double)(lo - pad - s->v.base);
		s->row = row_of(s, r0, e->track);
		s->v.tc = e->ts;
		s->sel = s->ev;
	} else if (s->like && last && last->t1 > last->t0) {
		s->v.span = (long double)(last->t1 - last->t0);
		s->v.v0 = (long double)(last->t0 - s->v.base);
		s->v.tc = last->t0 + (last->t1 - last->t0) / 2;
	} else if (s->t && r0) {
		s->v.span = (long double)TT_MAX(tl_fit_len(&s->v) / 16, 10000);
		s->v.v0 = (long double)(s->t - s->v.base) - s->v.span / 2;
		s->v.tc = s->t;
		for (size_t i = 0; i < s->nrows; i++)
			if (s->rows[i].rk->r == r0) {
				s->row = i;
				break;
			}
	}
	tl_clamp(&s->v);
	if (s->hits.n)
		tt_ui_status(a, TT_ROLE_DEFAULT, "%s: 1/%zu (n/N step through it)", s->hits.what,
			     s->hits.n);
	return 0;
}

static void tl_close(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	if (!s)
		return;
	tl_cache_free(s->own);
	for (size_t i = 0; s->sums && i < s->nrks; i++)
		free(s->sums[i].v);
	free(s->sums);
	free(s->rks);
	free(s->rows);
	free(s->cells);
	tl_hits_clear(&s->hits);
	free(s);
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
	h->tc = s->v.tc;
	h->sel = s->sel;
	h->v0 = s->v.v0;
	h->span = s->v.span;
}

static void hist_restore(struct tl_state *s, const struct tl_hist *h)
{
	s->row = h->row < s->nrows ? h->row : s->row;
	s->v.tc = h->tc;
	s->sel = h->sel;
	s->v.v0 = h->v0;
	s->v.span = h->span;
}

static int follow_link(struct tt_pane *p, struct tl_state *s)
{
	struct tt_app *a = p->app;
	uint32_t ev = under_cursor(s);
	if (ev == TT_NONE) {
		tt_ui_status(a, TT_ROLE_WARNING, "no event under the cursor");
		return TT_R_REDRAW;
	}
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = row_rank(row);
	const struct tt_event *e = &r->ev[ev];
	enum tt_cat_kind k = tt_ev_kind(r, e);
	uint32_t to = TT_NONE;
	const char *what = "";
	if (r->tracks[e->track].kind != TT_TRACK_CPU) {
		to = tt_launch_of(r, ev);
		what = "the runtime call that launched it (c: its op)";
		if (to == TT_NONE) {
			tt_ui_status(a, TT_ROLE_WARNING, "no launching call for %s (no correlation)",
				     ev_name(r, ev));
			return TT_R_REDRAW;
		}
	} else if (k == TT_K_RUNTIME || k == TT_K_DRIVER || k == TT_K_MTIA_RUNTIME) {
		to = tl_enclosing_op(r, ev);
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
		tt_ui_status(a, TT_ROLE_DEFAULT, "back to %s",
			     s->sel != TT_NONE ? ev_name(row_rank(&s->rows[s->row]), s->sel) :
						 "the start");
		return TT_R_REDRAW;
	} else {
		to = tl_first_launch(r, ev);
		what = "the first GPU op it launched (c: its launch)";
	}
	if (to == TT_NONE) {
		tt_ui_status(a, TT_ROLE_WARNING, "%s: nothing to follow", ev_name(r, ev));
		return TT_R_REDRAW;
	}
	hist_push(s);
	s->sel = ev; /* where we came from, exactly */
	s->hist[s->nhist - 1].sel = ev;
	if (!go_event(s, r, to)) {
		s->nhist--;
		tt_ui_status(a, TT_ROLE_WARNING, "%s is on a track not shown (R: every row)",
			     ev_name(r, to));
		return TT_R_REDRAW;
	}
	tt_ui_status(a, TT_ROLE_DEFAULT, "c: %s (Esc: back)", what);
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

/* (ts, track, event) order of the events on a (summary) row */
static bool ev_before(const struct tt_rank *r, uint32_t a, uint32_t b)
{
	const struct tt_event *x = &r->ev[a], *y = &r->ev[b];
	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (x->track != y->track)
		return x->track < y->track;
	return a < b;
}

static int step_event(struct tt_pane *p, struct tl_state *s, int dir)
{
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = row_rank(row);
	uint32_t cur = s->sel != TT_NONE ? s->sel : under_cursor(s);
	size_t n;
	struct tl_src *const *srcs = row_srcs(s, row, &n);
	uint32_t best = TT_NONE;
	for (size_t j = 0; j < n; j++) {
		const struct tt_track *tr = srcs[j]->tr;
		uint32_t first = tr->first, end = first + tr->count, i;
		uint32_t ti = (uint32_t)(tr - r->tracks);
		if (dir > 0) {
			if (cur == TT_NONE)
				i = lower_ts(r, tr, s->v.tc + 1);
			else if (r->ev[cur].track == ti)
				i = cur + 1;
			else
				i = lower_ts(r, tr, r->ev[cur].ts + (ti < r->ev[cur].track ? 1 : 0));
			while (i < end && !drawn(row->rk, i))
				i++;
			if (i < end && (best == TT_NONE || ev_before(r, i, best)))
				best = i;
		} else {
			if (cur == TT_NONE)
				i = lower_ts(r, tr, s->v.tc);
			else if (r->ev[cur].track == ti)
				i = cur;
			else
				i = lower_ts(r, tr, r->ev[cur].ts + (ti < r->ev[cur].track ? 1 : 0));
			bool found = false;
			while (i > first) {
				i--;
				if (drawn(row->rk, i)) {
					found = true;
					break;
				}
			}
			if (found && (best == TT_NONE || ev_before(r, best, i)))
				best = i;
		}
	}
	if (best == TT_NONE) {
		tt_ui_status(p->app, TT_ROLE_DIM, "no %s event on this row",
			     dir > 0 ? "later" : "earlier");
		return TT_R_REDRAW;
	}
	s->sel = best;
	s->v.tc = r->ev[best].ts;
	tl_show_time(&s->v, s->v.tc);
	tt_ui_status(p->app, TT_ROLE_DEFAULT, "%s", "");
	return TT_R_REDRAW;
}

static int zoom_report(struct tt_pane *p, struct tl_state *s, enum tl_zoom z)
{
	switch (z) {
	case TL_FINEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "finest zoom: 1 ns per cell");
		break;
	case TL_WIDEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "widest zoom: the whole trace is in view");
		break;
	case TL_FIT_MOVED:
		s->sel = TT_NONE;
		break;
	case TL_ZOOMED:
		break;
	}
	return TT_R_REDRAW;
}

static int zoom(struct tt_pane *p, struct tl_state *s, int dir)
{
	return zoom_report(p, s, tl_zoom(&s->v, dir));
}

/* zoom around time t (the pointer's); the cursor stays, in view */
static int zoom_at(struct tt_pane *p, struct tl_state *s, int dir, int64_t t)
{
	int r = zoom_report(p, s, tl_zoom_at(&s->v, dir, t));
	int64_t t0, t1;
	tl_window(&s->v, &t0, &t1);
	if (s->v.tc < t0 || s->v.tc >= t1) {
		s->v.tc = t;
		s->sel = TT_NONE;
	}
	return r;
}

/* "1204" -> "1,204" */
static const char *grouped(char *buf, size_t n, size_t v)
{
	char d[32];
	int len = snprintf(d, sizeof(d), "%zu", v);
	size_t k = 0;
	for (int i = 0; i < len && k + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = d[i];
	}
	buf[k] = '\0';
	return buf;
}

/* the rows' tracks, for a search */
static struct tl_where *rows_where(const struct tl_state *s, size_t *n)
{
	size_t cap = 0, k = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		size_t m;
		row_srcs(s, &s->rows[i], &m);
		cap += m;
	}
	struct tl_where *w = tt_malloc((cap + 1) * sizeof(*w));
	for (size_t i = 0; i < s->nrows; i++) {
		size_t m;
		struct tl_src *const *srcs = row_srcs(s, &s->rows[i], &m);
		for (size_t j = 0; j < m; j++) {
			w[k].ri = s->rows[i].rk->ri;
			w[k].track = (uint32_t)(srcs[j]->tr - s->rows[i].rk->r->tracks);
			k++;
		}
	}
	*n = k;
	return w;
}

/* Go to hit i: its row selected, the window centred on it. */
static void go_hit(struct tt_pane *p, struct tl_state *s, size_t i, bool wrapped)
{
	struct tt_app *a = p->app;
	const struct tt_tl_event *h = &s->hits.v[i];
	const struct tt_rank *r = a->m->ranks[h->ri];
	s->hits.cur = i;
	char nb[32];
	grouped(nb, sizeof(nb), s->hits.n);
	size_t ri = row_of(s, r, r->ev[h->ev].track);
	if (ri == SIZE_MAX) {
		tt_ui_status(a, TT_ROLE_WARNING, "match %zu/%s is on a track not shown (R: every row)",
			     i + 1, nb);
		return;
	}
	s->row = ri;
	s->sel = h->ev;
	tl_center(&s->v, r->ev[h->ev].ts);
	tt_ui_status(a, TT_ROLE_DEFAULT, "match %zu/%s  %s%s", i + 1, nb, s->hits.what,
		     wrapped ? "  (went round the end)" : "");
}

static int search(struct tt_pane *p, struct tl_state *s, const char *text)
{
	struct tt_app *a = p->app;
	if (!text[0]) {
		/* nothing typed: the last search again */
		if (!s->pattern[0])
			return TT_R_REDRAW;
		text = s->pattern;
	} else {
		snprintf(s->pattern, sizeof(s->pattern), "%s", text);
	}
	size_t nw;
	struct tl_where *w = rows_where(s, &nw);
	char why[200];
	long n = tl_hits_search(&s->hits, a->m, w, nw, text, why, sizeof(why));
	free(w);
	s->searched = n > 0;
	if (n < 0) {
		tt_ui_status(a, TT_ROLE_ERROR, "%s", why);
		return TT_R_REDRAW;
	}
	if (n == 0) {
		tt_ui_status(a, TT_ROLE_WARNING, "no event matches '%s' on the rows shown", text);
		return TT_R_REDRAW;
	}
	bool wrapped;
	uint32_t cur = under_cursor(s);
	/* from the cursor on: the first match at or after it */
	size_t i = tl_hits_step(&s->hits, a->m, 1, s->v.tc - 1, s->rows[s->row].rk->ri, cur,
				&wrapped);
	go_hit(p, s, i, wrapped);
	return TT_R_REDRAW;
}

static int step_hit(struct tt_pane *p, struct tl_state *s, int dir)
{
	if (!s->hits.n) {
		tt_ui_status(p->app, TT_ROLE_WARNING, "nothing to step through: / searches");
		return TT_R_REDRAW;
	}
	bool wrapped;
	size_t i = tl_hits_step(&s->hits, p->app->m, dir, s->v.tc, s->rows[s->row].rk->ri,
				under_cursor(s), &wrapped);
	go_hit(p, s, i, wrapped);
	return TT_R_REDRAW;
}

/* the ProfilerStep#N annotation of rank r, or TT_NONE */
static uint32_t find_step(const struct tt_rank *r, int64_t num)
{
	uint32_t found = TT_NONE;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->flags & TT_EF_MARKER)
			continue;
		if (tt_step_number(tt_ev_name(r, e)) != num)
			continue;
		/* the CPU annotation first (it starts the step) */
		if (found == TT_NONE || (r->tracks[e->track].kind == TT_TRACK_CPU &&
					 r->tracks[r->ev[found].track].kind != TT_TRACK_CPU))
			found = i;
	}
	return found;
}

static int jump(struct tt_pane *p, struct tl_state *s, const char *text)
{
	struct tt_app *a = p->app;
	const char *t = text;
	while (*t == ' ')
		t++;
	if (!*t)
		return TT_R_REDRAW;
	char tb[64], why[160];
	if (strncmp(t, "step", 4) == 0) {
		char *end;
		long long num = strtoll(t + 4, &end, 10);
		while (*end == ' ')
			end++;
		if (end == t + 4 || *end || num < 0) {
			tt_ui_status(a, TT_ROLE_ERROR, "'%s': give a step number (step 3)", text);
			return TT_R_REDRAW;
		}
		/* the cursor's rank first, then the others shown */
		const struct tt_rank *cr = row_rank(&s->rows[s->row]);
		uint32_t ev = find_step(cr, num);
		const struct tt_rank *r = cr;
		for (size_t i = 0; ev == TT_NONE && i < s->nrks; i++) {
			r = s->rks[i]->r;
			ev = find_step(r, num);
		}
		if (ev == TT_NONE) {
			tt_ui_status(a, TT_ROLE_WARNING, "no ProfilerStep#%lld on the ranks shown", num);
			return TT_R_REDRAW;
		}
		hist_push(s);
		if (!go_event(s, r, ev)) {
			s->sel = TT_NONE;
			tl_center(&s->v, r->ev[ev].ts);
		} else {
			tl_center(&s->v, r->ev[ev].ts);
		}
		tl_fmt_time(tb, sizeof(tb), r->ev[ev].ts - s->v.base, 1, s->v.fit1 - s->v.base);
		tt_ui_status(a, TT_ROLE_DEFAULT, "ProfilerStep#%lld of rank %lld starts at %s (Esc: back)",
			     num, (long long)r->rank, tb);
		return TT_R_REDRAW;
	}
	bool rel = *t == '+' || *t == '-';
	int64_t v;
	if (tt_parse_time(t, TT_U_MS, &v, why, sizeof(why)) != 0) {
		tt_ui_status(a, TT_ROLE_ERROR, "%s", why);
		return TT_R_REDRAW;
	}
	int64_t to = rel ? s->v.tc + v : s->v.base + v;
	const char *note = "";
	if (to < s->v.fit0) {
		to = s->v.fit0;
		note = " (the start of the data shown)";
	} else if (to >= s->v.fit1) {
		to = s->v.fit1 - 1;
		note = " (the end of the data shown)";
	}
	hist_push(s);
	s->sel = TT_NONE;
	tl_center(&s->v, to);
	tl_fmt_time(tb, sizeof(tb), to - s->v.base, 1, s->v.fit1 - s->v.base);
	tt_ui_status(a, TT_ROLE_DEFAULT, "cursor at %s%s (Esc: back)", tb, note);
	return TT_R_REDRAW;
}

static int tl_prompt(struct tt_pane *p, int kind, const char *text)
{
	struct tl_state *s = p->state;
	if (!s || !s->nrows)
		return TT_R_REDRAW;
	if (kind == TT_ACT_SEARCH)
		return search(p, s, text);
	if (kind == TT_ACT_JUMP)
		return jump(p, s, text);
	return TT_R_REDRAW;
}

static int range(struct tt_pane *p, struct tl_state *s)
{
	if (!s->mark) {
		tt_ui_status(p->app, TT_ROLE_WARNING,
			     "no range: m sets the mark (M an event's span), the cursor ends it");
		return TT_R_REDRAW;
	}
	if (s->mark_t == s->v.tc) {
		tt_ui_status(p->app, TT_ROLE_WARNING,
			     "the range is empty: move the cursor away from the mark");
		return TT_R_REDRAW;
	}
	size_t *ri = tt_malloc((s->nrks + 1) * sizeof(*ri));
	for (size_t i = 0; i < s->nrks; i++)
		ri[i] = s->rks[i]->ri;
	int64_t t0 = TT_MIN(s->mark_t, s->v.tc), t1 = TT_MAX(s->mark_t, s->v.tc);
	tt_ui_open(p->app, tt_range_pane(p->app, ri, s->nrks, t0, t1));
	free(ri);
	return TT_R_REDRAW;
}

static int rank_step(struct tt_pane *p, struct tl_state *s, int dir)
{
	size_t cur = s->rows[s->row].rki, to = SIZE_MAX;
	if (dir > 0) {
		for (size_t i = s->row + 1; i < s->nrows && to == SIZE_MAX; i++)
			if (s->rows[i].rki != cur)
				to = i;
	} else {
		/* the first row of the rank before */
		size_t i = s->row;
		while (i > 0 && s->rows[i - 1].rki == cur)
			i--;
		if (i > 0) {
			size_t prev = s->rows[i - 1].rki;
			to = i - 1;
			while (to > 0 && s->rows[to - 1].rki == prev)
				to--;
		}
	}
	if (to == SIZE_MAX) {
		tt_ui_status(p->app, TT_ROLE_DIM, "no %s rank", dir > 0 ? "later" : "earlier");
		return TT_R_REDRAW;
	}
	set_row(s, to);
	/* the rank's rows from the top of the screen */
	s->top_row = to;
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
	case TT_ACT_MOVE_RIGHT:
		tl_move_cell(&s->v, act == TT_ACT_MOVE_LEFT ? -1 : 1);
		s->sel = TT_NONE;
		return TT_R_REDRAW;
	case TT_ACT_PAN_LEFT:
	case TT_ACT_PAN_RIGHT:
		if (!tl_pan(&s->v, act == TT_ACT_PAN_LEFT ? -1 : 1))
			tt_ui_status(p->app, TT_ROLE_DIM, "at the %s of the trace",
				     act == TT_ACT_PAN_LEFT ? "start" : "end");
		s->sel = TT_NONE;
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
	case TT_ACT_RANK_DOWN:
	case TT_ACT_RANK_UP:
		return rank_step(p, s, act == TT_ACT_RANK_DOWN ? 1 : -1);
	case TT_ACT_MOVE_FIRST:
	case TT_ACT_MOVE_LAST:
		s->v.tc = act == TT_ACT_MOVE_FIRST ? s->v.fit0 : s->v.fit1 - 1;
		s->sel = TT_NONE;
		tl_show_time(&s->v, s->v.tc);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_EVENT:
		return step_event(p, s, 1);
	case TT_ACT_PREV_EVENT:
		return step_event(p, s, -1);
	case TT_ACT_ENTER: {
		uint32_t ev = under_cursor(s);
		if (ev == TT_NONE) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		tt_ui_open(p->app, tt_event_pane(p->app, row_rank(&s->rows[s->row]), ev));
		return TT_R_REDRAW;
	}
	case TT_ACT_FOLLOW_LINK:
		return follow_link(p, s);
	case TT_ACT_SET_MARK:
		if (s->mark && s->mark_t == s->v.tc && s->mark_row == s->row) {
			s->mark = false;
			tt_ui_status(p->app, TT_ROLE_DEFAULT, "mark cleared");
			return TT_R_REDRAW;
		}
		s->mark = true;
		s->mark_t = s->v.tc;
		s->mark_row = s->row;
		s->mark_ev = under_cursor(s);
		tt_ui_status(p->app, TT_ROLE_DEFAULT,
			     "mark set: move the cursor to measure, A: what ran in between");
		return TT_R_REDRAW;
	case TT_ACT_MARK_EVENT: {
		uint32_t ev = under_cursor(s);
		if (ev == TT_NONE) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		const struct tt_rank *r = row_rank(&s->rows[s->row]);
		const struct tt_event *e = &r->ev[ev];
		s->mark = true;
		s->mark_t = e->ts;
		s->mark_row = s->row;
		s->mark_ev = ev;
		s->sel = TT_NONE;
		s->v.tc = TT_MIN(tt_ev_end(e), s->v.fit1);
		/* the whole event in view */
		int64_t t0, t1;
		tl_window(&s->v, &t0, &t1);
		if (e->ts < t0 || s->v.tc > t1) {
			s->v.span = (long double)TT_MAX(e->dur + e->dur / 8 + 2, tl_cells(&s->v));
			s->v.v0 = (long double)(e->ts - s->v.base) - (long double)(e->dur / 16 + 1);
			tl_clamp(&s->v);
		}
		char d[32];
		tt_fmt_dur(d, sizeof(d), e->dur);
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "marked %s (%s): A shows what ran in it",
			     tt_ev_name(r, e), d);
		return TT_R_REDRAW;
	}
	case TT_ACT_RANGE:
		return range(p, s);
	case TT_ACT_SEARCH:
		tt_ui_prompt(p->app, TT_ACT_SEARCH,
			     s->pattern[0] ? "search (text, or re:regex; Enter: the last one): " :
					     "search (text, or re:regex): ",
			     "");
		return TT_R_REDRAW;
	case TT_ACT_JUMP:
		tt_ui_prompt(p->app, TT_ACT_JUMP, "go to (12.5ms, 1.2s, +30ms, step 3): ", "");
		return TT_R_REDRAW;
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH:
		return step_hit(p, s, act == TT_ACT_NEXT_MATCH ? 1 : -1);
	case TT_ACT_ROW_MODE:
		s->mode = (enum tl_mode)((s->mode + 1) % TL_NMODES);
		make_rows(s);
		s->flow_for = TT_NONE;
		if (s->searched && s->hits.n)
			search(p, s, s->pattern); /* the matches on the new rows */
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "rows: %s (R: %s)", mode_name[s->mode],
			     mode_name[(s->mode + 1) % TL_NMODES]);
		return TT_R_REDRAW;
	case TT_ACT_BACK:
		if (s->nhist) {
			hist_restore(s, &s->hist[--s->nhist]);
			tt_ui_status(p->app, TT_ROLE_DEFAULT, "back (%d more)", s->nhist);
			return TT_R_REDRAW;
		}
		if (s->searched && s->hits.n) {
			tl_hits_clear(&s->hits);
			s->searched = false;
			tt_ui_status(p->app, TT_ROLE_DEFAULT, "search cleared");
			return TT_R_REDRAW;
		}
		return TT_R_UNHANDLED;
	case TT_ACT_FILTER:
	case TT_ACT_SORT_NEXT:
	case TT_ACT_SORT_REVERSE:
	case TT_ACT_WRITE_CSV:
		tt_ui_status(p->app, TT_ROLE_DIM, "%s: not in the timeline (/ searches events)",
			     tt_action_name(act));
		return TT_R_REDRAW;
	default:
		return TT_R_UNHANDLED;
	}
}

/* The mouse: a click on a row selects it and puts the cursor at the middle
 * of the cell under the pointer (on the ruler: the cursor only); a double
 * click also opens the event under it; the wheel moves through the rows;
 * with Ctrl or Shift it zooms around the time under the pointer. */
static int tl_mouse(struct tt_pane *p, const struct tt_mouse *m)
{
	struct tl_state *s = p->state;
	if (!s || !s->nrows || !s->v.w)
		return TT_R_NONE;
	int x0 = s->lw + 1, col = m->x - x0;
	int64_t t0, t1;
	tl_window(&s->v, &t0, &t1);
	bool in_cells = col >= 0 && col < s->v.w;
	int64_t at = in_cells ? tt_raster_edge(t0, t1, s->v.w, col) +
					(tt_raster_edge(t0, t1, s->v.w, col + 1) -
					 tt_raster_edge(t0, t1, s->v.w, col)) /
						2 :
				s->v.tc;
	if (m->kind == TT_MOUSE_WHEEL_UP || m->kind == TT_MOUSE_WHEEL_DOWN) {
		int dir = m->kind == TT_MOUSE_WHEEL_UP ? 1 : -1;
		if (m->ctrl || m->shift)
			return zoom_at(p, s, dir, at);
		size_t step = 3;
		set_row(s, dir > 0 ? (s->row > step ? s->row - step : 0) : s->row + step);
		return TT_R_REDRAW;
	}
	int ruler_y = s->rows_y - (s->page_head);
	if (m->y >= s->rows_y && m->y < s->rows_y + s->page) {
		size_t row = s->top_row + (size_t)(m->y - s->rows_y);
		if (row >= s->nrows)
			return TT_R_NONE;
		set_row(s, row);
		s->sel = TT_NONE;
	} else if (m->y < ruler_y || m->y >= s->rows_y || !in_cells) {
		return TT_R_NONE;
	}
	if (in_cells) {
		s->v.tc = at;
		s->sel = TT_NONE;
	}
	if (m->kind == TT_MOUSE_DCLICK)
		return tl_key(p, TT_ACT_ENTER);
	return TT_R_REDRAW;
}

/* ---- drawing ---- */

static void draw_ruler(const struct tl_state *s, struct tt_grid *g, int x, int y, int w,
		       int64_t t0, int64_t t1, bool ticks)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int dec;
	enum tt_unit unit;
	int64_t step = tl_ruler_step(s->v.base, t0, t1, w, &dec, &unit);
	int64_t rel0 = t0 - s->v.base;
	/* first multiple of step at or after rel0 */
	int64_t m = rel0 >= 0 ? (rel0 + step - 1) / step : -((-rel0) / step);
	tt_grid_fill(g, x, y, w, ' ', TT_ROLE_RULER);
	if (ticks)
		tt_grid_fill(g, x, y + 1, w, ' ', TT_ROLE_RULER);
	for (int guard = 0; guard < 1000; guard++, m++) {
		int64_t t = s->v.base + m * step;
		if (t >= t1)
			break;
		int k = tt_raster_cell_of(t0, t1, w, t);
		if (k < 0 || k >= w)
			continue;
		char buf[64];
		int len = tl_fmt_fixed(buf, sizeof(buf), m * step, div[unit], dec);
		/* round values: 1 s, 1.2 s (not 1.0 s) */
		if (dec > 0 && len > 0 && (size_t)len < sizeof(buf)) {
			while (len > 1 && buf[len - 1] == '0')
				buf[--len] = '\0';
			if (buf[len - 1] == '.')
				buf[--len] = '\0';
		}
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

/* The flow of the selected event: a kernel's launch and the op around it,
 * or a runtime call's kernel (found once per selection). */
static void find_flow(struct tl_state *s, const struct tt_rank *r, size_t rki, uint32_t ev)
{
	if (s->flow_for == ev && s->flow_rki == rki)
		return;
	s->flow_for = ev;
	s->flow_rki = rki;
	s->flow_launch = s->flow_op = s->flow_kernel = TT_NONE;
	if (ev == TT_NONE)
		return;
	const struct tt_event *e = &r->ev[ev];
	enum tt_cat_kind k = tt_ev_kind(r, e);
	if (r->tracks[e->track].kind != TT_TRACK_CPU) {
		s->flow_launch = tt_launch_of(r, ev);
		if (s->flow_launch != TT_NONE)
			s->flow_op = tl_enclosing_op(r, s->flow_launch);
	} else if (k == TT_K_RUNTIME || k == TT_K_DRIVER || k == TT_K_MTIA_RUNTIME) {
		uint32_t lo, hi;
		tt_links_of_cpu(r, ev, &lo, &hi);
		if (lo < hi)
			s->flow_kernel = r->links[lo].gpu;
	}
}

/* glyph c at time t on the row of event ev (when it is on screen) */
static void flow_mark(struct tl_state *s, struct tt_grid *g, const struct tt_rank *r,
		      uint32_t ev, int64_t t, const char *c, int x, int w, int64_t t0, int64_t t1,
		      int nvis)
{
	if (ev == TT_NONE)
		return;
	size_t ri = row_of(s, r, r->ev[ev].track);
	if (ri == SIZE_MAX || !s->rows[ri].tr || ri < s->top_row || ri >= s->top_row + (size_t)nvis)
		return;
	int k = tt_raster_cell_of(t0, t1, w, t);
	if (k < 0 || k >= w)
		return;
	int yy = s->rows_y + (int)(ri - s->top_row);
	tt_grid_put(g, x + k, yy, TT_ROLE_TL_MARK, c, 1);
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
	s->lw = lw;
	int x = lw + 1, w = g->w - x;
	if (w < 4 || h < 4)
		return;
	bool first = s->v.w == 0;
	s->v.w = w;
	tl_clamp(&s->v);
	if (s->v.span < (long double)w)
		s->v.span = (long double)w;
	int64_t t0, t1;
	tl_window(&s->v, &t0, &t1);
	if (s->v.tc < t0 || s->v.tc > t1 || (s->v.tc == t1 && t1 != s->v.fit1)) {
		s->v.tc = TT_MIN(TT_MAX(s->v.tc, t0), t1 - 1);
		s->sel = TT_NONE;
	}
	if (first && s->sel == TT_NONE)
		tl_snap_cursor(&s->v); /* opened at a time: the middle of its cell */
	struct tl_last *last = tt_ui_shared(p->app, last_tag);
	if (!last) {
		last = tt_calloc(1, sizeof(*last));
		if (!tt_ui_share(p->app, last_tag, last, free)) {
			free(last);
			last = NULL;
		}
	}
	if (last) {
		last->t0 = t0;
		last->t1 = t1;
	}
	bool legend = h >= 9, line2 = h >= 7;
	int head = 3 + (line2 ? 1 : 0);
	int nvis = h - head - (legend ? 1 : 0);
	if (nvis < 1)
		nvis = 1;
	s->page = nvis;
	s->rows_y = y + head;
	s->page_head = head;
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

	int ccol = TT_MIN(tt_raster_cell_of(t0, t1, w, s->v.tc), w - 1);
	int mcol = s->mark ? tt_raster_cell_of(t0, t1, w, s->mark_t) : -1;
	int64_t cw = TT_MAX((t1 - t0) / w, 1);
	int64_t far = TT_MAX(llabs(t0 - s->v.base), llabs(t1 - s->v.base));

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
	const struct tt_rank *cr = row_rank(crow);
	uint32_t ev = under_cursor(s);
	char tbuf[64], dbuf[64], line[600];
	tl_fmt_time(tbuf, sizeof(tbuf), s->v.tc - s->v.base, cw, far);
	int cx = tt_grid_printf(g, 1, y + 2, TT_ROLE_HEADER, -1, "cursor %s", tbuf);
	cx += 3;
	if (ev != TT_NONE) {
		const struct tt_event *e = &cr->ev[ev];
		enum tt_rclass c = (enum tt_rclass)tl_ev_class(crow->rk, e);
		char gl[2] = {tt_rclass_glyph(c), 0};
		cx += tt_grid_put(g, cx, y + 2, tt_rclass_role(c), gl, 1) + 1;
		tt_fmt_dur(dbuf, sizeof(dbuf), e->dur);
		tl_fmt_time(tbuf, sizeof(tbuf), e->ts - s->v.base, 1, far);
		snprintf(line, sizeof(line), "%s  %s at %s", tt_ev_name(cr, e), dbuf, tbuf);
		/* the name gives way first */
		int room = g->w - cx - 1;
		int tail = (int)tt_utf8_width(line) - (int)tt_utf8_width(tt_ev_name(cr, e));
		if ((int)tt_utf8_width(line) > room && room > tail + 8) {
			char nm[400];
			tt_utf8_fit(nm, sizeof(nm), tt_ev_name(cr, e), (size_t)(room - tail));
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
			tl_fmt_time(mb, sizeof(mb), s->mark_t - s->v.base, cw, far);
			int64_t d = s->v.tc - s->mark_t;
			tl_fmt_time(db, sizeof(db), d < 0 ? -d : d, cw, 0);
			int k = snprintf(line, sizeof(line), "mark %s   cursor - mark %s%s", mb,
					 d < 0 ? "-" : "+", db);
			if (s->mark_ev != TT_NONE && ev != TT_NONE && s->mark_ev != ev &&
			    s->mark_row < s->nrows && s->rows[s->mark_row].rk == crow->rk) {
				const struct tt_event *me = &cr->ev[s->mark_ev], *ce = &cr->ev[ev];
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
			tl_fmt_time(a, sizeof(a), t0 - s->v.base, cw, far);
			tl_fmt_time(b, sizeof(b), t1 - s->v.base, cw, far);
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
	size_t hlo = 0, hhi = 0;
	if (s->hits.n)
		tl_hits_window(&s->hits, t0, t1, &hlo, &hhi);
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
		if (row->src) {
			tt_raster_row(src_ix(s, row, row->src), t0, t1, w, s->cells);
		} else {
			size_t n;
			struct tl_src *const *srcs = row_srcs(s, row, &n);
			const struct tt_rix **ix = tt_malloc((n + 1) * sizeof(*ix));
			for (size_t j = 0; j < n; j++)
				ix[j] = src_ix(s, row, srcs[j]);
			tt_raster_merge(ix, n, t0, t1, w, s->cells);
			free(ix);
		}
		for (int k = 0; k < w; k++) {
			const struct tt_rcell *c = &s->cells[k];
			struct tt_gcell *gc = tt_grid_at(g, x + k, yy);
			gc->cp = (uint32_t)(unsigned char)tt_rcell_glyph(c);
			gc->role = (uint8_t)tt_rclass_role((enum tt_rclass)c->cls);
		}
		/* the highlighted events that start on this row in the window */
		for (size_t j = hlo; j < hhi && j - hlo < 100000; j++) {
			const struct tt_tl_event *hit = &s->hits.v[s->hits.byts[j]];
			if (hit->ri != row->rk->ri)
				continue;
			const struct tt_rank *r = row_rank(row);
			if (row_of(s, r, r->ev[hit->ev].track) != ri)
				continue;
			int k = tt_raster_cell_of(t0, t1, w, s->hits.ts[j]);
			if (k >= 0 && k < w)
				tt_grid_paint(g, x + k, yy, 1, TT_ROLE_MATCH);
		}
		if (s->mark && ri == s->mark_row && mcol >= 0 && mcol < w)
			tt_grid_paint(g, x + mcol, yy, 1, TT_ROLE_TL_MARK);
		if (cur && ccol >= 0 && ccol < w)
			tt_grid_paint(g, x + ccol, yy, 1, TT_ROLE_TL_CURSOR);
	}
	/* the flow of the selected event */
	find_flow(s, cr, crow->rki, ev);
	if (s->flow_op != TT_NONE) {
		const struct tt_event *o = &cr->ev[s->flow_op];
		flow_mark(s, g, cr, s->flow_op, o->ts, "[", x, w, t0, t1, nvis);
		flow_mark(s, g, cr, s->flow_op, TT_MAX(tt_ev_end(o) - 1, o->ts), "]", x, w, t0, t1,
			  nvis);
	}
	if (s->flow_launch != TT_NONE)
		flow_mark(s, g, cr, s->flow_launch, cr->ev[s->flow_launch].ts, "^", x, w, t0, t1,
			  nvis);
	if (s->flow_kernel != TT_NONE)
		flow_mark(s, g, cr, s->flow_kernel, cr->ev[s->flow_kernel].ts, "v", x, w, t0, t1,
			  nvis);
	if (legend)
		draw_legend(g, 1, y + h - 1, g->w - 2);
}

const struct tt_pane_ops tt_timeline_ops = {
	.name = "timeline",
	.title = "Timeline",
	.help = "The trace itself: one row per GPU stream and CPU thread of the chosen rank "
		"(r picks ranks; several are stacked), time left to right, times counted from the "
		"job's first event.  Each cell shows the class painted over most of it, the "
		"innermost event winning: # compute, = communication, + memory, o CPU op, "
		"r runtime call, ~ other, - annotation (ProfilerStep and record_function ranges, "
		"drawn only where nothing else runs), . idle; * marks a cell where many tiny "
		"events start.  A cell that holds any event, however short, shows its class.  "
		"Moving: h/l move the cursor a cell, H/L (or C-u/C-d) pan half a window, g/G go "
		"to the start/end, + and - zoom around the cursor, = fits the whole span (the "
		"window never leaves the trace), j/k change rows, J/K jump to the next/previous "
		"rank, R shows every row, GPU streams only, or one row per rank.  Finding: / "
		"searches event names (text, or re:regex; case ignored), n/N go to the next/"
		"previous match; : or t goes to a time (12.5ms, 1.2s, +30ms from the cursor, "
		"step 3 for the start of ProfilerStep#3).  Events: Tab and S-Tab step through the "
		"events of the row, Enter shows the event under the cursor, c follows links "
		"(kernel -> the runtime call that launched it -> its op -> back; Esc goes back "
		"one jump); the selected kernel's launch is marked ^ and its op [ ] on their CPU "
		"rows, a runtime call's kernel v.  Ranges: m sets a mark and shows the time to "
		"the cursor and the gap between their events, M marks the event under the cursor "
		"(mark at its start, cursor at its end), A shows what ran between the mark and "
		"the cursor.  Mouse: click selects, the wheel scrolls rows, Ctrl- or "
		"Shift-wheel zooms at the pointer.",
	.open = tl_open,
	.close = tl_close,
	.draw = tl_draw,
	.key = tl_key,
	.prompt = tl_prompt,
	.mouse = tl_mouse,
};

struct tt_pane *tt_timeline_new(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	struct tt_pane *p = tt_pane_new(a, &tt_timeline_ops);
	struct tl_state *s = tt_calloc(1, sizeof(*s));
	s->ri = ri;
	s->ev = ev;
	s->t = t;
	s->hits.cur = SIZE_MAX;
	p->state = s;
	return p;
}

struct tt_pane *tt_timeline_set(struct tt_app *a, const struct tt_tl_event *v, size_t n,
				const char *what)
{
	if (!n || !a->m)
		return NULL;
	struct tt_pane *p = tt_timeline_new(a, v[0].ri, v[0].ev, 0);
	struct tl_state *s = p->state;
	tl_hits_set(&s->hits, a->m, v, n, what);
	if (!s->hits.n) {
		tt_pane_free(p);
		return NULL;
	}
	return p;
}

struct tt_pane *tt_timeline_like(struct tt_app *a, size_t ri)
{
	struct tt_pane *p = tt_timeline_new(a, ri, TT_NONE, 0);
	((struct tl_state *)p->state)->like = true;
	return p;
}
