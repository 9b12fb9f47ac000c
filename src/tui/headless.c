/* The explorer without a terminal: keys in, screens out (tests, benchmarks). */
#include "config.h"

#include "tui.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracetop/util.h"

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static const char *type_name(enum tt_ctype t)
{
	switch (t) {
	case TT_C_STR:
		return "str";
	case TT_C_INT:
		return "int";
	case TT_C_NUM:
		return "num";
	case TT_C_DUR:
		return "dur";
	case TT_C_PCT:
		return "pct";
	case TT_C_BAR:
		return "bar";
	case TT_C_STACK:
		return "stack";
	}
	return "?";
}

/* What the pane in view drew of its table, as one JSON line: how many views
 * the views menu has, where each column is, its CSV name, type and unit, and
 * for each row drawn its grid row and every cell's CSV value; the stacked
 * bars of percentages that claim to fill 100 %.  The consistency test reads
 * it beside the screen. */
static void cells(struct tt_app *a, FILE *out)
{
	struct tt_pane *p = tt_app_pane(a);
	const struct tt_table *t = p->table;
	const struct tt_table_layout *l = &p->layout;
	size_t nviews;
	tt_views(&nviews);
	fprintf(out, "@@cells {\"nviews\": %zu, \"pane\": ", nviews - TT_NTOP);
	json_str(out, p->ops->name);
	fputs(", \"subtitle\": ", out);
	json_str(out, p->subtitle);
	if (!t || p->ops->draw || l->header_y < 0 || !p->nrows) {
		fputs(", \"table\": null}\n", out);
		return;
	}
	fputs(", \"table\": ", out);
	json_str(out, t->name);
	/* a diff's table side by side: its columns are "<label>_x" of each
	 * side and "diff_x" (tt_table_diff) */
	if (a->m2 && a->view == TT_VIEW_BOTH && p->ops->diff) {
		fputs(", \"both\": [", out);
		json_str(out, a->ropts.label_a ? a->ropts.label_a : "Control");
		fputs(", ", out);
		json_str(out, a->ropts.label_b ? a->ropts.label_b : "Test");
		fprintf(out, "], \"nkeys\": %d", p->ops->diff->nkeys);
	}
	fputs(", \"report\": ", out);
	json_str(out, p->source);
	fprintf(out, ", \"header_y\": %d, \"cols\": [", l->header_y);
	for (int d = 0; d < l->ncols; d++) {
		const struct tt_col *c = &t->cols[l->col[d]];
		fputs(d ? ", {\"name\": " : "{\"name\": ", out);
		json_str(out, c->name);
		fprintf(out,
			", \"type\": \"%s\", \"unit\": \"%s\", \"group\": %d, \"free\": %s, "
			"\"x\": %d, \"w\": %d}",
			type_name(c->type), c->type == TT_C_DUR ? tt_unit_name(l->unit[d]) : "",
			c->unit_group, c->free_text ? "true" : "false", l->x[d], l->w[d]);
	}
	fputs("], \"types\": {", out);
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputs(", ", out);
		json_str(out, t->cols[c].name);
		fprintf(out, ": \"%s\"", type_name(t->cols[c].type));
	}
	fputs("}, \"stacks\": [", out);
	bool first = true;
	for (int c = 0; c < t->ncols; c++) {
		const struct tt_col *col = &t->cols[c];
		if (col->type != TT_C_STACK || col->bar_max != 100)
			continue;
		fputs(first ? "[" : ", [", out);
		first = false;
		for (int i = 0; i < col->nstack; i++) {
			if (i)
				fputs(", ", out);
			json_str(out, t->cols[col->stack[i]].name);
		}
		fputs("]", out);
	}
	fputs("], \"rows\": [", out);
	static char buf[1 << 16]; /* (kernel sequences run long) */
	for (int r = 0; r < l->nrows; r++) {
		size_t row = p->rows[l->top + (size_t)r];
		fprintf(out, "%s{\"y\": %d, \"row\": %zu, \"csv\": {", r ? ", " : "",
			l->header_y + 1 + r, row);
		bool f2 = true;
		for (int c = 0; c < t->ncols; c++) {
			const struct tt_col *col = &t->cols[c];
			if (col->type == TT_C_BAR || col->type == TT_C_STACK)
				continue;
			tt_cell_csv(t, row, c, buf, sizeof(buf));
			if (!f2)
				fputs(", ", out);
			f2 = false;
			json_str(out, col->name);
			fputs(": ", out);
			json_str(out, buf);
		}
		fputs("}}", out);
	}
	fputs("]}\n", out);
}

