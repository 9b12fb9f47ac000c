/* The timeline's window maths: see tlwindow.h. */
#include "config.h"

#include "tlwindow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracetop/raster.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

int tl_cells(const struct tl_view *v)
{
	return v->w > 0 ? v->w : 100;
}

void tl_window(const struct tl_view *v, int64_t *t0, int64_t *t1)
{
	long double a = (long double)v->base + floorl(v->v0);
	if (a < (long double)-TL_T_LIMIT)
		a = (long double)-TL_T_LIMIT;
	if (a > (long double)TL_T_LIMIT)
		a = (long double)TL_T_LIMIT;
	*t0 = (int64_t)a;
	int64_t span = v->span < (long double)TL_SPAN_MAX ? (int64_t)llroundl(v->span) : TL_SPAN_MAX;
	if (span < tl_cells(v))
		span = tl_cells(v);
	*t1 = *t0 + span;
}

struct tl_view tl_view_from(const struct tl_view *v, int64_t start)
{
	struct tl_view h = *v;
	h.base = v->base + start;
	h.fit0 = v->fit0 + start;
	h.fit1 = v->fit1 + start;
	h.tc = v->tc + start;
	return h;
}

int64_t tl_fit_len(const struct tl_view *v)
{
	return v->fit1 - v->fit0;
}

long double tl_span_max(const struct tl_view *v)
{
	return (long double)TT_MAX(tl_fit_len(v), (int64_t)tl_cells(v));
}

void tl_clamp(struct tl_view *v)
{
	long double max = tl_span_max(v);
	if (v->span > max)
		v->span = max;
	long double lo = (long double)(v->fit0 - v->base);
	long double hi = (long double)(v->fit1 - v->base) - v->span;
	if (v->v0 > hi)
		v->v0 = hi;
	if (v->v0 < lo)
		v->v0 = lo;
}

void tl_snap_cursor(struct tl_view *v)
{
	int64_t t0, t1;
	int w = tl_cells(v);
	tl_window(v, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, v->tc);
	if (k < 0)
		k = 0;
	if (k >= w)
		k = w - 1;
	int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
	v->tc = a + (b - a) / 2;
}

void tl_show_time(struct tl_view *v, int64_t t)
{
	int64_t t0, t1;
	tl_window(v, &t0, &t1);
	if (t >= t0 && t < t1)
		return;
	long double rel = (long double)(t - v->base);
	if (t < t0 && (long double)(t0 - t) <= v->span / 4)
		v->v0 -= v->span / 4;
	else if (t >= t1 && (long double)(t - t1) < v->span / 4)
		v->v0 += v->span / 4;
	else
		v->v0 = rel - v->span / 2;
	tl_clamp(v);
	tl_window(v, &t0, &t1);
	if (t < t0 || t >= t1)
		v->v0 = rel - v->span / 2;
}

void tl_move_cell(struct tl_view *v, int dir)
{
	int64_t t0, t1;
	int w = tl_cells(v);
	tl_window(v, &t0, &t1);
	int k = tt_raster_cell_of(t0, t1, w, v->tc);
	if (k < 0)
		k = 0;
	if (k >= w)
		k = w - 1;
	int64_t target = dir > 0 ? tt_raster_edge(t0, t1, w, k + 1) : tt_raster_edge(t0, t1, w, k) - 1;
	if (target < t0 || target >= t1) {
		/* at the edge: pan by a quarter of the window */
		v->v0 += dir > 0 ? v->span / 4 : -v->span / 4;
		tl_clamp(v);
		tl_window(v, &t0, &t1);
		if (target < t0)
			target = t0;
		if (target >= t1)
			target = t1 - 1;
	}
	v->tc = target;
	tl_snap_cursor(v);
}

enum tl_zoom tl_zoom_at(struct tl_view *v, int dir, int64_t t)
{
	long double rel = (long double)(t - v->base);
	if (dir > 0) {
		if (v->span / 2 < (long double)tl_cells(v))
			return TL_FINEST;
		v->v0 = rel - (rel - v->v0) / 2;
		v->span /= 2;
	} else {
		long double max = tl_span_max(v);
		if (v->span >= max)
			return TL_WIDEST;
		long double span = v->span * 2 > max ? max : v->span * 2;
		v->v0 = rel - (rel - v->v0) * (span / v->span);
		v->span = span;
	}
	tl_clamp(v);
	return TL_ZOOMED;
}

