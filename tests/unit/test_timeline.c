/* The timeline: the rasteriser on hand-made spans (expected rows written
 * out, and checked against a brute-force painter on random traces), and the
 * pane rendered headless from hand-made traces: rows, zoom and pan, tiny
 * events, Tab, details, cross-links and the mark.
 *
 * Glyphs: # compute  = communication  + memory  o CPU op  r runtime
 *         ~ other  - annotation  . idle  * busy (raster.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/keymap.h"
#include "tracetop/raster.h"
#include "tracetop/render.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"
#include "testlib.h"

#define US 1000 /* ns per µs */

/* ---- the rasteriser ---- */

static const char *row_text(const struct tt_span *v, uint32_t n, int64_t t0, int64_t t1, int w)
{
	static char buf[1024];
	struct tt_rcell c[1000];
	ck_assert_int_le(w, 1000);
	tt_raster_spans(v, n, t0, t1, w, c);
	tt_raster_text(c, w, buf);
	return buf;
}

static char *rep(char *p, char c, int n)
{
	for (int i = 0; i < n; i++)
		*p++ = c;
	*p = '\0';
	return p;
}

START_TEST(raster_two_kernels)
{
	/* kernels of 100 µs and 50 µs with a 25 µs gap: [0,100) [125,175) */
	struct tt_span v[] = {{0, 100 * US, TT_RC_COMP}, {125 * US, 50 * US, TT_RC_COMP}};
	char want[128], *p = want;
	/* 200 µs in 40 cells of 5 µs: 20 #, 5 ., 10 #, 5 . */
	p = rep(p, '#', 20);
	p = rep(p, '.', 5);
	p = rep(p, '#', 10);
	rep(p, '.', 5);
	ck_assert_str_eq(row_text(v, 2, 0, 200 * US, 40), want);
	/* 8 cells of 25 µs: the gap is exactly one cell */
	ck_assert_str_eq(row_text(v, 2, 0, 200 * US, 8), "####.##.");
	/* 4 cells of 50 µs: [100,150) holds 25 µs of B and 25 µs of gap: B shows */
	ck_assert_str_eq(row_text(v, 2, 0, 200 * US, 4), "####");
	/* 16 cells of 12.5 µs: [100,112.5) idle, [112.5,125) idle, [125,137.5) # */
	ck_assert_str_eq(row_text(v, 2, 0, 200 * US, 16), "########..####..");
	/* a window inside the first kernel */
	ck_assert_str_eq(row_text(v, 2, 10 * US, 20 * US, 5), "#####");
	/* a window left of everything */
	ck_assert_str_eq(row_text(v, 2, -50 * US, 0, 5), ".....");
}
END_TEST

START_TEST(raster_classes)
{
	/* an op with two runtime calls inside, under a ProfilerStep annotation
	 * [0,200): op [20,120), runtime [40,50) and [60,80); 20 cells of 10 */
	struct tt_span cpu[] = {
		{0, 200, TT_RC_ANNOT},
		{20, 100, TT_RC_CPU},
		{40, 10, TT_RC_RUNTIME},
		{60, 20, TT_RC_RUNTIME},
	};
	ck_assert_str_eq(row_text(cpu, 4, 0, 200, 20), "--oororroooo--------");
	/* 5 cells of 40: [0,40) 20 op and 20 annotation -> o (work wins);
	 * [40,80) 30 runtime, 10 op -> r */
	ck_assert_str_eq(row_text(cpu, 4, 0, 200, 5), "oro--");
	/* majority: 60 comm and 40 compute in one cell (two streams never share a
	 * row, but a row may hold both classes) */
	struct tt_span mix[] = {{0, 40, TT_RC_COMP}, {40, 60, TT_RC_COMM}};
	ck_assert_str_eq(row_text(mix, 2, 0, 100, 1), "=");
	struct tt_span mix2[] = {{0, 60, TT_RC_COMP}, {60, 40, TT_RC_COMM}};
	ck_assert_str_eq(row_text(mix2, 2, 0, 100, 1), "#");
	/* a tie goes to the rarer class: communication before compute */
	struct tt_span tie[] = {{0, 50, TT_RC_COMP}, {50, 50, TT_RC_COMM}};
	ck_assert_str_eq(row_text(tie, 2, 0, 100, 1), "=");
	/* memory, other, markers (not drawn) */
	struct tt_span misc[] = {{0, 10, TT_RC_MEM}, {10, 10, TT_RC_OTHER}, {20, 10, TT_RC_SKIP}};
	ck_assert_str_eq(row_text(misc, 3, 0, 30, 3), "+~.");
}
END_TEST

