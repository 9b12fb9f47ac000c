/* A side-by-side row's drill-down on both sides of a diff: the pane each
 * side's row drills into, made and opened over that side, as one table
 * with a side column (the Control's rows, then the Test's); Enter opens
 * the split timeline of the rank pair at the row. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

struct sides_state {
	struct tt_pane *q[2]; /* each side's drill-down, until opened */
	char what[2][200];    /* their subtitles */
	/* per table row: its side, rank index and time (0: none) */
	uint8_t *side;
	size_t *ri;
	int64_t *t;
	size_t n;
};

static const char *side_label(const struct tt_app *a, int s)
{
	const char *l = s ? a->ropts.label_b : a->ropts.label_a;
	return l ? l : s ? "Test" : "Control";
}

/* the time of row r of q's table: its event's start, or 0 */
static int64_t row_time(const struct tt_app *a, int s, const struct tt_table *t, size_t r,
			size_t ri)
{
	static const char *const evc[] = {"gpu_event", "next_event", "event"};
	const struct tt_model *m = a->side_m[s];
	for (size_t i = 0; i < TT_ARRAY_SIZE(evc); i++) {
		int c = tt_table_col(t, evc[i]);
		if (c < 0)
			continue;
		const struct tt_cell *x = tt_table_cell(t, r, c);
		if (x->kind == TT_CV_I && ri < m->nranks && x->v.i >= 0 &&
		    (uint64_t)x->v.i < m->ranks[ri]->nev)
			return m->ranks[ri]->ev[x->v.i].ts;
	}
	return 0;
}

/* the rank index of row r of a side's table: its rank_index column (ric),
 * else its rank column, else the side's first rank */
static size_t row_rank(const struct tt_app *a, int s, const struct tt_table *t, size_t r, int ric)
{
	if (ric >= 0)
		return (size_t)tt_cell_num(tt_table_cell(t, r, ric));
	int rc = tt_table_col(t, "rank");
	const struct tt_cell *x = rc >= 0 ? tt_table_cell(t, r, rc) : NULL;
	size_t ri = x && x->kind == TT_CV_I ? pane_rank_index(a->side_m[s], x->v.i) : SIZE_MAX;
	return ri == SIZE_MAX ? 0 : ri;
}

static int sides_open(struct tt_pane *p)
{
	struct sides_state *st = p->state;
	struct tt_app *a = p->app;
	const struct tt_table *t[2] = {NULL, NULL};
	for (int s = 0; s < 2; s++) {
		if (!st->q[s])
			continue;
		struct tt_ui_side sv;
		tt_ui_side_enter(a, s, &sv);
		tt_pane_open(st->q[s]);
		tt_ui_side_leave(a, &sv);
		t[s] = st->q[s]->table;
	}
	/* a side whose results are still being computed (on a terminal): this
	 * pane is opened again by a later call, the sides' panes kept */
	for (int s = 0; s < 2; s++)
		if (st->q[s] && st->q[s]->waiting)
			return TT_OPEN_WAIT;
	const struct tt_table *any = t[0] ? t[0] : t[1];
	if (!any) {
		snprintf(p->msg, sizeof(p->msg), "%s", st->q[0] && st->q[0]->msg[0] ? st->q[0]->msg :
						      st->q[1] && st->q[1]->msg[0] ? st->q[1]->msg :
										     "nothing to show");
		return -1;
	}
	/* the side, then the columns of the sides' tables */
	struct tt_col side = {.name = "side", .type = TT_C_STR, .width = 12};
	struct tt_col *cols = tt_calloc((size_t)any->ncols + 1, sizeof(*cols));
	cols[0] = side;
	memcpy(cols + 1, any->cols, (size_t)any->ncols * sizeof(*cols));
	/* (a bar of the side's table draws its column, one further now) */
	for (int c = 1; c <= any->ncols; c++) {
		if (cols[c].type == TT_C_BAR)
			cols[c].bar_of++;
		for (int i = 0; i < cols[c].nstack; i++)
			cols[c].stack[i]++;
	}
	struct tt_table *out = tt_table_new(any->name, cols, any->ncols + 1);
	free(cols);
	size_t cap = (t[0] ? st->q[0]->nrows : 0) + (t[1] ? st->q[1]->nrows : 0) + 1;
	st->side = tt_calloc(cap, sizeof(*st->side));
	st->ri = tt_calloc(cap, sizeof(*st->ri));
	st->t = tt_calloc(cap, sizeof(*st->t));
	for (int s = 0; s < 2; s++) {
		if (!t[s] || t[s]->ncols != any->ncols)
			continue;
		const struct tt_pane *q = st->q[s];
		int ric = tt_table_col(t[s], "rank_index");
		/* the rows as the side's pane shows them (its sort) */
		for (size_t i = 0; i < q->nrows; i++) {
			size_t r = q->rows[i], k = tt_table_add_row(out);
			tt_table_set_str(out, k, 0, side_label(a, s));
			for (int c = 0; c < t[s]->ncols; c++) {
				const struct tt_cell *x = tt_table_cell(t[s], r, c);
				if (x->kind == TT_CV_S)
					tt_table_set_str(out, k, c + 1, x->v.s);
				else if (x->kind == TT_CV_I)
					tt_table_set_int(out, k, c + 1, x->v.i);
				else if (x->kind == TT_CV_D)
					tt_table_set_num(out, k, c + 1, x->v.d);
			}
			size_t ri = row_rank(a, s, t[s], r, ric);
			st->side[k] = (uint8_t)s;
			st->ri[k] = ri;
			st->t[k] = row_time(a, s, t[s], r, ri);
		}
	}
	st->n = out->nrows;
	tt_pane_set_table(p, out);
	for (size_t i = 0; i < out->nrows; i++)
		p->row_role[i] = st->side[i] ? TT_ROLE_MARKED : 0;
	for (int s = 0; s < 2; s++)
		tt_pane_head(p, TT_ROLE_DIM, "%s: %s", side_label(a, s),
			     !st->q[s] ? "no such row" :
			     !t[s] ? (st->q[s]->msg[0] ? st->q[s]->msg : "nothing to show") :
				     st->what[s]);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the split timeline of the rank pair at the row");
	for (int s = 0; s < 2; s++) {
		tt_pane_free(st->q[s]);
		st->q[s] = NULL;
	}
	return out->nrows ? 0 : -1;
}

