/* The panes of keys 1..9 and 0, and their drill-downs.  Each builds its
 * table from the same report builders `tracetop report` prints, then adds
 * bars; drilling in opens a narrower view, and the timeline at an event. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"
#include "paneutil.h"

/* ---- helpers ---- */

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- a rank: its streams and threads ---- */

struct rank_state {
	size_t ri;
};

static int rank_open(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	const struct tt_rank *r = p->app->m->ranks[s->ri];
	static const struct tt_col cols[] = {
		{.name = "track", .type = TT_C_STR, .width = 36},
		{.name = "kind", .type = TT_C_STR},
		{.name = "events", .type = TT_C_INT},
		{.name = "busy", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "longest", .type = TT_C_STR, .width = 40},
		{.name = "track_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("rank", cols, (int)TT_ARRAY_SIZE(cols));
	int64_t span = r->t1 - r->t0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (!tr->count || tr->kind == TT_TRACK_GLOBAL)
			continue;
		/* busy: union of the track's events (sorted by start) */
		int64_t busy = 0, end = INT64_MIN, longest = -1;
		uint32_t li = TT_NONE;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->flags & TT_EF_MARKER)
				continue;
			int64_t a = e->ts > end ? e->ts : end, b = e->ts + e->dur;
			if (b > a)
				busy += b - a;
			if (b > end)
				end = b;
			if (e->dur > longest) {
				longest = e->dur;
				li = i;
			}
		}
		size_t k = tt_table_add_row(t);
		char label[160];
		tt_track_label(r, tr, label, sizeof(label));
		static const char *const kinds[] = {"CPU", "GPU stream", "GPU annotations",
						    "GPU sync", "global"};
		tt_table_set_str(t, k, 0, label);
		tt_table_set_str(t, k, 1, kinds[tr->kind]);
		tt_table_set_int(t, k, 2, tr->count);
		tt_table_set_int(t, k, 3, busy);
		tt_table_set_num(t, k, 4, span > 0 ? 100.0 * (double)busy / (double)span : NAN);
		tt_table_set_str(t, k, 5, li != TT_NONE ? tt_ev_name(r, &r->ev[li]) : "");
		tt_table_set_int(t, k, 6, ti);
	}
	pane_add_bar(t, "busy_pctg", "busy", TT_ROLE_BAR_COMP, 100);
	char sp[32];
	tt_fmt_dur(sp, sizeof(sp), span);
	tt_pane_head(p, TT_ROLE_DIM, "%s: span %s, %u events, %u kernels, %u CPU ops. Enter: timeline of the track",
		     r->file, sp, r->nev, r->n_kernel, r->n_cpu_op);
	tt_pane_set_table(p, t);
	return 0;
}

static struct tt_pane *rank_drill(struct tt_pane *p, size_t row)
{
	struct rank_state *s = p->state;
	const struct tt_rank *r = p->app->m->ranks[s->ri];
	uint32_t ti = (uint32_t)pane_num(p->table, row, "track_index");
	const struct tt_track *tr = &r->tracks[ti];
	/* open at the track's first event */
	return tt_timeline_new(p->app, s->ri, tr->count ? tr->first : TT_NONE, r->t0);
}

static const struct tt_pane_ops rank_ops = {
	.name = "rank",
	.title = "Rank",
	.help = "The GPU streams and CPU threads of one rank: events, the time they are busy "
		"(union of their events) and the longest event.  Enter opens the timeline of the "
		"track.",
	.open = rank_open,
	.close = pane_free_state,
	.drill = rank_drill,
};

struct tt_pane *tt_rank_pane(struct tt_app *a, int64_t rank)
{
	size_t ri = pane_rank_index(a->m, rank);
	if (ri == SIZE_MAX)
		return NULL;
	struct tt_pane *p = tt_pane_new(a, &rank_ops);
	struct rank_state *s = tt_calloc(1, sizeof(*s));
	s->ri = ri;
	p->state = s;
	snprintf(p->subtitle, sizeof(p->subtitle), "rank %lld", (long long)rank);
	return p;
}

static struct tt_pane *drill_rank_column(struct tt_pane *p, size_t row)
{
	double r = pane_num(p->table, row, "rank");
	if (isnan(r))
		return NULL;
	return tt_rank_pane(p->app, (int64_t)r);
}

/* ---- 1 Overview ---- */

/* a table of the report, or NULL */
static struct tt_table *report_table(struct tt_app *a, const char *name, const char *table)
{
	char msg[300];
	return tt_app_table(a, name, table, msg, sizeof(msg));
}

