/* The commands: report, demo-trace, and the explorer. */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "tracetop/demo.h"
#include "tracetop/outfile.h"
#include "tracetop/theme.h"
#include "tracetop/escape.h"
#include "tracetop/io.h"
#include "tracetop/util.h"
#include "tui/tui.h"

static struct tt_model *load_for(struct cli *c, char **paths, int n)
{
	if (c->demo)
		return cli_load_demo(c, c->demo_variant);
	return cli_load(c, paths, n);
}

/* A diff's two sides: two paths, or one path with two --cycle or two
 * --run (both sides from it); side_names gets what tells them apart (the
 * runs, the cycles), for the explorer's columns.  2 after a message when
 * they cannot be had. */
static char side_names[2][64];

static int load_sides(struct cli *c, struct tt_model **m, struct tt_model **m2, const char *what)
{
	*m = *m2 = NULL;
	bool one = c->npaths == 1 && (c->ncycle == 2 || c->nrun == 2);
	if (c->npaths != 2 && !one) {
		tt_msg("%s needs two paths: CONTROL TEST (or one path with two --cycle or two "
		       "--run, or --demo alone)", what);
		return 2;
	}
	*m = cli_open(c, c->paths, 1, 0, NULL);
	if (*m && (*m)->nranks)
		*m2 = cli_open(c, c->paths + (one ? 0 : 1), 1, 1, NULL);
	if (c->nrun == 2 && strcmp(c->run[0], c->run[1]) != 0) {
		snprintf(side_names[0], sizeof(side_names[0]), "%s", c->run[0]);
		snprintf(side_names[1], sizeof(side_names[1]), "%s", c->run[1]);
	} else if (*m && *m2 && (*m)->cycle && (*m2)->cycle && (*m)->cycle != (*m2)->cycle) {
		snprintf(side_names[0], sizeof(side_names[0]), "cycle %d", (*m)->cycle);
		snprintf(side_names[1], sizeof(side_names[1]), "cycle %d", (*m2)->cycle);
	}
	return 0;
}

/* --cycle all: the report of every cycle of the run, one table each with
 * the cycle in a column */
static int report_cycles(struct cli *c)
{
	struct tt_input *in = NULL;
	struct tt_model *m = cli_open(c, c->paths, c->npaths, 0, &in);
	if (!in) {
		tt_model_free(m);
		return 2;
	}
	const struct tt_run *r = tt_input_run(in);
	if (!m || !r) {
		if (!r)
			tt_msg("%s is a log directory: choose a run with --run NAME",
			       tt_input_logdir(in)->path);
		tt_model_free(m);
		tt_input_free(in);
		return 2;
	}
	int first = m->cycle;
	size_t ncycles = r->ncycles;
	struct tt_table **acc = NULL;
	size_t nacc = 0, done = 0;
	int rc = 0;
	struct tt_err err;
	tt_err_clear(&err);
	for (size_t k = 1; k <= ncycles && !rc; k++) {
		struct tt_model *x = m && first == (int)k ? m : cli_load_cycle(c, in, (int)k);
		if (x == m)
			m = NULL;
		if (!x || !x->nranks || cli_check_ranks(c, x)) {
			tt_model_free(x);
			continue; /* (said on stderr) */
		}
		rc = tt_report_collect(c->report, x, &c->ropts, &acc, &nacc, &err);
		done += rc == 0;
		tt_model_free(x);
	}
	tt_model_free(m);
	tt_input_free(in);
	if (!rc && done)
		rc = tt_report_print(c->report, acc, nacc, &c->ropts, stdout, &err);
	tt_tables_free(acc, nacc);
	if (rc) {
		char buf[700];
		tt_err_format(&err, buf, sizeof(buf));
		tt_msg("%s", buf);
		return err.code == TT_E_USAGE ? 2 : 1;
	}
	return done ? 0 : 2;
}

