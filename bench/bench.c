/* bench/bench: the figures of `make bench` (issue 4), each next to its target.
 *
 *   bench [-r REPEAT] [-c] PLAIN.json GZIP.json.gz CACHE.tts
 *
 * -c: only the critical path figures; -a: only the analyses' figures; -l:
 * only the load figures.
 *
 * Every measurement runs in a child process of its own (fork), so that the
 * peak RSS the parent reads back with wait4() belongs to that measurement
 * alone.  Each one is repeated (default 3) and the best time is printed:
 * the machine is shared, so wall times are noisy.  The page cache is warmed
 * first; nothing here fails on time. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/critpath.h"
#include "tracetop/io.h"
#include "tracetop/model.h"
#include "tracetop/report.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

#define MAX_REPORTS 24

/* what a child sends back through its pipe */
struct result {
	int rc;
	char msg[256];
	double secs;          /* the timed part */
	uint64_t text_bytes;  /* JSON text parsed (all ranks) */
	uint64_t events;      /* elements of traceEvents (all ranks) */
	uint64_t kept;        /* events in the model */
	uint64_t model_bytes; /* tt_rank_memsize, all ranks */
	uint64_t rss_before, rss_after; /* current RSS around the load */
	int nrep;
	/* critical path (M_CRITPATH): wall and CPU seconds */
	double cp_whole, cp_whole_cpu, cp_prep, cp_step_mean, cp_step_max, cp_step_cpu;
	uint64_t cp_events, cp_steps, cp_path;
	/* ... in tracetop's model: the whole trace, and every step with the
	 * preparation (wall and CPU seconds) */
	double tt_whole, tt_whole_cpu, tt_steps, tt_steps_cpu;
	char rep_name[MAX_REPORTS][16];
	double rep_secs[MAX_REPORTS];
	double rep_cpu[MAX_REPORTS]; /* user + system seconds of all threads */
	double an_cpu;               /* their sum */
	/* filled by the parent */
	uint64_t peak_rss;
	double cpu; /* user + system seconds of the measuring process */
};

/* M_SHARED: the analyses of M_ANALYSES through one result set, as the
 * explorer computes them (each analysis once, shared by the views that
 * read it) */
enum kind { M_LOAD, M_ANALYSES, M_SHARED, M_REOPEN, M_CRITPATH };

struct meas {
	enum kind kind;
	const char *files[4];
	size_t nfiles;
	int threads;
	bool zlib; /* gzip inflated by zlib even where ISA-L is built in */
};

