/* analysis room: the trace diff by time -- every common step and rank
 * pair, per-step means and spreads, the time verdict against the
 * threshold, the step and rank tables, the headline -- on tiny hand-made
 * traces.  Every expected number is worked out by hand in the comment
 * above it (µs in the traces, ns in the model). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/diffinst.h"
#include "tracetop/drill.h"
#include "tracetop/report.h"

#define US 1000 /* ns */

static struct tt_model *load(const char *const *texts, const char *const *names, size_t n)
{
	const void *data[4];
	size_t lens[4];
	for (size_t i = 0; i < n; i++) {
		data[i] = texts[i];
		lens[i] = strlen(texts[i]);
	}
	struct tt_model *m = NULL;
	int rc = tt_model_load_mem(&m, names, data, lens, n, NULL);
	ck_assert_msg(rc == 0, "load failed: %s", m && m->nfailures ? m->failures[0].err.msg : "?");
	ck_assert_uint_eq(m->nranks, n);
	return m;
}

#define OP(name, ts, dur)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts \
	",\"dur\":" #dur "}"
#define STEP(n, ts, dur)                                                                     \
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" #n "\",\"pid\":1," \
	"\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"
#define LAUNCH(ts, dur, corr)                                                                \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"      \
	"\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
#define KERNEL(name, ts, dur, corr)                                                          \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts \
	",\"dur\":" #dur ",\"args\":{\"stream\":7,\"correlation\":" #corr "}}"
#define HEAD(rank) "{\"distributedInfo\": {\"rank\": " #rank "}, \"traceEvents\": ["
#define TAIL "]}"

/* control, rank r:
 *   step 1   0-100: A 10-30 (20); launch 40-45 corr 1 -> gemm 50-80 (30)
 *   step 2 100-200: A 110-130 (20); launch 140-145 corr 2 -> gemm 150-180 (30)
 * test, rank r:
 *   step 1   0-150: A 10-40 (30), A 50-60 (10); launch 70-75 -> gemm 80-110 (30)
 *   step 2 150-260: A 160-200 (40); launch 210-215 -> gemm 220-250 (30)
 *   step 3 260-300: A 270-280 (10)  (the control has no step 3)
 * Common steps 1 and 2: two samples a side.
 *   name             control samples   test samples   means (µs)      sd test
 *   ProfilerStep#*   100, 100          150, 110       100 -> 130      28.28
 *   A                20 (1), 20 (1)    40 (2), 40 (1) 20 -> 40        0
 *   cudaLaunchKernel 5, 5              5, 5           5 -> 5
 *   gemm             30, 30            30, 30         30 -> 30
 * per step: step 1 100 -> 150, busy 30 -> 30, idle 70 -> 120;
 *           step 2 100 -> 110, idle 70 -> 80. */
#define CONTROL_EVENTS                                                                       \
	STEP(1, 0, 100) "," OP("A", 10, 20) "," LAUNCH(40, 5, 1) "," KERNEL("gemm", 50, 30, 1)  \
	"," STEP(2, 100, 100) "," OP("A", 110, 20) "," LAUNCH(140, 5, 2) ","                   \
	KERNEL("gemm", 150, 30, 2)
#define TEST_EVENTS                                                                          \
	STEP(1, 0, 150) "," OP("A", 10, 30) "," OP("A", 50, 10) "," LAUNCH(70, 5, 1) ","        \
	KERNEL("gemm", 80, 30, 1) "," STEP(2, 150, 110) "," OP("A", 160, 40) ","               \
	LAUNCH(210, 5, 2) "," KERNEL("gemm", 220, 30, 2) "," STEP(3, 260, 40) ","              \
	OP("A", 270, 10)

static const char control0[] = HEAD(0) CONTROL_EVENTS TAIL;
static const char control1[] = HEAD(1) CONTROL_EVENTS TAIL;
static const char test0[] = HEAD(0) TEST_EVENTS TAIL;
static const char test1[] = HEAD(1) TEST_EVENTS TAIL;
static const char test5[] = HEAD(5) TEST_EVENTS TAIL;

