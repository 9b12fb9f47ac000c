/* Pane 3, Idle: HTA's idle time breakdown per rank and stream, and its
 * drill-down, the largest gaps of one stream; from the idle analysis in the
 * app's results (tracetop/idle.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tracetop/util.h"
#include "pane.h"

enum { C_RANK, C_STREAM, C_HOST, C_KERNEL, C_OTHER, C_IDLE, C_GAPS, C_LARGEST, C_N };

static int idle_open(struct tt_pane *p)
{
	const struct tt_idle *r = tt_res_idle(p->app->res);
	static const struct tt_col cols[C_N] = {
		[C_RANK] = {.name = "rank", .type = TT_C_INT},
		[C_STREAM] = {.name = "stream", .type = TT_C_INT},
		[C_HOST] = {.name = "host_wait", .title = "host wait", .type = TT_C_DUR},
		[C_KERNEL] = {.name = "kernel_wait", .title = "kernel wait", .type = TT_C_DUR},
		[C_OTHER] = {.name = "other", .type = TT_C_DUR},
		[C_IDLE] = {.name = "idle", .title = "idle", .type = TT_C_DUR},
		[C_GAPS] = {.name = "gaps", .type = TT_C_INT},
		[C_LARGEST] = {.name = "largest_gap", .title = "largest gap", .type = TT_C_DUR},
	};
	if (!r->nstreams) {
		snprintf(p->msg, sizeof(p->msg), "no GPU activity in the ranks shown");
		return -1;
	}
	/* one row per stream, in the analysis' order (row i = stream i) */
	struct tt_table *t = tt_table_new("idle", cols, C_N);
	for (size_t i = 0; i < r->nstreams; i++) {
		const struct tt_idle_stream *st = &r->streams[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, C_RANK, st->rank);
		tt_table_set_int(t, k, C_STREAM, st->stream);
		tt_table_set_int(t, k, C_HOST, st->cat[TT_IDLE_HOST_WAIT].idle_ns);
		tt_table_set_int(t, k, C_KERNEL, st->cat[TT_IDLE_KERNEL_WAIT].idle_ns);
		tt_table_set_int(t, k, C_OTHER, st->cat[TT_IDLE_OTHER].idle_ns);
		tt_table_set_int(t, k, C_IDLE, st->idle_ns);
		tt_table_set_int(t, k, C_GAPS, (int64_t)st->ngaps);
		if (st->ngaps)
			tt_table_set_int(t, k, C_LARGEST, st->max_gap_ns);
	}
	struct tt_col stack = {.name = "bar", .title = "host/kernel wait/other", .type = TT_C_STACK,
			       .nstack = 3, .glyphs = "#=."};
	stack.stack[0] = C_HOST;
	stack.stack[1] = C_KERNEL;
	stack.stack[2] = C_OTHER;
	stack.role[0] = TT_ROLE_BAR_RUNTIME;
	stack.role[1] = TT_ROLE_BAR_COMP;
	stack.role[2] = TT_ROLE_BAR_IDLE;
	tt_table_add_col(t, &stack);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, C_IDLE, true);
	/* the answer to "where is the largest gap?" */
	if (r->ngaps) {
		const struct tt_idle_gap *g = &r->gaps[r->by_dur[0]];
		const struct tt_idle_stream *st = &r->streams[g->stream_idx];
		int64_t t0 = 0;
		for (size_t j = 0; j < r->nranks; j++)
			if (r->ranks[j].rank_idx == g->rank_idx)
				t0 = r->ranks[j].gpu_t0;
		char d[32], at[32];
		tt_fmt_dur(d, sizeof(d), g->dur);
		tt_fmt_dur(at, sizeof(at), g->start - t0);
		tt_pane_head(p, TT_ROLE_MARKED,
			     "largest gap: rank %lld stream %lld, %s long, %s after the rank's first "
			     "GPU event (%s)",
			     (long long)st->rank, (long long)st->stream, d, at,
			     tt_idle_cat_name((enum tt_idle_cat)g->cat));
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "gaps between consecutive kernels of a stream: host wait (the launch came "
		     "late), kernel wait (< %.0f us), other; bar: %s host wait %s kernel wait %s "
		     "other. Enter: the stream's largest gaps",
		     r->kernel_delay_us, tt_stack_glyph("#=.", 0), tt_stack_glyph("#=.", 1),
		     tt_stack_glyph("#=.", 2));
	return 0;
}

/* ---- the largest gaps of one stream ---- */

#define GAPS_LOOKED_AT 200 /* the largest gaps of all streams looked at */

struct gaps_state {
	size_t stream;  /* index into the analysis' streams */
	uint32_t *gaps; /* the gaps listed (row i = gaps[i]) */
	size_t n;
};

static int gaps_open(struct tt_pane *p)
{
	struct gaps_state *s = p->state;
	const struct tt_idle *r = tt_res_idle(p->app->res);
	size_t look = TT_MIN(r->ngaps, (size_t)GAPS_LOOKED_AT);
	s->gaps = tt_malloc((look + 1) * sizeof(*s->gaps));
	for (size_t i = 0; i < look; i++)
		if (r->gaps[r->by_dur[i]].stream_idx == s->stream)
			s->gaps[s->n++] = r->by_dur[i];
	struct tt_table *t = tt_idle_gaps_table(p->app->m, r, s->gaps, s->n);
	pane_add_bar_at(t, tt_table_col(t, "duration"), "duration", TT_ROLE_BAR_IDLE, 0);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the gap, with its neighbours");
	if (!s->n)
		snprintf(p->msg, sizeof(p->msg), "no gaps among the largest %d on this stream",
			 GAPS_LOOKED_AT);
	return 0;
}

static void gaps_close(struct tt_pane *p)
{
	struct gaps_state *s = p->state;
	if (s)
		free(s->gaps);
	free(s);
}

static struct tt_pane *gap_drill(struct tt_pane *p, size_t row)
{
	struct gaps_state *s = p->state;
	if (row >= s->n)
		return NULL;
	const struct tt_idle_gap *g = &tt_res_idle(p->app->res)->gaps[s->gaps[row]];
	return tt_timeline_new(p->app, g->rank_idx, g->prev, 0);
}

static const struct tt_pane_ops gaps_ops = {
	.name = "gaps",
	.title = "Gaps",
	.help = "The largest gaps between consecutive kernels of one stream, with their category "
		"and the kernels before and after.  Enter opens the timeline there.",
	.open = gaps_open,
	.close = gaps_close,
	.drill = gap_drill,
};

static struct tt_pane *idle_drill(struct tt_pane *p, size_t row)
{
	const struct tt_idle *r = tt_res_idle(p->app->res);
	if (row >= r->nstreams)
		return NULL;
	const struct tt_idle_stream *st = &r->streams[row];
	struct tt_pane *np = tt_pane_new(p->app, &gaps_ops);
	struct gaps_state *s = tt_calloc(1, sizeof(*s));
	s->stream = row;
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld stream %lld", (long long)st->rank,
		 (long long)st->stream);
	return np;
}

static const struct tt_pane_diff idle_diff = {
	.nkeys = 2,
	.cols = {C_IDLE, C_HOST, C_KERNEL, C_OTHER, C_GAPS, C_LARGEST},
	.ncols = 6,
	.rank_col = C_RANK,
	.stream_key = "stream",
	.more_is = -1,
	.what = "GPU idle time per stream",
	.drill_both = tt_sides_drill,
};

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
	.needs = TT_NEED(TT_RES_IDLE),
	.diff = &idle_diff,
};
