/* Critical path analysis: the graph (critical-path.md §4.0-4.7).
 *
 * Per rank, tt_cp_prepare() computes what every window needs: HTA's event
 * selection, the queue length at each launch and kernel (over the whole
 * rank, as HTA), and which kernel each CUDA event record stands for.  Per
 * window, tt_cp_run() clips the events, gives two nodes to each CPU op,
 * runtime call and kernel, and adds the edges in HTA's three phases; the
 * path search is in critpath_path.c.
 *
 * HTA's frame is ordered by file row; the model keeps no file row, so where
 * HTA breaks a tie by row this code breaks it by the model's event index
 * (a track's events keep their file order among equal start times). */
#include "config.h"

#include "critpath_int.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "optree.h"

/* ---- names ---- */

/* runtime calls that take the CUDA runtime lock (cpa.py 34-36) */
static const char *const lock_names[] = {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"};
/* blocking calls: their exit edge weighs 0 (cpa.py 166-177) */
static const char *const blocking_names[] = {
	"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
	"cudaEventSynchronize",  "cudaMemcpy",		  "cudaMemcpyAsync",
};
/* launches the queue length counts (trace_symbol_table.py 319-356) */
static const char *const launch_names[] = {
	"cudaLaunchKernel",  "cudaLaunchKernelExC",
	"cuLaunchKernel",    "cuLaunchKernelEx",
	"cudaMemcpyAsync",   "cudaMemsetAsync",
	"runFunction - job_prep_and_submit_for_execution",
	"hipLaunchKernel",   "hipExtModuleLaunchKernel",
	"hipMemcpyAsync",    "hipMemsetAsync",
	"hipMemcpyWithStream",
};


/* ---- the per-rank preparation ---- */

static uint32_t find_str(const struct tt_rank *r, const char *s)
{
	uint32_t id = tt_strtab_find(&r->strs, s, strlen(s));
	return id == TT_NO_STR ? TT_NONE : id;
}

static void flag_names(struct tt_cp *c, const char *const *names, size_t n, uint8_t f)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t id = find_str(c->r, names[i]);
		if (id != TT_NONE)
			c->sf[id] |= f;
	}
}

/* a launch with its GPU op (HTA's runtime_calls frame) */
struct launch {
	int64_t ts;
	uint32_t cpu, gpu;
	uint32_t cpu_track;
	int64_t dev, stream; /* of the GPU op */
};

