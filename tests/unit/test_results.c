/* Typed results computed once (results.h): one computation per analysis
 * whatever the number of threads asking, the background prefetch, reports
 * formatted from kept results equal to reports built afresh, the Overview's
 * join and straggler rule, and the drill-down lists (drill.h). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/drill.h"
#include "tracetop/byrank.h"
#include "tracetop/report.h"
#include "tracetop/results.h"
#include "tracetop/testing.h"
#include "testlib.h"

static struct tt_model *demo;

static void setup(void)
{
	if (!demo)
		demo = tl_load_demo();
}

static void teardown(void)
{
	tt_model_free(demo);
	demo = NULL;
}

static struct tt_results *new_results(const struct tt_model *m, const struct tt_model *m2)
{
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	struct tt_results_opts ro;
	tt_report_results_opts(&o, &ro);
	return tt_results_new(m, m2, &ro);
}

START_TEST(computed_once)
{
	struct tt_results *r = new_results(demo, NULL);
	ck_assert(!tt_results_ready(r, TT_RES_TEMPORAL));
	const struct tt_temporal_res *a = tt_res_temporal(r);
	ck_assert(tt_results_ready(r, TT_RES_TEMPORAL));
	ck_assert(!tt_results_ready(r, TT_RES_IDLE));
	ck_assert_ptr_eq(tt_res_temporal(r), a);
	ck_assert_uint_eq(a->n, demo->nranks);
	tt_results_free(r);
}
END_TEST

struct asker {
	struct tt_results *r;
	const void *got;
};

static void *ask(void *arg)
{
	struct asker *k = arg;
	k->got = tt_res_kbreak(k->r);
	return NULL;
}

START_TEST(many_threads_one_result)
{
	struct tt_results *r = new_results(demo, NULL);
	struct asker k[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		k[i].r = r;
		ck_assert_int_eq(pthread_create(&th[i], NULL, ask, &k[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 1; i < 4; i++)
		ck_assert_ptr_eq(k[i].got, k[0].got);
	ck_assert_ptr_eq(tt_res_kbreak(r), k[0].got);
	tt_results_free(r);
}
END_TEST

START_TEST(prefetch)
{
	struct tt_results *r = new_results(demo, NULL);
	enum tt_rkind k[] = {TT_RES_BYRANK, TT_RES_IDLE, TT_RES_COUNTERS};
	tt_results_prefetch(r, k, 3);
	tt_results_wait(r);
	ck_assert(!tt_results_busy(r));
	/* the Overview and the three results it joins */
	static const enum tt_rkind done[] = {TT_RES_BYRANK, TT_RES_TEMPORAL, TT_RES_OVERLAP,
					     TT_RES_KBREAK, TT_RES_IDLE,     TT_RES_COUNTERS};
	for (size_t i = 0; i < sizeof(done) / sizeof(done[0]); i++)
		ck_assert_msg(tt_results_ready(r, done[i]), "%s not computed",
			      tt_rkind_name(done[i]));
	ck_assert(!tt_results_ready(r, TT_RES_LAUNCH));
	tt_results_free(r);
	/* freeing while the thread computes waits for it */
	r = new_results(demo, NULL);
	tt_results_prefetch(r, k, 3);
	tt_results_free(r);
}
END_TEST

/* Results wanted go before what the background thread was asked; after it
 * has finished, a result wanted starts it again; paused, it starts none. */
START_TEST(want_first)
{
	struct tt_results *r = new_results(demo, NULL);
	tt_results_pause(r, true);
	enum tt_rkind k[] = {TT_RES_IDLE, TT_RES_LAUNCH};
	tt_results_prefetch(r, k, 2);
	enum tt_rkind w = TT_RES_COUNTERS;
	tt_results_want(r, &w, 1);
	ck_assert(tt_results_busy(r));
	ck_assert(!tt_results_ready(r, TT_RES_COUNTERS));
	ck_assert(!tt_results_ready(r, TT_RES_IDLE));
	tt_results_pause(r, false);
	tt_results_wait(r);
	ck_assert(tt_results_ready(r, TT_RES_COUNTERS));
	ck_assert(tt_results_ready(r, TT_RES_IDLE));
	ck_assert(tt_results_ready(r, TT_RES_LAUNCH));
	ck_assert(!tt_results_ready(r, TT_RES_PATTERNS));
	/* the thread has finished: wanting starts it again */
	w = TT_RES_PATTERNS;
	tt_results_want(r, &w, 1);
	tt_results_wait(r);
	ck_assert(tt_results_ready(r, TT_RES_PATTERNS));
	/* a result there already is not computed again */
	const void *before = tt_res_counters(r);
	w = TT_RES_COUNTERS;
	tt_results_want(r, &w, 1);
	tt_results_wait(r);
	ck_assert_ptr_eq(tt_res_counters(r), before);
	/* freeing a paused thread stops it */
	tt_results_pause(r, true);
	w = TT_RES_RANKS;
	tt_results_want(r, &w, 1);
	tt_results_free(r);
}
END_TEST

