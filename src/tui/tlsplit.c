/* The split timeline of a diff: the Control trace above, the Test trace
 * below, both counted from the start of the same ProfilerStep, with one
 * cursor and one window (zoom and pan move both halves).  Each half is a
 * timeline state of one rank (timeline_int.h) drawn through the shared
 * view moved to its step's start (tl_view_from), so a time d after the step
 * start falls in the same column on both halves. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline_int.h"
#include "tracetop/analysis.h"
#include "tracetop/diff.h"
#include "tracetop/raster.h"
#include "tracetop/steps.h"
#include "tracetop/util.h"

struct sp_half {
	struct tl_state s;   /* the rows of one rank of one side */
	const struct tt_rank *r;
	struct tt_step_ev *steps; /* by number, one each (tl_find_step's choice) */
	size_t nsteps;
	const char *side;    /* "Control", "Test" */
	int64_t step;	     /* the ProfilerStep number shown, -1: none */
	int64_t start, end;  /* its span, absolute ns (the rank's span without one) */
	int64_t first, last; /* the steps of the rank: smallest, largest number */
	size_t top;	     /* first track row on screen */
	int y, page;	     /* screen row of the first track row, rows shown */
};

struct sp_state {
	struct sp_half h[2];
	struct tl_view v; /* from the step's start: base 0 */
	int cur;	  /* the half of the cursor's row */
	int side;	  /* where to open: side (0: Control), its rank index, time
			   * (0: none) on its clock */
	size_t ri;
	int64_t t;
	/* or at an event (tt_split_at): its side, each side's rank index and
   * step, the event */
	bool at;
	int at_side;
	size_t at_ri[2];
	int64_t at_step[2];
	uint32_t at_ev;
	/* opening: what the work (off the UI thread) reads, then what it
	 * found (each side's rank index, the step shown, the Control's step at
	 * the time asked for) */
	bool begun;
	const struct tt_model *m[2];
	struct tt_results *diff_res;
	size_t open_ri[2];
	int64_t open_n;
	int64_t start_at[2]; /* the step_at answer of each side */
};

/* ---- steps ---- */

/* The ProfilerStep number of each string of r (-1: none), looked at once
 * per name rather than once per event. */
static int64_t *step_numbers(const struct tt_rank *r)
{
	int64_t *num = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*num));
	for (uint32_t id = 0; id <= r->strs.n; id++)
		num[id] = id < r->strs.n ? tt_step_number(tt_str(r, id)) : -1;
	return num;
}

/* Half h's steps, each number's annotation as tl_find_step picks it (a
 * copy of the rank's step index); and step_at's answer for time t: the
 * number of r's CPU step holding t (the latest-starting one), else of the
 * first after t, else of the last; -1 without one.  One pass. */
static int64_t half_steps(struct sp_half *h, int64_t t)
{
	const struct tt_rank *r = h->r;
	int64_t *num = step_numbers(r);
	int64_t in = -1, after = -1, last = -1;
	int64_t in_ts = INT64_MIN, after_ts = INT64_MAX, last_ts = INT64_MIN;
	h->first = INT64_MAX;
	h->last = -1;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->flags & TT_EF_MARKER)
			continue;
		int64_t k = num[e->name < r->strs.n ? e->name : r->strs.n];
		if (k < 0 || r->tracks[e->track].kind != TT_TRACK_CPU)
			continue;
		h->first = TT_MIN(h->first, k);
		h->last = TT_MAX(h->last, k);
		if (e->ts <= t && t < tt_ev_end(e) && e->ts > in_ts) {
			in = k;
			in_ts = e->ts;
		}
		if (e->ts > t && e->ts < after_ts) {
			after = k;
			after_ts = e->ts;
		}
		if (e->ts > last_ts) {
			last = k;
			last_ts = e->ts;
		}
	}
	if (h->last < 0)
		h->first = -1;
	free(num);
	/* (a copy: the rank's memo may be dropped while the pane is open) */
	size_t n;
	const struct tt_step_ev *v = tt_step_index(r, &n);
	h->steps = n ? tt_malloc(n * sizeof(*v)) : NULL;
	if (n)
		memcpy(h->steps, v, n * sizeof(*v));
	h->nsteps = n;
	return in >= 0 ? in : after >= 0 ? after : last;
}

