/* The bandwidth of each collective matched across ranks (collbw.h). */
#include "config.h"

#include "tracetop/collbw.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/distributed.h"
#include "tracetop/operators.h"
#include "tracetop/stats.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

enum tt_cbw_kind tt_cbw_kind_of(const char *name)
{
	char k[64];
	tt_tb_coll_key(name ? name : "", k, sizeof(k));
	if (strstr(k, "allreduce"))
		return TT_CBW_ALLREDUCE;
	if (strstr(k, "allgather"))
		return TT_CBW_ALLGATHER;
	if (strstr(k, "reducescatter"))
		return TT_CBW_REDUCE_SCATTER;
	if (strstr(k, "alltoall"))
		return TT_CBW_ALLTOALL;
	if (strstr(k, "broadcast") || strcmp(k, "bcast") == 0)
		return TT_CBW_BROADCAST;
	if (strcmp(k, "reduce") == 0)
		return TT_CBW_REDUCE;
	if (strcmp(k, "sendrecv") == 0 || strcmp(k, "send") == 0 || strcmp(k, "recv") == 0)
		return TT_CBW_P2P;
	return TT_CBW_OTHER;
}

double tt_cbw_bus_factor(enum tt_cbw_kind k, uint32_t n)
{
	if (n == 0)
		return NAN;
	switch (k) {
	case TT_CBW_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case TT_CBW_ALLGATHER:
	case TT_CBW_REDUCE_SCATTER:
	case TT_CBW_ALLTOALL:
		return (double)(n - 1) / n;
	case TT_CBW_BROADCAST:
	case TT_CBW_REDUCE:
	case TT_CBW_P2P:
		return 1;
	case TT_CBW_OTHER:
		break;
	}
	return NAN;
}

const char *tt_cbw_algo(const char *kernel, char *buf, size_t n)
{
	static const char *const algos[] = {"COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS_TREE", "NVLS",
					    "RING", "TREE", "PAT"};
	static const char *const protos[] = {"LL128", "LL", "SIMPLE"};
	if (n)
		buf[0] = '\0';
	if (!kernel)
		return buf;
	size_t end = strcspn(kernel, "(");
	for (size_t i = 0; i < TT_ARRAY_SIZE(algos); i++) {
		size_t al = strlen(algos[i]);
		for (const char *p = kernel; (p = strstr(p, algos[i])) && (size_t)(p - kernel) < end;
		     p += al) {
			/* a whole token: '_' or the name's ends around it */
			if (p > kernel && p[-1] != '_')
				continue;
			const char *q = p + al;
			const char *proto = NULL;
			if (*q == '_')
				for (size_t j = 0; j < TT_ARRAY_SIZE(protos) && !proto; j++) {
					size_t pl = strlen(protos[j]);
					if (strncmp(q + 1, protos[j], pl) == 0 &&
					    (q[1 + pl] == '_' || q[1 + pl] == '(' || !q[1 + pl]))
						proto = protos[j];
				}
			else if (*q && *q != '(')
				continue;
			snprintf(buf, n, "%s%s%s", algos[i], proto ? "_" : "", proto ? proto : "");
			return buf;
		}
	}
	return buf;
}

/* the collective args of a part: its first kernel's, else its CPU op's */
static const struct tt_comm *part_comm(const struct tt_rank *r, const struct tt_coll_part *p,
				       const char **src)
{
	if (p->kernel < r->nev) {
		const struct tt_event *e = &r->ev[p->kernel];
		if ((e->flags & TT_EF_KINFO) && e->aux < r->nkinfo) {
			uint32_t ci = r->kinfo[e->aux].comm;
			if (ci != TT_NONE && ci < r->ncomm && r->comm[ci].dtype != TT_NONE) {
				*src = "kernel args";
				return &r->comm[ci];
			}
		}
	}
	if (p->cpu != TT_NONE && p->cpu < r->nev) {
		const struct tt_event *e = &r->ev[p->cpu];
		if ((e->flags & TT_EF_OPINFO) && e->aux < r->nopinfo) {
			uint32_t ci = r->opinfo[e->aux].comm;
			if (ci != TT_NONE && ci < r->ncomm && r->comm[ci].dtype != TT_NONE) {
				*src = "record_param_comms";
				return &r->comm[ci];
			}
		}
	}
	return NULL;
}

static int64_t nelems_bytes(const struct tt_rank *r, const struct tt_comm *c, int64_t ne)
{
	int size = tt_tb_dtype_size(tt_str(r, c->dtype), tt_strtab_len(&r->strs, c->dtype));
	if (ne < 0 || size <= 0 || ne > INT64_MAX / size)
		return -1;
	return ne * size;
}

