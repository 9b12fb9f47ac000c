/* tracetop report utilization | distributed | operators | memory | source |
 * steps | advice: the TensorBoard views as tables.  Durations are TT_C_DUR cells in ns (µs in
 * CSV/JSON); byte counts are integers in CSV/JSON and "1.5 GB" text in the text table. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/tbviews.h"
#include "tracetop/util.h"

/* ---- shared by the reports ---- */

/* *out = a new array holding t[0..k) */
static void tb_give(struct tt_table ***out, size_t *n, struct tt_table **t, size_t k)
{
	*out = tt_malloc((k ? k : 1) * sizeof(**out));
	memcpy(*out, t, k * sizeof(*t));
	*n = k;
}

/* Is a long table (a time series) wanted: CSV/JSON output, or --table
 * naming it? */
static bool tb_want(const struct tt_report_opts *o, const char *table)
{
	return o->format != TT_FMT_TABLE || (o->table && strcmp(o->table, table) == 0);
}

/* bytes >= 0: an integer cell (CSV/JSON) and its "1.5 GB" text (text table) */
static void tb_set_bytes(struct tt_table *t, size_t row, int col_int, int col_text, int64_t bytes)
{
	if (bytes < 0)
		return;
	char b[32];
	tt_table_set_int(t, row, col_int, bytes);
	tt_fmt_bytes(b, sizeof(b), (double)bytes);
	tt_table_set_str(t, row, col_text, b);
}

/* ---- utilization ---- */

static struct tt_table *util_dev_table(const struct tt_util *u)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_INT},
		{.name = "streams", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "gpu_span(us)", .title = "GPU span", .type = TT_C_DUR},
		{.name = "gpu_busy(us)", .title = "busy", .type = TT_C_DUR},
		{.name = "gpu_utilization_pctg", .title = "util %", .type = TT_C_PCT, .prec = 1},
		{.name = "util_bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 6,
		 .bar_max = 100,
		 .width = 12,
		 .role = {TT_ROLE_BAR_COMP}},
		{.name = "est_sm_efficiency_pctg",
		 .title = "est. SM eff. %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "num_sms", .title = "SMs", .type = TT_C_INT},
		{.name = "busy_over_time",
		 .title = "busy over time",
		 .type = TT_C_STR,
		 .width = 64,
		 .hidden_csv = true},
		{.name = "kernel_busy(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "memcpy_memset", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("gpu_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(
		t, "GPU utilisation per device: busy = union of kernels, memcpy and "
		   "memset over its streams, of the span from its first to its last GPU op");
	bool from_args = false, no_sms = false;
	char spark[400];
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, d->rank);
		tt_table_set_int(t, k, 1, d->device);
		tt_table_set_int(t, k, 2, d->nstreams);
		tt_table_set_int(t, k, 3, d->nkernels);
		tt_table_set_int(t, k, 4, d->t1 - d->t0);
		tt_table_set_int(t, k, 5, d->busy_ns);
		tt_table_set_num(t, k, 6, d->util_pct);
		tt_table_set_num(t, k, 8, d->sm_eff_pct);
		tt_table_set_num(t, k, 9, d->occ_pct);
		if (d->num_sms > 0)
			tt_table_set_int(t, k, 10, d->num_sms);
		tt_sparkline(spark, sizeof(spark), d->series, u->nbuckets, 1.0);
		tt_table_set_str(t, k, 11, spark);
		tt_table_set_int(t, k, 12, d->kernel_busy_ns);
		tt_table_set_int(t, k, 13, d->nmem);
		tt_table_set_int(t, k, 14, (int64_t)d->ri);
		from_args |= d->sm_from_args;
		no_sms |= d->num_sms <= 0;
	}
	tt_table_add_note(t, "est. SM efficiency: per kernel min(blocks / SMs, 1), blocks = grid "
			     "x*y*z, weighted by kernel time; est. occupancy: the kernels' `est. "
			     "achieved occupancy %%` weighted by kernel time");
	if (from_args || no_sms)
		tt_table_add_note(t, "some devices have no SM count in deviceProperties: their SM "
				     "efficiency uses the kernels' `blocks per SM` arg");
	if (u->nranks_nogpu)
		tt_table_add_note(t, "%u of %u ranks have no GPU activity", u->nranks_nogpu,
				  u->nranks_sel);
	if (!u->nranks_sel)
		tt_table_add_note(t, "no rank selected");
	return t;
}

static struct tt_table *util_kernel_table(const struct tt_util *u, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 60},
		{.name = "count", .type = TT_C_INT},
		{.name = "sum(us)", .title = "sum", .type = TT_C_DUR},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR},
		{.name = "time_pctg", .title = "time %", .type = TT_C_PCT, .prec = 1},
		{.name = "est_sm_efficiency_pctg",
		 .title = "est. SM eff. %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "est_achieved_occupancy_pctg",
		 .title = "est. occupancy %",
		 .type = TT_C_PCT,
		 .prec = 1},
		{.name = "blocks", .type = TT_C_INT},
		{.name = "threads_per_block", .title = "threads/block", .type = TT_C_INT},
		{.name = "registers_per_thread", .title = "regs", .type = TT_C_INT},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("kernel_utilization", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Kernels by total time, with their estimated SM efficiency and "
			      "achieved occupancy (launch parameters of the longest instance)");
	int64_t total = 0;
	for (size_t i = 0; i < u->nkernels; i++)
		total += u->kernels[i].sum_ns;
	size_t n = u->nkernels;
	size_t top = o->top > 0 ? (size_t)o->top : 30;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	for (size_t i = 0; i < n; i++) {
		const struct tt_util_kernel *k = &u->kernels[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, k->name);
		tt_table_set_int(t, r, 1, (int64_t)k->count);
		tt_table_set_int(t, r, 2, k->sum_ns);
		tt_table_set_num(t, r, 3, (double)k->sum_ns / (double)k->count);
		tt_table_set_int(t, r, 4, k->max_ns);
		tt_table_set_num(t, r, 5,
				 total > 0 ? 100.0 * (double)k->sum_ns / (double)total : NAN);
		tt_table_set_num(t, r, 6, k->sm_eff_pct);
		tt_table_set_num(t, r, 7, k->occ_pct);
		if (k->blocks > 0)
			tt_table_set_int(t, r, 8, k->blocks);
		if (k->threads > 0)
			tt_table_set_int(t, r, 9, k->threads);
		if (k->regs > 0)
			tt_table_set_int(t, r, 10, k->regs);
		tt_table_set_int(t, r, 11, k->nranks);
		tt_table_set_int(t, r, 12, (int64_t)k->ri);
		tt_table_set_int(t, r, 13, k->longest);
	}
	if (n < u->nkernels)
		tt_table_add_note(t, "%zu of %zu kernels shown (--top N; CSV and JSON list all)", n,
				  u->nkernels);
	return t;
}