/* The annotation of step number n of half h, or TT_NONE. */
static uint32_t half_find(const struct sp_half *h, int64_t n)
{
	return tt_step_ev_find(h->steps, h->nsteps, n);
}

/* Show step number n on half h (its span, or the rank's without it). */
static bool half_step(struct sp_half *h, int64_t n)
{
	const struct tt_rank *r = h->r;
	uint32_t ev = n >= 0 ? half_find(h, n) : TT_NONE;
	if (ev == TT_NONE) {
		h->step = -1;
		h->start = r->t0;
		h->end = r->t1;
		return false;
	}
	h->step = n;
	h->start = r->ev[ev].ts;
	h->end = tt_ev_end(&r->ev[ev]);
	return true;
}

/* The window over both steps (a little before their start, the longer one
 * whole); the data span is both ranks' spans, from their step starts. */
static void fit_steps(struct sp_state *st, int64_t tc)
{
	struct tl_view *v = &st->v;
	v->base = 0;
	v->fit0 = INT64_MAX;
	v->fit1 = INT64_MIN;
	int64_t len = 1000;
	for (int i = 0; i < 2; i++) {
		const struct tt_rank *r = st->h[i].r;
		v->fit0 = TT_MIN(v->fit0, TT_MIN(r->t0, st->h[i].start) - st->h[i].start);
		v->fit1 = TT_MAX(v->fit1, TT_MAX(r->t1, st->h[i].end) - st->h[i].start);
		len = TT_MAX(len, st->h[i].end - st->h[i].start);
	}
	if (v->fit1 <= v->fit0)
		v->fit1 = v->fit0 + 1000;
	v->span = (long double)(len + len / 20 + 1);
	v->v0 = -(long double)(len / 40 + 1);
	v->tc = tc >= 0 && tc < len ? tc : 0;
	tl_clamp(v);
}

/* The next (dir > 0) or previous step number both halves have. */
static int64_t common_step(const struct sp_state *st, int64_t from, int dir)
{
	int64_t lo = TT_MAX(st->h[0].first, st->h[1].first);
	int64_t hi = TT_MIN(st->h[0].last, st->h[1].last);
	/* half 0's numbers from `from` on, in the direction; half 1 looked up */
	const struct sp_half *h = &st->h[0];
	for (size_t k = 0; k < h->nsteps; k++) {
		int64_t n = h->steps[dir > 0 ? k : h->nsteps - 1 - k].num;
		if (dir > 0 ? n <= from : n >= from)
			continue;
		if (dir > 0 ? n > hi : n < lo)
			break;
		if (n >= lo && n <= hi && half_find(&st->h[1], n) != TT_NONE)
			return n;
	}
	return -1;
}

/* ---- the halves ---- */

static void half_init(struct sp_half *h, struct tt_pane *p, const struct tt_model *m, size_t ri,
		      const char *side)
{
	struct tl_state *s = &h->s;
	/* the app's index of the side (its tracks indexed once) */
	s->cache = tl_shared_cache(p->app, m);
	if (!s->cache)
		s->cache = s->own = tl_cache_new(m);
	s->pane = p;
	s->ev = s->sel = TT_NONE;
	s->hits.cur = SIZE_MAX;
	s->flow_for = s->flow_launch = s->flow_op = s->flow_kernel = TT_NONE;
	s->flow_rki = SIZE_MAX;
	s->rks = tt_calloc(1, sizeof(*s->rks));
	s->rks[0] = tl_cache_rank(s->cache, ri);
	s->nrks = 1;
	s->sums = tt_calloc(2, sizeof(*s->sums));
	s->mode = TL_ALL;
	s->half = true;
	tl_make_rows(s);
	h->side = side;
}

static void half_free(struct sp_half *h)
{
	struct tl_state *s = &h->s;
	tl_cache_free(s->own);
	tl_cells_free(s);
	tl_ranks_free(s);
	free(h->steps);
	if (s->sums)
		free(s->sums[0].v);
	free(s->sums);
	free(s->rks);
	free(s->rows);
	free(s->cells);
	tl_hits_clear(&s->hits);
}

