/* The text grid panes draw into. */
#include "config.h"

#include "tracetop/grid.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/render.h"
#include "tracetop/escape.h"
#include "tracetop/util.h"

static const char *const role_names[] = {
#define _(id, mono, help) #id,
	TT_ROLES(_)
#undef _
};
static const char *const role_mono[] = {
#define _(id, mono, help) mono,
	TT_ROLES(_)
#undef _
};

/* "TITLE_FOCUS" -> "title.focus" */
const char *tt_role_name(enum tt_role r)
{
	static char names[TT_ROLE_COUNT][32];
	if ((unsigned)r >= TT_ROLE_COUNT)
		return "";
	if (!names[r][0]) {
		const char *s = role_names[r];
		size_t i = 0;
		for (; s[i] && i < sizeof(names[r]) - 1; i++)
			names[r][i] = s[i] == '_' ? '.' : (char)(s[i] | 0x20);
		names[r][i] = '\0';
	}
	return names[r];
}

const char *tt_role_mono(enum tt_role r)
{
	return (unsigned)r < TT_ROLE_COUNT ? role_mono[r] : "-";
}

int tt_role_lookup(const char *name)
{
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		if (strcmp(tt_role_name(r), name) == 0)
			return r;
	return -1;
}

void tt_grid_init(struct tt_grid *g, int w, int h)
{
	g->w = w < 1 ? 1 : w;
	g->h = h < 1 ? 1 : h;
	g->c = tt_calloc((size_t)g->w * (size_t)g->h, sizeof(*g->c));
	tt_grid_clear(g);
}

void tt_grid_free(struct tt_grid *g)
{
	free(g->c);
	g->c = NULL;
	g->w = g->h = 0;
}

void tt_grid_clear(struct tt_grid *g)
{
	for (size_t i = 0; i < (size_t)g->w * (size_t)g->h; i++) {
		g->c[i].cp = ' ';
		g->c[i].role = TT_ROLE_DEFAULT;
	}
}

/* Set one cell of row y, keeping wide characters whole: a cell written
 * over either half of a wide character blanks its other half.  A wide
 * character takes the cell and the one to its right (cp 0). */
static void set_cell(struct tt_grid *g, int x, int y, uint32_t cp, uint8_t role, int width)
{
	struct tt_gcell *row = tt_grid_at(g, 0, y);
	for (int i = x; i < x + width && i < g->w; i++) {
		if (row[i].cp == 0 && i > 0 && i == x)
			row[i - 1].cp = ' '; /* the left half of a wide character */
		if (i + 1 < g->w && row[i + 1].cp == 0 && i + 1 >= x + width)
			row[i + 1].cp = ' '; /* the right half */
	}
	row[x].cp = cp;
	row[x].role = role;
	if (width == 2) {
		row[x + 1].cp = 0;
		row[x + 1].role = role;
	}
}

/* ---- text cut inside a word (checked by the screen tests) ---- */

static _Thread_local struct tt_grid_cut *cut_log;
static _Thread_local size_t cut_n, cut_cap;
static _Thread_local bool cut_on;

void tt_grid_cuts_start(void)
{
	cut_on = true;
	cut_n = 0;
}

size_t tt_grid_cuts(const struct tt_grid_cut **v)
{
	*v = cut_log;
	return cut_n;
}

int tt_grid_put(struct tt_grid *g, int x, int y, enum tt_role role, const char *s, int maxw)
{
	if (y < 0 || y >= g->h || x >= g->w)
		return 0;
	int lim = maxw < 0 ? g->w - x : TT_MIN(maxw, g->w - x);
	int n = 0;
	uint32_t last = 0; /* (the last character put: an ellipsis?) */
	const char *start = s;
	char esc[8];
	const char *resume = NULL; /* (the text after an escape being put) */
	while (n < lim) {
		if (!*s) {
			if (!resume)
				break;
			s = resume;
			resume = NULL;
			continue;
		}
		uint32_t cp = tt_utf8_next(&s);
		if (!resume && tt_cp_needs_escape(cp)) {
			/* controls, C1 and direction marks never reach the
			 * terminal: shown as \x1b, \u202e (escape.h) */
			tt_cp_escape(cp, esc);
			resume = s;
			s = esc;
			continue;
		}
		int cw = tt_cp_width(cp);
		if (cw == 0)
			continue; /* a cell holds one character: marks are dropped */
		if (cw == 2 && n + 2 > lim) {
			cp = ' '; /* half a wide character does not show: a space */
			cw = 1;
		}
		if (x + n >= 0)
			set_cell(g, x + n, y, cp, (uint8_t)role, cw);
		else if (cw == 2 && x + n + 1 == 0)
			set_cell(g, 0, y, ' ', (uint8_t)role, 1);
		n += cw;
		last = cp;
	}
	if (cut_on && n >= lim && !resume && *s && last != 0x2026 && last != '~') {
		/* more text than room, and no ellipsis says so: cut inside a
		 * word, or a sentence cut short at a space */
		const char *q = s;
		while (*q == ' ')
			q++;
		if (*q) {
			TT_GROW(cut_log, cut_cap, cut_n + 1);
			struct tt_grid_cut *c = &cut_log[cut_n++];
			c->x = x + n;
			c->y = y;
			snprintf(c->text, sizeof(c->text), "%s", start);
		}
	}
	return n;
}

