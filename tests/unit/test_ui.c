/* The explorer without a terminal: every pane renders into a text grid from
 * the demo job and from ../shared/traces, driven by keys through the real
 * keymap; the keymap and theme parsers; ASCII mode; the too-small screen.
 *
 * Assertions are on content (headers, rank rows, bar lengths against the
 * values beside them, sort order, filters, positions after going back),
 * never on whole screens. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/demo.h"
#include "tracetop/keymap.h"
#include "tracetop/model.h"
#include "tracetop/render.h"
#include "tracetop/report.h"
#include "tracetop/theme.h"
#include "tracetop/ui.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"
#include "testlib.h"

/* src/tui/tui.h is private to the tui room; this is its headless driver */
int tt_headless_run(struct tt_app *a, int w, int h, const char *keys, FILE *out, bool time_keys);

/* ---- traces ---- */

static struct tt_model *demo_model; /* loaded once, before the tests fork */

static void setup_demo(void)
{
	if (!demo_model)
		demo_model = tl_load_demo();
}

static void teardown_demo(void)
{
	tt_model_free(demo_model);
	demo_model = NULL;
}

/* ---- an app and its screen ---- */

struct ui {
	struct tt_app *a;
	struct tt_keymap *k;
	struct tt_grid g;
	char line[8192];
};

static struct ui *ui_new2(const struct tt_model *m, const struct tt_model *m2, int w, int h)
{
	struct ui *u = tt_calloc(1, sizeof(*u));
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	u->k = tt_keymap_new();
	u->a = tt_app_new(m, m2, &o, u->k, "test trace");
	tt_grid_init(&u->g, w, h);
	tt_app_draw(u->a, &u->g);
	return u;
}

static struct ui *ui_new(const struct tt_model *m, int w, int h)
{
	return ui_new2(m, NULL, w, h);
}

static void ui_free(struct ui *u)
{
	tt_app_free(u->a);
	tt_keymap_free(u->k);
	tt_grid_free(&u->g);
	free(u);
}

/* keys as `--keys` takes them, then a redraw (as after every key) */
static int ui_keys(struct ui *u, const char *keys)
{
	char key[32];
	const char *s = keys;
	int r = 0;
	while ((s = tt_key_next(s, key, sizeof(key))) != NULL) {
		r = tt_app_key(u->a, key);
		tt_app_draw(u->a, &u->g);
		if (r & TT_R_QUIT)
			break;
	}
	return r;
}

static void ui_resize(struct ui *u, int w, int h)
{
	tt_grid_free(&u->g);
	tt_grid_init(&u->g, w, h);
	tt_app_draw(u->a, &u->g);
}

/* row y as text, trailing spaces removed */
static const char *row(struct ui *u, int y)
{
	size_t k = tt_grid_row_text(&u->g, y, u->line, sizeof(u->line));
	while (k > 0 && u->line[k - 1] == ' ')
		u->line[--k] = '\0';
	return u->line;
}

/* the whole screen as one string, rows joined without a separator (text
 * wrapped at the screen's width reads whole) */
static const char *screen(struct ui *u)
{
	static char buf[65536];
	size_t k = 0;
	for (int y = 0; y < u->g.h && k + 4096 < sizeof(buf); y++)
		k += tt_grid_row_text(&u->g, y, buf + k, sizeof(buf) - k);
	buf[k] = '\0';
	return buf;
}

/* does a line above the pane's table contain s? */
static bool head_has(struct ui *u, const char *s)
{
	struct tt_pane *p = tt_app_pane(u->a);
	for (size_t i = 0; i < p->nhead; i++)
		if (strstr(p->head[i].text, s))
			return true;
	return false;
}

/* the first row containing s at or after y0, or -1 */
static int find_row_from(struct ui *u, const char *s, int y0)
{
	for (int y = y0; y < u->g.h; y++)
		if (strstr(row(u, y), s))
			return y;
	return -1;
}

static int find_row(struct ui *u, const char *s)
{
	return find_row_from(u, s, 0);
}

static bool on_screen(struct ui *u, const char *s)
{
	return find_row(u, s) >= 0;
}

static void dump(struct ui *u)
{
	tt_grid_dump(&u->g, stderr);
}

#define ck_screen_has(u, s)                                                              \
	do {                                                                             \
		if (!on_screen(u, s)) {                                                  \
			dump(u);                                                         \
			ck_abort_msg("'%s' is not on the screen", s);                     \
		}                                                                        \
	} while (0)

/* column (cells) where text s starts in row y, or -1 */
static int cell_x(struct ui *u, int y, const char *s)
{
	uint32_t cps[256];
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && n < 256;) {
		uint32_t c = *p;
		int k = 1;
		if (c >= 0xF0) {
			c &= 0x07;
			k = 4;
		} else if (c >= 0xE0) {
			c &= 0x0F;
			k = 3;
		} else if (c >= 0xC0) {
			c &= 0x1F;
			k = 2;
		}
		for (int i = 1; i < k; i++)
			c = (c << 6) | (p[i] & 0x3F);
		cps[n++] = c;
		p += k;
	}
	for (int x = 0; x + n <= u->g.w; x++) {
		int i = 0;
		while (i < n && tt_grid_at(&u->g, x + i, y)->cp == cps[i])
			i++;
		if (i == n)
			return x;
	}
	return -1;
}

/* the text of cells [x0, x1) of row y */
static const char *cells(struct ui *u, int y, int x0, int x1, char *buf, size_t n)
{
	size_t k = 0;
	for (int x = x0; x < x1 && x < u->g.w && k + 5 < n; x++) {
		uint32_t cp = tt_grid_at(&u->g, x, y)->cp;
		if (cp < 0x80)
			buf[k++] = (char)cp;
		else
			buf[k++] = '?';
	}
	buf[k] = '\0';
	return buf;
}

/* the number shown in a right-aligned column whose header is `title` */
static double num_under(struct ui *u, int hy, const char *title, int y)
{
	int x = cell_x(u, hy, title);
	ck_assert_msg(x >= 0, "no column '%s'", title);
	int w = (int)tt_utf8_width(title);
	char buf[64];
	/* numbers are right-aligned to the column's end: the title's, or one
	 * more for the sort marker; take a little to the left */
	uint32_t after = tt_grid_at(&u->g, TT_MIN(x + w, u->g.w - 1), hy)->cp;
	bool marker = after == 0x25BC || after == 0x25B2 || after == 'v' || after == '^';
	cells(u, y, TT_MAX(0, x - 4), x + w + (marker ? 1 : 0), buf, sizeof(buf));
	char *p = buf;
	/* the last number in the cells */
	char *last = NULL;
	while (*p) {
		if ((*p >= '0' && *p <= '9') && (p == buf || p[-1] == ' '))
			last = p;
		p++;
	}
	ck_assert_msg(last, "no number under '%s' in row %d: '%s'", title, y, buf);
	return strtod(last, NULL);
}

/* eighths of a cell drawn as bar blocks in row y (from x0 on) */
static int bar_eighths(struct ui *u, int y, int x0)
{
	int n = 0;
	for (int x = x0; x < u->g.w; x++) {
		uint32_t cp = tt_grid_at(&u->g, x, y)->cp;
		if (cp == 0x2588)
			n += 8;
		else if (cp >= 0x2589 && cp <= 0x258F)
			n += (int)(0x2590 - cp);
	}
	return n;
}

/* cells of row y (from x0 on) holding code point cp */
static int count_cp(struct ui *u, int y, int x0, uint32_t cp)
{
	int n = 0;
	for (int x = x0; x < u->g.w; x++)
		if (tt_grid_at(&u->g, x, y)->cp == cp)
			n++;
	return n;
}

/* the first table row on screen: the one with the cursor marker */
static int cursor_row(struct ui *u)
{
	for (int y = 0; y < u->g.h; y++)
		if (tt_grid_at(&u->g, 0, y)->cp == '>')
			return y;
	return -1;
}

