/* The demo job generator: determinism, loading, and the straggler story. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/demo.h"
#include "tracetop/diff.h"
#include "tracetop/model.h"
#include "tracetop/testing.h"
#include "tracetop/trace.h"
#include "tracetop/util.h"
#include "testlib.h"

struct ival {
	int64_t t0, t1;
};

static int ival_cmp(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return (x->t1 > y->t1) - (x->t1 < y->t1);
}

/* idle share of the span of the rank's GPU stream events */
static double gpu_idle(const struct tt_rank *r)
{
	size_t n = 0;
	for (uint32_t t = 0; t < r->ntracks; t++)
		if (r->tracks[t].kind == TT_TRACK_GPU)
			n += r->tracks[t].count;
	if (!n)
		return 0;
	struct ival *iv = tt_malloc(n * sizeof(*iv));
	size_t k = 0;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			iv[k].t0 = r->ev[i].ts;
			iv[k].t1 = tt_ev_end(&r->ev[i]);
			k++;
		}
	}
	qsort(iv, n, sizeof(*iv), ival_cmp);
	int64_t busy = 0, lo = iv[0].t0, hi = iv[0].t1, end = iv[0].t1;
	for (size_t i = 1; i < n; i++) {
		if (iv[i].t0 > hi) {
			busy += hi - lo;
			lo = iv[i].t0;
			hi = iv[i].t1;
		} else if (iv[i].t1 > hi) {
			hi = iv[i].t1;
		}
		end = TT_MAX(end, iv[i].t1);
	}
	busy += hi - lo;
	int64_t span = end - iv[0].t0;
	free(iv);
	return span > 0 ? (double)(span - busy) / (double)span : 0;
}

/* generate and load every rank of a job */
static struct tt_model *load_job(const struct tt_demo_opts *o, int n)
{
	char **text = tt_calloc((size_t)n, sizeof(*text));
	size_t *lens = tt_calloc((size_t)n, sizeof(*lens));
	char **names = tt_calloc((size_t)n, sizeof(*names));
	for (int r = 0; r < n; r++) {
		text[r] = tt_demo_rank_json(o, r, &lens[r]);
		ck_assert_ptr_nonnull(text[r]);
		ck_assert_uint_gt(lens[r], 0);
		ck_assert_uint_eq(strlen(text[r]), lens[r]);
		names[r] = tt_malloc(48);
		snprintf(names[r], 48, "rank-%d.pt.trace.json", r);
	}
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	struct tt_model *m = NULL;
	int rc = tt_model_load_mem(&m, (const char *const *)names, (const void *const *)text,
				   lens, (size_t)n, &lo);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(m);
	for (int r = 0; r < n; r++) {
		free(text[r]);
		free(names[r]);
	}
	free(text);
	free(lens);
	free(names);
	return m;
}

static uint32_t count_nccl(const struct tt_rank *r)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nev; i++)
		if (tt_ev_kind(r, &r->ev[i]) == TT_K_KERNEL &&
		    strstr(tt_ev_name(r, &r->ev[i]), "ncclDevKernel_AllReduce"))
			n++;
	return n;
}

START_TEST(test_defaults)
{
	struct tt_demo_opts o;
	memset(&o, 0x5a, sizeof(o));
	tt_demo_defaults(&o);
	ck_assert_int_eq(o.nranks, 8);
	ck_assert_int_eq(o.steps, 6);
	ck_assert_int_eq(o.layers, 24);
	ck_assert_uint_eq(o.seed, 1);
	ck_assert_int_eq(o.nstragglers, 1);
	ck_assert_int_eq(o.stragglers[0], 5);
}
END_TEST