/* the size nccl-tests counts for a collective, from one part; n_known:
 * the group's size comes from the trace (not the world size guessed for a
 * group the trace does not name) */
static void part_size(const struct tt_model *m, const struct tt_coll_part *p, struct tt_cbw *w,
		      bool n_known)
{
	const struct tt_rank *r = m->ranks[p->ri];
	const char *src = NULL;
	const struct tt_comm *c = part_comm(r, p, &src);
	int64_t in = -1, out = -1;
	if (c) {
		in = nelems_bytes(r, c, c->in_nelems);
		out = nelems_bytes(r, c, c->out_nelems);
	}
	int64_t b = -1;
	bool scaled = false;
	bool input_only = false;
	if (w->kind == TT_CBW_ALLGATHER) {
		if (out >= 0) {
			b = out;
		} else if (in >= 0 && n_known && w->n > 0 && in <= INT64_MAX / w->n) {
			b = in * w->n;
			scaled = true;
		} else if (in >= 0) {
			b = in;
			input_only = true;
		}
	} else {
		b = in >= 0 ? in : out;
	}
	if (b < 0 && p->bytes >= 0) {
		/* what the collective matching found (the collective op's Input
		 * Dims x Input type): the input */
		src = "Input Dims";
		b = p->bytes;
		if (w->kind == TT_CBW_ALLGATHER) {
			if (n_known && w->n > 0 && b <= INT64_MAX / w->n) {
				b *= w->n;
				scaled = true;
			} else {
				input_only = true;
			}
		}
	}
	if (b >= 0) {
		w->bytes = b;
		w->size_src = src;
		w->size_scaled = scaled;
		w->input_only = input_only;
	}
}

