/* render room: the timeline rasteriser, exact at every zoom.
 *
 * A timeline row is a sequence of spans (start, duration, class) sorted by
 * (start, -duration), as the model keeps the events of a track.  The row is
 * painted the way a nested trace reads: at each instant the innermost
 * (latest-started, still running) foreground span shows; annotation spans
 * (ProfilerStep#N, record_function ranges) are background and show only
 * where no foreground span runs; elsewhere the row is idle.
 *
 * A window [t0, t1) of w cells is cut at x_k = t0 + floor((t1 - t0) * k / w);
 * cell k covers [x_k, x_{k+1}).  Each cell gets:
 *   - the foreground class painted over most of the cell (ties: the rarer
 *     class first: communication, memory, compute, runtime, CPU op, other);
 *   - else, when a foreground span of zero length starts in the cell, that
 *     span's class;
 *   - else annotation if an annotation covers part of the cell, else idle.
 * So a cell that holds any foreground span, however short, never shows idle
 * or annotation: nothing is lost at any zoom.  A cell is "busy" when at least
 * TT_RASTER_BUSY_MIN foreground spans start in it and foreground spans cover
 * less than half of it (many tiny events in mostly empty time); it is drawn
 * with the busy glyph in its class's role.
 *
 * Speed: tt_rix_build() makes one pass over a row (O(n); 10-20 ns per span)
 * and records the painter's state every TT_RIX_BLOCK spans (about 2 bytes
 * per span, the open spans included).  A window of w cells then costs w
 * binary searches and replays of at most TT_RIX_BLOCK spans each, whatever
 * the zoom and however long the longest span (a ProfilerStep covering the
 * whole row costs nothing).
 *
 * Glyphs (the same in ASCII and UTF-8, so a mono screen reads the same):
 *     # compute   = communication   + memory   o CPU op   r runtime call
 *     ~ other     - annotation      . idle     * busy (many tiny events)
 */
#ifndef TRACETOP_RASTER_H
#define TRACETOP_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/grid.h"

enum tt_rclass {
	TT_RC_IDLE = 0,
	TT_RC_ANNOT,   /* background: user annotations */
	TT_RC_COMP,    /* GPU computation kernels */
	TT_RC_COMM,    /* GPU communication kernels (NCCL) */
	TT_RC_MEM,     /* memcpy, memset, memory kernels */
	TT_RC_CPU,     /* CPU operators */
	TT_RC_RUNTIME, /* CUDA runtime and driver calls */
	TT_RC_OTHER,   /* anything else that is work */
	TT_RC_COUNT,
	TT_RC_SKIP = 255 /* not drawn (profiler markers) */
};

#define TT_RASTER_BUSY_MIN 4
#define TT_RASTER_BUSY_GLYPH '*'
#define TT_RIX_BLOCK 64

struct tt_span {
	int64_t ts, dur;
	uint8_t cls; /* enum tt_rclass */
};

/* Fill out[0..n) with the spans i .. i+n-1 of the row. */
typedef void (*tt_span_fetch)(const void *ctx, uint32_t i, uint32_t n, struct tt_span *out);

/* The index of one row.  fetch and ctx are kept and must outlive it. */
struct tt_rix;

struct tt_rix *tt_rix_build(uint32_t n, tt_span_fetch fetch, const void *ctx);
void tt_rix_free(struct tt_rix *ix);
size_t tt_rix_memsize(const struct tt_rix *ix);

/* The painter's state at time t: the time before t painted, the spans
 * starting at or before t started. */
struct tt_rpoint {
	uint64_t cov[TT_RC_COUNT]; /* time painted in each class up to t (modulo 2^64:
				    * differences are exact) */
	uint32_t nfg;  /* foreground spans started */
	uint32_t next; /* spans started (= index of the first starting after t) */
	uint32_t fg;   /* innermost foreground span covering t, or UINT32_MAX */
	uint32_t bg;   /* an annotation covering t, or UINT32_MAX */
};

void tt_rix_at(const struct tt_rix *ix, int64_t t, struct tt_rpoint *out);

struct tt_rcell {
	uint8_t cls;   /* enum tt_rclass */
	bool busy;
	uint16_t pad;
	uint32_t nfg;  /* foreground spans starting in the cell */
	uint32_t first; /* index of the first span starting at or after the cell's start */
};

/* Rasterise [t0, t1) into w cells (t1 > t0, w > 0). */
void tt_raster_row(const struct tt_rix *ix, int64_t t0, int64_t t1, int w, struct tt_rcell *out);

/* Rasterise n rows [t0, t1) into one row of w cells (a rank's streams as
 * one summary row): each cell shows the foreground class with the most time
 * summed over the rows (ties as in a row), else the class a row shows for
 * spans of zero length, else annotation if any row has one, else idle;
 * busy when many spans start while every row is mostly empty (the busiest
 * row's foreground covers less than half the cell).  first is 0 (it names
 * no row). */
void tt_raster_merge(const struct tt_rix *const *ix, size_t n, int64_t t0, int64_t t1, int w,
		     struct tt_rcell *out);

/* Keep in each of the w cells of acc the worse of acc's cell and c's (rows
 * of several ranks drawn by their worst: a cell shows what the worst-off of
 * them did there).  Worst first: idle, annotation (idle but for a range
 * around it), busy (many tiny events in mostly empty time), communication,
 * memory, other, runtime, CPU op, compute.  Equal: acc's stays. */
void tt_raster_worst(struct tt_rcell *acc, const struct tt_rcell *c, int w);
/* The rank of a cell in that order: 0 for the worst (idle). */
int tt_rcell_severity(const struct tt_rcell *c);

/* Start of cell k of a window (k = w gives t1). */
int64_t tt_raster_edge(int64_t t0, int64_t t1, int w, int k);
/* Cell holding time t, or -1 / w when t is left / right of the window. */
int tt_raster_cell_of(int64_t t0, int64_t t1, int w, int64_t t);

/* Glyph, theme role and name of a class. */
char tt_rclass_glyph(enum tt_rclass c);
enum tt_role tt_rclass_role(enum tt_rclass c);
const char *tt_rclass_name(enum tt_rclass c);
/* The glyph a cell is drawn with. */
static inline char tt_rcell_glyph(const struct tt_rcell *c)
{
	return c->busy ? TT_RASTER_BUSY_GLYPH : tt_rclass_glyph((enum tt_rclass)c->cls);
}

#endif