START_TEST(raster_tiny_never_lost)
{
	/* a 1 ns kernel in a 1 s window of 100 cells: its cell shows it */
	int64_t s = 1000000000;
	struct tt_span v[] = {{s / 2 + 3, 1, TT_RC_COMP}};
	char want[128], *p = want;
	p = rep(p, '.', 50);
	p = rep(p, '#', 1);
	rep(p, '.', 49);
	ck_assert_str_eq(row_text(v, 1, 0, s, 100), want);
	/* zero-length events too */
	struct tt_span z[] = {{s / 4, 0, TT_RC_RUNTIME}};
	ck_assert_str_eq(row_text(z, 1, 0, s, 4), ".r..");
	/* inside a long annotation, a 1 ns op still wins its cell */
	struct tt_span a[] = {{0, s, TT_RC_ANNOT}, {s / 2, 1, TT_RC_CPU}};
	ck_assert_str_eq(row_text(a, 2, 0, s, 4), "--o-");
	/* on a busy compute row, a 1 ns communication kernel is outvoted, but a
	 * row of its own never is */
	struct tt_span b[] = {{0, s, TT_RC_COMP}, {s / 2, 1, TT_RC_COMM}};
	ck_assert_str_eq(row_text(b, 2, 0, s, 4), "####");
}
END_TEST

START_TEST(raster_busy)
{
	/* 10 kernels of 1 ns in cell 1 of 4 cells of 1000 ns: busy, compute */
	struct tt_span v[12];
	for (int i = 0; i < 10; i++)
		v[i] = (struct tt_span){1000 + 50 * i, 1, TT_RC_COMP};
	struct tt_rcell c[4];
	tt_raster_spans(v, 10, 0, 4000, 4, c);
	ck_assert(!c[0].busy);
	ck_assert(c[1].busy);
	ck_assert_int_eq(c[1].cls, TT_RC_COMP);
	ck_assert_uint_eq(c[1].nfg, 10);
	ck_assert_int_eq(tt_rcell_glyph(&c[1]), TT_RASTER_BUSY_GLYPH);
	ck_assert_str_eq(row_text(v, 10, 0, 4000, 4), ".*..");
	/* 3 are not many */
	ck_assert_str_eq(row_text(v, 3, 0, 4000, 4), ".#..");
	/* many, but covering most of the cell: not busy, just compute */
	for (int i = 0; i < 10; i++)
		v[i] = (struct tt_span){1000 + 100 * i, 90, TT_RC_COMP};
	ck_assert_str_eq(row_text(v, 10, 0, 4000, 4), ".#..");
}
END_TEST

START_TEST(raster_edges)
{
	/* cell_of agrees with the edges for awkward widths */
	int64_t t0 = 1000, t1 = 1000 + 997;
	for (int w = 1; w < 40; w++) {
		ck_assert_int_eq(tt_raster_edge(t0, t1, w, 0), t0);
		ck_assert_int_eq(tt_raster_edge(t0, t1, w, w), t1);
		for (int64_t t = t0; t < t1; t++) {
			int k = tt_raster_cell_of(t0, t1, w, t);
			ck_assert_int_ge(k, 0);
			ck_assert_int_lt(k, w);
			ck_assert_int_le(tt_raster_edge(t0, t1, w, k), t);
			ck_assert_int_gt(tt_raster_edge(t0, t1, w, k + 1), t);
		}
		ck_assert_int_eq(tt_raster_cell_of(t0, t1, w, t0 - 1), -1);
		ck_assert_int_eq(tt_raster_cell_of(t0, t1, w, t1), w);
	}
}
END_TEST

/* The painter by brute force: every ns of the window on its own. */
static const uint8_t order[] = {TT_RC_COMM, TT_RC_MEM, TT_RC_COMP,
				TT_RC_RUNTIME, TT_RC_CPU, TT_RC_OTHER};

static bool is_fg(uint8_t c)
{
	return c != TT_RC_SKIP && c != TT_RC_ANNOT && c != TT_RC_IDLE;
}

