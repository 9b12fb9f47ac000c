/* The explorer without a terminal: every pane renders into a text grid from
 * the demo job and from ../shared/traces, driven by keys through the real
 * keymap; the keymap and theme parsers; ASCII mode; the too-small screen.
 *
 * Assertions are on content (headers, rank rows, bar lengths against the
 * values beside them, sort order, filters, positions after going back),
 * never on whole screens. */
#include "config.h"

#include "uitest.h"
#include "tracetop/testing.h"

/* ---- the panes on the demo ---- */

START_TEST(overview_demo)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	ck_screen_has(u, "Overview");
	int hy = find_row(u, "busy %");
	ck_assert_int_ge(hy, 0);
	const char *h = row(u, hy);
	ck_assert_ptr_nonnull(strstr(h, "rank"));
	ck_assert_ptr_nonnull(strstr(h, "span (ms)"));
	ck_assert_ptr_nonnull(strstr(h, "idle %"));
	ck_assert_ptr_nonnull(strstr(h, "overlap %"));
	ck_assert_ptr_nonnull(strstr(h, "top kernel"));
	/* one row per rank, in rank order, the cursor on the first */
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), r);
	ck_assert_int_eq(cursor_row(u), hy + 1);
	/* rank 5 is the straggler: explained above the table, marked in it */
	ck_screen_has(u, "straggler: rank 5, idle");
	int y5 = hy + 1 + 5;
	ck_assert_int_eq(tt_grid_at(&u->g, 5, y5)->role, TT_ROLE_MARKED);
	ck_assert_int_eq(tt_grid_at(&u->g, 5, y5 - 1)->role, TT_ROLE_DEFAULT);
	ck_assert_ptr_nonnull(strstr(row(u, y5), "idle high"));
	ck_assert_double_gt(num_under(u, hy, "idle %", y5), 3 * num_under(u, hy, "idle %", hy + 1));
	/* the status line: what is open, where the cursor is */
	ck_assert_ptr_nonnull(strstr(row(u, 29), "test trace"));
	ck_assert_ptr_nonnull(strstr(row(u, 29), "1/8"));
	ck_assert_ptr_nonnull(strstr(row(u, 29), "all ranks"));
	/* the title bar names every pane with its key, the current one focused */
	const char *t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "1 Overview"));
	ck_assert_ptr_nonnull(strstr(t, "0 Diff"));
	ck_assert_int_eq(tt_grid_at(&u->g, cell_x(u, 0, "1 Overview"), 0)->role,
			 TT_ROLE_TITLE_FOCUS);
	ui_free(u);
}
END_TEST

START_TEST(title_bar_short_names)
{
	/* narrower screens: short names, still distinct (Overview / Overlap) */
	struct ui *u = ui_new(demo_model, 80, 24);
	const char *t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "1 Over"));
	ck_assert_ptr_nonnull(strstr(t, "5 Ovlp"));
	ck_assert_ptr_nonnull(strstr(t, "0 Diff"));
	ui_keys(u, "5");
	ck_assert_int_eq(tt_grid_at(&u->g, cell_x(u, 0, "5 Ovlp"), 0)->role, TT_ROLE_TITLE_FOCUS);
	ui_resize(u, 60, 20);
	t = row(u, 0);
	ck_assert_ptr_nonnull(strstr(t, "5 Ovlp"));
	ck_assert_ptr_nonnull(strstr(t, " 0"));
	ui_free(u);
}
END_TEST

START_TEST(every_pane_by_key)
{
	static const char *const keys[10] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"};
	static const char *const titles[10] = {"Overview", "Temporal", "Idle",	 "Kernels",
					       "Overlap",  "Launch",   "Counters", "Patterns",
					       "Timeline", "Diff"};
	static const char *const headers[10] = {"busy %",     "compute %", "host wait", "total",
						"overlap %",  "runtime",   "series",	"op",
						NULL,	      NULL};
	struct ui *u = ui_new(demo_model, 160, 50);
	for (int i = 0; i < 10; i++) {
		ui_keys(u, keys[i]);
		ck_assert_int_eq(u->a->cur, i);
		ck_assert_ptr_nonnull(strstr(row(u, 1), titles[i]));
		if (headers[i])
			ck_screen_has(u, headers[i]);
		/* never an empty body: rows, or a message saying why not */
		int text = 0;
		for (int y = 2; y < u->g.h - 1; y++)
			if (row(u, y)[strspn(row(u, y), " ")])
				text++;
		ck_assert_msg(text > 0, "pane %s shows nothing", titles[i]);
	}
	/* Diff without a second trace says how to get one */
	ck_screen_has(u, "--diff");
	/* Tab and Shift-Tab cycle */
	ui_keys(u, "<Tab>");
	ck_assert_int_eq(u->a->cur, 0);
	ui_keys(u, "<S-Tab><S-Tab>");
	ck_assert_int_eq(u->a->cur, 8);
	ui_free(u);
}
END_TEST

