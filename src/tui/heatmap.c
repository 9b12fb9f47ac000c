/* The heatmap pane: every rank as one cell, shaded by a metric, laid out by
 * rank number or by node; the ranks furthest from the median listed first
 * below it.  The shading is a glyph density ramp, so it reads without
 * colour (mono themes, screen dumps); colour themes add the roles of the
 * ramp's levels on top.  Everything is computed in open(); drawing only
 * places cells. */
#include "config.h"

#include "tracetop/ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/testing.h"
#include "tracetop/util.h"
#include "pane.h"

/* the density ramp: low to high; a rank without a value is blank */
static const char ramp[] = ".:-=+*#%@";
#define NLEVELS ((int)sizeof(ramp) - 1)
static const uint8_t level_role[NLEVELS] = {
	TT_ROLE_BAR_OTHER, TT_ROLE_BAR_OTHER, TT_ROLE_BAR,     TT_ROLE_BAR,   TT_ROLE_BAR_COMP,
	TT_ROLE_BAR_COMP,  TT_ROLE_BAR_COMM,  TT_ROLE_WARNING, TT_ROLE_WORSE,
};

struct heat_state {
	const struct tt_ranks *s; /* the app's results own it */
	int metric;
	size_t cur;              /* selected row of s->rows */
	int top;                 /* first grid line shown */
	struct tt_outlier *out;  /* the current metric's ranks by |z|, outliers first */
	size_t nout, nflagged;
	/* layout of the last draw */
	int w, cw, labelw, per_line, nlines, shown_lines;
	bool nodes;              /* laid out by node */
	int *line, *x;           /* per row: grid line and column */
};

static int heat_level(const struct tt_rdist *d, double v)
{
	if (isnan(v))
		return -1;
	if (!(d->max > d->min))
		return NLEVELS / 2;
	int l = (int)((v - d->min) / (d->max - d->min) * NLEVELS);
	return l < 0 ? 0 : l >= NLEVELS ? NLEVELS - 1 : l;
}

static void pick_metric(struct heat_state *st, int k)
{
	st->metric = k;
	free(st->out);
	st->nout = tt_ranks_outliers(st->s, k, false, &st->out);
	st->nflagged = 0;
	while (st->nflagged < st->nout && st->out[st->nflagged].flagged)
		st->nflagged++;
}

static int heat_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	struct heat_state *st = tt_calloc(1, sizeof(*st));
	p->state = st;
	st->s = tt_res_ranks(a->res);
	if (!st->s->n) {
		snprintf(p->msg, sizeof(p->msg), "no rank to show");
		return -1;
	}
	st->line = tt_calloc(st->s->n, sizeof(*st->line));
	st->x = tt_calloc(st->s->n, sizeof(*st->x));
	/* start on the metric with the strongest outlier */
	struct tt_outlier *o;
	size_t n = tt_ranks_outliers(st->s, -1, true, &o);
	pick_metric(st, n ? (int)o[0].metric : TT_RM_IDLE);
	st->cur = n ? o[0].i : 0;
	free(o);
	/* the table behind the cells: 'w' writes every rank's metrics */
	tt_pane_set_table(p, tt_ranks_table(st->s));
	/* (the Overview of many ranks: what bounds the job first) */
	pane_verdict_head(p);
	if (st->s->by_node)
		snprintf(p->subtitle, sizeof(p->subtitle), "%zu ranks on %zu nodes", st->s->n,
			 st->s->nnodes);
	else
		snprintf(p->subtitle, sizeof(p->subtitle), "%zu rank%s", st->s->n,
			 st->s->n == 1 ? "" : "s");
	return 0;
}

static void heat_close(struct tt_pane *p)
{
	struct heat_state *st = p->state;
	if (!st)
		return;
	free(st->out);
	free(st->line);
	free(st->x);
	free(st);
}

/* ---- layout ---- */

static int digits(int64_t v)
{
	int d = 1;
	for (v = v < 0 ? -v : v; v >= 10; v /= 10)
		d++;
	return d;
}

/* Cell positions for width w and cell width cw, returns the grid lines.
 * wide: as many cells per line as fit; else one node per line (nodes), or
 * about twice as many cells per line as lines (ranks). */
