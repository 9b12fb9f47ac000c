/* The TensorBoard views (issue 9): shared pieces, GPU utilisation, steps,
 * distributed, operators, source, memory. */
#include "config.h"

#include "tracetop/tbviews.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* ---- private pieces shared by the views ---- */

/* cpu_op or user_annotation X event (not a marker) */
static bool tb_is_op(const struct tt_rank *r, const struct tt_event *e);
/* kernel, gpu_memcpy or gpu_memset X event */
static bool tb_is_gpu_op(const struct tt_rank *r, const struct tt_event *e);

/* The op tree of a rank's CPU threads, by time.  Arrays by event index;
 * TT_NONE where nothing applies. */
struct tb_tree {
	uint32_t *parent;   /* op -> enclosing op */
	uint32_t *owner;    /* runtime call, instant -> innermost op around it */
	uint32_t *py;	    /* op -> innermost python_function around it (with python) */
	uint32_t *pyparent; /* python_function -> enclosing python_function */
	uint32_t *order;    /* the ops, parents before children */
	uint32_t norder;
};

static void tb_tree_build(const struct tt_rank *r, struct tb_tree *t, bool python);
static void tb_tree_free(struct tb_tree *t);

/* Sum of a merged, sorted block list's overlap with [a, b). */
static int64_t tb_iv_inter(const struct tt_iv *v, size_t n, int64_t a, int64_t b);
/* Intersection of two merged, sorted block lists; returns the count. */
static size_t tb_iv_and(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
			struct tt_iv **out);

/* Merged GPU op blocks of a rank (every GPU stream): all GPU ops, or the
 * computation (non-communication) or communication kernels, by the kernel
 * types of tb_kernel_types (not needed for TB_GPU_ALL).  Returns the count;
 * *out freed by the caller. */
enum { TB_GPU_ALL, TB_GPU_COMP, TB_GPU_COMM };
static size_t tb_gpu_blocks(const struct tt_rank *r, int which, const int8_t *ktype,
			    struct tt_iv **out);
/* enum tt_ktype of every GPU op name id (-1 for other names) */
static int8_t *tb_kernel_types(const struct tt_rank *r);

/* The ProfilerStep#N windows of one rank (struct tt_step), by start;
 * gpu: merged blocks of all its GPU ops.  Returns the count; *out freed
 * by the caller. */
static size_t tb_rank_steps(const struct tt_rank *r, size_t ri, const struct tt_iv *gpu,
			    size_t ngpu, struct tt_step **out);

/* A map from 64-bit keys to 32-bit values (open addressing, no removal). */
struct tb_u64map {
	uint64_t *keys;
	uint32_t *vals; /* TT_NONE = empty */
	size_t cap, n;	/* cap: a power of two */
};
/* The value slot of key; a new slot holds TT_NONE (store anything else). */
static uint32_t *tb_u64map_slot(struct tb_u64map *h, uint64_t key);
static void tb_u64map_free(struct tb_u64map *h);

/* Id of s in t (interned), as an index into arrays kept beside t. */
static inline uint32_t tb_intern(struct tt_strtab *t, const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return tt_strtab_intern(t, s, n);
}

/* ---- small shared pieces ---- */

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double tt_tb_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void tt_tb_robust_z(const double *v, size_t n, double *z, double *med, double *scale)
{
	double *w = tt_malloc((n + 1) * sizeof(*w));
	if (n)
		memcpy(w, v, n * sizeof(*w));
	double md = tt_tb_median(w, n);
	double mean_ad = 0;
	for (size_t i = 0; i < n; i++) {
		w[i] = fabs(v[i] - md);
		mean_ad += w[i];
	}
	mean_ad = n ? mean_ad / (double)n : 0;
	double mad = tt_tb_median(w, n);
	double s = mad > 0 ? 1.4826 * mad : 1.2533 * mean_ad;
	for (size_t i = 0; i < n; i++)
		z[i] = s > 0 ? (v[i] - md) / s : 0;
	if (med)
		*med = md;
	if (scale)
		*scale = s;
	free(w);
}

int tt_tb_dtype_size(const char *type, size_t n)
{
	static const struct {
		const char *name;
		int size;
	} sizes[] = {
		{"float", 4},
		{"float32", 4},
		{"double", 8},
		{"float64", 8},
		{"half", 2},
		{"c10::half", 2},
		{"float16", 2},
		{"bfloat16", 2},
		{"c10::bfloat16", 2},
		{"long", 8},
		{"long int", 8},
		{"int64", 8},
		{"long long", 8},
		{"int", 4},
		{"int32", 4},
		{"short", 2},
		{"int16", 2},
		{"short int", 2},
		{"char", 1},
		{"signed char", 1},
		{"unsigned char", 1},
		{"byte", 1},
		{"bool", 1},
		{"uint8", 1},
		{"int8", 1},
		{"complexfloat", 8},
		{"c10::complex<float>", 8},
		{"complexdouble", 16},
		{"c10::complex<double>", 16},
		{"float8_e4m3fn", 1},
		{"float8_e5m2", 1},
		{"c10::float8_e4m3fn", 1},
		{"c10::float8_e5m2", 1},
	};
	char low[32];
	if (n == 0 || n >= sizeof(low))
		return 0;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)type[i]);
	low[n] = '\0';
	for (size_t i = 0; i < TT_ARRAY_SIZE(sizes); i++)
		if (strcmp(low, sizes[i].name) == 0)
			return sizes[i].size;
	return 0;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* the next string of a JSON list of strings: [*s, *s + *n); returns the
 * position after it, or NULL at the end of the list */
static const char *next_json_str(const char *p, const char **s, size_t *n)
{
	p = skip_ws(p);
	if (*p == '[' || *p == ',')
		p = skip_ws(p + 1);
	if (*p != '"')
		return NULL;
	p++;
	*s = p;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	*n = (size_t)(p - *s);
	return *p ? p + 1 : p;
}

int64_t tt_tb_input_bytes(const char *dims, const char *types)
{
	if (!dims || !types)
		return -1;
	const char *d = skip_ws(dims), *t = types;
	if (*d != '[')
		return -1;
	d++;
	int64_t total = 0;
	bool known = false;
	for (;;) {
		d = skip_ws(d);
		if (*d == ',')
			d = skip_ws(d + 1);
		if (*d != '[')
			break;
		/* one input: a list of integers (nested lists count as unknown) */
		d++;
		int64_t prod = 1;
		bool ok = true;
		for (;;) {
			d = skip_ws(d);
			if (*d == ',')
				d = skip_ws(d + 1);
			if (*d == ']') {
				d++;
				break;
			}
			if (*d == '\0')
				return known ? total : -1;
			if ((*d >= '0' && *d <= '9') || *d == '-') {
				char *e;
				long long v = strtoll(d, &e, 10);
				if (v < 0 || (v > 0 && prod > INT64_MAX / v))
					ok = false;
				else
					prod *= v;
				d = e;
			} else {
				ok = false;
				/* skip a nested value */
				int depth = 0;
				while (*d && !(depth == 0 && (*d == ',' || *d == ']'))) {
					if (*d == '[')
						depth++;
					else if (*d == ']')
						depth--;
					d++;
				}
			}
		}
		const char *ts = NULL;
		size_t tn = 0;
		if (t)
			t = next_json_str(t, &ts, &tn);
		int size = ts ? tt_tb_dtype_size(ts, tn) : 0;
		if (ok && size > 0) {
			known = true;
			if (prod <= (INT64_MAX - total) / size)
				total += prod * size;
		}
	}
	return known ? total : -1;
}

int64_t tt_tb_num_sms(const struct tt_rank *r, int64_t device)
{
	const struct tt_trace_meta *mt = &r->meta;
	int64_t same = -1;
	for (size_t i = 0; i < mt->ndevprops; i++) {
		const struct tt_devprop *d = &mt->devprops[i];
		if (d->id == device && d->num_sms > 0)
			return d->num_sms;
		if (d->num_sms <= 0)
			continue;
		if (same == -1)
			same = d->num_sms;
		else if (same != d->num_sms)
			same = 0;
	}
	return same > 0 ? same : 0;
}

double tt_tb_sm_efficiency(const struct tt_kinfo *k, int64_t num_sms)
{
	int64_t blocks = (int64_t)k->grid[0] * k->grid[1] * k->grid[2];
	if (blocks > 0 && num_sms > 0) {
		double f = (double)blocks / (double)num_sms;
		return f < 1 ? f : 1;
	}
	if (k->blocks_per_sm >= 0)
		return k->blocks_per_sm < 1 ? k->blocks_per_sm : 1;
	return NAN;
}

static bool tb_is_op(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_CPU_OP || k == TT_K_USER_ANNOT;
}

