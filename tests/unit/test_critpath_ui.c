/* The Critical path view, headless on the demo job: its rows are the typed
 * result's windows, the marked rows (a role and a '*' in the text) those of
 * the rank that bounds each step's job path (rank 5, which loads its data
 * slowly), a step's path lists that step's events, and the timeline opened
 * from it highlights the path's events (role MATCH) and steps along them;
 * s sorts by the path's length first. */
#include "config.h"

#include "uitest.h"

#include "tracetop/critpath.h"
#include "tracetop/results.h"

/* cells drawn with role MATCH below the first 6 rows (the timeline's
 * ruler, cursor and window lines come first) */
static int marked_cells(struct ui *u)
{
	int n = 0;
	for (int y = 6; y < u->g.h - 1; y++)
		for (int x = 0; x < u->g.w; x++)
			n += tt_grid_at(&u->g, x, y)->role == TT_ROLE_MATCH;
	return n;
}

static int64_t cell_int(const struct tt_table *t, size_t row, int col)
{
	const struct tt_cell *c = tt_table_cell(t, row, col);
	ck_assert_int_eq(c->kind, TT_CV_I);
	return c->v.i;
}

static struct ui *open_view(void)
{
	struct ui *u = ui_new(demo_model, 100, 30);
	ui_keys(u, "v/Critical<Enter><Enter>");
	ck_assert_str_eq(tt_app_pane(u->a)->ops->name, "critical-path");
	return u;
}

START_TEST(rows_are_the_result)
{
	struct ui *u = open_view();
	struct tt_pane *p = tt_app_pane(u->a);
	const struct tt_cp_steps *s = tt_res_critpath(u->a->res);
	/* 8 ranks x 5 steps (the last step is dropped, as HTA does) */
	ck_assert_uint_eq(s->n, 40);
	ck_assert_uint_eq(p->table->nrows, s->n);
	size_t nmarked = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_cp_step *st = &s->steps[i];
		ck_assert_int_eq(st->res.status, TT_CP_OK);
		ck_assert_int_eq(cell_int(p->table, i, TT_CPS_LENGTH), st->res.length);
		ck_assert_int_eq(cell_int(p->table, i, TT_CPS_RANK), st->res.rank);
		/* marked: the rank that bounds the job's step, and only it */
		bool bounds = false;
		for (size_t j = 0; j < s->njobs; j++)
			bounds |= s->jobs[j].rank_step == i;
		ck_assert_msg(bounds == (p->row_role[i] == TT_ROLE_MARKED),
			      "row %zu (rank %lld, %s): bounds %d, marked %d", i,
			      (long long)st->res.rank, st->step, bounds, p->row_role[i]);
		const struct tt_cell *mark = tt_table_cell(p->table, i, TT_CPS_MARK);
		ck_assert(bounds == (mark->kind == TT_CV_S && !strcmp(mark->v.s, "*")));
		ck_assert(!bounds || st->res.rank == 5);
		nmarked += bounds;
	}
	ck_assert_uint_eq(nmarked, 5);
	ck_assert_uint_eq(s->njobs, 5);
	ui_free(u);
}
END_TEST

START_TEST(path_of_the_row)
{
	struct ui *u = open_view();
	const struct tt_cp_steps *s = tt_res_critpath(u->a->res);
	/* the third row: rank 0's third step */
	ui_keys(u, "jj<Enter>");
	struct tt_pane *p = tt_app_pane(u->a);
	ck_assert_str_eq(p->ops->name, "critical-path-events");
	const struct tt_cp_result *res = &s->steps[2].res;
	ck_assert_ptr_nonnull(strstr(p->subtitle, s->steps[2].step));
	ck_assert_uint_eq(p->table->nrows, res->ntop);
	int64_t sum = 0;
	for (size_t j = 0; j < res->ntop; j++)
		sum += cell_int(p->table, j, TT_CPT_ON_PATH);
	/* the time inside the path's events: at most the path's length */
	ck_assert_int_gt(sum, 0);
	ck_assert_int_le(sum, res->length);
	char len[32], want[64];
	tt_fmt_dur(len, sizeof(len), res->length);
	snprintf(want, sizeof(want), "length %s:", len);
	ck_assert_msg(head_has(u, want), "no '%s' above the events", want);
	ui_free(u);
}
END_TEST

START_TEST(path_drawn)
{
	struct ui *u = ui_new(demo_model, 100, 30);
	ui_keys(u, "9");
	ck_assert_int_eq(marked_cells(u), 0);
	ui_keys(u, "v/Critical<Enter><Enter><Enter>");
	ck_assert_str_eq(tt_app_pane(u->a)->ops->name, "critical-path-events");
	/* the distinct events of the first step's path */
	const struct tt_cp_result *res = &tt_res_critpath(u->a->res)->steps[0].res;
	size_t nev = 0;
	for (size_t i = 0; i < res->nnodes; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = res->nodes[j].ev == res->nodes[i].ev;
		nev += !seen;
	}
	ui_keys(u, "<Enter>");
	ck_assert_str_eq(tt_app_pane(u->a)->ops->name, "timeline");
	ck_assert_int_gt(marked_cells(u), 0);
	/* the edges are drawn, not only where the events start: the time
	 * inside the event opened at (the path's top event, rank 0's
	 * DataLoader span of 10 ms: tens of cells), on the cursor's row, is */
	int y = find_row(u, ">r0 thread");
	ck_assert_int_ge(y, 0);
	int on_row = 0;
	for (int x = 0; x < u->g.w; x++)
		on_row += tt_grid_at(&u->g, x, y)->role == TT_ROLE_MATCH;
	ck_assert_int_ge(on_row, 20);
	ui_keys(u, "n");
	char want[64];
	snprintf(want, sizeof(want), "match 2/%zu", nev);
	ck_assert_msg(strstr(u->a->status, want), "status '%s', not '%s'", u->a->status, want);
	ck_assert_ptr_nonnull(strstr(u->a->status, "critical path"));
	ui_keys(u, "N");
	ck_assert_ptr_nonnull(strstr(u->a->status, "match 1/"));
	ui_free(u);
}
END_TEST

/* s: the longest paths first (the view's measure), not the rank column */
START_TEST(s_sorts_by_length)
{
	struct ui *u = open_view();
	struct tt_pane *p = tt_app_pane(u->a);
	int64_t longest = 0;
	for (size_t i = 0; i < p->table->nrows; i++)
		longest = TT_MAX(longest, cell_int(p->table, i, TT_CPS_LENGTH));
	ui_keys(u, "s");
	ck_assert_int_eq(p->sort_col, TT_CPS_LENGTH);
	ck_assert(p->sort_desc);
	ck_assert_uint_eq(p->nrows, p->table->nrows);
	ck_assert_int_eq(cell_int(p->table, p->rows[0], TT_CPS_LENGTH), longest);
	for (size_t i = 1; i < p->nrows; i++)
		ck_assert_int_le(cell_int(p->table, p->rows[i], TT_CPS_LENGTH),
				 cell_int(p->table, p->rows[i - 1], TT_CPS_LENGTH));
	/* the next s goes on to the next column, as everywhere */
	ui_keys(u, "s");
	ck_assert_int_gt(p->sort_col, TT_CPS_LENGTH);
	ui_free(u);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("critpath_ui");
	TCase *tc = tcase_create("critpath_ui");
	tcase_add_unchecked_fixture(tc, setup_demo, teardown_demo);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, rows_are_the_result);
	tcase_add_test(tc, path_of_the_row);
	tcase_add_test(tc, path_drawn);
	tcase_add_test(tc, s_sorts_by_length);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
