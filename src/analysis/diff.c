/* Two traces compared op by op (metrics.md §11; HTA hta/trace_diff.py,
 * add_iteration in hta/common/trace.py, shorten_name in hta/utils/utils.py). */
#include "config.h"

#include "tracetop/diff.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* ---- HTA's parser view without the iteration filter ---- */

/* step number of a name id, cached (-2 = not computed yet) */
static int64_t step_of(const struct tt_rank *r, int64_t *cache, uint32_t id)
{
	if (id >= r->strs.n)
		return -1;
	if (cache[id] == -2)
		cache[id] = tt_step_number(tt_str(r, id));
	return cache[id];
}

static int64_t *step_cache(const struct tt_rank *r)
{
	int64_t *c = tt_malloc(((size_t)r->strs.n + 1) * sizeof(*c));
	for (uint32_t i = 0; i <= r->strs.n; i++)
		c[i] = -2;
	return c;
}

/* ---- iterations ---- */

struct step {
	int64_t ts, end, n;
};

static int step_cmp(const void *a, const void *b, void *ctx)
{
	const struct step *x = a, *y = b;
	(void)ctx;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

uint32_t tt_diff_iterations(const struct tt_rank *r, bool round, int64_t *iter)
{
	struct tt_sel s = {.r = r, .keep = NULL, .round = round}; /* times only */
	int64_t *cache = step_cache(r);
	size_t ns = 0, cap = 0;
	struct step *st = NULL;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		iter[i] = -1;
		if (!tt_hta_parsed(r, e) || (e->flags & TT_EF_STREAM))
			continue;
		int64_t n = step_of(r, cache, e->name);
		if (n < 0)
			continue;
		TT_GROW(st, cap, ns + 1);
		st[ns++] = (struct step){tt_sel_ts(&s, e), tt_sel_end(&s, e), n};
	}
	free(cache);
	if (!ns) {
		free(st);
		return 0;
	}
	tt_msort(st, ns, sizeof(*st), step_cmp, NULL);
	/* reach[k]: the largest end among steps 0..k, to stop the walk back */
	int64_t *reach = tt_malloc(ns * sizeof(*reach));
	for (size_t k = 0; k < ns; k++)
		reach[k] = k && reach[k - 1] > st[k].end ? reach[k - 1] : st[k].end;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || (e->flags & TT_EF_STREAM))
			continue;
		int64_t t = tt_sel_ts(&s, e);
		size_t lo = 0, hi = ns; /* first step starting after t */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (st[mid].ts <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k-- > 0 && reach[k] > t;) {
			if (t < st[k].end) {
				iter[i] = st[k].n;
				break;
			}
		}
	}
	/* GPU events: the iteration of the call that launched them */
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		if (!tt_hta_parsed(r, e) || !(e->flags & TT_EF_STREAM))
			continue;
		uint32_t l = tt_launch_of(r, i);
		if (l != TT_NONE && tt_hta_parsed(r, &r->ev[l]) && !(r->ev[l].flags & TT_EF_STREAM))
			iter[i] = iter[l];
	}
	free(reach);
	free(st);
	return (uint32_t)ns;
}

/* ---- short names ---- */

size_t tt_diff_short_name(const char *name, char *out)
{
	size_t n = strlen(name);
	/* nothing to strip: the name as it is ("## backward ##",
	 * "autograd::engine::evaluate_function: AddmmBackward0") */
	if (!strchr(name, '<') && !strchr(name, '(')) {
		memcpy(out, name, n + 1);
		return n;
	}
	size_t sp = 0; /* out is the stack */
	for (const char *c = name; *c; c++) {
		if (c[0] == '-' && c[1] == '>') {
			c++;
			continue;
		}
		if (*c == '>' || *c == ')') {
			char open = *c == '>' ? '<' : '(';
			while (sp && out[sp - 1] != open)
				sp--;
			if (sp)
				sp--;
		} else {
			out[sp++] = *c;
		}
	}
	out[sp] = '\0';
	/* what follows the last space (Python's split(" ")[-1]) */
	const char *last = strrchr(out, ' ');
	size_t len = last ? sp - (size_t)(last + 1 - out) : sp;
	if (!len) {
		/* "Memset (Device)" would become "": keep the name */
		memcpy(out, name, n + 1);
		return n;
	}
	if (last)
		memmove(out, last + 1, len + 1);
	return len;
}

/* ---- the comparison ---- */

