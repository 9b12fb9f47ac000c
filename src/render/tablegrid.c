/* A table drawn into a grid: the list panes of the TUI, and their headless
 * renders in tests. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/render.h"
#include "tracetop/util.h"

#define MIN_NAME 10
#define NAME_KEEP 28 /* names keep this many columns when they can */
#define GAP 2
#define MIN_BAR 4 /* a bar narrower than 8 columns, when nothing else fits */
#define WIDTH_SCAN 4000 /* rows looked at to size the columns */

static bool ci_contains(const char *hay, const char *needle, size_t *at)
{
	size_t n = strlen(needle);
	if (!n)
		return false;
	for (size_t i = 0; hay[i]; i++)
		if (strncasecmp(hay + i, needle, n) == 0) {
			if (at)
				*at = i;
			return true;
		}
	return false;
}

bool tt_table_row_matches(const struct tt_table *t, size_t row, const char *needle)
{
	for (int c = 0; c < t->ncols; c++) {
		const struct tt_cell *x = tt_table_cell(t, row, c);
		if (x->kind == TT_CV_S && ci_contains(x->v.s, needle, NULL))
			return true;
	}
	return false;
}

static bool is_bar(const struct tt_col *c)
{
	return c->type == TT_C_BAR || c->type == TT_C_STACK;
}

/* The whole of a bar column: its bar_max, or the largest value (signed
 * bars: |value|) of the column it draws; once per drawing, not per row. */
static double bar_whole(const struct tt_table *t, const struct tt_col *col)
{
	double mx = col->bar_max;
	if (!(mx > 0))
		for (size_t i = 0; i < t->nrows; i++) {
			double vv = tt_cell_num(tt_table_cell(t, i, col->bar_of));
			if (col->signed_bar)
				vv = fabs(vv);
			if (vv > mx)
				mx = vv;
		}
	return mx;
}

/* A bar of either sign: a middle line, the value's bar to its right when
 * above 0 (role[0]), to its left when below (role[1]), whole cells only on
 * the left (a partial block grows rightwards), scaled to mx, the largest
 * |value| of the column. */
static void draw_signed_bar(const struct tt_table *t, const struct tt_col *col, size_t row,
			    double mx, struct tt_grid *g, int x, int y, int w)
{
	int half = (w - 1) / 2;
	tt_grid_put(g, x + half, y, TT_ROLE_DIM, tt_render_ascii() ? "|" : "\xE2\x94\x82", 1);
	double val = tt_cell_num(tt_table_cell(t, row, col->bar_of));
	if (!(mx > 0) || isnan(val) || val == 0)
		return;
	double f = fabs(val) / mx;
	if (val > 0) {
		tt_grid_bar(g, x + half + 1, y, w - half - 1, f,
			    col->role[0] ? (enum tt_role)col->role[0] : TT_ROLE_BAR);
	} else {
		int k = (int)lround(f * half);
		if (k == 0)
			k = 1; /* never hide a non-zero value */
		tt_grid_fill(g, x + half - k, y, k, tt_render_ascii() ? '#' : 0x2588,
			     col->role[1] ? (enum tt_role)col->role[1] : TT_ROLE_BAR);
	}
}

static void col_title(const struct tt_table *t, int c, enum tt_unit u, const struct tt_table_view *v,
		      char *buf, size_t n)
{
	const struct tt_col *col = &t->cols[c];
	const char *title = col->title ? col->title : col->name;
	if (col->type == TT_C_DUR && tt_table_col_has_value(t, c)) /* (no value: no unit) */
		snprintf(buf, n, "%s (%s)", title, tt_unit_name(u));
	else
		snprintf(buf, n, "%s", title);
	if (v->sort_col == c) {
		size_t k = strlen(buf);
		snprintf(buf + k, n - k, "%s",
			 tt_render_ascii() ? (v->sort_desc ? "v" : "^") :
					     (v->sort_desc ? "\xE2\x96\xBC" : "\xE2\x96\xB2"));
	}
}

/* display columns of the first `bytes` bytes of a UTF-8 string */
static int cols_of(const char *s, size_t bytes)
{
	int w = 0;
	const char *end = s + bytes;
	while (s < end && *s)
		w += tt_cp_width(tt_utf8_next(&s));
	return w;
}

