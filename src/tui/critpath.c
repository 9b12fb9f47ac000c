/* View "critical-path" (the views menu): per rank and step, the critical
 * path's length, the step it covers and a stacked bar of what bounds it;
 * in tracetop's model the rank that bounds the job's step is marked with
 * '*' in the first column (HTA's model: the step's longest path), and the
 * line above names what bounds the job.  Enter: the events with most time
 * on that step's path; Enter on one: the timeline at it with the path
 * drawn (n/N step along the path).  J: the job's path of the row's step
 * across ranks on the timeline.  x: what if an op, a kernel or a class
 * took F times as long (NAME*F): the rank's steps now and then.
 *
 * View "critical-path-job": the job's path per step (critical_path_job);
 * Enter follows it across ranks on the timeline.
 *
 * Everything is drawn from the typed result tt_res_critpath (the tables
 * are `tracetop report critical-path`'s, formatted from it): row i of the
 * steps table is step i of the result, row j of a path's table is
 * top[j] of its step, row i of the job table is jobs[i]. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"
#include "pane.h"

/* the bar: the groups of tt_cp_groups, their glyphs and colours */
static const char bar_glyphs[] = "%#=:~.";
static const enum tt_role bar_roles[TT_CPG_COUNT] = {
	TT_ROLE_BAR_OTHER, TT_ROLE_BAR_CPU, TT_ROLE_BAR_COMP,
	TT_ROLE_BAR_COMM,  TT_ROLE_BAR_IDLE, TT_ROLE_BAR_RUNTIME};
_Static_assert(sizeof(bar_glyphs) - 1 == TT_CPG_COUNT, "a glyph per group");

/* the steps view: which head line says what the row's path covers */
struct steps_state {
	size_t cover; /* index into p->head, SIZE_MAX: none */
	size_t row;   /* the row it says it of */
};

/* "rank 0, ProfilerStep#100: path 86.4 ms of a 86.7 ms step ..." */
static void cover_line(struct tt_pane *p)
{
	struct steps_state *st = p->state;
	const struct tt_cp_steps *s = tt_res_critpath(p->app->res);
	size_t row = tt_pane_row(p);
	if (!st || st->cover == SIZE_MAX || row == st->row || row >= s->n)
		return;
	st->row = row;
	const struct tt_cp_step *c = &s->steps[row];
	char step[96], cover[300], line[600];
	tt_report_cp_step(p->app->m, c, step, sizeof(step));
	tt_report_cp_cover(&c->res, cover, sizeof(cover));
	if (!cover[0])
		snprintf(cover, sizeof(cover), "%s", tt_cp_status_text(c->res.status));
	snprintf(line, sizeof(line), "rank %lld, %s: %s (the step: its start to its last GPU op's "
				     "end; %s model)",
		 (long long)c->res.rank, step, cover, tt_cp_model_name(p->app->ropts.cp_model));
	pane_set_head(p, st->cover, TT_ROLE_DEFAULT, line);
}

/* a warning line when the ranks disagree on some step's collectives (the
 * job's path takes no wait from them) */
static void disagree_head(struct tt_pane *p)
{
	if (p->app->ropts.cp_model != TT_CPM_TRACETOP)
		return;
	char d[300];
	tt_report_cp_disagree(tt_res_critpath(p->app->res), d, sizeof(d));
	if (d[0])
		tt_pane_head(p, TT_ROLE_WARNING, "%s", d);
}

