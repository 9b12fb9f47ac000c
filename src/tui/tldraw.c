/* The timeline pane's drawing: the ruler, the cursor and window lines, the
 * rows of cells, the flow marks and the legend.  See timeline.c for the
 * pane. */
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

void tl_draw_ruler(struct tt_grid *g, int64_t base, int x, int y, int w, int64_t t0, int64_t t1,
		   bool ticks)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int dec;
	enum tt_unit unit;
	int64_t step = tl_ruler_step(base, t0, t1, w, &dec, &unit);
	int64_t rel0 = t0 - base;
	/* first multiple of step at or after rel0 */
	int64_t m = rel0 >= 0 ? (rel0 + step - 1) / step : -((-rel0) / step);
	tt_grid_fill(g, x, y, w, ' ', TT_ROLE_RULER);
	if (ticks)
		tt_grid_fill(g, x, y + 1, w, ' ', TT_ROLE_RULER);
	for (int guard = 0; guard < 1000; guard++, m++) {
		int64_t t = base + m * step;
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
		/* a label that does not fit whole is left out (the tick stays) */
		if ((int)strlen(buf) <= w - k)
			tt_grid_put(g, x + k, y, TT_ROLE_RULER, buf, w - k);
		if (ticks)
			tt_grid_put(g, x + k, y + 1, TT_ROLE_RULER, "|", 1);
	}
}

void tl_draw_legend(struct tt_grid *g, int x, int y, int w)
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
	size_t ri = tl_row_of(s, r, r->ev[ev].track);
	if (ri == SIZE_MAX || !s->rows[ri].tr || ri < s->top_row || ri >= s->top_row + (size_t)nvis)
		return;
	int k = tt_raster_cell_of(t0, t1, w, t);
	if (k < 0 || k >= w)
		return;
	int yy = s->rows_y + (int)(ri - s->top_row);
	tt_grid_put(g, x + k, yy, TT_ROLE_TL_MARK, c, 1);
}

void tl_draw_cells(struct tl_state *s, struct tl_row *row, struct tt_grid *g, int x, int y, int w,
		   int64_t t0, int64_t t1)
{
	if (s->capcells < w) {
		s->cells = tt_realloc_array(s->cells, (size_t)w, sizeof(*s->cells));
		s->capcells = w;
	}
	if (row->src) {
		tt_raster_row(tl_src_ix(s, row, row->src), t0, t1, w, s->cells);
	} else if (!tl_cells_row(s, row, s->cells)) {
		/* (a row not prepared: the split timeline's halves) */
		size_t ri = (size_t)(row - s->rows);
		tl_cells_prepare(s, ri, ri + 1, SIZE_MAX, t0, t1, w);
		if (!tl_cells_row(s, row, s->cells))
			memset(s->cells, 0, (size_t)w * sizeof(*s->cells));
	}
	for (int k = 0; k < w; k++) {
		const struct tt_rcell *c = &s->cells[k];
		struct tt_gcell *gc = tt_grid_at(g, x + k, y);
		gc->cp = (uint32_t)(unsigned char)tt_rcell_glyph(c);
		gc->role = (uint8_t)tt_rclass_role((enum tt_rclass)c->cls);
	}
}

/* The hits of track t of model rank index ri in the window, painted on
 * screen row y: one look per cell that has one (the next hit is searched
 * past the cell), whatever the number of hits. */
static void paint_hits(const struct tl_state *s, struct tt_grid *g, int x, int y, int w,
		       int64_t t0, int64_t t1, size_t ri, uint32_t t)
{
	size_t lo, hi;
	tl_hits_track(&s->hits, ri, t, t0, t1, &lo, &hi);
	while (lo < hi) {
		int k = tt_raster_cell_of(t0, t1, w, s->hits.trts[lo]);
		if (k < 0 || k >= w)
			break;
		tt_grid_paint(g, x + k, y, 1, TT_ROLE_MATCH);
		lo = tl_hits_track_from(&s->hits, lo + 1, hi, tt_raster_edge(t0, t1, w, k + 1));
	}
}

