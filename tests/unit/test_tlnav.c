/* The timeline as a navigator: the window maths (clamping at both ends,
 * half-window pans, zoom around the cursor, ruler units), typed times, the
 * merged summary row, what ran in a range, and the pane driven headless
 * from hand-made traces: search and n/N, jump, pan, refused prompts, the
 * range pane, row modes, J/K, flow markers, handed-over event sets.
 *
 * Glyphs: # compute  = communication  + memory  o CPU op  r runtime
 *         ~ other  - annotation  . idle  * busy (raster.h); on the CPU
 * rows ^ marks the selected kernel's launch and [ ] its op; v marks a
 * runtime call's kernel. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/keymap.h"
#include "tracetop/range.h"
#include "tracetop/raster.h"
#include "tracetop/render.h"
#include "tracetop/report.h"
#include "tracetop/testing.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"
#include "../../src/tui/tlwindow.h"
#include "../../src/tui/pane.h"

#define US 1000 /* ns per µs */
#define MS 1000000

/* ---- the window maths ---- */

static struct tl_view view100(void)
{
	/* 100 µs of data from 1 µs after the origin, 100 cells */
	struct tl_view v = {.base = 0, .fit0 = 1 * US, .fit1 = 101 * US, .w = 100};
	v.v0 = (long double)v.fit0;
	v.span = 100 * US;
	v.tc = v.fit0;
	return v;
}

static void window_inside(const struct tl_view *v)
{
	int64_t t0, t1;
	tl_window(v, &t0, &t1);
	ck_assert_int_ge(t0, v->fit0);
	ck_assert_int_le(t1, v->fit1);
}

START_TEST(window_clamped_at_both_ends)
{
	struct tl_view v = view100();
	/* the whole span is the widest window */
	ck_assert_int_eq(tl_zoom(&v, -1), TL_WIDEST);
	window_inside(&v);
	/* zoom in at the start, then out: never before fit0 */
	ck_assert_int_eq(tl_zoom(&v, 1), TL_ZOOMED);
	ck_assert_int_eq(tl_zoom(&v, 1), TL_ZOOMED);
	int64_t t0, t1;
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t0, v.fit0); /* the cursor at the start keeps its column 0 */
	ck_assert_int_eq(t1 - t0, 25 * US);
	/* pan right half a window at a time until the end */
	int pans = 0;
	while (tl_pan(&v, 1) && pans < 100) {
		window_inside(&v);
		pans++;
	}
	ck_assert_int_eq(pans, 6); /* 75 µs in steps of 12.5 µs */
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t1, v.fit1);
	/* the pan that could not move took the cursor to the last cell */
	ck_assert_int_eq(tt_raster_cell_of(t0, t1, 100, v.tc), 99);
	/* zoom out near the end: the window stays inside */
	v.tc = v.fit1 - 1;
	ck_assert_int_eq(tl_zoom(&v, -1), TL_ZOOMED);
	window_inside(&v);
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t1, v.fit1);
	ck_assert_int_eq(t1 - t0, 50 * US);
	/* and back to the start */
	pans = 0;
	while (tl_pan(&v, -1) && pans < 100)
		pans++;
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t0, v.fit0);
	ck_assert_int_eq(v.tc, tt_raster_edge(t0, t1, 100, 0) + (tt_raster_edge(t0, t1, 100, 1) - t0) / 2);
	/* centring near an end is clamped, the cursor goes where asked */
	tl_center(&v, v.fit0 + 2 * US);
	window_inside(&v);
	ck_assert_int_eq(v.tc, v.fit0 + 2 * US);
	tl_center(&v, v.fit1 - 2 * US);
	window_inside(&v);
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(t1, v.fit1);
}
END_TEST

START_TEST(window_random_walk_stays_inside)
{
	uint64_t x = 12345;
	struct tl_view v = view100();
	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		int op = (int)(x >> 60) % 6;
		if (op == 0)
			tl_zoom(&v, 1);
		else if (op == 1)
			tl_zoom(&v, -1);
		else if (op == 2)
			tl_pan(&v, 1);
		else if (op == 3)
			tl_pan(&v, -1);
		else if (op == 4)
			tl_move_cell(&v, (x >> 40) & 1 ? 1 : -1);
		else
			tl_center(&v, v.fit0 + (int64_t)((x >> 20) % (uint64_t)(v.fit1 - v.fit0)));
		window_inside(&v);
		ck_assert(v.span <= tl_span_max(&v));
	}
	/* a zoom keeps the cursor's column (away from the ends) */
	v = view100();
	tl_zoom(&v, 1);
	tl_zoom(&v, 1);
	tl_center(&v, 51 * US);
	int64_t t0, t1;
	tl_window(&v, &t0, &t1);
	int col = tt_raster_cell_of(t0, t1, 100, v.tc);
	tl_zoom(&v, 1);
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(tt_raster_cell_of(t0, t1, 100, v.tc), col);
	tl_zoom(&v, -1);
	tl_window(&v, &t0, &t1);
	ck_assert_int_eq(tt_raster_cell_of(t0, t1, 100, v.tc), col);
}
END_TEST

