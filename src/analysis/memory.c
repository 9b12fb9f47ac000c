/* [memory] instants per rank and device: curves, peaks, the allocations
 * alive at the peak. */
#include "config.h"

#include "tracetop/memory.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/util.h"
#include "optree.h"

/* ==== memory ==== */

#define DEAD (TT_NONE - 1) /* a freed address in the map */

/* per (op node, device): self and with the ops below */
struct opmem {
	uint32_t node;
	int64_t device;
	int64_t self_inc, self_bytes, inc, bytes;
	uint64_t self_allocs, allocs;
};

struct mem_out {
	bool sel;
	struct opmem *om;
	size_t nom;
	uint32_t *calls;   /* plain op calls by name id (rank strings) */
	struct tt_mem_dev *devs;
	size_t ndevs;
	struct tt_mem_live *live; /* .dev is the local device index */
	size_t nlive, clive;
};

struct mem_ctx {
	const struct tt_model *m;
	struct mem_out *r;
};

struct mev {
	int64_t ts;
	uint32_t ev;
};

static int mev_cmp(const void *a, const void *b)
{
	const struct mev *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int live_cmp(const void *a, const void *b)
{
	const struct tt_mem_live *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int64_t total_mem(const struct tt_rank *r, int64_t device)
{
	if (device < 0)
		return 0;
	for (size_t i = 0; i < r->meta.ndevprops; i++)
		if (r->meta.devprops[i].id == device)
			return r->meta.devprops[i].total_mem;
	return 0;
}

static void mem_device(const struct tt_rank *r, size_t ri, const struct tt_optree *t,
		       const struct mev *v, size_t n, int64_t device, struct mem_out *d)
{
	struct tt_mem_dev *w = &d->devs[d->ndevs];
	memset(w, 0, sizeof(*w));
	w->ri = ri;
	w->rank = r->rank;
	w->device = device;
	w->total_mem = total_mem(r, device);
	w->pts = tt_malloc((n + 1) * sizeof(*w->pts));
	w->peak_alloc = w->peak_reserved = -1;
	w->peak_reserved_ts = -1;
	int64_t running = 0;
	size_t peak = 0;
	for (size_t k = 0; k < n; k++) {
		const struct tt_meminfo *mi = &r->meminfo[r->ev[v[k].ev].aux];
		if (mi->device != device)
			continue;
		int64_t alloc =
			mi->total_alloc >= 0 ? mi->total_alloc : tt_sat_add(running, mi->bytes);
		running = alloc;
		struct tt_mem_point *p = &w->pts[w->npts];
		p->ts = v[k].ts;
		p->alloc = alloc;
		p->reserved = mi->total_reserved;
		if (alloc > w->peak_alloc) {
			w->peak_alloc = alloc;
			w->peak_ts = p->ts;
			peak = k;
		}
		if (mi->total_reserved > w->peak_reserved) {
			w->peak_reserved = mi->total_reserved;
			w->peak_reserved_ts = p->ts;
		}
		w->npts++;
		w->nevents++;
		w->nwith_total += mi->total_alloc >= 0;
		w->nwith_addr += mi->addr != 0;
		if (mi->bytes > 0)
			w->nallocs++;
		else if (mi->bytes < 0)
			w->nfrees++;
	}
	int64_t top = TT_MAX(w->peak_alloc, w->peak_reserved);
	w->peak_pct = w->total_mem > 0 && top >= 0 ? 100.0 * (double)top / (double)w->total_mem : NAN;
	/* allocations by address up to the peak; frees after it only for
	 * the unmatched count */
	struct tt_hmap h = {0};
	struct tt_mem_live *al = NULL;
	size_t nal = 0, cap = 0;
	for (size_t k = 0; k < n; k++) {
		const struct tt_event *e = &r->ev[v[k].ev];
		const struct tt_meminfo *mi = &r->meminfo[e->aux];
		if (mi->device != device)
			continue;
		uint32_t *slot = mi->bytes ? tt_hmap_slot(&h, (uint64_t)mi->addr) : NULL;
		if (mi->bytes > 0) {
			if (k <= peak && mi->addr != 0) {
				TT_GROW(al, cap, nal + 1);
				struct tt_mem_live *a = &al[nal];
				a->dev = d->ndevs;
				a->ri = ri;
				a->ev = v[k].ev;
				a->ts = e->ts;
				a->bytes = mi->bytes;
				a->addr = mi->addr;
				a->op = t->owner[v[k].ev];
				*slot = (uint32_t)nal++;
			} else {
				*slot = DEAD - 1; /* allocated after the peak */
			}
		} else if (mi->bytes < 0) {
			if (*slot == TT_NONE || *slot == DEAD)
				w->unmatched_frees++;
			*slot = DEAD;
		}
		if (k == peak) {
			/* the live set at the peak */
			w->first_live = d->nlive;
			for (size_t j = 0; j < nal; j++) {
				uint32_t *s = tt_hmap_slot(&h, (uint64_t)al[j].addr);
				if (*s != j)
					continue;
				TT_GROW(d->live, d->clive, d->nlive + 1);
				d->live[d->nlive] = al[j];
				tt_sat_acc(&w->live_bytes, al[j].bytes);
				d->nlive++;
				w->nlive++;
			}
		}
	}
	tt_hmap_free(&h);
	free(al);
	d->ndevs++;
}

/* The plugin's statistics per op node: an event counts for the innermost
 * node of the op tree around it, when that node is a plain cpu_op, and for
 * every node above it. */
static void mem_ops(const struct tt_rank *r, const struct mev *v, size_t n, struct mem_out *d)
{
	const struct tt_tbtree *t = tt_tbtree_of(r);
	struct tt_hmap h = {0};
	size_t cap = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t o = t->owner[v[k].ev];
		if (o == TT_NONE || t->kind[o] != TT_TBN_OP)
			continue; /* in no op, or in a step or other node: left out */
		const struct tt_meminfo *mi = &r->meminfo[r->ev[v[k].ev].aux];
		for (uint32_t a = o; a != TT_NONE; a = t->parent[a]) {
			uint32_t *slot = tt_hmap_slot(&h, ((uint64_t)a << 24) ^
							       (uint64_t)(mi->device + 1));
			if (*slot == TT_HMAP_NONE) {
				TT_GROW(d->om, cap, d->nom + 1);
				memset(&d->om[d->nom], 0, sizeof(d->om[d->nom]));
				d->om[d->nom].node = a;
				d->om[d->nom].device = mi->device;
				*slot = (uint32_t)d->nom++;
			}
			struct opmem *x = &d->om[*slot];
			tt_sat_acc(&x->inc, mi->bytes);
			if (mi->bytes > 0) {
				tt_sat_acc(&x->bytes, mi->bytes);
				x->allocs++;
			}
			if (a != o)
				continue;
			tt_sat_acc(&x->self_inc, mi->bytes);
			if (mi->bytes > 0) {
				tt_sat_acc(&x->self_bytes, mi->bytes);
				x->self_allocs++;
			}
		}
	}
	tt_hmap_free(&h);
	if (d->nom) {
		d->calls = tt_calloc((size_t)r->strs.n + 1, sizeof(*d->calls));
		for (uint32_t k = 0; k < t->norder; k++)
			if (t->kind[t->order[k]] == TT_TBN_OP)
				d->calls[r->ev[t->order[k]].name]++;
		/* keep plain ops only */
		size_t w = 0;
		for (size_t j = 0; j < d->nom; j++)
			if (t->kind[d->om[j].node] == TT_TBN_OP)
				d->om[w++] = d->om[j];
		d->nom = w;
	}
}

static int memop_cmp(const void *a, const void *b)
{
	const struct tt_mem_op *x = a, *y = b;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->alloc_bytes != y->alloc_bytes)
		return x->alloc_bytes > y->alloc_bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void mem_rank(size_t ri, void *vctx)
{
	struct mem_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct mem_out *d = &c->r[ri];
	d->sel = true;
	size_t n = 0;
	for (uint32_t i = 0; i < r->nev; i++)
		n += (r->ev[i].flags & TT_EF_MEMEV) != 0;
	if (!n)
		return;
	struct mev *v = tt_malloc((n + 1) * sizeof(*v));
	n = 0;
	for (uint32_t i = 0; i < r->nev; i++)
		if (r->ev[i].flags & TT_EF_MEMEV)
			v[n++] = (struct mev){r->ev[i].ts, i};
	qsort(v, n, sizeof(*v), mev_cmp);
	/* the devices, ascending (-1, the CPU, first) */
	int64_t *dev = NULL;
	size_t ndev = 0, cdev = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t x = r->meminfo[r->ev[v[k].ev].aux].device;
		bool seen = false;
		for (size_t j = 0; j < ndev && !seen; j++)
			seen = dev[j] == x;
		if (!seen) {
			TT_GROW(dev, cdev, ndev + 1);
			dev[ndev++] = x;
		}
	}
	for (size_t a = 1; a < ndev; a++)
		for (size_t b = a; b > 0 && dev[b - 1] > dev[b]; b--) {
			int64_t tmp = dev[b];
			dev[b] = dev[b - 1];
			dev[b - 1] = tmp;
		}
	struct tt_optree t;
	tt_optree_build(r, &t, false);
	d->devs = tt_calloc(ndev + 1, sizeof(*d->devs));
	for (size_t j = 0; j < ndev; j++)
		mem_device(r, ri, &t, v, n, dev[j], d);
	tt_optree_free(&t);
	mem_ops(r, v, n, d);
	free(dev);
	free(v);
}