static int steps_open(struct tt_pane *p)
{
	struct tt_table *t = tt_pane_table(p, "critical-path", "critical_path_steps");
	if (!t)
		return -1;
	const struct tt_cp_steps *s = tt_res_critpath(p->app->res);
	bool hta = p->app->ropts.cp_model == TT_CPM_HTA;
	struct steps_state *st = tt_calloc(1, sizeof(*st));
	p->state = st;
	struct tt_col bar = {.name = "bound_bar", .title = "bar", .type = TT_C_STACK,
			     .width = 20, .nstack = TT_CPG_COUNT, .glyphs = bar_glyphs,
			     .hidden_csv = true};
	for (int i = 0; i < TT_CPG_COUNT; i++) {
		bar.stack[i] = TT_CPS_GROUP + i;
		bar.role[i] = (uint8_t)bar_roles[i];
	}
	tt_table_add_col(t, &bar);
	/* room for the bar at 80 columns: the second bound, the instance
	 * number (the step's name says it) and the step's span (the line
	 * above says it of the row) go */
	t->cols[TT_CPS_BOUND_2].hidden_text = true;
	t->cols[TT_CPS_INSTANCE].hidden_text = true;
	t->cols[TT_CPS_SPAN].hidden_text = true;
	tt_pane_set_table(p, t);
	p->sort_first = TT_CPS_LENGTH; /* s: the longest paths first */
	size_t marked = 0;
	for (size_t i = 0; p->row_role && i < t->nrows && i < s->n; i++)
		if (hta ? s->steps[i].longest : s->steps[i].bounds_job) {
			p->row_role[i] = TT_ROLE_MARKED;
			marked++;
		}
	/* what bounds the job (and where the ranks disagree on collectives),
	 * what the row's path covers */
	pane_verdict_head(p);
	disagree_head(p);
	if (hta)
		tt_pane_head(p, TT_ROLE_DIM, "HTA's model (--model hta): no time before a step's "
					     "first op nor between ops, no wait named");
	st->cover = p->nhead;
	st->row = SIZE_MAX;
	tt_pane_head(p, TT_ROLE_DEFAULT, "%s", "");
	/* the groups in short words (six segments: drawn with their ASCII
	 * glyphs) */
	static const char *const words[TT_CPG_COUNT] = {"data loading", "CPU",	   "GPU",
							"comm",		"waiting", "launch/gaps"};
	char legend[300];
	size_t w = 0;
	for (int i = 0; i < TT_CPG_COUNT && w < sizeof(legend); i++) {
		int k = snprintf(legend + w, sizeof(legend) - w, "%s%c %s", i ? "  " : "bar: ",
				 bar_glyphs[i], words[i]);
		if (k < 0)
			break;
		w += (size_t)k;
	}
	tt_pane_head(p, TT_ROLE_DIM, "%s", legend);
	tt_pane_head(p, TT_ROLE_DIM, "%sEnter: the path%s  x: what if",
		     !marked ? "" :
		     hta     ? "*: the step's longest path.  " :
			       "*: bounds the job's step.  ",
		     hta ? "" : "  J: the job's path");
	cover_line(p);
	return 0;
}

static void steps_refresh(struct tt_pane *p)
{
	pane_verdict_refresh(p);
	cover_line(p);
}

/* ---- the job's path on the timeline ---- */

/* A path's edge from u to w of rank ri, as the timeline draws it: on the
 * row of its last node's event, from its first node's time to its last's. */
static struct tt_tl_span edge_span(size_t ri, const struct tt_cp_node *u,
				   const struct tt_cp_node *w)
{
	return (struct tt_tl_span){ri, w->ev, TT_MIN(u->ts, w->ts), TT_MAX(u->ts, w->ts)};
}

/* The timeline of a path: its events v[0..nv), its edges sp[0..nsp) (both
 * freed here), named `what` in the status line. */
static struct tt_pane *path_timeline(struct tt_app *a, struct tt_tl_event *v, size_t nv,
				     struct tt_tl_span *sp, size_t nsp, const char *what)
{
	struct tt_pane *np = tt_timeline_set(a, v, nv, sp, nsp, what);
	free(sp);
	free(v);
	return np;
}

/* The timeline of the job's path jobs[j]: its nodes' events in order, each
 * edge drawn on the row of its last node's event; NULL without a path. */
static struct tt_pane *job_timeline(struct tt_app *a, size_t j)
{
	const struct tt_cp_steps *s = tt_res_critpath(a->res);
	if (j >= s->njobs || !s->jobs[j].n) {
		tt_ui_status(a, TT_ROLE_DIM, "no job path in this step");
		return NULL;
	}
	const struct tt_cp_job *job = &s->jobs[j];
	struct tt_tl_event *v = tt_malloc((2 * job->n + 1) * sizeof(*v));
	struct tt_tl_span *sp = tt_malloc((job->n + 1) * sizeof(*sp));
	size_t nv = 0;
	for (size_t i = 0; i < job->n; i++) {
		const struct tt_cp_jedge *e = &s->jedges[job->first + i];
		const struct tt_cp_node *ends[2] = {&e->u, &e->v};
		for (int k = 0; k < 2; k++)
			if (!nv || v[nv - 1].ri != e->ri || v[nv - 1].ev != ends[k]->ev)
				v[nv++] = (struct tt_tl_event){e->ri, ends[k]->ev};
		sp[i] = edge_span(e->ri, &e->u, &e->v);
	}
	char what[64];
	snprintf(what, sizeof(what), "job path of step %lld", (long long)job->step);
	return path_timeline(a, v, nv, sp, job->n, what);
}

