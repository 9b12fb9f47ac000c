/* The explorer: which pane is in view (the pane keys, the stack of
 * drill-downs), the prompt, the ranks shown, and the frame around the pane
 * (title bar, where-am-I line, status line).  It dispatches: keys go to the
 * pane in view first, then to the generic list (pane.c), then to the
 * actions of the whole explorer here. */
#include "config.h"

#include "tracetop/testing.h"
#include "tracetop/ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/input.h"
#include "tracetop/ranklist.h"
#include "tracetop/results.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"
#include "registry.h"

/* ---- the results of the ranks shown ---- */

/* The analyses to compute in the background, in the order a user is
 * likely to open them: the first pane's (the Diff pane's in a diff, the
 * heatmap's when the Overview is one), with tracetop's critical-path model
 * the Overview's verdict (the collectives and the critical path) right
 * after the Overview's table, the pane keys' in their order, then (all: on
 * a terminal) every view's, the critical path first (the slowest to
 * compute).  Without a terminal (tests, --headless) only the panes' own: a
 * pane computes what it reads when it opens, and an analysis the
 * background thread has started is waited for at the end. */
static size_t likely_order(struct tt_app *a, int s, bool all, enum tt_rkind *k)
{
	static const enum tt_rkind order[] = {
		TT_RES_BYRANK, /* and the three it joins */
		TT_RES_IDLE, TT_RES_LAUNCH, TT_RES_COUNTERS, TT_RES_PATTERNS,
		/* the views */
		TT_RES_CRITPATH, TT_RES_TBOVERVIEW, TT_RES_OPS, TT_RES_DIST, TT_RES_STEPS,
		TT_RES_UTIL, TT_RES_MEM, TT_RES_SRC, TT_RES_ADVICE, TT_RES_RANKS,
		TT_RES_OPS_SHAPES, TT_RES_SUMMARY,
	};
	const size_t npanes = 5;
	bool seen[TT_RES_COUNT] = {false};
	size_t n = 0;
	if (s == 0 && a->m2) {
		k[n++] = TT_RES_DIFF;
		seen[TT_RES_DIFF] = true;
	}
	if (all && tt_view_ops(tt_view_top(0), a, a->h - 6)->needs & TT_NEED(TT_RES_RANKS)) {
		k[n++] = TT_RES_RANKS;
		seen[TT_RES_RANKS] = true;
	}
	if (a->ropts.cp_model == TT_CPM_TRACETOP) {
		/* the Overview's verdict, right after the table it heads */
		k[n++] = TT_RES_BYRANK;
		k[n++] = TT_RES_COLL;
		k[n++] = TT_RES_CRITPATH;
		seen[TT_RES_BYRANK] = seen[TT_RES_COLL] = seen[TT_RES_CRITPATH] = true;
	}
	for (size_t i = 0; i < (all ? TT_ARRAY_SIZE(order) : npanes); i++)
		if (!seen[order[i]]) {
			k[n++] = order[i];
			seen[order[i]] = true;
		}
	return n;
}

/* New results objects for the app's ranks, one per side of a diff (the
 * Control side's also holds the diff), the analyses of likely_order
 * computed in the background at once (a pane opened meanwhile moves its
 * own to the front). */
static void results_start(struct tt_app *a)
{
	struct tt_results_opts ro;
	tt_report_results_opts(&a->ropts, &ro);
	for (int s = 0; s < 2; s++) {
		a->side_res[s] = NULL;
		if (!a->side_m[s])
			continue;
		/* each side its ranks; the diff the pairs of the ranks shown */
		ro.a = a->side_aopts[s];
		if (s == 0 && a->nsel_map) {
			ro.diff_map = a->sel_map;
			ro.diff_nmap = a->nsel_map;
		}
		a->side_res[s] = tt_results_new(a->side_m[s], s == 0 ? a->m2 : NULL, &ro);
		enum tt_rkind k[TT_RES_COUNT];
		size_t n = likely_order(a, s, a->async, k);
		tt_results_prefetch(a->side_res[s], k, n);
	}
	a->res = a->side_res[a->view == TT_VIEW_TEST ? 1 : 0];
}

void tt_app_set_async(struct tt_app *a, bool on)
{
	a->async = on;
	if (!on)
		return;
	/* every view's analysis too, after the panes' */
	for (int s = 0; s < 2; s++) {
		if (!a->side_res[s])
			continue;
		enum tt_rkind k[TT_RES_COUNT];
		size_t n = likely_order(a, s, true, k);
		tt_results_enqueue(a->side_res[s], k, n);
	}
}

/* The ranks changed: new results; the old ones are freed once their
 * background thread has finished (not waited for here). */
static void results_restart(struct tt_app *a)
{
	size_t keep = 0;
	for (size_t i = 0; i < a->nretired; i++) {
		/* (closed panes' work may still read them) */
		if (tt_results_busy(a->retired[i]) || a->norphans)
			a->retired[keep++] = a->retired[i];
		else
			tt_results_free(a->retired[i]);
	}
	a->nretired = keep;
	for (int s = 0; s < 2; s++) {
		if (!a->side_res[s])
			continue;
		tt_results_stop(a->side_res[s]);
		if (a->nretired < TT_ARRAY_SIZE(a->retired))
			a->retired[a->nretired++] = a->side_res[s];
		else
			tt_results_free(a->side_res[s]); /* waits */
	}
	results_start(a);
}

/* ---- the ranks shown ---- */

static bool has_rank(const int64_t *v, size_t n, int64_t r)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == r)
			return true;
	return false;
}

/* A diff: the Test side's ranks paired with the Control's a->ranks, and
 * those pairs, as the diff pairs them (--map, rank r with rank r, or in
 * order); then each side's analysis options, a->ropts.a the side's in
 * view. */
static void pair_ranks(struct tt_app *a)
{
	free(a->ranks_b);
	free(a->sel_map);
	a->ranks_b = NULL;
	a->sel_map = NULL;
	a->nranks_b = a->nsel_map = 0;
	if (a->m2 && a->nranks) {
		a->ranks_b = tt_malloc((a->npairs + 1) * sizeof(*a->ranks_b));
		a->sel_map = tt_malloc((a->npairs + 1) * sizeof(*a->sel_map));
		for (size_t p = 0; p < a->npairs; p++) {
			if (!has_rank(a->ranks, a->nranks, a->pairs[p].a))
				continue;
			a->sel_map[a->nsel_map++] = a->pairs[p];
			if (!has_rank(a->ranks_b, a->nranks_b, a->pairs[p].b))
				a->ranks_b[a->nranks_b++] = a->pairs[p].b;
		}
		if (!a->nranks_b) /* none paired: no Test rank has this number */
			a->ranks_b[a->nranks_b++] = INT64_MIN;
	}
	for (int s = 0; s < 2; s++) {
		a->side_aopts[s] = a->ropts.a;
		a->side_aopts[s].ranks = s && a->m2 ? a->ranks_b : a->ranks;
		a->side_aopts[s].nranks = s && a->m2 ? a->nranks_b : a->nranks;
		if (!a->side_aopts[s].nranks)
			a->side_aopts[s].ranks = NULL;
	}
	a->ropts.a = a->side_aopts[a->m2 && a->view == TT_VIEW_TEST ? 1 : 0];
}

