/* Collectives matched across ranks: see collectives.h.
 *
 * Per rank (in parallel): the communication kernels, grouped into parts
 * (the kernels launched under one CPU collective op), each named, sized and
 * put in its process group.  Then, once over all parts: group sequences,
 * their alignment at a common step, the matching by (group, position) in
 * one hash map, the checks, the clock offsets and the waits. */
#include "config.h"

#include "tracetop/collectives.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/distributed.h"
#include "tracetop/hmap.h"
#include "tracetop/operators.h"
#include "tracetop/steps.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"
#include "optree.h"

/* ==== one rank: its parts ==== */

struct rpart {
	char name[64];
	char pg[64];          /* "" none */
	const char *source;
	const char *pg_source;
	uint32_t pg_ranks;    /* string id of the rank (Process Group Ranks), TT_NONE */
	int64_t group_size;   /* -1 */
	uint32_t kernel, nkernels, cpu, launch, track;
	int64_t ts, end, dur, launch_ts, bytes;
	int64_t step;         /* N of the step its launch lies in, -1 */
	int64_t skey;         /* where in the steps: 2N inside step N, 2N + 1
			       * after it (before the next), -1 before the
			       * first, -2 on a rank without steps */
	int64_t stream;       /* of the first kernel */
	int stream_ord;       /* its place among the rank's communication streams */
};

struct rkern {
	uint32_t ev, part;
};

struct rank_out {
	bool sel;
	struct rpart *p;
	size_t n;
	struct rkern *k;
	size_t nk;
	char host[64];
};

struct ctx {
	const struct tt_model *m;
	struct rank_out *r;
};

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int64_t comm_bytes(const struct tt_rank *r, const struct tt_comm *c)
{
	if (c->dtype == TT_NONE)
		return -1;
	int64_t ne = c->in_nelems >= 0 ? c->in_nelems : c->out_nelems;
	int size = tt_tb_dtype_size(tt_str(r, c->dtype), tt_strtab_len(&r->strs, c->dtype));
	if (ne < 0 || size <= 0 || ne > INT64_MAX / size)
		return -1; /* (not known, or more bytes than an int64 holds) */
	return ne * size;
}

static const struct tt_comm *op_comm(const struct tt_rank *r, const struct tt_event *e)
{
	if (!(e->flags & TT_EF_OPINFO))
		return NULL;
	uint32_t c = r->opinfo[e->aux].comm;
	return c != TT_NONE && c < r->ncomm ? &r->comm[c] : NULL;
}