static int overview_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "span", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "compute_pctg", .title = "comp %", .type = TT_C_PCT, .prec = 1},
		{.name = "comm_pctg", .title = "comm %", .type = TT_C_PCT, .prec = 1},
		{.name = "memory_pctg", .title = "mem %", .type = TT_C_PCT, .prec = 1},
		{.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT, .prec = 1},
		{.name = "overlap_pctg", .title = "overlap %", .type = TT_C_PCT, .prec = 1},
		{.name = "top_kernel", .title = "top kernel", .type = TT_C_STR, .width = 32},
		{.name = "flag", .title = "", .type = TT_C_STR, .width = 12},
		{.name = "non_compute_pctg", .type = TT_C_PCT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("overview", cols, (int)TT_ARRAY_SIZE(cols));
	struct tt_table *sum = report_table(a, "summary", "summary");
	struct tt_table *tmp = report_table(a, "temporal", "temporal_breakdown");
	struct tt_table *ov = report_table(a, "overlap", "comm_comp_overlap");
	struct tt_table *kt = report_table(a, "kernels", "kernel_type_by_rank");
	struct tt_table *kb = report_table(a, "kernels", "kernel_breakdown");
	const struct tt_model *m = a->m;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		int64_t rank = m->ranks[ri]->rank;
		if (!tt_aopts_has_rank(&a->ropts.a, rank))
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rank);
		double span = NAN;
		for (size_t i = 0; tmp && i < tmp->nrows; i++)
			if (pane_num(tmp, i, "rank") == (double)rank) {
				span = pane_num(tmp, i, "kernel_time(us)"); /* duration cells hold ns */
				tt_table_set_num(t, k, 3, pane_num(tmp, i, "compute_time_pctg"));
				tt_table_set_num(t, k, 6, pane_num(tmp, i, "idle_time_pctg"));
				tt_table_set_num(t, k, 10, pane_num(tmp, i, "non_compute_time_pctg"));
			}
		for (size_t i = 0; sum && i < sum->nrows; i++)
			if (pane_num(sum, i, "rank") == (double)rank) {
				tt_table_set_num(t, k, 2, pane_num(sum, i, "gpu_busy_pctg"));
				if (isnan(span))
					tt_table_set_int(t, k, 1, (int64_t)pane_num(sum, i, "span"));
			}
		if (!isnan(span))
			tt_table_set_int(t, k, 1, (int64_t)span);
		/* communication and memory: time in any label that names them */
		double comm = 0, mem = 0;
		for (size_t i = 0; kt && i < kt->nrows; i++) {
			if (pane_num(kt, i, "rank") != (double)rank)
				continue;
			const char *lab = pane_str(kt, i, "kernel_type");
			double v = pane_num(kt, i, "sum");
			if (strstr(lab, "COMMUNICATION"))
				comm += v;
			if (strstr(lab, "MEMORY"))
				mem += v;
		}
		if (span > 0) {
			tt_table_set_num(t, k, 4, 100 * comm / span);
			tt_table_set_num(t, k, 5, 100 * mem / span);
		}
		for (size_t i = 0; ov && i < ov->nrows; i++)
			if (pane_num(ov, i, "rank") == (double)rank)
				tt_table_set_num(t, k, 7, pane_num(ov, i, "comp_comm_overlap_pctg"));
		double best = -1;
		for (size_t i = 0; kb && i < kb->nrows; i++) {
			if (pane_num(kb, i, "rank") != (double)rank || strcmp(pane_str(kb, i, "name"), "others") == 0)
				continue;
			double v = pane_num(kb, i, "sum (us)");
			if (v > best) {
				best = v;
				tt_table_set_str(t, k, 8, pane_str(kb, i, "name"));
			}
		}
	}
	/* stragglers: idle or communication far from the median (robust z) */
	static const struct {
		int col;
		const char *what;
	} metrics[] = {{6, "idle"}, {4, "comm"}};
	size_t n = t->nrows;
	double *v = tt_calloc(n + 1, sizeof(*v)), *d = tt_calloc(n + 1, sizeof(*d));
	tt_pane_set_table(p, t);
	int flagged = 0;
	for (size_t mi = 0; mi < TT_ARRAY_SIZE(metrics) && n >= 3; mi++) {
		size_t nv = 0;
		for (size_t i = 0; i < n; i++) {
			double x = tt_cell_num(tt_table_cell(t, i, metrics[mi].col));
			if (!isnan(x))
				v[nv++] = x;
		}
		double med = median(v, nv);
		for (size_t i = 0; i < nv; i++)
			d[i] = fabs(v[i] - med);
		double mad = median(d, nv) * 1.4826;
		for (size_t i = 0; i < n; i++) {
			double x = tt_cell_num(tt_table_cell(t, i, metrics[mi].col));
			double z = (x - med) / (mad > 0.5 ? mad : 0.5);
			if (isnan(x) || z < 3.5 || x - med < 5)
				continue;
			char flag[64];
			snprintf(flag, sizeof(flag), "%s high", metrics[mi].what);
			tt_table_set_str(t, i, 9, flag);
			p->row_role[i] = TT_ROLE_MARKED;
			if (flagged++ < 3)
				tt_pane_head(p, TT_ROLE_MARKED,
					     "straggler: rank %lld, %s %.1f %% vs median %.1f %% across ranks",
					     (long long)tt_cell_num(tt_table_cell(t, i, 0)),
					     metrics[mi].what, x, med);
		}
	}
	free(v);
	free(d);
	/* compute, the rest of the busy time, idle: the span's three parts */
	struct tt_col stack = {.name = "bar", .title = "span", .type = TT_C_STACK, .nstack = 3,
			       .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = 3;
	stack.stack[1] = 10;
	stack.stack[2] = 6;
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_COMM;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t); /* the new column */
	if (!flagged && n >= 3)
		tt_pane_head(p, TT_ROLE_DIM, "no rank stands out in idle or communication time");
	else if (!flagged && n)
		tt_pane_head(p, TT_ROLE_DIM, "stragglers are looked for among 3 ranks or more%s",
			     a->nranks && m->nranks >= 3 ? " (a shows all ranks)" : "");
	tt_pane_head(p, TT_ROLE_DIM,
		     "%zu rank%s; %% of each rank's GPU span (HTA's view); bar: %s compute %s other "
		     "busy %s idle. Enter: the rank's streams",
		     n, n == 1 ? "" : "s", tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	tt_table_free(sum);
	tt_table_free(tmp);
	tt_table_free(ov);
	tt_table_free(kt);
	tt_table_free(kb);
	return n ? 0 : -1;
}

