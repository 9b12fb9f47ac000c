/* The explorer without a terminal: panes, navigation, keys -> actions, and
 * drawing into a text grid.  src/tui/term.c puts it on a terminal (curses and
 * libtermkey); headless tests and `tracetop --headless` drive it directly.
 *
 * A pane implements struct tt_pane_ops.  A list pane fills p->table in open()
 * and gets scrolling, the cursor, sorting, filtering and CSV writing from the
 * generic code (src/tui/pane.c); a free-form pane (the timeline) draws
 * itself.  A NULL op means "use the generic behaviour".  Handlers return
 * what must happen next (TT_R_* bits) and never draw.  src/tui/pane.h says
 * which src/tui file may call which. */
#ifndef TRACETOP_UI_H
#define TRACETOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/grid.h"
#include "tracetop/keymap.h"
#include "tracetop/model.h"
#include "tracetop/render.h"
#include "tracetop/report.h"

enum tt_react {
	TT_R_NONE = 0,
	TT_R_UNHANDLED = 1,
	TT_R_REDRAW = 2,
	TT_R_QUIT = 16,
	TT_R_BACK = 32, /* close this pane: back to the one below */
	TT_R_REPAINT = 64, /* redraw every cell of the terminal (C-l) */
};

/* a prompt key the pane refused: what is typed up to Enter or Esc is
 * swallowed, so that it never runs as commands */
#define TT_PROMPT_REFUSED (-1)

#define TT_UI_MIN_W 50
#define TT_UI_MIN_H 10

struct tt_app;
struct tt_pane;
struct tt_results;
struct tt_diff_pair;

struct tt_pane_ops {
	const char *name;  /* keymap section and CSV file name: "kernels" */
	const char *title; /* "Kernels" */
	const char *help;  /* what the pane shows, for '?' */
	/* Build the content (when first shown, and again after the ranks
	 * change).  Returns 0, or -1 with p->msg saying why there is nothing,
	 * or TT_OPEN_WAIT while work it handed to tt_pane_work (pane.h) runs:
	 * the pane then says "computing" and open() is called again later. */
	int (*open)(struct tt_pane *p);
	void (*close)(struct tt_pane *p); /* free p->state */
	/* free-form panes draw rows [y, y+h) themselves */
	void (*draw)(struct tt_pane *p, struct tt_grid *g, int y, int h);
	/* first say on every action; TT_R_UNHANDLED passes it on */
	int (*key)(struct tt_pane *p, enum tt_action a);
	/* Enter on table row `row`: a new pane to show (drill down) or NULL */
	struct tt_pane *(*drill)(struct tt_pane *p, size_t row);
	/* Enter in a prompt the pane opened (tt_ui_prompt): the text typed
	 * and the kind it was opened with.  Returns TT_R_* bits. */
	int (*prompt)(struct tt_pane *p, int kind, const char *text);
	/* A mouse event inside the pane (screen coordinates); NULL: the
	 * generic list's (click selects a row, a double click drills in, the
	 * wheel moves the cursor).  Returns TT_R_* bits. */
	int (*mouse)(struct tt_pane *p, const struct tt_mouse *m);
	/* The results open() reads (TT_NEED bits of results.h's kinds): in
	 * the terminal, the pane says "computing" until they are there
	 * instead of making the keys wait (0: open() is quick) */
	unsigned needs;
	/* NULL, or how the pane's table is shown side by side in a diff
	 * (pane.c builds it: the pane's table of each side, joined) */
	const struct tt_pane_diff *diff;
	/* the pane shows both sides of a diff (its title says so) */
	bool both_sides;
	/* NULL, or called before each draw of the opened pane: update what
	 * shows results computed after open() (a head line); it keeps
	 * p->pending set while it waits for them (the terminal then draws
	 * again ten times a second) */
	void (*refresh)(struct tt_pane *p);
};
#define TT_NEED(kind) (1u << (kind))
#define TT_OPEN_WAIT 1

/* A list pane's table side by side (tt_table_diff): which of its columns
 * name a row, which are compared (the primary one first: its |Δ| sorts the
 * rows and draws the bar), and which holds rank numbers (paired across the
 * sides as the diff pairs them; -1: none). */
struct tt_pane_diff {
	int nkeys;
	int cols[12];
	int ncols;
	int rank_col;
	/* NULL, or the name of the key column of a GPU stream: its number, or
	 * a text ending in "stream N" ("queue, stream 7").  The streams of a
	 * rank pair are paired by what they carry (tt_diff_stream_pairs), and
	 * a row of a stream paired with another number says both and what
	 * they carry ("20 | 14 (comm)") */
	const char *stream_key;
	/* +1: more of the primary value is better (overlap), -1: worse (time,
	 * idle), 0: neither; colours the rows and the bar */
	int more_is;
	const char *what; /* "idle time per rank and stream" */
	/* Enter on a row side by side: a pane over both sides, or NULL (then
	 * the Control side's drill-down opens).  side[s] is the pane as
	 * opened over side s (NULL when that side has nothing to show) and
	 * row[s] the row's index in its table (SIZE_MAX: not on that side). */
	struct tt_pane *(*drill_both)(struct tt_pane *p, struct tt_pane *const side[2],
				      const size_t row[2]);
	const char *enter; /* what it shows, for the line above the table
			    * (NULL: "the row on both sides") */
};

