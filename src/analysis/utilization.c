/* GPU utilisation, estimated SM efficiency and achieved occupancy per device
 * and per kernel (the TensorBoard plugin's GPU summary and kernel view). */
#include "config.h"

#include "tracetop/utilization.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

double tt_tb_sm_efficiency(const struct tt_kinfo *k, int64_t num_sms)
{
	int64_t blocks = (int64_t)k->grid[0] * k->grid[1] * k->grid[2];
	if (blocks > 0 && num_sms > 0) {
		double f = (double)blocks / (double)num_sms;
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
	uint64_t count;
	int64_t sum, max;
	double sm_acc, occ_acc;
	int64_t sm_ns, occ_ns;
	uint32_t longest;
};

struct util_rank {
	bool sel, nogpu;
	struct tt_util_dev *devs;
	size_t ndevs;
	struct kacc *k;
	size_t nk;
};

struct util_ctx {
	const struct tt_model *m;
	int nbuckets;
	struct util_rank *ranks;
};

static void util_rank(size_t ri, void *vctx)
{
	struct util_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct util_rank *ur = &c->ranks[ri];
	ur->sel = true;
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
			int64_t t = dev[b];
			dev[b] = dev[b - 1];
			dev[b - 1] = t;
		}
	uint32_t *kidx = tt_tb_none_array(r->strs.n);
	size_t kcap = 0;
	ur->devs = tt_calloc(ndev + 1, sizeof(*ur->devs));
	for (size_t d = 0; d < ndev; d++) {
		struct tt_util_dev *u = &ur->devs[ur->ndevs];
		u->ri = ri;
		u->rank = r->rank;
		u->device = dev[d];
		u->num_sms = tt_tb_num_sms(r, dev[d]);
		u->t0 = INT64_MAX;
		u->t1 = INT64_MIN;
		size_t na = 0, ca = 0, nk = 0, ck = 0;
		struct tt_iv *all = NULL, *kern = NULL;
		double sm_acc = 0, occ_acc = 0;
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
				TT_GROW(all, ca, na + 1);
				all[na++] = (struct tt_iv){e->ts, end};
				if (tt_ev_kind(r, e) != TT_K_KERNEL) {
					u->nmem++;
					continue;
				}
				u->nkernels++;
				u->kernel_sum_ns += e->dur;
				TT_GROW(kern, ck, nk + 1);
				kern[nk++] = (struct tt_iv){e->ts, end};
				double eff = NAN, occ = -1;
				if (e->flags & TT_EF_KINFO) {
					const struct tt_kinfo *k = &r->kinfo[e->aux];
					eff = tt_tb_sm_efficiency(k, u->num_sms);
					int64_t blocks =
						(int64_t)k->grid[0] * k->grid[1] * k->grid[2];
					if (!isnan(eff) && !(blocks > 0 && u->num_sms > 0))
						u->sm_from_args = true;
					occ = k->occupancy;
				}
				if (!isnan(eff)) {
					sm_acc += eff * (double)e->dur;
					u->sm_eff_ns += e->dur;
				}
				if (occ >= 0) {
					occ_acc += occ * (double)e->dur;
					u->occ_ns += e->dur;
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
				}
				struct kacc *ka = &ur->k[ki];
				ka->count++;
				ka->sum += e->dur;
				if (e->dur > ka->max) {
					ka->max = e->dur;
					ka->longest = i;
				}
				if (!isnan(eff)) {
					ka->sm_acc += eff * (double)e->dur;
					ka->sm_ns += e->dur;
				}
				if (occ >= 0) {
					ka->occ_acc += occ * (double)e->dur;
					ka->occ_ns += e->dur;
				}
			}
		}
		if (!na) {
			free(all);
			free(kern);
			continue;
		}
		size_t nb = tt_iv_merge(all, na);
		u->busy_ns = tt_iv_total(all, nb);
		size_t nkb = tt_iv_merge(kern, nk);
		u->kernel_busy_ns = tt_iv_total(kern, nkb);
		int64_t span = u->t1 - u->t0;
		u->util_pct = span > 0 ? 100.0 * (double)u->busy_ns / (double)span : NAN;
		u->sm_eff_pct = u->sm_eff_ns > 0 ? 100.0 * sm_acc / (double)u->sm_eff_ns : NAN;
		u->occ_pct = u->occ_ns > 0 ? occ_acc / (double)u->occ_ns : NAN;
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
		free(all);
		free(kern);
		ur->ndevs++;
	}
	ur->nogpu = ur->ndevs == 0;
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
	/* kernels across ranks: by interned name */
	size_t kcap = 0;
	double *sm_acc = NULL, *occ_acc = NULL;
	int64_t *sm_ns = NULL, *occ_ns = NULL;
	int64_t *last_rank = NULL;
	size_t acap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct util_rank *ur = &c.ranks[ri];
		if (!ur->sel)
			continue;
		out->nranks_sel++;
		out->nranks_nogpu += ur->nogpu;
		if (ur->ndevs)
			memcpy(&out->devs[out->ndevs], ur->devs, ur->ndevs * sizeof(*ur->devs));
		out->ndevs += ur->ndevs;
		const struct tt_rank *r = m->ranks[ri];
		for (size_t i = 0; i < ur->nk; i++) {
			const struct kacc *ka = &ur->k[i];
			uint32_t g = tt_tb_intern(&out->names, tt_str(r, ka->name));
			if (g >= out->nkernels) {
				/* a new name: ids are dense, so g == nkernels */
				TT_GROW(out->kernels, kcap, (size_t)g + 1);
				if (acap < kcap) {
					sm_acc = tt_realloc_array(sm_acc, kcap, sizeof(*sm_acc));
					occ_acc = tt_realloc_array(occ_acc, kcap, sizeof(*occ_acc));
					sm_ns = tt_realloc_array(sm_ns, kcap, sizeof(*sm_ns));
					occ_ns = tt_realloc_array(occ_ns, kcap, sizeof(*occ_ns));
					last_rank = tt_realloc_array(last_rank, kcap,
								     sizeof(*last_rank));
					acap = kcap;
				}
				for (size_t n = out->nkernels; n <= g; n++) {
					memset(&out->kernels[n], 0, sizeof(out->kernels[n]));
					out->kernels[n].max_ns = -1;
					sm_acc[n] = occ_acc[n] = 0;
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
			k->count += ka->count;
			k->sum_ns += ka->sum;
			if (ka->max > k->max_ns) {
				k->max_ns = ka->max;
				k->ri = ri;
				k->longest = ka->longest;
			}
			sm_acc[g] += ka->sm_acc;
			sm_ns[g] += ka->sm_ns;
			occ_acc[g] += ka->occ_acc;
			occ_ns[g] += ka->occ_ns;
		}
		free(ur->devs);
		free(ur->k);
	}
	for (size_t g = 0; g < out->nkernels; g++) {
		struct tt_util_kernel *k = &out->kernels[g];
		k->name = tt_strtab_get(&out->names, (uint32_t)g);
		k->sm_eff_pct = sm_ns[g] > 0 ? 100.0 * sm_acc[g] / (double)sm_ns[g] : NAN;
		k->occ_pct = occ_ns[g] > 0 ? occ_acc[g] / (double)occ_ns[g] : NAN;
		k->blocks = k->threads = -1;
		k->regs = 0;
		if (!k->count)
			continue; /* id 0, the empty string, when no kernel used it */
		const struct tt_rank *r = m->ranks[k->ri];
		const struct tt_event *e = &r->ev[k->longest];
		if (e->flags & TT_EF_KINFO) {
			const struct tt_kinfo *ki = &r->kinfo[e->aux];
			int64_t bl = (int64_t)ki->grid[0] * ki->grid[1] * ki->grid[2];
			int64_t th = (int64_t)ki->block[0] * ki->block[1] * ki->block[2];
			k->blocks = bl > 0 ? bl : -1;
			k->threads = th > 0 && th <= INT32_MAX ? (int32_t)th : -1;
			k->regs = ki->regs;
		}
	}
	/* drop the slot of id 0 (the empty string) when no kernel used it */
	size_t w = 0;
	for (size_t i = 0; i < out->nkernels; i++)
		if (out->kernels[i].count)
			out->kernels[w++] = out->kernels[i];
	out->nkernels = w;
	if (w > 1)
		qsort(out->kernels, w, sizeof(*out->kernels), ukernel_cmp);
	free(sm_acc);
	free(occ_acc);
	free(sm_ns);
	free(occ_ns);
	free(last_rank);
	free(c.ranks);
}

void tt_util_free(struct tt_util *u)
{
	for (size_t i = 0; i < u->ndevs; i++)
		free(u->devs[i].series);
	free(u->devs);
	free(u->kernels);
	tt_strtab_free(&u->names);
	memset(u, 0, sizeof(*u));
}