int cmd_report(struct cli *c)
{
	if (c->list) {
		/* name, then its description wrapped at words in the width */
		int width = tt_report_width(&c->ropts, stdout);
		for (const char *const *n = tt_report_names; *n; n++) {
			const char *s = tt_report_help(*n);
			size_t namew = strlen(*n) < 13 ? 13 : strlen(*n) + 1;
			size_t cols = width > 0 && (size_t)width > namew + 20 ? (size_t)width - namew : 0;
			printf("%-*s", (int)namew, *n);
			do {
				const char *next = s + strlen(s);
				size_t len = cols ? tt_wrap_line(s, cols, NULL, &next) : strlen(s);
				printf("%.*s\n", (int)len, s);
				s = next;
				if (*s)
					printf("%*s", (int)namew, "");
			} while (*s);
		}
		return 0;
	}
	if (!tt_report_help(c->report)) {
		tt_msg("unknown report '%s' (tracetop report --list)", c->report);
		return 2;
	}
	if (c->follow) {
		tt_msg("--follow is for the explorer: a report describes the traces as they are");
		return 2;
	}
	bool diff = strcmp(c->report, "diff") == 0;
	struct tt_model *m = NULL, *m2 = NULL;
	if (diff) {
		if (c->demo && c->npaths == 0) {
			/* the demo job and its regressed run */
			m = cli_load_demo(c, TT_DEMO_BASE);
			m2 = cli_load_demo(c, TT_DEMO_REGRESSED);
		} else if (c->demo) {
			tt_msg("report diff needs two paths: CONTROL TEST (or --demo alone)");
			return 2;
		} else if (load_sides(c, &m, &m2, "report diff")) {
			return 2;
		}
	} else {
		if (c->npaths == 0 && !c->demo) {
			tt_msg("report %s: no trace given", c->report);
			return 2;
		}
		if (!c->demo && c->ncycle && c->cycle[0] == TT_CYCLE_ALL)
			return report_cycles(c);
		m = load_for(c, c->paths, c->npaths);
	}
	int rc = 0;
	if (!m || !m->nranks || (diff && (!m2 || !m2->nranks))) {
		rc = 2;
	} else if (cli_check_ranks(c, m) || (m2 && cli_check_ranks(c, m2))) {
		rc = 2;
	} else {
		struct tt_err err;
		tt_err_clear(&err);
		if (tt_report_run(c->report, m, m2, &c->ropts, stdout, &err)) {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			tt_msg("%s", buf);
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
		tt_msg("demo-trace needs -o DIR");
		return 2;
	}
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	if (c->demo_ranks > 0)
		tt_demo_set_ranks(&d, c->demo_ranks);
	if (c->demo_steps > 0)
		d.steps = c->demo_steps;
	if (c->demo_layers > 0)
		d.layers = c->demo_layers;
	if (c->demo_seed)
		d.seed = c->demo_seed;
	d.vendor = (enum tt_demo_vendor)c->demo_vendor;
	d.variant = c->demo_variant;
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_demo_write_dir(&d, c->output, c->gzip, &err)) {
		char buf[700];
		tt_err_format(&err, buf, sizeof(buf));
		tt_msg("%s", buf);
		return 2;
	}
	if (!c->quiet)
		tt_msg("wrote %d rank files to %s: %d steps of %d layers each", d.nranks,
		       c->output, d.steps, d.layers);
	return 0;
}

static void print_err(const struct tt_err *err)
{
	char buf[700];
	tt_err_format(err, buf, sizeof(buf));
	tt_msg("%s", buf);
}

/* Every input gets a line when it fails or warns; the status is 0 when all
 * were written, 1 when some failed, 2 when none was written. */
int cmd_summarize(struct cli *c)
{
	char **files;
	size_t nbad;
	size_t n = tt_expand_paths((const char *const *)c->paths, (size_t)c->npaths, &files, &nbad,
				   cli_print_bad_path, NULL);
	if (n == 0) {
		if (!nbad)
			tt_msg("summarize: no trace given");
		tt_paths_free(files, n);
		return 2;
	}
	if (c->output && n > 1) {
		tt_msg("summarize: -o names one output, but %zu traces were given", n);
		tt_paths_free(files, n);
		return 2;
	}
	size_t ok = 0, failed = nbad;
	struct tt_load_opts o = c->load;
	o.no_cache = true;
	for (size_t i = 0; i < n; i++) {
		struct tt_err err;
		tt_err_clear(&err);
		if (tt_cache_is(files[i])) {
			tt_err_set(&err, TT_E_USAGE, files[i], TT_NO_OFFSET,
				   "already a .tts cache, not a trace (skipped)");
			print_err(&err);
			failed++;
			continue;
		}
		if (!c->output && (tt_remote_is(files[i]) || strcmp(files[i], "-") == 0)) {
			/* (a cache is written beside a local trace only) */
			tt_err_set(&err, TT_E_USAGE, files[i], TT_NO_OFFSET,
				   "%s: its model needs -o OUT.tts (written beside local traces only)",
				   strcmp(files[i], "-") == 0 ? "standard input" : "a remote trace");
			print_err(&err);
			failed++;
			continue;
		}
		int64_t t0 = tt_now_ns();
		char out[4200];
		snprintf(out, sizeof(out), "%s", c->output ? c->output : files[i]);
		if (!c->output)
			strncat(out, ".tts", sizeof(out) - strlen(out) - 1);
		/* (checked first: a trace given as its own output is not even read) */
		const char *in[1] = {files[i]};
		struct tt_rank *r = NULL;
		if (tt_output_check(out, in, 1, &err) == 0 &&
		    tt_rank_load(&r, files[i], NULL, 0, &o, i, &err) == 0) {
			cli_print_rank_warnings(NULL, 0, r);
			if (tt_rank_save(r, out, &err) == 0) {
				if (!c->quiet)
					tt_msg("wrote %s: %u events, %.1f MB, %.2f s",
						out, r->nev, (double)tt_rank_memsize(r) / 1e6,
						(double)(tt_now_ns() - t0) / 1e9);
				ok++;
			} else {
				print_err(&err);
				failed++;
			}
			tt_rank_free(r);
		} else {
			print_err(&err);
			failed++;
		}
	}
	tt_paths_free(files, n);
	return !ok ? 2 : failed ? 1 : 0;
}

