/* The timeline's window maths (src/tui/tlwindow.c), pure functions: zoom
 * and its limits, fit, clamping, the cursor's moves and pans, times as text
 * and the ruler's step. */
#include "config.h"

#include <check.h>
#include <stdio.h>

#include "tracetop/raster.h"
#include "tracetop/render.h"
#include "testlib.h"
#include "../../src/tui/tlwindow.h"

/* a 1 s trace from t = 5 s, 100 cells, the whole of it in view */
static struct tl_view view_1s(void)
{
	struct tl_view v = {0};
	v.base = v.fit0 = 5000000000LL;
	v.fit1 = v.fit0 + 1000000000LL;
	v.v0 = 0;
	v.span = 1e9L;
	v.tc = v.fit0;
	v.w = 100;
	return v;
}

START_TEST(window_zoom_round_trip)
{
	struct tl_view v = view_1s();
	v.tc = v.fit0 + 123456789;
	long double v0 = v.v0, span = v.span;
	int64_t t0, t1;
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t0, v.fit0);
	ck_assert_int_eq(t1, v.fit1);
	/* in 5 times and out 5 times: the same window, exactly */
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(tl_zoom(&v, 1), TL_ZOOMED);
	ck_assert(v.span == span / 32);
	/* the cursor stays where it was in the window, relative to it */
	ck_assert((long double)(v.tc - v.base) >= v.v0 && (long double)(v.tc - v.base) < v.v0 + v.span);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(tl_zoom(&v, -1), TL_ZOOMED);
	ck_assert(v.v0 == v0 && v.span == span);
	/* the finest zoom is one ns per cell */
	struct tl_view f = view_1s();
	f.span = 150;
	ck_assert_int_eq(tl_zoom(&f, 1), TL_FINEST);
	ck_assert(f.span == 150);
	/* the widest window is the whole span: zooming out stops there */
	struct tl_view w = view_1s();
	tl_zoom(&w, 1);
	ck_assert_int_eq(tl_zoom(&w, -1), TL_ZOOMED);
	ck_assert(w.span == 1e9L && w.v0 == 0);
	ck_assert_int_eq(tl_zoom(&w, -1), TL_WIDEST);
	ck_assert(w.span == 1e9L && w.v0 == 0);
}
END_TEST

START_TEST(window_fit_and_clamp)
{
	struct tl_view v = view_1s();
	/* zoomed in at the end, cursor there; fit: the whole span again */
	v.tc = v.fit1 - 1;
	tl_zoom(&v, 1);
	tl_zoom(&v, 1);
	ck_assert_int_eq(tl_zoom(&v, 0), TL_ZOOMED);
	ck_assert(v.v0 == 0 && v.span == 1e9L);
	/* a cursor left outside the fitted window moves to its start */
	v.tc = v.fit1 + 5000;
	ck_assert_int_eq(tl_zoom(&v, 0), TL_FIT_MOVED);
	ck_assert_int_eq(v.tc, v.fit0);
	/* a narrow window is kept inside the data */
	v.span = 1e8L;
	v.v0 = -5e8L;
	tl_clamp(&v);
	ck_assert(v.v0 == 0);
	v.v0 = 2e9L;
	tl_clamp(&v);
	ck_assert(v.v0 == 9e8L);
	/* a wider one becomes the whole span, from its start */
	v.span = 2e9L;
	v.v0 = 5e8L;
	tl_clamp(&v);
	ck_assert(v.v0 == 0 && v.span == 1e9L);
	v.span = 2e9L;
	v.v0 = -2e9L;
	tl_clamp(&v);
	ck_assert(v.v0 == 0 && v.span == 1e9L);
}
END_TEST

START_TEST(window_cursor_moves)
{
	struct tl_view v = view_1s();
	v.span = 1e8L; /* 100 ms in 100 cells: 1 ms a cell */
	v.tc = v.fit0;
	tl_snap_cursor(&v);
	ck_assert_int_eq(v.tc, v.fit0 + 500000); /* the middle of cell 0 */
	tl_move_cell(&v, 1);
	ck_assert_int_eq(v.tc, v.fit0 + 1500000);
	tl_move_cell(&v, -1);
	ck_assert_int_eq(v.tc, v.fit0 + 500000);
	/* at the left edge of the data nothing pans */
	tl_move_cell(&v, -1);
	ck_assert(v.v0 == 0);
	ck_assert_int_eq(v.tc, v.fit0 + 500000);
	/* at the right edge of the window: a quarter of it pans in */
	v.tc = v.fit0 + 99500000;
	tl_move_cell(&v, 1);
	ck_assert(v.v0 == 2.5e7L);
	ck_assert_int_eq(v.tc, v.fit0 + 100500000);
	/* a time inside shows as is; just right of it pans a quarter; far
	 * away is centred */
	long double v0 = v.v0;
	tl_show_time(&v, v.fit0 + 50000000);
	ck_assert(v.v0 == v0);
	tl_show_time(&v, v.fit0 + 130000000);
	ck_assert(v.v0 == v0 + 2.5e7L);
	tl_show_time(&v, v.fit0 + 700000000);
	ck_assert(v.v0 == 7e8L - 5e7L);
}
END_TEST

