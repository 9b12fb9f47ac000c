/* analysis room: tracetop's whole-step critical path (critpath.h,
 * TT_CPM_TRACETOP) and the job's path across ranks (tt_cp_steps.jobs) on
 * hand-built traces; every expected number is worked out in the comment
 * above its test.  Times in the traces are whole µs. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/collectives.h"
#include "tracetop/critpath.h"
#include "tracetop/report.h"
#include "tracetop/results.h"
#include "testlib.h"
#include "tbuild.h"

static const struct tt_aopts exact = {.exact = true};

#define DL_NAME "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"

/* One step 0-20000 on thread 1.  The DataLoader span 100-10100 (a
 * user_annotation: HTA gives it no node), then aten::mm 10200-10300
 * launching (10220-10230) a gemm 10250-19900 on stream 7, and aten::copy_
 * 10300-10400 whose cudaMemcpyAsync (10310-10320) copies 19900-19950 right
 * after the gemm.  The step: 0 to max(20000, 19950) = 20000.
 *
 * tracetop's model: step start -> DataLoader start 100 (before the first
 * op), the DataLoader 10000 (data loading), its end -> aten::mm 100 (CPU
 * outside ops), aten::mm to its launch 20 (CPU), the launch delay 30, the
 * gemm 9650 (GPU compute), kernel-kernel 0, the copy 50 (GPU memory):
 * length 19950, the whole step but the 50 after the copy.
 * HTA's model: the path starts at aten::mm: 20 + 30 + 9650 + 0 + 50 = 9750
 * (the copy is GPU compute there), 10200 before it not on the path. */
static char *data_step(void)
{
	struct tb b;
	tb_begin(&b, 0, 1, NULL);
	tb_cpu(&b, "user_annotation", "ProfilerStep#1", 1, 0, 20000, -1);
	tb_cpu(&b, "user_annotation", DL_NAME, 1, 100, 10000, -1);
	tb_cpu(&b, "cpu_op", "aten::mm", 1, 10200, 100, -1);
	tb_cpu(&b, "cuda_runtime", "cudaLaunchKernel", 1, 10220, 10, 1);
	tb_gpu(&b, "kernel", "ampere_sgemm_128x64_tn", 10250, 9650, 7, 1);
	tb_cpu(&b, "cpu_op", "aten::copy_", 1, 10300, 100, -1);
	tb_cpu(&b, "cuda_runtime", "cudaMemcpyAsync", 1, 10310, 10, 2);
	tb_gpu(&b, "gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 19900, 50, 7, 2);
	return tb_end(&b);
}

static void run1(const struct tt_model *m, enum tt_cp_model model, struct tt_cp_result *res)
{
	struct tt_cp_opts o = {.a = &exact, .model = model};
	struct tt_cp_window w = {.kind = TT_CPW_ANNOT, .annotation = "ProfilerStep", .first = 0,
				 .last = 0};
	ck_assert_int_eq(tt_critical_path(m, 0, &w, &o, res), 0);
}

START_TEST(data_loading_before_first_op)
{
	char *t[1] = {data_step()};
	struct tt_model *m = load(t, 1);
	struct tt_cp_result res;
	run1(m, TT_CPM_TRACETOP, &res);
	ck_assert_int_eq(res.model, TT_CPM_TRACETOP);
	ck_assert(res.has_step);
	ck_assert_int_eq(res.step_t1 - res.step_t0, 20000 * US);
	ck_assert_int_eq(res.length, 19950 * US);
	ck_assert_int_eq(res.not_before, 0);
	ck_assert_int_eq(res.not_after, 50 * US);
	ck_assert_int_eq(res.not_inside, 0);
	ck_assert_int_eq(res.by_bound[TT_CPB_START].dur, 100 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_DATA].dur, 10000 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_OUTSIDE].dur, 100 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_CPU].dur, 20 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_LAUNCH].dur, 30 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_COMPUTE].dur, 9650 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_MEM].dur, 50 * US);
	ck_assert_int_eq(res.nodes[0].mid, TT_CPN_STEP);
	ck_assert_str_eq(tt_ev_name(res.r, &res.r->ev[res.nodes[0].ev]), "ProfilerStep#1");
	char buf[200];
	tt_report_cp_cover(&res, buf, sizeof(buf));
	ck_assert_str_eq(buf, "path 19.9 ms of a 20.0 ms step");
	tt_cp_result_free(&res);

	run1(m, TT_CPM_HTA, &res);
	ck_assert_int_eq(res.length, 9750 * US);
	ck_assert_int_eq(res.not_before, 10200 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_DATA].dur, 0);
	ck_assert_int_eq(res.by_bound[TT_CPB_COMPUTE].dur, 9700 * US);
	ck_assert_int_eq(res.by_bound[TT_CPB_MEM].dur, 0);
	tt_report_cp_cover(&res, buf, sizeof(buf));
	ck_assert_str_eq(buf, "path 9.8 ms of a 20.0 ms step; not on HTA's path: 10.2 ms before "
			      "its first event");
	tt_cp_result_free(&res);
	tt_model_free(m);
}
END_TEST