START_TEST(bars_proportional)
{
	/* Overlap: one bar per rank of overlap %, on a scale of 100 % */
	struct ui *u = ui_new(demo_model, 160, 40);
	ui_keys(u, "5");
	int hy = find_row(u, "overlap %");
	ck_assert_int_ge(hy, 0);
	int bx = cell_x(u, hy, "comm hidden by compute");
	ck_assert_int_ge(bx, 0);
	double va = num_under(u, hy, "overlap %", hy + 1);     /* rank 0 */
	double vb = num_under(u, hy, "overlap %", hy + 1 + 5); /* rank 5 */
	double ca = bar_eighths(u, hy + 1, bx) / 8.0, cb = bar_eighths(u, hy + 1 + 5, bx) / 8.0;
	ck_assert_double_gt(ca, 5);
	ck_assert_msg(fabs(cb - ca * vb / va) <= 1, "bars %.2f and %.2f cells for %.2f and %.2f", ca,
		      cb, va, vb);
	for (int r = 0; r < 8; r++) {
		double v = num_under(u, hy, "overlap %", hy + 1 + r);
		double c = bar_eighths(u, hy + 1 + r, bx) / 8.0;
		ck_assert_msg(fabs(c - ca * v / va) <= 1, "rank %d: bar %.2f for %.2f %%", r, c, v);
	}
	/* Kernels: bars of the total time, the largest full */
	ui_keys(u, "4");
	hy = find_row(u, "total (ms)");
	ck_assert_int_ge(hy, 0);
	bx = cell_x(u, hy, "total (ms)") + 12; /* the bar column comes after the numbers */
	int full = -1;
	for (int r = 0; r < 5; r++) {
		double v0 = num_under(u, hy, "total (ms)", hy + 1);
		double v = num_under(u, hy, "total (ms)", hy + 1 + r);
		double c0 = bar_eighths(u, hy + 1, bx) / 8.0, c = bar_eighths(u, hy + 1 + r, bx) / 8.0;
		if (r == 0)
			full = (int)c0;
		ck_assert_msg(fabs(c - c0 * v / v0) <= 1, "kernel row %d: bar %.2f for %.1f ms", r, c, v);
	}
	ck_assert_int_ge(full, 8);
	/* Temporal: the stacked bar spans the whole width on every rank, and
	 * its compute part follows compute % */
	ui_keys(u, "2");
	hy = find_row(u, "compute %");
	bx = cell_x(u, hy, "compute/non-compute/idle");
	ck_assert_int_ge(bx, 0);
	int width = -1;
	for (int r = 0; r < 8; r++) {
		int y = hy + 1 + r;
		int all = count_cp(u, y, bx, 0x2588) + count_cp(u, y, bx, 0x2593) +
			  count_cp(u, y, bx, 0x2592);
		if (width < 0)
			width = all;
		ck_assert_int_eq(all, width);
		double pct = num_under(u, hy, "compute %", y);
		ck_assert_msg(fabs(count_cp(u, y, bx, 0x2588) - pct / 100 * width) <= 1,
			      "rank %d: %d compute cells of %d for %.1f %%", r,
			      count_cp(u, y, bx, 0x2588), width, pct);
	}
	ui_free(u);
}
END_TEST

