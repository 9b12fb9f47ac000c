/* model room: hand-written fixtures through the whole loader. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/model.h"
#include "tracetop/util.h"
#include "testlib.h"

/* tests/fixtures/NAME, one rank; the fast path and cJSON must agree on
 * every event */
static struct tt_model *load1(const char *name)
{
	char path[1024];
	const struct tt_load_opts o = {.verify = true};
	struct tt_model *m = tl_load_files((const char *const[]){tl_fixture(name, path, sizeof(path))},
					   1, &o);
	ck_assert_uint_eq(m->nranks, 1);
	return m;
}

static const struct tt_event *find(const struct tt_rank *r, const char *name)
{
	for (uint32_t i = 0; i < r->nev; i++)
		if (strcmp(tt_ev_name(r, &r->ev[i]), name) == 0)
			return &r->ev[i];
	return NULL;
}

static const struct tt_track *track_of(const struct tt_rank *r, const struct tt_event *e)
{
	uint32_t t = tt_track_of(r, (uint32_t)(e - r->ev));
	ck_assert(t != TT_NONE);
	return &r->tracks[t];
}

START_TEST(every_phase)
{
	struct tt_model *m = load1("phases.json");
	struct tt_rank *r = m->ranks[0];
	const int64_t base = INT64_C(1700000000000000000);
	ck_assert_int_eq(r->rank, 3);
	ck_assert_int_eq(r->rank_src, TT_RANK_JSON);
	ck_assert_int_eq(r->base_ns, base);
	/* 5 X + 3 paired B/E + 2 instants; M, C, flows and 'b' are not events */
	ck_assert_uint_eq(r->nev, 10);
	ck_assert_uint_eq(r->report.count[TT_W_UNMATCHED_B], 1);
	ck_assert_uint_eq(r->report.count[TT_W_SKIPPED_PH], 1);
	ck_assert_uint_eq(r->report.count[TT_W_THREAD_NAME], 1);
	ck_assert(r->hta_round); /* a ts was written as 100.5 */

	const struct tt_event *mm = find(r, "aten::mm");
	ck_assert_ptr_nonnull(mm);
	ck_assert_int_eq(mm->ts, base + 100500);
	ck_assert_int_eq(mm->dur, 50250);
	ck_assert(mm->flags & TT_EF_OPINFO);
	ck_assert_str_eq(tt_str(r, r->opinfo[mm->aux].input_dims), "[[4,4],[4,4]]");
	ck_assert_str_eq(tt_str(r, track_of(r, mm)->name), "pt_main_thread"); /* first kept */
	ck_assert_str_eq(tt_str(r, track_of(r, mm)->proc_name), "python");

	/* B/E pairs, nested LIFO; an open B ends at the track's last time */
	const struct tt_event *outer = find(r, "outer"), *inner = find(r, "inner");
	const struct tt_event *open = find(r, "open");
	ck_assert_int_eq(outer->ts, base + 200000);
	ck_assert_int_eq(outer->dur, 60000);
	ck_assert_int_eq(inner->dur, 10000);
	ck_assert_int_eq(open->ts + open->dur, base + 300000);
	ck_assert(outer < inner); /* sorted by start within the track */

	/* GPU stream track named from "stream 7 " without the space */
	const struct tt_event *k = find(r, "gemm");
	const struct tt_track *gt = track_of(r, k);
	ck_assert_int_eq(gt->kind, TT_TRACK_GPU);
	ck_assert_int_eq(gt->stream, 7);
	ck_assert_str_eq(tt_str(r, gt->name), "stream 7");
	ck_assert(k->flags & TT_EF_STREAM);
	ck_assert(r->kinfo[k->aux].occupancy == 50.0f);
	/* memcpy comes first on the stream (ts 90) */
	ck_assert_str_eq(tt_ev_name(r, &r->ev[gt->first]), "Memcpy HtoD (Pinned -> Device)");

	/* launch link both ways; the memcpy has no launching call */
	ck_assert_uint_eq(r->nlinks, 1);
	const struct tt_event *launch = find(r, "cudaLaunchKernel");
	uint32_t li = (uint32_t)(launch - r->ev), ki = (uint32_t)(k - r->ev);
	ck_assert_uint_eq(tt_launch_of(r, ki), li);
	uint32_t lo, hi;
	tt_links_of_cpu(r, li, &lo, &hi);
	ck_assert_uint_eq(hi - lo, 1);
	ck_assert_uint_eq(r->links[lo].gpu, ki);

	/* global instant, memory instant, counters, flows */
	const struct tt_event *rwe = find(r, "Record Window End");
	ck_assert_int_eq(track_of(r, rwe)->kind, TT_TRACK_GLOBAL);
	ck_assert(rwe->flags & TT_EF_MARKER);
	const struct tt_event *mem = find(r, "[memory]");
	ck_assert(mem->flags & TT_EF_MEMEV);
	ck_assert_int_eq(r->meminfo[mem->aux].total_reserved, 8192);
	ck_assert_uint_eq(r->ncounters, 1);
	ck_assert_uint_eq(r->counters[0].count, 2);
	ck_assert(r->samples[r->counters[0].first].value == 1.0);
	ck_assert_uint_eq(r->nflows_total, 2);

	ck_assert_uint_eq(r->meta.ndevprops, 1);
	ck_assert_int_eq(r->meta.devprops[0].total_mem, INT64_C(84990623744));
	ck_assert_int_eq(r->meta.devprops[0].num_sms, 108);
	tt_model_free(m);
}
END_TEST

