/* The TensorBoard views as panes (issue 9): Utilisation, Distributed,
 * Operators, Memory, Source, Steps, Advice, and their drill-downs.  Each
 * builds its table from the report of the same name (`tracetop report
 * NAME`) and drills into narrower tables, then into the timeline. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/tbviews.h"
#include "tracetop/util.h"
#include "pane.h"

/* sparklines in panes: fewer slices than the reports, to fit beside the
 * other columns */
#define PANE_BUCKETS 32

/* ---- helpers ---- */

/* Build report `name` with options o and keep table `table` (NULL: none). */
static struct tt_table *build(struct tt_app *a, const struct tt_report_opts *o, const char *name,
			      const char *table, char *msg, size_t msgn)
{
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_report_build(name, a->m, NULL, o, &t, &n, &err)) {
		if (msg)
			snprintf(msg, msgn, "%s", err.msg);
		return NULL;
	}
	struct tt_table *keep = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i]->name, table) == 0) {
			keep = t[i];
			t[i] = NULL;
		}
	tt_tables_free(t, n);
	if (!keep && msg)
		snprintf(msg, msgn, "no %s table", table);
	return keep;
}

/* The app's options with every row of top-N lists (panes scroll). */
static struct tt_report_opts all_rows(const struct tt_app *a)
{
	struct tt_report_opts o = a->ropts;
	o.top = 1000000;
	return o;
}

/* The rows of src whose column `c` equals v (and `c2` equals v2 when c2 is
 * not NULL), as a new table. */
static struct tt_table *filter_rows(const struct tt_table *src, const char *name, const char *c,
				    double v, const char *c2, double v2)
{
	struct tt_table *t = tt_table_new(name, src->cols, src->ncols);
	for (size_t i = 0; i < src->nrows; i++) {
		if (pane_num(src, i, c) != v || (c2 && pane_num(src, i, c2) != v2))
			continue;
		size_t r = tt_table_add_row(t);
		for (int k = 0; k < src->ncols; k++) {
			const struct tt_cell *x = tt_table_cell(src, i, k);
			if (x->kind == TT_CV_S)
				tt_table_set_str(t, r, k, x->v.s);
			else if (x->kind == TT_CV_I)
				tt_table_set_int(t, r, k, x->v.i);
			else if (x->kind == TT_CV_D)
				tt_table_set_num(t, r, k, x->v.d);
		}
	}
	for (size_t i = 0; i < src->nnotes; i++)
		tt_table_add_note(t, "%s", src->notes[i]);
	return t;
}