START_TEST(ruler_units_follow_the_scale)
{
	ck_assert_int_eq(tl_ruler_unit(0, 0, 999), TT_U_NS);
	ck_assert_int_eq(tl_ruler_unit(0, 0, 4 * US), TT_U_US);
	/* the case that showed 0 µs 1000 µs 2000 µs 3000 µs 4000 */
	ck_assert_int_eq(tl_ruler_unit(0, 0, 4 * MS), TT_U_MS);
	ck_assert_int_eq(tl_ruler_unit(0, 0, 1974 * MS), TT_U_S);
	ck_assert_int_eq(tl_ruler_unit(1000, 1000, 1000 + 999 * US), TT_U_US);
	int dec;
	enum tt_unit u;
	int64_t step = tl_ruler_step(0, 0, 4 * MS, 60, &dec, &u);
	ck_assert_int_eq(u, TT_U_MS);
	/* round steps: 1, 2 or 5 x 10^k ns */
	int64_t s = step;
	while (s % 10 == 0)
		s /= 10;
	ck_assert(s == 1 || s == 2 || s == 5);
	step = tl_ruler_step(0, 12 * MS, 13 * MS, 60, &dec, &u);
	ck_assert_int_eq(u, TT_U_MS);
	ck_assert_int_le(step, 500 * US);
	ck_assert_int_ge(dec, 1);
}
END_TEST

/* ---- typed times ---- */

static int64_t pt(const char *s)
{
	int64_t v = -42;
	char why[120];
	ck_assert_msg(tt_parse_time(s, TT_U_MS, &v, why, sizeof(why)) == 0, "%s: %s", s, why);
	return v;
}

static void bad_time(const char *s, const char *want)
{
	int64_t v;
	char why[120] = "";
	ck_assert_int_eq(tt_parse_time(s, TT_U_MS, &v, why, sizeof(why)), -1);
	ck_assert_msg(strstr(why, want) != NULL, "%s: '%s'", s, why);
}

START_TEST(typed_times)
{
	ck_assert_int_eq(pt("12.5ms"), 12500000);
	ck_assert_int_eq(pt("1.2s"), 1200000000);
	ck_assert_int_eq(pt("1.2 s"), 1200000000);
	ck_assert_int_eq(pt("0.1s"), 100000000); /* exactly: no doubles */
	ck_assert_int_eq(pt("800us"), 800000);
	ck_assert_int_eq(pt("800 \xC2\xB5s"), 800000);
	ck_assert_int_eq(pt("250"), 250000000); /* a bare number: ms */
	ck_assert_int_eq(pt("+30ms"), 30000000);
	ck_assert_int_eq(pt("-3ms"), -3000000);
	ck_assert_int_eq(pt("17ns"), 17);
	ck_assert_int_eq(pt(".5ms"), 500000);
	ck_assert_int_eq(pt("1.0000000009s"), 1000000000); /* below 1 ns: dropped */
	bad_time("", "not a time");
	bad_time("ms", "not a time");
	bad_time("abc", "not a time");
	bad_time("12 parsecs", "unknown unit");
	bad_time("1e9s", "unknown unit");
	bad_time("99999999999999999999s", "too large");
	bad_time("2000000000s", "too large");
}
END_TEST

/* ---- a rank's streams as one row ---- */

static void spans_fetch(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out)
{
	memcpy(out, (const struct tt_span *)ctx + i, (size_t)n * sizeof(*out));
}

static const char *merged(const struct tt_span *const *rows, const uint32_t *n, size_t k,
			  int64_t t0, int64_t t1, int w)
{
	static char buf[256];
	struct tt_rix *ix[8] = {0};
	struct tt_rcell cells[200];
	for (size_t i = 0; i < k; i++)
		ix[i] = tt_rix_build(n[i], spans_fetch, rows[i]);
	tt_raster_merge((const struct tt_rix *const *)ix, k, t0, t1, w, cells);
	tt_raster_text(cells, w, buf);
	for (size_t i = 0; i < k; i++)
		tt_rix_free(ix[i]);
	return buf;
}

START_TEST(merge_rows)
{
	/* compute [0,50), communication [25,100), 4 cells of 25: the tie in
	 * cell 1 goes to communication (the rarer class, as in one row) */
	static const struct tt_span a[] = {{0, 50, TT_RC_COMP}};
	static const struct tt_span b[] = {{25, 75, TT_RC_COMM}};
	const struct tt_span *rows[] = {a, b};
	uint32_t n[] = {1, 1};
	ck_assert_str_eq(merged(rows, n, 2, 0, 100, 4), "#===");
	/* most time wins: compute 20 of 25 against communication 5 */
	static const struct tt_span c[] = {{0, 45, TT_RC_COMP}};
	static const struct tt_span c2[] = {{40, 60, TT_RC_COMM}};
	rows[0] = c;
	rows[1] = c2;
	ck_assert_str_eq(merged(rows, n, 2, 0, 100, 4), "##==");
	rows[1] = b;
	/* a zero-length memcpy in an idle cell shows; an annotation shows where
	 * no row works; idle elsewhere */
	static const struct tt_span d[] = {{60, 0, TT_RC_MEM}};
	static const struct tt_span e[] = {{0, 40, TT_RC_ANNOT}};
	const struct tt_span *rows2[] = {d, e};
	ck_assert_str_eq(merged(rows2, n, 2, 0, 100, 4), "--+.");
	/* one row alone is that row */
	ck_assert_str_eq(merged(rows, n, 1, 0, 100, 4), "##..");
	/* no rows: idle */
	ck_assert_str_eq(merged(rows, n, 0, 0, 100, 4), "....");
	/* many tiny starts in mostly empty time: busy */
	static const struct tt_span f[] = {{0, 1, TT_RC_COMP}, {2, 1, TT_RC_COMP}};
	static const struct tt_span g[] = {{4, 1, TT_RC_COMP}, {6, 1, TT_RC_COMP}};
	const struct tt_span *rows3[] = {f, g};
	uint32_t n3[] = {2, 2};
	ck_assert_str_eq(merged(rows3, n3, 2, 0, 100, 4), "*...");
	/* a row full of short kernels beside an idle row: that row's class,
	 * not busy (the busiest row decides, not their sum) */
	static const struct tt_span h[] = {{0, 6, TT_RC_COMP},
					   {6, 6, TT_RC_COMP},
					   {12, 6, TT_RC_COMP},
					   {18, 7, TT_RC_COMP}};
	static const struct tt_span i0[] = {{99, 1, TT_RC_COMM}};
	const struct tt_span *rows4[] = {h, i0};
	uint32_t n4[] = {4, 1};
	ck_assert_str_eq(merged(rows4, n4, 2, 0, 100, 4), "#..=");
}
END_TEST

