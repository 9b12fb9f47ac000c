/* The timeline's summary mode: the whole job on one time axis, a row per
 * rank (its GPU streams merged), each unfolding into its streams and
 * threads.  When the ranks do not fit on the screen, consecutive ranks
 * share a row (a group), drawn by their worst cell or their mean; a group
 * unfolds into its ranks.  The ranks that stand out (the heatmap's
 * outliers: tracetop/ranks.h) are marked '!' and, when ranks are grouped,
 * keep a row of their own.  Called by tlrows.c; calls nothing of the pane
 * back (timeline_int.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/ranklist.h"
#include "tracetop/ranks.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "timeline_int.h"

/* ranks that stand out kept on rows of their own: at most a third of the
 * rows, the strongest first */
#define SINGLES_OF(page) ((size_t)((page) / 3))

void tl_ranks_alloc(struct tl_state *s)
{
	if (s->open)
		return;
	size_t n = s->nrks + 1;
	s->open = tt_calloc(n, sizeof(*s->open));
	s->gopen = tt_calloc(n, sizeof(*s->gopen));
	s->flag = tt_calloc(n, sizeof(*s->flag));
	s->strong = tt_calloc(n, sizeof(*s->strong));
	s->nstrong = 0;
	s->rank_row = tt_malloc(n * sizeof(*s->rank_row));
	s->trk_lo = tt_malloc(n * sizeof(*s->trk_lo));
	s->trk_hi = tt_malloc(n * sizeof(*s->trk_hi));
}

void tl_ranks_free(struct tl_state *s)
{
	free(s->open);
	free(s->gopen);
	free(s->flag);
	free(s->strong);
	free(s->rank_row);
	free(s->trk_lo);
	free(s->trk_hi);
	free(s->rkpos);
	s->open = s->gopen = NULL;
	s->flag = NULL;
	s->strong = NULL;
	s->rank_row = s->trk_lo = s->trk_hi = s->rkpos = NULL;
}

bool tl_rank_flags(struct tl_state *s)
{
	if (s->flags_in)
		return false;
	struct tt_app *a = s->pane ? s->pane->app : NULL;
	/* the app's results are of its ranks and model: a timeline over
	 * another model (a half of the split timeline) has none */
	if (!a || !a->res || tt_results_model(a->res) != s->cache->m || s->nrks < 2 || !s->rkpos) {
		s->flags_in = true;
		return false;
	}
	if (a->async && !tt_results_ready(a->res, TT_RES_RANKS)) {
		enum tt_rkind k = TT_RES_RANKS;
		tt_results_want(a->res, &k, 1);
		s->want_flags = true; /* (the pane is looked at again ten times a second) */
		return false;
	}
	s->want_flags = false;
	s->flags_in = true;
	const struct tt_ranks *rs = tt_res_ranks(a->res);
	struct tt_outlier *o = NULL;
	size_t n = tt_ranks_outliers(rs, -1, true, &o);
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		size_t ri = rs->rows[o[i].i].ri;
		size_t k = ri < s->cache->m->nranks ? s->rkpos[ri] : SIZE_MAX;
		if (k == SIZE_MAX || s->flag[k])
			continue;
		s->flag[k] = (uint8_t)(1 + o[i].metric);
		s->strong[s->nstrong++] = k;
		any = true;
	}
	free(o);
	return any;
}

/* ---- labels ---- */

static const char *fold_glyph(const struct tl_state *s, bool open)
{
	if (s->half)
		return ""; /* (the split timeline's halves do not fold) */
	if (tt_render_ascii())
		return open ? "- " : "+ ";
	return open ? "\xE2\x96\xBE " : "\xE2\x96\xB8 "; /* ▾ ▸ */
}