/* the histogram of a kernel's durations lines up, whatever the units (µ is
 * one column in two bytes) */
static void hist_aligned(struct ui *u)
{
	int h0 = find_row(u, "instances; durations:") + 1, sep = -1;
	ck_assert_int_gt(h0, 0);
	for (int y = h0; y < h0 + 8 && strstr(row(u, y), " - "); y++) {
		int x = cell_x(u, y, " - ");
		if (sep < 0)
			sep = x;
		ck_assert_msg(x == sep, "histogram row %d: ' - ' at %d, not %d", y - h0, x, sep);
	}
	ck_assert_int_gt(sep, 0);
}

/* ---- the panes on the demo ---- */

START_TEST(overview_demo)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	ck_screen_has(u, "Overview");
	int hy = find_row(u, "busy %");
	ck_assert_int_ge(hy, 0);
	const char *h = row(u, hy);
	ck_assert_ptr_nonnull(strstr(h, "rank"));
	ck_assert_ptr_nonnull(strstr(h, "span (ms)"));
	ck_assert_ptr_nonnull(strstr(h, "idle %"));
	ck_assert_ptr_nonnull(strstr(h, "overlap %"));
	ck_assert_ptr_nonnull(strstr(h, "top kernel"));
	/* one row per rank, in rank order, the cursor on the first */
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), r);
	ck_assert_int_eq(cursor_row(u), hy + 1);
	/* rank 5 is the straggler: explained above the table, marked in it */
	ck_screen_has(u, "straggler: rank 5, idle");
	int y5 = hy + 1 + 5;
	ck_assert_int_eq(tt_grid_at(&u->g, 5, y5)->role, TT_ROLE_MARKED);
	ck_assert_int_eq(tt_grid_at(&u->g, 5, y5 - 1)->role, TT_ROLE_DEFAULT);
	ck_assert_ptr_nonnull(strstr(row(u, y5), "idle high"));
	ck_assert_double_gt(num_under(u, hy, "idle %", y5), 3 * num_under(u, hy, "idle %", hy + 1));
	/* the status line: what is open, where the cursor is */
	ck_assert_ptr_nonnull(strstr(row(u, 29), "test trace"));
	ck_assert_ptr_nonnull(strstr(row(u, 29), "1/8"));
	ck_assert_ptr_nonnull(strstr(row(u, 29), "all ranks"));
	/* the title bar names every pane with its key, the current one focused */
	const char *t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "1 Overview"));
	ck_assert_ptr_nonnull(strstr(t, "0 Diff"));
	ck_assert_int_eq(tt_grid_at(&u->g, cell_x(u, 0, "1 Overview"), 0)->role,
			 TT_ROLE_TITLE_FOCUS);
	ui_free(u);
}
END_TEST

START_TEST(title_bar_short_names)
{
	/* narrower screens: short names, still distinct (Overview / Overlap) */
	struct ui *u = ui_new(demo_model, 80, 24);
	const char *t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "1 Over"));
	ck_assert_ptr_nonnull(strstr(t, "5 Ovlp"));
	ck_assert_ptr_nonnull(strstr(t, "0 Diff"));
	ui_keys(u, "5");
	ck_assert_int_eq(tt_grid_at(&u->g, cell_x(u, 0, "5 Ovlp"), 0)->role, TT_ROLE_TITLE_FOCUS);
	ui_resize(u, 60, 20);
	t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "5 Ovlp"));
	ck_assert_ptr_nonnull(strstr(t, " 0"));
	ui_free(u);
}
END_TEST

START_TEST(every_pane_by_key)
{
	static const char *const keys[10] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"};
	static const char *const titles[10] = {"Overview", "Temporal", "Idle",	 "Kernels",
					       "Overlap",  "Launch",   "Counters", "Patterns",
					       "Timeline", "Diff"};
	static const char *const headers[10] = {"busy %",     "compute %", "host wait", "total",
						"overlap %",  "runtime",   "series",	"op",
						NULL,	      NULL};
	struct ui *u = ui_new(demo_model, 160, 50);
	for (int i = 0; i < 10; i++) {
		ui_keys(u, keys[i]);
		ck_assert_int_eq(u->a->cur, i);
		ck_assert_ptr_nonnull(strstr(row(u, 1), titles[i]));
		if (headers[i])
			ck_screen_has(u, headers[i]);
		/* never an empty body: rows, or a message saying why not */
		int text = 0;
		for (int y = 2; y < u->g.h - 1; y++)
			if (row(u, y)[strspn(row(u, y), " ")])
				text++;
		ck_assert_msg(text > 0, "pane %s shows nothing", titles[i]);
	}
	/* Diff without a second trace says how to get one */
	ck_screen_has(u, "--diff");
	/* Tab and Shift-Tab cycle */
	ui_keys(u, "<Tab>");
	ck_assert_int_eq(u->a->cur, 0);
	ui_keys(u, "<S-Tab><S-Tab>");
	ck_assert_int_eq(u->a->cur, 8);
	ui_free(u);
}
END_TEST

START_TEST(bars_proportional)
{
	/* Overlap: one bar per rank of overlap %, on a scale of 100 % */
	struct ui *u = ui_new(demo_model, 160, 40);
	ui_keys(u, "5");
	int hy = find_row(u, "overlap %");
	ck_assert_int_ge(hy, 0);
	int bx = cell_x(u, hy, "comm hidden by compute");
	ck_assert_int_ge(bx, 0);
	double va = num_under(u, hy, "overlap %", hy + 1);     /* rank 0 */
	double vb = num_under(u, hy, "overlap %", hy + 1 + 5); /* rank 5 */
	double ca = bar_eighths(u, hy + 1, bx) / 8.0, cb = bar_eighths(u, hy + 1 + 5, bx) / 8.0;
	ck_assert_double_gt(ca, 5);
	ck_assert_msg(fabs(cb - ca * vb / va) <= 1, "bars %.2f and %.2f cells for %.2f and %.2f", ca,
		      cb, va, vb);
	for (int r = 0; r < 8; r++) {
		double v = num_under(u, hy, "overlap %", hy + 1 + r);
		double c = bar_eighths(u, hy + 1 + r, bx) / 8.0;
		ck_assert_msg(fabs(c - ca * v / va) <= 1, "rank %d: bar %.2f for %.2f %%", r, c, v);
	}
	/* Kernels: bars of the total time, the largest full */
	ui_keys(u, "4");
	hy = find_row(u, "total (ms)");
	ck_assert_int_ge(hy, 0);
	bx = cell_x(u, hy, "total (ms)") + 12; /* the bar column comes after the numbers */
	int full = -1;
	for (int r = 0; r < 5; r++) {
		double v0 = num_under(u, hy, "total (ms)", hy + 1);
		double v = num_under(u, hy, "total (ms)", hy + 1 + r);
		double c0 = bar_eighths(u, hy + 1, bx) / 8.0, c = bar_eighths(u, hy + 1 + r, bx) / 8.0;
		if (r == 0)
			full = (int)c0;
		ck_assert_msg(fabs(c - c0 * v / v0) <= 1, "kernel row %d: bar %.2f for %.1f ms", r, c, v);
	}
	ck_assert_int_ge(full, 8);
	/* Temporal: the stacked bar spans the whole width on every rank, and
	 * its compute part follows compute % */
	ui_keys(u, "2");
	hy = find_row(u, "compute %");
	bx = cell_x(u, hy, "compute/non-compute/idle");
	ck_assert_int_ge(bx, 0);
	int width = -1;
	for (int r = 0; r < 8; r++) {
		int y = hy + 1 + r;
		int all = count_cp(u, y, bx, 0x2588) + count_cp(u, y, bx, 0x2593) +
			  count_cp(u, y, bx, 0x2592);
		if (width < 0)
			width = all;
		ck_assert_int_eq(all, width);
		double pct = num_under(u, hy, "compute %", y);
		ck_assert_msg(fabs(count_cp(u, y, bx, 0x2588) - pct / 100 * width) <= 1,
			      "rank %d: %d compute cells of %d for %.1f %%", r,
			      count_cp(u, y, bx, 0x2588), width, pct);
	}
	ui_free(u);
}
END_TEST