static bool tb_is_gpu_op(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & TT_EF_MARKER))
		return false;
	enum tt_cat_kind k = tt_ev_kind(r, e);
	return k == TT_K_KERNEL || k == TT_K_MEMCPY || k == TT_K_MEMSET;
}

/* ---- a small map from 64-bit keys to indices ---- */

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

static void tb_u64map_grow(struct tb_u64map *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	uint64_t *keys = tt_malloc(cap * sizeof(*keys));
	uint32_t *vals = tt_malloc(cap * sizeof(*vals));
	memset(vals, 0xff, cap * sizeof(*vals));
	for (size_t i = 0; i < h->cap; i++) {
		if (h->vals[i] == TT_NONE)
			continue;
		size_t j = mix64(h->keys[i]) & (cap - 1);
		while (vals[j] != TT_NONE)
			j = (j + 1) & (cap - 1);
		keys[j] = h->keys[i];
		vals[j] = h->vals[i];
	}
	free(h->keys);
	free(h->vals);
	h->keys = keys;
	h->vals = vals;
	h->cap = cap;
}

/* The value slot of key; a new slot holds TT_NONE. */
static uint32_t *tb_u64map_slot(struct tb_u64map *h, uint64_t key)
{
	if ((h->n + 1) * 2 > h->cap)
		tb_u64map_grow(h);
	size_t j = mix64(key) & (h->cap - 1);
	while (h->vals[j] != TT_NONE) {
		if (h->keys[j] == key)
			return &h->vals[j];
		j = (j + 1) & (h->cap - 1);
	}
	h->keys[j] = key;
	h->n++;
	return &h->vals[j];
}

static void tb_u64map_free(struct tb_u64map *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

/* ---- the op tree ---- */

static uint32_t *none_array(uint32_t n)
{
	uint32_t *a = tt_malloc(((size_t)n + 1) * sizeof(*a));
	memset(a, 0xff, ((size_t)n + 1) * sizeof(*a));
	return a;
}

struct stack {
	uint32_t *v;
	size_t n, cap;
};

static void pop_ended(const struct tt_rank *r, struct stack *s, int64_t ts)
{
	while (s->n && tt_ev_end(&r->ev[s->v[s->n - 1]]) <= ts)
		s->n--;
}

static void push(struct stack *s, uint32_t i)
{
	TT_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = i;
}

static uint32_t top(const struct stack *s)
{
	return s->n ? s->v[s->n - 1] : TT_NONE;
}

static void tb_tree_build(const struct tt_rank *r, struct tb_tree *t, bool python)
{
	memset(t, 0, sizeof(*t));
	t->parent = none_array(r->nev);
	t->owner = none_array(r->nev);
	if (python) {
		t->py = none_array(r->nev);
		t->pyparent = none_array(r->nev);
	}
	t->order = tt_malloc(((size_t)r->nev + 1) * sizeof(*t->order));
	struct stack ops = {0}, py = {0};
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_CPU)
			continue;
		ops.n = py.n = 0;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->flags & TT_EF_MARKER)
				continue;
			pop_ended(r, &ops, e->ts);
			if (python)
				pop_ended(r, &py, e->ts);
			if (tb_is_op(r, e)) {
				t->parent[i] = top(&ops);
				if (python)
					t->py[i] = top(&py);
				t->order[t->norder++] = i;
				push(&ops, i);
			} else if (e->ph == 'X' && tt_ev_kind(r, e) == TT_K_PYTHON) {
				if (python) {
					t->pyparent[i] = top(&py);
					push(&py, i);
				}
			} else {
				t->owner[i] = top(&ops);
			}
		}
	}
	free(ops.v);
	free(py.v);
}

static void tb_tree_free(struct tb_tree *t)
{
	free(t->parent);
	free(t->owner);
	free(t->py);
	free(t->pyparent);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

/* ---- intervals ---- */

static int64_t tb_iv_inter(const struct tt_iv *v, size_t n, int64_t a, int64_t b)
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
			sum += e - s;
	}
	return sum;
}

static size_t tb_iv_and(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
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

/* ---- GPU utilisation ---- */

/* per kernel name on one rank */
struct kacc {
	uint32_t name;
	uint64_t count;
	int64_t sum, max;
	double sm_acc, occ_acc;
	int64_t sm_ns, occ_ns;
	uint32_t longest;
};

struct util_rank {
	bool sel, nogpu;
	struct tt_util_dev *devs;
	size_t ndevs;
	struct kacc *k;
	size_t nk;
};

struct util_ctx {
	const struct tt_model *m;
	int nbuckets;
	struct util_rank *ranks;
};

static void util_rank(size_t ri, void *vctx)
{
	struct util_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct util_rank *ur = &c->ranks[ri];
	ur->sel = true;
	/* the devices of the GPU stream tracks */
	size_t ndev = 0, cdev = 0;
	int64_t *dev = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		bool seen = false;
		for (size_t d = 0; d < ndev && !seen; d++)
			seen = dev[d] == tr->device;
		if (!seen) {
			TT_GROW(dev, cdev, ndev + 1);
			dev[ndev++] = tr->device;
		}
	}
	for (size_t a = 1; a < ndev; a++)
		for (size_t b = a; b > 0 && dev[b - 1] > dev[b]; b--) {
			int64_t t = dev[b];
			dev[b] = dev[b - 1];
			dev[b - 1] = t;
		}
	uint32_t *kidx = none_array(r->strs.n);
	size_t kcap = 0;
	ur->devs = tt_calloc(ndev + 1, sizeof(*ur->devs));
	for (size_t d = 0; d < ndev; d++) {
		struct tt_util_dev *u = &ur->devs[ur->ndevs];
		u->ri = ri;
		u->rank = r->rank;
		u->device = dev[d];
		u->num_sms = tt_tb_num_sms(r, dev[d]);
		u->t0 = INT64_MAX;
		u->t1 = INT64_MIN;
		size_t na = 0, ca = 0, nk = 0, ck = 0;
		struct tt_iv *all = NULL, *kern = NULL;
		double sm_acc = 0, occ_acc = 0;
		for (uint32_t ti = 0; ti < r->ntracks; ti++) {
			const struct tt_track *tr = &r->tracks[ti];
			if (tr->kind != TT_TRACK_GPU || tr->device != dev[d])
				continue;
			u->nstreams++;
			for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
				const struct tt_event *e = &r->ev[i];
				if (!tb_is_gpu_op(r, e))
					continue;
				int64_t end = tt_ev_end(e);
				u->t0 = TT_MIN(u->t0, e->ts);
				u->t1 = TT_MAX(u->t1, end);
				TT_GROW(all, ca, na + 1);
				all[na++] = (struct tt_iv){e->ts, end};
				if (tt_ev_kind(r, e) != TT_K_KERNEL) {
					u->nmem++;
					continue;
				}
				u->nkernels++;
				u->kernel_sum_ns += e->dur;
				TT_GROW(kern, ck, nk + 1);
				kern[nk++] = (struct tt_iv){e->ts, end};
				double eff = NAN, occ = -1;
				if (e->flags & TT_EF_KINFO) {
					const struct tt_kinfo *k = &r->kinfo[e->aux];
					eff = tt_tb_sm_efficiency(k, u->num_sms);
					int64_t blocks =
						(int64_t)k->grid[0] * k->grid[1] * k->grid[2];
					if (!isnan(eff) && !(blocks > 0 && u->num_sms > 0))
						u->sm_from_args = true;
					occ = k->occupancy;
				}
				if (!isnan(eff)) {
					sm_acc += eff * (double)e->dur;
					u->sm_eff_ns += e->dur;
				}
				if (occ >= 0) {
					occ_acc += occ * (double)e->dur;
					u->occ_ns += e->dur;
				}
				/* per kernel name */
				uint32_t ki = kidx[e->name];
				if (ki == TT_NONE) {
					TT_GROW(ur->k, kcap, ur->nk + 1);
					ki = kidx[e->name] = (uint32_t)ur->nk++;
					memset(&ur->k[ki], 0, sizeof(ur->k[ki]));
					ur->k[ki].name = e->name;
					ur->k[ki].longest = i;
					ur->k[ki].max = -1;
				}
				struct kacc *ka = &ur->k[ki];
				ka->count++;
				ka->sum += e->dur;
				if (e->dur > ka->max) {
					ka->max = e->dur;
					ka->longest = i;
				}
				if (!isnan(eff)) {
					ka->sm_acc += eff * (double)e->dur;
					ka->sm_ns += e->dur;
				}
				if (occ >= 0) {
					ka->occ_acc += occ * (double)e->dur;
					ka->occ_ns += e->dur;
				}
			}
		}
		if (!na) {
			free(all);
			free(kern);
			continue;
		}
		size_t nb = tt_iv_merge(all, na);
		u->busy_ns = tt_iv_total(all, nb);
		size_t nkb = tt_iv_merge(kern, nk);
		u->kernel_busy_ns = tt_iv_total(kern, nkb);
		int64_t span = u->t1 - u->t0;
		u->util_pct = span > 0 ? 100.0 * (double)u->busy_ns / (double)span : NAN;
		u->sm_eff_pct = u->sm_eff_ns > 0 ? 100.0 * sm_acc / (double)u->sm_eff_ns : NAN;
		u->occ_pct = u->occ_ns > 0 ? occ_acc / (double)u->occ_ns : NAN;
		u->series = tt_calloc((size_t)c->nbuckets, sizeof(*u->series));
		for (int b = 0; b < c->nbuckets && span > 0; b++) {
			int64_t a0 = u->t0 + (int64_t)((double)span * b / c->nbuckets);
			int64_t a1 =
				b + 1 == c->nbuckets
					? u->t1
					: u->t0 + (int64_t)((double)span * (b + 1) / c->nbuckets);
			if (a1 > a0)
				u->series[b] = (float)((double)tb_iv_inter(all, nb, a0, a1) /
						       (double)(a1 - a0));
		}
		free(all);
		free(kern);
		ur->ndevs++;
	}
	ur->nogpu = ur->ndevs == 0;
	free(kidx);
	free(dev);
}