static void rank_label(const struct tl_state *s, size_t i, struct tl_row *row, bool inner)
{
	const struct tt_rank *r = s->rks[i]->r;
	const struct tl_sum *sum = &s->sums[i];
	const char *ind = inner ? " " : "";
	if (s->flag[i]) {
		snprintf(row->label, sizeof(row->label), "%s%sr%lld ! %s", ind, fold_glyph(s, row->open),
			 (long long)r->rank, tt_rmetric_name((enum tt_rmetric)(s->flag[i] - 1)));
		return;
	}
	bool gpu = sum->v[0]->tr->kind == TT_TRACK_GPU;
	snprintf(row->label, sizeof(row->label), "%s%sr%lld %zu %s", ind, fold_glyph(s, row->open),
		 (long long)r->rank, sum->n,
		 gpu ? (sum->n == 1 ? "stream" : "streams") : (sum->n == 1 ? "thread" : "threads"));
}

/* ---- rows ---- */

static struct tl_row *add_row(struct tl_state *s, size_t rki, size_t nrk, enum tl_kind kind)
{
	struct tl_row *row = &s->rows[s->nrows++];
	memset(row, 0, sizeof(*row));
	row->rki = rki;
	row->nrk = nrk;
	row->rk = s->rks[rki];
	row->kind = (uint8_t)kind;
	return row;
}

/* rank i's summary row, and its tracks when it is unfolded */
static void emit_rank(struct tl_state *s, size_t i, bool inner)
{
	struct tl_row *row = add_row(s, i, 1, TL_ROW_RANK);
	row->open = s->open[i];
	row->flag = s->flag[i] != 0;
	rank_label(s, i, row, inner);
	if (!s->open[i])
		return;
	struct tl_rank *rk = s->rks[i];
	const struct tt_rank *r = rk->r;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		if (!tl_track_shown(r, &r->tracks[t], false))
			continue;
		struct tl_row *tr = add_row(s, i, 1, TL_ROW_TRACK);
		tr->src = &rk->src[t];
		tr->tr = &r->tracks[t];
		char lab[80];
		tt_track_label(r, tr->tr, lab, sizeof(lab));
		snprintf(tr->label, sizeof(tr->label), "r%lld %s", (long long)r->rank, lab);
	}
}

/* ranks e[0..n) (rks entries, in order) as one group row, and its ranks
 * when it is unfolded */
static void emit_group(struct tl_state *s, const size_t *e, size_t n)
{
	if (n == 1) {
		emit_rank(s, e[0], false);
		return;
	}
	bool open = false, flag = false;
	for (size_t k = 0; k < n; k++) {
		open = open || s->gopen[e[k]];
		flag = flag || s->flag[e[k]];
	}
	/* a group's ranks are consecutive entries of rks (the ranks without a
	 * row never sit inside one: see tl_rank_rows) */
	struct tl_row *row = add_row(s, e[0], n, TL_ROW_GROUP);
	row->open = open;
	row->flag = flag;
	snprintf(row->label, sizeof(row->label), "%sr%lld-%lld%s %s", fold_glyph(s, open),
		 (long long)s->rks[e[0]]->r->rank, (long long)s->rks[e[n - 1]]->r->rank,
		 flag ? " !" : "", s->group == TL_GRP_MEAN ? "mean" : "worst");
	if (!open)
		return;
	for (size_t k = 0; k < n; k++)
		emit_rank(s, e[k], true);
}

/* Rows for runs of lengths run[0..nrun) sharing `room` rows: one each,
 * then each spare row to the run with the most ranks a row (the first of
 * equals), never more rows than a run has ranks.  Into rows[0..nrun).
 * Costs room x nrun (both bounded by the rows on screen). */
static void share_rows(const size_t *run, size_t nrun, size_t room, size_t *rows)
{
	for (size_t i = 0; i < nrun; i++)
		rows[i] = 1;
	for (size_t spare = room > nrun ? room - nrun : 0; spare > 0; spare--) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < nrun; i++) {
			if (rows[i] >= run[i])
				continue;
			/* ceil(run / rows), compared without dividing */
			if (best == SIZE_MAX ||
			    (run[i] + rows[i] - 1) / rows[i] > (run[best] + rows[best] - 1) / rows[best])
				best = i;
		}
		if (best == SIZE_MAX)
			break;
		rows[best]++;
	}
}