/* the rows looked at to size the columns: the first WIDTH_SCAN, then the
 * ones on screen; calls fn for each view index */
#define FOR_SCANNED(v, h, k)                                                                  \
	for (size_t i_ = 0, scan_ = TT_MIN((v)->nrows, (size_t)WIDTH_SCAN), k = 0;           \
	     i_ < scan_ + ((v)->nrows > scan_ ? (size_t)(h) : 0) && i_ < (v)->nrows &&        \
	     ((k = i_ < scan_ ? i_ : (v)->top + (i_ - scan_)) < (v)->nrows);                 \
	     i_++)

/* the shortened text of each scanned row's cell of text column c, by view
 * index (NULL where not scanned); different names stay different */
struct names {
	char **text;    /* by view index */
	size_t n;
};

static void names_make(const struct tt_table *t, const struct tt_table_view *v, int h, int c,
		       int cols, struct names *nm)
{
	size_t cap = TT_MIN(v->nrows, (size_t)WIDTH_SCAN) + (size_t)TT_MAX(h, 0);
	const char **in = tt_calloc(cap + 1, sizeof(*in));
	size_t *at = tt_calloc(cap + 1, sizeof(*at));
	size_t n = 0;
	FOR_SCANNED(v, h, k)
	{
		const struct tt_cell *x = tt_table_cell(t, v->rows[k], c);
		if (x->kind == TT_CV_S && n < cap) {
			in[n] = x->v.s;
			at[n++] = k;
		}
	}
	char **out = tt_names_fit(in, n, (size_t)TT_MAX(cols, 0));
	nm->n = v->nrows;
	nm->text = tt_calloc(v->nrows + 1, sizeof(*nm->text));
	for (size_t i = 0; i < n; i++) {
		free(nm->text[at[i]]);
		nm->text[at[i]] = out[i];
	}
	free(out);
	free(in);
	free(at);
}

/* The whole text of the cells of view row k that show shortened, for the
 * details line ("" when none is): the text alone, or "title: text" for
 * each when there are several. */
static void details(const struct tt_table *t, const struct tt_table_view *v, size_t k,
		    const int *dc, int nd, const struct names *nm, char *buf, size_t n)
{
	int cut[TT_LAYOUT_MAXCOLS], nc = 0;
	buf[0] = '\0';
	if (k >= v->nrows)
		return;
	for (int d = 0; d < nd; d++) {
		const struct tt_cell *x = tt_table_cell(t, v->rows[k], dc[d]);
		if (nm[d].text && nm[d].text[k] && x->kind == TT_CV_S &&
		    strcmp(nm[d].text[k], x->v.s) != 0)
			cut[nc++] = d;
	}
	size_t len = 0;
	for (int i = 0; i < nc && len + 1 < n; i++) {
		const struct tt_col *col = &t->cols[dc[cut[i]]];
		const char *s = tt_table_cell(t, v->rows[k], dc[cut[i]])->v.s;
		int w = nc == 1 ? snprintf(buf + len, n - len, "%s", s) :
				  snprintf(buf + len, n - len, "%s%s: %s", i ? "  " : "",
					   col->title ? col->title : col->name, s);
		if (w < 0)
			break;
		len = TT_MIN(n - 1, len + (size_t)w);
	}
}

static void names_free(struct names *nm)
{
	if (nm->text)
		for (size_t i = 0; i < nm->n; i++)
			free(nm->text[i]);
	free(nm->text);
	nm->text = NULL;
}

/* Place the scrollable columns sc[from..nsc) after x0, each whole, up to
 * grid column limit; a text column may shrink to what is left (not below
 * MIN_NAME), a bar takes 8 columns for now.  Returns how many are placed;
 * *more says that columns are left out on the right (the last placed one
 * then ends two columns before limit: a space and the arrow). */