static int place(struct heat_state *st, int w, int cw, bool wide)
{
	const struct tt_ranks *s = st->s;
	st->cw = cw;
	/* by node when a node's cells fit on a line */
	st->nodes = s->by_node &&
		    (int)s->max_local * cw + 1 <= w - digits((int64_t)s->nnodes) - 2;
	if (st->nodes) {
		size_t lw = 2;
		for (size_t k = 0; k < s->nnodes; k++)
			lw = TT_MAX(lw, strlen(s->node_name[k]));
		int block = (int)s->max_local * cw + 1;
		st->labelw = (int)TT_MIN(lw, 16) + 1;
		st->per_line = 1;
		if (wide || st->labelw + block > w) {
			/* lines of several nodes are labelled by the first node's number */
			st->labelw = digits((int64_t)s->nnodes) + 2;
			st->per_line = TT_MAX(1, (w - st->labelw) / block);
		}
		for (size_t i = 0; i < s->n; i++) {
			const struct tt_rank_metrics *r = &s->rows[i];
			st->line[i] = (int)(r->node / (uint32_t)st->per_line);
			st->x[i] = st->labelw + (int)(r->node % (uint32_t)st->per_line) * block +
				   (int)r->local * cw;
		}
		st->nlines = (int)((s->nnodes + (size_t)st->per_line - 1) / (size_t)st->per_line);
		return st->nlines;
	}
	int64_t last = s->n ? s->rows[s->n - 1].rank : 0;
	st->labelw = TT_MAX(digits(last), digits((int64_t)s->n)) + 1;
	int avail = w - st->labelw - 1;
	/* groups of 8 cells with a space between them, when that fits */
	int per = 8 * ((avail + 1) / (8 * cw + 1));
	bool gaps = per >= 8;
	if (!gaps)
		per = TT_MAX(1, avail / cw);
	if ((size_t)per >= s->n && s->n <= 8) {
		per = (int)s->n;
	} else if (gaps) {
		/* a power of two: the most that fit, or about sqrt(2n) */
		int p2 = 8;
		while (p2 * 2 <= per && (wide || (size_t)p2 * (size_t)p2 < 2 * s->n))
			p2 *= 2;
		per = p2;
	}
	st->per_line = per;
	for (size_t i = 0; i < s->n; i++) {
		int c = (int)(i % (size_t)per);
		st->line[i] = (int)(i / (size_t)per);
		st->x[i] = st->labelw + c * cw + (gaps ? c / 8 : 0);
	}
	st->nlines = (int)((s->n + (size_t)per - 1) / (size_t)per);
	return st->nlines;
}

/* ---- drawing ---- */

static void fmt_rank_val(const struct heat_state *st, enum tt_rmetric k, size_t i, char *buf,
			 size_t n)
{
	tt_rmetric_fmt(k, st->s->rows[i].v[k], buf, n);
}

static int put_ramp(struct tt_grid *g, int x, int y)
{
	for (int l = 0; l < NLEVELS; l++)
		tt_grid_fill(g, x + l, y, 1, (uint32_t)(unsigned char)ramp[l],
			     (enum tt_role)level_role[l]);
	return NLEVELS;
}

