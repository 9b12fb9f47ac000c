/* Pane 3, Idle: HTA's idle time breakdown per rank and stream, and its
 * drill-down, the largest gaps of one stream. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

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

const struct tt_pane_ops tt_idle_ops = {
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
