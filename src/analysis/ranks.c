/* Many ranks: metrics per rank in one pass over HTA's view of each rank,
 * their distributions, robust z-scores, and the node layout. */
#include "config.h"

#include "tracetop/ranks.h"

#include "tracetop/checked.h"
#include "tracetop/idle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/testing.h"
#include "tracetop/util.h"

_Static_assert(TT_IDLE_NCAT == 3, "idle_cat_ns holds every idle category");

/* ---- metric names ---- */

static const struct {
	const char *name, *title;
	bool pct;
} metric_info[TT_RM_COUNT] = {
	[TT_RM_IDLE] = {"idle", "idle %", true},
	[TT_RM_COMPUTE] = {"compute", "compute %", true},
	[TT_RM_COMM] = {"comm", "comm %", true},
	[TT_RM_EXPOSED] = {"exposed", "exposed comm %", true},
	[TT_RM_XFER] = {"transfer", "transfer %", true},
	[TT_RM_STEP] = {"step", "step time", false},
	[TT_RM_TOPK] = {"topk", "top kernel", false},
};

const char *tt_rmetric_name(enum tt_rmetric k)
{
	return (unsigned)k < TT_RM_COUNT ? metric_info[k].name : "";
}

const char *tt_rmetric_title(enum tt_rmetric k)
{
	return (unsigned)k < TT_RM_COUNT ? metric_info[k].title : "";
}

bool tt_rmetric_is_pct(enum tt_rmetric k)
{
	return (unsigned)k < TT_RM_COUNT && metric_info[k].pct;
}

int tt_rmetric_lookup(const char *name)
{
	for (int k = 0; k < TT_RM_COUNT; k++)
		if (strcmp(name, metric_info[k].name) == 0)
			return k;
	return -1;
}

/* ---- one rank ---- */

struct gev {
	int64_t ts, end;
	uint32_t name;
	uint8_t type; /* enum tt_ktype */
	bool kernel;  /* category kernel (not memcpy, memset, sync) */
};

/* a kernel of HTA's idle analysis (G_k) */
struct kern {
	int64_t stream, ts, end;
	uint32_t idx;
};

struct namesum {
	uint32_t name;
	int64_t ns;
};

/* a communication kernel, for matching collectives across ranks */
struct cev {
	int64_t ts, end;
	uint32_t name; /* string id in the rank, then the job-wide name index */
};

struct slot {
	struct tt_rank_metrics *w;
	struct namesum *names; /* computation kernels by name id */
	size_t nnames;
	struct cev *comm;      /* communication kernels, by (name, start) */
	size_t ncomm;
};

struct ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	double delay_ns;
	struct slot *slot; /* by model rank index; w == NULL: not selected */
};

