/* The complexity check: every command at N and 4N on adversarial shapes.
 *
 * For each shape of tests/tools/advgen.h (identical events on one track,
 * many streams, many steps, many names, many ranks, deep nesting, one
 * correlation id shared), the trace is made at about N and 4N events and
 * each step is timed on both: the load, every report in every format (diff:
 * the trace against itself), a headless explorer session that visits every
 * pane and view, drills in, sorts, filters and searches the timeline (a
 * substring and a regular expression), the Diff pane of the trace against
 * itself, and its drill-down (a name's instances on both sides) on the 8
 * rows with the most instances, timed alone.  Time is the process's CPU
 * time (all threads), each step repeated until it took long enough to
 * measure, what the analyses keep of a rank dropped before each run.
 *
 * A step fails when its time grows faster than the bound
 * 4N·log(4N) / (N·log N) allows, with a margin (a step timed again twice
 * before it fails, the smallest ratio kept, then measured from 4N to 16N:
 * it fails when it grows too fast there too), unless it took under a floor
 * at 4N (too short to tell).  The last line says how many steps were
 * judged and how many failed.
 *
 *   scaling                  make check: quick sizes (N = 3000), fails on a
 *                            step that grows too fast
 *   scaling --bench          make bench: larger sizes (N = 25000), prints
 *                            the ratios, never fails
 *   options: -n N, --shape NAME (repeatable), --step TEXT (steps whose name
 *   contains TEXT), --margin M (default 2), -v (every step, not only the
 *   worst of each shape)
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "advgen.h"
#include "tracetop/diff.h"
#include "tracetop/diffinst.h"
#include "tracetop/keymap.h"
#include "tracetop/model.h"
#include "tracetop/report.h"
#include "tracetop/util.h"
#include "tui/tui.h"

static FILE *devnull;
static double min_time = 0.01; /* seconds a measurement runs at least */

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the steps ---- */

struct trace {
	struct adv_file *f;
	size_t nf;
	struct tt_model *m;
	struct tt_diff d; /* the trace against itself (diff_drill) */
	bool have_d;
};

static struct tt_model *load(const struct trace *t)
{
	const char **names = tt_calloc(t->nf, sizeof(*names));
	const void **data = tt_calloc(t->nf, sizeof(*data));
	size_t *lens = tt_calloc(t->nf, sizeof(*lens));
	for (size_t i = 0; i < t->nf; i++) {
		names[i] = t->f[i].name;
		data[i] = t->f[i].text;
		lens[i] = t->f[i].len;
	}
	struct tt_load_opts o = {.threads = 1, .no_cache = true};
	struct tt_model *m = NULL;
	if (tt_model_load_mem(&m, names, data, lens, t->nf, &o) != 0 || !m || !m->nranks) {
		fprintf(stderr, "scaling: the generated trace did not load\n");
		exit(99);
	}
	free(names);
	free(data);
	free(lens);
	return m;
}

/* every pane and view: move, drill in and out, sort, filter, zoom */
static const char pane_keys[] = "jj<Enter>j<Enter><Escape><Escape>sS/k<Enter><Escape>G"
				"<Enter><Escape>g<PageDown><PageUp><End><Home>";

static char *session_keys(void)
{
	enum { NVIEWS = 14 };
	size_t cap = 4096 + (sizeof(pane_keys) + 40) * (10 + NVIEWS);
	char *s = tt_malloc(cap);
	size_t n = 0;
	for (const char *p = "123456780"; *p; p++)
		n += (size_t)snprintf(s + n, cap - n, "%c%s", *p, pane_keys);
	for (int v = 0; v < NVIEWS; v++) {
		n += (size_t)snprintf(s + n, cap - n, "v");
		for (int j = 0; j < v; j++)
			n += (size_t)snprintf(s + n, cap - n, "j");
		n += (size_t)snprintf(s + n, cap - n, "<Enter>%s<Escape>", pane_keys);
	}
	/* the timeline: zoom, pan, search a text and a regular expression */
	snprintf(s + n, cap - n,
		 "9++++----llhhjjkk<Tab>/op<Enter>nnN<Escape>"
		 "/re:(a|b|op)*(.*)(.*)(.*)(.*)x<Enter>nN<Escape>"
		 "/re:^(k|ke|ker|kern)+.*[0-9]$<Enter>nN<Escape>1");
	return s;
}

static void explorer(const struct tt_model *m, const struct tt_model *m2, const char *keys)
{
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.threads = 1;
	struct tt_keymap *km = tt_keymap_new();
	struct tt_app *a = tt_app_new(m, m2, &o, km, "scaling");
	tt_headless_run(a, 160, 50, keys, devnull, false);
	tt_app_free(a);
	tt_keymap_free(km);
}

static void report(const struct tt_model *m, const char *name)
{
	static const enum tt_format fmts[] = {TT_FMT_TABLE, TT_FMT_CSV, TT_FMT_JSON};
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.threads = 1;
	for (size_t f = 0; f < TT_ARRAY_SIZE(fmts); f++) {
		o.format = fmts[f];
		struct tt_err err;
		tt_err_clear(&err);
		tt_report_run(name, m, strcmp(name, "diff") == 0 ? m : NULL, &o, devnull, &err);
	}
}

