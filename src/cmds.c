/* The commands: report, demo-trace, and the explorer. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tracetop/demo.h"
#include "tracetop/util.h"

static struct tt_model *load_for(struct cli *c, char **paths, int n)
{
	if (c->demo)
		return cli_load_demo(c);
	return cli_load(c, paths, n);
}

int cmd_report(struct cli *c)
{
	if (c->list) {
		for (const char *const *n = tt_report_names; *n; n++)
			printf("%-10s %s\n", *n, tt_report_help(*n));
		return 0;
	}
	if (!tt_report_help(c->report)) {
		fprintf(stderr, "tracetop: unknown report '%s' (tracetop report --list)\n", c->report);
		return 2;
	}
	bool diff = strcmp(c->report, "diff") == 0;
	struct tt_model *m = NULL, *m2 = NULL;
	if (diff) {
		if (c->npaths != 2) {
			fprintf(stderr, "tracetop: report diff needs two paths: CONTROL TEST\n");
			return 2;
		}
		m = load_for(c, c->paths, 1);
		m2 = cli_load(c, c->paths + 1, 1);
	} else {
		if (c->npaths == 0 && !c->demo) {
			fprintf(stderr, "tracetop: report %s: no trace given\n", c->report);
			return 2;
		}
		m = load_for(c, c->paths, c->npaths);
	}
	int rc = 0;
	if (!m || !m->nranks || (diff && (!m2 || !m2->nranks))) {
		rc = 2;
	} else {
		struct tt_err err;
		tt_err_clear(&err);
		if (tt_report_run(c->report, m, m2, &c->ropts, stdout, &err)) {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			fprintf(stderr, "tracetop: %s\n", buf);
			rc = err.code == TT_E_USAGE ? 2 : 1;
		}
	}
	tt_model_free(m);
	tt_model_free(m2);
	return rc;
}

int cmd_demo_trace(struct cli *c)
{
	if (!c->output) {
		fprintf(stderr, "tracetop: demo-trace needs -o DIR\n");
		return 2;
	}
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	if (c->demo_ranks > 0) {
		d.nranks = c->demo_ranks;
		d.nstragglers = 1;
		d.stragglers[0] = d.nranks > 5 ? 5 : d.nranks - 1;
	}
	if (c->demo_steps > 0)
		d.steps = c->demo_steps;
	if (c->demo_layers > 0)
		d.layers = c->demo_layers;
	if (c->demo_seed)
		d.seed = c->demo_seed;
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_demo_write_dir(&d, c->output, c->gzip, &err)) {
		char buf[700];
		tt_err_format(&err, buf, sizeof(buf));
		fprintf(stderr, "tracetop: %s\n", buf);
		return 2;
	}
	if (!c->quiet)
		fprintf(stderr, "tracetop: wrote %d rank files to %s\n", d.nranks, c->output);
	return 0;
}

int cmd_summarize(struct cli *c)
{
	char **files;
	size_t nbad;
	size_t n = tt_expand_paths((const char *const *)c->paths, (size_t)c->npaths, &files, &nbad,
				   NULL, NULL);
	if (n == 0) {
		fprintf(stderr, "tracetop: summarize: no trace given\n");
		tt_paths_free(files, n);
		return 2;
	}
	if (c->output && n > 1) {
		fprintf(stderr, "tracetop: summarize: -o names one output, but %zu traces were given\n", n);
		tt_paths_free(files, n);
		return 2;
	}
	int rc = 0, ok = 0;
	struct tt_load_opts o = c->load;
	o.no_cache = true;
	for (size_t i = 0; i < n; i++) {
		if (tt_cache_is(files[i]))
			continue;
		int64_t t0 = tt_now_ns();
		struct tt_rank *r;
		struct tt_err err;
		tt_err_clear(&err);
		char out[4200];
		snprintf(out, sizeof(out), "%s", c->output ? c->output : files[i]);
		if (!c->output)
			strncat(out, ".tts", sizeof(out) - strlen(out) - 1);
		if (tt_rank_load(&r, files[i], NULL, 0, &o, i, &err) == 0 &&
		    tt_rank_save(r, out, &err) == 0) {
			if (!c->quiet)
				fprintf(stderr, "tracetop: wrote %s: %u events, %.1f MB, %.2f s\n", out,
					r->nev, (double)tt_rank_memsize(r) / 1e6,
					(double)(tt_now_ns() - t0) / 1e9);
			tt_rank_free(r);
			ok++;
		} else {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			fprintf(stderr, "tracetop: %s\n", buf);
			rc = 2;
		}
	}
	tt_paths_free(files, n);
	return ok ? (rc ? 1 : 0) : 2;
}

/* tracetop counters PATH... -o OUT[.gz]: HTA's generate_trace_with_counters
 * for the first selected rank (--ranks N picks another) */
int cmd_counters(struct cli *c)
{
	if (!c->output) {
		fprintf(stderr, "tracetop: counters needs -o OUT.json or -o OUT.json.gz\n");
		return 2;
	}
	if (c->npaths == 0) {
		fprintf(stderr, "tracetop: counters: no trace given\n");
		return 2;
	}
	struct tt_model *m = cli_load(c, c->paths, c->npaths);
	int rc = 0;
	if (!m || !m->nranks) {
		rc = 2;
	} else {
		struct tt_err err;
		tt_err_clear(&err);
		if (tt_counters_write(m, &c->ropts, c->output, &err)) {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			fprintf(stderr, "tracetop: %s\n", buf);
			rc = err.code == TT_E_USAGE ? 2 : 1;
		} else if (!c->quiet) {
			fprintf(stderr, "tracetop: wrote %s\n", c->output);
		}
	}
	tt_model_free(m);
	return rc;
}

int cmd_tui(struct cli *c)
{
	struct tt_model *m = load_for(c, c->paths, c->npaths);
	if (!m || !m->nranks) {
		tt_model_free(m);
		return 2;
	}
	/* the explorer is not built yet: print the summary */
	struct tt_err err;
	tt_report_run("summary", m, NULL, &c->ropts, stdout, &err);
	tt_model_free(m);
	return 0;
}