static int place(const struct tt_table *t, const int *sc, int nsc, int from, const int *w,
		 int x0, int limit, int *pw, bool *more)
{
	for (int pass = 0; pass < 2; pass++) {
		int lim = pass ? limit - 2 : limit, x = x0, k = 0;
		for (int i = from; i < nsc; i++) {
			const struct tt_col *col = &t->cols[sc[i]];
			int want = is_bar(col) ? 8 : w[sc[i]];
			if (x + want > lim) {
				if (col->type == TT_C_STR && lim - x >= MIN_NAME)
					want = lim - x;
				else if (is_bar(col) && lim - x >= MIN_BAR)
					want = lim - x;
				else
					break;
			}
			pw[i] = want;
			x += want + GAP;
			k++;
			if ((is_bar(col) ? want < 8 : want < w[sc[i]]) && i + 1 < nsc) {
				/* a shrunk name or bar is the last that fits */
				break;
			}
		}
		*more = from + k < nsc;
		if (!*more || pass)
			return k;
	}
	return 0;
}

/* Each shown column's natural width (its title's, or its widest scanned
 * cell's; bars: the title's), its time unit, and the shown columns in
 * order[]; returns how many are shown. */
static int natural_widths(const struct tt_table *t, const struct tt_table_view *v, int h, int *w,
			  enum tt_unit *unit, int *order, char *buf, size_t bufsz)
{
	int nc = t->ncols, ns = 0;
	for (int c = 0; c < nc; c++) {
		const struct tt_col *col = &t->cols[c];
		if (col->hidden_text)
			continue;
		order[ns++] = c;
		if (col->type == TT_C_DUR)
			unit[c] = tt_table_col_unit(t, c);
		col_title(t, c, unit[c], v, buf, bufsz);
		w[c] = (int)tt_utf8_width(buf);
		if (is_bar(col))
			continue;
		FOR_SCANNED(v, h, k)
		{
			/* (a text at its whole width: a name column grows with
			 * the screen) */
			const struct tt_cell *x = tt_table_cell(t, v->rows[k], c);
			int cw;
			if (col->type == TT_C_STR && x->kind == TT_CV_S) {
				cw = (int)tt_utf8_width(x->v.s);
			} else {
				tt_cell_text(t, v->rows[k], c, unit[c], buf, bufsz);
				cw = (int)tt_utf8_width(buf);
			}
			if (cw > w[c])
				w[c] = cw;
		}
	}
	return ns;
}

/* How many of the shown columns are keys, pinned on the left: the table's
 * nkeys when it says, else up to the first text column among the first
 * three (integers before it), none when the first is a bar. */
static int pinned_count(const struct tt_table *t, const int *order, int ns)
{
	int np = 1;
	if (!is_bar(&t->cols[order[0]]))
		for (int k = 0; k < ns && k < 3; k++) {
			enum tt_ctype ty = t->cols[order[k]].type;
			if (ty == TT_C_STR) {
				np = k + 1;
				break;
			}
			if (ty != TT_C_INT)
				break;
		}
	if (is_bar(&t->cols[order[0]]))
		np = 0;
	if (t->nkeys > 0) {
		/* (the table says: its visible columns among the first nkeys) */
		np = 0;
		while (np < ns && order[np] < t->nkeys)
			np++;
	}
	return np;
}

/* Text columns' widths for a screen gw wide: names shrink to a readable
 * width first, and to the minimum only on a narrow screen (what still does
 * not fit is left out whole); when columns scroll anyway, names keep more
 * of a wider screen. */
static void fit_names(const struct tt_table *t, const int *order, int ns, int *w, int gw)
{
	int nc = t->ncols;
	int avail = gw - 2;
	int fixed = 0, nbars = 0;
	for (int i = 0; i < ns; i++) {
		if (is_bar(&t->cols[order[i]]))
			nbars++;
		else
			fixed += w[order[i]] + GAP;
	}
	int floors[2] = {gw >= 70 ? NAME_KEEP : MIN_NAME, MIN_NAME};
	int *natw = tt_calloc((size_t)nc, sizeof(*natw));
	memcpy(natw, w, (size_t)nc * sizeof(*w));
	for (int pass = 0; pass < 2 && fixed + nbars * (8 + GAP) > avail; pass++) {
		if (pass == 1 && gw >= 70)
			break;
		while (fixed + nbars * (8 + GAP) > avail) {
			int widest = -1;
			for (int i = 0; i < ns; i++) {
				int c = order[i];
				if (t->cols[c].type == TT_C_STR && w[c] > floors[pass] &&
				    (widest < 0 || w[c] > w[widest]))
					widest = c;
			}
			if (widest < 0)
				break;
			int cut = TT_MIN(fixed + nbars * (8 + GAP) - avail, w[widest] - floors[pass]);
			w[widest] -= cut;
			fixed -= cut;
		}
	}
	/* columns scroll anyway: names keep more of a wider screen (28
	 * columns at 80, 60 at 200) */
	if (fixed + nbars * (MIN_BAR + GAP) > avail && gw >= 70)
		for (int i = 0; i < ns; i++) {
			int c = order[i];
			if (t->cols[c].type == TT_C_STR)
				w[c] = TT_MAX(w[c], TT_MIN(natw[c], gw * 3 / 10));
		}
	free(natw);
}

