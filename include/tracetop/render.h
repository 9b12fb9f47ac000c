/* render room: numbers and tables as text, without curses.
 *
 * A struct tt_table holds typed cells (text, integers, reals, durations in
 * ns, percentages).  The same table is printed as an aligned text table,
 * CSV (HTA's column names and units) or JSON by the report command, and
 * drawn into a text grid by the TUI panes. */
#ifndef TRACETOP_RENDER_H
#define TRACETOP_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/arena.h"
#include "tracetop/err.h"
#include "tracetop/hmap.h"
#include "tracetop/utf8.h"

/* ---- numbers ---- */

enum tt_unit { TT_U_NS, TT_U_US, TT_U_MS, TT_U_S };

/* glyph set: UTF-8 (µ, block bars) or plain ASCII */
void tt_render_set_ascii(bool ascii);
bool tt_render_ascii(void);

/* The unit that shows max_ns with at most 4 integer digits. */
enum tt_unit tt_unit_pick(int64_t max_ns);
const char *tt_unit_name(enum tt_unit u);
/* unit chosen for this value alone */
size_t tt_fmt_dur(char *buf, size_t n, int64_t ns);
size_t tt_fmt_bytes(char *buf, size_t n, double bytes); /* "1.5 GB" */
size_t tt_fmt_count(char *buf, size_t n, int64_t v);     /* "12345" */
/* A time typed by a person: an optional sign, a decimal number, an
 * optional unit (ns, us, µs, ms, s; `def` when there is none), spaces
 * allowed around them: "12.5ms", "1.2 s", "-800us".  Exact (no doubles:
 * "0.1s" is 100000000 ns); digits below 1 ns are dropped.  Returns 0 with
 * *ns set, or -1 with a one-line reason in why (values past 10^18 ns are
 * refused). */
int tt_parse_time(const char *s, enum tt_unit def, int64_t *ns, char *why, size_t whyn);
/* a real number the way CSV output writes it: shortest exact form */
size_t tt_fmt_real(char *buf, size_t n, double v);

/* pandas/numpy rounding: rint(x * 10^d) / 10^d, half to even */
double tt_round(double x, int decimals);

/* Copy at most `cols` display columns of s into buf (tt_utf8_width counts
 * them), ending with an ellipsis when cut; returns the bytes written. */
size_t tt_utf8_fit(char *buf, size_t n, const char *s, size_t cols);

/* A file path in at most cols columns, shortened from the left
 * ("…/traces/hta-2rank"): the end of a path tells which file it is. */
size_t tt_path_fit(char *buf, size_t n, const char *path, size_t cols);

/* The first line of text s wrapped into cols columns at a word boundary:
 * returns its length in bytes (without the spaces it ends in), *width its
 * columns, *next the start of the rest (its spaces, and a '\n' ending the
 * line, skipped; "" at the end).  A word wider than the line breaks after
 * a '/', ',', ';', '-' or '|' in it, else at the line's end: the only
 * case where a word is cut.  width and next may be NULL. */
size_t tt_wrap_line(const char *s, size_t cols, size_t *width, const char **next);

/* ---- names ---- */

/* A name shortened to at most `cols` columns the way a person reads it:
 * the whole name when it fits; else without a leading "void ", then
 * without its argument list, then with its template arguments folded to
 * "<…>", then cut in the middle ("head…tail").  Returns bytes written
 * (buf always ends in NUL when n > 0). */
size_t tt_name_fit(char *buf, size_t n, const char *s, size_t cols);
/* names[0..n) shortened to at most `cols` columns each as tt_name_fit does,
 * except that different names always get different text: names that would
 * collide show, after their head, the part where they differ
 * ("cutlass::Kernel<…s1688gemm_128x64…>"), and, should that still collide,
 * a number ("…#2").  Equal names get equal text.  Returns n malloc'd
 * strings; free with tt_names_free(v, n). */
char **tt_names_fit(const char *const *names, size_t n, size_t cols);
void tt_names_free(char **v, size_t n);
/* Is s prose (a sentence: four or more spaces outside parentheses and
 * angle brackets) rather than a name?  Prose is shortened at a word, at its
 * end, never by the name rules. */
bool tt_text_is_prose(const char *s);

/* ---- bars ---- */

/* Fill buf with a bar of `width` columns for fraction f (0..1): full
 * blocks plus one partial block (UTF-8), or '#' (ASCII).  Returns bytes. */
