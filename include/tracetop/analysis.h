/* analysis room: pure functions over the immutable model.
 *
 * No curses, no cJSON, no printing.  Each analysis returns plain result
 * arrays (sorted for display) with a _free(); the report command and the TUI
 * panes both call these.  Definitions follow Holistic Trace Analysis (HTA),
 * see ../shared/docs/metrics.md; differences are named where they occur. */
#ifndef TRACETOP_ANALYSIS_H
#define TRACETOP_ANALYSIS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/model.h"

/* ---- options shared by the analyses ---- */

struct tt_aopts {
	bool exact;       /* false (default): HTA's view (iteration filter, µs
			   * rounding of fractional timestamps); true: every
			   * event with exact ns times */
	bool include_last_step; /* HTA's include_last_profiler_step */
	const int64_t *ranks;   /* restrict to these rank numbers (NULL = all) */
	size_t nranks;
	int threads;            /* 0 = one per CPU */
};

/* Does the analysis include this rank (by the ranks option)? */
bool tt_aopts_has_rank(const struct tt_aopts *o, int64_t rank);

/* ---- the event selection HTA analyses see (metrics.md §0.2-0.4) ---- */

struct tt_sel {
	const struct tt_rank *r;
	const uint64_t *keep; /* bit per event (shared: built once per rank) */
	bool round;       /* HTA rounding: start up, end down to whole µs */
	uint32_t nkept;
};

/* Whether HTA's parser keeps the event at all: it has "dur" and "cat" and
 * is not the profiler span (cat "Trace"; our markers).  B/E pairs carry no
 * "dur" in the file: HTA drops them. */
static inline bool tt_hta_parsed(const struct tt_rank *r, const struct tt_event *e)
{
	if (e->ph != 'X' || (e->flags & (TT_EF_MARKER | TT_EF_PAIRED)))
		return false;
	return r->cats[e->cat].kind != TT_K_NONE;
}

/* "ProfilerStep#" followed by a digit: the name of a step annotation */
bool tt_is_step_name(const char *s);
/* "ProfilerStep#N" -> N; anything else (a suffix, no digits, overflow) -> -1 */
int64_t tt_step_number(const char *s);

/* Events with args.stream live only on TT_TRACK_GPU tracks: this steps *t
 * to the next such track from *t on and gives its events [*first, *end).
 * Returns false after the last.  Use:
 *   for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
 *           for (uint32_t i = i0; i < i1; i++) ... */
static inline bool tt_next_gpu_track(const struct tt_rank *r, uint32_t *t, uint32_t *first,
				     uint32_t *end)
{
	while (*t < r->ntracks && r->tracks[*t].kind != TT_TRACK_GPU)
		(*t)++;
	if (*t >= r->ntracks)
		return false;
	*first = r->tracks[*t].first;
	*end = r->tracks[*t].first + r->tracks[*t].count;
	(*t)++;
	return true;
}

/* Build the selection of rank index ri.  With o->exact every X event that is
 * not a marker is kept and nothing is rounded. */
void tt_sel_init(struct tt_sel *s, const struct tt_model *m, size_t ri, const struct tt_aopts *o);
void tt_sel_free(struct tt_sel *s);

static inline bool tt_sel_has(const struct tt_sel *s, uint32_t i)
{
	return (s->keep[i >> 6] >> (i & 63)) & 1;
}

/* The µs value HTA works with: the number as written in the trace, parsed
 * into a double (correctly rounded; at epoch scale doubles are 0.25 µs apart,
 * so "…689.047" becomes …689.0).  ns/1000 with at most 3 decimals, added in
 * long double (64-bit mantissa), then rounded once to double. */
static inline double tt_us_written(int64_t ns)
{
	int64_t q = ns / 1000, rem = ns % 1000;
	return (double)((long double)q + (long double)rem / 1000.0L);
}

/* The doubles' rounding in integers where it is exact.  A whole µs below
 * 2^52 is a double exactly, and so is the sum of two.  Below 2^40 µs (12.7
 * days from the time base) a double is within 2^-14 µs of the written
 * value, and the sum of two such within 2^-12: less than the 0.001 µs a
 * written fraction is from a whole µs, so ceil and floor are integer
 * arithmetic there too, except for a sum whose fractions make a whole µs.
 * Every other value takes the doubles. */
#define TT_US_WHOLE_NS (INT64_C(1000) << 52)
#define TT_US_EXACT_NS (INT64_C(1000) << 40)

static inline bool tt_us_whole(int64_t ns)
{
	return ns % 1000 == 0 && ns > -TT_US_WHOLE_NS && ns < TT_US_WHOLE_NS;
}

