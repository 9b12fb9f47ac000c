/* GPU utilisation, estimated SM efficiency and achieved occupancy per device
 * and per kernel (the TensorBoard plugin's GPU summary and kernel view). */
#include "config.h"

#include "tracetop/testing.h"
#include "tracetop/utilization.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/operators.h"
#include "tracetop/sort.h"
#include "tracetop/util.h"
#include "optree.h"

int64_t tt_tb_num_sms(const struct tt_rank *r, int64_t device)
{
	const struct tt_trace_meta *mt = &r->meta;
	int64_t same = -1;
	for (size_t i = 0; i < mt->ndevprops; i++) {
		const struct tt_devprop *d = &mt->devprops[i];
		if (d->id == device && d->num_sms > 0)
			return d->num_sms;
		if (d->num_sms <= 0)
			continue;
		if (same == -1)
			same = d->num_sms;
		else if (same != d->num_sms)
			same = 0;
	}
	return same > 0 ? same : 0;
}

/* x*y*z of a grid or block, or -1 when a factor is not positive or the
 * product overflows int64 (three int32 factors can) */
static int64_t dim3(const int32_t d[3])
{
	int64_t p = 1;
	for (int i = 0; i < 3; i++)
		if (d[i] <= 0 || __builtin_mul_overflow(p, (int64_t)d[i], &p))
			return -1;
	return p;
}

/* the same in double (exact enough for a ratio), -1 when not positive */
static double dim3_d(const int32_t d[3])
{
	if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0)
		return -1;
	return (double)d[0] * d[1] * d[2];
}

/* Estimated SM efficiency of one kernel, 0..1: min(blocks / SMs, 1) with
 * blocks = grid x * y * z; without an SM count, min(`blocks per SM`, 1) as
 * the trace gives it; NaN when neither is known. */
static double tt_tb_sm_efficiency(const struct tt_kinfo *k, int64_t num_sms)
{
	double blocks = dim3_d(k->grid);
	if (blocks > 0 && num_sms > 0) {
		double f = blocks / (double)num_sms;
		return f < 1 ? f : 1;
	}
	if (k->blocks_per_sm >= 0)
		return k->blocks_per_sm < 1 ? k->blocks_per_sm : 1;
	return NAN;
}

/* ---- GPU utilisation ---- */

/* per kernel name on one rank */
struct kacc {
	uint32_t name;
	bool tc;
	uint64_t count;
	int64_t sum, max, min;
	double sm_acc, occ_acc, bps0_acc, occ0_acc;
	int64_t sm_ns, occ_ns;
	uint32_t longest;
};

/* per (kernel, op, launch parameters) on one rank */
struct kopacc {
	uint32_t key;       /* in the rank's local key table */
	uint32_t name;      /* kernel name (rank string) */
	uint32_t op;        /* op event, TT_NONE: see opkind */
	int opkind;         /* 0 op, 1 none (struct launcher) */
	int32_t grid[3], block[3], regs, shmem;
	uint64_t count;
	int64_t sum, max, min;
	double bps0_acc, occ0_acc;
	uint32_t longest;
};

struct util_rank {
	bool sel, nogpu;
	bool has_bps, has_occ; /* a kernel with `blocks per SM` > 0, with occupancy */
	struct tt_util_rank row;
	struct tt_util_dev *devs;
	size_t ndevs;
	struct kacc *k;
	size_t nk;
	struct kopacc *kop;
	size_t nkop;
	struct tt_strtab keys; /* kop keys */
};

struct util_ctx {
	const struct tt_model *m;
	int nbuckets;
	struct util_rank *ranks;
};

/* a blocks-per-SM change at a time: +v at a kernel's start, -v at its end */
struct bpoint {
	int64_t t;
	int end;    /* 0 start, 1 end: starts first at equal times */
	double v;
};

static inline bool bpoint_before(const struct bpoint *x, const struct bpoint *y)
{
	return x->t < y->t || (x->t == y->t && x->end < y->end);
}
TT_STABLE_SORT(bpoint_sort, struct bpoint, bpoint_before)

/* ∫ min(Σ v of the running kernels, 1) dt over [w0, w1), the plugin's
 * merge_ranges_with_value then clipped to the window */
