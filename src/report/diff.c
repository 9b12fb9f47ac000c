/* tracetop report diff A B: two traces compared by time, per step, per
 * rank and per name; HTA's TraceDiff.compare_traces and ops_diff (metrics.md
 * §11) within it.
 *
 * "diff_steps": each compared step, its time on both sides (the mean over
 * the rank pairs), GPU busy and idle, and the time verdict.  Its title is
 * the headline (tt_diff_headline_text).
 * "diff_ranks": each rank pair, per-step means of every metric on both
 * sides; the text table puts the pairs whose step time changed most first.
 * "compare_traces": name (short_name with --short-names), <A>_counts,
 * <A>_total_duration, <B>_counts, <B>_total_duration, diff_counts,
 * diff_duration, counts_change_categories (HTA's columns: sums over the
 * compared ranks and steps), then our "change" (the ops_diff bucket), the
 * per-step means and spreads, and the time verdict "time_change".  Rows by
 * name in CSV/JSON (HTA's index order), by impact (|diff_duration|
 * descending) in the text table, which shows the per-step columns.
 * "ops_diff": category, name; HTA's buckets in its order, names sorted. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

/* a string that lives as long as the table */
static const char *tstr(struct tt_table *t, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = tt_arena_alloc(&t->strs, la + lb + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

static const char *device_name(enum tt_diff_device d)
{
	return d == TT_DIFF_GPU ? "GPU events (with a stream)" :
	       d == TT_DIFF_CPU ? "CPU events (no stream)" :
				  "CPU and GPU events";
}

static double pct_of(double a, double b)
{
	return a != 0 ? 100.0 * (b - a) / fabs(a) : NAN;
}

/* ---- the headline ---- */

/* "38", or "37.5" for a mean that is not whole */
static void fmt_calls(char *buf, size_t n, double v)
{
	if (fabs(v - rint(v)) < 0.05)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.1f", v);
}

/* "+30.8 ms" */
static void fmt_delta(char *buf, size_t n, double ns)
{
	char t[32];
	tt_fmt_dur(t, sizeof(t), (int64_t)llround(fabs(ns)));
	snprintf(buf, n, "%s%s", ns < 0 ? "-" : "+", t);
}

/* "+33 %", "+4.2 %" */
static void fmt_pct(char *buf, size_t n, double p)
{
	if (isnan(p))
		snprintf(buf, n, "new");
	else if (fabs(p) >= 9.95)
		snprintf(buf, n, "%+.0f %%", p);
	else
		snprintf(buf, n, "%+.1f %%", p);
}

size_t tt_diff_headline_text(const struct tt_diff *d, const char *la, const char *lb, char *buf,
			     size_t n)
{
	const struct tt_diff_headline *h = &d->head;
	char a[32], b[32], dl[48], pc[32];
	const char *per = h->steps ? "per step" : "over the whole trace (no ProfilerStep)";
	size_t k = 0;
	if (!n)
		return 0;
	buf[0] = '\0';
#define PUT(...) \
	(k += (size_t)snprintf(buf + TT_MIN(k, n - 1), n - TT_MIN(k, n - 1), __VA_ARGS__))
	tt_fmt_dur(a, sizeof(a), (int64_t)llround(h->t[0]));
	tt_fmt_dur(b, sizeof(b), (int64_t)llround(h->t[1]));
	if (!d->nsamples) {
		PUT("nothing to compare");
		return TT_MIN(k, n - 1);
	}
	if (h->verdict == TT_DIFF_SAME) {
		char fl[32];
		tt_fmt_dur(fl, sizeof(fl), d->floor_ns);
		PUT("%s's time %s is unchanged (%s vs %s: within %.3g %% or %s)", lb, per, b, a,
		    d->threshold * 100, fl);
	} else {
		tt_fmt_dur(dl, sizeof(dl), (int64_t)llround(fabs(h->t[1] - h->t[0])));
		fmt_pct(pc, sizeof(pc), pct_of(h->t[0], h->t[1]));
		PUT("%s is %s (%s) %s %s", lb, dl, pc,
		    h->verdict == TT_DIFF_SLOWER ? "slower" : "faster", per);
	}
	for (size_t i = 0; i < h->ntop && i < 1; i++) {
		const struct tt_diff_row *w = &d->rows[h->top[i]];
		const char *name = w->name; /* whole: the reader must tell it apart */
		char c0[32], c1[32];
		fmt_delta(dl, sizeof(dl), w->dmean);
		fmt_calls(c0, sizeof(c0), w->cmean[0]);
		fmt_calls(c1, sizeof(c1), w->cmean[1]);
		PUT("; %s %s %s", h->verdict == TT_DIFF_SAME ? "largest change:" : "most of it:", name,
		    dl);
		if (strcmp(c0, c1) != 0)
			PUT(", %s → %s calls", c0, c1);
	}
	if (h->steps && d->nsteps > 1 && h->slowest_step != SIZE_MAX) {
		const struct tt_diff_step *st = &d->steps[h->slowest_step];
		fmt_delta(dl, sizeof(dl), st->v[1][TT_DM_STEP] - st->v[0][TT_DM_STEP]);
		if (st->num[0] == st->num[1])
			PUT("; step %lld %s", (long long)st->num[0], dl);
		else
			PUT("; step %lld/%lld %s", (long long)st->num[0], (long long)st->num[1], dl);
	}
	if (d->nranks > 1 && h->rank != SIZE_MAX) {
		const struct tt_diff_rank *rr = &d->ranks[h->rank];
		fmt_delta(dl, sizeof(dl), rr->v[1][rr->most] - rr->v[0][rr->most]);
		if (rr->rank[0] == rr->rank[1])
			PUT("; rank %lld moved most: ", (long long)rr->rank[0]);
		else
			PUT("; rank %lld/%lld moved most: ", (long long)rr->rank[0],
			    (long long)rr->rank[1]);
		PUT("%s %s", tt_diff_metric_title((enum tt_diff_metric)rr->most), dl);
	}
#undef PUT
	return TT_MIN(k, n - 1);
}

/* What was compared, in words (a note under the tables). */
static void what_note(struct tt_table *t, const struct tt_diff *d, const struct tt_model *a,
		      const struct tt_model *b, const char *la, const char *lb)
{
	const struct tt_model *m[2] = {a, b};
	const char *lab[2] = {la, lb};
	for (int s = 0; s < 2; s++) {
		const struct tt_diff_side *sd = &d->side[s];
		char ranks[64] = "";
		if (sd->nranks > 1)
			snprintf(ranks, sizeof(ranks), " (+%u more)", sd->nranks - 1);
		char unp[64] = "";
		if (sd->unpaired)
			snprintf(unp, sizeof(unp), "; %u rank%s without a partner left out",
				 sd->unpaired, sd->unpaired == 1 ? "" : "s");
		if (sd->iteration < 0)
			tt_table_add_note(t, "%s: %s, rank %lld%s: no ProfilerStep, every event "
					     "compared (HTA raises here): %llu events%s",
					  lab[s], m[s]->ranks[sd->first_idx]->path,
					  (long long)sd->first_rank, ranks,
					  (unsigned long long)sd->events, unp);
		else if (d->iteration == TT_DIFF_COMMON)
			tt_table_add_note(t, "%s: %s, rank %lld%s, %llu rank-steps from "
					     "ProfilerStep#%lld: %llu events%s",
					  lab[s], m[s]->ranks[sd->first_idx]->path,
					  (long long)sd->first_rank, ranks,
					  (unsigned long long)d->nsamples, (long long)sd->iteration,
					  (unsigned long long)sd->events, unp);
		else
			tt_table_add_note(t, "%s: %s, rank %lld%s, ProfilerStep#%lld: %llu events",
					  lab[s], m[s]->ranks[sd->first_idx]->path,
					  (long long)sd->first_rank, ranks, (long long)sd->iteration,
					  (unsigned long long)sd->events);
	}
	if (d->ranks_by_order)
		tt_table_add_note(t, "no rank number on both sides: ranks paired in order "
				     "(choose with --map %lld:%lld,...)",
				  (long long)d->ranks[0].rank[0], (long long)d->ranks[0].rank[1]);
	if (d->steps_by_order)
		tt_table_add_note(t, "no step number on both sides: steps paired in order");
	tt_table_add_note(t, "slower/faster: the per-step time changed by more than %.3g %% of "
			     "%s's and at least %.3g µs (--diff-threshold, --diff-floor)",
			  d->threshold * 100, la, (double)d->floor_ns / 1000);
}

/* ---- diff_steps ---- */

enum { S_NUM_A, S_NUM_B, S_PAIRS, S_A, S_B, S_D, S_PCT, S_BUSY_A, S_BUSY_B, S_IDLE_A,
       S_IDLE_B, S_VERDICT, S_N };

static struct tt_table *steps_table(const struct tt_diff *d, const char *la, const char *lb,
				    const char *headline)
{
	struct tt_col cols[S_N] = {
		[S_NUM_A] = {.title = "step", .type = TT_C_INT},
		[S_NUM_B] = {.type = TT_C_INT},
		[S_PAIRS] = {.name = "ranks", .type = TT_C_INT},
		[S_A] = {.type = TT_C_DUR},
		[S_B] = {.type = TT_C_DUR},
		[S_D] = {.name = "diff_step", .title = "Δ", .type = TT_C_DUR},
		[S_PCT] = {.name = "diff_step_pct", .title = "Δ %", .type = TT_C_PCT},
		[S_BUSY_A] = {.type = TT_C_DUR, .hidden_text = true},
		[S_BUSY_B] = {.type = TT_C_DUR, .hidden_text = true},
		[S_IDLE_A] = {.type = TT_C_DUR},
		[S_IDLE_B] = {.type = TT_C_DUR},
		[S_VERDICT] = {.name = "time_change", .title = "time", .type = TT_C_STR},
	};
	struct tt_table *t = tt_table_new("diff_steps", cols, S_N);
	t->cols[S_NUM_A].name = tstr(t, la, "_step");
	t->cols[S_NUM_B].name = tstr(t, lb, "_step");
	t->cols[S_NUM_B].title = tstr(t, lb, " step");
	t->cols[S_NUM_B].hidden_text = !d->steps_by_order;
	t->cols[S_A].name = tstr(t, la, "_step_time");
	t->cols[S_A].title = la;
	t->cols[S_B].name = tstr(t, lb, "_step_time");
	t->cols[S_B].title = lb;
	t->cols[S_BUSY_A].name = tstr(t, la, "_gpu_busy");
	t->cols[S_BUSY_B].name = tstr(t, lb, "_gpu_busy");
	t->cols[S_IDLE_A].name = tstr(t, la, "_gpu_idle");
	t->cols[S_IDLE_A].title = tstr(t, la, " GPU idle");
	t->cols[S_IDLE_B].name = tstr(t, lb, "_gpu_idle");
	t->cols[S_IDLE_B].title = tstr(t, lb, " GPU idle");
	tt_table_set_title(t, "%s", headline);
	/* (the Temporal pane's idle is HTA's, a total over the steps its
	 * iteration filter keeps: not this column's sum) */
	tt_table_add_note(t, "GPU idle per step, every step kept (Temporal: HTA's total, last "
			     "step dropped)");
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct tt_diff_step *st = &d->steps[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, S_NUM_A, st->num[0]);
		tt_table_set_int(t, k, S_NUM_B, st->num[1]);
		tt_table_set_int(t, k, S_PAIRS, st->npairs);
		tt_table_set_num(t, k, S_A, st->v[0][TT_DM_STEP]);
		tt_table_set_num(t, k, S_B, st->v[1][TT_DM_STEP]);
		tt_table_set_num(t, k, S_D, st->v[1][TT_DM_STEP] - st->v[0][TT_DM_STEP]);
		tt_table_set_num(t, k, S_PCT, pct_of(st->v[0][TT_DM_STEP], st->v[1][TT_DM_STEP]));
		tt_table_set_num(t, k, S_BUSY_A, st->v[0][TT_DM_BUSY]);
		tt_table_set_num(t, k, S_BUSY_B, st->v[1][TT_DM_BUSY]);
		tt_table_set_num(t, k, S_IDLE_A, st->v[0][TT_DM_IDLE]);
		tt_table_set_num(t, k, S_IDLE_B, st->v[1][TT_DM_IDLE]);
		tt_table_set_str(t, k, S_VERDICT, tt_diff_verdict_name(st->verdict[TT_DM_STEP]));
	}
	return t;
}

/* ---- diff_ranks ---- */

static int rank_delta_cmp(const void *x, const void *y, void *ctx)
{
	const struct tt_diff *d = ctx;
	const struct tt_diff_rank *a = &d->ranks[*(const size_t *)x];
	const struct tt_diff_rank *b = &d->ranks[*(const size_t *)y];
	double da = a->moved, db = b->moved;
	if (da != db)
		return da > db ? -1 : 1;
	return a->rank[0] < b->rank[0] ? -1 : a->rank[0] > b->rank[0];
}

static struct tt_table *ranks_table(const struct tt_diff *d, const struct tt_report_opts *o,
				    const char *la, const char *lb)
{
	/* rank, rank, steps, then Control/Test/diff of every metric, verdict */
	enum { R_A, R_B, R_STEPS, R_M0 };
	int nc = R_M0 + 3 * TT_DM_COUNT + 1, vc = nc - 1;
	struct tt_col *cols = tt_calloc((size_t)nc, sizeof(*cols));
	cols[R_A] = (struct tt_col){.title = "rank", .type = TT_C_INT};
	cols[R_B] = (struct tt_col){.type = TT_C_INT};
	cols[R_STEPS] = (struct tt_col){.name = "steps", .type = TT_C_INT};
	static const char *const short_title[] = {"step", "busy", "comp", "comm", "mem", "idle"};
	for (int m = 0; m < TT_DM_COUNT; m++)
		for (int s = 0; s < 3; s++)
			cols[R_M0 + 3 * m + s] = (struct tt_col){
				.type = TT_C_DUR,
				/* text: both sides of the step, and every Δ */
				.hidden_text = s < 2 && m != TT_DM_STEP};
	cols[vc] = (struct tt_col){.name = "time_change", .title = "time", .type = TT_C_STR};
	struct tt_table *t = tt_table_new("diff_ranks", cols, nc);
	free(cols);
	t->cols[R_A].name = tstr(t, la, "_rank");
	t->cols[R_B].name = tstr(t, lb, "_rank");
	t->cols[R_B].title = tstr(t, lb, " rank");
	t->cols[R_B].hidden_text = !d->ranks_by_order && !o->diff_map;
	for (int m = 0; m < TT_DM_COUNT; m++) {
		const char *mn = tt_diff_metric_name((enum tt_diff_metric)m);
		char buf[64];
		snprintf(buf, sizeof(buf), "_%s", mn);
		t->cols[R_M0 + 3 * m].name = tstr(t, la, buf);
		t->cols[R_M0 + 3 * m + 1].name = tstr(t, lb, buf);
		t->cols[R_M0 + 3 * m + 2].name = tstr(t, "diff_", mn);
		t->cols[R_M0 + 3 * m].title = m == TT_DM_STEP ? la : NULL;
		t->cols[R_M0 + 3 * m + 1].title = m == TT_DM_STEP ? lb : NULL;
		t->cols[R_M0 + 3 * m + 2].title = tstr(t, "Δ ", short_title[m]);
	}
	tt_table_set_title(t, "Rank pairs: per-step means of %s and %s, %s", la, lb,
			   o->format == TT_FMT_TABLE ? "the ranks whose time moved most first" :
						       "in pairing order");
	size_t *ord = tt_malloc((d->nranks + 1) * sizeof(*ord));
	for (size_t i = 0; i < d->nranks; i++)
		ord[i] = i;
	if (o->format == TT_FMT_TABLE)
		tt_msort(ord, d->nranks, sizeof(*ord), rank_delta_cmp, (void *)d);
	for (size_t i = 0; i < d->nranks; i++) {
		const struct tt_diff_rank *rr = &d->ranks[ord[i]];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, R_A, rr->rank[0]);
		tt_table_set_int(t, k, R_B, rr->rank[1]);
		tt_table_set_int(t, k, R_STEPS, rr->nsteps);
		for (int m = 0; m < TT_DM_COUNT; m++) {
			tt_table_set_num(t, k, R_M0 + 3 * m, rr->v[0][m]);
			tt_table_set_num(t, k, R_M0 + 3 * m + 1, rr->v[1][m]);
			tt_table_set_num(t, k, R_M0 + 3 * m + 2, rr->v[1][m] - rr->v[0][m]);
		}
		tt_table_set_str(t, k, vc, tt_diff_verdict_name(rr->verdict[TT_DM_STEP]));
	}
	free(ord);
	return t;
}