static int kern_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct kern *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cev_cmp(const void *a, const void *b)
{
	const struct cev *x = a, *y = b;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int name_cmp(const void *a, const void *b)
{
	const struct namesum *x = a, *y = b;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* Unions of intervals that arrive sorted by start: HTA's merge (an
 * interval joins the block when it starts at or before the block's end). */
struct blocks {
	struct tt_iv *v; /* kept blocks, or NULL to only add up */
	size_t n, cap;
	bool open;
	struct tt_iv cur;
	int64_t total;
};

static void blocks_add(struct blocks *b, int64_t ts, int64_t end, bool keep)
{
	if (b->open && ts <= b->cur.end) {
		if (end > b->cur.end)
			b->cur.end = end;
		return;
	}
	if (b->open) {
		tt_sat_acc(&b->total, b->cur.end - b->cur.ts);
		if (keep) {
			TT_GROW(b->v, b->cap, b->n + 1);
			b->v[b->n++] = b->cur;
		}
	}
	b->cur = (struct tt_iv){ts, end};
	b->open = true;
}

static void blocks_end(struct blocks *b, bool keep)
{
	if (!b->open)
		return;
	tt_sat_acc(&b->total, b->cur.end - b->cur.ts);
	if (keep) {
		TT_GROW(b->v, b->cap, b->n + 1);
		b->v[b->n++] = b->cur;
	}
	b->open = false;
}

/* |a ∩ b| of two merged block lists */
static int64_t intersect(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb)
{
	int64_t t = 0;
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		int64_t lo = TT_MAX(a[i].ts, b[j].ts), hi = TT_MIN(a[i].end, b[j].end);
		if (hi > lo)
			tt_sat_acc(&t, hi - lo);
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return t;
}

/* a run of events of one track, sorted by start (the model's order, and
 * HTA's rounding keeps it) */
struct run {
	size_t a, b;    /* [a, b) in the event list */
	int64_t stream;
};

static int gev_ts_cmp(const void *x, const void *y, void *ctx)
{
	const struct gev *g = ctx;
	int64_t a = g[*(const uint32_t *)x].ts, b = g[*(const uint32_t *)y].ts;
	return a < b ? -1 : a > b;
}

/* Indices of g in start order: a k-way merge of the track runs (few), or a
 * sort when there are many tracks. */
static uint32_t *start_order(const struct gev *g, size_t n, const struct run *runs, size_t nruns)
{
	uint32_t *o = tt_malloc((n + 1) * sizeof(*o));
	if (nruns > 16) {
		for (size_t i = 0; i < n; i++)
			o[i] = (uint32_t)i;
		tt_msort(o, n, sizeof(*o), gev_ts_cmp, (void *)g);
		return o;
	}
	size_t head[16];
	for (size_t r = 0; r < nruns; r++)
		head[r] = runs[r].a;
	for (size_t k = 0; k < n; k++) {
		size_t best = SIZE_MAX;
		for (size_t r = 0; r < nruns; r++)
			if (head[r] < runs[r].b &&
			    (best == SIZE_MAX || g[head[r]].ts < g[head[best]].ts))
				best = r;
		o[k] = (uint32_t)head[best]++;
	}
	return o;
}

/* the launching runtime call of GPU event idx, walking *pos forward
 * through links_by_gpu (idx increases along a track) */
static uint32_t launch_walk(const struct tt_rank *r, uint32_t *pos, uint32_t idx)
{
	while (*pos < r->nlinks && r->links[r->links_by_gpu[*pos]].gpu < idx)
		(*pos)++;
	if (*pos < r->nlinks && r->links[r->links_by_gpu[*pos]].gpu == idx)
		return r->links[r->links_by_gpu[*pos]].cpu;
	return TT_NONE;
}

/* the first position of links_by_gpu at or after GPU event idx */
static uint32_t launch_lower(const struct tt_rank *r, uint32_t idx)
{
	uint32_t a = 0, b = r->nlinks;
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (r->links[r->links_by_gpu[m]].gpu < idx)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* the gap before kernel k[i] of a stream, by HTA's category */
static void idle_gap(const struct ctx *c, const struct tt_sel *s, const struct kern *prev,
		     const struct kern *k, uint32_t launch, struct tt_rank_metrics *w)
{
	const struct tt_rank *r = s->r;
	int64_t dur = k->ts - prev->end;
	int64_t lts = launch != TT_NONE && tt_sel_has(s, launch) ? tt_sel_ts(s, &r->ev[launch])
								    : INT64_MIN;
	tt_sat_acc(&w->idle_cat_ns[tt_idle_gap_cat(lts, prev->end, dur, c->delay_ns)], dur);
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Idle gaps of the G_k kernels by HTA's category, as tt_idle_breakdown:
 * kernels grouped by stream number, in start order.  k holds the runs of
 * each track; a stream on one track needs no sorting. */
static void idle_cats(const struct ctx *c, const struct tt_sel *s, struct kern *k, size_t nk,
		      const struct run *runs, size_t nruns, struct tt_rank_metrics *w)
{
	const struct tt_rank *r = s->r;
	/* a stream number on two runs? (sorted, not compared pair by pair:
	 * thousands of streams stay linear) */
	bool shared = false;
	int64_t *sn = tt_malloc((nruns + 1) * sizeof(*sn));
	for (size_t i = 0; i < nruns; i++)
		sn[i] = runs[i].stream;
	qsort(sn, nruns, sizeof(*sn), i64_cmp);
	for (size_t i = 1; i < nruns && !shared; i++)
		shared = sn[i] == sn[i - 1];
	free(sn);
	if (!shared) {
		for (size_t q = 0; q < nruns; q++) {
			if (runs[q].b - runs[q].a < 2)
				continue;
			uint32_t pos = launch_lower(r, k[runs[q].a + 1].idx);
			for (size_t i = runs[q].a + 1; i < runs[q].b; i++)
				idle_gap(c, s, &k[i - 1], &k[i], launch_walk(r, &pos, k[i].idx), w);
		}
		return;
	}
	/* a stream number on several tracks (several devices): sort them */
	tt_msort(k, nk, sizeof(*k), kern_cmp, NULL); /* (collected in track order) */
	for (size_t i = 1; i < nk; i++)
		if (k[i].stream == k[i - 1].stream)
			idle_gap(c, s, &k[i - 1], &k[i], tt_launch_of(r, k[i].idx), w);
}

/* median ProfilerStep duration (exact times, every step) */
static void step_time(const struct tt_rank *r, struct tt_rank_metrics *w)
{
	uint8_t *isstep = tt_calloc((size_t)r->strs.n + 1, 1); /* 0 unknown, 1 no, 2 yes */
	double *d = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind != TT_TRACK_CPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->ph != 'X' || (e->flags & (TT_EF_STREAM | TT_EF_MARKER)) ||
			    e->name >= r->strs.n)
				continue;
			if (!isstep[e->name])
				isstep[e->name] = tt_is_step_name(tt_str(r, e->name)) ? 2 : 1;
			if (isstep[e->name] != 2)
				continue;
			TT_GROW(d, cap, n + 1);
			d[n++] = (double)e->dur;
		}
	}
	w->nsteps = (uint32_t)n;
	if (n)
		w->v[TT_RM_STEP] = tt_median(d, n);
	free(d);
	free(isstep);
}

static void host_of(const struct tt_rank *r, struct tt_rank_metrics *w)
{
	for (size_t i = 0; i < r->meta.nkv; i++) {
		const struct tt_meta_kv *kv = &r->meta.kv[i];
		if (strcmp(kv->key, "host_name") != 0 && strcmp(kv->key, "hostname") != 0)
			continue;
		const char *v = kv->value;
		if (v && v[0] == '"' && v[1] && v[1] != '"')
			w->host = v; /* JSON text: the quotes are stripped when copied */
	}
	for (uint32_t t = 0; t < r->ntracks && w->device < 0; t++)
		if (r->tracks[t].kind == TT_TRACK_GPU && r->tracks[t].count)
			w->device = r->tracks[t].device;
}

static void rank_work(size_t ri, void *arg)
{
	struct ctx *c = arg;
	struct slot *sl = &c->slot[ri];
	struct tt_rank_metrics *w = sl->w;
	const struct tt_rank *r = c->m->ranks[ri];
	if (!w)
		return;
	host_of(r, w);
	step_time(r, w);

	struct tt_sel s;
	tt_sel_init(&s, c->m, ri, c->o);
	bool *gk = tt_calloc(r->ncats + 1, sizeof(*gk));
	for (uint32_t i = 0; i < r->ncats; i++)
		gk[i] = tt_idle_gk_cat(tt_str(r, r->cats[i].name));
	uint8_t *tcache = tt_calloc((size_t)r->strs.n + 1, 1); /* kernel type + 1 */

	/* the GPU events HTA keeps, track by track: work events (g) and the
	 * kernels of the idle analysis (k), each in runs sorted by start */
	struct gev *g = NULL;
	struct kern *k = NULL;
	struct run *gr = NULL, *kr = NULL;
	size_t n = 0, gcap = 0, nk = 0, kcap = 0, ngr = 0, grcap = 0, nkr = 0, krcap = 0;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		size_t g0 = n, k0 = nk;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || !tt_sel_has(&s, i))
				continue;
			int64_t ts = tt_sel_ts(&s, e), end = tt_sel_end(&s, e);
			if (gk[e->cat]) {
				TT_GROW(k, kcap, nk + 1);
				k[nk++] = (struct kern){tr->stream, ts, end, i};
			}
			if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
				continue;
			uint8_t type = (uint8_t)TT_KT_COMP;
			if (e->name < r->strs.n) {
				if (!tcache[e->name])
					tcache[e->name] =
						(uint8_t)(tt_kernel_type(tt_str(r, e->name), NULL) + 1);
				type = (uint8_t)(tcache[e->name] - 1);
			} else {
				type = (uint8_t)tt_kernel_type("", NULL);
			}
			TT_GROW(g, gcap, n + 1);
			g[n++] = (struct gev){ts, end, e->name, type,
					      r->cats[e->cat].kind == TT_K_KERNEL};
		}
		if (n > g0) {
			TT_GROW(gr, grcap, ngr + 1);
			gr[ngr++] = (struct run){g0, n, tr->stream};
		}
		if (nk > k0) {
			TT_GROW(kr, krcap, nkr + 1);
			kr[nkr++] = (struct run){k0, nk, tr->stream};
		}
	}
	free(tcache);
	free(gk);

	if (n) {
		w->has_gpu = true;
		/* one pass in start order: the union of everything, of
		 * computation and of communication */
		uint32_t *o = start_order(g, n, gr, ngr);
		struct blocks all = {0}, comp = {0}, comm = {0};
		int64_t t0 = g[o[0]].ts, t1 = INT64_MIN;
		int64_t *sum = tt_calloc((size_t)r->strs.n + 1, sizeof(*sum));
		size_t nc = 0;
		for (size_t j = 0; j < n; j++) {
			const struct gev *x = &g[o[j]];
			blocks_add(&all, x->ts, x->end, false);
			t1 = TT_MAX(t1, x->end);
			if (x->type == TT_KT_COMP) {
				blocks_add(&comp, x->ts, x->end, true);
				if (x->kernel && x->name < r->strs.n)
					tt_sat_acc(&sum[x->name], x->end - x->ts);
			} else if (x->type == TT_KT_COMM) {
				blocks_add(&comm, x->ts, x->end, true);
				nc++;
			}
		}
		blocks_end(&all, false);
		blocks_end(&comp, true);
		blocks_end(&comm, true);
		w->span_ns = t1 - t0;
		w->idle_ns = w->span_ns - all.total;
		w->comp_ns = comp.total;
		w->comm_ns = comm.total;
		w->overlap_ns = intersect(comp.v, comp.n, comm.v, comm.n);
		free(comp.v);
		free(comm.v);
		if (w->span_ns > 0) {
			double sp = (double)w->span_ns;
			w->v[TT_RM_IDLE] = 100 * ((double)w->idle_ns / sp);
			w->v[TT_RM_COMPUTE] = 100 * ((double)w->comp_ns / sp);
			w->v[TT_RM_COMM] = 100 * ((double)w->comm_ns / sp);
			w->v[TT_RM_EXPOSED] =
				100 * ((double)(w->comm_ns - w->overlap_ns) / sp);
		}
		/* the communication kernels, for the transfer time */
		sl->comm = tt_malloc((nc + 1) * sizeof(*sl->comm));
		for (size_t j = 0; j < n; j++) {
			const struct gev *x = &g[o[j]];
			if (x->type == TT_KT_COMM)
				sl->comm[sl->ncomm++] = (struct cev){x->ts, x->end, x->name};
		}
		/* time per computation kernel name, by name id */
		size_t nns = 0;
		for (uint32_t id = 0; id < r->strs.n; id++)
			nns += sum[id] > 0;
		sl->names = tt_malloc((nns + 1) * sizeof(*sl->names));
		for (uint32_t id = 0; id < r->strs.n; id++)
			if (sum[id] > 0)
				sl->names[sl->nnames++] = (struct namesum){id, sum[id]};
		free(sum);
		free(o);
	}
	if (nk)
		idle_cats(c, &s, k, nk, kr, nkr, w);
	free(g);
	free(k);
	free(gr);
	free(kr);
	tt_sel_free(&s);
}

