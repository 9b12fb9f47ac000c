/* tui room private: the timeline's window maths -- which span of time the
 * cells show, where the cursor is, zooming, panning, and times as text.
 * Pure functions of struct tl_view (no model, no drawing); unit-tested in
 * tests/unit/test_timeline.c. */
#ifndef TRACETOP_TLWINDOW_H
#define TRACETOP_TLWINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/render.h"

#define TL_SPAN_MAX ((int64_t)1 << 61) /* 73 years: windows stay far from int64 limits */
#define TL_T_LIMIT ((int64_t)1 << 62)
#define TL_ZOOM_OUT_MAX 4 /* widest window: this many times the whole span */

/* The window is (v0, span) in long double ns relative to `base`: zooming
 * halves or doubles both around the cursor, exactly, so zooming in and out
 * again gives back the same window. */
struct tl_view {
	int64_t base;         /* time origin, ns */
	int64_t fit0, fit1;   /* the span of the data shown, ns */
	long double v0, span; /* the window, relative to base */
	int64_t tc;           /* cursor time, ns */
	int w;                /* cells at the last draw; 0 before the first */
};

/* Cells across (100 before the first draw). */
int tl_cells(const struct tl_view *v);
/* The window [*t0, *t1) in ns: at least one ns per cell, far from the
 * int64 limits. */
void tl_window(const struct tl_view *v, int64_t *t0, int64_t *t1);
/* fit1 - fit0 */
int64_t tl_fit_len(const struct tl_view *v);
/* Keep the window over the data: inside [fit0, fit1) when it is narrower,
 * else holding all of it. */
void tl_clamp(struct tl_view *v);
/* Put the cursor at the middle of its cell. */
void tl_snap_cursor(struct tl_view *v);
/* Bring time t into the window: pan by a quarter when it is near, else
 * centre it. */
void tl_show_time(struct tl_view *v, int64_t t);
/* Move the cursor one cell left (dir < 0) or right, panning by a quarter
 * of the window at its edges; the cursor ends at the middle of its cell. */
void tl_move_cell(struct tl_view *v, int dir);

enum tl_zoom {
	TL_ZOOMED,       /* the window changed */
	TL_FINEST,       /* not zoomed in: one ns per cell already */
	TL_WIDEST,       /* not zoomed out: the widest window already */
	TL_FIT_MOVED,    /* fitted, and the cursor was moved to the start */
};
/* Zoom in (dir > 0) or out (dir < 0) around the cursor, or fit the whole
 * span (dir == 0). */
enum tl_zoom tl_zoom(struct tl_view *v, int dir);

/* v / div with dec decimals (truncated), exactly (no doubles); returns the
 * length like snprintf. */
int tl_fmt_fixed(char *buf, size_t n, int64_t v, int64_t div, int dec);
/* Time v as text in the unit that fits max(|v|, |ref|), with decimals down
 * to a tenth of res ns, trailing zeros dropped: "12.5 ms". */
void tl_fmt_time(char *buf, size_t n, int64_t v, int64_t res, int64_t ref);
/* The ruler's tick step over window [t0, t1) drawn in w cells: 1, 2 or 5 x
 * 10^k ns, with labels (relative to base) that fit between the ticks;
 * *dec and *unit say how to print them. */
int64_t tl_ruler_step(int64_t base, int64_t t0, int64_t t1, int w, int *dec, enum tt_unit *unit);

#endif
