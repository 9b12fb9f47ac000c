/* The timeline pane's keys: moving, zooming and panning, stepping through
 * events, following links, the mark, search and jump prompts, ranges, row
 * modes.  See timeline.c for the pane. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/collectives.h"
#include "tracetop/raster.h"
#include "tracetop/util.h"
#include "timeline_int.h"

static const char *const mode_name[TL_NMODES] = {
	[TL_RANKS] = "a summary per rank",
	[TL_GPU] = "GPU streams",
	[TL_ALL] = "every stream and thread",
};

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
	uint32_t ev = tl_under_cursor(s);
	if (ev == TT_NONE) {
		tt_ui_status(a, TT_ROLE_WARNING, "no event under the cursor");
		return TT_R_REDRAW;
	}
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = tl_row_rank(row);
	const struct tt_event *e = &r->ev[ev];
	enum tt_cat_kind k = tt_ev_kind(r, e);
	uint32_t to = TT_NONE;
	const char *what = "";
	if (r->tracks[e->track].kind != TT_TRACK_CPU) {
		to = tt_launch_of(r, ev);
		what = "the runtime call that launched it (c: its op)";
		if (to == TT_NONE) {
			tt_ui_status(a, TT_ROLE_WARNING, "no launching call for %s (no correlation)",
				     tl_ev_name(r, ev));
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
			     s->sel != TT_NONE ? tl_ev_name(tl_row_rank(&s->rows[s->row]), s->sel) :
						 "the start");
		return TT_R_REDRAW;
	} else {
		to = tl_first_launch(r, ev);
		what = "the first GPU op it launched (c: its launch)";
	}
	if (to == TT_NONE) {
		tt_ui_status(a, TT_ROLE_WARNING, "%s: nothing to follow", tl_ev_name(r, ev));
		return TT_R_REDRAW;
	}
	hist_push(s);
	s->sel = ev; /* where we came from, exactly */
	s->hist[s->nhist - 1].sel = ev;
	if (!tl_go_event(s, r, to)) {
		s->nhist--;
		tt_ui_status(a, TT_ROLE_WARNING, "%s is on a track not shown (R: every row)",
			     tl_ev_name(r, to));
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

/* the tracks to search: the rows' tracks; in the summary mode every
 * stream and thread of the ranks shown, folded or not */
static struct tl_where *rows_where(const struct tl_state *s, size_t *n)
{
	size_t cap = 0, k = 0;
	if (s->mode == TL_RANKS) {
		for (size_t i = 0; i < s->nrks; i++)
			cap += s->rks[i]->r->ntracks;
		struct tl_where *w = tt_malloc((cap + 1) * sizeof(*w));
		for (size_t i = 0; i < s->nrks; i++) {
			const struct tt_rank *r = s->rks[i]->r;
			for (uint32_t t = 0; t < r->ntracks; t++)
				if (tl_track_shown(r, &r->tracks[t], false)) {
					w[k].ri = s->rks[i]->ri;
					w[k].track = t;
					k++;
				}
		}
		*n = k;
		return w;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		size_t m;
		tl_row_srcs(s, &s->rows[i], &m);
		cap += m;
	}
	struct tl_where *w = tt_malloc((cap + 1) * sizeof(*w));
	for (size_t i = 0; i < s->nrows; i++) {
		size_t m;
		struct tl_src *const *srcs = tl_row_srcs(s, &s->rows[i], &m);
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
	size_t ri = tl_reveal(s, s->rkpos ? s->rkpos[h->ri] : SIZE_MAX, r->ev[h->ev].track);
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
		tt_ui_status(a, TT_ROLE_WARNING, "no event matches '%s' on the %s shown", text,
			     s->mode == TL_RANKS ? "ranks" : "rows");
		return TT_R_REDRAW;
	}
	bool wrapped;
	uint32_t cur = tl_under_cursor(s);
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
				tl_under_cursor(s), &wrapped);
	go_hit(p, s, i, wrapped);
	return TT_R_REDRAW;
}

/* The cursor on the row of rks entry k (its group unfolded), the time
 * kept. */