static uint64_t rss_now(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;
	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

static double secs_since(int64_t t0)
{
	return (double)(tt_now_ns() - t0) / 1e9;
}

/* CPU time of this thread, for figures on a busy machine */
static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this process (all its threads) */
static double process_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The critical path of the rank with most events: the whole trace, then
 * each ProfilerStep on its own (after one preparation). */
static void critpath(const struct tt_model *m, struct result *res)
{
	size_t ri = 0;
	for (size_t i = 1; i < m->nranks; i++)
		if (m->ranks[i]->nev > m->ranks[ri]->nev)
			ri = i;
	res->cp_events = m->ranks[ri]->report.events_seen;
	struct tt_cp_window all = {.kind = TT_CPW_ALL};
	struct tt_cp_result cr;
	int64_t t0 = tt_now_ns();
	double c0 = thread_cpu();
	tt_critical_path(m, ri, &all, NULL, &cr);
	res->cp_whole = secs_since(t0);
	res->cp_whole_cpu = thread_cpu() - c0;
	res->cp_path = cr.nedges;
	tt_cp_result_free(&cr);

	t0 = tt_now_ns();
	struct tt_cp *c = tt_cp_prepare(m, ri, NULL);
	res->cp_prep = secs_since(t0);
	const uint32_t *rows;
	size_t n = tt_cp_instances(c, "ProfilerStep", &rows);
	double sum = 0, cpu = 0;
	for (size_t i = 0; i < n; i++) {
		struct tt_cp_window w = {.kind = TT_CPW_ANNOT, .annotation = "ProfilerStep",
					 .first = (int64_t)i, .last = (int64_t)i};
		int64_t t1 = tt_now_ns();
		double c1 = thread_cpu();
		tt_cp_run(c, &w, &cr);
		double s = secs_since(t1);
		cpu += thread_cpu() - c1;
		tt_cp_result_free(&cr);
		sum += s;
		if (s > res->cp_step_max)
			res->cp_step_max = s;
	}
	tt_cp_free(c);
	res->cp_steps = n;
	res->cp_step_mean = n ? sum / (double)n : 0;
	res->cp_step_cpu = n ? cpu / (double)n : 0;
	res->secs = res->cp_whole;

	/* tracetop's model (one rank: no collectives to wait in) */
	struct tt_cp_opts to = {.model = TT_CPM_TRACETOP};
	t0 = tt_now_ns();
	c0 = thread_cpu();
	tt_critical_path(m, ri, &all, &to, &cr);
	res->tt_whole = secs_since(t0);
	res->tt_whole_cpu = thread_cpu() - c0;
	tt_cp_result_free(&cr);
	t0 = tt_now_ns();
	c0 = thread_cpu();
	c = tt_cp_prepare(m, ri, &to);
	n = tt_cp_instances(c, "ProfilerStep", &rows);
	for (size_t i = 0; i < n; i++) {
		struct tt_cp_window w = {.kind = TT_CPW_ANNOT, .annotation = "ProfilerStep",
					 .first = (int64_t)i, .last = (int64_t)i};
		tt_cp_run(c, &w, &cr);
		tt_cp_result_free(&cr);
	}
	tt_cp_free(c);
	res->tt_steps = secs_since(t0);
	res->tt_steps_cpu = thread_cpu() - c0;
}

static void model_totals(const struct tt_model *m, struct result *res)
{
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		res->text_bytes += r->report.bytes_total;
		res->events += r->report.events_seen;
		res->kept += r->nev;
		res->model_bytes += tt_rank_memsize(r);
	}
}

