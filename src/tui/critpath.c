/* View "critical-path" (the views menu): per rank and step, the critical
 * path's length and a stacked bar of what bounds it, each step's longest
 * path across ranks marked.  Enter: the events with most time on that
 * step's path; Enter on one: the timeline at it with the path drawn (n/N
 * step along the path).
 *
 * Everything is drawn from the typed result tt_res_critpath (the tables
 * are `tracetop report critical-path`'s, formatted from it): row i of the
 * steps table is step i of the result, row j of a path's table is
 * top[j] of its step. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"
#include "pane.h"

/* the bar: the four groups of tt_cp_groups, their glyphs and colours */
static const char bar_glyphs[] = "#=:.";
static const enum tt_role bar_roles[TT_CPG_COUNT] = {TT_ROLE_BAR_CPU, TT_ROLE_BAR_COMP,
						     TT_ROLE_BAR_COMM, TT_ROLE_BAR_RUNTIME};

static int steps_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "critical-path", "critical_path_steps"))
		return -1;
	struct tt_table *t = p->table;
	const struct tt_cp_steps *s = tt_res_critpath(p->app->res);
	struct tt_col bar = {.name = "bound_bar", .title = "what bounds it", .type = TT_C_STACK,
			     .width = 20, .nstack = TT_CPG_COUNT, .glyphs = bar_glyphs,
			     .hidden_csv = true};
	for (int i = 0; i < TT_CPG_COUNT; i++) {
		bar.stack[i] = TT_CPS_GROUP + i;
		bar.role[i] = (uint8_t)bar_roles[i];
	}
	tt_table_add_col(t, &bar);
	/* room for the bar at 80 columns: the second bound and the instance
	 * number (the step's name says it) go */
	t->cols[TT_CPS_BOUND_2].hidden_text = true;
	t->cols[TT_CPS_INSTANCE].hidden_text = true;
	tt_pane_set_table(p, t);
	size_t marked = 0;
	for (size_t i = 0; p->row_role && i < t->nrows && i < s->n; i++)
		if (s->steps[i].longest) {
			p->row_role[i] = TT_ROLE_MARKED;
			marked++;
		}
	char legend[300];
	size_t w = 0;
	for (int i = 0; i < TT_CPG_COUNT && w < sizeof(legend); i++) {
		int k = snprintf(legend + w, sizeof(legend) - w, "%s%s %s", i ? "  " : "bar: ",
				 tt_stack_glyph(bar_glyphs, i), tt_cp_group_label((enum tt_cp_group)i));
		if (k < 0)
			break;
		w += (size_t)k;
	}
	tt_pane_head(p, TT_ROLE_DIM, "%s", legend);
	tt_pane_head(p, TT_ROLE_DIM, "%sEnter: the events on the step's path",
		     marked ? "marked: the longest path of each step across ranks.  " : "");
	return 0;
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
	if (res->no_gpu)
		tt_pane_head(p, TT_ROLE_WARNING,
			     "no GPU work in this window: the path runs through CPU ops only");
	tt_pane_head(p, TT_ROLE_DIM,
		     "time inside each event on the path, by name.  Enter: the timeline there, "
		     "the path drawn (n/N step along it)");
	return 0;
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
	/* each edge drawn on the row of its last node's event, from its
	 * first node's time to its last's */
	const struct tt_cp_result *res = &st->res;
	struct tt_tl_span *sp = tt_malloc((res->nedges + 1) * sizeof(*sp));
	for (size_t i = 0; i < res->nedges; i++) {
		const struct tt_cp_node *u = &res->nodes[res->edges[i].u];
		const struct tt_cp_node *w = &res->nodes[res->edges[i].v];
		sp[i] = (struct tt_tl_span){st->ri, w->ev, TT_MIN(u->ts, w->ts), TT_MAX(u->ts, w->ts)};
	}
	struct tt_pane *np = tt_timeline_set(p->app, v, s->nev, sp, res->nedges, "critical path");
	free(sp);
	free(v);
	return np;
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

const struct tt_pane_ops tt_critpath_ops = {
	.name = "critical-path",
	.title = "Critical path",
	.help = "HTA's critical path analysis per rank and step: the longest chain of CPU "
		"operators, runtime calls, kernels and synchronisations through the step, and "
		"what it spends its time on -- CPU work, GPU compute, communication, launch "
		"overhead, gaps between kernels (and data loading with --data-load).  The bar "
		"splits the path's length; the marked rows are, for each step, the rank whose "
		"path is longest (the straggler, with what bounds it).  "
		"Enter lists the events with most time on that path.",
	.needs = TT_NEED(TT_RES_CRITPATH),
	.open = steps_open,
	.drill = steps_drill,
};
