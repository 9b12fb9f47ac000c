/* Shared pieces of the analyses: options, HTA's event selection, interval
 * union, kernel classification. */
#include "config.h"

#include "tracetop/analysis.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/pool.h"
#include "tracetop/sort.h"
#include "tracetop/util.h"

bool tt_aopts_has_rank(const struct tt_aopts *o, int64_t rank)
{
	if (!o || !o->ranks)
		return true;
	for (size_t i = 0; i < o->nranks; i++)
		if (o->ranks[i] == rank)
			return true;
	return false;
}

/* ---- HTA selection ---- */

/* the rank memo's slots: the three selections a rank can have, and its
 * step names */
enum { SEL_ALL, SEL_STEPS_INCL, SEL_STEPS_EXCL, SEL_STEP_NAMES };

bool tt_is_step_name(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) != 0)
		return false;
	s += 13;
	return *s >= '0' && *s <= '9';
}

int64_t tt_step_number(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) != 0)
		return -1;
	s += 13;
	if (*s < '0' || *s > '9')
		return -1;
	int64_t v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return *s ? -1 : v;
}

/* The first two distinct step numbers among a rank's strings (kept in the
 * rank's memo: a job without steps would otherwise scan every rank's
 * strings for every rank of every analysis). */
struct rank_steps {
	size_t n;
	int64_t v[2];
};

static void *rank_steps_build(const struct tt_rank *r, void *ctx)
{
	(void)ctx;
	struct rank_steps *st = tt_calloc(1, sizeof(*st));
	for (uint32_t id = 0; id < r->strs.n && st->n < 2; id++) {
		const char *s = tt_str(r, id);
		if (!tt_is_step_name(s))
			continue;
		int64_t v = strtoll(s + 13, NULL, 10);
		if (st->n == 0 || st->v[0] != v)
			st->v[st->n++] = v;
	}
	return st;
}

/* HTA counts ProfilerStep#N names in the symbol table of all ranks (names
 * and categories alike): the number of distinct ones, up to 2.  Counted
 * once per model (every rank's selection asks). */
static size_t step_names(const struct tt_model *m)
{
	struct tt_model *mm = (struct tt_model *)m; /* (the count is not part of the model) */
	int known = atomic_load_explicit(&mm->step_names, memory_order_relaxed);
	if (known)
		return (size_t)known - 1;
	size_t n = 0;
	int64_t steps[2];
	for (size_t ri = 0; ri < m->nranks && n < 2; ri++) {
		const struct rank_steps *st =
			tt_rank_memo(m->ranks[ri], SEL_STEP_NAMES, rank_steps_build, NULL, free);
		for (size_t k = 0; k < st->n && n < 2; k++)
			if (n == 0 || steps[0] != st->v[k])
				steps[n++] = st->v[k];
	}
	atomic_store_explicit(&mm->step_names, (int)n + 1, memory_order_relaxed);
	return n;
}

static bool gpu_side(const struct tt_rank *r, const struct tt_event *e, uint32_t sync1,
		     uint32_t sync2)
{
	if (e->corr == TT_NONE)
		return false;
	return (e->flags & TT_EF_STREAM) || e->name == sync1 || e->name == sync2;
}

static inline bool u32_before(const uint32_t *a, const uint32_t *b)
{
	return *a < *b;
}
TT_STABLE_SORT(u32_sort, uint32_t, u32_before)

/* The kept events of one rank: a bit per event (shared through the rank's
 * memo, never changed once built). */
struct sel_bits {
	uint64_t *keep;
	uint32_t nkept;
};

struct sel_ctx {
	bool filter; /* drop the last step (HTA's iteration filter) */
	bool incl;   /* ... but keep it (--all-steps) */
};

static void sel_bits_free(void *p)
{
	struct sel_bits *b = p;
	free(b->keep);
	free(b);
}