/* ---- the fixture ---- */

#define OP(name, ts, dur)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" ts \
	",\"dur\":" dur "}"
#define ANNOT(name, ts, dur)                                                                 \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" name                            \
	"\",\"pid\":1,\"tid\":1,\"ts\":" ts ",\"dur\":" dur "}"
#define RT(name, ts, dur, corr)                                                              \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,"   \
	"\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"correlation\":" corr "}}"
#define KERN(name, stream, ts, dur, corr)                                                    \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":" stream     \
	",\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"stream\":" stream ",\"correlation\":" corr "}}"

/* Times in µs after T = 1 s (the job's origin).  Span [0, 300).
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

/* rank 1: the same job 100 µs later */
static const char trace1[] =
	"{\"distributedInfo\":{\"rank\":1},\"traceEvents\":["
	OP("aten::mm", "1000100", "300") ","
	RT("cudaLaunchKernel", "1000105", "4", "1") ","
	KERN("gemm_a", "7", "1000125", "100", "1")
	"]}";

struct env {
	struct tt_model *m;
	struct tt_keymap *k;
	struct tt_app *a;
	struct tt_grid g;
	char line[1024];
	int last; /* TT_R_* of the last key */
};

static void env_open(struct env *e, const char *const *json, size_t n, int w, int h)
{
	const char *names[4];
	const void *data[4];
	size_t lens[4];
	char nb[4][32];
	for (size_t i = 0; i < n; i++) {
		snprintf(nb[i], sizeof(nb[i]), "rank%zu.json", i);
		names[i] = nb[i];
		data[i] = json[i];
		lens[i] = strlen(json[i]);
	}
	struct tt_load_opts o = {0};
	o.threads = 1;
	ck_assert_int_eq(tt_model_load_mem(&e->m, names, data, lens, n, &o), 0);
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

/* keys; any that quits fails the test */
static void keys(struct env *e, const char *seq)
{
	char key[32];
	const char *s = seq;
	while ((s = tt_key_next(s, key, sizeof(key))) != NULL) {
		e->last = tt_app_key(e->a, key);
		ck_assert_msg(!(e->last & TT_R_QUIT), "key %s quit", key);
		draw(e);
	}
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

static void want(struct env *e, const char *needle)
{
	if (has(e, needle))
		return;
	for (int y = 0; y < e->g.h; y++)
		fprintf(stderr, "| %s\n", line(e, y));
	ck_abort_msg("'%s' not on the screen", needle);
}

/* the status line: the last row, and the row above it when a long message
 * wraps there */
static const char *status(struct env *e)
{
	static char buf[2200];
	char a[1100];
	snprintf(a, sizeof(a), "%s", line(e, e->g.h - 2));
	snprintf(buf, sizeof(buf), "%s%s", a, line(e, e->g.h - 1));
	return buf;
}

static void want_status(struct env *e, const char *needle)
{
	if (strstr(status(e), needle))
		return;
	for (int y = 0; y < e->g.h; y++)
		fprintf(stderr, "| %s\n", line(e, y));
	ck_abort_msg("status: '%s' expected", needle);
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

static const char *cursor_line(struct env *e)
{
	int y = find(e, " cursor ");
	ck_assert(y >= 0);
	return line(e, y);
}

/* "cursor 120 us" -> ns */
static int64_t cursor_ns(struct env *e)
{
	const char *l = strstr(cursor_line(e), "cursor ") + 7;
	char num[64];
	size_t k = 0;
	while (k < sizeof(num) - 1 && l[k] && l[k] != ' ')
		k++;
	snprintf(num, sizeof(num), "%.*s%s", (int)k, l, "");
	const char *unit = l + k + 1;
	char t[80];
	snprintf(t, sizeof(t), "%s%.2s", num, unit);
	if (unit[0] == 's' || (unit[0] != 'm' && unit[0] != 'u' && unit[0] != 'n'))
		snprintf(t, sizeof(t), "%ss", num);
	return pt(t);
}

static char *screen(struct env *e)
{
	size_t cap = (size_t)e->g.h * 1100, k = 0;
	char *s = tt_malloc(cap);
	for (int y = 0; y < e->g.h - 1; y++)
		k += (size_t)snprintf(s + k, cap - k, "%s\n", line(e, y));
	return s;
}

/* ---- search ---- */

START_TEST(search_and_step)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9");
	/* Esc in the prompt: nothing changes */
	char *before = screen(&e);
	keys(&e, "/gem<Escape>");
	char *after = screen(&e);
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
	keys(&e, "/");
	want_status(&e, "search (text, or re:regex): ");
	keys(&e, "GEMM<Enter>");
	want_status(&e, "match 1/2");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	want(&e, ">r0 GPU 0 stream 7");
	/* the matches are highlighted where they start: cell 5 and cell 30 */
	int y = find(&e, "r0 GPU 0 stream 7");
	int x0 = (int)(strchr(line(&e, y), '|') - line(&e, y)) + 1;
	ck_assert_int_eq(tt_grid_at(&e.g, x0 + 30, y)->role, TT_ROLE_MATCH);
	ck_assert_int_ne(tt_grid_at(&e.g, x0 + 20, y)->role, TT_ROLE_MATCH);
	keys(&e, "n");
	want_status(&e, "match 2/2");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	keys(&e, "n");
	want_status(&e, "match 1/2");
	want_status(&e, "went round");
	keys(&e, "N");
	want_status(&e, "match 2/2");
	/* Enter on an empty prompt: the last search again, from the cursor */
	keys(&e, "/");
	want_status(&e, "Enter: the last one");
	keys(&e, "<Enter>");
	want_status(&e, "match 2/2");
	/* a regular expression */
	keys(&e, "/re:^nccl.*f32$<Enter>");
	want_status(&e, "match 1/1");
	want(&e, ">r0 GPU 0 stream 20");
	keys(&e, "/re:([<Enter>");
	want_status(&e, "bad regular expression");
	/* back-references, which no bounded matcher runs, are refused */
	keys(&e, "/re:(.*)(.*)\\2\\1x<Enter>");
	want_status(&e, "back-references (\\2) are not supported");
	keys(&e, "/zzz<Enter>");
	want_status(&e, "no event matches 'zzz'");
	keys(&e, "n");
	want_status(&e, "/ searches");
	/* the ops and calls are found too: 3 launches in time order */
	keys(&e, "/cudaLaunch<Enter>nn");
	want_status(&e, "match 3/3");
	ck_assert(strstr(cursor_line(&e), "at 16 us") != NULL);
	/* Esc clears the search, then leaves as before */
	keys(&e, "<Escape>");
	want_status(&e, "search cleared");
	keys(&e, "n");
	want_status(&e, "/ searches");
	env_close(&e);
}
END_TEST

START_TEST(search_across_ranks)
{
	struct env e;
	const char *t[] = {trace0, trace1};
	env_open(&e, t, 2, 81, 24);
	keys(&e, "r0,1<Enter>9/gemm_a<Enter>");
	want_status(&e, "match 1/2");
	/* each match unfolds its rank */
	want(&e, ">r0 GPU 0 stream 7");
	want(&e, " + r1 1 stream");
	keys(&e, "n");
	want_status(&e, "match 2/2");
	want(&e, ">r1 GPU 0 stream 7");
	want(&e, " - r1 1 stream");
	/* rank 1's gemm_a starts at 125 µs of the job */
	ck_assert(strstr(cursor_line(&e), "at 125 us") != NULL);
	env_close(&e);
}
END_TEST

/* A prompt key the pane refuses swallows what is typed up to Enter or Esc:
 * "/q<Enter>" in a view with no rows must not quit. */
START_TEST(refused_prompt_swallows)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "0");
	want(&e, " Diff");
	keys(&e, "/");
	want_status(&e, "keys ignored");
	keys(&e, "qj1<Enter>");
	want(&e, " Diff"); /* 1 did not switch panes either */
	keys(&e, "/qq<Escape>");
	want(&e, " Diff");
	keys(&e, "1");
	want(&e, " Overview");
	/* a prompt that opens takes the keys as text */
	keys(&e, "/q<Escape>");
	want(&e, " Overview");
	env_close(&e);
}
END_TEST

