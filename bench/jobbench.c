/* bench/jobbench: the job-wide analyses of `make bench` on a job of many
 * ranks, after loading it once.
 *
 *   jobbench [-r REPEAT] [-j THREADS] PATH...
 *
 * Prints, each the best of REPEAT runs (the machine is shared): the
 * collectives matched across ranks (tt_coll_compute), per part and per
 * communication kernel; the job's critical path per step across ranks
 * (tt_cp_steps_compute in tracetop's model: every rank's steps and the
 * paths across them); the Distributed view's statistics of the collectives
 * per name and rank (tt_dist_compute_coll).  Wall and CPU seconds (all
 * threads).  Never fails on time. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/collectives.h"
#include "tracetop/critpath.h"
#include "tracetop/distributed.h"
#include "tracetop/model.h"
#include "tracetop/util.h"

static double cpu_secs(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double wall_secs(void)
{
	return (double)tt_now_ns() / 1e9;
}

int main(int argc, char **argv)
{
	int repeat = 3, threads = 0, c;
	while ((c = getopt(argc, argv, "r:j:")) != -1) {
		if (c == 'r')
			repeat = atoi(optarg);
		else if (c == 'j')
			threads = atoi(optarg);
		else
			return 2;
	}
	if (optind >= argc || repeat < 1) {
		fprintf(stderr, "usage: jobbench [-r REPEAT] [-j THREADS] PATH...\n");
		return 2;
	}
	char **files;
	size_t nbad;
	size_t nf = tt_expand_paths((const char *const *)argv + optind, (size_t)(argc - optind),
				    &files, &nbad, NULL, NULL);
	if (!nf) {
		fprintf(stderr, "jobbench: no trace files\n");
		return 2;
	}
	struct tt_load_opts lo = {0};
	lo.threads = threads;
	struct tt_model *m = NULL;
	double w0 = wall_secs();
	if (tt_model_load(&m, files, nf, &lo) != 0) {
		fprintf(stderr, "jobbench: loading failed\n");
		return 1;
	}
	double wload = wall_secs() - w0;
	tt_paths_free(files, nf);
	uint64_t events = 0;
	for (size_t i = 0; i < m->nranks; i++)
		events += m->ranks[i]->nev;
	printf("  %zu ranks, %.1f M model events, loaded in %.2f s\n", m->nranks,
	       (double)events / 1e6, wload);

	struct tt_aopts a = {0};
	a.threads = threads;
	double best = 1e30, best_cpu = 0;
	struct tt_coll coll;
	for (int i = 0; i < repeat; i++) {
		double t0 = wall_secs(), c0 = cpu_secs();
		tt_coll_compute(m, &a, &coll);
		double t = wall_secs() - t0, cc = cpu_secs() - c0;
		if (t < best) {
			best = t;
			best_cpu = cc;
		}
		if (i + 1 < repeat)
			tt_coll_free(&coll);
	}
	printf("  %-34s %7.3f s (cpu %.3f s): %zu collectives of %zu parts, %llu kernels, "
	       "%.2f us per part\n",
	       "collectives matched across ranks", best, best_cpu, coll.ncolls, coll.nparts,
	       (unsigned long long)coll.nkernels,
	       coll.nparts ? best * 1e6 / (double)coll.nparts : 0.0);
	/* the job's critical path: every rank's steps in tracetop's model with
	 * the waits, then the paths across ranks (the collectives of the last
	 * run above, computed once as the results do) */
	best = 1e30;
	best_cpu = 0;
	struct tt_cp_steps st;
	for (int i = 0; i < repeat; i++) {
		struct tt_cp_steps_opts o;
		tt_cp_steps_opts_init(&o);
		o.cp.a = &a;
		o.cp.coll = &coll;
		double t0 = wall_secs(), c0 = cpu_secs();
		tt_cp_steps_compute(m, &o, &st);
		double t = wall_secs() - t0, cc = cpu_secs() - c0;
		if (t < best) {
			best = t;
			best_cpu = cc;
		}
		if (i + 1 < repeat)
			tt_cp_steps_free(&st);
	}
	printf("  %-34s %7.3f s (cpu %.3f s): %zu rank-steps, %zu job paths of %zu edges   "
	       "target <= 2 s at 64 ranks\n",
	       "the job's critical path", best, best_cpu, st.n, st.njobs, st.njedges);
	tt_cp_steps_free(&st);
	/* the Distributed view's collective statistics (the collectives
	 * computed once, as the results do) */
	best = 1e30;
	best_cpu = 0;
	struct tt_dist d;
	for (int i = 0; i < repeat; i++) {
		double t0 = wall_secs(), c0 = cpu_secs();
		tt_dist_compute_coll(m, &a, &coll, NULL, &d);
		double t = wall_secs() - t0, cc = cpu_secs() - c0;
		if (t < best) {
			best = t;
			best_cpu = cc;
		}
		if (i + 1 < repeat)
			tt_dist_free(&d);
	}
	printf("  %-34s %7.3f s (cpu %.3f s): %zu calls of %zu collectives on %zu ranks\n",
	       "the Distributed view's statistics", best, best_cpu, d.ncalls, d.nstats, d.nranks);
	tt_dist_free(&d);
	tt_coll_free(&coll);
	tt_model_free(m);
	return 0;
}