START_TEST(sort_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	int hy = find_row(u, "busy %");
	/* s: the first column, numbers largest first; the view goes to the top */
	ui_keys(u, "jjj");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 3);
	ui_keys(u, "s");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 0);
	ck_assert_int_eq(cursor_row(u), hy + 1);
	ck_screen_has(u, "sorted by rank");
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), 7 - r);
	/* S reverses */
	ui_keys(u, "jS");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 0);
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), r);
	/* s again and again: to idle %, the header marks it */
	for (int i = 0; i < 10 && !strstr(row(u, hy), "idle %\xE2\x96\xBC"); i++)
		ui_keys(u, "s");
	ck_assert_ptr_nonnull(strstr(row(u, hy), "idle %\xE2\x96\xBC"));
	double prev = 1e9;
	for (int r = 0; r < 8; r++) {
		double v = num_under(u, hy, "idle %", hy + 1 + r);
		ck_assert_double_le(v, prev);
		prev = v;
	}
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 5);
	/* names sort A to Z */
	ui_keys(u, "4");
	hy = find_row(u, "total (ms)");
	ck_assert_ptr_nonnull(strstr(row(u, hy), "total (ms)\xE2\x96\xBC")); /* the default */
	struct tt_pane *p = tt_app_pane(u->a);
	int name = tt_table_col(p->table, "name");
	while (p->sort_col != name)
		ui_keys(u, "s");
	ck_assert(!p->sort_desc);
	for (size_t i = 1; i < p->nrows; i++)
		ck_assert_int_le(strcmp(tt_table_cell(p->table, p->rows[i - 1], name)->v.s,
					tt_table_cell(p->table, p->rows[i], name)->v.s),
				 0);
	ui_free(u);
}
END_TEST

START_TEST(filter_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	ui_keys(u, "4");
	struct tt_pane *p = tt_app_pane(u->a);
	size_t all = p->nrows;
	ck_assert_uint_gt(all, 5);
	/* the prompt shows what is typed */
	ui_keys(u, "/sge");
	ck_assert_ptr_nonnull(strstr(row(u, 29), "filter: sge"));
	ui_keys(u, "mm<Enter>");
	ck_assert_uint_eq(p->nrows, 3);
	ck_screen_has(u, "3 rows match 'sgemm'");
	ck_screen_has(u, "filter: sgemm");
	int hy = find_row(u, "total (ms)");
	for (int r = 0; r < 3; r++)
		ck_assert_ptr_nonnull(strstr(row(u, hy + 1 + r), "sgemm"));
	ck_assert(!strstr(row(u, hy + 4), "sgemm"));
	/* matches are highlighted outside the cursor row */
	int mx = cell_x(u, hy + 2, "sgemm");
	ck_assert_int_eq(tt_grid_at(&u->g, mx, hy + 2)->role, TT_ROLE_MATCH);
	/* n / N move between matches */
	ck_assert_uint_eq(p->cursor, 0);
	ui_keys(u, "n");
	ck_assert_uint_eq(p->cursor, 1);
	ui_keys(u, "nn");
	ck_assert_uint_eq(p->cursor, 0);
	ui_keys(u, "N");
	ck_assert_uint_eq(p->cursor, 2);
	/* Backspace edits the prompt; Escape cancels it */
	ui_keys(u, "/x<Backspace><Escape>");
	ck_assert_str_eq(p->filter, "sgemm");
	/* no match: says so */
	ui_keys(u, "/nosuchkernel<Enter>");
	ck_assert_uint_eq(p->nrows, 0);
	ck_screen_has(u, "no row matches the filter");
	/* Esc clears the filter, all rows are back */
	ui_keys(u, "<Escape>");
	ck_assert_uint_eq(p->nrows, all);
	ck_assert(!on_screen(u, "filter:"));
	char want[64];
	snprintf(want, sizeof(want), "filter cleared: %zu rows", all);
	ck_screen_has(u, want);
	/* the filter is case-insensitive; one row is one row */
	ui_keys(u, "/NCCL<Enter>");
	ck_assert_uint_eq(p->nrows, 1);
	ck_screen_has(u, "1 row matches 'NCCL'");
	ui_free(u);
}
END_TEST

START_TEST(drill_and_back)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	/* Overview: rank 5 -> its streams -> back to rank 5 */
	ui_keys(u, "jjjjj");
	int cy = cursor_row(u);
	ck_assert_ptr_nonnull(strstr(row(u, cy), "    5 "));
	ui_keys(u, "<Enter>");
	ck_assert_int_eq(u->a->depth, 1);
	ck_screen_has(u, "Overview > rank 5");
	ck_screen_has(u, "GPU 5 stream");
	ck_screen_has(u, "GPU stream");
	ui_keys(u, "j<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_int_eq(cursor_row(u), cy);
	ck_assert_ptr_nonnull(strstr(row(u, cy), "    5 "));
	/* Backspace goes back too */
	ui_keys(u, "<Enter><Backspace>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_int_eq(cursor_row(u), cy);

	/* Kernels: a kernel -> its histogram and slowest instances */
	ui_keys(u, "4jjj");
	struct tt_pane *k = tt_app_pane(u->a);
	size_t kc = k->cursor, kt = k->top;
	ui_keys(u, "<Enter>");
	ck_screen_has(u, "instances; durations:");
	ck_screen_has(u, "slowest instances first");
	hist_aligned(u);
	struct tt_pane *inst = tt_app_pane(u->a);
	ck_assert_uint_gt(inst->nrows, 1);
	/* slowest first */
	int dc = tt_table_col(inst->table, "duration");
	ck_assert_double_ge(tt_cell_num(tt_table_cell(inst->table, inst->rows[0], dc)),
			    tt_cell_num(tt_table_cell(inst->table, inst->rows[1], dc)));
	/* an instance -> the timeline, two levels deep */
	ui_keys(u, "jj<Enter>");
	ck_assert_int_eq(u->a->depth, 2);
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 1);
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 2);
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_ptr_eq(tt_app_pane(u->a), k);
	ck_assert_uint_eq(k->cursor, kc);
	ck_assert_uint_eq(k->top, kt);

	/* a scrolled list: the exact cursor and scroll position come back */
	ui_keys(u, "6<Enter>");
	ck_screen_has(u, "Launch > rank 0");
	ck_screen_has(u, "long delay");
	struct tt_pane *o = tt_app_pane(u->a);
	ui_keys(u, "<PageDown><PageDown>jjj");
	size_t oc = o->cursor, ot = o->top;
	ck_assert_uint_gt(ot, 0);
	int ocy = cursor_row(u);
	char before[8192];
	snprintf(before, sizeof(before), "%s", row(u, ocy));
	ui_keys(u, "<Enter>");
	ck_assert_int_eq(u->a->depth, 2);
	ui_keys(u, "<Escape>");
	ck_assert_uint_eq(o->cursor, oc);
	ck_assert_uint_eq(o->top, ot);
	ck_assert_int_eq(cursor_row(u), ocy);
	ck_assert_str_eq(row(u, ocy), before);

	/* Idle: a stream -> its largest gaps */
	ui_keys(u, "3");
	ck_screen_has(u, "largest gap: rank 5 stream 20");
	ui_keys(u, "<Enter>");
	ck_screen_has(u, "Idle > rank 5 stream 20");
	ck_screen_has(u, "host_wait");
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 0);

	/* Enter where there is nothing to open says so */
	ui_keys(u, "7<Enter>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_screen_has(u, "not in this pane");
	ui_free(u);
}
END_TEST

