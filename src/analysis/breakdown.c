/* GPU time breakdowns: temporal (metrics.md §3), communication/computation
 * overlap (§6), kernel types and per-kernel statistics (§5).
 *
 * Every analysis starts from the same per-rank list: the GPU events HTA
 * keeps (struct tt_sel, args.stream != -1) with HTA's times and the kernel
 * type of their name.  Unions go through tt_iv_merge (HTA's merge); the
 * type/overlap sweeps follow HTA's running-sum sweep over the merged blocks
 * of each type, with ties at equal times ordered ends first (HTA's sort is
 * unstable there; only zero-length segments depend on it). */
#include "config.h"

#include "tracetop/breakdown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/sort.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

/* ---- HTA's times ---- */

/* ---- the GPU events of a rank ---- */

struct gev {
	int64_t ts, end;   /* as HTA sees them (rounded unless exact) */
	uint32_t idx;      /* event index */
	uint32_t name;     /* string id */
	uint8_t type;      /* enum tt_ktype */
	uint8_t pos;       /* the place of type among those sorted by (gev_sort) */
};

/* an event with args.stream != -1 that is work (HTA's G_all before its
 * selection) */
static bool is_gpu_work(const struct tt_event *e)
{
	return (e->flags & TT_EF_STREAM) && e->ph == 'X' && !(e->flags & TT_EF_MARKER);
}

/* Collect the kept GPU events of rank ri into *out (malloc'd, caller
 * frees); returns the count, *all gets the count before HTA's selection.
 * Names are classified once each. */
static size_t collect_gpu(const struct tt_model *m, size_t ri, const struct tt_aopts *o,
			  struct gev **out, uint32_t *all)
{
	const struct tt_rank *r = m->ranks[ri];
	struct tt_sel s;
	tt_sel_init(&s, m, ri, o);
	size_t n = 0;
	*all = 0;
	for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			if (!is_gpu_work(&r->ev[i]))
				continue;
			(*all)++;
			if (tt_sel_has(&s, i))
				n++;
		}
	struct gev *g = tt_malloc((n ? n : 1) * sizeof(*g));
	uint8_t *tcache = tt_calloc((size_t)r->strs.n + 1, 1); /* type + 1, 0 = not yet */
	size_t k = 0;
	for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!is_gpu_work(e) || !tt_sel_has(&s, i))
				continue;
			struct gev *x = &g[k++];
			x->ts = tt_sel_ts(&s, e);
			x->end = tt_sel_end(&s, e);
			x->idx = i;
			x->name = e->name;
			if (e->name < r->strs.n) {
				if (!tcache[e->name])
					tcache[e->name] = (uint8_t)(
						tt_kernel_type(tt_str(r, e->name), NULL) + 1);
				x->type = (uint8_t)(tcache[e->name] - 1);
			} else {
				x->type = (uint8_t)tt_kernel_type("", NULL);
			}
		}
	free(tcache);
	tt_sel_free(&s);
	*out = g;
	return n;
}

/* Merged blocks of the events whose type bit is in `types` (bit t for
 * enum tt_ktype t; ~0u = all).  Returns the block count; *v is reused. */
static size_t blocks_of(const struct gev *g, size_t n, unsigned types, struct tt_iv **v,
			size_t *cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(types & (1u << g[i].type)))
			continue;
		TT_GROW(*v, *cap, k + 1);
		(*v)[k].ts = g[i].ts;
		(*v)[k].end = g[i].end;
		k++;
	}
	return tt_iv_merge(*v, k);
}

/* ---- HTA's running-sum sweep ---- */

struct edge {
	int64_t t;
	int delta;
};

static inline bool edge_before(const struct edge *x, const struct edge *y)
{
	if (x->t != y->t)
		return x->t < y->t;
	return x->delta < y->delta; /* ends first */
}
TT_STABLE_SORT(edge_sort, struct edge, edge_before)

struct sweep {
	struct edge *e;
	size_t n, cap;
};

static void sweep_add(struct sweep *s, const struct tt_iv *v, size_t nb, int weight)
{
	TT_GROW(s->e, s->cap, s->n + 2 * nb);
	for (size_t i = 0; i < nb; i++) {
		s->e[s->n++] = (struct edge){v[i].ts, weight};
		s->e[s->n++] = (struct edge){v[i].end, -weight};
	}
}

