/* The rank pane: the GPU streams and CPU threads of one rank, with their
 * busy time and longest event; Enter opens the track's timeline. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

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

struct tt_pane *tt_rank_drill(struct tt_pane *p, size_t row)
{
	double r = pane_num(p->table, row, "rank");
	if (isnan(r))
		return NULL;
	return tt_rank_pane(p->app, (int64_t)r);
}
