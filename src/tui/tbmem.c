/* The TensorBoard plugin's memory view and tracetop's source view as
 * panes, drawn from the app's typed results (tracetop/memory.h,
 * tracetop/source.h): Memory (per rank and device, zoomable curves), the
 * allocations alive at a peak, Source (operators by Python stack) and the
 * frames of one stack. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/tbviews.h"
#include "tracetop/util.h"
#include "pane.h"

/* slices of a memory sparkline */
#define SLICES 16

/* ---- Memory ---- */

/* zoom level z shows 1/2^z of the rank's span around the device's peak */
struct mem_pane {
	int zoom;
};

enum { M_RANK, M_DEV, M_PEAK, M_AT, M_RES, M_PCT, M_LIVE, M_CURVE, M_N };

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
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	float v[SLICES];
	char buf[400];
	for (size_t i = 0; i < p->table->nrows && i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		int64_t a, b;
		mem_window(p, d, &a, &b);
		for (int k = 0; k < SLICES; k++) {
			int64_t x = tt_lerp_ns(a, b, k, SLICES);
			int64_t y = tt_lerp_ns(a, b, k + 1, SLICES);
			int64_t m = tt_mem_max(d, x, y > x ? y : x + 1, false);
			v[k] = m > 0 ? (float)m : 0;
		}
		tt_sparkline(buf, sizeof(buf), v, SLICES, (double)d->peak_alloc);
		tt_table_set_str(p->table, i, M_CURVE, buf);
	}
}

static int mem_open(struct tt_pane *p)
{
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	if (!mm->ndevs) {
		snprintf(p->msg, sizeof(p->msg),
			 "no [memory] events: record them with profile_memory=True");
		return -1;
	}
	static const struct tt_col cols[M_N] = {
		[M_RANK] = {.name = "rank", .type = TT_C_INT},
		[M_DEV] = {.name = "device", .type = TT_C_STR},
		[M_PEAK] = {.name = "peak", .type = TT_C_STR},
		[M_AT] = {.name = "at", .type = TT_C_DUR},
		[M_RES] = {.name = "reserved", .type = TT_C_STR},
		[M_PCT] = {.name = "of_device", .title = "of GPU", .type = TT_C_PCT, .prec = 0},
		[M_LIVE] = {.name = "alive", .type = TT_C_INT},
		[M_CURVE] = {.name = "allocated_over_time", .title = "allocated over time",
			     .type = TT_C_STR, .width = SLICES, .free_text = true},
	};
	/* row i = mm->devs[i] */
	struct tt_table *t = tt_table_new("memory", cols, M_N);
	char buf[64];
	bool unknown = false;
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, M_RANK, d->rank);
		if (d->device < 0)
			snprintf(buf, sizeof(buf), "cpu");
		else
			snprintf(buf, sizeof(buf), "cuda:%lld", (long long)d->device);
		tt_table_set_str(t, k, M_DEV, buf);
		tt_fmt_bytes(buf, sizeof(buf), (double)d->peak_alloc);
		tt_table_set_str(t, k, M_PEAK, buf);
		tt_table_set_int(t, k, M_AT, d->peak_ts - p->app->m->ranks[d->ri]->t0);
		if (d->peak_reserved >= 0) {
			tt_fmt_bytes(buf, sizeof(buf), (double)d->peak_reserved);
			tt_table_set_str(t, k, M_RES, buf);
		}
		tt_table_set_num(t, k, M_PCT, d->peak_pct);
		if (d->nwith_addr == d->nevents)
			tt_table_set_int(t, k, M_LIVE, (int64_t)d->nlive);
		else
			unknown = true;
	}
	p->state = tt_calloc(1, sizeof(struct mem_pane));
	tt_pane_set_table(p, t);
	mem_sparks(p);
	for (size_t i = 0; i < mm->ndevs; i++)
		if (mm->devs[i].peak_pct >= TT_MEM_NEAR_LIMIT_PCT)
			p->row_role[i] = TT_ROLE_WARNING;
	if (unknown)
		tt_pane_head(p, TT_ROLE_DIM, "alive -: events without Addr, so what is alive at "
					     "the peak is unknown");
	tt_pane_head(p, TT_ROLE_DIM,
		     "allocated over time: the largest total in each of %d slices; +/-/=: zoom "
		     "around the peak. Enter: the allocations alive at the peak",
		     SLICES);
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
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	size_t row = tt_pane_row(p);
	if (row < mm->ndevs) {
		const struct tt_mem_dev *d = &mm->devs[row];
		const struct tt_rank *r = p->app->m->ranks[d->ri];
		int64_t x, y;
		mem_window(p, d, &x, &y);
		char a0[32], a1[32];
		tt_fmt_dur(a0, sizeof(a0), x - r->t0);
		tt_fmt_dur(a1, sizeof(a1), y - r->t0);
		tt_ui_status(p->app, TT_ROLE_STATUS, "memory curves: %s to %s of each rank (zoom %d)",
			     a0, a1, s->zoom);
	}
	return TT_R_REDRAW;
}

