/* The timeline of the whole job, headless on generated jobs: a summary row
 * per rank on one time axis, folding, groups of ranks when they do not fit
 * (every rank on exactly one row, in order), each group cell the worst of
 * its ranks' cells, the planted stragglers on rows of their own, z, R, J/K,
 * a jump to a rank, a search that unfolds its match, and the range of every
 * rank. */
#include "config.h"

#include "uitest.h"

static struct tt_model *job64;

/* 64 ranks of the demo's size for such a job (235,000 events: enough for
 * the search and the summary rows' cells to run on several threads); its
 * stragglers are planted at rank 5 (a slow host), 35 (a slow GPU) and 58
 * (a slow link) (tracetop/demo.h) */
static void setup_job(void)
{
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	tt_demo_set_ranks(&d, 64);
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	ck_assert_int_eq(tt_demo_load(&d, &lo, &job64), 0);
}

static void teardown_job(void)
{
	tt_model_free(job64);
	job64 = NULL;
}

/* the label of screen row y ("+ r0-4 worst"), without the cursor marker */
static const char *label_of(struct ui *u, int y, char *buf, size_t n)
{
	const char *l = row(u, y);
	const char *bar = strchr(l, '|');
	size_t k = bar ? (size_t)(bar - l) : strlen(l);
	snprintf(buf, n, "%.*s", (int)(k ? k - 1 : 0), l + (k ? 1 : 0));
	size_t e = strlen(buf);
	while (e > 0 && buf[e - 1] == ' ')
		buf[--e] = '\0';
	return buf;
}

/* the ranks a summary or group label stands for: "+ r10-14 worst" -> 10, 14 */
static bool label_ranks(const char *lab, long *a, long *b)
{
	const char *r = strstr(lab, "r");
	if (!r || r[1] < '0' || r[1] > '9')
		return false;
	char *end;
	*a = strtol(r + 1, &end, 10);
	*b = *end == '-' ? strtol(end + 1, NULL, 10) : *a;
	return true;
}

/* the first row of the timeline's rows (below the window line) */
static int first_row(struct ui *u)
{
	int y = find_row(u, " window ");
	ck_assert_int_ge(y, 0);
	return y + 1;
}

/* worst first, as tt_rcell_severity orders the classes */
static int glyph_rank(char c)
{
	static const char order[] = ".-*=+~ro#";
	const char *p = strchr(order, c);
	return p ? (int)(p - order) : 99;
}

START_TEST(groups_cover_every_rank)
{
	struct ui *u = ui_new(job64, 80, 24);
	ui_keys(u, "9");
	ck_screen_has(u, "Timeline: all 64 ranks (0-63), up to ");
	ck_screen_has(u, "a row by their worst");
	int y0 = first_row(u), nrows = 0;
	long next = 0;
	bool seen5 = false, seen35 = false, seen58 = false;
	char lab[128];
	for (int y = y0; y < u->g.h - 2; y++) {
		label_of(u, y, lab, sizeof(lab));
		long a, b;
		if (!label_ranks(lab, &a, &b))
			break;
		/* in rank order, none left out, none twice */
		ck_assert_msg(a == next, "row '%s' after rank %ld", lab, next - 1);
		ck_assert_int_ge(b, a);
		next = b + 1;
		nrows++;
		/* the planted stragglers: rows of their own, marked with the
		 * metric they stand out in */
		if (a == 5) {
			ck_assert_int_eq(b, 5);
			ck_assert_str_eq(lab, "+ r5 ! idle");
			seen5 = true;
		}
		if (a == 35) {
			ck_assert_int_eq(b, 35);
			ck_assert_str_eq(lab, "+ r35 ! comm");
			seen35 = true;
		}
		if (a == 58) {
			ck_assert_int_eq(b, 58);
			ck_assert_str_eq(lab, "+ r58 ! transfer");
			seen58 = true;
		}
	}
	ck_assert_int_eq(next, 64);
	ck_assert(seen5 && seen35 && seen58);
	/* the rows fill the screen and no more: 16 rows at 80x24 */
	ck_assert_int_eq(nrows, 16);
	ck_screen_has(u, "rows 1-16 of 16");
	ui_free(u);
}
END_TEST

