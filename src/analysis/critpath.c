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


/* ---- a small map: uint32 key (never UINT32_MAX) -> uint32 ---- */

struct u32map {
	uint32_t *k, *v;
	size_t cap, n;
};

static inline size_t map_slot(const struct u32map *m, uint32_t key)
{
	return (size_t)((key * 0x9E3779B1u) ^ (key >> 16)) & (m->cap - 1);
}

static void map_init(struct u32map *m, size_t n)
{
	size_t cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	m->cap = cap;
	m->n = 0;
	m->k = tt_malloc(cap * sizeof(*m->k));
	m->v = tt_malloc(cap * sizeof(*m->v));
	memset(m->k, 0xff, cap * sizeof(*m->k));
}

static void map_free(struct u32map *m)
{
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static void map_put(struct u32map *m, uint32_t key, uint32_t val);

static void map_grow(struct u32map *m)
{
	struct u32map o = *m;
	map_init(m, o.cap);
	for (size_t i = 0; i < o.cap; i++)
		if (o.k[i] != UINT32_MAX)
			map_put(m, o.k[i], o.v[i]);
	map_free(&o);
}

static void map_put(struct u32map *m, uint32_t key, uint32_t val)
{
	if (!m->cap)
		map_init(m, 8);
	if (2 * (m->n + 1) > m->cap)
		map_grow(m);
	size_t i = map_slot(m, key);
	while (m->k[i] != UINT32_MAX && m->k[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (m->k[i] == UINT32_MAX) {
		m->k[i] = key;
		m->n++;
	}
	m->v[i] = val;
}

static inline uint32_t map_get(const struct u32map *m, uint32_t key)
{
	if (!m->cap)
		return TT_NONE;
	size_t i = map_slot(m, key);
	while (m->k[i] != UINT32_MAX) {
		if (m->k[i] == key)
			return m->v[i];
		i = (i + 1) & (m->cap - 1);
	}
	return TT_NONE;
}

/* ---- the per-rank preparation ---- */

struct tt_cp {
	const struct tt_model *m;
	size_t ri;
	const struct tt_rank *r;
	struct tt_sel s;
	bool exact;
	struct tt_cp_opts o;
	uint8_t *sf; /* flags per string id */
	uint32_t id_event_sync, id_context_sync, id_stream_sync, id_swe, id_record, id_swe_call;
	int32_t *qr, *qk;  /* per event: queue length at the launch of a GPU op
			    * and at the op itself; INT32_MIN = none */
	bool any_queue;    /* a launch with a kernel exists (HTA's queue) */
	struct u32map rec_src;  /* cudaEventRecord correlation -> kernel */
	struct u32map swe_dest; /* cudaStreamWaitEvent call -> next kernel */
	uint32_t *swe;     /* Stream Wait Event rows */
	size_t nswe;
	int64_t min_ts;    /* first start of the rank (HTA's ts.min()) */
	/* rows of the annotation asked for last */
	char *annot;
	uint32_t *arows;
	size_t narows;
};

static inline int64_t ev_ts(const struct tt_cp *c, uint32_t i)
{
	return tt_sel_ts(&c->s, &c->r->ev[i]);
}

static inline int64_t ev_end(const struct tt_cp *c, uint32_t i)
{
	return tt_sel_end(&c->s, &c->r->ev[i]);
}

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

/* numpy's heapsort of an index array (npysort/heapsort.cpp, aheapsort) */
static void np_aheapsort(const int64_t *v, uint32_t *tosort, size_t n)
{
	uint32_t *a = tosort - 1; /* 1-based */
	size_t i, j, l;
	uint32_t tmp;
	for (l = n >> 1; l > 0; --l) {
		tmp = a[l];
		for (i = l, j = l << 1; j <= n;) {
			if (j < n && v[a[j]] < v[a[j + 1]])
				j += 1;
			if (v[tmp] < v[a[j]]) {
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
			if (j < n && v[a[j]] < v[a[j + 1]])
				j++;
			if (v[tmp] < v[a[j]]) {
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
static void np_aquicksort(const int64_t *v, uint32_t *tosort, size_t num)
{
#define SWAP(a, b)              \
	do {                    \
		uint32_t t_ = (a); \
		(a) = (b);      \
		(b) = t_;       \
	} while (0)
	if (num < 2)
		return;
	uint32_t *pl = tosort, *pr = tosort + num - 1;
	uint32_t *stack[128], **sptr = stack;
	int depth[64], *psdepth = depth;
	int cdepth = 0;
	for (size_t x = num; x > 1; x >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			np_aheapsort(v, pl, (size_t)(pr - pl + 1));
			goto stack_pop;
		}
		while (pr - pl > 15) {
			uint32_t *pm = pl + ((pr - pl) >> 1);
			if (v[*pm] < v[*pl])
				SWAP(*pm, *pl);
			if (v[*pr] < v[*pm])
				SWAP(*pr, *pm);
			if (v[*pm] < v[*pl])
				SWAP(*pm, *pl);
			int64_t vp = v[*pm];
			uint32_t *pi = pl, *pj = pr - 1;
			SWAP(*pm, *pj);
			for (;;) {
				do
					++pi;
				while (v[*pi] < vp);
				do
					--pj;
				while (vp < v[*pj]);
				if (pi >= pj)
					break;
				SWAP(*pi, *pj);
			}
			uint32_t *pk = pr - 1;
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
		for (uint32_t *pi = pl + 1; pi <= pr; ++pi) {
			uint32_t vi = *pi;
			int64_t vp = v[vi];
			uint32_t *pj = pi, *pk = pi - 1;
			while (pj > pl && vp < v[*pk])
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
	struct u32map corrs = {0}; /* correlations of the launches */
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (e->corr == TT_NONE || (e->flags & TT_EF_STREAM) || !is_launch(c, i) ||
		    !tt_sel_has(&c->s, i))
			continue;
		uint32_t l0, l1, parsed = 0, kept = 0;
		tt_links_of_cpu(r, i, &l0, &l1);
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
		if (!parsed)
			continue; /* (no partner: index_correlation is not > 0) */
		map_put(&corrs, e->corr, 1);
		if (!kept) {
			TT_GROW(lr, clr, nlr + 1);
			lr[nlr++] = (struct qrow){ts, e->corr, i, TT_NONE, TT_NONE, 0, {0}};
		}
	}
	for (uint32_t t = 0, i0, i1; nlr && tt_next_gpu_track(r, &t, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *g = &r->ev[i];
			if (g->corr == TT_NONE || !tt_sel_has(&c->s, i) ||
			    map_get(&corrs, g->corr) == TT_NONE)
				continue;
			TT_GROW(gr, cgr, ngr + 1);
			gr[ngr++] = (struct qrow){ev_ts(c, i), g->corr, i, i, g->track, -1, {0}};
		}
	map_free(&corrs);
	c->any_queue = nla > 0;
	/* [launches, GPU ops], each in file order, then numpy's sort by ts */
	tt_msort(lr, nlr, sizeof(*lr), qrow_file_cmp, NULL);
	tt_msort(gr, ngr, sizeof(*gr), qrow_file_cmp, NULL);
	size_t n = nlr + ngr;
	struct qrow *all = tt_malloc((n + 1) * sizeof(*all));
	if (nlr)
		memcpy(all, lr, nlr * sizeof(*all));
	if (ngr)
		memcpy(all + nlr, gr, ngr * sizeof(*all));
	free(lr);
	free(gr);
	int64_t *ts = tt_malloc((n + 1) * sizeof(*ts));
	uint32_t *ord = tt_malloc((n + 1) * sizeof(*ord));
	for (size_t i = 0; i < n; i++) {
		ts[i] = all[i].ts;
		ord[i] = (uint32_t)i;
	}
	np_aquicksort(ts, ord, n);
	/* running sums per GPU track */
	int32_t *sum = tt_calloc((size_t)r->ntracks + 1, sizeof(*sum));
	for (size_t k = 0; k < n; k++) {
		const struct qrow *q = &all[ord[k]];
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
	free(ts);
	free(all);
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
	struct u32map rec;
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

/* ---- the graph of one window ---- */

/* an event of the window */
struct crow {
	uint32_t ev;
	uint32_t track;
	int64_t ts, end;
};

struct build {
	struct tt_cp *c;
	const struct tt_rank *r;
	struct cp_graph *g;
	struct tt_cp_result *out;
	struct u32map node_of; /* event -> k (its nodes 2k, 2k+1) */
	struct crow *cpu;      /* clipped CPU rows */
	size_t ncpu, ccpu;
	struct crow *gpu;      /* clipped GPU rows (launched in the window) */
	size_t ngpu, cgpu;
};

static inline uint32_t node_k(const struct build *b, uint32_t ev)
{
	return map_get(&b->node_of, ev);
}

static void add_edge(struct build *b, uint32_t u, uint32_t v, enum tt_cp_etype type, int phase,
		     bool zero, uint32_t attr)
{
	struct cp_graph *g = b->g;
	TT_GROW(g->e, g->ce, g->ne + 1);
	struct cp_edge *e = &g->e[g->ne++];
	e->u = u;
	e->v = v;
	e->w = (type == TT_CPE_DEPENDENCY || type == TT_CPE_SYNC || zero) ? 0 : g->ts[v] - g->ts[u];
	e->attr = attr;
	e->type = (uint8_t)type;
	e->phase = (uint8_t)phase;
	e->dead = 0;
	if (g->nx[u] == UINT32_MAX) {
		g->nx[u] = g->nnx;
		g->nx_node[g->nnx++] = u;
	}
	if (g->nx[v] == UINT32_MAX) {
		g->nx[v] = g->nnx;
		g->nx_node[g->nnx++] = v;
	}
}

/* HTA attribution (cpa.py 294-354): start -> src's event; end -> end:
 * dest's event; end -> start: the parent of the last event touched */
static uint32_t attribute(const struct cp_graph *g, uint32_t u, uint32_t v, uint32_t parent)
{
	if (!(u & 1))
		return g->ev[u >> 1];
	if (v & 1)
		return g->ev[v >> 1];
	return parent;
}

static bool is_lock_node(const struct build *b, uint32_t node)
{
	return b->c->sf[b->r->ev[b->g->ev[node >> 1]].name] & SF_LOCK;
}

/* two consecutive nodes share the runtime lock: both lock calls and not an
 * (end, start) pair (cpa.py 535-556) */
static bool shares_lock(const struct build *b, uint32_t first, uint32_t second)
{
	return is_lock_node(b, first) && is_lock_node(b, second) && (!(first & 1) || (second & 1));
}

/* does HTA give this event nodes: cat exactly cpu_op, cuda_runtime or
 * cuda_driver (its mask compares strings) */
static bool hta_node_cat(const struct tt_rank *r, const struct tt_event *e)
{
	const struct tt_cat *k = &r->cats[e->cat];
	return !k->legacy &&
	       (k->kind == TT_K_CPU_OP || k->kind == TT_K_RUNTIME || k->kind == TT_K_DRIVER);
}

/* ... and ours: legacy spellings and MTIA's runtime too */
static bool node_cat(const struct tt_rank *r, const struct tt_event *e)
{
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_CPU_OP || k == TT_K_RUNTIME || k == TT_K_DRIVER || k == TT_K_MTIA_RUNTIME;
}

/* Clip (cpa.py 1867-1892): CPU rows starting in [t0, t1] with a duration,
 * GPU rows whose launch is such a row. */
static void clip(struct build *b, int64_t t0, int64_t t1)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	/* a rounded start is at most 1 µs after the written one */
	int64_t lo_raw = t0 > INT64_MIN + 1000 ? t0 - 1000 : INT64_MIN;
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind == TT_TRACK_GPU)
			continue; /* (events with a stream live only there) */
		uint32_t lo = tr->first, hi = tr->first + tr->count;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (r->ev[mid].ts < lo_raw)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (uint32_t i = lo; i < tr->first + tr->count && r->ev[i].ts <= t1; i++) {
			const struct tt_event *e = &r->ev[i];
			if ((e->flags & TT_EF_STREAM) || !tt_sel_has(&c->s, i))
				continue;
			int64_t ts = ev_ts(c, i);
			if (ts < t0 || ts > t1)
				continue;
			int64_t end = ev_end(c, i);
			if (end <= ts)
				continue;
			TT_GROW(b->cpu, b->ccpu, b->ncpu + 1);
			b->cpu[b->ncpu++] = (struct crow){i, t, ts, end};
		}
	}
	struct u32map seen = {0};
	for (size_t k = 0; k < b->ncpu; k++) {
		uint32_t l0, l1;
		if (!r->nlinks)
			break;
		if (r->ev[b->cpu[k].ev].corr == TT_NONE)
			continue; /* (most ops: no partner to look for) */
		tt_links_of_cpu(r, b->cpu[k].ev, &l0, &l1);
		/* HTA links a launch to one GPU op, the last of its correlation
		 * in the file (its index_correlation is overwritten by each), so
		 * of a graph launch's ops only the last one is in the window */
		uint32_t only = TT_NONE, nparts = 0;
		for (uint32_t l = l0; l < l1 && !c->o.graph_kernels; l++) {
			uint32_t gi = r->links[l].gpu;
			const struct tt_event *e = &r->ev[gi];
			if (!(e->flags & TT_EF_STREAM) || !tt_hta_parsed(r, e))
				continue;
			nparts++;
			if (only == TT_NONE || e->ts > r->ev[only].ts ||
			    (e->ts == r->ev[only].ts && gi > only))
				only = gi;
		}
		if (nparts > 1)
			b->out->st.graph_left_out += nparts - 1;
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t gi = r->links[l].gpu;
			const struct tt_event *e = &r->ev[gi];
			if (!(e->flags & TT_EF_STREAM) || !tt_sel_has(&c->s, gi))
				continue;
			if (nparts > 1 && gi != only)
				continue;
			if (map_get(&seen, gi) != TT_NONE)
				continue;
			map_put(&seen, gi, 1);
			TT_GROW(b->gpu, b->cgpu, b->ngpu + 1);
			b->gpu[b->ngpu++] = (struct crow){gi, e->track, ev_ts(c, gi), ev_end(c, gi)};
		}
	}
	/* every Stream Wait Event row, whatever its time (1875-1890) */
	for (size_t k = 0; k < c->nswe; k++) {
		uint32_t gi = c->swe[k];
		if (map_get(&seen, gi) != TT_NONE)
			continue;
		const struct tt_event *e = &r->ev[gi];
		TT_GROW(b->gpu, b->cgpu, b->ngpu + 1);
		b->gpu[b->ngpu++] = (struct crow){gi, e->track, ev_ts(c, gi), ev_end(c, gi)};
	}
	map_free(&seen);
}

/* Nodes (cpa.py 444-509): CPU ops, runtime and driver calls, data-loading
 * ops, and GPU rows other than syncs (those nodes would be isolated). */
static void make_nodes(struct build *b)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	struct cp_graph *g = b->g;
	size_t n = 0;
	uint32_t *ev = tt_malloc((b->ncpu + b->ngpu + 1) * sizeof(*ev));
	int64_t *ts = tt_malloc((2 * (b->ncpu + b->ngpu) + 1) * sizeof(*ts));
	map_init(&b->node_of, b->ncpu + b->ngpu);
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		if (!node_cat(r, e) && !(c->sf[e->name] & SF_DATA))
			continue;
		map_put(&b->node_of, b->cpu[k].ev, (uint32_t)n);
		ev[n] = b->cpu[k].ev;
		ts[2 * n] = b->cpu[k].ts;
		ts[2 * n + 1] = b->cpu[k].end;
		n++;
	}
	for (size_t k = 0; k < b->ngpu; k++) {
		const struct tt_event *e = &r->ev[b->gpu[k].ev];
		if (tt_ev_kind(r, e) == TT_K_SYNC || e->corr == TT_NONE)
			continue;
		map_put(&b->node_of, b->gpu[k].ev, (uint32_t)n);
		ev[n] = b->gpu[k].ev;
		ts[2 * n] = b->gpu[k].ts;
		ts[2 * n + 1] = b->gpu[k].end;
		n++;
	}
	g->nne = (uint32_t)n;
	g->ev = ev;
	g->ts = ts;
	g->nx = tt_malloc((2 * n + 1) * sizeof(*g->nx));
	memset(g->nx, 0xff, (2 * n + 1) * sizeof(*g->nx));
	g->nx_node = tt_malloc((2 * n + 1) * sizeof(*g->nx_node));
}

/* ---- phase 1: the CUDA runtime lock (cpa.py 523-627) ---- */

struct lnode {
	int64_t ts;
	uint32_t ev;
	uint32_t node; /* 2k or 2k+1 */
};

static int lnode_cmp(const void *a, const void *b, void *ctx)
{
	const struct lnode *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return (x->node & 1) < (y->node & 1) ? -1 : (x->node & 1) > (y->node & 1);
}

static void phase_lock(struct build *b)
{
	struct cp_graph *g = b->g;
	size_t n = 0, cap = 0;
	struct lnode *v = NULL;
	for (uint32_t k = 0; k < g->nne; k++) {
		if (!(b->c->sf[b->r->ev[g->ev[k]].name] & SF_LOCK))
			continue;
		TT_GROW(v, cap, n + 2);
		v[n++] = (struct lnode){g->ts[2 * k], g->ev[k], 2 * k};
		v[n++] = (struct lnode){g->ts[2 * k + 1], g->ev[k], 2 * k + 1};
	}
	tt_msort(v, n, sizeof(*v), lnode_cmp, NULL);
	uint32_t *stack = tt_malloc((n + 1) * sizeof(*stack));
	size_t sp = 0;
	uint32_t prev = TT_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t node = v[i].node;
		if (!(node & 1)) {
			stack[sp++] = node;
		} else {
			while (sp) {
				uint32_t s = stack[--sp];
				if (s == (node ^ 1))
					add_edge(b, s, node, TT_CPE_OPERATOR, 0, false, v[i].ev);
				else
					add_edge(b, s, node, TT_CPE_DEPENDENCY, 0, false, TT_NONE);
			}
			if (prev != TT_NONE && (prev & 1))
				add_edge(b, prev, node, TT_CPE_DEPENDENCY, 0, false, TT_NONE);
		}
		prev = node;
	}
	free(stack);
	free(v);
}

/* ---- phase 2: call stacks (cpa.py 629-795, call_stack.py) ---- */

struct srow {
	int64_t ts, dur;
	uint32_t ev;
	int64_t end;
};

/* starts in HTA's stack order: time, longer first, lower index */
static int srow_cmp(const void *a, const void *b, void *ctx)
{
	const struct srow *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* a binary min-heap of end times */
struct heap {
	int64_t *v;
	size_t n, cap;
};

static void heap_push(struct heap *h, int64_t x)
{
	TT_GROW(h->v, h->cap, h->n + 1);
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->v[p] <= x)
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = x;
}

static void heap_pop(struct heap *h)
{
	int64_t x = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= h->n)
			break;
		if (l + 1 < h->n && h->v[l + 1] < h->v[l])
			l++;
		if (h->v[l] >= x)
			break;
		h->v[i] = h->v[l];
		i = l;
	}
	if (h->n)
		h->v[i] = x;
}

/* the walk of one CPU thread's call stack */
struct walk {
	struct build *b;
	uint32_t last;   /* last node touched */
	uint32_t lparent; /* the stack parent of the event last touched */
	int depth;       /* open events with nodes */
};

static void walk_enter(struct walk *w, uint32_t ev, uint32_t parent)
{
	struct build *b = w->b;
	uint32_t k = node_k(b, ev);
	if (k == TT_NONE)
		return;
	uint32_t sn = 2 * k;
	if (w->last != TT_NONE && !shares_lock(b, w->last, sn)) {
		enum tt_cp_etype t = w->depth == 0 ? TT_CPE_DEPENDENCY : TT_CPE_OPERATOR;
		uint32_t attr = t == TT_CPE_OPERATOR ? attribute(b->g, w->last, sn, w->lparent) :
						       TT_NONE;
		add_edge(b, w->last, sn, t, 1, false, attr);
	}
	w->last = sn;
	w->lparent = parent;
	w->depth++;
}

static void walk_exit(struct walk *w, uint32_t ev, uint32_t parent)
{
	struct build *b = w->b;
	uint32_t k = node_k(b, ev);
	if (k == TT_NONE)
		return;
	uint32_t en = 2 * k + 1;
	if (w->last != TT_NONE && !shares_lock(b, w->last, en)) {
		bool blocking = b->c->sf[b->r->ev[ev].name] & SF_BLOCK;
		add_edge(b, w->last, en, TT_CPE_OPERATOR, 1, blocking,
			 attribute(b->g, w->last, en, w->lparent));
	}
	w->last = en;
	w->lparent = parent;
	w->depth--;
}

/* One thread: events in start order; an end pops the top of the stack
 * whatever it is (call_stack.py 230-262), and that pop is the depth-first
 * walk's exit of the popped event (413-431). */
static void walk_thread(struct build *b, struct srow *v, size_t n)
{
	tt_msort(v, n, sizeof(*v), srow_cmp, NULL);
	struct walk w = {b, TT_NONE, TT_NONE, 0};
	struct heap h = {0};
	uint32_t *stack = tt_malloc(2 * (n + 1) * sizeof(*stack)); /* (event, parent) */
	size_t sp = 0;
	for (size_t i = 0; i < n; i++) {
		while (h.n && h.v[0] <= v[i].ts) {
			heap_pop(&h);
			if (sp) {
				sp--;
				walk_exit(&w, stack[2 * sp], stack[2 * sp + 1]);
			}
		}
		uint32_t parent = sp ? stack[2 * (sp - 1)] : TT_NONE;
		walk_enter(&w, v[i].ev, parent);
		stack[2 * sp] = v[i].ev;
		stack[2 * sp + 1] = parent;
		sp++;
		heap_push(&h, v[i].end);
	}
	while (sp) {
		sp--;
		walk_exit(&w, stack[2 * sp], stack[2 * sp + 1]);
	}
	free(h.v);
	free(stack);
}

struct tkey {
	int64_t pid, tid;
	uint32_t track;
};

static int tkey_cmp(const void *a, const void *b, void *ctx)
{
	const struct tkey *x = a, *y = b;
	(void)ctx;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

/* the one thread with rows of category cpu_op or user_annotation whose
 * name has flag f, or -1 (several or none) */
static bool one_tid(const struct build *b, uint8_t f, int64_t *tid)
{
	const struct tt_rank *r = b->r;
	bool found = false;
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		const struct tt_cat *cat = &r->cats[e->cat];
		if (cat->legacy || (cat->kind != TT_K_CPU_OP && cat->kind != TT_K_USER_ANNOT) ||
		    !(b->c->sf[e->name] & f))
			continue;
		int64_t t = r->tracks[b->cpu[k].track].tid;
		if (found && t != *tid)
			return false;
		found = true;
		*tid = t;
	}
	return found;
}

static void phase_stacks(struct build *b)
{
	const struct tt_rank *r = b->r;
	/* the backward thread joins the forward thread (cpa.py 629-697) */
	int64_t fwd = 0, bwd = 0;
	bool merge = one_tid(b, SF_FWD, &fwd) && one_tid(b, SF_AUTOGRAD, &bwd) && fwd != bwd;
	/* CPU threads with rows, by (pid, tid) */
	uint32_t *rows_of = tt_calloc((size_t)r->ntracks + 1, sizeof(*rows_of));
	for (size_t k = 0; k < b->ncpu; k++)
		rows_of[b->cpu[k].track]++;
	size_t nt = 0;
	struct tkey *tk = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*tk));
	for (uint32_t t = 0; t < r->ntracks; t++) {
		const struct tt_track *tr = &r->tracks[t];
		if (tr->kind != TT_TRACK_CPU || !rows_of[t])
			continue;
		int64_t tid = merge && tr->tid == bwd ? fwd : tr->tid;
		tk[nt++] = (struct tkey){tr->pid, tid, t};
	}
	tt_msort(tk, nt, sizeof(*tk), tkey_cmp, NULL);
	/* first row of each track in b->cpu (rows are grouped by track) */
	uint32_t *first = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*first));
	for (size_t k = b->ncpu; k-- > 0;)
		first[b->cpu[k].track] = (uint32_t)k;
	struct srow *v = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < nt;) {
		size_t j = i, n = 0;
		while (j < nt && tk[j].pid == tk[i].pid && tk[j].tid == tk[i].tid) {
			uint32_t t = tk[j].track;
			TT_GROW(v, cap, n + rows_of[t]);
			for (uint32_t k = first[t]; k < first[t] + rows_of[t]; k++) {
				const struct crow *cr = &b->cpu[k];
				v[n++] = (struct srow){cr->ts, cr->end - cr->ts, cr->ev, cr->end};
			}
			j++;
		}
		walk_thread(b, v, n);
		i = j;
	}
	free(v);
	free(first);
	free(tk);
	free(rows_of);
}