START_TEST(sort_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	int hy = find_row(u, "busy %");
	/* s: the first column, numbers largest first; the view goes to the top */
	ui_keys(u, "jjj");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 3);
	ui_keys(u, "s");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 0);
	ck_assert_int_eq(cursor_row(u), hy + 1);
	ck_screen_has(u, "sorted by rank");
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), 7 - r);
	/* S reverses */
	ui_keys(u, "jS");
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 0);
	for (int r = 0; r < 8; r++)
		ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1 + r), r);
	/* s again and again: to idle %, the header marks it */
	for (int i = 0; i < 10 && !strstr(row(u, hy), "idle %\xE2\x96\xBC"); i++)
		ui_keys(u, "s");
	ck_assert_ptr_nonnull(strstr(row(u, hy), "idle %\xE2\x96\xBC"));
	double prev = 1e9;
	for (int r = 0; r < 8; r++) {
		double v = num_under(u, hy, "idle %", hy + 1 + r);
		ck_assert_double_le(v, prev);
		prev = v;
	}
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 5);
	/* names sort A to Z */
	ui_keys(u, "4");
	hy = find_row(u, "total (ms)");
	ck_assert_ptr_nonnull(strstr(row(u, hy), "total (ms)\xE2\x96\xBC")); /* the default */
	struct tt_pane *p = tt_app_pane(u->a);
	int name = tt_table_col(p->table, "name");
	while (p->sort_col != name)
		ui_keys(u, "s");
	ck_assert(!p->sort_desc);
	for (size_t i = 1; i < p->nrows; i++)
		ck_assert_int_le(strcmp(tt_table_cell(p->table, p->rows[i - 1], name)->v.s,
					tt_table_cell(p->table, p->rows[i], name)->v.s),
				 0);
	ui_free(u);
}
END_TEST

START_TEST(sort_sizes)
{
	/* a size drawn with its unit sorts by its bytes, not as text ("6.3 MB"
	 * after "23.1 MB"): the allocations alive at rank 0's peak */
	struct ui *u = ui_new(demo_model, 120, 30);
	ui_keys(u, "vjjjj<Enter><Enter>");
	struct tt_pane *p = tt_app_pane(u->a);
	int bytes = tt_table_col(p->table, "bytes");
	ck_assert_int_ge(bytes, 0);
	ck_assert_int_ge(tt_table_col(p->table, "size"), 0);
	ui_keys(u, "s");
	ck_screen_has(u, "sorted by size");
	ck_assert_uint_gt(p->nrows, 10);
	int64_t first = tt_table_cell(p->table, p->rows[0], bytes)->v.i;
	int64_t last = tt_table_cell(p->table, p->rows[p->nrows - 1], bytes)->v.i;
	ck_assert_int_gt(first, last); /* the demo's differ: 23.1 MB .. 6.3 MB */
	for (size_t i = 1; i < p->nrows; i++)
		ck_assert_int_ge(tt_table_cell(p->table, p->rows[i - 1], bytes)->v.i,
				 tt_table_cell(p->table, p->rows[i], bytes)->v.i);
	ui_keys(u, "S");
	for (size_t i = 1; i < p->nrows; i++)
		ck_assert_int_le(tt_table_cell(p->table, p->rows[i - 1], bytes)->v.i,
				 tt_table_cell(p->table, p->rows[i], bytes)->v.i);
	ui_free(u);
}
END_TEST