/* half h's view: the shared one moved to its step's start */
static struct tl_state *half_sync(struct sp_state *st, int i)
{
	struct sp_half *h = &st->h[i];
	h->s.v = tl_view_from(&st->v, h->start);
	return &h->s;
}

/* back from half h's view to the shared one (after it moved the cursor) */
static void half_back(struct sp_state *st, int i)
{
	struct sp_half *h = &st->h[i];
	st->v.tc = h->s.v.tc - h->start;
	st->v.v0 = h->s.v.v0;
	st->v.span = h->s.v.span;
	tl_clamp(&st->v);
}

/* Rank index in m of the rank numbered like rank, else of m's first. */
static size_t same_rank(const struct tt_model *m, int64_t rank)
{
	size_t i = pane_rank_index(m, rank);
	return i == SIZE_MAX ? 0 : i;
}

/* Rank index of side s's partner of rank index ri of side !s: the one the
 * diff pairs with it, else the same number, else the side's first. */
static size_t partner(struct tt_results *res, const struct tt_model *const m[2], int s, size_t ri)
{
	const struct tt_diff *d = tt_res_diff(res, NULL);
	for (size_t i = 0; d && i < d->nranks; i++)
		if (d->ranks[i].idx[!s] == ri)
			return d->ranks[i].idx[s];
	return same_rank(m[s], m[!s]->ranks[ri]->rank);
}

/* Put the cursor on event ev of half i, the window around it. */
static void go_event(struct sp_state *st, int i, uint32_t ev)
{
	struct sp_half *h = &st->h[i];
	const struct tt_rank *r = h->r;
	if (ev >= r->nev)
		return;
	size_t row = tl_row_of(&h->s, r, r->ev[ev].track);
	if (row == SIZE_MAX)
		return;
	st->cur = i;
	h->s.row = row;
	const struct tt_event *e = &r->ev[ev];
	int64_t lo = e->ts - h->start, len = TT_MAX(e->dur, 1);
	/* the event a sixth of the window or more, never wider than the steps */
	long double span = (long double)TT_MAX(len * 6, 2000);
	if (span < st->v.span)
		st->v.span = span;
	st->v.v0 = (long double)lo + (long double)len / 2 - st->v.span / 2;
	st->v.tc = lo;
	tl_clamp(&st->v);
	h->s.sel = ev;
}

/* The opening's work, off the UI thread (tt_pane_work): each side's
 * rank, its steps (a pass over its events), the step to show. */
static void sp_work(void *arg, const atomic_bool *cancel)
{
	struct sp_state *st = arg;
	const struct tt_model *const *m = st->m;
	(void)cancel;
	size_t ri[2];
	if (st->at) {
		int s = st->at_side;
		ri[s] = st->at_ri[s] < m[s]->nranks ? st->at_ri[s] : 0;
		ri[!s] = st->at_ri[!s] < m[!s]->nranks ? st->at_ri[!s]
						       : partner(st->diff_res, m, !s, ri[s]);
	} else {
		int sd = st->side;
		ri[sd] = st->ri < m[sd]->nranks ? st->ri : 0;
		ri[!sd] = partner(st->diff_res, m, !sd, ri[sd]);
	}
	for (int i = 0; i < 2; i++) {
		st->open_ri[i] = ri[i];
		st->h[i].r = m[i]->ranks[ri[i]];
	}
	/* the step: the one at the time asked for on the side it was asked
	 * on (its first without one), on both sides when the other has it,
	 * else the first both have */
	int sd = st->side;
	int64_t at = st->t ? st->t : INT64_MIN;
	int64_t n = half_steps(&st->h[sd], at);
	half_steps(&st->h[!sd], INT64_MIN);
	if (st->at && st->at_step[st->at_side] >= 0) {
		/* at an event: its step, and the one compared with it */
		int s = st->at_side;
		int64_t other = st->at_step[!s] >= 0 ? st->at_step[!s] : st->at_step[s];
		half_step(&st->h[s], st->at_step[s]);
		if (!half_step(&st->h[!s], other)) {
			int64_t c = common_step(st, st->at_step[s] - 1, 1);
			half_step(&st->h[!s], c >= 0 ? c : st->h[!s].first);
		}
	} else {
		if (n >= 0 && half_find(&st->h[!sd], n) == TT_NONE)
			n = common_step(st, TT_MAX(st->h[0].first, st->h[1].first) - 1, 1);
		if (n < 0)
			n = st->h[sd].first;
		half_step(&st->h[sd], n);
		if (!half_step(&st->h[!sd], n))
			half_step(&st->h[!sd], st->h[!sd].first);
		st->cur = sd;
	}
}