/* Start and end of an event in ns as the analyses see them.  HTA rounding
 * (metrics.md §0.2): start = ceil(ts), end = floor(ts + dur), in the doubles
 * HTA parsed, relative to the trace's own time base. */
static inline int64_t tt_sel_ts(const struct tt_sel *s, const struct tt_event *e)
{
	if (!s->round)
		return e->ts;
	int64_t b = s->r->base_ns, t = e->ts - b;
	if (tt_us_whole(t))
		return e->ts;
	if (t > 0 && t < TT_US_EXACT_NS)
		return (t / 1000 + 1) * 1000 + b;
	return (int64_t)ceil(tt_us_written(t)) * 1000 + b;
}
static inline int64_t tt_sel_end(const struct tt_sel *s, const struct tt_event *e)
{
	if (!s->round)
		return e->ts + e->dur;
	int64_t b = s->r->base_ns, t = e->ts - b;
	if (tt_us_whole(t) && tt_us_whole(e->dur))
		return e->ts + e->dur;
	if (t >= 0 && t < TT_US_EXACT_NS && e->dur >= 0 && e->dur < TT_US_EXACT_NS) {
		int64_t frac = t % 1000 + e->dur % 1000;
		if (frac != 1000)
			return (t / 1000 + e->dur / 1000 + (frac > 1000)) * 1000 + b;
	}
	double end = tt_us_written(t) + tt_us_written(e->dur);
	return (int64_t)floor(end) * 1000 + b;
}

/* ---- interval union (metrics.md §2) ---- */

struct tt_iv {
	int64_t ts, end;
};

/* Sort by ts and merge as HTA does (touching intervals merge; an interval
 * joins the block when ts <= the largest end so far).  In place; returns the
 * number of blocks. */
size_t tt_iv_merge(struct tt_iv *v, size_t n);
/* total length of merged blocks */
int64_t tt_iv_total(const struct tt_iv *v, size_t n);
/* Sum of merged, sorted blocks v[0..n)'s overlap with [a, b). */
int64_t tt_iv_inter(const struct tt_iv *v, size_t n, int64_t a, int64_t b);
/* Intersection of two merged, sorted block lists into *out (malloc'd, freed
 * by the caller; NULL when empty); returns the count. */
size_t tt_iv_and(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
		 struct tt_iv **out);

/* Blocks of a not covered by b (both merged and sorted) into *out
 * (malloc'd, freed by the caller; NULL when empty); returns the count. */
size_t tt_iv_sub(const struct tt_iv *a, size_t na, const struct tt_iv *b, size_t nb,
		 struct tt_iv **out);


/* ---- kernel classification (metrics.md §1) ---- */

enum tt_ktype { TT_KT_COMP = 0, TT_KT_COMM = 1, TT_KT_MEM = 2, TT_KT_OTHER = 3 };
const char *tt_ktype_name(enum tt_ktype t); /* "COMPUTATION", ... */
/* Classify a GPU event name; *rule (optional) gets the rule that decided,
 * e.g. "name starts with 'nccl'". */
enum tt_ktype tt_kernel_type(const char *name, const char **rule);

/* ---- summary: one row per rank ---- */

struct tt_summary_row {
	const struct tt_rank *r;
	uint64_t events;    /* elements of traceEvents read */
	uint32_t kept;      /* events in the model (X and instants) */
	int64_t span_ns;    /* the trace span: first start to last end of its work
			     * events (every event, exact times) */
	uint32_t gpu_streams;
	uint32_t kernels, memcpys, memsets, cpu_ops, runtime_calls, steps;
	int64_t gpu_busy_ns; /* union of all GPU stream events */
	double gpu_busy_pct; /* of span_ns, the trace span */
	uint64_t warnings;   /* count of 'w' warnings */
};

/* exact times; every rank of the model */
struct tt_summary_row *tt_summary(const struct tt_model *m, size_t *n);

/* ---- running per-rank work on several threads ---- */

/* Call fn(ri, ctx) for every rank index ri of m that o selects (by rank
 * number), on up to o->threads threads (0 = one per CPU).  fn must only
 * write to its own rank's slot of whatever ctx holds. */
void tt_for_ranks(const struct tt_model *m, const struct tt_aopts *o,
		  void (*fn)(size_t ri, void *ctx), void *ctx);

#endif

/* the analyses, one header each */
#include "tracetop/breakdown.h"
#include "tracetop/counters.h"
#include "tracetop/diff.h"
#include "tracetop/idle.h"
#include "tracetop/patterns.h"
#include "tracetop/ranks.h"
#include "tracetop/tbviews.h"