static void brute(const struct tt_span *v, int n, int64_t t0, int64_t t1, int w,
		  struct tt_rcell *out)
{
	for (int k = 0; k < w; k++) {
		int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
		int64_t cov[TT_RC_COUNT] = {0};
		for (int64_t x = a; x < b; x++) {
			int top = -1;
			bool annot = false;
			for (int i = 0; i < n; i++) {
				if (!(v[i].ts <= x && x < v[i].ts + v[i].dur))
					continue;
				if (is_fg(v[i].cls))
					top = i;
				else if (v[i].cls == TT_RC_ANNOT)
					annot = true;
			}
			cov[top >= 0 ? v[top].cls : annot ? TT_RC_ANNOT : TT_RC_IDLE]++;
		}
		int64_t fg = 0, best = 0;
		uint8_t cls = TT_RC_IDLE;
		for (size_t i = 0; i < sizeof(order); i++) {
			fg += cov[order[i]];
			if (cov[order[i]] > best) {
				best = cov[order[i]];
				cls = order[i];
			}
		}
		uint32_t nfg = 0;
		uint8_t first = TT_RC_IDLE;
		for (int i = 0; i < n; i++)
			if (is_fg(v[i].cls) && v[i].ts >= a && v[i].ts < b) {
				if (!nfg)
					first = v[i].cls;
				nfg++;
			}
		if (!fg && nfg)
			cls = first;
		if (cls == TT_RC_IDLE && cov[TT_RC_ANNOT])
			cls = TT_RC_ANNOT;
		out[k].cls = cls;
		out[k].busy = nfg >= TT_RASTER_BUSY_MIN && 2 * fg < b - a;
		out[k].nfg = nfg;
	}
}

static int span_cmp(const void *a, const void *b)
{
	const struct tt_span *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static void array_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	memcpy(out, (const struct tt_span *)ctx + i, (size_t)n * sizeof(*out));
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

START_TEST(raster_random_vs_brute_force)
{
	static const uint8_t classes[] = {TT_RC_COMP, TT_RC_COMM, TT_RC_MEM,  TT_RC_CPU,
					  TT_RC_RUNTIME, TT_RC_OTHER, TT_RC_ANNOT, TT_RC_SKIP};
	struct tt_span v[200];
	struct tt_rcell got[64], want[64];
	for (int iter = 0; iter < 1500; iter++) {
		/* nested, overlapping, zero-length, before and after the window */
		int n = (int)rnd(iter < 750 ? 12 : 200);
		for (int i = 0; i < n; i++) {
			v[i].ts = (int64_t)rnd(1400) - 200;
			uint64_t k = rnd(10);
			v[i].dur = k == 0 ? 0 : k < 7 ? (int64_t)rnd(30) : (int64_t)rnd(1500);
			v[i].cls = classes[rnd(sizeof(classes))];
		}
		qsort(v, (size_t)n, sizeof(v[0]), span_cmp);
		int64_t t0 = (int64_t)rnd(900) - 100, t1 = t0 + 1 + (int64_t)rnd(900);
		int w = 1 + (int)rnd(63);
		tt_raster_spans(v, (uint32_t)n, t0, t1, w, got);
		brute(v, n, t0, t1, w, want);
		for (int k = 0; k < w; k++) {
			ck_assert_msg(got[k].cls == want[k].cls && got[k].busy == want[k].busy &&
					      got[k].nfg == want[k].nfg,
				      "iter %d cell %d/%d: got %c%s want %c%s", iter, k, w,
				      tt_rclass_glyph(got[k].cls), got[k].busy ? "*" : "",
				      tt_rclass_glyph(want[k].cls), want[k].busy ? "*" : "");
			/* nothing lost: a cell touched by a foreground span shows one */
			int64_t a = tt_raster_edge(t0, t1, w, k), b = tt_raster_edge(t0, t1, w, k + 1);
			for (int i = 0; i < n; i++) {
				bool in = v[i].dur ? v[i].ts < b && v[i].ts + v[i].dur > a :
						     v[i].ts >= a && v[i].ts < b;
				if (is_fg(v[i].cls) && in && a < b)
					ck_assert_msg(is_fg(got[k].cls), "iter %d cell %d lost a span",
						      iter, k);
			}
		}
		/* the state at an instant: the innermost span covering it */
		int64_t t = (int64_t)rnd(1200) - 100;
		int top = -1;
		bool annot = false;
		uint32_t next = 0, nfg = 0;
		for (int i = 0; i < n; i++) {
			if (v[i].ts <= t) {
				next++;
				nfg += is_fg(v[i].cls);
			}
			if (v[i].ts <= t && t < v[i].ts + v[i].dur) {
				if (is_fg(v[i].cls))
					top = i;
				else if (v[i].cls == TT_RC_ANNOT)
					annot = true;
			}
		}
		struct tt_rix *ix = tt_rix_build((uint32_t)n, array_fetch, v);
		struct tt_rpoint pt;
		tt_rix_at(ix, t, &pt);
		ck_assert_uint_eq(pt.fg, top < 0 ? UINT32_MAX : (uint32_t)top);
		ck_assert_uint_eq(pt.next, next);
		ck_assert_uint_eq(pt.nfg, nfg);
		ck_assert_int_eq(pt.bg != UINT32_MAX, annot);
		if (annot)
			ck_assert(v[pt.bg].ts <= t && t < v[pt.bg].ts + v[pt.bg].dur);
		tt_rix_free(ix);
	}
}
END_TEST

static uint64_t fetched;
static void count_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	fetched += n;
	memcpy(out, (const struct tt_span *)ctx + i, (size_t)n * sizeof(*out));
}