/* "rank 3", "rank 3 | 1" (a diff: Control's, the Test's paired with it),
 * "4 ranks", "all ranks" */
static void ranks_text(const struct tt_app *a, char *buf, size_t n)
{
	bool diff = a->m2 && tt_ui_diffing(a);
	if (a->nranks == 1 && diff && a->nranks_b == 1 && a->ranks_b[0] != INT64_MIN)
		snprintf(buf, n, "rank %lld | %lld", (long long)a->ranks[0],
			 (long long)a->ranks_b[0]);
	else if (a->nranks == 1 && diff)
		snprintf(buf, n, "rank %lld | none", (long long)a->ranks[0]);
	else if (a->nranks == 1)
		snprintf(buf, n, "rank %lld", (long long)a->ranks[0]);
	else if (a->nranks > 1)
		snprintf(buf, n, "%zu ranks", a->nranks);
	else
		snprintf(buf, n, "all ranks");
}

void tt_app_wait_prefetch(struct tt_app *a)
{
	for (int s = 0; s < 2; s++)
		if (a->side_res[s])
			tt_results_wait(a->side_res[s]);
}

/* ---- the app ---- */

struct tt_app *tt_app_new(const struct tt_model *m, const struct tt_model *m2,
			  const struct tt_report_opts *o, struct tt_keymap *keys, const char *label)
{
	struct tt_app *a = tt_calloc(1, sizeof(*a));
	a->m = m;
	a->m2 = m2;
	a->side_m[0] = m;
	a->side_m[1] = m2;
	a->keys = keys;
	a->ropts = *o;
	if (o->a.ranks && o->a.nranks) {
		a->ranks = tt_malloc(o->a.nranks * sizeof(*a->ranks));
		memcpy(a->ranks, o->a.ranks, o->a.nranks * sizeof(*a->ranks));
		a->nranks = o->a.nranks;
	}
	a->ropts.a.ranks = a->ranks;
	a->ropts.a.nranks = a->nranks;
	if (m2) {
		/* the pairs of the whole diff (a --map naming a rank a side has
		 * not: none, and the diff says why) */
		struct tt_diff_opts dopt;
		tt_diff_opts_init(&dopt);
		dopt.map = o->diff_map;
		dopt.nmap = o->diff_nmap;
		tt_diff_pairs(m, m2, &dopt, &a->pairs, &a->npairs, NULL);
	}
	pair_ranks(a);
	snprintf(a->label, sizeof(a->label), "%s", label ? label : "");
	a->w = 80;
	a->h = 24;
	results_start(a);
	return a;
}

static void pop_all(struct tt_app *a)
{
	while (a->depth > 0)
		tt_pane_free(a->stack[--a->depth]);
}

void tt_app_free(struct tt_app *a)
{
	if (!a)
		return;
	pop_all(a);
	for (int i = 0; i < TT_NTOP; i++)
		tt_pane_free(a->top[i]);
	tt_pane_free(a->req_pane);
	tt_ui_reap(a, true);
	/* after every pane: the panes used them */
	tt_ui_shared_free(a);
	tt_results_free(a->side_res[0]);
	tt_results_free(a->side_res[1]);
	for (size_t i = 0; i < a->nretired; i++)
		tt_results_free(a->retired[i]);
	for (size_t i = 0; i < a->nnotes; i++)
		free(a->notes[i]);
	free(a->notes);
	free(a->ranks);
	free(a->ranks_b);
	free(a->sel_map);
	free(a->pairs);
	/* (after the results: they read the models) */
	tt_model_free(a->own[0]);
	tt_model_free(a->own[1]);
	tt_input_free(a->in);
	free(a);
}

struct tt_pane *tt_app_pane(struct tt_app *a)
{
	if (a->depth > 0) {
		struct tt_pane *p = a->stack[a->depth - 1];
		tt_pane_open(p); /* (once; again while its results are computed) */
		return p;
	}
	if (!a->top[a->cur])
		a->top[a->cur] = tt_pane_new(a, tt_view_ops(tt_view_top(a->cur), a, a->h - 6));
	tt_pane_open(a->top[a->cur]);
	return a->top[a->cur];
}

bool tt_app_waiting(struct tt_app *a)
{
	/* (a pane may get its results between the draw that showed it
	 * computing and this call, which opens it: drawn again then too) */
	const struct tt_pane *p = tt_app_pane(a);
	return p->waiting || p->pending || a->drew_waiting;
}

const char *tt_app_section(struct tt_app *a)
{
	return tt_app_pane(a)->ops->name;
}

void tt_app_note(struct tt_app *a, const char *msg)
{
	a->notes = tt_realloc_array(a->notes, a->nnotes + 1, sizeof(*a->notes));
	a->notes[a->nnotes++] = tt_strdup(msg);
}

void tt_app_show(struct tt_app *a, int i)
{
	if (i < 0 || i >= TT_NTOP)
		return;
	pop_all(a);
	a->cur = i;
	a->status[0] = '\0';
	tt_app_pane(a);
}

void tt_app_push(struct tt_app *a, struct tt_pane *p)
{
	if (a->depth == (int)TT_ARRAY_SIZE(a->stack)) {
		tt_pane_free(p);
		tt_ui_status(a, TT_ROLE_WARNING, "too deep: go back first");
		return;
	}
	a->stack[a->depth++] = p;
	/* what the status line said was of the pane below (a filter's
	 * matches, say); the new pane may say its own as it opens */
	a->status[0] = '\0';
	tt_pane_open(p);
}

void tt_app_open_timeline(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	tt_app_push(a, tt_timeline_new(a, ri, ev, t));
}

static void input_request(struct tt_app *a);
static int input_action(struct tt_app *a, enum tt_action act);
static bool input_unopened(const struct tt_app *a);

/* what the pane asked for while handling the key (pane.h: tt_ui_open) */
static void requests(struct tt_app *a)
{
	if (a->req_pane) {
		struct tt_pane *np = a->req_pane;
		a->req_pane = NULL;
		tt_app_push(a, np);
	}
	if (a->req_view[0]) {
		const struct tt_view *v = tt_view_named(a->req_view);
		if (v)
			tt_app_push(a, tt_pane_new(a, v->ops));
		else
			tt_ui_status(a, TT_ROLE_WARNING, "no pane named %s", a->req_view);
		a->req_view[0] = '\0';
	}
	if (a->req_tl.set) {
		a->req_tl.set = false;
		if (a->m && a->req_tl.ri < a->m->nranks)
			tt_app_open_timeline(a, a->req_tl.ri, a->req_tl.ev, a->req_tl.t);
	}
	if (a->req_in.kind)
		input_request(a); /* (the load itself: tt_app_tick) */
}

static const char *view_name(const struct tt_app *a, int v)
{
	return v == TT_VIEW_TEST ? (a->ropts.label_b ? a->ropts.label_b : "Test") :
	       v == TT_VIEW_CONTROL ? (a->ropts.label_a ? a->ropts.label_a : "Control") :
				      "side by side";
}