static int ukernel_cmp(const void *a, const void *b)
{
	const struct tt_util_kernel *x = a, *y = b;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

void tt_util_compute(const struct tt_model *m, const struct tt_aopts *o, int nbuckets,
		     struct tt_util *out)
{
	memset(out, 0, sizeof(*out));
	out->nbuckets = nbuckets >= 1 ? nbuckets : TT_UTIL_BUCKETS;
	tt_strtab_init(&out->names);
	struct util_ctx c = {m, out->nbuckets, tt_calloc(m->nranks + 1, sizeof(*c.ranks))};
	tt_for_ranks(m, o, util_rank, &c);
	size_t ndevs = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		ndevs += c.ranks[ri].ndevs;
	out->devs = tt_calloc(ndevs + 1, sizeof(*out->devs));
	/* kernels across ranks: by interned name */
	size_t kcap = 0;
	double *sm_acc = NULL, *occ_acc = NULL;
	int64_t *sm_ns = NULL, *occ_ns = NULL;
	int64_t *last_rank = NULL;
	size_t acap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct util_rank *ur = &c.ranks[ri];
		if (!ur->sel)
			continue;
		out->nranks_sel++;
		out->nranks_nogpu += ur->nogpu;
		if (ur->ndevs)
			memcpy(&out->devs[out->ndevs], ur->devs, ur->ndevs * sizeof(*ur->devs));
		out->ndevs += ur->ndevs;
		const struct tt_rank *r = m->ranks[ri];
		for (size_t i = 0; i < ur->nk; i++) {
			const struct kacc *ka = &ur->k[i];
			uint32_t g = tb_intern(&out->names, tt_str(r, ka->name));
			if (g >= out->nkernels) {
				/* a new name: ids are dense, so g == nkernels */
				TT_GROW(out->kernels, kcap, (size_t)g + 1);
				if (acap < kcap) {
					sm_acc = tt_realloc_array(sm_acc, kcap, sizeof(*sm_acc));
					occ_acc = tt_realloc_array(occ_acc, kcap, sizeof(*occ_acc));
					sm_ns = tt_realloc_array(sm_ns, kcap, sizeof(*sm_ns));
					occ_ns = tt_realloc_array(occ_ns, kcap, sizeof(*occ_ns));
					last_rank = tt_realloc_array(last_rank, kcap,
								     sizeof(*last_rank));
					acap = kcap;
				}
				for (size_t n = out->nkernels; n <= g; n++) {
					memset(&out->kernels[n], 0, sizeof(out->kernels[n]));
					out->kernels[n].max_ns = -1;
					sm_acc[n] = occ_acc[n] = 0;
					sm_ns[n] = occ_ns[n] = 0;
					last_rank[n] = -1;
				}
				out->nkernels = (size_t)g + 1;
			}
			struct tt_util_kernel *k = &out->kernels[g];
			if (last_rank[g] != (int64_t)ri) {
				k->nranks++;
				last_rank[g] = (int64_t)ri;
			}
			k->count += ka->count;
			k->sum_ns += ka->sum;
			if (ka->max > k->max_ns) {
				k->max_ns = ka->max;
				k->ri = ri;
				k->longest = ka->longest;
			}
			sm_acc[g] += ka->sm_acc;
			sm_ns[g] += ka->sm_ns;
			occ_acc[g] += ka->occ_acc;
			occ_ns[g] += ka->occ_ns;
		}
		free(ur->devs);
		free(ur->k);
	}
	for (size_t g = 0; g < out->nkernels; g++) {
		struct tt_util_kernel *k = &out->kernels[g];
		k->name = tt_strtab_get(&out->names, (uint32_t)g);
		k->sm_eff_pct = sm_ns[g] > 0 ? 100.0 * sm_acc[g] / (double)sm_ns[g] : NAN;
		k->occ_pct = occ_ns[g] > 0 ? occ_acc[g] / (double)occ_ns[g] : NAN;
		k->blocks = k->threads = -1;
		k->regs = 0;
		if (!k->count)
			continue; /* id 0, the empty string, when no kernel used it */
		const struct tt_rank *r = m->ranks[k->ri];
		const struct tt_event *e = &r->ev[k->longest];
		if (e->flags & TT_EF_KINFO) {
			const struct tt_kinfo *ki = &r->kinfo[e->aux];
			int64_t bl = (int64_t)ki->grid[0] * ki->grid[1] * ki->grid[2];
			int64_t th = (int64_t)ki->block[0] * ki->block[1] * ki->block[2];
			k->blocks = bl > 0 ? bl : -1;
			k->threads = th > 0 && th <= INT32_MAX ? (int32_t)th : -1;
			k->regs = ki->regs;
		}
	}
	/* drop the slot of id 0 (the empty string) when no kernel used it */
	size_t w = 0;
	for (size_t i = 0; i < out->nkernels; i++)
		if (out->kernels[i].count)
			out->kernels[w++] = out->kernels[i];
	out->nkernels = w;
	if (w > 1)
		qsort(out->kernels, w, sizeof(*out->kernels), ukernel_cmp);
	free(sm_acc);
	free(occ_acc);
	free(sm_ns);
	free(occ_ns);
	free(last_rank);
	free(c.ranks);
}

void tt_util_free(struct tt_util *u)
{
	for (size_t i = 0; i < u->ndevs; i++)
		free(u->devs[i].series);
	free(u->devs);
	free(u->kernels);
	tt_strtab_free(&u->names);
	memset(u, 0, sizeof(*u));
}

/* ---- steps ---- */

static size_t tb_gpu_blocks(const struct tt_rank *r, int which, const int8_t *ktype,
			    struct tt_iv **out)
{
	size_t n = 0, cap = 0;
	struct tt_iv *v = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tb_is_gpu_op(r, e))
				continue;
			if (which != TB_GPU_ALL) {
				if (tt_ev_kind(r, e) != TT_K_KERNEL)
					continue;
				bool comm = ktype[e->name] == TT_KT_COMM;
				if ((which == TB_GPU_COMM) != comm)
					continue;
			}
			TT_GROW(v, cap, n + 1);
			v[n++] = (struct tt_iv){e->ts, tt_ev_end(e)};
		}
	}
	n = tt_iv_merge(v, n);
	*out = v;
	return n;
}

