/* The rank pane: the GPU streams and CPU threads of one rank, with their
 * busy time and longest event (tracetop/drill.h); Enter opens the track's
 * timeline. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tracetop/drill.h"
#include "tracetop/util.h"
#include "pane.h"

struct rank_state {
	size_t ri;
	struct tt_track_busy *tracks; /* table row i = tracks[i] */
	size_t n;
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
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	static const char *const kinds[] = {"CPU", "GPU stream", "GPU annotations", "GPU sync",
					    "global"};
	struct tt_table *t = tt_table_new("rank", cols, (int)TT_ARRAY_SIZE(cols));
	s->tracks = tt_rank_tracks(p->app->m, s->ri, &s->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_track_busy *w = &s->tracks[i];
		const struct tt_track *tr = &r->tracks[w->track];
		size_t k = tt_table_add_row(t);
		char label[160];
		tt_track_label(r, tr, label, sizeof(label));
		tt_table_set_str(t, k, 0, label);
		tt_table_set_str(t, k, 1, kinds[tr->kind]);
		tt_table_set_int(t, k, 2, w->events);
		tt_table_set_int(t, k, 3, w->busy_ns);
		tt_table_set_num(t, k, 4, w->busy_pct);
		tt_table_set_str(t, k, 5, w->longest != TT_NONE ? tt_ev_name(r, &r->ev[w->longest]) : "");
		tt_table_set_int(t, k, 6, w->track);
		tt_table_set_int(t, k, 7, (int64_t)s->ri);
	}
	pane_add_bar_at(t, 4, "busy", TT_ROLE_BAR_COMP, 100);
	char sp[32];
	tt_fmt_dur(sp, sizeof(sp), r->t1 - r->t0);
	tt_pane_head(p, TT_ROLE_DIM,
		     "%s: span %s, %u events, %u kernels, %u CPU ops. Enter: timeline of the track",
		     r->file, sp, r->nev, r->n_kernel, r->n_cpu_op);
	tt_pane_set_table(p, t);
	return 0;
}

static struct tt_pane *rank_drill(struct tt_pane *p, size_t row)
{
	struct rank_state *s = p->state;
	if (row >= s->n)
		return NULL;
	const struct tt_rank *r = p->app->m->ranks[s->ri];
	const struct tt_track *tr = &r->tracks[s->tracks[row].track];
	/* open at the track's first event */
	return tt_timeline_new(p->app, s->ri, tr->count ? tr->first : TT_NONE, r->t0);
}

static void rank_close(struct tt_pane *p)
{
	struct rank_state *s = p->state;
	if (s)
		free(s->tracks);
	free(s);
}

static const struct tt_pane_ops rank_ops = {
	.name = "rank",
	.title = "Rank",
	.help = "The GPU streams and CPU threads of one rank: events, the time they are busy "
		"(union of their events) and the longest event.  Enter opens the timeline of the "
		"track.",
	.open = rank_open,
	.close = rank_close,
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
