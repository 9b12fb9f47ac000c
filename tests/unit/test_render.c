/* render room: names shortened the way a person reads them, and tables
 * drawn into a grid with every cell whole (numbers never cut to their
 * leading digits), the key column pinned when scrolling right. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/render.h"
#include "tracetop/util.h"

/* ---- names ---- */

static void fit_is(const char *s, size_t cols, const char *want)
{
	char buf[512];
	tt_name_fit(buf, sizeof(buf), s, cols);
	ck_assert_msg(strcmp(buf, want) == 0, "'%s' at %zu: '%s', expected '%s'", s, cols, buf,
		      want);
	ck_assert_uint_le(tt_utf8_width(buf), cols);
}

START_TEST(name_fit_steps)
{
	/* whole when it fits */
	fit_is("aten::mm", 20, "aten::mm");
	fit_is("Memcpy HtoD (Pinned -> Device)", 40, "Memcpy HtoD (Pinned -> Device)");
	/* void first */
	fit_is("void foo_kernel<float>(float*)", 25, "foo_kernel<float>(float*)");
	/* then the argument list */
	fit_is("void ncclKernel_AllReduce(ncclDevComm*, unsigned long)", 40,
	       "ncclKernel_AllReduce");
	fit_is("Memcpy HtoD (Pinned -> Device)", 20, "Memcpy HtoD");
	/* then the template arguments */
	fit_is("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x3_tn_align4>(Params)",
	       20, "cutlass::Kernel<\xE2\x80\xA6>");
	/* a template's return type goes like void */
	fit_is("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, float>(int)", 30,
	       "internal::gemvx::kernel<\xE2\x80\xA6>");
	/* then the namespaces */
	fit_is("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, 4>(float*)", 24,
	       "CatArrayBatchedCopy<\xE2\x80\xA6>");
	/* then the middle */
	fit_is("abcdefghijklmnopqrstuvwxyz", 11, "abcde\xE2\x80\xA6" "vwxyz");
	fit_is("autograd::engine::evaluate_function: AddBackward0", 28,
	       "autograd::engi\xE2\x80\xA6" " AddBackward0");
}
END_TEST

static char **fit_all(size_t cols, size_t n, const char *const *names)
{
	char **out = tt_names_fit(names, n, cols);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_le(tt_utf8_width(out[i]), cols);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg((strcmp(out[i], out[j]) == 0) == (strcmp(names[i], names[j]) == 0),
				      "'%s' and '%s' at %zu: '%s' and '%s'", names[i], names[j], cols,
				      out[i], out[j]);
	}
	return out;
}

START_TEST(names_never_cut_in_a_number)
{
	/* a number stays whole or goes whole: "stream 203" never reads as
	 * "stream 2" */
	static const char *const s[] = {"r1 GPU 1 stream 203 compute", "ProfilerStep#1234567",
					 "kernel_12345678_tile_98765432_end"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(s); i++)
		for (size_t cols = 6; cols < strlen(s[i]); cols++) {
			char buf[256];
			tt_name_fit(buf, sizeof(buf), s[i], cols);
			ck_assert_uint_le(tt_utf8_width(buf), cols);
			/* each run of digits shown is a run of digits of the name,
			 * whole: delimited by non-digits on both sides there */
			for (const char *p = buf; *p; p++) {
				if (!(*p >= '0' && *p <= '9') || (p > buf && p[-1] >= '0' && p[-1] <= '9'))
					continue;
				size_t n = strspn(p, "0123456789");
				char run[64];
				snprintf(run, sizeof(run), "%.*s", (int)n, p);
				bool whole = false;
				for (const char *q = strstr(s[i], run); q && !whole; q = strstr(q + 1, run))
					whole = (q == s[i] || !(q[-1] >= '0' && q[-1] <= '9')) &&
						!(q[n] >= '0' && q[n] <= '9');
				ck_assert_msg(whole, "'%s' at %zu: '%s' cuts the number '%s'", s[i], cols,
					      buf, run);
				p += n - 1;
			}
		}
}
END_TEST

