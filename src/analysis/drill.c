/* What the drill-downs list: see drill.h. */
#include "config.h"

#include "tracetop/drill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/util.h"

/* ---- one kernel's instances ---- */

static int inst_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_kinstance *x = a, *y = b;
	(void)ctx;
	return x->dur > y->dur ? -1 : x->dur < y->dur; /* stable: rank, event */
}

void tt_kernel_instances(const struct tt_model *m, const struct tt_aopts *o, const char *name,
			 struct tt_kinstances *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(o, r->rank))
			continue;
		uint32_t id = tt_strtab_find(&r->strs, name, strlen(name));
		if (id == TT_NONE)
			continue;
		/* the events and durations the Kernels pane counts (HTA's view,
		 * or every event with --exact) */
		struct tt_sel sel;
		tt_sel_init(&sel, m, ri, o);
		for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
			for (uint32_t i = i0; i < i1; i++) {
				const struct tt_event *e = &r->ev[i];
				if (e->name != id || !(e->flags & TT_EF_STREAM) || !tt_sel_has(&sel, i))
					continue;
				TT_GROW(out->v, cap, out->n + 1);
				out->v[out->n++] = (struct tt_kinstance){
					ri, i, tt_sel_end(&sel, e) - tt_sel_ts(&sel, e)};
			}
		tt_sel_free(&sel);
	}
	if (!out->n)
		return;
	tt_msort(out->v, out->n, sizeof(*out->v), inst_cmp, NULL);
	out->lo = out->v[out->n - 1].dur;
	out->hi = out->v[0].dur;
	out->nbins = out->hi > out->lo ? TT_KI_BINS : 1;
	/* both scales, the one that shows more of the shape kept */
	size_t lin[TT_KI_BINS] = {0}, lg[TT_KI_BINS] = {0};
	bool can_log = tt_hist_log(out->lo, out->hi);
	for (size_t i = 0; i < out->n; i++) {
		lin[tt_hist_bin(out->lo, out->hi, TT_KI_BINS, false, out->v[i].dur)]++;
		if (can_log)
			lg[tt_hist_bin(out->lo, out->hi, TT_KI_BINS, true, out->v[i].dur)]++;
	}
	out->log_scale = can_log && tt_hist_spread(lg, TT_KI_BINS, out->n) >
					    tt_hist_spread(lin, TT_KI_BINS, out->n);
	memcpy(out->bins, out->log_scale ? lg : lin, sizeof(out->bins));
	out->bmax = 1;
	for (int b = 0; b < TT_KI_BINS; b++)
		out->bmax = TT_MAX(out->bmax, out->bins[b]);
}

int64_t tt_kinstances_edge(const struct tt_kinstances *k, int b)
{
	return tt_hist_edge(k->lo, k->hi, TT_KI_BINS, k->log_scale, b);
}

double tt_hist_spread(const size_t *bins, int n, size_t total)
{
	double h = 0;
	for (int b = 0; b < n && total; b++)
		if (bins[b]) {
			double p = (double)bins[b] / (double)total;
			h -= p * log(p);
		}
	return h;
}

bool tt_hist_log(int64_t lo, int64_t hi)
{
	return lo > 0 && hi / 10 >= lo;
}

int64_t tt_hist_edge(int64_t lo, int64_t hi, int n, bool log_scale, int b)
{
	if (b <= 0 || hi <= lo)
		return lo;
	if (b >= n)
		return hi;
	if (!log_scale)
		return lo + (int64_t)((__int128)(hi - lo) * b / n);
	return (int64_t)llround((double)lo * pow((double)hi / (double)lo, (double)b / n));
}

int tt_hist_bin(int64_t lo, int64_t hi, int n, bool log_scale, int64_t v)
{
	if (hi <= lo || n <= 1)
		return 0;
	if (!log_scale) {
		int b = (int)((double)(v - lo) / (double)(hi - lo) * n);
		return b < 0 ? 0 : b > n - 1 ? n - 1 : b;
	}
	int b = n - 1;
	while (b > 0 && v < tt_hist_edge(lo, hi, n, true, b))
		b--;
	return b;
}

void tt_kinstances_free(struct tt_kinstances *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* ---- one rank's tracks ---- */

struct tt_track_busy *tt_rank_tracks(const struct tt_model *m, size_t ri, size_t *n)
{
	const struct tt_rank *r = m->ranks[ri];
	struct tt_track_busy *v = tt_calloc(r->ntracks + 1, sizeof(*v));
	int64_t span = r->t1 - r->t0;
	*n = 0;
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		if (!tr->count || tr->kind == TT_TRACK_GLOBAL)
			continue;
		/* busy: union of the track's events (sorted by start) */
		int64_t busy = 0, end = INT64_MIN, longest = -1;
		uint32_t li = TT_NONE;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			if (e->flags & TT_EF_MARKER)
				continue;
			int64_t a = e->ts > end ? e->ts : end, b = e->ts + e->dur;
			if (b > a)
				tt_sat_acc(&busy, b - a);
			if (b > end)
				end = b;
			if (e->dur > longest) {
				longest = e->dur;
				li = i;
			}
		}
		struct tt_track_busy *w = &v[(*n)++];
		w->track = ti;
		w->events = tr->count;
		w->busy_ns = busy;
		w->busy_pct = span > 0 ? 100.0 * (double)busy / (double)span : NAN;
		w->longest = li;
	}
	return v;
}