static double sm_integral(struct bpoint *p, size_t n, int64_t w0, int64_t w1)
{
	bpoint_sort(p, n); /* (stable: the sums add in the same order) */
	double acc = 0, v = n ? p[0].v : 0;
	for (size_t i = 1; i < n; i++) {
		int64_t a = TT_MAX(p[i - 1].t, w0), b = TT_MIN(p[i].t, w1);
		if (p[i].t > p[i - 1].t && v > 0 && b > a)
			acc += (v < 1 ? v : 1) * (double)(b - a);
		v += p[i].end ? -p[i].v : p[i].v;
	}
	return acc;
}

/* blocks per SM of kernel e: the arg, else grid blocks / SMs; < 0 unknown */
static double blocks_per_sm(const struct tt_kinfo *k, int64_t num_sms)
{
	if (k->blocks_per_sm >= 0)
		return k->blocks_per_sm;
	double blocks = dim3_d(k->grid);
	return blocks > 0 && num_sms > 0 ? blocks / (double)num_sms : -1;
}

/* The node a link's GPU op is charged to (tt_tbtree_gpu_owner of the
 * runtime call that launched it): kind 0 a node (op); 1 the plugin's
 * CallTreeRoot: a call outside every node on a thread with nodes, or no
 * launching call on a rank with steps (the plugin puts those under the
 * steps' thread); -1 none (the plugin leaves the kernel out of its kernel
 * view by operator). */
struct launcher {
	uint32_t op;      /* the node, TT_NONE unless kind 0 */
	uint32_t op_name; /* its name, TT_NONE */
	int8_t kind;
	bool is_op;       /* the node is a plain cpu_op (TT_TBN_OP) */
};

/* The launcher of every link of r, by link index, found in one pass over
 * the links: they are sorted by launching call, so the calls, their owners
 * and the owners' names are read in memory order (looked up per GPU op in
 * the streams' order, each was a cache miss: a fifth of the analysis).
 * thread_nodes: per track, whether its thread has nodes.  Freed by the
 * caller. */
static struct launcher *launchers(const struct tt_rank *r, const struct tt_tbtree *t,
				  const uint8_t *thread_nodes)
{
	struct launcher *v = tt_malloc(((size_t)r->nlinks + 1) * sizeof(*v));
	for (uint32_t l = 0; l < r->nlinks; l++) {
		uint32_t call = r->links[l].cpu, o = tt_tbtree_gpu_owner(t, call);
		int8_t kind = o != TT_NONE ? 0 : thread_nodes[r->ev[call].track] ? 1 : -1;
		v[l] = (struct launcher){o, o != TT_NONE ? r->ev[o].name : TT_NONE, kind,
					 o != TT_NONE && t->kind[o] == TT_TBN_OP};
	}
	return v;
}

/* kernel i, launched as ln says */
static void kop_add(const struct tt_rank *r, uint32_t i, const struct launcher *ln,
		    struct util_rank *ur, uint32_t **map, size_t *mcap, size_t *cap)
{
	const struct tt_event *e = &r->ev[i];
	struct tt_kinfo z = {.blocks_per_sm = -1, .occupancy = -1};
	const struct tt_kinfo *k = (e->flags & TT_EF_KINFO) ? &r->kinfo[e->aux] : &z;
	/* the key: the fields themselves, as bytes */
	const int32_t key[11] = {(int32_t)e->name,
				 (int32_t)ln->op_name,
				 ln->kind,
				 k->grid[0],
				 k->grid[1],
				 k->grid[2],
				 k->block[0],
				 k->block[1],
				 k->block[2],
				 k->regs,
				 k->shmem};
	uint32_t id = tt_tb_key_index(&ur->keys, (const char *)key, sizeof(key), map, mcap);
	if ((*map)[id] == TT_NONE) {
		TT_GROW(ur->kop, *cap, ur->nkop + 1);
		struct kopacc *a = &ur->kop[ur->nkop];
		memset(a, 0, sizeof(*a));
		a->key = id;
		a->name = e->name;
		a->op = ln->op;
		a->opkind = ln->kind;
		memcpy(a->grid, k->grid, sizeof(a->grid));
		memcpy(a->block, k->block, sizeof(a->block));
		a->regs = k->regs;
		a->shmem = k->shmem;
		a->min = INT64_MAX;
		a->max = -1;
		(*map)[id] = (uint32_t)ur->nkop++;
	}
	struct kopacc *a = &ur->kop[(*map)[id]];
	a->count++;
	tt_sat_acc(&a->sum, e->dur);
	a->min = TT_MIN(a->min, e->dur);
	if (e->dur > a->max) {
		a->max = e->dur;
		a->longest = i;
	}
	if (k->blocks_per_sm >= 0)
		a->bps0_acc += k->blocks_per_sm * (double)e->dur;
	if (k->occupancy >= 0)
		a->occ0_acc += k->occupancy * (double)e->dur;
}