enum tl_zoom tl_zoom(struct tl_view *v, int dir)
{
	if (dir)
		return tl_zoom_at(v, dir, v->tc);
	v->span = tl_span_max(v);
	v->v0 = (long double)(v->fit0 - v->base);
	tl_clamp(v);
	int64_t t0, t1;
	tl_window(v, &t0, &t1);
	if (v->tc < t0 || v->tc >= t1) {
		v->tc = t0;
		return TL_FIT_MOVED;
	}
	return TL_ZOOMED;
}

bool tl_pan(struct tl_view *v, int dir)
{
	int64_t a0, a1, b0, b1;
	tl_window(v, &a0, &a1);
	v->v0 += dir < 0 ? -v->span / 2 : v->span / 2;
	tl_clamp(v);
	tl_window(v, &b0, &b1);
	if (b0 == a0) {
		v->tc = dir < 0 ? b0 : b1 - 1;
		tl_snap_cursor(v);
		return false;
	}
	v->tc += b0 - a0;
	if (v->tc < b0)
		v->tc = b0;
	if (v->tc >= b1)
		v->tc = b1 - 1;
	return true;
}

void tl_center(struct tl_view *v, int64_t t)
{
	v->tc = t;
	v->v0 = (long double)(t - v->base) - v->span / 2;
	tl_clamp(v);
}

int tl_fmt_fixed(char *buf, size_t n, int64_t v, int64_t div, int dec)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t whole = a / (uint64_t)div, rem = a % (uint64_t)div, q = (uint64_t)div;
	for (int i = 0; i < dec; i++)
		q /= 10;
	if (!dec || !q)
		return snprintf(buf, n, "%s%llu", v < 0 ? "-" : "", (unsigned long long)whole);
	return snprintf(buf, n, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)whole, dec,
			(unsigned long long)(rem / q));
}

void tl_fmt_time(char *buf, size_t n, int64_t v, int64_t res, int64_t ref)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int64_t av = v < 0 ? -v : v;
	enum tt_unit u = tt_unit_pick(TT_MAX(av, ref < 0 ? -ref : ref));
	int dec = 0;
	int64_t step = div[u];
	res /= 10;
	if (res < 1)
		res = 1;
	while (dec < 9 && step > res && step >= 10) {
		step /= 10;
		dec++;
	}
	int k = tl_fmt_fixed(buf, n, v, div[u], dec);
	if (dec > 0 && k > 0 && (size_t)k < n) {
		while (k > 1 && buf[k - 1] == '0')
			buf[--k] = '\0';
		if (buf[k - 1] == '.')
			buf[--k] = '\0';
	}
	if (k < 0 || (size_t)k >= n)
		return;
	snprintf(buf + k, n - (size_t)k, " %s", tt_unit_name(u));
}

enum tt_unit tl_ruler_unit(int64_t base, int64_t t0, int64_t t1)
{
	int64_t far = TT_MAX(llabs(t0 - base), llabs(t1 - base));
	return far >= 1000000000 ? TT_U_S : far >= 1000000 ? TT_U_MS : far >= 1000 ? TT_U_US : TT_U_NS;
}

int64_t tl_ruler_step(int64_t base, int64_t t0, int64_t t1, int w, int *dec, enum tt_unit *unit)
{
	static const int64_t nice[] = {1, 2, 5};
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	int64_t far = TT_MAX(llabs(t0 - base), llabs(t1 - base));
	*unit = tl_ruler_unit(base, t0, t1);
	int64_t p10 = 1;
	for (int e = 0; e < 19; e++) {
		for (int i = 0; i < 3; i++) {
			int64_t step = nice[i] * p10;
			/* decimals that show the step in the unit */
			int d = 0;
			int64_t q = div[*unit];
			while (d < 9 && q > 1 && step % q != 0) {
				q /= 10;
				d++;
			}
			char buf[48];
			int len = tl_fmt_fixed(buf, sizeof(buf), far, div[*unit], d);
			len += 1 + (int)tt_utf8_width(tt_unit_name(*unit));
			double cols = (double)step * w / (double)(t1 - t0);
			if (cols >= len + 2 && cols >= 8) {
				*dec = d;
				return step;
			}
		}
		if (p10 > INT64_MAX / 10)
			break;
		p10 *= 10;
	}
	*dec = 0;
	return t1 - t0;
}
