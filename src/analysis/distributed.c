/* The distributed view: computation / communication per rank, collective
 * calls matched across ranks (transfer and sync), stragglers. */
#include "config.h"

#include "tracetop/distributed.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/collectives.h"
#include "tracetop/operators.h"
#include "tracetop/overview.h"
#include "tracetop/steps.h"
#include "tracetop/stats.h"
#include "tracetop/util.h"
#include "optree.h"

/* ==== distributed ==== */

size_t tt_tb_coll_key(const char *name, char *buf, size_t n)
{
	const char *s = strrchr(name, ':');
	s = s ? s + 1 : name;
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (isalnum((unsigned char)*s))
			buf[k++] = (char)tolower((unsigned char)*s);
	if (n)
		buf[k] = '\0';
	return k;
}

/* ---- one rank ---- */

/* one of the plugin's collective ops on a rank */
struct tbnode {
	int64_t ts, end;
	uint32_t ev;
	int64_t bytes;   /* -1 unknown */
	size_t first, n; /* ranges rng[first .. first+n), by (start, -end) */
	int step;        /* index into the rank's kept steps; -1 none */
	uint32_t nkernels;
};

struct dist_out {
	bool sel;
	struct tt_dist_rank row;
	struct tbnode *nodes; /* by (start, -end) */
	size_t nnodes;
	struct tt_iv *rng, *real; /* ranges, and their transfer parts */
	size_t nrng;
	struct tt_step *steps;    /* kept steps */
	size_t nsteps;
};

struct dist_ctx {
	const struct tt_model *m;
	struct dist_out *r;
};