/* Two ranks, one step 0-12000 each.  Both run aten::mm 100-200 launching
 * (150-160) a gemm 170-1170 on stream 7, then aten::index from 200: on
 * rank 0 it takes 900 (to 1100), on rank 1 10900 (to 11100).  Then
 * record_param_comms launches an all_reduce of pg 0 on stream 20: rank 0
 * at 1200 (kernel 1300-11800), rank 1 at 11200 (kernel 11300-11800): rank
 * 1 reaches it 10 ms late.
 * Rank 0's path: before the first op 100, aten::mm to its launch 50, the
 * launch 10, the rest of aten::mm 40, aten::index 900, outside ops 100,
 * record_param_comms to its launch 5, the launch delay 95, then its
 * all_reduce waits 10000 for rank 1 ("waiting for rank 1") and
 * communicates 500: 11800, 10000 of it waiting (84.7 %).
 * The job's path: both steps end at 12000, rank 0's first; back from its
 * end: the 500 of communication, then the wait -> rank 1's path to its
 * arrival at 11300 (100 + 50 + 10 + 40 + 10900 + 100 + 5 + 95).  The job
 * is bound by rank 1 (11300 of the path), whose way to the all_reduce
 * exceeds rank 0's by 10000 of CPU (its own path: 11005 of CPU); it cost
 * rank 0 10000 of waiting. */
static char *late_rank(int r)
{
	struct tb b;
	tb_begin(&b, r, 2, "h0");
	tb_cpu(&b, "user_annotation", "ProfilerStep#1", 1, 0, 12000, -1);
	tb_cpu(&b, "cpu_op", "aten::mm", 1, 100, 100, -1);
	tb_cpu(&b, "cuda_runtime", "cudaLaunchKernel", 1, 150, 10, 1);
	tb_gpu(&b, "kernel", "ampere_sgemm_128x64_tn", 170, 1000, 7, 1);
	tb_cpu(&b, "cpu_op", "aten::index", 1, 200, r ? 10900 : 900, -1);
	b.corr = 10;
	long t = r ? 11200 : 1200;
	tb_coll(&b, "allreduce", "0", "[0, 1]", 1000, t, t + 100, 11800 - (t + 100), AR_KERNEL);
	return tb_end(&b);
}