START_TEST(group_cell_is_the_worst)
{
	struct ui *u = ui_new(job64, 80, 24);
	ui_keys(u, "9");
	/* the first group row: its cells, then its ranks unfolded below it */
	int y0 = first_row(u);
	char lab[128], grp[256];
	long a, b;
	label_ranks(label_of(u, y0, lab, sizeof(lab)), &a, &b);
	ck_assert_int_gt(b, a);
	int x = cell_x(u, y0, "|") + 1;
	ck_assert_int_gt(x, 0);
	snprintf(grp, sizeof(grp), "%s", row(u, y0) + x);
	/* the cursor line counts the ranks in its cell */
	char want[64];
	snprintf(want, sizeof(want), "r%ld-%ld worst:", a, b);
	ck_screen_has(u, want);
	ui_keys(u, "<Enter>");
	ck_assert(strstr(row(u, y0), "- r") != NULL);
	size_t n = (size_t)(b - a + 1), compared = 0;
	int w = (int)strlen(grp);
	for (int k = 0; k < w; k++) {
		int worst = 99;
		for (size_t i = 0; i < n; i++) {
			const char *l = row(u, y0 + 1 + (int)i);
			ck_assert_msg(strstr(l, " r") != NULL, "no rank row: %s", l);
			worst = TT_MIN(worst, glyph_rank(l[x + k]));
		}
		ck_assert_msg(glyph_rank(grp[k]) == worst, "cell %d: group '%c', worst of its ranks %d",
			      k, grp[k], worst);
		compared++;
	}
	ck_assert_uint_ge(compared, 50);
	/* Enter on the group again folds it */
	ui_keys(u, "<Enter>");
	ck_assert(strstr(row(u, y0), "+ r") != NULL);
	ui_free(u);
}
END_TEST

START_TEST(group_modes_and_rows)
{
	struct ui *u = ui_new(job64, 80, 24);
	ui_keys(u, "9z");
	ck_screen_has(u, "a row by their mean");
	ck_assert(strstr(u->a->status, "mean") != NULL);
	char lab[128];
	ck_assert(strstr(label_of(u, first_row(u), lab, sizeof(lab)), " mean") != NULL);
	/* z again: a row per rank, scrolling */
	ui_keys(u, "z");
	ck_screen_has(u, "Timeline: all 64 ranks (0-63)");
	ck_assert(!on_screen(u, "a row by their"));
	ck_screen_has(u, "of 64");
	ck_assert_str_eq(label_of(u, first_row(u), lab, sizeof(lab)), "+ r0 2 streams");
	/* J/K by rank: one row each */
	ui_keys(u, "JJJ");
	ck_assert(strstr(row(u, first_row(u) + 3), ">+ r3 ") == row(u, first_row(u) + 3));
	ui_keys(u, "K");
	ck_assert(strstr(row(u, first_row(u) + 2), ">+ r2 ") == row(u, first_row(u) + 2));
	/* R: the GPU streams of every rank, then every stream and thread */
	ui_keys(u, "R");
	ck_screen_has(u, ">r2 GPU 2 stream 7");
	ck_screen_has(u, "r3 GPU 3 stream 20");
	ck_assert(!on_screen(u, "r2 thread"));
	ui_keys(u, "R");
	ck_screen_has(u, ">r2 GPU 2 stream 7");
	ck_screen_has(u, "r2 thread");
	/* back to summaries, grouped again */
	ui_keys(u, "Rz");
	ck_screen_has(u, "a row by their worst");
	ui_free(u);
}
END_TEST