static struct tt_pane *sides_row_drill(struct tt_pane *p, size_t row)
{
	struct sides_state *st = p->state;
	if (row >= st->n)
		return NULL;
	return tt_split_side(p->app, st->side[row], st->ri[row], st->t[row]);
}

static void sides_close(struct tt_pane *p)
{
	struct sides_state *st = p->state;
	if (st) {
		tt_pane_free(st->q[0]);
		tt_pane_free(st->q[1]);
		free(st->side);
		free(st->ri);
		free(st->t);
	}
	free(st);
}

static const struct tt_pane_ops sides_ops = {
	.name = "sides",
	.title = "Both sides",
	.help = "A row of a side-by-side pane on both sides of a diff: what Enter on it shows "
		"for each side (a rank's streams and threads, a stream's largest gaps, a rank's "
		"launch outliers), the Control's rows first, then the Test's (highlighted), the "
		"side named in the first column.  Enter opens the split timeline of the rank "
		"pair: the Control rank above, the Test rank below, at the row's event.",
	.open = sides_open,
	.close = sides_close,
	.drill = sides_row_drill,
	.both_sides = true,
};

struct tt_pane *tt_sides_drill(struct tt_pane *p, struct tt_pane *const side[2],
			       const size_t row[2])
{
	struct tt_app *a = p->app;
	struct tt_pane *np = tt_pane_new(a, &sides_ops);
	struct sides_state *st = tt_calloc(1, sizeof(*st));
	np->state = st;
	np->sides = 1; /* (both, no difference) */
	for (int s = 0; s < 2; s++) {
		if (!side[s] || row[s] == SIZE_MAX || !side[s]->ops->drill)
			continue;
		struct tt_ui_side sv;
		tt_ui_side_enter(a, s, &sv);
		st->q[s] = side[s]->ops->drill(side[s], row[s]);
		tt_ui_side_leave(a, &sv);
		if (st->q[s])
			snprintf(st->what[s], sizeof(st->what[s]), "%s",
				 st->q[s]->subtitle[0] ? st->q[s]->subtitle : st->q[s]->ops->title);
	}
	snprintf(np->subtitle, sizeof(np->subtitle), "%.90s | %.90s",
		 st->what[0][0] ? st->what[0] : "-", st->what[1][0] ? st->what[1] : "-");
	return np;
}