/* the job of the step of steps row `row` */
static size_t job_of_row(const struct tt_cp_steps *s, size_t row)
{
	if (row >= s->n || !s->steps[row].res.has_step)
		return SIZE_MAX;
	const struct tt_cp_result *r = &s->steps[row].res;
	int64_t num = tt_step_number(tt_ev_name(r->r, &r->r->ev[r->win_ev]));
	for (size_t j = 0; j < s->njobs; j++)
		if (s->jobs[j].step == num)
			return j;
	return SIZE_MAX;
}

/* ---- what if ---- */

struct wi_state {
	size_t ri;            /* the rank (index) */
	struct tt_cp_whatif w;
	struct tt_cp_steps s; /* its steps again, with the change */
	bool done;
};

static void wi_close(struct tt_pane *p)
{
	struct wi_state *w = p->state;
	if (w && w->done)
		tt_cp_steps_free(&w->s);
	pane_free_state(p);
}

static int wi_open(struct tt_pane *p)
{
	struct wi_state *st = p->state;
	struct tt_app *a = p->app;
	const struct tt_results_opts *ro = tt_results_options(a->res);
	struct tt_cp_steps_opts o = ro->cp;
	struct tt_aopts ao = ro->a;
	int64_t rank = a->m->ranks[st->ri]->rank;
	ao.ranks = &rank;
	ao.nranks = 1;
	o.cp.a = &ao;
	o.cp.whatif = &st->w;
	o.cp.nwhatif = 1;
	o.cp.coll = o.cp.model == TT_CPM_TRACETOP ? tt_res_collectives(a->res) : NULL;
	tt_cp_steps_compute(a->m, &o, &st->s);
	st->done = true;
	struct tt_table *t = tt_report_cp_whatif(a->m, &st->s, &st->w, 1);
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, "rank") || !strcmp(t->cols[c].name, "instance_id"))
			t->cols[c].hidden_text = true; /* (the subtitle says them) */
	tt_pane_head(p, TT_ROLE_DEFAULT, "%s", t->title ? t->title : "");
	tt_pane_head(p, TT_ROLE_DIM, "now: the path as recorded; then: with the change (the "
				     "graph's dependencies stay); bound most by: then");
	tt_pane_set_table(p, t);
	if (!t->nrows)
		snprintf(p->msg, sizeof(p->msg), "no path on rank %lld", (long long)rank);
	return t->nrows ? 0 : -1;
}

static const struct tt_pane_ops wi_ops = {
	.name = "critical-path-what-if",
	.title = "What if",
	.help = "The critical path of one rank's steps again with some times changed: an op's "
		"or kernel's name (every event whose name contains it) or a class "
		"(launch-overhead, kernel-gaps) took F times as long.  now: the path as "
		"recorded; then: with the change, on the same graph (its dependencies stay).",
	.needs = TT_NEED(TT_RES_CRITPATH),
	.open = wi_open,
	.close = wi_close,
};

/* the what-if pane of rank index ri with change w */
static struct tt_pane *whatif_pane(struct tt_app *a, size_t ri, const struct tt_cp_whatif *w)
{
	struct wi_state *st = tt_calloc(1, sizeof(*st));
	st->ri = ri;
	st->w = *w;
	struct tt_pane *np = tt_pane_new(a, &wi_ops);
	np->state = st;
	snprintf(np->subtitle, sizeof(np->subtitle), "what if %.100s*%g, rank %lld", w->pattern,
		 w->factor, (long long)a->m->ranks[ri]->rank);
	return np;
}

/* ask for the change: the prompt starts with the row's name (the path's
 * events) or its main class (the steps) */
static int ask_whatif(struct tt_pane *p, const char *init)
{
	tt_ui_prompt(p->app, TT_ACT_WHAT_IF,
		     "what if (NAME*F, launch-overhead*F, kernel-gaps*F; C-u clears): ",
		     init);
	return TT_R_REDRAW;
}