/* by (device, stream, ts): the previous launch of a recorded event */
static int launch_dev_cmp(const void *a, const void *b, void *ctx)
{
	const struct launch *x = a, *y = b;
	(void)ctx;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* by (CPU thread, stream, ts): the next launch after a stream wait */
static int launch_thr_cmp(const void *a, const void *b, void *ctx)
{
	const struct launch *x = a, *y = b;
	(void)ctx;
	if (x->cpu_track != y->cpu_track)
		return x->cpu_track < y->cpu_track ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static bool is_launch(const struct tt_cp *c, uint32_t cpu)
{
	return c->sf[c->r->ev[cpu].name] & SF_LAUNCH;
}

/* ---- queue length (trace_counters.py 18-92) ----
 *
 * HTA concatenates the launches (one row per launch and GPU op of its
 * correlation; a launch whose ops were all dropped gives one row without a
 * stream) and the GPU ops, sorts them by ts with numpy's quicksort, and
 * sums +1/-1 per stream in that order.  At equal times the order is the one
 * numpy's introsort leaves, which depends on where the rows were: it is
 * reproduced here on the file order as Kineto writes it (GPU activities and
 * their launches in correlation order). */

struct qrow {
	int64_t ts;
	uint32_t corr;
	uint32_t ev;    /* the launch or the GPU op */
	uint32_t gpu;   /* the GPU op of the pair, TT_NONE: a launch without one */
	uint32_t track; /* of the GPU op: one series per (device, stream) */
	int8_t delta;
	uint8_t pad[3];
};

static int qrow_file_cmp(const void *a, const void *b, void *ctx)
{
	const struct qrow *x = a, *y = b;
	(void)ctx;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return x->gpu < y->gpu ? -1 : x->gpu > y->gpu;
}

/* a time and where it came from: numpy's argsort, done on the pairs (the
 * same comparisons and moves as on an index array into the times, so the
 * same order, without a lookup per comparison) */
struct tsix {
	int64_t ts;
	uint32_t ix;
	uint32_t pad;
};

/* numpy's heapsort of an index array (npysort/heapsort.cpp, aheapsort) */
static void np_aheapsort(struct tsix *v, size_t n)
{
	struct tsix *a = v - 1; /* 1-based */
	size_t i, j, l;
	struct tsix tmp;
	for (l = n >> 1; l > 0; --l) {
		tmp = a[l];
		for (i = l, j = l << 1; j <= n;) {
			if (j < n && a[j].ts < a[j + 1].ts)
				j += 1;
			if (tmp.ts < a[j].ts) {
				a[i] = a[j];
				i = j;
				j += j;
			} else {
				break;
			}
		}
		a[i] = tmp;
	}
	for (; n > 1;) {
		tmp = a[n];
		a[n] = a[1];
		n -= 1;
		for (i = 1, j = 2; j <= n;) {
			if (j < n && a[j].ts < a[j + 1].ts)
				j++;
			if (tmp.ts < a[j].ts) {
				a[i] = a[j];
				i = j;
				j += j;
			} else {
				break;
			}
		}
		a[i] = tmp;
	}
}

/* numpy's introsort of an index array (npysort/quicksort.cpp,
 * aquicksort_): median of three, insertion sort below 16 elements,
 * heapsort past 2 log2(n) levels */
static void np_aquicksort(struct tsix *v, size_t num)
{
#define SWAP(a, b)                 \
	do {                       \
		struct tsix t_ = (a); \
		(a) = (b);         \
		(b) = t_;          \
	} while (0)
	if (num < 2)
		return;
	struct tsix *pl = v, *pr = v + num - 1;
	struct tsix *stack[128], **sptr = stack;
	int depth[64], *psdepth = depth;
	int cdepth = 0;
	for (size_t x = num; x > 1; x >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			np_aheapsort(pl, (size_t)(pr - pl + 1));
			goto stack_pop;
		}
		while (pr - pl > 15) {
			struct tsix *pm = pl + ((pr - pl) >> 1);
			if (pm->ts < pl->ts)
				SWAP(*pm, *pl);
			if (pr->ts < pm->ts)
				SWAP(*pr, *pm);
			if (pm->ts < pl->ts)
				SWAP(*pm, *pl);
			int64_t vp = pm->ts;
			struct tsix *pi = pl, *pj = pr - 1;
			SWAP(*pm, *pj);
			for (;;) {
				do
					++pi;
				while (pi->ts < vp);
				do
					--pj;
				while (vp < pj->ts);
				if (pi >= pj)
					break;
				SWAP(*pi, *pj);
			}
			struct tsix *pk = pr - 1;
			SWAP(*pi, *pk);
			/* the larger partition waits on the stack */
			if (pi - pl < pr - pi) {
				*sptr++ = pi + 1;
				*sptr++ = pr;
				pr = pi - 1;
			} else {
				*sptr++ = pl;
				*sptr++ = pi - 1;
				pl = pi + 1;
			}
			*psdepth++ = --cdepth;
		}
		for (struct tsix *pi = pl + 1; pi <= pr; ++pi) {
			struct tsix vi = *pi;
			struct tsix *pj = pi, *pk = pi - 1;
			while (pj > pl && vi.ts < pk->ts)
				*pj-- = *pk--;
			*pj = vi;
		}
	stack_pop:
		if (sptr == stack)
			break;
		pr = *(--sptr);
		pl = *(--sptr);
		cdepth = *(--psdepth);
	}
#undef SWAP
}

/* queue length at each launch and GPU op; the launches with their ops
 * (HTA's runtime_calls) for the event syncs */
static void prep_queue(struct tt_cp *c, struct launch **lv, size_t *nl)
{
	const struct tt_rank *r = c->r;
	size_t nlr = 0, clr = 0, ngr = 0, cgr = 0, nla = 0, cla = 0;
	struct qrow *lr = NULL, *gr = NULL;
	struct launch *la = NULL;
	uint32_t lp = 0; /* links are by CPU event: a cursor as i grows */
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->corr == TT_NONE || (e->flags & TT_EF_STREAM) || !is_launch(c, i) ||
		    !tt_sel_has(&c->s, i))
			continue;
		while (lp < r->nlinks && r->links[lp].cpu < i)
			lp++;
		uint32_t l0 = lp, l1 = lp, parsed = 0, kept = 0;
		while (l1 < r->nlinks && r->links[l1].cpu == i)
			l1++;
		int64_t ts = ev_ts(c, i);
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t gi = r->links[l].gpu;
			const struct tt_event *g = &r->ev[gi];
			if (!(g->flags & TT_EF_STREAM) || !tt_hta_parsed(r, g))
				continue;
			parsed++;
			if (!tt_sel_has(&c->s, gi))
				continue;
			kept++;
			TT_GROW(lr, clr, nlr + 1);
			lr[nlr++] = (struct qrow){ts, e->corr, i, gi, g->track, 1, {0}};
			const struct tt_track *t = &r->tracks[g->track];
			TT_GROW(la, cla, nla + 1);
			la[nla++] = (struct launch){ts, i, gi, e->track, t->pid, t->stream};
		}
		/* (no partner: index_correlation is not > 0; else the launch has
		 * a row, which holds its correlation) */
		if (parsed && !kept) {
			TT_GROW(lr, clr, nlr + 1);
			lr[nlr++] = (struct qrow){ts, e->corr, i, TT_NONE, TT_NONE, 0, {0}};
		}
	}
	c->any_queue = nla > 0;
	/* [launches, GPU ops of their correlations], each in file order */
	tt_msort(lr, nlr, sizeof(*lr), qrow_file_cmp, NULL);
	for (uint32_t t = 0, i0, i1; nlr && tt_next_gpu_track(r, &t, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *g = &r->ev[i];
			if (g->corr == TT_NONE || !tt_sel_has(&c->s, i))
				continue;
			TT_GROW(gr, cgr, ngr + 1);
			gr[ngr++] = (struct qrow){ev_ts(c, i), g->corr, i, i, g->track, -1, {0}};
		}
	tt_msort(gr, ngr, sizeof(*gr), qrow_file_cmp, NULL);
	size_t w = 0;
	for (size_t k = 0, j = 0; k < ngr; k++) {
		while (j < nlr && lr[j].corr < gr[k].corr)
			j++;
		if (j < nlr && lr[j].corr == gr[k].corr)
			gr[w++] = gr[k];
	}
	ngr = w;
	/* numpy's sort by ts */
	size_t n = nlr + ngr;
	struct tsix *ord = tt_malloc((n + 1) * sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = (struct tsix){i < nlr ? lr[i].ts : gr[i - nlr].ts, (uint32_t)i, 0};
	np_aquicksort(ord, n);
	/* running sums per GPU track */
	int32_t *sum = tt_calloc((size_t)r->ntracks + 1, sizeof(*sum));
	for (size_t k = 0; k < n; k++) {
		const struct qrow *q = ord[k].ix < nlr ? &lr[ord[k].ix] : &gr[ord[k].ix - nlr];
		if (q->gpu == TT_NONE)
			continue;
		int32_t v = sum[q->track] += q->delta;
		if (q->delta > 0)
			c->qr[q->gpu] = v;
		else
			c->qk[q->gpu] = v;
	}
	free(sum);
	free(ord);
	free(lr);
	free(gr);
	*lv = la;
	*nl = nla;
}

/* The kernel each cudaEventRecord stands for: the last launch onto the
 * recorded (device, stream) at or before the record (cpa.py 866-977); and
 * the kernel each cudaStreamWaitEvent holds back: the first launch onto its
 * stream from the same thread at or after it (979-1093). */
static void prep_events(struct tt_cp *c, struct launch *la, size_t nl)
{
	const struct tt_rank *r = c->r;
	/* record correlation -> (device, stream), from the rows that wait on
	 * it (the first row wins) */
	struct tt_hmap rec;
	map_init(&rec, 16);
	int64_t *rdev = NULL, *rstream = NULL;
	size_t nrs = 0, crs = 0, crs2 = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!(e->flags & TT_EF_SYNCINFO) || e->aux >= r->nsyncinfo || !tt_sel_has(&c->s, i))
			continue;
		const struct tt_syncinfo *y = &r->syncinfo[e->aux];
		if (y->wait_stream <= -1 || y->wait_corr < 0 || y->wait_corr >= UINT32_MAX)
			continue;
		if (map_get(&rec, (uint32_t)y->wait_corr) != TT_NONE)
			continue;
		TT_GROW(rdev, crs, nrs + 1);
		TT_GROW(rstream, crs2, nrs + 1);
		rdev[nrs] = r->tracks[e->track].pid;
		rstream[nrs] = y->wait_stream;
		map_put(&rec, (uint32_t)y->wait_corr, (uint32_t)nrs);
		nrs++;
	}
	if (nrs && c->id_record != TT_NONE) {
		tt_msort(la, nl, sizeof(*la), launch_dev_cmp, NULL);
		for (uint32_t i = 0; i < r->nev; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->name != c->id_record || e->corr == TT_NONE || !tt_sel_has(&c->s, i))
				continue;
			uint32_t k = map_get(&rec, e->corr);
			if (k == TT_NONE)
				continue;
			struct launch key = {.ts = ev_ts(c, i), .cpu = UINT32_MAX, .dev = rdev[k],
					     .stream = rstream[k]};
			/* first launch after the key, then one back */
			size_t lo = 0, hi = nl;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (launch_dev_cmp(&la[mid], &key, NULL) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == 0 || la[lo - 1].dev != key.dev || la[lo - 1].stream != key.stream)
				continue;
			map_put(&c->rec_src, e->corr, la[lo - 1].gpu);
		}
	}
	map_free(&rec);
	free(rdev);
	free(rstream);

	/* Stream Wait Event rows, and where each one's call leads */
	size_t cap = 0;
	bool sorted = false;
	for (uint32_t t = 0, i0, i1; c->id_swe != TT_NONE && tt_next_gpu_track(r, &t, &i0, &i1);) {
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->name != c->id_swe || !tt_sel_has(&c->s, i))
				continue;
			TT_GROW(c->swe, cap, c->nswe + 1);
			c->swe[c->nswe++] = i;
			uint32_t call = tt_launch_of(r, i);
			if (call == TT_NONE || r->ev[call].name != c->id_swe_call ||
			    !tt_sel_has(&c->s, call))
				continue;
			if (!sorted) {
				tt_msort(la, nl, sizeof(*la), launch_thr_cmp, NULL);
				sorted = true;
			}
			struct launch key = {.ts = ev_ts(c, call), .cpu = 0,
					     .cpu_track = r->ev[call].track,
					     .stream = r->tracks[e->track].stream};
			size_t lo = 0, hi = nl;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (launch_thr_cmp(&la[mid], &key, NULL) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < nl && la[lo].cpu_track == key.cpu_track &&
			    la[lo].stream == key.stream)
				map_put(&c->swe_dest, call, la[lo].gpu);
		}
	}
}

