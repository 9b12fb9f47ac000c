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
/* Keep the window inside the data: no wider than tl_span_max and inside
 * [fit0, fit1) (a window wider than the data, which only a screen wider
 * than the span in ns makes, starts at fit0). */
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
	TL_WIDEST,       /* not zoomed out: the whole span is in view already */
	TL_FIT_MOVED,    /* fitted, and the cursor was moved to the start */
};
/* Zoom in (dir > 0) or out (dir < 0) by two around the cursor (its time
 * keeps its column unless the window meets an end of the data), or fit the
 * whole span (dir == 0).  The window stays inside the data (tl_clamp). */
enum tl_zoom tl_zoom(struct tl_view *v, int dir);
/* Zoom by two around time t (the pointer's): t keeps its column unless the
 * window meets an end of the data; the cursor stays where it is. */
enum tl_zoom tl_zoom_at(struct tl_view *v, int dir, int64_t t);
/* Pan by half a window left (dir < 0) or right, the cursor moving with
 * the window (it keeps its column).  Returns false when the window is at
 * that end of the data already (then the cursor goes to the end). */
bool tl_pan(struct tl_view *v, int dir);
/* Go to time t: the cursor at t, the window centred on it (as far as the
 * ends of the data let it). */
void tl_center(struct tl_view *v, int64_t t);

/* The view of one half of a split timeline.  v counts time from the start
 * of a step (v->base is 0); the half whose step starts at `start` (ns,
 * absolute) sees the same window, cursor and data span moved by start, so
 * a time d after its step's start falls in the same cell on every half. */
struct tl_view tl_view_from(const struct tl_view *v, int64_t start);

/* v / div with dec decimals (truncated), exactly (no doubles); returns the
 * length like snprintf. */
int tl_fmt_fixed(char *buf, size_t n, int64_t v, int64_t div, int dec);
/* Time v as text in the unit that fits max(|v|, |ref|), with decimals down
 * to a tenth of res ns, trailing zeros dropped: "12.5 ms". */
void tl_fmt_time(char *buf, size_t n, int64_t v, int64_t res, int64_t ref);
/* The ruler's tick step over window [t0, t1) drawn in w cells: 1, 2 or 5 x
 * 10^k ns, with labels (relative to base, in tl_ruler_unit) that fit
 * between the ticks; *dec and *unit say how to print them. */
int64_t tl_ruler_step(int64_t base, int64_t t0, int64_t t1, int w, int *dec, enum tt_unit *unit);

#endif
