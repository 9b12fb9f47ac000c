/* ProfilerStep#N windows per rank (the TensorBoard plugin's steps). */
#include "config.h"

#include "tracetop/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/stats.h"
#include "tracetop/util.h"
#include "optree.h"

/* by start; at one start the shorter first: a zero-length duplicate of a
 * step (the same number twice, as a profiler stopping mid-step writes it)
 * precedes it, as in the file the plugin reads, and is kept, not dropped
 * as a trailing step without GPU work */
static int step_cmp(const void *a, const void *b)
{
	const struct tt_step *x = a, *y = b;
	if (x->cpu_ts != y->cpu_ts)
		return x->cpu_ts < y->cpu_ts ? -1 : 1;
	if (x->cpu_dur != y->cpu_dur)
		return x->cpu_dur < y->cpu_dur ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

struct rt {
	int64_t ts, end;
	uint32_t ev;
	uint32_t lo, hi; /* its links */
};

static int rt_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct rt *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static bool is_step_event(const struct tt_rank *r, const struct tt_event *e,
			  const uint16_t *nf)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	if (k != TT_K_CPU_OP && k != TT_K_USER_ANNOT)
		return false;
	return nf[e->name] & TT_NF_STEP;
}

/* the steps of a rank as its memo keeps them */
struct rank_steps {
	struct tt_step *s;
	size_t n, nkept;
};

static void rank_steps_free(void *p)
{
	struct rank_steps *rs = p;
	free(rs->s);
	free(rs);
}

/* The plugin's steps of rank r (ri 0); nf: tt_tb_name_flags(r) (not taken
 * here: the caller takes them). */