static void *sel_build(const struct tt_rank *r, void *ctx)
{
	const struct sel_ctx *c = ctx;
	struct sel_bits *out = tt_calloc(1, sizeof(*out));
	size_t words = ((size_t)r->nev + 63) / 64 + 1;
	uint64_t *keep = tt_calloc(words, sizeof(*keep));
	uint32_t nkept = 0;
	out->keep = keep;
	if (!c->filter) {
		for (uint32_t i = 0; i < r->nev; i++)
			if (tt_hta_parsed(r, &r->ev[i])) {
				keep[i >> 6] |= UINT64_C(1) << (i & 63);
				nkept++;
			}
		out->nkept = nkept;
		return out;
	}
	/* (a selection that rounds as HTA does, to compare times) */
	struct tt_sel s = {.r = r, .round = r->hta_round};
	uint32_t sync1 = tt_strtab_find(&r->strs, "Event Sync", 10);
	uint32_t sync2 = tt_strtab_find(&r->strs, "Context Sync", 12);
	/* the step names of this rank, by string id */
	uint8_t *is_step = tt_calloc(r->strs.n + 1, 1);
	for (uint32_t id = 0; id < r->strs.n; id++)
		is_step[id] = tt_is_step_name(tt_str(r, id));
	/* last ProfilerStep start among CPU-side events (HTA rounds first);
	 * the GPU-side events listed for the last pass */
	int64_t last_start = INT64_MIN, last_end = INT64_MIN, first_cpu = INT64_MAX;
	size_t ngpu = 0, gcap = 0;
	uint32_t *gpu = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e))
			continue;
		if (gpu_side(r, e, sync1, sync2)) {
			TT_GROW(gpu, gcap, ngpu + 1);
			gpu[ngpu++] = i;
			continue;
		}
		int64_t ts = tt_sel_ts(&s, e);
		if (ts < first_cpu)
			first_cpu = ts;
		if (e->name < r->strs.n && is_step[e->name] && ts > last_start) {
			last_start = ts;
			last_end = tt_sel_end(&s, e);
		}
	}
	free(is_step);
	if (last_start == INT64_MIN)
		last_start = first_cpu; /* no step of its own: HTA keeps nothing */
	size_t nc = 0, cc = 0;
	uint32_t *corrs = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || gpu_side(r, e, sync1, sync2))
			continue;
		int64_t ts = tt_sel_ts(&s, e);
		bool keep_it = c->incl ? ts <= last_end : ts < last_start;
		if (!keep_it)
			continue;
		keep[i >> 6] |= UINT64_C(1) << (i & 63);
		nkept++;
		if (e->corr != TT_NONE) {
			TT_GROW(corrs, cc, nc + 1);
			corrs[nc++] = e->corr;
		}
	}
	/* the kept correlation ids: a bit each when they are not too sparse
	 * (ids count up from 0 in a trace), else sorted and searched */
	uint32_t cmax = 0;
	for (size_t k = 0; k < nc; k++)
		cmax = corrs[k] > cmax ? corrs[k] : cmax;
	uint64_t *cbits = NULL;
	if (nc && (uint64_t)cmax < 64 * ((uint64_t)r->nev + 1024)) {
		cbits = tt_calloc((size_t)cmax / 64 + 1, sizeof(*cbits));
		for (size_t k = 0; k < nc; k++)
			cbits[corrs[k] >> 6] |= UINT64_C(1) << (corrs[k] & 63);
	} else {
		u32_sort(corrs, nc); /* (mostly ascending) */
	}
	size_t at = 0; /* (a stream's ops carry ascending ids: each search goes on from the last) */
	for (size_t k = 0; k < ngpu && nc; k++) {
		uint32_t i = gpu[k];
		const struct tt_event *e = &r->ev[i];
		bool in;
		if (cbits)
			in = e->corr <= cmax && (cbits[e->corr >> 6] >> (e->corr & 63) & 1);
		else
			in = tt_u32_find_from(corrs, nc, e->corr, &at);
		if (in) {
			keep[i >> 6] |= UINT64_C(1) << (i & 63);
			nkept++;
		}
	}
	free(cbits);
	free(corrs);
	free(gpu);
	out->nkept = nkept;
	return out;
}