static int8_t *tb_kernel_types(const struct tt_rank *r)
{
	int8_t *t = tt_malloc((size_t)r->strs.n + 1);
	memset(t, -1, (size_t)r->strs.n + 1);
	for (uint32_t ti = 0, i0, i1; tt_next_gpu_track(r, &ti, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (t[e->name] < 0 && (e->flags & TT_EF_STREAM))
				t[e->name] = (int8_t)tt_kernel_type(tt_ev_name(r, e), NULL);
		}
	return t;
}

static int step_cmp(const void *a, const void *b)
{
	const struct tt_step *x = a, *y = b;
	if (x->cpu_ts != y->cpu_ts)
		return x->cpu_ts < y->cpu_ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static size_t tb_rank_steps(const struct tt_rank *r, size_t ri, const struct tt_iv *gpu,
			    size_t ngpu, struct tt_step **out)
{
	size_t n = 0, cap = 0;
	struct tt_step *s = NULL;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_CPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tb_is_op(r, e))
				continue;
			const char *nm = tt_ev_name(r, e);
			if (nm[0] != 'P')
				continue;
			int64_t num = tt_step_number(nm);
			if (num < 0)
				continue;
			TT_GROW(s, cap, n + 1);
			memset(&s[n], 0, sizeof(s[n]));
			s[n].ri = ri;
			s[n].rank = r->rank;
			s[n].num = num;
			s[n].ev = i;
			s[n].cpu_ts = e->ts;
			s[n].cpu_dur = e->dur;
			s[n].t1 = tt_ev_end(e); /* the GPU end for now */
			n++;
		}
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), step_cmp);
	/* the GPU work launched inside each step */
	for (uint32_t l = 0; l < r->nlinks && n; l++) {
		const struct tt_event *c = &r->ev[r->links[l].cpu];
		const struct tt_event *g = &r->ev[r->links[l].gpu];
		if (!tb_is_gpu_op(r, g))
			continue;
		/* the last step starting at or before the call */
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s[mid].cpu_ts <= c->ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			continue;
		struct tt_step *st = &s[lo - 1];
		if (c->ts < st->cpu_ts + st->cpu_dur && tt_ev_end(g) > st->t1)
			st->t1 = tt_ev_end(g);
	}
	int64_t prev = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t gend = s[i].t1;
		s[i].t0 = TT_MAX(prev, s[i].cpu_ts);
		s[i].t1 = TT_MAX(prev, TT_MAX(s[i].cpu_ts + s[i].cpu_dur, gend));
		prev = s[i].t1;
		s[i].gpu_busy_ns = tb_iv_inter(gpu, ngpu, s[i].t0, s[i].t1);
	}
	*out = s;
	return n;
}

struct steps_rank_out {
	bool sel;
	struct tt_step *s;
	size_t n;
};

struct steps_ctx {
	const struct tt_model *m;
	struct steps_rank_out *r;
};

static void steps_rank(size_t ri, void *vctx)
{
	struct steps_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct tt_iv *gpu;
	size_t ng = tb_gpu_blocks(r, TB_GPU_ALL, NULL, &gpu);
	c->r[ri].sel = true;
	c->r[ri].n = tb_rank_steps(r, ri, gpu, ng, &c->r[ri].s);
	free(gpu);
}

void tt_steps_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_steps *out)
{
	memset(out, 0, sizeof(*out));
	struct steps_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, steps_rank, &c);
	size_t total = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		total += c.r[ri].n;
	out->steps = tt_calloc(total + 1, sizeof(*out->steps));
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	double *d = tt_calloc(total + 1, sizeof(*d));
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!c.r[ri].sel)
			continue;
		struct tt_steps_rank *sr = &out->ranks[out->nranks++];
		sr->ri = ri;
		sr->rank = m->ranks[ri]->rank;
		sr->first = out->nsteps;
		sr->n = c.r[ri].n;
		sr->first_num = sr->last_num = -1;
		if (c.r[ri].n)
			memcpy(&out->steps[out->nsteps], c.r[ri].s, c.r[ri].n * sizeof(*c.r[ri].s));
		out->nsteps += c.r[ri].n;
		free(c.r[ri].s);
		if (!sr->n)
			continue;
		sr->min_ns = INT64_MAX;
		sr->max_ns = INT64_MIN;
		for (size_t i = 0; i < sr->n; i++) {
			const struct tt_step *st = &out->steps[sr->first + i];
			int64_t dur = st->t1 - st->t0;
			d[i] = (double)dur;
			sr->sum_ns += dur;
			sr->min_ns = TT_MIN(sr->min_ns, dur);
			sr->max_ns = TT_MAX(sr->max_ns, dur);
			if (sr->first_num < 0 || st->num < sr->first_num)
				sr->first_num = st->num;
			if (st->num > sr->last_num)
				sr->last_num = st->num;
		}
		sr->mean_ns = sr->sum_ns / (int64_t)sr->n;
		sr->median_ns = (int64_t)llround(tt_tb_median(d, sr->n));
	}
	free(d);
	free(c.r);
}

void tt_steps_free(struct tt_steps *s)
{
	free(s->steps);
	free(s->ranks);
	memset(s, 0, sizeof(*s));
}

/* ---- source helpers ---- */

bool tt_tb_frame_parse(const char *frame, size_t len, char *file, size_t fn, int64_t *line)
{
	/* "path(123): func": the last "(digits)" before ": " */
	const char *end = frame + len;
	const char *colon = NULL;
	for (const char *p = frame; p + 2 <= end; p++)
		if (p[0] == ')' && p + 1 < end && p[1] == ':') {
			colon = p;
			break;
		}
	if (!colon)
		return false;
	const char *open = colon;
	while (open > frame && open[-1] >= '0' && open[-1] <= '9')
		open--;
	if (open == colon || open == frame || open[-1] != '(')
		return false;
	size_t flen = (size_t)(open - 1 - frame);
	if (!flen || flen >= fn || frame[0] == '<')
		return false;
	memcpy(file, frame, flen);
	file[flen] = '\0';
	*line = strtoll(open, NULL, 10);
	return true;
}

size_t tt_tb_editor_command(char *buf, size_t n, const char *editor, const char *file, int64_t line)
{
	if (!editor || !editor[0])
		editor = "vi";
	size_t k = (size_t)snprintf(buf, n, "%s +%lld '", editor, (long long)line);
	for (const char *p = file; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : NULL;
		char one[2] = {*p, '\0'};
		const char *s = piece ? piece : one;
		size_t l = strlen(s);
		if (k + l + 1 < n)
			memcpy(buf + k, s, l);
		k += l;
	}
	if (k + 1 < n) {
		buf[k] = '\'';
		buf[k + 1] = '\0';
	} else if (n) {
		buf[n - 1] = '\0';
	}
	return k + 1;
}

/* ==== distributed ==== */

size_t tt_tb_coll_key(const char *name, char *buf, size_t n)
{
	const char *s = strrchr(name, ':');
	s = s ? s + 1 : name;
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (isalnum((unsigned char)*s))
			buf[k++] = (char)tolower((unsigned char)*s);
	if (n)
		buf[k] = '\0';
	return k;
}

/* ---- one rank ---- */

struct pcall {
	char name[64];
	const char *source;
	uint32_t kernel, nkernels, cpu;
	int64_t ts, dur, bytes;
};

struct dist_out {
	bool sel;
	struct tt_dist_rank row;
	struct pcall *calls;
	size_t ncalls;
};

struct dist_ctx {
	const struct tt_model *m;
	struct dist_out *r;
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
	if (ne < 0 || size <= 0)
		return -1;
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

/* Name, size and CPU op of one communication kernel (see tbviews.h). */
static void describe(const struct tt_rank *r, const struct tb_tree *t, uint32_t i, struct pcall *c)
{
	const struct tt_event *e = &r->ev[i];
	c->name[0] = '\0';
	c->source = NULL;
	c->cpu = TT_NONE;
	c->bytes = -1;
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
		}
	}
	uint32_t launch = tt_launch_of(r, i);
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

