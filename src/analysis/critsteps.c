/* The critical path of every selected rank per window (critpath.h's
 * tt_cp_steps): what `tracetop report critical-path` formats and the
 * Critical path pane draws, computed once. */
#include "config.h"

#include "tracetop/critpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

void tt_cp_steps_opts_init(struct tt_cp_steps_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->inst_first = o->inst_last = -1;
}

const char *tt_cp_group_label(enum tt_cp_group g)
{
	static const char *const n[] = {"CPU", "GPU compute", "communication",
					"launch overhead, kernel gaps"};
	return g < TT_CPG_COUNT ? n[g] : "?";
}

void tt_cp_groups(const struct tt_cp_result *res, int64_t out[TT_CPG_COUNT])
{
	const struct tt_cp_sum *by = res->by_bound;
	out[TT_CPG_CPU] = by[TT_CPB_CPU].dur + by[TT_CPB_DATA].dur;
	out[TT_CPG_GPU] = by[TT_CPB_COMPUTE].dur;
	out[TT_CPG_COMM] = by[TT_CPB_COMM].dur;
	out[TT_CPG_OVERHEAD] = by[TT_CPB_LAUNCH].dur + by[TT_CPB_KK].dur;
}

int tt_cp_bound_rank(const struct tt_cp_sum by[TT_CPB_COUNT], int k)
{
	int order[TT_CPB_COUNT];
	int m = 0;
	for (int b = 0; b < TT_CPB_COUNT; b++) {
		if (b == TT_CPB_NONE || by[b].dur <= 0)
			continue;
		int j = m++;
		while (j > 0 && by[order[j - 1]].dur < by[b].dur) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = b;
	}
	return k >= 0 && k < m ? order[k] : -1;
}

/* the windows of one rank */
struct rank_out {
	struct tt_cp_step *w;
	size_t n, cap;
};

struct ctx {
	const struct tt_model *m;
	const struct tt_cp_steps_opts *o;
	struct rank_out *out; /* by rank index */
};

static void run_one(struct tt_cp *c, struct rank_out *ro, size_t ri, const struct tt_cp_window *w,
		    const char *annot, bool fell_back)
{
	TT_GROW(ro->w, ro->cap, ro->n + 1);
	struct tt_cp_step *p = &ro->w[ro->n++];
	memset(p, 0, sizeof(*p));
	tt_cp_run(c, w, &p->res);
	p->ri = ri;
	snprintf(p->annotation, sizeof(p->annotation), "%s", annot);
	p->fell_back = fell_back;
	p->t0 = w->t0;
	p->t1 = w->t1;
	const struct tt_cp_result *res = &p->res;
	const struct tt_rank *r = res->r;
	if (w->kind == TT_CPW_ALL) {
		snprintf(p->inst, sizeof(p->inst), "0");
		snprintf(p->step, sizeof(p->step), "whole trace");
		return;
	}
	if (w->kind == TT_CPW_TIME) {
		snprintf(p->inst, sizeof(p->inst), "0");
		return;
	}
	int64_t a = res->status == TT_CP_OK ? res->first : w->first;
	int64_t b = res->status == TT_CP_OK ? res->last : w->last;
	if (a == b)
		snprintf(p->inst, sizeof(p->inst), "%lld", (long long)a);
	else
		snprintf(p->inst, sizeof(p->inst), "%lld-%lld", (long long)a, (long long)b);
	if (res->win_ev != TT_NONE)
		snprintf(p->step, sizeof(p->step), "%s%s", tt_ev_name(r, &r->ev[res->win_ev]),
			 res->last > res->first ? " +" : "");
	else
		snprintf(p->step, sizeof(p->step), "-");
}