START_TEST(rank_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	int hy = find_row(u, "busy %");
	/* ] from all ranks: the first rank; then the next */
	ui_keys(u, "]");
	ck_assert_uint_eq(u->a->nranks, 1);
	ck_screen_has(u, "showing rank 0");
	ck_assert_ptr_nonnull(strstr(row(u, 29), "rank 0"));
	hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert_str_eq(row(u, hy + 2), "");
	ui_keys(u, "]");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 1);
	ui_keys(u, "[[");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 7); /* wraps around */
	ui_keys(u, "]");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	/* the other panes follow */
	ui_keys(u, "2");
	hy = find_row(u, "compute %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert(!strstr(row(u, hy + 2), "  1  "));
	/* a: all ranks again */
	ui_keys(u, "a");
	ck_assert_uint_eq(u->a->nranks, 0);
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 8);
	ck_screen_has(u, "showing all ranks");
	/* r: a list */
	ui_keys(u, "1r2,4-5<Enter>");
	ck_assert_uint_eq(u->a->nranks, 3);
	hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 2);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 2), 4);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 3), 5);
	ck_screen_has(u, "3 ranks");
	/* a bad list is refused, the ranks stay */
	ui_keys(u, "rtwo<Enter>");
	ck_screen_has(u, "not a rank list");
	ck_assert_uint_eq(u->a->nranks, 3);
	/* r with "all" */
	ui_keys(u, "rall<Enter>");
	ck_assert_uint_eq(u->a->nranks, 0);
	ui_free(u);
}
END_TEST

/* a CSV line into fields (RFC 4180 quotes) */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *w = line;
	while (n < max) {
		f[n++] = w;
		bool q = *p == '"';
		if (q)
			p++;
		while (*p) {
			if (q && *p == '"' && p[1] == '"') {
				*w++ = '"';
				p += 2;
			} else if (q && *p == '"') {
				q = false;
				p++;
			} else if (!q && (*p == ',' || *p == '\n' || *p == '\r')) {
				break;
			} else {
				*w++ = *p++;
			}
		}
		bool more = *p == ',';
		*w++ = '\0';
		if (!more)
			break;
		p++;
	}
	return n;
}