/* the ranks changed: every pane is built again when shown */
static void ranks_changed(struct tt_app *a)
{
	pair_ranks(a);
	/* the panes first: they point into the results */
	pop_all(a);
	for (int i = 0; i < TT_NTOP; i++) {
		tt_pane_free(a->top[i]);
		a->top[i] = NULL;
	}
	results_restart(a);
	char buf[160] = "all ranks", bb[160] = "";
	for (int s = 0; s < (a->m2 ? 2 : 1) && a->nranks; s++) {
		const int64_t *v = s ? a->ranks_b : a->ranks;
		size_t n = s ? a->nranks_b : a->nranks, k = 0;
		char *b = s ? bb : buf;
		k += (size_t)snprintf(b, sizeof(buf), "rank%s ", n > 1 ? "s" : "");
		for (size_t i = 0; i < n && k < sizeof(buf) - 16; i++)
			k += (size_t)snprintf(b + k, sizeof(buf) - k, "%s%lld", i ? "," : "",
					      (long long)v[i]);
	}
	bool same = a->nranks_b == a->nranks &&
		    (!a->nranks ||
		     memcmp(a->ranks_b, a->ranks, a->nranks * sizeof(*a->ranks)) == 0);
	if (same || !tt_ui_diffing(a))
		tt_ui_status(a, TT_ROLE_DEFAULT, "showing %s", buf);
	else if (bb[0] && a->ranks_b[0] == INT64_MIN)
		tt_ui_status(a, TT_ROLE_WARNING, "showing %s of %s: no %s rank is paired with %s",
			     buf, view_name(a, TT_VIEW_CONTROL), view_name(a, TT_VIEW_TEST),
			     a->nranks > 1 ? "them" : "it");
	else if (bb[0])
		tt_ui_status(a, TT_ROLE_DEFAULT, "showing %s of %s with %s of %s", buf,
			     view_name(a, TT_VIEW_CONTROL), bb, view_name(a, TT_VIEW_TEST));
	else
		tt_ui_status(a, TT_ROLE_DEFAULT, "showing %s", buf);
}

void tt_app_set_view(struct tt_app *a, int v, bool diff_mode)
{
	if (!a->m2)
		return;
	a->diff_mode = diff_mode;
	a->view = v;
	a->m = a->side_m[v == TT_VIEW_TEST ? 1 : 0];
	a->res = a->side_res[v == TT_VIEW_TEST ? 1 : 0];
	a->ropts.a = a->side_aopts[v == TT_VIEW_TEST ? 1 : 0];
	/* every pane again, over its side (drill-downs point into the other) */
	pop_all(a);
	for (int i = 0; i < TT_NTOP; i++) {
		tt_pane_free(a->top[i]);
		a->top[i] = NULL;
	}
}

/* d: Control, Test, side by side, Control, ... */
static void next_view(struct tt_app *a)
{
	if (!a->m2) {
		tt_ui_status(a, TT_ROLE_WARNING,
			     "one trace set: start with --diff CONTROL TEST to compare two");
		return;
	}
	int cur = a->cur;
	tt_app_set_view(a, (a->view + 1) % 3, a->diff_mode);
	tt_app_show(a, cur);
	tt_ui_status(a, TT_ROLE_DEFAULT, "showing %s (d: %s next)", view_name(a, a->view),
		     view_name(a, (a->view + 1) % 3));
}

/* "0,2,4-7", or "all" (or nothing) for every rank */
static bool parse_ranks(struct tt_app *a, const char *s, char *why, size_t whysz)
{
	const char *p = s;
	while (*p == ' ')
		p++;
	int64_t *v = NULL;
	size_t n = 0;
	if (*p && strcmp(p, "all") != 0 && tt_ranks_parse(p, &v, &n, why, whysz) != 0)
		return false;
	if (a->m2 && a->view == TT_VIEW_TEST && n) {
		/* the Test's rank numbers: the Control's paired with them */
		size_t k = 0;
		int64_t *c = tt_malloc((a->npairs + 1) * sizeof(*c));
		for (size_t q = 0; q < a->npairs; q++)
			if (has_rank(v, n, a->pairs[q].b) && !has_rank(c, k, a->pairs[q].a))
				c[k++] = a->pairs[q].a;
		free(v);
		if (!k) {
			free(c);
			snprintf(why, whysz, "no %s rank is paired with a Test rank of those",
				 view_name(a, TT_VIEW_CONTROL));
			return false;
		}
		v = c;
		n = k;
	}
	free(a->ranks);
	a->ranks = v;
	a->nranks = n;
	return true;
}

static void step_rank(struct tt_app *a, int dir)
{
	const struct tt_model *m = a->m;
	if (a->m2 && a->npairs) {
		/* a diff: the rank pairs in turn */
		size_t i = dir > 0 ? 0 : a->npairs - 1;
		for (size_t q = 0; a->nranks == 1 && q < a->npairs; q++)
			if (a->pairs[q].a == a->ranks[0])
				i = (q + a->npairs + (size_t)dir) % a->npairs;
		free(a->ranks);
		a->ranks = tt_malloc(sizeof(*a->ranks));
		a->ranks[0] = a->pairs[i].a;
		a->nranks = 1;
		ranks_changed(a);
		return;
	}
	if (!m->nranks)
		return;
	size_t i = 0;
	if (a->nranks == 1) {
		for (size_t k = 0; k < m->nranks; k++)
			if (m->ranks[k]->rank == a->ranks[0])
				i = k;
		i = (i + m->nranks + (size_t)dir) % m->nranks;
	} else {
		i = dir > 0 ? 0 : m->nranks - 1;
	}
	free(a->ranks);
	a->ranks = tt_malloc(sizeof(*a->ranks));
	a->ranks[0] = m->ranks[i]->rank;
	a->nranks = 1;
	ranks_changed(a);
}

static void go_back(struct tt_app *a, struct tt_pane *p)
{
	if (a->depth == 1 && input_unopened(a)) {
		/* the run list of a log directory: nothing below it yet */
		tt_ui_status(a, TT_ROLE_DIM, "Enter opens the run under the cursor; q quits");
		return;
	}
	if (a->depth > 0) {
		tt_pane_free(a->stack[--a->depth]);
		a->status[0] = '\0';
	} else if (p->filter[0]) {
		p->filter[0] = '\0';
		tt_pane_refilter(p);
		tt_ui_status(a, TT_ROLE_DEFAULT, "filter cleared: %zu rows", p->nrows);
	}
}

/* ---- actions ---- */

/* the pane's own handler, then the generic list's */
static int pane_action(struct tt_app *a, struct tt_pane *p, enum tt_action act)
{
	int r = TT_R_UNHANDLED;
	if (!p->opened)
		return r; /* (computing: only the explorer's own keys) */
	if (p->ops->key)
		r = p->ops->key(p, act);
	if (r & TT_R_UNHANDLED)
		r = tt_pane_list_key(p, act);
	if (r & TT_R_BACK) {
		go_back(a, p);
		r &= ~TT_R_BACK;
	}
	requests(a);
	return r;
}

