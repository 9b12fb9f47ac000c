/* ProfilerStep#N windows per rank (the TensorBoard plugin's steps). */
#include "config.h"

#include "tracetop/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "optree.h"

static int step_cmp(const void *a, const void *b)
{
	const struct tt_step *x = a, *y = b;
	if (x->cpu_ts != y->cpu_ts)
		return x->cpu_ts < y->cpu_ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

size_t tt_tb_rank_steps(const struct tt_rank *r, size_t ri, const struct tt_iv *gpu,
			    size_t ngpu, struct tt_step **out)
{
	size_t n = 0, cap = 0;
	struct tt_step *s = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_CPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tt_tb_is_op(r, e))
				continue;
			const char *nm = tt_ev_name(r, e);
			if (nm[0] != 'P')
				continue;
			int64_t num = tt_step_number(nm);
			if (num < 0)
				continue;
			TT_GROW(s, cap, n + 1);
			memset(&s[n], 0, sizeof(s[n]));
			s[n].ri = ri;
			s[n].rank = r->rank;
			s[n].num = num;
			s[n].ev = i;
			s[n].cpu_ts = e->ts;
			s[n].cpu_dur = e->dur;
			s[n].t1 = tt_ev_end(e); /* the GPU end for now */
			n++;
		}
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), step_cmp);
	/* the GPU work launched inside each step */
	for (uint32_t l = 0; l < r->nlinks && n; l++) {
		const struct tt_event *c = &r->ev[r->links[l].cpu];
		const struct tt_event *g = &r->ev[r->links[l].gpu];
		if (!tt_tb_is_gpu_op(r, g))
			continue;
		/* the last step starting at or before the call */
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s[mid].cpu_ts <= c->ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			continue;
		struct tt_step *st = &s[lo - 1];
		if (c->ts < st->cpu_ts + st->cpu_dur && tt_ev_end(g) > st->t1)
			st->t1 = tt_ev_end(g);
	}
	int64_t prev = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t gend = s[i].t1;
		s[i].t0 = TT_MAX(prev, s[i].cpu_ts);
		s[i].t1 = TT_MAX(prev, TT_MAX(s[i].cpu_ts + s[i].cpu_dur, gend));
		prev = s[i].t1;
		s[i].gpu_busy_ns = tt_iv_inter(gpu, ngpu, s[i].t0, s[i].t1);
	}
	*out = s;
	return n;
}

struct steps_rank_out {
	bool sel;
	struct tt_step *s;
	size_t n;
};

struct steps_ctx {
	const struct tt_model *m;
	struct steps_rank_out *r;
};

static void steps_rank(size_t ri, void *vctx)
{
	struct steps_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct tt_iv *gpu;
	size_t ng = tt_tb_gpu_blocks(r, TT_TB_GPU_ALL, NULL, &gpu);
	c->r[ri].sel = true;
	c->r[ri].n = tt_tb_rank_steps(r, ri, gpu, ng, &c->r[ri].s);
	free(gpu);
}

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
		sr->first_num = sr->last_num = -1;
		if (c.r[ri].n)
			memcpy(&out->steps[out->nsteps], c.r[ri].s, c.r[ri].n * sizeof(*c.r[ri].s));
		out->nsteps += c.r[ri].n;
		free(c.r[ri].s);
		if (!sr->n)
			continue;
		sr->min_ns = INT64_MAX;
		sr->max_ns = INT64_MIN;
		for (size_t i = 0; i < sr->n; i++) {
			const struct tt_step *st = &out->steps[sr->first + i];
			int64_t dur = st->t1 - st->t0;
			d[i] = (double)dur;
			sr->sum_ns += dur;
			sr->min_ns = TT_MIN(sr->min_ns, dur);
			sr->max_ns = TT_MAX(sr->max_ns, dur);
			if (sr->first_num < 0 || st->num < sr->first_num)
				sr->first_num = st->num;
			if (st->num > sr->last_num)
				sr->last_num = st->num;
		}
		sr->mean_ns = sr->sum_ns / (int64_t)sr->n;
		sr->median_ns = (int64_t)llround(tt_tb_median(d, sr->n));
	}
	free(d);
	free(c.r);
}

void tt_steps_free(struct tt_steps *s)
{
	free(s->steps);
	free(s->ranks);
	memset(s, 0, sizeof(*s));
}

