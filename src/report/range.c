/* tracetop report range: what ran between two times (the timeline's A). */
#include "config.h"

#include "tracetop/report.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/range.h"
#include "tracetop/util.h"

/* ns as ms with µs decimals: "608.146 ms" */
static void ms3(char *buf, size_t n, int64_t ns)
{
	int64_t us = (ns >= 0 ? ns + 500 : ns - 500) / 1000;
	int64_t a = us < 0 ? -us : us;
	snprintf(buf, n, "%s%lld.%03lld ms", us < 0 ? "-" : "", (long long)(a / 1000),
		 (long long)(a % 1000));
}

void tt_range_text(char *buf, size_t n, const struct tt_range *r)
{
	char a[40], b[40], d[40];
	ms3(a, sizeof(a), r->t0 - r->origin);
	ms3(b, sizeof(b), r->t1 - r->origin);
	ms3(d, sizeof(d), r->t1 - r->t0);
	snprintf(buf, n, "%s .. %s (%s)", a, b, d);
}

struct tt_table *tt_range_ranks_table(const struct tt_range *r)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "streams", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "kernel_time(us)", .title = "kernel time", .type = TT_C_DUR},
		{.name = "kernel_pctg", .title = "kernel %", .type = TT_C_PCT, .prec = 1},
		{.name = "comm_time(us)", .title = "comm", .type = TT_C_DUR},
		{.name = "memcpy_time(us)", .title = "memcpy", .type = TT_C_DUR},
		{.name = "memset_time(us)", .title = "memset", .type = TT_C_DUR},
		{.name = "gpu_busy(us)", .title = "GPU busy", .type = TT_C_DUR},
		{.name = "gpu_busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "cpu_ops", .title = "CPU ops", .type = TT_C_INT},
		{.name = "range_start_ns", .type = TT_C_INT, .hidden_text = true},
		{.name = "range_end_ns", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("range", cols, (int)TT_ARRAY_SIZE(cols));
	char rt[120];
	tt_range_text(rt, sizeof(rt), r);
	tt_table_set_title(t, "What ran in %s, per rank", rt);
	for (size_t i = 0; i < r->nranks; i++) {
		const struct tt_range_rank *rr = &r->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, rr->rank);
		tt_table_set_int(t, k, 1, rr->streams);
		tt_table_set_int(t, k, 2, rr->kernels);
		tt_table_set_int(t, k, 3, rr->kernel_ns);
		tt_table_set_num(t, k, 4, rr->kernel_pct);
		tt_table_set_int(t, k, 5, rr->comm_ns);
		tt_table_set_int(t, k, 6, rr->memcpy_ns);
		tt_table_set_int(t, k, 7, rr->memset_ns);
		tt_table_set_int(t, k, 8, rr->gpu_busy_ns);
		tt_table_set_num(t, k, 9, rr->gpu_busy_pct);
		tt_table_set_int(t, k, 10, rr->cpu_ops);
		tt_table_set_int(t, k, 11, r->t0);
		tt_table_set_int(t, k, 12, r->t1);
		tt_table_set_int(t, k, 13, (int64_t)rr->ri);
	}
	tt_table_add_note(t, "times from the job's first event; every event at its exact ns "
			     "times, the part inside the range counted (the timeline's view)");
	tt_table_add_note(t, "kernel time: the kernels' time summed (streams running at once "
			     "add up); GPU busy: the time any stream of the rank is busy");
	return t;
}