/* The texts the last draw cut inside a word, as one JSON line. */
static void cuts(FILE *out)
{
	const struct tt_grid_cut *v;
	size_t n = tt_grid_cuts(&v);
	fputs("@@cuts [", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s[%d, %d, ", i ? ", " : "", v[i].y, v[i].x);
		json_str(out, v[i].text);
		fputs("]", out);
	}
	fputs("]\n", out);
}

/* CPU time of this thread, ns (a key's cost on a busy machine) */
static int64_t thread_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int tt_headless_run(struct tt_app *a, int w, int h, const char *keys, FILE *out, bool time_keys)
{
	struct tt_grid g;
	tt_grid_init(&g, w, h);
	char key[32], last[32] = "";
	const char *s = keys;
	int64_t worst = 0, total = 0, last_t0 = tt_now_ns();
	int n = 0;
	if (s && strncmp(s, "<Async>", 7) == 0)
		tt_app_set_async(a, true); /* (the first screen too) */
	tt_app_draw(a, &g); /* the first screen, as a terminal would show it */
	if (time_keys)
		fprintf(stderr, "key %-12s %8.3f ms  %s%s  cpu %.3f ms\n", "(start)",
			(double)(tt_now_ns() - last_t0) / 1e6, tt_app_section(a),
			tt_app_waiting(a) ? " computing" : "", (double)thread_ns() / 1e6);
	snprintf(last, sizeof(last), "(start)");
	while (s && (s = tt_key_next(s, key, sizeof(key))) != NULL) {
		if (strcmp(key, "<Wait>") == 0) {
			tt_app_wait_prefetch(a);
			continue;
		}
		if (strcmp(key, "<Async>") == 0) {
			/* from here on as in a terminal: a pane whose work is not
			 * done shows "computing" and the keys go on */
			tt_app_set_async(a, true);
			continue;
		}
		if (strcmp(key, "<Ready>") == 0) {
			/* until the pane in view shows its content, drawn again
			 * every millisecond; timed from the last key */
			while (tt_app_waiting(a)) {
				nanosleep(&(struct timespec){0, 1000000}, NULL);
				tt_app_draw(a, &g);
			}
			if (time_keys)
				fprintf(stderr, "ready %-12s %8.3f ms  %s\n", last,
					(double)(tt_now_ns() - last_t0) / 1e6, tt_app_section(a));
			continue;
		}
		if (strcmp(key, "<Dump>") == 0 || strcmp(key, "<Cells>") == 0) {
			tt_grid_cuts_start();
			tt_app_draw(a, &g);
			tt_grid_dump(&g, out);
			if (key[1] == 'C') {
				cells(a, out);
				cuts(out);
			}
			fputs("----\n", out);
			continue;
		}
		int64_t t0 = tt_now_ns(), c0 = thread_ns();
		int r = tt_app_key(a, key);
		if (r & TT_R_QUIT)
			break;
		/* what the key asked to open (a run, a cycle) is opened now */
		tt_app_tick(a, false);
		tt_app_draw(a, &g);
		int64_t dt = tt_now_ns() - t0;
		worst = dt > worst ? dt : worst;
		total += dt;
		n++;
		last_t0 = t0;
		snprintf(last, sizeof(last), "%s", key);
		/* the key, its time to the redraw, the pane then in view,
		 * whether it says it is computing, and the CPU time this thread
		 * spent on it */
		if (time_keys)
			fprintf(stderr, "key %-12s %8.3f ms  %s%s  cpu %.3f ms\n", key,
				(double)dt / 1e6, tt_app_section(a),
				tt_app_waiting(a) ? " computing" : "",
				(double)(thread_ns() - c0) / 1e6);
	}
	tt_app_draw(a, &g);
	tt_grid_dump(&g, out);
	if (time_keys && n)
		fprintf(stderr, "keys %d  mean %.3f ms  worst %.3f ms\n", n, (double)total / n / 1e6,
			(double)worst / 1e6);
	tt_grid_free(&g);
	return 0;
}