START_TEST(wrap_at_words)
{
	const char *s = "the CPU side is late: host wait 73 % of idle", *next;
	size_t w, len = tt_wrap_line(s, 14, &w, &next);
	/* "the CPU side", never "the CPU side i" */
	ck_assert_int_eq((int)len, 12);
	ck_assert_int_eq(strncmp(s, "the CPU side", len), 0);
	ck_assert_uint_eq(w, 12);
	ck_assert_str_eq(next, "is late: host wait 73 % of idle");
	/* a word wider than the line breaks after a '/' in it */
	len = tt_wrap_line("…/traces/diff-control vs b", 12, &w, &next);
	ck_assert_str_eq(next, "diff-control vs b");
	ck_assert_uint_le(w, 12);
	/* and only then inside it */
	len = tt_wrap_line("abcdefghijklmnop", 5, &w, &next);
	ck_assert_int_eq((int)len, 5);
	ck_assert_str_eq(next, "fghijklmnop");
	/* a newline ends a line */
	len = tt_wrap_line("one\ntwo", 40, &w, &next);
	ck_assert_int_eq((int)len, 3);
	ck_assert_str_eq(next, "two");
}
END_TEST

START_TEST(names_stay_distinct)
{
	/* kernels that differ only inside their template arguments keep the
	 * part that tells them apart */
	static const char *const k[] = {
		"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x3_tn_align4>(Params)",
		"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x128_32x3_nt_align4>(Params)",
		"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(Params)",
		"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>(Params)",
		"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x3_tn_align4>(Params)",
		"ampere_sgemm_128x64_tn",
	};
	for (size_t cols = 12; cols <= 60; cols += 4) {
		char **out = fit_all(cols, TT_ARRAY_SIZE(k), k);
		ck_assert_str_eq(out[0], out[4]); /* equal names, equal text */
		if (cols == 28) {
			ck_assert_str_eq(out[0], "cutlass::Kernel<\xE2\x80\xA6" "128x64\xE2\x80\xA6>");
			ck_assert_str_eq(out[1], "cutlass::Kernel<\xE2\x80\xA6" "64x128\xE2\x80\xA6>");
			ck_assert_ptr_nonnull(strstr(out[2], "128x128"));
			ck_assert_ptr_nonnull(strstr(out[2], "nn"));
			ck_assert_ptr_nonnull(strstr(out[3], "tn"));
			ck_assert_str_eq(out[5], "ampere_sgemm_128x64_tn");
		}
		tt_names_free(out, TT_ARRAY_SIZE(k));
	}
	/* names differing in one character deep inside */
	static const char *const d[] = {
		"void at::native::elementwise_kernel<128, 2, at::native::BinaryFunctor<float, "
		"at::native::DivFunctor<float> > >(int)",
		"void at::native::elementwise_kernel<128, 2, at::native::BinaryFunctor<float, "
		"at::native::MulFunctor<float> > >(int)",
		"void at::native::elementwise_kernel<128, 2, at::native::BinaryFunctor<double, "
		"at::native::MulFunctor<double> > >(int)",
		"void at::native::elementwise_kernel<128, 2, at::native::BinaryFunctor<float, "
		"at::native::MulFunctor<float> > >(long)",
		"x1", "x2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
	};
	for (size_t cols = 8; cols <= 60; cols += 4)
		tt_names_free(fit_all(cols, TT_ARRAY_SIZE(d), d), TT_ARRAY_SIZE(d));
}
END_TEST

/* ---- tables in a grid ---- */

static char line_buf[4096];

static const char *grid_row(struct tt_grid *g, int y)
{
	tt_grid_row_text(g, y, line_buf, sizeof(line_buf));
	return line_buf;
}