/* Take t (or say why there is nothing) with the table's notes as head lines. */
static int take(struct tt_pane *p, struct tt_table *t, const char *empty)
{
	if (!t)
		return -1;
	for (size_t i = 0; i < t->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", t->notes[i]);
	tt_pane_set_table(p, t);
	if (!t->nrows && empty)
		snprintf(p->msg, sizeof(p->msg), "%s", empty);
	return 0;
}

/* Enter on a row with rank_index and an event column: the timeline there */
static struct tt_pane *drill_timeline(struct tt_pane *p, size_t row, const char *evcol)
{
	double ri = pane_num(p->table, row, "rank_index"), ev = pane_num(p->table, row, evcol);
	if (isnan(ri) || isnan(ev) || (size_t)ri >= p->app->m->nranks)
		return NULL;
	return tt_timeline_new(p->app, (size_t)ri, (uint32_t)ev, 0);
}

static struct tt_pane *drill_event(struct tt_pane *p, size_t row)
{
	return drill_timeline(p, row, "event");
}

/* what a drill-down pane shows: a rank (and device), a collective or an
 * operator by name, a step number */
struct rank_state {
	int64_t rank;
	int64_t device;
	int64_t step;
	char name[256];
};

static struct tt_pane *new_child(struct tt_pane *p, const struct tt_pane_ops *ops,
				 struct rank_state **st)
{
	struct tt_pane *np = tt_pane_new(p->app, ops);
	*st = tt_calloc(1, sizeof(**st));
	np->state = *st;
	return np;
}

/* ---- Utilisation ---- */

static int util_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *t =
		build(p->app, &o, "utilization", "gpu_utilization", p->msg, sizeof(p->msg));
	if (take(p, t, "no GPU activity in the ranks shown"))
		return -1;
	double busy = 0, span = 0, sm = 0, smw = 0, occ = 0, occw = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		busy += pane_num(t, i, "gpu_busy_every_event(us)");
		span += pane_num(t, i, "gpu_span_every_event(us)");
		double w = pane_num(t, i, "gpu_busy_every_event(us)");
		if (!isnan(pane_num(t, i, "est_sm_efficiency_pctg"))) {
			sm += pane_num(t, i, "est_sm_efficiency_pctg") * w;
			smw += w;
		}
		if (!isnan(pane_num(t, i, "est_achieved_occupancy_pctg"))) {
			occ += pane_num(t, i, "est_achieved_occupancy_pctg") * w;
			occw += w;
		}
	}
	if (t->nrows)
		tt_pane_head(
			p, TT_ROLE_DEFAULT,
			"%zu devices: busy %.1f %% of their GPU span (every event), est. SM "
			"efficiency %.1f %%, est. achieved occupancy %.1f %% (weighted by busy time)",
			t->nrows, span > 0 ? 100 * busy / span : NAN, smw > 0 ? sm / smw : NAN,
			occw > 0 ? occ / occw : NAN);
	struct tt_util u;
	tt_util_compute(p->app->m, &p->app->ropts.a, PANE_BUCKETS, &u);
	int sc = tt_table_col(t, "busy_over_time");
	char buf[400];
	for (size_t i = 0; sc >= 0 && i < t->nrows && i < u.ndevs; i++) {
		tt_sparkline(buf, sizeof(buf), u.devs[i].series, PANE_BUCKETS, 1.0);
		tt_table_set_str(t, i, sc, buf);
	}
	tt_util_free(&u);
	tt_pane_head(p, TT_ROLE_DIM,
		     "busy over time: the busy share of %d slices of each device's span. Enter: "
		     "the device's kernels",
		     PANE_BUCKETS);
	return 0;
}

static int ukern_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	struct tt_report_opts o = all_rows(p->app);
	int64_t one = s->rank;
	o.a.ranks = &one;
	o.a.nranks = 1;
	struct tt_table *t =
		build(p->app, &o, "utilization", "kernel_utilization", p->msg, sizeof(p->msg));
	if (take(p, t, "no kernels on this rank"))
		return -1;
	pane_add_bar(t, "time_pctg", "time", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	/* low occupancy stands out */
	for (size_t i = 0; i < t->nrows; i++)
		if (pane_num(t, i, "mean_est_achieved_occupancy_pctg") < 15)
			p->row_role[i] = TT_ROLE_WARNING;
	tt_pane_head(p, TT_ROLE_DIM,
		     "highlighted: est. occupancy under 15 %%. Enter: the "
		     "timeline at the kernel's longest instance");
	return 0;
}

static const struct tt_pane_ops ukern_ops = {
	.name = "util-kernels",
	.title = "Kernels",
	.help = "The kernels of one rank by total time, with their estimated SM efficiency "
		"(blocks of the grid / SMs of the device, capped at 1, weighted by time) and "
		"achieved occupancy (the trace's estimate, weighted by time), and the launch "
		"parameters of the longest instance.  Enter opens the timeline there.",
	.open = ukern_open,
	.close = pane_free_state,
	.drill = drill_event,
};

static struct tt_pane *util_drill(struct tt_pane *p, size_t row)
{
	double rank = pane_num(p->table, row, "rank");
	if (isnan(rank))
		return NULL;
	struct rank_state *s;
	struct tt_pane *np = new_child(p, &ukern_ops, &s);
	s->rank = (int64_t)rank;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)s->rank);
	return np;
}

const struct tt_pane_ops tt_util_ops = {
	.name = "utilization",
	.title = "Utilisation",
	.help = "GPU utilisation per rank and device (the TensorBoard plugin's GPU view): the "
		"share of the device's span (first to last GPU op) when a kernel, memcpy or "
		"memset runs on any of its streams; estimated SM efficiency (per kernel "
		"min(blocks / SMs, 1), SMs from deviceProperties, weighted by kernel time); "
		"estimated achieved occupancy (the kernels' `est. achieved occupancy %`, "
		"weighted by time); and a sparkline of the busy share over time.  Enter lists "
		"the device's kernels.",
	.open = util_open,
	.drill = util_drill,
};

/* ---- Distributed ---- */