static const struct tt_pane_ops overview_ops = {
	.name = "overview",
	.title = "Overview",
	.help = "One row per rank: its GPU span, the share of the span busy, computing, "
		"communicating, copying memory and idle, the computation/communication overlap, "
		"and its top kernel.  Ranks whose idle or communication share is far from the "
		"median of all ranks (robust z-score over 3.5 and 5 points above) are marked as "
		"stragglers and explained above the table.  Enter shows the rank's streams.",
	.open = overview_open,
	.drill = drill_rank_column,
};

/* ---- 2 Temporal ---- */

static int temporal_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "temporal", "temporal_breakdown"))
		return -1;
	struct tt_table *t = p->table;
	struct tt_col stack = {.name = "bar", .title = "compute/non-compute/idle",
			       .type = TT_C_STACK, .nstack = 3, .bar_max = 100, .glyphs = "#=."};
	stack.stack[0] = tt_table_col(t, "compute_time_pctg");
	stack.stack[1] = tt_table_col(t, "non_compute_time_pctg");
	stack.stack[2] = tt_table_col(t, "idle_time_pctg");
	stack.role[0] = TT_ROLE_BAR_COMP;
	stack.role[1] = TT_ROLE_BAR_OTHER;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "%s compute  %s non-compute (communication, memory, other)  %s idle",
		     tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	return 0;
}

static const struct tt_pane_ops temporal_ops = {
	.name = "temporal",
	.title = "Temporal",
	.help = "HTA's temporal breakdown per rank: over the GPU span (first GPU event to the "
		"last), the time idle (no GPU event running on any stream), computing (union of "
		"computation kernels) and the rest (communication, memory, other).  Enter shows "
		"the rank's streams.",
	.open = temporal_open,
	.drill = drill_rank_column,
};

/* ---- 3 Idle ---- */

static int idle_open(struct tt_pane *p)
{
	/* from the reports built once (in the background when the app starts) */
	char msg[300];
	struct tt_table *src = tt_app_table(p->app, "idle", "idle_time_breakdown", msg, sizeof(msg));
	struct tt_table *stats = tt_app_table(p->app, "idle", "idle_interval_stats", msg, sizeof(msg));
	struct tt_table *gaps = tt_app_table(p->app, "idle", "idle_gaps", msg, sizeof(msg));
	if (!src || !src->nrows) {
		snprintf(p->msg, sizeof(p->msg), "no GPU activity in the ranks shown");
		tt_table_free(src);
		tt_table_free(stats);
		tt_table_free(gaps);
		return -1;
	}
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "host_wait", .title = "host wait", .type = TT_C_DUR},
		{.name = "kernel_wait", .title = "kernel wait", .type = TT_C_DUR},
		{.name = "other", .type = TT_C_DUR},
		{.name = "idle", .title = "idle", .type = TT_C_DUR},
		{.name = "gaps", .type = TT_C_INT},
		{.name = "largest_gap", .title = "largest gap", .type = TT_C_DUR},
	};
	struct tt_table *t = tt_table_new("idle", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < src->nrows; i++) {
		double rank = pane_num(src, i, "rank"), stream = pane_num(src, i, "stream");
		size_t k = SIZE_MAX;
		for (size_t j = 0; j < t->nrows; j++)
			if (tt_cell_num(tt_table_cell(t, j, 0)) == rank &&
			    tt_cell_num(tt_table_cell(t, j, 1)) == stream)
				k = j;
		if (k == SIZE_MAX) {
			k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, (int64_t)rank);
			tt_table_set_int(t, k, 1, (int64_t)stream);
			for (int c = 2; c < 7; c++)
				tt_table_set_int(t, k, c, 0);
			/* the largest gap: the max of its categories' intervals (us) */
			double mx = NAN;
			for (size_t j = 0; stats && j < stats->nrows; j++)
				if (pane_num(stats, j, "rank") == rank && pane_num(stats, j, "stream") == stream) {
					double c = pane_num(stats, j, "count"), x = pane_num(stats, j, "max");
					if (c > 0)
						tt_table_set_int(t, k, 6, tt_table_cell(t, k, 6)->v.i +
									     (int64_t)c);
					if (!isnan(x) && (isnan(mx) || x > mx))
						mx = x;
				}
			if (!isnan(mx))
				tt_table_set_int(t, k, 7, (int64_t)llround(mx * 1000));
		}
		const char *cat = pane_str(src, i, "idle_category");
		int c = strcmp(cat, "host_wait") == 0 ? 2 : strcmp(cat, "kernel_wait") == 0 ? 3 : 4;
		int64_t v = (int64_t)llround(pane_num(src, i, "idle_time")); /* ns */
		tt_table_set_int(t, k, c, tt_table_cell(t, k, c)->v.i + v);
		tt_table_set_int(t, k, 5, tt_table_cell(t, k, 5)->v.i + v);
	}
	tt_table_free(src);
	tt_table_free(stats);
	struct tt_col stack = {.name = "bar", .title = "host/kernel wait/other", .type = TT_C_STACK,
			       .nstack = 3, .glyphs = "#=."};
	stack.stack[0] = 2;
	stack.stack[1] = 3;
	stack.stack[2] = 4;
	stack.role[0] = TT_ROLE_BAR_RUNTIME;
	stack.role[1] = TT_ROLE_BAR_COMP;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, 5, true);
	/* the answer to "where is the largest gap?" */
	if (gaps && gaps->nrows) {
		char d[32], at[32];
		tt_fmt_dur(d, sizeof(d), (int64_t)pane_num(gaps, 0, "duration"));
		tt_fmt_dur(at, sizeof(at), (int64_t)pane_num(gaps, 0, "start"));
		tt_pane_head(p, TT_ROLE_MARKED,
			     "largest gap: rank %lld stream %lld, %s long, %s after the rank's first "
			     "GPU event (%s)",
			     (long long)pane_num(gaps, 0, "rank"), (long long)pane_num(gaps, 0, "stream"), d, at,
			     pane_str(gaps, 0, "idle_category"));
	}
	tt_table_free(gaps);
	tt_pane_head(p, TT_ROLE_DIM,
		     "gaps between consecutive kernels of a stream: host wait (the launch came "
		     "late), kernel wait (< %.0f us), other; bar: %s host wait %s kernel wait %s "
		     "other. Enter: the stream's largest gaps",
		     p->app->ropts.kernel_delay_us, tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1), tt_stack_glyph("#=.", 2));
	return 0;
}