const char *tt_diff_change_name(enum tt_diff_change c)
{
	static const char *const n[] = {"added", "deleted", "increased", "decreased",
					"unchanged"};
	return (unsigned)c < TT_DIFF_NCHANGE ? n[c] : "?";
}

struct agg {
	const char *key;
	int64_t count, dur;
};

static int agg_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct agg *)a)->key, ((const struct agg *)b)->key);
}

/* Sort and merge equal keys in place; returns the new count. */
static size_t agg_merge(struct agg *v, size_t n)
{
	tt_msort(v, n, sizeof(*v), agg_cmp, NULL);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && strcmp(v[k - 1].key, v[i].key) == 0) {
			v[k - 1].count += v[i].count;
			v[k - 1].dur += v[i].dur;
		} else {
			v[k++] = v[i];
		}
	}
	return k;
}

struct side_out {
	struct agg *v;
	size_t n, cap;
};

static int i64_cmp(const void *a, const void *b, void *ctx)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* Count the selected events of one side into so. */
static int collect(struct tt_diff *d, int which, const struct tt_model *m,
		   const struct tt_diff_opts *o, struct side_out *so, struct tt_err *err)
{
	struct tt_diff_side *sd = &d->side[which];
	const char *label = which ? "test" : "control";
	memset(sd, 0, sizeof(*sd));
	sd->iteration = -1;
	if (!m->nranks)
		return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET, "diff: the %s side has no rank",
				  label);
	/* which model entries: the smallest rank, or the requested ones (the
	 * first file of each rank number) */
	bool *use = tt_calloc(m->nranks, sizeof(*use));
	if (!o->ranks) {
		use[0] = true;
	} else {
		for (size_t k = 0; k < o->nranks; k++) {
			size_t hit = m->nranks;
			for (size_t i = 0; i < m->nranks && hit == m->nranks; i++)
				if (m->ranks[i]->rank == o->ranks[k])
					hit = i;
			if (hit == m->nranks) {
				free(use);
				return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
						  "diff: the %s side has no rank %lld", label,
						  (long long)o->ranks[k]);
			}
			use[hit] = true;
		}
	}
	/* iterations of the side: ProfilerStep#N names over all its ranks */
	int64_t first = -1;
	bool found = false;
	size_t nsteps = 0, scap = 0;
	int64_t *steps = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		int64_t *cache = step_cache(r);
		for (uint32_t i = 0; i < r->nev; i++) {
			const struct tt_event *e = &r->ev[i];
			/* each name once per rank: skip ids already looked at */
			if (!tt_hta_parsed(r, e) || e->name >= r->strs.n || cache[e->name] != -2)
				continue;
			int64_t n = step_of(r, cache, e->name);
			if (n < 0)
				continue;
			TT_GROW(steps, scap, nsteps + 1);
			steps[nsteps++] = n;
			if (first < 0 || n < first)
				first = n;
			if (n == o->iteration)
				found = true;
		}
		free(cache);
	}
	/* distinct numbers (names repeat across ranks) */
	tt_msort(steps, nsteps, sizeof(*steps), i64_cmp, NULL);
	for (size_t i = 0; i < nsteps; i++)
		if (!i || steps[i] != steps[i - 1])
			sd->nsteps++;
	free(steps);
	if (nsteps) {
		if (o->iteration >= 0 && !found) {
			free(use);
			return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
					  "diff: the %s side has no ProfilerStep#%lld", label,
					  (long long)o->iteration);
		}
		sd->iteration = o->iteration >= 0 ? o->iteration : first;
	}

	size_t bcap = 0;
	char *buf = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		if (!use[ri])
			continue;
		const struct tt_rank *r = m->ranks[ri];
		struct tt_sel s = {.r = r, .keep = NULL, .round = r->hta_round && !o->exact};
		if (!sd->nranks || r->rank < sd->first_rank) {
			sd->first_rank = r->rank;
			sd->first_idx = (uint32_t)ri;
		}
		sd->nranks++;
		int64_t *iter = tt_malloc(((size_t)r->nev + 1) * sizeof(*iter));
		tt_diff_iterations(r, s.round, iter);
		int64_t *cnt = tt_calloc((size_t)r->strs.n + 1, sizeof(*cnt));
		int64_t *sum = tt_calloc((size_t)r->strs.n + 1, sizeof(*sum));
		for (uint32_t i = 0; i < r->nev; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!tt_hta_parsed(r, e) || e->name >= r->strs.n)
				continue;
			if (sd->iteration >= 0 && iter[i] != sd->iteration)
				continue;
			bool gpu = e->flags & TT_EF_STREAM;
			if ((o->device == TT_DIFF_GPU && !gpu) || (o->device == TT_DIFF_CPU && gpu))
				continue;
			int64_t dur = tt_sel_end(&s, e) - tt_sel_ts(&s, e);
			cnt[e->name]++;
			sum[e->name] += dur;
			sd->events++;
			sd->total_ns += dur;
		}
		for (uint32_t id = 0; id < r->strs.n; id++) {
			if (!cnt[id])
				continue;
			const char *name = tt_str(r, id);
			size_t len = tt_strtab_len(&r->strs, id);
			const char *key;
			if (o->short_names) {
				TT_GROW(buf, bcap, len + 1);
				size_t sl = tt_diff_short_name(name, buf);
				key = tt_arena_strndup(&d->strs, buf, sl);
			} else {
				key = tt_arena_strndup(&d->strs, name, len);
			}
			TT_GROW(so->v, so->cap, so->n + 1);
			so->v[so->n++] = (struct agg){key, cnt[id], sum[id]};
		}
		free(cnt);
		free(sum);
		free(iter);
	}
	free(buf);
	free(use);
	so->n = agg_merge(so->v, so->n);
	return 0;
}