/* tracetop counters PATH... -o OUT[.gz]: HTA's generate_trace_with_counters
 * for the first selected rank (--ranks N picks another) */
int cmd_counters(struct cli *c)
{
	if (!c->output) {
		tt_msg("counters needs -o OUT.json or -o OUT.json.gz");
		return 2;
	}
	if (c->npaths == 0) {
		tt_msg("counters: no trace given");
		return 2;
	}
	/* (checked first: a trace given as its own output is not even read;
	 * again on the files a directory or glob named) */
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_output_check(c->output, (const char *const *)c->paths, (size_t)c->npaths, &err)) {
		print_err(&err);
		return 2;
	}
	struct tt_model *m = cli_load(c, c->paths, c->npaths);
	int rc = 0;
	if (!m || !m->nranks || cli_check_ranks(c, m)) {
		rc = 2;
	} else {
		const char **in = tt_calloc(m->nranks, sizeof(*in));
		for (size_t i = 0; i < m->nranks; i++)
			in[i] = m->ranks[i]->path;
		int same = tt_output_check(c->output, in, m->nranks, &err);
		free(in);
		if (same) {
			print_err(&err);
			rc = 2;
		} else if (tt_counters_write(m, &c->ropts, c->output, &err)) {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			tt_msg("%s", buf);
			rc = err.code == TT_E_USAGE ? 2 : 1;
		} else if (!c->quiet) {
			tt_msg("wrote %s", c->output);
		}
	}
	tt_model_free(m);
	return rc;
}

/* ---- the explorer ---- */

/* keymap and theme messages: to standard error, and kept for the
 * explorer's Load pane (the screen hides what went to stderr before it) */
struct notes {
	char **v;
	size_t n;
};

static void warn_line(void *ctx, const char *msg)
{
	struct notes *nt = ctx;
	tt_msg("%s", msg);
	if (nt) {
		nt->v = tt_realloc_array(nt->v, nt->n + 1, sizeof(*nt->v));
		nt->v[nt->n++] = tt_strdup(msg);
	}
}

/* where themes live: installed, and beside the binary when run from the build */
static void theme_dirs(const char **dirs, char *exe_dir, size_t n)
{
	int k = 0;
	dirs[k++] = TT_THEMEDIR;
	ssize_t len = readlink("/proc/self/exe", exe_dir, n - 8);
	if (len > 0) {
		exe_dir[len] = '\0';
		char *slash = strrchr(exe_dir, '/');
		if (slash) {
			strcpy(slash, "/themes");
			dirs[k++] = exe_dir;
		}
	}
	dirs[k] = NULL;
}

static void pick_theme(struct cli *c, struct tt_theme *t, struct notes *nt)
{
	const char *term = getenv("TERM");
	const char *name = c->theme ? c->theme : getenv("TRACETOP_THEME");
	tt_theme_default(t);
	if (getenv("NO_COLOR") || (term && strcmp(term, "dumb") == 0)) {
		tt_theme_mono(t);
		return;
	}
	if (!name || strcmp(name, "default") == 0)
		return;
	const char *dirs[4];
	char exe[4096];
	theme_dirs(dirs, exe, sizeof(exe));
	if (!tt_theme_load(t, name, dirs, warn_line, nt)) {
		char msg[512];
		snprintf(msg, sizeof(msg),
			 "%s: theme not found (default, light, mono, or a file); using the default",
			 name);
		warn_line(nt, msg);
	}
}