struct tt_table *tt_range_streams_table(const struct tt_model *m, const struct tt_range *r)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_STR, .width = 24},
		{.name = "events", .type = TT_C_INT},
		{.name = "kernel_time(us)", .title = "kernel time", .type = TT_C_DUR},
		{.name = "busy(us)", .title = "busy", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = 5, .width = 12,
		 .bar_max = 100, .role = {TT_ROLE_BAR_COMP}},
		{.name = "idle_gaps", .title = "gaps", .type = TT_C_INT},
		{.name = "max_gap(us)", .title = "largest gap", .type = TT_C_DUR},
		{.name = "max_gap_start(us)", .title = "at", .type = TT_C_DUR, .unit_group = 2},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "track", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("range_streams", cols, (int)TT_ARRAY_SIZE(cols));
	char rt[120];
	tt_range_text(rt, sizeof(rt), r);
	tt_table_set_title(t, "GPU streams in %s: busy time and idle gaps", rt);
	for (size_t i = 0; i < r->nstreams; i++) {
		const struct tt_range_stream *st = &r->streams[i];
		const struct tt_rank *rk = m->ranks[st->ri];
		char lab[96];
		tt_track_label(rk, &rk->tracks[st->track], lab, sizeof(lab));
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_str(t, k, 1, lab);
		tt_table_set_int(t, k, 2, st->events);
		tt_table_set_int(t, k, 3, st->kernel_ns);
		tt_table_set_int(t, k, 4, st->busy_ns);
		tt_table_set_num(t, k, 5, st->busy_pct);
		tt_table_set_int(t, k, 7, st->gaps);
		if (st->gaps) {
			tt_table_set_int(t, k, 8, st->max_gap_ns);
			tt_table_set_int(t, k, 9, st->max_gap_t0 - r->origin);
		}
		tt_table_set_int(t, k, 10, (int64_t)st->ri);
		tt_table_set_int(t, k, 11, st->track);
	}
	tt_table_add_note(t, "gaps: the range's time no event of the stream covers (its ends "
			     "included); at: from the job's first event");
	return t;
}

struct tt_table *tt_range_names_table(const struct tt_range *r, int top)
{
	static const struct tt_col cols[] = {
		{.name = "kind", .type = TT_C_STR},
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "count", .type = TT_C_INT},
		{.name = "time(us)", .title = "time", .type = TT_C_DUR},
		{.name = "range_pctg", .title = "% of range", .type = TT_C_PCT, .prec = 1},
		{.name = "ranks", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("range_names", cols, (int)TT_ARRAY_SIZE(cols));
	char rt[120];
	tt_range_text(rt, sizeof(rt), r);
	tt_table_set_title(t, "Kernels, copies, CPU ops and runtime calls in %s, by time", rt);
	size_t n = top > 0 ? TT_MIN(r->nnames, (size_t)top) : r->nnames;
	for (size_t i = 0; i < n; i++) {
		const struct tt_range_name *nm = &r->names[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, tt_range_kind_name(nm->kind));
		tt_table_set_str(t, k, 1, nm->name);
		tt_table_set_int(t, k, 2, nm->count);
		tt_table_set_int(t, k, 3, nm->ns);
		tt_table_set_num(t, k, 4, nm->range_pct);
		tt_table_set_int(t, k, 5, nm->nranks);
	}
	if (n < r->nnames)
		tt_table_add_note(t, "the %zu names with most time of %zu (--top)", n, r->nnames);
	tt_table_add_note(t, "time: inside the range, summed over the ranks (a CPU op's time "
			     "includes the ops inside it); %% of range: of the range on each rank "
			     "it ran on");
	return t;
}

struct tt_table *tt_range_gaps_table(const struct tt_model *m, const struct tt_range *r, int top)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_STR, .width = 24},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "end(us)", .title = "end", .type = TT_C_DUR, .unit_group = 2},
		{.name = "duration(us)", .title = "duration", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "start_ns", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("range_gaps", cols, (int)TT_ARRAY_SIZE(cols));
	char rt[120];
	tt_range_text(rt, sizeof(rt), r);
	tt_table_set_title(t, "Idle gaps of the GPU streams in %s, longest first", rt);
	size_t n = top > 0 ? TT_MIN(r->ngaps, (size_t)top) : r->ngaps;
	for (size_t i = 0; i < n; i++) {
		const struct tt_range_gap *gp = &r->gaps[i];
		const struct tt_rank *rk = m->ranks[gp->ri];
		char lab[96];
		tt_track_label(rk, &rk->tracks[gp->track], lab, sizeof(lab));
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, gp->rank);
		tt_table_set_str(t, k, 1, lab);
		tt_table_set_int(t, k, 2, gp->t0 - r->origin);
		tt_table_set_int(t, k, 3, gp->t1 - r->origin);
		tt_table_set_int(t, k, 4, gp->t1 - gp->t0);
		tt_table_set_int(t, k, 5, (int64_t)gp->ri);
		tt_table_set_int(t, k, 6, gp->t0);
	}
	if (n < r->ngaps)
		tt_table_add_note(t, "the %zu longest of %zu gaps (--top)", n, r->ngaps);
	tt_table_add_note(t, "start, end: from the job's first event");
	return t;
}