struct gaps_state {
	int64_t rank, stream;
};

static int gaps_open(struct tt_pane *p)
{
	struct gaps_state *s = p->state;
	struct tt_report_opts o = p->app->ropts;
	o.top = 200;
	struct tt_table **tabs;
	size_t n;
	struct tt_err err;
	if (tt_report_build("idle", p->app->m, NULL, &o, &tabs, &n, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	struct tt_table *t = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(tabs[i]->name, "idle_gaps") == 0) {
			t = tabs[i];
			tabs[i] = NULL;
		}
	tt_tables_free(tabs, n);
	if (!t)
		return -1;
	/* keep this stream's gaps */
	struct tt_table *k = tt_table_new("gaps", t->cols, t->ncols);
	for (size_t i = 0; i < t->nrows; i++) {
		if (pane_num(t, i, "rank") != (double)s->rank || pane_num(t, i, "stream") != (double)s->stream)
			continue;
		size_t r = tt_table_add_row(k);
		for (int c = 0; c < t->ncols; c++) {
			const struct tt_cell *x = tt_table_cell(t, i, c);
			if (x->kind == TT_CV_S)
				tt_table_set_str(k, r, c, x->v.s);
			else if (x->kind == TT_CV_I)
				tt_table_set_int(k, r, c, x->v.i);
			else if (x->kind == TT_CV_D)
				tt_table_set_num(k, r, c, x->v.d);
		}
	}
	tt_table_free(t);
	pane_add_bar(k, "duration", "duration", TT_ROLE_BAR_IDLE, 0);
	tt_pane_set_table(p, k);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the gap, with its neighbours");
	if (!k->nrows)
		snprintf(p->msg, sizeof(p->msg), "no gaps among the largest 200 on this stream");
	return 0;
}

static struct tt_pane *gap_drill(struct tt_pane *p, size_t row)
{
	double ri = pane_num(p->table, row, "rank_index"), prev = pane_num(p->table, row, "prev_event");
	if (isnan(ri) || isnan(prev))
		return NULL;
	return tt_timeline_new(p->app, (size_t)ri, (uint32_t)prev, 0);
}

static const struct tt_pane_ops gaps_ops = {
	.name = "gaps",
	.title = "Gaps",
	.help = "The largest gaps between consecutive kernels of one stream, with their category "
		"and the kernels before and after.  Enter opens the timeline there.",
	.open = gaps_open,
	.close = pane_free_state,
	.drill = gap_drill,
};

static struct tt_pane *idle_drill(struct tt_pane *p, size_t row)
{
	struct tt_pane *np = tt_pane_new(p->app, &gaps_ops);
	struct gaps_state *s = tt_calloc(1, sizeof(*s));
	s->rank = (int64_t)pane_num(p->table, row, "rank");
	s->stream = (int64_t)pane_num(p->table, row, "stream");
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld stream %lld", (long long)s->rank,
		 (long long)s->stream);
	return np;
}

static const struct tt_pane_ops idle_ops = {
	.name = "idle",
	.title = "Idle",
	.help = "HTA's idle time breakdown per rank and GPU stream: each gap between two "
		"consecutive kernels is host wait when the launch of the next kernel came after "
		"the previous one ended, kernel wait when shorter than the consecutive-kernel "
		"delay (--kernel-delay, 30 us), else other.  Enter lists the stream's largest "
		"gaps.",
	.open = idle_open,
	.drill = idle_drill,
};

/* ---- 4 Kernels ---- */