/* Sort the edges and credit each segment between consecutive edge times
 * to acc[running] when 0 < running < 8.  trunc_us: truncate each segment
 * to whole µs (HTA's astype(int) on µs floats). */
static void sweep_run(struct sweep *s, int64_t acc[8], bool trunc_us)
{
	edge_sort(s->e, s->n); /* (one sorted run per add) */
	int running = 0;
	for (size_t i = 0; i + 1 < s->n; i++) {
		running += s->e[i].delta;
		if (running <= 0 || running >= 8)
			continue;
		int64_t seg = s->e[i + 1].t - s->e[i].t;
		if (trunc_us)
			seg -= seg % 1000;
		tt_sat_acc(&acc[running], seg);
	}
	s->n = 0;
}

/* ---- temporal breakdown ---- */

struct temporal_ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	struct tt_temporal_row *slot; /* by rank index */
};

static void temporal_rank(size_t ri, void *arg)
{
	struct temporal_ctx *c = arg;
	struct tt_temporal_row *w = &c->slot[ri];
	struct gev *g;
	size_t n = collect_gpu(c->m, ri, c->o, &g, &w->nevents_trace);
	w->ri = ri;
	w->rank = c->m->ranks[ri]->rank;
	w->nevents = (uint32_t)n;
	w->first_ev = w->last_ev = TT_NONE;
	w->idle_pct = w->compute_pct = w->non_compute_pct = NAN;
	if (!n) {
		free(g);
		return;
	}
	w->has_gpu = true;
	size_t first = 0, last = 0;
	for (size_t i = 1; i < n; i++) {
		if (g[i].ts < g[first].ts)
			first = i;
		if (g[i].end > g[last].end)
			last = i;
	}
	w->first_ev = g[first].idx;
	w->last_ev = g[last].idx;

	struct tt_iv *v = NULL;
	size_t cap = 0;
	size_t nb = blocks_of(g, n, ~0u, &v, &cap);
	/* HTA: end of the last block minus start of the first */
	w->kernel_ns = v[nb - 1].end - v[0].ts;
	w->busy_ns = tt_iv_total(v, nb);
	w->idle_ns = w->kernel_ns - w->busy_ns;
	nb = blocks_of(g, n, 1u << TT_KT_COMP, &v, &cap);
	w->compute_ns = tt_iv_total(v, nb);
	w->non_compute_ns = w->kernel_ns - w->compute_ns - w->idle_ns;
	if (w->kernel_ns != 0) {
		/* HTA: round(100 * (x / kernel_time), 2); the ratio of ns equals
		 * the ratio of µs exactly (both correctly rounded quotients) */
		double k = (double)w->kernel_ns;
		w->idle_pct = 100 * ((double)w->idle_ns / k);
		w->compute_pct = 100 * ((double)w->compute_ns / k);
		w->non_compute_pct = 100 * ((double)w->non_compute_ns / k);
	}
	free(v);
	free(g);
}

/* Compact the selected ranks' slots into rows, in model order. */
static size_t compact_rows(const struct tt_model *m, const struct tt_aopts *o, void *slots,
			   size_t size)
{
	size_t k = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!tt_aopts_has_rank(o, m->ranks[ri]->rank))
			continue;
		if (k != ri)
			memcpy((char *)slots + k * size, (char *)slots + ri * size, size);
		k++;
	}
	return k;
}

struct tt_temporal_row *tt_temporal(const struct tt_model *m, const struct tt_aopts *o, size_t *n)
{
	struct temporal_ctx c = {m, o, tt_calloc(m->nranks + 1, sizeof(*c.slot))};
	tt_for_ranks(m, o, temporal_rank, &c);
	*n = compact_rows(m, o, c.slot, sizeof(*c.slot));
	return c.slot;
}

void tt_temporal_free(struct tt_temporal_row *rows)
{
	free(rows);
}

/* ---- communication / computation overlap ---- */

struct overlap_ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	struct tt_overlap_row *slot;
};