/* Every event of the ranks o selects that overlaps [t0, t1), with its own
 * start and duration (not cut to the range): the raw material the other
 * tables sum, for checking them.  Kinds as in tt_range_kind_name. */
static struct tt_table *events_table(const struct tt_model *m, const struct tt_aopts *o,
				     int64_t t0, int64_t t1)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "track", .type = TT_C_STR, .width = 32},
		{.name = "kind", .type = TT_C_STR},
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "duration(us)", .title = "duration", .type = TT_C_DUR},
		{.name = "ts_ns", .type = TT_C_INT, .hidden_text = true},
		{.name = "dur_ns", .type = TT_C_INT, .hidden_text = true},
		{.name = "gpu", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("range_events", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Every event overlapping the range, in track order");
	int64_t origin = tt_model_origin(m);
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(o, r->rank))
			continue;
		for (uint32_t ti = 0; ti < r->ntracks; ti++) {
			const struct tt_track *tr = &r->tracks[ti];
			if (tr->kind != TT_TRACK_GPU && tr->kind != TT_TRACK_CPU)
				continue;
			char lab[96];
			tt_track_label(r, tr, lab, sizeof(lab));
			uint32_t lo, hi;
			tt_track_window(r, tr, t0, t1, &lo, &hi);
			for (uint32_t i = lo; i < hi; i++) {
				const struct tt_event *e = &r->ev[i];
				int k = tt_range_event_kind(r, e);
				if (k < 0)
					continue;
				/* overlapping (one of zero length: starting inside) */
				if (e->dur ? tt_ev_end(e) <= t0 || e->ts >= t1 : e->ts < t0 || e->ts >= t1)
					continue;
				size_t row = tt_table_add_row(t);
				tt_table_set_int(t, row, 0, r->rank);
				tt_table_set_str(t, row, 1, lab);
				tt_table_set_str(t, row, 2, tt_range_kind_name((enum tt_range_kind)k));
				tt_table_set_str(t, row, 3, tt_ev_name(r, e));
				tt_table_set_int(t, row, 4, e->ts - origin);
				tt_table_set_int(t, row, 5, e->dur);
				tt_table_set_int(t, row, 6, e->ts);
				tt_table_set_int(t, row, 7, e->dur);
				tt_table_set_int(t, row, 8, tr->kind == TT_TRACK_GPU);
			}
		}
	}
	tt_table_add_note(t, "start: from the job's first event; times whole, not cut to the range");
	return t;
}

/* The range o asks for, ns absolute: o->range_from/to after the origin,
 * else the start and the end of the data of the ranks o selects. */
static void tt_range_bounds(const struct tt_model *m, const struct tt_report_opts *o, int64_t *t0,
			    int64_t *t1)
{
	int64_t origin = tt_model_origin(m), end = origin;
	for (size_t i = 0; i < m->nranks; i++)
		if (tt_aopts_has_rank(&o->a, m->ranks[i]->rank) && m->ranks[i]->t1 > end)
			end = m->ranks[i]->t1;
	*t0 = o->range_has_from ? origin + o->range_from : origin;
	*t1 = o->range_has_to ? origin + o->range_to : end;
}

int tt_report_range(const struct tt_model *m, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err)
{
	int64_t t0, t1;
	tt_range_bounds(m, o, &t0, &t1);
	if (t1 <= t0) {
		char a[32], b[32];
		tt_fmt_dur(a, sizeof(a), t0 - tt_model_origin(m));
		tt_fmt_dur(b, sizeof(b), t1 - tt_model_origin(m));
		return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
				  "range: --to (%s) must come after --from (%s)", b, a);
	}
	struct tt_range r;
	tt_range_compute(m, &o->a, t0, t1, &r);
	int top = o->top > 0 ? o->top : 30;
	*out = tt_calloc(5, sizeof(**out));
	(*out)[0] = tt_range_ranks_table(&r);
	(*out)[1] = tt_range_streams_table(m, &r);
	(*out)[2] = tt_range_names_table(&r, top);
	(*out)[3] = tt_range_gaps_table(m, &r, top);
	*n = 4;
	/* the events themselves only when asked for: they may be millions */
	if (o->table && strcmp(o->table, "range_events") == 0)
		(*out)[(*n)++] = events_table(m, &o->a, t0, t1);
	tt_range_free(&r);
	return 0;
}