int tt_app_action(struct tt_app *a, enum tt_action act)
{
	struct tt_pane *p = tt_app_pane(a);
	int r = pane_action(a, p, act);
	if (!(r & TT_R_UNHANDLED))
		return r;
	if (input_unopened(a) && act != TT_ACT_QUIT && act != TT_ACT_HELP &&
	    act != TT_ACT_REDRAW && act != TT_ACT_BACK) {
		tt_ui_status(a, TT_ROLE_DIM, "choose a run first: Enter opens the one under the "
			     "cursor");
		return TT_R_REDRAW;
	}
	switch (act) {
	case TT_ACT_CYCLES:
	case TT_ACT_PREV_CYCLE:
	case TT_ACT_NEXT_CYCLE:
	case TT_ACT_CYCLE_DIFF:
	case TT_ACT_RUNS:
		return input_action(a, act);
	case TT_ACT_QUIT:
		return TT_R_QUIT;
	case TT_ACT_BACK:
		go_back(a, p);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_PANE:
		tt_app_show(a, (a->cur + 1) % TT_NTOP);
		return TT_R_REDRAW;
	case TT_ACT_PREV_PANE:
		tt_app_show(a, (a->cur + TT_NTOP - 1) % TT_NTOP);
		return TT_R_REDRAW;
	case TT_ACT_PANE_1:
	case TT_ACT_PANE_2:
	case TT_ACT_PANE_3:
	case TT_ACT_PANE_4:
	case TT_ACT_PANE_5:
	case TT_ACT_PANE_6:
	case TT_ACT_PANE_7:
	case TT_ACT_PANE_8:
	case TT_ACT_PANE_9:
	case TT_ACT_PANE_0:
		tt_app_show(a, (int)(act - TT_ACT_PANE_1));
		return TT_R_REDRAW;
	case TT_ACT_FILTER:
		if (!p->table) {
			tt_ui_status(a, TT_ROLE_WARNING, "filter: this view has no rows to filter");
			return TT_R_REDRAW;
		}
		tt_ui_prompt(a, act, "filter: ", p->filter);
		return TT_R_REDRAW;
	case TT_ACT_PICK_RANKS:
		tt_ui_prompt(a, act, "ranks (e.g. 0,2,4-7 or all): ", "");
		return TT_R_REDRAW;
	case TT_ACT_PREV_RANK:
		step_rank(a, -1);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_RANK:
		step_rank(a, 1);
		return TT_R_REDRAW;
	case TT_ACT_ALL_RANKS:
		free(a->ranks);
		a->ranks = NULL;
		a->nranks = 0;
		ranks_changed(a);
		return TT_R_REDRAW;
	case TT_ACT_DIFF_VIEW:
		next_view(a);
		return TT_R_REDRAW;
	case TT_ACT_WRITE_CSV:
		tt_pane_write_csv(p);
		return TT_R_REDRAW;
	case TT_ACT_HELP:
		if (p->ops != &tt_help_ops)
			tt_app_push(a, tt_help_new(a, p));
		return TT_R_REDRAW;
	case TT_ACT_VIEWS:
		if (p->ops == &tt_views_ops)
			return TT_R_NONE;
		tt_app_push(a, tt_views_menu(a));
		return TT_R_REDRAW;
	case TT_ACT_WARNINGS:
		if (p->ops != &tt_load_ops)
			tt_app_push(a, tt_pane_new(a, &tt_load_ops));
		return TT_R_REDRAW;
	case TT_ACT_REDRAW:
		return TT_R_REDRAW | TT_R_REPAINT;
	case TT_ACT_NONE:
		return TT_R_NONE;
	default:
		/* in words: what the key does, not the action's name */
		tt_ui_status(a, TT_ROLE_DIM, "%s: not in this pane (press ? for its keys)",
			     tt_action_help(act));
		return TT_R_REDRAW;
	}
}

/* Actions that open a prompt: when the pane refuses one, what is typed
 * next is swallowed up to Enter or Esc (the user typed "/nccl<Enter>"
 * without looking: "nccl" must not run as commands). */
static bool opens_prompt(enum tt_action act)
{
	return act == TT_ACT_FILTER || act == TT_ACT_PICK_RANKS || act == TT_ACT_SEARCH ||
	       act == TT_ACT_JUMP || act == TT_ACT_WHAT_IF;
}

static int prompt_key(struct tt_app *a, const char *key)
{
	size_t n = strlen(a->input);
	if (strcmp(key, "<Escape>") == 0) {
		/* no side effects: the status says what it said before */
		a->prompt = 0;
		return TT_R_REDRAW;
	}
	if (a->prompt == TT_PROMPT_REFUSED) {
		if (strcmp(key, "<Enter>") == 0)
			a->prompt = 0;
		else if (key[0] && (key[0] != '<' || !key[1]) &&
			 n + strlen(key) < sizeof(a->input) - 1)
			memcpy(a->input + n, key, strlen(key) + 1); /* shown, never run */
		return TT_R_REDRAW;
	}
	if (strcmp(key, "<Enter>") == 0) {
		int kind = a->prompt;
		a->prompt = 0;
		struct tt_pane *p = tt_app_pane(a);
		if (kind != TT_ACT_FILTER && kind != TT_ACT_PICK_RANKS) {
			int r = p->ops->prompt ? p->ops->prompt(p, kind, a->input) : TT_R_REDRAW;
			requests(a);
			return r | TT_R_REDRAW;
		}
		if (kind == TT_ACT_FILTER) {
			/* (a longer input is cut to the filter's size) */
			snprintf(p->filter, sizeof(p->filter), "%.*s", (int)sizeof(p->filter) - 1,
				 a->input);
			tt_pane_refilter(p);
			if (p->filter[0])
				tt_ui_status(a, TT_ROLE_DEFAULT, "%zu row%s match%s '%s' (Esc clears)",
					     p->nrows, p->nrows == 1 ? "" : "s",
					     p->nrows == 1 ? "es" : "", p->filter);
		} else {
			char why[128];
			if (parse_ranks(a, a->input, why, sizeof(why)))
				ranks_changed(a);
			else
				tt_ui_status(a, TT_ROLE_ERROR, "not a rank list: %s", why);
		}
		return TT_R_REDRAW;
	}
	if (strcmp(key, "<C-u>") == 0) {
		a->input[0] = '\0'; /* (all of it: to type anew over a suggestion) */
		return TT_R_REDRAW;
	}
	if (strcmp(key, "<Backspace>") == 0) {
		/* the last character goes, however many bytes it has */
		size_t last = 0;
		for (size_t i = 0, k; i < n; i += k) {
			k = tt_utf8_seqlen(a->input + i);
			last = i;
		}
		a->input[last] = '\0';
		return TT_R_REDRAW;
	}
	const char *ch = strcmp(key, "<Space>") == 0 ? " " : key;
	if (ch[0] && (ch[0] != '<' || !ch[1]) && n + strlen(ch) < sizeof(a->input) - 1) {
		memcpy(a->input + n, ch, strlen(ch) + 1);
		return TT_R_REDRAW;
	}
	return TT_R_NONE;
}

/* A mouse event: a click on a pane key's tab shows it; the rest goes to
 * the pane under the pointer (the one in view). */
static int app_mouse(struct tt_app *a, const struct tt_mouse *m)
{
	if (a->prompt || !tt_keymap_mouse(a->keys))
		return TT_R_NONE;
	if (m->y == 0) {
		if ((m->kind != TT_MOUSE_CLICK && m->kind != TT_MOUSE_DCLICK) || input_unopened(a))
			return TT_R_NONE;
		for (int i = 0; i < TT_NTOP; i++)
			if (m->x >= a->tab_x0[i] && m->x < a->tab_x1[i]) {
				tt_app_show(a, i);
				return TT_R_REDRAW;
			}
		return TT_R_NONE;
	}
	if (m->y >= a->h - 1)
		return TT_R_NONE; /* the status line */
	struct tt_pane *p = tt_app_pane(a);
	if (!p->opened)
		return TT_R_NONE; /* (computing) */
	int r = p->ops->mouse ? p->ops->mouse(p, m) : tt_pane_list_mouse(p, m);
	if (r & TT_R_BACK) {
		go_back(a, p);
		r &= ~TT_R_BACK;
	}
	requests(a);
	return r;
}