static int kernels_open(struct tt_pane *p)
{
	struct tt_table *types = report_table(p->app, "kernels", "kernel_type_breakdown");
	if (tt_pane_report(p, "kernels", "kernels_across_ranks"))
		return -1;
	if (types) {
		char line[600];
		size_t k = 0;
		k += (size_t)snprintf(line, sizeof(line), "time by type:");
		for (size_t i = 0; i < types->nrows && k < sizeof(line) - 64; i++)
			k += (size_t)snprintf(line + k, sizeof(line) - k, "  %s %.1f%%",
					      pane_str(types, i, "kernel_type"), pane_num(types, i, "percentage"));
		tt_pane_head(p, TT_ROLE_DEFAULT, "%s", line);
		tt_table_free(types);
	}
	pane_add_bar(p->table, "total (us)", "total", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_sort(p, tt_table_col(p->table, "total (us)"), true);
	/* the answer to "which kernel costs most, and where is it slowest?" */
	size_t top = p->nrows ? p->rows[0] : SIZE_MAX;
	if (top != SIZE_MAX && !isnan(pane_num(p->table, top, "max_rank"))) {
		char tot[32], mx[32], mn[32];
		struct tt_table *t = p->table;
		tt_fmt_dur(tot, sizeof(tot), (int64_t)pane_num(t, top, "total (us)"));
		tt_fmt_dur(mx, sizeof(mx), (int64_t)pane_num(t, top, "max (us)"));
		tt_fmt_dur(mn, sizeof(mn), (int64_t)pane_num(t, top, "min (us)"));
		tt_pane_head(p, TT_ROLE_MARKED,
			     "most time: %s, %s on %lld rank%s; most on rank %lld (%s), least on rank "
			     "%lld (%s)",
			     pane_str(t, top, "name"), tot, (long long)pane_num(t, top, "ranks"),
			     pane_num(t, top, "ranks") == 1 ? "" : "s", (long long)pane_num(t, top, "max_rank"), mx,
			     (long long)pane_num(t, top, "min_rank"), mn);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "top kernels over the ranks shown (min/median/max rank by total time). Enter: "
		     "durations and slowest instances");
	return 0;
}

struct kernel_state {
	char *name;
};

struct inst {
	size_t ri;
	uint32_t ev;
	int64_t dur;
};

static int inst_cmp(const void *a, const void *b)
{
	const struct inst *x = a, *y = b;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static int kernel_open(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	struct tt_app *a = p->app;
	const struct tt_model *m = a->m;
	size_t n = 0, cap = 0;
	struct inst *v = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(&a->ropts.a, r->rank))
			continue;
		uint32_t id = tt_strtab_find(&r->strs, s->name, strlen(s->name));
		if (id == TT_NONE)
			continue;
		for (uint32_t i = 0; i < r->nev; i++)
			if (r->ev[i].name == id && (r->ev[i].flags & TT_EF_STREAM)) {
				TT_GROW(v, cap, n + 1);
				v[n].ri = ri;
				v[n].ev = i;
				v[n].dur = r->ev[i].dur;
				n++;
			}
	}
	if (!n) {
		free(v);
		snprintf(p->msg, sizeof(p->msg), "no instance of this kernel in the ranks shown");
		return -1;
	}
	qsort(v, n, sizeof(*v), inst_cmp);
	/* histogram of durations: 8 bins between min and max */
	int64_t lo = v[n - 1].dur, hi = v[0].dur;
	size_t bins[8] = {0};
	for (size_t i = 0; i < n; i++) {
		int b = hi > lo ? (int)((double)(v[i].dur - lo) / (double)(hi - lo) * 8) : 0;
		bins[b > 7 ? 7 : b]++;
	}
	size_t bmax = 1;
	for (int b = 0; b < 8; b++)
		bmax = TT_MAX(bmax, bins[b]);
	tt_pane_head(p, TT_ROLE_DEFAULT, "%zu instances; durations:", n);
	for (int b = 0; b < 8; b++) {
		char l[32], h[32], bar[200];
		tt_fmt_dur(l, sizeof(l), lo + (hi - lo) * b / 8);
		tt_fmt_dur(h, sizeof(h), lo + (hi - lo) * (b + 1) / 8);
		tt_bar(bar, sizeof(bar), (double)bins[b] / (double)bmax, 30);
		/* padded by columns, not bytes: "µs" is one column in two bytes */
		char lp[48], hp[48];
		snprintf(lp, sizeof(lp), "%*s%s", TT_MAX(0, 10 - (int)tt_utf8_width(l)), "", l);
		snprintf(hp, sizeof(hp), "%s%*s", h, TT_MAX(0, 10 - (int)tt_utf8_width(h)), "");
		tt_pane_head(p, TT_ROLE_BAR, "  %s - %s %6zu %s", lp, hp, bins[b], bar);
		if (hi == lo)
			break;
	}
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "start", .type = TT_C_DUR},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("instances", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < n && i < 500; i++) {
		const struct tt_rank *r = m->ranks[v[i].ri];
		const struct tt_event *e = &r->ev[v[i].ev];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, r->rank);
		tt_table_set_int(t, k, 1, r->tracks[e->track].stream);
		tt_table_set_int(t, k, 2, e->ts - r->t0);
		tt_table_set_int(t, k, 3, e->dur);
		tt_table_set_int(t, k, 4, (int64_t)v[i].ri);
		tt_table_set_int(t, k, 5, v[i].ev);
	}
	free(v);
	pane_add_bar(t, "duration", "duration", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "slowest instances first; start: since the rank's first event. "
				     "Enter: the timeline at the instance");
	return 0;
}

static struct tt_pane *instance_drill(struct tt_pane *p, size_t row)
{
	return tt_timeline_new(p->app, (size_t)pane_num(p->table, row, "rank_index"),
			       (uint32_t)pane_num(p->table, row, "event"), 0);
}

static void kernel_close(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	if (s)
		free(s->name);
	free(s);
}

static const struct tt_pane_ops kernel_ops = {
	.name = "kernel",
	.title = "Kernel",
	.help = "One kernel: the histogram of its durations over the ranks shown, and its "
		"slowest instances.  Enter opens the timeline at an instance.",
	.open = kernel_open,
	.close = kernel_close,
	.drill = instance_drill,
};

static struct tt_pane *kernels_drill(struct tt_pane *p, size_t row)
{
	const char *name = pane_str(p->table, row, "name");
	if (!name[0] || strcmp(name, "others") == 0)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &kernel_ops);
	struct kernel_state *s = tt_calloc(1, sizeof(*s));
	s->name = tt_strdup(name);
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", name);
	return np;
}