static void heat_draw(struct tt_pane *p, struct tt_grid *g, int y0, int h)
{
	struct heat_state *st = p->state;
	const struct tt_ranks *s = st ? st->s : NULL;
	enum tt_rmetric k = st ? (enum tt_rmetric)st->metric : TT_RM_IDLE;
	int w = g->w;
	if (!st || !s->n) {
		tt_grid_wrap(g, 2, y0 + 1, TT_ROLE_DIM, p->msg[0] ? p->msg : "no rank to show", w - 4,
			     TT_MAX(1, h - 2));
		return;
	}
	if (h < 4)
		return;
	const struct tt_rdist *d = &s->dist[k];
	st->w = w;

	/* how many outlier lines we would like below the grid */
	int want_out = (int)TT_MIN(TT_MAX(st->nflagged, (size_t)1), (size_t)8);
	int fixed = 2; /* legend, cursor line */
	/* the largest cells in the preferred shape that fit, else the most
	 * cells per line (scrolling if even that does not fit) */
	int room = h - fixed - 1 - TT_MIN(want_out, 3);
	int most = h - fixed - 1; /* the whole grid beats outlier lines */
	int lines = place(st, w, 2, false);
	if (lines > room)
		lines = place(st, w, 1, false);
	if (lines > room)
		lines = place(st, w, 2, true);
	if (lines > room)
		lines = place(st, w, 1, true);
	if (lines > room && lines <= most)
		room = lines;
	int gh = room;
	if (lines <= h - fixed - 1 - want_out)
		gh = lines;
	gh = TT_MAX(1, TT_MIN(gh, lines));
	st->shown_lines = gh;
	tt_pane_goto(p, st->cur); /* the status line counts table rows */
	/* keep the cursor's line in view */
	int cl = st->line[st->cur];
	if (cl < st->top)
		st->top = cl;
	if (cl >= st->top + gh)
		st->top = cl - gh + 1;
	if (st->top > lines - gh)
		st->top = TT_MAX(0, lines - gh);

	/* the legend: metric, scale with its extremes and median */
	int y = y0;
	char a[48], b[48], c[48];
	tt_rmetric_fmt(k, d->min, a, sizeof(a));
	tt_rmetric_fmt(k, d->median, b, sizeof(b));
	tt_rmetric_fmt(k, d->max, c, sizeof(c));
	int x = 1;
	x += tt_grid_printf(g, x, y, TT_ROLE_HEADER, -1, "%s", tt_rmetric_title(k));
	x += tt_grid_put(g, x, y, TT_ROLE_DEFAULT, "  ", -1);
	if (d->n) {
		x += tt_grid_printf(g, x, y, TT_ROLE_DEFAULT, -1, "%s r%lld ", a,
				    (long long)s->rows[d->min_i].rank);
		x += put_ramp(g, x, y);
		x += tt_grid_printf(g, x, y, TT_ROLE_DEFAULT, -1, " %s r%lld", c,
				    (long long)s->rows[d->max_i].rank);
		x += tt_grid_printf(g, x, y, TT_ROLE_DIM, -1, "  median %s", b);
	} else {
		x += tt_grid_put(g, x, y, TT_ROLE_DIM, "no rank has a value", -1);
	}
	if (x + 18 < w && st->nlines > gh)
		tt_grid_printf(g, w - 17, y, TT_ROLE_DIM, -1, "lines %d-%d/%d", st->top + 1,
			       st->top + gh, st->nlines);
	else if (x + 18 < w)
		tt_grid_put(g, w - 17, y, TT_ROLE_DIM, "m: next metric", -1);
	y++;

	/* the grid */
	for (int l = 0; l < gh; l++) {
		int gl = st->top + l;
		char lab[40];
		if (st->nodes && st->per_line == 1)
			snprintf(lab, sizeof(lab), "%.16s", s->node_name[gl]);
		else if (st->nodes)
			snprintf(lab, sizeof(lab), "n%d", gl * st->per_line);
		else
			snprintf(lab, sizeof(lab), "%lld",
				 (long long)s->rows[(size_t)gl * (size_t)st->per_line].rank);
		tt_grid_printf(g, 0, y + l, TT_ROLE_DIM, st->labelw, "%*s", st->labelw - 1, lab);
	}
	for (size_t i = 0; i < s->n; i++) {
		int l = st->line[i] - st->top;
		if (l < 0 || l >= gh)
			continue;
		const struct tt_rank_metrics *r = &s->rows[i];
		int lv = heat_level(d, r->v[k]);
		uint32_t cp = lv < 0 ? ' ' : (uint32_t)(unsigned char)ramp[lv];
		enum tt_role role = lv < 0 ? TT_ROLE_DIM : (enum tt_role)level_role[lv];
		if (lv >= 0 && tt_rdist_outlier(d, r->v[k]))
			role = TT_ROLE_MARKED;
		if (i == st->cur)
			role = TT_ROLE_CURSOR;
		tt_grid_fill(g, st->x[i], y + l, st->cw, cp, role);
	}
	y += gh;

	/* the selected rank */
	const struct tt_rank_metrics *r = &s->rows[st->cur];
	char line[600];
	size_t n = 0;
	n += (size_t)snprintf(line + n, sizeof(line) - n, "rank %lld", (long long)r->rank);
	if (r->host)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", r->host);
	if (r->device >= 0)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " GPU %lld", (long long)r->device);
	n += (size_t)snprintf(line + n, sizeof(line) - n, ":");
	for (int j = 0; j < TT_RM_COUNT && n < sizeof(line) - 80; j++) {
		fmt_rank_val(st, (enum tt_rmetric)j, st->cur, a, sizeof(a));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %s",
				      tt_rmetric_name((enum tt_rmetric)j), a);
		if (j == (int)k && !isnan(r->z[j]))
			n += (size_t)snprintf(line + n, sizeof(line) - n, " (z %+.1f)", r->z[j]);
		if (j + 1 < TT_RM_COUNT)
			n += (size_t)snprintf(line + n, sizeof(line) - n, ",");
	}
	/* (wrapped at words: every figure reads whole) */
	y += tt_grid_wrap(g, 1, y, TT_ROLE_DEFAULT, line, w - 2, TT_MAX(1, TT_MIN(3, y0 + h - y)));

	/* outliers first */
	int left = y0 + h - y;
	if (left <= 0)
		return;
	if (!st->nflagged) {
		tt_grid_printf(g, 1, y++, TT_ROLE_DIM, w - 2,
			       "no rank stands out in %s (every |z| < %.1f or too close to the median)",
			       tt_rmetric_title(k), TT_RZ_LIMIT);
		left--;
	} else if (left > 1) {
		tt_grid_printf(g, 1, y++, TT_ROLE_HEADER, w - 2, "%zu outlier%s in %s, furthest "
			       "first (n/N: next/previous)", st->nflagged,
			       st->nflagged > 1 ? "s" : "", tt_rmetric_title(k));
		left--;
	}
	for (size_t j = 0; j < st->nflagged && left > 0; j++) {
		const struct tt_outlier *o = &st->out[j];
		char reason[300];
		tt_outlier_reason(s, o->i, k, reason, sizeof(reason));
		enum tt_role role = o->i == st->cur ? TT_ROLE_CURSOR : TT_ROLE_MARKED;
		/* the reason wrapped at words under itself: two lines when
		 * there is room for the others too */
		int x0 = tt_grid_printf(g, 1, y, role, w - 2, "%c rank %-5lld z %+6.1f  ",
					o->i == st->cur ? '>' : ' ', (long long)s->rows[o->i].rank,
					o->z);
		int rows = left > (int)(st->nflagged - j) ? 2 : 1;
		int used = tt_grid_wrap(g, 1 + x0, y, role, reason, w - 2 - x0, rows);
		y += TT_MAX(1, used);
		left -= TT_MAX(1, used);
	}
	/* the other metrics' outliers, briefly */
	if (left > 0) {
		struct tt_outlier *o;
		size_t no = tt_ranks_outliers(s, -1, true, &o);
		size_t m = 0;
		n = (size_t)snprintf(line, sizeof(line), "also:");
		for (size_t j = 0; j < no && n < sizeof(line) - 40; j++) {
			if ((int)o[j].metric == st->metric)
				continue;
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s rank %lld %s",
					      m ? "," : "", (long long)s->rows[o[j].i].rank,
					      tt_rmetric_name(o[j].metric));
			m++;
		}
		free(o);
		if (m)
			tt_grid_wrap(g, 1, y, TT_ROLE_DIM, line, w - 2, left);
	}
}