static int sp_open(struct tt_pane *p)
{
	struct sp_state *st = p->state;
	struct tt_app *a = p->app;
	if (!st->begun) {
		if (!a->m2) {
			snprintf(p->msg, sizeof(p->msg),
				 "the split timeline compares two traces: start with --diff "
				 "CONTROL TEST");
			return -1;
		}
		st->m[0] = a->side_m[0];
		st->m[1] = a->side_m[1];
		if (!st->m[0]->nranks || !st->m[1]->nranks) {
			snprintf(p->msg, sizeof(p->msg), "no ranks loaded on the %s side",
				 st->m[0]->nranks ? "Test" : "Control");
			return -1;
		}
		st->diff_res = tt_ui_diff_results(a);
		st->begun = true;
	}
	/* (a pass over each side's events, the diff's rank pairs) */
	if (!tt_pane_work(p, sp_work, st))
		return TT_OPEN_WAIT;
	const struct tt_model *const *m = st->m;
	for (int i = 0; i < 2; i++) {
		half_init(&st->h[i], p, m[i], st->open_ri[i],
			  i ? (a->ropts.label_b ? a->ropts.label_b : "Test")
			    : (a->ropts.label_a ? a->ropts.label_a : "Control"));
	}
	if (!st->h[0].s.nrows || !st->h[1].s.nrows) {
		snprintf(p->msg, sizeof(p->msg),
			 "the %s rank has no GPU stream or CPU thread with events",
			 st->h[0].s.nrows ? st->h[1].side : st->h[0].side);
		return -1;
	}
	fit_steps(st, !st->at && st->t ? st->t - st->h[st->at ? 0 : st->side].start : 0);
	if (st->at)
		go_event(st, st->at_side, st->at_ev);
	snprintf(p->subtitle, sizeof(p->subtitle), "split: %s rank %lld above, %s rank %lld below",
		 st->h[0].side, (long long)st->h[0].r->rank, st->h[1].side,
		 (long long)st->h[1].r->rank);
	return 0;
}

static void sp_close(struct tt_pane *p)
{
	struct sp_state *st = p->state;
	if (!st)
		return;
	half_free(&st->h[0]);
	half_free(&st->h[1]);
	free(st);
}

/* ---- drawing ---- */

/* "Control  control.json.gz  rank 3  ProfilerStep#1009  75.5 ms" */
static void half_title(const struct sp_half *h, char *buf, size_t n)
{
	const struct tt_rank *r = h->s.rks[0]->r;
	char d[32];
	tt_fmt_dur(d, sizeof(d), h->end - h->start);
	if (h->step >= 0)
		snprintf(buf, n, "%s  %s  rank %lld  ProfilerStep#%lld  %s", h->side,
			 r->file ? r->file : "", (long long)r->rank, (long long)h->step, d);
	else
		snprintf(buf, n, "%s  %s  rank %lld  no ProfilerStep: from the rank's start",
			 h->side, r->file ? r->file : "", (long long)r->rank);
}

