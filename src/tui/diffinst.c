/* The instances of one name on both sides of a diff: each side's count,
 * total, mean, median and longest duration, the histogram of both sides'
 * durations on one scale, and the instances, longest first.  Opened by
 * Enter on a row of the Diff pane (the events the row counts) or of a
 * side-by-side pane that names kernels (the kernels as that pane counts
 * them).  The figures are those of tracetop/diffinst.h; Enter on an
 * instance opens the split timeline there. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diffinst.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"
#include "pane.h"

#define INSTANCES_SHOWN 500

struct di_state {
	char *name;
	enum tt_dinst_kind kind;
	struct tt_dinsts k;
	/* what the work (off the UI thread) reads: copies of the app's */
	bool begun;
	const struct tt_diff *d;
	const struct tt_model *m[2];
	struct tt_aopts o[2];
	int64_t *ranks[2];
};

/* the instances: the work of opening the pane (tt_pane_work) */
static void di_work(void *arg, const atomic_bool *cancel)
{
	struct di_state *s = arg;
	(void)cancel;
	if (s->kind == TT_DINST_ROW) {
		tt_dinsts_of_row(s->d, s->m[0], s->m[1], s->name, &s->k);
	} else {
		const struct tt_aopts *o[2] = {&s->o[0], &s->o[1]};
		tt_dinsts_of_kernel(s->m, o, s->d, s->name, &s->k);
	}
}

static const char *side_label(const struct tt_app *a, int s)
{
	const char *l = s ? a->ropts.label_b : a->ropts.label_a;
	return l ? l : s ? "Test" : "Control";
}

/* s right-aligned in w columns (µs is one column in two bytes) */
static const char *padl(char *buf, size_t n, const char *s, int w)
{
	snprintf(buf, n, "%*s%s", TT_MAX(0, w - (int)tt_utf8_width(s)), "", s);
	return buf;
}

/* s left-aligned in w columns, cut to them */
static const char *padr(char *buf, size_t n, const char *s, int w)
{
	char fit[200];
	tt_utf8_fit(fit, sizeof(fit), s, (size_t)w);
	snprintf(buf, n, "%s%*s", fit, TT_MAX(0, w - (int)tt_utf8_width(fit)), "");
	return buf;
}

static void dur_or_dash(char *buf, size_t n, bool has, int64_t ns)
{
	if (has)
		tt_fmt_dur(buf, n, ns);
	else
		snprintf(buf, n, "-");
}

/* "+75.2 ms", "-51.0 µs", "0" */
static void signed_dur(char *buf, size_t n, int64_t ns)
{
	char t[32];
	tt_fmt_dur(t, sizeof(t), ns < 0 ? -ns : ns);
	snprintf(buf, n, "%s%s", ns > 0 ? "+" : ns < 0 ? "-" : "", t);
}

/* the table of figures: a header, one line per side, and Δ */
static void head_figures(struct tt_pane *p, const struct tt_dinsts *k, int lw)
{
	static const char *const what[] = {"count", "total", "mean", "median", "max"};
	char line[600], cell[64], pad[256];
	int n = snprintf(line, sizeof(line), "%*s", lw, "");
	for (size_t i = 0; i < TT_ARRAY_SIZE(what); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %10s", what[i]);
	tt_pane_head(p, TT_ROLE_HEADER, "%s", line);
	for (int s = 0; s < 2; s++) {
		const struct tt_dinst_side *w = &k->side[s];
		n = snprintf(line, sizeof(line), "%s", padr(pad, sizeof(pad), side_label(p->app, s), lw));
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %10zu", w->n);
		int64_t v[4] = {w->total, (int64_t)(w->mean + 0.5), w->median, w->max};
		for (int i = 0; i < 4; i++) {
			dur_or_dash(cell, sizeof(cell), w->n > 0, v[i]);
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %s",
				      padl(pad, sizeof(pad), cell, 10));
		}
		tt_pane_head(p, TT_ROLE_DEFAULT, "%s", line);
	}
	const struct tt_dinst_side *a = &k->side[0], *b = &k->side[1];
	n = snprintf(line, sizeof(line), "%s", padr(pad, sizeof(pad), "Δ", lw));
	long long dn = (long long)b->n - (long long)a->n;
	n += snprintf(line + n, sizeof(line) - (size_t)n, dn ? " %+10lld" : " %10lld", dn);
	int64_t d[4] = {b->total - a->total, (int64_t)(b->mean - a->mean), b->median - a->median,
			b->max - a->max};
	for (int i = 0; i < 4; i++) {
		if (i == 0 || (a->n && b->n))
			signed_dur(cell, sizeof(cell), d[i]);
		else
			snprintf(cell, sizeof(cell), "-");
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s",
			      padl(pad, sizeof(pad), cell, 10));
	}
	tt_pane_head(p, d[0] > 0 ? TT_ROLE_WORSE : d[0] < 0 ? TT_ROLE_BETTER : TT_ROLE_DEFAULT, "%s",
		     line);
}

