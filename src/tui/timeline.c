/* The timeline pane: per rank (several stacked when several are chosen),
 * one row per GPU stream and CPU thread, time left to right, each cell drawn
 * with the class painted over most of it.  src/render/raster.c does the
 * exact rasterising, tlwindow.c the window maths, tltracks.c the track
 * index; this file is the pane: the rows, the keys, the links between
 * events, the drawing.
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
 * h/l move the cursor one cell and pan by a quarter of the window at its
 * edges.
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
#include "tltracks.h"
#include "tlwindow.h"

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
	struct tt_pane *pane;

	struct tl_cache *cache; /* the app's shared one, or own */
	struct tl_cache *own;
	struct tl_rank **rks;
	size_t nrks;
	struct tl_row *rows;
	size_t nrows;
	size_t row, top_row;
	struct tl_view v;         /* the window and the cursor */
	uint32_t sel;             /* event chosen by Tab, c or opening, or TT_NONE */
	bool mark;
	size_t mark_row;
	int64_t mark_t;
	uint32_t mark_ev;
	struct tl_hist hist[16];
	int nhist;
	int page;                 /* track rows at the last draw */
	struct tt_rcell *cells;
	int capcells;
};

/* Index the tracks of rows [from, to) that have no index yet (on several
 * threads when there is much to do). */