/* Results enqueued go after what the thread was asked, each once; one
 * computed already is not computed again; after the thread has finished,
 * enqueueing starts it again. */
START_TEST(enqueue_after)
{
	struct tt_results *r = new_results(demo, NULL);
	tt_results_pause(r, true);
	enum tt_rkind k[] = {TT_RES_IDLE};
	tt_results_prefetch(r, k, 1);
	enum tt_rkind more[] = {TT_RES_LAUNCH, TT_RES_IDLE, TT_RES_LAUNCH, TT_RES_COUNTERS};
	tt_results_enqueue(r, more, 4);
	ck_assert(!tt_results_ready(r, TT_RES_LAUNCH));
	tt_results_pause(r, false);
	tt_results_wait(r);
	ck_assert(tt_results_ready(r, TT_RES_IDLE));
	ck_assert(tt_results_ready(r, TT_RES_LAUNCH));
	ck_assert(tt_results_ready(r, TT_RES_COUNTERS));
	ck_assert(!tt_results_ready(r, TT_RES_PATTERNS));
	const void *before = tt_res_launch(r);
	enum tt_rkind again[] = {TT_RES_LAUNCH, TT_RES_PATTERNS};
	tt_results_enqueue(r, again, 2);
	tt_results_wait(r);
	ck_assert(tt_results_ready(r, TT_RES_PATTERNS));
	ck_assert_ptr_eq(tt_res_launch(r), before);
	tt_results_free(r);
}
END_TEST

START_TEST(no_second_model)
{
	struct tt_results *r = new_results(demo, NULL);
	/* known at once: never behind an analysis of the background thread */
	ck_assert(tt_results_ready(r, TT_RES_DIFF));
	struct tt_err err;
	tt_err_clear(&err);
	ck_assert_ptr_null(tt_res_diff(r, &err));
	ck_assert(strstr(err.msg, "two traces") != NULL);
	tt_results_free(r);
}
END_TEST

/* every table of a report, as CSV text, one string */
static char *tables_text(struct tt_table **t, size_t n)
{
	size_t len = 1;
	char **s = tt_calloc(n + 1, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		s[i] = tl_table_text(t[i], TT_FMT_CSV);
		len += strlen(t[i]->name) + strlen(s[i]) + 2;
		for (size_t k = 0; k < t[i]->nnotes; k++)
			len += strlen(t[i]->notes[k]) + 1;
	}
	char *out = tt_calloc(len, 1);
	for (size_t i = 0; i < n; i++) {
		strcat(out, t[i]->name);
		strcat(out, "\n");
		strcat(out, s[i]);
		for (size_t k = 0; k < t[i]->nnotes; k++) {
			strcat(out, t[i]->notes[k]);
			strcat(out, "\n");
		}
		free(s[i]);
	}
	free(s);
	return out;
}

START_TEST(reports_from_kept_results)
{
	static const char *const names[] = {"summary", "temporal", "idle",     "kernels",
					    "overlap", "launch",   "counters", "patterns",
					    "outliers"};
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.format = TT_FMT_CSV;
	struct tt_results *r = new_results(demo, NULL);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct tt_table **a, **b;
		size_t na, nb;
		struct tt_err err;
		ck_assert_int_eq(tt_report_build(names[i], demo, NULL, &o, &a, &na, &err), 0);
		ck_assert_int_eq(tt_report_tables(r, names[i], &o, &b, &nb, &err), 0);
		ck_assert_uint_eq(na, nb);
		char *ta = tables_text(a, na), *tb = tables_text(b, nb);
		ck_assert_msg(strcmp(ta, tb) == 0, "report %s differs from its kept results",
			      names[i]);
		/* one table by name: the same as in the whole report */
		for (size_t k = 0; k < na; k++) {
			struct tt_report_opts one = o;
			one.table = a[k]->name;
			struct tt_table **c;
			size_t nc;
			ck_assert_int_eq(tt_report_tables(r, names[i], &one, &c, &nc, &err), 0);
			size_t at = 0;
			while (at < nc && strcmp(c[at]->name, one.table) != 0)
				at++;
			ck_assert_msg(at < nc, "%s: no table %s", names[i], one.table);
			char *t1 = tables_text(&a[k], 1), *t2 = tables_text(&c[at], 1);
			ck_assert_str_eq(t1, t2);
			free(t1);
			free(t2);
			tt_tables_free(c, nc);
		}
		free(ta);
		free(tb);
		tt_tables_free(a, na);
		tt_tables_free(b, nb);
	}
	tt_results_free(r);
}
END_TEST