static struct tt_table *util_series_table(const struct tt_util *u)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_INT},
		{.name = "bucket", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR},
		{.name = "end(us)", .title = "end", .type = TT_C_DUR},
		{.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT, .prec = 1},
	};
	struct tt_table *t = tt_table_new("utilization_timeline", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t,
			   "Busy share of each of %d time buckets of a device's GPU span "
			   "(times from the span's start)",
			   u->nbuckets);
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		int64_t span = d->t1 - d->t0;
		for (int b = 0; b < u->nbuckets && span > 0; b++) {
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			tt_table_set_int(t, k, 1, d->device);
			tt_table_set_int(t, k, 2, b);
			tt_table_set_int(t, k, 3, (int64_t)((double)span * b / u->nbuckets));
			tt_table_set_int(t, k, 4,
					 b + 1 == u->nbuckets
						 ? span
						 : (int64_t)((double)span * (b + 1) / u->nbuckets));
			tt_table_set_num(t, k, 5, 100.0 * d->series[b]);
		}
	}
	return t;
}

int tt_report_utilization(const struct tt_model *m, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_util u;
	tt_util_compute(m, &o->a, TT_UTIL_BUCKETS, &u);
	struct tt_table *t[3];
	size_t k = 0;
	t[k++] = util_dev_table(&u);
	t[k++] = util_kernel_table(&u, o);
	if (tb_want(o, "utilization_timeline"))
		t[k++] = util_series_table(&u);
	tt_util_free(&u);
	tb_give(out, n, t, k);
	return 0;
}

/* ---- steps ---- */

static struct tt_table *steps_rank_table(const struct tt_steps *s)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "steps", .type = TT_C_INT},
		{.name = "first_step", .title = "first", .type = TT_C_INT},
		{.name = "last_step", .title = "last", .type = TT_C_INT},
		{.name = "mean(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "median(us)", .title = "median", .type = TT_C_DUR},
		{.name = "min(us)", .title = "min", .type = TT_C_DUR},
		{.name = "max(us)", .title = "max", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 4,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("step_ranges", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "ProfilerStep#N per rank: the steps recorded and their durations");
	for (size_t i = 0; i < s->nranks; i++) {
		const struct tt_steps_rank *sr = &s->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, sr->rank);
		tt_table_set_int(t, k, 1, (int64_t)sr->n);
		tt_table_set_int(t, k, 9, (int64_t)sr->ri);
		if (!sr->n)
			continue;
		tt_table_set_int(t, k, 2, sr->first_num);
		tt_table_set_int(t, k, 3, sr->last_num);
		tt_table_set_int(t, k, 4, sr->mean_ns);
		tt_table_set_int(t, k, 5, sr->median_ns);
		tt_table_set_int(t, k, 6, sr->min_ns);
		tt_table_set_int(t, k, 7, sr->max_ns);
	}
	tt_table_add_note(t, "a step lasts from its CPU start to the end of its CPU span or of "
			     "the last GPU op launched inside it, whichever is later (the "
			     "TensorBoard plugin's steps; never before the previous step's end)");
	if (!s->nsteps)
		tt_table_add_note(t,
				  "no ProfilerStep#N annotations: call prof.step() each iteration "
				  "under torch.profiler.profile(schedule=...)");
	return t;
}

static struct tt_table *steps_table(const struct tt_model *m, const struct tt_steps *s)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_INT},
		{.name = "start(us)", .title = "start", .type = TT_C_DUR},
		{.name = "cpu_duration(us)", .title = "CPU", .type = TT_C_DUR},
		{.name = "duration(us)", .title = "duration", .type = TT_C_DUR},
		{.name = "gpu_busy_pctg", .title = "GPU busy %", .type = TT_C_PCT, .prec = 1},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 4,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("steps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Every step of every rank (start: since the rank's first event)");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct tt_step *st = &s->steps[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_int(t, k, 1, st->num);
		tt_table_set_int(t, k, 2, st->t0 - m->ranks[st->ri]->t0);
		tt_table_set_int(t, k, 3, st->cpu_dur);
		tt_table_set_int(t, k, 4, st->t1 - st->t0);
		int64_t d = st->t1 - st->t0;
		tt_table_set_num(t, k, 5,
				 d > 0 ? 100.0 * (double)st->gpu_busy_ns / (double)d : NAN);
		tt_table_set_int(t, k, 7, (int64_t)st->ri);
		tt_table_set_int(t, k, 8, st->ev);
	}
	return t;
}

struct stepnum {
	int64_t num;
	size_t i; /* index into steps */
};

static int stepnum_cmp(const void *a, const void *b)
{
	const struct stepnum *x = a, *y = b;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* per step number: median across ranks, into med[i] for each step i */
static struct tt_table *steps_across_table(const struct tt_steps *s, double *med)
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
	struct stepnum *v = tt_malloc((s->nsteps + 1) * sizeof(*v));
	double *d = tt_malloc((s->nsteps + 1) * sizeof(*d));
	for (size_t i = 0; i < s->nsteps; i++)
		v[i] = (struct stepnum){s->steps[i].num, i};
	if (s->nsteps > 1)
		qsort(v, s->nsteps, sizeof(*v), stepnum_cmp);
	for (size_t a = 0; a < s->nsteps;) {
		size_t b = a;
		int64_t mn = INT64_MAX, mx = INT64_MIN;
		size_t slow = v[a].i;
		while (b < s->nsteps && v[b].num == v[a].num) {
			const struct tt_step *st = &s->steps[v[b].i];
			int64_t dur = st->t1 - st->t0;
			d[b - a] = (double)dur;
			mn = TT_MIN(mn, dur);
			if (dur > mx) {
				mx = dur;
				slow = v[b].i;
			}
			b++;
		}
		double md = tt_tb_median(d, b - a);
		for (size_t k = a; k < b; k++)
			med[v[k].i] = md;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, v[a].num);
		tt_table_set_int(t, k, 1, (int64_t)(b - a));
		tt_table_set_int(t, k, 2, mn);
		tt_table_set_num(t, k, 3, md);
		tt_table_set_int(t, k, 4, mx);
		tt_table_set_int(t, k, 5, s->steps[slow].rank);
		tt_table_set_num(t, k, 6, md > 0 ? 100.0 * ((double)mx - md) / md : NAN);
		a = b;
	}
	free(v);
	free(d);
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

static struct tt_table *slowest_table(const struct tt_steps *s, const double *med, int top)
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
	for (size_t i = 0; i < s->nsteps; i++)
		v[i] = (struct slow){s->steps[i].t1 - s->steps[i].t0, i};
	if (s->nsteps > 1)
		qsort(v, s->nsteps, sizeof(*v), slow_cmp);
	size_t n = TT_MIN(s->nsteps, (size_t)top);
	for (size_t j = 0; j < n; j++) {
		const struct tt_step *st = &s->steps[v[j].i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, st->rank);
		tt_table_set_int(t, k, 1, st->num);
		tt_table_set_int(t, k, 2, v[j].dur);
		tt_table_set_num(t, k, 3, med[v[j].i]);
		tt_table_set_num(t, k, 4,
				 med[v[j].i] > 0
					 ? 100.0 * ((double)v[j].dur - med[v[j].i]) / med[v[j].i]
					 : NAN);
		tt_table_set_int(t, k, 5, (int64_t)st->ri);
		tt_table_set_int(t, k, 6, st->ev);
	}
	free(v);
	return t;
}