static int whatif_prompt(struct tt_pane *p, size_t ri, const char *text)
{
	struct tt_cp_whatif w;
	char why[200];
	if (tt_cp_whatif_parse(text, &w, why, sizeof(why))) {
		tt_ui_status(p->app, TT_ROLE_WARNING, "%s", why);
		return TT_R_REDRAW;
	}
	struct tt_pane *np = whatif_pane(p->app, ri, &w);
	if (np)
		tt_ui_open(p->app, np);
	return TT_R_REDRAW;
}

/* ---- one step's path ---- */

struct path_state {
	size_t step;            /* index into the result's steps */
	struct tt_tl_event *ev; /* the path's events in path order, each once */
	size_t nev;
};

static void path_close(struct tt_pane *p)
{
	struct path_state *s = p->state;
	if (s)
		free(s->ev);
	pane_free_state(p);
}

static const struct tt_cp_step *path_step(struct tt_pane *p)
{
	const struct path_state *s = p->state;
	const struct tt_cp_steps *all = tt_res_critpath(p->app->res);
	return s->step < all->n ? &all->steps[s->step] : NULL;
}

/* the events of the path's nodes, in path order, each once */
static void path_events(struct path_state *s, const struct tt_rank *r,
			const struct tt_cp_step *st)
{
	const struct tt_cp_result *res = &st->res;
	uint8_t *seen = tt_calloc(r->nev / 8 + 1, 1);
	s->ev = tt_malloc((res->nnodes + 1) * sizeof(*s->ev));
	s->nev = 0;
	for (size_t i = 0; i < res->nnodes; i++) {
		uint32_t ev = res->nodes[i].ev;
		if (ev >= r->nev || (seen[ev / 8] & (1u << (ev % 8))))
			continue;
		seen[ev / 8] |= (uint8_t)(1u << (ev % 8));
		s->ev[s->nev++] = (struct tt_tl_event){st->ri, ev};
	}
	free(seen);
}

static int path_open(struct tt_pane *p)
{
	struct path_state *s = p->state;
	const struct tt_cp_step *st = path_step(p);
	if (!st || st->res.status != TT_CP_OK || !st->res.ntop) {
		snprintf(p->msg, sizeof(p->msg), "no path in this window");
		return -1;
	}
	const struct tt_model *m = p->app->m;
	const struct tt_cp_result *res = &st->res;
	path_events(s, m->ranks[st->ri], st);
	struct tt_table *top = tt_report_cp_top(m, st);
	pane_add_bar_at(top, TT_CPT_ON_PATH, "on path", TT_ROLE_BAR, 0);
	for (int c = 0; c < top->ncols; c++)
		if (!strcmp(top->cols[c].name, "rank") || !strcmp(top->cols[c].name, "instance_id"))
			top->cols[c].hidden_text = true; /* (the subtitle says them) */
	tt_pane_set_table(p, top);
	/* the whole breakdown, largest first */
	char line[400], len[32], b[64];
	tt_fmt_dur(len, sizeof(len), res->length);
	size_t w = (size_t)snprintf(line, sizeof(line), "length %s:", len);
	for (int k = 0; tt_cp_bound_rank(res->by_bound, k) >= 0 && w < sizeof(line); k++) {
		tt_report_cp_bound(res, k, b, sizeof(b));
		int c = snprintf(line + w, sizeof(line) - w, "%s %s", k ? "," : "", b);
		if (c < 0)
			break;
		w += (size_t)c;
	}
	tt_pane_head(p, TT_ROLE_DEFAULT, "%s", line);
	char cover[300];
	tt_report_cp_cover(res, cover, sizeof(cover));
	if (cover[0])
		tt_pane_head(p, TT_ROLE_DEFAULT, "%s (%s model)", cover,
			     tt_cp_model_name(p->app->ropts.cp_model));
	if (res->no_gpu)
		tt_pane_head(p, TT_ROLE_WARNING,
			     "no GPU work in this window: the path runs through CPU ops only");
	tt_pane_head(p, TT_ROLE_DIM,
		     "time inside each event on the path, by name.  Enter: the timeline there, "
		     "the path drawn (n/N step along it).  x: what if it took F times as long");
	return 0;
}