/* the step's span on the row: [ at its start, ] at its end, - between */
static void draw_step(const struct sp_half *h, struct tt_grid *g, int x, int y, int w, int64_t t0,
		      int64_t t1)
{
	tt_grid_fill(g, x, y, w, ' ', TT_ROLE_DEFAULT);
	int a = tt_raster_cell_of(t0, t1, w, h->start);
	int b = tt_raster_cell_of(t0, t1, w, TT_MAX(h->end - 1, h->start));
	for (int k = TT_MAX(a, 0); k <= TT_MIN(b, w - 1); k++)
		tt_grid_put(g, x + k, y, TT_ROLE_BAR_OTHER, "-", 1);
	if (a >= 0 && a < w)
		tt_grid_put(g, x + a, y, TT_ROLE_HEADER, "[", 1);
	if (b >= 0 && b < w)
		tt_grid_put(g, x + b, y, TT_ROLE_HEADER, "]", 1);
}

/* One half: its title, its step row and `page` track rows from row y. */
static void draw_half(struct sp_state *st, int i, struct tt_grid *g, int lw, int y, int page)
{
	struct sp_half *h = &st->h[i];
	struct tl_state *s = half_sync(st, i);
	int x = lw + 1, w = g->w - x;
	int64_t t0, t1;
	tl_window(&s->v, &t0, &t1);
	char line[400];
	half_title(h, line, sizeof(line));
	tt_grid_fill(g, 0, y, g->w, ' ', TT_ROLE_DEFAULT);
	tt_grid_put(g, 1, y, TT_ROLE_HEADER, line, g->w - 2);
	char lab[64];
	snprintf(lab, sizeof(lab), "%s step", h->side);
	tt_grid_put(g, 1, y + 1, TT_ROLE_DIM, lab, lw - 1);
	const char *sep = tt_render_ascii() ? "|" : "\xE2\x94\x82";
	tt_grid_put(g, lw, y + 1, TT_ROLE_BORDER, sep, 1);
	draw_step(h, g, x, y + 1, w, t0, t1);
	h->y = y + 2;
	h->page = page;
	if (s->row < h->top)
		h->top = s->row;
	if (s->row >= h->top + (size_t)page)
		h->top = s->row - (size_t)page + 1;
	if (h->top + (size_t)page > s->nrows)
		h->top = s->nrows > (size_t)page ? s->nrows - (size_t)page : 0;
	tl_build_rows(s, h->top, h->top + (size_t)page);
	int ccol = tt_raster_cell_of(t0, t1, w, s->v.tc);
	for (int k = 0; k < page && h->top + (size_t)k < s->nrows; k++) {
		size_t ri = h->top + (size_t)k;
		struct tl_row *row = &s->rows[ri];
		int yy = h->y + k;
		bool cur = st->cur == i && ri == s->row;
		tt_utf8_fit(lab, sizeof(lab), row->label, (size_t)lw - 2);
		if (cur)
			tt_grid_fill(g, 0, yy, lw, ' ', TT_ROLE_CURSOR);
		tt_grid_put(g, 0, yy, cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, cur ? ">" : " ", 1);
		tt_grid_put(g, 1, yy, cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, lab, lw - 1);
		tt_grid_put(g, lw, yy, TT_ROLE_BORDER, sep, 1);
		tl_draw_cells(s, row, g, x, yy, w, t0, t1);
		if (cur && ccol >= 0 && ccol < w)
			tt_grid_paint(g, x + ccol, yy, 1, TT_ROLE_TL_CURSOR);
	}
}