/* ---- compare_traces ---- */

enum {
	C_NAME = TT_CMP_NAME,
	C_ACNT = TT_CMP_A_COUNT,
	C_ADUR = TT_CMP_A_TIME,
	C_BCNT = TT_CMP_B_COUNT,
	C_BDUR = TT_CMP_B_TIME,
	C_DCNT = TT_CMP_D_COUNT,
	C_DDUR = TT_CMP_D_TIME,
	C_SIGN = TT_CMP_SIGN,
	C_CHANGE = TT_CMP_CHANGE,
	C_AMEAN = TT_CMP_A_MEAN,
	C_BMEAN = TT_CMP_B_MEAN,
	C_DMEAN = TT_CMP_D_MEAN,
	C_DPCT = TT_CMP_D_PCT,
	C_ASD = TT_CMP_A_SD,
	C_BSD = TT_CMP_B_SD,
	C_ACALLS = TT_CMP_A_CALLS,
	C_BCALLS = TT_CMP_B_CALLS,
	C_VERDICT = TT_CMP_VERDICT,
	C_COUNT = TT_CMP_COUNT,
	C_N = TT_CMP_NCOLS
};

static struct tt_table *compare_table(const struct tt_diff *d, const struct tt_report_opts *o,
				      const char *la, const char *lb, size_t **order)
{
	struct tt_col cols[C_N] = {
		[C_NAME] = {.name = o->short_names ? "short_name" : "name", .type = TT_C_STR,
			    .width = 60},
		/* HTA's: sums over the compared ranks and steps */
		[C_ACNT] = {.type = TT_C_INT, .hidden_text = true},
		[C_ADUR] = {.type = TT_C_DUR, .hidden_text = true, .unit_group = 2},
		[C_BCNT] = {.type = TT_C_INT, .hidden_text = true},
		[C_BDUR] = {.type = TT_C_DUR, .hidden_text = true, .unit_group = 2},
		[C_DCNT] = {.name = "diff_counts", .type = TT_C_INT, .hidden_text = true},
		[C_DDUR] = {.name = "diff_duration", .type = TT_C_DUR, .hidden_text = true,
			    .unit_group = 2},
		[C_SIGN] = {.name = "counts_change_categories", .type = TT_C_STR,
			    .hidden_text = true},
		[C_CHANGE] = {.name = "change", .type = TT_C_STR, .hidden_text = true},
		/* per step (per rank-step) */
		[C_AMEAN] = {.type = TT_C_DUR},
		[C_BMEAN] = {.type = TT_C_DUR},
		[C_DMEAN] = {.name = "diff_per_step", .title = "Δ/step", .type = TT_C_DUR},
		[C_DPCT] = {.name = "diff_per_step_pct", .title = "Δ %", .type = TT_C_PCT},
		/* the spreads of both sides in one unit (of their own) */
		[C_ASD] = {.type = TT_C_DUR, .unit_group = 1},
		[C_BSD] = {.type = TT_C_DUR, .unit_group = 1},
		[C_ACALLS] = {.type = TT_C_NUM, .prec = 1},
		[C_BCALLS] = {.type = TT_C_NUM, .prec = 1},
		[C_VERDICT] = {.name = "time_change", .title = "time", .type = TT_C_STR},
		/* text: the ops_diff bucket, after the time */
		[C_COUNT] = {.name = "count", .type = TT_C_STR, .hidden_csv = true},
	};
	struct tt_table *t = tt_table_new("compare_traces", cols, C_N);
	t->cols[C_ACNT].name = tstr(t, la, "_counts");
	t->cols[C_ADUR].name = tstr(t, la, "_total_duration");
	t->cols[C_BCNT].name = tstr(t, lb, "_counts");
	t->cols[C_BDUR].name = tstr(t, lb, "_total_duration");
	t->cols[C_AMEAN].name = tstr(t, la, "_per_step");
	t->cols[C_AMEAN].title = tstr(t, la, "/step");
	t->cols[C_BMEAN].name = tstr(t, lb, "_per_step");
	t->cols[C_BMEAN].title = tstr(t, lb, "/step");
	t->cols[C_ASD].name = tstr(t, la, "_per_step_std");
	t->cols[C_ASD].title = tstr(t, la, " sd");
	t->cols[C_BSD].name = tstr(t, lb, "_per_step_std");
	t->cols[C_BSD].title = tstr(t, lb, " sd");
	t->cols[C_ACALLS].name = tstr(t, la, "_counts_per_step");
	t->cols[C_ACALLS].title = tstr(t, la, " calls");
	t->cols[C_BCALLS].name = tstr(t, lb, "_counts_per_step");
	t->cols[C_BCALLS].title = tstr(t, lb, " calls");
	/* one sample: no spread to show */
	t->cols[C_ASD].hidden_text = t->cols[C_BSD].hidden_text = d->nsamples < 2;
	enum tt_diff_device dev = o->gpu_only ? TT_DIFF_GPU : o->cpu_only ? TT_DIFF_CPU : TT_DIFF_ALL;
	tt_table_set_title(t, "%s vs %s: %s by %s, %s", la, lb,
			   o->short_names ? "short name" : "name",
			   o->format == TT_FMT_TABLE ? "largest time change first" : "name",
			   device_name(dev));
	/* by name (the rows' order) for CSV/JSON, by impact for text */
	size_t *ord;
	if (o->format == TT_FMT_TABLE) {
		ord = tt_diff_impact_order(d);
	} else {
		ord = tt_malloc((d->n + 1) * sizeof(*ord));
		for (size_t i = 0; i < d->n; i++)
			ord[i] = i;
	}
	size_t shown = d->n;
	if (o->top > 0 && (size_t)o->top < shown && o->format == TT_FMT_TABLE)
		shown = (size_t)o->top;
	for (size_t i = 0; i < shown; i++) {
		const struct tt_diff_row *w = &d->rows[ord[i]];
		size_t k = tt_table_add_row(t);
		char sign[2] = {w->sign, 0};
		tt_table_set_str(t, k, C_NAME, w->name);
		tt_table_set_int(t, k, C_ACNT, w->count[0]);
		tt_table_set_int(t, k, C_ADUR, w->dur[0]);
		tt_table_set_int(t, k, C_BCNT, w->count[1]);
		tt_table_set_int(t, k, C_BDUR, w->dur[1]);
		tt_table_set_int(t, k, C_DCNT, w->diff_count);
		tt_table_set_int(t, k, C_DDUR, w->diff_dur);
		tt_table_set_str(t, k, C_SIGN, sign);
		tt_table_set_str(t, k, C_CHANGE, tt_diff_change_name(w->change));
		tt_table_set_num(t, k, C_AMEAN, w->mean[0]);
		tt_table_set_num(t, k, C_BMEAN, w->mean[1]);
		tt_table_set_num(t, k, C_DMEAN, w->dmean);
		tt_table_set_num(t, k, C_DPCT, pct_of(w->mean[0], w->mean[1]));
		tt_table_set_num(t, k, C_ASD, w->sd[0]);
		tt_table_set_num(t, k, C_BSD, w->sd[1]);
		tt_table_set_num(t, k, C_ACALLS, w->cmean[0]);
		tt_table_set_num(t, k, C_BCALLS, w->cmean[1]);
		tt_table_set_str(t, k, C_VERDICT, tt_diff_verdict_name(w->verdict));
		tt_table_set_str(t, k, C_COUNT, tt_diff_change_name(w->change));
	}
	if (order)
		*order = ord;
	else
		free(ord);
	tt_table_add_note(t, "total: %s %lld events, %s %lld events; %zu names: %zu added, "
			     "%zu deleted, %zu increased, %zu decreased, %zu unchanged in count; "
			     "%zu slower, %zu faster, %zu unchanged in time",
			  la, (long long)d->side[0].events, lb, (long long)d->side[1].events, d->n,
			  d->nchange[TT_DIFF_ADDED], d->nchange[TT_DIFF_DELETED],
			  d->nchange[TT_DIFF_INCREASED], d->nchange[TT_DIFF_DECREASED],
			  d->nchange[TT_DIFF_UNCHANGED], d->nverdict[TT_DIFF_SLOWER],
			  d->nverdict[TT_DIFF_FASTER], d->nverdict[TT_DIFF_SAME]);
	if (shown < d->n)
		tt_table_add_note(t, "%zu of %zu names shown (--top %d)", shown, d->n, o->top);
	return t;
}