START_TEST(bare_array_without_bracket)
{
	struct tt_model *m = load1("bare.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_uint_eq(r->nev, 2);
	ck_assert(!r->meta.is_object);
	ck_assert_uint_eq(r->report.count[TT_W_BARE_ARRAY], 1);
	ck_assert_uint_eq(r->report.count[TT_W_MISSING_BRACKET], 1);
	ck_assert_uint_eq(r->report.count[TT_W_TRAILING_COMMA], 1);
	ck_assert_int_eq(r->rank_src, TT_RANK_POSITION);
	ck_assert_int_eq(r->rank, 0);
	const struct tt_track *t = &r->tracks[0];
	ck_assert(t->pid_is_str);
	ck_assert_str_eq(tt_str(r, t->pid_str), "CPU functions");
	tt_model_free(m);
}
END_TEST

START_TEST(key_order_ns_and_sorting)
{
	struct tt_model *m = load1("worker_5.keyorder.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_int_eq(r->rank, 5); /* from the file name: worker_5 */
	ck_assert_int_eq(r->rank_src, TT_RANK_NAME);
	ck_assert_str_eq(r->meta.display_unit, "ns");
	/* unsorted input; equal starts put the longer (parent) first */
	uint32_t t = tt_track_of(r, 0);
	const struct tt_track *tr = &r->tracks[t];
	ck_assert_uint_eq(tr->count, 3);
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first]), "a");
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first + 1]), "a-child");
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first + 2]), "b");
	ck_assert_int_eq(r->ev[tr->first].ts, INT64_C(1712195495519689047));
	ck_assert_int_eq(r->ev[tr->first + 1].dur, 2503);
	/* the profiler span is a marker: not part of the work span */
	ck_assert_int_eq(r->t0, INT64_C(1712195495519689047));
	ck_assert_int_eq(r->t1, INT64_C(1712195495519709547)); /* a: 689.047 + 20.5 */
	tt_model_free(m);
}
END_TEST