static int dist_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table **tabs;
	size_t n;
	struct tt_err err;
	tt_err_clear(&err);
	if (tt_report_build("distributed", p->app->m, NULL, &o, &tabs, &n, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	struct tt_table *t = NULL, *coll = NULL, *strag = NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(tabs[i]->name, "distributed_overview") == 0)
			t = tabs[i];
		else if (strcmp(tabs[i]->name, "collectives") == 0)
			coll = tabs[i];
		else if (strcmp(tabs[i]->name, "stragglers") == 0)
			strag = tabs[i];
		else
			continue;
		tabs[i] = NULL;
	}
	tt_tables_free(tabs, n);
	if (!t) {
		tt_table_free(coll);
		tt_table_free(strag);
		snprintf(p->msg, sizeof(p->msg), "no distributed_overview table");
		return -1;
	}
	for (size_t i = 0; strag && i < strag->nrows && i < 4; i++)
		tt_pane_head(p, TT_ROLE_MARKED, "straggler: rank %lld: %s",
			     (long long)pane_num(strag, i, "rank"), pane_str(strag, i, "reason"));
	if (strag && !strag->nrows)
		tt_pane_head(p, TT_ROLE_DIM, "%s",
			     strag->nnotes > 1 ? strag->notes[1] : "no rank stands out");
	for (size_t i = 0; coll && i < coll->nrows && i < 3; i++) {
		char lat[32];
		tt_fmt_dur(lat, sizeof(lat), (int64_t)pane_num(coll, i, "total_latency(us)"));
		tt_pane_head(p, TT_ROLE_DEFAULT,
			     "%-20s %5.0f calls  %s  latency %s, sync %.1f %% (waiting for the "
			     "slowest rank)",
			     pane_str(coll, i, "name"), pane_num(coll, i, "calls"), pane_str(coll, i, "mean_size"),
			     lat, pane_num(coll, i, "sync_pctg"));
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "mean per step: %s computation  %s overlapping  %s communication  %s other. "
		     "Enter: the rank's collectives",
		     tt_stack_glyph("#%=.", 0), tt_stack_glyph("#%=.", 1), tt_stack_glyph("#%=.", 2), tt_stack_glyph("#%=.", 3));
	tt_pane_set_table(p, t);
	for (size_t i = 0; strag && i < strag->nrows; i++)
		for (size_t r = 0; r < t->nrows; r++)
			if (pane_num(t, r, "rank") == pane_num(strag, i, "rank"))
				p->row_role[r] = TT_ROLE_MARKED;
	tt_table_free(coll);
	tt_table_free(strag);
	return 0;
}

static int coll_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	/* every rank: the sync estimate compares ranks */
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *src =
		build(p->app, &o, "distributed", "collectives_by_rank", p->msg, sizeof(p->msg));
	if (!src)
		return -1;
	struct tt_table *t = filter_rows(src, "collectives", "rank", (double)s->rank, NULL, 0);
	tt_table_free(src);
	take(p, t, "no collectives on this rank");
	tt_pane_head(p, TT_ROLE_DIM,
		     "transfer: the fastest rank's latency of each call; sync: "
		     "the rest. Enter: the calls");
	return 0;
}

static int calls_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	struct tt_dist d;
	tt_dist_compute(p->app->m, &p->app->ropts.a, &d);
	static const struct tt_col cols[] = {
		{.name = "seq", .title = "#", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR},
		{.name = "latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "transfer(us)", .title = "transfer", .type = TT_C_DUR},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "transfer/sync",
		 .type = TT_C_STACK,
		 .width = 20,
		 .stack = {3, 4},
		 .nstack = 2,
		 .role = {TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "=."},
		{.name = "bytes", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "cpu_op", .title = "CPU op", .type = TT_C_STR, .width = 40},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("collective_calls", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < d.ncalls; i++) {
		const struct tt_coll_call *c = &d.calls[i];
		if (c->rank != s->rank || strcmp(d.stats[c->stat].name, s->name) != 0)
			continue;
		const struct tt_rank *r = p->app->m->ranks[c->ri];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, c->seq);
		tt_table_set_int(t, k, 1, c->ts - r->t0);
		tt_table_set_int(t, k, 2, c->dur);
		tt_table_set_int(t, k, 3, c->transfer);
		tt_table_set_int(t, k, 4, c->sync);
		if (c->bytes >= 0)
			tt_table_set_int(t, k, 6, c->bytes);
		tt_table_set_int(t, k, 7, c->nkernels);
		if (c->cpu != TT_NONE)
			tt_table_set_str(t, k, 8, tt_ev_name(r, &r->ev[c->cpu]));
		tt_table_set_int(t, k, 9, (int64_t)c->ri);
		tt_table_set_int(t, k, 10, c->kernel);
	}
	tt_dist_free(&d);
	take(p, t, "no calls");
	tt_pane_head(p, TT_ROLE_DIM,
		     "start: since the rank's first event. Enter: the timeline at "
		     "the call's first kernel");
	return 0;
}