enum { V_BYTES, V_SIZE, V_BAR, V_AT, V_AGE, V_OP, V_RI, V_N };

static int live_open(struct tt_pane *p)
{
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	size_t dev = *(size_t *)p->state;
	const struct tt_mem_dev *d = &mm->devs[dev];
	const struct tt_rank *r = p->app->m->ranks[d->ri];
	static const struct tt_col cols[V_N] = {
		/* the bytes in CSV, their size with a unit on the screen */
		[V_BYTES] = {.name = "bytes", .type = TT_C_INT, .hidden_text = true},
		[V_SIZE] = {.name = "size", .type = TT_C_STR, .hidden_csv = true, .free_text = true},
		[V_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = V_BYTES, .width = 10,
			   .role = {TT_ROLE_BAR_MEM}},
		[V_AT] = {.name = "allocated_at", .title = "at", .type = TT_C_DUR},
		[V_AGE] = {.name = "age_at_peak", .title = "age", .type = TT_C_DUR},
		[V_OP] = {.name = "operator", .type = TT_C_STR, .width = 36},
		/* (the rank a side-by-side row's split timeline opens at) */
		[V_RI] = {.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	/* row i = mm->live[d->first_live + i] */
	struct tt_table *t = tt_table_new("live", cols, V_N);
	for (size_t j = 0; j < d->nlive; j++) {
		const struct tt_mem_live *a = &mm->live[d->first_live + j];
		size_t k = tt_table_add_row(t);
		char size[32];
		tt_fmt_bytes(size, sizeof(size), (double)a->bytes);
		tt_table_set_int(t, k, V_BYTES, a->bytes);
		tt_table_set_int(t, k, V_RI, (int64_t)a->ri);
		tt_table_set_str(t, k, V_SIZE, size);
		tt_table_set_int(t, k, V_AT, a->ts - r->t0);
		tt_table_set_int(t, k, V_AGE, d->peak_ts - a->ts);
		tt_table_set_str(t, k, V_OP,
				 a->op != TT_NONE ? tt_ev_name(r, &r->ev[a->op]) : "(no operator)");
	}
	tt_pane_set_table(p, t);
	if (!d->nlive)
		snprintf(p->msg, sizeof(p->msg), "%s",
			 d->nwith_addr == d->nevents
				 ? "no allocation seen by the trace is alive at the peak"
				 : "[memory] events without Addr: what is alive is unknown");
	tt_pane_head(p, TT_ROLE_DIM, "largest first; at: when allocated; age: alive for, at the peak. Enter: the timeline there");
	return 0;
}

static struct tt_pane *live_drill(struct tt_pane *p, size_t row)
{
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	const struct tt_mem_dev *d = &mm->devs[*(size_t *)p->state];
	if (row >= d->nlive)
		return NULL;
	const struct tt_mem_live *a = &mm->live[d->first_live + row];
	return tt_timeline_new(p->app, a->ri, a->ev, 0);
}

static const struct tt_pane_ops live_ops = {
	.name = "memory-live",
	.title = "Alive at peak",
	.help = "The allocations of one device alive at its memory peak (an allocation whose "
		"address was not freed before the peak), largest first, with the operator around "
		"each on its thread.  Enter opens the timeline at the allocation.",
	.open = live_open,
	.close = pane_free_state,
	.drill = live_drill,
	.needs = TT_NEED(TT_RES_MEM),
};

static struct tt_pane *mem_drill(struct tt_pane *p, size_t row)
{
	const struct tt_mem *mm = tt_res_mem(p->app->res);
	if (row >= mm->ndevs)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &live_ops);
	size_t *dev = tt_malloc(sizeof(*dev));
	*dev = row;
	np->state = dev;
	const struct tt_mem_dev *d = &mm->devs[row];
	if (d->device < 0)
		snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld cpu", (long long)d->rank);
	else
		snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld cuda:%lld",
			 (long long)d->rank, (long long)d->device);
	return np;
}

const struct tt_pane_ops tt_memory_ops = {
	.name = "memory",
	.title = "Memory",
	.help = "The TensorBoard plugin's memory view from [memory] events (recorded with "
		"profile_memory=True): per rank and device the peak of the allocated total and "
		"when, the peak reserved, the share of the device's memory, the allocations alive "
		"at the peak, and a sparkline of the allocated total (+, -, =: zoom around the "
		"peak).  `tracetop report memory` has the plugin's statistics per operator.  "
		"Enter lists the allocations alive at the peak.",
	.open = mem_open,
	.close = pane_free_state,
	.key = mem_key,
	.drill = mem_drill,
	.needs = TT_NEED(TT_RES_MEM),
};