static void *rank_steps_build(const struct tt_rank *r, void *ctx)
{
	const uint16_t *nf = ctx;
	struct rank_steps *rs = tt_calloc(1, sizeof(*rs));
	struct tt_iv *gpu;
	size_t ngpu = tt_tb_gpu_blocks(r, TT_TB_GPU_ALL, NULL, &gpu);
	size_t *nkept = &rs->nkept;
	struct tt_step **out = &rs->s;
	size_t ri = 0;
	size_t n = 0, cap = 0;
	struct tt_step *s = NULL;
	int64_t cpu0 = INT64_MAX, cpu1 = INT64_MIN;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		bool step = is_step_event(r, e, nf);
		if (step || (e->ph == 'X' && !(e->flags & TT_EF_MARKER) &&
			     tt_ev_kind(r, e) == TT_K_CPU_OP) ||
		    tt_tb_is_python_span(r, e)) {
			cpu0 = TT_MIN(cpu0, e->ts);
			cpu1 = TT_MAX(cpu1, tt_ev_end(e));
		}
		if (!step)
			continue;
		TT_GROW(s, cap, n + 1);
		memset(&s[n], 0, sizeof(s[n]));
		s[n].num = tt_step_number(tt_ev_name(r, e));
		s[n].ev = i;
		s[n].cpu_ts = e->ts;
		s[n].cpu_dur = e->dur;
		n++;
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), step_cmp);
	if (!n && cpu0 < cpu1) {
		/* no ProfilerStep: one step over the CPU ops, as the plugin's "0" */
		s = tt_calloc(1, sizeof(*s));
		s[0].pseudo = true;
		s[0].ev = TT_NONE;
		s[0].cpu_ts = cpu0;
		s[0].cpu_dur = cpu1 - cpu0;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		s[i].ri = ri;
		s[i].rank = r->rank;
	}
	*nkept = n;
	*out = s;
	rs->n = n;
	if (!n) {
		free(gpu);
		return rs;
	}
	/* the runtime calls by start, and the GPU ops each launched (the links
	 * are sorted by launching event: one sweep finds each call's; the calls
	 * are sorted runs, one per thread) */
	size_t nrt = 0, crt = 0;
	struct rt *rt = NULL;
	uint32_t lnk = 0;
	for (uint32_t i = 0; i < r->nev; i++)
		if (tt_tb_is_runtime(r, &r->ev[i])) {
			TT_GROW(rt, crt, nrt + 1);
			while (lnk < r->nlinks && r->links[lnk].cpu < i)
				lnk++;
			uint32_t hi = lnk;
			while (hi < r->nlinks && r->links[hi].cpu == i)
				hi++;
			rt[nrt++] = (struct rt){r->ev[i].ts, tt_ev_end(&r->ev[i]), i, lnk, hi};
		}
	tt_msort(rt, nrt, sizeof(*rt), rt_cmp, NULL);
	uint8_t *matched = tt_calloc((size_t)r->nev + 1, 1);
	int64_t *dmin = tt_malloc(n * sizeof(*dmin)), *dmax = tt_malloc(n * sizeof(*dmax));
	for (size_t k = 0; k < n; k++) {
		dmin[k] = INT64_MAX;
		dmax[k] = INT64_MIN;
	}
	bool any = false;
	/* a runtime call counts for the step whose CPU span holds it wholly */
	for (size_t k = 0, j = 0; k < n && j < nrt;) {
		int64_t a = s[k].cpu_ts, b = s[k].cpu_ts + s[k].cpu_dur;
		if (rt[j].ts < a) {
			j++;
		} else if (rt[j].end <= b) {
			for (uint32_t l = rt[j].lo; l < rt[j].hi; l++) {
				const struct tt_event *g = &r->ev[r->links[l].gpu];
				if (!tt_tb_is_gpu_op(r, g))
					continue;
				dmin[k] = TT_MIN(dmin[k], g->ts);
				dmax[k] = TT_MAX(dmax[k], tt_ev_end(g));
				matched[r->links[l].gpu] = 1;
				s[k].ngpu++;
				any = true;
			}
			j++;
		} else if (rt[j].ts < b) {
			j++;
		} else {
			k++;
		}
	}
	if (any) {
		/* the first step starts after the GPU work launched before it */
		int64_t prev = s[0].cpu_ts;
		if (dmin[0] != INT64_MAX)
			for (uint32_t i = 0; i < r->nev; i++) {
				const struct tt_event *g = &r->ev[i];
				if (!matched[i] && tt_tb_is_gpu_op(r, g) && tt_ev_end(g) < dmin[0])
					prev = TT_MAX(prev, tt_ev_end(g));
			}
		for (size_t k = 0; k < n; k++) {
			int64_t t0 = TT_MAX(prev, s[k].cpu_ts);
			int64_t t1 = s[k].cpu_ts + s[k].cpu_dur;
			t1 = TT_MAX(t1, dmax[k] != INT64_MIN ? dmax[k] : t0);
			t1 = TT_MAX(t1, t0);
			s[k].t0 = t0;
			s[k].t1 = t1;
			prev = t1;
		}
		/* tail steps whose GPU work the profiler may have missed */
		if (n > 1) {
			size_t last = n;
			while (last > 0 && !s[last - 1].ngpu)
				last--;
			if (last > 0) {
				size_t keep = last;
				if (last > 1 && (double)s[last - 2].ngpu * 0.8 > (double)s[last - 1].ngpu)
					keep = last - 1;
				for (size_t k = keep; k < n; k++)
					s[k].dropped = true;
				*nkept = keep;
			}
		}
	} else {
		for (size_t k = 0; k < n; k++) {
			s[k].t0 = s[k].cpu_ts;
			s[k].t1 = s[k].cpu_ts + s[k].cpu_dur;
		}
	}
	for (size_t k = 0; k < n; k++) {
		s[k].gpu_busy_ns = tt_iv_inter(gpu, ngpu, s[k].t0, s[k].t1);
		s[k].gpu_busy_pct = s[k].t1 > s[k].t0 ? 100.0 * (double)s[k].gpu_busy_ns /
								(double)(s[k].t1 - s[k].t0)
						      : NAN;
	}
	free(matched);
	free(dmin);
	free(dmax);
	free(rt);
	free(gpu);
	return rs;
}