/* the histograms, the sides in two columns, one bin a line */
static void head_histogram(struct tt_pane *p, const struct tt_dinsts *k)
{
	enum { BAR = 18 };
	char line[600], lo[32], hi[32], lp[64], hp[64], bar[2][200];
	char l0[256], l1[256];
	snprintf(line, sizeof(line), "%-21s   %s   %s",
		 k->log_scale ? "duration (log scale)" : "duration",
		 padr(l0, sizeof(l0), side_label(p->app, 0), BAR + 6),
		 padr(l1, sizeof(l1), side_label(p->app, 1), BAR + 6));
	tt_pane_head(p, TT_ROLE_HEADER, "%s", line);
	for (int b = 0; b < k->nbins; b++) {
		tt_fmt_dur(lo, sizeof(lo), tt_dinsts_edge(k, b));
		tt_fmt_dur(hi, sizeof(hi), k->nbins == 1 ? k->hi : tt_dinsts_edge(k, b + 1));
		padl(lp, sizeof(lp), lo, 9);
		snprintf(hp, sizeof(hp), "%s%*s", hi, TT_MAX(0, 9 - (int)tt_utf8_width(hi)), "");
		for (int s = 0; s < 2; s++) {
			/* the share of the side's instances (a sliver for any) */
			size_t c = k->side[s].bins[b];
			double f = c ? (double)c / (double)k->side[s].n / k->share_max : 0;
			if (c && f < 1.0 / (8 * BAR))
				f = 1.0 / (8 * BAR);
			size_t n = tt_bar(bar[s], sizeof(bar[s]), f, BAR);
			/* padded to the bar's width in columns */
			int used = (int)tt_utf8_width(bar[s]);
			snprintf(bar[s] + n, sizeof(bar[s]) - n, "%*s", TT_MAX(0, BAR - used), "");
		}
		tt_pane_head(p, TT_ROLE_BAR, "%s - %s   %5zu %s   %5zu %s", lp, hp, k->side[0].bins[b],
			     bar[0], k->side[1].bins[b], bar[1]);
	}
}