/* a table with a long name column and wide numbers */
static struct tt_table *wide_table(void)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR},
		{.name = "count", .type = TT_C_INT},
		{.name = "a", .title = "first value", .type = TT_C_DUR},
		{.name = "b", .title = "second value", .type = TT_C_DUR},
		{.name = "c", .title = "third value", .type = TT_C_DUR},
		{.name = "d", .title = "fourth value", .type = TT_C_INT},
		{.name = "bar", .type = TT_C_BAR, .bar_of = 1},
	};
	struct tt_table *t = tt_table_new("wide", cols, (int)TT_ARRAY_SIZE(cols));
	for (int i = 0; i < 5; i++) {
		size_t r = tt_table_add_row(t);
		char nm[128];
		snprintf(nm, sizeof(nm), "void some_long_kernel_name_%d<float, int, %d>(float*, int)", i,
			 i * 7);
		tt_table_set_str(t, r, 0, nm);
		tt_table_set_int(t, r, 1, 1000 + i);
		tt_table_set_int(t, r, 2, 5752000000LL + i * 1000000LL); /* ms: 5752 */
		tt_table_set_int(t, r, 3, 24300000LL);                   /* 24.3 */
		tt_table_set_int(t, r, 4, 123456789012LL);
		tt_table_set_int(t, r, 5, 987654321 + i);
	}
	return t;
}

static void draw(const struct tt_table *t, struct tt_grid *g, int xoff,
		 struct tt_table_layout *lay)
{
	size_t rows[16];
	for (size_t i = 0; i < t->nrows; i++)
		rows[i] = i;
	struct tt_table_view v = {.rows = rows, .nrows = t->nrows, .sort_col = -1, .xoff = xoff,
				  .show_cursor = true, .layout = lay};
	tt_grid_clear(g);
	tt_table_draw(t, &v, g, 0, g->h);
}

/* the text of grid columns [x, x + w) of row y */
static void cells_text(struct tt_grid *g, int x, int y, int w, char *buf, size_t n)
{
	size_t k = 0;
	for (int i = x; i < x + w && i < g->w && k + 5 < n; i++) {
		uint32_t cp = tt_grid_at(g, i, y)->cp;
		if (!cp)
			cp = ' ';
		if (cp < 0x80) {
			buf[k++] = (char)cp;
		} else if (cp < 0x800) {
			buf[k++] = (char)(0xC0 | (cp >> 6));
			buf[k++] = (char)(0x80 | (cp & 0x3F));
		} else {
			buf[k++] = (char)(0xE0 | (cp >> 12));
			buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
			buf[k++] = (char)(0x80 | (cp & 0x3F));
		}
	}
	buf[k] = '\0';
}

/* every number drawn is the whole number of its cell */
static void numbers_whole(const struct tt_table *t, struct tt_grid *g,
			  const struct tt_table_layout *lay)
{
	for (int r = 0; r < lay->nrows; r++)
		for (int d = 0; d < lay->ncols; d++) {
			int c = lay->col[d];
			if (t->cols[c].type == TT_C_STR || t->cols[c].type == TT_C_BAR)
				continue;
			char want[64], got[256];
			tt_cell_text(t, lay->top + (size_t)r, c, lay->unit[d], want, sizeof(want));
			ck_assert_int_le(lay->x[d] + lay->w[d], g->w);
			cells_text(g, lay->x[d], lay->header_y + 1 + r, lay->w[d], got, sizeof(got));
			const char *p = got;
			while (*p == ' ')
				p++;
			ck_assert_msg(strcmp(p, want) == 0, "column %s row %d: '%s', expected '%s'",
				      t->cols[c].name, r, p, want);
		}
}

START_TEST(table_cells_whole)
{
	struct tt_table *t = wide_table();
	for (int w = 50; w <= 200; w += 3) {
		struct tt_grid g;
		tt_grid_init(&g, w, 10);
		struct tt_table_layout lay;
		for (int xoff = 0; xoff < 8; xoff++) {
			draw(t, &g, xoff, &lay);
			numbers_whole(t, &g, &lay);
			/* the name stays on the left */
			ck_assert_int_eq(lay.col[0], 0);
			ck_assert_int_eq(lay.x[0], 2);
			ck_assert_ptr_nonnull(strstr(grid_row(&g, 1), "some"));
			/* an arrow on the side where columns are left out */
			const char *hdr = grid_row(&g, 0);
			ck_assert_int_eq(lay.more_left, strncmp(hdr, "\xE2\x86\x90", 3) == 0);
			ck_assert_int_eq(lay.more_right,
					 tt_grid_at(&g, w - 1, 0)->cp == 0x2192);
			ck_assert_int_le(lay.xoff, lay.max_xoff);
		}
		/* scrolled to the end, the last column shows */
		draw(t, &g, 99, &lay);
		ck_assert_int_eq(lay.col[lay.ncols - 1], t->ncols - 1);
		ck_assert(!lay.more_right);
		if (w < 100) {
			draw(t, &g, 0, &lay);
			ck_assert(lay.more_right);
		}
		tt_grid_free(&g);
	}
	tt_table_free(t);
}
END_TEST