void tl_rank_rows(struct tl_state *s)
{
	/* the ranks with a row: those with a track to summarise */
	size_t *e = tt_malloc((s->nrks + 1) * sizeof(*e));
	size_t ne = 0;
	for (size_t i = 0; i < s->nrks; i++)
		if (s->sums[i].n)
			e[ne++] = i;
	size_t page = (size_t)TT_MAX(s->rows_page, 1);
	s->per_row = 1;
	if (s->group == TL_GRP_OFF || ne <= page) {
		for (size_t i = 0; i < ne; i++)
			emit_rank(s, e[i], false);
		free(e);
		return;
	}
	/* the strongest ranks that stand out on rows of their own, the runs
	 * of ranks between them sharing the other rows */
	bool *single = tt_calloc(s->nrks + 1, sizeof(*single));
	size_t nsingle = 0;
	for (size_t i = 0; i < s->nstrong && nsingle < SINGLES_OF(page); i++)
		if (s->sums[s->strong[i]].n) {
			single[s->strong[i]] = true;
			nsingle++;
		}
	size_t *run = tt_malloc((ne + 1) * sizeof(*run));
	size_t nrun = 0, len = 0;
	for (size_t i = 0; i <= ne; i++) {
		/* a rank without a row breaks a run too, so that a group is
		 * consecutive entries of rks */
		bool brk = i == ne || single[e[i]] || (i > 0 && e[i] != e[i - 1] + 1);
		if (brk && len) {
			run[nrun++] = len;
			len = 0;
		}
		if (i < ne && !single[e[i]])
			len++;
	}
	size_t room = page > nsingle ? page - nsingle : 1;
	size_t *share = tt_malloc((nrun + 1) * sizeof(*share));
	share_rows(run, nrun, room, share);
	/* the rows, in rank order: each run's ranks spread evenly over its rows */
	size_t i = 0, ir = 0;
	while (i < ne) {
		if (single[e[i]]) {
			emit_rank(s, e[i], false);
			i++;
			continue;
		}
		size_t rl = run[ir], rows = share[ir];
		ir++;
		for (size_t q = 0; q < rows; q++) {
			size_t a = q * rl / rows, b = (q + 1) * rl / rows;
			emit_group(s, e + i + a, b - a);
			s->per_row = TT_MAX(s->per_row, b - a);
		}
		i += rl;
	}
	free(share);
	free(run);
	free(single);
	free(e);
}

void tl_rank_title(struct tl_state *s)
{
	struct tt_pane *p = s->pane;
	const struct tt_model *m = s->cache->m;
	if (!p)
		return;
	if (s->nrks == 1) {
		snprintf(p->subtitle, sizeof(p->subtitle), "rank %lld", (long long)s->rks[0]->r->rank);
		return;
	}
	int64_t *v = tt_malloc((s->nrks + 1) * sizeof(*v));
	for (size_t i = 0; i < s->nrks; i++)
		v[i] = s->rks[i]->r->rank;
	char list[64];
	tt_ranks_format(v, s->nrks, list, sizeof(list));
	free(v);
	int k;
	if (s->nrks == m->nranks)
		k = snprintf(p->subtitle, sizeof(p->subtitle), "all %zu ranks (%s)", s->nrks, list);
	else
		k = snprintf(p->subtitle, sizeof(p->subtitle), "ranks %s (%zu of %zu)", list, s->nrks,
			     m->nranks);
	if (k > 0 && (size_t)k < sizeof(p->subtitle) && s->mode == TL_RANKS && s->per_row > 1)
		snprintf(p->subtitle + k, sizeof(p->subtitle) - (size_t)k, ", up to %zu a row by their %s",
			 s->per_row, s->group == TL_GRP_MEAN ? "mean" : "worst");
}
