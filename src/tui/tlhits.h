/* tui room private: a set of events the timeline highlights and steps
 * through with n/N -- the matches of a search, or a set another pane hands
 * over (a critical path, say).  Pure over the model (no drawing). */
#ifndef TRACETOP_TLHITS_H
#define TRACETOP_TLHITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/model.h"
#include "pane.h"

struct tl_hits {
	struct tt_tl_event *v; /* in stepping order */
	size_t n;
	size_t cur;            /* the one stepped to last, or SIZE_MAX */
	uint32_t *byts;        /* indices into v by (ts, rank, event): for drawing */
	int64_t *ts;           /* ts of v[byts[i]] */
	char what[140];        /* "'nccl'", "critical path" */
	/* the same by (rank, track), each track's in time order: bytr[i] an
	 * index into v, trts[i] its ts; the hits of model rank index ri's track
	 * t are bytr[trfirst[trbase[ri] + t] .. trfirst[trbase[ri] + t + 1]) */
	uint32_t *bytr;
	int64_t *trts;
	size_t *trfirst, *trbase;
	size_t ntrbase;        /* ranks in trbase (the model's) */
	/* stretches of time drawn with the set (a path's edges), by t0 */
	struct tt_tl_span *span;
	int64_t *span_end;     /* span_end[i]: the latest t1 of span[0..i] */
	size_t nspan;
};

/* One track of one rank to search (rank index in the model, track index). */
struct tl_where {
	size_t ri;
	uint32_t track;
};

/* The events on the tracks w[0..nw) of model m whose names match pattern
 * (case ignored): a substring, or with "re:" an extended regular
 * expression.  Markers are left out.  The hits are in time order (ties:
 * the model's rank order, then event index).  Returns the number of hits (0: h
 * empty), or -1 with why set (a bad regular expression). */
long tl_hits_search(struct tl_hits *h, const struct tt_model *m, const struct tl_where *w,
		    size_t nw, const char *pattern, char *why, size_t whyn);
/* Take the n events of v (copied) in that order. */
void tl_hits_set(struct tl_hits *h, const struct tt_model *m, const struct tt_tl_event *v,
		 size_t n, const char *what);
void tl_hits_clear(struct tl_hits *h);
/* Take the n stretches of sp (copied) to draw with the set. */
void tl_hits_spans(struct tl_hits *h, const struct tt_tl_span *sp, size_t n);
/* The stretches that reach into [t0, t1) are among span[*lo, *hi) (those
 * with t1 > t0 of them). */
void tl_hits_span_window(const struct tl_hits *h, int64_t t0, int64_t t1, size_t *lo,
			 size_t *hi);
/* The hits of track `track` of model rank index ri with ts in [t0, t1):
 * [*lo, *hi) as indices into bytr. */
void tl_hits_track(const struct tl_hits *h, size_t ri, uint32_t track, int64_t t0, int64_t t1,
		   size_t *lo, size_t *hi);
/* The first index in [lo, hi) of bytr whose hit starts at t or later. */
size_t tl_hits_track_from(const struct tl_hits *h, size_t lo, size_t hi, int64_t t);
/* The hit to step to from time t with the cursor on event (ri, ev) (ev
 * TT_NONE: on none): the next (dir > 0) or previous one in stepping order
 * when the cursor is on the current hit, else the first starting after t
 * (dir > 0) or the last starting before t.  *wrapped tells when it went
 * round an end.  SIZE_MAX when there are no hits. */
size_t tl_hits_step(const struct tl_hits *h, const struct tt_model *m, int dir, int64_t t,
		    size_t ri, uint32_t ev, bool *wrapped);

#endif