START_TEST(jump_and_search_unfold)
{
	struct ui *u = ui_new(job64, 80, 24);
	ui_keys(u, "9:rank 40<Enter>");
	/* rank 40's group unfolded, the cursor on its row */
	ck_screen_has(u, "> + r40 2 streams");
	ck_assert(strstr(u->a->status, "rank 40") != NULL);
	ui_keys(u, ":r99<Enter>");
	ck_assert(strstr(u->a->status, "rank 99 is not shown") != NULL);
	/* o on a rank inside a group folds the group */
	ui_keys(u, "o");
	ck_assert(!on_screen(u, "r40 2 streams"));
	ck_assert(strstr(u->a->status, "folded") != NULL);
	/* a search finds every rank's kernels; its match unfolds the group and
	 * the rank */
	ui_keys(u, "g:rank 0<Enter>/ncclDevKernel<Enter>");
	ck_assert(strstr(u->a->status, "match 1/") != NULL);
	/* (the first in time after the cursor: some rank's NCCL stream) */
	int y = find_row(u, ">r");
	ck_assert_int_ge(y, 0);
	long rank = strtol(row(u, y) + 2, NULL, 10);
	char want[64];
	snprintf(want, sizeof(want), ">r%ld GPU %ld stream 20", rank, rank);
	ck_screen_has(u, want);
	snprintf(want, sizeof(want), "- r%ld 2 streams", rank);
	ck_screen_has(u, want);
	ui_free(u);
}
END_TEST

/* A wide screen: every rank's summary computed on several threads (the
 * work is over the threshold), then a search over every rank, also on
 * several threads; the same screens as on one thread. */
START_TEST(wide_and_threaded)
{
	struct ui *u = ui_new(job64, 200, 50);
	ui_keys(u, "9");
	ck_screen_has(u, "Timeline: all 64 ranks (0-63), up to 2 a row by their worst");
	ck_screen_has(u, "+ r5 ! idle");
	char *wide = strdup(screen(u));
	/* the same cells again from the kept ones (j moves, k back) */
	ui_keys(u, "jk");
	ck_assert_str_eq(screen(u), wide);
	free(wide);
	ui_keys(u, "/ncclDevKernel<Enter>");
	ck_assert_ptr_nonnull(strstr(u->a->status, "match 1/"));
	/* every one of them, counted here over the model's events */
	size_t want = 0;
	for (size_t i = 0; i < job64->nranks; i++) {
		const struct tt_rank *r = job64->ranks[i];
		for (uint32_t e = 0; e < r->nev; e++)
			if (!(r->ev[e].flags & TT_EF_MARKER) &&
			    (r->tracks[r->ev[e].track].kind == TT_TRACK_GPU ||
			     r->tracks[r->ev[e].track].kind == TT_TRACK_CPU) &&
			    strstr(tt_ev_name(r, &r->ev[e]), "ncclDevKernel"))
				want++;
	}
	ck_assert_uint_gt(want, 64);
	char nb[32];
	snprintf(nb, sizeof(nb), "/%zu,%03zu ", want / 1000, want % 1000);
	if (want < 1000)
		snprintf(nb, sizeof(nb), "/%zu ", want);
	ck_assert_msg(strstr(u->a->status, nb) != NULL, "status '%s', not %s", u->a->status, nb);
	ui_free(u);
}
END_TEST

START_TEST(range_of_every_rank)
{
	struct ui *u = ui_new(job64, 100, 30);
	ui_keys(u, "9mGA");
	ck_screen_has(u, "range: by rank (Tab: by name)");
	struct tt_pane *p = tt_app_pane(u->a);
	ck_assert_ptr_nonnull(p->table);
	ck_assert_uint_eq(p->table->nrows, 64);
	ck_screen_has(u, "64 ranks: kernel time");
	ui_free(u);
}
END_TEST

/* ---- a collective lined up ---- */

/* Two ranks, one all-reduce of process group 0: rank 0 enters it at 0 ms
 * (its kernel runs 12 ms: 10 waiting, 2 moving data), rank 1 at 10 ms (2 ms);
 * both end at 12 ms.  Times after the job's origin at 1 s. */
#define AR(rank, ts, dur)                                                                      \
	"{\"distributedInfo\":{\"rank\":" rank ",\"world_size\":2},\"traceEvents\":["       \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_fwd\",\"pid\":0,\"tid\":7,"     \
	"\"ts\":999000,\"dur\":500,\"args\":{\"device\":" rank ",\"stream\":7,"             \
	"\"correlation\":1}},"                                                                   \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\"," \
	"\"pid\":0,\"tid\":20,\"ts\":" ts ",\"dur\":" dur ",\"args\":{\"device\":" rank        \
	",\"stream\":20,\"correlation\":2,\"Collective name\":\"allreduce\","                 \
	"\"Process Group Name\":\"0\",\"Process Group Ranks\":\"[0, 1]\",\"Group size\":2,"  \
	"\"In msg nelems\":1024,\"Out msg nelems\":1024,\"dtype\":\"Float\"}}]}"