/* ---- transfer time: collectives after the last rank joined ---- */

struct cname {
	const char *s;
	size_t nranks;   /* ranks that ran it */
	size_t count;    /* calls per rank (SIZE_MAX: the ranks disagree) */
	int64_t *last;   /* [count]: the latest start of each call */
};

/* Calls of one kernel name are matched across ranks by their order (k-th
 * call = the same collective), when every rank that ran the name ran it
 * equally often.  A rank's transfer time is what its calls take after the
 * latest start of the same call on any rank. */
static void transfer(const struct tt_model *m, struct slot *slot)
{
	struct cname *names = NULL;
	size_t nn = 0, cap = 0;
	/* job-wide name indices (a job has few communication kernel names) */
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct slot *sl = &slot[ri];
		if (!sl->w)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		uint32_t prev_id = TT_NONE, prev_g = 0;
		for (size_t i = 0; i < sl->ncomm; i++) {
			uint32_t id = sl->comm[i].name;
			if (id != prev_id) {
				const char *str = tt_str(r, id);
				size_t k = 0;
				while (k < nn && strcmp(names[k].s, str) != 0)
					k++;
				if (k == nn) {
					TT_GROW(names, cap, nn + 1);
					names[nn++] = (struct cname){str, 0, 0, NULL};
				}
				prev_id = id;
				prev_g = (uint32_t)k;
			}
			sl->comm[i].name = prev_g;
		}
		if (sl->ncomm > 1)
			qsort(sl->comm, sl->ncomm, sizeof(*sl->comm), cev_cmp);
		/* calls per name on this rank */
		for (size_t i = 0; i < sl->ncomm;) {
			size_t j = i;
			while (j < sl->ncomm && sl->comm[j].name == sl->comm[i].name)
				j++;
			struct cname *c = &names[sl->comm[i].name];
			if (!c->nranks)
				c->count = j - i;
			else if (c->count != j - i)
				c->count = SIZE_MAX;
			c->nranks++;
			i = j;
		}
	}
	for (size_t k = 0; k < nn; k++)
		if (names[k].nranks >= 2 && names[k].count != SIZE_MAX) {
			names[k].last = tt_malloc(names[k].count * sizeof(int64_t));
			for (size_t q = 0; q < names[k].count; q++)
				names[k].last[q] = INT64_MIN;
		}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t ri = 0; ri < m->nranks; ri++) {
			struct slot *sl = &slot[ri];
			if (!sl->w || !sl->w->has_gpu)
				continue;
			int64_t xfer = 0;
			bool any = false;
			for (size_t i = 0; i < sl->ncomm;) {
				size_t j = i;
				struct cname *c = &names[sl->comm[i].name];
				while (j < sl->ncomm && sl->comm[j].name == sl->comm[i].name)
					j++;
				for (size_t q = 0; c->last && q < j - i; q++) {
					const struct cev *e = &sl->comm[i + q];
					if (pass == 0) {
						c->last[q] = TT_MAX(c->last[q], e->ts);
						continue;
					}
					int64_t from = TT_MAX(e->ts, c->last[q]);
					tt_sat_acc(&xfer, TT_MAX(e->end - from, 0));
					any = true;
				}
				i = j;
			}
			if (pass == 1 && any && sl->w->span_ns > 0)
				sl->w->v[TT_RM_XFER] = 100 * ((double)xfer / (double)sl->w->span_ns);
			if (pass == 1)
				sl->w->xfer_ns = xfer;
		}
	}
	for (size_t k = 0; k < nn; k++)
		free(names[k].last);
	free(names);
}

