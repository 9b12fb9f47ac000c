/* analysis room: collectives matched across ranks (collectives.h) on
 * hand-built traces.  Every expected number is worked out in the comment
 * above its test; times in the traces are whole µs. */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/collectives.h"
#include "tracetop/distributed.h"
#include "tracetop/report.h"
#include "tracetop/results.h"
#include "tracetop/testing.h"
#include "testlib.h"
#include "tbuild.h"

static const struct tt_aopts all = {0};

/* the part of rank index ri with start ts (µs) */
static const struct tt_coll_part *part_at(const struct tt_coll *c, size_t ri, long ts)
{
	for (size_t k = c->rank_first[ri]; k < c->rank_first[ri + 1]; k++)
		if (c->parts[k].ts == (int64_t)ts * US)
			return &c->parts[k];
	ck_abort_msg("no part at %ld on rank index %zu", ts, ri);
	return NULL;
}

/* ---- tests ---- */

/* Two ranks in one step 0-30000; an all_reduce of pg "0" (ranks [0, 1]).
 * Rank 0 launches it at 100 and its kernel runs 200-10700; rank 1 reaches
 * it 10 ms late: launch at 10100, kernel 10200-10700.  Rank 0 waits from
 * 200 to 10200 = 10 ms for rank 1, then both transfer 500 µs.  The
 * Distributed view's sync and transfer are the same numbers. */