static int path_key(struct tt_pane *p, enum tt_action act)
{
	const struct tt_cp_step *st = path_step(p);
	size_t row = tt_pane_row(p);
	if (act != TT_ACT_WHAT_IF || !st)
		return TT_R_UNHANDLED;
	char init[72] = "";
	if (row < st->res.ntop)
		snprintf(init, sizeof(init), "%.60s*",
			 tt_str(st->res.r, st->res.top[row].name));
	return ask_whatif(p, init);
}

static int path_prompt(struct tt_pane *p, int kind, const char *text)
{
	const struct tt_cp_step *st = path_step(p);
	if (kind != TT_ACT_WHAT_IF || !st)
		return TT_R_NONE;
	return whatif_prompt(p, st->ri, text);
}

static struct tt_pane *path_drill(struct tt_pane *p, size_t row)
{
	struct path_state *s = p->state;
	const struct tt_cp_step *st = path_step(p);
	if (!st || row >= st->res.ntop || !s->nev)
		return NULL;
	uint32_t ev = st->res.top[row].first_ev;
	/* the timeline opens on the first event of the name: the path from
	 * that event on, then its start (n walks on along the path, N back) */
	size_t at = 0;
	while (at < s->nev && s->ev[at].ev != ev)
		at++;
	if (at == s->nev)
		at = 0;
	struct tt_tl_event *v = tt_malloc((s->nev + 1) * sizeof(*v));
	memcpy(v, s->ev + at, (s->nev - at) * sizeof(*v));
	memcpy(v + (s->nev - at), s->ev, at * sizeof(*v));
	const struct tt_cp_result *res = &st->res;
	struct tt_tl_span *sp = tt_malloc((res->nedges + 1) * sizeof(*sp));
	for (size_t i = 0; i < res->nedges; i++)
		sp[i] = edge_span(st->ri, &res->nodes[i], &res->nodes[i + 1]);
	return path_timeline(p->app, v, s->nev, sp, res->nedges, "critical path");
}

static const struct tt_pane_ops path_ops = {
	.name = "critical-path-events",
	.title = "Path",
	.help = "The critical path of one rank and step: the time it spends inside each event "
		"(operators, runtime calls, kernels), by name, and what bounds it overall.  "
		"Enter opens the timeline at the event with the whole path drawn; there n and N "
		"step along the path.",
	.needs = TT_NEED(TT_RES_CRITPATH),
	.open = path_open,
	.close = path_close,
	.drill = path_drill,
	.key = path_key,
	.prompt = path_prompt,
};

static struct tt_pane *steps_drill(struct tt_pane *p, size_t row)
{
	const struct tt_cp_steps *all = tt_res_critpath(p->app->res);
	if (row >= all->n || all->steps[row].res.status != TT_CP_OK) {
		tt_ui_status(p->app, TT_ROLE_DIM, "no path in this window");
		return NULL;
	}
	const struct tt_cp_step *st = &all->steps[row];
	struct path_state *s = tt_calloc(1, sizeof(*s));
	s->step = row;
	struct tt_pane *np = tt_pane_new(p->app, &path_ops);
	np->state = s;
	char step[96];
	tt_report_cp_step(p->app->m, st, step, sizeof(step));
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld, %s", (long long)st->res.rank,
		 step);
	return np;
}

/* the steps view's keys: J (the job's path), x (what if) */
static int steps_key(struct tt_pane *p, enum tt_action act)
{
	const struct tt_cp_steps *s = tt_res_critpath(p->app->res);
	size_t row = tt_pane_row(p);
	if (act == TT_ACT_JOB_PATH) {
		size_t j = job_of_row(s, row);
		if (j == SIZE_MAX) {
			tt_ui_status(p->app, TT_ROLE_DIM,
				     p->app->ropts.cp_model == TT_CPM_HTA ?
					     "no job path in HTA's model (--model tracetop)" :
					     "no job path for this row (a step of ProfilerStep#N)");
			return TT_R_REDRAW;
		}
		struct tt_pane *np = job_timeline(p->app, j);
		if (np)
			tt_ui_open(p->app, np);
		return TT_R_REDRAW;
	}
	if (act == TT_ACT_WHAT_IF) {
		if (row >= s->n)
			return TT_R_REDRAW;
		/* the row's main class when it has a word, else its top event */
		const struct tt_cp_result *r = &s->steps[row].res;
		int b = tt_cp_bound_rank(r->by_bound, 0);
		char init[72] = "";
		if (b == TT_CPB_LAUNCH)
			snprintf(init, sizeof(init), "launch-overhead*");
		else if (b == TT_CPB_KK)
			snprintf(init, sizeof(init), "kernel-gaps*");
		else if (r->ntop)
			snprintf(init, sizeof(init), "%.60s*", tt_str(r->r, r->top[0].name));
		return ask_whatif(p, init);
	}
	return TT_R_UNHANDLED;
}