size_t tt_tb_rank_steps(const struct tt_rank *r, size_t ri, struct tt_step **out, size_t *nkept)
{
	const struct rank_steps *rs = tt_rank_memo(r, TT_MEMO_TB_STEPS, rank_steps_build,
						   (void *)tt_tb_name_flags(r), rank_steps_free);
	struct tt_step *s = tt_malloc((rs->n + 1) * sizeof(*s));
	if (rs->n)
		memcpy(s, rs->s, rs->n * sizeof(*s));
	for (size_t k = 0; k < rs->n; k++)
		s[k].ri = ri;
	*out = s;
	*nkept = rs->nkept;
	return rs->n;
}

struct steps_rank_out {
	bool sel;
	struct tt_step *s;
	size_t n, nkept;
};

struct steps_ctx {
	const struct tt_model *m;
	struct steps_rank_out *r;
};

static void steps_rank(size_t ri, void *vctx)
{
	struct steps_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	c->r[ri].sel = true;
	c->r[ri].n = tt_tb_rank_steps(r, ri, &c->r[ri].s, &c->r[ri].nkept);
}

static void step_nums(struct tt_steps *s);

void tt_steps_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_steps *out)
{
	memset(out, 0, sizeof(*out));
	struct steps_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, steps_rank, &c);
	size_t total = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		total += c.r[ri].n;
	out->steps = tt_calloc(total + 1, sizeof(*out->steps));
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	double *d = tt_calloc(total + 1, sizeof(*d));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!c.r[ri].sel)
			continue;
		struct tt_steps_rank *sr = &out->ranks[out->nranks++];
		sr->ri = ri;
		sr->rank = m->ranks[ri]->rank;
		sr->first = out->nsteps;
		sr->n = c.r[ri].n;
		sr->nkept = c.r[ri].nkept;
		sr->first_num = sr->last_num = -1;
		if (c.r[ri].n)
			memcpy(&out->steps[out->nsteps], c.r[ri].s, c.r[ri].n * sizeof(*c.r[ri].s));
		out->nsteps += c.r[ri].n;
		free(c.r[ri].s);
		if (!sr->nkept)
			continue;
		sr->pseudo = out->steps[sr->first].pseudo;
		sr->t0 = out->steps[sr->first].t0;
		sr->t1 = out->steps[sr->first + sr->nkept - 1].t1;
		sr->min_ns = INT64_MAX;
		sr->max_ns = INT64_MIN;
		__int128 sum = 0; /* (exact: the mean stays right) */
		for (size_t i = 0; i < sr->nkept; i++) {
			const struct tt_step *st = &out->steps[sr->first + i];
			int64_t dur = st->t1 - st->t0;
			d[i] = (double)dur;
			sum += dur;
			sr->min_ns = TT_MIN(sr->min_ns, dur);
			sr->max_ns = TT_MAX(sr->max_ns, dur);
			if (st->pseudo)
				continue;
			if (sr->first_num < 0 || st->num < sr->first_num)
				sr->first_num = st->num;
			if (st->num > sr->last_num)
				sr->last_num = st->num;
		}
		sr->sum_ns = tt_sat_128(sum);
		sr->mean_ns = tt_sat_128(sum / (__int128)sr->nkept);
		sr->median_ns = (int64_t)llround(tt_median(d, sr->nkept));
	}
	free(d);
	free(c.r);
	step_nums(out);
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

