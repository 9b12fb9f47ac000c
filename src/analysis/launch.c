/* CUDA kernel launch statistics (HTA get_cuda_kernel_launch_stats,
 * metrics.md §7). */
#include "config.h"

#include "tracetop/idle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/sort.h"
#include "tracetop/util.h"

/* the runtime calls HTA pairs (include_memory_events=True) */
static const char *const launch_names[] = {
	"cudaLaunchKernel", "cudaLaunchKernelExC", "runFunction - job_prep_and_submit_for_execution",
	"cudaMemcpyAsync",  "cudaMemsetAsync",
};

/* launch calls HTA's queue length knows but launch stats leave out */
static const char *const ignored_names[] = {
	"cuLaunchKernel",   "cuLaunchKernelEx", "hipLaunchKernel",     "hipExtModuleLaunchKernel",
	"hipMemcpyAsync",   "hipMemsetAsync",   "hipMemcpyWithStream",
};

struct side {
	uint32_t corr;
	uint32_t idx;
	int64_t ts, end;
	uint32_t k, n; /* CPU rows: its GPU rows, [k, k + n) of the GPU side */
	uint32_t pad;
};

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int u32_sort_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return u32_cmp(a, b);
}

/* CPU rows: by start, then event index */
static inline bool start_before(const struct side *x, const struct side *y)
{
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return x->idx < y->idx;
}
TT_STABLE_SORT(sort_by_start, struct side, start_before)

/* both sides for the join: by correlation, then start, then index */
static inline bool corr_before(const struct side *x, const struct side *y)
{
	if (x->corr != y->corr)
		return x->corr < y->corr;
	return start_before(x, y);
}
TT_STABLE_SORT(sort_by_corr, struct side, corr_before)

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* a sum of durations as int64 ns: INT64_MAX (and *clamped set) beyond */
static int64_t clamp_sum(__int128 x, bool *clamped)
{
	if (x <= INT64_MAX)
		return (int64_t)x;
	*clamped = true;
	return INT64_MAX;
}

struct ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	struct tt_launch *l;
	struct tt_launch_rank *out; /* one per model rank */
};