static const struct tt_pane_ops calls_ops = {
	.name = "collective-calls",
	.title = "Calls",
	.help = "Every call of one collective on one rank: its latency (its communication "
		"kernels), the transfer estimate (the fastest rank's latency for the same call) "
		"and the sync (the rest), its size and the CPU op that issued it.  Enter opens "
		"the timeline at its first kernel.",
	.open = calls_open,
	.close = pane_free_state,
	.drill = drill_event,
};

static struct tt_pane *coll_drill(struct tt_pane *p, size_t row)
{
	struct rank_state *ps = p->state, *s;
	const char *name = pane_str(p->table, row, "name");
	if (!name[0])
		return NULL;
	struct tt_pane *np = new_child(p, &calls_ops, &s);
	s->rank = ps->rank;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld, %.100s", (long long)s->rank, name);
	return np;
}

static const struct tt_pane_ops coll_ops = {
	.name = "collectives",
	.title = "Collectives",
	.help = "The collective operations of one rank: calls, size, latency, and its split "
		"into data transfer and synchronisation (waiting for the slowest rank), estimated "
		"across every rank.  Enter lists the calls.",
	.open = coll_open,
	.close = pane_free_state,
	.drill = coll_drill,
};

static struct tt_pane *dist_drill(struct tt_pane *p, size_t row)
{
	double rank = pane_num(p->table, row, "rank");
	if (isnan(rank))
		return NULL;
	struct rank_state *s;
	struct tt_pane *np = new_child(p, &coll_ops, &s);
	s->rank = (int64_t)rank;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)s->rank);
	return np;
}

const struct tt_pane_ops tt_dist_ops = {
	.name = "distributed",
	.title = "Distributed",
	.help = "The TensorBoard plugin's distributed view, per rank and mean per step: "
		"computation (only non-communication kernels run), overlapping (both), "
		"communication (only communication kernels) and other (the rest: idle, memcpy, "
		"memset).  Above: stragglers (robust z-score of step time, GPU idle and sync "
		"time) and the main collectives.  Enter lists the rank's collectives.",
	.open = dist_open,
	.drill = dist_drill,
};

/* ---- Operators ---- */

static int ops_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	o.table = "operators"; /* not the by-shapes table */
	struct tt_table *t = build(p->app, &o, "operators", "operators", p->msg, sizeof(p->msg));
	if (take(p, t, "no CPU operators in the ranks shown"))
		return -1;
	pane_add_bar(t, "device_self(us)", "device self", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM,
		     "s: sort by another column, /: filter. Enter: the kernels the "
		     "operator launched");
	return 0;
}

static int opk_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	struct tt_op_kernel *v;
	size_t n = tt_op_kernels(p->app->m, &p->app->ropts.a, s->name, NULL, &v);
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "count", .type = TT_C_INT},
		{.name = "total(us)", .title = "total", .type = TT_C_DUR},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "self_count", .title = "self", .type = TT_C_INT},
		{.name = "self(us)", .title = "self time", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 2,
		 .width = 20,
		 .role = {TT_ROLE_BAR_COMP}},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("op_kernels", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, v[i].name);
		tt_table_set_int(t, k, 1, (int64_t)v[i].count);
		tt_table_set_int(t, k, 2, v[i].sum_ns);
		tt_table_set_num(t, k, 3, (double)v[i].sum_ns / (double)v[i].count);
		tt_table_set_int(t, k, 4, (int64_t)v[i].count_self);
		tt_table_set_int(t, k, 5, v[i].self_ns);
		tt_table_set_int(t, k, 7, (int64_t)v[i].ri);
		tt_table_set_int(t, k, 8, v[i].longest);
	}
	free(v);
	take(p, t, "this operator launched no GPU work");
	tt_pane_head(p, TT_ROLE_DIM,
		     "GPU ops launched under the operator or its children; self: "
		     "by its own runtime calls. Enter: the timeline at the longest");
	return 0;
}