/* each step number across ranks, and each step's median of its number */
static void step_nums(struct tt_steps *s)
{
	struct stepnum *v = tt_malloc((s->nsteps + 1) * sizeof(*v));
	double *d = tt_malloc((s->nsteps + 1) * sizeof(*d));
	size_t nv = 0;
	for (size_t i = 0; i < s->nsteps; i++) {
		s->steps[i].num_median_ns = NAN;
		s->steps[i].vs_median_pct = NAN;
		if (!s->steps[i].pseudo && !s->steps[i].dropped)
			v[nv++] = (struct stepnum){s->steps[i].num, i};
	}
	if (nv > 1)
		qsort(v, nv, sizeof(*v), stepnum_cmp);
	s->nums = tt_calloc(nv + 1, sizeof(*s->nums));
	for (size_t a = 0; a < nv;) {
		size_t b = a;
		struct tt_step_num *w = &s->nums[s->nnums++];
		w->num = v[a].num;
		w->min_ns = INT64_MAX;
		w->max_ns = INT64_MIN;
		w->slowest = v[a].i;
		while (b < nv && v[b].num == v[a].num) {
			const struct tt_step *st = &s->steps[v[b].i];
			int64_t dur = st->t1 - st->t0;
			d[b - a] = (double)dur;
			w->min_ns = TT_MIN(w->min_ns, dur);
			if (dur > w->max_ns) {
				w->max_ns = dur;
				w->slowest = v[b].i;
			}
			b++;
		}
		w->nranks = (uint32_t)(b - a);
		w->median_ns = tt_median(d, b - a);
		w->spread_pct = w->median_ns > 0
					? 100.0 * ((double)w->max_ns - w->median_ns) / w->median_ns
					: NAN;
		for (size_t k = a; k < b; k++) {
			struct tt_step *st = &s->steps[v[k].i];
			st->num_median_ns = w->median_ns;
			st->vs_median_pct =
				w->median_ns > 0
					? 100.0 * ((double)(st->t1 - st->t0) - w->median_ns) / w->median_ns
					: NAN;
		}
		a = b;
	}
	free(v);
	free(d);
}

/* ---- the step index ---- */

struct step_index {
	struct tt_step_ev *v;
	size_t n;
};

static void step_index_free(void *p)
{
	struct step_index *x = p;
	free(x->v);
	free(x);
}

static int step_ev_cmp(const void *a, const void *b)
{
	const struct tt_step_ev *x = a, *y = b;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static void *step_index_build(const struct tt_rank *r, void *ctx)
{
	(void)ctx;
	struct step_index *x = tt_calloc(1, sizeof(*x));
	/* a name's step number once per name, not once per event */
	int64_t *num = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*num));
	for (uint32_t id = 0; id <= r->strs.n; id++)
		num[id] = id < r->strs.n ? tt_step_number(tt_str(r, id)) : -1;
	size_t cap = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		int64_t k = num[e->name < r->strs.n ? e->name : r->strs.n];
		if (k < 0 || (e->flags & TT_EF_MARKER))
			continue;
		TT_GROW(x->v, cap, x->n + 1);
		x->v[x->n++] = (struct tt_step_ev){k, i};
	}
	free(num);
	if (x->n)
		qsort(x->v, x->n, sizeof(*x->v), step_ev_cmp);
	/* one per number: the first CPU one, else the first */
	size_t w = 0;
	for (size_t i = 0; i < x->n;) {
		size_t j = i, pick = i;
		bool cpu = false;
		for (; j < x->n && x->v[j].num == x->v[i].num; j++)
			if (!cpu && r->tracks[r->ev[x->v[j].ev].track].kind == TT_TRACK_CPU) {
				cpu = true;
				pick = j;
			}
		x->v[w++] = x->v[pick];
		i = j;
	}
	x->n = w;
	return x;
}

const struct tt_step_ev *tt_step_index(const struct tt_rank *r, size_t *n)
{
	const struct step_index *x =
		tt_rank_memo(r, TT_MEMO_STEP_INDEX, step_index_build, NULL, step_index_free);
	*n = x->n;
	return x->v;
}

void tt_steps_free(struct tt_steps *s)
{
	free(s->nums);
	free(s->steps);
	free(s->ranks);
	memset(s, 0, sizeof(*s));
}