START_TEST(raster_long_span_is_cheap)
{
	/* a ProfilerStep over the whole row and 200000 kernels of 3 µs every
	 * 10 µs: a deep zoom touches a few blocks, never the whole row */
	uint32_t n = 200001;
	struct tt_span *v = tt_malloc(n * sizeof(*v));
	v[0] = (struct tt_span){0, 2000000 * (int64_t)US, TT_RC_ANNOT};
	for (uint32_t i = 1; i < n; i++)
		v[i] = (struct tt_span){(int64_t)i * 10 * US, 3 * US, TT_RC_COMP};
	struct tt_rix *ix = tt_rix_build(n, count_fetch, v);
	ck_assert_uint_eq(fetched, n);
	ck_assert_uint_eq(tt_rix_count(ix), n);
	/* 100 cells of 0.2 µs around kernel 150000: [1500000, 1500020) µs */
	struct tt_rcell c[100];
	char text[128], want[128], *p = want;
	fetched = 0;
	tt_raster_row(ix, 1500000 * (int64_t)US, 1500020 * (int64_t)US, 100, c);
	ck_assert_uint_le(fetched, 3 * TT_RIX_BLOCK);
	tt_raster_text(c, 100, text);
	p = rep(p, '#', 15);
	p = rep(p, '-', 35);
	p = rep(p, '#', 15);
	rep(p, '-', 35);
	ck_assert_str_eq(text, want);
	/* the instant: inside kernel 150000, under the annotation */
	struct tt_rpoint pt;
	tt_rix_at(ix, 1500001 * (int64_t)US, &pt);
	ck_assert_uint_eq(pt.fg, 150000);
	ck_assert_uint_eq(pt.bg, 0);
	ck_assert_uint_eq(pt.next, 150001);
	ck_assert_uint_eq(pt.nfg, 150000);
	tt_rix_at(ix, 1500005 * (int64_t)US, &pt);
	ck_assert_uint_eq(pt.fg, UINT32_MAX);
	ck_assert_uint_eq(pt.bg, 0);
	/* a kernel starting exactly at t covers t */
	tt_rix_at(ix, 1500010 * (int64_t)US, &pt);
	ck_assert_uint_eq(pt.fg, 150001);
	/* the whole row: compute most of every cell? no: 30% -> busy compute */
	fetched = 0;
	tt_raster_row(ix, 0, 2000000 * (int64_t)US, 50, c);
	ck_assert_uint_le(fetched, 51 * TT_RIX_BLOCK);
	for (int k = 0; k < 50; k++) {
		ck_assert_int_eq(c[k].cls, TT_RC_COMP);
		ck_assert(c[k].busy);
	}
	tt_rix_free(ix);
	free(v);
}
END_TEST

START_TEST(raster_empty)
{
	struct tt_rcell c[3];
	tt_raster_spans(NULL, 0, 0, 30, 3, c);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(c[k].cls, TT_RC_IDLE);
	struct tt_rix *ix = tt_rix_build(0, count_fetch, NULL);
	struct tt_rpoint pt;
	tt_rix_at(ix, 5, &pt);
	ck_assert_uint_eq(pt.fg, UINT32_MAX);
	ck_assert_uint_eq(pt.next, 0);
	tt_rix_free(ix);
}
END_TEST

/* ---- the pane, headless ---- */

#define T0 "1000000"
#define OP(name, ts, dur)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" ts \
	",\"dur\":" dur ",\"args\":{\"Input Dims\":[[64,64],[64,64]]}}"
#define ANNOT(name, ts, dur)                                                                 \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" name                            \
	"\",\"pid\":1,\"tid\":1,\"ts\":" ts ",\"dur\":" dur "}"
#define RT(name, ts, dur, corr)                                                              \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,"   \
	"\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"correlation\":" corr "}}"