struct tt_cp *tt_cp_prepare(const struct tt_model *m, size_t ri, const struct tt_cp_opts *o)
{
	struct tt_cp *c = tt_calloc(1, sizeof(*c));
	const struct tt_rank *r = m->ranks[ri];
	c->m = m;
	c->ri = ri;
	c->r = r;
	if (o)
		c->o = *o;
	c->exact = c->o.a && c->o.a->exact;
	c->tt = c->o.model == TT_CPM_TRACETOP;
	tt_sel_init(&c->s, m, ri, c->o.a);

	c->sf = tt_calloc((size_t)r->strs.n + 1, 1);
	flag_names(c, lock_names, TT_ARRAY_SIZE(lock_names), SF_LOCK);
	flag_names(c, blocking_names, TT_ARRAY_SIZE(blocking_names), SF_BLOCK);
	flag_names(c, launch_names, TT_ARRAY_SIZE(launch_names), SF_LAUNCH);
	for (uint32_t id = 0; id < r->strs.n; id++) {
		const char *s = tt_str(r, id);
		if (strstr(s, "forward"))
			c->sf[id] |= SF_FWD;
		if (strstr(s, "autograd"))
			c->sf[id] |= SF_AUTOGRAD;
		for (size_t k = 0; k < c->o.ndata_load; k++)
			if (c->o.data_load[k] && *c->o.data_load[k] && strstr(s, c->o.data_load[k]))
				c->sf[id] |= SF_DATA;
	}
	/* tracetop's model: the plugin's DataLoader spans load data */
	if (c->tt) {
		const uint16_t *nf = tt_tb_name_flags(r);
		for (uint32_t id = 0; id < r->strs.n; id++)
			if (nf[id] & TT_NF_DATALOADER)
				c->sf[id] |= SF_DATA;
	}
	c->id_event_sync = find_str(r, "Event Sync");
	c->id_context_sync = find_str(r, "Context Sync");
	c->id_stream_sync = find_str(r, "Stream Sync");
	c->id_swe = find_str(r, "Stream Wait Event");
	c->id_record = find_str(r, "cudaEventRecord");
	c->id_swe_call = find_str(r, "cudaStreamWaitEvent");

