/* Pane 0, Diff: two traces compared op by op (HTA's compare_traces, the
 * report's table formatted from the diff in the app's results). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int diff_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	if (!a->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	struct tt_table *t;
	size_t *order;
	struct tt_err err;
	p->state = NULL;
	tt_err_clear(&err);
	if (tt_report_diff_table(tt_ui_diff_results(a), &a->ropts, &t, &order, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(a), NULL);
	snprintf(p->source, sizeof(p->source), "diff");
	for (size_t i = 0; i < t->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", t->notes[i]);
	pane_add_bar_at(t, TT_CMP_A_TIME, a->ropts.label_a, TT_ROLE_BAR_IDLE, 0);
	pane_add_bar_at(t, TT_CMP_B_TIME, a->ropts.label_b, TT_ROLE_BAR_COMP, 0);
	/* by impact: the largest change in time first */
	struct tt_col absc = {.name = "impact", .type = TT_C_DUR, .hidden_text = true};
	int ic = tt_table_add_col(t, &absc);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < t->nrows; i++) {
		int64_t dd = d->rows[order[i]].diff_dur;
		p->row_role[i] = dd > 0 ? TT_ROLE_WORSE : dd < 0 ? TT_ROLE_BETTER : 0;
		tt_table_set_int(t, i, ic, dd < 0 ? -dd : dd);
	}
	p->state = order; /* table row i is d->rows[order[i]] (Enter) */
	tt_pane_set_table(p, t);
	tt_pane_sort(p, ic, true);
	tt_pane_head(p, TT_ROLE_DIM, "largest change first, more time highlighted; Enter: the "
				     "instances on both sides; v: Diff steps, Diff ranks");
	return 0;
}

/* Enter: the row's instances on both sides */
static struct tt_pane *diff_drill(struct tt_pane *p, size_t row)
{
	const size_t *order = p->state;
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(p->app), NULL);
	if (!order || !d || row >= d->n)
		return NULL;
	return tt_dinst_pane(p->app, d->rows[order[row]].name, TT_DINST_ROW);
}

/* ---- the steps and the rank pairs (views) ---- */

/* Table `table` of the diff report with a signed bar of column `of` (the
 * sides' difference), rows by its size; more time is worse. */
static int diff_view_open(struct tt_pane *p, const char *table, const char *of)
{
	if (!p->app->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	if (tt_pane_report(p, "diff", table))
		return -1;
	struct tt_table *t = p->table;
	int dc = tt_table_col(t, of);
	if (dc < 0)
		return 0;
	struct tt_col bar = {.name = "bar", .title = "Δ", .type = TT_C_BAR, .bar_of = dc,
			     .signed_bar = true};
	bar.role[0] = TT_ROLE_WORSE;
	bar.role[1] = TT_ROLE_BETTER;
	tt_table_add_col(t, &bar);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < t->nrows; i++) {
		double d = tt_cell_num(tt_table_cell(t, i, dc));
		p->row_role[i] = d > 0 ? TT_ROLE_WORSE : d < 0 ? TT_ROLE_BETTER : 0;
	}
	return 0;
}

static int steps_open(struct tt_pane *p)
{
	if (diff_view_open(p, "diff_steps", "diff_step"))
		return -1;
	tt_pane_head(p, TT_ROLE_DIM, "each step both sides have: its time and GPU idle per step "
				     "(the mean over the rank pairs), and the verdict; Enter: the "
				     "step's names on both sides");
	return 0;
}

/* ---- one step's names (Enter on a Diff steps row) ---- */

struct step_names {
	int64_t num[2];          /* the step on each side */
	struct tt_results *res;  /* the diff of that step */
	size_t *order;           /* table row i is the diff's row order[i] */
};

static int step_names_open(struct tt_pane *p)
{
	struct step_names *s = p->state;
	struct tt_app *a = p->app;
	if (s->num[0] != s->num[1]) {
		snprintf(p->msg, sizeof(p->msg),
			 "the sides' steps are paired in order (%s step %lld, %s step %lld): a "
			 "step's names compare steps of one number",
			 a->ropts.label_a ? a->ropts.label_a : "Control", (long long)s->num[0],
			 a->ropts.label_b ? a->ropts.label_b : "Test", (long long)s->num[1]);
		return -1;
	}
	/* the diff's options, one step, the rank pairs of the Diff steps row */
	struct tt_report_opts o = a->ropts;
	o.iteration = s->num[0];
	if (a->nsel_map) {
		o.diff_map = a->sel_map;
		o.diff_nmap = a->nsel_map;
	} else if (!o.diff_map) {
		o.diff_map = a->pairs;
		o.diff_nmap = a->npairs;
	}
	struct tt_results_opts ro;
	tt_report_results_opts(&o, &ro);
	s->res = tt_results_new(a->side_m[0], a->side_m[1], &ro);
	struct tt_table *t;
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_report_diff_table(s->res, &o, &t, &s->order, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg[0] ? err.msg : "no diff");
		return -1;
	}
	snprintf(p->source, sizeof(p->source), "diff");
	char head[600];
	tt_diff_headline_text(tt_res_diff(s->res, NULL), o.label_a ? o.label_a : "Control",
			      o.label_b ? o.label_b : "Test", head, sizeof(head));
	tt_pane_head(p, TT_ROLE_MARKED, "ProfilerStep#%lld: %s", (long long)s->num[0], head);
	for (size_t i = 0; i < t->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", t->notes[i]);
	tt_pane_set_table(p, t);
	const struct tt_diff *d = tt_res_diff(s->res, NULL);
	for (size_t i = 0; i < t->nrows && d; i++) {
		int64_t dd = d->rows[s->order[i]].diff_dur;
		p->row_role[i] = dd > 0 ? TT_ROLE_WORSE : dd < 0 ? TT_ROLE_BETTER : 0;
	}
	tt_pane_head(p, TT_ROLE_DIM, "HTA's compare_traces of this step (--iteration %lld), "
				     "largest change first; Enter: the name's instances over every "
				     "compared step",
		     (long long)s->num[0]);
	return 0;
}