START_TEST(job_path_late_rank)
{
	char *t[2] = {late_rank(0), late_rank(1)};
	struct tt_model *m = load(t, 2);
	struct tt_results_opts ro;
	tt_results_opts_init(&ro);
	ro.a.exact = true;
	ck_assert_int_eq(ro.cp.cp.model, TT_CPM_TRACETOP); /* (the default) */
	struct tt_results *res = tt_results_new(m, NULL, &ro);
	const struct tt_coll *cl = tt_res_collectives(res);
	ck_assert_uint_eq(cl->ncolls, 1);
	const struct tt_cp_steps *s = tt_res_critpath(res);
	ck_assert_uint_eq(s->n, 2);
	/* rank 0 waits for rank 1 */
	const struct tt_cp_result *r0 = &s->steps[0].res;
	ck_assert_int_eq(r0->rank, 0);
	ck_assert_int_eq(r0->by_bound[TT_CPB_WAIT].dur, 10000 * US);
	ck_assert_int_eq(r0->wait_rank, 1);
	ck_assert_int_eq(r0->by_bound[TT_CPB_COMM].dur, 500 * US);
	char buf[300];
	tt_report_cp_bound(r0, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "waiting for rank 1 84.7%");
	size_t nw = 0;
	for (size_t i = 0; i < r0->nedges; i++)
		if (r0->edges[i].type == TT_CPE_WAIT) {
			nw++;
			ck_assert_int_eq(r0->edges[i].peer_rank, 1);
			ck_assert_int_eq(r0->edges[i].weight, 10000 * US);
		}
	ck_assert_uint_eq(nw, 1);
	/* rank 1 arrived last: its path to the arrival is kept */
	const struct tt_cp_result *r1 = &s->steps[1].res;
	ck_assert_uint_eq(r1->ntargets, 1);
	ck_assert_int_eq(r1->by_bound[TT_CPB_WAIT].dur, 0);
	/* the job */
	ck_assert_uint_eq(s->njobs, 1);
	const struct tt_cp_job *j = &s->jobs[0];
	ck_assert_int_eq(j->step, 1);
	ck_assert_uint_eq(j->nranks, 2);
	ck_assert_int_eq(j->rank, 1);
	ck_assert_int_eq(j->end_rank, 0);
	ck_assert_uint_eq(j->nsegs, 2);
	ck_assert(!j->cut);
	ck_assert_int_eq(j->bound, TT_CPB_CPU);
	ck_assert_int_eq(j->bound_ns, 11005 * US);
	ck_assert_int_eq(j->rank_ns, 11300 * US);
	ck_assert_int_eq(j->excess_ns, 10000 * US);
	ck_assert_int_eq(j->wait_caused, 10000 * US);
	ck_assert_uint_eq(j->nwaiting, 1);
	ck_assert_str_eq(j->coll, "allreduce");
	/* on rank 1 up to 11300, then rank 0's 500 of communication */
	const struct tt_cp_jedge *last = &s->jedges[j->first + j->n - 1];
	ck_assert_int_eq(last->rank, 0);
	ck_assert_int_eq(last->e.bound, TT_CPB_COMM);
	ck_assert_int_eq(last->e.weight, 500 * US);
	ck_assert_int_eq(s->jedges[j->first].rank, 1);
	ck_assert_int_eq(j->by_bound[TT_CPB_WAIT].dur, 0);
	ck_assert_int_eq(j->length, j->rank_ns + 500 * US);
	/* the verdict and the report's table */
	ck_assert(s->verdict.has);
	ck_assert_int_eq(s->verdict.rank, 1);
	tt_report_cp_verdict(s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bound by rank 1: CPU 11.0 ms a step; 1 rank waits for it in "
			      "allreduce, 10.0 ms each a step");
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.exact = true;
	o.format = TT_FMT_CSV;
	o.table = "critical_path_job";
	struct tt_table **tabs;
	size_t n;
	ck_assert_int_eq(tt_report_tables(res, "critical-path", &o, &tabs, &n, NULL), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(tabs[0]->name, "critical_path_job");
	ck_assert_uint_eq(tabs[0]->nrows, 1);
	ck_assert_int_eq(tt_table_cell(tabs[0], 0, TT_CPJ_RANK)->v.i, 1);
	ck_assert_str_eq(tt_table_cell(tabs[0], 0, TT_CPJ_BOUND_BY)->v.s, "CPU");
	ck_assert_int_eq(tt_table_cell(tabs[0], 0, TT_CPJ_WAIT)->v.i, 10000 * US);
	tt_tables_free(tabs, n);
	tt_results_free(res);
	tt_model_free(m);
}
END_TEST

/* Two process groups, interleaved differently on the two ranks: pg "A" on
 * stream 20, pg "B" on stream 21, both of ranks [0, 1]; one step 0-7000 on
 * each rank.  Both run aten::index 100-1100.  Rank 0 then calls A's
 * all_reduce at 1200 (kernel 1300-6400) and B's at 1400 (kernel
 * 1500-1600); rank 1 calls B's first, at 1200 (kernel 1300-1600), then
 * aten::index 1300-6100, then A's at 6200 (kernel 6300-6400).  Matched by
 * place in each group (kernel order would pair rank 0's A with rank 1's B,
 * both at 1300, and find no wait): in A rank 0 waits 5000 for rank 1; in B
 * rank 1 waits 200 for rank 0.
 * Rank 0's path: before the first op 100, aten::index 1000, outside ops
 * 100, record_param_comms to its launch 5, the launch delay 95, waiting for
 * rank 1 5000, communication 100: 6400.
 * Rank 1's path to its arrival in A at 6300: before the first op 100,
 * aten::index 1000, outside 100, B's record_param_comms 20, outside 80,
 * aten::index 4800, outside 100, A's record_param_comms to its launch 5,
 * the launch delay 95: CPU 5825, outside ops 280, launch 95.
 * The job: both steps end at 7000, rank 0's first: its 100 of
 * communication, then the wait in A -> rank 1's 6300: length 6400, 6300
 * of it on rank 1, bound by CPU (its way to A exceeds rank 0's, 1005, by
 * 4820), which cost rank 0 5000 of waiting.  B's 200 (rank 1 waiting for
 * rank 0) is on no path. */
static char *two_groups(int r)
{
	struct tb b;
	tb_begin(&b, r, 2, "h0");
	tb_cpu(&b, "user_annotation", "ProfilerStep#1", 1, 0, 7000, -1);
	tb_cpu(&b, "cpu_op", "aten::index", 1, 100, 1000, -1);
	b.corr = 10;
	if (r == 0) {
		tb_coll_on(&b, "allreduce", "A", "[0, 1]", 1000, 1200, 1300, 5100, AR_KERNEL, 20);
		tb_coll_on(&b, "allreduce", "B", "[0, 1]", 1000, 1400, 1500, 100, AR_KERNEL, 21);
	} else {
		tb_coll_on(&b, "allreduce", "B", "[0, 1]", 1000, 1200, 1300, 300, AR_KERNEL, 21);
		tb_cpu(&b, "cpu_op", "aten::index", 1, 1300, 4800, -1);
		tb_coll_on(&b, "allreduce", "A", "[0, 1]", 1000, 6200, 6300, 100, AR_KERNEL, 20);
	}
	return tb_end(&b);
}

static const char *group_of(const struct tt_coll *cl, uint32_t coll)
{
	return cl->groups[cl->colls[coll].group].name;
}

START_TEST(job_path_two_groups)
{
	char *t[2] = {two_groups(0), two_groups(1)};
	struct tt_model *m = load(t, 2);
	struct tt_results_opts ro;
	tt_results_opts_init(&ro);
	ro.a.exact = true;
	struct tt_results *res = tt_results_new(m, NULL, &ro);
	const struct tt_coll *cl = tt_res_collectives(res);
	ck_assert_uint_eq(cl->ngroups, 2);
	ck_assert_uint_eq(cl->ncolls, 2);
	ck_assert_uint_eq(cl->nflagged, 0);
	for (uint32_t k = 0; k < 2; k++) {
		const struct tt_coll_op *co = &cl->colls[k];
		ck_assert_uint_eq(co->n, 2);
		bool a = !strcmp(group_of(cl, k), "A");
		ck_assert_int_eq(co->wait_sum, (a ? 5000 : 200) * US);
		ck_assert_int_eq(cl->parts[co->last].rank, a ? 1 : 0);
	}
	const struct tt_cp_steps *s = tt_res_critpath(res);
	ck_assert_uint_eq(s->n, 2);
	const struct tt_cp_result *r0 = &s->steps[0].res, *r1 = &s->steps[1].res;
	ck_assert_int_eq(r0->rank, 0);
	ck_assert_int_eq(r0->length, 6400 * US);
	ck_assert_int_eq(r0->by_bound[TT_CPB_WAIT].dur, 5000 * US);
	ck_assert_int_eq(r0->by_bound[TT_CPB_COMM].dur, 100 * US);
	ck_assert_int_eq(r0->wait_rank, 1);
	size_t nw = 0;
	for (size_t i = 0; i < r0->nedges; i++)
		if (r0->edges[i].type == TT_CPE_WAIT) {
			nw++;
			ck_assert_str_eq(group_of(cl, cl->parts[r0->edges[i].coll_part].coll), "A");
		}
	ck_assert_uint_eq(nw, 1);
	ck_assert_int_eq(r1->rank, 1);
	ck_assert_int_eq(r1->by_bound[TT_CPB_WAIT].dur, 0);
	ck_assert_int_eq(r1->by_bound[TT_CPB_CPU].dur, 5825 * US);
	ck_assert_int_eq(r1->by_bound[TT_CPB_OUTSIDE].dur, 280 * US);
	ck_assert_uint_eq(s->njobs, 1);
	const struct tt_cp_job *j = &s->jobs[0];
	ck_assert_int_eq(j->end_rank, 0);
	ck_assert_int_eq(j->rank, 1);
	ck_assert_uint_eq(j->nsegs, 2);
	ck_assert(!j->cut);
	ck_assert_int_eq(j->length, 6400 * US);
	ck_assert_int_eq(j->rank_ns, 6300 * US);
	ck_assert_int_eq(j->bound, TT_CPB_CPU);
	ck_assert_int_eq(j->bound_ns, 5825 * US);
	ck_assert_int_eq(j->excess_ns, 4820 * US);
	ck_assert_int_eq(j->wait_caused, 5000 * US);
	ck_assert_uint_eq(j->nwaiting, 1);
	ck_assert_uint_eq(j->ndisagree, 0);
	char line[300];
	tt_report_cp_disagree(s, line, sizeof(line));
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(j->by_bound[TT_CPB_WAIT].dur, 0);
	tt_results_free(res);
	tt_model_free(m);
}
END_TEST

/* Step 1: rank 0 makes three all_reduces of pg 0, rank 1 two (the ranks
 * disagree on the step's collectives: both matched ones are flagged, no
 * wait is taken from them); step 2: one all_reduce each, rank 1 300 late.
 * The job's path of step 1 counts the two it cannot use and the report
 * says so; step 2's goes through rank 1. */
START_TEST(job_path_ranks_disagree)
{
	struct tt_model *m = tb_ranks_disagree();
	struct tt_results_opts ro;
	tt_results_opts_init(&ro);
	ro.a.exact = true;
	struct tt_results *res = tt_results_new(m, NULL, &ro);
	const struct tt_cp_steps *s = tt_res_critpath(res);
	ck_assert_uint_eq(s->njobs, 2);
	ck_assert_int_eq(s->jobs[0].step, 1);
	ck_assert_uint_eq(s->jobs[0].ndisagree, 2);
	ck_assert_str_eq(s->jobs[0].disagree, "allreduce #0 of pg 0");
	ck_assert_int_eq(s->jobs[0].by_bound[TT_CPB_WAIT].dur, 0);
	ck_assert_int_eq(s->jobs[1].step, 2);
	ck_assert_uint_eq(s->jobs[1].ndisagree, 0);
	ck_assert_int_eq(s->jobs[1].rank, 1);
	ck_assert_int_eq(s->jobs[1].wait_caused, 300 * US);
	char line[300];
	tt_report_cp_disagree(s, line, sizeof(line));
	ck_assert_str_eq(line, "the ranks disagree on 2 collectives of step 1 (allreduce #0 of pg "
			       "0, ...): no wait in them is on the job's path; report collectives "
			       "says how");

	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.exact = true;
	o.table = "critical_path_job";
	struct tt_table **tabs;
	size_t n;
	ck_assert_int_eq(tt_report_tables(res, "critical-path", &o, &tabs, &n, NULL), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(tabs[0]->nrows, 2);
	ck_assert_int_eq(tt_table_cell(tabs[0], 0, TT_CPJ_DISAGREE)->v.i, 2);
	ck_assert_int_eq(tt_table_cell(tabs[0], 1, TT_CPJ_DISAGREE)->v.i, 0);
	size_t found = 0;
	for (size_t i = 0; i < tabs[0]->nnotes; i++)
		if (strstr(tabs[0]->notes[i], "step 1: the ranks disagree on 2 collectives "
					      "(allreduce #0 of pg 0, ...") &&
		    !strstr(tabs[0]->notes[i], "step 2"))
			found++;
	ck_assert_uint_eq(found, 1);
	tt_tables_free(tabs, n);
	tt_results_free(res);
	tt_model_free(m);
}
END_TEST

/* The demo job (rank 5 loads its data slowly): every rank's path in
 * tracetop's model covers at least 95 % of its step; rank 5's path is
 * data loading and GPU compute; the job's path bounds every step on rank
 * 5 by data loading, and the other seven ranks wait for it. */
START_TEST(demo)
{
	struct tt_model *m = tl_load_demo();
	struct tt_results_opts ro;
	tt_results_opts_init(&ro);
	struct tt_results *res = tt_results_new(m, NULL, &ro);
	const struct tt_cp_steps *s = tt_res_critpath(res);
	size_t n5 = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_cp_result *r = &s->steps[i].res;
		ck_assert_int_eq(r->status, TT_CP_OK);
		ck_assert(r->has_step);
		double cover = (double)r->length / (double)(r->step_t1 - r->step_t0);
		ck_assert_msg(cover >= 0.95, "rank %lld %s covers %.3f", (long long)r->rank,
			      s->steps[i].step, cover);
		if (r->rank == 5) {
			n5++;
			ck_assert_int_gt(r->by_bound[TT_CPB_DATA].dur, r->length / 4);
		} else {
			ck_assert_int_eq(r->wait_rank, 5);
		}
	}
	ck_assert_uint_eq(n5, 5);
	ck_assert_uint_eq(s->njobs, 5);
	for (size_t i = 0; i < s->njobs; i++) {
		ck_assert_int_eq(s->jobs[i].rank, 5);
		ck_assert_int_eq(s->jobs[i].bound, TT_CPB_DATA);
		ck_assert_uint_eq(s->jobs[i].nwaiting, 7);
		ck_assert(!s->jobs[i].cut);
	}
	ck_assert_int_eq(s->verdict.rank, 5);
	ck_assert_int_eq(s->verdict.bound, TT_CPB_DATA);
	tt_results_free(res);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpjob");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, data_loading_before_first_op);
	tcase_add_test(tc, job_path_late_rank);
	tcase_add_test(tc, job_path_two_groups);
	tcase_add_test(tc, job_path_ranks_disagree);
	tcase_add_test(tc, demo);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