/* ---- jump ---- */

START_TEST(jump_to_times)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9:120us<Enter>");
	want_status(&e, "cursor at 120 us");
	/* on the typed time, within a cell (5 µs) */
	ck_assert_int_le(llabs(cursor_ns(&e) - 120 * US), 5 * US);
	keys(&e, ":+30us<Enter>");
	ck_assert_int_le(llabs(cursor_ns(&e) - 150 * US), 5 * US);
	keys(&e, ":-0.1ms<Enter>");
	ck_assert_int_le(llabs(cursor_ns(&e) - 50 * US), 5 * US);
	/* Esc goes back jump by jump */
	keys(&e, "<Escape>");
	ck_assert_int_le(llabs(cursor_ns(&e) - 150 * US), 5 * US);
	/* past the end: the end, and it says so */
	keys(&e, ":9s<Enter>");
	want_status(&e, "the end of the data shown");
	ck_assert_int_le(llabs(cursor_ns(&e) - 300 * US), 5 * US);
	/* the start of a step */
	keys(&e, ":step 1<Enter>");
	ck_assert(strstr(cursor_line(&e), "ProfilerStep#1") != NULL);
	want_status(&e, "starts at 0 us");
	keys(&e, ":step 7<Enter>");
	want_status(&e, "no ProfilerStep#7");
	keys(&e, ":soon<Enter>");
	want_status(&e, "not a time");
	keys(&e, ":3 fortnights<Enter>");
	want_status(&e, "unknown unit");
	/* t is the same key */
	keys(&e, "t200us<Enter>");
	ck_assert_int_le(llabs(cursor_ns(&e) - 200 * US), 5 * US);
	env_close(&e);
}
END_TEST

/* ---- pan and zoom ---- */

