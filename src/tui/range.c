/* The range pane: what ran between the timeline's mark and cursor (A) --
 * per rank kernel time and GPU busy time above, and one of four tables
 * (Tab cycles): a row per rank, kernels and ops by time, the GPU streams
 * with their busy % and gaps, the idle gaps longest first.  Computed once in open() by
 * tt_range_compute; the tables are the report's (tracetop report range). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/range.h"
#include "tracetop/report.h"
#include "tracetop/util.h"
#include "pane.h"

enum { RV_RANKS, RV_NAMES, RV_STREAMS, RV_GAPS, RV_COUNT };

static const char *const view_name[RV_COUNT] = {"by rank", "by name", "streams", "idle gaps"};

struct range_state {
	int64_t t0, t1;
	int64_t *ranks; /* rank numbers */
	size_t nranks;
	struct tt_range r;
	int view;
};

static void show_view(struct tt_pane *p)
{
	struct range_state *s = p->state;
	const struct tt_model *m = p->app->m;
	struct tt_table *t = s->view == RV_RANKS   ? tt_range_ranks_table(&s->r) :
			     s->view == RV_NAMES   ? tt_range_names_table(&s->r, 0) :
			     s->view == RV_STREAMS ? tt_range_streams_table(m, &s->r) :
						     tt_range_gaps_table(m, &s->r, 0);
	p->sort_col = -1;
	p->filter[0] = '\0';
	tt_pane_set_table(p, t);
	p->cursor = p->top = 0;
	char tab[64];
	snprintf(tab, sizeof(tab), "%s", view_name[(s->view + 1) % RV_COUNT]);
	snprintf(p->subtitle, sizeof(p->subtitle), "range: %s (Tab: %s)", view_name[s->view], tab);
}

static int range_open(struct tt_pane *p)
{
	struct range_state *s = p->state;
	struct tt_aopts o = p->app->ropts.a;
	o.ranks = s->ranks;
	o.nranks = s->nranks;
	tt_range_compute(p->app->m, &o, s->t0, s->t1, &s->r);
	const struct tt_range *r = &s->r;
	char rt[160];
	tt_range_text(rt, sizeof(rt), r);
	tt_pane_head(p, TT_ROLE_HEADER, "%s from the job's first event", rt);
	tt_ui_status(p->app, TT_ROLE_DEFAULT, "what ran between the mark and the cursor");
	/* per rank: the numbers a person came for (several ranks: a line each,
	 * up to 4, then the totals) */
	int64_t kern = 0, busy = 0, comm = 0;
	uint32_t nk = 0;
	for (size_t i = 0; i < r->nranks; i++) {
		const struct tt_range_rank *rr = &r->ranks[i];
		tt_sat_acc(&kern, rr->kernel_ns);
		tt_sat_acc(&busy, rr->gpu_busy_ns);
		tt_sat_acc(&comm, rr->comm_ns);
		nk += rr->kernels;
		if (r->nranks > 4)
			continue;
		char kt[32], bt[32], ct[32];
		tt_fmt_dur(kt, sizeof(kt), rr->kernel_ns);
		tt_fmt_dur(bt, sizeof(bt), rr->gpu_busy_ns);
		tt_fmt_dur(ct, sizeof(ct), rr->comm_ns);
		tt_pane_head(p, TT_ROLE_DEFAULT,
			     "rank %lld: kernel time %s in %u kernels (%.1f%% of the range, "
			     "streams summed), communication %s; GPU busy %s (%.1f%%: any of "
			     "%u streams busy)",
			     (long long)rr->rank, kt, rr->kernels, rr->kernel_pct, ct, bt,
			     rr->gpu_busy_pct, rr->streams);
	}
	if (r->nranks > 4) {
		char kt[32], bt[32], ct[32];
		tt_fmt_dur(kt, sizeof(kt), kern);
		tt_fmt_dur(bt, sizeof(bt), busy);
		tt_fmt_dur(ct, sizeof(ct), comm);
		tt_pane_head(p, TT_ROLE_DEFAULT,
			     "%zu ranks: kernel time %s in %u kernels, communication %s; GPU busy "
			     "%s summed over the ranks",
			     r->nranks, kt, nk, ct, bt);
	}
	tt_pane_head(p, TT_ROLE_DIM, "times inside the range only; w writes the table as CSV");
	/* several ranks: a row each first; one: its names */
	s->view = r->nranks > 1 ? RV_RANKS : RV_NAMES;
	show_view(p);
	return 0;
}