size_t tt_bar(char *buf, size_t n, double f, int width);
/* Stacked bar: k segments with fractions f[i] (sum <= 1), each drawn with
 * its glyph g[i] (one column each, e.g. "#", "=", ":"). */
size_t tt_bar_stacked(char *buf, size_t n, const double *f, const char *const *g, int k,
		      int width);

/* A sparkline of v[0..n) scaled to vmax: one block character per value
 * (ASCII " .:-=+*#@" with the ASCII glyph set).  Returns bytes. */
size_t tt_sparkline(char *buf, size_t cap, const float *v, int n, double vmax);
/* The glyph of segment i (0..3) of a stacked bar as tt_grid_stack draws it:
 * a block shade, or ascii[i] with the ASCII glyph set. */
const char *tt_stack_glyph(const char *ascii, int i);

/* ---- tables ---- */

enum tt_ctype {
	TT_C_STR,  /* text */
	TT_C_INT,  /* integer */
	TT_C_NUM,  /* real; `prec` decimals in text output */
	TT_C_DUR,  /* int64 ns; text in a unit picked per column, CSV/JSON in µs */
	TT_C_PCT,  /* percent (0..100), text "12.3%" */
	TT_C_BAR,  /* text only: bar of the column `bar_of`, scaled to its max
		    * (or to `bar_max` when it is > 0) */
	TT_C_STACK, /* text only: stacked bar of columns stack[0..nstack) as
		     * fractions of `bar_max` (or of the row's sum when 0) */
};

/* segments of a TT_C_STACK bar at most; beyond 4, every segment is drawn
 * with its ASCII glyph (there are four block shades) */
#define TT_STACK_MAX 8

struct tt_col {
	const char *name;  /* CSV/JSON name (HTA's column name where one exists) */
	const char *title; /* header in text output, NULL = name */
	enum tt_ctype type;
	int prec;          /* decimals for TT_C_NUM / TT_C_PCT in text */
	int bar_of;        /* TT_C_BAR: source column */
	int width;         /* TT_C_BAR: columns; TT_C_STR: maximum width (0 = 48) */
	bool hidden_text;  /* CSV/JSON only */
	bool hidden_csv;   /* text only */
	bool free_text;    /* TT_C_STR: prose or glyphs, not a name: cut at its
			    * end with an ellipsis, never shortened as a name */
	double bar_max;    /* TT_C_BAR/TT_C_STACK: the value of a full bar (0: auto) */
	int stack[TT_STACK_MAX]; /* TT_C_STACK: source columns */
	int nstack;
	uint8_t role[TT_STACK_MAX]; /* roles (grid.h) of the bar or of each segment */
	const char *glyphs; /* TT_C_STACK: one ASCII glyph per segment ("#=:.") */
	bool signed_bar;   /* TT_C_BAR: values of either sign, from a middle line:
			    * right of it (role[0]) above 0, left (role[1])
			    * below, scaled to the largest |value| */
	int unit_group;    /* TT_C_DUR: the columns of one group (the same
			    * number; 0, the default, is a group too: a
			    * table's time columns) show one unit, that of
			    * their largest value shown; a column a reader
			    * does not compare with the others (a sum beside
			    * per-call times) gets a group of its own */
};

enum tt_cell_kind { TT_CV_NONE = 0, TT_CV_S, TT_CV_I, TT_CV_D };

struct tt_cell {
	uint8_t kind;
	union {
		const char *s;
		int64_t i;
		double d;
	} v;
};

struct tt_table {
	char *name;  /* e.g. "temporal" */
	char *title; /* a line above the text table, optional */
	struct tt_col *cols;
	int ncols;
	struct tt_cell *cells; /* row-major */
	size_t nrows, caprows;
	struct tt_arena strs;
	char **notes; /* lines printed below the text table */
	size_t nnotes;
	/* the key columns (the row's name: repeated in every block of a text
	 * table, pinned on the left of a pane); 0: the first column, and the
	 * columns up to the first text column when all of them are text or
	 * integers (rank, stream, name) */
	int nkeys;
	/* tt_table_set_keyed's strings: key -> index in keyed */
	struct tt_hmap keyix;
	const char **keyed;
	size_t nkeyed, capkeyed;
};