int tt_report_steps(const struct tt_model *m, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_steps s;
	tt_steps_compute(m, &o->a, &s);
	double *med = tt_calloc(s.nsteps + 1, sizeof(*med));
	struct tt_table *t[4];
	t[0] = steps_rank_table(&s);
	t[2] = steps_across_table(&s, med);
	t[3] = slowest_table(&s, med, o->top > 0 ? o->top : 10);
	t[1] = steps_table(m, &s);
	free(med);
	tt_steps_free(&s);
	tb_give(out, n, t, 4);
	return 0;
}

/* ---- memory ---- */

static const char *const mem_hint =
	"no [memory] events: record them with torch.profiler.profile(profile_memory=True, "
	"record_shapes=True)";

static void dev_label(char *buf, size_t n, int64_t device)
{
	if (device < 0)
		snprintf(buf, n, "cpu");
	else
		snprintf(buf, n, "cuda:%lld", (long long)device);
}

static struct tt_table *mem_dev_table(const struct tt_model *m, const struct tt_mem *mm)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "events", .type = TT_C_INT},
		{.name = "allocations", .title = "allocs", .type = TT_C_INT},
		{.name = "frees", .type = TT_C_INT},
		{.name = "peak_allocated", .type = TT_C_INT, .hidden_text = true},
		{.name = "peak_allocated_text",
		 .title = "peak allocated",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "peak_time(us)", .title = "at", .type = TT_C_DUR},
		{.name = "peak_reserved", .type = TT_C_INT, .hidden_text = true},
		{.name = "peak_reserved_text",
		 .title = "peak reserved",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "device_memory_pctg", .title = "of device", .type = TT_C_PCT, .prec = 1},
		{.name = "live_at_peak", .title = "alive at peak", .type = TT_C_INT},
		{.name = "live_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "live_bytes_text",
		 .title = "their size",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "before_trace", .type = TT_C_INT, .hidden_text = true},
		{.name = "before_trace_text",
		 .title = "from before",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "allocated_over_time",
		 .title = "allocated over time",
		 .type = TT_C_STR,
		 .width = 64,
		 .hidden_csv = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "device_id", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("memory_devices", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Memory per rank and device from [memory] events: the peak of the "
			      "allocated total, and the allocations alive at the peak");
	char buf[64], spark[400];
	float series[TT_UTIL_BUCKETS];
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		const struct tt_rank *r = m->ranks[d->ri];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, d->rank);
		dev_label(buf, sizeof(buf), d->device);
		tt_table_set_str(t, k, 1, buf);
		tt_table_set_int(t, k, 2, d->nevents);
		tt_table_set_int(t, k, 3, d->nallocs);
		tt_table_set_int(t, k, 4, d->nfrees);
		tb_set_bytes(t, k, 5, 6, d->peak_alloc);
		tt_table_set_int(t, k, 7, d->peak_ts - r->t0);
		tb_set_bytes(t, k, 8, 9, d->peak_reserved);
		if (d->total_mem > 0)
			tt_table_set_num(t, k, 10,
					 100.0 * (double)TT_MAX(d->peak_alloc, d->peak_reserved) /
						 (double)d->total_mem);
		tt_table_set_int(t, k, 11, (int64_t)d->nlive);
		tb_set_bytes(t, k, 12, 13, d->live_bytes);
		tb_set_bytes(t, k, 14, 15, TT_MAX(0, d->peak_alloc - d->live_bytes));
		/* the curve over the rank's span */
		int64_t a = r->t0, span = r->t1 - r->t0;
		for (int b = 0; b < TT_UTIL_BUCKETS; b++) {
			int64_t x = a + span * b / TT_UTIL_BUCKETS;
			int64_t y = a + span * (b + 1) / TT_UTIL_BUCKETS;
			int64_t v = tt_mem_max(d, x, y > x ? y : x + 1, false);
			series[b] = v > 0 ? (float)v : 0;
		}
		tt_sparkline(spark, sizeof(spark), series, TT_UTIL_BUCKETS, (double)d->peak_alloc);
		tt_table_set_str(t, k, 16, spark);
		tt_table_set_int(t, k, 17, (int64_t)d->ri);
		tt_table_set_int(t, k, 18, d->device);
	}
	if (!mm->ndevs)
		tt_table_add_note(t, "%s", mem_hint);
	else
		tt_table_add_note(t, "from before: allocated before the trace started (the peak "
				     "minus the allocations alive at it that the trace saw)");
	return t;
}

static struct tt_table *mem_live_table(const struct tt_model *m, const struct tt_mem *mm,
				       const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "size", .type = TT_C_STR, .hidden_csv = true},
		{.name = "allocated_at(us)", .title = "allocated at", .type = TT_C_DUR},
		{.name = "age_at_peak(us)", .title = "age at peak", .type = TT_C_DUR},
		{.name = "address", .type = TT_C_STR},
		{.name = "operator", .type = TT_C_STR, .width = 60},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
		{.name = "op_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "device_id", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("memory_live_at_peak", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Allocations alive at the peak, largest first, with the operator "
			      "that made each (times since the rank's first event)");
	size_t top = o->top > 0 ? (size_t)o->top : 20;
	char buf[64];
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		const struct tt_rank *r = m->ranks[d->ri];
		size_t n = d->nlive;
		if (o->format == TT_FMT_TABLE && n > top)
			n = top;
		for (size_t j = 0; j < n; j++) {
			const struct tt_mem_live *a = &mm->live[d->first_live + j];
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			dev_label(buf, sizeof(buf), d->device);
			tt_table_set_str(t, k, 1, buf);
			tb_set_bytes(t, k, 2, 3, a->bytes);
			tt_table_set_int(t, k, 4, a->ts - r->t0);
			tt_table_set_int(t, k, 5, d->peak_ts - a->ts);
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)a->addr);
			tt_table_set_str(t, k, 6, buf);
			tt_table_set_str(t, k, 7,
					 a->op != TT_NONE ? tt_ev_name(r, &r->ev[a->op])
							  : "(no operator)");
			tt_table_set_int(t, k, 8, (int64_t)a->ri);
			tt_table_set_int(t, k, 9, a->ev);
			if (a->op != TT_NONE)
				tt_table_set_int(t, k, 10, a->op);
			tt_table_set_int(t, k, 11, d->device);
		}
		if (n < d->nlive)
			tt_table_add_note(t, "rank %lld %s: %zu of %zu allocations shown (--top N)",
					  (long long)d->rank, buf, n, d->nlive);
	}
	if (!mm->ndevs)
		tt_table_add_note(t, "%s", mem_hint);
	return t;
}

static struct tt_table *mem_curve_table(const struct tt_model *m, const struct tt_mem *mm)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "time(us)", .title = "time", .type = TT_C_DUR},
		{.name = "allocated", .type = TT_C_INT},
		{.name = "reserved", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("memory_curve", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Allocated and reserved totals after each [memory] event (time "
			      "since the rank's first event)");
	char buf[32];
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		dev_label(buf, sizeof(buf), d->device);
		for (size_t j = 0; j < d->npts; j++) {
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			tt_table_set_str(t, k, 1, buf);
			tt_table_set_int(t, k, 2, d->pts[j].ts - m->ranks[d->ri]->t0);
			tt_table_set_int(t, k, 3, d->pts[j].alloc);
			if (d->pts[j].reserved >= 0)
				tt_table_set_int(t, k, 4, d->pts[j].reserved);
		}
	}
	return t;
}