static const struct tt_pane_ops opk_ops = {
	.name = "op-kernels",
	.title = "Op kernels",
	.help = "The kernels, copies and sets launched under one operator (its own runtime "
		"calls: self; or its children's), by total time.  Enter opens the timeline at the "
		"longest instance.",
	.open = opk_open,
	.close = pane_free_state,
	.drill = drill_event,
};

static struct tt_pane *ops_drill(struct tt_pane *p, size_t row)
{
	const char *name = pane_str(p->table, row, "name");
	if (!name[0])
		return NULL;
	struct rank_state *s;
	struct tt_pane *np = new_child(p, &opk_ops, &s);
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", name);
	return np;
}

const struct tt_pane_ops tt_operators_ops = {
	.name = "operators",
	.title = "Operators",
	.help = "The TensorBoard plugin's operator view: per operator name (cpu_op and "
		"user_annotation), calls, host total and self time (self: minus its direct "
		"child operators), device total and self time (GPU ops launched by its own "
		"runtime calls: self; with its children's: total).  `tracetop report operators` "
		"also groups by input shapes.  Enter lists the kernels it launched.",
	.open = ops_open,
	.drill = ops_drill,
};

/* ---- Memory ---- */

/* The memory pane keeps the analysis to redraw its sparklines when zooming:
 * zoom level z shows 1/2^z of the rank's span around the selected device's
 * peak. */
struct mem_pane {
	struct tt_mem mm;
	int zoom;
};

/* [*a, *b): the window of device d at the pane's zoom */
static void mem_window(const struct tt_pane *p, const struct tt_mem_dev *d, int64_t *a, int64_t *b)
{
	const struct mem_pane *s = p->state;
	const struct tt_rank *r = p->app->m->ranks[d->ri];
	int64_t span = r->t1 - r->t0, w = span >> s->zoom;
	if (w < 1000)
		w = 1000;
	int64_t x = d->peak_ts - w / 2;
	x = x + w > r->t1 ? r->t1 - w : x;
	x = x < r->t0 ? r->t0 : x;
	*a = x;
	*b = x + w;
}

static void mem_sparks(struct tt_pane *p)
{
	struct mem_pane *s = p->state;
	struct tt_table *t = p->table;
	int c = tt_table_col(t, "allocated_over_time");
	if (c < 0)
		return;
	float v[PANE_BUCKETS];
	char buf[400];
	for (size_t i = 0; i < t->nrows && i < s->mm.ndevs; i++) {
		const struct tt_mem_dev *d = &s->mm.devs[i];
		int64_t a, b;
		mem_window(p, d, &a, &b);
		for (int k = 0; k < PANE_BUCKETS; k++) {
			int64_t x = a + (b - a) * k / PANE_BUCKETS;
			int64_t y = a + (b - a) * (k + 1) / PANE_BUCKETS;
			int64_t m = tt_mem_max(d, x, y > x ? y : x + 1, false);
			v[k] = m > 0 ? (float)m : 0;
		}
		tt_sparkline(buf, sizeof(buf), v, PANE_BUCKETS, (double)d->peak_alloc);
		tt_table_set_str(t, i, c, buf);
	}
}

static int mem_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *t = build(p->app, &o, "memory", "memory_devices", p->msg, sizeof(p->msg));
	if (!t)
		return -1;
	if (!t->nrows) {
		snprintf(p->msg, sizeof(p->msg), "%s",
			 t->nnotes ? t->notes[0] : "no [memory] events in the ranks shown");
		tt_table_free(t);
		return -1;
	}
	struct mem_pane *s = tt_calloc(1, sizeof(*s));
	tt_mem_compute(p->app->m, &p->app->ropts.a, &s->mm);
	p->state = s;
	take(p, t, NULL);
	mem_sparks(p);
	tt_pane_head(p, TT_ROLE_DIM,
		     "allocated over time: the largest total in each of %d slices of the rank's "
		     "span; +/-/=: zoom around the peak. Enter: the allocations alive at the peak",
		     PANE_BUCKETS);
	for (size_t i = 0; i < t->nrows; i++)
		if (pane_num(t, i, "device_memory_pctg") >= 90)
			p->row_role[i] = TT_ROLE_WARNING;
	return 0;
}

