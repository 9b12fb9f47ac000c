/* The TensorBoard plugin's Overview: step-time breakdown per step, and the
 * computation / communication overlap its distributed view shows. */
#include "config.h"

#include "tracetop/overview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/steps.h"
#include "tracetop/util.h"
#include "optree.h"

const char *tt_ov_cat_name(enum tt_ov_cat c)
{
	static const char *const names[TT_OV_NCAT] = {
		"Kernel", "Memcpy", "Memset", "Communication", "Runtime", "DataLoader", "CPU Exec",
		"Other"};
	return (unsigned)c < TT_OV_NCAT ? names[c] : "?";
}

struct ivs {
	struct tt_iv *v;
	size_t n, cap;
};

static void iv_add(struct ivs *s, const struct tt_event *e)
{
	TT_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = (struct tt_iv){e->ts, tt_ev_end(e)};
}

static void iv_reserve(struct ivs *s, size_t n)
{
	TT_GROW(s->v, s->cap, n);
}

struct ov_out {
	bool sel;
	struct tt_ov_rank row;
	struct tt_ov_step *steps;
	size_t nsteps;
};

struct ov_ctx {
	const struct tt_model *m;
	struct ov_out *r;
};

static int64_t inter1(const struct tt_iv *v, size_t n, const struct tt_ov_step *s)
{
	return tt_iv_inter(v, n, s->t0, s->t1);
}