int tt_report_memory(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_mem mm;
	tt_mem_compute(m, &o->a, &mm);
	struct tt_table *t[3];
	size_t k = 0;
	t[k++] = mem_dev_table(m, &mm);
	t[k++] = mem_live_table(m, &mm, o);
	if (tb_want(o, "memory_curve"))
		t[k++] = mem_curve_table(m, &mm);
	tt_mem_free(&mm);
	tb_give(out, n, t, k);
	return 0;
}

/* ---- source ---- */

static const char *const src_hint =
	"no Python stacks (no python_function events, no `Call stack` args): record them with "
	"torch.profiler.profile(with_stack=True)";

static struct tt_table *src_stack_table(const struct tt_src *s, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "operator", .type = TT_C_STR, .width = 40},
		{.name = "calls", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "frames", .type = TT_C_INT},
		{.name = "innermost_frame",
		 .title = "innermost frame",
		 .type = TT_C_STR,
		 .width = 60},
		{.name = "from", .type = TT_C_STR},
		{.name = "stack", .type = TT_C_STR, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("source_stacks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Operators by the Python stack that called them (innermost frame "
			      "first), by host time");
	size_t n = s->nstacks, top = o->top > 0 ? (size_t)o->top : 50;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	char frame[512];
	for (size_t i = 0; i < n; i++) {
		const struct tt_src_stack *st = &s->stacks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, st->op);
		tt_table_set_int(t, k, 1, (int64_t)st->calls);
		tt_table_set_int(t, k, 2, st->host_ns);
		tt_table_set_int(t, k, 3, st->nframes);
		size_t fl = strcspn(st->stack, "\n");
		snprintf(frame, sizeof(frame), "%.*s", (int)TT_MIN(fl, sizeof(frame) - 1),
			 st->stack);
		tt_table_set_str(t, k, 4, frame);
		tt_table_set_str(t, k, 5, st->python ? "python_function" : "Call stack");
		/* CSV: frames separated by " | " on one line */
		char *flat = tt_strdup(st->stack);
		for (char *p = flat; *p; p++)
			if (*p == '\n')
				*p = '|';
		tt_table_set_str(t, k, 6, flat);
		free(flat);
		tt_table_set_int(t, k, 7, (int64_t)st->ri);
		tt_table_set_int(t, k, 8, st->ev);
	}
	if (n < s->nstacks)
		tt_table_add_note(t, "%zu of %zu stacks shown (--top N)", n, s->nstacks);
	if (!s->nstacks)
		tt_table_add_note(t, "%s", src_hint);
	return t;
}

static struct tt_table *src_line_table(const struct tt_src *s, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "frame", .type = TT_C_STR, .width = 60},
		{.name = "file", .type = TT_C_STR, .hidden_text = true},
		{.name = "line", .type = TT_C_INT, .hidden_text = true},
		{.name = "calls", .type = TT_C_INT},
		{.name = "operators", .title = "ops", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 5,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
	};
	struct tt_table *t = tt_table_new("source_lines", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Source lines that call operators (the innermost frame of each "
			      "stack), by the host time of the operators they call");
	size_t n = s->nlines, top = o->top > 0 ? (size_t)o->top : 50;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	char file[512];
	for (size_t i = 0; i < n; i++) {
		const struct tt_src_line *ln = &s->lines[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, ln->frame);
		int64_t line;
		if (tt_tb_frame_parse(ln->frame, strlen(ln->frame), file, sizeof(file), &line)) {
			tt_table_set_str(t, k, 1, file);
			tt_table_set_int(t, k, 2, line);
		}
		tt_table_set_int(t, k, 3, (int64_t)ln->calls);
		tt_table_set_int(t, k, 4, ln->nops);
		tt_table_set_int(t, k, 5, ln->host_ns);
	}
	if (n < s->nlines)
		tt_table_add_note(t, "%zu of %zu lines shown (--top N)", n, s->nlines);
	if (!s->nlines)
		tt_table_add_note(t, "%s", src_hint);
	return t;
}

int tt_report_source(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_src s;
	tt_src_compute(m, &o->a, &s);
	struct tt_table *t[2];
	t[0] = src_stack_table(&s, o);
	t[1] = src_line_table(&s, o);
	tt_src_free(&s);
	tb_give(out, n, t, 2);
	return 0;
}

/* ---- distributed ---- */