START_TEST(pan_and_clamp)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9:0us<Enter>");
	want(&e, "window 0 us .. 300 us");
	keys(&e, "-");
	want_status(&e, "the whole trace is in view");
	want(&e, "window 0 us .. 300 us");
	/* zoom in around the cursor at 0: its column stays 0 */
	keys(&e, "+");
	want(&e, "window 0 us .. 150 us");
	keys(&e, "L");
	want(&e, "window 75 us .. 225 us");
	keys(&e, "L");
	want(&e, "window 150 us .. 300 us");
	keys(&e, "L");
	want_status(&e, "at the end of the trace");
	want(&e, "window 150 us .. 300 us");
	keys(&e, "H<C-u>");
	want(&e, "window 0 us .. 150 us");
	keys(&e, "H");
	want_status(&e, "at the start of the trace");
	keys(&e, "<C-d>");
	want(&e, "window 75 us .. 225 us");
	keys(&e, "---");
	want(&e, "window 0 us .. 300 us");
	/* G and g: the ends, the window following */
	keys(&e, "++G");
	want(&e, "window 225 us .. 300 us");
	keys(&e, "g");
	want(&e, "window 0 us .. 75 us");
	ck_assert_int_le(cursor_ns(&e), 1 * US);
	env_close(&e);
}
END_TEST

/* ---- ranges ---- */

START_TEST(range_analysis)
{
	struct tt_model *m;
	const char *names[] = {"r0.json", "r1.json"};
	const void *data[] = {trace0, trace1};
	size_t lens[] = {strlen(trace0), strlen(trace1)};
	struct tt_load_opts lo = {0};
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, lens, 2, &lo), 0);
	struct tt_aopts o = {0};
	int64_t T = tt_model_origin(m);
	ck_assert_int_eq(T, 1000000000);
	struct tt_range r;
	/* everything */
	tt_range_compute(m, &o, T, T + 400 * US, &r);
	ck_assert_uint_eq(r.nranks, 2);
	ck_assert_uint_eq(r.ranks[0].kernels, 3);
	ck_assert_int_eq(r.ranks[0].kernel_ns, 350 * US);
	ck_assert_int_eq(r.ranks[0].comm_ns, 200 * US);
	ck_assert_int_eq(r.ranks[0].gpu_busy_ns, 225 * US); /* [25, 250) */
	ck_assert_uint_eq(r.ranks[0].streams, 2);
	ck_assert_uint_eq(r.ranks[0].cpu_ops, 1);
	ck_assert_int_eq(r.ranks[1].kernel_ns, 100 * US);
	/* stream 7 of rank 0: busy 150, gaps [0,25) [125,150) [200,400) */
	ck_assert_uint_eq(r.nstreams, 3);
	ck_assert_int_eq(r.streams[0].busy_ns, 150 * US);
	ck_assert_uint_eq(r.streams[0].gaps, 3);
	ck_assert_int_eq(r.streams[0].max_gap_ns, 200 * US);
	ck_assert_int_eq(r.streams[0].max_gap_t0, T + 200 * US);
	ck_assert_uint_eq(r.ngaps, 3 + 2 + 2);
	ck_assert_int_eq(r.gaps[0].t1 - r.gaps[0].t0, 200 * US); /* the longest first */
	/* names summed over the ranks: aten::mm 300 + 300, gemm_a 100 + 100 */
	bool mm = false, ga = false, launch = false;
	for (size_t i = 0; i < r.nnames; i++) {
		if (!strcmp(r.names[i].name, "aten::mm")) {
			mm = r.names[i].ns == 600 * US && r.names[i].nranks == 2 &&
			     r.names[i].kind == TT_RK_CPU_OP;
		} else if (!strcmp(r.names[i].name, "gemm_a")) {
			ga = r.names[i].ns == 200 * US && r.names[i].count == 2;
		} else if (!strcmp(r.names[i].name, "cudaLaunchKernel")) {
			launch = r.names[i].count == 4 && r.names[i].ns == 16 * US &&
				 r.names[i].kind == TT_RK_RUNTIME;
		}
	}
	ck_assert(mm && ga && launch);
	ck_assert_int_ge(r.names[0].ns, r.names[r.nnames - 1].ns);
	tt_range_free(&r);
	/* a range cutting events: [100, 160) on rank 0 */
	int64_t rk0 = 0;
	o.ranks = &rk0;
	o.nranks = 1;
	tt_range_compute(m, &o, T + 100 * US, T + 160 * US, &r);
	ck_assert_uint_eq(r.nranks, 1);
	/* gemm_a 25 (of 100), gemm_b 10, nccl 60 */
	ck_assert_uint_eq(r.ranks[0].kernels, 3);
	ck_assert_int_eq(r.ranks[0].kernel_ns, 95 * US);
	ck_assert_int_eq(r.ranks[0].gpu_busy_ns, 60 * US);
	ck_assert_int_eq(r.streams[0].busy_ns, 35 * US);
	ck_assert_uint_eq(r.streams[0].gaps, 1); /* [125, 150) */
	ck_assert_uint_eq(r.streams[1].gaps, 0);
	tt_range_free(&r);
	/* empty: zeros */
	tt_range_compute(m, &o, T + 10 * US, T + 10 * US, &r);
	ck_assert_int_eq(r.ranks[0].kernel_ns, 0);
	ck_assert_uint_eq(r.nstreams, 0);
	tt_range_free(&r);
	tt_model_free(m);
}
END_TEST