static int iv_cmp(const void *a, const void *b)
{
	const struct tt_iv *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

static int tbnode_cmp(const void *a, const void *b)
{
	const struct tbnode *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The plugin's collective ops of one rank, each with its ranges (its CPU
 * span, the kernels launched inside it) and its step. */
static void tb_rank(const struct tt_rank *r, const struct tt_step *st, size_t nst,
		    struct dist_out *d)
{
	size_t cap = 0;
	uint32_t *node_of = NULL;
	const uint16_t *nf = tt_tb_name_flags(r);
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
			continue;
		enum tt_cat_kind k = tt_ev_kind(r, e);
		if ((k != TT_K_CPU_OP && k != TT_K_USER_ANNOT) || !(nf[e->name] & TT_NF_COMM))
			continue;
		if (!node_of)
			node_of = tt_tb_none_array(r->nev);
		TT_GROW(d->nodes, cap, d->nnodes + 1);
		struct tbnode *n = &d->nodes[d->nnodes];
		memset(n, 0, sizeof(*n));
		n->ts = e->ts;
		n->end = tt_ev_end(e);
		n->ev = i;
		n->bytes = -1;
		if (e->flags & TT_EF_OPINFO) {
			const struct tt_opinfo *oi = &r->opinfo[e->aux];
			if (oi->input_dims != TT_NONE && oi->input_type != TT_NONE)
				n->bytes = tt_tb_input_bytes(tt_str(r, oi->input_dims),
							     tt_str(r, oi->input_type));
		}
		node_of[i] = (uint32_t)d->nnodes++;
	}
	if (!d->nnodes)
		return;
	/* the kernels launched inside each op */
	const struct tt_tbtree *t = tt_tbtree_of(r);
	uint32_t *kn = tt_calloc(d->nnodes + 1, sizeof(*kn));
	/* the kernels launched inside a node, each with its node */
	struct kop {
		uint32_t ev, node;
	} *owner = NULL;
	size_t nk = 0, ocap = 0;
	uint32_t lpos = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->ph != 'X' || tt_ev_kind(r, e) != TT_K_KERNEL)
			continue;
		uint32_t op = tt_tbtree_comm_of_call(t, tt_launch_of_from(r, i, &lpos));
		if (op == TT_NONE || node_of[op] == TT_NONE)
			continue;
		kn[node_of[op]]++;
		TT_GROW(owner, ocap, nk + 1);
		owner[nk++] = (struct kop){i, node_of[op]};
	}
	size_t nr = d->nnodes + nk;
	d->rng = tt_malloc((nr + 1) * sizeof(*d->rng));
	d->real = tt_malloc((nr + 1) * sizeof(*d->real));
	size_t at = 0;
	for (size_t j = 0; j < d->nnodes; j++) {
		struct tbnode *n = &d->nodes[j];
		n->first = at;
		n->nkernels = kn[j];
		d->rng[at] = (struct tt_iv){n->ts, n->end};
		at += 1 + kn[j];
		kn[j] = (uint32_t)(n->first + 1); /* next free slot */
	}
	for (size_t k = 0; k < nk; k++) {
		const struct tt_event *e = &r->ev[owner[k].ev];
		size_t j = owner[k].node;
		d->rng[kn[j]++] = (struct tt_iv){e->ts, tt_ev_end(e)};
	}
	d->nrng = nr;
	for (size_t j = 0; j < d->nnodes; j++) {
		struct tbnode *n = &d->nodes[j];
		n->n = 1 + n->nkernels;
		if (n->n > 1)
			qsort(d->rng + n->first, n->n, sizeof(*d->rng), iv_cmp);
	}
	free(owner);
	free(kn);
	free(node_of);
	if (d->nnodes > 1)
		qsort(d->nodes, d->nnodes, sizeof(*d->nodes), tbnode_cmp);
	/* each op's step: the plugin walks ops and steps together and gives
	 * up at the first op that is not inside the step it has reached */
	d->steps = tt_malloc((nst + 1) * sizeof(*d->steps));
	if (nst)
		memcpy(d->steps, st, nst * sizeof(*st));
	d->nsteps = nst;
	size_t k = 0;
	for (size_t j = 0; j < d->nnodes; j++)
		d->nodes[j].step = -1;
	for (size_t j = 0; j < d->nnodes && k < nst; j++) {
		struct tbnode *n = &d->nodes[j];
		bool placed = false;
		while (k < nst) {
			if (n->ts >= st[k].t0 && n->end <= st[k].t1) {
				n->step = (int)k;
				placed = true;
				break;
			} else if (n->ts >= st[k].t1) {
				k++;
			} else {
				break;
			}
		}
		(void)placed;
	}
}

static void dist_rank(size_t ri, void *vctx)
{
	struct dist_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct dist_out *d = &c->r[ri];
	d->sel = true;
	struct tt_dist_rank *w = &d->row;
	w->ri = ri;
	w->rank = r->rank;
	int8_t *kt = tt_tb_kernel_types(r);
	struct tt_iv *all;
	size_t nall = tt_tb_gpu_blocks(r, TT_TB_GPU_ALL, kt, &all);
	w->has_gpu = nall > 0;
	struct tt_step *st;
	size_t nkept;
	tt_tb_rank_steps(r, ri, &st, &nkept);
	w->has_steps = nkept && !st[0].pseudo;
	w->nwindows = (uint32_t)nkept;
	__int128 sum[2] = {0}; /* (exact: means of windows that overlap stay right) */
	for (size_t k = 0; k < nkept; k++) {
		sum[0] += st[k].t1 - st[k].t0;
		sum[1] += st[k].t1 - st[k].t0 - tt_iv_inter(all, nall, st[k].t0, st[k].t1);
	}
	if (nkept) {
		w->step_ns = tt_sat_128(sum[0] / (__int128)nkept);
		w->idle_ns = tt_sat_128(sum[1] / (__int128)nkept);
	}
	tb_rank(r, st, nkept, d);
	free(st);
	free(all);
	free(kt);
}

/* ---- across ranks ---- */