START_TEST(table_names_distinct)
{
	/* the rows of a narrow name column show different names differently */
	struct tt_table *t = wide_table();
	struct tt_grid g;
	tt_grid_init(&g, 60, 10);
	struct tt_table_layout lay;
	draw(t, &g, 0, &lay);
	ck_assert_int_lt(lay.w[0], 40);
	char seen[5][128];
	for (int r = 0; r < 5; r++) {
		cells_text(&g, lay.x[0], 1 + r, lay.w[0], seen[r], sizeof(seen[r]));
		ck_assert_ptr_null(strstr(seen[r], "void "));
		for (int q = 0; q < r; q++)
			ck_assert_str_ne(seen[r], seen[q]);
	}
	tt_grid_free(&g);
	tt_table_free(t);
}
END_TEST

/* ---- two tables side by side ---- */

static struct tt_table *side(const char *name, const int64_t *rank, const int64_t *idle,
			     const double *pct, size_t n)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "idle", .type = TT_C_DUR},
		{.name = "share", .type = TT_C_PCT, .prec = 1},
		{.name = "top", .type = TT_C_STR},
	};
	struct tt_table *t = tt_table_new(name, cols, 4);
	for (size_t i = 0; i < n; i++) {
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rank[i]);
		tt_table_set_int(t, k, 1, idle[i]);
		tt_table_set_num(t, k, 2, pct[i]);
		tt_table_set_str(t, k, 3, "k");
	}
	return t;
}

/* Test's rank 10 + r is Control's rank r */
static const char *minus10(void *ctx, const struct tt_table *b, size_t row, int col, char *buf,
			   size_t n)
{
	ck_assert_ptr_eq(ctx, (void *)minus10);
	ck_assert_int_eq(col, 0);
	snprintf(buf, n, "%lld", (long long)(tt_table_cell(b, row, col)->v.i - 10));
	return buf;
}

static double cell(const struct tt_table *t, size_t row, const char *col)
{
	int c = tt_table_col(t, col);
	ck_assert_msg(c >= 0, "no column %s", col);
	return tt_cell_num(tt_table_cell(t, row, c));
}

