/* report idle: HTA's idle time breakdown and idle interval statistics per
 * rank and stream, and the largest gaps with what a timeline needs to jump
 * there. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/results.h"
#include "tracetop/util.h"

/* HTA rounds µs values to 2 decimals; the DUR cell holds ns */
static void set_us2(struct tt_table *t, size_t row, int col, double us)
{
	if (isnan(us))
		return;
	tt_table_set_int(t, row, col, (int64_t)llrint(tt_round(us, 2) * 1000.0));
}

static struct tt_table *breakdown_table(const struct tt_model *m, const struct tt_idle *r)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "idle_category", .title = "category", .type = TT_C_STR},
		{.name = "idle_time", .title = "idle", .type = TT_C_DUR},
		{.name = "idle_time_ratio", .title = "ratio", .type = TT_C_NUM, .prec = 2},
		{.name = "idle_bar", .title = "", .type = TT_C_BAR, .bar_of = 4, .width = 20},
	};
	struct tt_table *t = tt_table_new("idle_time_breakdown", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU idle time per stream (consecutive kernel delay %g us)",
			   r->kernel_delay_us);
	for (size_t i = 0; i < r->nstreams; i++) {
		const struct tt_idle_stream *st = &r->streams[i];
		for (int c = 0; c < TT_IDLE_NCAT; c++) {
			const struct tt_idle_catsum *cs = &st->cat[c];
			if (!cs->present)
				continue;
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, st->rank);
			tt_table_set_int(t, k, 1, st->stream);
			tt_table_set_str(t, k, 2, tt_idle_cat_name((enum tt_idle_cat)c));
			set_us2(t, k, 3, (double)cs->idle_ns / 1000.0);
			tt_table_set_num(t, k, 4, tt_round(cs->ratio, 2));
		}
	}
	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].no_gpu)
			tt_table_add_note(t, "rank %lld (%s): no GPU activity, skipped (HTA raises)",
					  (long long)r->ranks[i].rank,
					  m->ranks[r->ranks[i].rank_idx]->file);
	tt_table_add_note(t, "idle_time_ratio is a fraction of the stream's idle time; all ranks "
			     "analysed (HTA's default is rank 0 only: --ranks 0)");
	return t;
}

static struct tt_table *stats_table(const struct tt_idle *r)
{
	static const struct tt_col cols[] = {
		{.name = "idle_category", .title = "category", .type = TT_C_STR},
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "count", .type = TT_C_INT},
		{.name = "mean", .title = "mean us", .type = TT_C_NUM, .prec = 2},
		{.name = "std", .title = "std us", .type = TT_C_NUM, .prec = 2},
		{.name = "min", .title = "min us", .type = TT_C_NUM, .prec = 2},
		{.name = "25%", .title = "25% us", .type = TT_C_NUM, .prec = 2},
		{.name = "50%", .title = "50% us", .type = TT_C_NUM, .prec = 2},
		{.name = "75%", .title = "75% us", .type = TT_C_NUM, .prec = 2},
		{.name = "max", .title = "max us", .type = TT_C_NUM, .prec = 2},
	};
	struct tt_table *t = tt_table_new("idle_interval_stats", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Idle intervals per stream and category");
	for (size_t i = 0; i < r->nstreams; i++) {
		const struct tt_idle_stream *st = &r->streams[i];
		for (int c = 0; c < TT_IDLE_NCAT; c++) {
			const struct tt_idle_catsum *cs = &st->cat[c];
			if (!cs->present)
				continue;
			size_t k = tt_table_add_row(t);
			tt_table_set_str(t, k, 0, tt_idle_cat_name((enum tt_idle_cat)c));
			tt_table_set_int(t, k, 1, st->rank);
			tt_table_set_int(t, k, 2, st->stream);
			tt_table_set_int(t, k, 3, cs->st.count);
			const double v[] = {cs->st.mean, cs->st.std, cs->st.min, cs->st.q25,
					    cs->st.q50,  cs->st.q75, cs->st.max};
			for (int j = 0; j < 7; j++)
				tt_table_set_num(t, k, 4 + j, tt_round(v[j], 2)); /* NaN: empty */
		}
	}
	tt_table_add_note(t, "count 0: the first kernel of a stream has no gap (HTA keeps the row)");
	return t;
}

struct tt_table *tt_idle_gaps_table(const struct tt_model *m, const struct tt_idle *r,
				    const uint32_t *gaps, size_t n)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "idle_category", .title = "category", .type = TT_C_STR},
		{.name = "prev_kernel", .title = "kernel before", .type = TT_C_STR, .width = 40},
		{.name = "next_kernel", .title = "kernel after", .type = TT_C_STR, .width = 40},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "track", .type = TT_C_INT, .hidden_text = true},
		{.name = "prev_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "next_event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("idle_gaps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Largest gaps between kernels of a stream (start: since the rank's "
			      "first GPU event)");
	int64_t *t0 = tt_calloc(m->nranks + 1, sizeof(*t0)); /* by rank index */
	for (size_t j = 0; j < r->nranks; j++)
		t0[r->ranks[j].rank_idx] = r->ranks[j].gpu_t0;
	for (size_t i = 0; i < n; i++) {
		const struct tt_idle_gap *g = &r->gaps[gaps[i]];
		const struct tt_idle_stream *st = &r->streams[g->stream_idx];
		const struct tt_rank *rk = m->ranks[g->rank_idx];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_int(t, k, 1, st->stream);
		tt_table_set_int(t, k, 2, g->start - t0[g->rank_idx]);
		tt_table_set_int(t, k, 3, g->dur);
		tt_table_set_str(t, k, 4, tt_idle_cat_name((enum tt_idle_cat)g->cat));
		tt_table_set_str(t, k, 5, tt_ev_name(rk, &rk->ev[g->prev]));
		tt_table_set_str(t, k, 6, tt_ev_name(rk, &rk->ev[g->next]));
		tt_table_set_int(t, k, 7, g->rank_idx);
		tt_table_set_int(t, k, 8, g->track);
		tt_table_set_int(t, k, 9, g->prev);
		tt_table_set_int(t, k, 10, g->next);
	}
	free(t0);
	return t;
}

static bool want(const struct tt_report_opts *o, const char *name)
{
	return !o->table || strcmp(o->table, name) == 0;
}

int tt_report_idle(struct tt_results *res, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_idle *r = tt_res_idle(res);
	size_t top = TT_MIN(r->ngaps, (size_t)(o->top > 0 ? o->top : 20));
	*out = tt_malloc(3 * sizeof(**out));
	*n = 0;
	if (want(o, "idle_time_breakdown"))
		(*out)[(*n)++] = breakdown_table(m, r);
	if (want(o, "idle_interval_stats"))
		(*out)[(*n)++] = stats_table(r);
	if (want(o, "idle_gaps")) {
		struct tt_table *g = tt_idle_gaps_table(m, r, r->by_dur, top);
		if (r->ngaps > top)
			tt_table_add_note(g, "%zu of %zu gaps shown (--top N)", top, r->ngaps);
		(*out)[(*n)++] = g;
	}
	return 0;
}