static const struct tt_pane_ops kernels_ops = {
	.name = "kernels",
	.title = "Kernels",
	.help = "GPU kernels by total time over the ranks shown, with the rank where each one "
		"takes least, the median and the most time.  Above: the time by kernel type "
		"(computation, communication, memory, and their overlaps).  `tracetop report "
		"kernels --explain` tells which rule classified each kernel.  Enter shows a "
		"kernel's durations and slowest instances.",
	.open = kernels_open,
	.drill = kernels_drill,
};

/* ---- 5 Overlap ---- */

static int overlap_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "overlap", "comm_comp_overlap"))
		return -1;
	pane_add_bar(p->table, "comp_comm_overlap_pctg", "comm hidden by compute", TT_ROLE_BAR_COMM,
		100);
	tt_pane_set_table(p, p->table);
	/* the answer to "how much communication hides behind computation?" */
	double comm = 0, ov = 0;
	for (size_t i = 0; i < p->table->nrows; i++) {
		double c = pane_num(p->table, i, "communication_time(us)"),
		       o = pane_num(p->table, i, "overlap_time(us)");
		if (!isnan(c) && !isnan(o)) {
			comm += c;
			ov += o;
		}
	}
	if (comm > 0) {
		char a[32], b[32];
		tt_fmt_dur(a, sizeof(a), (int64_t)ov);
		tt_fmt_dur(b, sizeof(b), (int64_t)comm);
		tt_pane_head(p, TT_ROLE_MARKED,
			     "all ranks shown: %.1f %% of communication time overlaps computation (%s "
			     "of %s)",
			     100 * ov / comm, a, b);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "the share of communication time during which computation runs too (HTA)");
	return 0;
}

static const struct tt_pane_ops overlap_ops = {
	.name = "overlap",
	.title = "Overlap",
	.help = "Per rank, the percentage of communication time (union of communication "
		"kernels) that overlaps computation (union of computation kernels), as HTA "
		"defines it; empty when the rank has no communication.  Enter shows the rank's "
		"streams.",
	.open = overlap_open,
	.drill = drill_rank_column,
};

/* ---- 6 Launch ---- */

static int launch_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "launch", "launch_summary"))
		return -1;
	pane_add_bar(p->table, "launch_delay_mean", "mean delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_head(p, TT_ROLE_DIM,
		     "cutoffs: runtime %.0f us, launch delay %.0f us (--runtime-cutoff, "
		     "--launch-delay-cutoff). Enter: the outliers of the rank",
		     p->app->ropts.runtime_cutoff_us, p->app->ropts.launch_delay_cutoff_us);
	return 0;
}

struct outlier_state {
	int64_t rank;
};

static int outliers_open(struct tt_pane *p)
{
	struct outlier_state *s = p->state;
	struct tt_report_opts o = p->app->ropts;
	int64_t one = s->rank;
	o.a.ranks = &one;
	o.a.nranks = 1;
	o.format = TT_FMT_CSV; /* every row */
	struct tt_table **tabs;
	size_t n;
	struct tt_err err;
	if (tt_report_build("launch", p->app->m, NULL, &o, &tabs, &n, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		return -1;
	}
	struct tt_table *t = NULL;
	int src[64]; /* source column of each column of t (the three tables share them) */
	static const char *const kinds[] = {"launch_delay_outliers", "runtime_outliers",
					    "short_kernels"};
	/* the kind first: one launch can be an outlier of several kinds */
	static const char *const why[] = {"long delay", "long runtime", "short kernel"};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < 3; k++)
			if (strcmp(tabs[i]->name, kinds[k]) == 0) {
				/* columns: the kind, the launch delay (the sort), the rest
				 * but the rank (the subtitle names it) */
				if (!t) {
					struct tt_col cc[64];
					int nc = 0, delay = tt_table_col(tabs[i], "launch_delay");
					cc[nc++] = (struct tt_col){.name = "kind", .type = TT_C_STR};
					if (delay >= 0)
						src[nc] = delay, cc[nc++] = tabs[i]->cols[delay];
					for (int c = 0; c < tabs[i]->ncols && nc < 64; c++)
						if (c != delay && strcmp(tabs[i]->cols[c].name, "rank") != 0) {
							src[nc] = c;
							cc[nc++] = tabs[i]->cols[c];
						}
					t = tt_table_new("outliers", cc, nc);
				}
				for (size_t r = 0; r < tabs[i]->nrows; r++) {
					size_t w = tt_table_add_row(t);
					tt_table_set_str(t, w, 0, why[k]);
					for (int c = 1; c < t->ncols; c++) {
						const struct tt_cell *x = tt_table_cell(tabs[i], r, src[c]);
						if (x->kind == TT_CV_S)
							tt_table_set_str(t, w, c, x->v.s);
						else if (x->kind == TT_CV_I)
							tt_table_set_int(t, w, c, x->v.i);
						else if (x->kind == TT_CV_D)
							tt_table_set_num(t, w, c, x->v.d);
					}
				}
			}
	tt_tables_free(tabs, n);
	if (!t) {
		snprintf(p->msg, sizeof(p->msg), "no outliers");
		return -1;
	}
	pane_add_bar(t, "launch_delay", "launch delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, tt_table_col(t, "launch_delay"), true);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the kernel");
	return 0;
}