static void go_rank(struct tl_state *s, size_t k)
{
	hist_push(s);
	size_t row = tl_rank_row(s, k);
	if (row < s->nrows && s->rows[row].kind == TL_ROW_GROUP) {
		s->gopen[k] = true;
		tl_make_rows(s);
		row = tl_rank_row(s, k);
	}
	if (row < s->nrows)
		set_row(s, row);
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
	bool rk = strncmp(t, "rank", 4) == 0 || (t[0] == 'r' && t[1] >= '0' && t[1] <= '9');
	if (rk) {
		const char *q = t + (t[1] == 'a' ? 4 : 1);
		char *end;
		long long num = strtoll(q, &end, 10);
		while (*end == ' ')
			end++;
		if (end == q || *end || num < 0) {
			tt_ui_status(a, TT_ROLE_ERROR, "'%s': give a rank number (rank 5, r5)", text);
			return TT_R_REDRAW;
		}
		size_t k = SIZE_MAX;
		for (size_t i = 0; i < s->nrks && k == SIZE_MAX; i++)
			if (s->rks[i]->r->rank == num)
				k = i;
		if (k == SIZE_MAX) {
			tt_ui_status(a, TT_ROLE_WARNING, "rank %lld is not shown (r picks the ranks)", num);
			return TT_R_REDRAW;
		}
		go_rank(s, k);
		tt_ui_status(a, TT_ROLE_DEFAULT, "rank %lld (Esc: back)", num);
		return TT_R_REDRAW;
	}
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
		const struct tt_rank *cr = tl_row_rank(&s->rows[s->row]);
		uint32_t ev = tl_find_step(cr, num);
		const struct tt_rank *r = cr;
		for (size_t i = 0; ev == TT_NONE && i < s->nrks; i++) {
			r = s->rks[i]->r;
			ev = tl_find_step(r, num);
		}
		if (ev == TT_NONE) {
			tt_ui_status(a, TT_ROLE_WARNING, "no ProfilerStep#%lld on the ranks shown", num);
			return TT_R_REDRAW;
		}
		hist_push(s);
		if (!tl_go_event(s, r, ev)) {
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

int tl_prompt(struct tt_pane *p, int kind, const char *text)
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

/* the rows of one rank (or one group) */
static bool same_rank(const struct tl_row *a, const struct tl_row *b)
{
	return a->rki == b->rki && a->nrk == b->nrk;
}

static int rank_step(struct tt_pane *p, struct tl_state *s, int dir)
{
	const struct tl_row *cur = &s->rows[s->row];
	size_t to = SIZE_MAX;
	if (dir > 0) {
		for (size_t i = s->row + 1; i < s->nrows && to == SIZE_MAX; i++)
			if (!same_rank(&s->rows[i], cur))
				to = i;
	} else {
		/* the first row of the rank before */
		size_t i = s->row;
		while (i > 0 && same_rank(&s->rows[i - 1], cur))
			i--;
		if (i > 0) {
			const struct tl_row *prev = &s->rows[i - 1];
			to = i - 1;
			while (to > 0 && same_rank(&s->rows[to - 1], prev))
				to--;
		}
	}
	if (to == SIZE_MAX) {
		tt_ui_status(p->app, TT_ROLE_DIM, "no %s rank", dir > 0 ? "later" : "earlier");
		return TT_R_REDRAW;
	}
	set_row(s, to);
	/* the rank's rows on the screen: from its top when they were not */
	size_t end = to + 1;
	while (end < s->nrows && same_rank(&s->rows[end], &s->rows[to]))
		end++;
	if (to < s->top_row || end > s->top_row + (size_t)TT_MAX(s->page, 1))
		s->top_row = to;
	return TT_R_REDRAW;
}

/* Enter on a summary or group row (toggle), or o (up: fold what the
 * cursor is in -- the row itself when unfolded, else its rank or group --
 * and unfold a folded row that is in nothing). */
static int fold(struct tt_pane *p, struct tl_state *s, bool up)
{
	if (s->mode != TL_RANKS) {
		tt_ui_status(p->app, TT_ROLE_DIM, "every rank is unfolded in this mode (R: %s)",
			     mode_name[TL_RANKS]);
		return TT_R_REDRAW;
	}
	size_t row = s->row;
	const struct tl_row *r = &s->rows[row];
	if (up && r->kind == TL_ROW_RANK && !r->open && r->rki < s->nrks &&
	    s->rank_row[r->rki] == row) {
		/* a folded rank inside an unfolded group: the group */
		for (size_t i = row; i-- > 0;)
			if (s->rows[i].kind == TL_ROW_GROUP && tl_row_has(&s->rows[i], r->rki)) {
				row = i;
				break;
			}
	}
	r = &s->rows[row];
	bool opening = r->kind != TL_ROW_TRACK && !r->open;
	size_t nrk = r->nrk;
	int64_t rank = r->rk->r->rank;
	tl_fold(s, row);
	if (nrk > 1)
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "%s: %zu ranks from rank %lld%s",
			     opening ? "unfolded" : "folded", nrk, (long long)rank,
			     opening ? " (Enter on one: its streams and threads)" : "");
	else
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "rank %lld %s", (long long)rank,
			     opening ? "unfolded (o folds it)" : "folded");
	return TT_R_REDRAW;
}