START_TEST(truncated_keeps_events)
{
	struct tt_model *m = load1("truncated.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_uint_eq(r->nev, 2);
	ck_assert_uint_eq(r->report.count[TT_W_TRUNCATED], 1);
	ck_assert_uint_eq(r->report.bytes_lost, 41); /* the cut event */
	ck_assert_int_eq(r->rank, 2);
	tt_model_free(m);
}
END_TEST

START_TEST(one_bad_file_does_not_stop_others)
{
	char good[1024], missing[1024];
	tl_fixture("phases.json", good, sizeof(good));
	tl_fixture("no-such-file.json", missing, sizeof(missing));
	char *files[2] = {missing, good};
	struct tt_model *m;
	struct tt_load_opts o = {0};
	o.threads = 2;
	ck_assert_int_eq(tt_model_load(&m, files, 2, &o), 0);
	ck_assert_uint_eq(m->nranks, 1);
	ck_assert_uint_eq(m->nfailures, 1);
	ck_assert_str_eq(m->failures[0].path, missing);
	tt_model_free(m);
}
END_TEST

/* The job's origin: the earliest work event over the ranks, whichever rank
 * holds it; ranks without events do not count. */
START_TEST(model_origin)
{
	static const char r0[] = "{\"distributedInfo\":{\"rank\":0},\"traceEvents\":["
				 "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
				 "\"ts\":2000,\"dur\":5}]}";
	static const char r1[] = "{\"distributedInfo\":{\"rank\":1},\"traceEvents\":["
				 "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
				 "\"ts\":1500.5,\"dur\":5}]}";
	static const char r2[] = "{\"distributedInfo\":{\"rank\":2},\"traceEvents\":[]}";
	const char *names[3] = {"r0.json", "r1.json", "r2.json"};
	const void *data[3] = {r0, r1, r2};
	size_t lens[3] = {sizeof(r0) - 1, sizeof(r1) - 1, sizeof(r2) - 1};
	struct tt_model *m;
	struct tt_load_opts o = {0};
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, lens, 3, &o), 0);
	ck_assert_uint_eq(m->nranks, 3);
	ck_assert_int_eq(tt_model_origin(m), 1500500);
	tt_model_free(m);
	ck_assert_int_eq(tt_model_origin(NULL), 0);
}
END_TEST

START_TEST(rank_from_name)
{
	ck_assert_int_eq(tt_rank_from_name("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34);
	ck_assert_int_eq(tt_rank_from_name("sampled_rank-0.json.gz"), 0);
	ck_assert_int_eq(tt_rank_from_name("rank0.json.gz"), 0);
	ck_assert_int_eq(tt_rank_from_name("rank3_trace.json.gz"), 3);
	ck_assert_int_eq(tt_rank_from_name("Worker_12.json"), 12);
	ck_assert_int_eq(tt_rank_from_name("host_1234.1712.pt.trace.json"), -1);
	ck_assert_int_eq(tt_rank_from_name("frank7.json"), -1); /* after a letter */
}
END_TEST

/* tt_msort: a natural merge sort must sort and keep equal keys in input
 * order, whatever the shape: random, sorted, reversed, a few sorted runs,
 * many equal keys.  Checked against insertion sort. */
struct kv {
	int key, pos;
};

static int kv_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct kv *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

START_TEST(msort_natural_and_stable)
{
	unsigned seed = 12345;
	for (int shape = 0; shape < 5; shape++) {
		for (size_t n = 0; n < 300; n += 1 + n / 7) {
			struct kv *v = malloc((n + 1) * sizeof(*v)), *ref = malloc((n + 1) * sizeof(*v));
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				int r = (int)(seed >> 16);
				int key = shape == 0   ? r % 1000
					  : shape == 1 ? (int)i
					  : shape == 2 ? (int)(n - i)
					  : shape == 3 ? (int)(i % (n / 3 + 1)) /* three runs */
						       : r % 3;
				v[i] = (struct kv){key, (int)i};
			}
			memcpy(ref, v, n * sizeof(*v));
			for (size_t i = 1; i < n; i++) /* stable insertion sort */
				for (size_t j = i; j > 0 && ref[j - 1].key > ref[j].key; j--) {
					struct kv t = ref[j];
					ref[j] = ref[j - 1];
					ref[j - 1] = t;
				}
			tt_msort(v, n, sizeof(*v), kv_cmp, NULL);
			for (size_t i = 0; i < n; i++)
				ck_assert_msg(v[i].key == ref[i].key && v[i].pos == ref[i].pos,
					      "shape %d n %zu at %zu: (%d,%d) vs (%d,%d)", shape, n, i,
					      v[i].key, v[i].pos, ref[i].key, ref[i].pos);
			free(v);
			free(ref);
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, every_phase);
	tcase_add_test(tc, bare_array_without_bracket);
	tcase_add_test(tc, key_order_ns_and_sorting);
	tcase_add_test(tc, truncated_keeps_events);
	tcase_add_test(tc, one_bad_file_does_not_stop_others);
	tcase_add_test(tc, rank_from_name);
	tcase_add_test(tc, model_origin);
	tcase_add_test(tc, msort_natural_and_stable);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