START_TEST(write_csv)
{
	char dir[] = "/tmp/tt_test_ui_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char old[4096];
	ck_assert_ptr_nonnull(getcwd(old, sizeof(old)));
	ck_assert_int_eq(chdir(dir), 0);

	struct ui *u = ui_new(demo_model, 120, 30);
	ui_keys(u, "4/sgemm<Enter>S");
	struct tt_pane *p = tt_app_pane(u->a);
	ck_assert_uint_eq(p->nrows, 3);
	ui_keys(u, "w");
	char want[4200];
	snprintf(want, sizeof(want), "wrote 3 rows to %s/tracetop-kernels.csv", dir);
	ck_screen_has(u, want);
	FILE *f = fopen("tracetop-kernels.csv", "r");
	ck_assert_ptr_nonnull(f);
	char line[4096], *fl[32];
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	int nf = csv_split(line, fl, 32);
	ck_assert_str_eq(fl[0], "name");
	int tc = -1;
	for (int i = 0; i < nf; i++)
		if (strcmp(fl[i], "total (us)") == 0)
			tc = i;
	ck_assert_int_ge(tc, 0);
	/* the rows as shown: filtered, in the order on screen (ascending) */
	int hy = find_row(u, "total (ms)");
	int n = 0;
	double prev = -1;
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(csv_split(line, fl, 32), nf);
		ck_assert_ptr_nonnull(strstr(fl[0], "sgemm"));
		/* the name shown (maybe cut with an ellipsis) starts the CSV name */
		char shown[256];
		cells(u, hy + 1 + n, 2, 2 + 20, shown, sizeof(shown));
		ck_assert_int_eq(strncmp(fl[0], shown, strlen(shown)), 0);
		double total_us = strtod(fl[tc], NULL);
		ck_assert_double_ge(total_us, prev);
		prev = total_us;
		/* the screen shows the same number in ms */
		ck_assert_double_lt(fabs(total_us / 1000 - num_under(u, hy, "total (ms)", hy + 1 + n)),
				    0.6);
		n++;
	}
	fclose(f);
	ck_assert_int_eq(n, 3);
	/* again: a new file, never overwritten */
	ui_keys(u, "w");
	ck_screen_has(u, "tracetop-kernels-1.csv");
	ck_assert_int_eq(access("tracetop-kernels-1.csv", R_OK), 0);
	/* a pane without a table (Diff of one trace) says so */
	ui_keys(u, "0w");
	ck_screen_has(u, "no table to write");
	/* an unwritable directory: an error on the status line, no crash */
	ck_assert_int_eq(chmod(dir, 0500), 0);
	if (access(dir, W_OK) != 0) { /* (root can write anyway) */
		ui_keys(u, "1w");
		ck_screen_has(u, "cannot write");
	}
	chmod(dir, 0700);
	ui_free(u);
	unlink("tracetop-kernels.csv");
	unlink("tracetop-kernels-1.csv");
	unlink("tracetop-overview.csv");
	ck_assert_int_eq(chdir(old), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(help_lists_bindings)
{
	struct ui *u = ui_new(demo_model, 100, 80);
	ui_keys(u, "4?");
	ck_screen_has(u, "help: Kernels");
	ck_screen_has(u, "GPU kernels by total time"); /* the pane's own text */
	ck_screen_has(u, "Keys everywhere");
	/* each generic binding is listed with its action's help */
	int y = find_row(u, "move down one row");
	ck_assert_int_ge(y, 0);
	ck_assert_ptr_nonnull(strstr(row(u, y), "j <Down>"));
	y = find_row(u, "drill into the selected row");
	ck_assert_ptr_nonnull(strstr(row(u, y), "<Enter>"));
	y = find_row(u, "show the Kernels");
	ck_assert_ptr_nonnull(strstr(row(u, y), " 4 "));
	for (int a = 1; a < TT_ACT_COUNT; a++) {
		const char *key = tt_keymap_key_of(u->k, "generic", (enum tt_action)a);
		if (!key[0])
			continue;
		y = find_row(u, tt_action_help((enum tt_action)a));
		ck_assert_msg(y >= 0, "action %s is not in the help", tt_action_name(a));
		ck_assert_msg(strstr(row(u, y), key), "key %s of %s is not in the help", key,
			      tt_action_name(a));
	}
	/* no empty "Keys of" section for a pane without its own bindings */
	ck_assert(!on_screen(u, "Keys of Kernels"));
	/* ? or Esc goes back */
	ui_keys(u, "?");
	ck_assert_int_eq(u->a->depth, 0);
	ui_keys(u, "?<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ui_free(u);

	/* the help shows the bindings really in force */
	struct ui *v = ui_new(demo_model, 100, 80);
	ck_assert_int_eq(tt_keymap_parse(v->k,
					 "bind generic x quit\n"
					 "unbind generic q\n"
					 "bind kernels t sort-next\n",
					 "test.rc", NULL, NULL),
			 0);
	ui_keys(v, "4?");
	ck_screen_has(v, "Keys of Kernels");
	y = find_row(v, "Keys of Kernels");
	ck_assert_ptr_nonnull(strstr(row(v, y + 1), "t "));
	ck_assert_ptr_nonnull(strstr(row(v, y + 1), "sort by the next column"));
	y = find_row_from(v, "quit", find_row(v, "Keys everywhere"));
	ck_assert_ptr_nonnull(strstr(row(v, y), "<C-c> x"));
	ck_assert(!strstr(row(v, y), "q "));
	/* and the keys work: t sorts in Kernels, q does nothing, x quits */
	ui_keys(v, "<Escape>");
	struct tt_pane *p = tt_app_pane(v->a);
	int sc = p->sort_col;
	ui_keys(v, "t");
	ck_assert_int_ne(p->sort_col, sc);
	ck_assert_int_eq(ui_keys(v, "q") & TT_R_QUIT, 0);
	ck_screen_has(v, "q: no action");
	ck_assert_int_ne(ui_keys(v, "x") & TT_R_QUIT, 0);
	ui_free(v);

	/* a short screen scrolls the help, and never past its end */
	struct ui *w = ui_new(demo_model, 80, 24);
	ui_keys(w, "?");
	ck_assert(!on_screen(w, "q <C-c>"));
	for (int i = 0; i < 200; i++)
		ui_keys(w, "j");
	ck_screen_has(w, "q <C-c>");
	ck_assert_int_ge(find_row(w, "q <C-c>"), 10); /* the end is at the bottom, not alone */
	ui_keys(w, "k");
	ck_screen_has(w, "q <C-c>");
	ui_free(w);
}
END_TEST

START_TEST(status_messages)
{
	struct ui *u = ui_new(demo_model, 100, 30);
	ui_keys(u, "x");
	ck_screen_has(u, "x: no action (press ? for help)");
	ui_keys(u, "+");
	ck_screen_has(u, "zoom in: not in this pane"); /* words, not the action's name */
	ui_keys(u, "n");
	ck_screen_has(u, "no filter: press / first");
	ck_assert_int_ne(ui_keys(u, "q") & TT_R_QUIT, 0);
	ui_free(u);
	/* a message longer than the status line wraps above it, whole */
	u = ui_new(demo_model, 80, 24);
	ui_keys(u, "4/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz<Enter>");
	ck_screen_has(u, "0 rows match 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz'");
	ck_screen_has(u, "(Esc clears)");
	ui_free(u);
}
END_TEST

START_TEST(warnings_pane)
{
	/* the load warnings and the keymap/theme errors: counted on the status
	 * line, listed by W (what went to stderr behind the screen before) */
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/truncated.json", tl_srcdir());
	struct tt_model *m = tl_load_path(path);
	struct ui *u = ui_new(m, 80, 24);
	ck_screen_has(u, "W:1 warning");
	tt_app_note(u->a, "/home/x/.config/tracetop/tracetoprc:3: unknown action 'zoom-inn'");
	ui_keys(u, "1");
	ck_screen_has(u, "W:2 warnings");
	ui_keys(u, "W");
	ck_screen_has(u, "Overview > Load");
	ck_screen_has(u, "truncated.json");
	ck_screen_has(u, "warning");
	ck_screen_has(u, "tracetoprc:3");
	/* the whole message of the row under the cursor, below the table */
	ui_keys(u, "G");
	ck_screen_has(u, "unknown action 'zoom-inn'");
	ui_keys(u, "g");
	ck_screen_has(u, "file truncated: events after the cut are lost");
	ui_free(u);
	tt_model_free(m);
	/* no warnings: no count, and the pane says so */
	u = ui_new(demo_model, 80, 24);
	ck_assert(!on_screen(u, "W:"));
	ui_keys(u, "W");
	ck_screen_has(u, "0 warnings or errors"); /* (the demo has notes only) */
	ui_free(u);
}
END_TEST

START_TEST(columns_cut_off)
{
	/* at 80 columns the Kernels table is wider than the screen: an arrow
	 * says so, l scrolls right, never past the last column */
	struct ui *u = ui_new(demo_model, 80, 24);
	ui_keys(u, "4");
	int hy = find_row(u, "total (ms)");
	ck_assert_int_eq(tt_grid_at(&u->g, 79, hy)->cp, 0x2192);
	ck_assert(!strstr(row(u, hy), "max rank"));
	for (int i = 0; i < 40; i++)
		ui_keys(u, "l");
	hy = find_row(u, "max (ms)");
	ck_assert_int_ge(hy, 0);
	ck_assert_int_eq(tt_grid_at(&u->g, 0, hy)->cp, 0x2190);
	ck_assert_int_ne(tt_grid_at(&u->g, 79, hy)->cp, 0x2192);
	ck_assert_uint_gt(bar_eighths(u, hy + 1, 0), 0); /* the last column, a bar, shows */
	for (int i = 0; i < 40; i++)
		ui_keys(u, "h");
	ck_assert_int_eq(tt_grid_at(&u->g, 0, hy)->cp, ' ');
	ui_free(u);
}
END_TEST

START_TEST(head_lines_wrap)
{
	/* the lines above a table wrap instead of losing their end */
	struct ui *u = ui_new(demo_model, 80, 24);
	ck_screen_has(u, "Enter: the rank's streams");
	ui_keys(u, "3");
	ck_screen_has(u, "Enter: the stream's largest gaps");
	ui_keys(u, "5");
	ck_screen_has(u, "of communication time overlaps computation");
	/* a short screen keeps the table and cuts the lines */
	ui_resize(u, 80, 12);
	ck_assert_int_ge(find_row(u, "overlap %"), 0);
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 8);
	ck_assert_int_ge(find_row(u, "    2 "), 0);
	ui_free(u);
}
END_TEST

START_TEST(answers_on_screen)
{
	/* the four questions of the explorer, each answered on one screen */
	struct ui *u = ui_new(demo_model, 120, 30);
	ck_screen_has(u, "straggler: rank 5");
	ui_keys(u, "4");
	ck_screen_has(u, "most time: ncclDevKernel_AllReduce");
	ck_assert(head_has(u, "on 8 ranks; most on rank 1 (273 ms), least on rank 5 (15.8 ms)"));
	ui_keys(u, "5");
	ck_screen_has(u, "of communication time overlaps computation");
	ui_keys(u, "3");
	ck_screen_has(u, "largest gap: rank 5 stream 20");
	ui_free(u);
}
END_TEST

/* ---- terminals ---- */

START_TEST(too_small)
{
	struct ui *u = ui_new(demo_model, 40, 8);
	ck_screen_has(u, "terminal too small (40x8)");
	ck_assert_ptr_nonnull(strstr(screen(u), "tracetop needs 50x10"));
	/* keys still work while small */
	ui_keys(u, "4jj<Enter>");
	ck_screen_has(u, "terminal too small");
	ui_resize(u, 1, 1);
	ck_assert_int_eq(tt_grid_at(&u->g, 0, 0)->cp, 't');
	ui_resize(u, 49, 10);
	ck_screen_has(u, "too small");
	ui_resize(u, 50, 9);
	ck_screen_has(u, "too small");
	/* and back: the drill-down is still there */
	ui_resize(u, 50, 10);
	ck_assert(!on_screen(u, "too small"));
	ck_screen_has(u, "Kernels >");
	ui_resize(u, 80, 24);
	ck_screen_has(u, "instances; durations");
	ui_free(u);
}
END_TEST

static bool all_ascii(struct ui *u, int *bad_y)
{
	for (int y = 0; y < u->g.h; y++) {
		const char *r = row(u, y);
		for (const unsigned char *p = (const unsigned char *)r; *p; p++)
			if (*p >= 0x80) {
				*bad_y = y;
				return false;
			}
	}
	return true;
}

START_TEST(ascii_mode)
{
	tt_render_set_ascii(true);
	static const char *const keys[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "0",
					   "1<Enter>", "3<Enter>", "4<Enter>", "6<Enter>", "4s", "1?",
					   "4llllllllll", "1]"};
	for (int size = 0; size < 2; size++) {
		struct ui *u = size ? ui_new(demo_model, 80, 24) : ui_new(demo_model, 160, 50);
		for (size_t i = 0; i < TT_ARRAY_SIZE(keys); i++) {
			ui_keys(u, "<Escape><Escape>a");
			ui_keys(u, keys[i]);
			int y;
			if (!all_ascii(u, &y)) {
				dump(u);
				ck_abort_msg("keys %s: a non-ASCII byte in row %d: %s", keys[i], y,
					     row(u, y));
			}
		}
		/* the bars are there, drawn with ASCII glyphs */
		ui_keys(u, "5");
		int hy = find_row(u, "overlap %");
		ck_assert_int_ge(hy, 0);
		ck_assert_ptr_nonnull(strstr(row(u, hy + 1), "#"));
		ui_keys(u, "1");
		ck_assert(head_has(u, "bar: # compute = other busy . idle"));
		ck_assert_ptr_nonnull(strstr(screen(u), "# compute = other busy"));
		ui_free(u);
	}
	struct ui *u = ui_new(demo_model, 40, 8);
	int y;
	ck_assert(all_ascii(u, &y));
	ui_free(u);
	tt_render_set_ascii(false);
}
END_TEST

START_TEST(headless_driver)
{
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_keymap *k = tt_keymap_new();
	struct tt_app *a = tt_app_new(demo_model, NULL, &o, k, "demo");
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tt_headless_run(a, 90, 20, "<Dump>4<Dump>jj<Enter>q1", f, false), 0);
	rewind(f);
	char line[1024];
	int seps = 0, lines = 0, kern = 0;
	while (fgets(line, sizeof(line), f)) {
		lines++;
		if (strcmp(line, "----\n") == 0)
			seps++;
		if (strstr(line, "Kernels"))
			kern++;
	}
	fclose(f);
	/* two dumps with separators, and the final screen after q (no more keys) */
	ck_assert_int_eq(seps, 2);
	ck_assert_int_eq(lines, 3 * 20 + 2);
	ck_assert_int_ge(kern, 2);
	ck_assert_int_eq(a->cur, 3); /* q stopped before 1 */
	tt_app_free(a);
	tt_keymap_free(k);
}
END_TEST