START_TEST(table_diff_join)
{
	/* Control ranks 0, 1, 2; Test ranks 11, 10, 13 (paired as 1, 0, 3):
	 * rank 2 only in Control, 3 only in Test */
	const int64_t ra[] = {0, 1, 2}, ia[] = {100, 200, 300};
	const int64_t rb[] = {11, 10, 13}, ib[] = {250, 90, 40};
	const double pa[] = {10, 20, 30}, pb[] = {25, 9, 4};
	struct tt_table *a = side("t", ra, ia, pa, 3), *b = side("t", rb, ib, pb, 3);
	const int cols[] = {1, 2, 3};
	struct tt_table_diff_opts o = {.nkeys = 1, .cols = cols, .ncols = 3, .la = "Control",
				       .lb = "Test", .map_key = minus10, .ctx = (void *)minus10};
	struct tt_table *d = tt_table_diff(a, b, &o);
	ck_assert_uint_eq(d->nrows, 4);
	/* a's rows in a's order, then b's own */
	const int64_t rank[] = {0, 1, 2, 13}, rank_b[] = {10, 11, -1, 13};
	const double ca[] = {100, 200, 300, NAN}, cb[] = {90, 250, NAN, 40};
	const double dd[] = {-10, 50, -300, 40}; /* a time missing on a side: 0 */
	const double ds[] = {-1, 5, NAN, NAN};   /* a share missing: no difference */
	/* a row of both sides says both ranks */
	static const char *const pair[] = {"0 | 10", "1 | 11", NULL, NULL};
	for (size_t i = 0; i < 4; i++) {
		const struct tt_cell *k = tt_table_cell(d, i, tt_table_col(d, "rank"));
		if (pair[i]) {
			ck_assert_int_eq(k->kind, TT_CV_S);
			ck_assert_str_eq(k->v.s, pair[i]);
		} else {
			ck_assert_int_eq((int64_t)cell(d, i, "rank"), rank[i]);
		}
		if (rank_b[i] >= 0)
			ck_assert_int_eq((int64_t)cell(d, i, "Test_rank"), rank_b[i]);
		else
			ck_assert(isnan(cell(d, i, "Test_rank")));
		double x = cell(d, i, "Control_idle"), y = cell(d, i, "Test_idle");
		ck_assert(isnan(ca[i]) ? isnan(x) : x == ca[i]);
		ck_assert(isnan(cb[i]) ? isnan(y) : y == cb[i]);
		ck_assert_double_eq(cell(d, i, "diff_idle"), dd[i]);
		ck_assert_double_eq(cell(d, i, "abs_diff"), fabs(dd[i]));
		double s = cell(d, i, "diff_share");
		ck_assert_msg(isnan(ds[i]) ? isnan(s) : fabs(s - ds[i]) < 1e-12, "row %zu share %g",
			      i, s);
		ck_assert_int_eq((int64_t)cell(d, i, "row_a"), i < 3 ? (int64_t)i : -1);
	}
	/* a text column is shown for each side, with no difference */
	ck_assert_int_ge(tt_table_col(d, "Control_top"), 0);
	ck_assert_int_lt(tt_table_col(d, "diff_top"), 0);
	/* the primary value is titled by the sides, the bar beside its Δ */
	int c = tt_table_col(d, "Control_idle");
	ck_assert_str_eq(d->cols[c].title, "Control");
	ck_assert_str_eq(d->cols[c + 1].title, "Test");
	ck_assert_str_eq(d->cols[c + 2].title, "Δ");
	ck_assert_int_eq(d->cols[c + 3].type, TT_C_BAR);
	ck_assert(d->cols[c + 3].signed_bar);
	ck_assert_int_eq(d->cols[c + 3].bar_of, c + 2);
	tt_table_free(d);
	tt_table_free(a);
	tt_table_free(b);
}
END_TEST

/* Control, Test and Δ of a time show one unit, their largest value's:
 * 2015 µs alone would be µs, but beside 38.1 ms it is 2.0 ms. */