static struct tt_pane *outlier_drill(struct tt_pane *p, size_t row)
{
	double ri = pane_num(p->table, row, "rank_index"), gpu = pane_num(p->table, row, "gpu_event");
	if (isnan(ri) || isnan(gpu))
		return NULL;
	return tt_timeline_new(p->app, (size_t)ri, (uint32_t)gpu, 0);
}

static const struct tt_pane_ops outliers_ops = {
	.name = "outliers",
	.title = "Outliers",
	.help = "Kernel launches of one rank that stand out: a long launch delay (the GPU "
		"started the kernel long after the runtime call returned), a long runtime call, "
		"or a short kernel (shorter than its own launch call).  Enter opens the timeline.",
	.open = outliers_open,
	.close = pane_free_state,
	.drill = outlier_drill,
};

static struct tt_pane *launch_drill(struct tt_pane *p, size_t row)
{
	double rank = pane_num(p->table, row, "rank");
	if (isnan(rank))
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &outliers_ops);
	struct outlier_state *s = tt_calloc(1, sizeof(*s));
	s->rank = (int64_t)rank;
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)s->rank);
	return np;
}

static const struct tt_pane_ops launch_ops = {
	.name = "launch",
	.title = "Launch",
	.help = "CUDA kernel launch statistics per rank (HTA): each launch call joined with "
		"its GPU op by correlation id; the CPU duration of the call, the GPU duration, "
		"and the launch delay (GPU start - end of the call).  Outliers use the cutoffs "
		"shown above.  Enter lists the rank's outliers.",
	.open = launch_open,
	.drill = launch_drill,
};

/* ---- 7 Counters ---- */

/* A sparkline of the step series pts over [t0, t1): each of `width` cells
 * shows the largest value in its slice. */
static void sparkline(const struct tt_sample *pts, size_t n, int64_t t0, int64_t t1, double vmax,
		      char *buf, size_t cap, int width)
{
	float *v = tt_malloc((size_t)(width > 0 ? width : 1) * sizeof(*v));
	for (int i = 0; i < width; i++) {
		int64_t a = t0 + (t1 - t0) * i / width, b = t0 + (t1 - t0) * (i + 1) / width;
		v[i] = (float)tt_step_max(pts, n, a, b);
	}
	tt_sparkline(buf, cap, v, width, vmax);
	free(v);
}

static int counters_open(struct tt_pane *p)
{
	/* the series, computed once (in the background when the app starts) */
	const struct tt_counters *cs = tt_app_counters(p->app);
	const struct tt_counters c = *cs;
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "series", .type = TT_C_STR, .width = 22},
		{.name = "count", .type = TT_C_INT},
		{.name = "mean", .type = TT_C_NUM, .prec = 1},
		{.name = "max", .type = TT_C_NUM, .prec = 1},
		{.name = "full_queue", .title = "time >= 1024", .type = TT_C_DUR},
		{.name = "over_time", .title = "over time (max per slice)", .type = TT_C_STR, .width = 40},
	};
	struct tt_table *t = tt_table_new("counters", cols, (int)TT_ARRAY_SIZE(cols));
	size_t nfull = 0;
	for (size_t i = 0; i < c.nranks; i++) {
		const struct tt_counters_rank *cr = &c.ranks[i];
		const struct tt_rank *r = cr->r;
		char spark[400], name[64];
		for (size_t q = 0; q < cr->nq; q++) {
			const struct tt_queue_series *s = &cr->q[q];
			size_t k = tt_table_add_row(t);
			snprintf(name, sizeof(name), "queue, stream %lld", (long long)s->stream);
			tt_table_set_int(t, k, 0, r->rank);
			tt_table_set_str(t, k, 1, name);
			tt_table_set_int(t, k, 2, (int64_t)s->stats.count);
			tt_table_set_num(t, k, 3, s->stats.mean);
			tt_table_set_num(t, k, 4, s->stats.max);
			tt_table_set_int(t, k, 5, s->full_ns);
			sparkline(s->pts, s->npts, r->t0, r->t1, s->stats.max, spark, sizeof(spark), 32);
			tt_table_set_str(t, k, 6, spark);
			if (s->reaches_max)
				nfull++;
		}
		for (size_t b = 0; b < cr->nbw; b++) {
			const struct tt_bw_series *s = &cr->bw[b];
			size_t k = tt_table_add_row(t);
			snprintf(name, sizeof(name), "GB/s, %s", s->name);
			tt_table_set_int(t, k, 0, r->rank);
			tt_table_set_str(t, k, 1, name);
			tt_table_set_int(t, k, 2, (int64_t)s->stats.count);
			tt_table_set_num(t, k, 3, s->stats.mean);
			tt_table_set_num(t, k, 4, s->stats.max);
			sparkline(s->pts, s->npts, r->t0, r->t1, s->stats.max, spark, sizeof(spark), 32);
			tt_table_set_str(t, k, 6, spark);
		}
	}
	tt_pane_set_table(p, t);
	/* queue length >= 1024: launches stall */
	for (size_t i = 0; i < t->nrows; i++)
		if (tt_cell_num(tt_table_cell(t, i, 5)) > 0)
			p->row_role[i] = TT_ROLE_WARNING;
	tt_pane_head(p, TT_ROLE_DIM,
		     "queue length: kernels launched and not started, per stream; GB/s: memory "
		     "bandwidth of the copies in flight%s",
		     nfull ? "; highlighted rows reach 1024 (launches stall)" : "");
	if (!t->nrows)
		snprintf(p->msg, sizeof(p->msg), "no launches or memory copies in the ranks shown");
	return 0;
}