static void sp_draw(struct tt_pane *p, struct tt_grid *g, int y, int h)
{
	struct sp_state *st = p->state;
	if (!st || !st->h[0].s.nrows || !st->h[1].s.nrows) {
		tt_grid_wrap(g, 2, y + 1, TT_ROLE_DIM, p->msg[0] ? p->msg : "nothing to show",
			     g->w - 4, TT_MAX(1, h - 2));
		return;
	}
	int lw = 10;
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < st->h[i].s.nrows; k++)
			lw = TT_MAX(lw, (int)tt_utf8_width(st->h[i].s.rows[k].label) + 2);
	lw = TT_MIN(lw, TT_MAX(12, g->w / 4));
	int x = lw + 1, w = g->w - x;
	if (w < 4 || h < 9)
		return;
	st->v.w = w;
	tl_clamp(&st->v);
	if (st->v.span < (long double)w)
		st->v.span = (long double)w;
	int64_t t0, t1;
	tl_window(&st->v, &t0, &t1);
	if (st->v.tc < t0 || st->v.tc >= t1) {
		st->v.tc = TT_MIN(TT_MAX(st->v.tc, t0), t1 - 1);
		st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
	}
	/* the ruler, from the step's start */
	tl_draw_ruler(g, 0, x, y, w, t0, t1, true);
	tt_grid_put(g, 0, y, TT_ROLE_DIM, "from step", lw);
	int ccol = tt_raster_cell_of(t0, t1, w, st->v.tc);
	if (ccol >= 0 && ccol < w)
		tt_grid_put(g, x + ccol, y + 1, TT_ROLE_TL_CURSOR, "v", 1);
	/* the cursor line: the time and the event under it on the cursor's row */
	int64_t cw = TT_MAX((t1 - t0) / w, 1);
	int64_t far = TT_MAX(llabs(t0), llabs(t1));
	char tb[64], db[64], line[600];
	tl_fmt_time(tb, sizeof(tb), st->v.tc, cw, far);
	int cx = tt_grid_printf(g, 1, y + 2, TT_ROLE_HEADER, -1, "cursor %s", tb);
	cx += 3;
	struct sp_half *ch = &st->h[st->cur];
	struct tl_state *cs = half_sync(st, st->cur);
	uint32_t ev = tl_under_cursor(cs);
	if (ev != TT_NONE) {
		const struct tt_rank *r = tl_row_rank(&cs->rows[cs->row]);
		const struct tt_event *e = &r->ev[ev];
		tt_fmt_dur(db, sizeof(db), e->dur);
		tl_fmt_time(tb, sizeof(tb), e->ts - ch->start, 1, far);
		/* the name gives way first */
		int room = g->w - cx - 1;
		char nm[400];
		snprintf(line, sizeof(line), "%s:   %s at %s", ch->side, db, tb);
		int left = room - (int)tt_utf8_width(line);
		tt_utf8_fit(nm, sizeof(nm), tt_ev_name(r, e), (size_t)TT_MAX(left, 8));
		snprintf(line, sizeof(line), "%s: %s  %s at %s", ch->side, nm, db, tb);
		tt_grid_put(g, cx, y + 2, TT_ROLE_DEFAULT, line, room);
	} else {
		tt_grid_printf(g, cx, y + 2, TT_ROLE_DIM, g->w - cx - 1, "%s: (idle)", ch->side);
	}
	/* the halves, each as many rows as it has, up to half of the room */
	bool legend = h >= 16;
	int room = h - 3 - 4 - (legend ? 1 : 0);
	int n0 = (int)TT_MIN(st->h[0].s.nrows, (size_t)INT32_MAX);
	int n1 = (int)TT_MIN(st->h[1].s.nrows, (size_t)INT32_MAX);
	int p0 = TT_MIN(n0, TT_MAX(room / 2, room - n1));
	int p1 = TT_MIN(n1, room - p0);
	if (p0 < 1 || p1 < 1)
		p0 = p1 = TT_MAX(room / 2, 1);
	draw_half(st, 0, g, lw, y + 3, p0);
	draw_half(st, 1, g, lw, y + 3 + 2 + p0, p1);
	if (legend)
		tl_draw_legend(g, 1, y + h - 1, g->w - 2);
}

/* ---- keys ---- */

static void set_cur(struct sp_state *st, int half, size_t row)
{
	struct tl_state *s = &st->h[half].s;
	if (row >= s->nrows)
		row = s->nrows - 1;
	if (half != st->cur || row != s->row)
		st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
	st->cur = half;
	s->row = row;
}

/* down (dir > 0) or up n rows, from the Control's rows into the Test's */
static void move_rows(struct sp_state *st, int dir, size_t n)
{
	size_t at = st->h[st->cur].s.row + (st->cur ? st->h[0].s.nrows : 0);
	size_t all = st->h[0].s.nrows + st->h[1].s.nrows;
	at = dir > 0 ? TT_MIN(at + n, all - 1) : (at > n ? at - n : 0);
	if (at < st->h[0].s.nrows)
		set_cur(st, 0, at);
	else
		set_cur(st, 1, at - st->h[0].s.nrows);
}

