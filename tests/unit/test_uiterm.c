/* The explorer without a terminal, continued: the too-small screen, ASCII
 * mode, the headless driver, and every pane on the demo and on every trace
 * set of ../shared/traces (skipped when it is absent). */
#include "config.h"

#include "uitest.h"

#include "tracetop/results.h"
#include "tracetop/testing.h"

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

/* In the terminal a pane whose results are not computed yet says so at
 * once and the keys go on answering; it shows its table once they are
 * there.  (The background thread is paused, so that the result of the
 * heatmap -- not among those computed from the start -- cannot be ready.) */
START_TEST(computing_pane)
{
	struct ui *u = ui_new(demo_model, 100, 30);
	tt_results_pause(u->a->res, true);
	u->a->async = true;
	ui_keys(u, "v/Heatmap<Enter><Enter>");
	ck_screen_has(u, "Heatmap: computing");
	ck_assert(tt_app_waiting(u->a));
	/* its keys are not its own yet; the explorer's are */
	ui_keys(u, "mjj<Enter>");
	ck_screen_has(u, "Heatmap: computing");
	ui_keys(u, "<Esc>");
	ck_screen_has(u, "more views");
	ui_keys(u, "4");
	ck_screen_has(u, "Kernels");
	ck_assert(!tt_app_waiting(u->a));
	ui_keys(u, "v/Heatmap<Enter><Enter>");
	ck_screen_has(u, "Heatmap: computing");
	tt_results_pause(u->a->res, false);
	tt_app_wait_prefetch(u->a);
	tt_app_draw(u->a, &u->g);
	ck_assert(!tt_app_waiting(u->a));
	ck_assert(!on_screen(u, "computing"));
	ck_screen_has(u, "outlier");
	ui_free(u);
}
END_TEST

/* Draw again until the pane in view is no longer computing (its work on a
 * thread of its own, or a result of the background thread); false after
 * a minute. */
static bool ui_until_ready(struct ui *u)
{
	for (int i = 0; i < 60000 && tt_app_waiting(u->a); i++) {
		usleep(1000);
		tt_app_draw(u->a, &u->g);
	}
	return !tt_app_waiting(u->a);
}

/* In a diff on a terminal, the drill-down of a Diff row (a pass over both
 * sides' events) and the split timeline run off the key loop: the key
 * answers at once, the pane says "computing" until its work is done, Esc
 * leaves it meanwhile (the work is dropped once it returns).  The Diff
 * pane without a second trace never waits. */
START_TEST(work_off_the_keys)
{
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	d.variant = TT_DEMO_REGRESSED;
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	struct tt_model *m2 = NULL;
	tt_demo_load(&d, &lo, &m2);
	ck_assert_ptr_nonnull(m2);
	struct ui *u = ui_new2(demo_model, m2, 120, 30);
	u->a->async = true;
	tt_app_set_view(u->a, TT_VIEW_BOTH, true);
	ui_keys(u, "0");
	ck_assert(ui_until_ready(u));
	ck_screen_has(u, "ProfilerStep");
	/* Enter, Esc at once, many times: each closed pane waits for its work */
	for (int i = 0; i < 12; i++) {
		ui_keys(u, "<Enter>");
		ck_assert(tt_app_waiting(u->a) || on_screen(u, "median"));
		if (tt_app_waiting(u->a))
			ck_screen_has(u, "computing");
		ui_keys(u, "<Escape>");
		ck_assert(!tt_app_waiting(u->a));
		ck_screen_has(u, "ProfilerStep");
	}
	ck_assert_uint_le(u->a->norphans, TT_ARRAY_SIZE(u->a->orphan));
	/* and once through: the instances, then the split timeline at one */
	ui_keys(u, "<Enter>");
	ck_assert(ui_until_ready(u));
	ck_screen_has(u, "median");
	ui_keys(u, "<Enter>");
	ck_assert(ui_until_ready(u));
	ck_screen_has(u, "above");
	ck_screen_has(u, "ProfilerStep#");
	ui_keys(u, "]");
	ck_screen_has(u, "on both sides");
	ui_keys(u, "<Escape><Escape>9D");
	ck_assert(ui_until_ready(u));
	ck_screen_has(u, "above");
	ui_free(u);
	tt_model_free(m2);

	/* one trace: the Diff pane says so at once, the background paused */
	u = ui_new(demo_model, 100, 30);
	tt_results_pause(u->a->res, true);
	u->a->async = true;
	ui_keys(u, "0");
	ck_assert(!tt_app_waiting(u->a));
	ck_screen_has(u, "two traces");
	tt_results_pause(u->a->res, false);
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
		return; /* ../shared is absent: main says so (77) */
	struct tt_model *m = tl_load_path(path);
	ck_assert_uint_eq(m->nranks, 2);
	struct ui *u = ui_new(m, 120, 30);
	/* Overview: both ranks, no straggler among two */
	int hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 2), 1);
	ck_assert_str_eq(row(u, hy + 3), "");
	ck_assert(!on_screen(u, "straggler: rank"));
	ck_screen_has(u, "2 ranks. Enter");
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
		return; /* ../shared is absent: main says so (77) */
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
		return; /* ../shared is absent: main says so (77) */
	struct tt_model *ma = tl_load_path(a), *mb = tl_load_path(b);
	struct ui *u = ui_new2(ma, mb, 120, 30);
	ui_keys(u, "0");
	/* both steps (1009, 1010) of both sides, per step */
	ck_screen_has(u, "Control/step");
	ck_screen_has(u, "Test/step");
	ck_screen_has(u, "ProfilerStep#*");
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 10);
	ui_free(u);
	visit_all(ma, mb, "compare");
	tt_model_free(ma);
	tt_model_free(mb);
}
END_TEST

/* ---- main ---- */

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	Suite *s = suite_create("ui-terminals");
	TCase *tc = tcase_create("terminals");
	tcase_add_unchecked_fixture(tc, setup_demo, teardown_demo);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, too_small);
	tcase_add_test(tc, computing_pane);
	tcase_add_test(tc, work_off_the_keys);
	tcase_add_test(tc, ascii_mode);
	tcase_add_test(tc, headless_driver);
	tcase_add_test(tc, every_pane_demo);
	suite_add_tcase(s, tc);
	TCase *ts = tcase_create("shared");
	tcase_set_timeout(ts, 300);
	tcase_add_test(ts, shared_hta_2rank);
	tcase_add_test(ts, shared_every_trace);
	tcase_add_test(ts, shared_diff);
	suite_add_tcase(s, ts);
	return tl_run_shared(s, "every pane on the shared traces");
}