START_TEST(window_time_text)
{
	char b[64];
	tl_fmt_time(b, sizeof(b), 12345678, 1, 0);
	ck_assert_str_eq(b, "12.345678 ms");
	tl_fmt_time(b, sizeof(b), 12345678, 100000, 0); /* a tenth of 0.1 ms, truncated */
	ck_assert_str_eq(b, "12.34 ms");
	tl_fmt_time(b, sizeof(b), 12000000, 1, 0); /* trailing zeros dropped */
	ck_assert_str_eq(b, "12 ms");
	char want[32];
	snprintf(want, sizeof(want), "-15.5 %s", tt_unit_name(TT_U_US)); /* µs or us */
	tl_fmt_time(b, sizeof(b), -15500, 1, 0);
	ck_assert_str_eq(b, want);
	tl_fmt_time(b, sizeof(b), 1500, 1, 20000000000LL); /* the unit of the reference */
	ck_assert_str_eq(b, "0.0000015 s");
	/* the ruler over 1 s in 100 cells: ticks every 100 ms, labelled in s
	 * ("0.1 s": the unit steps up with the scale) */
	int dec;
	enum tt_unit u;
	ck_assert_int_eq(tl_ruler_step(0, 0, 1000000000, 100, &dec, &u), 100000000);
	ck_assert_int_eq(u, TT_U_S);
	ck_assert_int_eq(dec, 1);
	/* over 2 ms from 1 s on in 40 cells: ticks every 0.5 ms, which in s
	 * need 4 decimals ("1.0005 s") */
	ck_assert_int_eq(tl_ruler_step(0, 1000000000, 1002000000, 40, &dec, &u), 500000);
	ck_assert_int_eq(u, TT_U_S);
	ck_assert_int_eq(dec, 4);
}
END_TEST

/* The split timeline: one view counted from a step's start, shown on two
 * halves whose steps start at very different times.  A time d after the
 * step start must fall in the same cell on both halves, whatever the zoom,
 * pan and cursor moves did to the shared view. */
static int cell_on(const struct tl_view *v, int64_t start, int64_t d)
{
	struct tl_view h = tl_view_from(v, start);
	int64_t t0, t1;
	tl_window(&h, &t0, &t1);
	return tt_raster_cell_of(t0, t1, tl_cells(&h), start + d);
}

START_TEST(split_halves_aligned)
{
	/* the shared view: 120 ms of data from 3 ms before the step start */
	struct tl_view v = {.base = 0, .fit0 = -3000000, .fit1 = 117000000, .w = 97};
	v.v0 = -1500000.25L; /* not on a whole ns: the halves must still agree */
	v.span = 80000000.5L;
	v.tc = 0;
	/* Control's step starts 1.7e18 ns after 1970 (a Kineto epoch time), the
	 * Test's at 12.345678901 ms after its trace's origin */
	const int64_t sa = 1700000000123456789LL, sb = 12345678901LL;
	const int64_t ds[] = {-3000000, -1, 0, 1, 999, 75500000, 100000000, 116999999};
	for (int round = 0; round < 40; round++) {
		switch (round % 5) {
		case 0:
			tl_zoom(&v, 1);
			break;
		case 1:
			tl_move_cell(&v, 1);
			break;
		case 2:
			tl_pan(&v, round % 2 ? 1 : -1);
			break;
		case 3:
			tl_zoom(&v, -1);
			break;
		default:
			tl_show_time(&v, ds[round % 8]);
			break;
		}
		int64_t t0, t1;
		tl_window(&v, &t0, &t1);
		for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
			int c = cell_on(&v, 0, ds[i]);
			ck_assert_int_eq(cell_on(&v, sa, ds[i]), c);
			ck_assert_int_eq(cell_on(&v, sb, ds[i]), c);
			/* and the cell is the shared view's own */
			ck_assert_int_eq(c, tt_raster_cell_of(t0, t1, tl_cells(&v), ds[i]));
		}
		/* the step's start is where the shared view puts time 0 */
		struct tl_view ha = tl_view_from(&v, sa), hb = tl_view_from(&v, sb);
		ck_assert_int_eq(ha.tc - sa, v.tc);
		ck_assert_int_eq(hb.tc - sb, v.tc);
		ck_assert_int_eq(ha.fit1 - ha.fit0, v.fit1 - v.fit0);
		int64_t a0, a1, b0, b1;
		tl_window(&ha, &a0, &a1);
		tl_window(&hb, &b0, &b1);
		ck_assert_int_eq(a0 - sa, t0);
		ck_assert_int_eq(b0 - sb, t0);
		ck_assert_int_eq(a1 - a0, t1 - t0);
		ck_assert_int_eq(b1 - b0, t1 - t0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tlwindow");
	TCase *tw = tcase_create("window");
	tcase_add_test(tw, window_zoom_round_trip);
	tcase_add_test(tw, window_fit_and_clamp);
	tcase_add_test(tw, window_cursor_moves);
	tcase_add_test(tw, window_time_text);
	tcase_add_test(tw, split_halves_aligned);
	suite_add_tcase(s, tw);
	return tl_run(s);
}