/* the plugin's tensor-core eligible ratio of one rank */
static double tc_eligible_ratio(const struct tt_rank *r, const struct tt_tbtree *t)
{
	const struct tt_tb_nodestat ns = *tt_tb_node_stats_of(r);
	/* an eligible node below (by position in t->order, as ns) */
	uint8_t *below = tt_calloc((size_t)t->norder + 1, 1);
	for (uint32_t k = t->norder; k-- > 0;) {
		uint32_t p = t->parent[t->order[k]];
		if (p != TT_NONE && (below[k] || ns.tc_eligible[k]))
			below[ns.pos[p]] = 1;
	}
	int64_t bottom = 0, all = 0;
	for (uint32_t k = 0; k < t->norder; k++) {
		if (ns.tc_eligible[k] && !below[k])
			tt_sat_acc(&bottom, ns.node[k].kself);
		if (t->kind[t->order[k]] == TT_TBN_OP)
			tt_sat_acc(&all, ns.node[k].kself);
	}
	free(below);
	return all > 0 ? 100.0 * (double)bottom / (double)all : NAN;
}

static void util_rank(size_t ri, void *vctx)
{
	struct util_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct util_rank *ur = &c->ranks[ri];
	ur->sel = true;
	tt_strtab_init(&ur->keys);
	ur->row.ri = ri;
	ur->row.rank = r->rank;
	ur->row.compute_major =
		r->meta.ndevprops && r->meta.devprops[0].compute_major > 0
			? r->meta.devprops[0].compute_major
			: -1;
	/* the steps window and the op tree */
	struct tt_step *st;
	size_t nkept;
	tt_tb_rank_steps(r, ri, &st, &nkept);
	int64_t w0 = nkept ? st[0].t0 : 0, w1 = nkept ? st[nkept - 1].t1 : 0;
	free(st);
	const struct tt_tbtree *t = tt_tbtree_of(r);
	ur->row.tc_eligible_pct = tc_eligible_ratio(r, t);
	/* the threads with nodes (the plugin's trees), and whether the rank has
	 * steps (its main thread) */
	uint8_t *thread_nodes = tt_calloc((size_t)r->ntracks + 1, 1);
	bool steps = false;
	for (uint32_t k = 0; k < t->norder; k++) {
		const struct tt_event *e = &r->ev[t->order[k]];
		uint32_t th = e->track;
		if (r->tracks[th].kind != TT_TRACK_CPU)
			th = r->opinfo[e->aux].thread; /* (a stray op: tt_opinfo.thread) */
		thread_nodes[th] = 1;
		steps |= t->kind[t->order[k]] == TT_TBN_STEP;
	}
	/* the devices of the GPU stream tracks */
	size_t ndev = 0, cdev = 0;
	int64_t *dev = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		bool seen = false;
		for (size_t d = 0; d < ndev && !seen; d++)
			seen = dev[d] == tr->device;
		if (!seen) {
			TT_GROW(dev, cdev, ndev + 1);
			dev[ndev++] = tr->device;
		}
	}
	for (size_t a = 1; a < ndev; a++)
		for (size_t b = a; b > 0 && dev[b - 1] > dev[b]; b--) {
			int64_t tmp = dev[b];
			dev[b] = dev[b - 1];
			dev[b - 1] = tmp;
		}
	/* the intervals and blocks-per-SM points of a device, in buffers sized
	 * once for the device with most GPU-track events and reused by each
	 * (no regrowing: the copies and the page faults of fresh blocks) */
	size_t most = 0;
	for (size_t d = 0; d < ndev; d++) {
		size_t n = 0;
		for (uint32_t ti = 0; ti < r->ntracks; ti++)
			if (r->tracks[ti].kind == TT_TRACK_GPU && r->tracks[ti].device == dev[d])
				n += r->tracks[ti].count;
		most = TT_MAX(most, n);
	}
	struct tt_iv *all = tt_malloc((most + 1) * sizeof(*all));
	struct tt_iv *kern = tt_malloc((most + 1) * sizeof(*kern));
	struct bpoint *bp = tt_malloc((2 * most + 1) * sizeof(*bp));
	struct bpoint *gp = tt_malloc((2 * most + 1) * sizeof(*gp));
	uint32_t *kidx = tt_tb_none_array(r->strs.n);
	struct launcher *la = launchers(r, t, thread_nodes);
	const struct launcher unlinked = {TT_NONE, TT_NONE, steps ? 1 : -1, false};
	uint32_t lpos = 0; /* (tt_link_of_from) */
	uint32_t *kopmap = NULL;
	size_t kcap = 0, kopmcap = 0, kopcap = 0;
	int64_t all_kernel_ns = 0, all_tc_ns = 0;
	bool rank_op_kernels = false;
	ur->devs = tt_calloc(ndev + 1, sizeof(*ur->devs));
	for (size_t d = 0; d < ndev; d++) {
		struct tt_util_dev *u = &ur->devs[ur->ndevs];
		u->ri = ri;
		u->rank = r->rank;
		u->device = dev[d];
		u->num_sms = tt_tb_num_sms(r, dev[d]);
		u->t0 = INT64_MAX;
		u->t1 = INT64_MIN;
		u->win_t0 = w0;
		u->win_t1 = w1;
		size_t na = 0, nk = 0, nbp = 0, ngp = 0;
		double sm_acc = 0, occ_acc = 0, wocc_acc = 0;
		int64_t wocc_ns = 0;
		for (uint32_t ti = 0; ti < r->ntracks; ti++) {
			const struct tt_track *tr = &r->tracks[ti];
			if (tr->kind != TT_TRACK_GPU || tr->device != dev[d])
				continue;
			u->nstreams++;
			for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
				const struct tt_event *e = &r->ev[i];
				if (!tt_tb_is_gpu_op(r, e))
					continue;
				int64_t end = tt_ev_end(e);
				u->t0 = TT_MIN(u->t0, e->ts);
				u->t1 = TT_MAX(u->t1, end);
				all[na++] = (struct tt_iv){e->ts, end};
				if (tt_ev_kind(r, e) != TT_K_KERNEL) {
					u->nmem++;
					continue;
				}
				u->nkernels++;
				tt_sat_acc(&u->kernel_sum_ns, e->dur);
				kern[nk++] = (struct tt_iv){e->ts, end};
				double eff = NAN, occ = -1, bps = -1, gbps = -1;
				if (e->flags & TT_EF_KINFO) {
					const struct tt_kinfo *k = &r->kinfo[e->aux];
					eff = tt_tb_sm_efficiency(k, u->num_sms);
					double blocks = dim3_d(k->grid);
					if (!isnan(eff) && !(blocks > 0 && u->num_sms > 0))
						u->sm_from_args = true;
					occ = k->occupancy;
					bps = k->blocks_per_sm;
					gbps = blocks_per_sm(k, u->num_sms);
					u->nkernels_bps += k->blocks_per_sm > 0;
					ur->has_bps |= k->blocks_per_sm > 0;
					ur->has_occ |= k->occupancy >= 0;
				}
				if (!isnan(eff)) {
					sm_acc += eff * (double)e->dur;
					tt_sat_acc(&u->sm_eff_ns, e->dur);
				}
				if (occ >= 0) {
					occ_acc += occ * (double)e->dur;
					tt_sat_acc(&u->occ_ns, e->dur);
					u->nkernels_occ++;
					int64_t a = TT_MAX(e->ts, w0), b = TT_MIN(end, w1);
					if (b > a) {
						wocc_acc += occ * (double)(b - a);
						tt_sat_acc(&wocc_ns, b - a);
					}
				}
				/* the plugin's: the arg only; tracetop's: else grid / SMs */
				if (bps > 0) {
					bp[nbp++] = (struct bpoint){e->ts, 0, bps};
					bp[nbp++] = (struct bpoint){end, 1, bps};
				}
				if (gbps > 0) {
					gp[ngp++] = (struct bpoint){e->ts, 0, gbps};
					gp[ngp++] = (struct bpoint){end, 1, gbps};
				}
				/* per kernel name */
				uint32_t ki = kidx[e->name];
				if (ki == TT_NONE) {
					TT_GROW(ur->k, kcap, ur->nk + 1);
					ki = kidx[e->name] = (uint32_t)ur->nk++;
					memset(&ur->k[ki], 0, sizeof(ur->k[ki]));
					ur->k[ki].name = e->name;
					ur->k[ki].longest = i;
					ur->k[ki].max = -1;
					ur->k[ki].min = INT64_MAX;
					ur->k[ki].tc = tt_tb_kernel_uses_tc(tt_ev_name(r, e));
				}
				struct kacc *ka = &ur->k[ki];
				ka->count++;
				tt_sat_acc(&ka->sum, e->dur);
				ka->min = TT_MIN(ka->min, e->dur);
				if (e->dur > ka->max) {
					ka->max = e->dur;
					ka->longest = i;
				}
				if (!isnan(eff)) {
					ka->sm_acc += eff * (double)e->dur;
					tt_sat_acc(&ka->sm_ns, e->dur);
				}
				if (occ >= 0) {
					ka->occ_acc += occ * (double)e->dur;
					tt_sat_acc(&ka->occ_ns, e->dur);
					ka->occ0_acc += occ * (double)e->dur;
				}
				if ((e->flags & TT_EF_KINFO) && r->kinfo[e->aux].blocks_per_sm >= 0)
					ka->bps0_acc +=
						r->kinfo[e->aux].blocks_per_sm * (double)e->dur;
				tt_sat_acc(&all_kernel_ns, e->dur);
				tt_sat_acc(&all_tc_ns, ka->tc ? e->dur : 0);
				/* tensor cores over the kernels the operators launched */
				uint32_t l = tt_link_of_from(r, i, &lpos);
				const struct launcher *ln = l != TT_NONE ? &la[l] : &unlinked;
				if (ln->is_op) {
					tt_sat_acc(&u->op_kernel_ns, e->dur);
					tt_sat_acc(&u->tc_ns, ka->tc ? e->dur : 0);
					rank_op_kernels = true;
				}
				if (ln->kind >= 0)
					kop_add(r, i, ln, ur, &kopmap, &kopmcap, &kopcap);
			}
		}
		if (!na)
			continue;
		size_t nb = tt_iv_merge(all, na);
		u->busy_ns = tt_iv_total(all, nb);
		size_t nkb = tt_iv_merge(kern, nk);
		u->kernel_busy_ns = tt_iv_total(kern, nkb);
		int64_t span = u->t1 - u->t0;
		u->busy_span_pct = span > 0 ? 100.0 * (double)u->busy_ns / (double)span : NAN;
		u->sm_eff_ktime_pct = u->sm_eff_ns > 0 ? 100.0 * sm_acc / (double)u->sm_eff_ns : NAN;
		u->occ_ktime_pct = u->occ_ns > 0 ? occ_acc / (double)u->occ_ns : NAN;
		int64_t win = w1 - w0;
		u->gpu_util_pct = win > 0 ? 100.0 * (double)tt_iv_inter(kern, nkb, w0, w1) /
						    (double)win
					  : NAN;
		u->est_sm_eff_pct =
			win > 0 && nbp ? 100.0 * sm_integral(bp, nbp, w0, w1) / (double)win : NAN;
		u->est_sm_eff_grid_pct =
			win > 0 && ngp ? 100.0 * sm_integral(gp, ngp, w0, w1) / (double)win : NAN;
		u->est_occ_pct = wocc_ns > 0 ? wocc_acc / (double)wocc_ns : NAN;
		u->tc_pct = u->op_kernel_ns > 0 ? 100.0 * (double)u->tc_ns / (double)u->op_kernel_ns
						: NAN;
		u->series = tt_calloc((size_t)c->nbuckets, sizeof(*u->series));
		for (int b = 0; b < c->nbuckets && span > 0; b++) {
			int64_t a0 = u->t0 + (int64_t)((double)span * b / c->nbuckets);
			int64_t a1 =
				b + 1 == c->nbuckets
					? u->t1
					: u->t0 + (int64_t)((double)span * (b + 1) / c->nbuckets);
			if (a1 > a0)
				u->series[b] = (float)((double)tt_iv_inter(all, nb, a0, a1) /
						       (double)(a1 - a0));
		}
		ur->ndevs++;
	}
	/* the plugin's tensor-core share: none on every device when no operator
	 * launched a kernel, else 0 on a device where none did */
	for (size_t d = 0; d < ur->ndevs && rank_op_kernels; d++)
		if (isnan(ur->devs[d].tc_pct) && ur->devs[d].nkernels)
			ur->devs[d].tc_pct = 0;
	ur->row.tc_kernel_pct =
		all_kernel_ns > 0 ? 100.0 * (double)all_tc_ns / (double)all_kernel_ns : NAN;
	ur->nogpu = ur->ndevs == 0;
	free(all);
	free(kern);
	free(bp);
	free(gp);
	free(la);
	free(thread_nodes);
	free(kopmap);
	free(kidx);
	free(dev);
}