int tt_app_key(struct tt_app *a, const char *key)
{
	struct tt_mouse m;
	if (tt_mouse_parse(key, &m))
		return app_mouse(a, &m);
	if (a->prompt)
		return prompt_key(a, key);
	enum tt_action act = tt_keymap_lookup(a->keys, tt_app_section(a), key);
	if (act == TT_ACT_NONE) {
		tt_ui_status(a, TT_ROLE_DIM, "%s: no action (press ? for help)", key);
		return TT_R_REDRAW;
	}
	int r = tt_app_action(a, act);
	if (opens_prompt(act) && !a->prompt && !(r & TT_R_QUIT)) {
		/* refused: the reason is the prompt, and it swallows the typing */
		snprintf(a->prompt_label, sizeof(a->prompt_label), "%.*s",
			 (int)sizeof(a->prompt_label) - 1, a->status);
		a->input[0] = '\0';
		a->prompt = TT_PROMPT_REFUSED;
		r |= TT_R_REDRAW;
	}
	return r;
}

/* ---- drawing ---- */

static void draw_title(struct tt_app *a, struct tt_grid *g)
{
	tt_grid_fill(g, 0, 0, g->w, ' ', TT_ROLE_TITLE);
	/* shorter titles on narrower screens: every pane key stays visible, and
	 * the short names stay distinct (Overview and Overlap both start "Over") */
	int x = tt_grid_put(g, 0, 0, TT_ROLE_TITLE, g->w >= 90 ? " tracetop " : " tt", -1);
	for (int i = 0; i < TT_NTOP && x < g->w; i++) {
		const struct tt_view *v = tt_view_top(i);
		char b[40];
		if (g->w >= 118)
			snprintf(b, sizeof(b), " %c %s ", v->key, v->ops->title);
		else if (g->w >= 90)
			snprintf(b, sizeof(b), " %c %s ", v->key, v->brief);
		else if (g->w >= 74 || i == a->cur)
			snprintf(b, sizeof(b), " %c %s", v->key, v->brief);
		else
			snprintf(b, sizeof(b), " %c", v->key);
		a->tab_x0[i] = (short)x;
		x += tt_grid_put(g, x, 0, i == a->cur ? TT_ROLE_TITLE_FOCUS : TT_ROLE_TITLE, b, -1);
		a->tab_x1[i] = (short)x;
	}
}

static const char *cycles_key(struct tt_app *a);

/* the right part of the status line: the row, the ranks, the help key */
static void status_right(struct tt_app *a, struct tt_pane *p, bool brief, char *right, size_t n)
{
	char ranks[64];
	ranks_text(a, ranks, sizeof(ranks));
	/* warnings: how many, and the key that lists them */
	char warn[48] = "";
	size_t nw = tt_ui_warnings(a);
	if (nw)
		snprintf(warn, sizeof(warn), "  W:%zu warning%s", nw, nw == 1 ? "" : "s");
	/* a followed job's new cycle, and the key that opens it; else the
	 * cycle it is writing */
	char fresh[80] = "";
	if (a->fresh)
		snprintf(fresh, sizeof(fresh), " new cycle available (%s) ", cycles_key(a));
	else if (a->pending[0])
		snprintf(fresh, sizeof(fresh), " %s ", brief ? a->pending_brief : a->pending);
	if (p->table && p->nrows)
		snprintf(right, n, "%s %zu/%zu  %s%s  ?:help q:quit ", fresh, p->cursor + 1, p->nrows,
			 ranks, warn);
	else
		snprintf(right, n, "%s %s%s  ?:help q:quit ", fresh, ranks, warn);
}

/* Rows above the status line a long message takes (it wraps there, whole,
 * rather than end in an ellipsis); 0 when it fits the status line. */
static int status_rows(struct tt_app *a, struct tt_grid *g, struct tt_pane *p)
{
	if (a->prompt || !a->status[0])
		return 0;
	char right[256];
	status_right(a, p, true, right, sizeof(right));
	int room = g->w - (int)tt_utf8_width(right) - 2;
	if ((int)tt_utf8_width(a->status) <= room)
		return 0;
	return tt_grid_wrap(NULL, 1, 0, TT_ROLE_STATUS, a->status, g->w - 2, TT_MAX(1, g->h / 4));
}

static void draw_status(struct tt_app *a, struct tt_grid *g, struct tt_pane *p)
{
	int y = g->h - 1;
	int above = status_rows(a, g, p);
	if (above) {
		for (int i = 0; i < above; i++)
			tt_grid_fill(g, 0, y - above + i, g->w, ' ', TT_ROLE_STATUS);
		tt_grid_wrap(g, 1, y - above, TT_ROLE_STATUS, a->status, g->w - 2, above);
		if (a->status_role != TT_ROLE_DEFAULT)
			for (int i = 0; i < above; i++)
				tt_grid_paint(g, 0, y - above + i, g->w, (enum tt_role)a->status_role);
	}
	tt_grid_fill(g, 0, y, g->w, ' ', TT_ROLE_STATUS);
	if (a->prompt == TT_PROMPT_REFUSED) {
		/* the reason, then what was typed (dim: it does nothing) */
		char lab[400];
		snprintf(lab, sizeof(lab), " %s (keys ignored to Enter/Esc) ", a->prompt_label);
		int x = tt_grid_put(g, 0, y, TT_ROLE_WARNING, lab, g->w - 4);
		tt_grid_put(g, x, y, TT_ROLE_DIM, a->input, g->w - x);
		return;
	}
	if (a->prompt) {
		int x = tt_grid_put(g, 0, y, TT_ROLE_STATUS, a->prompt_label, -1);
		/* a long input shows its end, where the typing is */
		size_t iw = tt_utf8_width(a->input);
		const char *in = a->input;
		while (iw > 0 && (int)iw > g->w - x - 2) {
			in++;
			while ((*in & 0xC0) == 0x80)
				in++;
			iw--;
		}
		x += tt_grid_put(g, x, y, TT_ROLE_STATUS, in, -1);
		if (x < g->w)
			tt_grid_put(g, x, y, TT_ROLE_CURSOR, " ", 1);
		return;
	}
	char right[256];
	status_right(a, p, false, right, sizeof(right));
	const char *left = above ? "" : a->status[0] ? a->status : a->label;
	if ((int)(tt_utf8_width(left) + tt_utf8_width(right)) + 2 > g->w)
		status_right(a, p, true, right, sizeof(right)); /* (the job's news, briefly) */
	if ((int)(tt_utf8_width(left) + tt_utf8_width(right)) + 2 > g->w) {
		/* short of room: q is known, the rest is not */
		char *q = strstr(right, " q:quit ");
		if (q)
			memmove(q, q + 7, strlen(q + 7) + 1);
	}
	if ((a->fresh || a->pending[0]) &&
	    (int)(tt_utf8_width(left) + tt_utf8_width(right)) + 2 > g->w) {
		/* (a new cycle's offer or news: ? is known too) */
		char *h = strstr(right, "  ?:help ");
		if (h)
			memmove(h + 1, h + 9, strlen(h + 9) + 1);
	}
	int rw = (int)tt_utf8_width(right);
	char fit[700]; /* cut with an ellipsis, not in the middle of a word */
	tt_utf8_fit(fit, sizeof(fit), left, (size_t)TT_MAX(0, g->w - rw - 2));
	tt_grid_put(g, 1, y, a->status[0] ? (enum tt_role)a->status_role : TT_ROLE_STATUS, fit,
		    g->w - rw - 2);
	if (a->status[0] && a->status_role == TT_ROLE_DEFAULT)
		tt_grid_paint(g, 1, y, g->w - rw - 2, TT_ROLE_STATUS);
	tt_grid_put(g, g->w - rw, y, TT_ROLE_STATUS, right, rw);
}