/* ---- keymap ---- */

struct warnings {
	char msg[8][256];
	int n;
};

static void collect(void *ctx, const char *msg)
{
	struct warnings *w = ctx;
	if (w->n < 8)
		snprintf(w->msg[w->n++], sizeof(w->msg[0]), "%s", msg);
}

START_TEST(keymap_parse)
{
	struct tt_keymap *k = tt_keymap_new();
	/* the defaults */
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "j"), TT_ACT_MOVE_DOWN);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "<Down>"), TT_ACT_MOVE_DOWN);
	ck_assert_int_eq(tt_keymap_lookup(k, NULL, "q"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<Tab>"), TT_ACT_NEXT_PANE);
	ck_assert_int_eq(tt_keymap_lookup(k, "timeline", "<Tab>"), TT_ACT_NEXT_EVENT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "Z"), TT_ACT_NONE);
	for (int i = 0; i <= 9; i++) {
		char key[2] = {(char)('0' + i), 0};
		ck_assert_int_eq(tt_keymap_lookup(k, "generic", key),
				 i == 0 ? TT_ACT_PANE_0 : TT_ACT_PANE_1 + i - 1);
	}
	/* bind, rebind, unbind; comments and blank lines */
	struct warnings w = {0};
	int bad = tt_keymap_parse(k,
				  "# my keys\n"
				  "bind generic x quit   # leave\n"
				  "\n"
				  "bind kernels <C-s> sort-next\n"
				  "bind generic j move-up\n"
				  "unbind generic q\n"
				  "bind generic <CR> help\n",
				  "my.rc", collect, &w);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(w.n, 0);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "x"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "<C-s>"), TT_ACT_SORT_NEXT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<C-s>"), TT_ACT_NONE);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "j"), TT_ACT_MOVE_UP);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "q"), TT_ACT_NONE);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<Enter>"), TT_ACT_HELP); /* <CR> alias */
	ck_assert_str_eq(tt_keymap_key_of(k, "kernels", TT_ACT_SORT_NEXT), "<C-s>");
	ck_assert_str_eq(tt_keymap_key_of(k, "overview", TT_ACT_SORT_NEXT), "s");
	/* a pane's section comes before generic */
	tt_keymap_parse(k, "bind overview s quit\n", "x.rc", NULL, NULL);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "s"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "s"), TT_ACT_SORT_NEXT);
	/* bad lines: warnings with FILE:LINE, the rest still applies */
	w.n = 0;
	bad = tt_keymap_parse(k,
			      "bind generic z frobnicate\n"
			      "bind generic y\n"
			      "bind generic ab quit\n"
			      "bind generic Z quit\n"
			      "blind generic w quit\n",
			      "bad.rc", collect, &w);
	ck_assert_int_eq(bad, 4);
	ck_assert_int_eq(w.n, 4);
	ck_assert_str_eq(w.msg[0], "bad.rc:1: unknown action 'frobnicate'");
	ck_assert_ptr_nonnull(strstr(w.msg[1], "bad.rc:2:"));
	ck_assert_str_eq(w.msg[2], "bad.rc:3: 'ab' is not one key");
	ck_assert_ptr_nonnull(strstr(w.msg[3], "bad.rc:5:"));
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "Z"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "z"), TT_ACT_NONE);
	/* a file; a missing file is no error */
	char path[] = "/tmp/tt_test_rc_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char *text = "bind generic v pane-diff\nbind generic u nosuch\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	w.n = 0;
	ck_assert_int_eq(tt_keymap_load(k, path, collect, &w), 1);
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "v"), TT_ACT_PANE_0);
	char want[300];
	snprintf(want, sizeof(want), "%s:2: unknown action 'nosuch'", path);
	ck_assert_str_eq(w.msg[0], want);
	unlink(path);
	ck_assert_int_eq(tt_keymap_load(k, "/nonexistent/tracetoprc", collect, &w), 0);
	tt_keymap_free(k);
	/* every action name round-trips */
	for (int a = 0; a < TT_ACT_COUNT; a++) {
		bool ok;
		ck_assert_int_eq(tt_action_lookup(tt_action_name((enum tt_action)a), &ok), a);
		ck_assert(ok);
		ck_assert_str_ne(tt_action_help((enum tt_action)a), "");
	}
	bool ok = true;
	tt_action_lookup("nosuch", &ok);
	ck_assert(!ok);
}
END_TEST

START_TEST(key_next)
{
	char buf[32];
	const char *s = "<Tab>jj<C-f>";
	const char *want[] = {"<Tab>", "j", "j", "<C-f>"};
	for (int i = 0; i < 4; i++) {
		s = tt_key_next(s, buf, sizeof(buf));
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(buf, want[i]);
	}
	ck_assert_str_eq(s, "");
	ck_assert_ptr_null(tt_key_next(s, buf, sizeof(buf)));
	ck_assert_ptr_null(tt_key_next(NULL, buf, sizeof(buf)));
	/* aliases */
	static const char *const al[][2] = {
		{"<CR>", "<Enter>"},	    {"<Return>", "<Enter>"},	 {"<Esc>", "<Escape>"},
		{"<BS>", "<Backspace>"},    {"<PgUp>", "<PageUp>"},	 {"<PgDn>", "<PageDown>"},
		{" ", "<Space>"},	    {"<lt>", "<"},		 {"<esc>", "<Escape>"},
		{"<S-Tab>", "<S-Tab>"},	    {"<Dump>", "<Dump>"},	 {"<C-c>", "<C-c>"},
	};
	for (size_t i = 0; i < TT_ARRAY_SIZE(al); i++) {
		ck_assert_ptr_nonnull(tt_key_next(al[i][0], buf, sizeof(buf)));
		ck_assert_str_eq(buf, al[i][1]);
	}
	/* a lone '<' is a key; UTF-8 stays one key */
	s = tt_key_next("<a b>", buf, sizeof(buf));
	ck_assert_str_eq(buf, "<");
	ck_assert_str_eq(s, "a b>");
	s = tt_key_next("\xC3\xA9x", buf, sizeof(buf));
	ck_assert_str_eq(buf, "\xC3\xA9");
	ck_assert_str_eq(s, "x");
	s = tt_key_next("<C->>j", buf, sizeof(buf));
	ck_assert_str_eq(buf, "<C->>");
	ck_assert_str_eq(s, "j");
}
END_TEST

/* ---- themes ---- */

