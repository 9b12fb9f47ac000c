/* tui room private: the timeline's track index -- the class each event is
 * drawn as, and a raster index (render/raster.h) per (rank, track), built
 * the first time the track is in view and kept for the app's life in one
 * cache that every timeline of the app shares.  Also the links between
 * events of a track that the timeline and the event pane follow. */
#ifndef TRACETOP_TLTRACKS_H
#define TRACETOP_TLTRACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/model.h"
#include "tracetop/raster.h"

struct tl_rank;
struct tt_app;

/* one track of one rank */
struct tl_src {
	struct tl_rank *rk;
	const struct tt_track *tr;
	struct tt_rix *ix; /* NULL until indexed */
	bool queued;       /* (tl_build_rows: in the list to index) */
};

struct tl_rank {
	size_t ri;
	const struct tt_rank *r;
	uint8_t *ncls; /* class of kernel names by string id, 0xFF = not known yet */
	uint8_t *ccls; /* class by category (TL_CLS_BY_NAME: by name) */
	struct tl_src *src; /* per track */
};

struct tl_cache {
	const struct tt_model *m;
	struct tl_rank *ranks; /* per model rank, set up when first used */
	int64_t index_ns;      /* time spent building indexes */
	size_t index_bytes;
	uint64_t indexed;      /* events indexed */
};

struct tl_cache *tl_cache_new(const struct tt_model *m);
void tl_cache_free(struct tl_cache *c);
/* The entry of rank index ri (set up when first asked for). */
struct tl_rank *tl_cache_rank(struct tl_cache *c, size_t ri);

/* The class (enum tt_rclass) event e of rk is drawn as; TT_RC_SKIP for
 * markers and flows.  Safe on several threads. */
uint8_t tl_ev_class(const struct tl_rank *rk, const struct tt_event *e);

/* The track index the app's timelines of model m share (one per side of a
 * diff), made when first asked for; NULL when m is neither side's or it
 * cannot be shared (the caller then makes one of its own).  The UI thread
 * only (indexes are built as tracks come into view). */
struct tl_cache *tl_shared_cache(struct tt_app *a, const struct tt_model *m);

/* What tl_index did. */
struct tl_index_stats {
	size_t tracks;
	uint64_t events;
	size_t bytes;
	int64_t ns;
};
/* Index the n tracks of v (none indexed yet, no duplicates): one pass over
 * their events, on several threads when there is much to do. */
void tl_index(struct tl_cache *c, struct tl_src **v, size_t n, struct tl_index_stats *st);

/* Has track t of r an event that is not a marker? */
bool tl_track_has_work(const struct tt_rank *r, const struct tt_track *t);
/* Is track t of r drawn as a row: a GPU stream or CPU thread with work (a
 * GPU stream only when gpu_only)? */
bool tl_track_shown(const struct tt_rank *r, const struct tt_track *t, bool gpu_only);

/* Events looked at to find an enclosing op or a kernel. */
#define TL_LINK_SCAN 200000
/* The innermost CPU op enclosing event ev on its thread, or TT_NONE. */
uint32_t tl_enclosing_op(const struct tt_rank *r, uint32_t ev);
/* The first GPU op launched from inside CPU event ev, or TT_NONE. */
uint32_t tl_first_launch(const struct tt_rank *r, uint32_t ev);

#endif