/* ---- keys ---- */

/* the row nearest to column x on grid line l, or SIZE_MAX */
static size_t row_at(const struct heat_state *st, int l, int x)
{
	size_t best = SIZE_MAX;
	int bd = 0;
	for (size_t i = 0; i < st->s->n; i++) {
		if (st->line[i] != l)
			continue;
		int dd = abs(st->x[i] - x);
		if (best == SIZE_MAX || dd < bd) {
			best = i;
			bd = dd;
		}
	}
	return best;
}

/* the row next to the cursor on its line (dir -1 left, +1 right), or SIZE_MAX */
static size_t row_beside(const struct heat_state *st, int dir)
{
	size_t best = SIZE_MAX;
	int l = st->line[st->cur], x0 = st->x[st->cur];
	for (size_t i = 0; i < st->s->n; i++) {
		if (st->line[i] != l || i == st->cur)
			continue;
		int dx = (st->x[i] - x0) * dir;
		if (dx > 0 && (best == SIZE_MAX || dx < (st->x[best] - x0) * dir))
			best = i;
	}
	return best;
}

static void sync_cursor(struct tt_pane *p)
{
	struct heat_state *st = p->state;
	tt_pane_goto(p, st->cur); /* table row i is rank row i */
}

static int heat_key(struct tt_pane *p, enum tt_action act)
{
	struct heat_state *st = p->state;
	if (!st || !st->s->n)
		return TT_R_UNHANDLED;
	if (!st->w) /* not drawn yet: a layout for the app's width */
		place(st, p->app->w > 0 ? p->app->w : 80, 1, true);
	size_t n = st->s->n, r = SIZE_MAX;
	int page = TT_MAX(1, st->shown_lines - 1);
	switch (act) {
	case TT_ACT_MOVE_LEFT:
		r = row_beside(st, -1);
		if (r == SIZE_MAX && !st->nodes && st->cur > 0)
			r = st->cur - 1;
		break;
	case TT_ACT_MOVE_RIGHT:
		r = row_beside(st, 1);
		if (r == SIZE_MAX && !st->nodes && st->cur + 1 < n)
			r = st->cur + 1;
		break;
	case TT_ACT_MOVE_UP:
		r = row_at(st, st->line[st->cur] - 1, st->x[st->cur]);
		break;
	case TT_ACT_MOVE_DOWN:
		r = row_at(st, st->line[st->cur] + 1, st->x[st->cur]);
		break;
	case TT_ACT_PAGE_UP:
		r = row_at(st, TT_MAX(0, st->line[st->cur] - page), st->x[st->cur]);
		break;
	case TT_ACT_PAGE_DOWN:
		r = row_at(st, TT_MIN(st->nlines - 1, st->line[st->cur] + page), st->x[st->cur]);
		break;
	case TT_ACT_MOVE_FIRST:
		r = 0;
		break;
	case TT_ACT_MOVE_LAST:
		r = n - 1;
		break;
	case TT_ACT_NEXT_METRIC:
		pick_metric(st, (st->metric + 1) % TT_RM_COUNT);
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "shaded by %s",
			      tt_rmetric_title((enum tt_rmetric)st->metric));
		return TT_R_REDRAW;
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH: {
		if (!st->nflagged) {
			tt_ui_status(p->app, TT_ROLE_DIM, "no outlier in %s",
				      tt_rmetric_title((enum tt_rmetric)st->metric));
			return TT_R_REDRAW;
		}
		size_t at = st->nflagged; /* the cursor's place in the list */
		for (size_t j = 0; j < st->nflagged; j++)
			if (st->out[j].i == st->cur)
				at = j;
		size_t j;
		if (act == TT_ACT_NEXT_MATCH)
			j = at >= st->nflagged ? 0 : (at + 1) % st->nflagged;
		else
			j = at >= st->nflagged ? st->nflagged - 1 :
						 (at + st->nflagged - 1) % st->nflagged;
		r = st->out[j].i;
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "outlier %zu of %zu", j + 1, st->nflagged);
		break;
	}
	case TT_ACT_ENTER: {
		/* the rank's timeline over the time last looked at */
		const struct tt_rank_metrics *w = &st->s->rows[st->cur];
		tt_ui_open(p->app, tt_timeline_like(p->app, w->ri));
		return TT_R_REDRAW;
	}
	default:
		return TT_R_UNHANDLED;
	}
	if (r != SIZE_MAX && r < n) {
		st->cur = r;
		sync_cursor(p);
	}
	return TT_R_REDRAW;
}