/* ---- the job's top kernel ---- */

struct cand {
	const char *name;
	int64_t ns;
};

static int cand_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cand *)a)->name, ((const struct cand *)b)->name);
}

static int ns_desc_cmp(const void *a, const void *b)
{
	const struct namesum *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* The name with the most time over all ranks, among each rank's 8 largest
 * (a job's top kernel is among them on every rank that matters). */
static const char *top_kernel(const struct tt_model *m, struct slot *slot)
{
	struct cand *c = NULL;
	size_t n = 0, cap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct slot *sl = &slot[ri];
		if (!sl->w || !sl->nnames)
			continue;
		struct namesum *tmp = tt_malloc(sl->nnames * sizeof(*tmp));
		memcpy(tmp, sl->names, sl->nnames * sizeof(*tmp));
		qsort(tmp, sl->nnames, sizeof(*tmp), ns_desc_cmp);
		for (size_t i = 0; i < sl->nnames && i < 8; i++) {
			TT_GROW(c, cap, n + 1);
			c[n].name = tt_str(m->ranks[ri], tmp[i].name);
			c[n].ns = tmp[i].ns;
			n++;
		}
		free(tmp);
	}
	if (!n) {
		free(c);
		return NULL;
	}
	qsort(c, n, sizeof(*c), cand_name_cmp);
	const char *best = NULL;
	int64_t best_ns = -1;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int64_t t = 0;
		while (j < n && strcmp(c[j].name, c[i].name) == 0)
			tt_sat_acc(&t, c[j++].ns);
		if (t > best_ns) {
			best_ns = t;
			best = c[i].name;
		}
		i = j;
	}
	free(c);
	return best;
}

