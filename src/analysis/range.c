/* What ran in a time range: see tracetop/range.h. */
#include "config.h"

#include "tracetop/range.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/util.h"

const char *tt_range_kind_name(enum tt_range_kind k)
{
	static const char *const names[TT_RK_COUNT] = {
		[TT_RK_KERNEL] = "kernel", [TT_RK_MEMCPY] = "memcpy", [TT_RK_MEMSET] = "memset",
		[TT_RK_CPU_OP] = "cpu_op", [TT_RK_RUNTIME] = "runtime",
	};
	return (unsigned)k < TT_RK_COUNT ? names[k] : "?";
}

int tt_range_event_kind(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->flags & TT_EF_MARKER)
		return -1;
	switch (tt_ev_kind(r, e)) {
	case TT_K_KERNEL:
		return TT_RK_KERNEL;
	case TT_K_MEMCPY:
		return TT_RK_MEMCPY;
	case TT_K_MEMSET:
		return TT_RK_MEMSET;
	case TT_K_CPU_OP:
		return TT_RK_CPU_OP;
	case TT_K_RUNTIME:
	case TT_K_DRIVER:
		return TT_RK_RUNTIME;
	default:
		return -1;
	}
}

/* the part of event e inside [t0, t1); -1 when it does not count */
static int64_t inside(const struct tt_event *e, int64_t t0, int64_t t1)
{
	int64_t a = e->ts, b = tt_ev_end(e);
	if (e->dur == 0)
		return a >= t0 && a < t1 ? 0 : -1;
	if (a >= t1 || b <= t0)
		return -1;
	return TT_MIN(b, t1) - TT_MAX(a, t0);
}

/* One rank's share of a range, computed on a thread of its own: its line,
 * its streams and gaps (in track and time order), and its names with their
 * text's hash, merged across the ranks afterwards. */
struct part_name {
	const char *name;
	uint64_t hash;
	int kind;
	uint32_t count;
	int64_t ns;
};

struct part {
	bool used;
	struct tt_range_rank rr;
	struct tt_range_stream *streams;
	size_t nstreams;
	struct tt_range_gap *gaps;
	size_t ngaps;
	struct part_name *names;
	size_t nnames;
};

struct job {
	const struct tt_model *m;
	int64_t t0, t1;
	struct part *parts; /* per rank index */
};