START_TEST(test_deterministic)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	for (int r = 0; r < 8; r += 5) {
		size_t n1, n2;
		char *a = tt_demo_rank_json(&o, r, &n1);
		char *b = tt_demo_rank_json(&o, r, &n2);
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_uint_eq(n1, n2);
		ck_assert_int_eq(memcmp(a, b, n1), 0);
		free(a);
		free(b);
	}
	/* another seed gives another trace */
	size_t n1, n2;
	char *a = tt_demo_rank_json(&o, 1, &n1);
	o.seed = 2;
	char *b = tt_demo_rank_json(&o, 1, &n2);
	ck_assert(n1 != n2 || memcmp(a, b, n1) != 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_bad_rank)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	size_t n = 123;
	ck_assert_ptr_null(tt_demo_rank_json(&o, 8, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(tt_demo_rank_json(&o, -1, &n));
}
END_TEST

/* A rank file is written as its text is made, in pieces (a long job's
 * text need not fit in memory): the file holds the same bytes as the text
 * made whole, over more than one piece (32 MB). */
START_TEST(test_written_in_pieces)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	tt_demo_set_ranks(&o, 1);
	o.steps = 40;
	size_t n;
	char *text = tt_demo_rank_json(&o, 0, &n);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(n > ((size_t)32 << 20), "the text is %zu bytes: one piece only", n);
	char dir[] = "/tmp/tt-demo-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct tt_err err;
	tt_err_clear(&err);
	ck_assert_int_eq(tt_demo_write_dir(&o, dir, false, &err), 0);
	char path[64];
	snprintf(path, sizeof(path), "%s/rank-0.pt.trace.json", dir);
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	char *back = tt_malloc(n + 1);
	size_t got = fread(back, 1, n + 1, f);
	fclose(f);
	ck_assert_uint_eq(got, n);
	ck_assert_int_eq(memcmp(text, back, n), 0);
	free(back);
	free(text);
	remove(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_job_loads)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	struct tt_model *m = load_job(&o, 8);
	ck_assert_uint_eq(m->nfailures, 0);
	ck_assert_uint_eq(m->nranks, 8);

	double idle[8];
	uint32_t nccl0 = 0;
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		ck_assert_int_eq(r->rank, (int64_t)i);
		ck_assert_int_eq(r->rank_src, TT_RANK_JSON);
		ck_assert_uint_eq(r->n_steps, 6);
		ck_assert_uint_gt(r->n_kernel, 1000);
		ck_assert_uint_gt(r->n_memcpy, 0);
		ck_assert_uint_gt(r->n_memset, 0);
		ck_assert_uint_gt(r->n_cpu_op, 1000);
		/* every kernel, memcpy and memset is linked to its runtime call */
		ck_assert_uint_eq(r->nlinks, r->n_kernel + r->n_memcpy + r->n_memset);
		ck_assert_uint_eq(r->n_gpu_tracks, 2);
		ck_assert_uint_gt(r->nev, 10000);
		ck_assert_uint_lt(r->nev, 30000);
		for (int w = 0; w < TT_W_COUNT; w++)
			if (tt_warning_severity((enum tt_warning)w) == 'w')
				ck_assert_msg(r->report.count[w] == 0, "rank %zu: %s", i,
					      tt_warning_msg((enum tt_warning)w));
		for (uint32_t t = 0; t < r->ntracks; t++)
			if (r->tracks[t].kind == TT_TRACK_GPU)
				ck_assert_int_eq(r->tracks[t].device, (int64_t)(i % 8));
		uint32_t nccl = count_nccl(r);
		ck_assert_uint_gt(nccl, 0);
		if (i == 0)
			nccl0 = nccl;
		ck_assert_uint_eq(nccl, nccl0);
		idle[i] = gpu_idle(r);
	}

	/* the straggler idles most, clearly more than the others */
	double second = 0;
	for (int i = 0; i < 8; i++) {
		if (i == 5)
			continue;
		ck_assert_msg(idle[i] < idle[5], "rank %d idle %.3f >= straggler %.3f", i, idle[i],
			      idle[5]);
		second = TT_MAX(second, idle[i]);
	}
	ck_assert_msg(idle[5] > 1.5 * second, "straggler idle %.3f, next %.3f", idle[5], second);
	tt_model_free(m);
}
END_TEST

/* the all-reduces end together on every rank */
START_TEST(test_allreduce_sync)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	o.nranks = 4;
	o.steps = 2;
	o.layers = 8;
	struct tt_model *m = load_job(&o, 4);
	ck_assert_uint_eq(m->nfailures, 0);
	ck_assert_uint_eq(m->nranks, 4);
	int64_t ends[4][8];
	uint32_t n[4] = {0};
	for (int q = 0; q < 4; q++) {
		const struct tt_rank *r = m->ranks[q];
		for (uint32_t t = 0; t < r->ntracks; t++) {
			const struct tt_track *tr = &r->tracks[t];
			for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
				const struct tt_event *e = &r->ev[i];
				if (tr->kind != TT_TRACK_GPU || !strstr(tt_ev_name(r, e), "nccl"))
					continue;
				ck_assert_uint_lt(n[q], 8);
				ends[q][n[q]++] = tt_ev_end(e);
			}
		}
	}
	/* 2 steps x 2 buckets */
	for (int q = 0; q < 4; q++)
		ck_assert_uint_eq(n[q], 4);
	for (int q = 1; q < 4; q++)
		for (uint32_t b = 0; b < n[0]; b++)
			ck_assert_int_eq(ends[q][b], ends[0][b]);

	/* with 5 ranks or fewer the default straggler is the last rank */
	double idle[4];
	for (int q = 0; q < 4; q++)
		idle[q] = gpu_idle(m->ranks[q]);
	for (int q = 0; q < 3; q++)
		ck_assert_msg(idle[q] < idle[3], "rank %d idle %.3f, rank 3 %.3f", q, idle[q],
			      idle[3]);
	tt_model_free(m);
}
END_TEST