static void build_rows(struct tl_state *s, size_t from, size_t to)
{
	struct tl_src *v[64];
	size_t n = 0;
	for (size_t i = from; i < to && i < s->nrows; i++) {
		struct tl_src *src = s->rows[i].src;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup = dup || v[k] == src;
		if (!src->ix && !dup && n < TT_ARRAY_SIZE(v))
			v[n++] = src;
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

static struct tt_rix *row_ix(struct tl_state *s, struct tl_row *row)
{
	if (!row->src->ix)
		build_rows(s, (size_t)(row - s->rows), (size_t)(row - s->rows) + 1);
	return row->src->ix;
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
	return tl_ev_class(row->rk, evp(row, ev)) != TT_RC_SKIP;
}

static bool foreground(const struct tl_row *row, uint32_t ev)
{
	uint8_t c = tl_ev_class(row->rk, evp(row, ev));
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
	tt_rix_at(row_ix(s, row), s->v.tc, &pt);
	if (pt.fg != UINT32_MAX)
		return row->tr->first + pt.fg;
	int64_t t0, t1;
	int w = tl_cells(&s->v);
	tl_window(&s->v, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, s->v.tc);
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
	s->v.tc = r->ev[ev].ts;
	tl_show_time(&s->v, s->v.tc);
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

/* the app's shared track index, made if needed; NULL if it cannot be shared */
static const char cache_tag[] = "timeline track index";

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
	s->pane = p;
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
	/* rows: GPU streams then CPU threads (the model's track order), per rank */
	size_t n = 0;
	for (size_t i = 0; i < s->nrks; i++)
		n += s->rks[i]->r->ntracks;
	s->rows = tt_calloc(n + 1, sizeof(*s->rows));
	s->v.fit0 = INT64_MAX;
	s->v.fit1 = INT64_MIN;
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
			s->v.fit0 = TT_MIN(s->v.fit0, r->t0);
			s->v.fit1 = TT_MAX(s->v.fit1, r->t1);
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
	if (s->v.fit1 <= s->v.fit0) {
		s->v.fit0 = s->rows[0].tr->t0;
		s->v.fit1 = s->v.fit0 + 1000;
	}
	s->v.base = s->v.fit0;
	s->v.v0 = 0;
	s->v.span = (long double)TT_MAX(tl_fit_len(&s->v), 1000);
	s->v.tc = s->v.fit0;
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
		s->v.span = (long double)TT_MAX(hi - lo + 2 * pad, 1000);
		s->v.v0 = (long double)(lo - pad - s->v.base);
		s->row = row_of(s, r0, e->track);
		s->v.tc = e->ts;
		s->sel = s->ev;
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
	return 0;
}

static void tl_close(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	if (!s)
		return;
	tl_cache_free(s->own);
	free(s->rks);
	free(s->rows);
	free(s->cells);
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
	s->row = h->row;
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
	const struct tt_rank *r = row->rk->r;
	const struct tt_event *e = evp(row, ev);
	enum tt_cat_kind k = tt_ev_kind(r, e);
	uint32_t to = TT_NONE;
	const char *what = "";
	if (row->tr->kind != TT_TRACK_CPU) {
		to = tt_launch_of(r, ev);
		what = "the runtime call that launched it (c: its op)";
		if (to == TT_NONE) {
			tt_ui_status(a, TT_ROLE_WARNING, "no launching call for %s (no correlation)",
				      short_name(row, ev));
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
			      s->sel != TT_NONE ? short_name(&s->rows[s->row], s->sel) : "the start");
		return TT_R_REDRAW;
	} else {
		to = tl_first_launch(r, ev);
		what = "the first GPU op it launched (c: its launch)";
	}
	if (to == TT_NONE) {
		tt_ui_status(a, TT_ROLE_WARNING, "%s: nothing to follow", short_name(row, ev));
		return TT_R_REDRAW;
	}
	hist_push(s);
	s->sel = ev; /* where we came from, exactly */
	s->hist[s->nhist - 1].sel = ev;
	if (!go_event(s, r, to)) {
		s->nhist--;
		tt_ui_status(a, TT_ROLE_WARNING, "%s is on a track not shown", tt_ev_name(r, &r->ev[to]));
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

static int step_event(struct tt_pane *p, struct tl_state *s, int dir)
{
	struct tl_row *row = &s->rows[s->row];
	uint32_t first = row->tr->first, end = first + row->tr->count;
	uint32_t cur = s->sel != TT_NONE ? s->sel : under_cursor(s);
	uint32_t i;
	if (dir > 0) {
		i = cur != TT_NONE ? cur + 1 : lower_ts(row, s->v.tc + 1);
		while (i < end && !drawn(row, i))
			i++;
		if (i >= end) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no later event on this row");
			return TT_R_REDRAW;
		}
	} else {
		i = cur != TT_NONE ? cur : lower_ts(row, s->v.tc);
		do {
			if (i <= first) {
				tt_ui_status(p->app, TT_ROLE_DIM, "no earlier event on this row");
				return TT_R_REDRAW;
			}
			i--;
		} while (!drawn(row, i));
	}
	s->sel = i;
	s->v.tc = evp(row, i)->ts;
	tl_show_time(&s->v, s->v.tc);
	tt_ui_status(p->app, TT_ROLE_DEFAULT, "%s", "");
	return TT_R_REDRAW;
}

static int zoom(struct tt_pane *p, struct tl_state *s, int dir)
{
	switch (tl_zoom(&s->v, dir)) {
	case TL_FINEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "finest zoom: 1 ns per cell");
		break;
	case TL_WIDEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "widest zoom");
		break;
	case TL_FIT_MOVED:
		s->sel = TT_NONE;
		break;
	case TL_ZOOMED:
		break;
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
	case TT_ACT_MOVE_RIGHT:
		tl_move_cell(&s->v, act == TT_ACT_MOVE_LEFT ? -1 : 1);
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
		tt_ui_open(p->app, tt_event_pane(p->app, s->rows[s->row].rk->r, ev));
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
			      "mark set: move the cursor to measure (m again here clears it)");
		return TT_R_REDRAW;
	case TT_ACT_BACK:
		if (s->nhist) {
			hist_restore(s, &s->hist[--s->nhist]);
			tt_ui_status(p->app, TT_ROLE_DEFAULT, "back (%d more)", s->nhist);
			return TT_R_REDRAW;
		}
		return TT_R_UNHANDLED;
	case TT_ACT_FILTER:
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH:
	case TT_ACT_SORT_NEXT:
	case TT_ACT_SORT_REVERSE:
	case TT_ACT_WRITE_CSV:
		tt_ui_status(p->app, TT_ROLE_DIM,
			      "%s: not in the timeline (Tab/S-Tab step through events)",
			      tt_action_name(act));
		return TT_R_REDRAW;
	default:
		return TT_R_UNHANDLED;
	}
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
	bool first = s->v.w == 0;
	s->v.w = w;
	if (s->v.span < (long double)w)
		s->v.span = (long double)w;
	int64_t t0, t1;
	tl_window(&s->v, &t0, &t1);
	if (s->v.tc < t0 || s->v.tc >= t1) {
		s->v.tc = TT_MIN(TT_MAX(s->v.tc, t0), t1 - 1);
		s->sel = TT_NONE;
	}
	if (first && s->sel == TT_NONE)
		tl_snap_cursor(&s->v); /* opened at a time: the middle of its cell */
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

	int ccol = tt_raster_cell_of(t0, t1, w, s->v.tc);
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
	uint32_t ev = under_cursor(s);
	char tbuf[64], dbuf[64], line[600];
	tl_fmt_time(tbuf, sizeof(tbuf), s->v.tc - s->v.base, cw, far);
	int cx = tt_grid_printf(g, 1, y + 2, TT_ROLE_HEADER, -1, "cursor %s", tbuf);
	cx += 3;
	if (ev != TT_NONE) {
		const struct tt_event *e = evp(crow, ev);
		enum tt_rclass c = (enum tt_rclass)tl_ev_class(crow->rk, e);
		char gl[2] = {tt_rclass_glyph(c), 0};
		cx += tt_grid_put(g, cx, y + 2, tt_rclass_role(c), gl, 1) + 1;
		tt_fmt_dur(dbuf, sizeof(dbuf), e->dur);
		tl_fmt_time(tbuf, sizeof(tbuf), e->ts - s->v.base, 1, far);
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
			tl_fmt_time(mb, sizeof(mb), s->mark_t - s->v.base, cw, far);
			int64_t d = s->v.tc - s->mark_t;
			tl_fmt_time(db, sizeof(db), d < 0 ? -d : d, cw, 0);
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
