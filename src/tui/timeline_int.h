/* tui room private: the timeline pane's state, shared by its files --
 * timeline.c (opening, the ops), tlkeys.c (the keys, search, jump,
 * links), tldraw.c (the drawing), which call tlrows.c (the rows and the
 * events on them), which calls tlranks.c (the rows of the summary mode:
 * a row per rank or per group of ranks, folding, the ranks that stand
 * out); tlcells.c (the summary rows' cells) and tlcoll.c (a collective
 * lined up across the ranks) sit between the first and tlrows.c; no call
 * goes back. */
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

/* The rows (R cycles them in this order): a summary row per rank (or per
 * group of ranks when they do not fit), each unfolding into its tracks; the
 * GPU streams of every rank; every stream and thread of every rank. */
enum tl_mode { TL_RANKS, TL_GPU, TL_ALL, TL_NMODES };

enum tl_kind {
	TL_ROW_TRACK, /* one GPU stream or CPU thread */
	TL_ROW_RANK,  /* a rank's summary: its GPU streams merged */
	TL_ROW_GROUP, /* several ranks' summaries as one row (TL_RANKS only) */
};

/* How a group row draws its ranks (z cycles these), or no groups. */
enum tl_group { TL_GRP_WORST, TL_GRP_MEAN, TL_GRP_OFF, TL_NGRP };