static uint64_t text_hash(const char *s, int kind)
{
	uint64_t h = UINT64_C(1469598103934665603) ^ (uint64_t)(unsigned)kind;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

static int name_by_time(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct tt_range_name *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The gaps longest first, ties in the order they were made (by rank,
 * track and start): a stable radix sort by length, as there may be
 * hundreds of thousands. */
static void sort_gaps(struct tt_range_gap *g, size_t n)
{
	struct gk {
		uint64_t key; /* the longest first: top - length */
		uint64_t i;
	} *a = tt_malloc((n + 1) * sizeof(*a)), *b = tt_malloc((n + 1) * sizeof(*b));
	uint64_t top = 0;
	for (size_t i = 0; i < n; i++)
		top = TT_MAX(top, (uint64_t)(g[i].t1 - g[i].t0));
	for (size_t i = 0; i < n; i++) {
		a[i].key = top - (uint64_t)(g[i].t1 - g[i].t0);
		a[i].i = i;
	}
	size_t cnt[2049];
	for (int shift = 0; shift < 64 && (top >> shift); shift += 11) {
		memset(cnt, 0, sizeof(cnt));
		for (size_t i = 0; i < n; i++)
			cnt[(a[i].key >> shift & 2047) + 1]++;
		for (int d = 0; d < 2048; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			b[cnt[a[i].key >> shift & 2047]++] = a[i];
		struct gk *t = a;
		a = b;
		b = t;
	}
	struct tt_range_gap *v = tt_malloc((n + 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = g[a[i].i];
	if (n)
		memcpy(g, v, n * sizeof(*g));
	free(v);
	free(a);
	free(b);
}

/* 100 part / whole; NaN when whole is not positive */
static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/* rank ri's part of the range */
static void range_rank(size_t ri, void *ctx)
{
	struct job *j = ctx;
	const struct tt_rank *r = j->m->ranks[ri];
	int64_t t0 = j->t0, t1 = j->t1;
	struct part *pt = &j->parts[ri];
	pt->used = true;
	struct tt_range_rank *rr = &pt->rr;
	rr->ri = ri;
	rr->rank = r->rank;
	if (t1 <= t0)
		return;
	size_t cap_name = 0, cap_st = 0, cap_gap = 0, cap_iv = 0, cap_all = 0, nall = 0;
	struct tt_iv *iv = NULL, *all = NULL;
	/* (name id, kind) -> 1 + index into pt->names (0: none yet) */
	uint32_t *idx = tt_calloc(((size_t)r->strs.n + 1) * TT_RK_COUNT, sizeof(*idx));
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		bool gpu = tr->kind == TT_TRACK_GPU;
		if (!gpu && tr->kind != TT_TRACK_CPU)
			continue;
		uint32_t lo, hi;
		tt_track_window(r, tr, t0, t1, &lo, &hi);
		size_t niv = 0;
		uint32_t nev = 0;
		int64_t kern = 0;
		for (uint32_t i = lo; i < hi; i++) {
			const struct tt_event *e = &r->ev[i];
			int k = tt_range_event_kind(r, e);
			if (k < 0)
				continue;
			int64_t in = inside(e, t0, t1);
			if (in < 0)
				continue;
			/* by name and kind */
			size_t key = (size_t)(e->name < r->strs.n ? e->name : r->strs.n) * TT_RK_COUNT +
				     (size_t)k;
			if (!idx[key]) {
				TT_GROW(pt->names, cap_name, pt->nnames + 1);
				const char *nm = tt_ev_name(r, e);
				pt->names[pt->nnames] = (struct part_name){nm, text_hash(nm, k), k, 0, 0};
				idx[key] = (uint32_t)++pt->nnames;
			}
			struct part_name *a = &pt->names[idx[key] - 1];
			a->count++;
			tt_sat_acc(&a->ns, in);
			if (k == TT_RK_CPU_OP)
				rr->cpu_ops++;
			if (!gpu)
				continue;
			nev++;
			if (k == TT_RK_KERNEL) {
				rr->kernels++;
				tt_sat_acc(&rr->kernel_ns, in);
				/* (its communication share: by name, once merged) */
				tt_sat_acc(&kern, in);
			} else if (k == TT_RK_MEMCPY) {
				tt_sat_acc(&rr->memcpy_ns, in);
			} else if (k == TT_RK_MEMSET) {
				tt_sat_acc(&rr->memset_ns, in);
			}
			if (in > 0) {
				TT_GROW(iv, cap_iv, niv + 1);
				iv[niv++] = (struct tt_iv){TT_MAX(e->ts, t0), TT_MIN(tt_ev_end(e), t1)};
			}
		}
		if (!gpu || !nev)
			continue;
		/* the stream: busy time and the gaps between its blocks */
		size_t nb = tt_iv_merge(iv, niv);
		TT_GROW(pt->streams, cap_st, pt->nstreams + 1);
		struct tt_range_stream *st = &pt->streams[pt->nstreams++];
		memset(st, 0, sizeof(*st));
		st->ri = ri;
		st->rank = r->rank;
		st->track = ti;
		st->device = tr->device;
		st->stream = tr->stream;
		st->events = nev;
		st->kernel_ns = kern;
		st->busy_ns = tt_iv_total(iv, nb);
		st->max_gap_t0 = t0;
		rr->streams++;
		int64_t at = t0;
		for (size_t b = 0; b <= nb; b++) {
			int64_t end = b < nb ? iv[b].ts : t1;
			if (end > at) {
				TT_GROW(pt->gaps, cap_gap, pt->ngaps + 1);
				pt->gaps[pt->ngaps++] = (struct tt_range_gap){ri, r->rank, ti, at, end};
				st->gaps++;
				if (end - at > st->max_gap_ns) {
					st->max_gap_ns = end - at;
					st->max_gap_t0 = at;
				}
			}
			if (b < nb)
				at = TT_MAX(at, iv[b].end);
		}
		TT_GROW(all, cap_all, nall + nb);
		if (nb) /* (a stream with no interval in the range: iv may be NULL) */
			memcpy(all + nall, iv, nb * sizeof(*iv));
		nall += nb;
	}
	free(idx);
	/* the rank's GPU busy time: the union over its streams */
	size_t nb = tt_iv_merge(all, nall);
	rr->gpu_busy_ns = tt_iv_total(all, nb);
	free(iv);
	free(all);
}

void tt_range_compute(const struct tt_model *m, const struct tt_aopts *o, int64_t t0, int64_t t1,
		      struct tt_range *out)
{
	memset(out, 0, sizeof(*out));
	out->t0 = t0;
	out->t1 = t1;
	out->origin = tt_model_origin(m);
	/* each rank on a thread, then their parts in rank order */
	struct job j = {m, t0, t1, tt_calloc(m->nranks + 1, sizeof(struct part))};
	tt_for_ranks(m, o, range_rank, &j);
	size_t nst = 0, ngap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		nst += j.parts[ri].nstreams;
		ngap += j.parts[ri].ngaps;
	}
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	out->streams = tt_calloc(nst + 1, sizeof(*out->streams));
	out->gaps = tt_calloc(ngap + 1, sizeof(*out->gaps));
	/* the names over the ranks: one entry per (kind, name), found by the
	 * name's text (each rank interns its own) */
	struct tt_hmap nidx = {0};
	size_t cap_names = 0, cap_comm = 0;
	bool *comm = NULL; /* per name: a communication kernel (tt_kernel_type, once) */
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct part *pt = &j.parts[ri];
		if (!pt->used)
			continue;
		struct tt_range_rank *rr = &out->ranks[out->nranks++];
		*rr = pt->rr;
		if (pt->nstreams)
			memcpy(out->streams + out->nstreams, pt->streams,
			       pt->nstreams * sizeof(*pt->streams));
		out->nstreams += pt->nstreams;
		if (pt->ngaps)
			memcpy(out->gaps + out->ngaps, pt->gaps, pt->ngaps * sizeof(*pt->gaps));
		out->ngaps += pt->ngaps;
		for (size_t i = 0; i < pt->nnames; i++) {
			const struct part_name *a = &pt->names[i];
			size_t pos;
			uint32_t v = tt_hmap_first(&nidx, a->hash, &pos);
			while (v != TT_HMAP_NONE && ((int)out->names[v].kind != a->kind ||
						     strcmp(out->names[v].name, a->name) != 0))
				v = tt_hmap_next(&nidx, a->hash, &pos);
			if (v == TT_HMAP_NONE) {
				TT_GROW(out->names, cap_names, out->nnames + 1);
				TT_GROW(comm, cap_comm, out->nnames + 1);
				v = (uint32_t)out->nnames++;
				memset(&out->names[v], 0, sizeof(out->names[v]));
				out->names[v].name = a->name;
				out->names[v].kind = (enum tt_range_kind)a->kind;
				comm[v] = a->kind == TT_RK_KERNEL &&
					  tt_kernel_type(a->name, NULL) == TT_KT_COMM;
				tt_hmap_add(&nidx, a->hash, v);
			}
			if (comm[v])
				tt_sat_acc(&rr->comm_ns, a->ns);
			out->names[v].count += a->count;
			tt_sat_acc(&out->names[v].ns, a->ns);
			out->names[v].nranks++;
		}
		free(pt->streams);
		free(pt->gaps);
		free(pt->names);
	}
	free(j.parts);
	free(comm);
	tt_hmap_free(&nidx);
	if (!out->names)
		out->names = tt_calloc(1, sizeof(*out->names));
	for (size_t i = 0; i < out->nranks; i++) {
		out->ranks[i].kernel_pct = pct(out->ranks[i].kernel_ns, t1 - t0);
		out->ranks[i].gpu_busy_pct = pct(out->ranks[i].gpu_busy_ns, t1 - t0);
	}
	for (size_t i = 0; i < out->nstreams; i++)
		out->streams[i].busy_pct = pct(out->streams[i].busy_ns, t1 - t0);
	for (size_t i = 0; i < out->nnames; i++)
		out->names[i].range_pct =
			pct(out->names[i].ns, (t1 - t0) * (int64_t)TT_MAX(out->names[i].nranks, 1));
	tt_msort(out->names, out->nnames, sizeof(*out->names), name_by_time, NULL);
	sort_gaps(out->gaps, out->ngaps);
}

void tt_range_free(struct tt_range *r)
{
	free(r->ranks);
	free(r->streams);
	free(r->names);
	free(r->gaps);
	memset(r, 0, sizeof(*r));
}