static struct tt_table *dist_overview_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "steps", .type = TT_C_INT},
		{.name = "step_time(us)", .title = "step", .type = TT_C_DUR},
		{.name = "computation(us)", .title = "computation", .type = TT_C_DUR},
		{.name = "overlapping(us)", .title = "overlapping", .type = TT_C_DUR},
		{.name = "communication(us)", .title = "communication", .type = TT_C_DUR},
		{.name = "other(us)", .title = "other", .type = TT_C_DUR},
		{.name = "computation_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "overlapping_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "communication_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "other_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "bar",
		 .title = "of the step",
		 .type = TT_C_STACK,
		 .width = 24,
		 .bar_max = 100,
		 .stack = {7, 8, 9, 10},
		 .nstack = 4,
		 .role = {TT_ROLE_BAR_COMP, TT_ROLE_BAR_OTHER, TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "#%=."},
		{.name = "gpu_idle(us)", .title = "GPU idle", .type = TT_C_DUR},
		{.name = "collective_calls", .title = "calls", .type = TT_C_INT},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("distributed_overview", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Computation / communication per rank, mean per step (the "
			      "TensorBoard plugin's distributed view)");
	bool no_steps = false;
	for (size_t i = 0; i < d->nranks; i++) {
		const struct tt_dist_rank *w = &d->ranks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		tt_table_set_int(t, k, 1, w->has_steps ? w->nwindows : 0);
		tt_table_set_int(t, k, 2, w->step_ns);
		tt_table_set_int(t, k, 3, w->comp_ns);
		tt_table_set_int(t, k, 4, w->overlap_ns);
		tt_table_set_int(t, k, 5, w->comm_ns);
		tt_table_set_int(t, k, 6, w->other_ns);
		const int64_t part[4] = {w->comp_ns, w->overlap_ns, w->comm_ns, w->other_ns};
		for (int j = 0; j < 4; j++)
			tt_table_set_num(t, k, 7 + j,
					 w->step_ns > 0
						 ? 100.0 * (double)part[j] / (double)w->step_ns
						 : NAN);
		tt_table_set_int(t, k, 12, w->idle_ns);
		tt_table_set_int(t, k, 13, w->ncalls);
		tt_table_set_int(t, k, 14, w->sync_ns);
		tt_table_set_int(t, k, 15, (int64_t)w->ri);
		no_steps |= !w->has_steps;
	}
	tt_table_add_note(t, "computation: only non-communication kernels run; overlapping: "
			     "both; communication: only communication kernels; other: the rest of "
			     "the step (idle, memcpy, memset)");
	if (no_steps)
		tt_table_add_note(t,
				  "ranks without ProfilerStep#N (steps 0) count their whole span "
				  "as one step");
	if (!d->nranks)
		tt_table_add_note(t, "no rank selected");
	return t;
}

static const char *stat_source(const struct tt_dist *d, size_t s)
{
	for (size_t i = 0; i < d->ncalls; i++)
		if (d->calls[i].stat == s)
			return d->calls[i].source;
	return "";
}

static struct tt_table *coll_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "name", .type = TT_C_STR, .width = 40},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "mean_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "mean_size", .title = "size/call", .type = TT_C_STR, .hidden_csv = true},
		{.name = "total_latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "mean_latency(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "data_transfer(us)", .title = "transfer", .type = TT_C_DUR},
		{.name = "mean_data_transfer(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "sync_pctg", .title = "sync %", .type = TT_C_PCT, .prec = 1},
		{.name = "matched_calls", .title = "matched", .type = TT_C_INT},
		{.name = "name_from", .title = "name from", .type = TT_C_STR},
	};
	struct tt_table *t = tt_table_new("collectives", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Collective operations over the ranks shown: latency split into "
			      "data transfer and synchronisation (waiting for the slowest rank)");
	bool differ = false;
	for (size_t s = 0; s < d->nstats; s++) {
		const struct tt_coll_stat *c = &d->stats[s];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, c->name);
		tt_table_set_int(t, k, 1, c->nranks);
		tt_table_set_int(t, k, 2, (int64_t)c->calls);
		if (c->with_bytes) {
			int64_t mean = c->bytes / (int64_t)c->with_bytes;
			tt_table_set_int(t, k, 3, c->bytes);
			tb_set_bytes(t, k, 4, 5, mean);
		}
		tt_table_set_int(t, k, 6, c->total_ns);
		tt_table_set_num(t, k, 7, (double)c->total_ns / (double)c->calls);
		tt_table_set_int(t, k, 8, c->transfer_ns);
		tt_table_set_num(t, k, 9, (double)c->transfer_ns / (double)c->calls);
		tt_table_set_int(t, k, 10, c->sync_ns);
		tt_table_set_num(t, k, 11,
				 c->total_ns > 0 ? 100.0 * (double)c->sync_ns / (double)c->total_ns
						 : NAN);
		tt_table_set_int(t, k, 12, (int64_t)c->matched);
		tt_table_set_str(t, k, 13, stat_source(d, s));
		differ |= c->counts_differ;
	}
	tt_table_add_note(t, "latency: the communication kernels of a call; the calls of a "
			     "collective are matched across ranks by their order, the fastest "
			     "rank's latency estimates the transfer and the rest on each rank is "
			     "sync; unmatched calls count as transfer");
	tt_table_add_note(t, "size: In msg nelems x dtype size (collective args), else the "
			     "Input Dims x Input type of the collective op");
	if (differ) {
		char names[200];
		size_t k = 0;
		names[0] = '\0';
		for (size_t s = 0; s < d->nstats && k < sizeof(names) - 50; s++)
			if (d->stats[s].counts_differ)
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
						      k ? ", " : "", d->stats[s].name);
		tt_table_add_note(t,
				  "ranks made different numbers of calls of %s (sampled or cut "
				  "traces?): calls are matched only among the ranks that have "
				  "them",
				  names);
	}
	if (d->nranks < 2 && d->ncalls)
		tt_table_add_note(t, "one rank: no synchronisation estimate (every call counts as "
				     "transfer)");
	if (!d->nstats)
		tt_table_add_note(t, "no communication kernels");
	return t;
}

static struct tt_table *coll_rank_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "name", .type = TT_C_STR, .width = 40},
		{.name = "calls", .type = TT_C_INT},
		{.name = "total_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "size", .title = "size", .type = TT_C_STR, .hidden_csv = true},
		{.name = "total_latency(us)", .title = "latency", .type = TT_C_DUR},
		{.name = "mean_latency(us)", .title = "mean", .type = TT_C_DUR},
		{.name = "data_transfer(us)", .title = "transfer", .type = TT_C_DUR},
		{.name = "sync(us)", .title = "sync", .type = TT_C_DUR},
		{.name = "sync_pctg", .title = "sync %", .type = TT_C_PCT, .prec = 1},
		{.name = "bar",
		 .title = "transfer/sync",
		 .type = TT_C_STACK,
		 .width = 20,
		 .stack = {7, 8},
		 .nstack = 2,
		 .role = {TT_ROLE_BAR_COMM, TT_ROLE_BAR_IDLE},
		 .glyphs = "=."},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("collectives_by_rank", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Collective operations per rank");
	/* calls are by rank index then time: one row per (rank, name) in the
	 * order of the names' total latency */
	size_t ns = d->nstats;
	struct acc {
		uint64_t calls, with_bytes;
		int64_t bytes, lat, tr, sy;
	} *a = tt_calloc(ns + 1, sizeof(*a));
	for (size_t i = 0; i < d->ncalls;) {
		size_t ri = d->calls[i].ri, j = i;
		memset(a, 0, (ns + 1) * sizeof(*a));
		for (; j < d->ncalls && d->calls[j].ri == ri; j++) {
			const struct tt_coll_call *c = &d->calls[j];
			struct acc *x = &a[c->stat];
			x->calls++;
			if (c->bytes >= 0) {
				x->bytes += c->bytes;
				x->with_bytes++;
			}
			x->lat += c->dur;
			x->tr += c->transfer;
			x->sy += c->sync;
		}
		for (size_t s = 0; s < ns; s++) {
			if (!a[s].calls)
				continue;
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->calls[i].rank);
			tt_table_set_str(t, k, 1, d->stats[s].name);
			tt_table_set_int(t, k, 2, (int64_t)a[s].calls);
			if (a[s].with_bytes)
				tb_set_bytes(t, k, 3, 4, a[s].bytes);
			tt_table_set_int(t, k, 5, a[s].lat);
			tt_table_set_num(t, k, 6, (double)a[s].lat / (double)a[s].calls);
			tt_table_set_int(t, k, 7, a[s].tr);
			tt_table_set_int(t, k, 8, a[s].sy);
			tt_table_set_num(t, k, 9,
					 a[s].lat > 0 ? 100.0 * (double)a[s].sy / (double)a[s].lat
						      : NAN);
			tt_table_set_int(t, k, 11, (int64_t)ri);
		}
		i = j;
	}
	free(a);
	return t;
}

static struct tt_table *straggler_table(const struct tt_dist *d)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "metric", .type = TT_C_STR},
		{.name = "value(us)", .title = "value", .type = TT_C_DUR},
		{.name = "median(us)", .title = "median", .type = TT_C_DUR},
		{.name = "robust_z", .title = "z", .type = TT_C_NUM, .prec = 1},
		{.name = "reason", .type = TT_C_STR, .width = 100},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("stragglers", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Ranks far from the others: robust z-score (median, MAD) of the "
			      "mean step time, GPU idle per step and sync time");
	for (size_t i = 0; i < d->nstragglers; i++) {
		const struct tt_straggler *s = &d->stragglers[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, s->rank);
		tt_table_set_str(t, k, 1, s->metric);
		tt_table_set_num(t, k, 2, s->value);
		tt_table_set_num(t, k, 3, s->median);
		tt_table_set_num(t, k, 4, s->z);
		tt_table_set_str(t, k, 5, s->reason);
		tt_table_set_int(t, k, 6, (int64_t)s->ri);
	}
	tt_table_add_note(t, "flagged: |z| >= 3.5 and >= 5 %% from the median (z = (x - median) "
			     "/ (1.4826 MAD)); high step time or idle, high or low sync");
	if (d->nranks < 3)
		tt_table_add_note(t, "stragglers need at least 3 ranks (%zu shown)", d->nranks);
	else if (!d->nstragglers)
		tt_table_add_note(t, "no rank stands out");
	return t;
}