START_TEST(overview_join)
{
	struct tt_results *r = new_results(demo, NULL);
	const struct tt_byrank *v = tt_res_byrank(r);
	const struct tt_temporal_res *t = tt_res_temporal(r);
	ck_assert_uint_eq(v->n, t->n);
	/* communication time per rank the other way: the report's table of
	 * kernel time by type and rank */
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.table = "kernel_type_by_rank";
	struct tt_table **kt;
	size_t nk;
	ck_assert_int_eq(tt_report_tables(r, "kernels", &o, &kt, &nk, NULL), 0);
	ck_assert_uint_eq(nk, 1);
	int crank = tt_table_col(kt[0], "rank"), ctype = tt_table_col(kt[0], "kernel_type"),
	    csum = tt_table_col(kt[0], "sum");
	for (size_t i = 0; i < v->n; i++) {
		const struct tt_byrank_row *w = &v->rows[i];
		ck_assert_int_eq(w->rank, t->rows[i].rank);
		ck_assert_int_eq(w->span_ns, t->rows[i].kernel_ns);
		ck_assert_double_eq(w->compute_pct, t->rows[i].compute_pct);
		ck_assert_double_eq(w->idle_pct, t->rows[i].idle_pct);
		double comm = 0;
		for (size_t k = 0; k < kt[0]->nrows; k++)
			if (tt_cell_num(tt_table_cell(kt[0], k, crank)) == (double)w->rank &&
			    strstr(tt_table_cell(kt[0], k, ctype)->v.s, "COMMUNICATION"))
				comm += tt_cell_num(tt_table_cell(kt[0], k, csum));
		ck_assert_double_eq_tol(w->comm_pct, 100 * comm / (double)w->span_ns, 1e-9);
		ck_assert_ptr_nonnull(w->top_kernel);
	}
	tt_tables_free(kt, nk);
	tt_results_free(r);
}
END_TEST

/* one kernel of 100 us at 0 on stream 7 */
#define ONE_KERNEL                                                                           \
	"{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"   \
	"\"ts\":0,\"dur\":100,\"args\":{\"stream\":7}}]}"

START_TEST(overview_stragglers)
{
	const char *text[5] = {ONE_KERNEL, ONE_KERNEL, ONE_KERNEL, ONE_KERNEL, ONE_KERNEL};
	struct tt_model *m = tl_load_json(text, 5);
	struct tt_temporal_row tr[5];
	memset(tr, 0, sizeof(tr));
	/* communication per rank through the kernel breakdown's labels: bit 1
	 * is COMMUNICATION, over a GPU span of 1000 ns */
	int64_t labels[5 * 8];
	memset(labels, 0, sizeof(labels));
	struct tt_kbreak k;
	memset(&k, 0, sizeof(k));
	k.ntypes = 2;
	k.types[0] = TT_KT_COMP;
	k.types[1] = TT_KT_COMM;
	k.rank_label_ns = labels;
	k.nranks_model = 5;
	static const double idle[3][5] = {
		{10, 11, 12, 13, 40},   /* 40: 28 points and z 18.9 above the median */
		{10, 11, 12, 13, 16.9}, /* 16.9: z = 4.9 / 1.4826 = 3.3, not enough */
		{10, 11, 12, 13, 1},    /* far below: little idle is no problem */
	};
	static const int64_t comm[5] = {500, 520, 530, 510, 40}; /* rank 4: 4 % vs 51 % */
	for (int c = 0; c < 3; c++) {
		for (size_t i = 0; i < 5; i++) {
			tr[i].ri = i;
			tr[i].rank = m->ranks[i]->rank;
			tr[i].has_gpu = true;
			tr[i].kernel_ns = 1000;
			tr[i].idle_pct = idle[c][i];
			tr[i].compute_pct = 100 - idle[c][i];
			labels[i * 8 + 2] = c == 2 ? comm[i] : 500; /* COMMUNICATION alone */
		}
		struct tt_aopts all = {0};
		struct tt_byrank *v = tt_byrank(m, &all, tr, 5, NULL, 0, &k);
		ck_assert_uint_eq(v->n, 5);
		ck_assert_double_eq_tol(v->rows[0].comm_pct, 50, 1e-12);
		if (c == 0) {
			ck_assert_uint_eq(v->nflags, 1);
			ck_assert_uint_eq(v->flags[0].row, 4);
			ck_assert_int_eq(v->flags[0].metric, TT_BR_IDLE);
			ck_assert_int_eq(v->flags[0].side, 1);
			ck_assert_double_eq(v->flags[0].median, 12);
			ck_assert_int_eq(v->rows[4].side[TT_BR_IDLE], 1);
		} else if (c == 1) {
			ck_assert_uint_eq(v->nflags, 0);
		} else {
			/* the idle outlier below is not flagged, the communication one is */
			ck_assert_uint_eq(v->nflags, 1);
			ck_assert_uint_eq(v->flags[0].row, 4);
			ck_assert_int_eq(v->flags[0].metric, TT_BR_COMM);
			ck_assert_int_eq(v->flags[0].side, -1);
			ck_assert_double_eq_tol(v->flags[0].value, 4, 1e-12);
			ck_assert_double_eq_tol(v->flags[0].median, 51, 1e-12);
			ck_assert_int_eq(v->rows[4].side[TT_BR_IDLE], 0);
		}
		tt_byrank_free(v);
	}
	/* fewer than 3 ranks: nobody is a straggler */
	struct tt_aopts two = {0};
	int64_t r01[2] = {m->ranks[0]->rank, m->ranks[1]->rank};
	two.ranks = r01;
	two.nranks = 2;
	tr[0].idle_pct = 90;
	struct tt_byrank *v = tt_byrank(m, &two, tr, 2, NULL, 0, NULL);
	ck_assert_uint_eq(v->n, 2);
	ck_assert_uint_eq(v->nflags, 0);
	ck_assert(isnan(v->rows[0].comm_pct)); /* nothing without the kernel breakdown */
	tt_byrank_free(v);
	tt_model_free(m);
}
END_TEST