START_TEST(table_diff_one_unit)
{
	const int64_t r[] = {0}, ia[] = {2015000}, ib[] = {38100000};
	const double p[] = {1};
	struct tt_table *a = side("t", r, ia, p, 1), *b = side("t", r, ib, p, 1);
	ck_assert_int_eq(tt_table_col_unit(a, 1), TT_U_US);
	const int cols[] = {1, 2};
	struct tt_table_diff_opts o = {.nkeys = 1, .cols = cols, .ncols = 2, .la = "Control",
				       .lb = "Test"};
	struct tt_table *d = tt_table_diff(a, b, &o);
	int c = tt_table_col(d, "Control_idle");
	for (int k = c; k < c + 3; k++)
		if (d->cols[k].type == TT_C_DUR)
			ck_assert_int_eq(tt_table_col_unit(d, k), TT_U_MS);
	char buf[64];
	tt_cell_text(d, 0, c, tt_table_col_unit(d, c), buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.0");
	tt_table_free(d);
	tt_table_free(a);
	tt_table_free(b);
}
END_TEST

START_TEST(table_diff_signed_bar)
{
	/* +100 fills the right half, -50 half of the left half */
	static const struct tt_col cols[] = {
		{.name = "d", .type = TT_C_INT},
		{.name = "bar", .type = TT_C_BAR, .bar_of = 0, .width = 21, .signed_bar = true},
	};
	struct tt_table *t = tt_table_new("t", cols, 2);
	tt_table_set_int(t, tt_table_add_row(t), 0, 100);
	tt_table_set_int(t, tt_table_add_row(t), 0, -50);
	tt_render_set_ascii(true);
	struct tt_grid g;
	tt_grid_init(&g, 40, 4);
	size_t rows[] = {0, 1};
	struct tt_table_view v = {.rows = rows, .nrows = 2, .sort_col = -1};
	tt_table_draw(t, &v, &g, 0, 4);
	char line[3][200];
	for (int y = 1; y < 3; y++)
		tt_grid_row_text(&g, y, line[y], sizeof(line[y]));
	/* the middle line, the bar right of it for +, left of it for - */
	const char *bar1 = strchr(line[1], '|'), *bar2 = strchr(line[2], '|');
	ck_assert_ptr_nonnull(bar1);
	ck_assert_ptr_nonnull(bar2);
	ck_assert_int_eq(bar1 - line[1], bar2 - line[2]);
	ck_assert_msg(bar1[1] == '#' && bar1[-1] == ' ', "'%s'", line[1]);
	ck_assert_msg(bar2[1] != '#' && bar2[-1] == '#', "'%s'", line[2]);
	int right = 0, left = 0;
	for (const char *p = bar1 + 1; *p == '#'; p++)
		right++;
	for (const char *p = bar2 - 1; p >= line[2] && *p == '#'; p--)
		left++;
	ck_assert_msg(right >= 2 * left - 1 && right <= 2 * left + 1, "right %d left %d", right,
		      left);
	tt_grid_free(&g);
	tt_render_set_ascii(false);
	tt_table_free(t);
}
END_TEST

/* a keyed cell holds its key's first string, copied once; a literal set
 * as is; both survive the table's copy and the caller's buffer changing */
START_TEST(table_keyed_cells)
{
	static const struct tt_col cols[] = {{.name = "name", .type = TT_C_STR},
					     {.name = "kind", .type = TT_C_STR}};
	struct tt_table *t = tt_table_new("t", cols, 2);
	tt_table_reserve(t, 3);
	char buf[16];
	size_t copies = 0;
	for (int i = 0; i < 1000; i++) {
		size_t k = tt_table_add_row(t);
		snprintf(buf, sizeof(buf), "name%d", i % 3);
		tt_table_set_keyed(t, k, 0, (uint64_t)(i % 3), buf);
		tt_table_set_static(t, k, 1, i % 2 ? "odd" : "even");
		copies += tt_table_cell(t, k, 0)->v.s != buf &&
			  (k < 3 || tt_table_cell(t, k, 0)->v.s != tt_table_cell(t, k - 3, 0)->v.s);
	}
	memset(buf, 'x', sizeof(buf) - 1);
	ck_assert_uint_eq(copies, 3); /* 3 of 1000 cells copied their string */
	struct tt_table *c = tt_table_copy(t);
	tt_table_free(t);
	for (size_t k = 0; k < 1000; k++) {
		char want[16];
		snprintf(want, sizeof(want), "name%zu", k % 3);
		ck_assert_str_eq(tt_table_cell(c, k, 0)->v.s, want);
		ck_assert_str_eq(tt_table_cell(c, k, 1)->v.s, k % 2 ? "odd" : "even");
	}
	ck_assert_uint_eq(c->nrows, 1000);
	tt_table_free(c);
}
END_TEST

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	Suite *s = suite_create("render");
	TCase *td = tcase_create("diff");
	tcase_add_test(td, table_diff_join);
	tcase_add_test(td, table_diff_one_unit);
	tcase_add_test(td, table_diff_signed_bar);
	suite_add_tcase(s, td);
	TCase *tc = tcase_create("names");
	tcase_add_test(tc, name_fit_steps);
	tcase_add_test(tc, names_stay_distinct);
	tcase_add_test(tc, names_never_cut_in_a_number);
	tcase_add_test(tc, wrap_at_words);
	suite_add_tcase(s, tc);
	TCase *tt = tcase_create("tables");
	tcase_add_test(tt, table_cells_whole);
	tcase_add_test(tt, table_names_distinct);
	tcase_add_test(tt, table_keyed_cells);
	suite_add_tcase(s, tt);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
