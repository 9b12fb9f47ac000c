/* What ran in a time range: see tracetop/range.h. */
#include "config.h"

#include "tracetop/range.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

struct acc {
	const char *name;
	int kind;
	uint32_t count;
	int64_t ns;
	size_t ri;
	uint32_t nranks;
	bool comm; /* a communication kernel (tt_kernel_type, once per name) */
};

static int acc_by_name(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct acc *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->ri < y->ri ? -1 : x->ri > y->ri;
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

static int gap_by_len(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct tt_range_gap *x = a, *y = b;
	int64_t lx = x->t1 - x->t0, ly = y->t1 - y->t0;
	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* 100 part / whole; NaN when whole is not positive */
static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

void tt_range_compute(const struct tt_model *m, const struct tt_aopts *o, int64_t t0, int64_t t1,
		      struct tt_range *out)
{
	memset(out, 0, sizeof(*out));
	out->t0 = t0;
	out->t1 = t1;
	out->origin = tt_model_origin(m);
	struct acc *acc = NULL;
	size_t nacc = 0, cap_acc = 0, cap_st = 0, cap_gap = 0;
	struct tt_iv *iv = NULL, *all = NULL;
	size_t cap_iv = 0, cap_all = 0;
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(o, r->rank))
			continue;
		struct tt_range_rank *rr = &out->ranks[out->nranks++];
		rr->ri = ri;
		rr->rank = r->rank;
		if (t1 <= t0)
			continue;
		struct tt_hmap idx = {0};
		size_t first_acc = nacc, nall = 0;
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
				uint64_t key = ((uint64_t)(uint32_t)k << 32) | e->name;
				uint32_t *slot = tt_hmap_slot(&idx, key);
				if (*slot == TT_HMAP_NONE) {
					TT_GROW(acc, cap_acc, nacc + 1);
					acc[nacc] = (struct acc){tt_ev_name(r, e), k, 0, 0, ri, 1, false};
					acc[nacc].comm = k == TT_RK_KERNEL &&
							 tt_kernel_type(tt_ev_name(r, e), NULL) ==
								 TT_KT_COMM;
					*slot = (uint32_t)(nacc - first_acc);
					nacc++;
				}
				struct acc *a = &acc[first_acc + *slot];
				a->count++;
				a->ns += in;
				if (k == TT_RK_CPU_OP)
					rr->cpu_ops++;
				if (!gpu)
					continue;
				nev++;
				if (k == TT_RK_KERNEL) {
					rr->kernels++;
					rr->kernel_ns += in;
					kern += in;
					if (a->comm)
						rr->comm_ns += in;
				} else if (k == TT_RK_MEMCPY) {
					rr->memcpy_ns += in;
				} else if (k == TT_RK_MEMSET) {
					rr->memset_ns += in;
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
			TT_GROW(out->streams, cap_st, out->nstreams + 1);
			struct tt_range_stream *st = &out->streams[out->nstreams++];
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
					TT_GROW(out->gaps, cap_gap, out->ngaps + 1);
					out->gaps[out->ngaps++] = (struct tt_range_gap){ri, r->rank, ti, at, end};
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
			memcpy(all + nall, iv, nb * sizeof(*iv));
			nall += nb;
		}
		tt_hmap_free(&idx);
		/* the rank's GPU busy time: the union over its streams */
		size_t nb = tt_iv_merge(all, nall);
		rr->gpu_busy_ns = tt_iv_total(all, nb);
	}
	for (size_t i = 0; i < out->nranks; i++) {
		out->ranks[i].kernel_pct = pct(out->ranks[i].kernel_ns, t1 - t0);
		out->ranks[i].gpu_busy_pct = pct(out->ranks[i].gpu_busy_ns, t1 - t0);
	}
	for (size_t i = 0; i < out->nstreams; i++)
		out->streams[i].busy_pct = pct(out->streams[i].busy_ns, t1 - t0);
	free(iv);
	free(all);
	/* names over the ranks */
	tt_msort(acc, nacc, sizeof(*acc), acc_by_name, NULL);
	out->names = tt_calloc(nacc + 1, sizeof(*out->names));
	for (size_t i = 0; i < nacc; i++) {
		struct tt_range_name *nm = out->nnames ? &out->names[out->nnames - 1] : NULL;
		if (nm && (int)nm->kind == acc[i].kind && strcmp(nm->name, acc[i].name) == 0) {
			nm->count += acc[i].count;
			nm->ns += acc[i].ns;
			nm->nranks++;
			continue;
		}
		nm = &out->names[out->nnames++];
		nm->name = acc[i].name;
		nm->kind = (enum tt_range_kind)acc[i].kind;
		nm->count = acc[i].count;
		nm->ns = acc[i].ns;
		nm->nranks = 1;
	}
	free(acc);
	for (size_t i = 0; i < out->nnames; i++)
		out->names[i].range_pct =
			pct(out->names[i].ns, (t1 - t0) * (int64_t)TT_MAX(out->names[i].nranks, 1));
	tt_msort(out->names, out->nnames, sizeof(*out->names), name_by_time, NULL);
	tt_msort(out->gaps, out->ngaps, sizeof(*out->gaps), gap_by_len, NULL);
}

void tt_range_free(struct tt_range *r)
{
	free(r->ranks);
	free(r->streams);
	free(r->names);
	free(r->gaps);
	memset(r, 0, sizeof(*r));
}