/* ---- node layout ---- */

struct place {
	size_t row;
	uint32_t node;
	int64_t device, rank;
};

static int place_cmp(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* host name without the JSON quotes, in buf */
static void host_text(const char *json, char *buf, size_t n)
{
	size_t k = 0;
	for (const char *p = json + 1; *p && *p != '"' && k + 1 < n; p++)
		buf[k++] = *p;
	buf[k] = '\0';
}

static void layout(struct tt_ranks *s)
{
	char **names = NULL;
	size_t nn = 0, cap = 0;
	bool all = s->n > 0;
	char buf[256];
	/* rows are in model order (by rank): a node's first rank comes first */
	for (size_t i = 0; i < s->n; i++) {
		struct tt_rank_metrics *w = &s->rows[i];
		const char *json = w->host;
		w->host = NULL;
		w->node = 0;
		w->local = (uint32_t)i;
		if (!json) {
			all = false;
			continue;
		}
		host_text(json, buf, sizeof(buf));
		size_t k = 0;
		while (k < nn && strcmp(names[k], buf) != 0)
			k++;
		if (k == nn) {
			TT_GROW(names, cap, nn + 1);
			names[nn++] = tt_strdup(buf);
		}
		w->host = names[k];
		w->node = (uint32_t)k;
	}
	s->node_name = (const char **)names;
	s->nnodes = nn;
	s->max_local = (uint32_t)s->n;
	if (!all || nn < 2 || nn == s->n) {
		for (size_t i = 0; i < s->n; i++)
			s->rows[i].node = 0;
		return;
	}
	s->by_node = true;
	struct place *p = tt_malloc(s->n * sizeof(*p));
	for (size_t i = 0; i < s->n; i++)
		p[i] = (struct place){i, s->rows[i].node, s->rows[i].device, s->rows[i].rank};
	qsort(p, s->n, sizeof(*p), place_cmp);
	s->max_local = 0;
	for (size_t i = 0, local = 0; i < s->n; i++) {
		local = i > 0 && p[i].node == p[i - 1].node ? local + 1 : 0;
		s->rows[p[i].row].local = (uint32_t)local;
		s->max_local = TT_MAX(s->max_local, (uint32_t)local + 1);
	}
	free(p);
}

/* ---- all ranks ---- */

void tt_ranks_score(struct tt_ranks *s)
{
	double *v = tt_malloc((s->n + 1) * sizeof(*v));
	for (int k = 0; k < TT_RM_COUNT; k++) {
		for (size_t i = 0; i < s->n; i++)
			v[i] = s->rows[i].v[k];
		tt_rdist_of(v, s->n, tt_rmetric_is_pct((enum tt_rmetric)k), &s->dist[k]);
		for (size_t i = 0; i < s->n; i++)
			s->rows[i].z[k] = tt_robust_z(&s->dist[k], v[i]);
	}
	free(v);
}

struct tt_ranks *tt_ranks_compute(const struct tt_model *m, const struct tt_aopts *o,
				  double kernel_delay_us)
{
	struct tt_ranks *s = tt_calloc(1, sizeof(*s));
	struct ctx c = {m, o, kernel_delay_us * 1000.0, tt_calloc(m->nranks + 1, sizeof(*c.slot))};
	for (size_t ri = 0; ri < m->nranks; ri++)
		if (tt_aopts_has_rank(o, m->ranks[ri]->rank))
			s->n++;
	s->rows = tt_calloc(s->n + 1, sizeof(*s->rows));
	for (size_t ri = 0, k = 0; ri < m->nranks; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		struct tt_rank_metrics *w = &s->rows[k++];
		w->ri = ri;
		w->rank = m->ranks[ri]->rank;
		w->device = -1;
		for (int j = 0; j < TT_RM_COUNT; j++)
			w->v[j] = w->z[j] = NAN;
		c.slot[ri].w = w;
	}
	tt_for_ranks(m, o, rank_work, &c);
	transfer(m, c.slot);

	s->top_kernel = top_kernel(m, c.slot);
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct slot *sl = &c.slot[ri];
		if (sl->w && s->top_kernel && sl->w->has_gpu) {
			const struct tt_rank *r = m->ranks[ri];
			uint32_t id = tt_strtab_find(&r->strs, s->top_kernel, strlen(s->top_kernel));
			struct namesum key = {id, 0};
			const struct namesum *f =
				id == TT_NONE ? NULL :
						bsearch(&key, sl->names, sl->nnames, sizeof(key), name_cmp);
			sl->w->v[TT_RM_TOPK] = f ? (double)f->ns : 0.0;
		}
		free(sl->names);
		free(sl->comm);
	}
	free(c.slot);
	tt_ranks_score(s);
	layout(s);
	return s;
}

