/* model room: trace files grouped into runs, workers and profiling cycles
 * (tracetop/runs.h) -- by their names alone (the paths need not exist). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/input.h"
#include "tracetop/runs.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"
#include "testlib.h"

START_TEST(handler_names)
{
	char w[64];
	uint64_t num;
	int64_t st;
	ck_assert(tt_handler_name("worker0.1700000000000.pt.trace.json", w, sizeof(w), &num, &st));
	ck_assert_str_eq(w, "worker0");
	ck_assert_uint_eq(num, 1700000000000ull);
	ck_assert_int_eq(st, INT64_C(1700000000000000000)); /* ms */
	ck_assert(tt_handler_name("node-a_4242.1700000000123456789.pt.trace.json.gz", w, sizeof(w),
				  &num, &st));
	ck_assert_str_eq(w, "node-a_4242");
	ck_assert_int_eq(st, INT64_C(1700000000123456789)); /* ns (newer PyTorch) */
	/* a cache of one is looked through */
	ck_assert(tt_handler_name("w.1700000000.pt.trace.json.gz.tts", w, sizeof(w), &num, &st));
	ck_assert_str_eq(w, "w");
	ck_assert_int_eq(st, INT64_C(1700000000000000000)); /* s */
	/* a number that is no time (a pid): named, no stamp */
	ck_assert(tt_handler_name("rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", w, sizeof(w),
				  &num, &st));
	ck_assert_str_eq(w, "rank-0.Apr_03_18_51_38");
	ck_assert_uint_eq(num, 1102);
	ck_assert_int_eq(st, -1);
	/* not the handler's naming */
	ck_assert(!tt_handler_name("rank-0.json", w, sizeof(w), &num, &st));
	ck_assert(!tt_handler_name("worker0.pt.trace.json", w, sizeof(w), &num, &st));
	ck_assert(!tt_handler_name(".123.pt.trace.json", w, sizeof(w), &num, &st));
	ck_assert(!tt_handler_name("w.17x.pt.trace.json", w, sizeof(w), &num, &st));
	/* a number of 25 digits is no time either, and does not overflow */
	ck_assert(tt_handler_name("w.9999999999999999999999999.pt.trace.json", w, sizeof(w), &num,
				  &st));
	ck_assert_int_eq(st, -1);
}
END_TEST

/* a run of the names given (no such files: grouped by name only) */
static struct tt_run *run_of(const char *const *names, size_t n)
{
	char **p = tt_calloc(n + 1, sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		p[i] = tt_malloc(strlen(names[i]) + 16);
		sprintf(p[i], "/nonexistent/%s", names[i]);
	}
	struct tt_run *r = tt_run_new("t", NULL, p, n);
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
	return r;
}

static const char *base(const struct tt_run *r, size_t i)
{
	return strrchr(r->files[i].path, '/') + 1;
}

START_TEST(one_worker_three_cycles)
{
	const char *n[] = {"worker0.1700000120000.pt.trace.json", "worker0.1700000000000.pt.trace.json",
			   "worker0.1700000060000.pt.trace.json"};
	struct tt_run *r = run_of(n, 3);
	ck_assert(r->cycled);
	ck_assert_uint_eq(r->ncycles, 3);
	ck_assert_uint_eq(r->nworkers, 1);
	for (size_t c = 0; c < 3; c++) {
		ck_assert_uint_eq(r->cycles[c].nfiles, 1);
		ck_assert(tt_cycle_complete(&r->cycles[c]));
		ck_assert_int_eq(r->cycles[c].time, INT64_C(1700000000000000000) +
							    (int64_t)c * INT64_C(60000000000));
	}
	ck_assert_str_eq(base(r, r->cycles[0].first), "worker0.1700000000000.pt.trace.json");
	ck_assert_uint_eq(tt_run_newest_complete(r), 2);
	ck_assert_uint_eq(tt_run_cycle_at(r, r->cycles[1].time), 1);
	tt_run_free(r);
}
END_TEST