int tt_grid_wrap(struct tt_grid *g, int x, int y, enum tt_role role, const char *t, int w, int maxl)
{
	int rows = 0;
	if (w < 1 || maxl < 1)
		return 0;
	while (*t && rows < maxl) {
		const char *next;
		size_t lw, len = tt_wrap_line(t, (size_t)w, &lw, &next);
		if (rows == maxl - 1 && *next) {
			/* the last row and more to come: it ends at a word, then
			 * an ellipsis */
			const char *n2;
			size_t lw2, len2 = tt_wrap_line(t, (size_t)(w > 1 ? w - 1 : 1), &lw2, &n2);
			if (g) {
				char line[2048];
				snprintf(line, sizeof(line), "%.*s", (int)TT_MIN(len2, sizeof(line) - 1),
					 t);
				int k = tt_grid_put(g, x, y + rows, role, line, (int)lw2);
				tt_grid_put(g, x + k + (k && k < w - 1 ? 1 : 0), y + rows, role,
					    tt_render_ascii() ? "~" : "\xE2\x80\xA6", 1);
			}
			return rows + 1;
		}
		if (g) {
			char line[2048];
			snprintf(line, sizeof(line), "%.*s", (int)TT_MIN(len, sizeof(line) - 1), t);
			tt_grid_put(g, x, y + rows, role, line, (int)lw);
		}
		rows++;
		t = next;
	}
	return rows;
}

int tt_grid_printf(struct tt_grid *g, int x, int y, enum tt_role role, int maxw, const char *fmt,
		   ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tt_grid_put(g, x, y, role, buf, maxw);
}

void tt_grid_fill(struct tt_grid *g, int x, int y, int n, uint32_t cp, enum tt_role role)
{
	if (y < 0 || y >= g->h)
		return;
	for (int i = 0; i < n; i++) {
		if (x + i < 0 || x + i >= g->w)
			continue;
		set_cell(g, x + i, y, cp, (uint8_t)role, 1);
	}
}

void tt_grid_paint(struct tt_grid *g, int x, int y, int n, enum tt_role role)
{
	if (y < 0 || y >= g->h)
		return;
	for (int i = 0; i < n; i++)
		if (x + i >= 0 && x + i < g->w)
			tt_grid_at(g, x + i, y)->role = (uint8_t)role;
}

void tt_grid_bar(struct tt_grid *g, int x, int y, int width, double f, enum tt_role role)
{
	if (!(f > 0))
		return;
	if (f > 1)
		f = 1;
	if (tt_render_ascii()) {
		int k = (int)lround(f * width);
		if (k == 0)
			k = 1; /* never hide a non-zero value */
		tt_grid_fill(g, x, y, k, '#', role);
		return;
	}
	int eighths = (int)lround(f * width * 8);
	if (eighths == 0)
		eighths = 1;
	tt_grid_fill(g, x, y, eighths / 8, 0x2588, role);
	if (eighths % 8)
		tt_grid_fill(g, x + eighths / 8, y, 1, 0x2590 - (uint32_t)(eighths % 8), role);
}

void tt_grid_stack(struct tt_grid *g, int x, int y, int width, const double *f,
		   const enum tt_role *roles, const char *ascii, int k)
{
	/* cumulative rounding keeps the total exact and each segment in place */
	double acc = 0;
	int used = 0;
	size_t nascii = strlen(ascii);
	for (int i = 0; i < k; i++) {
		double v = f[i] > 0 ? f[i] : 0;
		acc += v;
		int upto = (int)lround((acc > 1 ? 1 : acc) * width);
		if (v > 0 && upto == used && used < width)
			upto = used + 1; /* a non-zero segment shows at least one cell */
		uint32_t a = (size_t)i < nascii ? (uint32_t)(unsigned char)ascii[i] : '#';
		uint32_t cp = tt_render_ascii() || k > 4 ? a :
		      (i == 0 ? 0x2588 : i == 1 ? 0x2593 : i == 2 ? 0x2592 : 0x2591);
		tt_grid_fill(g, x + used, y, upto - used, cp, roles[i]);
		used = upto;
	}
}

size_t tt_grid_row_text(const struct tt_grid *g, int y, char *buf, size_t n)
{
	size_t k = 0;
	if (!n)
		return 0;
	for (int x = 0; x < g->w && k + 5 < n; x++) {
		uint32_t cp = g->c[(size_t)y * (size_t)g->w + (size_t)x].cp;
		if (cp)
			k += tt_utf8_encode(cp, buf + k);
	}
	buf[k] = '\0';
	return k;
}

void tt_grid_dump(const struct tt_grid *g, FILE *out)
{
	size_t cap = (size_t)g->w * 4 + 8;
	char *line = tt_malloc(cap);
	for (int y = 0; y < g->h; y++) {
		size_t k = tt_grid_row_text(g, y, line, cap);
		while (k > 0 && line[k - 1] == ' ')
			line[--k] = '\0';
		fprintf(out, "%s\n", line);
	}
	free(line);
}