static bool style_eq(struct tt_style a, struct tt_style b)
{
	return a.fg == b.fg && a.bg == b.bg && a.attrs == b.attrs;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	static char text[65536];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

START_TEST(theme_parse)
{
	struct tt_theme def, t;
	tt_theme_default(&def);
	ck_assert_str_eq(def.name, "default");
	ck_assert(!def.mono);
	/* themes/default.theme is the built-in default */
	char path[4096];
	snprintf(path, sizeof(path), "%s/themes/default.theme", tl_srcdir());
	memset(&t, 0, sizeof(t));
	struct warnings w = {0};
	ck_assert_int_eq(tt_theme_parse(&t, read_file(path), path, collect, &w), 0);
	ck_assert_int_eq(w.n, 0);
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert_msg(style_eq(tt_theme_style(&t, r), tt_theme_style(&def, r)),
			      "role %s differs between themes/default.theme and the built-in",
			      tt_role_name(r));
	/* every role is set in it, explicitly */
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert_msg(t.style[r].set, "role %s is not in default.theme", tt_role_name(r));
	/* errors: warnings with FILE:LINE; the value before stays */
	t = def;
	w.n = 0;
	int bad = tt_theme_parse(&t,
				 "[styles]\n"
				 "cursor = purpel black\n"
				 "bar.comp = red default blink\n"
				 "nosuch.role = red\n"
				 "header\n"
				 "bar.comm = 208 default bold\n"
				 "[other]\n"
				 "x = y\n",
				 "my.theme", collect, &w);
	ck_assert_int_eq(bad, 5);
	ck_assert_str_eq(w.msg[0], "my.theme:2: unknown color 'purpel'");
	ck_assert_str_eq(w.msg[1], "my.theme:3: unknown attribute 'blink'");
	ck_assert_str_eq(w.msg[2], "my.theme:4: unknown role 'nosuch.role'");
	ck_assert_ptr_nonnull(strstr(w.msg[3], "my.theme:5:"));
	ck_assert_ptr_nonnull(strstr(w.msg[4], "my.theme:8:"));
	ck_assert(style_eq(tt_theme_style(&t, TT_ROLE_CURSOR), tt_theme_style(&def, TT_ROLE_CURSOR)));
	ck_assert(style_eq(tt_theme_style(&t, TT_ROLE_BAR_COMP),
			   tt_theme_style(&def, TT_ROLE_BAR_COMP)));
	struct tt_style c = tt_theme_style(&t, TT_ROLE_BAR_COMM);
	ck_assert_int_eq(c.fg, 208);
	ck_assert_int_eq(c.bg, TT_COLOR_DEFAULT);
	ck_assert_int_eq(c.attrs, TT_ATTR_BOLD);
	/* colours */
	ck_assert_int_eq(tt_color_lookup("default"), TT_COLOR_DEFAULT);
	ck_assert_int_eq(tt_color_lookup("red"), 1);
	ck_assert_int_eq(tt_color_lookup("bright-red"), 9);
	ck_assert_int_eq(tt_color_lookup("255"), 255);
	ck_assert_int_eq(tt_color_lookup("256"), -2);
	ck_assert_int_eq(tt_color_lookup("purpel"), -2);
	/* a scoped role falls back to its base, then to default */
	memset(&t, 0, sizeof(t));
	tt_theme_parse(&t, "[styles]\nbar = magenta default\ndefault = white black\n", "s.theme",
		       NULL, NULL);
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_BAR_IDLE).fg, 5);
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_CURSOR).fg, 7);
	/* role names */
	ck_assert_str_eq(tt_role_name(TT_ROLE_TITLE_FOCUS), "title.focus");
	ck_assert_int_eq(tt_role_lookup("bar.comp"), TT_ROLE_BAR_COMP);
	ck_assert_int_eq(tt_role_lookup("nope"), -1);
}
END_TEST

START_TEST(theme_load)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/themes", tl_srcdir());
	const char *dirs[] = {dir, NULL};
	unsetenv("TRACETOP_THEMES");
	setenv("HOME", "/nonexistent", 1);
	struct warnings w = {0};
	struct tt_theme t, def;
	tt_theme_default(&def);
	/* light: loads without warnings, and differs from the default */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "light", dirs, collect, &w));
	ck_assert_int_eq(w.n, 0);
	ck_assert_str_eq(t.name, "light");
	ck_assert(!t.mono);
	ck_assert(!style_eq(tt_theme_style(&t, TT_ROLE_CURSOR), tt_theme_style(&def, TT_ROLE_CURSOR)));
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_BAR_COMP).fg, 28);
	/* mono by name (no file needed) and from its file: attributes only */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "mono", dirs, collect, &w));
	ck_assert(t.mono);
	char path[4200];
	snprintf(path, sizeof(path), "%s/mono.theme", dir);
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, path, NULL, collect, &w));
	ck_assert_int_eq(w.n, 0);
	ck_assert(t.mono);
	for (int r = 0; r < TT_ROLE_COUNT; r++) {
		struct tt_style s = tt_theme_style(&t, r);
		ck_assert_int_eq(s.fg, TT_COLOR_DEFAULT);
		ck_assert_int_eq(s.bg, TT_COLOR_DEFAULT);
	}
	ck_assert(tt_theme_style(&t, TT_ROLE_CURSOR).attrs & TT_ATTR_REVERSE);
	ck_assert(tt_theme_style(&t, TT_ROLE_HEADER).attrs & TT_ATTR_BOLD);
	/* default by file name too */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "default", dirs, collect, &w));
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert(style_eq(tt_theme_style(&t, r), tt_theme_style(&def, r)));
	/* TRACETOP_THEMES comes first */
	char tdir[] = "/tmp/tt_test_themes_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tdir));
	char tpath[4200];
	snprintf(tpath, sizeof(tpath), "%s/light.theme", tdir);
	FILE *f = fopen(tpath, "w");
	fputs("[theme]\nname = mine\n[styles]\ncursor = red green\nheader = oops\n", f);
	fclose(f);
	setenv("TRACETOP_THEMES", tdir, 1);
	w.n = 0;
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "light", dirs, collect, &w));
	ck_assert_str_eq(t.name, "mine");
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_CURSOR).fg, 1);
	ck_assert_int_eq(w.n, 1);
	char want[4300];
	snprintf(want, sizeof(want), "%s:5: unknown color 'oops'", tpath);
	ck_assert_str_eq(w.msg[0], want);
	unsetenv("TRACETOP_THEMES");
	unlink(tpath);
	rmdir(tdir);
	/* not found: false, the theme unchanged */
	tt_theme_default(&t);
	ck_assert(!tt_theme_load(&t, "nosuchtheme", dirs, collect, &w));
	ck_assert_str_eq(t.name, "default");
}
END_TEST

/* ---- the shared traces ---- */

/* every pane, drilled into and out of, at a few sizes: no crash, never an
 * empty body, and the keys that change the view */
static void visit_all(const struct tt_model *m, const struct tt_model *m2, const char *what)
{
	static const int sizes[][2] = {{80, 24}, {160, 50}, {50, 10}, {200, 12}};
	static const char *const keys[10] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"};
	for (size_t s = 0; s < TT_ARRAY_SIZE(sizes); s++) {
		struct ui *u = ui_new2(m, m2, sizes[s][0], sizes[s][1]);
		for (int i = 0; i < 10; i++) {
			ui_keys(u, keys[i]);
			int text = 0;
			for (int y = 2; y < u->g.h - 1; y++)
				if (row(u, y)[strspn(row(u, y), " ")])
					text++;
			if (!text) {
				dump(u);
				ck_abort_msg("%s: pane %d shows nothing at %dx%d", what, i + 1,
					     sizes[s][0], sizes[s][1]);
			}
			ui_keys(u, "<Enter><Enter>jj<Enter><Escape><Escape><Escape>");
			ck_assert_int_eq(u->a->depth, 0);
			ck_assert_int_eq(u->a->cur, i);
			ui_keys(u, "G<PageUp>g<PageDown>sSsll/a<Enter>nN<Escape>hh?j<Escape>");
			ck_assert_int_eq(u->a->depth, 0);
		}
		ui_keys(u, "1]]<Enter><Escape>4[<Enter><Escape>a");
		ck_assert_uint_eq(u->a->nranks, 0);
		ui_free(u);
	}
}