/* ---- ops_diff ---- */

static struct tt_table *ops_table(const struct tt_diff *d, const char *la, const char *lb)
{
	static const struct tt_col ocols[] = {
		{.name = "category", .type = TT_C_STR},
		{.name = "name", .type = TT_C_STR, .width = 100},
	};
	/* by bucket, names in byte order (the rows' order) */
	struct tt_table *od = tt_table_new("ops_diff", ocols, (int)TT_ARRAY_SIZE(ocols));
	tt_table_set_title(od, "Names added, deleted, more, fewer or as often in %s than in %s "
			       "(HTA ops_diff)",
			   lb, la);
	for (int c = 0; c < TT_DIFF_NCHANGE; c++)
		for (size_t i = 0; i < d->n; i++) {
			if (d->rows[i].change != c)
				continue;
			size_t k = tt_table_add_row(od);
			tt_table_set_str(od, k, 0, tt_diff_change_name((enum tt_diff_change)c));
			tt_table_set_str(od, k, 1, d->rows[i].name);
		}
	return od;
}

/* ---- the report ---- */

/* the diff of res, or NULL with *err filled */
static const struct tt_diff *get_diff(struct tt_results *res, const struct tt_report_opts *o,
				      struct tt_err *err)
{
	if (!tt_results_model2(res)) {
		tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
			   "report diff needs two traces: CONTROL TEST");
		return NULL;
	}
	if (o->gpu_only && o->cpu_only) {
		tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
			   "diff: --gpu and --cpu exclude each other");
		return NULL;
	}
	return tt_res_diff(res, err);
}