static const struct tt_diff_row *row(const struct tt_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	ck_abort_msg("no row %s", name);
	return NULL;
}

static void near(double got, double want)
{
	ck_assert_msg(fabs(got - want) < 1e-6 * fmax(1, fabs(want)), "%.9g, expected %.9g", got,
		      want);
}

START_TEST(verdict_against_threshold)
{
	/* 5 % of 100 µs is 5 µs: exactly 5 µs more is not slower */
	ck_assert_int_eq(tt_diff_judge(100 * US, 105 * US, 0.05, 0), TT_DIFF_SAME);
	ck_assert_int_eq(tt_diff_judge(100 * US, 105 * US + 1, 0.05, 0), TT_DIFF_SLOWER);
	ck_assert_int_eq(tt_diff_judge(100 * US, 95 * US, 0.05, 0), TT_DIFF_SAME);
	ck_assert_int_eq(tt_diff_judge(100 * US, 95 * US - 1, 0.05, 0), TT_DIFF_FASTER);
	/* the floor: +40 % but only 40 µs, under a 50 µs floor */
	ck_assert_int_eq(tt_diff_judge(100 * US, 140 * US, 0.05, 50 * US), TT_DIFF_SAME);
	ck_assert_int_eq(tt_diff_judge(100 * US, 151 * US, 0.05, 50 * US), TT_DIFF_SLOWER);
	/* the percentage wins above the floor: 10 ms -> 10.4 ms is 4 % */
	ck_assert_int_eq(tt_diff_judge(10000 * US, 10400 * US, 0.05, 50 * US), TT_DIFF_SAME);
	ck_assert_int_eq(tt_diff_judge(10000 * US, 10600 * US, 0.05, 50 * US), TT_DIFF_SLOWER);
	/* new (control 0): only the floor decides */
	ck_assert_int_eq(tt_diff_judge(0, 49 * US, 0.05, 50 * US), TT_DIFF_SAME);
	ck_assert_int_eq(tt_diff_judge(0, 51 * US, 0.05, 50 * US), TT_DIFF_SLOWER);
	ck_assert_int_eq(tt_diff_judge(60 * US, 0, 0.05, 50 * US), TT_DIFF_FASTER);
	ck_assert_int_eq(tt_diff_judge(NAN, 1, 0.05, 0), TT_DIFF_SAME);
	/* zero rule: any change counts */
	ck_assert_int_eq(tt_diff_judge(100, 101, 0, 0), TT_DIFF_SLOWER);
	ck_assert_str_eq(tt_diff_verdict_name(TT_DIFF_SLOWER), "slower");
	ck_assert_str_eq(tt_diff_verdict_name(TT_DIFF_FASTER), "faster");
	ck_assert_str_eq(tt_diff_verdict_name(TT_DIFF_SAME), "unchanged");
}
END_TEST

