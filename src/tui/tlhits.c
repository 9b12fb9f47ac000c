/* The timeline's highlighted events: see tlhits.h. */
#include "config.h"

#include "tlhits.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/hmap.h"
#include "tracetop/pool.h"
#include "tracetop/regex.h"
#include "tracetop/util.h"

struct key {
	int64_t ts;
	size_t ri_order; /* position of the rank in the search (or the set) */
	uint32_t ev;
	uint32_t i;      /* index into v */
};

static int key_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct key *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ri_order != y->ri_order)
		return x->ri_order < y->ri_order ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return 0;
}

void tl_hits_clear(struct tl_hits *h)
{
	free(h->v);
	free(h->byts);
	free(h->ts);
	free(h->bytr);
	free(h->trts);
	free(h->trfirst);
	free(h->trbase);
	free(h->span);
	free(h->span_end);
	memset(h, 0, sizeof(*h));
	h->cur = SIZE_MAX;
}

/* byts and ts from v; ri_order: the model rank index */
static void index_by_time(struct tl_hits *h, const struct tt_model *m)
{
	struct key *k = tt_malloc((h->n + 1) * sizeof(*k));
	for (size_t i = 0; i < h->n; i++) {
		const struct tt_rank *r = m->ranks[h->v[i].ri];
		k[i].ts = r->ev[h->v[i].ev].ts;
		k[i].ri_order = h->v[i].ri;
		k[i].ev = h->v[i].ev;
		k[i].i = (uint32_t)i;
	}
	tt_msort(k, h->n, sizeof(*k), key_cmp, NULL);
	h->byts = tt_malloc((h->n + 1) * sizeof(*h->byts));
	h->ts = tt_malloc((h->n + 1) * sizeof(*h->ts));
	for (size_t i = 0; i < h->n; i++) {
		h->byts[i] = k[i].i;
		h->ts[i] = k[i].ts;
	}
	free(k);
}

/* trbase: the first bucket of each rank, a bucket a (rank, track), nb in
 * all (returned); trfirst: nb + 2 zeroed counts, to count hits in */
static size_t track_buckets(struct tl_hits *h, const struct tt_model *m)
{
	h->ntrbase = m->nranks;
	h->trbase = tt_malloc((m->nranks + 1) * sizeof(*h->trbase));
	size_t nb = 0;
	for (size_t i = 0; i < m->nranks; i++) {
		h->trbase[i] = nb;
		nb += m->ranks[i]->ntracks;
	}
	h->trbase[m->nranks] = nb;
	h->trfirst = tt_calloc(nb + 2, sizeof(*h->trfirst));
	return nb;
}

/* bytr, trts, trfirst, trbase from byts: a counting sort by (rank, track)
 * that keeps each track's hits in time order */
static void index_by_track(struct tl_hits *h, const struct tt_model *m)
{
	size_t nb = track_buckets(h, m);
	for (size_t i = 0; i < h->n; i++) {
		const struct tt_tl_event *e = &h->v[i];
		h->trfirst[h->trbase[e->ri] + m->ranks[e->ri]->ev[e->ev].track + 1]++;
	}
	for (size_t b = 0; b < nb; b++)
		h->trfirst[b + 1] += h->trfirst[b];
	size_t *at = tt_malloc((nb + 1) * sizeof(*at));
	memcpy(at, h->trfirst, (nb + 1) * sizeof(*at));
	h->bytr = tt_malloc((h->n + 1) * sizeof(*h->bytr));
	h->trts = tt_malloc((h->n + 1) * sizeof(*h->trts));
	for (size_t j = 0; j < h->n; j++) {
		uint32_t i = h->byts[j];
		const struct tt_tl_event *e = &h->v[i];
		size_t k = at[h->trbase[e->ri] + m->ranks[e->ri]->ev[e->ev].track]++;
		h->bytr[k] = i;
		h->trts[k] = h->ts[j];
	}
	free(at);
}