#define KERN(name, stream, ts, dur, corr)                                                    \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" stream     \
	",\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"stream\":" stream ",\"correlation\":" corr \
	",\"grid\":[80,1,1],\"block\":[256,1,1],\"registers per thread\":64,"                 \
	"\"shared memory\":4096,\"est. achieved occupancy %\":50}}"

/* Times in µs after T = 1 s.  Span [0, 300): the op.
 *   thread 1:  ProfilerStep#1 [0,300) (annotation), aten::mm [0,300),
 *              cudaLaunchKernel [5,9) corr 1, [10,14) corr 2, [16,20) corr 3
 *   stream 7:  gemm_a [25,125) corr 1, gemm_b [150,200) corr 2
 *   stream 20: ncclDevKernel_AllReduce [50,250) corr 3
 * At 81 columns the labels take 20 + 1: 60 cells of 5 µs. */
static const char trace0[] =
	"{\"distributedInfo\":{\"rank\":0},\"traceEvents\":["
	ANNOT("ProfilerStep#1", "1000000", "300") ","
	OP("aten::mm", "1000000", "300") ","
	RT("cudaLaunchKernel", "1000005", "4", "1") ","
	RT("cudaLaunchKernel", "1000010", "4", "2") ","
	RT("cudaLaunchKernel", "1000016", "4", "3") ","
	KERN("gemm_a", "7", "1000025", "100", "1") ","
	KERN("gemm_b", "7", "1000150", "50", "2") ","
	KERN("ncclDevKernel_AllReduce_Sum_f32", "20", "1000050", "200", "3")
	"]}";

/* rank 1: the same job a little later */
static const char trace1[] =
	"{\"distributedInfo\":{\"rank\":1},\"traceEvents\":["
	OP("aten::mm", "1000100", "300") ","
	RT("cudaLaunchKernel", "1000105", "4", "1") ","
	KERN("gemm_a", "7", "1000125", "100", "1")
	"]}";

/* a 1 ns kernel at 0.5 s in a 1 s span */
static const char tiny[] =
	"{\"distributedInfo\":{\"rank\":0},\"traceEvents\":["
	OP("aten::mm", "1000000", "1000000") ","
	KERN("tiny_kernel", "7", "1500000", "0.001", "9")
	"]}";

struct env {
	struct tt_model *m;
	struct tt_keymap *k;
	struct tt_app *a;
	struct tt_grid g;
	char line[1024];
};

static void env_open(struct env *e, const char *const *json, size_t n, int w, int h)
{
	const struct tt_load_opts one_thread = {.threads = 1};
	e->m = tl_load_json_opts(json, n, &one_thread);
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	e->k = tt_keymap_new();
	e->a = tt_app_new(e->m, NULL, &ro, e->k, "test");
	tt_grid_init(&e->g, w, h);
}

static void env_close(struct env *e)
{
	tt_app_free(e->a);
	tt_keymap_free(e->k);
	tt_model_free(e->m);
	tt_grid_free(&e->g);
}

static void draw(struct env *e)
{
	tt_app_draw(e->a, &e->g);
}

static void keys(struct env *e, const char *seq)
{
	char key[32];
	const char *s = seq;
	while ((s = tt_key_next(s, key, sizeof(key))) != NULL)
		tt_app_key(e->a, key);
	draw(e);
}

static const char *line(struct env *e, int y)
{
	tt_grid_row_text(&e->g, y, e->line, sizeof(e->line));
	return e->line;
}

static int find(struct env *e, const char *needle)
{
	for (int y = 0; y < e->g.h; y++)
		if (strstr(line(e, y), needle))
			return y;
	return -1;
}

static bool has(struct env *e, const char *needle)
{
	return find(e, needle) >= 0;
}

/* the cells of the row labelled `label` */
static const char *cells(struct env *e, const char *label)
{
	int y = find(e, label);
	ck_assert_msg(y >= 0, "no row %s", label);
	const char *l = line(e, y);
	const char *bar = strchr(l, '|');
	ck_assert_msg(bar != NULL, "row %s has no cells: %s", label, l);
	return bar + 1;
}

