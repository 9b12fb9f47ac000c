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

static void col_title(const struct tt_table *t, int c, enum tt_unit u, const struct tt_table_view *v,
		      char *buf, size_t n)
{
	const struct tt_col *col = &t->cols[c];
	const char *title = col->title ? col->title : col->name;
	if (col->type == TT_C_DUR)
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

/* (x, width) of the byte range [a, b) of a UTF-8 string, in columns */
static int cols_of(const char *s, size_t bytes)
{
	int w = 0;
	for (size_t i = 0; i < bytes && s[i]; i++)
		if ((s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

void tt_table_draw(const struct tt_table *t, const struct tt_table_view *v, struct tt_grid *g,
		   int y, int h)
{
	int nc = t->ncols;
	if (h <= 0 || nc == 0)
		return;
	int *w = tt_calloc((size_t)nc, sizeof(*w));
	enum tt_unit *unit = tt_calloc((size_t)nc, sizeof(*unit));
	bool *show = tt_calloc((size_t)nc, sizeof(*show));
	char buf[1024];
	/* natural widths */
	size_t scan = TT_MIN(v->nrows, (size_t)WIDTH_SCAN);
	for (int c = 0; c < nc; c++) {
		const struct tt_col *col = &t->cols[c];
		show[c] = !col->hidden_text;
		if (!show[c])
			continue;
		if (col->type == TT_C_DUR)
			unit[c] = tt_table_col_unit(t, c);
		col_title(t, c, unit[c], v, buf, sizeof(buf));
		w[c] = (int)tt_utf8_width(buf);
		if (is_bar(col))
			continue;
		for (size_t i = 0; i < scan + (v->nrows > scan ? (size_t)h : 0) && i < v->nrows; i++) {
			size_t k = i < scan ? i : v->top + (i - scan);
			if (k >= v->nrows)
				break;
			tt_cell_text(t, v->rows[k], c, unit[c], buf, sizeof(buf));
			int cw = (int)tt_utf8_width(buf);
			if (cw > w[c])
				w[c] = cw;
		}
	}
	/* fit: the left marker, then columns; names shrink first, bars get the rest */
	int avail = g->w - 2;
	int fixed = 0, nbars = 0;
	for (int c = 0; c < nc; c++)
		if (show[c]) {
			if (is_bar(&t->cols[c]))
				nbars++;
			else
				fixed += w[c] + GAP;
		}
	/* names shrink to a readable width first, and to the minimum only on a
	 * narrow screen; what still does not fit is reached by scrolling right */
	int floors[2] = {g->w >= 70 ? NAME_KEEP : MIN_NAME, MIN_NAME};
	for (int pass = 0; pass < 2 && fixed + nbars * (8 + GAP) > avail; pass++) {
		if (pass == 1 && g->w >= 70)
			break;
		while (fixed + nbars * (8 + GAP) > avail) {
			int widest = -1;
			for (int c = 0; c < nc; c++)
				if (show[c] && t->cols[c].type == TT_C_STR && w[c] > floors[pass] &&
				    (widest < 0 || w[c] > w[widest]))
					widest = c;
			if (widest < 0)
				break;
			int cut = TT_MIN(fixed + nbars * (8 + GAP) - avail, w[widest] - floors[pass]);
			w[widest] -= cut;
			fixed -= cut;
		}
	}
	if (nbars) {
		int left = avail - fixed;
		for (int c = 0; c < nc; c++)
			if (show[c] && is_bar(&t->cols[c])) {
				int want = t->cols[c].width ? t->cols[c].width : 30;
				int give = TT_MAX(8, TT_MIN(want, left / nbars - GAP));
				w[c] = give;
				left -= give + GAP;
				nbars--;
			}
	}
	/* scrolled right: never past the last column */
	int total = 0;
	for (int c = 0; c < nc; c++)
		if (show[c])
			total += w[c] + GAP;
	int xoff = TT_MAX(0, TT_MIN(v->xoff, total - GAP - avail));
	/* header */
	int x = 2 - xoff;
	tt_grid_fill(g, 0, y, g->w, ' ', TT_ROLE_HEADER);
	for (int c = 0; c < nc; c++) {
		if (!show[c])
			continue;
		const struct tt_col *col = &t->cols[c];
		col_title(t, c, unit[c], v, buf, sizeof(buf));
		int tw = (int)tt_utf8_width(buf);
		bool right = !is_bar(col) && col->type != TT_C_STR;
		char fit[1100];
		tt_utf8_fit(fit, sizeof(fit), buf, (size_t)w[c]);
		int at = right ? x + w[c] - TT_MIN(tw, w[c]) : x;
		if (at >= 0)
			tt_grid_put(g, at, y, TT_ROLE_HEADER, fit, w[c]);
		x += w[c] + GAP;
	}
	/* say that columns are cut off: scroll with h and l */
	if (xoff > 0)
		tt_grid_put(g, 0, y, TT_ROLE_HEADER, tt_render_ascii() ? "<" : "\xE2\x86\x90", 1);
	if (x - GAP > g->w)
		tt_grid_put(g, g->w - 1, y, TT_ROLE_HEADER, tt_render_ascii() ? ">" : "\xE2\x86\x92",
			    1);
	/* rows */
	for (int r = 0; r + 1 < h; r++) {
		size_t k = v->top + (size_t)r;
		if (k >= v->nrows)
			break;
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
		x = 2 - xoff;
		for (int c = 0; c < nc; c++) {
			if (!show[c])
				continue;
			const struct tt_col *col = &t->cols[c];
			if (col->type == TT_C_BAR) {
				double mx = col->bar_max;
				if (!(mx > 0))
					for (size_t i = 0; i < t->nrows; i++) {
						double vv = tt_cell_num(tt_table_cell(t, i, col->bar_of));
						if (vv > mx)
							mx = vv;
					}
				double val = tt_cell_num(tt_table_cell(t, row, col->bar_of));
				if (x >= 0)
					tt_grid_bar(g, x, yy, w[c], mx > 0 && !isnan(val) ? val / mx : 0,
						    col->role[0] ? (enum tt_role)col->role[0] :
								   TT_ROLE_BAR);
			} else if (col->type == TT_C_STACK) {
				double f[4];
				enum tt_role roles[4];
				tt_table_stack_fractions(t, row, c, f);
				for (int i = 0; i < 4; i++)
					roles[i] = col->role[i] ? (enum tt_role)col->role[i] : TT_ROLE_BAR;
				if (x >= 0)
					tt_grid_stack(g, x, yy, w[c], f, roles,
						      col->glyphs ? col->glyphs : "#=:.", col->nstack);
			} else {
				tt_cell_text(t, row, c, unit[c], buf, sizeof(buf));
				char fit[1100];
				tt_utf8_fit(fit, sizeof(fit), buf, (size_t)w[c]);
				int tw = (int)tt_utf8_width(fit);
				bool right = col->type != TT_C_STR;
				int at = right ? x + w[c] - tw : x;
				if (at >= 0)
					tt_grid_put(g, at, yy, base, fit, w[c]);
				size_t pos;
				if (!cur && v->filter && col->type == TT_C_STR &&
				    ci_contains(fit, v->filter, &pos))
					tt_grid_paint(g, at + cols_of(fit, pos), yy,
						      cols_of(fit + pos, strlen(v->filter)), TT_ROLE_MATCH);
			}
			x += w[c] + GAP;
		}
	}
	free(w);
	free(unit);
	free(show);
}