size_t tl_hits_track_from(const struct tl_hits *h, size_t lo, size_t hi, int64_t t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->trts[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void tl_hits_track(const struct tl_hits *h, size_t ri, uint32_t track, int64_t t0, int64_t t1,
		   size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	if (!h->trbase || ri >= h->ntrbase || h->trbase[ri] + track >= h->trbase[ri + 1])
		return;
	size_t b = h->trbase[ri] + track;
	size_t a = h->trfirst[b], e = h->trfirst[b + 1];
	*lo = tl_hits_track_from(h, a, e, t0);
	*hi = tl_hits_track_from(h, *lo, e, t1);
}

void tl_hits_set(struct tl_hits *h, const struct tt_model *m, const struct tt_tl_event *v,
		 size_t n, const char *what)
{
	tl_hits_clear(h);
	h->v = tt_malloc((n + 1) * sizeof(*h->v));
	for (size_t i = 0; i < n; i++)
		if (v[i].ri < m->nranks && v[i].ev < m->ranks[v[i].ri]->nev)
			h->v[h->n++] = v[i];
	snprintf(h->what, sizeof(h->what), "%s", what ? what : "");
	index_by_time(h, m);
	index_by_track(h, m);
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Does s hold pat (plen >= 1 bytes, lower case) ignoring ASCII case? */
static bool ci_contains(const char *s, const char *pat, size_t plen)
{
	const unsigned char *u = (const unsigned char *)s, *p = (const unsigned char *)pat;
	for (; *u; u++) {
		if (lower(*u) != p[0])
			continue;
		size_t k = 1;
		while (k < plen && u[k] && lower(u[k]) == p[k])
			k++;
		if (k == plen)
			return true;
	}
	return false;
}

/* one rank's part of a search: the tracks w[first, first + n) (all of one
 * rank), its hits in the order found (track by track, each in time order) */
struct scan {
	const struct tl_where *w;
	size_t first, n;
	struct key *k;
	uint32_t *track; /* per hit */
	size_t nk, cap;
};

struct search {
	const struct tt_model *m;
	struct scan *v;
	bool re;
	/* (tracetop/regex.h: no backtracking, so no name makes it slow; one
	 * search at a time, under lock) */
	struct tt_re *rx;
	const char *pat;
	char *low;     /* pat in lower case */
	size_t plen;
	/* a regular expression's answers by name, across the ranks (each rank
	 * interns its own names; a match costs microseconds) */
	pthread_mutex_t lock;
	struct tt_hmap seen; /* hash of a name -> index into names */
	const char **names;
	bool *yes;
	size_t nnames, cap;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

static bool name_matches(struct search *se, const char *name)
{
	uint64_t key = name_hash(name);
	pthread_mutex_lock(&se->lock);
	size_t pos;
	for (uint32_t v = tt_hmap_first(&se->seen, key, &pos); v != TT_HMAP_NONE;
	     v = tt_hmap_next(&se->seen, key, &pos))
		if (strcmp(se->names[v], name) == 0) {
			bool yes = se->yes[v];
			pthread_mutex_unlock(&se->lock);
			return yes;
		}
	bool yes = tt_re_search(se->rx, name, strlen(name));
	if (se->nnames == se->cap) {
		se->cap = se->cap ? 2 * se->cap : 256;
		se->names = tt_realloc_array(se->names, se->cap, sizeof(*se->names));
		se->yes = tt_realloc_array(se->yes, se->cap, sizeof(*se->yes));
	}
	se->names[se->nnames] = name;
	se->yes[se->nnames] = yes;
	tt_hmap_add(&se->seen, key, (uint32_t)se->nnames++);
	pthread_mutex_unlock(&se->lock);
	return yes;
}

static void scan_rank(size_t i, void *ctx)
{
	struct search *se = ctx;
	struct scan *sc = &se->v[i];
	const struct tt_rank *r = se->m->ranks[sc->w[sc->first].ri];
	/* each name is matched once per rank: 0 not yet, 1 no, 2 yes */
	uint8_t *memo = tt_calloc(r->strs.n + 1, 1);
	for (size_t q = sc->first; q < sc->first + sc->n; q++) {
		if (sc->w[q].track >= r->ntracks)
			continue;
		const struct tt_track *tr = &r->tracks[sc->w[q].track];
		for (uint32_t e = tr->first; e < tr->first + tr->count; e++) {
			const struct tt_event *ev = &r->ev[e];
			if (ev->flags & TT_EF_MARKER || ev->name >= r->strs.n)
				continue;
			uint8_t *mm = &memo[ev->name];
			if (!*mm) {
				const char *name = tt_str(r, ev->name);
				bool yes;
				if (se->re)
					yes = name_matches(se, name);
				else if (!se->plen)
					yes = true;
				else
					yes = ci_contains(name, se->low, se->plen);
				*mm = yes ? 2 : 1;
			}
			if (*mm != 2)
				continue;
			if (sc->nk == sc->cap) {
				sc->cap = sc->cap ? 2 * sc->cap : 256;
				sc->k = tt_realloc_array(sc->k, sc->cap, sizeof(*sc->k));
				sc->track = tt_realloc_array(sc->track, sc->cap, sizeof(*sc->track));
			}
			struct key *k = &sc->k[sc->nk];
			k->ts = ev->ts;
			k->ri_order = sc->w[q].ri; /* ties: the model's rank order */
			k->ev = e;
			k->i = 0; /* (set below: its place in the order found) */
			sc->track[sc->nk] = sc->w[q].track;
			sc->nk++;
		}
	}
	free(memo);
}

/* The indices of k[0..n) stably sorted by ts: a radix sort, 11 bits a
 * pass over ts minus the smallest (as many passes as the spread needs). */
static uint32_t *by_time(const struct key *k, size_t n)
{
	uint32_t *a = tt_malloc((n + 1) * sizeof(*a)), *b = tt_malloc((n + 1) * sizeof(*b));
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		a[i] = (uint32_t)i;
		lo = TT_MIN(lo, k[i].ts);
		hi = TT_MAX(hi, k[i].ts);
	}
	uint64_t spread = n ? (uint64_t)hi - (uint64_t)lo : 0;
	size_t cnt[2049];
	for (int shift = 0; shift < 64 && (spread >> shift); shift += 11) {
		memset(cnt, 0, sizeof(cnt));
		for (size_t i = 0; i < n; i++)
			cnt[(((uint64_t)k[a[i]].ts - (uint64_t)lo) >> shift & 2047) + 1]++;
		for (int d = 0; d < 2048; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			b[cnt[((uint64_t)k[a[i]].ts - (uint64_t)lo) >> shift & 2047]++] = a[i];
		uint32_t *t = a;
		a = b;
		b = t;
	}
	free(b);
	return a;
}

long tl_hits_search(struct tl_hits *h, const struct tt_model *m, const struct tl_where *w,
		    size_t nw, const char *pattern, char *why, size_t whyn)
{
	tl_hits_clear(h);
	struct search se = {.m = m};
	se.re = strncmp(pattern, "re:", 3) == 0;
	se.pat = se.re ? pattern + 3 : pattern;
	if (se.re) {
		char msg[160];
		se.rx = tt_re_compile(se.pat, true, msg, sizeof(msg));
		if (!se.rx) {
			snprintf(why, whyn, "bad regular expression '%s': %s", se.pat, msg);
			return -1;
		}
	}
	se.plen = strlen(se.pat);
	se.low = tt_malloc(se.plen + 1);
	for (size_t i = 0; i <= se.plen; i++)
		se.low[i] = (char)lower((unsigned char)se.pat[i]);
	/* the tracks by rank (w holds each rank's tracks together) */
	size_t nsc = 0;
	se.v = tt_calloc(nw + 1, sizeof(*se.v));
	size_t events = 0;
	for (size_t i = 0; i < nw; i++) {
		if (w[i].ri >= m->nranks)
			continue;
		if (!nsc || se.v[nsc - 1].w[se.v[nsc - 1].first].ri != w[i].ri) {
			se.v[nsc].w = w;
			se.v[nsc].first = i;
			nsc++;
		}
		struct scan *sc = &se.v[nsc - 1];
		/* (a track of another rank in between starts a new part) */
		if (sc->first + sc->n != i) {
			se.v[nsc].w = w;
			se.v[nsc].first = i;
			sc = &se.v[nsc++];
		}
		sc->n++;
		const struct tt_rank *r = m->ranks[w[i].ri];
		if (w[i].track < r->ntracks)
			events += r->tracks[w[i].track].count;
	}
	pthread_mutex_init(&se.lock, NULL);
	tt_parallel_for(nsc, events > 200000 ? TT_MIN(tt_ncpus(), 8) : 1, scan_rank, &se);
	pthread_mutex_destroy(&se.lock);
	tt_hmap_free(&se.seen);
	free(se.names);
	free(se.yes);
	tt_re_free(se.rx);
	free(se.low);
	/* the hits in the order found (by rank and track, each track in time
	 * order): the track index; then sorted by time */
	size_t n = 0;
	for (size_t i = 0; i < nsc; i++)
		n += se.v[i].nk;
	struct key *k = tt_malloc((n + 1) * sizeof(*k));
	uint32_t *track = tt_malloc((n + 1) * sizeof(*track));
	size_t j = 0;
	for (size_t i = 0; i < nsc; i++) {
		if (se.v[i].nk) {
			memcpy(k + j, se.v[i].k, se.v[i].nk * sizeof(*k));
			memcpy(track + j, se.v[i].track, se.v[i].nk * sizeof(*track));
		}
		j += se.v[i].nk;
		free(se.v[i].k);
		free(se.v[i].track);
	}
	free(se.v);
	for (size_t i = 0; i < n; i++)
		k[i].i = (uint32_t)i;
	/* bucket starts by (rank, track); the hits go in, found order = time
	 * order within a track */
	size_t nb = track_buckets(h, m);
	for (size_t i = 0; i < n; i++)
		h->trfirst[h->trbase[k[i].ri_order] + track[i] + 1]++;
	for (size_t b = 0; b < nb; b++)
		h->trfirst[b + 1] += h->trfirst[b];
	size_t *at = tt_malloc((nb + 1) * sizeof(*at));
	memcpy(at, h->trfirst, (nb + 1) * sizeof(*at));
	size_t *slot = tt_malloc((n + 1) * sizeof(*slot)); /* found index -> bytr index */
	h->bytr = tt_malloc((n + 1) * sizeof(*h->bytr));
	h->trts = tt_malloc((n + 1) * sizeof(*h->trts));
	for (size_t i = 0; i < n; i++) {
		slot[i] = at[h->trbase[k[i].ri_order] + track[i]]++;
		h->trts[slot[i]] = k[i].ts;
	}
	free(at);
	free(track);
	/* time order (ties: rank, event): the found order is (rank, event)
	 * when w lists the ranks in the model's order and each rank's tracks
	 * in theirs, as the timeline's rows do; then a stable sort by time
	 * gives it (a radix sort: a search may match a million events) */
	uint32_t *ord = by_time(k, n);
	for (size_t i = 1; ord && i < n; i++)
		if (key_cmp(&k[ord[i - 1]], &k[ord[i]], NULL) > 0) {
			free(ord);
			ord = NULL;
		}
	if (!ord) {
		tt_msort(k, n, sizeof(*k), key_cmp, NULL);
		ord = tt_malloc((n + 1) * sizeof(*ord));
		for (size_t i = 0; i < n; i++)
			ord[i] = (uint32_t)i;
	}
	h->v = tt_malloc((n + 1) * sizeof(*h->v));
	h->byts = tt_malloc((n + 1) * sizeof(*h->byts));
	h->ts = tt_malloc((n + 1) * sizeof(*h->ts));
	for (size_t i = 0; i < n; i++) {
		const struct key *ki = &k[ord[i]];
		h->v[i].ri = ki->ri_order;
		h->v[i].ev = ki->ev;
		h->byts[i] = (uint32_t)i;
		h->ts[i] = ki->ts;
		h->bytr[slot[ki->i]] = (uint32_t)i;
	}
	h->n = n;
	free(ord);
	free(slot);
	free(k);
	snprintf(h->what, sizeof(h->what), "'%s'", pattern);
	return (long)n;
}

/* The hits with ts in [t0, t1): [*lo, *hi) as indices into byts. */
static void tl_hits_window(const struct tl_hits *h, int64_t t0, int64_t t1, size_t *lo, size_t *hi)
{
	size_t a = 0, b = h->n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (h->ts[mid] < t0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	b = h->n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (h->ts[mid] < t1)
			a = mid + 1;
		else
			b = mid;
	}
	*hi = a;
}

size_t tl_hits_step(const struct tl_hits *h, const struct tt_model *m, int dir, int64_t t,
		    size_t ri, uint32_t ev, bool *wrapped)
{
	(void)m;
	*wrapped = false;
	if (!h->n)
		return SIZE_MAX;
	if (h->cur < h->n && h->v[h->cur].ri == ri && h->v[h->cur].ev == ev) {
		if (dir > 0) {
			*wrapped = h->cur + 1 == h->n;
			return (h->cur + 1) % h->n;
		}
		*wrapped = h->cur == 0;
		return (h->cur + h->n - 1) % h->n;
	}
	size_t lo, hi;
	if (dir > 0) {
		tl_hits_window(h, INT64_MIN, t + 1, &lo, &hi);
		if (hi >= h->n) {
			*wrapped = true;
			hi = 0;
		}
		return h->byts[hi];
	}
	tl_hits_window(h, INT64_MIN, t, &lo, &hi);
	if (hi == 0) {
		*wrapped = true;
		hi = h->n;
	}
	return h->byts[hi - 1];
}

static int span_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct tt_tl_span *x = a, *y = b;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return (x->t1 > y->t1) - (x->t1 < y->t1);
}

void tl_hits_spans(struct tl_hits *h, const struct tt_tl_span *sp, size_t n)
{
	free(h->span);
	free(h->span_end);
	h->span = tt_malloc((n + 1) * sizeof(*h->span));
	h->span_end = tt_malloc((n + 1) * sizeof(*h->span_end));
	h->nspan = n;
	if (n)
		memcpy(h->span, sp, n * sizeof(*sp));
	tt_msort(h->span, n, sizeof(*h->span), span_cmp, NULL);
	for (size_t i = 0; i < n; i++)
		h->span_end[i] = i ? TT_MAX(h->span_end[i - 1], h->span[i].t1) : h->span[i].t1;
}

void tl_hits_span_window(const struct tl_hits *h, int64_t t0, int64_t t1, size_t *lo,
			 size_t *hi)
{
	/* span_end rises: the first that ends after t0 */
	size_t a = 0, b = h->nspan;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (h->span_end[mid] <= t0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	/* span rises by t0: the first that starts at t1 or later */
	b = h->nspan;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (h->span[mid].t0 < t1)
			a = mid + 1;
		else
			b = mid;
	}
	*hi = a;
}