const struct tt_pane_ops tt_heatmap_ops = {
	.name = "heatmap",
	.title = "Heatmap",
	.help = "Every rank as one cell, shaded by a metric from low (.) to high (@): idle %, "
		"compute %, communication %, exposed communication % (not hidden by computation), transfer "
		"% (collective time after every rank joined), step time, and the time of the "
		"job's top kernel.  Cells are laid out by rank number, or one block per node when "
		"the traces name their hosts.  Outliers (robust z-score from the median and MAD, "
		"|z| >= 3.5) are highlighted and listed below with a reason.  Arrow keys move "
		"over the cells, m shades by the next metric, n/N jump to the next/previous "
		"outlier, Enter opens the rank's timeline over the time range last shown in a "
		"timeline (the whole trace at first), w writes every rank's metrics as CSV.",
	.open = heat_open,
	.close = heat_close,
	.draw = heat_draw,
	.key = heat_key,
	.needs = TT_NEED(TT_RES_RANKS),
	.refresh = pane_verdict_refresh,
};

struct tt_pane *tt_heatmap_new(struct tt_app *a)
{
	return tt_pane_new(a, &tt_heatmap_ops);
}

bool tt_heatmap_wanted(const struct tt_app *a, int rows)
{
	size_t n = 0;
	for (size_t ri = 0; ri < a->m->nranks; ri++)
		n += tt_aopts_has_rank(&a->ropts.a, a->m->ranks[ri]->rank);
	return rows >= 0 && n > (size_t)rows;
}