static void overlap_rank(size_t ri, void *arg)
{
	struct overlap_ctx *c = arg;
	struct tt_overlap_row *w = &c->slot[ri];
	struct gev *g;
	size_t n = collect_gpu(c->m, ri, c->o, &g, &w->nevents_trace);
	w->ri = ri;
	w->rank = c->m->ranks[ri]->rank;
	w->has_gpu = n > 0;
	w->first_comm = TT_NONE;
	int64_t first_ts = INT64_MAX;
	for (size_t i = 0; i < n; i++) {
		if (g[i].type == TT_KT_COMM) {
			w->ncomm++;
			if (g[i].ts < first_ts) {
				first_ts = g[i].ts;
				w->first_comm = g[i].idx;
			}
		} else if (g[i].type == TT_KT_COMP) {
			w->ncomp++;
		}
	}
	struct tt_iv *v = NULL;
	size_t cap = 0;
	struct sweep s = {0};
	/* HTA: +-1 at communication block edges, +-2 at computation block
	 * edges; overlap = time where the running value is 3 */
	size_t nb = blocks_of(g, n, 1u << TT_KT_COMM, &v, &cap);
	w->comm_ns = tt_iv_total(v, nb);
	sweep_add(&s, v, nb, 1);
	nb = blocks_of(g, n, 1u << TT_KT_COMP, &v, &cap);
	w->comp_ns = tt_iv_total(v, nb);
	sweep_add(&s, v, nb, 2);
	int64_t acc[8] = {0};
	sweep_run(&s, acc, false);
	w->overlap_ns = acc[3];
	w->pct = w->comm_ns != 0 ? 100 * ((double)w->overlap_ns / (double)w->comm_ns) : NAN;
	free(s.e);
	free(v);
	free(g);
}

struct tt_overlap_row *tt_overlap(const struct tt_model *m, const struct tt_aopts *o, size_t *n)
{
	struct overlap_ctx c = {m, o, tt_calloc(m->nranks + 1, sizeof(*c.slot))};
	tt_for_ranks(m, o, overlap_rank, &c);
	*n = compact_rows(m, o, c.slot, sizeof(*c.slot));
	return c.slot;
}

void tt_overlap_free(struct tt_overlap_row *rows)
{
	free(rows);
}

double tt_overlap_sum(const struct tt_overlap_row *rows, size_t n, int64_t *comm_ns,
		      int64_t *overlap_ns)
{
	*comm_ns = *overlap_ns = 0;
	for (size_t i = 0; i < n; i++) {
		tt_sat_acc(comm_ns, rows[i].comm_ns);
		tt_sat_acc(overlap_ns, rows[i].overlap_ns);
	}
	return *comm_ns > 0 ? 100.0 * (double)*overlap_ns / (double)*comm_ns : NAN;
}

/* ---- kernel breakdown ---- */

static const char others_name[] = "others";

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

size_t tt_kbreak_cut(const int64_t *sums, size_t n, int num_kernels, double duration_ratio,
		     bool *grouped)
{
	memset(grouped, 0, n * sizeof(*grouped));
	if (num_kernels < 0 || n <= (size_t)num_kernels || n == 0)
		return 0;
	/* HTA: cumsum of the per-name sums (float µs), then
	 * Series.quantile(ratio) = np.percentile(cum, ratio * 100), linear */
	double *cum = tt_malloc(n * sizeof(*cum));
	double *sorted = tt_malloc(n * sizeof(*sorted));
	int64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		c = tt_sat_add(c, sums[i]);
		cum[i] = (double)c / 1000.0;
		sorted[i] = cum[i];
	}
	qsort(sorted, n, sizeof(*sorted), dbl_cmp);
	double q = (duration_ratio * 100.0) / 100.0; /* pandas *100, numpy /100 */
	double vi = (double)(n - 1) * q;
	double fl = floor(vi);
	size_t lo, hi;
	if (vi >= (double)(n - 1)) {
		lo = hi = n - 1;
	} else if (vi < 0) {
		lo = hi = 0;
	} else {
		lo = (size_t)fl;
		hi = lo + 1;
	}
	double gamma = vi - fl;
	double a = sorted[lo], b = sorted[hi], d = b - a;
	/* numpy's _lerp */
	double qv = gamma >= 0.5 ? b - d * (1 - gamma) : a + d * gamma;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		grouped[i] = cum[i] > qv || i >= (size_t)num_kernels;
		k += grouped[i];
	}
	free(sorted);
	free(cum);
	return k;
}