static int mem_key(struct tt_pane *p, enum tt_action a)
{
	struct mem_pane *s = p->state;
	if (!s || !p->table)
		return TT_R_UNHANDLED;
	if (a == TT_ACT_ZOOM_IN && s->zoom < 20)
		s->zoom++;
	else if (a == TT_ACT_ZOOM_OUT && s->zoom > 0)
		s->zoom--;
	else if (a == TT_ACT_ZOOM_FIT)
		s->zoom = 0;
	else if (a != TT_ACT_ZOOM_IN && a != TT_ACT_ZOOM_OUT)
		return TT_R_UNHANDLED;
	mem_sparks(p);
	size_t row = tt_pane_row(p);
	if (row < s->mm.ndevs) {
		const struct tt_mem_dev *d = &s->mm.devs[row];
		const struct tt_rank *r = p->app->m->ranks[d->ri];
		int64_t x, y;
		mem_window(p, d, &x, &y);
		char a0[32], a1[32];
		tt_fmt_dur(a0, sizeof(a0), x - r->t0);
		tt_fmt_dur(a1, sizeof(a1), y - r->t0);
		tt_ui_status(p->app, TT_ROLE_STATUS,
			      "memory curves: %s to %s of each rank (zoom %d)", a0, a1, s->zoom);
	}
	return TT_R_REDRAW;
}

static void mem_close(struct tt_pane *p)
{
	struct mem_pane *s = p->state;
	if (s)
		tt_mem_free(&s->mm);
	free(s);
}

static int live_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *src =
		build(p->app, &o, "memory", "memory_live_at_peak", p->msg, sizeof(p->msg));
	if (!src)
		return -1;
	struct tt_table *t =
		filter_rows(src, "live", "rank", (double)s->rank, "device_id", (double)s->device);
	tt_table_free(src);
	pane_add_bar(t, "bytes", "size", TT_ROLE_BAR_MEM, 0);
	take(p, t, "no allocation seen by the trace is alive at the peak");
	tt_pane_head(p, TT_ROLE_DIM, "largest first. Enter: the timeline at the allocation");
	return 0;
}

static const struct tt_pane_ops live_ops = {
	.name = "memory-live",
	.title = "Alive at peak",
	.help = "The allocations of one device alive at its memory peak (an allocation whose "
		"address was not freed before the peak), largest first, with the operator around "
		"each on its thread.  Enter opens the timeline at the allocation.",
	.open = live_open,
	.close = pane_free_state,
	.drill = drill_event,
};

static struct tt_pane *mem_drill(struct tt_pane *p, size_t row)
{
	double rank = pane_num(p->table, row, "rank"), dev = pane_num(p->table, row, "device_id");
	if (isnan(rank) || isnan(dev))
		return NULL;
	struct rank_state *s;
	struct tt_pane *np = new_child(p, &live_ops, &s);
	s->rank = (int64_t)rank;
	s->device = (int64_t)dev;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld %s", (long long)s->rank,
		 pane_str(p->table, row, "device"));
	return np;
}

const struct tt_pane_ops tt_memory_ops = {
	.name = "memory",
	.title = "Memory",
	.help = "The TensorBoard plugin's memory view from [memory] events (recorded with "
		"profile_memory=True): per rank and device the number of allocations and frees, "
		"the peak of the allocated total and when, the peak reserved, the share of the "
		"device's memory, and a sparkline of the allocated total (+, -, =: zoom around "
		"the peak).  Enter lists the allocations alive at the peak.",
	.open = mem_open,
	.close = mem_close,
	.key = mem_key,
	.drill = mem_drill,
};

/* ---- Source ---- */

static int src_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *t = build(p->app, &o, "source", "source_stacks", p->msg, sizeof(p->msg));
	if (!t)
		return -1;
	if (!t->nrows) {
		snprintf(p->msg, sizeof(p->msg), "%s",
			 t->nnotes ? t->notes[0] : "no Python stacks in the ranks shown");
		tt_table_free(t);
		return -1;
	}
	pane_add_bar(t, "host_total(us)", "host time", TT_ROLE_BAR_CPU, 0);
	take(p, t, NULL);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the frames of the stack");
	return 0;
}