START_TEST(kernel_instances)
{
	struct tt_results *r = new_results(demo, NULL);
	const struct tt_kbreak *k = tt_res_kbreak(r);
	ck_assert_uint_gt(k->nacross, 0);
	const char *name = k->across[0].name;
	struct tt_aopts all = {0};
	struct tt_kinstances ki;
	tt_kernel_instances(demo, &all, name, &ki);
	/* the instances the Kernels pane counts: their durations add up to
	 * its total (HTA's view: the last step dropped) */
	int64_t sum = 0;
	for (size_t i = 0; i < ki.n; i++)
		sum += ki.v[i].dur;
	ck_assert_int_eq(sum, k->across[0].total_ns);
	tt_kinstances_free(&ki);
	/* --exact: as many as the events of that name on GPU streams,
	 * longest first */
	all.exact = true;
	tt_kernel_instances(demo, &all, name, &ki);
	size_t want = 0;
	for (size_t ri = 0; ri < demo->nranks; ri++) {
		const struct tt_rank *rk = demo->ranks[ri];
		for (uint32_t i = 0; i < rk->nev; i++)
			if ((rk->ev[i].flags & TT_EF_STREAM) &&
			    strcmp(tt_ev_name(rk, &rk->ev[i]), name) == 0)
				want++;
	}
	ck_assert_uint_eq(ki.n, want);
	size_t inbins = 0;
	for (int b = 0; b < ki.nbins; b++)
		inbins += ki.bins[b];
	ck_assert_uint_eq(inbins, ki.n);
	for (size_t i = 1; i < ki.n; i++)
		ck_assert_int_ge(ki.v[i - 1].dur, ki.v[i].dur);
	ck_assert_int_eq(tt_kinstances_edge(&ki, 0), ki.lo);
	ck_assert_int_eq(tt_kinstances_edge(&ki, TT_KI_BINS), ki.hi);
	tt_kinstances_free(&ki);
	tt_kernel_instances(demo, &all, "no such kernel", &ki);
	ck_assert_uint_eq(ki.n, 0);
	tt_kinstances_free(&ki);
	tt_results_free(r);
}
END_TEST

START_TEST(rank_tracks)
{
	size_t n;
	struct tt_track_busy *v = tt_rank_tracks(demo, 0, &n);
	const struct tt_rank *r = demo->ranks[0];
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		const struct tt_track *tr = &r->tracks[v[i].track];
		/* busy: the union of the track's events, the other way */
		struct tt_iv *iv = tt_calloc(tr->count + 1, sizeof(*iv));
		size_t k = 0;
		for (uint32_t e = tr->first; e < tr->first + tr->count; e++)
			if (!(r->ev[e].flags & TT_EF_MARKER))
				iv[k++] = (struct tt_iv){r->ev[e].ts, r->ev[e].ts + r->ev[e].dur};
		size_t nb = tt_iv_merge(iv, k);
		ck_assert_int_eq(v[i].busy_ns, tt_iv_total(iv, nb));
		ck_assert_double_le(v[i].busy_pct, 100);
		free(iv);
	}
	free(v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("demo");
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, computed_once);
	tcase_add_test(tc, many_threads_one_result);
	tcase_add_test(tc, prefetch);
	tcase_add_test(tc, want_first);
	tcase_add_test(tc, enqueue_after);
	tcase_add_test(tc, no_second_model);
	tcase_add_test(tc, reports_from_kept_results);
	tcase_add_test(tc, overview_join);
	tcase_add_test(tc, overview_stragglers);
	tcase_add_test(tc, kernel_instances);
	tcase_add_test(tc, rank_tracks);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