static int pcall_cmp(const void *a, const void *b)
{
	const struct pcall *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

static void dist_rank(size_t ri, void *vctx)
{
	struct dist_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct dist_out *d = &c->r[ri];
	d->sel = true;
	struct tt_dist_rank *w = &d->row;
	w->ri = ri;
	w->rank = r->rank;
	int8_t *kt = tb_kernel_types(r);
	struct tt_iv *all, *comp, *comm, *both;
	size_t nall = tb_gpu_blocks(r, TB_GPU_ALL, kt, &all);
	size_t ncomp = tb_gpu_blocks(r, TB_GPU_COMP, kt, &comp);
	size_t ncomm = tb_gpu_blocks(r, TB_GPU_COMM, kt, &comm);
	size_t nboth = tb_iv_and(comp, ncomp, comm, ncomm, &both);
	w->has_gpu = nall > 0;
	struct tt_step *st;
	size_t ns = tb_rank_steps(r, ri, all, nall, &st);
	w->has_steps = ns > 0;
	size_t nw = ns ? ns : 1;
	int64_t sum[6] = {0};
	for (size_t k = 0; k < nw; k++) {
		int64_t a = ns ? st[k].t0 : r->t0, b = ns ? st[k].t1 : r->t1;
		if (!ns && nall) { /* the span of the rank's work, GPU included */
			a = TT_MIN(a, all[0].ts);
			b = TT_MAX(b, all[nall - 1].end);
		}
		int64_t win = b - a;
		int64_t cp = tb_iv_inter(comp, ncomp, a, b), cm = tb_iv_inter(comm, ncomm, a, b);
		int64_t ov = tb_iv_inter(both, nboth, a, b), busy = tb_iv_inter(all, nall, a, b);
		sum[0] += win;
		sum[1] += cp - ov;
		sum[2] += ov;
		sum[3] += cm - ov;
		sum[4] += win - (cp + cm - ov);
		sum[5] += win - busy;
	}
	w->nwindows = (uint32_t)nw;
	w->step_ns = sum[0] / (int64_t)nw;
	w->comp_ns = sum[1] / (int64_t)nw;
	w->overlap_ns = sum[2] / (int64_t)nw;
	w->comm_ns = sum[3] / (int64_t)nw;
	w->other_ns = sum[4] / (int64_t)nw;
	w->idle_ns = sum[5] / (int64_t)nw;
	free(st);
	free(all);
	free(comp);
	free(comm);
	free(both);
	/* collective calls */
	struct tb_tree t;
	bool any = false;
	for (uint32_t i = 0; i < r->nev && !any; i++)
		any = kt[r->ev[i].name] == TT_KT_COMM && tb_is_gpu_op(r, &r->ev[i]) &&
		      tt_ev_kind(r, &r->ev[i]) == TT_K_KERNEL;
	if (!any) {
		free(kt);
		return;
	}
	tb_tree_build(r, &t, false);
	uint32_t *by_cpu = tt_malloc(((size_t)r->nev + 1) * sizeof(*by_cpu));
	memset(by_cpu, 0xff, ((size_t)r->nev + 1) * sizeof(*by_cpu));
	size_t cap = 0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (tr->kind != TT_TRACK_GPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tb_is_gpu_op(r, e) || tt_ev_kind(r, e) != TT_K_KERNEL ||
			    kt[e->name] != TT_KT_COMM)
				continue;
			struct pcall pc;
			describe(r, &t, i, &pc);
			if (pc.cpu != TT_NONE && by_cpu[pc.cpu] != TT_NONE) {
				struct pcall *q = &d->calls[by_cpu[pc.cpu]];
				q->nkernels++;
				q->dur += e->dur;
				if (e->ts < q->ts) {
					q->ts = e->ts;
					q->kernel = i;
				}
				continue;
			}
			pc.kernel = i;
			pc.nkernels = 1;
			pc.ts = e->ts;
			pc.dur = e->dur;
			TT_GROW(d->calls, cap, d->ncalls + 1);
			if (pc.cpu != TT_NONE)
				by_cpu[pc.cpu] = (uint32_t)d->ncalls;
			d->calls[d->ncalls++] = pc;
		}
	}
	if (d->ncalls > 1)
		qsort(d->calls, d->ncalls, sizeof(*d->calls), pcall_cmp);
	free(by_cpu);
	tb_tree_free(&t);
	free(kt);
}

/* ---- across ranks ---- */

static int call_match_cmp(const void *a, const void *b, void *vctx)
{
	const struct tt_coll_call *v = vctx;
	const struct tt_coll_call *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
	if (x->stat != y->stat)
		return x->stat < y->stat ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ri < y->ri ? -1 : x->ri > y->ri;
}

static int stat_cmp(const void *a, const void *b)
{
	const struct tt_coll_stat *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int strag_cmp(const void *a, const void *b)
{
	const struct tt_straggler *x = a, *y = b;
	if (fabs(x->z) != fabs(y->z))
		return fabs(x->z) > fabs(y->z) ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->metric, y->metric);
}

static void fmt_ns(char *buf, size_t n, double ns)
{
	double a = fabs(ns);
	if (a >= 1e9)
		snprintf(buf, n, "%.2f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, n, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, n, "%.0f us", ns / 1e3);
}

static void stragglers(struct tt_dist *d)
{
	static const char *const metrics[] = {"step", "idle", "sync"};
	double *v = tt_calloc(d->nranks + 1, sizeof(*v)), *z = tt_calloc(d->nranks + 1, sizeof(*z));
	size_t *who = tt_calloc(d->nranks + 1, sizeof(*who));
	size_t cap = 0;
	for (int mi = 0; mi < 3; mi++) {
		size_t n = 0;
		size_t with_steps = 0;
		for (size_t i = 0; i < d->nranks; i++)
			with_steps += d->ranks[i].has_steps;
		for (size_t i = 0; i < d->nranks; i++) {
			const struct tt_dist_rank *w = &d->ranks[i];
			if (mi == 0 && w->has_steps) {
				v[n] = (double)w->step_ns;
			} else if (mi == 1 && w->has_gpu && (w->has_steps || !with_steps)) {
				v[n] = (double)w->idle_ns;
			} else if (mi == 2 && w->ncalls) {
				v[n] = (double)w->sync_ns;
			} else {
				continue;
			}
			who[n++] = i;
		}
		if (n < 3)
			continue;
		double med, scale;
		tt_tb_robust_z(v, n, z, &med, &scale);
		for (size_t k = 0; k < n; k++) {
			double diff = v[k] - med;
			if (fabs(z[k]) < 3.5 || fabs(diff) < 0.05 * fabs(med) || diff == 0)
				continue;
			/* a fast step or little idle is no straggler; little sync
			 * is: the others wait for this rank */
			if (mi < 2 && diff < 0)
				continue;
			const struct tt_dist_rank *w = &d->ranks[who[k]];
			TT_GROW(d->stragglers, cap, d->nstragglers + 1);
			struct tt_straggler *s = &d->stragglers[d->nstragglers++];
			memset(s, 0, sizeof(*s));
			s->ri = w->ri;
			s->rank = w->rank;
			s->metric = metrics[mi];
			s->value = v[k];
			s->median = med;
			s->z = z[k];
			char a[32], b[32];
			fmt_ns(a, sizeof(a), v[k]);
			fmt_ns(b, sizeof(b), med);
			double pct = med != 0 ? 100.0 * diff / fabs(med) : 0;
			if (mi == 0)
				snprintf(s->reason, sizeof(s->reason),
					 "mean step %s vs median %s across ranks (%+.0f %%)", a, b,
					 pct);
			else if (mi == 1)
				snprintf(s->reason, sizeof(s->reason),
					 "GPU idle %s per step vs median %s (%+.0f %%): its GPU "
					 "waits "
					 "for its host",
					 a, b, pct);
			else if (diff > 0)
				snprintf(
					s->reason, sizeof(s->reason),
					"waits %s in collectives vs median %s: it waits for slower "
					"ranks",
					a, b);
			else
				snprintf(s->reason, sizeof(s->reason),
					 "waits only %s in collectives vs median %s: the others "
					 "wait "
					 "for it",
					 a, b);
		}
	}
	if (d->nstragglers > 1)
		qsort(d->stragglers, d->nstragglers, sizeof(*d->stragglers), strag_cmp);
	free(v);
	free(z);
	free(who);
}

void tt_dist_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_dist *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->names);
	struct dist_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, dist_rank, &c);
	size_t ncalls = 0;
	for (size_t ri = 0; ri < m->nranks; ri++)
		ncalls += c.r[ri].ncalls;
	out->ranks = tt_calloc(m->nranks + 1, sizeof(*out->ranks));
	out->calls = tt_calloc(ncalls + 1, sizeof(*out->calls));
	uint32_t *key2stat = NULL;
	size_t kcap = 0, scap = 0;
	/* calls per (stat, rank): for seq and counts_differ */
	uint32_t *seqs = NULL;
	size_t seqcap = 0;
	char key[64];
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct dist_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		out->ranks[out->nranks++] = d->row;
		/* seq counters of this rank */
		if (seqcap < out->nstats + d->ncalls + 1) {
			seqs = tt_realloc_array(seqs, out->nstats + d->ncalls + 1, sizeof(*seqs));
			seqcap = out->nstats + d->ncalls + 1;
		}
		memset(seqs, 0, seqcap * sizeof(*seqs));
		for (size_t k = 0; k < d->ncalls; k++) {
			const struct pcall *pc = &d->calls[k];
			tt_tb_coll_key(pc->name, key, sizeof(key));
			uint32_t kid = tb_intern(&out->names, key);
			if (kid >= kcap) {
				size_t old = kcap;
				TT_GROW(key2stat, kcap, (size_t)kid + 1);
				memset(key2stat + old, 0xff, (kcap - old) * sizeof(*key2stat));
			}
			if (key2stat[kid] == TT_NONE) {
				TT_GROW(out->stats, scap, out->nstats + 1);
				struct tt_coll_stat *s = &out->stats[out->nstats];
				memset(s, 0, sizeof(*s));
				/* the display name: interning it does not disturb key ids,
				 * which are only looked up */
				s->name = tt_strtab_get(&out->names,
							tb_intern(&out->names, pc->name));
				/* at most one new name per call: seqs is big enough */
				key2stat[kid] = (uint32_t)out->nstats++;
			}
			uint32_t si = key2stat[kid];
			struct tt_coll_call *w = &out->calls[out->ncalls++];
			w->ri = ri;
			w->rank = m->ranks[ri]->rank;
			w->stat = si;
			w->kernel = pc->kernel;
			w->nkernels = pc->nkernels;
			w->cpu = pc->cpu;
			w->source = pc->source;
			w->seq = seqs[si]++;
			w->ts = pc->ts;
			w->dur = pc->dur;
			w->bytes = pc->bytes;
			w->transfer = pc->dur;
		}
		free(d->calls);
	}
	/* match calls of one name across ranks by their order */
	uint32_t *idx = tt_malloc((out->ncalls + 1) * sizeof(*idx));
	for (size_t i = 0; i < out->ncalls; i++)
		idx[i] = (uint32_t)i;
	tt_msort(idx, out->ncalls, sizeof(*idx), call_match_cmp, out->calls);
	for (size_t a = 0; a < out->ncalls;) {
		size_t b = a + 1;
		const struct tt_coll_call *x = &out->calls[idx[a]];
		while (b < out->ncalls && out->calls[idx[b]].stat == x->stat &&
		       out->calls[idx[b]].seq == x->seq)
			b++;
		if (b - a >= 2) {
			int64_t mn = INT64_MAX;
			for (size_t k = a; k < b; k++)
				mn = TT_MIN(mn, out->calls[idx[k]].dur);
			for (size_t k = a; k < b; k++) {
				struct tt_coll_call *w = &out->calls[idx[k]];
				w->matched = true;
				w->transfer = mn;
				w->sync = w->dur - mn;
			}
		}
		a = b;
	}
	free(idx);
	/* statistics per name and per rank */
	uint32_t *cnt = tt_calloc((out->nstats + 1) * (out->nranks + 1), sizeof(*cnt));
	size_t *rpos = tt_calloc(m->nranks + 1, sizeof(*rpos));
	for (size_t i = 0; i < out->nranks; i++)
		rpos[out->ranks[i].ri] = i;
	for (size_t i = 0; i < out->ncalls; i++) {
		const struct tt_coll_call *w = &out->calls[i];
		struct tt_coll_stat *s = &out->stats[w->stat];
		s->calls++;
		s->matched += w->matched;
		if (w->bytes >= 0) {
			s->bytes += w->bytes;
			s->with_bytes++;
		}
		s->total_ns += w->dur;
		s->transfer_ns += w->transfer;
		s->sync_ns += w->sync;
		cnt[(size_t)w->stat * (out->nranks + 1) + rpos[w->ri]]++;
		struct tt_dist_rank *dr = &out->ranks[rpos[w->ri]];
		dr->ncalls++;
		dr->coll_ns += w->dur;
		dr->transfer_ns += w->transfer;
		dr->sync_ns += w->sync;
	}
	/* ranks with communication at all take part in the count comparison */
	for (size_t s = 0; s < out->nstats; s++) {
		uint32_t first = UINT32_MAX;
		for (size_t k = 0; k < out->nranks; k++) {
			uint32_t x = cnt[s * (out->nranks + 1) + k];
			if (x)
				out->stats[s].nranks++;
			if (!out->ranks[k].ncalls)
				continue;
			if (first == UINT32_MAX)
				first = x;
			else if (x != first)
				out->stats[s].counts_differ = true;
		}
	}
	/* sort the statistics; calls keep pointing at them through a map */
	uint32_t *newpos = tt_malloc((out->nstats + 1) * sizeof(*newpos));
	struct tt_coll_stat *old = tt_malloc((out->nstats + 1) * sizeof(*old));
	if (out->nstats)
		memcpy(old, out->stats, out->nstats * sizeof(*old));
	if (out->nstats > 1)
		qsort(out->stats, out->nstats, sizeof(*out->stats), stat_cmp);
	for (size_t s = 0; s < out->nstats; s++)
		for (size_t k = 0; k < out->nstats; k++)
			if (old[s].name == out->stats[k].name) {
				newpos[s] = (uint32_t)k;
				break;
			}
	for (size_t i = 0; i < out->ncalls; i++)
		out->calls[i].stat = newpos[out->calls[i].stat];
	free(newpos);
	free(old);
	free(cnt);
	free(rpos);
	free(seqs);
	free(key2stat);
	free(c.r);
	stragglers(out);
}