START_TEST(every_pane_demo)
{
	visit_all(demo_model, NULL, "demo");
}
END_TEST

START_TEST(shared_hta_2rank)
{
	char buf[4096];
	const char *path = tl_shared("hta-2rank", buf, sizeof(buf));
	if (!path)
		return; /* ../shared is absent (make distcheck): nothing to check */
	struct tt_model *m = tl_load_path(path);
	ck_assert_uint_eq(m->nranks, 2);
	struct ui *u = ui_new(m, 120, 30);
	/* Overview: both ranks, no straggler among two */
	int hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 2), 1);
	ck_assert_str_eq(row(u, hy + 3), "");
	ck_assert(!on_screen(u, "straggler: rank"));
	ck_screen_has(u, "2 ranks;");
	ck_screen_has(u, "stragglers are looked for among 3 ranks or more");
	ck_assert(!on_screen(u, "a shows all ranks")); /* all are shown already */
	/* Kernels: the NCCL send/recv kernel costs most */
	ui_keys(u, "4");
	ck_screen_has(u, "most time: ncclKernel_SendRecv");
	hy = find_row(u, "total (ms)");
	ck_assert_ptr_nonnull(strstr(row(u, hy + 1), "ncclKernel_Sen"));
	/* by total time, largest first */
	struct tt_pane *kp = tt_app_pane(u->a);
	int tc = tt_table_col(kp->table, "total (us)");
	double prev = 1e18;
	for (size_t r = 0; r < kp->nrows; r++) {
		double n = tt_cell_num(tt_table_cell(kp->table, kp->rows[r], tc));
		ck_assert_double_le(n, prev);
		prev = n;
	}
	/* a kernel in microseconds: its histogram lines up */
	ui_keys(u, "jjjjj<Enter>");
	ck_screen_has(u, "\xC2\xB5s - ");
	hist_aligned(u);
	ui_keys(u, "<Escape>");
	/* Idle: the largest gap, rank 1 stream 23 (448 ms) */
	ui_keys(u, "3");
	ck_screen_has(u, "largest gap: rank 1 stream 23, 448 ms");
	/* Overlap: bars follow overlap % */
	ui_keys(u, "5");
	hy = find_row(u, "overlap %");
	int bx = cell_x(u, hy, "comm hidden by compute");
	double va = num_under(u, hy, "overlap %", hy + 1), vb = num_under(u, hy, "overlap %", hy + 2);
	double ca = bar_eighths(u, hy + 1, bx) / 8.0, cb = bar_eighths(u, hy + 2, bx) / 8.0;
	ck_assert_msg(fabs(cb - ca * vb / va) <= 1, "bars %.2f %.2f for %.2f %.2f", ca, cb, va, vb);
	ck_screen_has(u, "of communication time overlaps computation");
	/* Counters: a row per stream of each rank */
	ui_keys(u, "7");
	ck_screen_has(u, "queue, stream 7");
	/* drill into rank 1 and back */
	ui_keys(u, "1j<Enter>");
	ck_screen_has(u, "Overview > rank 1");
	ck_screen_has(u, "GPU stream");
	ui_keys(u, "<Escape>");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 1);
	ui_free(u);
	visit_all(m, NULL, "hta-2rank");
	tt_model_free(m);
}
END_TEST

START_TEST(shared_every_trace)
{
	static const char *const names[] = {"hta-2rank",    "diff-control", "diff-test",
					    "compare-base", "compare-test", "queue-length",
					    "ns-resolution", "cpu-only",    "non-gpu",
					    "rank-unavailable", "event-sync"};
	char buf[4096];
	if (!tl_shared("", buf, sizeof(buf)))
		return; /* ../shared is absent (make distcheck): nothing to check */
	for (size_t i = 0; i < TT_ARRAY_SIZE(names); i++) {
		const char *path = tl_shared(names[i], buf, sizeof(buf));
		if (!path)
			continue;
		struct tt_model *m = tl_load_path(path);
		if (m->nranks)
			visit_all(m, NULL, names[i]);
		tt_model_free(m);
	}
}
END_TEST

START_TEST(shared_diff)
{
	char a[4096], b[4096];
	if (!tl_shared("compare-base", a, sizeof(a)) || !tl_shared("compare-test", b, sizeof(b)))
		return; /* ../shared is absent (make distcheck): nothing to check */
	struct tt_model *ma = tl_load_path(a), *mb = tl_load_path(b);
	struct ui *u = ui_new2(ma, mb, 120, 30);
	ui_keys(u, "0");
	ck_screen_has(u, "Control count");
	ck_screen_has(u, "Test count");
	ck_screen_has(u, "ProfilerStep#1009");
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 7);
	ui_free(u);
	visit_all(ma, mb, "compare");
	tt_model_free(ma);
	tt_model_free(mb);
}
END_TEST

/* Lines above a table wrap by display columns: a kernel named in CJK
 * (two columns a character) in the Kernels pane's "most time" line shows to
 * its last character, and no screen row is wider than the screen. */
START_TEST(head_lines_wrap_wide_characters)
{
	/* 30 characters of 3 bytes and 2 columns each, the last one distinct */
	char name[128] = "";
	for (int i = 0; i < 29; i++)
		strcat(name, "\xE6\xA0\xB8"); /* 核 */
	strcat(name, "\xE5\xB0\xBE");         /* 尾 */
	char json[1024];
	snprintf(json, sizeof(json),
		 "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\","
		 "\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":100,\"args\":{\"stream\":7}}]}",
		 name);
	struct tt_model *m = tl_load_json1(json);
	struct ui *u = ui_new(m, 60, 24);
	ui_keys(u, "4");
	ck_assert(on_screen(u, "most time:"));
	ck_assert_msg(on_screen(u, "\xE5\xB0\xBE"), "the name's last character is not shown");
	for (int y = 0; y < 24; y++)
		ck_assert_int_le((int)tt_utf8_width(row(u, y)), 60);
	ui_free(u);
	tt_model_free(m);
}
END_TEST

/* ---- main ---- */

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	Suite *s = suite_create("ui");
	TCase *tc = tcase_create("panes");
	tcase_add_unchecked_fixture(tc, setup_demo, teardown_demo);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, overview_demo);
	tcase_add_test(tc, head_lines_wrap_wide_characters);
	tcase_add_test(tc, title_bar_short_names);
	tcase_add_test(tc, every_pane_by_key);
	tcase_add_test(tc, bars_proportional);
	tcase_add_test(tc, sort_keys);
	tcase_add_test(tc, filter_keys);
	tcase_add_test(tc, drill_and_back);
	tcase_add_test(tc, rank_keys);
	tcase_add_test(tc, write_csv);
	tcase_add_test(tc, help_lists_bindings);
	tcase_add_test(tc, status_messages);
	tcase_add_test(tc, columns_cut_off);
	tcase_add_test(tc, warnings_pane);
	tcase_add_test(tc, head_lines_wrap);
	tcase_add_test(tc, answers_on_screen);
	tcase_add_test(tc, too_small);
	tcase_add_test(tc, ascii_mode);
	tcase_add_test(tc, headless_driver);
	tcase_add_test(tc, every_pane_demo);
	suite_add_tcase(s, tc);
	TCase *tp = tcase_create("parsers");
	tcase_add_test(tp, keymap_parse);
	tcase_add_test(tp, key_next);
	tcase_add_test(tp, theme_parse);
	tcase_add_test(tp, theme_load);
	suite_add_tcase(s, tp);
	TCase *ts = tcase_create("shared");
	tcase_set_timeout(ts, 300);
	tcase_add_test(ts, shared_hta_2rank);
	tcase_add_test(ts, shared_every_trace);
	tcase_add_test(ts, shared_diff);
	suite_add_tcase(s, ts);
	return tl_run(s);
}