static int go_step(struct tt_pane *p, struct sp_state *st, int dir)
{
	int64_t n = common_step(st, st->h[0].step, dir);
	if (n < 0) {
		tt_ui_status(p->app, TT_ROLE_DIM, "no %s step on both sides",
			     dir > 0 ? "later" : "earlier");
		return TT_R_REDRAW;
	}
	int64_t tc = st->v.tc;
	half_step(&st->h[0], n);
	half_step(&st->h[1], n);
	long double v0 = st->v.v0, span = st->v.span;
	fit_steps(st, tc);
	/* the same window over the new step */
	st->v.v0 = v0;
	st->v.span = span;
	st->v.tc = tc;
	tl_clamp(&st->v);
	st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
	tt_ui_status(p->app, TT_ROLE_DEFAULT, "ProfilerStep#%lld on both sides", (long long)n);
	return TT_R_REDRAW;
}

static int sp_zoom(struct tt_pane *p, struct sp_state *st, int dir)
{
	switch (tl_zoom(&st->v, dir)) {
	case TL_FINEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "finest zoom: 1 ns per cell");
		break;
	case TL_WIDEST:
		tt_ui_status(p->app, TT_ROLE_DIM, "widest zoom: both traces are in view");
		break;
	case TL_FIT_MOVED:
	case TL_ZOOMED:
		break;
	}
	st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
	return TT_R_REDRAW;
}

static int sp_key(struct tt_pane *p, enum tt_action act)
{
	struct sp_state *st = p->state;
	if (!st || !st->h[0].s.nrows || !st->h[1].s.nrows)
		return TT_R_UNHANDLED;
	struct tl_state *cs = &st->h[st->cur].s;
	size_t page = (size_t)TT_MAX(st->h[st->cur].page - 1, 1);
	switch (act) {
	case TT_ACT_ZOOM_IN:
		return sp_zoom(p, st, 1);
	case TT_ACT_ZOOM_OUT:
		return sp_zoom(p, st, -1);
	case TT_ACT_ZOOM_FIT:
		return sp_zoom(p, st, 0);
	case TT_ACT_MOVE_LEFT:
	case TT_ACT_MOVE_RIGHT:
		tl_move_cell(&st->v, act == TT_ACT_MOVE_LEFT ? -1 : 1);
		st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
		return TT_R_REDRAW;
	case TT_ACT_PAN_LEFT:
	case TT_ACT_PAN_RIGHT:
		if (!tl_pan(&st->v, act == TT_ACT_PAN_LEFT ? -1 : 1))
			tt_ui_status(p->app, TT_ROLE_DIM, "at the %s of the traces",
				     act == TT_ACT_PAN_LEFT ? "start" : "end");
		st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_DOWN:
	case TT_ACT_MOVE_UP:
		move_rows(st, act == TT_ACT_MOVE_DOWN ? 1 : -1, 1);
		return TT_R_REDRAW;
	case TT_ACT_PAGE_DOWN:
	case TT_ACT_PAGE_UP:
		move_rows(st, act == TT_ACT_PAGE_DOWN ? 1 : -1, page);
		return TT_R_REDRAW;
	case TT_ACT_RANK_DOWN:
	case TT_ACT_RANK_UP:
		/* the same row of the other half */
		set_cur(st, act == TT_ACT_RANK_DOWN ? 1 : 0, cs->row);
		return TT_R_REDRAW;
	case TT_ACT_MOVE_FIRST:
	case TT_ACT_MOVE_LAST:
		st->v.tc = act == TT_ACT_MOVE_FIRST ? st->v.fit0 : st->v.fit1 - 1;
		st->h[0].s.sel = st->h[1].s.sel = TT_NONE;
		tl_show_time(&st->v, st->v.tc);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_EVENT:
	case TT_ACT_PREV_EVENT: {
		int r = tl_step_event(p, half_sync(st, st->cur), act == TT_ACT_NEXT_EVENT ? 1 : -1);
		half_back(st, st->cur);
		return r;
	}
	case TT_ACT_ENTER: {
		uint32_t ev = tl_under_cursor(half_sync(st, st->cur));
		if (ev == TT_NONE) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		tt_ui_open(p->app, tt_event_pane(p->app, tl_row_rank(&cs->rows[cs->row]), ev));
		return TT_R_REDRAW;
	}
	case TT_ACT_PREV_RANK:
	case TT_ACT_NEXT_RANK:
		return go_step(p, st, act == TT_ACT_NEXT_RANK ? 1 : -1);
	case TT_ACT_ROW_MODE:
		for (int i = 0; i < 2; i++) {
			struct tl_state *s = &st->h[i].s;
			s->mode = (enum tl_mode)((s->mode + 1) % TL_NMODES);
			tl_make_rows(s);
		}
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "rows: %s",
			     st->h[0].s.mode == TL_ALL	 ? "every stream and thread"
			     : st->h[0].s.mode == TL_GPU ? "GPU streams"
							 : "one summary row per side");
		return TT_R_REDRAW;
	case TT_ACT_SPLIT:
		tt_ui_status(p->app, TT_ROLE_DIM, "split already: Esc goes back to the timeline");
		return TT_R_REDRAW;
	case TT_ACT_SEARCH:
	case TT_ACT_JUMP:
	case TT_ACT_FILTER:
	case TT_ACT_SET_MARK:
	case TT_ACT_MARK_EVENT:
	case TT_ACT_RANGE:
	case TT_ACT_FOLLOW_LINK:
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH:
	case TT_ACT_SORT_NEXT:
	case TT_ACT_SORT_REVERSE:
	case TT_ACT_WRITE_CSV:
	case TT_ACT_PICK_RANKS:
	case TT_ACT_ALL_RANKS:
		tt_ui_status(p->app, TT_ROLE_DIM,
			     "%s: not in the split timeline ([ ] step, Esc: the timeline)",
			     tt_action_name(act));
		return TT_R_REDRAW;
	default:
		return TT_R_UNHANDLED;
	}
}