static void copy_name(char *dst, const char *s, size_t n)
{
	if (n > 63)
		n = 63;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "ncclKernel_AllReduce_RING_LL_Sum_float(...)" -> "AllReduce" */
static void name_from_kernel(char *dst, const char *k)
{
	const char *p = strstr(k, "Kernel_");
	if (p) {
		p += 7;
		size_t n = strcspn(p, "_(<");
		if (n) {
			copy_name(dst, p, n);
			return;
		}
	}
	copy_name(dst, k, strcspn(k, "("));
}

/* the process group of a tt_comm, if it names one */
static void take_pg(const struct tt_rank *r, const struct tt_comm *cm, struct rpart *c,
		    const char *src)
{
	if (c->pg[0] || !cm || cm->pg == TT_NONE || !tt_strtab_len(&r->strs, cm->pg))
		return;
	copy_name(c->pg, tt_str(r, cm->pg), tt_strtab_len(&r->strs, cm->pg));
	c->pg_source = src;
	c->pg_ranks = cm->pg_ranks;
	c->group_size = cm->group_size;
}

/* Name, size, group and CPU op of one communication kernel (as
 * distributed.h describes the calls). */
static void describe(const struct tt_rank *r, const struct tt_optree *t, uint32_t i,
		     struct rpart *c)
{
	const struct tt_event *e = &r->ev[i];
	memset(c, 0, sizeof(*c));
	c->cpu = TT_NONE;
	c->bytes = -1;
	c->pg_ranks = TT_NONE;
	c->group_size = -1;
	if (e->flags & TT_EF_KINFO) {
		uint32_t ci = r->kinfo[e->aux].comm;
		if (ci != TT_NONE && ci < r->ncomm) {
			const struct tt_comm *cm = &r->comm[ci];
			if (cm->name != TT_NONE && tt_strtab_len(&r->strs, cm->name)) {
				copy_name(c->name, tt_str(r, cm->name),
					  tt_strtab_len(&r->strs, cm->name));
				c->source = "kernel args";
			}
			c->bytes = comm_bytes(r, cm);
			take_pg(r, cm, c, "kernel args");
		}
	}
	uint32_t launch = tt_launch_of(r, i);
	c->launch = launch;
	uint32_t a = launch != TT_NONE ? t->owner[launch] : TT_NONE;
	/* the whole chain of collective ops decides: collective args win over
	 * an annotation's name, which wins over a c10d op's; sizes from
	 * collective args win over Input Dims; the innermost wins a tie */
	bool found = false;
	int name_prio = c->name[0] ? 4 : 0, bytes_prio = c->bytes >= 0 ? 4 : 0;
	for (int depth = 0; a != TT_NONE && depth < 12; a = t->parent[a], depth++) {
		const struct tt_event *op = &r->ev[a];
		const char *nm = tt_ev_name(r, op);
		const struct tt_comm *cm = op_comm(r, op);
		const char *name = NULL, *src = NULL;
		size_t nlen = 0;
		int prio = 0;
		if (cm && cm->name != TT_NONE && tt_strtab_len(&r->strs, cm->name)) {
			name = tt_str(r, cm->name);
			nlen = tt_strtab_len(&r->strs, cm->name);
			src = "record_param_comms";
			prio = 3;
		} else if (starts(nm, "nccl:") || starts(nm, "gloo:") || starts(nm, "ucc:") ||
			   starts(nm, "mpi:") || starts(nm, "xccl:")) {
			name = strchr(nm, ':') + 1;
			nlen = strlen(name);
			src = "annotation";
			prio = 2;
		} else if (starts(nm, "c10d::")) {
			name = nm + 6;
			nlen = strlen(name);
			src = "c10d op";
			prio = 1;
		}
		bool collective = name || cm || strcmp(nm, "record_param_comms") == 0;
		if (!collective) {
			if (found)
				break; /* left the collective's ops */
			continue;      /* ops the library wraps around the launch */
		}
		found = true;
		if (c->cpu == TT_NONE)
			c->cpu = a;
		take_pg(r, cm, c, "record_param_comms");
		if (name && prio > name_prio) {
			copy_name(c->name, name, nlen);
			c->source = src;
			name_prio = prio;
		}
		int64_t b = -1;
		if (cm && bytes_prio < 2 && (b = comm_bytes(r, cm)) >= 0) {
			c->bytes = b;
			bytes_prio = 2;
		}
		if (bytes_prio < 1 && (op->flags & TT_EF_OPINFO)) {
			const struct tt_opinfo *oi = &r->opinfo[op->aux];
			if (oi->input_dims != TT_NONE && oi->input_type != TT_NONE)
				b = tt_tb_input_bytes(tt_str(r, oi->input_dims),
						      tt_str(r, oi->input_type));
			if (b > 0) {
				c->bytes = b;
				bytes_prio = 1;
			}
		}
	}
	if (!c->name[0]) {
		name_from_kernel(c->name, tt_ev_name(r, e));
		c->source = "kernel name";
	}
	/* strip trailing '_' of c10d names ("allreduce_") */
	size_t l = strlen(c->name);
	while (l > 1 && c->name[l - 1] == '_')
		c->name[--l] = '\0';
}

static int rpart_cmp(const void *a, const void *b, void *ctx)
{
	const struct rpart *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

/* indices into the parts (ctx) by rpart_cmp */
static int rpart_ix_cmp(const void *a, const void *b, void *ctx)
{
	const struct rpart *v = ctx;
	return rpart_cmp(&v[*(const uint32_t *)a], &v[*(const uint32_t *)b], NULL);
}

static int rkern_cmp(const void *a, const void *b, void *ctx)
{
	const struct rkern *x = a, *y = b;
	(void)ctx;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int i64_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

static void host_of(const struct tt_rank *r, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < r->meta.nkv; i++) {
		const struct tt_meta_kv *kv = &r->meta.kv[i];
		if (strcmp(kv->key, "host_name") != 0 && strcmp(kv->key, "hostname") != 0)
			continue;
		const char *v = kv->value;
		if (!v || v[0] != '"' || !v[1] || v[1] == '"')
			continue;
		size_t l = strlen(v + 1);
		if (l && v[l] == '"')
			l--; /* (JSON text: strip the quotes) */
		snprintf(buf, n, "%.*s", (int)l, v + 1);
	}
}

/* Where t lies among the steps st[0..n) (by CPU start): the step key
 * (rpart.skey) and the number of the step holding it (-1). */
static int64_t step_key(const struct tt_step *st, size_t n, int64_t t, int64_t *step)
{
	*step = -1;
	if (!n)
		return -2;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st[mid].cpu_ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	const struct tt_step *s = &st[lo - 1];
	if (t < s->cpu_ts + s->cpu_dur) {
		*step = s->num;
		return 2 * s->num;
	}
	return 2 * s->num + 1;
}

static int step_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_step *x = a, *y = b;
	(void)ctx;
	if (x->cpu_ts != y->cpu_ts)
		return x->cpu_ts < y->cpu_ts ? -1 : 1;
	return x->num < y->num ? -1 : x->num > y->num;
}

static void rank_work(size_t ri, void *vctx)
{
	struct ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct rank_out *d = &c->r[ri];
	d->sel = true;
	host_of(r, d->host, sizeof(d->host));
	int8_t *kt = tt_tb_kernel_types(r);
	bool any = false;
	for (uint32_t i = 0; i < r->nev && !any; i++)
		any = kt[r->ev[i].name] == TT_KT_COMM && tt_tb_is_gpu_op(r, &r->ev[i]) &&
		      tt_ev_kind(r, &r->ev[i]) == TT_K_KERNEL;
	if (!any) {
		free(kt);
		return;
	}
	/* the rank's steps (every ProfilerStep#N, dropped tail steps too) */
	struct tt_step *st;
	size_t nkept, nst = tt_tb_rank_steps(r, ri, &st, &nkept);
	size_t ns = 0;
	for (size_t k = 0; k < nst; k++)
		if (!st[k].pseudo && st[k].ev != TT_NONE)
			st[ns++] = st[k];
	tt_msort(st, ns, sizeof(*st), step_cmp, NULL);
	struct tt_optree t;
	tt_optree_build(r, &t, false);
	uint32_t *by_cpu = tt_malloc(((size_t)r->nev + 1) * sizeof(*by_cpu));
	memset(by_cpu, 0xff, ((size_t)r->nev + 1) * sizeof(*by_cpu));
	size_t cap = 0, kcap = 0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tt_tb_is_gpu_op(r, e) || tt_ev_kind(r, e) != TT_K_KERNEL ||
			    kt[e->name] != TT_KT_COMM)
				continue;
			struct rpart pc;
			describe(r, &t, i, &pc);
			TT_GROW(d->k, kcap, d->nk + 1);
			if (pc.cpu != TT_NONE && by_cpu[pc.cpu] != TT_NONE) {
				/* another kernel of the same call */
				struct rpart *q = &d->p[by_cpu[pc.cpu]];
				q->nkernels++;
				tt_sat_acc(&q->dur, e->dur);
				if (tt_ev_end(e) > q->end)
					q->end = tt_ev_end(e);
				if (e->ts < q->ts) {
					q->ts = e->ts;
					q->kernel = i;
					q->track = ti;
					q->stream = tr->stream;
					q->launch = pc.launch;
				}
				d->k[d->nk++] = (struct rkern){i, by_cpu[pc.cpu]};
				continue;
			}
			pc.kernel = i;
			pc.nkernels = 1;
			pc.track = ti;
			pc.stream = tr->stream;
			pc.ts = e->ts;
			pc.end = tt_ev_end(e);
			pc.dur = e->dur;
			TT_GROW(d->p, cap, d->n + 1);
			if (pc.cpu != TT_NONE)
				by_cpu[pc.cpu] = (uint32_t)d->n;
			d->k[d->nk++] = (struct rkern){i, (uint32_t)d->n};
			d->p[d->n++] = pc;
		}
	}
	/* launches and steps */
	for (size_t k = 0; k < d->n; k++) {
		struct rpart *p = &d->p[k];
		p->launch_ts = p->launch != TT_NONE ? r->ev[p->launch].ts : -1;
		p->skey = step_key(st, ns, p->launch_ts >= 0 ? p->launch_ts : p->ts, &p->step);
	}
	/* the order of the parts (by start, then kernel: unique); kernels
	 * follow their part.  Usually the order they were found in already (one
	 * communication stream) */
	bool sorted = true;
	for (size_t k = 1; k < d->n && sorted; k++)
		sorted = rpart_cmp(&d->p[k - 1], &d->p[k], NULL) < 0;
	if (!sorted) {
		uint32_t *ord = tt_malloc(d->n * sizeof(*ord));
		uint32_t *inv = tt_malloc(d->n * sizeof(*inv));
		for (size_t k = 0; k < d->n; k++)
			ord[k] = (uint32_t)k;
		tt_msort(ord, d->n, sizeof(*ord), rpart_ix_cmp, d->p);
		struct rpart *tmp = tt_malloc(d->n * sizeof(*tmp));
		for (size_t k = 0; k < d->n; k++) {
			tmp[k] = d->p[ord[k]];
			inv[ord[k]] = (uint32_t)k;
		}
		for (size_t k = 0; k < d->nk; k++)
			d->k[k].part = inv[d->k[k].part];
		free(d->p);
		d->p = tmp;
		free(inv);
		free(ord);
	}
	tt_msort(d->k, d->nk, sizeof(*d->k), rkern_cmp, NULL);
	/* the communication streams by number */
	int64_t *streams = tt_malloc((d->n + 1) * sizeof(*streams));
	size_t nstr = 0;
	for (size_t k = 0; k < d->n; k++)
		streams[nstr++] = d->p[k].stream;
	tt_msort(streams, nstr, sizeof(*streams), i64_cmp, NULL);
	size_t u = 0;
	for (size_t k = 0; k < nstr; k++)
		if (!u || streams[u - 1] != streams[k])
			streams[u++] = streams[k];
	for (size_t k = 0; k < d->n; k++) {
		size_t lo = 0, hi = u;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (streams[mid] < d->p[k].stream)
				lo = mid + 1;
			else
				hi = mid;
		}
		d->p[k].stream_ord = (int)lo;
	}
	free(streams);
	free(st);
	free(by_cpu);
	tt_optree_free(&t);
	free(kt);
}

