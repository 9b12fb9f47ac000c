/* The timeline's highlighted events: see tlhits.h. */
#include "config.h"

#include "tlhits.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
}

long tl_hits_search(struct tl_hits *h, const struct tt_model *m, const struct tl_where *w,
		    size_t nw, const char *pattern, char *why, size_t whyn)
{
	tl_hits_clear(h);
	bool re = strncmp(pattern, "re:", 3) == 0;
	const char *pat = re ? pattern + 3 : pattern;
	regex_t rx;
	if (re) {
		int rc = regcomp(&rx, pat, REG_EXTENDED | REG_NOSUB | REG_ICASE);
		if (rc) {
			char msg[120];
			regerror(rc, &rx, msg, sizeof(msg));
			snprintf(why, whyn, "bad regular expression '%s': %s", pat, msg);
			return -1;
		}
	}
	size_t plen = strlen(pat);
	struct key *k = NULL;
	size_t n = 0, cap = 0;
	/* each name is matched once per rank: 0 not yet, 1 no, 2 yes */
	uint8_t *memo = NULL;
	size_t memo_ri = SIZE_MAX;
	for (size_t i = 0; i < nw; i++) {
		if (w[i].ri >= m->nranks)
			continue;
		const struct tt_rank *r = m->ranks[w[i].ri];
		if (w[i].track >= r->ntracks)
			continue;
		if (memo_ri != w[i].ri) {
			free(memo);
			memo = tt_calloc(r->strs.n + 1, 1);
			memo_ri = w[i].ri;
		}
		const struct tt_track *tr = &r->tracks[w[i].track];
		for (uint32_t e = tr->first; e < tr->first + tr->count; e++) {
			const struct tt_event *ev = &r->ev[e];
			if (ev->flags & TT_EF_MARKER || ev->name >= r->strs.n)
				continue;
			uint8_t *mm = &memo[ev->name];
			if (!*mm) {
				const char *name = tt_str(r, ev->name);
				bool yes;
				if (re)
					yes = regexec(&rx, name, 0, NULL, 0) == 0;
				else if (!plen)
					yes = true;
				else {
					yes = false;
					size_t nl = strlen(name);
					for (size_t o = 0; o + plen <= nl && !yes; o++)
						yes = strncasecmp(name + o, pat, plen) == 0;
				}
				*mm = yes ? 2 : 1;
			}
			if (*mm != 2)
				continue;
			TT_GROW(k, cap, n + 1);
			k[n].ts = ev->ts;
			k[n].ri_order = w[i].ri; /* ties: the model's rank order */
			k[n].ev = e;
			k[n].i = (uint32_t)w[i].ri;
			n++;
		}
	}
	free(memo);
	if (re)
		regfree(&rx);
	tt_msort(k, n, sizeof(*k), key_cmp, NULL);
	h->v = tt_malloc((n + 1) * sizeof(*h->v));
	h->byts = tt_malloc((n + 1) * sizeof(*h->byts));
	h->ts = tt_malloc((n + 1) * sizeof(*h->ts));
	for (size_t i = 0; i < n; i++) {
		h->v[i].ri = k[i].i;
		h->v[i].ev = k[i].ev;
		h->byts[i] = (uint32_t)i;
		h->ts[i] = k[i].ts;
	}
	h->n = n;
	free(k);
	snprintf(h->what, sizeof(h->what), "'%s'", pattern);
	return (long)n;
}

void tl_hits_window(const struct tl_hits *h, int64_t t0, int64_t t1, size_t *lo, size_t *hi)
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