START_TEST(range_pane)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9A");
	want_status(&e, "no range");
	/* M on gemm_a: the mark at its start, the cursor at its end */
	keys(&e, "<Tab>M");
	want(&e, "mark 25 us");
	want(&e, "cursor - mark +100 us");
	keys(&e, "A");
	want(&e, "Timeline > range: by name");
	want(&e, "0.025 ms .. 0.125 ms (0.100 ms)");
	/* gemm_a 100 µs and the NCCL kernel's 75 µs inside [25, 125) */
	want(&e, "rank 0: kernel time 175 us in 2 kernels (175.0% of the range, streams summed)");
	/* (the line wraps at 81 columns) */
	want(&e, "communication 75.0 us; GPU busy 100 us (100.0%: any of 2 streams busy)");
	keys(&e, "<Tab>");
	want(&e, "range: streams");
	want(&e, "GPU 0 stream 20");
	keys(&e, "<Tab>");
	want(&e, "range: idle gaps");
	/* stream 20 is idle [25, 50) of the range */
	want(&e, "GPU 0 stream 20");
	/* Enter on a gap opens the timeline there */
	keys(&e, "<Enter>");
	want(&e, "timeline rank 0");
	keys(&e, "<Escape><Escape>");
	want(&e, "Timeline: rank 0");
	/* m, then the cursor elsewhere */
	keys(&e, "g:100us<Enter>m:160us<Enter>A");
	want(&e, "rank 0: kernel time 95.0 us in 3 kernels");
	env_close(&e);
}
END_TEST

/* ---- rows ---- */

START_TEST(row_modes_and_ranks)
{
	struct env e;
	const char *t[] = {trace0, trace1};
	env_open(&e, t, 2, 81, 24);
	keys(&e, "r0,1<Enter>9");
	/* several ranks: a summary row per rank, folded */
	want(&e, "Timeline: all 2 ranks (0-1)");
	want(&e, ">+ r0 2 streams");
	want(&e, " + r1 1 stream");
	ck_assert(!has(&e, "r0 GPU 0 stream 7"));
	ck_assert(!has(&e, "r0 thread 1"));
	/* 400 µs in 60 cells: rank 0's streams merged, gemm_a alone up to 50 µs,
	 * then the NCCL kernel (ties go to communication) up to 250 */
	const char *c = cells(&e, "r0 2 streams");
	ck_assert_int_eq(c[0], '.');
	ck_assert_int_eq(c[5], '#');
	ck_assert_int_eq(c[10], '=');
	ck_assert_int_eq(c[30], '=');
	ck_assert_int_eq(c[45], '.');
	/* J/K by rank; Tab on a summary row */
	keys(&e, "J");
	want(&e, ">+ r1 1 stream");
	keys(&e, "J");
	want_status(&e, "no later rank");
	keys(&e, "K");
	want(&e, ">+ r0 2 streams");
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "ncclDevKernel") != NULL);
	keys(&e, "<Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	keys(&e, "<S-Tab>");
	ck_assert(strstr(cursor_line(&e), "ncclDevKernel") != NULL);
	/* Enter on the event Tab selected: its details */
	keys(&e, "<Enter>");
	want(&e, "Esc: back to the timeline");
	keys(&e, "<Escape>");
	/* with none selected, Enter unfolds a rank into its streams and
	 * threads, o folds it */
	keys(&e, "l<Enter>");
	want(&e, ">- r0 2 streams");
	want(&e, " r0 GPU 0 stream 7");
	want(&e, " r0 thread 1");
	want(&e, " + r1 1 stream");
	keys(&e, "jj");
	want(&e, ">r0 GPU 0 stream 20");
	keys(&e, "o");
	want(&e, ">+ r0 2 streams");
	ck_assert(!has(&e, "r0 thread 1"));
	/* a search finds every track, folded or not, and unfolds the match's
	 * rank: from the cursor (the NCCL kernel at 50 µs), rank 1's gemm_a */
	keys(&e, "/gemm<Enter>");
	want_status(&e, "match 2/3");
	want(&e, ">r1 GPU 0 stream 7");
	want(&e, " - r1 1 stream");
	keys(&e, "R");
	want_status(&e, "rows: GPU streams");
	/* the cursor stays on its event's row */
	want(&e, ">r1 GPU 0 stream 7");
	want(&e, " r0 GPU 0 stream 20");
	ck_assert(!has(&e, "r0 thread 1"));
	ck_assert(!has(&e, "2 streams"));
	keys(&e, "R");
	want_status(&e, "every stream and thread");
	want(&e, ">r1 GPU 0 stream 7");
	want(&e, "r0 thread 1");
	keys(&e, "K");
	want(&e, ">r0 GPU 0 stream 7");
	keys(&e, "K");
	want_status(&e, "no earlier rank");
	keys(&e, "o");
	want_status(&e, "every rank is unfolded in this mode");
	keys(&e, "R");
	want_status(&e, "a summary per rank");
	want(&e, "r1 1 stream");
	/* the heatmap's Enter: the rank's timeline over the last window */
	keys(&e, "++");
	char win[1100];
	snprintf(win, sizeof(win), "%s", line(&e, find(&e, " window ")));
	/* (the window, not its cells nor rows: the heatmap's timeline has
	 * other rows, and labels of another width) */
	if (strstr(win, " us   "))
		strstr(win, " us   ")[3] = '\0';
	tt_app_push(e.a, tt_heatmap_new(e.a));
	draw(&e);
	want(&e, "Timeline > 2 ranks");
	keys(&e, "<Enter>");
	want(&e, "timeline rank");
	want(&e, win + 1);
	env_close(&e);
}
END_TEST

