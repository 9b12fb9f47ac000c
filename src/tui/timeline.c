/* The timeline pane: every rank chosen on one time axis -- a summary row
 * per rank (or per group of ranks when they do not fit), each unfolding
 * into a row per GPU stream and CPU thread; or the GPU streams of every
 * rank; or every stream and thread -- time left to right, each cell drawn
 * with the class painted over most of it.  src/render/raster.c does the
 * exact rasterising, tlwindow.c the window maths, tltracks.c the track
 * index, tlhits.c the highlighted events (search matches, a set another
 * pane hands over); tlrows.c the rows and the events on them, tlranks.c
 * the summary rows, groups and folding, tlcells.c the summary rows' cells,
 * tlkeys.c the keys (links, search, jump), tldraw.c the drawing; this file
 * opens the pane and holds its ops (timeline_int.h: the state they share).
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
#include "timeline_int.h"

/* ---- opening ---- */

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
	/* the ranks shown on the side in view (a diff pairs the Test's) */
	const int64_t *sel = a->ropts.a.ranks;
	size_t nsel = sel ? a->ropts.a.nranks : 0;
	bool many = false;
	if (!s->top)
		for (size_t i = 0; i < nsel; i++)
			if (pane_rank_index(m, sel[i]) == s->ri)
				many = nsel > 1;
	if (s->hits.n) {
		/* a set handed over: the ranks of its events, in the model's order */
		for (size_t i = 0; i < m->nranks; i++)
			for (size_t k = 0; k < s->hits.n; k++)
				if (s->hits.v[k].ri == i) {
					add_rank(s, i);
					break;
				}
	} else if (s->top && !nsel) {
		/* the whole job */
		s->rks = tt_realloc_array(s->rks, m->nranks + 1, sizeof(*s->rks));
		for (size_t i = 0; i < m->nranks; i++)
			s->rks[s->nrks++] = tl_cache_rank(s->cache, i);
	} else if (s->top || many) {
		/* the selected ranks, in the model's order */
		for (size_t i = 0; i < m->nranks; i++)
			for (size_t k = 0; k < nsel; k++)
				if (m->ranks[i]->rank == sel[k])
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
	s->cache = tl_shared_cache(a, a->m);
	if (!s->cache || s->cache->m != a->m) {
		if (!s->own)
			s->own = tl_cache_new(a->m);
		s->cache = s->own;
	}
	pick_ranks(s, a);
	s->sums = tt_calloc(s->nrks + 1, sizeof(*s->sums));
	/* the pane of key 9 over several ranks: a summary row per rank;
	 * opened at an event or a set: every row of its ranks */
	s->mode = s->top && s->nrks > 1 ? TL_RANKS : TL_ALL;
	s->titled = s->top;
	s->rows_page = a->h > 12 ? a->h - 8 : 16; /* until the first draw says */
	tl_make_rows(s);
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
	if (!s->top)
		snprintf(p->subtitle, sizeof(p->subtitle), "timeline %s", ranks);
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
	struct tl_last *last = tt_ui_shared(a, tl_last_tag);
	if (s->hits.n) {
		s->ri = s->hits.v[0].ri;
		s->ev = s->hits.v[0].ev;
		r0 = a->m->ranks[s->ri];
		s->hits.cur = 0;
	}
	size_t rki0 = r0 ? tl_rks_of(s, r0) : SIZE_MAX;
	if (s->ev != TT_NONE && r0 && s->ev < r0->nev &&
	    tl_reveal(s, rki0, r0->ev[s->ev].track) != SIZE_MAX) {
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
		s->row = tl_row_of(s, r0, e->track);
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
		if (tl_rank_row(s, rki0) < s->nrows)
			s->row = tl_rank_row(s, rki0);
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
	tl_cells_free(s);
	tl_ranks_free(s);
	for (size_t i = 0; s->sums && i < s->nrks; i++)
		free(s->sums[i].v);
	free(s->sums);
	free(s->rks);
	free(s->rows);
	free(s->cells);
	tl_hits_clear(&s->hits);
	free(s);
}

const struct tt_pane_ops tt_timeline_ops = {
	.name = "timeline",
	.title = "Timeline",
	.help = "The trace itself, every rank on one time axis, times counted from the job's first "
		"event.  Over several ranks (the rank choice: r picks, a shows all) it opens on a "
		"summary row per rank: its GPU streams merged, each cell the class with the most "
		"time over them.  Enter (or o) unfolds a rank into a row per GPU stream and CPU "
		"thread, Enter or o again folds it; o folds the rank of any of its rows.  When the "
		"ranks do not fit on the screen, consecutive ranks share a row (r0-31): each cell "
		"their worst (idle first, then communication, memory, compute) or, z, their mean "
		"(the class with the most time over them all); the cursor line counts the ranks "
		"showing each class in the cursor's cell; Enter unfolds a group into its ranks; z "
		"again gives every rank its own row.  The ranks that stand out (the heatmap's "
		"outliers) are marked '!' with their metric and keep a row of their own.  R cycles "
		"the rows: a summary per rank, the GPU streams of every rank, every stream and "
		"thread.  Each cell shows the class painted over most of it, the innermost event "
		"winning: # compute, = communication, + memory, o CPU op, r runtime call, ~ other, "
		"- annotation (ProfilerStep and record_function ranges, drawn only where nothing "
		"else runs), . idle; * marks a cell where many tiny events start.  A cell that "
		"holds any event, however short, shows its class.  Moving: h/l move the cursor a "
		"cell, H/L (or C-u/C-d) pan half a window, g/G go to the start/end, + and - zoom "
		"around the cursor, = fits the whole span (the window never leaves the trace), j/k "
		"change rows, J/K jump to the next/previous rank.  Finding: / searches event names "
		"on every rank shown, folded or not (text, or re:regex; case ignored), n/N go to "
		"the next/previous match, unfolding its rank; : or t goes to a time (12.5ms, 1.2s, "
		"+30ms from the cursor, step 3 for the start of ProfilerStep#3) or a rank (rank 5, "
		"r5).  Events: Tab and S-Tab step through the events of the row, Enter shows the "
		"event selected or under the cursor, c follows links (kernel -> the runtime call "
		"that launched it -> its op -> back; Esc goes back one jump); the selected kernel's "
		"launch is marked ^ and its op [ ] on their CPU rows, a runtime call's kernel v.  "
		"Collectives: with a communication kernel under the cursor, the cursor line names "
		"its collective (allreduce #12 of pg 0: the same process group and place in its "
		"sequence on every rank, as tracetop report collectives matches them), its part on "
		"every rank is highlighted with the last arrival drawn across them ('a' and 'A' on "
		"the ticks: the first and the last arrival), and the bottom line says who arrived "
		"last and how long the others waited; w goes to the rank that arrived last (Esc: "
		"back).  "
		"Ranges: m sets a mark and shows the time to the cursor and the gap between their "
		"events, M marks the event under the cursor (mark at its start, cursor at its end), "
		"A shows what ran between the mark and the cursor on every rank shown, a row per "
		"rank.  With --diff, d switches the side shown (Control, Test, side by side: the "
		"Control's), and D opens the split "
		"timeline: the Control rank above, the Test rank below, aligned at the start of the "
		"same ProfilerStep.  Mouse: click selects, the wheel scrolls rows, Ctrl- or "
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
				const struct tt_tl_span *sp, size_t nsp, const char *what)
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
	if (sp && nsp)
		tl_hits_spans(&s->hits, sp, nsp);
	return p;
}

struct tt_pane *tt_timeline_like(struct tt_app *a, size_t ri)
{
	struct tt_pane *p = tt_timeline_new(a, ri, TT_NONE, 0);
	((struct tl_state *)p->state)->like = true;
	return p;
}