/* ---- Source ---- */

enum { S_OP, S_CALLS, S_HOST, S_BAR, S_FRAME, S_N };

static int src_open(struct tt_pane *p)
{
	const struct tt_src *s = tt_res_src(p->app->res);
	if (!s->nstacks) {
		snprintf(p->msg, sizeof(p->msg), "no Python stacks: record them with with_stack=True");
		return -1;
	}
	static const struct tt_col cols[S_N] = {
		[S_OP] = {.name = "operator", .type = TT_C_STR, .width = 28},
		[S_CALLS] = {.name = "calls", .type = TT_C_INT},
		[S_HOST] = {.name = "host_total", .title = "host", .type = TT_C_DUR},
		[S_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = S_HOST, .width = 8,
			   .role = {TT_ROLE_BAR_CPU}},
		[S_FRAME] = {.name = "innermost_frame", .title = "innermost frame", .type = TT_C_STR,
			     .width = 60},
	};
	/* row i = s->stacks[i] */
	struct tt_table *t = tt_table_new("source", cols, S_N);
	char frame[512];
	for (size_t i = 0; i < s->nstacks; i++) {
		const struct tt_src_stack *st = &s->stacks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, S_OP, st->op);
		tt_table_set_int(t, k, S_CALLS, (int64_t)st->calls);
		tt_table_set_int(t, k, S_HOST, st->host_ns);
		size_t fl = strcspn(st->stack, "\n");
		snprintf(frame, sizeof(frame), "%.*s", (int)TT_MIN(fl, sizeof(frame) - 1), st->stack);
		tt_table_set_str(t, k, S_FRAME, frame);
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the frames of the stack");
	return 0;
}

enum { F_DEPTH, F_FRAME, F_N };

static int frames_open(struct tt_pane *p)
{
	const struct tt_src *s = tt_res_src(p->app->res);
	const struct tt_src_stack *st = &s->stacks[*(size_t *)p->state];
	static const struct tt_col cols[F_N] = {
		[F_DEPTH] = {.name = "depth", .title = "#", .type = TT_C_INT},
		[F_FRAME] = {.name = "frame", .type = TT_C_STR, .width = 100},
	};
	/* row i = frame i of the stack (innermost first) */
	struct tt_table *t = tt_table_new("frames", cols, F_N);
	int depth = 0;
	for (const char *a = st->stack; *a;) {
		size_t l = strcspn(a, "\n");
		char frame[1024];
		snprintf(frame, sizeof(frame), "%.*s", (int)TT_MIN(l, sizeof(frame) - 1), a);
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, F_DEPTH, depth++);
		tt_table_set_str(t, k, F_FRAME, frame);
		a += l;
		if (*a == '\n')
			a++;
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM,
		     "innermost frame first. Enter on a frame: the command that opens it in "
		     "$EDITOR");
	return 0;
}

static struct tt_pane *frames_drill(struct tt_pane *p, size_t row)
{
	const struct tt_src *s = tt_res_src(p->app->res);
	const char *a = s->stacks[*(size_t *)p->state].stack;
	for (size_t i = 0; i < row && *a; i++) {
		a += strcspn(a, "\n");
		if (*a)
			a++;
	}
	char file[1024];
	int64_t line;
	if (!*a || !tt_tb_frame_parse(a, strcspn(a, "\n"), file, sizeof(file), &line)) {
		tt_ui_status(p->app, TT_ROLE_WARNING, "this frame names no file and line");
		return NULL;
	}
	char cmd[1200];
	if (!tt_tb_editor_command(cmd, sizeof(cmd), getenv("EDITOR"), file, line))
		tt_ui_status(p->app, TT_ROLE_WARNING,
			     "this frame's file name holds control characters: no command to paste");
	else
		tt_ui_status(p->app, TT_ROLE_STATUS, "e: %s", cmd);
	return NULL;
}

static const struct tt_pane_ops frames_ops = {
	.name = "frames",
	.title = "Frames",
	.help = "The Python stack that called an operator, innermost frame first.  Enter on a "
		"frame shows the command that opens its file at its line in $EDITOR (vi when "
		"unset).",
	.open = frames_open,
	.close = pane_free_state,
	.drill = frames_drill,
	.needs = TT_NEED(TT_RES_SRC),
};

static struct tt_pane *src_drill(struct tt_pane *p, size_t row)
{
	const struct tt_src *s = tt_res_src(p->app->res);
	if (row >= s->nstacks)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &frames_ops);
	size_t *i = tt_malloc(sizeof(*i));
	*i = row;
	np->state = i;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", s->stacks[row].op);
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
	.needs = TT_NEED(TT_RES_SRC),
};