/* What the panes of a diff show (key d cycles): one side, or both. */
enum tt_diff_view { TT_VIEW_CONTROL = 0, TT_VIEW_TEST, TT_VIEW_BOTH };

struct tt_head_line {
	uint8_t role;
	char *text;
};

struct tt_pane {
	const struct tt_pane_ops *ops;
	struct tt_app *app;
	void *state;
	bool opened;
	bool waiting;        /* not opened: its results are being computed */
	bool pending;        /* opened, waiting for results ops->refresh shows */
	struct tt_pane_job *job; /* open()'s work on a thread of its own (pane.c) */
	bool worked;         /* that work is done */
	char subtitle[200];  /* what this view is: "rank 3, stream 7" */
	char msg[300];       /* why there is nothing to show */
	struct tt_head_line *head; /* lines above the table */
	size_t nhead;
	/* the list */
	struct tt_table *table;
	size_t *rows;        /* shown table rows (filtered, sorted) */
	size_t nrows;
	size_t cursor, top;  /* indices into rows */
	int sort_col;        /* -1: the table's own order */
	int sort_first;      /* the column the first s sorts by (0: the first) */
	bool sort_desc;
	char filter[128];
	int xoff;            /* scrollable columns scrolled off on the left */
	struct tt_table_layout layout; /* what the last draw showed of the table */
	char source[32];     /* the report whose table this is (tt_pane_table), or "" */
	uint8_t *row_role;   /* optional, per table row */
	int page;            /* rows shown at the last draw */
	int list_y;          /* screen row of the first table row at the last draw
			      * (0: none drawn) */
	/* which sides of a diff its numbers are of, when not as its ops say:
	 * 1 both, 2 both and their difference (the help pane says it of the
	 * pane it describes); 0: tt_ui_pane_sides decides */
	uint8_t sides;
	/* side by side (ops->diff): the pane as opened over the Control side,
	 * whose drill-downs Enter opens, and over the Test side (drill_both) */
	struct tt_pane *shadow, *shadow_b;
};

/* what a pane asks the explorer to open from its input (tracetop/input.h) */
enum tt_req_kind {
	TT_REQ_NONE = 0,
	TT_REQ_RUN,    /* run arg (index) of the log directory, its newest complete cycle */
	TT_REQ_CYCLE,  /* cycle arg (from 1) of the run */
	TT_REQ_DIFF,   /* the cycle shown beside the one before it */
	TT_REQ_UNDIFF, /* back from that to the cycle alone */
};

struct tt_app {
	const struct tt_model *m;  /* the trace set */
	const struct tt_model *m2; /* the second set of a diff, or NULL */
	struct tt_keymap *keys;
	struct tt_report_opts ropts; /* ropts.a: side_aopts of the side in view */
	int64_t *ranks;
	size_t nranks;               /* 0 = all ranks */
	/* a diff: the rank pairs compared when every rank is shown (rank
	 * numbers: tt_diff_pairs); the Test side's ranks paired with ranks
	 * (none paired: one number no rank has), and those pairs; each side's
	 * analysis options with its ranks */
	struct tt_diff_pair *pairs;
	size_t npairs;
	int64_t *ranks_b;
	size_t nranks_b;
	struct tt_diff_pair *sel_map;
	size_t nsel_map;
	struct tt_aopts side_aopts[2];
	char label[256];             /* what was opened, for the status line */
	struct tt_pane *top[10];     /* the panes of keys 1..9, 0 */
	int cur;                     /* index into top */
	struct tt_pane *stack[32];   /* drill-downs above top[cur] */
	int depth;
	char status[300];
	uint8_t status_role;
	/* a one-line prompt (filter, ranks, or one a pane opened) */
	int prompt; /* 0 none, else the action that opened it, or TT_PROMPT_REFUSED */
	char input[256];
	char prompt_label[160]; /* what the prompt asks, or why it was refused */
	int w, h;
	short tab_x0[10], tab_x1[10]; /* the pane keys' tabs in the title bar */
	int64_t last_draw_ns; /* how long the last draw took */
	bool drew_waiting;    /* the last draw showed a pane computing its results */
	/* the analyses of the ranks shown, computed once (results.h); the
	 * panes' ones on a background thread from the start */
	struct tt_results *res;
	bool async; /* a pane whose results are not ready waits, the keys do not
		     * (the terminal); else opening a pane computes them (headless) */
	/* a diff (m2 set): each side's model and results (side_res[0] also
	 * holds the diff of the two), the view (enum tt_diff_view; m and res are
	 * its side's, Control's for both), and whether the explorer was
	 * started as a diff (--diff: the headline on every pane) */
	const struct tt_model *side_m[2];
	struct tt_results *side_res[2];
	int view;
	bool diff_mode;
	struct tt_results *retired[8]; /* of earlier rank choices, still computing */
	size_t nretired;
	/* panes closed while their open()'s work ran on its thread: freed
	 * once it has returned (tt_app_draw looks) */
	struct tt_pane *orphan[8];
	size_t norphans;
	/* called (from any thread) when a pane's work has returned: the
	 * terminal wakes its key loop to draw the pane at once; NULL: none */
	void (*wake)(void);
	/* a pane's request, carried out once its handler has returned:
	 * show req_pane, or the registered view named req_view */
	struct tt_pane *req_pane;
	char req_view[32];
	/* or the timeline of rank index ri at event ev (TT_NONE: at time t) */
	struct {
		bool set;
		size_t ri;
		uint32_t ev;
		int64_t t;
	} req_tl;
	/* messages for the Load pane (keymap and theme errors), owned */
	char **notes;
	size_t nnotes;
	/* where the traces come from when they can change while the explorer
	 * runs (tracetop/input.h): the runs of a log directory, the cycles of
	 * a run, a followed job; NULL otherwise.  The app owns it and the
	 * models it holds in own[] (freed when replaced, and at the end). */
	struct tt_input *in;
	struct tt_model *own[2];
	struct {
		enum tt_req_kind kind; /* what to open (app.c), or none */
		size_t arg;
	} req_in;
	bool fresh;          /* a new cycle is ready to open (the status line says) */
	/* a followed job's cycle still being written, "" when none: the
	 * status line says ("cycle 6: 2 of 4 workers written"; brief, where
	 * that does not fit: "cycle 6 being written") */
	char pending[64], pending_brief[64];
	int back_cycle;      /* comparing cycles (p): the cycle to go back to, else 0 */
	char side_label[2][64]; /* the sides' names of a comparison made here */
	/* data the panes share for the app's life (src/tui/pane.h) */
	struct {
		const void *tag;
		void *data;
		void (*drop)(void *);
	} shared[6];
};