void tt_mem_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_mem *out)
{
	memset(out, 0, sizeof(*out));
	struct mem_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, mem_rank, &c);
	size_t ndevs = 0, nlive = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		ndevs += c.r[ri].ndevs;
		nlive += c.r[ri].nlive;
		out->nranks_sel += c.r[ri].sel;
	}
	out->devs = tt_calloc(ndevs + 1, sizeof(*out->devs));
	out->live = tt_calloc(nlive + 1, sizeof(*out->live));
	size_t opcap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct mem_out *d = &c.r[ri];
		size_t base = out->ndevs;
		for (size_t j = 0; j < d->ndevs; j++) {
			struct tt_mem_dev *w = &out->devs[out->ndevs++];
			*w = d->devs[j];
			w->first_live += out->nlive;
		}
		for (size_t k = 0; k < d->nlive; k++) {
			struct tt_mem_live *a = &out->live[out->nlive++];
			*a = d->live[k];
			a->dev += base;
		}
		free(d->devs);
		free(d->live);
		/* per op name and device */
		const struct tt_rank *r = m->ranks[ri];
		struct tt_hmap byname = {0};
		for (size_t j = 0; j < d->nom; j++) {
			const struct opmem *x = &d->om[j];
			const struct tt_event *e = &r->ev[x->node];
			uint32_t *slot = tt_hmap_slot(&byname, ((uint64_t)e->name << 24) ^
								   (uint64_t)(x->device + 1));
			struct tt_mem_op *w;
			if (*slot != TT_HMAP_NONE) {
				w = &out->ops[*slot];
			} else {
				TT_GROW(out->ops, opcap, out->nops + 1);
				*slot = (uint32_t)out->nops;
				w = &out->ops[out->nops++];
				memset(w, 0, sizeof(*w));
				w->ri = ri;
				w->rank = r->rank;
				w->device = x->device;
				w->name = tt_ev_name(r, e);
				w->calls = d->calls[e->name];
			}
			tt_sat_acc(&w->self_increase, x->self_inc);
			tt_sat_acc(&w->self_alloc_bytes, x->self_bytes);
			w->self_allocs += x->self_allocs;
			tt_sat_acc(&w->increase, x->inc);
			tt_sat_acc(&w->alloc_bytes, x->bytes);
			w->allocs += x->allocs;
		}
		tt_hmap_free(&byname);
		free(d->om);
		free(d->calls);
	}
	/* rows with something in them, as the plugin shows */
	size_t keep = 0;
	for (size_t j = 0; j < out->nops; j++) {
		const struct tt_mem_op *x = &out->ops[j];
		if (x->self_increase || x->self_alloc_bytes || x->self_allocs || x->increase ||
		    x->alloc_bytes || x->allocs)
			out->ops[keep++] = *x;
	}
	out->nops = keep;
	if (out->nops > 1)
		qsort(out->ops, out->nops, sizeof(*out->ops), memop_cmp);
	/* by device, bytes descending; first_live stays right: the live
	 * entries of each device are contiguous and in device order */
	if (out->nlive > 1)
		qsort(out->live, out->nlive, sizeof(*out->live), live_cmp);
	free(c.r);
}

void tt_mem_free(struct tt_mem *mm)
{
	for (size_t i = 0; i < mm->ndevs; i++)
		free(mm->devs[i].pts);
	free(mm->devs);
	free(mm->live);
	free(mm->ops);
	memset(mm, 0, sizeof(*mm));
}

int64_t tt_mem_max(const struct tt_mem_dev *d, int64_t a, int64_t b, bool reserved)
{
	/* the last point at or before a */
	size_t lo = 0, hi = d->npts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->pts[mid].ts <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t best = -1;
	size_t i = lo;
	if (lo > 0) {
		const struct tt_mem_point *p = &d->pts[lo - 1];
		best = reserved ? p->reserved : p->alloc;
	}
	for (; i < d->npts && d->pts[i].ts < b; i++) {
		int64_t x = reserved ? d->pts[i].reserved : d->pts[i].alloc;
		if (x > best)
			best = x;
	}
	return best;
}