/* cols is copied (names must be static strings or outlive the table) */
struct tt_table *tt_table_new(const char *name, const struct tt_col *cols, int ncols);
void tt_table_free(struct tt_table *t);
size_t tt_table_add_row(struct tt_table *t);
/* Room for n rows in all (a table whose size is known: no regrowth) */
void tt_table_reserve(struct tt_table *t, size_t n);
/* A deep copy (cells, strings, title and notes). */
struct tt_table *tt_table_copy(const struct tt_table *t);
/* Append a column (empty cells); returns its index. */
int tt_table_add_col(struct tt_table *t, const struct tt_col *c);
void tt_table_set_str(struct tt_table *t, size_t row, int col, const char *s);
/* s itself, not a copy: a string that outlives the table (a literal) */
void tt_table_set_static(struct tt_table *t, size_t row, int col, const char *s);
/* s, copied into the table at the first cell set with key (the caller's
 * 64-bit name for the string, e.g. rank << 32 | string id), later cells
 * with that key pointing at the copy: a column of a few names repeated
 * over many rows costs a look-up per row */
void tt_table_set_keyed(struct tt_table *t, size_t row, int col, uint64_t key, const char *s);
void tt_table_set_int(struct tt_table *t, size_t row, int col, int64_t v);
void tt_table_set_num(struct tt_table *t, size_t row, int col, double v); /* NaN = empty */
void tt_table_set_title(struct tt_table *t, const char *fmt, ...) TT_PRINTF(2, 3);
void tt_table_add_note(struct tt_table *t, const char *fmt, ...) TT_PRINTF(2, 3);
static inline const struct tt_cell *tt_table_cell(const struct tt_table *t, size_t row, int col)
{
	return &t->cells[row * (size_t)t->ncols + (size_t)col];
}
/* column index by name, -1 if none */
int tt_table_col(const struct tt_table *t, const char *name);
/* numeric value of a cell (NaN when empty or text) */
double tt_cell_num(const struct tt_cell *c);
/* Stable sort by a column; text compares bytewise, empty cells last. */
void tt_table_sort(struct tt_table *t, int col, bool desc);
/* Keep the first n rows. */
void tt_table_truncate(struct tt_table *t, size_t n);

/* ---- two tables side by side ---- */

struct tt_table_diff_opts {
	int nkeys;          /* the first nkeys columns of both tables name a row */
	const int *cols;    /* the value columns compared, the primary one first */
	int ncols;
	const char *la, *lb; /* the sides' names ("Control", "Test") */
	/* optional: the text of b's key cell (row, col) in a's terms (the
	 * rank paired with it, the stream paired with it) written to buf and
	 * returned; NULL: the cell's own text.  ctx is passed through. */
	const char *(*map_key)(void *ctx, const struct tt_table *b, size_t row, int col, char *buf,
			       size_t n);
	/* optional: what key cell col of a row on both sides shows (ta, tb:
	 * the cells' own texts) written to buf and returned; NULL: "ta | tb"
	 * when they differ (the head they share said once: "queue, stream
	 * 20 | 14"), else a's cell */
	const char *(*pair_text)(void *ctx, const struct tt_table *a, size_t ra,
				 const struct tt_table *b, size_t rb, int col, const char *ta,
				 const char *tb, char *buf, size_t n);
	void *ctx;
	uint8_t more_role, less_role; /* roles of the Δ bar above and below 0 */
};

/* a and b (tables of the same columns, e.g. one report of two traces) side
 * by side: a's key columns; b's keys as hidden columns named "<lb>_<key>";
 * for each value column x of o->cols, "<la>_x" (a's cell), "<lb>_x" (b's)
 * and "diff_x" (b - a); a signed bar of the primary column's difference
 * ("bar"); hidden "abs_diff" (|primary difference|, to sort by), "row_a"
 * and "row_b" (the row of each side, -1 when it has none).  Rows are
 * joined on the text of their key cells (each row of b at most once): a's
 * rows in a's order, then the rows only b has.  A key cell of a row on
 * both sides whose texts differ shows both ("3 | 1", or o->pair_text's;
 * its column is then text), and the key columns are the table's nkeys.
 * A time or count (TT_C_DUR,
 * TT_C_INT) a side does not have counts as 0 in the difference; other
 * differences are empty then.  The columns of the first value are titled
 * la, lb and Δ.  Columns of a table of another shape are skipped. */
struct tt_table *tt_table_diff(const struct tt_table *a, const struct tt_table *b,
			       const struct tt_table_diff_opts *o);

/* Text of one cell as the text table shows it (unit = the column's). */
size_t tt_cell_text(const struct tt_table *t, size_t row, int col, enum tt_unit unit, char *buf,
		    size_t n);