/* The cursor line of a group row: how many of its ranks show each class
 * in the cursor's cell, the worst first, naming the first few of those. */
static void group_line(struct tl_state *s, struct tl_row *row, struct tt_grid *g, int x, int y,
		       int w, int ccol)
{
	if (ccol < 0 || ccol >= w)
		return;
	size_t count[10] = {0};
	struct tt_rcell c, cls[10];
	int64_t first[10][3];
	for (size_t k = row->rki; k < row->rki + row->nrk; k++) {
		const struct tt_rcell *rc = tl_cells_rank(s, k);
		if (!rc)
			continue;
		c = rc[ccol];
		int sv = tt_rcell_severity(&c);
		if (sv < 0 || sv > 9)
			continue;
		if (count[sv] < 3)
			first[sv][count[sv]] = s->rks[k]->r->rank;
		if (!count[sv])
			cls[sv] = c;
		count[sv]++;
	}
	char line[400];
	/* the label without its fold glyph: "r0-31 worst:" */
	const char *lab = strstr(row->label, " r");
	size_t n = (size_t)snprintf(line, sizeof(line), "%s:", lab ? lab + 1 : row->label);
	bool named = false;
	for (int sv = 0; sv < 10 && n < sizeof(line); sv++) {
		if (!count[sv])
			continue;
		const char *name = cls[sv].busy ? "busy" : tt_rclass_name((enum tt_rclass)cls[sv].cls);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %zu %s", count[sv], name);
		if (!named && n < sizeof(line)) {
			/* the worst: which ranks */
			named = true;
			n += (size_t)snprintf(line + n, sizeof(line) - n, " (");
			for (size_t q = 0; q < TT_MIN(count[sv], (size_t)3) && n < sizeof(line); q++)
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%sr%lld", q ? " " : "",
						      (long long)first[sv][q]);
			if (n < sizeof(line))
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s)",
						      count[sv] > 3 ? " ..." : "");
		}
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, ",");
	}
	if (n > 0 && n < sizeof(line) && line[n - 1] == ',')
		line[n - 1] = '\0';
	tt_grid_put(g, x, y, TT_ROLE_DEFAULT, line, g->w - x - 1);
}