void tt_dist_free(struct tt_dist *d)
{
	free(d->ranks);
	free(d->calls);
	free(d->stats);
	free(d->stragglers);
	tt_strtab_free(&d->names);
	memset(d, 0, sizeof(*d));
}

/* ==== operators and source ==== */

/* Index of `s` in t, with a side array grown to match. */
static uint32_t key_index(struct tt_strtab *t, const char *s, size_t n, uint32_t **map, size_t *cap)
{
	uint32_t id = tt_strtab_intern(t, s, n);
	if (id >= *cap) {
		size_t old = *cap;
		TT_GROW(*map, *cap, (size_t)id + 1);
		memset(*map + old, 0xff, (*cap - old) * sizeof(**map));
	}
	return id;
}

/* ---- operators ---- */

struct opacc {
	uint32_t name, dims; /* rank string ids (dims TT_NONE: absent) */
	bool annot;
	uint64_t calls, gself, gtotal;
	int64_t htotal, hself, dtotal, dself;
	int64_t longest_dur;
	uint32_t longest;
};

struct ops_out {
	bool sel;
	struct opacc *acc;
	size_t n;
	bool any_shapes;
};

struct ops_ctx {
	const struct tt_model *m;
	bool by_shapes;
	struct ops_out *r;
};

static uint32_t dims_of(const struct tt_rank *r, const struct tt_event *e)
{
	if (!(e->flags & TT_EF_OPINFO))
		return TT_NONE;
	return r->opinfo[e->aux].input_dims;
}

static void ops_rank(size_t ri, void *vctx)
{
	struct ops_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct ops_out *d = &c->r[ri];
	d->sel = true;
	struct tb_tree t;
	tb_tree_build(r, &t, false);
	size_t nev = (size_t)r->nev + 1;
	int64_t *child = tt_calloc(nev, sizeof(*child));
	int64_t *dself = tt_calloc(nev, sizeof(*dself)), *dtotal = tt_calloc(nev, sizeof(*dtotal));
	uint64_t *gself = tt_calloc(nev, sizeof(*gself)), *gtotal = tt_calloc(nev, sizeof(*gtotal));
	for (uint32_t k = 0; k < t.norder; k++) {
		uint32_t i = t.order[k], p = t.parent[i];
		if (p == TT_NONE)
			continue;
		int64_t end = TT_MIN(tt_ev_end(&r->ev[i]), tt_ev_end(&r->ev[p]));
		if (end > r->ev[i].ts)
			child[p] += end - r->ev[i].ts;
	}
	for (uint32_t l = 0; l < r->nlinks; l++) {
		uint32_t g = r->links[l].gpu, o = t.owner[r->links[l].cpu];
		if (o == TT_NONE || !tb_is_gpu_op(r, &r->ev[g]))
			continue;
		dself[o] += r->ev[g].dur;
		gself[o]++;
	}
	for (uint32_t k = 0; k < t.norder; k++) {
		uint32_t i = t.order[k];
		dtotal[i] += dself[i];
		gtotal[i] += gself[i];
	}
	/* children after parents in order: add up from the end */
	for (uint32_t k = t.norder; k-- > 0;) {
		uint32_t i = t.order[k], p = t.parent[i];
		if (p != TT_NONE) {
			dtotal[p] += dtotal[i];
			gtotal[p] += gtotal[i];
		}
	}
	uint32_t *by_name =
		c->by_shapes ? NULL : tt_malloc(((size_t)r->strs.n + 1) * sizeof(*by_name));
	if (by_name)
		memset(by_name, 0xff, ((size_t)r->strs.n + 1) * sizeof(*by_name));
	struct tb_u64map h = {0};
	int8_t *is_step = tt_malloc((size_t)r->strs.n + 1);
	memset(is_step, -1, (size_t)r->strs.n + 1);
	size_t cap = 0;
	for (uint32_t k = 0; k < t.norder; k++) {
		uint32_t i = t.order[k];
		const struct tt_event *e = &r->ev[i];
		if (is_step[e->name] < 0)
			is_step[e->name] = tt_step_number(tt_ev_name(r, e)) >= 0;
		if (is_step[e->name])
			continue;
		uint32_t dims = dims_of(r, e);
		if (dims != TT_NONE)
			d->any_shapes = true;
		uint32_t *slot;
		if (by_name)
			slot = &by_name[e->name];
		else
			slot = tb_u64map_slot(&h, ((uint64_t)e->name << 32) | dims);
		if (*slot == TT_NONE) {
			TT_GROW(d->acc, cap, d->n + 1);
			struct opacc *a = &d->acc[d->n];
			memset(a, 0, sizeof(*a));
			a->name = e->name;
			a->dims = by_name ? TT_NONE : dims;
			a->annot = tt_ev_kind(r, e) == TT_K_USER_ANNOT;
			a->longest_dur = -1;
			*slot = (uint32_t)d->n++;
		}
		struct opacc *a = &d->acc[*slot];
		a->calls++;
		a->htotal += e->dur;
		a->hself += e->dur - child[i] > 0 ? e->dur - child[i] : 0;
		a->dself += dself[i];
		a->dtotal += dtotal[i];
		a->gself += gself[i];
		a->gtotal += gtotal[i];
		if (e->dur > a->longest_dur) {
			a->longest_dur = e->dur;
			a->longest = i;
		}
	}
	tb_u64map_free(&h);
	free(by_name);
	free(is_step);
	free(child);
	free(dself);
	free(dtotal);
	free(gself);
	free(gtotal);
	tb_tree_free(&t);
}