/* A breadcrumb wider than w loses its first steps ("… > rank 0 > timeline"),
 * so that the pane in view is named to its end. */
static void fit_left(char *sub, size_t n, int w)
{
	if ((int)tt_utf8_width(sub) <= w)
		return;
	for (const char *q = strstr(sub, " > "); q; q = strstr(q + 3, " > "))
		if ((int)tt_utf8_width(q) + 1 <= w) {
			char tmp[400];
			snprintf(tmp, sizeof(tmp), "\u2026%s", q);
			snprintf(sub, n, "%s", tmp);
			return;
		}
}

void tt_app_draw(struct tt_app *a, struct tt_grid *g)
{
	int64_t t0 = tt_now_ns();
	tt_ui_reap(a, false);
	tt_grid_clear(g);
	a->w = g->w;
	a->h = g->h;
	if (g->w < TT_UI_MIN_W || g->h < TT_UI_MIN_H) {
		char msg[120];
		snprintf(msg, sizeof(msg), "terminal too small (%dx%d): tracetop needs %dx%d", g->w,
			 g->h, TT_UI_MIN_W, TT_UI_MIN_H);
		/* wrap onto as many rows as there are */
		int len = (int)strlen(msg);
		for (int y = 0, off = 0; y < g->h && off < len; y++, off += g->w)
			tt_grid_put(g, 0, y, TT_ROLE_WARNING, msg + off, g->w);
		return;
	}
	struct tt_pane *p = tt_app_pane(a);
	draw_title(a, g);
	/* subtitle: where we are */
	int y = 1;
	char sub[400];
	/* (the runs of a log directory before one is open: nothing below them) */
	int k = input_unopened(a) ? 0 : snprintf(sub, sizeof(sub), "%s", tt_view_top(a->cur)->ops->title);
	sub[k] = '\0';
	for (int i = 0; i < a->depth && k < (int)sizeof(sub) - 4; i++)
		k += snprintf(sub + k, sizeof(sub) - (size_t)k, "%s%s", k ? " > " : "",
			      a->stack[i]->subtitle[0] ? a->stack[i]->subtitle : a->stack[i]->ops->title);
	if (!a->depth && p->subtitle[0])
		snprintf(sub + k, sizeof(sub) - (size_t)k, ": %s", p->subtitle);
	char tagbuf[220] = "";
	if (tt_ui_diffing(a)) {
		/* which side the numbers are of */
		k = (int)strlen(sub);
		/* (the diff's own tables are of both, whichever side is shown) */
		int sides = tt_ui_pane_sides(p);
		char tag[200];
		if (sides)
			snprintf(tag, sizeof(tag), "%.60s | %.60s%s", view_name(a, TT_VIEW_CONTROL),
				 view_name(a, TT_VIEW_TEST), sides == 2 ? " | Δ" : "");
		else
			snprintf(tag, sizeof(tag), "%.60s",
				 view_name(a, a->view == TT_VIEW_TEST ? TT_VIEW_TEST : TT_VIEW_CONTROL));
		snprintf(tagbuf, sizeof(tagbuf), "  [%s]", tag);
	}
	if (p->filter[0]) {
		k = (int)strlen(tagbuf);
		snprintf(tagbuf + k, sizeof(tagbuf) - (size_t)k, "   filter: %s", p->filter);
	}
	/* the breadcrumb loses its first steps, then its last one is
	 * shortened as a name; the side tag and filter stay whole */
	int room = TT_MAX(10, g->w - 2 - (int)tt_utf8_width(tagbuf));
	fit_left(sub, sizeof(sub), room);
	if ((int)tt_utf8_width(sub) > room) {
		char fit[400];
		tt_name_fit(fit, sizeof(fit), sub, (size_t)room);
		snprintf(sub, sizeof(sub), "%s", fit);
	}
	k = (int)strlen(sub);
	snprintf(sub + k, sizeof(sub) - (size_t)k, "%s", tagbuf);
	tt_grid_put(g, 1, y++, TT_ROLE_HEADER, sub, g->w - 2);
	/* (a long message wraps above the status line) */
	tt_pane_draw(p, g, y, g->h - 1 - y - status_rows(a, g, p));
	draw_status(a, g, p);
	a->drew_waiting = p->waiting;
	a->last_draw_ns = tt_now_ns() - t0;
}

/* ---- runs and cycles (tracetop/input.h) ---- */

/* a log directory whose run is not chosen yet (the run list is shown) */
static bool input_unopened(const struct tt_app *a)
{
	return a->in && !tt_input_run(a->in);
}

/* the key that opens the cycles in the pane in view (c; the timeline
 * binds c to something else, C then) */
static const char *cycles_key(struct tt_app *a)
{
	const char *sec = tt_app_section(a);
	static const char *const keys[] = {"c", "C"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(keys); i++)
		if (tt_keymap_lookup(a->keys, sec, keys[i]) == TT_ACT_CYCLES)
			return keys[i];
	return tt_keymap_key_of(a->keys, sec, TT_ACT_CYCLES);
}

/* The status line's label: the run and the cycle shown ("r1: cycle 3 of 5
 * (12:03:05, steps 40-42)"), or the two compared. */
static void input_label(struct tt_app *a)
{
	if (!a->in)
		return;
	const struct tt_logdir *d = tt_input_logdir(a->in);
	const struct tt_run *r = tt_input_run(a->in);
	if (!r) {
		snprintf(a->label, sizeof(a->label), "%s: %zu runs", d ? d->path : "",
			 d ? d->nruns : 0);
		return;
	}
	char c0[200], c1[200] = "", run[96] = "";
	tt_input_cycle_text(a->in, a->side_m[0], c0, sizeof(c0));
	if (a->side_m[1])
		tt_input_cycle_text(a->in, a->side_m[1], c1, sizeof(c1));
	if (d)
		snprintf(run, sizeof(run), "%.80s: ", r->name);
	if (c0[0] && c1[0])
		snprintf(a->label, sizeof(a->label), "%s%s vs %s (of %zu)", run, a->side_label[0],
			 a->side_label[1], r->ncycles);
	else if (c0[0])
		snprintf(a->label, sizeof(a->label), "%s%s", run, c0);
	else if (d)
		snprintf(a->label, sizeof(a->label), "%s%zu rank%s", run, a->m->nranks,
			 a->m->nranks == 1 ? "" : "s");
}

/* Show m (and m2: the Test side of a comparison, m its Control) in place
 * of the models shown: every pane is built again over them, the pane key
 * in view stays.  The app owns them; the ones they replace are freed
 * once the analyses over them have stopped. */