/* ---- phase 3: kernels and syncs (cpa.py 1153-1439) ---- */

struct krow {
	int64_t key; /* ts, or the end of a sync */
	uint32_t ev;
	uint32_t track;
	uint8_t sync;
	uint8_t pad[7];
};

static int krow_cmp(const void *a, const void *b, void *ctx)
{
	const struct krow *x = a, *y = b;
	(void)ctx;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* the end node of the last kernel per (device, stream), in insertion order */
struct lastk {
	int64_t dev, stream;
	uint32_t node;
};

struct lasts {
	struct lastk *v;
	size_t n, cap;
	size_t hint;
};

static struct lastk *last_find(struct lasts *l, int64_t dev, int64_t stream)
{
	if (l->hint < l->n && l->v[l->hint].dev == dev && l->v[l->hint].stream == stream)
		return &l->v[l->hint];
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == dev && l->v[i].stream == stream) {
			l->hint = i;
			return &l->v[i];
		}
	return NULL;
}

static void last_set(struct lasts *l, int64_t dev, int64_t stream, uint32_t node)
{
	struct lastk *x = last_find(l, dev, stream);
	if (x) {
		x->node = node;
		return;
	}
	TT_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = (struct lastk){dev, stream, node};
}

/* the end node of the runtime call a sync row is linked to, or TT_NONE */
static uint32_t runtime_end(struct build *b, uint32_t sync_ev)
{
	uint32_t call = tt_launch_of(b->r, sync_ev);
	if (call == TT_NONE)
		return TT_NONE;
	uint32_t k = node_k(b, call);
	return k == TT_NONE ? TT_NONE : 2 * k + 1;
}