static int oprow_cmp(const void *a, const void *b)
{
	const struct tt_op_row *x = a, *y = b;
	if (x->dev_self != y->dev_self)
		return x->dev_self > y->dev_self ? -1 : 1;
	if (x->host_self != y->host_self)
		return x->host_self > y->host_self ? -1 : 1;
	int d = strcmp(x->name, y->name);
	if (d)
		return d;
	return strcmp(x->shapes ? x->shapes : "", y->shapes ? y->shapes : "");
}

void tt_ops_compute(const struct tt_model *m, const struct tt_aopts *o, bool by_shapes,
		    struct tt_ops *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->keys);
	struct ops_ctx c = {m, by_shapes, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, ops_rank, &c);
	uint32_t *map = NULL;
	size_t mcap = 0, rcap = 0;
	int64_t *last = NULL;
	char *buf = NULL;
	size_t bcap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct ops_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		out->any_shapes |= d->any_shapes;
		for (size_t k = 0; k < d->n; k++) {
			const struct opacc *a = &d->acc[k];
			const char *nm = tt_str(r, a->name);
			size_t nl = tt_strtab_len(&r->strs, a->name);
			const char *dm = a->dims != TT_NONE ? tt_str(r, a->dims) : "";
			size_t dl = a->dims != TT_NONE ? tt_strtab_len(&r->strs, a->dims) : 0;
			/* the key: name, or name \x1f dims */
			size_t kl = nl + (by_shapes ? 1 + dl : 0);
			TT_GROW(buf, bcap, kl + 1);
			memcpy(buf, nm, nl);
			if (by_shapes) {
				buf[nl] = '\x1f';
				memcpy(buf + nl + 1, dm, dl);
			}
			uint32_t id = key_index(&out->keys, buf, kl, &map, &mcap);
			if (map[id] == TT_NONE) {
				TT_GROW(out->rows, rcap, out->n + 1);
				last = tt_realloc_array(last, rcap, sizeof(*last));
				struct tt_op_row *w = &out->rows[out->n];
				memset(w, 0, sizeof(*w));
				w->name = tt_strtab_get(&out->keys,
							tt_strtab_intern(&out->keys, nm, nl));
				if (by_shapes && a->dims != TT_NONE)
					w->shapes = tt_strtab_get(
						&out->keys, tt_strtab_intern(&out->keys, dm, dl));
				w->annotation = a->annot;
				w->ev = TT_NONE;
				last[out->n] = -1;
				map[id] = (uint32_t)out->n++;
			}
			size_t wi = map[id];
			struct tt_op_row *w = &out->rows[wi];
			if (last[wi] != (int64_t)ri) {
				w->nranks++;
				last[wi] = (int64_t)ri;
			}
			w->calls += a->calls;
			w->host_total += a->htotal;
			w->host_self += a->hself;
			w->dev_total += a->dtotal;
			w->dev_self += a->dself;
			w->gpu_ops_self += a->gself;
			w->gpu_ops_total += a->gtotal;
			if (w->ev == TT_NONE || a->longest_dur > m->ranks[w->ri]->ev[w->ev].dur) {
				w->ri = ri;
				w->ev = a->longest;
			}
		}
		free(d->acc);
	}
	if (out->n > 1)
		qsort(out->rows, out->n, sizeof(*out->rows), oprow_cmp);
	free(buf);
	free(map);
	free(last);
	free(c.r);
}

void tt_ops_free(struct tt_ops *p)
{
	free(p->rows);
	tt_strtab_free(&p->keys);
	memset(p, 0, sizeof(*p));
}

/* ---- kernels under an operator ---- */

static int opk_cmp(const void *a, const void *b)
{
	const struct tt_op_kernel *x = a, *y = b;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t tt_op_kernels(const struct tt_model *m, const struct tt_aopts *o, const char *op,
		     const char *shapes, struct tt_op_kernel **out)
{
	struct tt_strtab names;
	tt_strtab_init(&names);
	uint32_t *map = NULL;
	size_t mcap = 0, n = 0, cap = 0;
	struct tt_op_kernel *v = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(o, r->rank))
			continue;
		uint32_t nid = tt_strtab_find(&r->strs, op, strlen(op));
		uint32_t did = shapes ? tt_strtab_find(&r->strs, shapes, strlen(shapes)) : TT_NONE;
		if (nid == TT_NO_STR || (shapes && did == TT_NO_STR))
			continue;
		struct tb_tree t;
		tb_tree_build(r, &t, false);
		for (uint32_t l = 0; l < r->nlinks; l++) {
			uint32_t g = r->links[l].gpu, own = t.owner[r->links[l].cpu];
			if (own == TT_NONE || !tb_is_gpu_op(r, &r->ev[g]))
				continue;
			bool self = false, under = false;
			for (uint32_t a = own; a != TT_NONE; a = t.parent[a]) {
				const struct tt_event *e = &r->ev[a];
				if (e->name != nid || (shapes && dims_of(r, e) != did))
					continue;
				under = true;
				self = a == own;
				break;
			}
			if (!under)
				continue;
			const struct tt_event *ge = &r->ev[g];
			uint32_t id = key_index(&names, tt_ev_name(r, ge),
						tt_strtab_len(&r->strs, ge->name), &map, &mcap);
			if (map[id] == TT_NONE) {
				TT_GROW(v, cap, n + 1);
				memset(&v[n], 0, sizeof(v[n]));
				v[n].ri = ri;
				v[n].longest = g;
				map[id] = (uint32_t)n++;
			}
			struct tt_op_kernel *k = &v[map[id]];
			k->count++;
			k->sum_ns += ge->dur;
			if (self) {
				k->count_self++;
				k->self_ns += ge->dur;
			}
			if (ge->dur > m->ranks[k->ri]->ev[k->longest].dur) {
				k->ri = ri;
				k->longest = g;
			}
		}
		tb_tree_free(&t);
	}
	/* names point into the model: the longest instance's rank */
	for (size_t i = 0; i < n; i++)
		v[i].name = tt_ev_name(m->ranks[v[i].ri], &m->ranks[v[i].ri]->ev[v[i].longest]);
	if (n > 1)
		qsort(v, n, sizeof(*v), opk_cmp);
	free(map);
	tt_strtab_free(&names);
	*out = v;
	return n;
}

/* ---- source ---- */

struct srcacc {
	uint32_t op;	/* rank string id */
	uint32_t stack; /* local string id */
	bool python;
	uint32_t nframes;
	uint64_t calls;
	int64_t host;
	uint32_t longest;
};

struct src_out {
	bool sel;
	struct tt_strtab local; /* stacks */
	struct srcacc *acc;
	size_t n;
	uint64_t n_python, n_call_stack;
};

struct src_ctx {
	const struct tt_model *m;
	struct src_out *r;
};