static struct tt_keymap *load_keymap(struct notes *nt)
{
	struct tt_keymap *k = tt_keymap_new();
	const char *path = getenv("TRACETOP_KEYMAP");
	char buf[4096];
	if (!path) {
		const char *home = getenv("HOME");
		if (home) {
			snprintf(buf, sizeof(buf), "%s/.config/tracetop/tracetoprc", home);
			path = buf;
		}
	}
	if (path)
		tt_keymap_load(k, path, warn_line, nt);
	return k;
}

static void describe(const struct tt_model *m, const struct tt_model *m2, struct cli *c,
		     char *buf, size_t n)
{
	uint64_t ev = 0;
	for (size_t i = 0; i < m->nranks; i++)
		ev += m->ranks[i]->nev;
	/* paths shortened from the left: their end names the trace */
	char p0[64], p1[64];
	tt_path_fit(p0, sizeof(p0), c->npaths ? c->paths[0] : "", 20);
	tt_path_fit(p1, sizeof(p1), c->npaths > 1 ? c->paths[1] : "", 20);
	const char *what = c->demo ? "demo job" : c->npaths == 1 ? p0 : "traces";
	/* (the demo's regressed run, in m2, is for the Diff pane: it says so) */
	if (m2 && !c->demo && side_names[0][0])
		snprintf(buf, n, "diff: %s vs %s", side_names[0], side_names[1]);
	else if (m2 && !c->demo)
		snprintf(buf, n, "diff: %s vs %s", p0, p1);
	else
		snprintf(buf, n, "%s: %zu rank%s, %llu events", what, m->nranks,
			 m->nranks == 1 ? "" : "s", (unsigned long long)ev);
}

/* "tracetop: " and msg on stderr, wrapped at words in the width of the
 * terminal stderr is (not wrapped when it is none) */
static void msg_wrapped(const char *msg)
{
	struct winsize ws;
	size_t w = isatty(2) && ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 0;
	char *all = tt_malloc(strlen(msg) + 16);
	sprintf(all, "tracetop: %s", msg);
	const char *t = all;
	do {
		const char *next = t + strlen(t);
		size_t len = w ? tt_wrap_line(t, w, NULL, &next) : strlen(t);
		fprintf(stderr, "%.*s\n", (int)len, t);
		t = next;
	} while (*t);
	free(all);
}