struct tt_app *tt_app_new(const struct tt_model *m, const struct tt_model *m2,
			  const struct tt_report_opts *o, struct tt_keymap *keys, const char *label);
void tt_app_free(struct tt_app *a);
/* A key by name ("j", "<Down>", "<Enter>"): into the prompt if one is open,
 * else through the keymap of the pane in view; a mouse event
 * ("<Click:X,Y>", keymap.h) to the tab or the pane under it (ignored while
 * a prompt is open or when the keymap turns the mouse off).  Returns
 * TT_R_* bits. */
int tt_app_key(struct tt_app *a, const char *key);
/* An action directly (tests, the headless driver). */
int tt_app_action(struct tt_app *a, enum tt_action act);
/* Draw everything into g (sized to the terminal). */
void tt_app_draw(struct tt_app *a, struct tt_grid *g);
/* The pane in view, and its keymap section. */
struct tt_pane *tt_app_pane(struct tt_app *a);
/* Whether the pane in view waits for its results, or the screen shows it
 * waiting (drawn again soon). */
bool tt_app_waiting(struct tt_app *a);
const char *tt_app_section(struct tt_app *a);
/* A message for the Load pane and the status line's count (a keymap or
 * theme error met before the app started: "file:line: message"). */
void tt_app_note(struct tt_app *a, const char *msg);
/* Show top-level pane i (0..9). */
void tt_app_show(struct tt_app *a, int i);

/* A diff (m2 set): show the view v (enum tt_diff_view) in every pane; the
 * panes are built again.  diff_mode: started as a diff (every pane states
 * the headline).  Does nothing without a second trace set. */
void tt_app_set_view(struct tt_app *a, int v, bool diff_mode);

/* As on a terminal (on): a pane whose work is not done says computing and
 * the keys go on, and the background thread computes every view's
 * analysis after the panes'.  Off (the default): opening a pane computes
 * what it reads. */
void tt_app_set_async(struct tt_app *a, bool on);

/* ---- runs and cycles (tracetop/input.h) ---- */

/* The explorer shows model m of input in (a log directory's run, a run's
 * cycle, a followed job): the app owns both from now on (cmds.c frees
 * neither).  m may have no ranks: a log directory whose run is not chosen
 * yet (the run list is shown). */
void tt_app_set_input(struct tt_app *a, struct tt_input *in, struct tt_model *m);
/* A descriptor to wait on beside the keys (a followed folder), or -1. */
int tt_app_input_fd(const struct tt_app *a);
/* Milliseconds until tt_app_tick has something to do (-1: nothing). */
int tt_app_input_wait_ms(const struct tt_app *a);
/* Do what is due: open what was asked for (a run or cycle chosen, shown
 * "loading" first), look at a followed folder (woken: its descriptor was
 * readable).  true when the screen must be drawn again. */
bool tt_app_tick(struct tt_app *a, bool woken);

/* Wait until the background thread has computed the panes' results
 * (tests, benchmarks, the <Wait> key of --headless). */
void tt_app_wait_prefetch(struct tt_app *a);

#endif