static const struct tt_pane_ops counters_ops = {
	.name = "counters",
	.title = "Counters",
	.help = "HTA's counters: the queue length of each stream (kernels launched on the CPU "
		"and not yet started on the GPU) and the memory bandwidth of copies in flight, "
		"with statistics over their change points (as HTA) and a sparkline over the "
		"rank's span.  A queue at 1024 means launches block.  `tracetop counters PATH -o "
		"OUT.json.gz` writes them into the trace for Perfetto.",
	.open = counters_open,
};

/* ---- 8 Patterns ---- */

static int patterns_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "patterns", "frequent_cuda_kernel_sequences"))
		return -1;
	pane_add_bar(p->table, "GPU kernel duration (us)", "GPU time", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_head(p, TT_ROLE_DIM,
		     "frequent kernel sequences launched under one operator (HTA); `tracetop "
		     "report patterns --op NAME` picks the operator");
	return 0;
}

static const struct tt_pane_ops patterns_ops = {
	.name = "patterns",
	.title = "Patterns",
	.help = "HTA's frequent CUDA kernel sequences: for the operator chosen (the aten:: op "
		"with the most calls launching at least 3 kernels, or --op NAME), each distinct "
		"sequence of kernels its calls launch, with how often it occurs and its total "
		"GPU and CPU time.",
	.open = patterns_open,
};

/* ---- 0 Diff ---- */

static int diff_open(struct tt_pane *p)
{
	if (!p->app->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	if (tt_pane_report(p, "diff", "compare_traces"))
		return -1;
	struct tt_table *t = p->table;
	char a[64], b[64];
	snprintf(a, sizeof(a), "%s_total_duration", p->app->ropts.label_a);
	snprintf(b, sizeof(b), "%s_total_duration", p->app->ropts.label_b);
	pane_add_bar(t, a, p->app->ropts.label_a, TT_ROLE_BAR_IDLE, 0);
	pane_add_bar(t, b, p->app->ropts.label_b, TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	int dc = tt_table_col(t, "diff_duration");
	for (size_t i = 0; dc >= 0 && i < t->nrows; i++) {
		double d = tt_cell_num(tt_table_cell(t, i, dc));
		p->row_role[i] = d > 0 ? TT_ROLE_WORSE : d < 0 ? TT_ROLE_BETTER : 0;
	}
	/* by impact: the largest change in time first */
	struct tt_col absc = {.name = "impact", .type = TT_C_DUR, .hidden_text = true};
	int ic = tt_table_add_col(t, &absc);
	for (size_t i = 0; dc >= 0 && i < t->nrows; i++)
		tt_table_set_num(t, i, ic, fabs(tt_cell_num(tt_table_cell(t, i, dc))) * 1000);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, ic, true);
	tt_pane_head(p, TT_ROLE_DIM, "ops and kernels by change in total time; more time is "
				     "highlighted as worse, less as better");
	return 0;
}

static const struct tt_pane_ops diff_ops = {
	.name = "diff",
	.title = "Diff",
	.help = "HTA's trace diff of two traces (start with --diff CONTROL TEST): for the first "
		"rank and iteration of each side, every op and kernel name with its count and "
		"total time on both sides and the difference, sorted by the size of the change.",
	.open = diff_open,
};

const struct tt_pane_ops *const tt_top_panes[10] = {
	&overview_ops, &temporal_ops, &idle_ops,     &kernels_ops,     &overlap_ops,
	&launch_ops,   &counters_ops, &patterns_ops, &tt_timeline_ops, &diff_ops,
};

/* ---- v: the menu of more views ---- */

static int views_open(struct tt_pane *p)
{
	static const struct tt_col cols[] = {
		{.name = "view", .type = TT_C_STR, .width = 16},
		{.name = "what", .type = TT_C_STR, .width = 90},
		{.name = "index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("views", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < tt_more_npanes; i++) {
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, tt_more_panes[i]->title);
		tt_table_set_str(t, k, 1, tt_report_help(tt_more_panes[i]->name) ?
						  tt_report_help(tt_more_panes[i]->name) :
						  "");
		tt_table_set_int(t, k, 2, (int64_t)i);
	}
	size_t k = tt_table_add_row(t);
	tt_table_set_str(t, k, 0, "Heatmap");
	tt_table_set_str(t, k, 1, "one cell per rank shaded by a metric, the outliers first");
	tt_table_set_int(t, k, 2, -1);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "more views (the TensorBoard profiler's, and many ranks). "
				     "Enter opens one; Esc comes back here");
	return 0;
}

static struct tt_pane *views_drill(struct tt_pane *p, size_t row)
{
	int64_t i = (int64_t)tt_cell_num(tt_table_cell(p->table, row, 2));
	if (i < 0)
		return tt_heatmap_new(p->app);
	if ((size_t)i >= tt_more_npanes)
		return NULL;
	return tt_pane_new(p->app, tt_more_panes[i]);
}

static const struct tt_pane_ops views_ops = {
	.name = "views",
	.title = "Views",
	.help = "More views: GPU utilisation, the distributed view, operators, memory, Python "
		"source, steps and advice (the TensorBoard profiler plugin's views), and the "
		"heatmap of ranks.  Enter opens one.",
	.open = views_open,
	.drill = views_drill,
};

struct tt_pane *tt_views_menu(struct tt_app *a)
{
	struct tt_pane *p = tt_pane_new(a, &views_ops);
	snprintf(p->subtitle, sizeof(p->subtitle), "more views");
	return p;
}