static int stat_cmp(const void *a, const void *b)
{
	const struct tt_coll_stat *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* a statistic and its place before the sort */
struct stat_at {
	struct tt_coll_stat s;
	uint32_t at;
};

static int stat_at_cmp(const void *a, const void *b)
{
	return stat_cmp(&((const struct stat_at *)a)->s, &((const struct stat_at *)b)->s);
}

/* a rank's rows by statistic (their order after the sort) */
static int rstat_cmp(const void *a, const void *b)
{
	const struct tt_coll_rstat *x = a, *y = b;
	return x->stat < y->stat ? -1 : x->stat > y->stat;
}

static int strag_cmp(const void *a, const void *b)
{
	const struct tt_straggler *x = a, *y = b;
	if (fabs(x->z) != fabs(y->z))
		return fabs(x->z) > fabs(y->z) ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->metric, y->metric);
}

static void fmt_ns(char *buf, size_t n, double ns)
{
	double a = fabs(ns);
	if (a >= 1e9)
		snprintf(buf, n, "%.2f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, n, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, n, "%.0f µs", ns / 1e3);
}

static void stragglers(struct tt_dist *d)
{
	static const char *const metrics[] = {"step", "idle", "sync"};
	double *v = tt_calloc(d->nranks + 1, sizeof(*v)), *z = tt_calloc(d->nranks + 1, sizeof(*z));
	size_t *who = tt_calloc(d->nranks + 1, sizeof(*who));
	size_t cap = 0;
	for (int mi = 0; mi < 3; mi++) {
		size_t n = 0;
		size_t with_steps = 0;
		for (size_t i = 0; i < d->nranks; i++)
			with_steps += d->ranks[i].has_steps;
		for (size_t i = 0; i < d->nranks; i++) {
			const struct tt_dist_rank *w = &d->ranks[i];
			if (mi == 0 && w->has_steps) {
				v[n] = (double)w->step_ns;
			} else if (mi == 1 && w->has_gpu && (w->has_steps || !with_steps)) {
				v[n] = (double)w->idle_ns;
			} else if (mi == 2 && w->ncalls) {
				v[n] = (double)w->sync_ns;
			} else {
				continue;
			}
			who[n++] = i;
		}
		if (n < 3)
			continue;
		struct tt_rdist rd;
		tt_rdist_of(v, n, false, &rd);
		double med = rd.median;
		for (size_t k = 0; k < n; k++) {
			double diff = v[k] - med;
			z[k] = tt_robust_z(&rd, v[k]);
			if (!tt_rdist_outlier(&rd, v[k]))
				continue;
			/* a fast step or little idle is no straggler; little sync
			 * is: the others wait for this rank */
			if (mi < 2 && diff < 0)
				continue;
			const struct tt_dist_rank *w = &d->ranks[who[k]];
			TT_GROW(d->stragglers, cap, d->nstragglers + 1);
			struct tt_straggler *s = &d->stragglers[d->nstragglers++];
			memset(s, 0, sizeof(*s));
			s->ri = w->ri;
			s->rank = w->rank;
			s->metric = metrics[mi];
			s->value = v[k];
			s->median = med;
			s->z = z[k];
			char a[32], b[32];
			fmt_ns(a, sizeof(a), v[k]);
			fmt_ns(b, sizeof(b), med);
			double pct = med != 0 ? 100.0 * diff / fabs(med) : 0;
			if (mi == 0)
				snprintf(s->reason, sizeof(s->reason),
					 "mean step %s vs median %s across ranks (%+.0f %%)", a, b,
					 pct);
			else if (mi == 1)
				snprintf(s->reason, sizeof(s->reason),
					 "GPU idle %s per step vs median %s (%+.0f %%): its GPU "
					 "waits for its host",
					 a, b, pct);
			else if (diff > 0)
				snprintf(s->reason, sizeof(s->reason),
					 "waits %s in collectives over the whole trace vs median "
					 "%s: it waits for slower ranks",
					 a, b);
			else
				snprintf(s->reason, sizeof(s->reason),
					 "waits only %s in collectives over the whole trace vs "
					 "median %s: the others wait for it",
					 a, b);
		}
	}
	if (d->nstragglers > 1)
		qsort(d->stragglers, d->nstragglers, sizeof(*d->stragglers), strag_cmp);
	free(v);
	free(z);
	free(who);
}

/* ---- the plugin's collective tables, across ranks ---- */

static int commop_cmp(const void *a, const void *b)
{
	const struct tt_tb_commop *x = a, *y = b;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* |union| of the ranges v[idx[k]] */
/* nodes by their event's name, then by order */
struct name_ctx {
	const struct tt_rank *r;
	const struct tbnode *nodes;
};

static int node_name_cmp(const void *a, const void *b, void *ctx)
{
	const struct name_ctx *c = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	uint32_t x = c->r->ev[c->nodes[i].ev].name, y = c->r->ev[c->nodes[j].ev].name;
	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* groups (their first position in the sorted order) by their first node */
static int group_first_cmp(const void *a, const void *b, void *ctx)
{
	const size_t *ord = ctx;
	size_t i = ord[*(const size_t *)a], j = ord[*(const size_t *)b];
	return i < j ? -1 : i > j;
}

static int64_t union_of(const struct tt_iv *v, const size_t *idx, size_t n, struct tt_iv *tmp)
{
	for (size_t k = 0; k < n; k++)
		tmp[k] = v[idx[k]];
	return tt_iv_total(tmp, tt_iv_merge(tmp, n));
}

static void tb_collectives(const struct tt_model *m, struct dist_out *r, struct tt_dist *out)
{
	/* shown when every rank has collectives, the same number of them and
	 * of ranges in each */
	const struct dist_out *first = NULL;
	out->tb_shown = true;
	size_t nsel = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct dist_out *d = &r[ri];
		if (!d->sel)
			continue;
		nsel++;
		if (!d->nnodes) {
			if (out->tb_shown)
				snprintf(out->tb_why, sizeof(out->tb_why),
					 "rank %lld has no nccl:/gloo: collective ops",
					 (long long)m->ranks[ri]->rank);
			out->tb_shown = false;
			continue;
		}
		if (!first) {
			first = d;
			continue;
		}
		bool same = d->nnodes == first->nnodes;
		for (size_t j = 0; same && j < d->nnodes; j++)
			same = d->nodes[j].n == first->nodes[j].n;
		if (!same && out->tb_shown) {
			snprintf(out->tb_why, sizeof(out->tb_why),
				 "ranks %lld and %lld differ in their collective calls or kernels",
				 (long long)first->row.rank, (long long)d->row.rank);
			out->tb_shown = false;
		}
	}
	if (!nsel) {
		out->tb_shown = false;
		snprintf(out->tb_why, sizeof(out->tb_why), "no rank selected");
	}
	/* transfer ranges: the shortest of each range over the ranks, ending
	 * where the range ends */
	for (size_t j = 0; first && out->tb_shown && j < first->nnodes; j++)
		for (size_t q = 0; q < first->nodes[j].n; q++) {
			int64_t mn = INT64_MAX;
			for (size_t ri = 0; ri < m->nranks; ri++)
				if (r[ri].sel) {
					const struct tt_iv *v = &r[ri].rng[r[ri].nodes[j].first + q];
					mn = TT_MIN(mn, v->end - v->ts);
				}
			for (size_t ri = 0; ri < m->nranks; ri++)
				if (r[ri].sel) {
					size_t at = r[ri].nodes[j].first + q;
					r[ri].real[at] = (struct tt_iv){r[ri].rng[at].end - mn,
									r[ri].rng[at].end};
				}
		}
	size_t wcap = 0, ocap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct dist_out *d = &r[ri];
		if (!d->sel || !d->nnodes)
			continue;
		const struct tt_rank *rk = m->ranks[ri];
		size_t *idx = tt_malloc((d->nrng + 1) * sizeof(*idx));
		struct tt_iv *tmp = tt_malloc((d->nrng + 1) * sizeof(*tmp));
		/* per step (and the ops in none) */
		size_t w0 = out->nwaits;
		TT_GROW(out->waits, wcap, out->nwaits + 1);
		struct tt_tb_wait *all = &out->waits[out->nwaits++];
		memset(all, 0, sizeof(*all));
		all->ri = ri;
		all->rank = rk->rank;
		all->all = true;
		size_t nkeys = 0;
		__int128 sum_t = 0, sum_x = 0; /* (exact: the means stay right) */
		/* the nodes by step (key + 1: -1 is the ops in none), in their
		 * order: one pass, not one per step */
		size_t *at = tt_calloc(d->nsteps + 2, sizeof(*at));
		size_t *byk = tt_malloc((d->nnodes + 1) * sizeof(*byk));
		for (size_t j = 0; j < d->nnodes; j++)
			if (d->nodes[j].step >= -1 && d->nodes[j].step < (int)d->nsteps)
				at[d->nodes[j].step + 1]++;
		for (size_t k = 0, sum = 0; k < d->nsteps + 1; k++) {
			size_t c = at[k];
			at[k] = sum;
			sum += c;
		}
		for (size_t j = 0; j < d->nnodes; j++)
			if (d->nodes[j].step >= -1 && d->nodes[j].step < (int)d->nsteps)
				byk[at[d->nodes[j].step + 1]++] = j;
		/* (at[k] is now the end of key k - 1's nodes) */
		for (int key = -1; key < (int)d->nsteps; key++) {
			size_t n = 0;
			for (size_t b = key < 0 ? 0 : at[key]; b < at[key + 1]; b++) {
				size_t j = byk[b];
				for (size_t q = 0; q < d->nodes[j].n; q++)
					idx[n++] = d->nodes[j].first + q;
			}
			if (!n)
				continue;
			TT_GROW(out->waits, wcap, out->nwaits + 1);
			struct tt_tb_wait *w = &out->waits[out->nwaits++];
			memset(w, 0, sizeof(*w));
			w->ri = ri;
			w->rank = rk->rank;
			if (key < 0) {
				w->outside = true;
			} else {
				w->step = d->steps[key].num;
				w->pseudo = d->steps[key].pseudo;
			}
			w->total_ns = union_of(d->rng, idx, n, tmp);
			w->transfer_ns = out->tb_shown ? union_of(d->real, idx, n, tmp) : -1;
			sum_t += w->total_ns;
			sum_x += w->transfer_ns;
			nkeys++;
		}
		all = &out->waits[w0];
		all->total_ns = tt_sat_128(sum_t / (__int128)nkeys);
		all->transfer_ns = out->tb_shown ? tt_sat_128(sum_x / (__int128)nkeys) : -1;
		/* the ops in none last, as the plugin's unnamed step sorts */
		size_t nw = out->nwaits - w0 - 1;
		if (nw > 1 && out->waits[w0 + 1].outside) {
			struct tt_tb_wait x = out->waits[w0 + 1];
			memmove(&out->waits[w0 + 1], &out->waits[w0 + 2], (nw - 1) * sizeof(x));
			out->waits[out->nwaits - 1] = x;
		}
		free(at);
		free(byk);
		/* per op name, in the order of their first call: the nodes
		 * sorted by name (then order), so that each name's are found in
		 * one pass, not one per name */
		struct name_ctx nc = {rk, d->nodes};
		size_t *ord = tt_malloc((d->nnodes + 1) * sizeof(*ord));
		for (size_t j = 0; j < d->nnodes; j++)
			ord[j] = j;
		tt_msort(ord, d->nnodes, sizeof(*ord), node_name_cmp, &nc);
		size_t *grp = tt_malloc((d->nnodes + 1) * sizeof(*grp)); /* first of each */
		size_t ngrp = 0;
		for (size_t b = 0; b < d->nnodes; b++)
			if (!b || rk->ev[d->nodes[ord[b]].ev].name != rk->ev[d->nodes[ord[b - 1]].ev].name)
				grp[ngrp++] = b;
		tt_msort(grp, ngrp, sizeof(*grp), group_first_cmp, ord);
		for (size_t g = 0; g < ngrp; g++) {
			size_t b0 = grp[g], j = ord[b0];
			uint32_t nm = rk->ev[d->nodes[j].ev].name;
			TT_GROW(out->ops, ocap, out->nops + 1);
			struct tt_tb_commop *op = &out->ops[out->nops++];
			memset(op, 0, sizeof(*op));
			op->ri = ri;
			op->rank = rk->rank;
			op->name = tt_strtab_get(&out->names,
						 tt_tb_intern(&out->names, tt_str(rk, nm)));
			op->bytes = -1;
			size_t n = 0;
			for (size_t b = b0; b < d->nnodes && rk->ev[d->nodes[ord[b]].ev].name == nm; b++) {
				const struct tbnode *x = &d->nodes[ord[b]];
				op->calls++;
				op->nkernels += x->nkernels;
				if (x->bytes >= 0)
					op->bytes = tt_sat_add(op->bytes < 0 ? 0 : op->bytes, x->bytes);
				for (size_t k = 0; k < x->n; k++)
					idx[n++] = x->first + k;
			}
			op->latency_ns = union_of(d->rng, idx, n, tmp);
			op->transfer_ns = out->tb_shown ? union_of(d->real, idx, n, tmp) : -1;
		}
		free(ord);
		free(grp);
		free(idx);
		free(tmp);
	}
	if (out->nops > 1)
		qsort(out->ops, out->nops, sizeof(*out->ops), commop_cmp);
	for (size_t ri = 0; ri < m->nranks; ri++) {
		free(r[ri].nodes);
		free(r[ri].rng);
		free(r[ri].real);
		free(r[ri].steps);
	}
}

void tt_dist_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_dist *out)
{
	struct tt_coll coll;
	tt_coll_compute(m, o, &coll);
	tt_dist_compute_coll(m, o, &coll, NULL, out);
	tt_coll_free(&coll);
}