START_TEST(workers_matched_by_time)
{
	/* 4 {hostname}_{pid} workers x 2 cycles; each writes up to 2.5 s after
	 * the first (less than half the 60 s between cycles), in any order */
	const char *n[] = {
		"node-b_778.1700000062500.pt.trace.json.gz", "node-a_4242.1700000000000.pt.trace.json.gz",
		"node-a_4243.1700000000900.pt.trace.json.gz", "node-b_777.1700000001200.pt.trace.json.gz",
		"node-b_778.1700000002500.pt.trace.json.gz", "node-a_4242.1700000060000.pt.trace.json.gz",
		"node-a_4243.1700000060900.pt.trace.json.gz", "node-b_777.1700000061200.pt.trace.json.gz",
	};
	struct tt_run *r = run_of(n, 8);
	ck_assert_uint_eq(r->ncycles, 2);
	ck_assert_uint_eq(r->nworkers, 4);
	for (size_t c = 0; c < 2; c++) {
		const struct tt_cycle *cy = &r->cycles[c];
		ck_assert_uint_eq(cy->nfiles, 4);
		ck_assert_uint_eq(cy->nworkers, 4);
		ck_assert_uint_eq(cy->expected, 4);
		/* by worker name */
		ck_assert_str_eq(r->files[cy->first].worker, "node-a_4242");
		ck_assert_str_eq(r->files[cy->first + 3].worker, "node-b_778");
		for (size_t i = cy->first; i < cy->first + cy->nfiles; i++)
			ck_assert_int_eq(r->files[i].stamp / INT64_C(60000000000),
					 INT64_C(1700000000000000000) / INT64_C(60000000000) +
						 (int64_t)c);
	}
	ck_assert_int_eq(r->cycles[1].time, INT64_C(1700000062500000000));
	tt_run_free(r);
}
END_TEST

START_TEST(a_worker_missing)
{
	/* the newest cycle lacks worker1 (not written yet): cycle 1 opens */
	const char *n[] = {"w0.1700000000000.pt.trace.json", "w1.1700000000010.pt.trace.json",
			   "w0.1700000060000.pt.trace.json"};
	struct tt_run *r = run_of(n, 3);
	ck_assert_uint_eq(r->ncycles, 2);
	ck_assert_uint_eq(r->cycles[1].nworkers, 1);
	ck_assert_uint_eq(r->cycles[1].expected, 2);
	ck_assert(!tt_cycle_complete(&r->cycles[1]));
	ck_assert_uint_eq(tt_run_newest_complete(r), 0);
	char miss[64];
	tt_run_missing(r, 1, miss, sizeof(miss));
	ck_assert_str_eq(miss, "w1");
	tt_run_free(r);
}
END_TEST

START_TEST(restarted_job)
{
	/* the job restarted: new pids, a group of cycles of its own; the
	 * second launch has 2 workers, each cycle of it is complete */
	const char *n[] = {"h_1.1700000000000.pt.trace.json", "h_2.1700000000010.pt.trace.json",
			   "h_3.1700000000020.pt.trace.json", "h_7.1700000600000.pt.trace.json",
			   "h_8.1700000600010.pt.trace.json"};
	struct tt_run *r = run_of(n, 5);
	ck_assert_uint_eq(r->ncycles, 2);
	ck_assert_uint_eq(r->cycles[0].expected, 3);
	ck_assert_uint_eq(r->cycles[1].expected, 2);
	ck_assert(tt_cycle_complete(&r->cycles[1]));
	tt_run_free(r);
}
END_TEST

START_TEST(no_cycles_named)
{
	/* the old way: one cycle of every file, in the order given */
	const char *n[] = {"rank-1.json", "rank-0.json", "x.json.gz"};
	struct tt_run *r = run_of(n, 3);
	ck_assert(!r->cycled);
	ck_assert_uint_eq(r->ncycles, 1);
	ck_assert_uint_eq(r->cycles[0].nfiles, 3);
	ck_assert_uint_eq(r->cycles[0].nworkers, 3);
	ck_assert(tt_cycle_complete(&r->cycles[0]));
	ck_assert_str_eq(base(r, 0), "rank-1.json");
	ck_assert_str_eq(base(r, 2), "x.json.gz");
	/* one name as json and as json.gz: a clash in one cycle, not two cycles */
	const char *m[] = {"w.1700000000000.pt.trace.json", "w.1700000000000.pt.trace.json.gz"};
	struct tt_run *q = run_of(m, 2);
	ck_assert_uint_eq(q->ncycles, 1);
	ck_assert_uint_eq(q->cycles[0].nfiles, 2);
	ck_assert_uint_eq(q->cycles[0].nworkers, 1);
	tt_run_free(q);
	tt_run_free(r);
}
END_TEST

START_TEST(numbers_without_time)
{
	/* numbers that are no time: the k-th of each worker is cycle k (the
	 * TensorBoard plugin's way), whatever the numbers */
	const char *n[] = {"a.7.pt.trace.json", "a.12.pt.trace.json", "b.900.pt.trace.json",
			   "b.1000.pt.trace.json"};
	struct tt_run *r = run_of(n, 4);
	ck_assert(r->cycled);
	ck_assert_uint_eq(r->ncycles, 2);
	ck_assert_str_eq(base(r, r->cycles[0].first), "a.7.pt.trace.json");
	ck_assert_str_eq(base(r, r->cycles[0].first + 1), "b.900.pt.trace.json");
	ck_assert_str_eq(base(r, r->cycles[1].first + 1), "b.1000.pt.trace.json");
	/* one file of a worker, a number that is no time: not cycled */
	const char *m[] = {"rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"};
	struct tt_run *q = run_of(m, 1);
	ck_assert(!q->cycled);
	tt_run_free(q);
	tt_run_free(r);
}
END_TEST