void tt_sel_init(struct tt_sel *s, const struct tt_model *m, size_t ri, const struct tt_aopts *o)
{
	const struct tt_rank *r = m->ranks[ri];
	struct sel_ctx c = {
		.filter = !(o && o->exact) && step_names(m) >= 2,
		.incl = o && o->include_last_step,
	};
	unsigned slot = !c.filter ? SEL_ALL : c.incl ? SEL_STEPS_INCL : SEL_STEPS_EXCL;
	const struct sel_bits *b = tt_rank_memo(r, slot, sel_build, &c, sel_bits_free);
	s->r = r;
	s->keep = b->keep;
	s->nkept = b->nkept;
	s->round = !(o && o->exact) && r->hta_round;
}

void tt_sel_free(struct tt_sel *s)
{
	s->keep = NULL; /* (the bits belong to the rank's memo) */
}

/* ---- intervals ---- */

/* Sort v by start: its sorted runs (typically one per stream or thread)
 * merged pairwise, without a comparison function.  (By start alone: the
 * union tt_iv_merge makes does not depend on the order of the ends, and
 * ops nested on a thread, a longer one first at the same start, stay one
 * run.) */
static void iv_sort(struct tt_iv *v, size_t n)
{
	if (n < 2)
		return;
	size_t nr = 0, cap = 0, *run = NULL; /* run starts, then n */
	TT_GROW(run, cap, 2);
	run[nr++] = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i].ts < v[i - 1].ts) {
			TT_GROW(run, cap, nr + 2);
			run[nr++] = i;
		}
	run[nr] = n;
	if (nr == 1) {
		free(run);
		return;
	}
	struct tt_iv *tmp = tt_malloc(n * sizeof(*tmp)), *src = v, *dst = tmp;
	while (nr > 1) {
		size_t w = 0;
		for (size_t k = 0; k < nr; k += 2) {
			size_t a = run[k], am = run[k + 1];
			if (k + 1 < nr) {
				size_t b = am, bm = run[k + 2], o = a;
				while (a < am && b < bm)
					dst[o++] = src[b].ts < src[a].ts ? src[b++] : src[a++];
				while (a < am)
					dst[o++] = src[a++];
				while (b < bm)
					dst[o++] = src[b++];
			} else {
				memcpy(dst + a, src + a, (am - a) * sizeof(*dst));
			}
			run[w++] = run[k];
		}
		run[w] = n;
		nr = w;
		struct tt_iv *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(run);
}

size_t tt_iv_merge(struct tt_iv *v, size_t n)
{
	if (!n)
		return 0;
	iv_sort(v, n);
	size_t k = 0;
	int64_t m = v[0].end;
	for (size_t i = 1; i < n; i++) {
		if (v[i].ts > m) {
			k++;
			v[k] = v[i];
			m = v[i].end;
		} else {
			if (v[i].end > m)
				m = v[i].end;
			if (v[i].end > v[k].end)
				v[k].end = v[i].end;
		}
	}
	return k + 1;
}

int64_t tt_iv_total(const struct tt_iv *v, size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		tt_sat_acc(&t, v[i].end - v[i].ts);
	return t;
}

/* ---- classification ---- */

/* ---- intervals ---- */

int64_t tt_iv_inter(const struct tt_iv *v, size_t n, int64_t a, int64_t b)
{
	if (b <= a || !n)
		return 0;
	/* first block ending after a */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t sum = 0;
	for (size_t i = lo; i < n && v[i].ts < b; i++) {
		int64_t s = v[i].ts > a ? v[i].ts : a, e = v[i].end < b ? v[i].end : b;
		if (e > s)
			tt_sat_acc(&sum, e - s);
	}
	return sum;
}