static void range_close(struct tt_pane *p)
{
	struct range_state *s = p->state;
	if (!s)
		return;
	tt_range_free(&s->r);
	free(s->ranks);
	free(s);
}

static int range_key(struct tt_pane *p, enum tt_action act)
{
	struct range_state *s = p->state;
	if (act == TT_ACT_NEXT_PANE || act == TT_ACT_PREV_PANE) {
		s->view = (s->view + (act == TT_ACT_NEXT_PANE ? 1 : RV_COUNT - 1)) % RV_COUNT;
		show_view(p);
		return TT_R_REDRAW;
	}
	return TT_R_UNHANDLED;
}

/* Enter: a stream (at the middle of the range) or a gap (at its start)
 * opens the timeline there (through the app: the timeline opens this pane,
 * so it may not call the timeline).  Table row i is streams[i] or gaps[i]
 * (the report's tables, every row). */
static struct tt_pane *range_drill(struct tt_pane *p, size_t row)
{
	struct range_state *s = p->state;
	const struct tt_range *r = &s->r;
	if (s->view == RV_RANKS && row < r->nranks)
		tt_ui_open_timeline(p->app, r->ranks[row].ri, TT_NONE, s->t0 + (s->t1 - s->t0) / 2);
	else if (s->view == RV_STREAMS && row < r->nstreams)
		tt_ui_open_timeline(p->app, r->streams[row].ri, TT_NONE,
				    s->t0 + (s->t1 - s->t0) / 2);
	else if (s->view == RV_GAPS && row < r->ngaps)
		tt_ui_open_timeline(p->app, r->gaps[row].ri, TT_NONE, r->gaps[row].t0);
	return NULL;
}

static const struct tt_pane_ops tt_range_ops = {
	.name = "range",
	.title = "Range",
	.help = "What ran between the timeline's mark and cursor (the timeline's A): per rank "
		"the kernel time (summed over the kernels, streams running at once add up), the "
		"communication kernels' time and the GPU busy time (any stream busy), then one "
		"of four tables, Tab cycling them: a row per rank with those numbers (the first "
		"shown when the range covers several ranks; Enter opens that rank's timeline); "
		"kernels, copies, CPU ops and runtime calls by "
		"their time inside the range (a CPU op's time includes the ops inside it); the "
		"GPU streams with busy %, their idle gaps and the largest; every idle gap, "
		"longest first (Enter opens the timeline there).  Every event counts with its "
		"exact times, cut at the range's ends.  tracetop report range --from T --to T "
		"prints the same tables.",
	.open = range_open,
	.close = range_close,
	.key = range_key,
	.drill = range_drill,
};

struct tt_pane *tt_range_pane(struct tt_app *a, const size_t *ri, size_t n, int64_t t0,
			      int64_t t1)
{
	struct tt_pane *p = tt_pane_new(a, &tt_range_ops);
	struct range_state *s = tt_calloc(1, sizeof(*s));
	s->t0 = t0;
	s->t1 = t1;
	s->ranks = tt_calloc(n + 1, sizeof(*s->ranks));
	for (size_t i = 0; i < n; i++)
		if (ri[i] < a->m->nranks)
			s->ranks[s->nranks++] = a->m->ranks[ri[i]]->rank;
	p->state = s;
	return p;
}
