/* Actions and key bindings (curses-free).
 *
 * One X-macro gives the action enum, the names used in keymap files and the
 * help text, so they cannot drift apart.  Bindings are data in tig's syntax
 *     bind SECTION KEY ACTION        (SECTION: generic or a pane's name)
 * with keys named as libtermkey's vim form: j  <Down>  <C-f>  <S-Tab>.  The
 * defaults are the built-in text tt_keymap_defaults, parsed by the same code
 * as a user's ~/.config/tracetop/tracetoprc.  Lookups try the pane's section
 * first, then generic. */
#ifndef TRACETOP_KEYMAP_H
#define TRACETOP_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#define TT_ACTIONS(_)                                                                   \
	_(NONE, "none", "do nothing")                                                   \
	_(MOVE_DOWN, "move-down", "move down one row")                                  \
	_(MOVE_UP, "move-up", "move up one row")                                        \
	_(MOVE_LEFT, "move-left", "scroll left (timeline: pan left)")                   \
	_(MOVE_RIGHT, "move-right", "scroll right (timeline: pan right)")               \
	_(PAGE_DOWN, "page-down", "move down one page")                                 \
	_(PAGE_UP, "page-up", "move up one page")                                       \
	_(MOVE_FIRST, "move-first", "go to the first row")                              \
	_(MOVE_LAST, "move-last", "go to the last row")                                 \
	_(ENTER, "enter", "drill into the selected row")                                \
	_(BACK, "back", "go back to where you were")                                    \
	_(NEXT_PANE, "next-pane", "show the next pane")                                 \
	_(PREV_PANE, "prev-pane", "show the previous pane")                             \
	_(PANE_1, "pane-overview", "show the Overview")                                 \
	_(PANE_2, "pane-temporal", "show the Temporal breakdown")                       \
	_(PANE_3, "pane-idle", "show the Idle time breakdown")                          \
	_(PANE_4, "pane-kernels", "show the Kernels")                                   \
	_(PANE_5, "pane-overlap", "show the Overlap")                                   \
	_(PANE_6, "pane-launch", "show the Launch statistics")                          \
	_(PANE_7, "pane-counters", "show the Counters")                                 \
	_(PANE_8, "pane-patterns", "show the kernel Patterns")                          \
	_(PANE_9, "pane-timeline", "show the Timeline")                                 \
	_(PANE_0, "pane-diff", "show the Diff")                                         \
	_(FILTER, "filter", "filter rows by a substring")                               \
	_(NEXT_MATCH, "next-match", "go to the next match of the filter")               \
	_(PREV_MATCH, "prev-match", "go to the previous match of the filter")           \
	_(SORT_NEXT, "sort-next", "sort by the next column")                            \
	_(SORT_REVERSE, "sort-reverse", "reverse the sort order")                       \
	_(PICK_RANKS, "pick-ranks", "choose the ranks shown (e.g. 0,2,4-7)")            \
	_(PREV_RANK, "prev-rank", "show only the previous rank")                        \
	_(NEXT_RANK, "next-rank", "show only the next rank")                            \
	_(ALL_RANKS, "all-ranks", "show all ranks")                                     \
	_(ZOOM_IN, "zoom-in", "zoom in")                                                \
	_(ZOOM_OUT, "zoom-out", "zoom out")                                             \
	_(ZOOM_FIT, "zoom-fit", "fit the whole span")                                   \
	_(NEXT_EVENT, "next-event", "timeline: the next event on the row")              \
	_(PREV_EVENT, "prev-event", "timeline: the previous event on the row")          \
	_(FOLLOW_LINK, "follow-link", "timeline: kernel <-> launching call <-> op")     \
	_(SET_MARK, "set-mark", "timeline: set the mark (shows the time to the cursor)") \
	_(MARK_EVENT, "mark-event", "timeline: mark the event under the cursor (mark at its start, cursor at its end)") \
	_(RANGE, "range", "timeline: what ran between the mark and the cursor") \
	_(SEARCH, "search", "timeline: find events by name (text, or re:regex)") \
	_(JUMP, "jump", "timeline: go to a time (12.5ms, 1.2s, +30ms, step 3)") \
	_(PAN_LEFT, "pan-left", "timeline: pan half a window left") \
	_(PAN_RIGHT, "pan-right", "timeline: pan half a window right") \
	_(ROW_MODE, "row-mode", "timeline: rows: a summary per rank, GPU streams only, all") \
	_(FOLD, "fold", "timeline: fold the rank or group of ranks the cursor is in (or unfold)") \
	_(GROUP_ROWS, "group-rows", "timeline: many ranks: a row's ranks by their worst, their mean, or a row each") \
	_(LAST_ARRIVAL, "last-arrival", "timeline: to the rank that arrived last at the collective under the cursor") \
	_(RANK_DOWN, "rank-down", "timeline: to the first row of the next rank") \
	_(RANK_UP, "rank-up", "timeline: to the first row of the previous rank") \
	_(SPLIT, "split", "timeline (diff mode): Control above, Test below, aligned at a step") \
	_(NEXT_METRIC, "next-metric", "heatmap: shade by the next metric; perf model: the roofline plot") \
	_(VIEWS, "views", "the menu of more views (utilisation, operators, heatmap, ...)") \
	_(DIFF_VIEW, "diff-view", "diff: show Control, Test, or both side by side")   \
	_(WRITE_CSV, "write-csv", "write the current table as CSV")                     \
	_(WARNINGS, "warnings", "the load warnings and keymap/theme errors")            \
	_(JOB_PATH, "job-path", "critical path: the job's path of the step across ranks, on the timeline") \
	_(WHAT_IF, "what-if", "critical path: the path again if an op took F times as long (NAME*F)") \
	_(CYCLES, "cycles", "the profiling cycles of the run (a new one ready: open it)") \
	_(PREV_CYCLE, "prev-cycle", "show the previous (older) profiling cycle")        \
	_(NEXT_CYCLE, "next-cycle", "show the next (newer) profiling cycle")            \
	_(CYCLE_DIFF, "cycle-diff", "compare this cycle with the previous one (again: back)") \
	_(RUNS, "runs", "the runs of the log directory")                                \
	_(HELP, "help", "show the help of this pane")                                   \
	_(REDRAW, "redraw", "redraw the screen")                                        \
	_(QUIT, "quit", "quit")