int tt_report_distributed(const struct tt_model *m, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_dist d;
	tt_dist_compute(m, &o->a, &d);
	struct tt_table *t[4];
	t[0] = dist_overview_table(&d);
	t[1] = coll_table(&d);
	t[2] = coll_rank_table(&d);
	t[3] = straggler_table(&d);
	tt_dist_free(&d);
	tb_give(out, n, t, 4);
	return 0;
}

/* ---- operators ---- */

static struct tt_table *ops_table(const struct tt_ops *p, bool by_shapes,
				  const struct tt_report_opts *o)
{
	static const struct tt_col base[] = {
		{.name = "name", .type = TT_C_STR, .width = 50},
		{.name = "input_dims", .title = "input dims", .type = TT_C_STR, .width = 40},
		{.name = "type", .type = TT_C_STR},
		{.name = "calls", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "host_self(us)", .title = "host self", .type = TT_C_DUR},
		{.name = "device_total(us)", .title = "device total", .type = TT_C_DUR},
		{.name = "device_self(us)", .title = "device self", .type = TT_C_DUR},
		{.name = "gpu_ops_self", .title = "GPU ops", .type = TT_C_INT},
		{.name = "gpu_ops_total", .type = TT_C_INT, .hidden_text = true},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_col cols[TT_ARRAY_SIZE(base)];
	int nc = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(base); i++)
		if (by_shapes || i != 1)
			cols[nc++] = base[i];
	int s = by_shapes ? 1 : 0; /* column shift after the name */
	struct tt_table *t =
		tt_table_new(by_shapes ? "operators_by_shapes" : "operators", cols, nc);
	tt_table_set_title(
		t, by_shapes ? "Operators by name and input shapes (Input Dims)"
			     : "Operators (cpu_op and user_annotation) by device self time, "
			       "then host self time");
	size_t n = p->n, top = o->top > 0 ? (size_t)o->top : 40;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	for (size_t i = 0; i < n; i++) {
		const struct tt_op_row *w = &p->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, w->name);
		if (by_shapes && w->shapes)
			tt_table_set_str(t, k, 1, w->shapes);
		tt_table_set_str(t, k, 1 + s, w->annotation ? "user_annotation" : "cpu_op");
		tt_table_set_int(t, k, 2 + s, (int64_t)w->calls);
		tt_table_set_int(t, k, 3 + s, w->host_total);
		tt_table_set_int(t, k, 4 + s, w->host_self);
		tt_table_set_int(t, k, 5 + s, w->dev_total);
		tt_table_set_int(t, k, 6 + s, w->dev_self);
		tt_table_set_int(t, k, 7 + s, (int64_t)w->gpu_ops_self);
		tt_table_set_int(t, k, 8 + s, (int64_t)w->gpu_ops_total);
		tt_table_set_int(t, k, 9 + s, w->nranks);
		tt_table_set_int(t, k, 10 + s, (int64_t)w->ri);
		tt_table_set_int(t, k, 11 + s, w->ev);
	}
	if (n < p->n)
		tt_table_add_note(t, "%zu of %zu operators shown (--top N; CSV and JSON list all)",
				  n, p->n);
	if (!by_shapes)
		tt_table_add_note(
			t, "host self: the op's time minus its direct child ops (same "
			   "thread); device self: GPU ops launched by its own runtime calls; "
			   "totals include the children; ProfilerStep#N left out");
	else if (!p->any_shapes)
		tt_table_add_note(t, "no Input Dims recorded: use torch.profiler.profile("
				     "record_shapes=True)");
	if (!p->n)
		tt_table_add_note(t, "no CPU operators in the ranks shown");
	return t;
}

int tt_report_operators(const struct tt_model *m, const struct tt_report_opts *o,
			struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_table *t[2];
	struct tt_ops p;
	tt_ops_compute(m, &o->a, false, &p);
	t[0] = ops_table(&p, false, o);
	tt_ops_free(&p);
	size_t k = 1;
	if (!o->table || strcmp(o->table, "operators_by_shapes") == 0) {
		tt_ops_compute(m, &o->a, true, &p);
		t[k++] = ops_table(&p, true, o);
		tt_ops_free(&p);
	}
	tb_give(out, n, t, k);
	return 0;
}

/* ---- advice ---- */

enum sev { SEV_HIGH, SEV_MEDIUM, SEV_INFO };

struct finding {
	enum sev sev;
	double value;	   /* the number the finding turns on (for sorting) */
	const char *pane;  /* pane name: "idle", "utilization", ... */
	const char *where; /* "Idle (3)" */
	int64_t rank;	   /* -1: all ranks */
	char text[400];
};

struct findings {
	struct finding *v;
	size_t n, cap;
};

static struct finding *add_finding(struct findings *f, enum sev sev, double value, const char *pane,
				   const char *where, int64_t rank)
{
	TT_GROW(f->v, f->cap, f->n + 1);
	struct finding *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->sev = sev;
	x->value = value;
	x->pane = pane;
	x->where = where;
	x->rank = rank;
	return x;
}

static int finding_cmp(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	if (x->sev != y->sev)
		return x->sev < y->sev ? -1 : 1;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return strcmp(x->text, y->text);
}

static const char *idle_cause(enum tt_idle_cat c)
{
	switch (c) {
	case TT_IDLE_HOST_WAIT:
		return "host wait: the CPU launches kernels too late (CPU-bound)";
	case TT_IDLE_KERNEL_WAIT:
		return "kernel wait: short gaps between kernels (launch overhead)";
	default:
		return "other: long gaps (synchronisation, data loading, collectives)";
	}
}

/* GPU idle (HTA temporal) and its main cause (HTA idle breakdown) */
static void advise_idle(const struct tt_model *m, const struct tt_report_opts *o,
			const struct tt_temporal_row *tr, size_t nt, struct findings *f)
{
	struct tt_idle *id = tt_idle_breakdown(m, &o->a, o->kernel_delay_us);
	size_t worst = SIZE_MAX, over = 0, gpu = 0;
	for (size_t i = 0; i < nt; i++) {
		if (!tr[i].has_gpu || isnan(tr[i].idle_pct))
			continue;
		gpu++;
		if (tr[i].idle_pct >= 20)
			over++;
		if (worst == SIZE_MAX || tr[i].idle_pct > tr[worst].idle_pct)
			worst = i;
	}
	if (worst != SIZE_MAX && tr[worst].idle_pct >= 20) {
		const struct tt_temporal_row *w = &tr[worst];
		int64_t cat[TT_IDLE_NCAT] = {0}, sum = 0;
		for (size_t j = 0; j < id->nranks; j++) {
			const struct tt_idle_rank *ir = &id->ranks[j];
			if (ir->rank_idx != w->ri)
				continue;
			for (size_t s = ir->first_stream; s < ir->first_stream + ir->nstreams; s++)
				for (int c = 0; c < TT_IDLE_NCAT; c++)
					if (id->streams[s].cat[c].idle_ns > 0) {
						cat[c] += id->streams[s].cat[c].idle_ns;
						sum += id->streams[s].cat[c].idle_ns;
					}
		}
		int top = 0;
		for (int c = 1; c < TT_IDLE_NCAT; c++)
			if (cat[c] > cat[top])
				top = c;
		struct finding *x = add_finding(f, w->idle_pct >= 40 ? SEV_HIGH : SEV_MEDIUM,
						w->idle_pct, "idle", "Idle (3)", w->rank);
		char others[64] = "";
		if (gpu > 1)
			snprintf(others, sizeof(others), " (%zu of %zu ranks idle >= 20 %%)", over,
				 gpu);
		if (sum > 0)
			snprintf(x->text, sizeof(x->text),
				 "GPU idle %.0f %% on rank %lld%s, mostly %s: %.0f %% of its idle "
				 "time",
				 w->idle_pct, (long long)w->rank, others,
				 idle_cause((enum tt_idle_cat)top),
				 100.0 * (double)cat[top] / (double)sum);
		else
			snprintf(x->text, sizeof(x->text), "GPU idle %.0f %% on rank %lld%s",
				 w->idle_pct, (long long)w->rank, others);
	}
	tt_idle_free(id);
}