void tt_ranks_free(struct tt_ranks *s)
{
	if (!s)
		return;
	if (s->node_name) {
		for (size_t i = 0; i < s->nnodes; i++)
			free((char *)s->node_name[i]);
		free((void *)s->node_name);
	}
	free(s->rows);
	free(s);
}

/* ---- outliers ---- */

static int out_cmp(const void *a, const void *b)
{
	const struct tt_outlier *x = a, *y = b;
	if (x->flagged != y->flagged)
		return x->flagged ? -1 : 1;
	double ax = fabs(x->z), ay = fabs(y->z);
	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

size_t tt_ranks_outliers(const struct tt_ranks *s, int k, bool only_flagged,
			 struct tt_outlier **out)
{
	struct tt_outlier *o = tt_malloc((s->n + 1) * sizeof(*o));
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_rank_metrics *w = &s->rows[i];
		int best = -1;
		for (int j = 0; j < TT_RM_COUNT; j++) {
			if ((k >= 0 && j != k) || isnan(w->z[j]))
				continue;
			bool fl = tt_rdist_outlier(&s->dist[j], w->v[j]);
			if (only_flagged && !fl)
				continue;
			/* flagged metrics first, then the largest |z| */
			if (best < 0) {
				best = j;
				continue;
			}
			bool bf = tt_rdist_outlier(&s->dist[best], w->v[best]);
			if ((fl && !bf) || (fl == bf && fabs(w->z[j]) > fabs(w->z[best])))
				best = j;
		}
		if (best < 0)
			continue;
		o[n].i = i;
		o[n].metric = (enum tt_rmetric)best;
		o[n].z = w->z[best];
		o[n].flagged = tt_rdist_outlier(&s->dist[best], w->v[best]);
		n++;
	}
	qsort(o, n, sizeof(*o), out_cmp);
	*out = o;
	return n;
}
