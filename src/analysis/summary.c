/* tracetop report summary: what was loaded, per rank. */
#include "config.h"

#include "tracetop/analysis.h"

#include <stdlib.h>

#include "tracetop/util.h"

struct tt_summary_row *tt_summary(const struct tt_model *m, size_t *n)
{
	struct tt_summary_row *rows = tt_calloc(m->nranks + 1, sizeof(*rows));
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		struct tt_summary_row *w = &rows[i];
		w->r = r;
		w->events = r->report.events_seen;
		w->kept = r->nev;
		w->span_ns = r->t1 - r->t0;
		w->gpu_streams = r->n_gpu_tracks;
		w->kernels = r->n_kernel;
		w->memcpys = r->n_memcpy;
		w->memsets = r->n_memset;
		w->cpu_ops = r->n_cpu_op;
		w->runtime_calls = r->n_runtime;
		w->steps = r->n_steps;
		for (int k = 0; k < TT_W_COUNT; k++)
			if (tt_warning_severity(k) == 'w')
				w->warnings += r->report.count[k];
		size_t cap = 0, nv = 0;
		struct tt_iv *v = NULL;
		for (uint32_t t = 0; t < r->ntracks; t++) {
			const struct tt_track *tr = &r->tracks[t];
			if (tr->kind != TT_TRACK_GPU)
				continue;
			for (uint32_t e = tr->first; e < tr->first + tr->count; e++) {
				const struct tt_event *ev = &r->ev[e];
				if (ev->ph != 'X' || (ev->flags & TT_EF_MARKER))
					continue;
				TT_GROW(v, cap, nv + 1);
				v[nv].ts = ev->ts;
				v[nv].end = ev->ts + ev->dur;
				nv++;
			}
		}
		size_t nb = tt_iv_merge(v, nv);
		w->gpu_busy_ns = tt_iv_total(v, nb);
		/* of the trace span, the summary's one span (every event) */
		int64_t span = w->span_ns;
		w->gpu_busy_pct = span > 0 ? 100.0 * (double)w->gpu_busy_ns / (double)span : NAN;
		free(v);
	}
	*n = m->nranks;
	return rows;
}