/* One cell of a drawn row: a bar, a stack, or its text (a shortened name,
 * right-aligned numbers, never a part of one), the filter's match marked. */
static void draw_cell(const struct tt_table *t, const struct tt_table_view *v, struct tt_grid *g,
		      int c, int x, int dw, int yy, size_t k, size_t row, enum tt_role base, bool cur,
		      const struct names *nm, double whole, enum tt_unit u, char *buf, size_t bufsz)
{
	const struct tt_col *col = &t->cols[c];
	if (col->type == TT_C_BAR && col->signed_bar) {
		draw_signed_bar(t, col, row, whole, g, x, yy, dw);
	} else if (col->type == TT_C_BAR) {
		double mx = whole;
		double val = tt_cell_num(tt_table_cell(t, row, col->bar_of));
		tt_grid_bar(g, x, yy, dw, mx > 0 && !isnan(val) ? val / mx : 0,
			    col->role[0] ? (enum tt_role)col->role[0] : TT_ROLE_BAR);
	} else if (col->type == TT_C_STACK) {
		double f[TT_STACK_MAX];
		enum tt_role roles[TT_STACK_MAX];
		tt_table_stack_fractions(t, row, c, f);
		for (int i = 0; i < TT_STACK_MAX; i++)
			roles[i] = col->role[i] ? (enum tt_role)col->role[i] : TT_ROLE_BAR;
		tt_grid_stack(g, x, yy, dw, f, roles,
			      col->glyphs ? col->glyphs : "#=:.", col->nstack);
	} else {
		char fit[1100];
		if (nm->text && nm->text[k])
			snprintf(fit, sizeof(fit), "%s", nm->text[k]);
		else {
			const struct tt_cell *xc = tt_table_cell(t, row, c);
			if (col->type == TT_C_STR && xc->kind == TT_CV_S)
				snprintf(buf, bufsz, "%s", xc->v.s);
			else
				tt_cell_text(t, row, c, u, buf, bufsz);
			if (col->type == TT_C_STR && col->free_text)
				tt_utf8_fit(fit, sizeof(fit), buf, (size_t)dw);
			else if (col->type == TT_C_STR)
				tt_name_fit(fit, sizeof(fit), buf, (size_t)dw);
			else
				snprintf(fit, sizeof(fit), "%s", buf);
		}
		int tw = (int)tt_utf8_width(fit);
		if (tw > dw && col->type != TT_C_STR)
			fit[0] = '\0'; /* (never a part of a number) */
		tw = (int)tt_utf8_width(fit);
		bool right = col->type != TT_C_STR;
		int at = right ? x + dw - tw : x;
		tt_grid_put(g, at, yy, base, fit, dw);
		size_t pos;
		if (!cur && v->filter && col->type == TT_C_STR &&
		    ci_contains(fit, v->filter, &pos))
			tt_grid_paint(g, at + cols_of(fit, pos), yy,
				      cols_of(fit + pos, strlen(v->filter)), TT_ROLE_MATCH);
	}
}

/* The header row: each drawn column's title (numbers' on the right), an
 * arrow at either end where columns are left out (scroll with h and l). */