/* one name group inside the sorted event array */
struct grp {
	uint32_t lo, hi; /* gev range */
	struct tt_kstat st;
};

/* events ordered by (place of their type, name id, ts, event index) */
static inline bool gev_before(const struct gev *x, const struct gev *y)
{
	if (x->pos != y->pos)
		return x->pos < y->pos;
	if (x->name != y->name)
		return x->name < y->name;
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return x->idx < y->idx;
}
TT_STABLE_SORT(gev_sort, struct gev, gev_before)

/* g by (tpos[type], name id, ts, event index) */
static void gev_sort_by_name(struct gev *g, size_t n, const int8_t tpos[4])
{
	for (size_t i = 0; i < n; i++)
		g[i].pos = (uint8_t)tpos[g[i].type];
	gev_sort(g, n);
}

/* groups of one type: sum descending, then name bytewise */
static int grp_cmp(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;
	if (x->st.sum_ns != y->st.sum_ns)
		return x->st.sum_ns > y->st.sum_ns ? -1 : 1;
	return strcmp(x->st.name, y->st.name);
}

/* Statistics over the events of ranges [lo,hi) of g: count, sum, max, min,
 * mean, sample std (two passes), longest event. */
static void stat_ranges(const struct gev *g, const struct grp *gr, size_t ngr,
			const bool *take, struct tt_kstat *st)
{
	st->count = 0;
	st->sum_ns = 0;
	__int128 sum = 0; /* (exact: the mean stays right when the sum saturates) */
	st->max_ns = INT64_MIN;
	st->min_ns = INT64_MAX;
	st->longest = TT_NONE;
	for (size_t k = 0; k < ngr; k++) {
		if (take && !take[k])
			continue;
		for (uint32_t i = gr[k].lo; i < gr[k].hi; i++) {
			int64_t d = g[i].end - g[i].ts;
			st->count++;
			sum += d;
			if (d > st->max_ns) {
				st->max_ns = d;
				st->longest = g[i].idx;
			}
			if (d < st->min_ns)
				st->min_ns = d;
		}
	}
	st->sum_ns = tt_sat_128(sum);
	if (!st->count) {
		st->max_ns = st->min_ns = 0;
		st->mean_ns = NAN;
		st->std_ns = 0;
		return;
	}
	st->mean_ns = (double)sum / (double)st->count;
	double ss = 0;
	for (size_t k = 0; k < ngr; k++) {
		if (take && !take[k])
			continue;
		for (uint32_t i = gr[k].lo; i < gr[k].hi; i++) {
			double d = (double)(g[i].end - g[i].ts) - st->mean_ns;
			ss += d * d;
		}
	}
	st->std_ns = st->count > 1 ? sqrt(ss / (double)(st->count - 1)) : 0;
}

/* growable kstat list */
struct klist {
	struct tt_kstat *v;
	size_t n, cap;
};