size_t tt_iv_and(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
			struct tt_iv **out)
{
	size_t cap = 0, n = 0, i = 0, j = 0;
	struct tt_iv *v = NULL;
	while (i < na && j < nb) {
		int64_t s = TT_MAX(a[i].ts, b[j].ts), e = TT_MIN(a[i].end, b[j].end);
		if (e > s) {
			TT_GROW(v, cap, n + 1);
			v[n].ts = s;
			v[n].end = e;
			n++;
		}
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	*out = v;
	return n;
}


size_t tt_iv_sub(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
		 struct tt_iv **out)
{
	size_t cap = 0, n = 0, j = 0;
	struct tt_iv *v = NULL;
	for (size_t i = 0; i < na; i++) {
		int64_t s = a[i].ts, e = a[i].end;
		while (j < nb && b[j].end <= s)
			j++;
		for (size_t k = j; k < nb && b[k].ts < e; k++) {
			if (b[k].ts > s) {
				TT_GROW(v, cap, n + 1);
				v[n++] = (struct tt_iv){s, b[k].ts};
			}
			if (b[k].end > s)
				s = b[k].end;
		}
		if (e > s) {
			TT_GROW(v, cap, n + 1);
			v[n++] = (struct tt_iv){s, e};
		}
	}
	*out = v;
	return n;
}

const char *tt_ktype_name(enum tt_ktype t)
{
	static const char *const n[] = {"COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"};
	return (unsigned)t < 4 ? n[t] : "OTHER";
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

enum tt_ktype tt_kernel_type(const char *name, const char **rule)
{
	const char *why;
	enum tt_ktype t;
	if (starts(name, "nccl")) {
		why = "name starts with 'nccl'";
		t = TT_KT_COMM;
	} else if (starts(name, "hip")) {
		why = "name starts with 'hip'";
		t = TT_KT_COMM;
	} else if (starts(name, "hccl")) {
		why = "name starts with 'hccl'";
		t = TT_KT_COMM;
	} else if (strstr(name, "ncclKernel")) {
		why = "name contains 'ncclKernel'";
		t = TT_KT_COMM;
	} else if (strcasestr(name, "nccl") || strcasestr(name, "rccl")) {
		/* tracetop's own rule, beyond HTA: NCCL/RCCL kernels whatever their
		 * prefix or case ("void ncclDevKernel_...", "NCCL...") */
		why = "name contains 'nccl' or 'rccl' in any case (tracetop rule)";
		t = TT_KT_COMM;
	} else if (starts(name, "Memcpy") || starts(name, "Memset") || starts(name, "dma")) {
		why = starts(name, "Memcpy") ? "name starts with 'Memcpy'" :
		      starts(name, "Memset") ? "name starts with 'Memset'" :
					       "name starts with 'dma'";
		t = TT_KT_MEM;
	} else if (strstr(name, "Memcpy") || strstr(name, "Memset") || strstr(name, "dma") ||
		   strstr(name, "Sync") || starts(name, "Stream Wait Event") ||
		   starts(name, "runFunction") || starts(name, "job_exe") ||
		   starts(name, "packet") || starts(name, "pe_exe") ||
		   starts(name, "cpum_exe_subgraph") || starts(name, "collective_subgraph_execution")) {
		why = "name contains Memcpy/Memset/dma/Sync or names a runtime/MTIA step";
		t = TT_KT_OTHER;
	} else if (starts(name, "cuda") && strstr(name, "LaunchKernel")) {
		why = "name matches 'cuda.*LaunchKernel'";
		t = TT_KT_OTHER;
	} else {
		why = "any other name";
		t = TT_KT_COMP;
	}
	if (rule)
		*rule = why;
	return t;
}

/* ---- per-rank work on a pool of threads ---- */

struct for_ranks {
	const struct tt_model *m;
	const struct tt_aopts *o;
	void (*fn)(size_t, void *);
	void *ctx;
};

static void rank_item(size_t ri, void *arg)
{
	struct for_ranks *p = arg;
	if (tt_aopts_has_rank(p->o, p->m->ranks[ri]->rank))
		p->fn(ri, p->ctx);
}

void tt_for_ranks(const struct tt_model *m, const struct tt_aopts *o,
		  void (*fn)(size_t ri, void *ctx), void *ctx)
{
	struct for_ranks p = {m, o, fn, ctx};
	tt_parallel_for(m->nranks, o && o->threads > 0 ? o->threads : 0, rank_item, &p);
}