/* The value of one cell as the CSV writes it (durations in µs, exactly;
 * text unquoted; "" when empty). */
size_t tt_cell_csv(const struct tt_table *t, size_t row, int col, char *buf, size_t n);
/* The segments of a TT_C_STACK cell as fractions of the full bar. */
void tt_table_stack_fractions(const struct tt_table *t, size_t row, int col,
			      double f[TT_STACK_MAX]);
/* The unit a TT_C_DUR column uses in text: that of the largest value of
 * the shown time columns of its unit_group. */
enum tt_unit tt_table_col_unit(const struct tt_table *t, int col);
/* Whether column col holds a number in any row: a time column without one
 * (an empty table, a column of dashes) has no unit in its header. */
bool tt_table_col_has_value(const struct tt_table *t, int col);

enum tt_format { TT_FMT_TABLE, TT_FMT_CSV, TT_FMT_JSON };
int tt_format_parse(const char *s, enum tt_format *f);

struct tt_print_opts {
	/* text: no line wider than this: names shortened to their column
	 * (different names staying different), prose wrapped at words in its
	 * column, and the columns that still do not fit printed in further
	 * blocks below, each with the key columns again; title and notes
	 * wrapped at words.  0: every text whole, on one line */
	int max_width;
	/* CSV: a text cell that starts with =, +, -, @, a tab or a carriage
	 * return gets a ' before it, so that a spreadsheet does not run it as a
	 * formula (--csv-safe); otherwise every cell is written as it is */
	bool csv_safe;
};

void tt_table_print(const struct tt_table *t, enum tt_format f, const struct tt_print_opts *o,
		    FILE *out);
/* JSON output of several tables: {"name": [...], ...} */
void tt_tables_print_json(struct tt_table *const *t, size_t n, FILE *out);
/* ---- tables in a grid (panes) ---- */

struct tt_grid;

#define TT_LAYOUT_MAXCOLS 64

/* What tt_table_draw drew: where each column drawn is, which rows. */
struct tt_table_layout {
	int header_y;                     /* the header's grid row; -1: nothing drawn */
	int ncols;                        /* columns drawn, left to right */
	int col[TT_LAYOUT_MAXCOLS];       /* their table column */
	int x[TT_LAYOUT_MAXCOLS];         /* their first grid column */
	int w[TT_LAYOUT_MAXCOLS];         /* their width */
	enum tt_unit unit[TT_LAYOUT_MAXCOLS]; /* TT_C_DUR: the unit in the header */
	int npinned;                      /* the first npinned never scroll away */
	int xoff;                         /* scroll position used (0..max_xoff) */
	int max_xoff;                     /* the last column shows from here on */
	bool more_left, more_right;       /* columns left out on either side */
	size_t top;                       /* first row drawn (index into the view's rows;
					   * moved to keep the cursor in view) */
	int nrows;                        /* rows drawn, from header_y + 1 */
	int details;                      /* rows of the details lines at the bottom */
};

/* What a pane shows of a table: which rows in which order, the scroll
 * position, the cursor, the sort column, the filter. */
struct tt_table_view {
	const size_t *rows;  /* table rows to show, in order */
	size_t nrows;
	size_t top;          /* first shown index into rows */
	size_t cursor;       /* index into rows */
	bool show_cursor;
	int sort_col;        /* -1 = none */
	bool sort_desc;
	const char *filter;  /* highlighted substring, or NULL */
	int xoff;            /* scrollable columns scrolled off on the left */
	const uint8_t *row_role; /* optional role per table row (e.g. marked) */
	struct tt_table_layout *layout; /* optional: filled with what was drawn */
};

/* Draw header and rows of t into g at rows [y, y+h).  Every cell is drawn
 * whole or not at all: text columns shrink first (names shortened by
 * tt_names_fit, different names staying different), bars take what is
 * left, and the columns that still do not fit are left out whole, an arrow
 * in the header saying so.  The key columns (the first column, and the
 * columns up to the first text column when all of them are text or
 * integers, e.g. rank, stream, category) stay on the left while v->xoff
 * scrolls the other columns, one column per step.  When text cells show
 * shortened, the last rows (at most a fifth) show the whole text of the
 * cursor row's shortened cells. */
void tt_table_draw(const struct tt_table *t, const struct tt_table_view *v, struct tt_grid *g,
		   int y, int h);
/* Does any text cell of the row contain needle (case-insensitive)? */
bool tt_table_row_matches(const struct tt_table *t, size_t row, const char *needle);

#endif