static struct tt_kstat *klist_add(struct klist *l)
{
	TT_GROW(l->v, l->cap, l->n + 1);
	struct tt_kstat *s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* Group the events g[0..n) (already sorted so that each name is
 * contiguous, and all of one `type`) by name; append all names to *names
 * (sorted by sum desc) and HTA's rows (kept names, then "others") to *rows. */
static void group_names(const struct tt_rank *r, size_t ri, const struct gev *g, size_t n,
			enum tt_ktype type, int num_kernels, double ratio, bool with_rule,
			struct klist *names, struct klist *rows)
{
	if (!n)
		return;
	size_t ng = 0, cap = 0;
	struct grp *gr = NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && g[j].name == g[i].name)
			j++;
		TT_GROW(gr, cap, ng + 1);
		struct grp *x = &gr[ng++];
		memset(x, 0, sizeof(*x));
		x->lo = (uint32_t)i;
		x->hi = (uint32_t)j;
		x->st.name = tt_str(r, g[i].name);
		x->st.name_id = g[i].name;
		i = j;
	}
	for (size_t k = 0; k < ng; k++) {
		struct tt_kstat *st = &gr[k].st;
		stat_ranges(g, &gr[k], 1, NULL, st);
		st->ri = ri;
		st->rank = r->rank;
		st->type = type;
		st->nnames = 1;
		if (with_rule)
			tt_kernel_type(st->name, &st->rule);
	}
	qsort(gr, ng, sizeof(*gr), grp_cmp);
	int64_t *sums = tt_malloc(ng * sizeof(*sums));
	bool *grouped = tt_malloc(ng * sizeof(*grouped));
	for (size_t k = 0; k < ng; k++)
		sums[k] = gr[k].st.sum_ns;
	size_t nothers = tt_kbreak_cut(sums, ng, num_kernels, ratio, grouped);
	for (size_t k = 0; k < ng; k++) {
		gr[k].st.grouped = grouped[k];
		*klist_add(names) = gr[k].st;
		if (!grouped[k])
			*klist_add(rows) = gr[k].st;
	}
	if (nothers) {
		struct tt_kstat *o = klist_add(rows);
		stat_ranges(g, gr, ng, grouped, o);
		o->ri = ri;
		o->rank = r->rank;
		o->type = type;
		o->name = others_name;
		o->name_id = TT_NONE;
		o->others = true;
		o->nnames = (uint32_t)nothers;
		o->rule = NULL;
		for (size_t k = 0; k < ng && with_rule; k++) {
			if (!grouped[k])
				continue;
			if (!o->rule)
				o->rule = gr[k].st.rule;
			else if (o->rule != gr[k].st.rule)
				o->rule = "several rules";
		}
	}
	free(grouped);
	free(sums);
	free(gr);
}

struct kb_rank {
	struct klist names, rows, annot;
	int64_t label[8];
	uint32_t gpu_trace;
	bool gpu, has_annot_cat;
};

struct kb_ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	const struct tt_kbreak_opts *ko;
	const struct tt_kbreak *k;
	struct kb_rank *slot;
};

static void annot_rank(struct kb_ctx *c, size_t ri, struct kb_rank *w)
{
	const struct tt_rank *r = c->m->ranks[ri];
	for (uint32_t i = 0; i < r->ncats; i++)
		if (r->cats[i].kind == TT_K_GPU_ANNOT)
			w->has_annot_cat = true;
	if (!w->has_annot_cat)
		return;
	struct tt_sel s;
	tt_sel_init(&s, c->m, ri, c->o);
	size_t n = 0, cap = 0;
	struct gev *g = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (tt_ev_kind(r, e) != TT_K_GPU_ANNOT || !tt_sel_has(&s, i))
			continue;
		TT_GROW(g, cap, n + 1);
		g[n] = (struct gev){tt_sel_ts(&s, e), tt_sel_end(&s, e), i, e->name, TT_KT_OTHER, 0};
		n++;
	}
	tt_sel_free(&s);
	int8_t tpos[4] = {0, 0, 0, 0};
	gev_sort_by_name(g, n, tpos);
	struct klist rows = {0};
	/* HTA's defaults for this call: num_kernels 1000, duration_ratio 0.8 */
	group_names(r, ri, g, n, TT_KT_OTHER, 1000, 0.8, false, &w->annot, &rows);
	/* keep HTA's rows (kept names and others), not the name list */
	free(w->annot.v);
	w->annot = rows;
	free(g);
}