struct frames_state {
	char *stack;
};

static int frames_open(struct tt_pane *p)
{
	struct frames_state *s = p->state;
	static const struct tt_col cols[] = {
		{.name = "depth", .title = "#", .type = TT_C_INT},
		{.name = "frame", .type = TT_C_STR, .width = 100},
		{.name = "file", .type = TT_C_STR, .hidden_text = true},
		{.name = "line", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("frames", cols, (int)TT_ARRAY_SIZE(cols));
	char file[1024];
	int depth = 0;
	/* the report flattens the frames with '|' */
	for (const char *a = s->stack; *a;) {
		size_t l = strcspn(a, "|");
		char frame[1024];
		snprintf(frame, sizeof(frame), "%.*s", (int)TT_MIN(l, sizeof(frame) - 1), a);
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, depth++);
		tt_table_set_str(t, k, 1, frame);
		int64_t line;
		if (tt_tb_frame_parse(frame, strlen(frame), file, sizeof(file), &line)) {
			tt_table_set_str(t, k, 2, file);
			tt_table_set_int(t, k, 3, line);
		}
		a += l;
		if (*a == '|')
			a++;
	}
	take(p, t, "an empty stack");
	tt_pane_head(p, TT_ROLE_DIM,
		     "innermost frame first. Enter on a frame: the command that "
		     "opens it in $EDITOR");
	return 0;
}

static struct tt_pane *frames_drill(struct tt_pane *p, size_t row)
{
	const char *file = pane_str(p->table, row, "file");
	double line = pane_num(p->table, row, "line");
	if (!file[0] || isnan(line)) {
		tt_ui_status(p->app, TT_ROLE_WARNING, "this frame names no file and line");
		return NULL;
	}
	char cmd[1200];
	tt_tb_editor_command(cmd, sizeof(cmd), getenv("EDITOR"), file, (int64_t)line);
	tt_ui_status(p->app, TT_ROLE_STATUS, "e: %s", cmd);
	return NULL;
}

static void frames_close(struct tt_pane *p)
{
	struct frames_state *s = p->state;
	if (s)
		free(s->stack);
	free(s);
}

static const struct tt_pane_ops frames_ops = {
	.name = "frames",
	.title = "Frames",
	.help = "The Python stack that called an operator, innermost frame first.  Enter on a "
		"frame shows the command that opens its file at its line in $EDITOR (vi when "
		"unset).",
	.open = frames_open,
	.close = frames_close,
	.drill = frames_drill,
};

static struct tt_pane *src_drill(struct tt_pane *p, size_t row)
{
	const char *stack = pane_str(p->table, row, "stack");
	if (!stack[0])
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &frames_ops);
	struct frames_state *s = tt_calloc(1, sizeof(*s));
	s->stack = tt_strdup(stack);
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", pane_str(p->table, row, "operator"));
	return np;
}

const struct tt_pane_ops tt_source_ops = {
	.name = "source",
	.title = "Source",
	.help = "Operators by the Python stack that called them (with_stack=True traces: the "
		"`Call stack` arg, or the python_function events around the operator), with "
		"calls and host time.  Enter shows the frames; Enter on a frame gives the "
		"command that opens the file at the line in $EDITOR.",
	.open = src_open,
	.drill = src_drill,
};

/* ---- Steps ---- */