int tt_report_diff_table(struct tt_results *res, const struct tt_report_opts *o,
			 struct tt_table **t, size_t **order, struct tt_err *err)
{
	struct tt_err e;
	tt_err_clear(&e);
	const struct tt_diff *d = get_diff(res, o, &e);
	if (!d) {
		if (err)
			*err = e;
		*t = NULL;
		return -(int)e.code;
	}
	const char *la = o->label_a ? o->label_a : "Control";
	const char *lb = o->label_b ? o->label_b : "Test";
	*t = compare_table(d, o, la, lb, order);
	return 0;
}

int tt_report_diff(struct tt_results *res, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err)
{
	const char *la = o->label_a ? o->label_a : "Control";
	const char *lb = o->label_b ? o->label_b : "Test";
	const struct tt_model *a = tt_results_model(res), *b = tt_results_model2(res);
	struct tt_err e;
	tt_err_clear(&e);
	const struct tt_diff *d = get_diff(res, o, &e);
	if (!d) {
		if (err)
			*err = e;
		return -(int)e.code;
	}
	*out = tt_malloc(4 * sizeof(**out));
	*n = 0;
#define WANT(name) (!o->table || strcmp(o->table, name) == 0)
	if (WANT("diff_steps")) {
		char head[512];
		tt_diff_headline_text(d, la, lb, head, sizeof(head));
		struct tt_table *t = steps_table(d, la, lb, head);
		what_note(t, d, a, b, la, lb);
		(*out)[(*n)++] = t;
	}
	if (WANT("diff_ranks"))
		(*out)[(*n)++] = ranks_table(d, o, la, lb);
	if (WANT("compare_traces"))
		(*out)[(*n)++] = compare_table(d, o, la, lb, NULL);
	if (WANT("ops_diff"))
		(*out)[(*n)++] = ops_table(d, la, lb);
#undef WANT
	return 0;
}