START_TEST(late_rank)
{
	char *t[2];
	struct tb b;
	tb_begin(&b, 0, 2, "h0");
	tb_step(&b, 1, 0, 30000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 1000, 100, 200, 10500, AR_KERNEL);
	t[0] = tb_end(&b);
	tb_begin(&b, 1, 2, "h0");
	tb_step(&b, 1, 0, 30000);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 1000, 10100, 10200, 500, AR_KERNEL);
	t[1] = tb_end(&b);
	struct tt_model *m = load(t, 2);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.nparts, 2);
	ck_assert_uint_eq(c.ncolls, 1);
	ck_assert_uint_eq(c.ngroups, 1);
	ck_assert_str_eq(c.groups[0].name, "0");
	ck_assert_uint_eq(c.groups[0].nmembers, 2);
	const struct tt_coll_op *x = &c.colls[0];
	ck_assert_uint_eq(x->n, 2);
	ck_assert_uint_eq(x->flags, 0);
	ck_assert_int_eq(x->step, 1);
	ck_assert_int_eq(x->bytes, 4000);
	ck_assert_uint_ne(x->last, TT_NONE);
	ck_assert_int_eq(c.parts[x->last].rank, 1);
	ck_assert_int_eq(c.parts[x->early].rank, 0);
	ck_assert_int_eq(x->t_last - x->t_first, 10000 * US);
	ck_assert_int_eq(x->latency, 500 * US);
	const struct tt_coll_part *p0 = &c.parts[0], *p1 = &c.parts[1];
	ck_assert_int_eq(p0->rank, 0);
	ck_assert_int_eq(p0->wait, 10000 * US);
	ck_assert_int_eq(p0->transfer, 500 * US);
	ck_assert_int_eq(p1->wait, 0);
	ck_assert_int_eq(p1->transfer, 500 * US);
	ck_assert_str_eq(p0->source, "record_param_comms");
	/* per rank: rank 1 was last once and cost rank 0 10 ms */
	ck_assert_uint_eq(c.nclocks, 2);
	ck_assert_uint_eq(c.ranks[1].nlast, 1);
	ck_assert_int_eq(c.ranks[1].caused, 10000 * US);
	ck_assert_int_eq(c.ranks[0].wait, 10000 * US);
	ck_assert_uint_eq(c.ranks[0].nlast, 0);
	/* one host: no offset */
	ck_assert(!c.clocks[1].applied);
	ck_assert_int_eq(c.noffsets, 0);
	/* kernel -> part */
	ck_assert_uint_eq(tt_coll_part_of(&c, 0, p0->kernel), 0);
	ck_assert_uint_eq(tt_coll_part_of(&c, 1, p1->kernel), 1);
	uint32_t step_ev = TT_NONE;
	for (uint32_t i = 0; i < m->ranks[0]->nev; i++)
		if (strcmp(tt_ev_name(m->ranks[0], &m->ranks[0]->ev[i]), "ProfilerStep#1") == 0)
			step_ev = i;
	ck_assert_uint_ne(step_ev, TT_NONE);
	ck_assert_uint_eq(tt_coll_part_of(&c, 0, step_ev), TT_NONE);
	char buf[64];
	tt_coll_label(&c, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "allreduce #0 of pg 0");
	/* the Distributed view: the same split */
	struct tt_dist d;
	tt_dist_compute_coll(m, &all, &c, NULL, &d);
	ck_assert_uint_eq(d.ncalls, 2);
	ck_assert_int_eq(d.calls[0].sync, 10000 * US);
	ck_assert_int_eq(d.calls[0].transfer, 500 * US);
	ck_assert_int_eq(d.calls[1].sync, 0);
	ck_assert(d.calls[0].matched && d.calls[1].matched);
	tt_dist_free(&d);
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* Two process groups, A and B (both ranks [0, 1]), interleaved differently
 * on the two ranks: rank 0 issues A(100) B(300) A(200) B(400), rank 1
 * A(100) A(200) B(300) B(400) (elements in brackets; NCCL orders each
 * group, not the groups between them).  Per group the n-th pairs with the
 * n-th: four collectives, each with one size on both ranks.
 *   rank 0 kernels: A100 1000-1100, B300 2000-2600, A200 3000-3500, B400 4000-4300
 *   rank 1 kernels: A100 1050-1100, A200 3200-3500, B300 3600-3700 (late:
 *   rank 0's B300 waits all of its 600), B400 4000-4300.
 * Waits: A100: rank 0 50; A200: rank 0 200; B300: rank 0 min(1600, 600) =
 * 600; B400: none. */
START_TEST(two_groups)
{
	char *t[2];
	struct tb b;
	tb_begin(&b, 0, 2, "h0");
	tb_step(&b, 1, 0, 10000);
	tb_coll(&b, "allreduce", "A", "[0, 1]", 100, 900, 1000, 100, AR_KERNEL);
	tb_coll(&b, "allreduce", "B", "[0, 1]", 300, 1900, 2000, 600, AR_KERNEL);
	tb_coll(&b, "allreduce", "A", "[0, 1]", 200, 2900, 3000, 500, AR_KERNEL);
	tb_coll(&b, "allreduce", "B", "[0, 1]", 400, 3900, 4000, 300, AR_KERNEL);
	t[0] = tb_end(&b);
	tb_begin(&b, 1, 2, "h0");
	tb_step(&b, 1, 0, 10000);
	tb_coll(&b, "allreduce", "A", "[0, 1]", 100, 900, 1050, 50, AR_KERNEL);
	tb_coll(&b, "allreduce", "A", "[0, 1]", 200, 1000, 3200, 300, AR_KERNEL);
	tb_coll(&b, "allreduce", "B", "[0, 1]", 300, 1100, 3600, 100, AR_KERNEL);
	tb_coll(&b, "allreduce", "B", "[0, 1]", 400, 3900, 4000, 300, AR_KERNEL);
	t[1] = tb_end(&b);
	struct tt_model *m = load(t, 2);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.ngroups, 2);
	ck_assert_uint_eq(c.ncolls, 4);
	ck_assert_uint_eq(c.nflagged, 0);
	ck_assert_uint_eq(c.nissues, 0);
	ck_assert_uint_eq(c.nmatched_parts, 8);
	for (size_t i = 0; i < c.ncolls; i++) {
		const struct tt_coll_op *x = &c.colls[i];
		ck_assert_uint_eq(x->n, 2);
		const struct tt_coll_part *a = &c.parts[c.members[x->first]];
		const struct tt_coll_part *z = &c.parts[c.members[x->first + 1]];
		ck_assert_int_eq(a->rank, 0);
		ck_assert_int_eq(z->rank, 1);
		ck_assert_int_eq(a->bytes, z->bytes);
		ck_assert_uint_eq(a->group, z->group);
	}
	/* by first arrival: A100, B300, A200, B400; their numbers in the group */
	ck_assert_int_eq(c.colls[0].bytes, 400);
	ck_assert_uint_eq(c.colls[0].seq, 0);
	ck_assert_int_eq(c.colls[1].bytes, 1200);
	ck_assert_uint_eq(c.colls[1].seq, 0);
	ck_assert_int_eq(c.colls[2].bytes, 800);
	ck_assert_uint_eq(c.colls[2].seq, 1);
	ck_assert_int_eq(c.colls[3].bytes, 1600);
	ck_assert_uint_eq(c.colls[3].seq, 1);
	ck_assert_int_eq(part_at(&c, 0, 1000)->wait, 50 * US);
	ck_assert_int_eq(part_at(&c, 0, 3000)->wait, 200 * US);
	ck_assert_int_eq(part_at(&c, 0, 2000)->wait, 600 * US);
	ck_assert_int_eq(part_at(&c, 0, 2000)->transfer, 0);
	ck_assert_int_eq(part_at(&c, 0, 4000)->wait, 0);
	ck_assert_int_eq(part_at(&c, 1, 3600)->wait, 0);
	ck_assert_int_eq(c.parts[c.colls[1].last].rank, 1);
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* Step 1: rank 0 makes three all_reduces of pg 0, rank 1 two: no position
 * of that step is sure; its two collectives are flagged (no waits, no last
 * rank), rank 0's third part stays unmatched, and one issue names the
 * counts.  Step 2 has one all_reduce on each rank, matched as usual:
 * rank 1 arrives 300 late. */
START_TEST(count_mismatch)
{
	struct tt_model *m = tb_ranks_disagree();
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.nparts, 7);
	ck_assert_uint_eq(c.ncolls, 3);
	ck_assert_uint_eq(c.nflagged, 2);
	ck_assert_uint_eq(c.nissues, 1);
	ck_assert_int_eq(c.issues[0].kind, TT_CI_COUNT);
	ck_assert_int_eq(c.issues[0].rank, 1);
	ck_assert_int_eq(c.issues[0].other, 0);
	ck_assert_ptr_nonnull(strstr(c.issues[0].text, "step 1: rank 1 has 2 collectives, rank 0 "
							"has 3"));
	for (int i = 0; i < 2; i++) {
		ck_assert(c.colls[i].flags & TT_COLL_MISMATCH);
		ck_assert_uint_eq(c.colls[i].last, TT_NONE);
	}
	ck_assert_uint_eq(part_at(&c, 0, 2200)->coll, TT_NONE);
	ck_assert_int_eq(part_at(&c, 0, 200)->wait, 0);
	ck_assert_int_eq(part_at(&c, 0, 200)->transfer, 100 * US);
	/* step 2 is fine */
	ck_assert_uint_eq(c.colls[2].flags, 0);
	ck_assert_int_eq(c.colls[2].step, 2);
	ck_assert_int_eq(part_at(&c, 0, 10200)->wait, 300 * US);
	ck_assert_int_eq(c.parts[c.colls[2].last].rank, 1);
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* Rank 0: all_reduce then broadcast; rank 1: broadcast then all_reduce
 * (same group): both positions disagree, both collectives are flagged, two
 * issues (one per rank pair and kind: the second counts 2). */
START_TEST(order_mismatch)
{
	char *t[2];
	struct tb b;
	tb_begin(&b, 0, 2, NULL);
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 100, 200, 100, AR_KERNEL);
	tb_coll(&b, "broadcast", "0", "[0, 1]", 100, 1100, 1200, 100,
		"ncclDevKernel_Broadcast_RING_LL");
	t[0] = tb_end(&b);
	tb_begin(&b, 1, 2, NULL);
	tb_coll(&b, "broadcast", "0", "[0, 1]", 100, 100, 200, 100,
		"ncclDevKernel_Broadcast_RING_LL");
	tb_coll(&b, "allreduce", "0", "[0, 1]", 100, 1100, 1200, 100, AR_KERNEL);
	t[1] = tb_end(&b);
	struct tt_model *m = load(t, 2);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.ncolls, 2);
	ck_assert_uint_eq(c.nflagged, 2);
	ck_assert_uint_eq(c.nissues, 1);
	ck_assert_int_eq(c.issues[0].kind, TT_CI_ORDER);
	ck_assert_uint_eq(c.issues[0].count, 2);
	ck_assert_ptr_nonnull(strstr(c.issues[0].text, "rank 1 runs broadcast where rank 0 runs "
							"allreduce"));
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* Point-to-point: a send/recv pair in group "pp" of two members is paired
 * (rank 1's recv arrives 50 late: rank 0 waits 50); in group "dp" of four
 * members (only two loaded) the trace names no peer: unpaired, one issue
 * per rank. */
START_TEST(p2p)
{
	char *t[2];
	struct tb b;
	tb_begin(&b, 0, 4, NULL);
	tb_coll(&b, "send", "pp", "[0, 1]", 100, 100, 200, 100, "ncclDevKernel_SendRecv");
	tb_coll(&b, "send", "dp", "[0, 1, 2, 3]", 100, 1100, 1200, 100, "ncclDevKernel_SendRecv");
	t[0] = tb_end(&b);
	tb_begin(&b, 1, 4, NULL);
	tb_coll(&b, "recv", "pp", "[0, 1]", 100, 150, 250, 50, "ncclDevKernel_SendRecv");
	tb_coll(&b, "recv", "dp", "[0, 1, 2, 3]", 100, 1100, 1200, 100, "ncclDevKernel_SendRecv");
	t[1] = tb_end(&b);
	struct tt_model *m = load(t, 2);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.nparts, 4);
	ck_assert_uint_eq(c.ncolls, 1);
	ck_assert(c.colls[0].flags & TT_COLL_P2P);
	ck_assert_uint_eq(c.colls[0].flags & (TT_COLL_MISMATCH | TT_COLL_MISSING), 0);
	ck_assert_int_eq(part_at(&c, 0, 200)->wait, 50 * US);
	ck_assert_uint_eq(c.np2p_unpaired, 2);
	ck_assert_uint_eq(c.nissues, 2);
	ck_assert_int_eq(c.issues[0].kind, TT_CI_P2P);
	ck_assert_ptr_nonnull(strstr(c.issues[0].text, "has 4 members"));
	ck_assert(tt_coll_is_p2p("SendRecv") && tt_coll_is_p2p("recv") &&
		  !tt_coll_is_p2p("all_to_all"));
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* Clocks.  Six all_reduces; in truth rank 0 arrives at 1000 k, rank 1 at
 * 1000 k + 1000, both end at 1000 k + 2000.  Rank 1's host clock runs 5000
 * ahead, so its trace says 1000 k + 6000 and + 7000.
 * - hosts h0 and h1: the ends differ by 5000 in all six: offset 5000
 *   applied; rank 0 waits 1000 each time, rank 1 is last;
 * - one host h0: no offset (one clock), rank 1 arrives 6000 after rank 0,
 *   whose kernel lasts 2000: it waits all of it;
 * - hosts h0, h1 with three collectives: too few, not applied. */
static struct tt_model *clock_job(const char *h1, int n)
{
	char *t[2];
	struct tb b;
	for (int r = 0; r < 2; r++) {
		tb_begin(&b, r, 2, r ? h1 : "h0");
		for (int k = 1; k <= n; k++) {
			long base = 1000L * k * 10;
			if (r == 0)
				tb_coll(&b, "allreduce", "0", "[0, 1]", 100, base - 100, base, 2000,
					AR_KERNEL);
			else
				tb_coll(&b, "allreduce", "0", "[0, 1]", 100, base + 5900, base + 6000,
					1000, AR_KERNEL);
		}
		t[r] = tb_end(&b);
	}
	return load(t, 2);
}

START_TEST(clocks)
{
	struct tt_model *m = clock_job("h1", 6);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.ncolls, 6);
	ck_assert(c.clocks[0].reference);
	ck_assert(c.clocks[1].applied);
	ck_assert_int_eq(c.clocks[1].offset, 5000 * US);
	ck_assert_uint_eq(c.clocks[1].evidence, 6);
	ck_assert_int_eq(c.clocks[1].spread, 0);
	ck_assert_str_eq(c.clocks[1].host, "h1");
	ck_assert_uint_eq(c.noffsets, 1);
	ck_assert_int_eq(c.max_offset, 5000 * US);
	ck_assert_int_eq(tt_coll_job_time(&c, 1, 16000 * US), 11000 * US);
	for (size_t i = 0; i < c.ncolls; i++) {
		const struct tt_coll_op *x = &c.colls[i];
		ck_assert_int_eq(c.parts[x->last].rank, 1);
		ck_assert_int_eq(x->t_last - x->t_first, 1000 * US);
		ck_assert_int_eq(x->end_max - x->end_min, 0);
		ck_assert_int_eq(c.parts[c.members[x->first]].wait, 1000 * US);
	}
	tt_coll_free(&c);
	tt_model_free(m);

	m = clock_job("h0", 6);
	tt_coll_compute(m, &all, &c);
	ck_assert(!c.clocks[1].applied);
	ck_assert(c.clocks[1].reference);
	ck_assert_int_eq(c.clocks[1].offset, 0);
	ck_assert_int_eq(c.parts[c.members[c.colls[0].first]].wait, 2000 * US);
	tt_coll_free(&c);
	tt_model_free(m);

	m = clock_job("h1", 3);
	tt_coll_compute(m, &all, &c);
	ck_assert(!c.clocks[1].applied);
	ck_assert_int_eq(c.clocks[1].estimate, 5000 * US);
	ck_assert_uint_eq(c.clocks[1].evidence, 3);
	ck_assert_str_eq(c.clocks[1].why, "too few collectives");
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* A trace that names no process group (nccl: annotations only, world size
 * 4, two ranks loaded): one group per communication stream, four members,
 * the collective partial. */
START_TEST(no_group)
{
	char *t[2];
	struct tb b;
	for (int r = 0; r < 2; r++) {
		tb_begin(&b, r, 4, NULL);
		tb_coll(&b, "allreduce", NULL, NULL, 100, 100, 200 + 100 * r, 300 - 100 * r,
			AR_KERNEL);
		t[r] = tb_end(&b);
	}
	struct tt_model *m = load(t, 2);
	struct tt_coll c;
	tt_coll_compute(m, &all, &c);
	ck_assert_uint_eq(c.ngroups, 1);
	ck_assert_str_eq(c.groups[0].name, "stream #1");
	ck_assert_str_eq(c.groups[0].source, "stream");
	ck_assert_uint_eq(c.groups[0].nmembers, 4);
	ck_assert_uint_eq(c.groups[0].nloaded, 2);
	ck_assert_uint_eq(c.ncolls, 1);
	ck_assert(c.colls[0].flags & TT_COLL_PARTIAL);
	ck_assert_int_eq(c.parts[0].wait, 100 * US);
	char buf[64];
	tt_coll_label(&c, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "allreduce #0 on stream #1");
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

/* The demo job: rank 5 (slow data loading) arrives last in every
 * all-reduce; every collective matched, none flagged; the Distributed
 * view's sync per rank is the sum of the parts' waits; the report's table
 * names rank 5 first. */
START_TEST(demo)
{
	struct tt_model *m = tl_load_demo();
	struct tt_results_opts ro;
	tt_results_opts_init(&ro);
	struct tt_results *res = tt_results_new(m, NULL, &ro);
	const struct tt_coll *c = tt_res_collectives(res);
	ck_assert_uint_eq(c->nranks, 8);
	ck_assert_uint_eq(c->ncolls * 8, c->nparts);
	ck_assert_uint_eq(c->nflagged, 0);
	ck_assert_uint_eq(c->nissues, 0);
	ck_assert_uint_eq(c->noffsets, 0);
	for (size_t i = 0; i < c->ncolls; i++)
		ck_assert_int_eq(c->parts[c->colls[i].last].rank, 5);
	const struct tt_dist *d = tt_res_dist(res);
	for (size_t i = 0; i < d->nranks; i++)
		ck_assert_int_eq(d->ranks[i].sync_ns, c->ranks[i].wait);
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.format = TT_FMT_CSV;
	struct tt_table **t;
	size_t n;
	ck_assert_int_eq(tt_report_collectives(res, &o, &t, &n, NULL), 0);
	ck_assert_uint_ge(n, 4);
	ck_assert_str_eq(t[0]->name, "collective_late");
	ck_assert_int_eq(tt_table_cell(t[0], 0, 0)->v.i, 5);
	tt_tables_free(t, n);
	tt_results_free(res);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("collectives");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, late_rank);
	tcase_add_test(tc, two_groups);
	tcase_add_test(tc, count_mismatch);
	tcase_add_test(tc, order_mismatch);
	tcase_add_test(tc, p2p);
	tcase_add_test(tc, clocks);
	tcase_add_test(tc, no_group);
	tcase_add_test(tc, demo);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
