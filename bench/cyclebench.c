/* Runs and cycles at scale (tracetop/runs.h, tracetop/input.h): a folder of
 * W workers x C cycles written as tensorboard_trace_handler names them
 * (tiny traces, every file of a cycle with the same stamp: ties
 * everywhere), then the figures: looking at the folder and grouping it
 * (tt_input_new), opening the newest complete cycle, one look of a
 * follower, and how long after its last file is written a new cycle is
 * offered by polling alone; then the same number of files as a log
 * directory of 8 runs, and one look at every run of it (a followed log
 * directory's run list in view).  Prints figures; never fails on time.
 *
 *     cyclebench DIR WORKERS CYCLES */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/input.h"
#include "tracetop/util.h"

#define STAMP0 1700000000000ull

static void write_file(const char *dir, size_t w, size_t c)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/host%zu_%zu.%llu.pt.trace.json", dir, w / 8, 10000 + w,
		 (unsigned long long)(STAMP0 + c * 60000));
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "cyclebench: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	unsigned long long t = (STAMP0 + c * 60000 - 20000) * 1000ull;
	fprintf(f,
		"{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": %zu, \"world_size\": 1024},\n"
		"\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%zu\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": %llu, \"dur\": 100},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": %llu, \"dur\": 5, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": %llu, \"dur\": 50, \"args\": {\"correlation\": 1, \"stream\": 7}}\n"
		"]}\n",
		w, c * 10, t, t + 10, t + 20);
	fclose(f);
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: cyclebench DIR WORKERS CYCLES\n");
		return 2;
	}
	const char *dir = argv[1];
	size_t nw = (size_t)atol(argv[2]), nc = (size_t)atol(argv[3]);
	if (!nw || !nc || mkdir(dir, 0755) != 0) {
		fprintf(stderr, "cyclebench: bad counts, or %s exists\n", dir);
		return 2;
	}
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw; w++)
			write_file(dir, w, c);
	const char *paths[] = {dir};
	size_t nbad;
	/* looking and grouping: the best of 3 (the first also warms the cache) */
	int64_t best = INT64_MAX;
	struct tt_input *in = NULL;
	for (int i = 0; i < 3; i++) {
		tt_input_free(in);
		int64_t t0 = tt_now_ns();
		in = tt_input_new(paths, 1, &nbad, NULL, NULL);
		int64_t dt = tt_now_ns() - t0;
		best = dt < best ? dt : best;
	}
	const struct tt_run *r = in ? tt_input_run(in) : NULL;
	if (!r || r->ncycles != nc || r->cycles[nc - 1].nfiles != nw) {
		fprintf(stderr, "cyclebench: grouped wrong: %zu cycles\n", r ? r->ncycles : 0);
		return 1;
	}
	printf("%zu workers x %zu cycles (%zu files): looked at and grouped in %.1f ms\n", nw, nc,
	       nw * nc, ms(best));
	struct tt_load_opts o = {0};
	struct tt_model *m = NULL;
	char why[300];
	int64_t t0 = tt_now_ns();
	tt_input_load(in, TT_CYCLE_DEFAULT, &o, &m, why, sizeof(why));
	printf("  the newest complete cycle (%zu ranks) opened in %.1f ms\n", m ? m->nranks : 0,
	       ms(tt_now_ns() - t0));
	tt_model_free(m);
	/* following by polling: one look, then a new cycle's offer */
	tt_input_follow(in, true, &o);
	t0 = tt_now_ns();
	tt_input_rescan(in, false);
	printf("  one look of a follower: %.1f ms\n", ms(tt_now_ns() - t0));
	for (size_t w = 0; w < nw; w++)
		write_file(dir, w, nc);
	t0 = tt_now_ns();
	m = tt_input_wait(in, 60000);
	char how[80];
	tt_input_follow_kind(in, how, sizeof(how));
	printf("  a new cycle offered %.0f ms after its last file was written (%s)\n",
	       ms(tt_now_ns() - t0), how);
	int ok = m && m->nranks == nw;
	tt_model_free(m);
	tt_input_free(in);
	/* the same number of files as a log directory of 8 runs, followed
	 * with its run list in view: one look at every run */
	char ld[4096], run[4200];
	snprintf(ld, sizeof(ld), "%s.logdir", dir);
	if (mkdir(ld, 0755) != 0) {
		fprintf(stderr, "cyclebench: %s exists\n", ld);
		return 2;
	}
	size_t nr = 8, per = nw / nr ? nw / nr : 1;
	for (size_t k = 0; k < nr; k++) {
		snprintf(run, sizeof(run), "%s/run%zu", ld, k);
		if (mkdir(run, 0755) != 0)
			return 2;
		for (size_t c = 0; c < nc; c++)
			for (size_t w = 0; w < per; w++)
				write_file(run, w, c);
	}
	const char *lpaths[] = {ld};
	t0 = tt_now_ns();
	in = tt_input_new(lpaths, 1, &nbad, NULL, NULL);
	int64_t dt = tt_now_ns() - t0;
	const struct tt_logdir *d = in ? tt_input_logdir(in) : NULL;
	if (!d || d->nruns != nr) {
		fprintf(stderr, "cyclebench: log directory read wrong\n");
		return 1;
	}
	tt_input_follow(in, true, &o);
	tt_input_show_runs(in, true);
	t0 = tt_now_ns();
	tt_input_rescan(in, true);
	printf("  as a log directory of %zu runs x %zu workers: looked at in %.1f ms, one look "
	       "of a follower at every run %.1f ms\n",
	       nr, per, ms(dt), ms(tt_now_ns() - t0));
	tt_input_free(in);
	return ok ? 0 : 1;
}