static void phase_kernels(struct build *b)
{
	struct tt_cp *c = b->c;
	const struct tt_rank *r = b->r;
	struct cp_graph *g = b->g;
	size_t n = 0;
	struct krow *v = tt_malloc((b->ngpu + b->ncpu + 1) * sizeof(*v));
	for (size_t k = 0; k < b->ngpu; k++) {
		const struct tt_event *e = &r->ev[b->gpu[k].ev];
		if (e->corr == TT_NONE)
			continue;
		bool sync = tt_ev_kind(r, e) == TT_K_SYNC;
		v[n++] = (struct krow){sync ? b->gpu[k].end : b->gpu[k].ts, b->gpu[k].ev,
				       b->gpu[k].track, sync, {0}};
	}
	for (size_t k = 0; k < b->ncpu; k++) {
		const struct tt_event *e = &r->ev[b->cpu[k].ev];
		if (e->corr == TT_NONE || tt_ev_kind(r, e) != TT_K_SYNC ||
		    (e->name != c->id_event_sync && e->name != c->id_context_sync))
			continue;
		v[n++] = (struct krow){b->cpu[k].end, b->cpu[k].ev, b->cpu[k].track, 1, {0}};
	}
	tt_msort(v, n, sizeof(*v), krow_cmp, NULL);

	struct lasts last = {0};
	struct u32map ksync = {0}; /* kernel -> the kernel it waits for */
	for (size_t i = 0; i < n; i++) {
		uint32_t ev = v[i].ev;
		const struct tt_event *e = &r->ev[ev];
		const struct tt_track *tr = &r->tracks[v[i].track];
		if (v[i].sync) {
			if (e->name == c->id_swe || e->name == c->id_event_sync) {
				if (!(e->flags & TT_EF_SYNCINFO) || e->aux >= r->nsyncinfo)
					continue;
				int64_t wc = r->syncinfo[e->aux].wait_corr;
				if (wc < 0 || wc >= UINT32_MAX)
					continue;
				uint32_t src = map_get(&c->rec_src, (uint32_t)wc);
				if (src == TT_NONE)
					continue;
				if (e->name == c->id_swe) {
					uint32_t call = tt_launch_of(r, ev);
					uint32_t dest =
						call == TT_NONE ? TT_NONE : map_get(&c->swe_dest, call);
					if (dest != TT_NONE)
						map_put(&ksync, dest, src);
				} else {
					uint32_t sk = node_k(b, src), re = runtime_end(b, ev);
					if (sk != TT_NONE && re != TT_NONE)
						add_edge(b, 2 * sk + 1, re, TT_CPE_SYNC, 2, false,
							 TT_NONE);
				}
			} else if (e->name == c->id_stream_sync && (e->flags & TT_EF_STREAM)) {
				uint32_t re = runtime_end(b, ev);
				struct lastk *l = last_find(&last, tr->pid, tr->stream);
				if (re != TT_NONE && l)
					add_edge(b, l->node, re, TT_CPE_SYNC, 2, false, TT_NONE);
			} else if (e->name == c->id_context_sync) {
				uint32_t re = runtime_end(b, ev);
				for (size_t j = 0; re != TT_NONE && j < last.n; j++)
					add_edge(b, last.v[j].node, re, TT_CPE_SYNC, 2, false,
						 TT_NONE);
			}
			continue;
		}
		uint32_t k = node_k(b, ev);
		if (k == TT_NONE)
			continue;
		b->out->st.kernels++;
		uint32_t sn = 2 * k, en = 2 * k + 1;
		add_edge(b, sn, en, TT_CPE_OPERATOR, 2, false, ev);
		bool added = false, has_sync = false;
		int64_t sync_ts = 0;
		uint32_t src = map_get(&ksync, ev);
		if (src != TT_NONE) {
			uint32_t sk = node_k(b, src);
			const struct tt_track *st = &r->tracks[r->ev[src].track];
			if (sk != TT_NONE && st->pid == tr->pid && st->stream == tr->stream) {
				/* HTA: "Seeing a CUDA sync between kernels on same
				 * stream", the graph is invalid; the stream's order
				 * already holds */
				b->out->hta_fails |= TT_CP_HTA_SAME_STREAM;
			} else if (sk != TT_NONE) {
				add_edge(b, 2 * sk + 1, sn, TT_CPE_SYNC, 2, false, TT_NONE);
				added = has_sync = true;
				sync_ts = g->ts[2 * sk + 1];
			}
			map_put(&ksync, ev, TT_NONE);
		}
		struct lastk *l = last_find(&last, tr->pid, tr->stream);
		int64_t last_ts = l ? g->ts[l->node] : 0;
		uint32_t launch = tt_launch_of(r, ev);
		int64_t launch_ts = launch != TT_NONE ? ev_ts(c, launch) : 0;
		if (launch != TT_NONE && c->qr[ev] == 1 && c->qk[ev] == 0 &&
		    (!l || last_ts < launch_ts) && (!has_sync || sync_ts < launch_ts)) {
			uint32_t lk = node_k(b, launch);
			if (lk != TT_NONE) {
				add_edge(b, 2 * lk, sn, TT_CPE_LAUNCH, 2, false, TT_NONE);
				added = true;
				if (!hta_node_cat(r, &r->ev[launch]))
					b->out->hta_fails |= TT_CP_HTA_LAUNCH_NODE;
			}
		} else if (l && g->ts[sn] - last_ts < TT_CP_KK_CUT_NS &&
			   (!has_sync || sync_ts < last_ts)) {
			add_edge(b, l->node, sn, TT_CPE_KK, 2, false, g->ev[l->node >> 1]);
			added = true;
		}
		if (!added)
			b->out->st.no_edge++;
		last_set(&last, tr->pid, tr->stream, en);
	}
	map_free(&ksync);
	free(last.v);
	free(v);
}