void tt_dist_compute_coll(const struct tt_model *m, const struct tt_aopts *o,
			  const struct tt_coll *coll, const struct tt_overview *given,
			  struct tt_dist *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->names);
	struct dist_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, dist_rank, &c);
	size_t ncalls = coll->nparts;
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	out->calls = tt_calloc(ncalls + 1, sizeof(*out->calls));
	uint32_t *key2stat = NULL;
	size_t kcap = 0, scap = 0;
	/* calls per (stat, rank): for seq; zero but where the rank being read
	 * counted, and set back to zero after it (linear in calls) */
	uint32_t *seqs = NULL;
	size_t seqcap = 0;
	/* per stat: the calls of the first rank that made any (for
	 * counts_differ) */
	uint32_t *firstn = NULL;
	size_t firstcap = 0, ncomm = 0; /* ranks with calls */
	char key[64];
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct dist_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		out->ranks[out->nranks++] = d->row;
		size_t p0 = coll->rank_first[ri], p1 = coll->rank_first[ri + 1];
		size_t c0 = out->ncalls;
		for (size_t k = p0; k < p1; k++) {
			const struct tt_coll_part *pc = &coll->parts[k];
			tt_tb_coll_key(pc->name, key, sizeof(key));
			uint32_t kid = tt_tb_intern(&out->names, key);
			if (kid >= kcap) {
				size_t old = kcap;
				TT_GROW(key2stat, kcap, (size_t)kid + 1);
				memset(key2stat + old, 0xff, (kcap - old) * sizeof(*key2stat));
			}
			if (key2stat[kid] == TT_NONE) {
				TT_GROW(out->stats, scap, out->nstats + 1);
				struct tt_coll_stat *s = &out->stats[out->nstats];
				memset(s, 0, sizeof(*s));
				/* the display name: interning it does not disturb key ids,
				 * which are only looked up */
				s->name = tt_strtab_get(&out->names,
							tt_tb_intern(&out->names, pc->name));
				s->source = pc->source;
				key2stat[kid] = (uint32_t)out->nstats++;
				if (seqcap < out->nstats) {
					size_t old = seqcap;
					TT_GROW(seqs, seqcap, out->nstats);
					memset(seqs + old, 0, (seqcap - old) * sizeof(*seqs));
				}
				TT_GROW(firstn, firstcap, out->nstats);
				firstn[out->nstats - 1] = 0;
			}
			uint32_t si = key2stat[kid];
			struct tt_coll_call *w = &out->calls[out->ncalls++];
			w->ri = ri;
			w->rank = m->ranks[ri]->rank;
			w->stat = si;
			w->kernel = pc->kernel;
			w->nkernels = pc->nkernels;
			w->cpu = pc->cpu;
			w->source = pc->source;
			w->seq = seqs[si]++;
			w->ts = pc->ts;
			w->dur = pc->dur;
			w->bytes = pc->bytes;
			/* the split of the matched collectives (collectives.h): wait
			 * for the last rank to arrive, then the transfer */
			w->matched = pc->coll != TT_NONE && coll->colls[pc->coll].last != TT_NONE;
			w->transfer = pc->transfer;
			w->sync = pc->wait;
		}
		/* the rank's count of each name it called: the ranks with the
		 * name, whether they differ from the first's */
		ncomm += out->ncalls > c0;
		for (size_t k = c0; k < out->ncalls; k++) {
			uint32_t si = out->calls[k].stat;
			if (!seqs[si])
				continue;
			struct tt_coll_stat *st = &out->stats[si];
			if (!st->nranks++)
				firstn[si] = seqs[si];
			else if (seqs[si] != firstn[si])
				st->counts_differ = true;
			seqs[si] = 0;
		}
	}
	/* a rank with calls but none of a name differs from one with some */
	for (size_t si = 0; si < out->nstats; si++)
		if (out->stats[si].nranks < ncomm)
			out->stats[si].counts_differ = true;
	/* statistics per name and per rank */
	size_t *rpos = tt_malloc((m->nranks + 1) * sizeof(*rpos));
	for (size_t i = 0; i <= m->nranks; i++)
		rpos[i] = SIZE_MAX;
	for (size_t i = 0; i < out->nranks; i++)
		rpos[out->ranks[i].ri] = i;
	for (size_t i = 0; i < out->ncalls; i++) {
		const struct tt_coll_call *w = &out->calls[i];
		struct tt_coll_stat *s = &out->stats[w->stat];
		s->calls++;
		s->matched += w->matched;
		if (w->bytes >= 0) {
			tt_sat_acc(&s->bytes, w->bytes);
			s->with_bytes++;
		}
		tt_sat_acc(&s->total_ns, w->dur);
		tt_sat_acc(&s->transfer_ns, w->transfer);
		tt_sat_acc(&s->sync_ns, w->sync);
		struct tt_dist_rank *dr = &out->ranks[rpos[w->ri]];
		dr->ncalls++;
		tt_sat_acc(&dr->coll_ns, w->dur);
		tt_sat_acc(&dr->transfer_ns, w->transfer);
		tt_sat_acc(&dr->sync_ns, w->sync);
	}
	/* sort the statistics; calls keep pointing at them through a map */
	struct stat_at *sa = tt_malloc((out->nstats + 1) * sizeof(*sa));
	for (size_t i = 0; i < out->nstats; i++)
		sa[i] = (struct stat_at){out->stats[i], (uint32_t)i};
	if (out->nstats > 1)
		qsort(sa, out->nstats, sizeof(*sa), stat_at_cmp);
	uint32_t *newpos = tt_malloc((out->nstats + 1) * sizeof(*newpos));
	for (size_t k = 0; k < out->nstats; k++) {
		out->stats[k] = sa[k].s;
		newpos[sa[k].at] = (uint32_t)k;
	}
	free(sa);
	for (size_t i = 0; i < out->ncalls; i++)
		out->calls[i].stat = newpos[out->calls[i].stat];
	free(newpos);
	/* per rank and collective; rix: a stat's row among the rank's (TT_NONE
	 * but for the rank being read) */
	size_t rcap = 0;
	uint32_t *rix = tt_malloc((out->nstats + 1) * sizeof(*rix));
	memset(rix, 0xff, (out->nstats + 1) * sizeof(*rix));
	for (size_t i = 0; i < out->ncalls;) {
		size_t ri = out->calls[i].ri, j = i, first = out->nrstats;
		for (; j < out->ncalls && out->calls[j].ri == ri; j++) {
			const struct tt_coll_call *cl = &out->calls[j];
			struct tt_coll_rstat *x;
			if (rix[cl->stat] != TT_NONE) {
				x = &out->rstats[rix[cl->stat]];
			} else {
				rix[cl->stat] = (uint32_t)out->nrstats;
				TT_GROW(out->rstats, rcap, out->nrstats + 1);
				x = &out->rstats[out->nrstats++];
				memset(x, 0, sizeof(*x));
				x->ri = ri;
				x->rank = cl->rank;
				x->stat = cl->stat;
			}
			x->calls++;
			if (cl->bytes >= 0) {
				tt_sat_acc(&x->bytes, cl->bytes);
				x->with_bytes++;
			}
			tt_sat_acc(&x->total_ns, cl->dur);
			tt_sat_acc(&x->transfer_ns, cl->transfer);
			tt_sat_acc(&x->sync_ns, cl->sync);
		}
		for (size_t q = first; q < out->nrstats; q++)
			rix[out->rstats[q].stat] = TT_NONE;
		/* as the statistics: total latency descending */
		if (out->nrstats - first > 1)
			qsort(out->rstats + first, out->nrstats - first, sizeof(*out->rstats),
			      rstat_cmp);
		i = j;
	}
	free(rix);
	for (size_t s = 0; s < out->nstats; s++) {
		struct tt_coll_stat *x = &out->stats[s];
		x->sync_pct = x->total_ns > 0 ? 100.0 * (double)x->sync_ns / (double)x->total_ns : NAN;
	}
	for (size_t s = 0; s < out->nrstats; s++) {
		struct tt_coll_rstat *x = &out->rstats[s];
		x->sync_pct = x->total_ns > 0 ? 100.0 * (double)x->sync_ns / (double)x->total_ns : NAN;
	}
	free(firstn);
	free(seqs);
	free(key2stat);
	tb_collectives(m, c.r, out);
	free(c.r);
	/* the four parts of a step come from the Overview */
	struct tt_overview own;
	const struct tt_overview *ov = given;
	if (!ov) {
		tt_overview_compute(m, o, &own);
		ov = &own;
	}
	for (size_t j = 0; j < ov->nranks; j++) {
		size_t ri = ov->ranks[j].ri;
		if (ri >= m->nranks || rpos[ri] == SIZE_MAX)
			continue;
		struct tt_dist_rank *w = &out->ranks[rpos[ri]];
		w->comp_ns = ov->ranks[j].comp_ns;
		w->overlap_ns = ov->ranks[j].overlap_ns;
		w->comm_ns = ov->ranks[j].comm_ns;
		w->other_ns = ov->ranks[j].other_ns;
	}
	free(rpos);
	if (!given)
		tt_overview_free(&own);
	stragglers(out);
}

void tt_dist_free(struct tt_dist *d)
{
	free(d->ranks);
	free(d->calls);
	free(d->stats);
	free(d->stragglers);
	free(d->rstats);
	free(d->waits);
	free(d->ops);
	tt_strtab_free(&d->names);
	memset(d, 0, sizeof(*d));
}