static int steps_prompt(struct tt_pane *p, int kind, const char *text)
{
	const struct tt_cp_steps *s = tt_res_critpath(p->app->res);
	size_t row = tt_pane_row(p);
	if (kind != TT_ACT_WHAT_IF || row >= s->n)
		return TT_R_NONE;
	return whatif_prompt(p, s->steps[row].ri, text);
}

const struct tt_pane_ops tt_critpath_ops = {
	.name = "critical-path",
	.title = "Critical path",
	.help = "The critical path per rank and step: the longest chain of CPU operators, "
		"runtime calls, kernels and synchronisations through the step, and what it "
		"spends its time on -- data loading, CPU work (in ops, between them, before "
		"the first), GPU compute and memory, communication, waiting for another rank "
		"in a collective, launch overhead and gaps between kernels.  tracetop's model "
		"(the default) covers the whole step; HTA's (--model hta) is HTA's path "
		"exactly.  The bar splits the path's length; '*' marks, for each step, the "
		"rank that bounds the job (HTA's model: the longest path), and the line above "
		"says what bounds the job.  Enter lists the events with most time on that "
		"path; J follows the job's path of the step across ranks on the timeline; x "
		"asks what if an op, a kernel or a class took F times as long.",
	.needs = TT_NEED(TT_RES_CRITPATH),
	.open = steps_open,
	.close = pane_free_state,
	.drill = steps_drill,
	.key = steps_key,
	.prompt = steps_prompt,
	.refresh = steps_refresh,
};

/* ---- the job's path per step ---- */

static int job_open(struct tt_pane *p)
{
	if (p->app->ropts.cp_model == TT_CPM_HTA) {
		snprintf(p->msg, sizeof(p->msg),
			 "the job's path is tracetop's model (started with --model hta)");
		return -1;
	}
	struct tt_table *t = tt_pane_table(p, "critical-path", "critical_path_job");
	if (!t)
		return -1;
	/* at 80 columns: the collective and how many ranks waited (the line
	 * above names them), the path's and the step's lengths and what it
	 * covers (the timeline shows the path) go */
	t->cols[TT_CPJ_COLL].hidden_text = true;
	t->cols[TT_CPJ_NWAIT].hidden_text = true;
	t->cols[TT_CPJ_LENGTH].hidden_text = true;
	t->cols[TT_CPJ_SPAN].hidden_text = true;
	t->cols[TT_CPJ_COVER].hidden_text = true;
	pane_verdict_head(p);
	disagree_head(p);
	tt_pane_head(p, TT_ROLE_DIM,
		     "rank: the one the path spends most time on; bound by: where its path "
		     "exceeds the others' most before they waited for it (excess: over their "
		     "median), or, when it started late, what bound it the step before (late: "
		     "after the others' start); waited: the other ranks' waits for it");
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the job's path on the timeline, across ranks (n/N "
				     "step along it)");
	tt_pane_set_table(p, t);
	if (!t->nrows)
		snprintf(p->msg, sizeof(p->msg), "no step (ProfilerStep#N) with a path");
	return t->nrows ? 0 : -1;
}

static struct tt_pane *job_drill(struct tt_pane *p, size_t row)
{
	return job_timeline(p->app, row);
}

const struct tt_pane_ops tt_cpjob_ops = {
	.name = "critical-path-job",
	.title = "Job path",
	.help = "The job's critical path per step, across ranks: it starts at the end of the "
		"rank whose step ends last and runs back along that rank's critical path; where "
		"that rank waited in a collective for a later rank, it goes on along the late "
		"rank's path to its arrival.  Per step: the rank that bounds the job (the path's "
		"most time), the class that bounds that rank (where it exceeds the others), the "
		"wait it caused on the other ranks, the path's length and the step's.  Enter "
		"follows the path across ranks on the timeline.",
	.needs = TT_NEED(TT_RES_CRITPATH),
	.open = job_open,
	.drill = job_drill,
	.refresh = pane_verdict_refresh,
};