enum tt_action {
#define _(id, name, help) TT_ACT_##id,
	TT_ACTIONS(_)
#undef _
	TT_ACT_COUNT
};

const char *tt_action_name(enum tt_action a);
const char *tt_action_help(enum tt_action a);

/* The built-in bindings, in the same syntax as a keymap file. */
extern const char tt_keymap_defaults[];

struct tt_keymap;

/* A keymap holding the defaults. */
struct tt_keymap *tt_keymap_new(void);
void tt_keymap_free(struct tt_keymap *k);
/* Parse a file; a missing file is not an error (returns 0). */
int tt_keymap_load(struct tt_keymap *k, const char *path,
		   void (*warn)(void *ctx, const char *msg), void *ctx);
/* Action bound to key in section, else in generic, else TT_ACT_NONE. */
enum tt_action tt_keymap_lookup(const struct tt_keymap *k, const char *section, const char *key);
/* Call fn for each binding of section (not generic), in binding order. */
void tt_keymap_foreach(const struct tt_keymap *k, const char *section,
		       void (*fn)(void *ctx, const char *key, enum tt_action a), void *ctx);
/* The first key bound to action in section or generic ("" if none). */
const char *tt_keymap_key_of(const struct tt_keymap *k, const char *section, enum tt_action a);

/* Mouse events are pseudo keys, so that they go through the same paths as
 * keys (src/tui/term.c makes them from the terminal's reports; headless
 * --keys and tests type them): <Click:X,Y> (button 1 pressed), <DClick:X,Y>
 * (pressed again soon at the same place), <WheelUp:X,Y>, <WheelDown:X,Y>,
 * with C- and S- for Ctrl and Shift (<C-WheelUp:X,Y>); X and Y are screen
 * columns and rows from 0 at the top left. */
enum tt_mouse_kind { TT_MOUSE_CLICK, TT_MOUSE_DCLICK, TT_MOUSE_WHEEL_UP, TT_MOUSE_WHEEL_DOWN };
struct tt_mouse {
	enum tt_mouse_kind kind;
	bool ctrl, shift;
	int x, y;
};
/* Is key a mouse event?  Fills *m when it is. */
bool tt_mouse_parse(const char *key, struct tt_mouse *m);
/* The pseudo key of m into buf (like snprintf). */
int tt_mouse_name(char *buf, size_t n, const struct tt_mouse *m);
/* Whether the mouse is used (default yes; "set mouse off" in a keymap
 * file, or --no-mouse, turns it off). */
bool tt_keymap_mouse(const struct tt_keymap *k);
void tt_keymap_set_mouse(struct tt_keymap *k, bool on);

/* Split a key sequence: the first key of s ("<Tab>jj" -> "<Tab>") into buf;
 * returns the rest of s, or NULL when s is empty.  Names are normalised:
 * <CR> <Return> -> <Enter>, <Esc> -> <Escape>, <BS> -> <Backspace>,
 * <PgUp> <PgDn> -> <PageUp> <PageDown>, " " -> <Space>, <lt> -> "<". */
const char *tt_key_next(const char *s, char *buf, size_t n);

#endif