	c->min_ts = INT64_MAX;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++)
			if (tt_sel_has(&c->s, i)) {
				int64_t ts = ev_ts(c, i);
				if (ts < c->min_ts)
					c->min_ts = ts;
				break; /* (sorted by start; rounding keeps the order) */
			}
	}

	c->qr = tt_malloc(((size_t)r->nev + 1) * sizeof(*c->qr));
	c->qk = tt_malloc(((size_t)r->nev + 1) * sizeof(*c->qk));
	for (uint32_t i = 0; i < r->nev; i++)
		c->qr[i] = c->qk[i] = INT32_MIN;
	struct launch *la = NULL;
	size_t nl = 0;
	prep_queue(c, &la, &nl);
	prep_events(c, la, nl);
	free(la);
	return c;
}

void tt_cp_free(struct tt_cp *c)
{
	if (!c)
		return;
	tt_sel_free(&c->s);
	free(c->sf);
	free(c->qr);
	free(c->qk);
	map_free(&c->rec_src);
	map_free(&c->swe_dest);
	free(c->swe);
	free(c->annot);
	free(c->arows);
	free(c->node_of);
	free(c->taken);
	free(c->name_slot);
	free(c->name_bound);
	free(c->rows_cpu);
	free(c->rows_gpu);
	free(c->rows_thread);
	free(c->edges);
	free(c);
}