START_TEST(filter_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	ui_keys(u, "4");
	struct tt_pane *p = tt_app_pane(u->a);
	size_t all = p->nrows;
	ck_assert_uint_gt(all, 5);
	/* the prompt shows what is typed */
	ui_keys(u, "/sge");
	ck_assert_ptr_nonnull(strstr(row(u, 29), "filter: sge"));
	ui_keys(u, "mm<Enter>");
	ck_assert_uint_eq(p->nrows, 3);
	ck_screen_has(u, "3 rows match 'sgemm'");
	ck_screen_has(u, "filter: sgemm");
	int hy = find_row(u, "total (ms)");
	for (int r = 0; r < 3; r++)
		ck_assert_ptr_nonnull(strstr(row(u, hy + 1 + r), "sgemm"));
	ck_assert(!strstr(row(u, hy + 4), "sgemm"));
	/* matches are highlighted outside the cursor row */
	int mx = cell_x(u, hy + 2, "sgemm");
	ck_assert_int_eq(tt_grid_at(&u->g, mx, hy + 2)->role, TT_ROLE_MATCH);
	/* n / N move between matches */
	ck_assert_uint_eq(p->cursor, 0);
	ui_keys(u, "n");
	ck_assert_uint_eq(p->cursor, 1);
	ui_keys(u, "nn");
	ck_assert_uint_eq(p->cursor, 0);
	ui_keys(u, "N");
	ck_assert_uint_eq(p->cursor, 2);
	/* Backspace edits the prompt; Escape cancels it */
	ui_keys(u, "/x<Backspace><Escape>");
	ck_assert_str_eq(p->filter, "sgemm");
	/* no match: says so */
	ui_keys(u, "/nosuchkernel<Enter>");
	ck_assert_uint_eq(p->nrows, 0);
	ck_screen_has(u, "no row matches the filter");
	/* Esc clears the filter, all rows are back */
	ui_keys(u, "<Escape>");
	ck_assert_uint_eq(p->nrows, all);
	ck_assert(!on_screen(u, "filter:"));
	char want[64];
	snprintf(want, sizeof(want), "filter cleared: %zu rows", all);
	ck_screen_has(u, want);
	/* the filter is case-insensitive; one row is one row */
	ui_keys(u, "/NCCL<Enter>");
	ck_assert_uint_eq(p->nrows, 1);
	ck_screen_has(u, "1 row matches 'NCCL'");
	ui_free(u);
}
END_TEST

START_TEST(drill_and_back)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	/* Overview: rank 5 -> its streams -> back to rank 5 */
	ui_keys(u, "jjjjj");
	int cy = cursor_row(u);
	ck_assert_ptr_nonnull(strstr(row(u, cy), "    5 "));
	ui_keys(u, "<Enter>");
	ck_assert_int_eq(u->a->depth, 1);
	ck_screen_has(u, "Overview > rank 5");
	ck_screen_has(u, "GPU 5 stream");
	ck_screen_has(u, "GPU stream");
	ui_keys(u, "j<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_int_eq(cursor_row(u), cy);
	ck_assert_ptr_nonnull(strstr(row(u, cy), "    5 "));
	/* Backspace goes back too */
	ui_keys(u, "<Enter><Backspace>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_int_eq(cursor_row(u), cy);

	/* Kernels: a kernel -> its histogram and slowest instances */
	ui_keys(u, "4jjj");
	struct tt_pane *k = tt_app_pane(u->a);
	size_t kc = k->cursor, kt = k->top;
	ui_keys(u, "<Enter>");
	ck_screen_has(u, "instances; durations:");
	ck_screen_has(u, "slowest instances first");
	hist_aligned(u);
	struct tt_pane *inst = tt_app_pane(u->a);
	ck_assert_uint_gt(inst->nrows, 1);
	/* slowest first */
	int dc = tt_table_col(inst->table, "duration");
	ck_assert_double_ge(tt_cell_num(tt_table_cell(inst->table, inst->rows[0], dc)),
			    tt_cell_num(tt_table_cell(inst->table, inst->rows[1], dc)));
	/* an instance -> the timeline, two levels deep */
	ui_keys(u, "jj<Enter>");
	ck_assert_int_eq(u->a->depth, 2);
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 1);
	ck_assert_uint_eq(tt_app_pane(u->a)->cursor, 2);
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_assert_ptr_eq(tt_app_pane(u->a), k);
	ck_assert_uint_eq(k->cursor, kc);
	ck_assert_uint_eq(k->top, kt);

	/* a scrolled list: the exact cursor and scroll position come back */
	ui_keys(u, "6<Enter>");
	ck_screen_has(u, "Launch > rank 0");
	ck_screen_has(u, "long delay");
	struct tt_pane *o = tt_app_pane(u->a);
	ui_keys(u, "<PageDown><PageDown>jjj");
	size_t oc = o->cursor, ot = o->top;
	ck_assert_uint_gt(ot, 0);
	int ocy = cursor_row(u);
	char before[8192];
	snprintf(before, sizeof(before), "%s", row(u, ocy));
	ui_keys(u, "<Enter>");
	ck_assert_int_eq(u->a->depth, 2);
	ui_keys(u, "<Escape>");
	ck_assert_uint_eq(o->cursor, oc);
	ck_assert_uint_eq(o->top, ot);
	ck_assert_int_eq(cursor_row(u), ocy);
	ck_assert_str_eq(row(u, ocy), before);

	/* Idle: a stream -> its largest gaps */
	ui_keys(u, "3");
	ck_screen_has(u, "largest gap: rank 5 stream 20");
	ui_keys(u, "<Enter>");
	ck_screen_has(u, "Idle > rank 5 stream 20");
	ck_screen_has(u, "host_wait");
	ui_keys(u, "<Escape>");
	ck_assert_int_eq(u->a->depth, 0);

	/* Enter where there is nothing to open says so */
	ui_keys(u, "7<Enter>");
	ck_assert_int_eq(u->a->depth, 0);
	ck_screen_has(u, "not in this pane");
	ui_free(u);
}
END_TEST