START_TEST(many_workers_identical_stamps)
{
	/* 1024 workers x 5 cycles, every file of a cycle with the same stamp
	 * (a hostile shape: ties everywhere), given newest first */
	size_t nw = 1024, nc = 5, n = nw * nc;
	char **p = tt_calloc(n, sizeof(*p));
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw; w++) {
			p[(nc - 1 - c) * nw + w] = tt_malloc(96);
			sprintf(p[(nc - 1 - c) * nw + w], "d/host%zu_%zu.%llu.pt.trace.json.gz", w % 8,
				1000 + w, (unsigned long long)(1700000000000ull + c * 30000ull));
		}
	struct tt_run *r = tt_run_new("big", NULL, p, n);
	ck_assert_uint_eq(r->ncycles, nc);
	ck_assert_uint_eq(r->nworkers, nw);
	for (size_t c = 0; c < nc; c++) {
		ck_assert_uint_eq(r->cycles[c].nfiles, nw);
		ck_assert_uint_eq(r->cycles[c].expected, nw);
		ck_assert(tt_cycle_complete(&r->cycles[c]));
	}
	tt_run_free(r);
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}
END_TEST

START_TEST(cycle_text)
{
	char buf[120];
	tt_cycle_text(buf, sizeof(buf), 3, 5, INT64_C(1700000585000000000), NULL);
	ck_assert_str_eq(buf, "cycle 3 of 5 (22:23:05)"); /* TZ=UTC */
	tt_cycle_text(buf, sizeof(buf), 1, 2, 0, NULL);
	ck_assert_str_eq(buf, "cycle 1 of 2");
	tt_fmt_walltime(buf, sizeof(buf), INT64_C(1700000585000000000), true);
	ck_assert_str_eq(buf, "2023-11-14 22:23:05");
}
END_TEST

/* ---- following a folder (a thread loads the new cycle) ---- */

static void write_trace(const char *dir, const char *worker, unsigned long long stamp_ms,
			int rank, int step, size_t cut)
{
	char path[512], text[1024];
	snprintf(path, sizeof(path), "%s/%s.%llu.pt.trace.json", dir, worker, stamp_ms);
	unsigned long long t = (stamp_ms - 20000) * 1000;
	int n = snprintf(text, sizeof(text),
			 "{\"distributedInfo\": {\"rank\": %d}, \"traceEvents\": [\n"
			 "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
			 "\"ProfilerStep#%d\", \"pid\": 1, \"tid\": 1, \"ts\": %llu, \"dur\": 100},\n"
			 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, "
			 "\"tid\": 7, \"ts\": %llu, \"dur\": 50, \"args\": {\"stream\": 7}}\n]}\n",
			 rank, step, t, t + 10);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(text, 1, cut && cut < (size_t)n ? cut : (size_t)n, f);
	fclose(f);
}

START_TEST(follow_offers_whole_cycles)
{
	char dir[] = "/tmp/tt-follow.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_trace(dir, "w0", 1700000000000ull, 0, 1, 0);
	write_trace(dir, "w1", 1700000000010ull, 1, 1, 0);
	struct tt_input *in = tt_input_new_dir(dir);
	struct tt_load_opts o = {.threads = 2};
	tt_input_follow(in, true, &o);
	struct tt_model *m = NULL;
	char why[300];
	ck_assert_int_eq(tt_input_load(in, TT_CYCLE_DEFAULT, &o, &m, why, sizeof(why)), 0);
	ck_assert_int_eq(m->cycle, 1);
	tt_model_free(m);
	/* cycle 2: one whole file, one cut short -- waited for, not offered */
	write_trace(dir, "w0", 1700000060000ull, 0, 2, 0);
	write_trace(dir, "w1", 1700000060010ull, 1, 2, 60);
	ck_assert_ptr_null(tt_input_wait(in, 2500));
	char note[80];
	tt_input_cycle_note(in, 1, note, sizeof(note));
	ck_assert_msg(strstr(note, "being written") != NULL, "note: %s", note);
	/* whole: offered (by polling alone), as cycle 2 of 2 with its step */
	write_trace(dir, "w1", 1700000060010ull, 1, 2, 0);
	m = tt_input_wait(in, 10000);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->nranks, 2);
	ck_assert_int_eq(m->cycle, 2);
	for (size_t i = 0; i < m->nranks; i++)
		ck_assert_uint_eq(m->ranks[i]->report.count[TT_W_TRUNCATED], 0);
	int64_t lo, hi;
	bool agree;
	ck_assert(tt_model_steps(m, &lo, &hi, &agree));
	ck_assert(lo == 2 && hi == 2 && agree);
	tt_model_free(m);
	tt_input_free(in);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* a followed log directory: every run looked at while no run is open or
 * the runs are in view; a new run and a run's new cycle found; the open
 * run kept; the steps of each cycle loaded remembered */