static void rank_work(size_t ri, void *arg)
{
	struct ctx *c = arg;
	const struct tt_rank *r = c->m->ranks[ri];
	struct tt_launch_rank *out = &c->out[ri];
	struct tt_sel s;
	tt_sel_init(&s, c->m, ri, c->o);

	uint32_t ids[TT_ARRAY_SIZE(launch_names)], ign[TT_ARRAY_SIZE(ignored_names)];
	size_t nids = 0, nign = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(launch_names); i++) {
		uint32_t id = tt_strtab_find(&r->strs, launch_names[i], strlen(launch_names[i]));
		if (id != TT_NONE)
			ids[nids++] = id;
	}
	for (size_t i = 0; i < TT_ARRAY_SIZE(ignored_names); i++) {
		uint32_t id = tt_strtab_find(&r->strs, ignored_names[i], strlen(ignored_names[i]));
		if (id != TT_NONE)
			ign[nign++] = id;
	}

	/* L: correlation ids of the listed calls */
	size_t nl = 0, cap = 0;
	uint32_t *L = NULL;
	out->no_gpu = true;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_sel_has(&s, i))
			continue;
		if (e->flags & TT_EF_STREAM)
			out->no_gpu = false;
		if (nign && in_ids(ign, nign, e->name))
			out->n_ignored++;
		if (e->corr == TT_NONE || !nids || !in_ids(ids, nids, e->name))
			continue;
		TT_GROW(L, cap, nl + 1);
		L[nl++] = e->corr;
	}
	/* (these arrive mostly in order: tt_msort sorts runs cheaply) */
	tt_msort(L, nl, sizeof(*L), u32_sort_cmp, NULL);
	/* membership in L: a bit per correlation id where the ids are dense
	 * (at most 32 bits an event of the rank), else a search from the last
	 * one's place (the events of one thread or stream carry ascending
	 * ids, so the next one is usually a few places on) */
	uint64_t *inl = NULL;
	if (nl && L[nl - 1] / 32 <= (uint64_t)r->nev + 64) {
		inl = tt_calloc((size_t)L[nl - 1] / 64 + 1, sizeof(*inl));
		for (size_t i = 0; i < nl; i++)
			inl[L[i] >> 6] |= UINT64_C(1) << (L[i] & 63);
	}
	uint32_t maxl = nl ? L[nl - 1] : 0;

	size_t ncpu = 0, ngpu = 0, capc = 0, capg = 0, at = 0;
	struct side *cpu = NULL, *gpu = NULL;
	for (uint32_t i = 0; nl && i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		uint32_t corr = e->corr;
		if (corr == TT_NONE || corr > maxl || !tt_sel_has(&s, i))
			continue;
		if (inl ? !((inl[corr >> 6] >> (corr & 63)) & 1)
			: !tt_u32_find_from(L, nl, corr, &at))
			continue;
		struct side x = {corr, i, 0, 0, 0, 1, 0};
		x.ts = tt_sel_ts(&s, e);
		x.end = tt_sel_end(&s, e);
		if (e->flags & TT_EF_STREAM) {
			TT_GROW(gpu, capg, ngpu + 1);
			gpu[ngpu++] = x;
		} else {
			TT_GROW(cpu, capc, ncpu + 1);
			cpu[ncpu++] = x;
		}
	}
	free(inl);
	/* a correlation id shared by several calls: paired in time order, the
	 * k-th call with the k-th GPU op, as the model's links are (a cross
	 * product would be quadratic).  Both sides by correlation, walked
	 * together: each call's GPU rows [k, k + n) */
	sort_by_corr(gpu, ngpu);
	sort_by_corr(cpu, ncpu);
	size_t g = 0;
	for (size_t i = 0, j; i < ncpu; i = j) {
		uint32_t corr = cpu[i].corr;
		for (j = i; j < ncpu && cpu[j].corr == corr; j++)
			;
		while (g < ngpu && gpu[g].corr < corr)
			g++;
		size_t ge = g;
		while (ge < ngpu && gpu[ge].corr == corr)
			ge++;
		for (size_t x = i; x < j; x++) {
			if (j - i > 1) { /* the (x - i)-th GPU op, if there is one */
				size_t lo = g + (x - i);
				cpu[x].k = (uint32_t)lo;
				cpu[x].n = lo < ge;
			} else {
				cpu[x].k = (uint32_t)g;
				cpu[x].n = (uint32_t)(ge - g);
			}
		}
		g = ge;
	}
	sort_by_start(cpu, ncpu);

	/* (a GPU row joins one call at most: no more rows than GPU rows) */
	size_t nrows = 0;
	out->rows = tt_malloc((ngpu ? ngpu : 1) * sizeof(*out->rows));
	/* (sums in 128 bits: delays of 8e9 s each overflow int64 at the second) */
	__int128 cpu_sum = 0, gpu_sum = 0, delay_sum = 0;
	for (size_t i = 0; i < ncpu; i++) {
		const struct side *a = &cpu[i];
		for (size_t j = a->k; j < (size_t)a->k + a->n; j++) {
			const struct side *b = &gpu[j];
			struct tt_launch_row *w = &out->rows[nrows++];
			w->corr = a->corr;
			w->cpu = a->idx;
			w->gpu = b->idx;
			w->cpu_dur = a->end - a->ts;
			w->gpu_dur = b->end - b->ts;
			w->delay = b->ts - a->end > 0 ? b->ts - a->end : 0;
			cpu_sum += w->cpu_dur;
			gpu_sum += w->gpu_dur;
			delay_sum += w->delay;
			if (w->delay > out->delay_max)
				out->delay_max = w->delay;
			out->n_runtime_outliers += tt_launch_runtime_outlier(c->l, w);
			out->n_delay_outliers += tt_launch_delay_outlier(c->l, w);
			out->n_short += tt_launch_short_kernel(c->l, w);
		}
	}
	out->nrows = nrows;
	out->cpu_sum = clamp_sum(cpu_sum, &out->sums_clamped);
	out->gpu_sum = clamp_sum(gpu_sum, &out->sums_clamped);
	out->delay_sum = clamp_sum(delay_sum, &out->sums_clamped);
	if (nrows) {
		out->cpu_mean = (double)cpu_sum / (double)nrows;
		out->gpu_mean = (double)gpu_sum / (double)nrows;
		out->delay_mean = (double)delay_sum / (double)nrows;
	}
	free(cpu);
	free(gpu);
	free(L);
	tt_sel_free(&s);
}

struct tt_launch *tt_launch_stats(const struct tt_model *m, const struct tt_aopts *o,
				  double runtime_cutoff_us, double delay_cutoff_us)
{
	struct tt_launch *l = tt_calloc(1, sizeof(*l));
	l->runtime_cutoff_us = runtime_cutoff_us;
	l->delay_cutoff_us = delay_cutoff_us;
	struct ctx c = {m, o, l, tt_calloc(m->nranks + 1, sizeof(struct tt_launch_rank))};
	tt_for_ranks(m, o, rank_work, &c);
	l->ranks = tt_calloc(m->nranks + 1, sizeof(*l->ranks));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		struct tt_launch_rank *w = &l->ranks[l->nranks++];
		*w = c.out[ri];
		w->rank_idx = (uint32_t)ri;
		w->rank = m->ranks[ri]->rank;
	}
	free(c.out);
	return l;
}

void tt_launch_free(struct tt_launch *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nranks; i++)
		free(l->ranks[i].rows);
	free(l->ranks);
	free(l);
}