/* communication not hidden under computation (HTA overlap) */
static void advise_overlap(const struct tt_model *m, const struct tt_report_opts *o,
			   const struct tt_temporal_row *tr, size_t nt, struct findings *f)
{
	size_t no;
	struct tt_overlap_row *ov = tt_overlap(m, &o->a, &no);
	double sum = 0, mn = INFINITY, mx = -INFINITY, comm_share = 0;
	size_t n = 0, nshare = 0;
	for (size_t i = 0; i < no; i++) {
		if (!ov[i].ncomm || isnan(ov[i].pct))
			continue;
		double exposed = 100.0 - ov[i].pct;
		sum += exposed;
		mn = fmin(mn, exposed);
		mx = fmax(mx, exposed);
		n++;
		for (size_t j = 0; j < nt; j++)
			if (tr[j].ri == ov[i].ri && tr[j].kernel_ns > 0) {
				comm_share +=
					100.0 * (double)ov[i].comm_ns / (double)tr[j].kernel_ns;
				nshare++;
			}
	}
	if (n) {
		double mean = sum / (double)n;
		double share = nshare ? comm_share / (double)nshare : 0;
		if (mean >= 30 && share >= 5) {
			struct finding *x =
				add_finding(f, mean >= 50 && share >= 10 ? SEV_HIGH : SEV_MEDIUM,
					    mean, "overlap", "Overlap (5)", -1);
			if (n > 1)
				snprintf(x->text, sizeof(x->text),
					 "communication %.0f %% exposed (not overlapped by "
					 "computation) on %zu ranks (%.0f-%.0f %%); it takes %.0f "
					 "%% of "
					 "the GPU span",
					 mean, n, mn, mx, share);
			else
				snprintf(x->text, sizeof(x->text),
					 "communication %.0f %% exposed (not overlapped by "
					 "computation); it takes %.0f %% of the GPU span",
					 mean, share);
		}
	}
	tt_overlap_free(ov);
}

/* kernels: low occupancy and low SM efficiency (utilisation); communication
 * kernels are left out (NCCL runs few blocks on purpose) */
static void advise_util(const struct tt_model *m, const struct tt_report_opts *o,
			struct findings *f)
{
	struct tt_util u;
	tt_util_compute(m, &o->a, 1, &u);
	int64_t total = 0, low = 0;
	uint32_t nlow = 0;
	const char *worst = NULL;
	int64_t worst_ns = 0;
	double acc = 0, cover = 0;
	for (size_t i = 0; i < u.nkernels; i++) {
		const struct tt_util_kernel *k = &u.kernels[i];
		if (tt_kernel_type(k->name, NULL) == TT_KT_COMM)
			continue;
		total += k->sum_ns;
		if (!isnan(k->sm_eff_pct)) {
			acc += k->sm_eff_pct * (double)k->sum_ns;
			cover += (double)k->sum_ns;
		}
		if (!isnan(k->occ_pct) && k->occ_pct < 15) {
			low += k->sum_ns;
			nlow++;
			if (k->sum_ns > worst_ns) {
				worst_ns = k->sum_ns;
				worst = k->name;
			}
		}
	}
	double share = total > 0 ? 100.0 * (double)low / (double)total : 0;
	if (share >= 20) {
		struct finding *x = add_finding(f, share >= 40 ? SEV_HIGH : SEV_MEDIUM, share,
						"utilization", "Utilisation", -1);
		snprintf(x->text, sizeof(x->text),
			 "kernels with est. occupancy under 15 %% take %.0f %% of the time of "
			 "computation kernels (%u kernels; most: %.80s)",
			 share, nlow, worst ? worst : "");
	}
	if (cover > 0 && acc / cover < 50) {
		struct finding *x = add_finding(f, SEV_MEDIUM, 100 - acc / cover, "utilization",
						"Utilisation", -1);
		snprintf(x->text, sizeof(x->text),
			 "computation kernels keep only %.0f %% of the SMs busy (est. SM "
			 "efficiency, time-weighted): small grids; batch more work per kernel or "
			 "fuse",
			 acc / cover);
	}
	tt_util_free(&u);
}

/* launches: short kernels (HTA launch stats) */
static void advise_launch(const struct tt_model *m, const struct tt_report_opts *o,
			  struct findings *f)
{
	struct tt_launch *l =
		tt_launch_stats(m, &o->a, o->runtime_cutoff_us, o->launch_delay_cutoff_us);
	/* launch delays are left out: a CPU running ahead of a busy GPU gives
	 * long delays, which is what one wants */
	uint64_t rows = 0, shrt = 0;
	for (size_t i = 0; i < l->nranks; i++) {
		rows += l->ranks[i].nrows;
		shrt += l->ranks[i].n_short;
	}
	if (rows >= 100) {
		double p = 100.0 * (double)shrt / (double)rows;
		if (p >= 30) {
			struct finding *x = add_finding(f, p >= 60 ? SEV_HIGH : SEV_MEDIUM, p,
							"launch", "Launch (6)", -1);
			snprintf(x->text, sizeof(x->text),
				 "%.0f %% of kernels run shorter than their launch call (%llu of "
				 "%llu): launch-bound; fuse kernels or use CUDA graphs",
				 p, (unsigned long long)shrt, (unsigned long long)rows);
		}
	}
	tt_launch_free(l);
}

static void fmt_dur(char *buf, size_t n, double ns)
{
	tt_fmt_dur(buf, n, (int64_t)llround(ns));
}

/* stragglers and synchronisation (distributed) */
static void advise_dist(const struct tt_model *m, const struct tt_report_opts *o,
			struct findings *f)
{
	struct tt_dist d;
	tt_dist_compute(m, &o->a, &d);
	for (size_t i = 0; i < d.nstragglers && i < 3; i++) {
		const struct tt_straggler *s = &d.stragglers[i];
		struct finding *x =
			add_finding(f, SEV_HIGH, fabs(s->z), "distributed", "Distributed", s->rank);
		snprintf(x->text, sizeof(x->text), "rank %lld stands out (%s): %s",
			 (long long)s->rank, s->metric, s->reason);
	}
	int64_t lat = 0, sync = 0;
	for (size_t s = 0; s < d.nstats; s++) {
		lat += d.stats[s].total_ns;
		sync += d.stats[s].sync_ns;
	}
	double p = lat > 0 ? 100.0 * (double)sync / (double)lat : 0;
	if (d.nranks >= 2 && p >= 30) {
		char a[32];
		fmt_dur(a, sizeof(a), (double)sync);
		struct finding *x = add_finding(f, p >= 50 ? SEV_HIGH : SEV_MEDIUM, p,
						"distributed", "Distributed", -1);
		snprintf(
			x->text, sizeof(x->text),
			"ranks wait for each other: %.0f %% of collective time (%s over the ranks) "
			"is synchronisation, not data transfer",
			p, a);
	}
	tt_dist_free(&d);
}