void tl_draw(struct tt_pane *p, struct tt_grid *g, int y, int h)
{
	struct tl_state *s = p->state;
	if (!s || !s->nrows) {
		tt_grid_wrap(g, 2, y + 1, TT_ROLE_DIM, p->msg[0] ? p->msg : "nothing to show", g->w - 4,
			     TT_MAX(1, h - 2));
		return;
	}
	/* the summary mode's groups fit the rows on screen; the ranks that
	 * stand out come in when the results have them */
	bool legend = h >= 9, line2 = h >= 7;
	int head = 3 + (line2 ? 1 : 0);
	int nvis = TT_MAX(h - head - (legend ? 1 : 0), 1);
	if (s->mode == TL_RANKS && (tl_rank_flags(s) || nvis != s->rows_page)) {
		s->rows_page = nvis;
		tl_make_rows(s);
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
	struct tl_last *last = tt_ui_shared(p->app, tl_last_tag);
	if (!last) {
		last = tt_calloc(1, sizeof(*last));
		if (!tt_ui_share(p->app, tl_last_tag, last, free)) {
			free(last);
			last = NULL;
		}
	}
	if (last) {
		last->t0 = t0;
		last->t1 = t1;
	}
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

	/* index the tracks in view (all at once: on several threads), and the
	 * summary and group rows' cells */
	tl_build_rows(s, s->top_row, s->top_row + (size_t)nvis);
	tl_cells_prepare(s, s->top_row, s->top_row + (size_t)nvis, s->row, t0, t1, w);

	int ccol = TT_MIN(tt_raster_cell_of(t0, t1, w, s->v.tc), w - 1);
	int mcol = s->mark ? tt_raster_cell_of(t0, t1, w, s->mark_t) : -1;
	int64_t cw = TT_MAX((t1 - t0) / w, 1);
	int64_t far = TT_MAX(llabs(t0 - s->v.base), llabs(t1 - s->v.base));

	/* ruler and ticks */
	tl_draw_ruler(g, s->v.base, x, y, w, t0, t1, true);
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
	const struct tt_rank *cr = tl_row_rank(crow);
	uint32_t ev = tl_under_cursor(s);
	char tbuf[64], dbuf[64], line[600];
	/* the collective of the kernel under the cursor, if it is one */
	const struct tt_coll *colls = NULL;
	uint32_t part = TT_NONE;
	char chead[160] = "", cline[400] = "";
	s->want_coll = false;
	tl_fmt_time(tbuf, sizeof(tbuf), s->v.tc - s->v.base, cw, far);
	int cx = tt_grid_printf(g, 1, y + 2, TT_ROLE_HEADER, -1, "cursor %s", tbuf);
	cx += 3;
	if (crow->kind == TL_ROW_GROUP) {
		group_line(s, crow, g, cx, y + 2, w, ccol);
	} else if (ev != TT_NONE) {
		const struct tt_event *e = &cr->ev[ev];
		enum tt_rclass c = (enum tt_rclass)tl_ev_class(crow->rk, e);
		char gl[2] = {tt_rclass_glyph(c), 0};
		cx += tt_grid_put(g, cx, y + 2, tt_rclass_role(c), gl, 1) + 1;
		/* a communication kernel: the collective it is part of, lined up
		 * across the ranks (its name first on this line) */
		if (c == TT_RC_COMM) {
			colls = tl_colls(s);
			part = tl_coll_part(s, colls, crow->rki, ev);
			if (part != TT_NONE)
				tl_coll_text(s, colls, part, g->w - 2, chead, sizeof(chead), cline,
					     sizeof(cline));
		}
		char name[400];
		snprintf(name, sizeof(name), "%s%s%s", part != TT_NONE ? chead : "",
			 part != TT_NONE ? ": " : "", tt_ev_name(cr, e));
		tt_fmt_dur(dbuf, sizeof(dbuf), e->dur);
		tl_fmt_time(tbuf, sizeof(tbuf), e->ts - s->v.base, 1, far);
		snprintf(line, sizeof(line), "%s  %s at %s", name, dbuf, tbuf);
		/* the name gives way first */
		int room = g->w - cx - 1;
		int tail = (int)tt_utf8_width(line) - (int)tt_utf8_width(name);
		if ((int)tt_utf8_width(line) > room && room > tail + 8) {
			char nm[400];
			tt_utf8_fit(nm, sizeof(nm), name, (size_t)(room - tail));
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
		/* a rank that stands out reads so in mono too: '!' and its role */
		enum tt_role lrole = cur ? TT_ROLE_CURSOR : row->flag ? TT_ROLE_WARNING : TT_ROLE_DEFAULT;
		tt_grid_put(g, 0, yy, cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, cur ? ">" : " ", 1);
		tt_grid_put(g, 1, yy, lrole, lab, lw - 1);
		tt_grid_put(g, lw, yy, TT_ROLE_BORDER, sep, 1);
		tl_draw_cells(s, row, g, x, yy, w, t0, t1);
	}
	/* the highlighted events that start in the window: on their track's
	 * row, else on the folded summary or group row standing for them */
	for (int i = 0; s->hits.n && i < nvis && s->top_row + (size_t)i < s->nrows; i++) {
		const struct tl_row *row = &s->rows[s->top_row + (size_t)i];
		int yy = y + head + i;
		if (row->kind == TL_ROW_TRACK) {
			paint_hits(s, g, x, yy, w, t0, t1, row->rk->ri,
				   (uint32_t)(row->tr - row->rk->r->tracks));
			continue;
		}
		if (row->open)
			continue; /* (its rows show them) */
		for (size_t k = row->rki; k < row->rki + row->nrk; k++)
			for (uint32_t t = 0; t < s->rks[k]->r->ntracks; t++)
				paint_hits(s, g, x, yy, w, t0, t1, s->rks[k]->ri, t);
	}
	for (int i = 0; i < nvis && s->top_row + (size_t)i < s->nrows; i++) {
		size_t ri = s->top_row + (size_t)i;
		int yy = y + head + i;
		if (s->mark && ri == s->mark_row && mcol >= 0 && mcol < w)
			tt_grid_paint(g, x + mcol, yy, 1, TT_ROLE_TL_MARK);
		if (ri == s->row && ccol >= 0 && ccol < w)
			tt_grid_paint(g, x + ccol, yy, 1, TT_ROLE_TL_CURSOR);
	}
	/* the stretches drawn with the set (a critical path's edges), under
	 * the cursor and the marks */
	if (s->hits.nspan) {
		size_t slo, shi;
		tl_hits_span_window(&s->hits, t0, t1, &slo, &shi);
		for (size_t j = slo; j < shi; j++) {
			const struct tt_tl_span *sp = &s->hits.span[j];
			if (sp->t1 < t0 || sp->t0 >= t1 || sp->ri >= p->app->m->nranks)
				continue;
			const struct tt_rank *r = p->app->m->ranks[sp->ri];
			if (sp->ev >= r->nev || !s->rkpos || s->rkpos[sp->ri] == SIZE_MAX)
				continue;
			size_t ri = tl_row_of_rki(s, s->rkpos[sp->ri], r->ev[sp->ev].track);
			if (ri == SIZE_MAX || ri < s->top_row || ri >= s->top_row + (size_t)nvis)
				continue;
			int k0 = TT_MAX(0, tt_raster_cell_of(t0, t1, w, TT_MAX(sp->t0, t0)));
			int k1 = TT_MIN(w - 1, tt_raster_cell_of(t0, t1, w, TT_MIN(sp->t1, t1 - 1)));
			if (k1 >= k0)
				tt_grid_paint(g, x + k0, y + head + (int)(ri - s->top_row), k1 - k0 + 1,
					      TT_ROLE_MATCH);
		}
	}
	/* the collective: every rank's part, the last arrival across them */
	if (part != TT_NONE) {
		tl_coll_paint(s, colls, tl_coll_of_part(colls, part), g, x, y + head, nvis, w, t0,
			      t1, y + 1);
		/* (the cursor and the mark win the tick row) */
		if (ccol >= 0 && ccol < w)
			tt_grid_put(g, x + ccol, y + 1, TT_ROLE_TL_CURSOR, "v", 1);
		if (mcol >= 0 && mcol < w)
			tt_grid_put(g, x + mcol, y + 1, TT_ROLE_TL_MARK, mcol == ccol ? "X" : "M", 1);
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
	/* the collective's line in place of the legend (or of the window
	 * line on a short screen); while the collectives are being matched,
	 * that it is coming */
	if ((part != TT_NONE || s->want_coll) && (legend || line2)) {
		int ly = legend ? y + h - 1 : y + 3;
		tt_grid_fill(g, 0, ly, g->w, ' ', TT_ROLE_DEFAULT);
		if (part != TT_NONE) {
			/* (cut with an ellipsis where it does not fit) */
			char fit[400];
			tt_utf8_fit(fit, sizeof(fit), cline, (size_t)TT_MAX(g->w - 2, 0));
			tt_grid_put(g, 1, ly, TT_ROLE_HEADER, fit, g->w - 2);
		} else {
			tt_grid_put(g, 1, ly, TT_ROLE_DIM,
				    "matching the collectives across the ranks... (keys answer meanwhile)",
				    g->w - 2);
		}
	} else if (legend) {
		tl_draw_legend(g, 1, y + h - 1, g->w - 2);
	}
	/* looked at again while results it shows are being computed */
	p->waiting = s->want_flags || s->want_coll;
}