static void draw_header(const struct tt_table *t, const struct tt_table_view *v, struct tt_grid *g,
			int y, const int *dc, const int *dx, const int *dw, int nd,
			const enum tt_unit *unit, bool left, bool more, char *buf, size_t bufsz)
{
	tt_grid_fill(g, 0, y, g->w, ' ', TT_ROLE_HEADER);
	for (int d = 0; d < nd; d++) {
		int c = dc[d];
		const struct tt_col *col = &t->cols[c];
		col_title(t, c, unit[c], v, buf, bufsz);
		int tw = (int)tt_utf8_width(buf);
		bool right = !is_bar(col) && col->type != TT_C_STR;
		char fit[1100];
		tt_utf8_fit(fit, sizeof(fit), buf, (size_t)dw[d]);
		int at = right ? dx[d] + dw[d] - TT_MIN(tw, dw[d]) : dx[d];
		tt_grid_put(g, at, y, TT_ROLE_HEADER, fit, dw[d]);
	}
	/* say that columns are left out: scroll with h and l */
	if (left)
		tt_grid_put(g, 0, y, TT_ROLE_HEADER, tt_render_ascii() ? "<" : "\xE2\x86\x90", 1);
	if (more)
		tt_grid_put(g, g->w - 1, y, TT_ROLE_HEADER, tt_render_ascii() ? ">" : "\xE2\x86\x92",
			    1);
}