/* ---- annotation instances ---- */

/* HTA's iteration filter applies: two or more ProfilerStep#N names over
 * all ranks (metrics.md §0.4) and not the exact view */
static bool filter_applies(const struct tt_cp *c)
{
	if (c->exact)
		return false;
	int64_t first = -1;
	for (size_t ri = 0; ri < c->m->nranks; ri++) {
		const struct tt_rank *r = c->m->ranks[ri];
		for (uint32_t id = 0; id < r->strs.n; id++) {
			int64_t v = tt_step_number(tt_str(r, id));
			if (v < 0 && tt_is_step_name(tt_str(r, id)))
				v = strtoll(tt_str(r, id) + 13, NULL, 10);
			if (v < 0)
				continue;
			if (first < 0)
				first = v;
			else if (v != first)
				return true;
		}
	}
	return false;
}

/* the GPU side of HTA's correlation join (metrics.md §0.3) */
static bool gpu_side(const struct tt_cp *c, const struct tt_event *e)
{
	if (e->corr == TT_NONE)
		return false;
	return (e->flags & TT_EF_STREAM) || (e->name != TT_NONE && (e->name == c->id_event_sync ||
								    e->name == c->id_context_sync));
}

struct arow {
	uint8_t gpu_first;
	int64_t ts;
	uint32_t ev;
};

static int arow_cmp(const void *a, const void *b, void *ctx)
{
	const struct arow *x = a, *y = b;
	(void)ctx;
	if (x->gpu_first != y->gpu_first)
		return x->gpu_first > y->gpu_first ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

size_t tt_cp_instances(struct tt_cp *c, const char *annotation, const uint32_t **ev)
{
	const struct tt_rank *r = c->r;
	if (c->annot && strcmp(c->annot, annotation) == 0) {
		*ev = c->arows;
		return c->narows;
	}
	free(c->annot);
	free(c->arows);
	c->annot = tt_strdup(annotation);
	c->arows = NULL;
	c->narows = 0;
	bool any = false;
	for (uint32_t id = 0; id < r->strs.n; id++) {
		if (strstr(tt_str(r, id), annotation)) {
			c->sf[id] |= SF_ANNOT;
			any = true;
		} else {
			c->sf[id] &= (uint8_t)~SF_ANNOT;
		}
	}
	size_t n = 0, cap = 0;
	struct arow *v = NULL;
	bool gpu = false;
	for (uint32_t i = 0; any && i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!(c->sf[e->name] & SF_ANNOT) || !tt_sel_has(&c->s, i))
			continue;
		TT_GROW(v, cap, n + 1);
		v[n] = (struct arow){gpu_side(c, e), ev_ts(c, i), i};
		gpu |= v[n].gpu_first;
		n++;
	}
	/* HTA's frame holds the kept GPU-side rows first when its iteration
	 * filter rebuilt it, else every row in file order */
	bool first = gpu && filter_applies(c);
	for (size_t i = 0; i < n; i++)
		v[i].gpu_first = first && v[i].gpu_first;
	tt_msort(v, n, sizeof(*v), arow_cmp, NULL);
	c->arows = tt_malloc((n + 1) * sizeof(*c->arows));
	for (size_t i = 0; i < n; i++)
		c->arows[i] = v[i].ev;
	c->narows = n;
	free(v);
	*ev = c->arows;
	return n;
}