START_TEST(rank_keys)
{
	struct ui *u = ui_new(demo_model, 120, 30);
	int hy = find_row(u, "busy %");
	/* ] from all ranks: the first rank; then the next */
	ui_keys(u, "]");
	ck_assert_uint_eq(u->a->nranks, 1);
	ck_screen_has(u, "showing rank 0");
	ck_assert_ptr_nonnull(strstr(row(u, 29), "rank 0"));
	hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert_str_eq(row(u, hy + 2), "");
	ui_keys(u, "]");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 1);
	ui_keys(u, "[[");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 7); /* wraps around */
	ui_keys(u, "]");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	/* the other panes follow */
	ui_keys(u, "2");
	hy = find_row(u, "compute %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 0);
	ck_assert(!strstr(row(u, hy + 2), "  1  "));
	/* a: all ranks again */
	ui_keys(u, "a");
	ck_assert_uint_eq(u->a->nranks, 0);
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 8);
	ck_screen_has(u, "showing all ranks");
	/* r: a list */
	ui_keys(u, "1r2,4-5<Enter>");
	ck_assert_uint_eq(u->a->nranks, 3);
	hy = find_row(u, "busy %");
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 1), 2);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 2), 4);
	ck_assert_int_eq((int)num_under(u, hy, "rank", hy + 3), 5);
	ck_screen_has(u, "3 ranks");
	/* a bad list is refused, the ranks stay */
	ui_keys(u, "rtwo<Enter>");
	ck_screen_has(u, "not a rank list");
	ck_assert_uint_eq(u->a->nranks, 3);
	/* r with "all" */
	ui_keys(u, "rall<Enter>");
	ck_assert_uint_eq(u->a->nranks, 0);
	ui_free(u);
}
END_TEST

/* a CSV line into fields (RFC 4180 quotes) */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *w = line;
	while (n < max) {
		f[n++] = w;
		bool q = *p == '"';
		if (q)
			p++;
		while (*p) {
			if (q && *p == '"' && p[1] == '"') {
				*w++ = '"';
				p += 2;
			} else if (q && *p == '"') {
				q = false;
				p++;
			} else if (!q && (*p == ',' || *p == '\n' || *p == '\r')) {
				break;
			} else {
				*w++ = *p++;
			}
		}
		bool more = *p == ',';
		*w++ = '\0';
		if (!more)
			break;
		p++;
	}
	return n;
}

