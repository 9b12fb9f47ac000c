/* What the explorer's unit tests share (test_ui*.c): an app on a model,
 * keys through the real keymap, and its screen read back as text. */
#ifndef TRACETOP_UITEST_H
#define TRACETOP_UITEST_H

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

/* ---- the demo job, loaded once before the tests fork (an unchecked
 * fixture: tcase_add_unchecked_fixture(tc, setup_demo, teardown_demo)) ---- */

static struct tt_model *demo_model __attribute__((unused));

static inline void setup_demo(void)
{
	if (!demo_model)
		demo_model = tl_load_demo();
}

static inline void teardown_demo(void)
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

static inline struct ui *ui_new2(const struct tt_model *m, const struct tt_model *m2, int w, int h)
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

static inline struct ui *ui_new(const struct tt_model *m, int w, int h)
{
	return ui_new2(m, NULL, w, h);
}

static inline void ui_free(struct ui *u)
{
	tt_app_free(u->a);
	tt_keymap_free(u->k);
	tt_grid_free(&u->g);
	free(u);
}

/* keys as `--keys` takes them, then a redraw (as after every key) */
static inline int ui_keys(struct ui *u, const char *keys)
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

static inline void ui_resize(struct ui *u, int w, int h)
{
	tt_grid_free(&u->g);
	tt_grid_init(&u->g, w, h);
	tt_app_draw(u->a, &u->g);
}

/* row y as text, trailing spaces removed */
static inline const char *row(struct ui *u, int y)
{
	size_t k = tt_grid_row_text(&u->g, y, u->line, sizeof(u->line));
	while (k > 0 && u->line[k - 1] == ' ')
		u->line[--k] = '\0';
	return u->line;
}

/* the whole screen as one string, rows joined without a separator (text
 * wrapped at the screen's width reads whole) */
static inline const char *screen(struct ui *u)
{
	static char buf[65536];
	size_t k = 0;
	for (int y = 0; y < u->g.h && k + 4096 < sizeof(buf); y++)
		k += tt_grid_row_text(&u->g, y, buf + k, sizeof(buf) - k);
	buf[k] = '\0';
	return buf;
}

/* does a line above the pane's table contain s? */
static inline bool head_has(struct ui *u, const char *s)
{
	struct tt_pane *p = tt_app_pane(u->a);
	for (size_t i = 0; i < p->nhead; i++)
		if (strstr(p->head[i].text, s))
			return true;
	return false;
}

/* the first row containing s at or after y0, or -1 */
static inline int find_row_from(struct ui *u, const char *s, int y0)
{
	for (int y = y0; y < u->g.h; y++)
		if (strstr(row(u, y), s))
			return y;
	return -1;
}

static inline int find_row(struct ui *u, const char *s)
{
	return find_row_from(u, s, 0);
}

static inline bool on_screen(struct ui *u, const char *s)
{
	return find_row(u, s) >= 0;
}

static inline void dump(struct ui *u)
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
static inline int cell_x(struct ui *u, int y, const char *s)
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
static inline const char *cells(struct ui *u, int y, int x0, int x1, char *buf, size_t n)
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
static inline double num_under(struct ui *u, int hy, const char *title, int y)
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
static inline int bar_eighths(struct ui *u, int y, int x0)
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
static inline int count_cp(struct ui *u, int y, int x0, uint32_t cp)
{
	int n = 0;
	for (int x = x0; x < u->g.w; x++)
		if (tt_grid_at(&u->g, x, y)->cp == cp)
			n++;
	return n;
}

/* the first table row on screen: the one with the cursor marker */
static inline int cursor_row(struct ui *u)
{
	for (int y = 0; y < u->g.h; y++)
		if (tt_grid_at(&u->g, 0, y)->cp == '>')
			return y;
	return -1;
}

/* the histogram of a kernel's durations lines up, whatever the units (µ is
 * one column in two bytes) */
static inline void hist_aligned(struct ui *u)
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

#endif