/* the whole screen as one string (to compare screens) */
static char *screen(struct env *e)
{
	size_t cap = (size_t)e->g.h * 1100, k = 0;
	char *s = tt_malloc(cap);
	for (int y = 0; y < e->g.h - 1; y++) /* not the status line */
		k += (size_t)snprintf(s + k, cap - k, "%s\n", line(e, y));
	return s;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

static void want_cells(struct env *e, const char *label, const char *want)
{
	char got[1024];
	snprintf(got, sizeof(got), "%s", cells(e, label));
	trim(got);
	ck_assert_str_eq(got, want);
}

START_TEST(pane_rows)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9");
	ck_assert(has(&e, "Timeline: rank 0"));
	char want[128], *p = want;
	/* stream 7: [25,125) [150,200) in cells of 5 µs */
	p = rep(p, '.', 5);
	p = rep(p, '#', 20);
	p = rep(p, '.', 5);
	p = rep(p, '#', 10);
	rep(p, '.', 20);
	want_cells(&e, "r0 GPU 0 stream 7", want);
	/* stream 20: the NCCL kernel [50,250) */
	p = want;
	p = rep(p, '.', 10);
	p = rep(p, '=', 40);
	rep(p, '.', 10);
	want_cells(&e, "r0 GPU 0 stream 20", want);
	/* the thread: the op, its launches in cells 1, 2 and 3 (4 of 5 µs each) */
	p = want;
	p = rep(p, 'o', 1);
	p = rep(p, 'r', 3);
	rep(p, 'o', 56);
	want_cells(&e, "r0 thread 1", want);
	/* ruler in µs, the cursor line, the legend */
	ck_assert(has(&e, "0 us"));
	ck_assert(has(&e, "cursor "));
	ck_assert(has(&e, "# comp"));
	/* the first row is the cursor's */
	ck_assert(has(&e, ">r0 GPU 0 stream 7"));
	env_close(&e);
}
END_TEST

START_TEST(pane_zoom_pan_invariants)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9");
	char *fit = screen(&e);
	/* in then out, twice, from several cursor places */
	keys(&e, "+-");
	char *s1 = screen(&e);
	ck_assert_str_eq(s1, fit);
	keys(&e, "++--");
	char *s2 = screen(&e);
	ck_assert_str_eq(s2, fit);
	keys(&e, "lllll");
	char *moved = screen(&e);
	keys(&e, "+++---");
	char *s3 = screen(&e);
	ck_assert_str_eq(s3, moved);
	/* the whole span is the widest window: - there changes nothing */
	keys(&e, "-");
	char *s4 = screen(&e);
	ck_assert_str_eq(s4, moved);
	ck_assert(has(&e, "the whole trace is in view"));
	/* zoomed in, out and in again is the same window */
	keys(&e, "++");
	char *zin = screen(&e);
	keys(&e, "-+");
	char *zin2 = screen(&e);
	ck_assert_str_eq(zin2, zin);
	free(zin);
	free(zin2);
	keys(&e, "--");
	/* = fits again: the same screen with the cursor where it was */
	keys(&e, "+++=");
	char *s5 = screen(&e);
	ck_assert_str_eq(s5, moved);
	/* l at the right edge pans by a quarter; h back does not lose the cursor */
	keys(&e, "++");
	for (int i = 0; i < 70; i++)
		keys(&e, "l");
	ck_assert(has(&e, "cursor "));
	ck_assert(!has(&e, "window 0 us"));
	keys(&e, "=");
	char *s6 = screen(&e);
	ck_assert(strstr(s6, "window 0 us") != NULL);
	free(fit);
	free(s1);
	free(s2);
	free(moved);
	free(s3);
	free(s4);
	free(s5);
	free(s6);
	env_close(&e);
}
END_TEST

START_TEST(pane_tiny_events_stay)
{
	struct env e;
	const char *t[] = {tiny};
	env_open(&e, t, 1, 80, 24);
	keys(&e, "9");
	/* 1 s in 60 cells: the 1 ns kernel at 0.5 s is in cell 30 */
	char want[128], *p = want;
	p = rep(p, '.', 30);
	p = rep(p, '#', 1);
	rep(p, '.', 29);
	want_cells(&e, "r0 GPU 0 stream 7", want);
	/* zoom around it: Tab puts the cursor on it; at every zoom it shows */
	keys(&e, "<Tab>");
	ck_assert(has(&e, "tiny_kernel"));
	for (int z = 0; z < 22; z++) {
		keys(&e, "+");
		ck_assert_msg(strchr(cells(&e, "r0 GPU 0 stream 7"), '#') != NULL, "lost at zoom %d",
			      z);
	}
	for (int z = 0; z < 25; z++) {
		keys(&e, "-");
		ck_assert_msg(strchr(cells(&e, "r0 GPU 0 stream 7"), '#') != NULL,
			      "lost at zoom out %d", z);
	}
	/* pan it off and back */
	keys(&e, "=+++");
	int seen = 0;
	for (int i = 0; i < 200; i++) {
		keys(&e, "l");
		if (strchr(cells(&e, "r0 GPU 0 stream 7"), '#'))
			seen++;
	}
	ck_assert_int_gt(seen, 0);
	env_close(&e);
}
END_TEST