/* ==== across ranks ==== */

bool tt_coll_is_p2p(const char *name)
{
	char k[64];
	tt_tb_coll_key(name, k, sizeof(k));
	return strcmp(k, "sendrecv") == 0 || strcmp(k, "send") == 0 || strcmp(k, "recv") == 0;
}

/* all-to-all, gather and scatter sizes may differ per rank */
static bool sizes_vary(const char *key)
{
	return strstr(key, "alltoall") != NULL || strstr(key, "scatter") != NULL ||
	       strstr(key, "gather") != NULL;
}

/* members in "[0, 1, 2]" */
static uint32_t count_ranks(const char *s)
{
	uint32_t n = 0;
	bool in = false;
	for (; *s; s++) {
		bool d = isdigit((unsigned char)*s);
		if (d && !in)
			n++;
		in = d;
	}
	return n;
}

/* ---- records found by a key through one hash index ---- */

/* a (group, p2p, step key) slot: on one rank (count, next position), or
 * over the job (ranks with parts in it, their smallest and largest count) */
struct skrec {
	uint32_t group;
	bool p2p;
	int64_t skey;
	uint32_t count, next;           /* (per rank) */
	uint32_t nranks;                /* (job) */
	uint32_t cmin, cmax;            /* (job) */
	int64_t rmin, rmax;             /* (job) ranks with those counts */
	bool reported;
};

static uint64_t sk_hash(uint32_t group, bool p2p, int64_t skey)
{
	return tt_hmap_mix(((uint64_t)group << 1 | p2p) * UINT64_C(0x9e3779b97f4a7c15) ^
			   (uint64_t)skey);
}