/* ---- running a window ---- */

const char *tt_cp_status_text(enum tt_cp_status s)
{
	switch (s) {
	case TT_CP_OK:
		return "ok";
	case TT_CP_NO_ANNOTATION:
		return "no event's name contains the annotation";
	case TT_CP_NO_INSTANCE:
		return "no such instance of the annotation";
	case TT_CP_EMPTY:
		return "the window holds no CPU op, runtime call or kernel";
	case TT_CP_CYCLE:
		return "the graph has a cycle: no longest path";
	}
	return "?";
}

int tt_cp_run(struct tt_cp *c, const struct tt_cp_window *w, struct tt_cp_result *out)
{
	const struct tt_rank *r = c->r;
	memset(out, 0, sizeof(*out));
	out->r = r;
	out->ri = c->ri;
	out->rank = r->rank;
	out->wkind = w->kind;
	out->win_ev = TT_NONE;
	if (!c->any_queue)
		out->hta_fails |= TT_CP_HTA_NO_QUEUE;
	int64_t t0, t1;
	if (w->kind == TT_CPW_ANNOT) {
		const uint32_t *rows;
		size_t n = tt_cp_instances(c, w->annotation ? w->annotation : "", &rows);
		out->ninstances = (uint32_t)n;
		out->first = w->first;
		out->last = w->last;
		if (!n) {
			out->status = TT_CP_NO_ANNOTATION;
			return -1;
		}
		if (w->first < 0 || w->last < w->first || (uint64_t)w->first >= n) {
			out->status = TT_CP_NO_INSTANCE;
			return -1;
		}
		/* (HTA slices the rows: a range past the end stops at the end) */
		size_t last = (uint64_t)w->last >= n ? n - 1 : (size_t)w->last;
		out->last = (int64_t)last;
		out->win_ev = rows[w->first];
		t0 = INT64_MAX;
		t1 = INT64_MIN;
		for (size_t i = (size_t)w->first; i <= last; i++) {
			int64_t a = ev_ts(c, rows[i]), z = ev_end(c, rows[i]);
			if (a < t0)
				t0 = a;
			if (z > t1)
				t1 = z;
		}
	} else if (w->kind == TT_CPW_TIME) {
		t0 = w->t0;
		t1 = w->t1;
	} else {
		/* from the first event on (HTA's end is the unshifted absolute
		 * end: nothing is cut at the end) */
		t0 = c->min_ts;
		t1 = INT64_MAX;
	}
	out->t0 = t0;
	out->t1 = t1;

	struct cp_graph g = {.r = r, .sf = c->sf};
	struct build b = {.c = c, .r = r, .g = &g, .out = out};
	clip(&b, t0, t1);
	out->st.clipped = (uint32_t)(b.ncpu + b.ngpu);
	make_nodes(&b);
	phase_lock(&b);
	phase_stacks(&b);
	phase_kernels(&b);
	out->no_gpu = out->st.kernels == 0;
	for (size_t i = 0; i < g.ne; i++)
		out->st.by_phase[g.e[i].phase]++;
	cp_path(&g, &c->o, out);

	map_free(&b.node_of);
	free(b.cpu);
	free(b.gpu);
	free(g.ev);
	free(g.ts);
	free(g.e);
	free(g.nx);
	free(g.nx_node);
	return out->status == TT_CP_OK ? 0 : -1;
}

int tt_critical_path(const struct tt_model *m, size_t ri, const struct tt_cp_window *w,
		     const struct tt_cp_opts *o, struct tt_cp_result *out)
{
	struct tt_cp *c = tt_cp_prepare(m, ri, o);
	int rc = tt_cp_run(c, w, out);
	tt_cp_free(c);
	return rc;
}
