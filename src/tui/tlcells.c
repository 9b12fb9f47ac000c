/* The cells of the timeline's summary and group rows: each rank's summary
 * (its summary tracks merged, tt_raster_merge) and each group's mean over
 * the window in view, kept until the window changes, so that a key that
 * does not move the window redraws them for nothing, and computed on
 * several threads when there are many (a job of a thousand ranks in
 * groups puts every rank on screen).  Called by tldraw.c; calls tlrows.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/pool.h"
#include "tracetop/raster.h"
#include "tracetop/util.h"
#include "timeline_int.h"

struct tl_cells {
	int64_t t0, t1;
	int w, cap;        /* cells of the window; cells per entry allocated */
	size_t n;          /* rks entries */
	unsigned gen;      /* of the window; an entry is current when its gen is */
	unsigned *rgen;    /* per rks entry: its summary */
	bool *queued;      /* (tl_cells_prepare: its summary is a job already) */
	struct tt_rcell *rc;
	unsigned *mgen;    /* per rks entry, as a group's first rank: the group's mean */
	size_t *mnrk;      /* (of a group of that many ranks) */
	struct tt_rcell *mc;
};

void tl_cells_free(struct tl_state *s)
{
	struct tl_cells *c = s->cc;
	if (!c)
		return;
	free(c->rgen);
	free(c->queued);
	free(c->rc);
	free(c->mgen);
	free(c->mnrk);
	free(c->mc);
	free(c);
	s->cc = NULL;
}

/* the cache for window [t0, t1) in w cells: emptied when it changed */
static struct tl_cells *cells_for(struct tl_state *s, int64_t t0, int64_t t1, int w)
{
	struct tl_cells *c = s->cc;
	if (!c) {
		c = s->cc = tt_calloc(1, sizeof(*c));
		c->n = s->nrks;
		c->rgen = tt_calloc(c->n + 1, sizeof(*c->rgen));
		c->queued = tt_calloc(c->n + 1, sizeof(*c->queued));
		c->mgen = tt_calloc(c->n + 1, sizeof(*c->mgen));
		c->mnrk = tt_calloc(c->n + 1, sizeof(*c->mnrk));
		c->gen = 1;
	}
	if (c->t0 == t0 && c->t1 == t1 && c->w == w)
		return c;
	if (w > c->cap) {
		free(c->rc);
		free(c->mc);
		c->cap = w;
		c->rc = tt_malloc((c->n + 1) * (size_t)w * sizeof(*c->rc));
		c->mc = tt_malloc((c->n + 1) * (size_t)w * sizeof(*c->mc));
	}
	c->t0 = t0;
	c->t1 = t1;
	c->w = w;
	if (++c->gen == 0) {
		memset(c->rgen, 0, (c->n + 1) * sizeof(*c->rgen));
		memset(c->mgen, 0, (c->n + 1) * sizeof(*c->mgen));
		c->gen = 1;
	}
	return c;
}

/* one piece of work: rank rki's summary, or the mean of the group of nrk
 * ranks from rki */
struct job {
	size_t rki, nrk;
	bool mean;
};

struct work {
	struct tl_state *s;
	struct tl_cells *c;
	struct job *v;
};

static void run_job(size_t i, void *ctx)
{
	struct work *wk = ctx;
	const struct tl_state *s = wk->s;
	struct tl_cells *c = wk->c;
	const struct job *j = &wk->v[i];
	size_t n = 0;
	for (size_t k = j->rki; k < j->rki + j->nrk; k++)
		n += s->sums[k].n;
	const struct tt_rix **ix = tt_malloc((n + 1) * sizeof(*ix));
	n = 0;
	for (size_t k = j->rki; k < j->rki + j->nrk; k++)
		for (size_t q = 0; q < s->sums[k].n; q++)
			if (s->sums[k].v[q]->ix) /* (all indexed before: tl_cells_prepare) */
				ix[n++] = s->sums[k].v[q]->ix;
	struct tt_rcell *out = (j->mean ? c->mc : c->rc) + j->rki * (size_t)c->cap;
	tt_raster_merge(ix, n, c->t0, c->t1, c->w, out);
	free(ix);
	if (j->mean) {
		c->mnrk[j->rki] = j->nrk;
		c->mgen[j->rki] = c->gen;
	} else {
		c->rgen[j->rki] = c->gen;
	}
}