/* w: the cursor on the part of the rank that arrived last at the
 * collective of the kernel under the cursor (its rank unfolded) */
static int last_arrival(struct tt_pane *p, struct tl_state *s)
{
	struct tt_app *a = p->app;
	const struct tl_row *row = &s->rows[s->row];
	uint32_t ev = row->kind == TL_ROW_GROUP ? TT_NONE : tl_under_cursor(s);
	const struct tt_rank *r = tl_row_rank(row);
	if (ev == TT_NONE || r->tracks[r->ev[ev].track].kind == TT_TRACK_CPU ||
	    tl_ev_class(row->rk, &r->ev[ev]) != TT_RC_COMM) {
		tt_ui_status(a, TT_ROLE_DIM, "w: put the cursor on a communication kernel (Tab, /nccl)");
		return TT_R_REDRAW;
	}
	const struct tt_coll *c = tl_colls(s);
	uint32_t part = tl_coll_part(s, c, row->rki, ev);
	if (!c) {
		tt_ui_status(a, TT_ROLE_DIM, "matching the collectives across the ranks... (w again)");
		return TT_R_REDRAW;
	}
	uint32_t k = tl_coll_of_part(c, part);
	char head[160], line[400];
	if (part == TT_NONE) {
		tt_ui_status(a, TT_ROLE_DIM, "%s is not part of a collective",
			     tl_ev_name(tl_row_rank(row), ev));
		return TT_R_REDRAW;
	}
	tl_coll_text(s, c, part, 1000, head, sizeof(head), line, sizeof(line));
	if (k == TT_NONE || c->colls[k].last >= c->nparts || c->colls[k].n < 2) {
		tt_ui_status(a, TT_ROLE_WARNING, "%s: %s", head, line);
		return TT_R_REDRAW;
	}
	const struct tt_coll_part *last = &c->parts[c->colls[k].last];
	size_t rki = last->ri < s->cache->m->nranks && s->rkpos ? s->rkpos[last->ri] : SIZE_MAX;
	if (last->ri == c->parts[part].ri) {
		tt_ui_status(a, TT_ROLE_DEFAULT, "rank %lld (this one) arrived last at %s",
			     (long long)last->rank, head);
		return TT_R_REDRAW;
	}
	if (rki == SIZE_MAX) {
		tt_ui_status(a, TT_ROLE_WARNING, "%s: rank %lld arrived last; it is not shown (a: all ranks)",
			     head, (long long)last->rank);
		return TT_R_REDRAW;
	}
	hist_push(s);
	if (!tl_go_event(s, s->rks[rki]->r, last->kernel)) {
		s->nhist--;
		tt_ui_status(a, TT_ROLE_WARNING, "%s: rank %lld arrived last; its stream is not shown (R)",
			     head, (long long)last->rank);
		return TT_R_REDRAW;
	}
	tt_ui_status(a, TT_ROLE_DEFAULT, "rank %lld arrived last at %s (Esc: back)",
		     (long long)last->rank, head);
	return TT_R_REDRAW;
}