static void kbreak_rank(size_t ri, void *arg)
{
	struct kb_ctx *c = arg;
	const struct tt_kbreak *k = c->k;
	const struct tt_rank *r = c->m->ranks[ri];
	struct kb_rank *w = &c->slot[ri];
	struct gev *g;
	size_t n = collect_gpu(c->m, ri, c->o, &g, &w->gpu_trace);
	w->gpu = n > 0;

	/* kernel-type sweep: weight 2^j for types[j] */
	struct tt_iv *v = NULL;
	size_t cap = 0;
	struct sweep s = {0};
	for (int j = 0; j < k->ntypes; j++) {
		size_t nb = blocks_of(g, n, 1u << k->types[j], &v, &cap);
		sweep_add(&s, v, nb, 1 << j);
	}
	sweep_run(&s, w->label, !(c->o && c->o->exact));
	free(s.e);
	free(v);

	/* per-name statistics of each analysed type */
	int8_t tpos[4] = {9, 9, 9, 9}; /* types not analysed sort last */
	for (int j = 0; j < k->ntypes; j++)
		tpos[k->types[j]] = (int8_t)j;
	gev_sort_by_name(g, n, tpos);
	size_t i = 0;
	for (int j = 0; j < k->ntypes; j++) {
		size_t lo = i;
		while (i < n && g[i].type == k->types[j])
			i++;
		group_names(r, ri, g + lo, i - lo, k->types[j], c->ko->num_kernels,
			    c->ko->duration_ratio, true, &w->names, &w->rows);
	}
	free(g);
	annot_rank(c, ri, w);
}

/* rows: (type name, name, rank) bytewise */
static int row_cmp(const void *a, const void *b)
{
	const struct tt_kstat *x = a, *y = b;
	int d = strcmp(tt_ktype_name(x->type), tt_ktype_name(y->type));
	if (d)
		return d;
	d = strcmp(x->name, y->name);
	if (d)
		return d;
	return x->rank < y->rank ? -1 : x->rank > y->rank ? 1 : (x->ri > y->ri) - (x->ri < y->ri);
}

/* annotations: (rank, name) */
static int annot_cmp(const void *a, const void *b)
{
	const struct tt_kstat *x = a, *y = b;
	if (x->ri != y->ri)
		return x->ri < y->ri ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* pointer sort for the across-rank view: (type name, name, sum, rank) */
static int across_cmp(const void *a, const void *b)
{
	const struct tt_kstat *x = *(const struct tt_kstat *const *)a;
	const struct tt_kstat *y = *(const struct tt_kstat *const *)b;
	int d = strcmp(tt_ktype_name(x->type), tt_ktype_name(y->type));
	if (d)
		return d;
	d = strcmp(x->name, y->name);
	if (d)
		return d;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns < y->sum_ns ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->ri > y->ri) - (x->ri < y->ri);
}

static void build_across(struct tt_kbreak *k)
{
	if (!k->nnames)
		return;
	const struct tt_kstat **p = tt_malloc(k->nnames * sizeof(*p));
	for (size_t i = 0; i < k->nnames; i++)
		p[i] = &k->names[i];
	qsort(p, k->nnames, sizeof(*p), across_cmp);
	size_t cap = 0;
	for (size_t i = 0; i < k->nnames;) {
		size_t j = i;
		bool kept = false;
		while (j < k->nnames && p[j]->type == p[i]->type &&
		       strcmp(p[j]->name, p[i]->name) == 0) {
			kept |= !p[j]->grouped;
			j++;
		}
		if (kept) {
			TT_GROW(k->across, cap, k->nacross + 1);
			struct tt_kacross *a = &k->across[k->nacross++];
			const struct tt_kstat *lo = p[i], *hi = p[j - 1];
			const struct tt_kstat *med = p[i + (j - i - 1) / 2];
			a->name = p[i]->name;
			a->type = p[i]->type;
			a->nranks = (uint32_t)(j - i);
			a->total_ns = 0;
			for (size_t q = i; q < j; q++)
				tt_sat_acc(&a->total_ns, p[q]->sum_ns);
			a->min_ri = lo->ri;
			a->min_rank = lo->rank;
			a->min_ns = lo->sum_ns;
			a->med_ri = med->ri;
			a->med_rank = med->rank;
			a->med_ns = med->sum_ns;
			a->max_ri = hi->ri;
			a->max_rank = hi->rank;
			a->max_ns = hi->sum_ns;
		}
		i = j;
	}
	free(p);
}

