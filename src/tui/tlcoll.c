/* A collective lined up across the ranks: the communication kernel under
 * the timeline's cursor is looked up in the matched collectives (the typed
 * result tt_res_collectives, tracetop/collectives.h, that the job's critical
 * path reads too); its parts are marked on every rank's row, the last
 * arrival drawn across them, and two lines say which collective it is, who
 * arrived last and how long the others waited.  Called by tldraw.c and
 * tlkeys.c; calls tlrows.c. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/collectives.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "timeline_int.h"

const struct tt_coll *tl_colls(struct tl_state *s)
{
	struct tt_app *a = s->pane ? s->pane->app : NULL;
	s->want_coll = false;
	/* the app's results are of its model: a timeline over another (a half
	 * of the split timeline) has none */
	if (!a || !a->res || tt_results_model(a->res) != s->cache->m)
		return NULL;
	if (a->async && !tt_results_ready(a->res, TT_RES_COLL)) {
		enum tt_rkind k = TT_RES_COLL;
		tt_results_want(a->res, &k, 1);
		s->want_coll = true; /* (the pane is looked at again ten times a second) */
		return NULL;
	}
	return tt_res_collectives(a->res);
}

uint32_t tl_coll_part(struct tl_state *s, const struct tt_coll *c, size_t rki, uint32_t ev)
{
	if (!c || rki >= s->nrks || ev == TT_NONE)
		return TT_NONE;
	const struct tt_rank *r = s->rks[rki]->r;
	if (ev >= r->nev || r->tracks[r->ev[ev].track].kind == TT_TRACK_CPU)
		return TT_NONE;
	return tt_coll_part_of(c, s->rks[rki]->ri, ev);
}

uint32_t tl_coll_of_part(const struct tt_coll *c, uint32_t part)
{
	return c && part < c->nparts ? c->parts[part].coll : TT_NONE;
}

void tl_coll_text(const struct tl_state *s, const struct tt_coll *c, uint32_t part, int width,
		  char *head, size_t nh, char *line, size_t nl)
{
	const struct tt_coll_part *p = &c->parts[part];
	if (p->coll == TT_NONE || p->coll >= c->ncolls) {
		snprintf(head, nh, "%s, not lined up", p->name ? p->name : "collective");
		snprintf(line, nl, "%s",
			 p->p2p ? "point-to-point: the trace does not name its peer" :
				  "no other rank has it at this place of its group "
				  "(tracetop report collectives)");
		return;
	}
	const struct tt_coll_op *x = &c->colls[p->coll];
	tt_coll_label(c, p->coll, head, nh);
	if ((x->flags & (TT_COLL_MISMATCH | TT_COLL_MISSING)) || x->last >= c->nparts) {
		snprintf(line, nl, "not lined up: its ranks disagree here "
				   "(tracetop report collectives says how)");
		return;
	}
	if (x->n < 2) {
		snprintf(line, nl, "no other rank of its group is loaded");
		return;
	}
	const struct tt_coll_part *last = &c->parts[x->last];
	char late[32], mean[32];
	tt_fmt_dur(late, sizeof(late), x->t_last - x->t_first);
	/* the others: every member but the last, who waits for nobody */
	tt_fmt_dur(mean, sizeof(mean), x->wait_sum / (int64_t)(x->n - 1));
	int k = snprintf(line, nl, "rank %lld arrived %s after the first; %u rank%s waited %s on average",
			 (long long)last->rank, late, x->n - 1, x->n - 1 == 1 ? "" : "s", mean);
	char more[160] = "";
	size_t m = 0;
	if (x->flags & TT_COLL_PARTIAL)
		m += (size_t)snprintf(more + m, sizeof(more) - m, " (%u of %u members loaded)", x->n,
				      c->groups[x->group].nmembers);
	if (c->noffsets && m < sizeof(more)) {
		char off[32];
		tt_fmt_dur(off, sizeof(off), c->max_offset < 0 ? -c->max_offset : c->max_offset);
		m += (size_t)snprintf(more + m, sizeof(more) - m, "; clocks corrected by up to %s",
				      off);
	}
	/* what more there is to say, when it fits whole */
	if (k > 0 && (size_t)k < nl && k + (int)strlen(more) <= width)
		snprintf(line + k, nl - (size_t)k, "%s", more);
	/* the key, when it fits and leads elsewhere */
	k = (int)strlen(line);
	if (last->ri != p->ri && k + 16 <= width && (size_t)k < nl)
		snprintf(line + k, nl - (size_t)k, " (w: rank %lld)", (long long)last->rank);
	(void)s;
}

/* Cells [a, b) of the window on screen row y painted with role */
static void paint_span(struct tt_grid *g, int x, int y, int w, int64_t t0, int64_t t1, int64_t a,
		       int64_t b, enum tt_role role)
{
	if (b <= t0 || a >= t1)
		return;
	int k0 = TT_MAX(0, tt_raster_cell_of(t0, t1, w, TT_MAX(a, t0)));
	int k1 = TT_MIN(w - 1, tt_raster_cell_of(t0, t1, w, TT_MIN(TT_MAX(b - 1, a), t1 - 1)));
	if (k1 >= k0)
		tt_grid_paint(g, x + k0, y, k1 - k0 + 1, role);
}

void tl_coll_paint(struct tl_state *s, const struct tt_coll *c, uint32_t coll,
		   struct tt_grid *g, int x, int y0, int nvis, int w, int64_t t0, int64_t t1,
		   int tick_y)
{
	if (!c || coll >= c->ncolls)
		return;
	const struct tt_coll_op *op = &c->colls[coll];
	bool lined = !(op->flags & (TT_COLL_MISMATCH | TT_COLL_MISSING)) && op->last < c->nparts;
	for (uint32_t i = 0; i < op->n; i++) {
		const struct tt_coll_part *q = &c->parts[c->members[op->first + i]];
		size_t rki = q->ri < s->cache->m->nranks && s->rkpos ? s->rkpos[q->ri] : SIZE_MAX;
		if (rki == SIZE_MAX)
			continue;
		/* its stream's row, else the row standing for its rank */
		size_t row = tl_row_of_rki(s, rki, q->track);
		if (row == SIZE_MAX)
			row = tl_rank_row(s, rki);
		if (row == SIZE_MAX || row < s->top_row || row >= s->top_row + (size_t)nvis)
			continue;
		int y = y0 + (int)(row - s->top_row);
		paint_span(g, x, y, w, t0, t1, q->ts, TT_MAX(q->end, q->ts + 1), TT_ROLE_TL_COLL);
		if (!lined)
			continue;
		/* the last arrival, on this rank's clock: its wait ends there */
		int64_t at = op->t_last + (q->ts - q->arrival);
		int k = tt_raster_cell_of(t0, t1, w, at);
		if (k >= 0 && k < w)
			tt_grid_paint(g, x + k, y, 1, TT_ROLE_TL_MARK);
	}
	/* the first and the last arrival on the tick row (the job's clock) */
	if (lined && tick_y >= 0) {
		int kf = tt_raster_cell_of(t0, t1, w, op->t_first);
		int kl = tt_raster_cell_of(t0, t1, w, op->t_last);
		if (kf >= 0 && kf < w && kf != kl)
			tt_grid_put(g, x + kf, tick_y, TT_ROLE_TL_MARK, "a", 1);
		if (kl >= 0 && kl < w)
			tt_grid_put(g, x + kl, tick_y, TT_ROLE_TL_MARK, "A", 1);
	}
}