START_TEST(common_steps_means_and_spread)
{
	const char *n0[] = {"control/rank0.json"}, *n1[] = {"test/rank0.json"};
	const char *c[] = {control0}, *t[] = {test0};
	struct tt_model *a = load(c, n0, 1), *b = load(t, n1, 1);
	struct tt_diff_opts o;
	tt_diff_opts_init(&o);
	ck_assert_int_eq(o.iteration, TT_DIFF_COMMON);
	o.floor_ns = 0;
	struct tt_diff d;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.nsamples, 2);
	ck_assert_uint_eq(d.nranks, 1);
	ck_assert(!d.ranks_by_order);
	ck_assert(!d.steps_by_order);
	ck_assert_int_eq(d.side[0].iteration, 1);
	ck_assert_uint_eq(d.n, 4);
	const struct tt_diff_row *w = row(&d, "ProfilerStep#*");
	ck_assert_int_eq(w->count[0], 2);
	ck_assert_int_eq(w->dur[1], 260 * US);
	near(w->mean[0], 100 * US);
	near(w->mean[1], 130 * US);
	near(w->sd[0], 0);
	near(w->sd[1], sqrt(800.0) * US); /* (20² + 20²) / (2 - 1) */
	ck_assert_int_eq(w->verdict, TT_DIFF_SLOWER);
	w = row(&d, "A");
	near(w->mean[0], 20 * US);
	near(w->mean[1], 40 * US);
	near(w->sd[1], 0);
	near(w->cmean[0], 1);
	near(w->cmean[1], 1.5);
	near(w->dmean, 20 * US);
	ck_assert_int_eq(w->sign, '+');
	ck_assert_int_eq(w->change, TT_DIFF_INCREASED);
	ck_assert_int_eq(w->verdict, TT_DIFF_SLOWER);
	w = row(&d, "gemm");
	near(w->dmean, 0);
	ck_assert_int_eq(w->verdict, TT_DIFF_SAME);
	ck_assert_uint_eq(d.nverdict[TT_DIFF_SLOWER], 2);
	ck_assert_uint_eq(d.nverdict[TT_DIFF_SAME], 2);

	/* the steps: 1 and 2 */
	ck_assert_uint_eq(d.nsteps, 2);
	ck_assert_int_eq(d.steps[0].num[0], 1);
	ck_assert_int_eq(d.steps[1].num[1], 2);
	near(d.steps[0].v[0][TT_DM_STEP], 100 * US);
	near(d.steps[0].v[1][TT_DM_STEP], 150 * US);
	near(d.steps[0].v[1][TT_DM_BUSY], 30 * US);
	near(d.steps[0].v[1][TT_DM_COMP], 30 * US);
	near(d.steps[0].v[1][TT_DM_IDLE], 120 * US);
	near(d.steps[1].v[1][TT_DM_IDLE], 80 * US);
	ck_assert_int_eq(d.steps[0].verdict[TT_DM_STEP], TT_DIFF_SLOWER);
	ck_assert_int_eq(d.steps[1].verdict[TT_DM_STEP], TT_DIFF_SLOWER); /* +10 % */
	/* the rank pair: per-step means */
	near(d.ranks[0].v[0][TT_DM_STEP], 100 * US);
	near(d.ranks[0].v[1][TT_DM_STEP], 130 * US);
	near(d.ranks[0].v[1][TT_DM_IDLE], 100 * US);
	/* the headline: +30 µs per step, A the row that grew most, step 1 */
	ck_assert(d.head.steps);
	ck_assert_int_eq(d.head.verdict, TT_DIFF_SLOWER);
	ck_assert_uint_eq(d.head.ntop, 1);
	ck_assert_str_eq(d.rows[d.head.top[0]].name, "A");
	ck_assert_uint_eq(d.head.slowest_step, 0);
	char buf[300];
	tt_diff_headline_text(&d, "Control", "Test", buf, sizeof(buf));
	ck_assert_str_eq(buf, "Test is 30.0 µs (+30 %) slower per step; most of it: A +20.0 µs, "
			      "1 → 1.5 calls; step 1 +50.0 µs");
	tt_diff_free(&d);

	/* the default floor (50 µs a step): +30 µs is no change, nor is A */
	tt_diff_opts_init(&o);
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_int_eq(row(&d, "ProfilerStep#*")->verdict, TT_DIFF_SAME);
	ck_assert_int_eq(row(&d, "A")->verdict, TT_DIFF_SAME);
	ck_assert_int_eq(d.head.verdict, TT_DIFF_SAME);
	ck_assert_int_eq(d.steps[0].verdict[TT_DM_STEP], TT_DIFF_SAME); /* +50 µs: not more */
	tt_diff_headline_text(&d, "Control", "Test", buf, sizeof(buf));
	ck_assert_str_eq(buf, "Test's time per step is unchanged (130 µs vs 100 µs: within 5 % or "
			      "50.0 µs)");
	tt_diff_free(&d);

	/* HTA's one step: ProfilerStep#2 alone, names as they are */
	o.iteration = 2;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.nsamples, 1);
	ck_assert_int_eq(row(&d, "ProfilerStep#2")->dur[1], 110 * US);
	ck_assert_int_eq(row(&d, "A")->count[1], 1);
	near(row(&d, "A")->mean[1], 40 * US);
	tt_diff_free(&d);
	/* step 3: the control has none (HTA raises) */
	o.iteration = 3;
	struct tt_err err;
	tt_err_clear(&err);
	ck_assert_int_eq(tt_diff(&d, a, b, &o, &err), -TT_E_USAGE);
	ck_assert_msg(strstr(err.msg, "control side has no ProfilerStep#3"), "%s", err.msg);
	tt_diff_free(&d);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