static uint32_t event_named(const struct tt_model *m, size_t ri, const char *name)
{
	const struct tt_rank *r = m->ranks[ri];
	for (uint32_t i = 0; i < r->nev; i++)
		if (strcmp(tt_ev_name(r, &r->ev[i]), name) == 0)
			return i;
	ck_abort_msg("no event %s", name);
	return TT_NONE;
}

/* the cursor line: "cursor T  G name  dur at start" */
static const char *cursor_line(struct env *e)
{
	int y = find(e, " cursor ");
	ck_assert(y >= 0);
	return line(e, y);
}

START_TEST(pane_links)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	uint32_t kb = event_named(e.m, 0, "gemm_b");
	tt_app_open_timeline(e.a, 0, kb, 0);
	draw(&e);
	ck_assert(has(&e, "timeline rank 0"));
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	ck_assert(has(&e, ">r0 GPU 0 stream 7"));
	/* kernel -> the call that launched it (at 10 µs) */
	keys(&e, "c");
	ck_assert(strstr(cursor_line(&e), "cudaLaunchKernel") != NULL);
	ck_assert(strstr(cursor_line(&e), "at 10 us") != NULL);
	ck_assert(has(&e, ">r0 thread 1"));
	/* -> its op */
	keys(&e, "c");
	ck_assert(strstr(cursor_line(&e), "aten::mm") != NULL);
	/* -> back to the kernel */
	keys(&e, "c");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	ck_assert(has(&e, ">r0 GPU 0 stream 7"));
	/* Esc steps back one jump at a time, then leaves the timeline */
	keys(&e, "cc");
	ck_assert(strstr(cursor_line(&e), "aten::mm") != NULL);
	keys(&e, "<Escape>");
	ck_assert(strstr(cursor_line(&e), "cudaLaunchKernel") != NULL);
	ck_assert(strstr(cursor_line(&e), "at 10 us") != NULL);
	keys(&e, "<Escape>");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	keys(&e, "<Escape>");
	ck_assert(!has(&e, "timeline rank 0"));
	/* the NCCL kernel -> its launch at 16 µs; the op from there; op -> its
	 * first kernel when there is no way back */
	uint32_t kn = event_named(e.m, 0, "ncclDevKernel_AllReduce_Sum_f32");
	tt_app_open_timeline(e.a, 0, kn, 0);
	keys(&e, "c");
	ck_assert(strstr(cursor_line(&e), "at 16 us") != NULL);
	env_close(&e);
	/* an op opened directly: c goes to the first GPU op it launched */
	env_open(&e, t, 1, 81, 24);
	tt_app_open_timeline(e.a, 0, event_named(e.m, 0, "aten::mm"), 0);
	keys(&e, "c");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	env_close(&e);
}
END_TEST

START_TEST(pane_tab_and_details)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9");
	/* stream 7: Tab visits gemm_a, gemm_b, then says there is no more */
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	ck_assert(has(&e, "no later event"));
	keys(&e, "<S-Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	/* the thread row: annotation, op, three calls in (ts, -dur) order */
	keys(&e, "jj<Tab>");
	ck_assert(has(&e, ">r0 thread 1"));
	/* from the op under the cursor to the next event in start order */
	ck_assert(strstr(cursor_line(&e), "cudaLaunchKernel") != NULL);
	ck_assert(strstr(cursor_line(&e), "at 5 us") != NULL);
	/* details of gemm_a */
	keys(&e, "kk<Tab><Tab><S-Tab><Enter>");
	ck_assert(has(&e, "gemm_a"));
	ck_assert(has(&e, "correlation"));
	ck_assert(has(&e, "[80, 1, 1]"));
	ck_assert(has(&e, "[256, 1, 1]"));
	ck_assert(has(&e, "64 per thread"));
	ck_assert(has(&e, "50.0%"));
	ck_assert(has(&e, "launched by"));
	ck_assert(has(&e, "100 us (100000 ns)"));
	keys(&e, "<Escape>");
	ck_assert(has(&e, "Timeline: rank 0"));
	/* the op: input dims and the calls it launched */
	tt_app_open_timeline(e.a, 0, event_named(e.m, 0, "aten::mm"), 0);
	keys(&e, "<Enter>");
	ck_assert(has(&e, "aten::mm"));
	ck_assert(has(&e, "launches"));
	ck_assert(has(&e, "[[64,64],[64,64]]"));
	env_close(&e);
}
END_TEST