static int steps_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *ranges = build(p->app, &o, "steps", "step_ranges", NULL, 0);
	struct tt_table *t =
		build(p->app, &o, "steps", "steps_across_ranks", p->msg, sizeof(p->msg));
	if (!t) {
		tt_table_free(ranges);
		return -1;
	}
	if (!t->nrows) {
		snprintf(p->msg, sizeof(p->msg), "%s",
			 ranges && ranges->nnotes > 1 ? ranges->notes[1]
						      : "no ProfilerStep#N annotations");
		tt_table_free(t);
		tt_table_free(ranges);
		return -1;
	}
	take(p, t, NULL);
	for (size_t i = 0; ranges && i < ranges->nrows && i < 8; i++) {
		char mean[32];
		tt_fmt_dur(mean, sizeof(mean), (int64_t)pane_num(ranges, i, "mean(us)"));
		tt_pane_head(p, TT_ROLE_DEFAULT, "rank %lld: steps %lld-%lld (%lld), mean %s",
			     (long long)pane_num(ranges, i, "rank"),
			     (long long)pane_num(ranges, i, "first_step"),
			     (long long)pane_num(ranges, i, "last_step"),
			     (long long)pane_num(ranges, i, "steps"), mean);
	}
	if (ranges && ranges->nrows > 8)
		tt_pane_head(p, TT_ROLE_DIM, "... %zu ranks", ranges->nrows);
	/* the step with the largest spread stands out */
	size_t worst = SIZE_MAX;
	for (size_t i = 0; i < t->nrows; i++)
		if (pane_num(t, i, "max_over_median_pctg") >= 20 &&
		    (worst == SIZE_MAX ||
		     pane_num(t, i, "max_over_median_pctg") > pane_num(t, worst, "max_over_median_pctg")))
			worst = i;
	if (worst != SIZE_MAX)
		p->row_role[worst] = TT_ROLE_MARKED;
	tt_pane_head(p, TT_ROLE_DIM,
		     "a step runs from its CPU start to the end of the GPU work it "
		     "launched. Enter: the step on every rank");
	tt_table_free(ranges);
	return 0;
}

static int step_ranks_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *src = build(p->app, &o, "steps", "steps", p->msg, sizeof(p->msg));
	if (!src)
		return -1;
	struct tt_table *t = filter_rows(src, "step", "step", (double)s->step, NULL, 0);
	tt_table_free(src);
	take(p, t, "no rank has this step");
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the step on that rank");
	return 0;
}

static const struct tt_pane_ops step_ranks_ops = {
	.name = "step",
	.title = "Step",
	.help = "One ProfilerStep#N on every rank: its start, its CPU duration, its duration "
		"up to the end of the GPU work it launched, and the GPU busy share.  Enter opens "
		"the timeline at the step.",
	.open = step_ranks_open,
	.close = pane_free_state,
	.drill = drill_event,
};

static struct tt_pane *steps_drill(struct tt_pane *p, size_t row)
{
	double step = pane_num(p->table, row, "step");
	if (isnan(step))
		return NULL;
	struct rank_state *s;
	struct tt_pane *np = new_child(p, &step_ranks_ops, &s);
	s->step = (int64_t)step;
	snprintf(np->subtitle, sizeof(np->subtitle), "ProfilerStep#%lld", (long long)s->step);
	return np;
}

const struct tt_pane_ops tt_steps_ops = {
	.name = "steps",
	.title = "Steps",
	.help = "ProfilerStep#N across ranks: for each step number the shortest, median and "
		"longest duration over the ranks and the slowest rank; above, the steps each "
		"rank recorded.  Enter shows the step on every rank.",
	.open = steps_open,
	.drill = steps_drill,
};

/* ---- Advice ---- */

static int advice_open(struct tt_pane *p)
{
	struct tt_report_opts o = all_rows(p->app);
	struct tt_table *t = build(p->app, &o, "advice", "advice", p->msg, sizeof(p->msg));
	if (take(p, t, "no finding"))
		return -1;
	for (size_t i = 0; i < t->nrows; i++) {
		const char *sev = pane_str(t, i, "severity");
		p->row_role[i] = strcmp(sev, "high") == 0   ? TT_ROLE_WARNING
				 : strcmp(sev, "info") == 0 ? TT_ROLE_DIM
							    : 0;
	}
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the pane that shows the numbers");
	return 0;
}

static struct tt_pane *advice_drill(struct tt_pane *p, size_t row)
{
	/* the registered view of that name (a warning when there is none) */
	const char *pane = pane_str(p->table, row, "pane");
	if (strcmp(pane, p->ops->name) == 0)
		tt_ui_status(p->app, TT_ROLE_WARNING, "no pane named %s", pane);
	else
		tt_ui_open_view(p->app, pane);
	return NULL;
}

const struct tt_pane_ops tt_advice_ops = {
	.name = "advice",
	.title = "Advice",
	.help = "Findings from the other analyses, most important first, each with the numbers "
		"behind it: GPU idle and its cause, exposed communication, low occupancy or SM "
		"efficiency, launch-bound kernels, stragglers and synchronisation, uneven steps, "
		"memory close to the device's size.  Enter opens the pane that shows it.",
	.open = advice_open,
	.drill = advice_drill,
};