void tt_table_draw(const struct tt_table *t, const struct tt_table_view *v, struct tt_grid *g,
		   int y, int h)
{
	struct tt_table_layout *lay = v->layout;
	if (lay) {
		memset(lay, 0, sizeof(*lay));
		lay->header_y = -1;
	}
	int nc = t->ncols;
	if (h <= 0 || nc == 0)
		return;
	int *w = tt_calloc((size_t)nc, sizeof(*w));
	enum tt_unit *unit = tt_calloc((size_t)nc, sizeof(*unit));
	int *order = tt_calloc((size_t)nc, sizeof(*order)); /* shown columns */
	int *pw = tt_calloc((size_t)nc, sizeof(*pw));       /* placed widths, by order */
	char buf[1024];
	int ns = natural_widths(t, v, h, w, unit, order, buf, sizeof(buf));
	if (ns == 0) {
		free(w);
		free(unit);
		free(order);
		free(pw);
		return;
	}
	int np = pinned_count(t, order, ns);
	fit_names(t, order, ns, w, g->w);
	/* pinned columns, then as many of the others as fit whole from xoff */
	int x0 = 2;
	for (int i = 0; i < np; i++) {
		int c = order[i];
		pw[i] = w[c];
		if (x0 + pw[i] > g->w && t->cols[c].type == TT_C_STR)
			pw[i] = TT_MAX(1, g->w - x0);
		x0 += pw[i] + GAP;
	}
	const int *sc = order + np;
	int nsc = ns - np;
	int *spw = pw + np;
	/* the first start from which every remaining column shows */
	int max_xoff = nsc > 0 ? nsc - 1 : 0;
	bool more = false;
	for (int s0 = 0; s0 < nsc; s0++) {
		int k = place(t, sc, nsc, s0, w, x0, g->w, spw, &more);
		if (!more && k == nsc - s0) {
			max_xoff = s0;
			break;
		}
	}
	int xoff = TT_MAX(0, TT_MIN(v->xoff, max_xoff));
	int nvis = nsc > 0 ? place(t, sc, nsc, xoff, w, x0, g->w, spw, &more) : 0;
	if (nsc == 0)
		more = false;
	/* bars take what is left */
	{
		int used = x0;
		int nb = 0;
		for (int i = xoff; i < xoff + nvis; i++) {
			used += spw[i] + GAP;
			if (is_bar(&t->cols[sc[i]]))
				nb++;
		}
		int left = (more ? g->w - 2 : g->w) - (used - GAP);
		for (int i = xoff; i < xoff + nvis && nb > 0; i++) {
			const struct tt_col *col = &t->cols[sc[i]];
			if (!is_bar(col))
				continue;
			int want = col->width ? col->width : 30;
			int give = TT_MAX(0, TT_MIN(want - spw[i], left / nb));
			spw[i] += give;
			left -= give;
			nb--;
		}
	}
	/* the columns drawn, left to right */
	int dc[TT_LAYOUT_MAXCOLS], dx[TT_LAYOUT_MAXCOLS], dw[TT_LAYOUT_MAXCOLS], nd = 0;
	{
		int x = 2;
		for (int i = 0; i < np && nd < TT_LAYOUT_MAXCOLS; i++) {
			dc[nd] = order[i];
			dx[nd] = x;
			dw[nd++] = pw[i];
			x += pw[i] + GAP;
		}
		for (int i = xoff; i < xoff + nvis && nd < TT_LAYOUT_MAXCOLS; i++) {
			dc[nd] = sc[i];
			dx[nd] = x;
			dw[nd++] = spw[i];
			x += spw[i] + GAP;
		}
	}
	/* shortened names of the text columns drawn narrower than their text */
	struct names *nm = tt_calloc((size_t)nd + 1, sizeof(*nm));
	for (int d = 0; d < nd; d++) {
		int c = dc[d];
		if (t->cols[c].type != TT_C_STR || t->cols[c].free_text)
			continue;
		bool need = false;
		FOR_SCANNED(v, h, k)
		{
			const struct tt_cell *x = tt_table_cell(t, v->rows[k], c);
			if (x->kind == TT_CV_S && (int)tt_utf8_width(x->v.s) > dw[d]) {
				need = true;
				break;
			}
		}
		if (need)
			names_make(t, v, h, c, dw[d], &nm[d]);
	}
	/* the details lines: the whole text of the cursor row's shortened cells,
	 * as many rows as the longest needs (a fifth of the table at most) */
	int det = 0, detcap = TT_MAX(1, (h - 1) / 5);
	bool any = false;
	for (int d = 0; d < nd; d++)
		any = any || nm[d].text;
	if (any && v->show_cursor && h >= 6) {
		FOR_SCANNED(v, h, k)
		{
			details(t, v, k, dc, nd, nm, buf, sizeof(buf));
			if (buf[0])
				det = TT_MAX(det, tt_grid_wrap(NULL, 1, 0, TT_ROLE_DIM, buf, g->w - 2, detcap));
			if (det == detcap)
				break;
		}
	}
	int rows_avail = h - 1 - det;
	size_t top = v->top;
	if (v->show_cursor && v->cursor < v->nrows) {
		if (v->cursor >= top + (size_t)rows_avail)
			top = v->cursor - (size_t)rows_avail + 1;
		if (v->cursor < top)
			top = v->cursor;
	}
	if (det) {
		details(t, v, v->cursor, dc, nd, nm, buf, sizeof(buf));
		tt_grid_wrap(g, 1, y + h - det, TT_ROLE_DIM, buf, g->w - 2, det);
	}
	draw_header(t, v, g, y, dc, dx, dw, nd, unit, xoff > 0, more, buf, sizeof(buf));
	/* rows */
	double *whole = tt_calloc((size_t)TT_MAX(nd, 1), sizeof(*whole));
	for (int d = 0; d < nd; d++)
		if (t->cols[dc[d]].type == TT_C_BAR)
			whole[d] = bar_whole(t, &t->cols[dc[d]]);
	int drawn = 0;
	for (int r = 0; r < rows_avail; r++) {
		size_t k = top + (size_t)r;
		if (k >= v->nrows)
			break;
		drawn++;
		size_t row = v->rows[k];
		int yy = y + 1 + r;
		bool cur = v->show_cursor && k == v->cursor;
		enum tt_role base = cur ? TT_ROLE_CURSOR :
				    v->row_role && v->row_role[row] ? (enum tt_role)v->row_role[row] :
								    TT_ROLE_DEFAULT;
		if (cur) {
			tt_grid_fill(g, 0, yy, g->w, ' ', TT_ROLE_CURSOR);
			tt_grid_put(g, 0, yy, TT_ROLE_CURSOR, ">", 1);
		}
		for (int d = 0; d < nd; d++)
			draw_cell(t, v, g, dc[d], dx[d], dw[d], yy, k, row, base, cur, &nm[d], whole[d],
				  unit[dc[d]], buf, sizeof(buf));
	}
	if (lay) {
		lay->header_y = y;
		lay->ncols = nd;
		for (int d = 0; d < nd; d++) {
			lay->col[d] = dc[d];
			lay->x[d] = dx[d];
			lay->w[d] = dw[d];
			lay->unit[d] = unit[dc[d]];
		}
		lay->npinned = TT_MIN(np, nd);
		lay->xoff = xoff;
		lay->max_xoff = max_xoff;
		lay->more_left = xoff > 0;
		lay->more_right = more;
		lay->top = top;
		lay->nrows = drawn;
		lay->details = det;
	}
	for (int d = 0; d < nd; d++)
		names_free(&nm[d]);
	free(nm);
	free(whole);
	free(w);
	free(unit);
	free(order);
	free(pw);
}