int tt_kbreak_labels(const struct tt_kbreak *k, unsigned masks[8])
{
	int n = 0;
	for (unsigned mask = 1; mask < (1u << k->ntypes) && n < 8; mask++)
		if (k->label_ns[mask]) /* zero rows come and go in HTA with ties */
			masks[n++] = mask;
	/* insertion sort (at most 7): time descending, then label */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			char a[128], b[128];
			unsigned x = masks[j - 1], y = masks[j];
			tt_kbreak_label(k, x, a, sizeof(a));
			tt_kbreak_label(k, y, b, sizeof(b));
			if (k->label_ns[x] > k->label_ns[y] ||
			    (k->label_ns[x] == k->label_ns[y] && strcmp(a, b) <= 0))
				break;
			masks[j - 1] = y;
			masks[j] = x;
		}
	return n;
}

double tt_kbreak_share(const struct tt_kbreak *k, unsigned mask)
{
	return (double)k->label_ns[mask] / (double)k->total_ns * 100;
}

size_t tt_kbreak_label(const struct tt_kbreak *k, unsigned mask, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	for (int j = 0; j < k->ntypes; j++) {
		if (!(mask & (1u << j)))
			continue;
		const char *name = tt_ktype_name(k->types[j]);
		int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s",
				 len ? " overlapping " : "", name);
		if (w > 0)
			len += (size_t)w;
	}
	return len;
}

static void klist_append(struct tt_kstat **v, size_t *n, size_t *cap, const struct klist *l)
{
	if (!l->n)
		return;
	TT_GROW(*v, *cap, *n + l->n);
	memcpy(*v + *n, l->v, l->n * sizeof(*l->v));
	*n += l->n;
}

void tt_kbreak(const struct tt_model *m, const struct tt_aopts *o, const struct tt_kbreak_opts *ko,
	       struct tt_kbreak *out)
{
	memset(out, 0, sizeof(*out));
	out->types[out->ntypes++] = TT_KT_COMP;
	out->types[out->ntypes++] = TT_KT_COMM;
	if (!ko->no_memory)
		out->types[out->ntypes++] = TT_KT_MEM;
	out->nranks_model = m->nranks;
	out->rank_label_ns = tt_calloc(m->nranks * 8 + 1, sizeof(*out->rank_label_ns));
	out->rank_sel = tt_calloc(m->nranks + 1, sizeof(*out->rank_sel));
	out->rank_gpu = tt_calloc(m->nranks + 1, sizeof(*out->rank_gpu));
	out->rank_gpu_trace = tt_calloc(m->nranks + 1, sizeof(*out->rank_gpu_trace));

	struct kb_ctx c = {m, o, ko, out, tt_calloc(m->nranks + 1, sizeof(*c.slot))};
	tt_for_ranks(m, o, kbreak_rank, &c);

	size_t cn = 0, cr = 0, ca = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct kb_rank *w = &c.slot[ri];
		out->rank_sel[ri] = tt_aopts_has_rank(o, m->ranks[ri]->rank);
		out->rank_gpu[ri] = w->gpu;
		out->rank_gpu_trace[ri] = w->gpu_trace;
		for (int b = 0; b < 8; b++) {
			out->rank_label_ns[ri * 8 + (size_t)b] = w->label[b];
			tt_sat_acc(&out->label_ns[b], w->label[b]);
			tt_sat_acc(&out->total_ns, w->label[b]);
		}
		klist_append(&out->names, &out->nnames, &cn, &w->names);
		klist_append(&out->rows, &out->nrows, &cr, &w->rows);
		klist_append(&out->annot, &out->nannot, &ca, &w->annot);
		out->has_annot |= w->has_annot_cat;
		free(w->names.v);
		free(w->rows.v);
		free(w->annot.v);
	}
	free(c.slot);
	if (out->nrows)
		qsort(out->rows, out->nrows, sizeof(*out->rows), row_cmp);
	if (out->nannot)
		qsort(out->annot, out->nannot, sizeof(*out->annot), annot_cmp);
	build_across(out);
}

void tt_kbreak_free(struct tt_kbreak *k)
{
	free(k->rank_label_ns);
	free(k->rank_sel);
	free(k->rank_gpu);
	free(k->rank_gpu_trace);
	free(k->names);
	free(k->rows);
	free(k->across);
	free(k->annot);
	memset(k, 0, sizeof(*k));
}