struct tl_row {
	size_t rki;                /* index into s->rks (a group: its first rank) */
	size_t nrk;                /* ranks of the row: rks[rki, rki + nrk); 1 unless a group */
	struct tl_rank *rk;        /* s->rks[rki] */
	struct tl_src *src;        /* the track; NULL on a summary or group row */
	const struct tt_track *tr; /* NULL on a summary or group row */
	uint8_t kind;              /* enum tl_kind */
	bool open;                 /* a summary or group row unfolded: its rows follow */
	bool flag;                 /* a rank that stands out (or a group holding one) */
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
	bool titled; /* tl_make_rows says the ranks and groups in the subtitle */
	bool half;   /* a half of the split timeline: nothing folds */
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
	/* the summary mode (tlranks.c): per rks entry, whether its tracks are
	 * unfolded under its summary row, whether its group is unfolded, and
	 * 1 + the metric it stands out in (the heatmap's outliers) or 0 */
	bool *open, *gopen;
	uint8_t *flag;
	size_t *strong, nstrong;  /* the rks entries flagged, the strongest first */
	bool flags_in;            /* the outliers are in flag (or will never be) */
	enum tl_group group;
	size_t per_row;           /* ranks per group row (1: none grouped) */
	int rows_page;            /* the track rows on screen the groups were made for */
	/* where the rows are (tl_make_rows): per model rank index, its rks
	 * entry or SIZE_MAX; per rks entry, the row standing for the rank (its
	 * summary row, the row of its folded group, or SIZE_MAX) and the range
	 * of its track rows */
	size_t *rkpos;
	size_t *rank_row, *trk_lo, *trk_hi;
	struct tl_cells *cc;      /* the summary rows' cells (tlcells.c) */
	/* results not ready yet: the ranks that stand out, the collectives
	 * (the pane is looked at again until they are) */
	bool want_flags, want_coll;
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

/* The event under the cursor: the chosen one, else the innermost covering
 * the cursor, else the first starting in the cursor's cell, else the
 * annotation covering the cursor (on a summary row: the first of its
 * tracks that has one). */
uint32_t tl_under_cursor(struct tl_state *s);

/* the row showing event ev of rank r (its track's, or its rank's summary
 * row), or SIZE_MAX */
size_t tl_row_of(const struct tl_state *s, const struct tt_rank *r, uint32_t track);

const char *tl_ev_name(const struct tt_rank *r, uint32_t ev);

/* move the cursor to event ev of rank r (its track unfolded); false if it
 * has no row */
bool tl_go_event(struct tl_state *s, const struct tt_rank *r, uint32_t ev);

/* Select the next (dir > 0) or previous event on the cursor's row and
 * bring it into view (the status line says when there is none). */
int tl_step_event(struct tt_pane *p, struct tl_state *s, int dir);

/* The ProfilerStep#num event of r (its CPU annotation first), or TT_NONE. */
uint32_t tl_find_step(const struct tt_rank *r, int64_t num);

/* The rows of the current mode.  The cursor stays on its rank (and track
 * when it has a row). */
void tl_make_rows(struct tl_state *s);

/* The rks entry of rank r, or SIZE_MAX. */
size_t tl_rks_of(const struct tl_state *s, const struct tt_rank *r);
/* tl_row_of by rks entry. */
size_t tl_row_of_rki(const struct tl_state *s, size_t rki, uint32_t track);
/* The row standing for rks entry rki: its summary row, or its folded
 * group's, else its first track row; SIZE_MAX when it has no row. */
size_t tl_rank_row(const struct tl_state *s, size_t rki);
/* Unfold what hides track `track` of rks entry rki (its group, its rank)
 * and make the rows again.  Returns the track's row, or SIZE_MAX when the
 * mode shows it nowhere. */
size_t tl_reveal(struct tl_state *s, size_t rki, uint32_t track);
/* Does the row stand for rks entry rki (its rank, or a rank of its group)? */
bool tl_row_has(const struct tl_row *row, size_t rki);
/* Fold or unfold row `row` in the summary mode (a summary or group row;
 * on a track row, its rank; on a rank row inside an unfolded group that is
 * folded, the group) and make the rows again, the cursor on the row folded
 * or unfolded.  Returns false when there is nothing to fold (another mode). */
bool tl_fold(struct tl_state *s, size_t row);

/* ---- tlranks.c: the rows of the summary mode ---- */

/* The summary-mode rows into s->rows (room for every rank's tracks, a row
 * per rank and a row per group): groups of ranks when the ranks do not fit
 * in s->rows_page rows, the ranks that stand out each on a row of its own,
 * unfolded ranks and groups followed by their rows. */
void tl_rank_rows(struct tl_state *s);
/* Take the ranks that stand out from the app's results when they are
 * ready (asks for them otherwise).  true when flag changed. */
bool tl_rank_flags(struct tl_state *s);
/* The subtitle of the pane of key 9: the ranks shown, how many, and how
 * many share a row. */
void tl_rank_title(struct tl_state *s);
/* The fold state and row maps of the rks entries (allocated once). */
void tl_ranks_alloc(struct tl_state *s);
void tl_ranks_free(struct tl_state *s);

/* ---- tlcells.c: the cells of summary and group rows ---- */

/* Compute the cells over window [t0, t1) in w cells of each rank on the
 * summary and group rows [from, to) and on row cur (the cursor's), and
 * of each group drawn by its mean, unless they are kept from the last
 * call for the same window; on several threads when there are many.
 * Indexes the tracks it needs. */
void tl_cells_prepare(struct tl_state *s, size_t from, size_t to, size_t cur, int64_t t0,
		      int64_t t1, int w);
/* The w cells of rks entry rki's summary over the window prepared, or NULL. */
const struct tt_rcell *tl_cells_rank(const struct tl_state *s, size_t rki);
/* The cells of a summary or group row (a group: by its worst or its mean)
 * into out; false when they were not prepared. */
bool tl_cells_row(const struct tl_state *s, const struct tl_row *row, struct tt_rcell *out);
void tl_cells_free(struct tl_state *s);

/* ---- tlcoll.c: a collective lined up across the ranks ---- */

struct tt_coll;
/* The collectives matched across the ranks (the app's typed result) when
 * they are of this timeline's model and computed; NULL otherwise (asked
 * for, and s->want_coll set, while they are being computed). */
const struct tt_coll *tl_colls(struct tl_state *s);
/* The part (index into c->parts) that event ev of rks entry rki is a
 * kernel of, or TT_NONE. */
uint32_t tl_coll_part(struct tl_state *s, const struct tt_coll *c, size_t rki, uint32_t ev);
/* The collective of part (index into c->colls), or TT_NONE. */
uint32_t tl_coll_of_part(const struct tt_coll *c, uint32_t part);
/* What part's collective is (head: "allreduce #12 of pg 0") and who
 * arrived when (line: "rank 5 arrived 31.2 ms after the first; 7 ranks
 * waited 29.8 ms on average", for a screen `width` wide). */
void tl_coll_text(const struct tl_state *s, const struct tt_coll *c, uint32_t part, int width,
		  char *head, size_t nh, char *line, size_t nl);
/* Mark collective coll on the rows on screen (the nvis rows from screen
 * row y0, cells from x, w of them over [t0, t1)): each rank's part, the
 * last arrival on each; its first and last arrival ('a', 'A') on the tick
 * row tick_y. */
void tl_coll_paint(struct tl_state *s, const struct tt_coll *c, uint32_t coll,
		   struct tt_grid *g, int x, int y0, int nvis, int w, int64_t t0, int64_t t1,
		   int tick_y);

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
