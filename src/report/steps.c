/* tracetop report steps: ProfilerStep#N per rank, every step, each step
 * number across ranks, the slowest steps. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/steps.h"
#include "tracetop/stats.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* ---- steps ---- */

static struct tt_table *steps_rank_table(const struct tt_steps *s)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "steps", .type = TT_C_INT},
		{.name = "kept", .type = TT_C_INT},
		{.name = "first_step", .title = "first", .type = TT_C_INT},
		{.name = "last_step", .title = "last", .type = TT_C_INT},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "median(us)", .title = "median", .type = TT_C_DUR},
		{.name = "min(us)", .title = "min", .type = TT_C_DUR},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 5,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("step_ranges", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "ProfilerStep#N per rank: the steps recorded and their durations");
	bool pseudo = false;
	size_t dropped = 0;
	for (size_t i = 0; i < s->nranks; i++) {
		const struct tt_steps_rank *sr = &s->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, sr->rank);
		tt_table_set_int(t, k, 1, sr->pseudo ? 0 : (int64_t)sr->n);
		tt_table_set_int(t, k, 2, sr->pseudo ? 0 : (int64_t)sr->nkept);
		tt_table_set_int(t, k, 10, (int64_t)sr->ri);
		if (!sr->nkept)
			continue;
		if (sr->first_num >= 0) {
			tt_table_set_int(t, k, 3, sr->first_num);
			tt_table_set_int(t, k, 4, sr->last_num);
		}
		tt_table_set_int(t, k, 5, sr->mean_ns);
		tt_table_set_int(t, k, 6, sr->median_ns);
		tt_table_set_int(t, k, 7, sr->min_ns);
		tt_table_set_int(t, k, 8, sr->max_ns);
		pseudo |= sr->pseudo;
		dropped += sr->n - sr->nkept;
	}
	tt_table_add_note(t, "the TensorBoard plugin's steps: from the CPU start (the first "
			     "step: after the GPU work launched before it) to the end of the CPU "
			     "span or of the GPU ops launched inside it, whichever is later; "
			     "never before the previous step's end");
	if (dropped)
		tt_table_add_note(t,
				  "kept: %zu tail steps left out (they launched no GPU op, or fewer "
				  "than 80 %% of the previous step's: the profiler may have missed "
				  "their GPU work), as the plugin does",
				  dropped);
	if (pseudo || !s->nsteps)
		tt_table_add_note(t,
				  "no ProfilerStep#N annotations%s: call prof.step() each iteration "
				  "under torch.profiler.profile(schedule=...)",
				  pseudo ? " (statistics over one step spanning the CPU operators, "
					   "the plugin's step \"0\")"
					 : "");
	return t;
}

static struct tt_table *steps_table(const struct tt_model *m, const struct tt_steps *s)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "cpu_duration(us)", .title = "CPU", .type = TT_C_DUR},
		{.name = "duration(us)", .title = "duration", .type = TT_C_DUR},
		{.name = "gpu_busy_pctg", .title = "GPU busy % of step", .type = TT_C_PCT, .prec = 1},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 4,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
		{.name = "kept", .type = TT_C_STR},
	};
	struct tt_table *t = tt_table_new("steps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Every step of every rank (start: since the rank's first event)");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct tt_step *st = &s->steps[i];
		if (st->pseudo)
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_int(t, k, 1, st->num);
		tt_table_set_str(t, k, 9, st->dropped ? "no (tail)" : "yes");
		tt_table_set_int(t, k, 2, st->t0 - m->ranks[st->ri]->t0);
		tt_table_set_int(t, k, 3, st->cpu_dur);
		tt_table_set_int(t, k, 4, st->t1 - st->t0);
		tt_table_set_num(t, k, 5, st->gpu_busy_pct);
		tt_table_set_int(t, k, 7, (int64_t)st->ri);
		tt_table_set_int(t, k, 8, st->ev);
	}
	return t;
}

/* each step number across ranks */
static struct tt_table *steps_across_table(const struct tt_steps *s)
{
	static const struct tt_col cols[] = {
		{.name = "step", .type = TT_C_INT},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "min(us)", .title = "min", .type = TT_C_DUR},
		{.name = "median(us)", .title = "median", .type = TT_C_DUR},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR},
		{.name = "slowest_rank", .title = "slowest rank", .type = TT_C_INT},
		{.name = "max_over_median_pctg",
		 .title = "max vs median",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 4,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
	};
	struct tt_table *t = tt_table_new("steps_across_ranks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Each step number across ranks: the spread of its duration");
	for (size_t i = 0; i < s->nnums; i++) {
		const struct tt_step_num *w = &s->nums[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->num);
		tt_table_set_int(t, k, 1, w->nranks);
		tt_table_set_int(t, k, 2, w->min_ns);
		tt_table_set_num(t, k, 3, w->median_ns);
		tt_table_set_int(t, k, 4, w->max_ns);
		tt_table_set_int(t, k, 5, s->steps[w->slowest].rank);
		tt_table_set_num(t, k, 6, w->spread_pct);
	}
	return t;
}

struct slow {
	int64_t dur;
	size_t i;
};

static int slow_cmp(const void *a, const void *b)
{
	const struct slow *x = a, *y = b;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static struct tt_table *slowest_table(const struct tt_steps *s, int top)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_INT},
		{.name = "duration(us)", .title = "duration", .type = TT_C_DUR},
		{.name = "step_median(us)", .title = "median of the step", .type = TT_C_DUR},
		{.name = "vs_median_pctg", .title = "vs median", .type = TT_C_PCT, .prec = 1},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("slowest_steps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "The slowest steps across ranks, against the median of the same "
			      "step number over the ranks");
	struct slow *v = tt_malloc((s->nsteps + 1) * sizeof(*v));
	size_t nv = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		if (!s->steps[i].pseudo && !s->steps[i].dropped)
			v[nv++] = (struct slow){s->steps[i].t1 - s->steps[i].t0, i};
	if (nv > 1)
		qsort(v, nv, sizeof(*v), slow_cmp);
	size_t n = TT_MIN(nv, (size_t)top);
	for (size_t j = 0; j < n; j++) {
		const struct tt_step *st = &s->steps[v[j].i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_int(t, k, 1, st->num);
		tt_table_set_int(t, k, 2, v[j].dur);
		tt_table_set_num(t, k, 3, st->num_median_ns);
		tt_table_set_num(t, k, 4, st->vs_median_pct);
		tt_table_set_int(t, k, 5, (int64_t)st->ri);
		tt_table_set_int(t, k, 6, st->ev);
	}
	free(v);
	return t;
}

int tt_report_steps(struct tt_results *res, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_steps *s = tt_res_steps(res);
	struct tt_table *t[4];
	t[0] = steps_rank_table(s);
	t[1] = steps_table(tt_results_model(res), s);
	t[2] = steps_across_table(s);
	t[3] = slowest_table(s, o->top > 0 ? o->top : 10);
	tt_tb_give(out, n, t, 4);
	return 0;
}