/* generating one rank of a big job stays valid */
START_TEST(test_many_ranks)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	o.nranks = 1024;
	o.steps = 1;
	o.layers = 2;
	size_t len;
	char *text = tt_demo_rank_json(&o, 1023, &len);
	ck_assert_ptr_nonnull(text);
	const char *names[1] = {"rank-1023.pt.trace.json"};
	const void *data[1] = {text};
	struct tt_model *m = NULL;
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, &len, 1, NULL), 0);
	ck_assert_uint_eq(m->nfailures, 0);
	ck_assert_int_eq(m->ranks[0]->rank, 1023);
	ck_assert_uint_gt(count_nccl(m->ranks[0]), 0);
	tt_model_free(m);
	free(text);
}
END_TEST

/* The regressed run, through the diff: the same steps, slower; 32 pageable
 * copies per step where the base run has one pinned copy; rank 2's time
 * moved most (it waits for its input, the others for it); the all-reduce
 * kernels take longer from the third step on. */
START_TEST(test_regressed)
{
	struct tt_demo_opts o;
	tt_demo_defaults(&o);
	o.steps = 4;
	o.layers = 8;
	struct tt_model *a = load_job(&o, 8);
	o.variant = TT_DEMO_REGRESSED;
	struct tt_model *b = load_job(&o, 8);
	struct tt_diff_opts dopt;
	tt_diff_opts_init(&dopt);
	struct tt_diff d;
	ck_assert_int_eq(tt_diff(&d, a, b, &dopt, NULL), 0);
	ck_assert_uint_eq(d.nranks, 8);
	ck_assert(!d.ranks_by_order);
	ck_assert(!d.steps_by_order);
	ck_assert_uint_eq(d.nsteps, 4);
	ck_assert_uint_eq(d.nsamples, 32);
	ck_assert_int_eq(d.head.verdict, TT_DIFF_SLOWER);
	ck_assert_uint_ne(d.head.rank, SIZE_MAX);
	ck_assert_int_eq(d.ranks[d.head.rank].rank[0], 2);
	ck_assert_int_eq(d.ranks[d.head.rank].most, TT_DM_IDLE);
	bool pageable = false, allreduce = false;
	for (size_t i = 0; i < d.n; i++) {
		const struct tt_diff_row *w = &d.rows[i];
		if (strcmp(w->name, "Memcpy HtoD (Pageable -> Device)") == 0) {
			pageable = true;
			ck_assert_int_eq(w->count[0], 0);
			ck_assert_int_eq(w->count[1], 32 * 32); /* 32 rank-steps */
		}
		if (strstr(w->name, "ncclDevKernel_AllReduce")) {
			allreduce = true;
			ck_assert_int_eq(w->verdict, TT_DIFF_SLOWER);
		}
	}
	ck_assert(pageable && allreduce);
	/* the slower all-reduces from the third step: steps 102, 103 lose more */
	double early = d.steps[1].v[1][TT_DM_STEP] - d.steps[1].v[0][TT_DM_STEP];
	double late = d.steps[3].v[1][TT_DM_STEP] - d.steps[3].v[0][TT_DM_STEP];
	ck_assert_int_eq(d.steps[3].num[0], 103);
	ck_assert_msg(late > early, "late %g, early %g", late, early);
	tt_diff_free(&d);
	tt_model_free(a);
	tt_model_free(b);
}
END_TEST

static Suite *demo_suite(void)
{
	Suite *s = suite_create("demo");
	TCase *tc = tcase_create("demo");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_bad_rank);
	tcase_add_test(tc, test_written_in_pieces);
	tcase_add_test(tc, test_job_loads);
	tcase_add_test(tc, test_allreduce_sync);
	tcase_add_test(tc, test_many_ranks);
	tcase_add_test(tc, test_regressed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(demo_suite());
}