struct skey {
	uint32_t op, group;
	int64_t bytes;
	uint32_t n;
};

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int sum_cmp(const void *a, const void *b)
{
	const struct tt_cbw_sum *x = a, *y = b;
	double vx = isnan(x->lat_mean) ? 0 : x->lat_mean * (double)x->count,
	       vy = isnan(y->lat_mean) ? 0 : y->lat_mean * (double)y->count;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	int c = strcmp(x->op, y->op);
	if (c)
		return c;
	c = strcmp(x->group, y->group);
	if (c)
		return c;
	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

void tt_coll_bw_compute(const struct tt_model *m, const struct tt_coll *c, struct tt_coll_bw *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->names);
	out->colls = tt_calloc(c->ncolls + 1, sizeof(*out->colls));
	out->ncolls = c->ncolls;
	out->nparts = c->nparts;
	out->part_busbw = tt_malloc((c->nparts + 1) * sizeof(*out->part_busbw));
	for (size_t i = 0; i < c->nparts; i++)
		out->part_busbw[i] = NAN;
	for (size_t k = 0; k < c->ncolls; k++) {
		const struct tt_coll_op *x = &c->colls[k];
		struct tt_cbw *w = &out->colls[k];
		w->coll = (uint32_t)k;
		w->op = x->name;
		w->kind = (uint8_t)tt_cbw_kind_of(x->name);
		w->n = (x->flags & TT_COLL_P2P) ? 2 : c->groups[x->group].nmembers;
		w->nparts = x->n;
		w->bytes = -1;
		w->flags = x->flags;
		w->step = x->step;
		w->latency = x->latency;
		w->start_skew = x->t_last - x->t_first;
		w->end_skew = x->end_max - x->end_min;
		w->first_rank = x->early != TT_NONE ? c->parts[x->early].rank : -1;
		w->last_rank = x->last != TT_NONE ? c->parts[x->last].rank : -1;
		w->first_ts = -1;
		w->algbw = w->busbw = NAN;
		if (x->n) {
			const struct tt_coll_part *p0 = &c->parts[c->members[x->first]];
			const struct tt_rank *r0 = m->ranks[p0->ri];
			if (p0->kernel < r0->nev)
				tt_cbw_algo(tt_ev_name(r0, &r0->ev[p0->kernel]), w->algo, sizeof(w->algo));
			/* the earliest start of its parts, each on its rank's clock (as
			 * the traces say: what TraceLens compares) */
			for (uint32_t j = 0; j < x->n; j++) {
				const struct tt_coll_part *p = &c->parts[c->members[x->first + j]];
				if (w->first_ts < 0 || p->ts < w->first_ts) {
					w->first_ts = p->ts;
					if (x->early == TT_NONE)
						w->first_rank = p->rank;
				}
			}
			bool n_known = strcmp(c->groups[x->group].source, "stream") != 0 ||
				       (x->flags & TT_COLL_P2P);
			w->n_known = n_known;
			for (uint32_t j = 0; j < x->n && w->bytes < 0; j++)
				part_size(m, &c->parts[c->members[x->first + j]], w, n_known);
		}
		if ((x->flags & (TT_COLL_MISMATCH | TT_COLL_MISSING)))
			out->nflagged++;
		if (w->bytes < 0) {
			out->nmissing++;
			continue;
		}
		double f = tt_cbw_bus_factor((enum tt_cbw_kind)w->kind, w->n);
		if (w->input_only) {
			out->ninput_only++;
			continue;
		}
		if (w->latency > 0) {
			w->algbw = (double)w->bytes / (double)w->latency; /* B/ns = GB/s */
			w->busbw = isnan(f) ? NAN : w->algbw * f;
		}
		for (uint32_t j = 0; j < x->n; j++)
			out->part_busbw[c->members[x->first + j]] = w->busbw;
	}
	/* the summary per operation, group, size and group size */
	struct skey *keys = NULL;
	size_t nk = 0, ck = 0, cs = 0;
	uint32_t *of = tt_malloc((c->ncolls + 1) * sizeof(*of));
	for (size_t k = 0; k < c->ncolls; k++) {
		const struct tt_cbw *w = &out->colls[k];
		struct skey key = {tt_strtab_intern(&out->names, w->op, strlen(w->op)),
				   c->colls[k].group, w->bytes, w->n};
		size_t i = 0;
		for (; i < nk; i++) /* (few distinct keys: a scan) */
			if (memcmp(&keys[i], &key, sizeof(key)) == 0)
				break;
		if (i == nk) {
			TT_GROW(keys, ck, nk + 1);
			keys[nk++] = key;
			TT_GROW(out->sums, cs, out->nsums + 1);
			struct tt_cbw_sum *s = &out->sums[out->nsums++];
			memset(s, 0, sizeof(*s));
			s->op = tt_strtab_get(&out->names, key.op);
			s->kind = w->kind;
			s->group = c->groups[key.group].name;
			s->bytes = w->bytes;
			s->n = w->n;
			memcpy(s->algo, w->algo, sizeof(s->algo));
		}
		of[k] = (uint32_t)i;
	}
	double *v = tt_malloc((c->ncolls + 1) * sizeof(*v));
	for (size_t i = 0; i < out->nsums; i++) {
		struct tt_cbw_sum *s = &out->sums[i];
		size_t nv = 0;
		double lat = 0, ab_sum = 0, bb = 0;
		s->lat_min = INFINITY;
		s->lat_max = -INFINITY;
		s->busbw_max = NAN;
		for (size_t k = 0; k < c->ncolls; k++) {
			if (of[k] != i)
				continue;
			const struct tt_cbw *w = &out->colls[k];
			s->count++;
			lat += (double)w->latency;
			s->lat_min = TT_MIN(s->lat_min, (double)w->latency);
			s->lat_max = TT_MAX(s->lat_max, (double)w->latency);
			if (!isnan(w->busbw)) {
				v[nv++] = w->busbw;
				bb += w->busbw;
				ab_sum += w->algbw;
			}
		}
		s->lat_mean = s->count ? lat / (double)s->count : NAN;
		s->algbw_mean = nv ? ab_sum / (double)nv : NAN;
		s->busbw_mean = nv ? bb / (double)nv : NAN;
		if (nv) {
			qsort(v, nv, sizeof(*v), dbl_cmp);
			s->busbw_max = v[nv - 1];
			s->busbw_median = tt_quantile(v, nv, 0.5);
		} else {
			s->busbw_median = NAN;
		}
	}
	free(v);
	free(of);
	free(keys);
	if (out->nsums > 1)
		qsort(out->sums, out->nsums, sizeof(*out->sums), sum_cmp);
}

void tt_coll_bw_free(struct tt_coll_bw *b)
{
	if (!b)
		return;
	free(b->colls);
	free(b->sums);
	free(b->part_busbw);
	tt_strtab_free(&b->names);
	memset(b, 0, sizeof(*b));
}

double tt_coll_bw_rank_mean(const struct tt_coll_bw *b, const struct tt_coll *c, size_t ri,
			    const char *key, uint64_t *n)
{
	double s = 0;
	uint64_t k = 0;
	char pk[64];
	if (c->rank_first && b->part_busbw && b->nparts == c->nparts)
		for (size_t i = c->rank_first[ri]; i < c->rank_first[ri + 1]; i++) {
			if (isnan(b->part_busbw[i]))
				continue;
			tt_tb_coll_key(c->parts[i].name, pk, sizeof(pk));
			if (strcmp(pk, key) != 0)
				continue;
			s += b->part_busbw[i];
			k++;
		}
	if (n)
		*n = k;
	return k ? s / (double)k : NAN;
}