/* the record of (group, p2p, skey) in v (added when missing) */
static struct skrec *sk_get(struct tt_hmap *h, struct skrec **v, size_t *n, size_t *cap,
			    uint32_t group, bool p2p, int64_t skey, bool *added)
{
	uint64_t hk = sk_hash(group, p2p, skey);
	size_t pos;
	for (uint32_t i = tt_hmap_first(h, hk, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(h, hk, &pos)) {
		struct skrec *x = &(*v)[i];
		if (x->group == group && x->p2p == p2p && x->skey == skey) {
			*added = false;
			return x;
		}
	}
	TT_GROW(*v, *cap, *n + 1);
	struct skrec *x = &(*v)[*n];
	memset(x, 0, sizeof(*x));
	x->group = group;
	x->p2p = p2p;
	x->skey = skey;
	tt_hmap_add(h, hk, (uint32_t)*n);
	(*n)++;
	*added = true;
	return x;
}

/* a building collective: its parts as a list through next[] */
struct bcoll {
	uint32_t group;
	bool p2p;
	int64_t skey, pos;
	uint32_t sk;       /* its job-wide step key record */
	uint32_t head, tail, n;
};

/* ---- issues ---- */

#define MAX_ISSUES 256

static uint64_t issue_key(uint32_t group, int kind, int64_t rank)
{
	return tt_hmap_mix(((uint64_t)group << 3 | (unsigned)kind) ^
			   tt_hmap_mix((uint64_t)rank + 1));
}

/* one issue per group, kind and rank; later ones counted in it */
static void add_issue(struct tt_coll *out, struct tt_hmap *seen, size_t *cap,
		      enum tt_coll_issue_kind kind, uint32_t group, uint32_t coll, int64_t rank,
		      int64_t other, const char *text)
{
	uint64_t hk = issue_key(group, kind, rank);
	size_t pos;
	for (uint32_t i = tt_hmap_first(seen, hk, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(seen, hk, &pos)) {
		struct tt_coll_issue *x = &out->issues[i];
		if (x->group == group && x->kind == kind && x->rank == rank) {
			x->count++;
			return;
		}
	}
	if (out->nissues >= MAX_ISSUES) {
		out->nissues_more++;
		return;
	}
	TT_GROW(out->issues, *cap, out->nissues + 1);
	struct tt_coll_issue *x = &out->issues[out->nissues];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->group = group;
	x->coll = coll;
	x->rank = rank;
	x->other = other;
	x->count = 1;
	snprintf(x->text, sizeof(x->text), "%s", text);
	tt_hmap_add(seen, hk, (uint32_t)out->nissues++);
}

/* "step 102", "before the first step", ... */
static void skey_text(int64_t skey, char *buf, size_t n)
{
	if (skey >= 0 && skey % 2 == 0)
		snprintf(buf, n, "step %lld", (long long)(skey / 2));
	else if (skey >= 0)
		snprintf(buf, n, "after step %lld", (long long)(skey / 2));
	else if (skey == -1)
		snprintf(buf, n, "before the first step");
	else
		snprintf(buf, n, "the trace");
}

/* ---- clocks ---- */

struct sample {
	uint32_t dom;
	uint32_t coll;
	int64_t d;
};

static int sample_cmp(const void *a, const void *b, void *ctx)
{
	const struct sample *x = a, *y = b;
	(void)ctx;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return x->coll < y->coll ? -1 : x->coll > y->coll;
}

static int u32_cmp(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* median of sorted v[0..n): the middle, or halfway between the two */
static int64_t median_sorted(const int64_t *v, size_t n)
{
	if (!n)
		return 0;
	return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* a clock domain: one host, or one rank without a host name */
struct dom {
	bool placed, applied;
	int64_t offset, estimate, spread;
	uint32_t evidence;
	const char *why;
};

/* Hosts are placed in rounds: each round, every unplaced host gets the
 * median of its members' end differences to the first placed member of
 * each collective they share.  Each round is linear in the parts; a job
 * whose hosts only meet through a chain of others needs a round per link
 * (at most MAX_ROUNDS). */
#define MAX_ROUNDS 16

static void clocks(struct tt_coll *out, const uint32_t *dom_of, struct dom *dom, size_t ndom)
{
	struct sample *s = NULL;
	size_t cap = 0;
	int64_t *v = NULL;
	uint32_t *cl = NULL;
	size_t vcap = 0, ccap = 0;
	for (int round = 0; round < MAX_ROUNDS; round++) {
		size_t n = 0;
		for (size_t k = 0; k < out->ncolls; k++) {
			const struct tt_coll_op *c = &out->colls[k];
			if ((c->flags & (TT_COLL_MISMATCH | TT_COLL_MISSING)) || c->n < 2)
				continue;
			const struct tt_coll_part *a = NULL;
			for (uint32_t j = 0; j < c->n && !a; j++) {
				const struct tt_coll_part *p = &out->parts[out->members[c->first + j]];
				if (dom[dom_of[p->ri]].placed)
					a = p;
			}
			if (!a)
				continue;
			int64_t ref_end = a->end - dom[dom_of[a->ri]].offset;
			for (uint32_t j = 0; j < c->n; j++) {
				const struct tt_coll_part *p = &out->parts[out->members[c->first + j]];
				uint32_t dd = dom_of[p->ri];
				if (dom[dd].placed)
					continue;
				TT_GROW(s, cap, n + 1);
				s[n++] = (struct sample){dd, (uint32_t)k, p->end - ref_end};
			}
		}
		if (!n)
			break;
		tt_msort(s, n, sizeof(*s), sample_cmp, NULL);
		for (size_t i = 0; i < n;) {
			size_t j = i;
			while (j < n && s[j].dom == s[i].dom)
				j++;
			size_t k = j - i;
			struct dom *d = &dom[s[i].dom];
			TT_GROW(v, vcap, k);
			TT_GROW(cl, ccap, k);
			for (size_t q = 0; q < k; q++) {
				v[q] = s[i + q].d; /* (sorted within the host) */
				cl[q] = s[i + q].coll;
			}
			int64_t med = median_sorted(v, k);
			for (size_t q = 0; q < k; q++)
				v[q] = v[q] > med ? v[q] - med : med - v[q];
			tt_msort(v, k, sizeof(*v), i64_cmp, NULL);
			tt_msort(cl, k, sizeof(*cl), u32_cmp, NULL);
			uint32_t ev = 0;
			for (size_t q = 0; q < k; q++)
				ev += !q || cl[q] != cl[q - 1];
			d->placed = true;
			d->estimate = med;
			d->spread = median_sorted(v, k);
			d->evidence = ev;
			/* the median's standard error: 1.2533 sigma / sqrt(n), sigma
			 * = 1.4826 MAD (normal errors) */
			double se = 1.8582 * (double)d->spread / sqrt((double)k);
			int64_t a = med < 0 ? -med : med;
			if (ev < TT_COLL_MIN_EVIDENCE) {
				d->why = "too few collectives";
			} else if (a < TT_COLL_MIN_OFFSET_NS) {
				d->why = "below the jitter floor";
			} else if ((double)a < 2 * se) {
				d->why = "within its uncertainty";
			} else {
				d->applied = true;
				d->offset = med;
				d->why = "applied";
			}
			i = j;
		}
	}
	for (size_t i = 0; i < ndom; i++)
		if (!dom[i].placed)
			dom[i].why = "no collective shared with placed ranks";
	free(s);
	free(v);
	free(cl);
}

/* ---- the result ---- */

struct ckey {
	uint32_t group;
	int64_t skey, pos;
	uint8_t p2p;
	uint32_t idx;
};

static int ckey_cmp(const void *a, const void *b, void *ctx)
{
	const struct ckey *x = a, *y = b;
	(void)ctx;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->skey != y->skey) {
		/* before the first step (-1) sorts first, a rank without steps
		 * (-2) too */
		return x->skey < y->skey ? -1 : 1;
	}
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->p2p != y->p2p)
		return x->p2p < y->p2p ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int coll_time_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_coll_op *v = ctx;
	const struct tt_coll_op *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
	if (x->t_first != y->t_first)
		return x->t_first < y->t_first ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the groups of every part, and the parts in model order */
static void gather(const struct tt_model *m, struct rank_out *R, struct tt_coll *out,
		   int64_t world, int64_t *skey)
{
	uint32_t *key2g = NULL;
	size_t k2cap = 0, gcap = 0;
	uint32_t *gseen = NULL; /* per group: the last rank index + 1 with parts */
	char key[160];
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct rank_out *d = &R[ri];
		out->rank_first[ri] = out->nparts;
		if (!d->sel)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		/* (a rank's parts mostly repeat the one before's group and name) */
		const struct rpart *prev = NULL;
		uint32_t kid = TT_NONE, name = TT_NONE;
		bool p2p = false;
		for (size_t k = 0; k < d->n; k++) {
			const struct rpart *rp = &d->p[k];
			if (!prev || strcmp(rp->pg, prev->pg) != 0 ||
			    (!rp->pg[0] && rp->stream_ord != prev->stream_ord)) {
				if (rp->pg[0])
					snprintf(key, sizeof(key), "pg\x1f%s", rp->pg);
				else
					snprintf(key, sizeof(key), "st\x1f%d", rp->stream_ord);
				kid = tt_tb_key_index(&out->names, key, strlen(key), &key2g,
						      &k2cap);
			}
			if (!prev || strcmp(rp->name, prev->name) != 0) {
				name = tt_tb_intern(&out->names, rp->name);
				p2p = tt_coll_is_p2p(rp->name);
			}
			prev = rp;
			if (key2g[kid] == TT_NONE) {
				TT_GROW(out->groups, gcap, out->ngroups + 1);
				uint32_t g = (uint32_t)out->ngroups++;
				key2g[kid] = g;
				struct tt_coll_group *G = &out->groups[g];
				memset(G, 0, sizeof(*G));
				G->desc = "";
				if (rp->pg[0]) {
					G->name = tt_strtab_get(&out->names,
								tt_tb_intern(&out->names, rp->pg));
					G->source = rp->pg_source;
					if (rp->pg_ranks != TT_NONE)
						G->nmembers = count_ranks(tt_str(r, rp->pg_ranks));
					if (!G->nmembers && rp->group_size > 0)
						G->nmembers = (uint32_t)rp->group_size;
				} else {
					char nm[48];
					snprintf(nm, sizeof(nm), "stream #%d", rp->stream_ord + 1);
					G->name = tt_strtab_get(&out->names,
								tt_tb_intern(&out->names, nm));
					G->source = "stream";
				}
				gseen = tt_realloc_array(gseen, out->ngroups, sizeof(*gseen));
				gseen[g] = 0;
			}
			uint32_t g = key2g[kid];
			if (gseen[g] != ri + 1) {
				gseen[g] = (uint32_t)ri + 1;
				out->groups[g].nloaded++;
			}
			skey[out->nparts] = rp->skey;
			struct tt_coll_part *p = &out->parts[out->nparts++];
			p->ri = ri;
			p->rank = r->rank;
			p->group = g;
			p->coll = TT_NONE;
			p->name = tt_strtab_get(&out->names, name);
			p->p2p = p2p;
			p->step = rp->step;
			p->source = rp->source;
			p->kernel = rp->kernel;
			p->nkernels = rp->nkernels;
			p->track = rp->track;
			p->cpu = rp->cpu;
			p->launch = rp->launch;
			p->ts = rp->ts;
			p->end = rp->end;
			p->dur = rp->dur;
			p->launch_ts = rp->launch_ts;
			p->arrival = rp->ts;
			p->wait = 0;
			p->transfer = rp->dur;
			p->bytes = rp->bytes;
		}
	}
	out->rank_first[m->nranks] = out->nparts;
	for (size_t g = 0; g < out->ngroups; g++) {
		struct tt_coll_group *G = &out->groups[g];
		if (!G->nmembers)
			G->nmembers = world > 0 && strcmp(G->source, "stream") == 0 ?
					      (uint32_t)world :
					      G->nloaded;
		if (G->nmembers < G->nloaded)
			G->nmembers = G->nloaded;
	}
	free(key2g);
	free(gseen);
}

/* Positions: per rank and (group, p2p, step key), parts in start order;
 * before the first step counted back from it.  Returns the job-wide step
 * key records (*njob of them) with each part's in jrec[]. */
static struct skrec *positions(const struct tt_model *m, struct tt_coll *out,
			       const int64_t *skey, int64_t *pos, uint32_t *jrec, size_t *njob)
{
	struct tt_hmap jh = {0}, rh = {0};
	struct skrec *jv = NULL, *rv = NULL;
	size_t nj = 0, jcap = 0, nr = 0, rcap = 0;
	uint32_t *rrec = tt_malloc((out->nparts + 1) * sizeof(*rrec));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		size_t p0 = out->rank_first[ri], p1 = out->rank_first[ri + 1];
		if (p0 == p1)
			continue;
		/* this rank's records, from scratch */
		tt_hmap_free(&rh);
		memset(&rh, 0, sizeof(rh));
		nr = 0;
		bool added;
		for (size_t k = p0; k < p1; k++) {
			const struct tt_coll_part *p = &out->parts[k];
			struct skrec *x =
				sk_get(&rh, &rv, &nr, &rcap, p->group, p->p2p, skey[k], &added);
			rrec[k] = (uint32_t)(x - rv);
			x->count++;
		}
		for (size_t k = p0; k < p1; k++) {
			struct skrec *x = &rv[rrec[k]];
			int64_t i = x->next++;
			pos[k] = skey[k] == -1 ? i - (int64_t)x->count : i;
		}
		/* into the job's records */
		for (size_t i = 0; i < nr; i++) {
			const struct skrec *x = &rv[i];
			struct skrec *y =
				sk_get(&jh, &jv, &nj, &jcap, x->group, x->p2p, x->skey, &added);
			if (added || x->count < y->cmin) {
				y->cmin = x->count;
				y->rmin = m->ranks[ri]->rank;
			}
			if (added || x->count > y->cmax) {
				y->cmax = x->count;
				y->rmax = m->ranks[ri]->rank;
			}
			y->nranks++;
		}
		for (size_t k = p0; k < p1; k++) {
			const struct tt_coll_part *p = &out->parts[k];
			jrec[k] = (uint32_t)(sk_get(&jh, &jv, &nj, &jcap, p->group, p->p2p, skey[k],
						    &added) -
					     jv);
		}
	}
	tt_hmap_free(&rh);
	tt_hmap_free(&jh);
	free(rv);
	free(rrec);
	*njob = nj;
	return jv;
}

void tt_coll_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_coll *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->names);
	struct ctx x = {m, tt_calloc(m->nranks + 1, sizeof(*x.r))};
	tt_for_ranks(m, o, rank_work, &x);
	struct rank_out *R = x.r;
	size_t total = 0, ktotal = 0;
	int64_t world = -1;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		total += R[ri].n;
		ktotal += R[ri].nk;
		out->nranks += R[ri].sel;
		if (R[ri].sel && m->ranks[ri]->meta.world_size > world)
			world = m->ranks[ri]->meta.world_size;
	}
	out->parts = tt_calloc(total + 1, sizeof(*out->parts));
	out->rank_first = tt_calloc(m->nranks + 2, sizeof(*out->rank_first));
	int64_t *skey = tt_malloc((total + 1) * sizeof(*skey));
	gather(m, R, out, world, skey);

	/* kernel -> part */
	out->kfirst = tt_calloc(m->nranks + 2, sizeof(*out->kfirst));
	out->kev = tt_malloc((ktotal + 1) * sizeof(*out->kev));
	out->kpart = tt_malloc((ktotal + 1) * sizeof(*out->kpart));
	out->nkernels = ktotal;
	size_t kn = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		out->kfirst[ri] = kn;
		for (size_t k = 0; k < R[ri].nk; k++) {
			out->kev[kn] = R[ri].k[k].ev;
			out->kpart[kn] = (uint32_t)(out->rank_first[ri] + R[ri].k[k].part);
			kn++;
		}
	}
	out->kfirst[m->nranks] = kn;

	/* positions and the matching: (group, p2p, step key, position) */
	int64_t *pos = tt_malloc((out->nparts + 1) * sizeof(*pos));
	uint32_t *jrec = tt_malloc((out->nparts + 1) * sizeof(*jrec));
	size_t njob = 0;
	struct skrec *jv = positions(m, out, skey, pos, jrec, &njob);
	/* a slot per (job record, position): a record's positions run over
	 * [0, cmax), or [-cmax, 0) before the first step; its largest count is
	 * one rank's, so there are no more slots than parts */
	size_t *base = tt_malloc((njob + 1) * sizeof(*base));
	size_t nslot = 0;
	for (size_t j = 0; j < njob; j++) {
		base[j] = nslot;
		nslot += jv[j].cmax;
	}
	uint32_t *bslot = tt_malloc((nslot + 1) * sizeof(*bslot));
	memset(bslot, 0xff, (nslot + 1) * sizeof(*bslot));
	struct bcoll *bc = NULL;
	size_t nbc = 0, bccap = 0;
	uint32_t *next = tt_malloc((out->nparts + 1) * sizeof(*next));
	uint32_t *bof = tt_malloc((out->nparts + 1) * sizeof(*bof));
	for (size_t k = 0; k < out->nparts; k++) {
		const struct tt_coll_part *p = &out->parts[k];
		next[k] = bof[k] = TT_NONE;
		if (p->p2p && out->groups[p->group].nmembers != 2) {
			out->np2p_unpaired++;
			continue;
		}
		const struct skrec *J = &jv[jrec[k]];
		uint32_t *sl = &bslot[base[jrec[k]] + (size_t)(skey[k] == -1 ? pos[k] + J->cmax : pos[k])];
		uint32_t b = *sl;
		if (b == TT_NONE) {
			TT_GROW(bc, bccap, nbc + 1);
			b = (uint32_t)nbc++;
			bc[b] = (struct bcoll){p->group, p->p2p, skey[k], pos[k], jrec[k],
					       (uint32_t)k, (uint32_t)k, 0};
			*sl = b;
		} else {
			next[bc[b].tail] = (uint32_t)k;
			bc[b].tail = (uint32_t)k;
		}
		bc[b].n++;
		bof[k] = b;
	}
	free(bslot);
	free(base);

	/* collectives: two parts or more (one part stays unmatched) */
	out->colls = tt_calloc(nbc + 1, sizeof(*out->colls));
	out->members = tt_malloc((out->nparts + 1) * sizeof(*out->members));
	uint32_t *newid = tt_malloc((nbc + 1) * sizeof(*newid));
	struct ckey *ck = tt_malloc((nbc + 1) * sizeof(*ck));
	size_t nm = 0, icap = 0;
	struct tt_hmap iseen = {0};
	char text[200], where[48];
	for (size_t b = 0; b < nbc; b++) {
		const struct bcoll *B = &bc[b];
		newid[b] = TT_NONE;
		if (B->n < 2)
			continue;
		uint32_t ci = (uint32_t)out->ncolls++;
		newid[b] = ci;
		struct tt_coll_op *c = &out->colls[ci];
		ck[ci] = (struct ckey){B->group, B->skey, B->pos, B->p2p, ci};
		c->group = B->group;
		c->first = (uint32_t)nm;
		c->n = B->n;
		c->bytes = -1;
		c->last = c->early = TT_NONE;
		if (B->p2p)
			c->flags |= TT_COLL_P2P;
		for (uint32_t k = B->head; k != TT_NONE; k = next[k])
			out->members[nm++] = k; /* (parts are in model order) */
		const struct tt_coll_part *p0 = &out->parts[out->members[c->first]];
		c->name = p0->name;
		c->step = p0->step;
		const struct tt_coll_group *G = &out->groups[c->group];
		char k0[64];
		tt_tb_coll_key(p0->name, k0, sizeof(k0));
		for (uint32_t j = 0; j < c->n; j++) {
			const struct tt_coll_part *p = &out->parts[out->members[c->first + j]];
			if (c->bytes < 0 && p->bytes >= 0)
				c->bytes = p->bytes;
			char kj[64];
			tt_tb_coll_key(p->name, kj, sizeof(kj));
			/* (a point-to-point pair is a send and a recv) */
			if (!B->p2p && strcmp(k0, kj) != 0) {
				c->flags |= TT_COLL_MISMATCH;
				snprintf(text, sizeof(text),
					 "group %s: rank %lld runs %s where rank %lld runs %s",
					 G->name, (long long)p->rank, p->name, (long long)p0->rank,
					 p0->name);
				add_issue(out, &iseen, &icap, TT_CI_ORDER, c->group, ci, p->rank,
					  p0->rank, text);
			} else if (!sizes_vary(k0) && p->bytes >= 0 && p0->bytes >= 0 &&
				   p->bytes != p0->bytes) {
				c->flags |= TT_COLL_MISMATCH;
				snprintf(text, sizeof(text),
					 "group %s: rank %lld's %s moves %lld bytes where rank "
					 "%lld's moves %lld",
					 G->name, (long long)p->rank, p->name, (long long)p->bytes,
					 (long long)p0->rank, (long long)p0->bytes);
				add_issue(out, &iseen, &icap, TT_CI_SIZE, c->group, ci, p->rank,
					  p0->rank, text);
			}
		}
		/* the ranks that have parts in this step of the group make
		 * different numbers of them: no position of the step is sure */
		struct skrec *J = &jv[B->sk];
		if (J->cmin != J->cmax) {
			c->flags |= TT_COLL_MISMATCH;
			if (!J->reported) {
				J->reported = true;
				skey_text(B->skey, where, sizeof(where));
				snprintf(text, sizeof(text),
					 "group %s, %s: rank %lld has %u collectives, rank %lld "
					 "has %u",
					 G->name, where, (long long)J->rmin, J->cmin,
					 (long long)J->rmax, J->cmax);
				add_issue(out, &iseen, &icap, TT_CI_COUNT, c->group, ci, J->rmin,
					  J->rmax, text);
			}
		}
		if (c->n < J->nranks)
			c->flags |= TT_COLL_MISSING;
		else if (c->n < G->nmembers)
			c->flags |= TT_COLL_PARTIAL;
	}
	for (size_t k = 0; k < out->nparts; k++)
		out->parts[k].coll = bof[k] != TT_NONE ? newid[bof[k]] : TT_NONE;
	/* unpaired point-to-point parts: one issue per group and rank */
	for (size_t k = 0; k < out->nparts; k++) {
		const struct tt_coll_part *p = &out->parts[k];
		if (!p->p2p || p->coll != TT_NONE)
			continue;
		const struct tt_coll_group *G = &out->groups[p->group];
		if (G->nmembers == 2)
			continue; /* (no partner at this position: counted as above) */
		snprintf(text, sizeof(text),
			 "group %s: rank %lld's point-to-point %s is not paired (the group has %u "
			 "members and the trace names no peer)",
			 G->name, (long long)p->rank, p->name, G->nmembers);
		add_issue(out, &iseen, &icap, TT_CI_P2P, p->group, TT_NONE, p->rank, -1, text);
	}
	tt_hmap_free(&iseen);
	free(newid);
	free(next);
	free(bof);
	free(bc);
	free(jv);
	free(jrec);
	free(pos);
	free(skey);

	/* the sequence number of each collective in its group */
	tt_msort(ck, out->ncolls, sizeof(*ck), ckey_cmp, NULL);
	for (size_t i = 0, seq = 0; i < out->ncolls; i++) {
		if (i && ck[i].group != ck[i - 1].group)
			seq = 0;
		out->colls[ck[i].idx].seq = (uint32_t)seq++;
	}
	free(ck);

	/* clocks: one domain per host (or per rank without one) */
	uint32_t *dom_of = tt_calloc(m->nranks + 1, sizeof(*dom_of));
	struct dom *dom = tt_calloc(m->nranks + 1, sizeof(*dom));
	size_t ndom = 0;
	struct tt_strtab hosts;
	tt_strtab_init(&hosts);
	uint32_t *h2d = NULL;
	size_t hcap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!R[ri].sel)
			continue;
		if (R[ri].host[0]) {
			uint32_t id =
				tt_tb_key_index(&hosts, R[ri].host, strlen(R[ri].host), &h2d, &hcap);
			if (h2d[id] == TT_NONE)
				h2d[id] = (uint32_t)ndom++;
			dom_of[ri] = h2d[id];
		} else {
			dom_of[ri] = (uint32_t)ndom++;
		}
	}
	free(h2d);
	tt_strtab_free(&hosts);
	if (ndom) {
		dom[0].placed = true;
		dom[0].why = "reference";
		clocks(out, dom_of, dom, ndom);
	}
	out->clocks = tt_calloc(out->nranks + 1, sizeof(*out->clocks));
	int64_t *offset = tt_calloc(m->nranks + 1, sizeof(*offset));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!R[ri].sel)
			continue;
		struct tt_coll_clock *k = &out->clocks[out->nclocks++];
		const struct dom *d = &dom[dom_of[ri]];
		k->ri = ri;
		k->rank = m->ranks[ri]->rank;
		snprintf(k->host, sizeof(k->host), "%s", R[ri].host);
		k->reference = dom_of[ri] == 0;
		k->estimate = d->estimate;
		k->spread = d->spread;
		k->evidence = d->evidence;
		k->applied = d->applied;
		k->offset = d->applied ? d->offset : 0;
		k->why = d->why ? d->why : "";
		offset[ri] = k->offset;
		if (k->applied) {
			out->noffsets++;
			int64_t a = k->offset < 0 ? -k->offset : k->offset;
			out->max_offset = TT_MAX(out->max_offset, a);
		}
	}
	free(dom);
	free(dom_of);

	/* arrivals and waits */
	for (size_t k = 0; k < out->nparts; k++)
		out->parts[k].arrival = out->parts[k].ts - offset[out->parts[k].ri];
	for (size_t i = 0; i < out->ncolls; i++) {
		struct tt_coll_op *c = &out->colls[i];
		c->t_first = c->end_min = c->latency = INT64_MAX;
		c->t_last = c->end_max = INT64_MIN;
		for (uint32_t j = 0; j < c->n; j++) {
			uint32_t pi = out->members[c->first + j];
			const struct tt_coll_part *p = &out->parts[pi];
			/* ties: the lower rank index (members are in that order) */
			if (p->arrival > c->t_last) {
				c->t_last = p->arrival;
				c->last = pi;
			}
			if (p->arrival < c->t_first) {
				c->t_first = p->arrival;
				c->early = pi;
			}
			int64_t e = p->end - offset[p->ri];
			c->end_min = TT_MIN(c->end_min, e);
			c->end_max = TT_MAX(c->end_max, e);
			c->latency = TT_MIN(c->latency, p->dur);
		}
		if (c->flags & (TT_COLL_MISMATCH | TT_COLL_MISSING)) {
			c->last = TT_NONE;
			out->nflagged++;
			out->groups[c->group].nflagged++;
			continue;
		}
		for (uint32_t j = 0; j < c->n; j++) {
			struct tt_coll_part *p = &out->parts[out->members[c->first + j]];
			p->wait = TT_MIN(TT_MAX(c->t_last - p->arrival, 0), p->dur);
			p->transfer = p->dur - p->wait;
			tt_sat_acc(&c->wait_sum, p->wait);
			c->wait_max = TT_MAX(c->wait_max, p->wait);
			out->nmatched_parts++;
		}
	}
	free(offset);
	/* per rank */
	out->ranks = tt_calloc(out->nclocks + 1, sizeof(*out->ranks));
	size_t *slot = tt_calloc(m->nranks + 1, sizeof(*slot));
	for (size_t i = 0; i < out->nclocks; i++) {
		out->ranks[i].ri = out->clocks[i].ri;
		out->ranks[i].rank = out->clocks[i].rank;
		slot[out->clocks[i].ri] = i;
	}
	for (size_t k = 0; k < out->nparts; k++) {
		const struct tt_coll_part *p = &out->parts[k];
		struct tt_coll_rank *w = &out->ranks[slot[p->ri]];
		w->nparts++;
		tt_sat_acc(&w->wait, p->wait);
		tt_sat_acc(&w->transfer, p->transfer);
		if (p->coll == TT_NONE || out->colls[p->coll].last == TT_NONE)
			continue;
		w->nmatched++;
		const struct tt_coll_op *c = &out->colls[p->coll];
		if (c->last == k) {
			w->nlast++;
			tt_sat_acc(&w->caused, c->wait_sum);
		}
	}
	free(slot);
	for (size_t k = 0; k < out->nparts; k++) {
		struct tt_coll_group *G = &out->groups[out->parts[k].group];
		G->nparts++;
		G->nunmatched += out->parts[k].coll == TT_NONE;
	}
	for (size_t i = 0; i < out->ncolls; i++)
		out->groups[out->colls[i].group].ncolls++;

	/* collectives by first arrival */
	if (out->ncolls > 1) {
		uint32_t *ord = tt_malloc(out->ncolls * sizeof(*ord));
		for (size_t i = 0; i < out->ncolls; i++)
			ord[i] = (uint32_t)i;
		tt_msort(ord, out->ncolls, sizeof(*ord), coll_time_cmp, out->colls);
		struct tt_coll_op *v = tt_malloc(out->ncolls * sizeof(*v));
		uint32_t *inv = tt_malloc(out->ncolls * sizeof(*inv));
		for (size_t i = 0; i < out->ncolls; i++) {
			v[i] = out->colls[ord[i]];
			inv[ord[i]] = (uint32_t)i;
		}
		free(out->colls);
		out->colls = v;
		for (size_t k = 0; k < out->nparts; k++)
			if (out->parts[k].coll != TT_NONE)
				out->parts[k].coll = inv[out->parts[k].coll];
		for (size_t i = 0; i < out->nissues; i++)
			if (out->issues[i].coll != TT_NONE)
				out->issues[i].coll = inv[out->issues[i].coll];
		free(inv);
		free(ord);
	}
	for (size_t ri = 0; ri < m->nranks; ri++) {
		free(R[ri].p);
		free(R[ri].k);
	}
	free(R);
}