/* Report nm on m in a child process: its wall and CPU seconds */
static void alone(const struct tt_model *m, const char *nm, const struct tt_report_opts *ro,
		  double *secs, double *cpu)
{
	double v[2] = {0, 0};
	int fds[2];
	*secs = *cpu = 0;
	if (pipe(fds) != 0)
		return;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		struct tt_table **tabs = NULL;
		size_t n = 0;
		struct tt_err err;
		tt_err_clear(&err);
		int64_t t1 = tt_now_ns();
		double c1 = process_cpu();
		(void)tt_report_build(nm, m, NULL, ro, &tabs, &n, &err);
		v[0] = secs_since(t1);
		v[1] = process_cpu() - c1;
		tt_tables_free(tabs, n);
		ssize_t k = write(fds[1], v, sizeof(v));
		_exit(k == (ssize_t)sizeof(v) ? 0 : 3);
	}
	close(fds[1]);
	ssize_t k;
	while ((k = read(fds[0], v, sizeof(v))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (k == (ssize_t)sizeof(v)) {
		*secs = v[0];
		*cpu = v[1];
	}
}

static void child(const struct meas *ms, struct result *res)
{
	struct tt_load_opts o = {0};
	o.threads = ms->threads;
	if (ms->zlib)
		tt_io_set_inflater(TT_INFLATE_ZLIB);
	o.no_cache = true; /* the cache is measured on its own */
	struct tt_model *m = NULL;
	res->rss_before = rss_now();
	int64_t t0 = tt_now_ns();
	res->rc = tt_model_load(&m, (char *const *)ms->files, ms->nfiles, &o);
	double load = secs_since(t0);
	res->rss_after = rss_now();
	if (res->rc || m->nfailures) {
		if (m && m->nfailures)
			tt_err_format(&m->failures[0].err, res->msg, sizeof(res->msg));
		else
			snprintf(res->msg, sizeof(res->msg), "load failed (%d)", res->rc);
		res->rc = res->rc ? res->rc : 1;
		return;
	}
	model_totals(m, res);
	res->secs = load;
	if (ms->kind == M_CRITPATH)
		critpath(m, res);
	if (ms->kind == M_ANALYSES || ms->kind == M_SHARED) {
		struct tt_report_opts ro;
		tt_report_opts_init(&ro);
		struct tt_results *shared = NULL;
		if (ms->kind == M_SHARED) {
			struct tt_results_opts rso;
			tt_report_results_opts(&ro, &rso);
			shared = tt_results_new(m, NULL, &rso);
		}
		double total = 0;
		for (const char *const *nm = tt_report_names; *nm; nm++) {
			if (!strcmp(*nm, "diff") || !strcmp(*nm, "load") || !strcmp(*nm, "summary"))
				continue;
			if (res->nrep >= MAX_REPORTS)
				break;
			struct tt_table **tabs = NULL;
			size_t n = 0;
			struct tt_err err;
			tt_err_clear(&err);
			double s, cpu;
			if (shared) {
				int64_t t1 = tt_now_ns();
				double c1 = process_cpu();
				int rc = tt_report_tables(shared, *nm, &ro, &tabs, &n, &err);
				s = secs_since(t1);
				cpu = process_cpu() - c1;
				tt_tables_free(tabs, n);
				/* "nothing to report" is an answer too; only time it */
				(void)rc;
			} else {
				/* each alone: in a process of its own, so that nothing
				 * another report derived from the ranks (their memos:
				 * the op tree, the event selection) is there already */
				alone(m, *nm, &ro, &s, &cpu);
			}
			snprintf(res->rep_name[res->nrep], sizeof(res->rep_name[0]), "%s", *nm);
			res->rep_cpu[res->nrep] = cpu;
			res->rep_secs[res->nrep++] = s;
			res->an_cpu += cpu;
			total += s;
		}
		res->secs = total;
		tt_results_free(shared);
	}
	tt_model_free(m);
}

/* run one measurement in a child; the peak RSS comes from wait4() */
static int run_once(const struct meas *ms, struct result *out)
{
	int fds[2];
	if (pipe(fds) != 0) {
		perror("bench: pipe");
		return -1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		struct result res;
		memset(&res, 0, sizeof(res));
		child(ms, &res);
		const char *p = (const char *)&res;
		size_t left = sizeof(res);
		while (left > 0) {
			ssize_t k = write(fds[1], p, left);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				_exit(3);
			p += k;
			left -= (size_t)k;
		}
		_exit(0);
	}
	close(fds[1]);
	memset(out, 0, sizeof(*out));
	char *p = (char *)out;
	size_t got = 0;
	while (got < sizeof(*out)) {
		ssize_t k = read(fds[0], p + got, sizeof(*out) - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fds[0]);
	int status = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	if (got != sizeof(*out) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		memset(out, 0, sizeof(*out));
		out->rc = -1;
		snprintf(out->msg, sizeof(out->msg), "the measuring process died (status %d)",
			 status);
		return -1;
	}
	out->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
	out->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return out->rc ? -1 : 0;
}

static int repeat = 3;

/* best time of `repeat` runs; the peak RSS is the largest seen */
static int run(const struct meas *ms, struct result *best)
{
	uint64_t peak = 0;
	int ok = 0;
	for (int i = 0; i < repeat; i++) {
		struct result r;
		if (run_once(ms, &r) != 0) {
			*best = r;
			return -1;
		}
		if (r.peak_rss > peak)
			peak = r.peak_rss;
		if (!ok || r.secs < best->secs) {
			if ((ms->kind == M_ANALYSES || ms->kind == M_SHARED) && ok) {
				/* keep the best time of each report */
				for (int k = 0; k < r.nrep && k < best->nrep; k++) {
					if (best->rep_secs[k] < r.rep_secs[k])
						r.rep_secs[k] = best->rep_secs[k];
					if (best->rep_cpu[k] < r.rep_cpu[k])
						r.rep_cpu[k] = best->rep_cpu[k];
				}
				if (best->an_cpu < r.an_cpu)
					r.an_cpu = best->an_cpu;
			}
			*best = r;
		} else if (ms->kind == M_ANALYSES || ms->kind == M_SHARED) {
			for (int k = 0; k < r.nrep && k < best->nrep; k++) {
				if (r.rep_secs[k] < best->rep_secs[k])
					best->rep_secs[k] = r.rep_secs[k];
				if (r.rep_cpu[k] < best->rep_cpu[k])
					best->rep_cpu[k] = r.rep_cpu[k];
			}
			if (r.an_cpu < best->an_cpu)
				best->an_cpu = r.an_cpu;
		}
		ok = 1;
	}
	best->peak_rss = peak;
	return 0;
}

static double mb(uint64_t b)
{
	return (double)b / 1e6;
}

static void warm(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	static char buf[1 << 20];
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static const char *verdict(double v, double target, bool less_is_better)
{
	bool ok = less_is_better ? v <= target : v >= target;
	return ok ? "met" : "not met";
}

static void load_line(const char *label, const struct result *r, double target_mbs)
{
	double mbs = mb(r->text_bytes) / r->secs;
	printf("  %-30s %7.0f MB/s  %5.2f M events/s  %6.3f s (cpu %5.2f s)  peak %4.0f MB", label,
	       mbs, (double)r->events / r->secs / 1e6, r->secs, r->cpu, mb(r->peak_rss));
	if (target_mbs > 0)
		printf("   target >= %.0f MB/s: %s", target_mbs, verdict(mbs, target_mbs, false));
	printf("\n");
}

static void failed(const char *what, const struct result *r)
{
	printf("  %-30s FAILED: %s\n", what, r->msg[0] ? r->msg : "?");
}

int main(int argc, char **argv)
{
	int opt;
	bool only_cp = false, only_an = false, only_load = false;
	while ((opt = getopt(argc, argv, "r:cal")) != -1) {
		if (opt == 'r')
			repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
		else if (opt == 'c')
			only_cp = true;
		else if (opt == 'a')
			only_an = true;
		else if (opt == 'l')
			only_load = true;
		else
			return 2;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: bench [-r REPEAT] [-c|-a|-l] PLAIN.json GZIP.json.gz CACHE.tts\n");
		return 2;
	}
	const char *plain = argv[optind], *gz = argv[optind + 1], *tts = argv[optind + 2];
	int ncpu = tt_ncpus();
	warm(plain);
	warm(gz);
	warm(tts);
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("tracetop bench: %s (%.1f MB), %s (%.1f MB), %d cores, best of %d\n", plain,
	       mb(file_size(plain)), gz, mb(file_size(gz)), ncpu, repeat);
	/* wall times mean little on a busy machine: say how busy it was */
	double la[3];
	if (getloadavg(la, 3) == 3)
		printf("load average before: %.2f %.2f %.2f (cpu = user + system seconds of the "
		       "measuring process)\n",
		       la[0], la[1], la[2]);

	struct result r1, rn, g1, gn, two, an, ro;
	struct meas m = {M_LOAD, {plain}, 1, 1, false};
	if (only_cp)
		goto critical_path;
	if (only_an)
		goto analyses;

	printf("\nLoad to a ready model (JSON text per second):\n");
	int ok_r1 = run(&m, &r1) == 0;
	if (ok_r1)
		load_line("plain, 1 thread", &r1, 0);
	else
		failed("plain, 1 thread", &r1);
	m.threads = ncpu;
	char lab[64];
	snprintf(lab, sizeof(lab), "plain, %d threads (split)", ncpu);
	int ok_rn = run(&m, &rn) == 0;
	if (ok_rn)
		load_line(lab, &rn, 800);
	else
		failed(lab, &rn);
	/* gzip by this build's inflater, then by zlib: each against the plain
	 * load of the same text on as many threads */
	const char *inf = tt_io_inflater_name();
	bool isal = strncmp(inf, "zlib", 4) != 0;
	for (int z = 0; z < (isal ? 2 : 1); z++) {
		const char *by = z ? "zlib" : (isal ? "ISA-L" : "zlib");
		struct meas mg = {M_LOAD, {gz}, 1, 1, z == 1};
		snprintf(lab, sizeof(lab), "gzip (%s), 1 thread", by);
		if (run(&mg, &g1) == 0) {
			load_line(lab, &g1, 600);
			if (ok_r1)
				printf("  %-30s %7.2fx the plain load (cpu %.2fx)   target <= 1.3x: %s\n",
				       "  gzip / plain, 1 thread", g1.secs / r1.secs, g1.cpu / r1.cpu,
				       verdict(g1.secs / r1.secs, 1.3, true));
		} else {
			failed(lab, &g1);
		}
		mg.threads = ncpu;
		snprintf(lab, sizeof(lab), "gzip (%s), %d threads", by, ncpu);
		if (run(&mg, &gn) == 0) {
			load_line(lab, &gn, 900);
			if (ok_rn)
				printf("  %-30s %7.2fx the plain load (cpu %.2fx)   target <= 1.3x: %s\n",
				       "  gzip / plain, all threads", gn.secs / rn.secs, gn.cpu / rn.cpu,
				       verdict(gn.secs / rn.secs, 1.3, true));
		} else {
			failed(lab, &gn);
		}
	}

	/* two ranks on two cores vs one rank on one core */
	struct meas m2 = {M_LOAD, {plain, plain}, 2, 2, false};
	if (run(&m2, &two) == 0 && ok_r1) {
		double speed = 2.0 * r1.secs / two.secs;
		printf("  %-30s %7.0f MB/s  %5.2f M events/s  %6.3f s (cpu %5.2f s)  peak %4.0f MB\n",
		       "two ranks, 2 threads", mb(two.text_bytes) / two.secs,
		       (double)two.events / two.secs / 1e6, two.secs, two.cpu, mb(two.peak_rss));
		printf("  %-30s %7.2fx one rank on one core        target >= 1.8x: %s\n",
		       "  speedup", speed, verdict(speed, 1.8, false));
	} else {
		failed("two ranks, 2 threads", &two);
	}

	if (only_load)
		return 0;
	printf("\nMemory (plain, 1 thread):\n");
	if (ok_r1) {
		double resident = (double)(r1.rss_after - r1.rss_before);
		printf("  %-30s %.1f MB accounted, %.1f MB resident after load; %llu events in the "
		       "file, %llu kept\n",
		       "model", mb(r1.model_bytes), resident / 1e6, (unsigned long long)r1.events,
		       (unsigned long long)r1.kept);
		double bpe = resident / (double)r1.events;
		printf("  %-30s %.1f B/event resident (%.1f accounted)   target <= 64: %s\n",
		       "bytes per event", bpe, (double)r1.model_bytes / (double)r1.events,
		       verdict(bpe, 64, true));
		double over = mb(r1.peak_rss) - resident / 1e6;
		printf("  %-30s %.1f MB = model + %.1f MB   target <= model + 64 MB: %s\n",
		       "peak RSS", mb(r1.peak_rss), over, verdict(over, 64, true));
	}
	if (ok_rn) {
		double over = mb(rn.peak_rss) - (double)(rn.rss_after - rn.rss_before) / 1e6;
		printf("  %-30s %.1f MB = model + %.1f MB   target <= model + 64 MB: %s\n",
		       "peak RSS, split load", mb(rn.peak_rss), over, verdict(over, 64, true));
	}

analyses:
	printf("\nAnalyses after load (every report but diff/load/summary, all ranks; each alone: in a "
	       "process of its own):\n");
	struct meas ma = {M_ANALYSES, {plain}, 1, 0, false};
	if (run(&ma, &an) == 0) {
		for (int k = 0; k < an.nrep; k++)
			printf("  %-30s %6.3f s (cpu %6.3f s)\n", an.rep_name[k], an.rep_secs[k],
			       an.rep_cpu[k]);
		double per_m = an.secs / ((double)an.events / 1e6);
		printf("  %-30s %6.3f s on %.2f M events = %.3f s per 1 M events\n",
		       "all, each alone", an.secs, (double)an.events / 1e6, per_m);
		printf("  %-30s %6.3f s = %.3f s per 1 M events (all threads; the best of each "
		       "report's)\n",
		       "  cpu", an.an_cpu, an.an_cpu / ((double)an.events / 1e6));
	} else {
		failed("analyses", &an);
	}
	struct meas msh = {M_SHARED, {plain}, 1, 0, false};
	struct result sh;
	if (run(&msh, &sh) == 0) {
		printf("  through one shared result set (as the explorer and a report of several "
		       "tables compute them):\n");
		for (int k = 0; k < sh.nrep; k++)
			printf("    %-28s %6.3f s (cpu %6.3f s)\n", sh.rep_name[k], sh.rep_secs[k],
			       sh.rep_cpu[k]);
		double per_m = sh.secs / ((double)sh.events / 1e6);
		double cpu_m = sh.an_cpu / ((double)sh.events / 1e6);
		/* one rank: one thread computes, so its CPU time is its time on an
		 * idle machine (the wall time carries the machine's load) */
		printf("  %-30s %6.3f s = %.3f s per 1 M events (cpu %.3f s = %.3f s per 1 M)   "
		       "target (cpu) <= 0.3 s per 1 M: %s\n",
		       "all, one shared result set", sh.secs, per_m, sh.an_cpu, cpu_m,
		       verdict(cpu_m, 0.3, true));
	} else {
		failed("all, one shared result set", &sh);
	}
	if (only_an)
		return 0;

critical_path:
	printf("\nCritical path (the rank with most events, from %s):\n", tts);
	struct meas mc = {M_CRITPATH, {tts}, 1, 0, false};
	struct result cp;
	if (run(&mc, &cp) == 0) {
		/* one thread, CPU-bound: its CPU time is its time on an idle machine */
		double per_m = cp.cp_whole_cpu / ((double)cp.cp_events / 1e6);
		printf("  %-30s %6.3f s (cpu %5.3f s) on %.2f M events, %llu path edges   "
		       "target (cpu) <= 0.5 s per 1 M events: %s\n",
		       "whole trace", cp.cp_whole, cp.cp_whole_cpu, (double)cp.cp_events / 1e6,
		       (unsigned long long)cp.cp_path, verdict(per_m, 0.5, true));
		printf("  %-30s %6.1f ms mean, %.1f ms worst (cpu %.1f ms mean) over %llu steps, "
		       "after %.0f ms of preparation\n",
		       "one step", cp.cp_step_mean * 1e3, cp.cp_step_max * 1e3, cp.cp_step_cpu * 1e3,
		       (unsigned long long)cp.cp_steps, cp.cp_prep * 1e3);
		per_m = cp.tt_steps_cpu / ((double)cp.cp_events / 1e6);
		printf("  %-30s %6.3f s (cpu %5.3f s) the whole trace; every step with the "
		       "preparation %.3f s (cpu %.3f s)   target (cpu, steps) <= 0.5 s per 1 M "
		       "events: %s\n",
		       "tracetop's whole-step model", cp.tt_whole, cp.tt_whole_cpu, cp.tt_steps,
		       cp.tt_steps_cpu, verdict(per_m, 0.5, true));
	} else {
		failed("critical path", &cp);
	}
	if (only_cp)
		return 0;

	printf("\nReopen from the .tts cache (tracetop summarize, then load %s):\n", tts);
	struct meas mr = {M_REOPEN, {tts}, 1, 0, false};
	if (run(&mr, &ro) == 0) {
		double per_m = ro.secs / ((double)ro.events / 1e6);
		printf("  %-30s %6.3f s for %.2f M events = %.3f s per 1 M events, peak %.0f MB   "
		       "target <= 0.1 s: %s\n",
		       "reopen", ro.secs, (double)ro.events / 1e6, per_m, mb(ro.peak_rss),
		       verdict(per_m, 0.1, true));
	} else {
		failed("reopen", &ro);
	}

	return 0;
}