static int ukernel_cmp(const void *a, const void *b)
{
	const struct tt_util_kernel *x = a, *y = b;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int kop_cmp(const void *a, const void *b)
{
	const struct tt_util_kop *x = a, *y = b;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	int d = strcmp(x->name, y->name);
	return d ? d : strcmp(x->op, y->op);
}

/* kernels-by-op rows of one rank into out, merged by key (kernel name, op
 * name, launch parameters) */
static void merge_kops(const struct tt_model *m, size_t ri, struct util_rank *ur,
		       struct tt_util *out, uint32_t **map, size_t *mcap, size_t *cap,
		       double **acc, size_t *acap)
{
	const struct tt_rank *r = m->ranks[ri];
	for (size_t j = 0; j < ur->nkop; j++) {
		const struct kopacc *a = &ur->kop[j];
		const char *op = a->opkind == 0 ? tt_ev_name(r, &r->ev[a->op]) : "(no op)";
		char key[2048];
		int n = snprintf(key, sizeof(key), "%s\x1f%s\x1f%d,%d,%d,%d,%d,%d,%d,%d",
				 tt_str(r, a->name), op, a->grid[0], a->grid[1], a->grid[2],
				 a->block[0], a->block[1], a->block[2], a->regs, a->shmem);
		if (n >= (int)sizeof(key))
			n = (int)sizeof(key) - 1;
		uint32_t id = tt_tb_key_index(&out->names, key, (size_t)n, map, mcap);
		if ((*map)[id] == TT_NONE) {
			TT_GROW(out->kops, *cap, out->nkops + 1);
			if (*acap < *cap) {
				*acc = tt_realloc_array(*acc, *cap * 2, sizeof(**acc));
				*acap = *cap;
			}
			struct tt_util_kop *w = &out->kops[out->nkops];
			memset(w, 0, sizeof(*w));
			w->name = tt_strtab_get(&out->names, tt_tb_intern(&out->names, tt_str(r, a->name)));
			w->op = tt_strtab_get(&out->names, tt_tb_intern(&out->names, op));
			memcpy(w->grid, a->grid, sizeof(w->grid));
			memcpy(w->block, a->block, sizeof(w->block));
			w->regs = a->regs;
			w->shmem = a->shmem;
			w->min_ns = INT64_MAX;
			w->max_ns = -1;
			(*acc)[2 * out->nkops] = (*acc)[2 * out->nkops + 1] = 0;
			(*map)[id] = (uint32_t)out->nkops++;
		}
		size_t wi = (*map)[id];
		struct tt_util_kop *w = &out->kops[wi];
		w->has_bps |= ur->has_bps;
		w->has_occ |= ur->has_occ;
		w->count += a->count;
		tt_sat_acc(&w->sum_ns, a->sum);
		w->min_ns = TT_MIN(w->min_ns, a->min);
		if (a->max > w->max_ns) {
			w->max_ns = a->max;
			w->ri = ri;
			w->longest = a->longest;
		}
		(*acc)[2 * wi] += a->bps0_acc;
		(*acc)[2 * wi + 1] += a->occ0_acc;
	}
}

void tt_util_compute(const struct tt_model *m, const struct tt_aopts *o, int nbuckets,
		     struct tt_util *out)
{
	memset(out, 0, sizeof(*out));
	out->nbuckets = nbuckets >= 1 ? nbuckets : TT_UTIL_BUCKETS;
	tt_strtab_init(&out->names);
	struct util_ctx c = {m, out->nbuckets, tt_calloc(m->nranks + 1, sizeof(*c.ranks))};
	tt_for_ranks(m, o, util_rank, &c);
	size_t ndevs = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		ndevs += c.ranks[ri].ndevs;
	out->devs = tt_calloc(ndevs + 1, sizeof(*out->devs));
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	/* kernels across ranks: by interned name */
	struct tt_strtab knames;
	tt_strtab_init(&knames);
	size_t kcap = 0;
	double *sm_acc = NULL, *occ_acc = NULL, *bps0 = NULL, *occ0 = NULL;
	int64_t *sm_ns = NULL, *occ_ns = NULL;
	int64_t *last_rank = NULL;
	size_t acap = 0;
	uint32_t *kopmap = NULL;
	size_t kopmcap = 0, kopcap = 0, kopacap = 0;
	double *kopacc = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct util_rank *ur = &c.ranks[ri];
		if (!ur->sel)
			continue;
		out->nranks_sel++;
		out->nranks_nogpu += ur->nogpu;
		out->ranks[out->nranks++] = ur->row;
		if (ur->ndevs)
			memcpy(&out->devs[out->ndevs], ur->devs, ur->ndevs * sizeof(*ur->devs));
		out->ndevs += ur->ndevs;
		const struct tt_rank *r = m->ranks[ri];
		for (size_t i = 0; i < ur->nk; i++) {
			const struct kacc *ka = &ur->k[i];
			uint32_t g = tt_tb_intern(&knames, tt_str(r, ka->name));
			if (g >= out->nkernels) {
				/* a new name: ids are dense, so g == nkernels */
				TT_GROW(out->kernels, kcap, (size_t)g + 1);
				if (acap < kcap) {
					sm_acc = tt_realloc_array(sm_acc, kcap, sizeof(*sm_acc));
					occ_acc = tt_realloc_array(occ_acc, kcap, sizeof(*occ_acc));
					bps0 = tt_realloc_array(bps0, kcap, sizeof(*bps0));
					occ0 = tt_realloc_array(occ0, kcap, sizeof(*occ0));
					sm_ns = tt_realloc_array(sm_ns, kcap, sizeof(*sm_ns));
					occ_ns = tt_realloc_array(occ_ns, kcap, sizeof(*occ_ns));
					last_rank = tt_realloc_array(last_rank, kcap,
								     sizeof(*last_rank));
					acap = kcap;
				}
				for (size_t n = out->nkernels; n <= g; n++) {
					memset(&out->kernels[n], 0, sizeof(out->kernels[n]));
					out->kernels[n].max_ns = -1;
					out->kernels[n].min_ns = INT64_MAX;
					sm_acc[n] = occ_acc[n] = bps0[n] = occ0[n] = 0;
					sm_ns[n] = occ_ns[n] = 0;
					last_rank[n] = -1;
				}
				out->nkernels = (size_t)g + 1;
			}
			struct tt_util_kernel *k = &out->kernels[g];
			if (last_rank[g] != (int64_t)ri) {
				k->nranks++;
				last_rank[g] = (int64_t)ri;
			}
			k->tc = ka->tc;
			k->has_bps |= ur->has_bps;
			k->has_occ |= ur->has_occ;
			k->count += ka->count;
			tt_sat_acc(&k->sum_ns, ka->sum);
			k->min_ns = TT_MIN(k->min_ns, ka->min);
			if (ka->max > k->max_ns) {
				k->max_ns = ka->max;
				k->ri = ri;
				k->longest = ka->longest;
			}
			sm_acc[g] += ka->sm_acc;
			tt_sat_acc(&sm_ns[g], ka->sm_ns);
			occ_acc[g] += ka->occ_acc;
			tt_sat_acc(&occ_ns[g], ka->occ_ns);
			bps0[g] += ka->bps0_acc;
			occ0[g] += ka->occ0_acc;
		}
		merge_kops(m, ri, ur, out, &kopmap, &kopmcap, &kopcap, &kopacc, &kopacap);
		free(ur->devs);
		free(ur->k);
		free(ur->kop);
		tt_strtab_free(&ur->keys);
	}
	for (size_t g = 0; g < out->nkernels; g++) {
		struct tt_util_kernel *k = &out->kernels[g];
		k->name = tt_strtab_get(&out->names,
					tt_tb_intern(&out->names, tt_strtab_get(&knames, (uint32_t)g)));
		k->sm_eff_ktime_pct = sm_ns[g] > 0 ? 100.0 * sm_acc[g] / (double)sm_ns[g] : NAN;
		k->occ_ktime_pct = occ_ns[g] > 0 ? occ_acc[g] / (double)occ_ns[g] : NAN;
		k->mean_bps = !k->has_bps ? NAN : k->sum_ns > 0 ? bps0[g] / (double)k->sum_ns : 0;
		k->mean_occ_pct = !k->has_occ ? NAN : k->sum_ns > 0 ? occ0[g] / (double)k->sum_ns : 0;
		k->blocks = k->threads = -1;
		k->regs = 0;
		if (!k->count)
			continue; /* id 0, the empty string, when no kernel used it */
		const struct tt_rank *r = m->ranks[k->ri];
		const struct tt_event *e = &r->ev[k->longest];
		if (e->flags & TT_EF_KINFO) {
			const struct tt_kinfo *ki = &r->kinfo[e->aux];
			int64_t bl = dim3(ki->grid), th = dim3(ki->block);
			k->blocks = bl;
			k->threads = th > 0 && th <= INT32_MAX ? (int32_t)th : -1;
			k->regs = ki->regs;
		}
	}
	tt_strtab_free(&knames);
	for (size_t i = 0; i < out->nkops; i++) {
		struct tt_util_kop *w = &out->kops[i];
		w->mean_bps = !w->has_bps ? NAN : w->sum_ns > 0 ? kopacc[2 * i] / (double)w->sum_ns : 0;
		w->mean_occ_pct = !w->has_occ	? NAN
				  : w->sum_ns > 0 ? kopacc[2 * i + 1] / (double)w->sum_ns
						  : 0;
	}
	/* drop the slot of id 0 (the empty string) when no kernel used it */
	size_t w = 0;
	for (size_t i = 0; i < out->nkernels; i++)
		if (out->kernels[i].count)
			out->kernels[w++] = out->kernels[i];
	out->nkernels = w;
	int64_t ktotal = 0;
	for (size_t i = 0; i < w; i++)
		tt_sat_acc(&ktotal, out->kernels[i].sum_ns);
	for (size_t i = 0; i < w; i++)
		out->kernels[i].time_pct =
			ktotal > 0 ? 100.0 * (double)out->kernels[i].sum_ns / (double)ktotal : NAN;
	if (w > 1)
		qsort(out->kernels, w, sizeof(*out->kernels), ukernel_cmp);
	if (out->nkops > 1)
		qsort(out->kops, out->nkops, sizeof(*out->kops), kop_cmp);
	free(sm_acc);
	free(occ_acc);
	free(bps0);
	free(occ0);
	free(sm_ns);
	free(occ_ns);
	free(last_rank);
	free(kopmap);
	free(kopacc);
	free(c.ranks);
}

void tt_util_free(struct tt_util *u)
{
	for (size_t i = 0; i < u->ndevs; i++)
		free(u->devs[i].series);
	free(u->devs);
	free(u->ranks);
	free(u->kernels);
	free(u->kops);
	tt_strtab_free(&u->names);
	memset(u, 0, sizeof(*u));
}