static int di_open(struct tt_pane *p)
{
	struct di_state *s = p->state;
	struct tt_app *a = p->app;
	if (!a->m2) {
		snprintf(p->msg, sizeof(p->msg),
			 "start tracetop with --diff CONTROL TEST to compare two traces");
		return -1;
	}
	if (!s->begun) {
		struct tt_err err;
		tt_err_clear(&err);
		s->d = tt_res_diff(tt_ui_diff_results(a), &err);
		if (s->kind == TT_DINST_ROW && !s->d) {
			snprintf(p->msg, sizeof(p->msg), "%s", err.msg[0] ? err.msg : "no diff");
			return -1;
		}
		for (int i = 0; i < 2; i++) {
			s->m[i] = a->side_m[i];
			s->o[i] = *tt_ui_side_aopts(a, i);
			if (s->o[i].ranks && s->o[i].nranks) {
				size_t sz = s->o[i].nranks * sizeof(*s->ranks[i]);
				s->ranks[i] = tt_malloc(sz);
				memcpy(s->ranks[i], s->o[i].ranks, sz);
			}
			s->o[i].ranks = s->ranks[i];
		}
		s->begun = true;
	}
	/* (a pass over every event of the compared ranks) */
	if (!tt_pane_work(p, di_work, s))
		return TT_OPEN_WAIT;
	const struct tt_dinsts *k = &s->k;
	if (!k->n) {
		snprintf(p->msg, sizeof(p->msg), "no instance of %s on either side", s->name);
		return -1;
	}
	int lw = (int)TT_MAX(TT_MAX(tt_utf8_width(side_label(a, 0)), tt_utf8_width(side_label(a, 1))),
			     7);
	lw = TT_MIN(lw, 12);
	head_figures(p, k, lw);
	head_histogram(p, k);
	static const struct tt_col cols[] = {
		{.name = "side", .type = TT_C_STR, .width = 12},
		{.name = "rank", .type = TT_C_INT},
		{.name = "step", .type = TT_C_INT},
		{.name = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "instance", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("instances", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < k->n && i < INSTANCES_SHOWN; i++) {
		const struct tt_dinst *x = &k->v[i];
		size_t r = tt_table_add_row(t);
		tt_table_set_str(t, r, 0, side_label(a, x->side));
		tt_table_set_int(t, r, 1, x->rank);
		if (x->step >= 0)
			tt_table_set_int(t, r, 2, x->step);
		tt_table_set_int(t, r, 3, x->start);
		tt_table_set_int(t, r, 4, x->dur);
		tt_table_set_int(t, r, 5, (int64_t)i);
	}
	pane_add_bar_at(t, 4, "duration", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	for (size_t i = 0; i < t->nrows; i++)
		p->row_role[i] = k->v[i].side ? TT_ROLE_MARKED : 0;
	char what[64];
	if (k->n > INSTANCES_SHOWN)
		snprintf(what, sizeof(what), "%d longest of %zu", INSTANCES_SHOWN, k->n);
	else
		snprintf(what, sizeof(what), "longest first");
	tt_pane_head(p, TT_ROLE_DIM,
		     "%s; start: from the side's first event; Enter: split timeline", what);
	return 0;
}

static struct tt_pane *di_drill(struct tt_pane *p, size_t row)
{
	struct di_state *s = p->state;
	if (row >= s->k.n)
		return NULL;
	const struct tt_dinst *x = &s->k.v[row];
	size_t ri[2];
	int64_t step[2];
	ri[x->side] = x->ri;
	ri[!x->side] = x->pair_ri == UINT32_MAX ? SIZE_MAX : x->pair_ri;
	step[x->side] = x->step;
	step[!x->side] = x->pair_step;
	return tt_split_at(p->app, x->side, ri, step, x->ev);
}

static void di_close(struct tt_pane *p)
{
	struct di_state *s = p->state;
	if (s) {
		free(s->name);
		free(s->ranks[0]);
		free(s->ranks[1]);
		tt_dinsts_free(&s->k);
	}
	free(s);
}

static const struct tt_pane_ops dinst_ops = {
	.name = "instances",
	.title = "Instances",
	.help = "One name on both sides of a diff: how many instances each side has, their "
		"total, mean, median and longest duration and the difference (Δ = Test - "
		"Control); the histogram of both sides' durations in the same bins (each bar the share of its "
		"side's instances, so the shapes compare whatever the counts); then every "
		"instance, longest first, with its side, rank, ProfilerStep, start (from its "
		"side's first event) and duration.  From the Diff pane: the events the diff "
		"counts for the row (the compared steps of each rank pair); from a side-by-side "
		"pane: the kernels as that pane counts them.  Enter opens the split timeline at "
		"the instance: its step on both sides, the cursor on it.",
	.open = di_open,
	.close = di_close,
	.drill = di_drill,
	.both_sides = true,
};

struct tt_pane *tt_dinst_pane(struct tt_app *a, const char *name, enum tt_dinst_kind kind)
{
	struct tt_pane *p = tt_pane_new(a, &dinst_ops);
	struct di_state *s = tt_calloc(1, sizeof(*s));
	s->name = tt_strdup(name);
	s->kind = kind;
	p->state = s;
	char nm[160];
	tt_name_fit(nm, sizeof(nm), name, 60);
	snprintf(p->subtitle, sizeof(p->subtitle), "%s", nm);
	return p;
}