int cmd_tui(struct cli *c)
{
	if (!c->headless && !isatty(1)) {
		msg_wrapped("standard output is not a terminal; for text, CSV or JSON use "
			    "'tracetop report NAME PATH' (tracetop report --list)");
		return 2;
	}
	if (!c->demo && c->npaths == 0) {
		tt_msg("no trace given (try 'tracetop --demo' or 'tracetop --help')");
		return 2;
	}
	if (c->diff && c->demo && c->npaths != 0) {
		tt_msg("--diff needs two paths: CONTROL TEST (or --demo alone)");
		return 2;
	}
	if (c->follow && (c->demo || c->diff)) {
		tt_msg("--follow watches the folder of one run: not with %s",
		       c->demo ? "--demo" : "--diff");
		return 2;
	}
	if (c->follow && c->npaths == 1 &&
	    (strcmp(c->paths[0], "-") == 0 || tt_remote_is(c->paths[0]))) {
		tt_msg("--follow watches a folder: not %s",
		       strcmp(c->paths[0], "-") == 0 ? "standard input" : "object storage");
		return 2;
	}
	/* the locale decides the glyphs: UTF-8 block bars, or ASCII */
	const char *cs = nl_langinfo(CODESET);
	tt_render_set_ascii(!cs || strcmp(cs, "UTF-8") != 0);
	struct tt_model *m, *m2 = NULL;
	struct tt_input *in = NULL;
	if (c->demo) {
		/* the demo carries its regressed run, for the Diff pane */
		m = cli_load_demo(c, TT_DEMO_BASE);
		m2 = cli_load_demo(c, TT_DEMO_REGRESSED);
	} else if (c->diff) {
		if (load_sides(c, &m, &m2, "--diff"))
			return 2;
		if (side_names[0][0]) {
			c->ropts.label_a = side_names[0];
			c->ropts.label_b = side_names[1];
		}
	} else {
		m = cli_open(c, c->paths, c->npaths, 0, &in);
		/* a log directory: its runs first, no model yet */
		if (!m && in && !tt_input_run(in))
			m = tt_calloc(1, sizeof(*m));
	}
	int rc = 0;
	if (!m || (!m->nranks && !(in && !tt_input_run(in))) || (m2 && !m2->nranks)) {
		tt_model_free(m);
		tt_model_free(m2);
		tt_input_free(in);
		return 2;
	}
	if (in)
		tt_input_set_opts(in, &c->load);
	struct tt_theme theme;
	struct notes nt = {0};
	pick_theme(c, &theme, &nt);
	struct tt_keymap *keys = load_keymap(&nt);
	if (c->no_mouse)
		tt_keymap_set_mouse(keys, false);
	char label[512];
	describe(m, m2, c, label, sizeof(label));
	struct tt_app *a = tt_app_new(m, m2, &c->ropts, keys, label);
	for (size_t i = 0; i < nt.n; i++) {
		tt_app_note(a, nt.v[i]);
		free(nt.v[i]);
	}
	free(nt.v);
	/* the timeline indexes its tracks once (a pass over their events): do it
	 * now, while loading, so that no key press pays for it later (a diff:
	 * each side's, which the split timeline shows too) */
	if (m->nranks) {
		struct tt_grid g;
		tt_grid_init(&g, 160, 50);
		if (m2 && m2->nranks) {
			tt_app_set_view(a, TT_VIEW_TEST, false);
			tt_app_show(a, 8);
			tt_app_draw(a, &g);
			tt_app_set_view(a, TT_VIEW_CONTROL, false);
		}
		tt_app_show(a, 8);
		tt_app_draw(a, &g);
		tt_app_show(a, 0);
		tt_grid_free(&g);
		a->status[0] = '\0';
	}
	if (c->diff) {
		/* a diff: both sides in every pane, the Diff pane first */
		tt_app_set_view(a, TT_VIEW_BOTH, true);
		tt_app_show(a, 9);
	}
	if (in) {
		/* the runs and cycles of the input are a key away (the app owns it
		 * and the model from now on) */
		tt_app_set_input(a, in, m);
		m = NULL;
		/* what loading said (a newer cycle passed over) */
		if (c->note[0]) {
			snprintf(a->status, sizeof(a->status), "%.*s", (int)sizeof(a->status) - 1, c->note);
			a->status_role = TT_ROLE_WARNING;
		}
		if (c->ncycle && c->cycle[0] == TT_CYCLE_ALL && tt_input_run(in))
			tt_app_action(a, TT_ACT_CYCLES);
	}
	if (c->headless) {
		int w = c->size_w ? c->size_w : 100, h = c->size_h ? c->size_h : 30;
		{
			FILE *out = c->dump ? fopen(c->dump, "w") : stdout;
			if (!out) {
				tt_msg("%s: %s", c->dump, strerror(errno));
				rc = 2;
			} else {
				tt_headless_run(a, w, h, c->keys ? c->keys : "", out,
						getenv("TRACETOP_TIME_KEYS") != NULL);
				/* (stdout is checked when the program ends) */
				if (out != stdout && (ferror(out) | fclose(out))) {
					tt_msg("%s: cannot write: %s", c->dump,
						strerror(errno));
					rc = 1;
				}
			}
		}
	} else {
		rc = tt_term_run(a, &theme);
		if (rc == 2) {
			/* no usable terminal (TERM=dumb, no keyboard): the Overview as
			 * text, as wide as the terminal, without its blank rows */
			struct winsize ws;
			int w = ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= TT_UI_MIN_W ? ws.ws_col : 100;
			struct tt_grid g;
			tt_grid_init(&g, w, 40);
			tt_app_draw(a, &g);
			char *line = tt_malloc((size_t)w * 4 + 8);
			int last = g.h - 1; /* the status line */
			for (int y = 0; y < g.h; y++) {
				size_t k = tt_grid_row_text(&g, y, line, (size_t)w * 4 + 8);
				while (k && line[k - 1] == ' ')
					line[--k] = '\0';
				if (k || y == last)
					printf("%s\n", line);
			}
			free(line);
			tt_grid_free(&g);
			msg_wrapped("above is the Overview; the other panes need a terminal (or "
				    "use 'tracetop report NAME')");
			rc = 0;
		}
	}
	tt_app_free(a);
	tt_keymap_free(keys);
	tt_model_free(m);
	tt_model_free(m2);
	return rc;
}