/* The drill-down of the Diff pane (a name's instances on both sides) on
 * the 8 rows with the most instances of the trace diffed with itself: the
 * key path, timed alone (the session around it costs more). */
static void diff_prepare(struct trace *t)
{
	if (t->have_d)
		return;
	struct tt_diff_opts o;
	tt_diff_opts_init(&o);
	struct tt_err err;
	if (tt_diff(&t->d, t->m, t->m, &o, &err) != 0) {
		tt_diff_free(&t->d);
		return;
	}
	t->have_d = true;
}

static void diff_drill(struct trace *t)
{
	if (!t->have_d)
		return;
	struct tt_diff *d = &t->d;
	/* the 8 rows with the most instances, found once */
	size_t top[8], ntop = 0;
	for (size_t i = 0; i < d->n; i++) {
		size_t j = ntop < 8 ? ntop++ : 8;
		while (j > 0 && d->rows[top[j - 1]].count[0] < d->rows[i].count[0]) {
			if (j < 8)
				top[j] = top[j - 1];
			j--;
		}
		if (j < 8)
			top[j] = i;
	}
	for (size_t k = 0; k < ntop; k++) {
		struct tt_dinsts x;
		tt_dinsts_of_row(d, t->m, t->m, d->rows[top[k]].name, &x);
		tt_dinsts_free(&x);
	}
}

/* step k of a shape: 0 load, 1 the explorer, 2 the diff explorer, 3 the
 * diff drill-down, 4.. the reports; NULL past the last */
static const char *step_name(size_t k, char *buf, size_t n)
{
	if (k == 0)
		return "load";
	if (k == 1)
		return "explorer";
	if (k == 2)
		return "explorer, Diff pane";
	if (k == 3)
		return "diff drill-down";
	for (size_t i = 0; tt_report_names[i]; i++)
		if (i == k - 4) {
			snprintf(buf, n, "report %s", tt_report_names[i]);
			return buf;
		}
	return NULL;
}

/* the CPU seconds of one run of step k on t (repeated until min_time) */
static double run_step(size_t k, struct trace *t)
{
	static char *keys, *diff_keys;
	if (!keys) {
		keys = session_keys();
		/* the diff pane, a row's instances (the drill-down), back */
		diff_keys = tt_strdup("0<Enter>j<Enter>jj<Escape>s<Enter><Escape>G<Enter><Escape>"
				      "<Escape>j<Enter><Escape>");
	}
	/* (the diff is timed with the reports, not here) */
	if (k == 3)
		diff_prepare(t);
	int reps = 0;
	double t0 = cpu_now(), el;
	do {
		if (k == 0) {
			if (t->have_d)
				tt_diff_free(&t->d);
			t->have_d = false;
			tt_model_free(t->m);
			t->m = load(t);
		} else if (k == 1) {
			/* (every run from scratch: what the analyses keep of a
			 * rank is built again) */
			tt_model_forget(t->m);
			explorer(t->m, NULL, keys);
		} else if (k == 2) {
			tt_model_forget(t->m);
			explorer(t->m, t->m, diff_keys);
		} else if (k == 3) {
			tt_model_forget(t->m);
			diff_drill(t);
		} else {
			tt_model_forget(t->m);
			report(t->m, tt_report_names[k - 4]);
		}
		reps++;
		el = cpu_now() - t0;
	} while (el < min_time && reps < 64);
	return el / reps;
}

/* A step over the bound from N to 4N, timed again, is measured from 4N to
 * 16N before it fails: at small sizes a step can jump where its data
 * leaves a cache or a table first grows (the streams shape's diff
 * drill-down: x9.5 from 3000 to 12000 events, x4.3 from 12000 to 48000 and
 * from 48000 to 192000), and only a growth that goes on is a failure.  The
 * ratio from 4N to 16N (its bound is 4 log 16N / log 4N) into *a, *b, *r,
 * scaled to the bound from N to 4N: the caller compares it as before. */