/* ranks 0, 1 against ranks 1, 5: rank 1 is on both sides, so it alone is
 * compared; --map 0:5 picks another pair; against rank 5 alone there is
 * no rank number in common, so the ranks pair in order. */
START_TEST(rank_pairs)
{
	const char *na[] = {"c/rank0.json", "c/rank1.json"}, *nb[] = {"t/rank1.json", "t/rank5.json"};
	const char *ca[] = {control0, control1}, *tb[] = {test1, test5};
	struct tt_model *a = load(ca, na, 2), *b = load(tb, nb, 2);
	struct tt_diff_opts o;
	tt_diff_opts_init(&o);
	struct tt_diff d;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.nranks, 1);
	ck_assert_int_eq(d.ranks[0].rank[0], 1);
	ck_assert_int_eq(d.ranks[0].rank[1], 1);
	ck_assert_uint_eq(d.side[0].unpaired, 1);
	ck_assert_uint_eq(d.side[1].unpaired, 1);
	ck_assert(!d.ranks_by_order);
	tt_diff_free(&d);

	struct tt_diff_pair *map;
	size_t nmap;
	char msg[200];
	ck_assert_int_eq(tt_diff_map_parse("0:5,1:1", &map, &nmap, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(nmap, 2);
	o.map = map;
	o.nmap = nmap;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.nranks, 2);
	ck_assert_int_eq(d.ranks[0].rank[0], 0);
	ck_assert_int_eq(d.ranks[0].rank[1], 5);
	ck_assert_uint_eq(d.nsamples, 4);
	/* both pairs alike: the same means as one pair */
	near(row(&d, "A")->mean[1], 40 * US);
	tt_diff_free(&d);
	free(map);
	/* a rank the test side lacks */
	ck_assert_int_eq(tt_diff_map_parse("0:7", &map, &nmap, msg, sizeof(msg)), 0);
	o.map = map;
	o.nmap = nmap;
	struct tt_err err;
	tt_err_clear(&err);
	ck_assert_int_eq(tt_diff(&d, a, b, &o, &err), -TT_E_USAGE);
	ck_assert_msg(strstr(err.msg, "test side has no rank 7"), "%s", err.msg);
	tt_diff_free(&d);
	free(map);
	ck_assert_int_eq(tt_diff_map_parse("0:", &map, &nmap, msg, sizeof(msg)), -1);
	ck_assert_int_eq(tt_diff_map_parse("1:2,", &map, &nmap, msg, sizeof(msg)), -1);
	ck_assert_int_eq(tt_diff_map_parse("", &map, &nmap, msg, sizeof(msg)), -1);

	/* no rank number in common: in order */
	const char *nc[] = {"t/rank5.json"}, *tc[] = {test5};
	struct tt_model *c = load(tc, nc, 1);
	tt_diff_opts_init(&o);
	ck_assert_int_eq(tt_diff(&d, a, c, &o, NULL), 0);
	ck_assert(d.ranks_by_order);
	ck_assert_uint_eq(d.nranks, 1);
	ck_assert_int_eq(d.ranks[0].rank[0], 0);
	ck_assert_int_eq(d.ranks[0].rank[1], 5);
	tt_diff_free(&d);
	/* HTA's default: each side's smallest rank, its first step */
	o.iteration = TT_DIFF_FIRST;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert_uint_eq(d.nranks, 1);
	ck_assert_int_eq(d.side[0].first_rank, 0);
	ck_assert_int_eq(d.side[1].first_rank, 1);
	ck_assert_int_eq(row(&d, "ProfilerStep#1")->dur[1], 150 * US);
	tt_diff_free(&d);
	/* the pairs of every rank, whatever the iteration and ranks asked:
	 * 1 with 1; 0 with 5 in order; a map's */
	struct tt_diff_pair *pv;
	size_t np;
	int64_t one = 1;
	o.ranks = &one;
	o.nranks = 1;
	ck_assert_int_eq(tt_diff_pairs(a, b, &o, &pv, &np, NULL), 0);
	ck_assert_uint_eq(np, 1);
	ck_assert_int_eq(pv[0].a, 1);
	ck_assert_int_eq(pv[0].b, 1);
	free(pv);
	tt_diff_opts_init(&o);
	ck_assert_int_eq(tt_diff_pairs(a, c, &o, &pv, &np, NULL), 0);
	ck_assert_uint_eq(np, 1);
	ck_assert_int_eq(pv[0].a, 0);
	ck_assert_int_eq(pv[0].b, 5);
	free(pv);
	ck_assert_int_eq(tt_diff_map_parse("1:5,0:1", &map, &nmap, msg, sizeof(msg)), 0);
	o.map = map;
	o.nmap = nmap;
	ck_assert_int_eq(tt_diff_pairs(a, b, &o, &pv, &np, NULL), 0);
	ck_assert_uint_eq(np, 2);
	ck_assert_int_eq(pv[0].a, 1);
	ck_assert_int_eq(pv[0].b, 5);
	ck_assert_int_eq(pv[1].b, 1);
	free(pv);
	free(map);
	tt_model_free(a);
	tt_model_free(b);
	tt_model_free(c);
}
END_TEST