/* "a;b;c" -> "a\nb\nc" (frames trimmed, empty ones dropped) */
static uint32_t split_stack(struct tt_strtab *t, const char *s, size_t n, char **buf, size_t *cap,
			    uint32_t *nframes)
{
	TT_GROW(*buf, *cap, n + 1);
	size_t k = 0;
	*nframes = 0;
	const char *end = s + n;
	while (s < end) {
		const char *e = memchr(s, ';', (size_t)(end - s));
		if (!e)
			e = end;
		const char *a = s, *b = e;
		while (a < b && (*a == ' ' || *a == '\t' || *a == '\n'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n'))
			b--;
		if (b > a) {
			if (k)
				(*buf)[k++] = '\n';
			memcpy(*buf + k, a, (size_t)(b - a));
			k += (size_t)(b - a);
			(*nframes)++;
		}
		s = e + 1;
	}
	return tt_strtab_intern(t, *buf, k);
}

static void src_rank(size_t ri, void *vctx)
{
	struct src_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct src_out *d = &c->r[ri];
	d->sel = true;
	tt_strtab_init(&d->local);
	bool any_py = false;
	for (uint32_t i = 0; i < r->nev; i++)
		if (tt_ev_kind(r, &r->ev[i]) == TT_K_PYTHON && r->ev[i].ph == 'X') {
			any_py = true;
			d->n_python++;
		}
	struct tb_tree t;
	tb_tree_build(r, &t, any_py);
	uint32_t *memo = NULL, *memo_n = NULL;
	if (any_py) {
		memo = tt_malloc(((size_t)r->nev + 1) * sizeof(*memo));
		memo_n = tt_malloc(((size_t)r->nev + 1) * sizeof(*memo_n));
		memset(memo, 0xff, ((size_t)r->nev + 1) * sizeof(*memo));
	}
	struct tb_u64map h = {0};
	char *buf = NULL;
	size_t bcap = 0, cap = 0;
	for (uint32_t k = 0; k < t.norder; k++) {
		uint32_t i = t.order[k];
		const struct tt_event *e = &r->ev[i];
		uint32_t stack = TT_NONE, nframes = 0;
		bool python = false;
		if ((e->flags & TT_EF_OPINFO) && r->opinfo[e->aux].call_stack != TT_NONE) {
			uint32_t cs = r->opinfo[e->aux].call_stack;
			stack = split_stack(&d->local, tt_str(r, cs), tt_strtab_len(&r->strs, cs),
					    &buf, &bcap, &nframes);
			d->n_call_stack++;
			if (!nframes)
				stack = TT_NONE;
		} else if (any_py && t.py[i] != TT_NONE) {
			uint32_t p = t.py[i];
			if (memo[p] == TT_NONE) {
				size_t bl = 0;
				uint32_t nf = 0;
				for (uint32_t a = p; a != TT_NONE; a = t.pyparent[a]) {
					const char *nm = tt_ev_name(r, &r->ev[a]);
					size_t l = tt_strtab_len(&r->strs, r->ev[a].name);
					TT_GROW(buf, bcap, bl + l + 2);
					if (bl)
						buf[bl++] = '\n';
					memcpy(buf + bl, nm, l);
					bl += l;
					nf++;
				}
				memo[p] = tt_strtab_intern(&d->local, buf, bl);
				memo_n[p] = nf;
			}
			stack = memo[p];
			nframes = memo_n[p];
			python = true;
		}
		if (stack == TT_NONE)
			continue;
		uint32_t *slot = tb_u64map_slot(&h, ((uint64_t)e->name << 32) | stack);
		if (*slot == TT_NONE) {
			TT_GROW(d->acc, cap, d->n + 1);
			struct srcacc *a = &d->acc[d->n];
			memset(a, 0, sizeof(*a));
			a->op = e->name;
			a->stack = stack;
			a->python = python;
			a->nframes = nframes;
			a->longest = i;
			*slot = (uint32_t)d->n++;
		}
		struct srcacc *a = &d->acc[*slot];
		a->calls++;
		a->host += e->dur;
		if (e->dur > r->ev[a->longest].dur)
			a->longest = i;
	}
	free(buf);
	free(memo);
	free(memo_n);
	tb_u64map_free(&h);
	tb_tree_free(&t);
}

static int stack_cmp(const void *a, const void *b)
{
	const struct tt_src_stack *x = a, *y = b;
	if (x->host_ns != y->host_ns)
		return x->host_ns > y->host_ns ? -1 : 1;
	int d = strcmp(x->op, y->op);
	return d ? d : strcmp(x->stack, y->stack);
}

static int line_cmp(const void *a, const void *b)
{
	const struct tt_src_line *x = a, *y = b;
	if (x->host_ns != y->host_ns)
		return x->host_ns > y->host_ns ? -1 : 1;
	return strcmp(x->frame, y->frame);
}

void tt_src_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_src *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->strs);
	struct src_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, src_rank, &c);
	uint32_t *smap = NULL, *lmap = NULL;
	size_t smcap = 0, lmcap = 0, scap = 0, lcap = 0;
	char *buf = NULL;
	size_t bcap = 0;
	/* (line, op) pairs seen, for the distinct ops of a line */
	struct tb_u64map pairs = {0};
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct src_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		out->n_python += d->n_python;
		out->n_call_stack += d->n_call_stack;
		for (size_t k = 0; k < d->n; k++) {
			const struct srcacc *a = &d->acc[k];
			const char *op = tt_str(r, a->op), *st = tt_strtab_get(&d->local, a->stack);
			size_t ol = tt_strtab_len(&r->strs, a->op),
			       sl = tt_strtab_len(&d->local, a->stack);
			TT_GROW(buf, bcap, ol + sl + 2);
			memcpy(buf, op, ol);
			buf[ol] = '\x1f';
			memcpy(buf + ol + 1, st, sl);
			uint32_t id = key_index(&out->strs, buf, ol + 1 + sl, &smap, &smcap);
			if (smap[id] == TT_NONE) {
				TT_GROW(out->stacks, scap, out->nstacks + 1);
				struct tt_src_stack *w = &out->stacks[out->nstacks];
				memset(w, 0, sizeof(*w));
				w->op = tt_strtab_get(&out->strs,
						      tt_strtab_intern(&out->strs, op, ol));
				w->stack = tt_strtab_get(&out->strs,
							 tt_strtab_intern(&out->strs, st, sl));
				w->nframes = a->nframes;
				w->python = a->python;
				w->ri = ri;
				w->ev = a->longest;
				smap[id] = (uint32_t)out->nstacks++;
			}
			struct tt_src_stack *w = &out->stacks[smap[id]];
			w->calls += a->calls;
			w->host_ns += a->host;
			if (r->ev[a->longest].dur > m->ranks[w->ri]->ev[w->ev].dur) {
				w->ri = ri;
				w->ev = a->longest;
			}
			/* the innermost frame */
			size_t fl = strcspn(st, "\n");
			uint32_t opid = tt_strtab_intern(&out->strs, op, ol);
			uint32_t lid = key_index(&out->strs, st, fl, &lmap, &lmcap);
			if (lmap[lid] == TT_NONE) {
				TT_GROW(out->lines, lcap, out->nlines + 1);
				struct tt_src_line *ln = &out->lines[out->nlines];
				memset(ln, 0, sizeof(*ln));
				ln->frame = tt_strtab_get(&out->strs, lid);
				lmap[lid] = (uint32_t)out->nlines++;
			}
			struct tt_src_line *ln = &out->lines[lmap[lid]];
			ln->calls += a->calls;
			ln->host_ns += a->host;
			uint32_t *seen = tb_u64map_slot(&pairs, ((uint64_t)lid << 32) | opid);
			if (*seen == TT_NONE) {
				*seen = 1;
				ln->nops++;
			}
		}
		free(d->acc);
		tt_strtab_free(&d->local);
	}
	if (out->nstacks > 1)
		qsort(out->stacks, out->nstacks, sizeof(*out->stacks), stack_cmp);
	if (out->nlines > 1)
		qsort(out->lines, out->nlines, sizeof(*out->lines), line_cmp);
	tb_u64map_free(&pairs);
	free(buf);
	free(smap);
	free(lmap);
	free(c.r);
}

void tt_src_free(struct tt_src *s)
{
	free(s->stacks);
	free(s->lines);
	tt_strtab_free(&s->strs);
	memset(s, 0, sizeof(*s));
}

/* ==== memory ==== */

#define DEAD (TT_NONE - 1) /* a freed address in the map */

struct mem_out {
	bool sel;
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

static void mem_device(const struct tt_rank *r, size_t ri, const struct tb_tree *t,
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
		int64_t alloc = mi->total_alloc >= 0 ? mi->total_alloc : running + mi->bytes;
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
		if (mi->bytes > 0)
			w->nallocs++;
		else if (mi->bytes < 0)
			w->nfrees++;
	}
	/* allocations by address up to the peak; frees after it only for
	 * the unmatched count */
	struct tb_u64map h = {0};
	struct tt_mem_live *al = NULL;
	size_t nal = 0, cap = 0;
	for (size_t k = 0; k < n; k++) {
		const struct tt_event *e = &r->ev[v[k].ev];
		const struct tt_meminfo *mi = &r->meminfo[e->aux];
		if (mi->device != device)
			continue;
		uint32_t *slot = mi->bytes ? tb_u64map_slot(&h, (uint64_t)mi->addr) : NULL;
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
				uint32_t *s = tb_u64map_slot(&h, (uint64_t)al[j].addr);
				if (*s != j)
					continue;
				TT_GROW(d->live, d->clive, d->nlive + 1);
				d->live[d->nlive] = al[j];
				w->live_bytes += al[j].bytes;
				d->nlive++;
				w->nlive++;
			}
		}
	}
	tb_u64map_free(&h);
	free(al);
	d->ndevs++;
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
	struct tb_tree t;
	tb_tree_build(r, &t, false);
	d->devs = tt_calloc(ndev + 1, sizeof(*d->devs));
	for (size_t j = 0; j < ndev; j++)
		mem_device(r, ri, &t, v, n, dev[j], d);
	tb_tree_free(&t);
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
	}
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