static void swap_models(struct tt_app *a, struct tt_model *m, struct tt_model *m2)
{
	pop_all(a);
	for (int i = 0; i < TT_NTOP; i++) {
		tt_pane_free(a->top[i]);
		a->top[i] = NULL;
	}
	tt_pane_free(a->req_pane);
	a->req_pane = NULL;
	a->req_view[0] = '\0';
	a->req_tl.set = false;
	tt_ui_shared_free(a);
	for (int s = 0; s < 2; s++)
		if (a->side_res[s])
			tt_results_stop(a->side_res[s]);
	for (int s = 0; s < 2; s++) {
		tt_results_free(a->side_res[s]); /* (waits for its thread) */
		a->side_res[s] = NULL;
	}
	for (size_t i = 0; i < a->nretired; i++)
		tt_results_free(a->retired[i]);
	a->nretired = 0;
	a->res = NULL;
	for (int s = 0; s < 2; s++)
		if (a->own[s] && a->own[s] != m && a->own[s] != m2)
			tt_model_free(a->own[s]);
	a->own[0] = m;
	a->own[1] = m2;
	a->m = a->side_m[0] = m;
	a->m2 = a->side_m[1] = m2;
	free(a->pairs);
	a->pairs = NULL;
	a->npairs = 0;
	if (m2) {
		struct tt_diff_opts dopt;
		tt_diff_opts_init(&dopt);
		dopt.map = a->ropts.diff_map;
		dopt.nmap = a->ropts.diff_nmap;
		tt_diff_pairs(m, m2, &dopt, &a->pairs, &a->npairs, NULL);
	}
	/* the ranks chosen stay when the new model has them all */
	for (size_t i = 0; i < a->nranks; i++)
		if (pane_rank_index(m, a->ranks[i]) == SIZE_MAX) {
			free(a->ranks);
			a->ranks = NULL;
			a->nranks = 0;
			break;
		}
	a->view = m2 ? TT_VIEW_BOTH : TT_VIEW_CONTROL;
	a->diff_mode = m2 != NULL;
	a->ropts.label_a = m2 ? a->side_label[0] : "Control";
	a->ropts.label_b = m2 ? a->side_label[1] : "Test";
	pair_ranks(a);
	results_start(a);
	a->status[0] = '\0';
}

/* the cycle shown (the newer side of a comparison), as an index */
static size_t shown_cycle(const struct tt_app *a, const struct tt_run *r)
{
	const struct tt_model *m = a->side_m[1] ? a->side_m[1] : a->side_m[0];
	size_t c = m && m->cycle ? tt_run_cycle_at(r, m->cycle_time) : SIZE_MAX;
	return c == SIZE_MAX && r->ncycles ? r->ncycles - 1 : c;
}

/* say what is being opened; tt_app_tick opens it */
static void input_request(struct tt_app *a)
{
	const struct tt_run *r = a->in ? tt_input_run(a->in) : NULL;
	const struct tt_logdir *d = a->in ? tt_input_logdir(a->in) : NULL;
	size_t arg = a->req_in.arg;
	switch (a->req_in.kind) {
	case TT_REQ_RUN:
		if (!d || arg >= d->nruns) {
			a->req_in.kind = TT_REQ_NONE;
			return;
		}
		tt_ui_status(a, TT_ROLE_DIM, "loading run %s ...", d->runs[arg]->name);
		break;
	case TT_REQ_CYCLE:
		if (!r || !arg || arg > r->ncycles) {
			a->req_in.kind = TT_REQ_NONE;
			return;
		}
		tt_ui_status(a, TT_ROLE_DIM, "loading cycle %zu of %zu ...", arg, r->ncycles);
		break;
	case TT_REQ_DIFF:
		tt_ui_status(a, TT_ROLE_DIM, "loading the cycle before this one ...");
		break;
	default:
		break;
	}
}

/* the error of a load that gave no rank, in a few words */
static void load_failed(struct tt_app *a, const char *what, const struct tt_model *m,
			const char *why)
{
	char buf[600] = "nothing could be read";
	if (why[0]) {
		tt_ui_status(a, TT_ROLE_ERROR, "%s", why); /* (it names what) */
		return;
	}
	if (m && m->nfailures)
		tt_err_format(&m->failures[0].err, buf, sizeof(buf));
	tt_ui_status(a, TT_ROLE_ERROR, "%s: %s", what, buf);
}

/* a new cycle ready is dropped once one as new is shown */
static void drop_fresh(struct tt_app *a)
{
	if (!a->fresh)
		return;
	const struct tt_model *m = a->side_m[1] ? a->side_m[1] : a->side_m[0];
	if (m && tt_input_ready_time(a->in) <= m->cycle_time) {
		tt_model_free(tt_input_take(a->in));
		a->fresh = false;
	}
}

/* open what was asked for (a run, a cycle, a comparison) */
static void input_open(struct tt_app *a)
{
	enum tt_req_kind kind = a->req_in.kind;
	size_t arg = a->req_in.arg;
	a->req_in.kind = TT_REQ_NONE;
	struct tt_input *in = a->in;
	const struct tt_run *r = in ? tt_input_run(in) : NULL;
	if (!in || (kind != TT_REQ_RUN && !r))
		return;
	char why[400] = "", what[120];
	struct tt_model *m = NULL;
	int rc = 0;
	if (kind == TT_REQ_RUN) {
		size_t old = tt_input_run_index(in);
		tt_input_set_run(in, arg);
		r = tt_input_run(in);
		snprintf(what, sizeof(what), "run %s", r ? r->name : "?");
		rc = r ? tt_input_load(in, TT_CYCLE_DEFAULT, NULL, &m, why, sizeof(why)) : -1;
		if (rc || !m || !m->nranks) {
			load_failed(a, what, m, why);
			tt_model_free(m);
			tt_input_set_run(in, old);
			return;
		}
		a->back_cycle = 0;
		a->fresh = false;
		swap_models(a, m, NULL);
	} else if (kind == TT_REQ_CYCLE) {
		snprintf(what, sizeof(what), "cycle %zu", arg);
		if (a->fresh && tt_input_ready_time(in) == r->cycles[arg - 1].time) {
			m = tt_input_take(in); /* (loaded already) */
			a->fresh = false;
		} else {
			rc = tt_input_load(in, (int)arg, NULL, &m, why, sizeof(why));
		}
		if (rc || !m || !m->nranks) {
			load_failed(a, what, m, why);
			tt_model_free(m);
			return;
		}
		a->back_cycle = 0;
		swap_models(a, m, NULL);
		why[0] = '\0';
	} else if (kind == TT_REQ_DIFF) {
		size_t cur = shown_cycle(a, r);
		if (cur == SIZE_MAX || cur == 0 || a->m2)
			return;
		snprintf(what, sizeof(what), "cycle %zu", cur);
		rc = tt_input_load(in, (int)cur, NULL, &m, why, sizeof(why));
		if (rc || !m || !m->nranks) {
			load_failed(a, what, m, why);
			tt_model_free(m);
			return;
		}
		snprintf(a->side_label[0], sizeof(a->side_label[0]), "cycle %zu", cur);
		snprintf(a->side_label[1], sizeof(a->side_label[1]), "cycle %zu", cur + 1);
		a->back_cycle = (int)cur + 1;
		swap_models(a, m, a->own[0]);
		snprintf(why, sizeof(why), "cycle %zu | cycle %zu side by side (0: the Diff; %s: "
			 "back to cycle %zu alone)", cur, cur + 1,
			 tt_keymap_key_of(a->keys, tt_app_section(a), TT_ACT_CYCLE_DIFF), cur + 1);
	} else if (kind == TT_REQ_UNDIFF) {
		if (!a->own[1])
			return;
		a->back_cycle = 0;
		swap_models(a, a->own[1], NULL);
	}
	drop_fresh(a);
	input_label(a);
	tt_app_pane(a);
	if (why[0])
		tt_ui_status(a, TT_ROLE_DEFAULT, "%s", why);
}