static void ov_rank(size_t ri, void *vctx)
{
	struct ov_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct ov_out *d = &c->r[ri];
	d->sel = true;
	struct tt_ov_rank *w = &d->row;
	w->ri = ri;
	w->rank = r->rank;
	struct tt_step *st;
	size_t nkept, ns = tt_tb_rank_steps(r, ri, &st, &nkept);
	/* the roles, by priority */
	struct ivs role[TT_OV_NCAT - 1];
	memset(role, 0, sizeof(role));
	/* room for what the rank's counts by kind say each role will hold (the
	 * X events, markers out, as here): regrowing them copied and faulted
	 * in fresh blocks; a role still grows past its reserve (communication,
	 * the other runtimes, Python spans) */
	iv_reserve(&role[TT_OV_KERNEL], r->n_kernel);
	iv_reserve(&role[TT_OV_MEMCPY], r->n_memcpy);
	iv_reserve(&role[TT_OV_MEMSET], r->n_memset);
	iv_reserve(&role[TT_OV_RUNTIME], r->n_runtime);
	iv_reserve(&role[TT_OV_CPU_EXEC], (size_t)r->n_cpu_op + r->n_annot);
	const struct tt_tbtree *t = tt_tbtree_of(r);
	uint32_t lpos = 0;
	int8_t *ktype = tt_tb_kernel_types(r);
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
			continue;
		enum tt_cat_kind k = tt_ev_kind(r, e);
		uint16_t nf = t->nflags[e->name];
		switch (k) {
		case TT_K_KERNEL: {
			uint32_t call = tt_launch_of_from(r, i, &lpos);
			bool linked = tt_tbtree_comm_of_call(t, call) != TT_NONE;
			bool named = (ktype[e->name] >= 0 ? ktype[e->name]
							   : (int8_t)tt_kernel_type(tt_ev_name(r, e), NULL)) ==
				     TT_KT_COMM;
			w->comm_kernels_linked += linked;
			w->comm_kernels_by_name += !linked && named;
			iv_add(&role[linked || named ? TT_OV_COMM : TT_OV_KERNEL], e);
			break;
		}
		case TT_K_MEMCPY:
			iv_add(&role[TT_OV_MEMCPY], e);
			break;
		case TT_K_MEMSET:
			iv_add(&role[TT_OV_MEMSET], e);
			break;
		case TT_K_RUNTIME:
		case TT_K_MTIA_RUNTIME:
			iv_add(&role[TT_OV_RUNTIME], e);
			break;
		case TT_K_PYTHON:
			/* the legacy "Python" spans are CPU Exec (or Communication
			 * by a collective's name); python_function events are not */
			if (tt_tb_is_python_span(r, e))
				iv_add(&role[(nf & TT_NF_COMM) ? TT_OV_COMM : TT_OV_CPU_EXEC], e);
			break;
		case TT_K_CPU_OP:
		case TT_K_USER_ANNOT:
		case TT_K_GPU_ANNOT: {
			if (nf & TT_NF_DATALOADER) {
				iv_add(&role[TT_OV_DATALOADER], e);
			} else if (k != TT_K_GPU_ANNOT && (nf & TT_NF_STEP)) {
				/* steps are windows, not work */
			} else if (nf & TT_NF_COMM) {
				bool gloo = nf & TT_NF_GLOO;
				iv_add(&role[TT_OV_COMM], e);
				w->ncomm_ops++;
				w->gloo |= gloo;
				w->nccl |= !gloo;
			} else {
				iv_add(&role[TT_OV_CPU_EXEC], e);
			}
			if (nf & TT_NF_DP_FWD)
				w->use_dp = true;
			if (nf & TT_NF_DDP_FWD)
				w->use_ddp = true;
			break;
		}
		default:
			break;
		}
	}
	free(ktype);
	for (int k = 0; k < TT_OV_NCAT - 1; k++)
		role[k].n = tt_iv_merge(role[k].v, role[k].n);
	w->has_kernel = role[TT_OV_KERNEL].n > 0;
	w->has_runtime = role[TT_OV_RUNTIME].n > 0;
	w->has_memcpy_memset = role[TT_OV_MEMCPY].n || role[TT_OV_MEMSET].n;
	w->has_comm = role[TT_OV_COMM].n > 0;
	w->ndropped = ns - nkept;
	if (!nkept) {
		free(st);
		for (int k = 0; k < TT_OV_NCAT - 1; k++)
			free(role[k].v);
		return;
	}
	w->pseudo = st[0].pseudo;
	w->t0 = st[0].t0;
	w->t1 = st[nkept - 1].t1;
	d->steps = tt_calloc(nkept, sizeof(*d->steps));
	d->nsteps = nkept;
	/* charge every instant of the steps to the first role holding it */
	struct tt_iv *slots = tt_malloc(nkept * sizeof(*slots));
	for (size_t k = 0; k < nkept; k++)
		slots[k] = (struct tt_iv){st[k].t0, st[k].t1};
	size_t nslots = tt_iv_merge(slots, nkept);
	struct tt_iv *charged[TT_OV_NCAT];
	size_t ncharged[TT_OV_NCAT];
	for (int k = 0; k < TT_OV_NCAT - 1; k++) {
		ncharged[k] = tt_iv_and(slots, nslots, role[k].v, role[k].n, &charged[k]);
		struct tt_iv *rest;
		size_t nrest = tt_iv_sub(slots, nslots, charged[k], ncharged[k], &rest);
		free(slots);
		slots = rest;
		nslots = nrest;
	}
	charged[TT_OV_OTHER] = slots;
	ncharged[TT_OV_OTHER] = nslots;
	/* the distributed view's overlap: kernels (or CPU ops without any)
	 * against communication */
	const struct ivs *compv = w->has_kernel ? &role[TT_OV_KERNEL] : &role[TT_OV_CPU_EXEC];
	struct tt_iv *both;
	size_t nboth = tt_iv_and(compv->v, compv->n, role[TT_OV_COMM].v, role[TT_OV_COMM].n, &both);
	__int128 sum[4] = {0}; /* (exact: the means stay right) */
	for (size_t k = 0; k < nkept; k++) {
		struct tt_ov_step *s = &d->steps[k];
		s->ri = ri;
		s->rank = r->rank;
		s->num = st[k].num;
		s->pseudo = st[k].pseudo;
		s->t0 = st[k].t0;
		s->t1 = st[k].t1;
		s->cpu_ts = st[k].cpu_ts;
		s->cpu_dur = st[k].cpu_dur;
		for (int j = 0; j < TT_OV_NCAT; j++) {
			s->cost[j] = inter1(charged[j], ncharged[j], s);
			w->avg[j] += (double)s->cost[j];
		}
		w->avg_total += (double)(s->t1 - s->t0);
		for (int j = 0; j < TT_OV_NCAT; j++)
			s->pct[j] = s->t1 > s->t0
					    ? 100.0 * (double)s->cost[j] / (double)(s->t1 - s->t0)
					    : NAN;
		int64_t ov = inter1(both, nboth, s);
		int64_t cp = inter1(compv->v, compv->n, s);
		int64_t cm = inter1(role[TT_OV_COMM].v, role[TT_OV_COMM].n, s);
		s->overlap_ns = ov;
		s->comp_ns = cp - ov;
		s->comm_ns = cm - ov;
		/* (in 128 bits: the window plus the overlap may pass int64; the
		 * result, the window less the union, does not) */
		s->other_ns = (int64_t)((__int128)(s->t1 - s->t0) + ov - cp - cm);
		sum[0] += s->comp_ns;
		sum[1] += s->overlap_ns;
		sum[2] += s->comm_ns;
		sum[3] += s->other_ns;
	}
	for (int j = 0; j < TT_OV_NCAT; j++)
		w->avg[j] /= (double)nkept;
	w->avg_total /= (double)nkept;
	for (int j = 0; j < TT_OV_NCAT; j++)
		w->avg_pct[j] = w->avg_total > 0 ? 100.0 * w->avg[j] / w->avg_total : NAN;
	w->comp_ns = tt_sat_128(sum[0] / (__int128)nkept);
	w->overlap_ns = tt_sat_128(sum[1] / (__int128)nkept);
	w->comm_ns = tt_sat_128(sum[2] / (__int128)nkept);
	w->other_ns = tt_sat_128(sum[3] / (__int128)nkept);
	free(both);
	for (int k = 0; k < TT_OV_NCAT; k++)
		free(charged[k]);
	for (int k = 0; k < TT_OV_NCAT - 1; k++)
		free(role[k].v);
	free(st);
}

void tt_overview_compute(const struct tt_model *m, const struct tt_aopts *o,
			 struct tt_overview *out)
{
	memset(out, 0, sizeof(*out));
	struct ov_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, ov_rank, &c);
	size_t total = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		total += c.r[ri].nsteps;
	out->steps = tt_calloc(total + 1, sizeof(*out->steps));
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct ov_out *d = &c.r[ri];
		out->nranks_sel += d->sel;
		if (!d->sel || !d->nsteps) {
			free(d->steps);
			continue;
		}
		struct tt_ov_rank *w = &out->ranks[out->nranks++];
		*w = d->row;
		w->first = out->nsteps;
		w->nsteps = d->nsteps;
		memcpy(&out->steps[out->nsteps], d->steps, d->nsteps * sizeof(*d->steps));
		out->nsteps += d->nsteps;
		free(d->steps);
	}
	free(c.r);
}

void tt_overview_free(struct tt_overview *v)
{
	free(v->steps);
	free(v->ranks);
	memset(v, 0, sizeof(*v));
}