void tt_coll_free(struct tt_coll *c)
{
	if (!c)
		return;
	free(c->parts);
	free(c->rank_first);
	free(c->colls);
	free(c->members);
	free(c->groups);
	free(c->clocks);
	free(c->ranks);
	free(c->issues);
	free(c->kev);
	free(c->kpart);
	free(c->kfirst);
	tt_strtab_free(&c->names);
	memset(c, 0, sizeof(*c));
}

uint32_t tt_coll_part_of(const struct tt_coll *c, size_t ri, uint32_t ev)
{
	if (!c->kfirst)
		return TT_NONE;
	size_t lo = c->kfirst[ri], hi = c->kfirst[ri + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->kev[mid] < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->kfirst[ri + 1] && c->kev[lo] == ev ? c->kpart[lo] : TT_NONE;
}

const struct tt_coll_clock *tt_coll_clock_of(const struct tt_coll *c, size_t ri)
{
	size_t lo = 0, hi = c->nclocks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->clocks[mid].ri < ri)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nclocks && c->clocks[lo].ri == ri ? &c->clocks[lo] : NULL;
}

int64_t tt_coll_job_time(const struct tt_coll *c, size_t ri, int64_t t)
{
	const struct tt_coll_clock *k = tt_coll_clock_of(c, ri);
	return k ? t - k->offset : t;
}

void tt_coll_label(const struct tt_coll *c, uint32_t k, char *buf, size_t n)
{
	if (k >= c->ncolls) {
		snprintf(buf, n, "-");
		return;
	}
	const struct tt_coll_op *x = &c->colls[k];
	const struct tt_coll_group *g = &c->groups[x->group];
	if (strcmp(g->source, "stream") == 0)
		snprintf(buf, n, "%s #%u on %s", x->name, x->seq, g->name);
	else
		snprintf(buf, n, "%s #%u of pg %s", x->name, x->seq, g->name);
}