/* the list of runs or cycles, its cursor on the one shown */
static void input_push(struct tt_app *a, const struct tt_pane_ops *ops)
{
	struct tt_pane *p = tt_pane_new(a, ops);
	tt_app_push(a, p);
	if (a->depth && a->stack[a->depth - 1] == p)
		tt_input_list_goto(p);
}

static int input_action(struct tt_app *a, enum tt_action act)
{
	if (!a->in) {
		tt_ui_status(a, TT_ROLE_DIM, "%s",
			     a->m2 ? "a comparison of the command line: its cycles and runs are "
				     "chosen there (--cycle, --run)" :
				     "no cycles: cycles and runs are of folders as PyTorch writes "
				     "them ({worker}.{timestamp}.pt.trace.json)");
		return TT_R_REDRAW;
	}
	const struct tt_run *r = tt_input_run(a->in);
	struct tt_pane *p = tt_app_pane(a);
	if (act == TT_ACT_RUNS) {
		if (!tt_input_logdir(a->in))
			tt_ui_status(a, TT_ROLE_DIM, "one run: a log directory is a folder whose "
				     "subfolders hold the traces of each run");
		else if (p->ops != &tt_runs_ops)
			input_push(a, &tt_runs_ops);
		return TT_R_REDRAW;
	}
	if (!r || !r->cycled) {
		tt_ui_status(a, TT_ROLE_DIM, "one cycle: the files do not name profiling cycles "
			     "({worker}.{timestamp}.pt.trace.json)");
		return TT_R_REDRAW;
	}
	size_t cur = shown_cycle(a, r);
	switch (act) {
	case TT_ACT_CYCLES:
		if (a->fresh) {
			/* the new cycle, in the pane in view */
			struct tt_model *m = tt_input_take(a->in);
			a->fresh = false;
			if (m) {
				a->back_cycle = 0;
				swap_models(a, m, NULL);
				input_label(a);
				tt_app_pane(a);
				tt_ui_status(a, TT_ROLE_DEFAULT, "%s", a->label);
			}
		} else if (p->ops != &tt_cycles_ops) {
			input_push(a, &tt_cycles_ops);
		}
		return TT_R_REDRAW;
	case TT_ACT_PREV_CYCLE:
		if (cur == 0) {
			tt_ui_status(a, TT_ROLE_DIM, "cycle 1 is the oldest");
			return TT_R_REDRAW;
		}
		tt_ui_open_input(a, TT_REQ_CYCLE, cur);
		break;
	case TT_ACT_NEXT_CYCLE:
		if (cur + 1 >= r->ncycles) {
			tt_ui_status(a, TT_ROLE_DIM, "cycle %zu is the newest", r->ncycles);
			return TT_R_REDRAW;
		}
		tt_ui_open_input(a, TT_REQ_CYCLE, cur + 2);
		break;
	default: /* TT_ACT_CYCLE_DIFF */
		if (a->back_cycle) {
			tt_ui_open_input(a, TT_REQ_UNDIFF, 0);
		} else if (a->m2) {
			tt_ui_status(a, TT_ROLE_DIM, "already a comparison");
			return TT_R_REDRAW;
		} else if (cur == 0) {
			tt_ui_status(a, TT_ROLE_DIM, "cycle 1 has no cycle before it");
			return TT_R_REDRAW;
		} else {
			tt_ui_open_input(a, TT_REQ_DIFF, 0);
		}
		break;
	}
	input_request(a);
	return TT_R_REDRAW;
}

/* a list of the runs or cycles in view shows them as they are now */
static void input_relist(struct tt_app *a)
{
	if (a->depth > 0 && (a->stack[a->depth - 1]->ops == &tt_cycles_ops ||
			     a->stack[a->depth - 1]->ops == &tt_runs_ops)) {
		const struct tt_pane_ops *ops = a->stack[a->depth - 1]->ops;
		const struct tt_pane *old = a->stack[a->depth - 1];
		size_t cursor = old->cursor;
		/* (the run under the cursor stays under it when a new run comes
		 * before it in the list) */
		char *name = NULL;
		if (ops == &tt_runs_ops && old->table && cursor < old->nrows &&
		    tt_table_cell(old->table, old->rows[cursor], 0)->v.s)
			name = tt_strdup(tt_table_cell(old->table, old->rows[cursor], 0)->v.s);
		tt_pane_free(a->stack[--a->depth]);
		struct tt_pane *p = tt_pane_new(a, ops);
		a->stack[a->depth++] = p;
		tt_pane_open(p);
		tt_input_list_goto(p);
		if (cursor < p->nrows && !a->fresh)
			p->cursor = cursor;
		for (size_t i = 0; name && p->table && i < p->nrows; i++) {
			const char *v = tt_table_cell(p->table, p->rows[i], 0)->v.s;
			if (v && strcmp(v, name) == 0)
				p->cursor = i;
		}
		free(name);
	}
}

void tt_app_set_input(struct tt_app *a, struct tt_input *in, struct tt_model *m)
{
	a->in = in;
	a->own[0] = m;
	input_label(a);
	if (input_unopened(a))
		input_push(a, &tt_runs_ops);
}

int tt_app_input_fd(const struct tt_app *a)
{
	return a->in ? tt_input_follow_fd(a->in) : -1;
}

int tt_app_input_wait_ms(const struct tt_app *a)
{
	if (a->req_in.kind)
		return 0;
	return a->in ? tt_input_follow_wait_ms(a->in) : -1;
}

bool tt_app_tick(struct tt_app *a, bool woken)
{
	bool redraw = false;
	if (a->req_in.kind) {
		input_open(a);
		redraw = true;
	}
	if (a->in && tt_input_following(a->in)) {
		tt_input_show_runs(a->in, a->depth > 0 &&
					      a->stack[a->depth - 1]->ops == &tt_runs_ops);
		unsigned f = tt_input_tick(a->in, woken);
		if (f & TT_IN_READY) {
			a->fresh = true;
			drop_fresh(a);
		}
		if (f) {
			input_label(a);
			input_relist(a);
			redraw = true;
		}
		/* (what the job is writing changes with time, not only with
		 * the files: asked at every tick) */
		char pending[sizeof(a->pending)];
		tt_input_pending(a->in, false, pending, sizeof(pending));
		if (strcmp(pending, a->pending) != 0) {
			snprintf(a->pending, sizeof(a->pending), "%s", pending);
			tt_input_pending(a->in, true, a->pending_brief, sizeof(a->pending_brief));
			redraw = true;
		}
	}
	return redraw;
}
