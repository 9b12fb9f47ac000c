/* The critical path of every selected rank per window (critpath.h's
 * tt_cp_steps): what `tracetop report critical-path` formats and the
 * Critical path pane draws, computed once. */
#include "config.h"

#include "tracetop/critpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/collectives.h"
#include "tracetop/util.h"

void tt_cp_steps_opts_init(struct tt_cp_steps_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->inst_first = o->inst_last = -1;
	o->cp.model = TT_CPM_TRACETOP;
}

void tt_cp_groups(const struct tt_cp_result *res, int64_t out[TT_CPG_COUNT])
{
	const struct tt_cp_sum *by = res->by_bound;
	out[TT_CPG_DATA] = by[TT_CPB_DATA].dur;
	out[TT_CPG_CPU] = by[TT_CPB_CPU].dur + by[TT_CPB_OUTSIDE].dur + by[TT_CPB_START].dur;
	out[TT_CPG_GPU] = by[TT_CPB_COMPUTE].dur + by[TT_CPB_MEM].dur;
	out[TT_CPG_COMM] = by[TT_CPB_COMM].dur;
	out[TT_CPG_WAIT] = by[TT_CPB_WAIT].dur;
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

/* ---- the job's path per step ---- */

struct jwin {
	int64_t num;
	size_t idx; /* into s->steps */
	size_t ri;
};

static int jwin_cmp(const void *a, const void *b, void *ctx)
{
	const struct jwin *x = a, *y = b;
	(void)ctx;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->ri < y->ri ? -1 : x->ri > y->ri;
}

static int64_t offset_of(const struct tt_coll *cl, size_t ri)
{
	const struct tt_coll_clock *k = cl ? tt_coll_clock_of(cl, ri) : NULL;
	return k ? k->offset : 0;
}

/* where the job's path went over to a late rank */
struct jjump {
	size_t idx;    /* the late rank's window */
	uint32_t tn;   /* its arrival (a tree node) */
	uint32_t coll; /* the collective (tt_coll.colls) */
};

struct jbuild {
	struct tt_cp_steps *s;
	const struct tt_coll *cl;
	const struct jwin *w;  /* the step's windows */
	size_t nw;
	struct tt_cp_jedge *e; /* the path backwards */
	size_t n, cap;
	struct jjump *jumps;   /* in the order met (backwards in time) */
	size_t njumps, jcap;
};

static void jpush(struct jbuild *j, size_t idx, const struct tt_cp_node *u,
		  const struct tt_cp_node *v, const struct tt_cp_edge *e)
{
	const struct tt_cp_step *st = &j->s->steps[idx];
	TT_GROW(j->e, j->cap, j->n + 1);
	struct tt_cp_jedge *x = &j->e[j->n++];
	x->ri = st->ri;
	x->rank = st->res.rank;
	x->offset = offset_of(j->cl, st->ri);
	x->u = *u;
	x->v = *v;
	x->e = *e;
}

/* The window (index into s->steps) of the rank that arrived last in the
 * collective of the wait edge e, and its tree node there; false when not
 * found. */
static bool jump(const struct jbuild *j, const struct tt_cp_edge *e, size_t *idx, uint32_t *tn)
{
	const struct tt_coll *cl = j->cl;
	if (!cl || e->coll_part == TT_NONE)
		return false;
	const struct tt_coll_op *co = &cl->colls[cl->parts[e->coll_part].coll];
	if (co->last == TT_NONE)
		return false;
	size_t lri = cl->parts[co->last].ri;
	for (size_t i = 0; i < j->nw; i++) {
		if (j->w[i].ri != lri)
			continue;
		const struct tt_cp_result *res = &j->s->steps[j->w[i].idx].res;
		for (size_t t = 0; t < res->ntargets; t++)
			if (res->targets[t].part == co->last && res->targets[t].tnode != TT_NONE) {
				*idx = j->w[i].idx;
				*tn = res->targets[t].tnode;
				return true;
			}
		return false;
	}
	return false;
}

/* the job's path of one step: its edges, backwards, into j->e */
static void job_walk(struct jbuild *j, size_t end_idx, struct tt_cp_job *job)
{
	size_t idx = end_idx;
	const struct tt_cp_result *res = &j->s->steps[idx].res;
	/* on the end rank's path, then on trees */
	size_t budget = (j->cl ? j->cl->ncolls : 0) + 2;
	bool on_path = true;
	uint32_t tn = TT_NONE;
	size_t pe = res->nedges;
	job->nsegs = 1;
	for (;;) {
		const struct tt_cp_edge *e;
		const struct tt_cp_node *u, *v;
		struct tt_cp_node un;
		if (on_path) {
			if (!pe)
				return;
			pe--;
			e = &res->edges[pe];
			u = &res->nodes[pe];
			v = &res->nodes[pe + 1];
		} else {
			const struct tt_cp_tnode *x = &res->tnodes[tn];
			if (x->parent == TT_NONE)
				return;
			e = &x->edge;
			un = res->tnodes[x->parent].node;
			u = &un;
			v = &x->node;
		}
		size_t nidx;
		uint32_t ntn;
		if (e->type == TT_CPE_WAIT && e->weight > 0 && budget) {
			if (!jump(j, e, &nidx, &ntn)) {
				job->cut = true;
				return;
			}
			budget--;
			TT_GROW(j->jumps, j->jcap, j->njumps + 1);
			j->jumps[j->njumps++] =
				(struct jjump){nidx, ntn, j->cl->parts[e->coll_part].coll};
			idx = nidx;
			res = &j->s->steps[idx].res;
			on_path = false;
			tn = ntn;
			job->nsegs++;
			continue;
		}
		jpush(j, idx, u, v, e);
		if (!on_path)
			tn = res->tnodes[tn].parent;
	}
}

static int i64s_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* The class sums of the other ranks' paths (s->steps[w[i].idx]) up to
 * their wait in collective coll, one row of TT_CPB_COUNT each, into v;
 * returns the rows (ranks whose path has that wait). */
static size_t prefixes(const struct tt_cp_steps *s, const struct jbuild *j, size_t me_ri,
		       uint32_t coll, int64_t *v)
{
	size_t k = 0;
	for (size_t i = 0; i < j->nw; i++) {
		if (j->w[i].ri == me_ri)
			continue;
		const struct tt_cp_result *o = &s->steps[j->w[i].idx].res;
		size_t at = o->nedges;
		for (size_t e = 0; e < o->nedges && at == o->nedges; e++) {
			const struct tt_cp_edge *x = &o->edges[e];
			if (x->type == TT_CPE_WAIT && x->coll_part != TT_NONE &&
			    j->cl->parts[x->coll_part].coll == coll)
				at = e;
		}
		if (at == o->nedges)
			continue;
		int64_t *row = v + k * TT_CPB_COUNT;
		memset(row, 0, TT_CPB_COUNT * sizeof(*row));
		for (size_t e = 0; e < at; e++)
			tt_sat_acc(&row[o->edges[e].bound], o->edges[e].weight);
		k++;
	}
	return k;
}

/* What makes the bounding rank late.  At the first collective of the step
 * it arrived last in while others waited (and whose wait is on some other
 * rank's path), its path to its arrival is compared, class by class, with
 * the other ranks' paths up to their arrival there (the part of their own
 * path before that wait): the class in which it exceeds their median most
 * bounds it.  Without such a comparison (it made nobody wait, or no other
 * rank's path has the wait), its largest class. */
static void job_bound(const struct tt_cp_steps *s, const struct jbuild *j, struct tt_cp_job *job)
{
	const struct tt_cp_result *res = &s->steps[job->rank_step].res;
	int best = -1;
	int64_t best_x = 0;
	int64_t *v = tt_malloc((j->nw + 1) * TT_CPB_COUNT * sizeof(*v));
	int64_t *col = tt_malloc((j->nw + 1) * sizeof(*col));
	bool *tried = tt_calloc(res->ntargets + 1, sizeof(*tried));
	for (size_t round = 0; j->cl && round < res->ntargets && best < 0; round++) {
		/* the earliest target not tried */
		size_t t = SIZE_MAX;
		for (size_t i = 0; i < res->ntargets; i++)
			if (!tried[i] && res->targets[i].tnode != TT_NONE &&
			    (t == SIZE_MAX || res->tnodes[res->targets[i].tnode].node.ts <
						      res->tnodes[res->targets[t].tnode].node.ts))
				t = i;
		if (t == SIZE_MAX)
			break;
		tried[t] = true;
		uint32_t coll = j->cl->parts[res->targets[t].part].coll;
		size_t k = prefixes(s, j, job->ri, coll, v);
		if (!k)
			continue;
		int64_t mine[TT_CPB_COUNT] = {0};
		for (uint32_t n = res->targets[t].tnode; res->tnodes[n].parent != TT_NONE;
		     n = res->tnodes[n].parent)
			tt_sat_acc(&mine[res->tnodes[n].edge.bound], res->tnodes[n].edge.weight);
		for (int b = 0; b < TT_CPB_COUNT; b++) {
			if (b == TT_CPB_NONE || b == TT_CPB_WAIT)
				continue;
			for (size_t i = 0; i < k; i++)
				col[i] = v[i * TT_CPB_COUNT + b];
			tt_msort(col, k, sizeof(*col), i64s_cmp, NULL);
			int64_t med = k % 2 ? col[k / 2] : col[k / 2 - 1] + (col[k / 2] - col[k / 2 - 1]) / 2;
			if (mine[b] - med > best_x) {
				best_x = mine[b] - med;
				best = b;
			}
		}
		if (best < 0)
			break; /* (compared: it exceeds them in nothing) */
	}
	free(tried);
	/* how much later than the others its step started (job's clock) */
	size_t k = 0;
	int64_t mine = s->steps[job->rank_step].res.step_t0 - offset_of(j->cl, job->ri);
	for (size_t i = 0; i < j->nw; i++)
		if (j->w[i].ri != job->ri)
			col[k++] = s->steps[j->w[i].idx].res.step_t0 - offset_of(j->cl, j->w[i].ri);
	if (k) {
		tt_msort(col, k, sizeof(*col), i64s_cmp, NULL);
		int64_t med = k % 2 ? col[k / 2] : col[k / 2 - 1] + (col[k / 2] - col[k / 2 - 1]) / 2;
		job->late_ns = TT_MAX(mine - med, 0);
	}
	free(col);
	free(v);
	if (best < 0) {
		best = tt_cp_bound_rank(res->by_bound, 0);
		best_x = 0;
	}
	if (best < 0)
		best = TT_CPB_NONE;
	job->bound = (uint8_t)best;
	job->bound_ns = res->by_bound[best].dur;
	job->excess_ns = best_x;
	/* late from the step before: what bound it there */
	if (job->late_ns > best_x && job > s->jobs && job[-1].ri == job->ri) {
		job->carried = true;
		job->bound = job[-1].bound;
		job->bound_ns = res->by_bound[job->bound].dur;
	}
}

/* the other ranks' waits for rank ri in step num's collectives */
static void job_waits(const struct tt_coll *cl, const uint32_t *cidx, size_t nc, size_t ri,
		      uint8_t *stamp, struct tt_cp_job *job)
{
	int64_t best = 0;
	for (size_t i = 0; i < nc; i++) {
		const struct tt_coll_op *co = &cl->colls[cidx[i]];
		if (co->last == TT_NONE || cl->parts[co->last].ri != ri || co->wait_sum <= 0)
			continue;
		tt_sat_acc(&job->wait_caused, co->wait_sum);
		if (co->wait_sum > best) {
			best = co->wait_sum;
			snprintf(job->coll, sizeof(job->coll), "%s", co->name);
		}
		for (uint32_t k = 0; k < co->n; k++) {
			const struct tt_coll_part *p = &cl->parts[cl->members[co->first + k]];
			if (p->wait > 0 && !stamp[p->ri]) {
				stamp[p->ri] = 1;
				job->nwaiting++;
			}
		}
	}
}

static int coll_step_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_coll *cl = ctx;
	const struct tt_coll_op *x = &cl->colls[*(const uint32_t *)a],
				*y = &cl->colls[*(const uint32_t *)b];
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void jobs(const struct tt_model *m, const struct tt_cp_steps_opts *o,
		 struct tt_cp_steps *s)
{
	const struct tt_coll *cl = o->cp.coll;
	struct jwin *w = tt_malloc((s->n + 1) * sizeof(*w));
	size_t nw = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_cp_step *st = &s->steps[i];
		const struct tt_cp_result *res = &st->res;
		if (res->status != TT_CP_OK || !res->has_step || res->win_ev == TT_NONE)
			continue;
		int64_t num = tt_step_number(tt_ev_name(res->r, &res->r->ev[res->win_ev]));
		if (num < 0)
			continue;
		w[nw++] = (struct jwin){num, i, st->ri};
	}
	tt_msort(w, nw, sizeof(*w), jwin_cmp, NULL);
	/* the collectives by step */
	uint32_t *cidx = NULL;
	size_t ncl = cl ? cl->ncolls : 0;
	if (ncl) {
		cidx = tt_malloc(ncl * sizeof(*cidx));
		for (size_t i = 0; i < ncl; i++)
			cidx[i] = (uint32_t)i;
		tt_msort(cidx, ncl, sizeof(*cidx), coll_step_cmp, (void *)cl);
	}
	uint8_t *stamp = tt_calloc(m->nranks + 1, 1);
	size_t jcap = 0, c0 = 0;
	struct jbuild j = {.s = s, .cl = cl};
	size_t ecap = 0; /* (grown by doubling: one realloc per step was quadratic) */
	for (size_t a = 0; a < nw;) {
		size_t b = a;
		while (b < nw && w[b].num == w[a].num)
			b++;
		TT_GROW(s->jobs, jcap, s->njobs + 1);
		struct tt_cp_job *job = &s->jobs[s->njobs++];
		memset(job, 0, sizeof(*job));
		job->step = w[a].num;
		job->nranks = (uint32_t)(b - a);
		job->t0 = INT64_MAX;
		job->t1 = INT64_MIN;
		size_t end_idx = w[a].idx;
		for (size_t i = a; i < b; i++) {
			const struct tt_cp_result *res = &s->steps[w[i].idx].res;
			int64_t off = offset_of(cl, w[i].ri);
			job->t0 = TT_MIN(job->t0, res->step_t0 - off);
			if (res->step_t1 - off > job->t1) {
				job->t1 = res->step_t1 - off;
				end_idx = w[i].idx;
			}
		}
		job->end_ri = s->steps[end_idx].ri;
		job->end_rank = s->steps[end_idx].res.rank;
		j.w = w + a;
		j.nw = b - a;
		j.n = 0;
		j.njumps = 0;
		job_walk(&j, end_idx, job);
		/* forwards, into the result */
		job->first = s->njedges;
		TT_GROW(s->jedges, ecap, s->njedges + j.n + 1);
		for (size_t i = j.n; i-- > 0;)
			s->jedges[s->njedges++] = j.e[i];
		job->n = j.n;
		/* the rank with most of it */
		int64_t *on = tt_calloc(m->nranks + 1, sizeof(*on));
		for (size_t i = job->first; i < job->first + job->n; i++) {
			const struct tt_cp_jedge *x = &s->jedges[i];
			tt_sat_acc(&job->length, x->e.weight);
			tt_sat_acc(&job->by_bound[x->e.bound].dur, x->e.weight);
			job->by_bound[x->e.bound].count++;
			tt_sat_acc(&on[x->ri], x->e.weight);
		}
		job->ri = job->end_ri;
		for (size_t i = job->first; i < job->first + job->n; i++)
			if (on[s->jedges[i].ri] > on[job->ri])
				job->ri = s->jedges[i].ri;
		job->rank_ns = on[job->ri];
		free(on);
		job->rank = m->ranks[job->ri]->rank;
		job->rank_step = end_idx;
		for (size_t i = a; i < b; i++)
			if (w[i].ri == job->ri)
				job->rank_step = w[i].idx;
		job_bound(s, &j, job);
		s->steps[job->rank_step].bounds_job = true;
		/* the waits it caused */
		while (c0 < ncl && cl->colls[cidx[c0]].step < job->step)
			c0++;
		size_t c1 = c0;
		while (c1 < ncl && cl->colls[cidx[c1]].step == job->step)
			c1++;
		memset(stamp, 0, m->nranks + 1);
		/* (cidx is NULL when there is no collective) */
		job_waits(cl, c1 > c0 ? cidx + c0 : NULL, c1 - c0, job->ri, stamp, job);
		for (size_t i = c0; i < c1; i++)
			if (cl->colls[cidx[i]].flags & (TT_COLL_MISMATCH | TT_COLL_MISSING) &&
			    !job->ndisagree++)
				tt_coll_label(cl, cidx[i], job->disagree, sizeof(job->disagree));
		a = b;
	}
	free(j.e);
	free(j.jumps);
	free(stamp);
	free(cidx);
	free(w);

	/* the verdict: the rank that bounds most steps */
	struct tt_cp_verdict *v = &s->verdict;
	memset(v, 0, sizeof(*v));
	if (!s->njobs)
		return;
	uint32_t *cnt = tt_calloc(m->nranks + 1, sizeof(*cnt));
	for (size_t i = 0; i < s->njobs; i++)
		cnt[s->jobs[i].ri]++;
	size_t best = s->jobs[0].ri;
	for (size_t i = 0; i < s->njobs; i++)
		if (cnt[s->jobs[i].ri] > cnt[best])
			best = s->jobs[i].ri;
	uint32_t bc[TT_CPB_COUNT] = {0};
	for (size_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].ri == best)
			bc[s->jobs[i].bound]++;
	int bb = 0;
	for (int b = 1; b < TT_CPB_COUNT; b++)
		if (bc[b] > bc[bb])
			bb = b;
	v->has = true;
	v->ri = best;
	v->rank = m->ranks[best]->rank;
	v->nsteps = (uint32_t)s->njobs;
	v->nbound = cnt[best];
	v->bound = (uint8_t)bb;
	v->one_rank = s->nranks < 2;
	int64_t sb = 0, sx = 0, sw = 0;
	int64_t cw = 0;
	for (size_t i = 0; i < s->njobs; i++) {
		const struct tt_cp_job *job = &s->jobs[i];
		if (job->ri != best)
			continue;
		tt_sat_acc(&sb, s->steps[job->rank_step].res.by_bound[bb].dur);
		if (job->bound == bb)
			tt_sat_acc(&sx, job->excess_ns);
		tt_sat_acc(&sw, job->wait_caused);
		v->nwaiting = TT_MAX(v->nwaiting, job->nwaiting);
		if (job->wait_caused > cw) {
			cw = job->wait_caused;
			snprintf(v->coll, sizeof(v->coll), "%s", job->coll);
		}
	}
	v->bound_ns = sb / v->nbound;
	v->excess_ns = bc[bb] ? sx / bc[bb] : 0;
	v->wait_ns = sw / v->nbound;
	free(cnt);
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
	if (o->cp.model == TT_CPM_TRACETOP)
		jobs(m, o, out);
}

void tt_cp_steps_free(struct tt_cp_steps *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		tt_cp_result_free(&s->steps[i].res);
	free(s->steps);
	free(s->strag);
	free(s->jobs);
	free(s->jedges);
	memset(s, 0, sizeof(*s));
}