/* uneven steps */
static void advise_steps(const struct tt_model *m, const struct tt_report_opts *o,
			 struct findings *f)
{
	struct tt_steps s;
	tt_steps_compute(m, &o->a, &s);
	if (s.nsteps >= 3) {
		double *d = tt_malloc(s.nsteps * sizeof(*d));
		size_t slow = 0;
		for (size_t i = 0; i < s.nsteps; i++) {
			d[i] = (double)(s.steps[i].t1 - s.steps[i].t0);
			if (d[i] > d[slow])
				slow = i;
		}
		double mx = d[slow];
		double med = tt_tb_median(d, s.nsteps);
		if (med > 0 && mx / med >= 1.5) {
			char a[32], b[32];
			fmt_dur(a, sizeof(a), mx);
			fmt_dur(b, sizeof(b), med);
			const struct tt_step *st = &s.steps[slow];
			struct finding *x =
				add_finding(f, mx / med >= 3 ? SEV_HIGH : SEV_MEDIUM,
					    100.0 * mx / med, "steps", "Steps", st->rank);
			snprintf(x->text, sizeof(x->text),
				 "step %lld on rank %lld takes %s, %.1fx the median step (%s)",
				 (long long)st->num, (long long)st->rank, a, mx / med, b);
		}
		free(d);
	}
	tt_steps_free(&s);
}

static void advise_memory(const struct tt_model *m, const struct tt_report_opts *o,
			  struct findings *f)
{
	struct tt_mem mm;
	tt_mem_compute(m, &o->a, &mm);
	for (size_t i = 0; i < mm.ndevs; i++) {
		const struct tt_mem_dev *d = &mm.devs[i];
		int64_t peak = TT_MAX(d->peak_alloc, d->peak_reserved);
		if (d->total_mem <= 0 || peak <= 0)
			continue;
		double p = 100.0 * (double)peak / (double)d->total_mem;
		if (p < 90)
			continue;
		char a[32];
		tt_fmt_bytes(a, sizeof(a), (double)peak);
		struct finding *x = add_finding(f, SEV_HIGH, p, "memory", "Memory", d->rank);
		snprintf(x->text, sizeof(x->text),
			 "memory peak %s on rank %lld cuda:%lld is %.0f %% of the device: close "
			 "to out of memory",
			 a, (long long)d->rank, (long long)d->device, p);
	}
	if (!mm.ndevs) {
		struct finding *x = add_finding(f, SEV_INFO, 0, "memory", "Memory", -1);
		snprintf(x->text, sizeof(x->text), "%s", mem_hint);
	}
	tt_mem_free(&mm);
}

static void advise_ops(const struct tt_model *m, const struct tt_report_opts *o, struct findings *f)
{
	struct tt_ops p;
	tt_ops_compute(m, &o->a, false, &p);
	int64_t total = 0;
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < p.n; i++) {
		total += p.rows[i].host_self;
		if (!p.rows[i].annotation &&
		    (best == SIZE_MAX || p.rows[i].host_self > p.rows[best].host_self))
			best = i;
	}
	if (best != SIZE_MAX && total > 0) {
		double share = 100.0 * (double)p.rows[best].host_self / (double)total;
		if (share >= 20) {
			struct finding *x =
				add_finding(f, SEV_MEDIUM, share, "operators", "Operators", -1);
			const char *nm = p.rows[best].name;
			bool sync = strcmp(nm, "aten::_local_scalar_dense") == 0 ||
				    strcmp(nm, "aten::item") == 0 || strstr(nm, "Synchronize");
			snprintf(x->text, sizeof(x->text),
				 "%.80s takes %.0f %% of the host self time of all operators "
				 "(%llu calls)%s",
				 nm, share, (unsigned long long)p.rows[best].calls,
				 sync ? ": the host waits for the GPU there (.item(), .cpu(), "
					"a synchronize)"
				      : "");
		}
	}
	tt_ops_free(&p);
	struct tt_src s;
	tt_src_compute(m, &o->a, &s);
	if (!s.nstacks) {
		struct finding *x = add_finding(f, SEV_INFO, 0, "source", "Source", -1);
		snprintf(x->text, sizeof(x->text), "%s", src_hint);
	}
	tt_src_free(&s);
}

int tt_report_advice(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	static const struct tt_col cols[] = {
		{.name = "severity", .type = TT_C_STR},
		{.name = "finding", .type = TT_C_STR, .width = 120},
		{.name = "see", .type = TT_C_STR},
		{.name = "value", .type = TT_C_NUM, .prec = 1, .hidden_text = true},
		{.name = "rank", .type = TT_C_INT, .hidden_text = true},
		{.name = "pane", .type = TT_C_STR, .hidden_text = true},
	};
	static const char *const sevs[] = {"high", "medium", "info"};
	struct findings f = {0};
	size_t nt;
	struct tt_temporal_row *tr = tt_temporal(m, &o->a, &nt); /* (idle and overlap use it) */
	advise_idle(m, o, tr, nt, &f);
	advise_overlap(m, o, tr, nt, &f);
	tt_temporal_free(tr);
	advise_util(m, o, &f);
	advise_launch(m, o, &f);
	advise_dist(m, o, &f);
	advise_steps(m, o, &f);
	advise_ops(m, o, &f);
	advise_memory(m, o, &f);
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(*f.v), finding_cmp);
	struct tt_table *t = tt_table_new("advice", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Findings, most important first, with the numbers behind them and "
			      "the pane that shows more");
	size_t real = 0;
	for (size_t i = 0; i < f.n; i++) {
		const struct finding *x = &f.v[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, sevs[x->sev]);
		tt_table_set_str(t, k, 1, x->text);
		char see[64];
		snprintf(see, sizeof(see), "see %s", x->where);
		tt_table_set_str(t, k, 2, see);
		tt_table_set_num(t, k, 3, x->value);
		if (x->rank >= 0)
			tt_table_set_int(t, k, 4, x->rank);
		tt_table_set_str(t, k, 5, x->pane);
		real += x->sev != SEV_INFO;
	}
	if (!real)
		tt_table_add_note(t, "no finding above the thresholds (GPU idle >= 20 %%, exposed "
				     "communication >= 30 %%, low-occupancy kernels >= 20 %% of "
				     "computation time, SM efficiency < 50 %%, short kernels >= 30 "
				     "%%, sync >= 30 %% of collective time, a step >= 1.5x the "
				     "median, memory >= 90 %% of the device)");
	free(f.v);
	*out = tt_malloc(sizeof(**out));
	(*out)[0] = t;
	*n = 1;
	return 0;
}