static struct tt_pane *step_names_drill(struct tt_pane *p, size_t row)
{
	struct step_names *s = p->state;
	const struct tt_diff *d = s->res ? tt_res_diff(s->res, NULL) : NULL;
	if (!d || !s->order || row >= d->n)
		return NULL;
	return tt_dinst_pane(p->app, d->rows[s->order[row]].name, TT_DINST_ROW);
}

static void step_names_close(struct tt_pane *p)
{
	struct step_names *s = p->state;
	if (s) {
		free(s->order);
		tt_results_free(s->res);
	}
	free(s);
}

static const struct tt_pane_ops step_names_ops = {
	.name = "stepnames",
	.title = "Step names",
	.help = "One step of a diff, name by name: HTA's compare_traces of that ProfilerStep "
		"(tracetop report diff --iteration N) over the rank pairs of the Diff steps "
		"view, each op and kernel with its count and time on both sides and the "
		"difference, the largest change first.  Enter opens the name's instances on "
		"both sides.",
	.open = step_names_open,
	.close = step_names_close,
	.drill = step_names_drill,
	.both_sides = true,
};

static struct tt_pane *steps_drill(struct tt_pane *p, size_t row)
{
	const struct tt_table *t = p->table;
	int ca = -1, cb = -1;
	for (int c = 0; c < t->ncols; c++) {
		size_t n = strlen(t->cols[c].name);
		if (n > 5 && strcmp(t->cols[c].name + n - 5, "_step") == 0) {
			if (ca < 0)
				ca = c;
			else if (cb < 0)
				cb = c; /* (the first two: the sides' step numbers) */
		}
	}
	if (ca < 0 || cb < 0 || row >= t->nrows)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &step_names_ops);
	struct step_names *s = tt_calloc(1, sizeof(*s));
	s->num[0] = (int64_t)tt_cell_num(tt_table_cell(t, row, ca));
	s->num[1] = (int64_t)tt_cell_num(tt_table_cell(t, row, cb));
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "ProfilerStep#%lld", (long long)s->num[0]);
	return np;
}

static int ranks_open(struct tt_pane *p)
{
	if (diff_view_open(p, "diff_ranks", "diff_step"))
		return -1;
	tt_pane_head(p, TT_ROLE_DIM, "each rank pair, per step: step time, GPU busy, computation, "
				     "communication, memory, GPU idle; Δ = Test - Control; the ranks "
				     "whose time moved most first");
	return 0;
}

const struct tt_pane_ops tt_diff_steps_ops = {
	.name = "diffsteps",
	.title = "Diff steps",
	.help = "Two traces (--diff CONTROL TEST): every ProfilerStep both sides have, its time "
		"on each side (the mean over the rank pairs that have it), the difference, GPU "
		"idle time in the step (the step less the GPU work it launched, inside its "
		"window), and the verdict against --diff-threshold and --diff-floor.  The "
		"table of `tracetop report diff --table diff_steps`; Enter opens the step's "
		"names on both sides (HTA's compare_traces of that step).",
	.open = steps_open,
	.drill = steps_drill,
	.both_sides = true,
};

const struct tt_pane_ops tt_diff_ranks_ops = {
	.name = "diffranks",
	.title = "Diff ranks",
	.help = "Two traces (--diff CONTROL TEST): per rank pair (--map, else rank r with rank r, "
		"else in order), "
		"the per-step means of step time, GPU busy, computation, communication, memory "
		"and GPU idle time on each side and their differences; the pairs whose time "
		"moved most first.  The table of `tracetop report diff --table diff_ranks`.",
	.open = ranks_open,
	.both_sides = true,
};

const struct tt_pane_ops tt_diff_ops = {
	.name = "diff",
	.title = "Diff",
	.help = "HTA's trace diff of two traces (start with --diff CONTROL TEST): every op and "
		"kernel name with its time per step on both sides (the mean over every "
		"ProfilerStep both sides have on every rank pair; --iteration N or first: one "
		"step on each side's smallest rank, as HTA's compare_traces), the difference, "
		"its spread and calls per step, sorted by the size of the change; the first "
		"line is the headline of the diff.  v opens the Diff steps and Diff ranks "
		"views.  Enter opens the name's instances on both sides.",
	.open = diff_open,
	.close = pane_free_state,
	.drill = diff_drill,
	.needs = TT_NEED(TT_RES_DIFF),
};