static int group_rows(struct tt_pane *p, struct tl_state *s)
{
	static const char *const what[TL_NGRP] = {
		[TL_GRP_WORST] = "several ranks a row, each cell their worst",
		[TL_GRP_MEAN] = "several ranks a row, each cell their mean",
		[TL_GRP_OFF] = "a row per rank",
	};
	if (s->mode != TL_RANKS) {
		tt_ui_status(p->app, TT_ROLE_DIM, "groups of ranks are in the summary rows (R: %s)",
			     mode_name[TL_RANKS]);
		return TT_R_REDRAW;
	}
	s->group = (enum tl_group)((s->group + 1) % TL_NGRP);
	tl_make_rows(s);
	tt_ui_status(p->app, TT_ROLE_DEFAULT, "%s%s (z: %s)", what[s->group],
		     s->group != TL_GRP_OFF && s->per_row < 2 ? " when they do not fit" : "",
		     what[(s->group + 1) % TL_NGRP]);
	return TT_R_REDRAW;
}

int tl_key(struct tt_pane *p, enum tt_action act)
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
	case TT_ACT_PREV_EVENT:
		if (s->rows[s->row].kind == TL_ROW_GROUP) {
			tt_ui_status(p->app, TT_ROLE_DIM,
				     "a row of %zu ranks: Enter shows them a row each", s->rows[s->row].nrk);
			return TT_R_REDRAW;
		}
		return tl_step_event(p, s, act == TT_ACT_NEXT_EVENT ? 1 : -1);
	case TT_ACT_ENTER: {
		/* a summary or group row unfolds (or folds) unless an event of it
		 * is selected (Tab, a match): then, as on a track, its details */
		if (s->rows[s->row].kind != TL_ROW_TRACK && s->sel == TT_NONE)
			return fold(p, s, false);
		uint32_t ev = tl_under_cursor(s);
		if (ev == TT_NONE) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		tt_ui_open(p->app, tt_event_pane(p->app, tl_row_rank(&s->rows[s->row]), ev));
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
		s->mark_ev = tl_under_cursor(s);
		tt_ui_status(p->app, TT_ROLE_DEFAULT,
			     "mark set: move the cursor to measure, A: what ran in between");
		return TT_R_REDRAW;
	case TT_ACT_MARK_EVENT: {
		uint32_t ev = tl_under_cursor(s);
		if (ev == TT_NONE) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no event under the cursor");
			return TT_R_REDRAW;
		}
		const struct tt_rank *r = tl_row_rank(&s->rows[s->row]);
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
		tt_ui_prompt(p->app, TT_ACT_JUMP, "go to (12.5ms, 1.2s, +30ms, step 3, rank 5): ", "");
		return TT_R_REDRAW;
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH:
		return step_hit(p, s, act == TT_ACT_NEXT_MATCH ? 1 : -1);
	case TT_ACT_SPLIT:
		if (!p->app->m2) {
			tt_ui_status(p->app, TT_ROLE_DIM,
				     "the split timeline compares two traces: start with --diff "
				     "CONTROL TEST");
			return TT_R_REDRAW;
		}
		/* from the side in view: its rank, its step at the cursor */
		tt_ui_open(p->app, tt_split_side(p->app, p->app->m == p->app->side_m[1] ? 1 : 0,
						 s->rows[s->row].rk->ri, s->v.tc));
		return TT_R_REDRAW;
	case TT_ACT_FOLD:
		return fold(p, s, true);
	case TT_ACT_GROUP_ROWS:
		return group_rows(p, s);
	case TT_ACT_LAST_ARRIVAL:
		return last_arrival(p, s);
	case TT_ACT_ROW_MODE:
		s->mode = (enum tl_mode)((s->mode + 1) % TL_NMODES);
		tl_make_rows(s);
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
int tl_mouse(struct tt_pane *p, const struct tt_mouse *m)
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