/* Step numbers that differ (control 1, 2; test 7, 8): paired in order. */
START_TEST(steps_in_order)
{
	static const char later[] = HEAD(0) STEP(7, 0, 150) "," OP("A", 10, 30) ","
		STEP(8, 150, 110) "," OP("A", 160, 40) TAIL;
	const char *n0[] = {"c/rank0.json"}, *n1[] = {"t/rank0.json"};
	const char *c[] = {control0}, *t[] = {later};
	struct tt_model *a = load(c, n0, 1), *b = load(t, n1, 1);
	struct tt_diff_opts o;
	tt_diff_opts_init(&o);
	struct tt_diff d;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	ck_assert(d.steps_by_order);
	ck_assert_uint_eq(d.nsteps, 2);
	ck_assert_int_eq(d.steps[0].num[0], 1);
	ck_assert_int_eq(d.steps[0].num[1], 7);
	ck_assert_int_eq(d.steps[1].num[1], 8);
	/* one step row despite the different numbers */
	near(row(&d, "ProfilerStep#*")->mean[1], 130 * US);
	tt_diff_free(&d);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

/* The report's tables carry the result's numbers: the steps with the
 * headline as title, HTA's columns plus the per-step ones. */
START_TEST(report_tables)
{
	const char *n0[] = {"control/rank0.json"}, *n1[] = {"test/rank0.json"};
	const char *c[] = {control0}, *t[] = {test0};
	struct tt_model *a = load(c, n0, 1), *b = load(t, n1, 1);
	struct tt_report_opts ro;
	tt_report_opts_init(&ro);
	ro.format = TT_FMT_CSV;
	ro.diff_floor_ns = 0;
	struct tt_table **tab;
	size_t n;
	ck_assert_int_eq(tt_report_build("diff", a, b, &ro, &tab, &n, NULL), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(tab[0]->name, "diff_steps");
	ck_assert_str_eq(tab[1]->name, "diff_ranks");
	ck_assert_str_eq(tab[2]->name, "compare_traces");
	ck_assert_str_eq(tab[3]->name, "ops_diff");
	ck_assert(strncmp(tab[0]->title, "Test is 30.0 µs (+30 %) slower per step", 39) == 0);
	ck_assert_uint_eq(tab[0]->nrows, 2);
	int sc = tt_table_col(tab[0], "Test_step_time"), vc = tt_table_col(tab[0], "time_change");
	ck_assert_int_ge(sc, 0);
	near(tt_cell_num(tt_table_cell(tab[0], 0, sc)), 150 * US);
	ck_assert_str_eq(tt_table_cell(tab[0], 0, vc)->v.s, "slower");
	const struct tt_table *ct = tab[2];
	ck_assert_int_eq(tt_table_col(ct, "name"), 0);
	ck_assert_int_eq(tt_table_col(ct, "Control_counts"), 1);
	ck_assert_int_eq(tt_table_col(ct, "Test_total_duration"), 4);
	ck_assert_int_eq(tt_table_col(ct, "counts_change_categories"), 7);
	int mc = tt_table_col(ct, "Test_per_step"), tc = tt_table_col(ct, "time_change");
	ck_assert_int_ge(mc, 0);
	ck_assert_int_ge(tc, 0);
	/* rows by name: A first */
	ck_assert_str_eq(tt_table_cell(ct, 0, 0)->v.s, "A");
	near(tt_cell_num(tt_table_cell(ct, 0, mc)), 40 * US);
	ck_assert_str_eq(tt_table_cell(ct, 0, tc)->v.s, "slower");
	tt_tables_free(tab, n);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

/* One row's instances on both sides: the events the diff counts for it
 * (the common steps 1 and 2 only: the test's step 3 and its A are left
 * out), longest first, with each side's figures and the histograms.
 *   A: control 20 (step 1), 20 (step 2); test 30, 10 (step 1), 40 (step 2)
 *   sorted: test 40, test 30, control 20, control 20, test 10
 *   control: n 2, total 40, mean 20, median 20, max 20
 *   test: n 3, total 80, mean 26.67, median 30, min 10, max 40
 *   bins from 10 to 40 µs, 3.75 µs each: 10 -> 0, 20 -> 2, 30 -> 5,
 *   40 -> 7 (the last bin holds the longest) */
START_TEST(row_instances)
{
	const char *n0[] = {"control/rank0.json"}, *n1[] = {"test/rank0.json"};
	const char *c[] = {control0}, *t[] = {test0};
	struct tt_model *a = load(c, n0, 1), *b = load(t, n1, 1);
	struct tt_diff_opts o;
	tt_diff_opts_init(&o);
	struct tt_diff d;
	ck_assert_int_eq(tt_diff(&d, a, b, &o, NULL), 0);
	struct tt_dinsts k;
	tt_dinsts_of_row(&d, a, b, "A", &k);
	ck_assert_uint_eq(k.n, 5);
	ck_assert_uint_eq(k.side[0].n, 2);
	ck_assert_uint_eq(k.side[1].n, 3);
	ck_assert_int_eq(k.side[0].total, 40 * US);
	ck_assert_int_eq(k.side[1].total, 80 * US);
	near(k.side[1].mean, 80.0 * US / 3);
	ck_assert_int_eq(k.side[0].median, 20 * US);
	ck_assert_int_eq(k.side[1].median, 30 * US);
	ck_assert_int_eq(k.side[1].min, 10 * US);
	ck_assert_int_eq(k.side[1].max, 40 * US);
	static const int64_t durs[] = {40, 30, 20, 20, 10};
	static const uint8_t sides[] = {1, 1, 0, 0, 1};
	static const int64_t steps[] = {2, 1, 1, 2, 1};
	for (size_t i = 0; i < 5; i++) {
		ck_assert_int_eq(k.v[i].dur, durs[i] * US);
		ck_assert_int_eq(k.v[i].side, sides[i]);
		ck_assert_int_eq(k.v[i].step, steps[i]);
		ck_assert_int_eq(k.v[i].pair_step, steps[i]);
		ck_assert_uint_eq(k.v[i].pair_ri, 0);
		ck_assert_int_eq(k.v[i].rank, 0);
	}
	/* test's A at 160 µs: from the side's first event (the step at 0) */
	ck_assert_int_eq(k.v[0].start, 160 * US);
	ck_assert_int_eq(k.lo, 10 * US);
	ck_assert_int_eq(k.hi, 40 * US);
	ck_assert_int_eq(k.nbins, TT_DI_BINS);
	ck_assert_uint_eq(k.side[0].bins[2], 2);
	ck_assert_uint_eq(k.side[1].bins[0], 1);
	ck_assert_uint_eq(k.side[1].bins[5], 1);
	ck_assert_uint_eq(k.side[1].bins[7], 1);
	near(k.share_max, 1); /* control: both in one bin */
	tt_dinsts_free(&k);
	/* every row: each side's count and total are the row's */
	for (size_t i = 0; i < d.n; i++) {
		tt_dinsts_of_row(&d, a, b, d.rows[i].name, &k);
		for (int s = 0; s < 2; s++) {
			ck_assert_int_eq((int64_t)k.side[s].n, d.rows[i].count[s]);
			ck_assert_int_eq(k.side[s].total, d.rows[i].dur[s]);
		}
		tt_dinsts_free(&k);
	}
	/* a name the diff has not: nothing */
	tt_dinsts_of_row(&d, a, b, "nothing", &k);
	ck_assert_uint_eq(k.n, 0);
	tt_dinsts_free(&k);

	/* the kernel gemm, every instance (exact): two a side, paired by step */
	struct tt_aopts ao = {.exact = true};
	const struct tt_model *m[2] = {a, b};
	const struct tt_aopts *oo[2] = {&ao, &ao};
	tt_dinsts_of_kernel(m, oo, &d, "gemm", &k);
	ck_assert_uint_eq(k.side[0].n, 2);
	ck_assert_uint_eq(k.side[1].n, 2);
	ck_assert_int_eq(k.side[1].total, 60 * US);
	ck_assert_int_eq(k.nbins, 1); /* all 30 µs */
	for (size_t i = 0; i < k.n; i++) {
		ck_assert_int_ge(k.v[i].step, 1);
		ck_assert_int_eq(k.v[i].pair_step, k.v[i].step);
	}
	tt_dinsts_free(&k);
	tt_diff_free(&d);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

/* 227 instances of 10 to 20 µs and one of 500 µs: equal widths put the
 * 227 in one bin, equal ratios spread them over two; each bin holds what
 * its edges say */
START_TEST(histogram_scales)
{
	const int64_t lo = 10000, hi = 500000;
	ck_assert(tt_hist_log(lo, hi));
	ck_assert(!tt_hist_log(lo, 9 * lo));
	ck_assert(!tt_hist_log(0, hi));
	size_t lin[8] = {0}, lg[8] = {0};
	for (int i = 0; i < 228; i++) {
		int64_t v = i == 227 ? hi : lo + (int64_t)i * 10000 / 226;
		lin[tt_hist_bin(lo, hi, 8, false, v)]++;
		int b = tt_hist_bin(lo, hi, 8, true, v);
		lg[b]++;
		ck_assert_int_ge(v, tt_hist_edge(lo, hi, 8, true, b));
		ck_assert(b == 7 || v < tt_hist_edge(lo, hi, 8, true, b + 1));
	}
	ck_assert_uint_eq(lin[0], 227);
	ck_assert_uint_eq(lin[7], 1);
	ck_assert_uint_lt(lg[0], 227);
	ck_assert_uint_eq(lg[0] + lg[1], 227);
	ck_assert_uint_eq(lg[7], 1);
	ck_assert_int_eq(tt_hist_edge(lo, hi, 8, true, 0), lo);
	ck_assert_int_eq(tt_hist_edge(lo, hi, 8, true, 8), hi);
	ck_assert(tt_hist_spread(lg, 8, 228) > tt_hist_spread(lin, 8, 228));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");
	tcase_add_test(tc, verdict_against_threshold);
	tcase_add_test(tc, common_steps_means_and_spread);
	tcase_add_test(tc, rank_pairs);
	tcase_add_test(tc, steps_in_order);
	tcase_add_test(tc, report_tables);
	tcase_add_test(tc, row_instances);
	tcase_add_test(tc, histogram_scales);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