/* ---- flows ---- */

START_TEST(flow_markers)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	/* gemm_b: launched at 10 µs (cell 2) from inside aten::mm [0, 300) */
	keys(&e, "9<Tab><Tab>");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	const char *c = cells(&e, "r0 thread 1");
	ck_assert_int_eq(c[0], '[');
	ck_assert_int_eq(c[2], '^');
	ck_assert_int_eq(c[59], ']');
	ck_assert_int_eq(c[1], 'r');
	/* a runtime call: its kernel (gemm_a at 25 µs, cell 5) */
	keys(&e, "jjg<Tab>");
	ck_assert(strstr(cursor_line(&e), "cudaLaunchKernel") != NULL);
	ck_assert(strstr(cursor_line(&e), "at 5 us") != NULL);
	ck_assert_int_eq(cells(&e, "r0 GPU 0 stream 7")[5], 'v');
	/* nothing selected, nothing marked */
	keys(&e, "kk:280us<Enter>");
	ck_assert(strchr(cells(&e, "r0 thread 1"), '^') == NULL);
	ck_assert(strchr(cells(&e, "r0 GPU 0 stream 7"), 'v') == NULL);
	env_close(&e);
}
END_TEST

/* ---- a set of events handed over, and the last window ---- */

START_TEST(event_sets_and_last_window)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	const struct tt_rank *r = e.m->ranks[0];
	struct tt_tl_event v[2] = {{0, TT_NONE}, {0, TT_NONE}};
	for (uint32_t i = 0; i < r->nev; i++) {
		if (!strcmp(tt_ev_name(r, &r->ev[i]), "gemm_b"))
			v[0].ev = i;
		if (!strcmp(tt_ev_name(r, &r->ev[i]), "gemm_a"))
			v[1].ev = i;
	}
	ck_assert(tt_timeline_set(e.a, v, 0, NULL, 0, "path") == NULL);
	tt_app_push(e.a, tt_timeline_set(e.a, v, 2, NULL, 0, "critical path"));
	draw(&e);
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	want_status(&e, "critical path: 1/2");
	/* n steps in the set's order, not in time order */
	keys(&e, "n");
	ck_assert(strstr(cursor_line(&e), "gemm_a") != NULL);
	want_status(&e, "match 2/2");
	keys(&e, "n");
	ck_assert(strstr(cursor_line(&e), "gemm_b") != NULL);
	/* a timeline like the last one: the same window */
	keys(&e, "<Escape><Escape>9:0us<Enter>+L");
	want(&e, "window 75 us .. 225 us");
	tt_app_push(e.a, tt_timeline_like(e.a, 0));
	draw(&e);
	want(&e, "timeline rank 0");
	want(&e, "window 75 us .. 225 us");
	env_close(&e);
}
END_TEST

/* ---- the mouse ---- */

START_TEST(mouse_names)
{
	struct tt_mouse m;
	ck_assert(tt_mouse_parse("<Click:3,4>", &m));
	ck_assert(m.kind == TT_MOUSE_CLICK && m.x == 3 && m.y == 4 && !m.ctrl && !m.shift);
	ck_assert(tt_mouse_parse("<C-S-WheelDown:15,6>", &m));
	ck_assert(m.kind == TT_MOUSE_WHEEL_DOWN && m.ctrl && m.shift && m.x == 15 && m.y == 6);
	char buf[64];
	tt_mouse_name(buf, sizeof(buf), &m);
	ck_assert_str_eq(buf, "<C-S-WheelDown:15,6>");
	ck_assert(tt_mouse_parse("<DClick:0,0>", &m) && m.kind == TT_MOUSE_DCLICK);
	ck_assert(tt_mouse_parse("<WheelUp:1,2>", &m) && m.kind == TT_MOUSE_WHEEL_UP);
	ck_assert(!tt_mouse_parse("<Click:3>", &m));
	ck_assert(!tt_mouse_parse("<Click:a,b>", &m));
	ck_assert(!tt_mouse_parse("<Clack:1,2>", &m));
	ck_assert(!tt_mouse_parse("<Click:1,2", &m));
	ck_assert(!tt_mouse_parse("<Click:-1,2>", &m));
	ck_assert(!tt_mouse_parse("<Enter>", &m));
	ck_assert(!tt_mouse_parse("c", &m));
	/* a key sequence splits at them */
	char key[32];
	const char *rest = tt_key_next("<Click:12,5>j", key, sizeof(key));
	ck_assert_str_eq(key, "<Click:12,5>");
	ck_assert_str_eq(rest, "j");
	/* the keymap file turns it off */
	struct tt_keymap *k = tt_keymap_new();
	ck_assert(tt_keymap_mouse(k));
	ck_assert_int_eq(tt_keymap_parse(k, "set mouse off\n", "rc", NULL, NULL), 0);
	ck_assert(!tt_keymap_mouse(k));
	ck_assert_int_eq(tt_keymap_parse(k, "set mouse on\n", "rc", NULL, NULL), 0);
	ck_assert(tt_keymap_mouse(k));
	ck_assert_int_eq(tt_keymap_parse(k, "set mouse maybe\n", "rc", NULL, NULL), 1);
	tt_keymap_free(k);
}
END_TEST

/* the column of text t in row y, or -1 */
static int col_of(struct env *e, int y, const char *t)
{
	const char *l = line(e, y), *f = strstr(l, t);
	return f ? (int)(f - l) : -1;
}