START_TEST(follow_logdir)
{
	char dir[] = "/tmp/tt-logdir.XXXXXX", sub[600];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/b", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	write_trace(sub, "w0", 1700000000000ull, 0, 1, 0);
	snprintf(sub, sizeof(sub), "%s/d", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	write_trace(sub, "w0", 1700000000000ull, 0, 1, 0);
	struct tt_input *in = tt_input_new_dir(dir);
	const struct tt_logdir *d = tt_input_logdir(in);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->nruns, 2);
	ck_assert_ptr_null(tt_input_run(in)); /* (no run chosen yet) */
	struct tt_load_opts o = {.threads = 1};
	tt_input_follow(in, true, &o);
	/* a run starts, named to come first; b writes a second cycle */
	snprintf(sub, sizeof(sub), "%s/a", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	write_trace(sub, "w0", 1700000000000ull, 0, 7, 0);
	snprintf(sub, sizeof(sub), "%s/b", dir);
	write_trace(sub, "w0", 1700000060000ull, 0, 2, 0);
	unsigned f = 0;
	for (int i = 0; i < 300 && !(f & TT_IN_CHANGED); i++) {
		usleep(10000);
		f = tt_input_tick(in, false);
	}
	ck_assert(f & TT_IN_CHANGED);
	d = tt_input_logdir(in);
	ck_assert_uint_eq(d->nruns, 3);
	ck_assert_str_eq(d->runs[0]->name, "a");
	ck_assert_str_eq(d->runs[1]->name, "b");
	ck_assert_uint_eq(d->runs[1]->ncycles, 2);
	ck_assert_ptr_null(tt_input_run(in));
	/* b opened: its cycles' steps known as each is loaded */
	tt_input_set_run(in, 1);
	struct tt_model *m = NULL;
	char why[300];
	ck_assert_int_eq(tt_input_load(in, 1, &o, &m, why, sizeof(why)), 0);
	tt_model_free(m);
	ck_assert_int_eq(tt_input_load(in, TT_CYCLE_DEFAULT, &o, &m, why, sizeof(why)), 0);
	ck_assert_int_eq(m->cycle, 2);
	tt_model_free(m);
	int64_t lo = 0, hi = 0;
	ck_assert(tt_input_cycle_steps(in, 0, &lo, &hi) && lo == 1 && hi == 1);
	ck_assert(tt_input_cycle_steps(in, 1, &lo, &hi) && lo == 2 && hi == 2);
	/* the runs in view, another run starts: found, b still the one open */
	tt_input_show_runs(in, true);
	snprintf(sub, sizeof(sub), "%s/c", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	write_trace(sub, "w0", 1700000000000ull, 0, 1, 0);
	f = 0;
	for (int i = 0; i < 300 && !(f & TT_IN_CHANGED); i++) {
		usleep(10000);
		f = tt_input_tick(in, false);
	}
	d = tt_input_logdir(in);
	ck_assert_uint_eq(d->nruns, 4);
	ck_assert_str_eq(d->runs[2]->name, "c");
	ck_assert_uint_eq(tt_input_run_index(in), 1);
	ck_assert_str_eq(tt_input_run(in)->name, "b");
	ck_assert(tt_input_cycle_steps(in, 1, &lo, &hi) && lo == 2);
	/* another run opened: no steps known of its cycles */
	tt_input_set_run(in, 2);
	ck_assert(!tt_input_cycle_steps(in, 0, &lo, &hi));
	tt_input_free(in);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	setenv("TZ", "UTC", 1);
	Suite *s = suite_create("runs");
	TCase *tc = tcase_create("runs");
	/* (following waits for files to settle: a few seconds, more under TSan) */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, handler_names);
	tcase_add_test(tc, one_worker_three_cycles);
	tcase_add_test(tc, workers_matched_by_time);
	tcase_add_test(tc, a_worker_missing);
	tcase_add_test(tc, restarted_job);
	tcase_add_test(tc, no_cycles_named);
	tcase_add_test(tc, numbers_without_time);
	tcase_add_test(tc, many_workers_identical_stamps);
	tcase_add_test(tc, cycle_text);
	tcase_add_test(tc, follow_offers_whole_cycles);
	tcase_add_test(tc, follow_logdir);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
