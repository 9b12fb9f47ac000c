/* Typed tables and their text, CSV and JSON forms. */
#include "config.h"

#include "tracetop/render.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/escape.h"
#include "tracetop/util.h"

struct tt_table *tt_table_new(const char *name, const struct tt_col *cols, int ncols)
{
	struct tt_table *t = tt_calloc(1, sizeof(*t));
	t->name = tt_strdup(name);
	t->cols = tt_malloc((size_t)ncols * sizeof(*cols));
	memcpy(t->cols, cols, (size_t)ncols * sizeof(*cols));
	t->ncols = ncols;
	tt_arena_init(&t->strs, 16 * 1024);
	return t;
}

void tt_table_free(struct tt_table *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->title);
	free(t->cols);
	free(t->cells);
	tt_arena_free(&t->strs);
	tt_hmap_free(&t->keyix);
	free(t->keyed);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t);
}

size_t tt_table_add_row(struct tt_table *t)
{
	if (t->nrows == t->caprows) {
		size_t c = t->caprows ? t->caprows * 2 : 32;
		t->cells = tt_realloc_array(t->cells, c * (size_t)t->ncols, sizeof(*t->cells));
		t->caprows = c;
	}
	memset(&t->cells[t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

void tt_table_reserve(struct tt_table *t, size_t n)
{
	if (n <= t->caprows)
		return;
	t->cells = tt_realloc_array(t->cells, n * (size_t)t->ncols, sizeof(*t->cells));
	t->caprows = n;
}

struct tt_table *tt_table_copy(const struct tt_table *t)
{
	struct tt_table *c = tt_table_new(t->name, t->cols, t->ncols);
	if (t->title)
		c->title = tt_strdup(t->title);
	c->nkeys = t->nkeys;
	for (size_t i = 0; i < t->nnotes; i++)
		tt_table_add_note(c, "%s", t->notes[i]);
	for (size_t r = 0; r < t->nrows; r++) {
		size_t k = tt_table_add_row(c);
		for (int col = 0; col < t->ncols; col++) {
			const struct tt_cell *x = tt_table_cell(t, r, col);
			if (x->kind == TT_CV_S)
				tt_table_set_str(c, k, col, x->v.s);
			else
				c->cells[k * (size_t)c->ncols + (size_t)col] = *x;
		}
	}
	return c;
}

int tt_table_add_col(struct tt_table *t, const struct tt_col *c)
{
	int nc = t->ncols + 1;
	struct tt_cell *cells = tt_calloc(t->caprows ? t->caprows * (size_t)nc : 1, sizeof(*cells));
	for (size_t r = 0; r < t->nrows; r++)
		memcpy(&cells[r * (size_t)nc], &t->cells[r * (size_t)t->ncols],
		       (size_t)t->ncols * sizeof(*cells));
	free(t->cells);
	t->cells = cells;
	t->cols = tt_realloc_array(t->cols, (size_t)nc, sizeof(*t->cols));
	t->cols[t->ncols] = *c;
	t->ncols = nc;
	return nc - 1;
}

static struct tt_cell *cell(struct tt_table *t, size_t row, int col)
{
	return &t->cells[row * (size_t)t->ncols + (size_t)col];
}

void tt_table_set_str(struct tt_table *t, size_t row, int col, const char *s)
{
	struct tt_cell *c = cell(t, row, col);
	c->kind = TT_CV_S;
	c->v.s = tt_arena_strndup(&t->strs, s, strlen(s));
}

void tt_table_set_static(struct tt_table *t, size_t row, int col, const char *s)
{
	struct tt_cell *c = cell(t, row, col);
	c->kind = TT_CV_S;
	c->v.s = s;
}

void tt_table_set_keyed(struct tt_table *t, size_t row, int col, uint64_t key, const char *s)
{
	uint32_t *slot = tt_hmap_slot(&t->keyix, key);
	if (*slot != TT_HMAP_NONE) {
		tt_table_set_static(t, row, col, t->keyed[*slot]);
		return;
	}
	tt_table_set_str(t, row, col, s);
	TT_GROW(t->keyed, t->capkeyed, t->nkeyed + 1);
	t->keyed[t->nkeyed] = cell(t, row, col)->v.s;
	*slot = (uint32_t)t->nkeyed++;
}

void tt_table_set_int(struct tt_table *t, size_t row, int col, int64_t v)
{
	struct tt_cell *c = cell(t, row, col);
	c->kind = TT_CV_I;
	c->v.i = v;
}

void tt_table_set_num(struct tt_table *t, size_t row, int col, double v)
{
	struct tt_cell *c = cell(t, row, col);
	if (isnan(v)) {
		c->kind = TT_CV_NONE;
		return;
	}
	c->kind = TT_CV_D;
	c->v.d = v;
}

void tt_table_set_title(struct tt_table *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(t->title);
	t->title = tt_strdup(buf);
}

void tt_table_add_note(struct tt_table *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	t->notes = tt_realloc_array(t->notes, t->nnotes + 1, sizeof(*t->notes));
	t->notes[t->nnotes++] = tt_strdup(buf);
}

int tt_table_col(const struct tt_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return i;
	return -1;
}

double tt_cell_num(const struct tt_cell *c)
{
	switch (c->kind) {
	case TT_CV_I:
		return (double)c->v.i;
	case TT_CV_D:
		return c->v.d;
	default:
		return NAN;
	}
}

struct sort_ctx {
	const struct tt_table *t;
	int col;
	bool desc;
};

static int row_cmp(const void *a, const void *b, void *vctx)
{
	const struct sort_ctx *x = vctx;
	const struct tt_cell *ca = (const struct tt_cell *)a + x->col;
	const struct tt_cell *cb = (const struct tt_cell *)b + x->col;
	bool na = ca->kind == TT_CV_NONE, nb = cb->kind == TT_CV_NONE;
	if (na || nb)
		return na == nb ? 0 : na ? 1 : -1; /* empty cells last either way */
	int r;
	if (ca->kind == TT_CV_S || cb->kind == TT_CV_S) {
		r = strcmp(ca->kind == TT_CV_S ? ca->v.s : "", cb->kind == TT_CV_S ? cb->v.s : "");
	} else if (ca->kind == TT_CV_I && cb->kind == TT_CV_I) {
		r = ca->v.i < cb->v.i ? -1 : ca->v.i > cb->v.i;
	} else {
		double da = tt_cell_num(ca), db = tt_cell_num(cb);
		r = da < db ? -1 : da > db;
	}
	return x->desc ? -r : r;
}

void tt_table_sort(struct tt_table *t, int col, bool desc)
{
	if (col < 0 || col >= t->ncols || t->nrows < 2)
		return;
	struct sort_ctx c = {t, col, desc};
	tt_msort(t->cells, t->nrows, (size_t)t->ncols * sizeof(*t->cells), row_cmp, &c);
}

void tt_table_truncate(struct tt_table *t, size_t n)
{
	if (n < t->nrows)
		t->nrows = n;
}

bool tt_table_col_has_value(const struct tt_table *t, int col)
{
	for (size_t r = 0; r < t->nrows; r++) {
		enum tt_cell_kind k = tt_table_cell(t, r, col)->kind;
		if (k == TT_CV_I || k == TT_CV_D)
			return true;
	}
	return false;
}

enum tt_unit tt_table_col_unit(const struct tt_table *t, int col)
{
	/* (magnitudes as doubles: a cell may hold 1e308 or INT64_MIN) */
	double mx = 0;
	int g = t->cols[col].unit_group;
	for (int k = 0; k < t->ncols; k++) {
		/* the time columns of its group: of the same unit_group, shown
		 * (a hidden column's values decide nothing on screen) */
		if (t->cols[k].type != TT_C_DUR || t->cols[k].unit_group != g ||
		    (k != col && t->cols[k].hidden_text))
			continue;
		for (size_t r = 0; r < t->nrows; r++) {
			const struct tt_cell *c = tt_table_cell(t, r, k);
			double v = c->kind == TT_CV_I ? (double)c->v.i :
				   c->kind == TT_CV_D ? c->v.d :
							0;
			if (fabs(v) > mx)
				mx = fabs(v);
		}
	}
	return tt_unit_pick(mx < 9e18 ? (int64_t)mx : INT64_MAX);
}

static double col_max(const struct tt_table *t, int col)
{
	double mx = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double v = tt_cell_num(tt_table_cell(t, r, col));
		if (v > mx)
			mx = v;
	}
	return mx;
}

void tt_table_stack_fractions(const struct tt_table *t, size_t row, int col,
			      double f[TT_STACK_MAX])
{
	const struct tt_col *c = &t->cols[col];
	double sum = 0;
	for (int i = 0; i < TT_STACK_MAX; i++) {
		f[i] = 0;
		if (i < c->nstack) {
			double v = tt_cell_num(tt_table_cell(t, row, c->stack[i]));
			f[i] = isnan(v) || v < 0 ? 0 : v;
			sum += f[i];
		}
	}
	double whole = c->bar_max > 0 ? c->bar_max : sum;
	for (int i = 0; i < TT_STACK_MAX; i++)
		f[i] = whole > 0 ? f[i] / whole : 0;
}

/* a number in fixed notation, or in 3 significant digits with an exponent
 * when fixed notation would be longer than a screen is wide (1e308) */
static size_t fmt_fixed(char *buf, size_t n, int prec, double v)
{
	if (fabs(v) >= 1e15 || isinf(v))
		snprintf(buf, n, "%.3g", v);
	else
		snprintf(buf, n, "%.*f", prec, v);
	return strlen(buf);
}

/* s as a terminal shows it: escaped when it holds controls (escape.h),
 * in a buffer of this thread that the next call reuses */
static const char *shown(const char *s)
{
	static _Thread_local char *ebuf;
	static _Thread_local size_t ecap;
	const unsigned char *p = (const unsigned char *)s;
	bool plain = true;
	for (; *p && plain; p++)
		plain = *p >= 0x20 && *p < 0x7F;
	if (plain)
		return s;
	size_t need = strlen(s) * 6 + 1;
	if (need > ecap) {
		free(ebuf);
		ecap = need;
		ebuf = tt_malloc(ecap);
	}
	tt_text_escape(ebuf, ecap, s);
	return ebuf;
}

/* the whole of a bar column: its bar_max, or the largest value of the
 * column it draws (a scan of every row: callers drawing a whole column
 * take it once, bar_whole) */
static double bar_whole(const struct tt_table *t, int col)
{
	const struct tt_col *c = &t->cols[col];
	return c->bar_max > 0 ? c->bar_max : col_max(t, c->bar_of);
}

/* a bar cell of `width` columns; whole: the bar's whole (TT_C_BAR; < 0:
 * look it up) */
static size_t bar_text(const struct tt_table *t, size_t row, int col, int width, double whole,
		       char *buf, size_t n)
{
	const struct tt_col *c = &t->cols[col];
	if (c->type == TT_C_BAR) {
		double mx = whole >= 0 ? whole : bar_whole(t, col);
		double v = tt_cell_num(tt_table_cell(t, row, c->bar_of));
		return tt_bar(buf, n, mx > 0 && !isnan(v) ? v / mx : 0, width);
	}
	double f[TT_STACK_MAX];
	tt_table_stack_fractions(t, row, col, f);
	static const char *const uni[] = {"\xE2\x96\x88", "\xE2\x96\x93", "\xE2\x96\x92",
					  "\xE2\x96\x91"};
	const char *g[TT_STACK_MAX];
	char asc[TT_STACK_MAX][2];
	size_t ng = c->glyphs ? strlen(c->glyphs) : 0; /* (may be fewer) */
	for (int i = 0; i < TT_STACK_MAX; i++) {
		asc[i][0] = (size_t)i < ng ? c->glyphs[i] : "#=:.+*-~"[i];
		asc[i][1] = '\0';
		g[i] = tt_render_ascii() || c->nstack > 4 || i >= 4 ? asc[i] : uni[i];
	}
	return tt_bar_stacked(buf, n, f, g, c->nstack, width);
}

size_t tt_cell_text(const struct tt_table *t, size_t row, int col, enum tt_unit unit, char *buf,
		    size_t n)
{
	const struct tt_col *c = &t->cols[col];
	const struct tt_cell *x = tt_table_cell(t, row, col);
	if (!n)
		return 0;
	buf[0] = '\0';
	if (c->type == TT_C_BAR || c->type == TT_C_STACK)
		return bar_text(t, row, col, c->width ? c->width : 20, -1, buf, n);
	if (x->kind == TT_CV_NONE) {
		if (c->type != TT_C_STR)
			snprintf(buf, n, "-");
		return strlen(buf);
	}
	switch (c->type) {
	case TT_C_STR:
		if (x->kind == TT_CV_S)
			return tt_utf8_fit(buf, n, shown(x->v.s), c->width ? (size_t)c->width : 48);
		/* a number in a text column */
		/* fall through */
	case TT_C_INT:
		if (x->kind == TT_CV_I)
			return tt_fmt_count(buf, n, x->v.i);
		return fmt_fixed(buf, n, c->prec, x->v.d);
	case TT_C_NUM:
		return fmt_fixed(buf, n, c->prec, tt_cell_num(x));
	case TT_C_DUR: {
		/* the unit is in the header (its group's: a small value in a
		 * large unit keeps two significant digits, never reads 0.0) */
		static const double div[] = {1, 1e3, 1e6, 1e9};
		double v = tt_cell_num(x) / div[unit];
		int prec = unit == TT_U_NS || fabs(v) >= 100 ? 0 : 1;
		if (unit != TT_U_NS && v != 0 && fabs(v) < 1)
			prec = TT_MIN(4, (int)ceil(-log10(fabs(v))) + 1);
		return fmt_fixed(buf, n, prec, v);
	}
	case TT_C_PCT:
		snprintf(buf, n, "%.*f%%", c->prec ? c->prec : 1, tt_cell_num(x));
		return strlen(buf);
	case TT_C_BAR:
	case TT_C_STACK:
		break;
	}
	return strlen(buf);
}

int tt_format_parse(const char *s, enum tt_format *f)
{
	if (strcmp(s, "table") == 0 || strcmp(s, "text") == 0)
		*f = TT_FMT_TABLE;
	else if (strcmp(s, "csv") == 0)
		*f = TT_FMT_CSV;
	else if (strcmp(s, "json") == 0)
		*f = TT_FMT_JSON;
	else
		return -1;
	return 0;
}

/* ---- text ---- */

/* how a column is laid out in text */
enum { K_NUM, K_NAME, K_PROSE, K_BAR };

#define NAME_KEEP 28  /* names keep this many columns when a table splits */
#define NAME_MIN 10   /* and this many at least */
#define PROSE_KEEP 40 /* prose wraps at this width at least, when it can */
#define PROSE_MIN 16
#define BAR_MIN 8

struct tcol {
	int c;           /* table column */
	int kind;
	bool key;        /* repeated in every block */
	size_t tw;       /* the header's width */
	size_t nat;      /* the widest text (whole names, prose on one line) */
	size_t minw;     /* the narrowest it may get */
	size_t w;        /* the width used */
	char **names;    /* K_NAME drawn narrower than its names: shortened */
	double whole;    /* K_BAR: the value of a whole bar (taken once) */
};

/* a line being put together: trailing spaces dropped when it is written */
struct line {
	char *s;
	size_t n, cap, w; /* bytes, capacity, columns */
};

static void line_put(struct line *l, const char *s, size_t len, size_t w)
{
	TT_GROW(l->s, l->cap, l->n + len + 1);
	memcpy(l->s + l->n, s, len);
	l->n += len;
	l->s[l->n] = '\0';
	l->w += w;
}

static void line_pad_to(struct line *l, size_t col)
{
	while (l->w < col)
		line_put(l, " ", 1, 1);
}

static void line_flush(struct line *l, FILE *out)
{
	while (l->n && l->s[l->n - 1] == ' ')
		l->n--;
	if (l->n)
		fwrite(l->s, 1, l->n, out);
	fputc('\n', out);
	l->n = l->w = 0;
}

/* text s wrapped into width columns, each line written (width 0: whole) */
static void put_wrapped_text(const char *s, int width, FILE *out)
{
	s = shown(s);
	if (width <= 0) {
		fputs(s, out);
		fputc('\n', out);
		return;
	}
	do {
		const char *next;
		size_t len = tt_wrap_line(s, (size_t)width, NULL, &next);
		fwrite(s, 1, len, out);
		fputc('\n', out);
		s = next;
	} while (*s);
}

static size_t tcol_sum(const struct tcol *tc, const int *which, int n)
{
	size_t sum = 0;
	for (int i = 0; i < n; i++)
		sum += tc[which[i]].w + (i ? 2 : 0);
	return sum;
}

/* Narrow the columns which[0..n) until they fit in width, the widest
 * shrinkable one first, none below floor(kind) nor its minw. */
static void shrink(struct tcol *tc, const int *which, int n, size_t width, const size_t floor[4])
{
	for (;;) {
		size_t sum = tcol_sum(tc, which, n);
		if (sum <= width)
			return;
		int widest = -1;
		for (int i = 0; i < n; i++) {
			struct tcol *x = &tc[which[i]];
			size_t f = TT_MAX(x->minw, TT_MIN(x->nat, floor[x->kind]));
			if (x->kind != K_NUM && x->w > f && (widest < 0 || x->w > tc[widest].w))
				widest = which[i];
		}
		if (widest < 0)
			return;
		struct tcol *x = &tc[widest];
		size_t f = TT_MAX(x->minw, TT_MIN(x->nat, floor[x->kind]));
		x->w -= TT_MIN(sum - width, x->w - f);
	}
}

/* the text of cell (r, c) as the text table shows it on its first line */
static const char *cell_shown(const struct tt_table *t, const struct tcol *x, size_t r,
			      enum tt_unit unit, char *buf, size_t n)
{
	const struct tt_cell *cell = tt_table_cell(t, r, x->c);
	if (t->cols[x->c].type == TT_C_STR && cell->kind == TT_CV_S)
		return shown(x->names && x->names[r] ? x->names[r] : cell->v.s);
	if (x->kind == K_BAR && x->w)
		bar_text(t, r, x->c, (int)x->w, x->whole, buf, n);
	else
		tt_cell_text(t, r, x->c, unit, buf, n);
	return buf;
}

static void print_block(const struct tt_table *t, struct tcol *tc, const int *which, int n,
			const enum tt_unit *unit, FILE *out)
{
	struct line l = {0};
	char buf[1024];
	/* the header */
	size_t x = 0;
	for (int i = 0; i < n; i++) {
		struct tcol *c = &tc[which[i]];
		const struct tt_col *col = &t->cols[c->c];
		const char *title = col->title ? col->title : col->name;
		if (col->type == TT_C_DUR && tt_table_col_has_value(t, c->c)) {
			snprintf(buf, sizeof(buf), "%s (%s)", title, tt_unit_name(unit[c->c]));
			title = buf;
		}
		line_pad_to(&l, x + (c->kind == K_NUM ? c->w - c->tw : 0));
		line_put(&l, title, strlen(title), c->tw);
		x += c->w + 2;
	}
	line_flush(&l, out);
	for (size_t r = 0; r < t->nrows; r++) {
		/* prose wraps in its column: the row takes as many lines as its
		 * longest text needs */
		const char *rest[TT_LAYOUT_MAXCOLS] = {0};
		char *own[TT_LAYOUT_MAXCOLS] = {0}; /* (shown() reuses its buffer) */
		bool more = false;
		x = 0;
		for (int i = 0; i < n; i++) {
			struct tcol *c = &tc[which[i]];
			const char *s = cell_shown(t, c, r, unit[c->c], buf, sizeof(buf));
			size_t sw;
			if (c->kind == K_PROSE && c->w < c->nat && i < TT_LAYOUT_MAXCOLS) {
				const char *next;
				s = own[i] = tt_strdup(s);
				size_t len = tt_wrap_line(s, c->w, &sw, &next);
				line_pad_to(&l, x);
				line_put(&l, s, len, sw);
				if (*next) {
					rest[i] = next;
					more = true;
				}
			} else {
				sw = tt_utf8_width(s);
				line_pad_to(&l, x + (c->kind == K_NUM && sw < c->w ? c->w - sw : 0));
				line_put(&l, s, strlen(s), sw);
			}
			x += c->w + 2;
		}
		line_flush(&l, out);
		while (more) {
			more = false;
			x = 0;
			for (int i = 0; i < n && i < TT_LAYOUT_MAXCOLS; i++) {
				struct tcol *c = &tc[which[i]];
				if (rest[i]) {
					const char *next;
					size_t sw, len = tt_wrap_line(rest[i], c->w, &sw, &next);
					line_pad_to(&l, x);
					line_put(&l, rest[i], len, sw);
					rest[i] = *next ? next : NULL;
					more = more || rest[i];
				}
				x += c->w + 2;
			}
			line_flush(&l, out);
		}
		for (int i = 0; i < n && i < TT_LAYOUT_MAXCOLS; i++)
			free(own[i]);
	}
	free(l.s);
}

static void print_text(const struct tt_table *t, const struct tt_print_opts *o, FILE *out)
{
	int nc = t->ncols;
	size_t width = o && o->max_width > 0 ? (size_t)o->max_width : 0;
	enum tt_unit *unit = tt_calloc((size_t)nc + 1, sizeof(*unit));
	struct tcol *tc = tt_calloc((size_t)nc + 1, sizeof(*tc));
	int *all = tt_calloc((size_t)nc + 1, sizeof(*all));
	int nv = 0;
	char buf[1024];
	for (int c = 0; c < nc; c++) {
		const struct tt_col *col = &t->cols[c];
		if (col->hidden_text)
			continue;
		struct tcol *x = &tc[nv];
		x->c = c;
		all[nv] = nv;
		nv++;
		if (col->type == TT_C_DUR)
			unit[c] = tt_table_col_unit(t, c);
		const char *title = col->title ? col->title : col->name;
		/* (no unit over a column without a value: none says which) */
		if (col->type == TT_C_DUR && tt_table_col_has_value(t, c)) {
			snprintf(buf, sizeof(buf), "%s (%s)", title, tt_unit_name(unit[c]));
			title = buf;
		}
		x->tw = tt_utf8_width(title);
		x->nat = x->tw;
		x->kind = col->type == TT_C_BAR || col->type == TT_C_STACK ? K_BAR :
			  col->type == TT_C_STR ? (col->free_text ? K_PROSE : K_NAME) :
						  K_NUM;
		if (x->kind == K_BAR) {
			x->whole = col->type == TT_C_BAR ? bar_whole(t, c) : -1;
			x->nat = TT_MAX(x->nat, (size_t)(col->width ? col->width : 20));
			x->minw = TT_MAX(x->tw, (size_t)BAR_MIN);
			x->w = x->nat;
			continue;
		}
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = cell_shown(t, x, r, unit[c], buf, sizeof(buf));
			x->nat = TT_MAX(x->nat, tt_utf8_width(s));
			const struct tt_cell *cell = tt_table_cell(t, r, c);
			if (x->kind == K_NAME && cell->kind == TT_CV_S && tt_text_is_prose(cell->v.s))
				x->kind = K_PROSE; /* (sentences wrap, names shorten) */
		}
		x->minw = x->kind == K_NUM ? x->nat :
			  TT_MAX(x->tw, TT_MIN(x->nat, (size_t)(x->kind == K_NAME ? NAME_MIN :
											PROSE_MIN)));
		x->w = x->nat;
	}
	/* the key columns (tt_table_draw's: the first, and up to the first
	 * text column when the ones before it are integers) */
	int nkeys = nv && tc[0].kind != K_BAR ? 1 : 0;
	for (int k = 0; k < nv && k < 3 && tc[0].kind != K_BAR; k++) {
		if (tc[k].kind == K_NAME) {
			nkeys = k + 1;
			break;
		}
		if (t->cols[tc[k].c].type != TT_C_INT)
			break;
	}
	if (t->nkeys > 0) {
		/* (the table says: its visible columns among the first nkeys) */
		nkeys = 0;
		while (nkeys < nv && tc[nkeys].c < t->nkeys)
			nkeys++;
	}
	for (int k = 0; k < nkeys; k++)
		tc[k].key = true;
	/* the blocks of columns printed one below the other: all the columns
	 * in one when they fit (names shortened, prose wrapped, bars
	 * narrowed); else the key columns in each, the others in turn */
	int *blk = tt_calloc((size_t)nv + 1, sizeof(*blk)); /* block of each column */
	int nblocks = 1;
	if (width && tcol_sum(tc, all, nv) > width) {
		const size_t keep[4] = {0, width >= 70 ? NAME_KEEP : NAME_MIN, PROSE_KEEP, 12};
		const size_t least[4] = {0, NAME_MIN, PROSE_MIN, BAR_MIN};
		shrink(tc, all, nv, width, keep);
		if (tcol_sum(tc, all, nv) > width) {
			/* the keys take half the width at most */
			shrink(tc, all, nkeys, width / 2, least);
			size_t kw = tcol_sum(tc, all, nkeys);
			size_t x = kw;
			int in_block = 0;
			nblocks = 1;
			for (int i = nkeys; i < nv; i++) {
				struct tcol *c = &tc[i];
				size_t gap = nkeys || in_block ? 2 : 0;
				/* prose wraps in the room the block has left, when
				 * that is a readable width */
				if (c->kind == K_PROSE && x + gap + c->w > width &&
				    width >= x + gap + TT_MAX(c->minw, (size_t)PROSE_MIN + 8))
					c->w = width - x - gap;
				if (x + gap + c->w > width && in_block) {
					nblocks++;
					in_block = 0;
					x = kw;
					gap = nkeys ? 2 : 0;
				}
				if (x + gap + c->w > width && c->kind != K_NUM) {
					/* alone with the keys and still too wide */
					size_t room = width > x + gap ? width - x - gap : 0;
					c->w = TT_MAX(c->minw, TT_MIN(c->w, room));
				}
				blk[i] = nblocks - 1;
				x += gap + c->w;
				in_block++;
			}
			/* the key names take the room every block has left */
			size_t spare = width;
			for (int b = 0; b < nblocks; b++) {
				size_t sum = kw;
				for (int i = nkeys; i < nv; i++)
					if (blk[i] == b)
						sum += (sum ? 2 : 0) + tc[i].w;
				spare = TT_MIN(spare, width > sum ? width - sum : 0);
			}
			for (int i = 0; i < nkeys && spare; i++) {
				if (tc[i].kind == K_NUM || tc[i].kind == K_BAR)
					continue;
				size_t give = TT_MIN(spare, tc[i].nat - tc[i].w);
				tc[i].w += give;
				spare -= give;
				kw += give;
			}
			/* names and prose of a block take the room it has left */
			for (int b = 0; b < nblocks; b++) {
				size_t sum = kw;
				for (int i = nkeys; i < nv; i++)
					if (blk[i] == b)
						sum += (sum ? 2 : 0) + tc[i].w;
				for (int i = nkeys; i < nv && sum < width; i++) {
					if (blk[i] != b || tc[i].kind == K_NUM || tc[i].kind == K_BAR)
						continue;
					size_t give = TT_MIN(width - sum, tc[i].nat - tc[i].w);
					tc[i].w += give;
					sum += give;
				}
			}
		}
	}
	/* names narrower than they are: shortened, different names staying
	 * different */
	for (int i = 0; i < nv; i++) {
		struct tcol *x = &tc[i];
		if (x->kind != K_NAME || x->w >= x->nat || !t->nrows)
			continue;
		const char **in = tt_calloc(t->nrows, sizeof(*in));
		for (size_t r = 0; r < t->nrows; r++) {
			const struct tt_cell *cell = tt_table_cell(t, r, x->c);
			in[r] = cell->kind == TT_CV_S ? cell->v.s : "";
		}
		x->names = tt_names_fit(in, t->nrows, x->w);
		free(in);
	}
	if (t->title)
		put_wrapped_text(t->title, (int)width, out);
	int *which = tt_calloc((size_t)nv + 1, sizeof(*which));
	for (int b = 0; b < nblocks; b++) {
		int n = 0;
		for (int i = 0; i < nv; i++)
			if (tc[i].key || blk[i] == b)
				which[n++] = i;
		if (b)
			fputc('\n', out);
		print_block(t, tc, which, n, unit, out);
	}
	for (size_t i = 0; i < t->nnotes; i++)
		put_wrapped_text(t->notes[i], (int)width, out);
	for (int i = 0; i < nv; i++)
		tt_names_free(tc[i].names, t->nrows);
	free(which);
	free(blk);
	free(tc);
	free(all);
	free(unit);
}

/* ---- CSV and JSON ---- */

/* CSV and JSON go out through a buffer of their own and one fwrite per
 * buffer: stdio's putc and fputs lock the stream on every call (the
 * program has threads), a cost per character on a long table */
struct obuf {
	FILE *f; /* NULL: the text stays in b (tt_cell_csv) */
	size_t n;
	char b[16384];
};

static void ob_flush(struct obuf *o)
{
	if (o->f && o->n)
		fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
}

static void ob_mem(struct obuf *o, const char *s, size_t n)
{
	while (n) {
		if (o->n == sizeof(o->b)) {
			if (!o->f)
				return; /* (full: what fits is kept) */
			ob_flush(o);
		}
		size_t k = sizeof(o->b) - o->n < n ? sizeof(o->b) - o->n : n;
		memcpy(o->b + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}

static void ob_str(struct obuf *o, const char *s)
{
	ob_mem(o, s, strlen(s));
}

static void ob_char(struct obuf *o, char c)
{
	if (o->n < sizeof(o->b))
		o->b[o->n++] = c;
	else
		ob_mem(o, &c, 1);
}

/* as printf's "%lld" */
static void ob_int(struct obuf *o, int64_t v)
{
	char buf[TT_I64_DEC_MAX];
	ob_mem(o, buf, tt_i64_dec(buf, v));
}

/* a CSV field quoted per RFC 4180; a field starting with '#' is quoted
 * too: a line "# name" starts a table in multi-table CSV, an op named
 * "# TensorsToDeviceModule #" must not */
static void csv_field(struct obuf *o, const char *s)
{
	if (s[0] != '#' && !strpbrk(s, ",\"\n\r")) {
		ob_str(o, s);
		return;
	}
	ob_char(o, '"');
	for (const char *q; (q = strchr(s, '"')); s = q + 1) {
		ob_mem(o, s, (size_t)(q - s) + 1);
		ob_char(o, '"'); /* (a quote doubled) */
	}
	ob_str(o, s);
	ob_char(o, '"');
}

/* a JSON string: '"' and '\' escaped, control characters as \u00XX */
static void json_str(struct obuf *o, const char *s)
{
	ob_char(o, '"');
	const unsigned char *p = (const unsigned char *)s, *run = p;
	for (; *p; p++) {
		if (*p != '"' && *p != '\\' && *p >= 0x20)
			continue;
		ob_mem(o, (const char *)run, (size_t)(p - run));
		run = p + 1;
		if (*p < 0x20) {
			char esc[8];
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			ob_str(o, esc);
		} else {
			ob_char(o, '\\');
			ob_char(o, (char)*p);
		}
	}
	ob_mem(o, (const char *)run, (size_t)(p - run));
	ob_char(o, '"');
}

/* µs from ns, exactly: "1234", "1234.5", "0.001" */
static void put_us(struct obuf *o, double ns)
{
	char buf[64];
	double us = ns / 1000.0;
	if (ns == floor(ns) && fabs(ns) < 9e15) {
		long long v = (long long)ns;
		long long ip = v / 1000, fp = v % 1000;
		if (fp < 0)
			fp = -fp;
		if (fp == 0) {
			ob_int(o, ip);
			return;
		}
		snprintf(buf, sizeof(buf), "%s%lld.%03lld", (v < 0 && ip == 0) ? "-" : "", ip, fp);
		size_t n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		ob_mem(o, buf, n);
		return;
	}
	ob_mem(o, buf, tt_fmt_real(buf, sizeof(buf), us));
}

static void put_value(struct obuf *o, const struct tt_col *col, const struct tt_cell *x,
		      bool json, bool csv_safe)
{
	char buf[64];
	switch (x->kind) {
	case TT_CV_NONE:
		if (json)
			ob_str(o, "null");
		return;
	case TT_CV_S:
		if (json) {
			json_str(o, x->v.s);
		} else if (csv_safe && x->v.s[0] && strchr("=+-@\t\r", x->v.s[0])) {
			size_t n = strlen(x->v.s);
			char *q = tt_malloc(n + 2);
			q[0] = '\'';
			memcpy(q + 1, x->v.s, n + 1);
			csv_field(o, q);
			free(q);
		} else {
			csv_field(o, x->v.s);
		}
		return;
	case TT_CV_I:
		if (col->type == TT_C_DUR)
			put_us(o, (double)x->v.i);
		else
			ob_int(o, x->v.i);
		return;
	case TT_CV_D:
		if (isinf(x->v.d) || isnan(x->v.d)) {
			if (json)
				ob_str(o, "null");
			return;
		}
		if (col->type == TT_C_DUR)
			put_us(o, x->v.d);
		else
			ob_mem(o, buf, tt_fmt_real(buf, sizeof(buf), x->v.d));
		return;
	}
}

size_t tt_cell_csv(const struct tt_table *t, size_t row, int col, char *buf, size_t n)
{
	if (!n)
		return 0;
	buf[0] = '\0';
	const struct tt_cell *x = tt_table_cell(t, row, col);
	if (x->kind == TT_CV_S) {
		snprintf(buf, n, "%s", x->v.s);
		return strlen(buf);
	}
	struct obuf o; /* (not zeroed: only o.n bytes are read) */
	o.f = NULL;
	o.n = 0;
	put_value(&o, &t->cols[col], x, false, false);
	size_t len = o.n < n - 1 ? o.n : n - 1;
	memcpy(buf, o.b, len);
	buf[len] = '\0';
	return strlen(buf);
}

static bool csv_col(const struct tt_col *c)
{
	return c->type != TT_C_BAR && c->type != TT_C_STACK && !c->hidden_csv;
}

static void print_csv(const struct tt_table *t, bool safe, struct obuf *o)
{
	bool first = true;
	for (int c = 0; c < t->ncols; c++) {
		if (!csv_col(&t->cols[c]))
			continue;
		if (!first)
			ob_char(o, ',');
		first = false;
		csv_field(o, t->cols[c].name);
	}
	ob_char(o, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		first = true;
		for (int c = 0; c < t->ncols; c++) {
			if (!csv_col(&t->cols[c]))
				continue;
			if (!first)
				ob_char(o, ',');
			first = false;
			put_value(o, &t->cols[c], tt_table_cell(t, r, c), false, safe);
		}
		ob_char(o, '\n');
	}
}

static void print_json_rows(const struct tt_table *t, struct obuf *o)
{
	ob_str(o, "[");
	for (size_t r = 0; r < t->nrows; r++) {
		ob_str(o, r ? ",\n  {" : "\n  {");
		bool first = true;
		for (int c = 0; c < t->ncols; c++) {
			if (!csv_col(&t->cols[c]))
				continue;
			if (!first)
				ob_str(o, ", ");
			first = false;
			json_str(o, t->cols[c].name);
			ob_str(o, ": ");
			put_value(o, &t->cols[c], tt_table_cell(t, r, c), true, false);
		}
		ob_str(o, "}");
	}
	ob_str(o, t->nrows ? "\n]" : "]");
}

void tt_table_print(const struct tt_table *t, enum tt_format f, const struct tt_print_opts *o,
		    FILE *out)
{
	if (f == TT_FMT_TABLE) {
		print_text(t, o, out);
		return;
	}
	struct obuf b; /* (not zeroed: only b.n bytes are written) */
	b.f = out;
	b.n = 0;
	if (f == TT_FMT_CSV) {
		print_csv(t, o && o->csv_safe, &b);
	} else {
		print_json_rows(t, &b);
		ob_char(&b, '\n');
	}
	ob_flush(&b);
}

void tt_tables_print_json(struct tt_table *const *t, size_t n, FILE *out)
{
	struct obuf b;
	b.f = out;
	b.n = 0;
	ob_str(&b, "{");
	for (size_t i = 0; i < n; i++) {
		ob_str(&b, i ? ",\n" : "\n");
		json_str(&b, t[i]->name);
		ob_str(&b, ": ");
		print_json_rows(t[i], &b);
	}
	ob_str(&b, "\n}\n");
	ob_flush(&b);
}