static void mouse(struct env *e, const char *kind, int x, int y)
{
	char k[64];
	snprintf(k, sizeof(k), "<%s:%d,%d>", kind, x, y);
	keys(e, k);
}

START_TEST(mouse_tabs_and_tables)
{
	struct env e;
	const char *t[] = {trace0, trace1};
	env_open(&e, t, 2, 81, 24);
	draw(&e);
	/* a click on a pane key's tab */
	mouse(&e, "Click", col_of(&e, 0, " 9 ") + 1, 0);
	want(&e, "Timeline: all 2 ranks (0-1)");
	mouse(&e, "Click", col_of(&e, 0, " 1 ") + 1, 0);
	want(&e, " Overview");
	/* in a table: a click selects the row under it, the wheel moves */
	int y1 = find(&e, "    1 ");
	ck_assert_int_gt(y1, 0);
	ck_assert_int_eq(line(&e, y1)[0], ' ');
	mouse(&e, "Click", 10, y1);
	ck_assert_int_eq(line(&e, y1)[0], '>');
	mouse(&e, "WheelUp", 10, y1);
	ck_assert_int_eq(line(&e, y1)[0], ' ');
	mouse(&e, "WheelDown", 10, y1);
	ck_assert_int_eq(line(&e, y1)[0], '>');
	/* a double click drills in: rank 1's streams */
	mouse(&e, "DClick", 10, y1);
	want(&e, "Overview > rank 1");
	/* below the rows and on the status line: nothing */
	keys(&e, "<Escape>");
	char *before = screen(&e);
	mouse(&e, "Click", 10, 22);
	mouse(&e, "Click", 10, 23);
	char *after = screen(&e);
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
	/* not while a prompt is open, nor with the mouse turned off */
	keys(&e, "r");
	mouse(&e, "Click", col_of(&e, 0, " 9 ") + 1, 0);
	want(&e, " Overview");
	keys(&e, "<Escape>");
	tt_keymap_set_mouse(e.k, false);
	mouse(&e, "Click", col_of(&e, 0, " 9 ") + 1, 0);
	want(&e, " Overview");
	env_close(&e);
}
END_TEST

START_TEST(mouse_in_the_timeline)
{
	struct env e;
	const char *t[] = {trace0};
	env_open(&e, t, 1, 81, 24);
	keys(&e, "9");
	int y20 = find(&e, "r0 GPU 0 stream 20");
	int x0 = (int)(strchr(line(&e, y20), '|') - line(&e, y20)) + 1;
	/* a click: that row, the cursor at the middle of that cell (cell 30:
	 * [150, 155) µs) */
	mouse(&e, "Click", x0 + 30, y20);
	want(&e, ">r0 GPU 0 stream 20");
	ck_assert_int_eq(cursor_ns(&e), 152500);
	ck_assert(strstr(cursor_line(&e), "ncclDevKernel") != NULL);
	/* on the ruler: the cursor only */
	int yr = find(&e, "time ");
	ck_assert_int_gt(yr, 1);
	mouse(&e, "Click", x0 + 10, yr);
	want(&e, ">r0 GPU 0 stream 20");
	ck_assert_int_eq(cursor_ns(&e), 52500);
	/* a double click on gemm_b opens it */
	int y7 = find(&e, "r0 GPU 0 stream 7");
	mouse(&e, "DClick", x0 + 32, y7);
	want(&e, "Timeline > gemm_b");
	keys(&e, "<Escape>");
	/* the wheel moves through the rows */
	mouse(&e, "WheelDown", x0, y7);
	want(&e, ">r0 thread 1");
	mouse(&e, "WheelUp", x0, y7);
	want(&e, ">r0 GPU 0 stream 7");
	/* Ctrl- or Shift-wheel zooms around the time under the pointer */
	mouse(&e, "C-WheelUp", x0 + 30, y7);
	want(&e, "window 76.2 us .. 226.2 us");
	mouse(&e, "S-WheelDown", x0 + 30, y7);
	want(&e, "window 0 us .. 300 us");
	mouse(&e, "C-WheelDown", x0 + 30, y7);
	want_status(&e, "the whole trace is in view");
	env_close(&e);
}
END_TEST

int main(void)
{
	tt_render_set_ascii(true);
	Suite *s = suite_create("tlnav");
	TCase *tc = tcase_create("window");
	tcase_add_test(tc, window_clamped_at_both_ends);
	tcase_add_test(tc, window_random_walk_stays_inside);
	tcase_add_test(tc, ruler_units_follow_the_scale);
	tcase_add_test(tc, typed_times);
	tcase_add_test(tc, merge_rows);
	tcase_add_test(tc, range_analysis);
	suite_add_tcase(s, tc);
	TCase *tp = tcase_create("pane");
	tcase_set_timeout(tp, 60);
	tcase_add_test(tp, search_and_step);
	tcase_add_test(tp, search_across_ranks);
	tcase_add_test(tp, refused_prompt_swallows);
	tcase_add_test(tp, jump_to_times);
	tcase_add_test(tp, pan_and_clamp);
	tcase_add_test(tp, range_pane);
	tcase_add_test(tp, row_modes_and_ranks);
	tcase_add_test(tp, flow_markers);
	tcase_add_test(tp, event_sets_and_last_window);
	tcase_add_test(tp, mouse_names);
	tcase_add_test(tp, mouse_tabs_and_tables);
	tcase_add_test(tp, mouse_in_the_timeline);
	suite_add_tcase(s, tp);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