START_TEST(write_csv)
{
	char dir[] = "/tmp/tt_test_ui_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char old[4096];
	ck_assert_ptr_nonnull(getcwd(old, sizeof(old)));
	ck_assert_int_eq(chdir(dir), 0);

	struct ui *u = ui_new(demo_model, 120, 30);
	ui_keys(u, "4/sgemm<Enter>S");
	struct tt_pane *p = tt_app_pane(u->a);
	ck_assert_uint_eq(p->nrows, 3);
	ui_keys(u, "w");
	char want[4200];
	snprintf(want, sizeof(want), "wrote 3 rows to %s/tracetop-kernels.csv", dir);
	ck_screen_has(u, want);
	FILE *f = fopen("tracetop-kernels.csv", "r");
	ck_assert_ptr_nonnull(f);
	char line[4096], *fl[32];
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	int nf = csv_split(line, fl, 32);
	ck_assert_str_eq(fl[0], "name");
	int tc = -1;
	for (int i = 0; i < nf; i++)
		if (strcmp(fl[i], "total (us)") == 0)
			tc = i;
	ck_assert_int_ge(tc, 0);
	/* the rows as shown: filtered, in the order on screen (ascending) */
	int hy = find_row(u, "total (ms)");
	int n = 0;
	double prev = -1;
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(csv_split(line, fl, 32), nf);
		ck_assert_ptr_nonnull(strstr(fl[0], "sgemm"));
		/* the name shown (maybe cut with an ellipsis) starts the CSV name */
		char shown[256];
		cells(u, hy + 1 + n, 2, 2 + 20, shown, sizeof(shown));
		ck_assert_int_eq(strncmp(fl[0], shown, strlen(shown)), 0);
		double total_us = strtod(fl[tc], NULL);
		ck_assert_double_ge(total_us, prev);
		prev = total_us;
		/* the screen shows the same number in ms */
		ck_assert_double_lt(fabs(total_us / 1000 - num_under(u, hy, "total (ms)", hy + 1 + n)),
				    0.6);
		n++;
	}
	fclose(f);
	ck_assert_int_eq(n, 3);
	/* again: a new file, never overwritten */
	ui_keys(u, "w");
	ck_screen_has(u, "tracetop-kernels-1.csv");
	ck_assert_int_eq(access("tracetop-kernels-1.csv", R_OK), 0);
	/* a pane without a table (Diff of one trace) says so */
	ui_keys(u, "0w");
	ck_screen_has(u, "no table to write");
	/* an unwritable directory: an error on the status line, no crash */
	ck_assert_int_eq(chmod(dir, 0500), 0);
	if (access(dir, W_OK) != 0) { /* (root can write anyway) */
		ui_keys(u, "1w");
		ck_screen_has(u, "cannot write");
	}
	chmod(dir, 0700);
	ui_free(u);
	unlink("tracetop-kernels.csv");
	unlink("tracetop-kernels-1.csv");
	unlink("tracetop-overview.csv");
	ck_assert_int_eq(chdir(old), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(help_lists_bindings)
{
	struct ui *u = ui_new(demo_model, 100, 80);
	ui_keys(u, "4?");
	ck_screen_has(u, "help: Kernels");
	ck_screen_has(u, "GPU kernels by total time"); /* the pane's own text */
	ck_screen_has(u, "Keys everywhere");
	/* each generic binding is listed with its action's help */
	int y = find_row(u, "move down one row");
	ck_assert_int_ge(y, 0);
	ck_assert_ptr_nonnull(strstr(row(u, y), "j <Down>"));
	y = find_row(u, "drill into the selected row");
	ck_assert_ptr_nonnull(strstr(row(u, y), "<Enter>"));
	y = find_row(u, "show the Kernels");
	ck_assert_ptr_nonnull(strstr(row(u, y), " 4 "));
	for (int a = 1; a < TT_ACT_COUNT; a++) {
		const char *key = tt_keymap_key_of(u->k, "generic", (enum tt_action)a);
		if (!key[0])
			continue;
		y = find_row(u, tt_action_help((enum tt_action)a));
		ck_assert_msg(y >= 0, "action %s is not in the help", tt_action_name(a));
		ck_assert_msg(strstr(row(u, y), key), "key %s of %s is not in the help", key,
			      tt_action_name(a));
	}
	/* no empty "Keys of" section for a pane without its own bindings */
	ck_assert(!on_screen(u, "Keys of Kernels"));
	/* ? or Esc goes back */
	ui_keys(u, "?");
	ck_assert_int_eq(u->a->depth, 0);
	ui_keys(u, "?<Escape>");
	ck_assert_int_eq(u->a->depth, 0);
	ui_free(u);

	/* the help shows the bindings really in force */
	struct ui *v = ui_new(demo_model, 100, 80);
	ck_assert_int_eq(tt_keymap_parse(v->k,
					 "bind generic x quit\n"
					 "unbind generic q\n"
					 "bind kernels t sort-next\n",
					 "test.rc", NULL, NULL),
			 0);
	ui_keys(v, "4?");
	ck_screen_has(v, "Keys of Kernels");
	y = find_row(v, "Keys of Kernels");
	ck_assert_ptr_nonnull(strstr(row(v, y + 1), "t "));
	ck_assert_ptr_nonnull(strstr(row(v, y + 1), "sort by the next column"));
	y = find_row_from(v, "quit", find_row(v, "Keys everywhere"));
	ck_assert_ptr_nonnull(strstr(row(v, y), "<C-c> x"));
	ck_assert(!strstr(row(v, y), "q "));
	/* and the keys work: t sorts in Kernels, q does nothing, x quits */
	ui_keys(v, "<Escape>");
	struct tt_pane *p = tt_app_pane(v->a);
	int sc = p->sort_col;
	ui_keys(v, "t");
	ck_assert_int_ne(p->sort_col, sc);
	ck_assert_int_eq(ui_keys(v, "q") & TT_R_QUIT, 0);
	ck_screen_has(v, "q: no action");
	ck_assert_int_ne(ui_keys(v, "x") & TT_R_QUIT, 0);
	ui_free(v);

	/* a short screen scrolls the help, and never past its end */
	struct ui *w = ui_new(demo_model, 80, 24);
	ui_keys(w, "?");
	ck_assert(!on_screen(w, "q <C-c>"));
	for (int i = 0; i < 200; i++)
		ui_keys(w, "j");
	ck_screen_has(w, "q <C-c>");
	/* the end is at the bottom, not alone: the help's last line on the
	 * last rows above the status line */
	ck_assert_int_ge(find_row(w, "the runs of the log directory"), 24 - 4);
	ui_keys(w, "k");
	ck_screen_has(w, "q <C-c>");
	ui_free(w);
}
END_TEST

START_TEST(status_messages)
{
	struct ui *u = ui_new(demo_model, 100, 30);
	ui_keys(u, "x");
	ck_screen_has(u, "x: no action (press ? for help)");
	ui_keys(u, "+");
	ck_screen_has(u, "zoom in: not in this pane"); /* words, not the action's name */
	ui_keys(u, "n");
	ck_screen_has(u, "no filter: press / first");
	ck_assert_int_ne(ui_keys(u, "q") & TT_R_QUIT, 0);
	ui_free(u);
	/* a message longer than the status line wraps above it, whole */
	u = ui_new(demo_model, 80, 24);
	ui_keys(u, "4/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz<Enter>");
	ck_screen_has(u, "0 rows match 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz'");
	ck_screen_has(u, "(Esc clears)");
	ui_free(u);
}
END_TEST

START_TEST(warnings_pane)
{
	/* the load warnings and the keymap/theme errors: counted on the status
	 * line, listed by W (what went to stderr behind the screen before) */
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/truncated.json", tl_srcdir());
	struct tt_model *m = tl_load_path(path);
	struct ui *u = ui_new(m, 80, 24);
	ck_screen_has(u, "W:1 warning");
	tt_app_note(u->a, "/home/x/.config/tracetop/tracetoprc:3: unknown action 'zoom-inn'");
	ui_keys(u, "1");
	ck_screen_has(u, "W:2 warnings");
	ui_keys(u, "W");
	ck_screen_has(u, "Overview > Load");
	ck_screen_has(u, "truncated.json");
	ck_screen_has(u, "warning");
	ck_screen_has(u, "tracetoprc:3");
	/* the whole message of the row under the cursor, below the table */
	ui_keys(u, "G");
	ck_screen_has(u, "unknown action 'zoom-inn'");
	ui_keys(u, "g");
	ck_screen_has(u, "file truncated: events after the cut are lost");
	ui_free(u);
	tt_model_free(m);
	/* no warnings: no count, and the pane says so */
	u = ui_new(demo_model, 80, 24);
	ck_assert(!on_screen(u, "W:"));
	ui_keys(u, "W");
	ck_screen_has(u, "0 warnings or errors"); /* (the demo has notes only) */
	ui_free(u);
}
END_TEST

START_TEST(columns_cut_off)
{
	/* at 80 columns the Kernels table is wider than the screen: an arrow
	 * says so, l scrolls right, never past the last column */
	struct ui *u = ui_new(demo_model, 80, 24);
	ui_keys(u, "4");
	int hy = find_row(u, "total (ms)");
	ck_assert_int_eq(tt_grid_at(&u->g, 79, hy)->cp, 0x2192);
	ck_assert(!strstr(row(u, hy), "max rank"));
	for (int i = 0; i < 40; i++)
		ui_keys(u, "l");
	hy = find_row(u, "max (ms)");
	ck_assert_int_ge(hy, 0);
	ck_assert_int_eq(tt_grid_at(&u->g, 0, hy)->cp, 0x2190);
	ck_assert_int_ne(tt_grid_at(&u->g, 79, hy)->cp, 0x2192);
	ck_assert_uint_gt(bar_eighths(u, hy + 1, 0), 0); /* the last column, a bar, shows */
	for (int i = 0; i < 40; i++)
		ui_keys(u, "h");
	ck_assert_int_eq(tt_grid_at(&u->g, 0, hy)->cp, ' ');
	ui_free(u);
}
END_TEST

START_TEST(head_lines_wrap)
{
	/* the lines above a table wrap instead of losing their end */
	struct ui *u = ui_new(demo_model, 80, 24);
	ck_screen_has(u, "Enter: the rank's streams");
	ui_keys(u, "3");
	ck_screen_has(u, "Enter: the stream's largest gaps");
	ui_keys(u, "5");
	ck_screen_has(u, "of communication time overlaps computation");
	/* a short screen keeps the table and cuts the lines */
	ui_resize(u, 80, 12);
	ck_assert_int_ge(find_row(u, "overlap %"), 0);
	ck_assert_uint_eq(tt_app_pane(u->a)->nrows, 8);
	ck_assert_int_ge(find_row(u, "    2 "), 0);
	ui_free(u);
}
END_TEST

START_TEST(answers_on_screen)
{
	/* the four questions of the explorer, each answered on one screen */
	struct ui *u = ui_new(demo_model, 120, 30);
	ck_screen_has(u, "straggler: rank 5");
	ui_keys(u, "4");
	ck_screen_has(u, "most time: ncclDevKernel_AllReduce");
	ck_assert(head_has(u, "on 8 ranks; most on rank 1 (273 ms), least on rank 5 (15.8 ms)"));
	ui_keys(u, "5");
	ck_screen_has(u, "of communication time overlaps computation");
	ui_keys(u, "3");
	ck_screen_has(u, "largest gap: rank 5 stream 20");
	ui_free(u);
}
END_TEST

/* Lines above a table wrap by display columns: a kernel named in CJK
 * (two columns a character) in the Kernels pane's "most time" line shows to
 * its last character, and no screen row is wider than the screen. */
START_TEST(head_lines_wrap_wide_characters)
{
	/* 30 characters of 3 bytes and 2 columns each, the last one distinct */
	char name[128] = "";
	for (int i = 0; i < 29; i++)
		strcat(name, "\xE6\xA0\xB8"); /* 核 */
	strcat(name, "\xE5\xB0\xBE");         /* 尾 */
	char json[1024];
	snprintf(json, sizeof(json),
		 "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\","
		 "\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":100,\"args\":{\"stream\":7}}]}",
		 name);
	struct tt_model *m = tl_load_json1(json);
	struct ui *u = ui_new(m, 60, 24);
	ui_keys(u, "4");
	ck_assert(on_screen(u, "most time:"));
	ck_assert_msg(on_screen(u, "\xE5\xB0\xBE"), "the name's last character is not shown");
	for (int y = 0; y < 24; y++)
		ck_assert_int_le((int)tt_utf8_width(row(u, y)), 60);
	ui_free(u);
	tt_model_free(m);
}
END_TEST

/* ---- main ---- */

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	Suite *s = suite_create("ui");
	TCase *tc = tcase_create("panes");
	tcase_add_unchecked_fixture(tc, setup_demo, teardown_demo);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, overview_demo);
	tcase_add_test(tc, head_lines_wrap_wide_characters);
	tcase_add_test(tc, title_bar_short_names);
	tcase_add_test(tc, every_pane_by_key);
	tcase_add_test(tc, bars_proportional);
	tcase_add_test(tc, sort_keys);
	tcase_add_test(tc, sort_sizes);
	tcase_add_test(tc, filter_keys);
	tcase_add_test(tc, drill_and_back);
	tcase_add_test(tc, rank_keys);
	tcase_add_test(tc, write_csv);
	tcase_add_test(tc, help_lists_bindings);
	tcase_add_test(tc, status_messages);
	tcase_add_test(tc, columns_cut_off);
	tcase_add_test(tc, warnings_pane);
	tcase_add_test(tc, head_lines_wrap);
	tcase_add_test(tc, answers_on_screen);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
