/* tui room private: the timeline pane's state, shared by its files --
 * timeline.c (opening, the ops), tlkeys.c (the keys, search, jump,
 * links), tldraw.c (the drawing), which call tlrows.c (the rows and the
 * events on them); no call goes back. */
#ifndef TRACETOP_TIMELINE_INT_H
#define TRACETOP_TIMELINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/raster.h"
#include "pane.h"
#include "tlhits.h"
#include "tltracks.h"
#include "tlwindow.h"

enum tl_mode { TL_ALL, TL_GPU, TL_RANKS, TL_NMODES };

struct tl_row {
	size_t rki;                /* index into s->rks */
	struct tl_rank *rk;
	struct tl_src *src;        /* the track; NULL on a rank's summary row */
	const struct tt_track *tr; /* NULL on a summary row */
	char label[96];
};

/* the tracks a rank's summary row merges */
struct tl_sum {
	struct tl_src **v;
	size_t n;
};

struct tl_hist {
	size_t row;
	int64_t tc;
	uint32_t sel;
	long double v0, span;
};

/* the window last shown in a timeline of the app (tt_timeline_like) */
struct tl_last {
	int64_t t0, t1;
};

struct tl_state {
	/* where to open */
	size_t ri;
	uint32_t ev;
	int64_t t;
	bool top;  /* the pane of key 9 */
	bool like; /* over the window last shown */
	struct tt_pane *pane;

	struct tl_cache *cache; /* the app's shared one, or own */
	struct tl_cache *own;
	struct tl_rank **rks;
	struct tl_sum *sums; /* per rks entry */
	size_t nrks;
	enum tl_mode mode;
	struct tl_row *rows;
	size_t nrows;
	size_t row, top_row;
	struct tl_view v;         /* the window and the cursor */
	uint32_t sel;             /* event chosen by Tab, c, n or opening, or TT_NONE */
	bool mark;
	size_t mark_row;
	int64_t mark_t;
	uint32_t mark_ev;
	struct tl_hist hist[16];
	int nhist;
	int page;                 /* track rows at the last draw */
	int lw;                   /* label width at the last draw */
	int rows_y;               /* screen row of the first track row at the last draw */
	int page_head;            /* rows above it (ruler, ticks, cursor and window lines) */
	struct tt_rcell *cells;
	int capcells;
	/* highlighted events: search matches or a set handed over */
	struct tl_hits hits;
	char pattern[128];        /* the last search */
	bool searched;            /* hits are the matches of pattern */
	/* the flow of the selected event, found once per selection */
	size_t flow_rki;
	uint32_t flow_for, flow_launch, flow_op, flow_kernel;
};

/* the tag of the window last shown (tt_ui_shared) */
extern const char tl_last_tag[];

/* ---- tlrows.c ---- */

/* The tracks a row draws: one, or a rank's summary set. */
struct tl_src *const *tl_row_srcs(const struct tl_state *s, const struct tl_row *row,
				  size_t *n);

/* Index the tracks of rows [from, to) that have no index yet (on several
 * threads when there is much to do). */
void tl_build_rows(struct tl_state *s, size_t from, size_t to);

struct tt_rix *tl_src_ix(struct tl_state *s, struct tl_row *row, struct tl_src *src);

const struct tt_rank *tl_row_rank(const struct tl_row *row);

/* first event of track tr with ts >= t (a rank event index) */
uint32_t tl_lower_ts(const struct tt_rank *r, const struct tt_track *tr, int64_t t);

bool tl_drawn(const struct tl_rank *rk, uint32_t ev);

/* The event under the cursor: the chosen one, else the innermost covering
 * the cursor, else the first starting in the cursor's cell, else the
 * annotation covering the cursor (on a summary row: the first of its
 * tracks that has one). */
uint32_t tl_under_cursor(struct tl_state *s);

/* the row showing event ev of rank r (its track's, or its rank's summary
 * row), or SIZE_MAX */
size_t tl_row_of(const struct tl_state *s, const struct tt_rank *r, uint32_t track);

const char *tl_ev_name(const struct tt_rank *r, uint32_t ev);

/* move the cursor to event ev of rank r; false if it has no row */
bool tl_go_event(struct tl_state *s, const struct tt_rank *r, uint32_t ev);

/* Select the next (dir > 0) or previous event on the cursor's row and
 * bring it into view (the status line says when there is none). */
int tl_step_event(struct tt_pane *p, struct tl_state *s, int dir);

/* The ProfilerStep#num event of r (its CPU annotation first), or TT_NONE. */
uint32_t tl_find_step(const struct tt_rank *r, int64_t num);

/* The rows of the current mode.  The cursor stays on its rank (and track
 * when it has a row). */
void tl_make_rows(struct tl_state *s);

/* ---- tlkeys.c, tldraw.c: the pane's ops ---- */

int tl_key(struct tt_pane *p, enum tt_action act);
int tl_prompt(struct tt_pane *p, int kind, const char *text);
int tl_mouse(struct tt_pane *p, const struct tt_mouse *m);
void tl_draw(struct tt_pane *p, struct tt_grid *g, int y, int h);

/* ---- tldraw.c: pieces the split timeline (tlsplit.c) draws with ---- */

/* The ruler over [t0, t1) in w cells from x on row y, times from base; the
 * ticks on row y + 1 when asked. */
void tl_draw_ruler(struct tt_grid *g, int64_t base, int x, int y, int w, int64_t t0, int64_t t1,
		   bool ticks);
/* The glyphs' legend on row y. */
void tl_draw_legend(struct tt_grid *g, int x, int y, int w);
/* The cells of row `row` over [t0, t1): w cells from x on screen row y. */
void tl_draw_cells(struct tl_state *s, struct tl_row *row, struct tt_grid *g, int x, int y, int w,
		   int64_t t0, int64_t t1);

#endif