static struct tt_model *load_two(void)
{
	static const char r0[] = AR("0", "1000000", "12000");
	static const char r1[] = AR("1", "1010000", "2000");
	const char *names[] = {"rank0.json", "rank1.json"};
	const void *data[] = {r0, r1};
	size_t lens[] = {strlen(r0), strlen(r1)};
	struct tt_load_opts o = {0};
	o.threads = 1;
	struct tt_model *m = NULL;
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, lens, 2, &o), 0);
	return m;
}

/* the cells of screen row y drawn with role */
static int role_cells(struct ui *u, int y, enum tt_role role)
{
	int n = 0;
	for (int x = 0; x < u->g.w; x++)
		n += tt_grid_at(&u->g, x, y)->role == role;
	return n;
}

START_TEST(late_rank_named)
{
	struct tt_model *m = load_two();
	struct ui *u = ui_new(m, 80, 24);
	ui_keys(u, "9<Enter>jj<Tab>");
	/* rank 0's all-reduce selected: the collective, who came last and the
	 * others' wait */
	ck_screen_has(u, ">r0 GPU 0 stream 20");
	ck_screen_has(u, "allreduce #0 of pg 0: ncclDevKernel_AllReduce");
	ck_screen_has(u, "rank 1 arrived 10.0 ms after the first; 1 rank waited 10.0 ms on average");
	/* marked on both ranks: rank 0's stream, rank 1's folded summary row,
	 * and the last arrival across them */
	int y0 = find_row(u, ">r0 GPU 0 stream 20"), y1 = find_row(u, "+ r1 2 streams");
	ck_assert_int_ge(y0, 0);
	ck_assert_int_ge(y1, 0);
	ck_assert_int_gt(role_cells(u, y0, TT_ROLE_TL_COLL) + role_cells(u, y0, TT_ROLE_TL_MARK), 10);
	ck_assert_int_gt(role_cells(u, y1, TT_ROLE_TL_COLL), 0);
	ck_assert_int_eq(role_cells(u, y1, TT_ROLE_TL_MARK), 1);
	/* w: to the rank that arrived last, its rank unfolded */
	ui_keys(u, "w");
	ck_screen_has(u, ">r1 GPU 0 stream 20");
	ck_assert_ptr_nonnull(strstr(u->a->status, "rank 1 arrived last at allreduce #0 of pg 0"));
	ui_keys(u, "w");
	ck_assert_ptr_nonnull(strstr(u->a->status, "rank 1 (this one) arrived last"));
	/* Esc: back to rank 0's kernel */
	ui_keys(u, "<Escape>");
	ck_screen_has(u, ">r0 GPU 0 stream 20");
	/* on a compute kernel: no collective, and w says what it needs */
	ui_keys(u, "k<Tab>w");
	ck_assert(!on_screen(u, "allreduce #0"));
	ck_assert_ptr_nonnull(strstr(u->a->status, "on a communication kernel"));
	ui_free(u);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	tt_render_set_ascii(true); /* (the fold glyphs + -, the separator |) */
	Suite *s = suite_create("job timeline");
	TCase *tc = tcase_create("job");
	tcase_add_unchecked_fixture(tc, setup_job, teardown_job);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, groups_cover_every_rank);
	tcase_add_test(tc, group_cell_is_the_worst);
	tcase_add_test(tc, group_modes_and_rows);
	tcase_add_test(tc, jump_and_search_unfold);
	tcase_add_test(tc, range_of_every_rank);
	tcase_add_test(tc, wide_and_threaded);
	suite_add_tcase(s, tc);
	TCase *tc2 = tcase_create("collective");
	tcase_add_test(tc2, late_rank_named);
	suite_add_tcase(s, tc2);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
