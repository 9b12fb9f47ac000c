/* The timeline's rows: the tracks each row draws and their indexes, the
 * events on a row (the one under the cursor, stepping, names), and the
 * rows of each mode.  Used by timeline.c, tlkeys.c and tldraw.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/raster.h"
#include "tracetop/steps.h"
#include "tracetop/util.h"
#include "timeline_int.h"

/* ---- rows and their tracks ---- */

/* The tracks a row draws: one, or a rank's summary set (none on a group
 * row: its ranks' summary sets are s->sums[rki, rki + nrk)). */
struct tl_src *const *tl_row_srcs(const struct tl_state *s, const struct tl_row *row,
				  size_t *n)
{
	if (row->src) {
		*n = 1;
		return &row->src;
	}
	if (row->kind == TL_ROW_GROUP) {
		*n = 0;
		return NULL;
	}
	*n = s->sums[row->rki].n;
	return s->sums[row->rki].v;
}

/* Index the tracks of rows [from, to) that have no index yet (on several
 * threads when there is much to do). */
void tl_build_rows(struct tl_state *s, size_t from, size_t to)
{
	size_t cap = 64, n = 0;
	struct tl_src **v = tt_malloc(cap * sizeof(*v));
	for (size_t i = from; i < to && i < s->nrows; i++) {
		const struct tl_row *row = &s->rows[i];
		/* a row's tracks; a group's: its ranks' summary sets */
		bool grp = row->kind == TL_ROW_GROUP;
		for (size_t q = grp ? row->rki : 0; q < (grp ? row->rki + row->nrk : 1); q++) {
			size_t k = 0;
			struct tl_src *const *srcs = grp ? s->sums[q].v : tl_row_srcs(s, row, &k);
			if (grp)
				k = s->sums[q].n;
			for (size_t j = 0; j < k; j++) {
				struct tl_src *src = srcs[j];
				/* (a track is on one row only, but a rank's
				 * summary row may be on screen with its tracks) */
				if (src->ix || src->queued)
					continue;
				src->queued = true;
				TT_GROW(v, cap, n + 1);
				v[n++] = src;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		v[i]->queued = false;
	if (!n) {
		free(v);
		return;
	}
	struct tl_index_stats st;
	tl_index(s->cache, v, n, &st);
	free(v);
	if (st.ns > 100000000) {
		char mb[32];
		tt_fmt_bytes(mb, sizeof(mb), (double)st.bytes);
		tt_ui_status(s->pane->app, TT_ROLE_DIM,
			     "indexed %llu events of %zu tracks in %lld ms (%s, once per track)",
			     (unsigned long long)st.events, n, (long long)(st.ns / 1000000), mb);
	}
}

struct tt_rix *tl_src_ix(struct tl_state *s, struct tl_row *row, struct tl_src *src)
{
	if (!src->ix)
		tl_build_rows(s, (size_t)(row - s->rows), (size_t)(row - s->rows) + 1);
	return src->ix;
}

/* ---- events on a row ---- */

const struct tt_rank *tl_row_rank(const struct tl_row *row)
{
	return row->rk->r;
}

/* first event of track tr with ts >= t (a rank event index) */
static uint32_t tl_lower_ts(const struct tt_rank *r, const struct tt_track *tr, int64_t t)
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

static bool tl_drawn(const struct tl_rank *rk, uint32_t ev)
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
uint32_t tl_under_cursor(struct tl_state *s)
{
	if (!s->nrows)
		return TT_NONE;
	if (s->sel != TT_NONE)
		return s->sel;
	struct tl_row *row = &s->rows[s->row];
	if (row->kind == TL_ROW_GROUP)
		return TT_NONE; /* several ranks: no one event */
	const struct tt_rank *r = tl_row_rank(row);
	size_t n;
	struct tl_src *const *srcs = tl_row_srcs(s, row, &n);
	uint32_t bg = TT_NONE;
	for (size_t j = 0; j < n; j++) {
		struct tt_rpoint pt;
		tt_rix_at(tl_src_ix(s, row, srcs[j]), s->v.tc, &pt);
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
			for (uint32_t i = tl_lower_ts(r, tr, a), c = 0; i < end && r->ev[i].ts < b && c < 1000;
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

size_t tl_rks_of(const struct tl_state *s, const struct tt_rank *r)
{
	for (size_t i = 0; i < s->nrks; i++)
		if (s->rks[i]->r == r)
			return i;
	return SIZE_MAX;
}

/* is track `track` of rks entry rki in its summary set? */
static bool in_summary(const struct tl_state *s, size_t rki, uint32_t track)
{
	const struct tt_track *tr = &s->rks[rki]->r->tracks[track];
	for (size_t j = 0; j < s->sums[rki].n; j++)
		if (s->sums[rki].v[j]->tr == tr)
			return true;
	return false;
}

size_t tl_row_of_rki(const struct tl_state *s, size_t rki, uint32_t track)
{
	if (rki >= s->nrks || !s->rank_row || track >= s->rks[rki]->r->ntracks)
		return SIZE_MAX;
	const struct tt_track *tr = &s->rks[rki]->r->tracks[track];
	for (size_t i = s->trk_lo[rki]; i < s->trk_hi[rki]; i++)
		if (s->rows[i].tr == tr)
			return i;
	size_t rr = s->rank_row[rki];
	if (rr != SIZE_MAX && s->rows[rr].kind == TL_ROW_RANK && in_summary(s, rki, track))
		return rr;
	return SIZE_MAX;
}

/* the row showing event ev of rank r (its track's, or its rank's summary
 * row), or SIZE_MAX */
size_t tl_row_of(const struct tl_state *s, const struct tt_rank *r, uint32_t track)
{
	return tl_row_of_rki(s, tl_rks_of(s, r), track);
}

size_t tl_rank_row(const struct tl_state *s, size_t rki)
{
	if (rki >= s->nrks || !s->rank_row)
		return SIZE_MAX;
	if (s->rank_row[rki] != SIZE_MAX)
		return s->rank_row[rki];
	return s->trk_lo[rki] < s->trk_hi[rki] ? s->trk_lo[rki] : SIZE_MAX;
}

bool tl_row_has(const struct tl_row *row, size_t rki)
{
	return rki >= row->rki && rki < row->rki + row->nrk;
}

size_t tl_reveal(struct tl_state *s, size_t rki, uint32_t track)
{
	if (rki >= s->nrks)
		return SIZE_MAX;
	if (s->mode == TL_RANKS) {
		bool changed = false;
		size_t rr = s->rank_row[rki];
		if (rr != SIZE_MAX && s->rows[rr].kind == TL_ROW_GROUP) {
			s->gopen[rki] = true;
			changed = true;
		}
		if (!s->open[rki]) {
			s->open[rki] = true;
			changed = true;
		}
		if (changed)
			tl_make_rows(s);
	}
	return tl_row_of_rki(s, rki, track);
}

/* the group row holding rks entry rki, or SIZE_MAX */
static size_t group_row(const struct tl_state *s, size_t rki)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].kind == TL_ROW_GROUP && tl_row_has(&s->rows[i], rki))
			return i;
	return SIZE_MAX;
}

bool tl_fold(struct tl_state *s, size_t row)
{
	if (s->mode != TL_RANKS || row >= s->nrows)
		return false;
	const struct tl_row *r = &s->rows[row];
	size_t rki = r->rki;
	bool group = false;
	switch (r->kind) {
	case TL_ROW_GROUP:
		group = true;
		if (r->open)
			for (size_t k = r->rki; k < r->rki + r->nrk; k++)
				s->gopen[k] = false;
		else
			s->gopen[rki] = true;
		break;
	case TL_ROW_RANK:
		s->open[rki] = !s->open[rki];
		break;
	case TL_ROW_TRACK:
		s->open[rki] = false;
		break;
	}
	s->sel = TT_NONE;
	tl_make_rows(s);
	size_t to = group ? group_row(s, rki) : tl_rank_row(s, rki);
	s->row = to < s->nrows ? to : TT_MIN(row, s->nrows ? s->nrows - 1 : 0);
	return true;
}

const char *tl_ev_name(const struct tt_rank *r, uint32_t ev)
{
	return tt_ev_name(r, &r->ev[ev]);
}

/* move the cursor to event ev of rank r (its track unfolded); false if it
 * has no row */
bool tl_go_event(struct tl_state *s, const struct tt_rank *r, uint32_t ev)
{
	size_t ri = tl_reveal(s, tl_rks_of(s, r), r->ev[ev].track);
	if (ri == SIZE_MAX)
		return false;
	s->row = ri;
	s->sel = ev;
	s->v.tc = r->ev[ev].ts;
	tl_show_time(&s->v, s->v.tc);
	return true;
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

int tl_step_event(struct tt_pane *p, struct tl_state *s, int dir)
{
	struct tl_row *row = &s->rows[s->row];
	const struct tt_rank *r = tl_row_rank(row);
	uint32_t cur = s->sel != TT_NONE ? s->sel : tl_under_cursor(s);
	size_t n;
	struct tl_src *const *srcs = tl_row_srcs(s, row, &n);
	uint32_t best = TT_NONE;
	for (size_t j = 0; j < n; j++) {
		const struct tt_track *tr = srcs[j]->tr;
		uint32_t first = tr->first, end = first + tr->count, i;
		uint32_t ti = (uint32_t)(tr - r->tracks);
		if (dir > 0) {
			if (cur == TT_NONE)
				i = tl_lower_ts(r, tr, s->v.tc + 1);
			else if (r->ev[cur].track == ti)
				i = cur + 1;
			else
				i = tl_lower_ts(r, tr, r->ev[cur].ts + (ti < r->ev[cur].track ? 1 : 0));
			while (i < end && !tl_drawn(row->rk, i))
				i++;
			if (i < end && (best == TT_NONE || ev_before(r, i, best)))
				best = i;
		} else {
			if (cur == TT_NONE)
				i = tl_lower_ts(r, tr, s->v.tc);
			else if (r->ev[cur].track == ti)
				i = cur;
			else
				i = tl_lower_ts(r, tr, r->ev[cur].ts + (ti < r->ev[cur].track ? 1 : 0));
			bool found = false;
			while (i > first) {
				i--;
				if (tl_drawn(row->rk, i)) {
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

/* the ProfilerStep#N annotation of rank r (the first CPU one, else the
 * first), or TT_NONE */
uint32_t tl_find_step(const struct tt_rank *r, int64_t num)
{
	size_t n;
	const struct tt_step_ev *v = tt_step_index(r, &n);
	return tt_step_ev_find(v, n, num);
}

/* ---- the rows of a mode ---- */

const char tl_last_tag[] = "timeline last window";

/* where each rank's rows are (the maps of timeline_int.h) */
static void map_rows(struct tl_state *s)
{
	for (size_t i = 0; i < s->nrks; i++) {
		s->rank_row[i] = SIZE_MAX;
		s->trk_lo[i] = s->trk_hi[i] = 0;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		const struct tl_row *row = &s->rows[i];
		switch (row->kind) {
		case TL_ROW_GROUP:
			/* a folded group stands for its ranks; an unfolded one's
			 * ranks have rows of their own */
			if (!row->open)
				for (size_t k = row->rki; k < row->rki + row->nrk; k++)
					s->rank_row[k] = i;
			break;
		case TL_ROW_RANK:
			s->rank_row[row->rki] = i;
			break;
		case TL_ROW_TRACK:
			if (s->trk_lo[row->rki] == s->trk_hi[row->rki])
				s->trk_lo[row->rki] = i;
			s->trk_hi[row->rki] = i + 1;
			break;
		}
	}
}

/* The rows of the current mode.  The cursor stays on its rank (and track
 * when it has a row). */
void tl_make_rows(struct tl_state *s)
{
	tl_ranks_alloc(s);
	if (!s->rkpos) {
		const struct tt_model *m = s->cache->m;
		s->rkpos = tt_malloc((m->nranks + 1) * sizeof(*s->rkpos));
		for (size_t i = 0; i < m->nranks; i++)
			s->rkpos[i] = SIZE_MAX;
		for (size_t i = 0; i < s->nrks; i++)
			s->rkpos[s->rks[i]->ri] = i;
	}
	/* the mark's place: its rank and track */
	size_t mrki = SIZE_MAX;
	const struct tt_track *mtr = NULL;
	if (s->mark && s->mark_row < s->nrows) {
		mrki = s->rows[s->mark_row].rki;
		mtr = s->rows[s->mark_row].tr;
	}
	/* the cursor's place: its rank, its track (or the selected event's) */
	size_t crki = s->nrows ? s->rows[s->row].rki : SIZE_MAX;
	bool cgroup = s->nrows && s->rows[s->row].kind == TL_ROW_GROUP;
	const struct tt_rank *cr = s->nrows ? tl_row_rank(&s->rows[s->row]) : NULL;
	const struct tt_track *ctr = s->nrows ? s->rows[s->row].tr : NULL;
	if (!ctr && s->nrows && s->sel != TT_NONE && !cgroup)
		ctr = &cr->tracks[cr->ev[s->sel].track];
	size_t n = 0;
	for (size_t i = 0; i < s->nrks; i++)
		n += s->rks[i]->r->ntracks + 2;
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
					if (want && tl_track_has_work(r, tr))
						sum->v[sum->n++] = &rk->src[t];
				}
		}
	}
	if (s->mode == TL_RANKS) {
		tl_rank_rows(s);
	} else {
		for (size_t i = 0; i < s->nrks; i++) {
			struct tl_rank *rk = s->rks[i];
			const struct tt_rank *r = rk->r;
			for (uint32_t t = 0; t < r->ntracks; t++) {
				if (!tl_track_shown(r, &r->tracks[t], s->mode == TL_GPU))
					continue;
				struct tl_row *row = &s->rows[s->nrows++];
				row->rki = i;
				row->nrk = 1;
				row->kind = TL_ROW_TRACK;
				row->src = &rk->src[t];
				row->rk = rk;
				row->tr = &r->tracks[t];
				char lab[80];
				tt_track_label(r, row->tr, lab, sizeof(lab));
				snprintf(row->label, sizeof(row->label), "r%lld %s", (long long)r->rank,
					 lab);
			}
		}
	}
	map_rows(s);
	if (s->titled)
		tl_rank_title(s);
	/* the cursor's row again: its track's, its group's, else its rank's */
	size_t keep = SIZE_MAX;
	if (crki < s->nrks && ctr && !cgroup)
		keep = tl_row_of_rki(s, crki, (uint32_t)(ctr - cr->tracks));
	if (keep == SIZE_MAX && cgroup)
		keep = group_row(s, crki);
	if (keep == SIZE_MAX && crki < s->nrks)
		keep = tl_rank_row(s, crki);
	if (keep == SIZE_MAX || s->sel == TT_NONE || cgroup ||
	    tl_row_of_rki(s, crki, cr->ev[s->sel].track) != keep)
		s->sel = TT_NONE;
	s->row = keep == SIZE_MAX ? 0 : keep;
	if (s->mark) {
		size_t mk = mrki < s->nrks && mtr ?
				    tl_row_of_rki(s, mrki, (uint32_t)(mtr - s->rks[mrki]->r->tracks)) :
				    SIZE_MAX;
		if (mk == SIZE_MAX)
			mk = tl_rank_row(s, mrki);
		s->mark_row = mk < s->nrows ? mk : s->row;
	}
}