static void add_job(struct job **v, size_t *n, size_t *cap, struct job j)
{
	TT_GROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = j;
}

/* the jobs of row `ri` not done for this window nor queued yet */
static size_t row_jobs(struct tl_state *s, struct tl_cells *c, size_t ri, struct job **v,
		       size_t *n, size_t *cap)
{
	const struct tl_row *row = &s->rows[ri];
	size_t tracks = 0;
	if (row->kind == TL_ROW_TRACK)
		return 0;
	/* a rank; a group: its ranks (for its worst, and for the cursor line's
	 * counts), and its mean besides when drawn so */
	for (size_t k = row->rki; k < row->rki + row->nrk; k++)
		if (c->rgen[k] != c->gen && !c->queued[k]) {
			c->queued[k] = true;
			add_job(v, n, cap, (struct job){.rki = k, .nrk = 1, .mean = false});
			tracks += s->sums[k].n;
		}
	if (row->kind == TL_ROW_GROUP && s->group == TL_GRP_MEAN &&
	    (c->mgen[row->rki] != c->gen || c->mnrk[row->rki] != row->nrk)) {
		add_job(v, n, cap, (struct job){.rki = row->rki, .nrk = row->nrk, .mean = true});
		for (size_t k = row->rki; k < row->rki + row->nrk; k++)
			tracks += s->sums[k].n;
	}
	return tracks;
}

void tl_cells_prepare(struct tl_state *s, size_t from, size_t to, size_t cur, int64_t t0,
		      int64_t t1, int w)
{
	struct tl_cells *c = cells_for(s, t0, t1, w);
	struct job *v = NULL;
	size_t n = 0, cap = 0, tracks = 0;
	to = TT_MIN(to, s->nrows);
	for (size_t i = from; i < to; i++)
		tracks += row_jobs(s, c, i, &v, &n, &cap);
	if (cur < s->nrows && (cur < from || cur >= to))
		tracks += row_jobs(s, c, cur, &v, &n, &cap);
	for (size_t i = 0; i < n; i++)
		c->queued[v[i].rki] = false;
	if (!n)
		return;
	/* every track indexed first: the jobs only read */
	tl_build_rows(s, from, to);
	if (cur < s->nrows)
		tl_build_rows(s, cur, cur + 1);
	struct work wk = {s, c, v};
	int threads = (uint64_t)tracks * (uint64_t)w > 20000 ? TT_MIN(tt_ncpus(), 8) : 1;
	tt_parallel_for(n, threads, run_job, &wk);
	free(v);
}

const struct tt_rcell *tl_cells_rank(const struct tl_state *s, size_t rki)
{
	const struct tl_cells *c = s->cc;
	if (!c || rki >= c->n || c->rgen[rki] != c->gen)
		return NULL;
	return c->rc + rki * (size_t)c->cap;
}

bool tl_cells_row(const struct tl_state *s, const struct tl_row *row, struct tt_rcell *out)
{
	const struct tl_cells *c = s->cc;
	if (!c || row->kind == TL_ROW_TRACK)
		return false;
	if (row->kind == TL_ROW_GROUP && s->group == TL_GRP_MEAN) {
		if (c->mgen[row->rki] != c->gen || c->mnrk[row->rki] != row->nrk)
			return false;
		memcpy(out, c->mc + row->rki * (size_t)c->cap, (size_t)c->w * sizeof(*out));
		return true;
	}
	/* a rank; a group by its worst */
	for (size_t k = row->rki; k < row->rki + row->nrk; k++) {
		const struct tt_rcell *rc = tl_cells_rank(s, k);
		if (!rc)
			return false;
		if (k == row->rki)
			memcpy(out, rc, (size_t)c->w * sizeof(*out));
		else
			tt_raster_worst(out, rc, c->w);
	}
	return true;
}
