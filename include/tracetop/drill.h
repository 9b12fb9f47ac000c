/* analysis: what the drill-downs list -- the instances of one kernel with
 * the histogram of their durations, and the tracks of one rank with the
 * time each is busy.  Exact times (no HTA selection): these list the
 * trace's own events. */
#ifndef TRACETOP_DRILL_H
#define TRACETOP_DRILL_H

#include "tracetop/analysis.h"

/* ---- one kernel's instances ---- */

#define TT_KI_BINS 8

struct tt_kinstance {
	size_t ri;    /* rank index in the model */
	uint32_t ev;  /* event index in the rank */
	int64_t dur;  /* ns */
};

struct tt_kinstances {
	struct tt_kinstance *v; /* longest first (ties: rank index, event) */
	size_t n;
	/* durations in TT_KI_BINS bins from lo to hi (the shortest and the
	 * longest): of equal width, or of equal ratio (log_scale) when that
	 * shows more (tt_hist_log: one long instance would put all the others
	 * in the first bin); with lo == hi everything is in bin 0, nbins 1 */
	int64_t lo, hi;
	int nbins;
	bool log_scale;
	size_t bins[TT_KI_BINS];
	size_t bmax;            /* the fullest bin's count (at least 1) */
};

/* The GPU events (with a stream) named `name` on the ranks o selects, as
 * the kernel analyses select them (HTA's view unless o->exact: the last
 * step dropped, whole microseconds), with those durations.
 * Fills *out (n = 0 when there is none); free with tt_kinstances_free. */
void tt_kernel_instances(const struct tt_model *m, const struct tt_aopts *o, const char *name,
			 struct tt_kinstances *out);
void tt_kinstances_free(struct tt_kinstances *k);
/* The lower edge of bin b (b = nbins: the upper edge of the last). */
int64_t tt_kinstances_edge(const struct tt_kinstances *k, int b);

/* The durations histograms' scale (instances of a kernel, of a diff's
 * row): n bins from lo to hi of equal width, or of equal ratio when
 * tt_hist_log(lo, hi) (hi at least 10 times lo > 0) and those bins show
 * more of the shape: a larger tt_hist_spread (the entropy of the counts).
 * Edge b is the lower edge of bin b (b = n: hi); a value's bin is the
 * last whose lower edge it reaches, so that the bins hold what their
 * edges say. */
bool tt_hist_log(int64_t lo, int64_t hi);
double tt_hist_spread(const size_t *bins, int n, size_t total);
int64_t tt_hist_edge(int64_t lo, int64_t hi, int n, bool log_scale, int b);
int tt_hist_bin(int64_t lo, int64_t hi, int n, bool log_scale, int64_t v);

/* ---- one rank's tracks ---- */

struct tt_track_busy {
	uint32_t track;   /* index in r->tracks */
	uint32_t events;  /* the track's events (markers included) */
	int64_t busy_ns;  /* union of its events (markers left out) */
	double busy_pct;  /* of the rank's span; NaN for an empty span */
	uint32_t longest; /* its longest event, TT_NONE when none */
};

/* Every track of rank index ri with events, but the global one, in track
 * order.  *n gets the count; free the array. */
struct tt_track_busy *tt_rank_tracks(const struct tt_model *m, size_t ri, size_t *n);

#endif