START_TEST(pane_mark)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9<Tab>m");
	ck_assert(has(&e, "mark 25 us"));
	/* gemm_a ends at 125, gemm_b starts at 150: the gap is 25 µs */
	keys(&e, "<Tab>");
	ck_assert(has(&e, "cursor - mark +125 us"));
	ck_assert(has(&e, "gap between their events 25.0 us"));
	/* the mark column is marked on the tick line */
	ck_assert(find(&e, "M") >= 0);
	/* m at the mark clears it */
	keys(&e, "<S-Tab>m");
	ck_assert(!has(&e, "cursor - mark"));
	env_close(&e);
}
END_TEST

START_TEST(pane_stacked_ranks_and_scroll)
{
	struct env e;
	const char *t[] = {trace0, trace1};
	env_open(&e, t, 2, 81, 24);
	keys(&e, "r0,1<Enter>9");
	ck_assert(has(&e, "Timeline: all 2 ranks (0-1)"));
	/* a summary row per rank; R R: every stream and thread of both */
	ck_assert(has(&e, ">+ r0 2 streams"));
	ck_assert(has(&e, " + r1 1 stream"));
	ck_assert(!has(&e, "r0 GPU 0 stream 7"));
	keys(&e, "RR");
	ck_assert(has(&e, "r0 GPU 0 stream 7"));
	ck_assert(has(&e, "r1 GPU 0 stream 7"));
	ck_assert(has(&e, "r1 thread 1"));
	/* one time axis: rank 1 starts 100 µs later (cells of 400/60 µs) */
	const char *c1 = cells(&e, "r1 thread 1");
	ck_assert_int_eq(c1[0], '.');
	/* in a short terminal the rows scroll with the cursor */
	tt_grid_free(&e.g);
	tt_grid_init(&e.g, 80, 11);
	draw(&e);
	ck_assert(has(&e, ">r0 GPU 0 stream 7"));
	ck_assert(!has(&e, "r1 thread 1"));
	keys(&e, "jjjjj");
	ck_assert(has(&e, ">r1 thread 1"));
	ck_assert(!has(&e, "r0 GPU 0 stream 7"));
	/* a timeline opened from another pane at rank 1 stacks the selection */
	keys(&e, "4");
	tt_app_open_timeline(e.a, 1, event_named(e.m, 1, "gemm_a"), 0);
	tt_grid_free(&e.g);
	tt_grid_init(&e.g, 80, 24);
	draw(&e);
	ck_assert(has(&e, "timeline ranks 0,1"));
	ck_assert(has(&e, ">r1 GPU 0 stream 7"));
	env_close(&e);
}
END_TEST

START_TEST(pane_small_and_resize)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 50, 10);
	keys(&e, "9+l<Tab>");
	ck_assert(has(&e, "r0 GPU"));
	tt_grid_free(&e.g);
	tt_grid_init(&e.g, 200, 60);
	draw(&e);
	ck_assert(has(&e, "r0 GPU 0 stream 7"));
	ck_assert(has(&e, "many tiny events"));
	env_close(&e);
}
END_TEST

int main(void)
{
	tt_render_set_ascii(true);
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("raster");
	tcase_add_test(tc, raster_two_kernels);
	tcase_add_test(tc, raster_classes);
	tcase_add_test(tc, raster_tiny_never_lost);
	tcase_add_test(tc, raster_busy);
	tcase_add_test(tc, raster_edges);
	tcase_add_test(tc, raster_random_vs_brute_force);
	tcase_add_test(tc, raster_long_span_is_cheap);
	tcase_add_test(tc, raster_empty);
	suite_add_tcase(s, tc);
	TCase *tp = tcase_create("pane");
	tcase_set_timeout(tp, 60);
	tcase_add_test(tp, pane_rows);
	tcase_add_test(tp, pane_zoom_pan_invariants);
	tcase_add_test(tp, pane_tiny_events_stay);
	tcase_add_test(tp, pane_links);
	tcase_add_test(tp, pane_tab_and_details);
	tcase_add_test(tp, pane_mark);
	tcase_add_test(tp, pane_stacked_ranks_and_scroll);
	tcase_add_test(tp, pane_small_and_resize);
	suite_add_tcase(s, tp);
	return tl_run(s);
}