static const struct tt_pane_ops split_ops = {
	/* the timeline's keys (the keymap's timeline section) */
	.name = "timeline",
	.title = "Split timeline",
	.help = "Two traces of a diff on one time axis: the Control rank above, the Test rank below "
		"(the same rank number when the Test has it), each counted from the start of the "
		"same ProfilerStep, so a step's start is in the same column on both halves and where "
		"the extra time sits shows as a shift.  Each half is titled with its side, file, "
		"rank, step and the step's length; its first row draws the step as [---].  One "
		"cursor and one window: h l move the cursor, + - = zoom, H L pan, j k move through "
		"the rows of both halves, J K jump to the other half, Tab S-Tab step through the "
		"events of the cursor's row, [ ] go to the previous or next step both sides have, R "
		"changes the rows, Enter opens the event under the cursor.  Esc goes back to the "
		"timeline of every rank of the side in view; d switches the side (Control, Test, "
		"side by side: the Control's) and shows its timeline of every rank.",
	.both_sides = true, /* (both halves: the title tag says so) */
	.open = sp_open,
	.close = sp_close,
	.draw = sp_draw,
	.key = sp_key,
};

struct tt_pane *tt_split_at(struct tt_app *a, int side, const size_t ri[2], const int64_t step[2],
			    uint32_t ev)
{
	struct tt_pane *p = tt_split_side(a, 0, 0, 0);
	struct sp_state *st = p->state;
	st->at = true;
	st->at_side = side ? 1 : 0;
	for (int s = 0; s < 2; s++) {
		st->at_ri[s] = ri[s];
		st->at_step[s] = step[s];
	}
	st->at_ev = ev;
	return p;
}

struct tt_pane *tt_split_side(struct tt_app *a, int side, size_t ri, int64_t t)
{
	struct tt_pane *p = tt_pane_new(a, &split_ops);
	p->sides = 1; /* (both halves, no difference) */
	struct sp_state *st = tt_calloc(1, sizeof(*st));
	st->side = side ? 1 : 0;
	st->ri = ri;
	st->t = t;
	p->state = st;
	return p;
}