static void confirm(size_t k, enum adv_shape s, size_t sn, struct trace *t4, double *a, double *b,
		    double *r, double bound_n)
{
	struct trace t16 = {0};
	t16.nf = adv_make(s, 16 * sn, 1, &t16.f);
	run_step(0, &t16); /* (the model the other steps need) */
	double a2 = k ? run_step(k, t4) : run_step(0, t4), b2 = run_step(k, &t16);
	double bound_4n = 4.0 * log(16.0 * (double)sn) / log(4.0 * (double)sn);
	*a = a2;
	*b = b2;
	*r = b2 / (a2 > 1e-9 ? a2 : 1e-9) * bound_n / bound_4n;
	if (t16.have_d)
		tt_diff_free(&t16.d);
	tt_model_free(t16.m);
	adv_free(t16.f, t16.nf);
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: scaling [--bench] [-n N] [--shape NAME]... [--step TEXT] "
			"[--margin M] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	bool bench = false, verbose = false;
	size_t n = 0;
	double margin = 2.0;
	bool want[ADV_NSHAPES] = {0};
	bool any_shape = false;
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--bench") == 0)
			bench = true;
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--margin") == 0 && i + 1 < argc)
			margin = strtod(argv[++i], NULL);
		else if (strcmp(argv[i], "--step") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
			int s = adv_shape_find(argv[++i]);
			if (s < 0)
				usage();
			want[s] = any_shape = true;
		} else
			usage();
	}
	if (!n)
		n = bench ? 25000 : 3000;
	if (n < 100)
		usage();
	if (bench)
		min_time = 0.05;
	/* (the overflow shape is a fixture of sums, not of growth) */
	if (!any_shape)
		for (int s = 0; s < ADV_NSHAPES; s++)
			want[s] = s != ADV_OVERFLOW;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		return 99;
	setvbuf(devnull, NULL, _IOFBF, 1 << 16);
	/* below the floor (CPU seconds at 4N) a ratio says nothing */
	const double floor_s = bench ? 0.002 : 0.005;
	const double bound = 4.0 * log(4.0 * (double)n) / log((double)n);
	printf("# N = %zu and 4N = %zu events; bound 4N log 4N / N log N = %.2f, margin %.1f: a "
	       "step fails above %.2f (%s)\n",
	       n, 4 * n, bound, margin, bound * margin,
	       bench ? "--bench: figures only" : "steps under 5 ms at 4N not judged");
	int judged = 0, failed = 0, total = 0;
	double start = cpu_now();
	for (int s = 0; s < ADV_NSHAPES; s++) {
		if (!want[s])
			continue;
		struct trace t[2] = {{0}};
		/* (the shapes of cheap events made 4 times larger, so that a
		 * quadratic lookup over their threads or series shows) */
		size_t sn = s == ADV_THREADS || s == ADV_COUNTERS ? 4 * n : n;
		for (int z = 0; z < 2; z++)
			t[z].nf = adv_make((enum adv_shape)s, z ? 4 * sn : sn, 1, &t[z].f);
		printf("# %s: %s (n = %zu and %zu; %zu and %zu files)\n", adv_shape_names[s],
		       adv_shape_help[s], sn, 4 * sn, t[0].nf, t[1].nf);
		char buf[64], worst[64] = "";
		double worst_r = 0, worst_a = 0, worst_b = 0;
		for (size_t k = 0; step_name(k, buf, sizeof(buf)); k++) {
			const char *name = step_name(k, buf, sizeof(buf));
			/* (the load always runs: the other steps need the model) */
			if (only && k && !strstr(name, only))
				continue;
			double a = run_step(k, &t[0]), b = run_step(k, &t[1]);
			double r = b / (a > 1e-9 ? a : 1e-9);
			bool judge = !bench && b >= floor_s;
			/* a step over the bound is timed again: noise, or not */
			for (int again = 0; judge && r > bound * margin && again < 2; again++) {
				double a2 = run_step(k, &t[0]), b2 = run_step(k, &t[1]);
				double r2 = b2 / (a2 > 1e-9 ? a2 : 1e-9);
				if (r2 < r) {
					r = r2;
					a = a2;
					b = b2;
				}
			}
			bool larger = false;
			if (judge && r > bound * margin) {
				confirm(k, (enum adv_shape)s, sn, &t[1], &a, &b, &r, bound);
				larger = true;
			}
			total++;
			bool bad = judge && r > bound * margin;
			judged += judge;
			failed += bad;
			if (verbose || bad || bench)
				printf("%s %-10s %-24s %9.2f ms %9.2f ms  x%6.2f%s%s\n",
				       bad ? "FAIL" : judge ? "ok  " : "--  ", adv_shape_names[s], name,
				       a * 1e3, b * 1e3, r, larger ? "  (4N to 16N, scaled)" : "",
				       bad ? "  (grows too fast)" : "");
			else if (larger)
				printf("ok   %-10s %-24s %9.2f ms %9.2f ms  x%6.2f  (over the bound from N "
				       "to 4N; 4N to 16N, scaled)\n",
				       adv_shape_names[s], name, a * 1e3, b * 1e3, r);
			if (judge && r > worst_r) {
				worst_r = r;
				worst_a = a;
				worst_b = b;
				snprintf(worst, sizeof(worst), "%s", name);
			}
		}
		if (!bench && !verbose && worst[0])
			printf("     %-10s worst: %-24s %9.2f ms %9.2f ms  x%6.2f\n", adv_shape_names[s],
			       worst, worst_a * 1e3, worst_b * 1e3, worst_r);
		for (int z = 0; z < 2; z++) {
			if (t[z].have_d)
				tt_diff_free(&t[z].d);
			tt_model_free(t[z].m);
			adv_free(t[z].f, t[z].nf);
		}
		fflush(stdout);
	}
	printf("# %d steps of %d judged (the others too short at 4N), %d grew too fast; %.1f s "
	       "of CPU\n",
	       judged, total, failed, cpu_now() - start);
	fclose(devnull);
	if (bench)
		return 0;
	/* a check that judged almost nothing checked nothing */
	if (judged * 4 < total) {
		printf("FAIL: fewer than a quarter of the steps were long enough to judge\n");
		return 1;
	}
	return failed ? 1 : 0;
}