static void add_row(struct tt_diff *d, size_t *cap, const char *key, const struct agg *a,
		    const struct agg *b)
{
	TT_GROW(d->rows, *cap, d->n + 1);
	struct tt_diff_row *w = &d->rows[d->n++];
	memset(w, 0, sizeof(*w));
	w->name = key;
	if (a) {
		w->count[0] = a->count;
		w->dur[0] = a->dur;
	}
	if (b) {
		w->count[1] = b->count;
		w->dur[1] = b->dur;
	}
	w->diff_count = w->count[1] - w->count[0];
	w->diff_dur = w->dur[1] - w->dur[0];
	w->sign = w->diff_count > 0 ? '+' : w->diff_count < 0 ? '-' : '=';
	if (w->count[0] == 0)
		w->change = TT_DIFF_ADDED;
	else if (w->count[1] == 0)
		w->change = TT_DIFF_DELETED;
	else if (w->diff_count > 0)
		w->change = TT_DIFF_INCREASED;
	else if (w->diff_count < 0)
		w->change = TT_DIFF_DECREASED;
	else
		w->change = TT_DIFF_UNCHANGED;
	d->nchange[w->change]++;
}

int tt_diff(struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
	    const struct tt_diff_opts *o, struct tt_err *err)
{
	memset(d, 0, sizeof(*d));
	tt_arena_init(&d->strs, 64 * 1024);
	struct side_out sa = {0}, sb = {0};
	int rc = collect(d, 0, a, o, &sa, err);
	if (!rc)
		rc = collect(d, 1, b, o, &sb, err);
	if (!rc) {
		/* outer join of two sorted lists */
		size_t i = 0, j = 0, cap = 0;
		while (i < sa.n || j < sb.n) {
			int c = i == sa.n ? 1 : j == sb.n ? -1 : strcmp(sa.v[i].key, sb.v[j].key);
			if (c < 0) {
				add_row(d, &cap, sa.v[i].key, &sa.v[i], NULL);
				i++;
			} else if (c > 0) {
				add_row(d, &cap, sb.v[j].key, NULL, &sb.v[j]);
				j++;
			} else {
				add_row(d, &cap, sa.v[i].key, &sa.v[i], &sb.v[j]);
				i++;
				j++;
			}
		}
	}
	free(sa.v);
	free(sb.v);
	return rc;
}

void tt_diff_free(struct tt_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	tt_arena_free(&d->strs);
	memset(d, 0, sizeof(*d));
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static int impact_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_diff_row *x = a, *y = b;
	(void)ctx;
	int64_t dx = abs64(x->diff_dur), dy = abs64(y->diff_dur);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = abs64(x->diff_count);
	dy = abs64(y->diff_count);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

void tt_diff_sort_impact(struct tt_diff *d)
{
	tt_msort(d->rows, d->n, sizeof(*d->rows), impact_cmp, NULL);
}

static int impact_idx_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_diff *d = ctx;
	return impact_cmp(&d->rows[*(const size_t *)a], &d->rows[*(const size_t *)b], NULL);
}

size_t *tt_diff_impact_order(const struct tt_diff *d)
{
	size_t *v = tt_malloc((d->n + 1) * sizeof(*v));
	for (size_t i = 0; i < d->n; i++)
		v[i] = i;
	tt_msort(v, d->n, sizeof(*v), impact_idx_cmp, (void *)d);
	return v;
}