static void rank_work(size_t ri, void *arg)
{
	struct ctx *x = arg;
	const struct tt_cp_steps_opts *o = x->o;
	struct rank_out *ro = &x->out[ri];
	struct tt_cp *c = tt_cp_prepare(x->m, ri, &o->cp);
	const char *annot = o->annotation ? o->annotation : TT_CP_DEFAULT_ANNOTATION;
	struct tt_cp_window w = {.kind = TT_CPW_ALL, .t0 = INT64_MIN, .t1 = INT64_MAX};
	const uint32_t *rows;
	size_t n;
	if (o->has_from || o->has_to) {
		/* a time range: the ops that start in it */
		int64_t base = tt_model_origin(x->m);
		w.kind = TT_CPW_TIME;
		w.t0 = o->has_from ? base + o->from : INT64_MIN;
		w.t1 = o->has_to ? base + o->to : INT64_MAX;
		run_one(c, ro, ri, &w, "", false);
	} else if (!*annot) {
		run_one(c, ro, ri, &w, "", false);
	} else if (!(n = tt_cp_instances(c, annot, &rows))) {
		/* (the reference does the same: no such row, the whole trace) */
		run_one(c, ro, ri, &w, "", true);
	} else {
		w.kind = TT_CPW_ANNOT;
		w.annotation = annot;
		if (o->inst_first >= 0) {
			w.first = o->inst_first;
			w.last = o->inst_last;
			run_one(c, ro, ri, &w, annot, false);
		} else {
			for (size_t i = 0; i < n; i++) {
				w.first = w.last = (int64_t)i;
				run_one(c, ro, ri, &w, annot, false);
			}
		}
	}
	tt_cp_free(c);
}

static int i64_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* Per instance across ranks: the longest path, the median, and the rows
 * to mark (several ranks only). */
static void stragglers(struct tt_cp_steps *s)
{
	if (s->nranks < 2)
		return;
	size_t cap = 0;
	bool *seen = tt_calloc(s->n + 1, sizeof(*seen));
	int64_t *len = tt_malloc((s->n + 1) * sizeof(*len));
	for (size_t i = 0; i < s->n; i++) {
		if (seen[i])
			continue;
		const char *inst = s->steps[i].inst;
		size_t k = 0, best = SIZE_MAX;
		for (size_t j = i; j < s->n; j++) {
			const struct tt_cp_step *p = &s->steps[j];
			if (strcmp(p->inst, inst) != 0)
				continue;
			seen[j] = true;
			if (p->res.status != TT_CP_OK)
				continue;
			len[k++] = p->res.length;
			if (best == SIZE_MAX || p->res.length > s->steps[best].res.length)
				best = j;
		}
		if (k < 2)
			continue;
		tt_msort(len, k, sizeof(*len), i64_cmp, NULL);
		int64_t med = k % 2 ? len[k / 2] : len[k / 2 - 1] + (len[k / 2] - len[k / 2 - 1]) / 2;
		TT_GROW(s->strag, cap, s->nstrag + 1);
		struct tt_cp_straggler *g = &s->strag[s->nstrag++];
		g->step = best;
		g->ranks = (uint32_t)k;
		g->median = med;
		g->over_pct = med > 0 ? (double)(s->steps[best].res.length - med) * 100.0 / (double)med :
					0.0;
		s->steps[best].longest = true;
	}
	free(len);
	free(seen);
}

void tt_cp_steps_compute(const struct tt_model *m, const struct tt_cp_steps_opts *o,
			 struct tt_cp_steps *out)
{
	memset(out, 0, sizeof(*out));
	out->longest = SIZE_MAX;
	struct ctx x = {.m = m, .o = o};
	x.out = tt_calloc(m->nranks + 1, sizeof(*x.out));
	tt_for_ranks(m, o->cp.a, rank_work, &x);
	size_t total = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		total += x.out[ri].n;
		out->nranks += x.out[ri].n > 0;
	}
	out->steps = tt_malloc((total + 1) * sizeof(*out->steps));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (x.out[ri].n)
			memcpy(out->steps + out->n, x.out[ri].w, x.out[ri].n * sizeof(*out->steps));
		out->n += x.out[ri].n;
		free(x.out[ri].w);
	}
	free(x.out);
	for (size_t i = 0; i < out->n; i++) {
		const struct tt_cp_result *res = &out->steps[i].res;
		if (res->status == TT_CP_OK &&
		    (out->longest == SIZE_MAX || res->length > out->steps[out->longest].res.length))
			out->longest = i;
	}
	stragglers(out);
}

void tt_cp_steps_free(struct tt_cp_steps *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		tt_cp_result_free(&s->steps[i].res);
	free(s->steps);
	free(s->strag);
	memset(s, 0, sizeof(*s));
}
