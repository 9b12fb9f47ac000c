/* tui room private: the generic table pane, what a pane may ask of the
 * explorer, and the constructors of the panes that other panes open.
 *
 * Calls among the src/tui object files go one way:
 *
 *     term.c, headless.c -> app.c -> help.c, views.c -> registry.c
 *         -> the pane files -> pane.c
 *
 * (registry.c names every pane's ops; a pane file is overview.c,
 * temporal.c, idle.c, kernels.c, overlap.c, launch.c, counters.c,
 * patterns.c, diff.c, rank.c, heatmap.c, tbpanes.c, tbmem.c, perfview.c, timeline.c and
 * its tl*.c helpers, tlsplit.c (the split timeline of a diff), event.c,
 * range.c.)
 *
 * The rule for pane files: they call pane.c (this header), the rooms below
 * the TUI (analysis, render, report), and the constructors of the panes
 * they drill into, declared at the end of this header.  Drilling goes from
 * the broad panes to the narrow ones and ends at the timeline and the event
 * pane, so these calls form no cycle.  A pane file never calls app.c or
 * registry.c: what it needs from the explorer it asks through the services
 * below (tt_ui_*), which pane.c implements over the data of struct tt_app --
 * the status line, a request to show a pane (carried out by app.c once the
 * handler has returned), and data shared by the panes of one app.
 * tests/layering-test.sh checks this from the object files' symbols.
 *
 * A NULL op in struct tt_pane_ops means "use the generic behaviour": a list
 * pane fills p->table in open() and gets scrolling, the cursor, sorting,
 * filtering and CSV writing from pane.c. */
#ifndef TRACETOP_PANE_H
#define TRACETOP_PANE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/results.h"
#include "tracetop/ui.h"

/* ---- the generic pane (pane.c) ---- */

/* A new pane of ops for app a, not opened yet (open() runs when it is first
 * shown).  The caller owns it until it is handed to the app. */
struct tt_pane *tt_pane_new(struct tt_app *a, const struct tt_pane_ops *ops);
/* Close (ops->close) and free p and everything it holds; NULL is fine. */
void tt_pane_free(struct tt_pane *p);
/* Run ops->open once (a pane opens on its first row); a failing open with
 * no message says "nothing to show". */
void tt_pane_open(struct tt_pane *p);
/* Work of open() that may take longer than a frame: fn(arg, cancel) runs
 * on a thread of its own and open() returns TT_OPEN_WAIT meanwhile (the
 * pane says "computing", the keys go on: Esc closes it); once fn has
 * returned, open() is called again and this returns true.  Without a
 * terminal (tests, --headless without <Async>) fn runs here at once.  fn
 * reads only what arg holds (copies of the app's options, the models,
 * results already computed: nothing of the app, which goes on meanwhile)
 * and writes only into arg; *cancel turns true when the pane is closed
 * before fn returned (fn may then stop early: its result is dropped).  A
 * pane closed meanwhile is freed (ops->close) once fn has returned.  One
 * piece of work per pane: after it, this returns true at once. */
bool tt_pane_work(struct tt_pane *p, void (*fn)(void *arg, const atomic_bool *cancel), void *arg);
/* Free the panes closed while their work ran whose work has returned
 * (every one, waiting for it, when wait); app.c, each draw and at the end. */
void tt_ui_reap(struct tt_app *a, bool wait);
/* Take t as the pane's table; all rows shown in the table's order (or the
 * pane's sort and filter).  Calling it again with the same table after
 * adding a column keeps the row roles. */
void tt_pane_set_table(struct tt_pane *p, struct tt_table *t);
/* A line above the table (wrapped when there is room). */
void tt_pane_head(struct tt_pane *p, enum tt_role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The table row under the cursor, or SIZE_MAX. */
size_t tt_pane_row(const struct tt_pane *p);
/* Move the cursor to table row `row` if it is shown. */
void tt_pane_goto(struct tt_pane *p, size_t row);
/* Sort by column c (the generic 's'); largest first when desc. */
void tt_pane_sort(struct tt_pane *p, int c, bool desc);
/* Apply p->filter again (after the table or the filter changed). */
void tt_pane_refilter(struct tt_pane *p);
/* Table `table` of report `name` formatted (with the app's options) from
 * the app's results, which are computed once per rank choice (p->app->res,
 * tracetop/results.h); NULL with p->msg set when there is none. */
struct tt_table *tt_pane_table(struct tt_pane *p, const char *name, const char *table);
/* The same, taken as the pane's table with its notes as head lines.  0, or
 * -1 with p->msg set. */
int tt_pane_report(struct tt_pane *p, const char *name, const char *table);
/* The generic keys of a list pane: cursor, paging, scrolling, sorting,
 * filter matches, Enter (ops->drill).  TT_R_UNHANDLED for the others. */
int tt_pane_list_key(struct tt_pane *p, enum tt_action act);
/* The generic list's mouse: a click selects the row under it, a double
 * click also drills in (ops->drill), the wheel moves the cursor three rows
 * (five with Ctrl or Shift).  TT_R_NONE outside the rows. */
int tt_pane_list_mouse(struct tt_pane *p, const struct tt_mouse *m);
/* Draw the head lines and the table (or ops->draw, or the message) into
 * rows [y, y + h) of g. */
void tt_pane_draw(struct tt_pane *p, struct tt_grid *g, int y, int h);
/* Write the rows shown (filtered, sorted) as CSV to tracetop-NAME[-N].csv
 * in the current directory; the status line says where or why not. */
void tt_pane_write_csv(struct tt_pane *p);

/* ---- what a pane may ask of the explorer (pane.c) ---- */

/* Set the status line. */
void tt_ui_status(struct tt_app *a, enum tt_role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Open the one-line prompt: label, then the text typed (init at first).
 * Enter gives the text to ops->prompt(p, kind, text) of the pane in view
 * (kind: the action that asked, TT_ACT_SEARCH say); Esc closes it with no
 * effect. */
void tt_ui_prompt(struct tt_app *a, int kind, const char *label, const char *init);
/* Show np above the pane in view (a drill-down) once the current handler
 * has returned; the app owns np from now on. */
void tt_ui_open(struct tt_app *a, struct tt_pane *np);
/* Show the registered view `name` ("memory", "idle") above the pane in view
 * once the current handler has returned (a warning when there is none). */
void tt_ui_open_view(struct tt_app *a, const char *name);
/* Show the timeline of rank index ri at event ev (TT_NONE: at time t)
 * above the pane in view once the current handler has returned (for panes
 * the timeline itself opens, which may not call it directly). */
void tt_ui_open_timeline(struct tt_app *a, size_t ri, uint32_t ev, int64_t t);
/* Open run `arg` of the log directory (TT_REQ_RUN, an index) or cycle
 * `arg` of the run (TT_REQ_CYCLE, from 1) once the current handler has
 * returned: the explorer says "loading" and then loads it (app.c). */
void tt_ui_open_input(struct tt_app *a, enum tt_req_kind kind, size_t arg);
/* Data the panes of one app share, by tag (the address of something of the
 * pane file's own): NULL when there is none yet.  tt_ui_share stores data
 * with the function that frees it when the app ends (after every pane);
 * false when the app has no free slot (the caller keeps data). */
void *tt_ui_shared(struct tt_app *a, const void *tag);
bool tt_ui_share(struct tt_app *a, const void *tag, void *data, void (*drop)(void *));
/* Warnings and errors to show: the load report's warnings and failed files,
 * and the messages of tt_app_note. */
size_t tt_ui_warnings(const struct tt_app *a);
/* The results that hold the diff of the two sides (the Control side's),
 * whichever side is shown; the app's results without a second trace. */
struct tt_results *tt_ui_diff_results(struct tt_app *a);
/* Is the explorer showing a diff (started with --diff, or showing the
 * Test side or both)?  Every table pane's first line is then the diff's
 * headline. */
bool tt_ui_diffing(const struct tt_app *a);
/* Which sides of a diff p's numbers are of: 0 the one in view, 1 both
 * (p->sides says so: the split timeline, a row's drill-down on both
 * sides), 2 both and their difference (a pane side by side, the diff's
 * own tables, a pane whose ops say both_sides). */
int tt_ui_pane_sides(const struct tt_pane *p);
/* The analysis options of side s of a diff (0: Control, 1: Test): the
 * app's, with the ranks shown on that side (the Test side's are the ones
 * the diff pairs with the Control's). */
const struct tt_aopts *tt_ui_side_aopts(struct tt_app *a, int s);
/* Run as if side s of a diff (0: Control, 1: Test) were in view: the
 * app's model, results and analysis options those of side s from enter
 * to leave (a pane opened, or a drill-down made, over that side); save
 * holds what leave puts back.  Without a diff, nothing changes. */
struct tt_ui_side {
	const struct tt_model *m;
	struct tt_results *res;
	struct tt_aopts ao;
};
void tt_ui_side_enter(struct tt_app *a, int s, struct tt_ui_side *save);
void tt_ui_side_leave(struct tt_app *a, const struct tt_ui_side *save);
/* Free the shared data (app.c, when the app ends). */
void tt_ui_shared_free(struct tt_app *a);

/* ---- small helpers the pane files share (pane.c) ---- */

/* Append a bar column drawing column `of` (nothing when t has no such
 * column), coloured by role, scaled to max (0: the column's maximum). */
void pane_add_bar_at(struct tt_table *t, int of, const char *title, enum tt_role role, double max);
/* A pane's close when its state is one malloc'd block. */
void pane_free_state(struct tt_pane *p);
/* The job's verdict (tt_report_cp_verdict: what bounds the job, from the
 * critical path across ranks) as a head line of p, in tracetop's model;
 * while the critical path is computed in the background, a line saying so
 * that pane_verdict_refresh (a pane's ops->refresh) replaces. */
void pane_verdict_head(struct tt_pane *p);
void pane_verdict_refresh(struct tt_pane *p);
/* Replace head line i of p. */
void pane_set_head(struct tt_pane *p, size_t i, enum tt_role role, const char *text);
/* Index in m->ranks of rank number `rank`, or SIZE_MAX. */
size_t pane_rank_index(const struct tt_model *m, int64_t rank);

/* ---- panes that other panes open ---- */

/* The streams and threads of one rank (rank.c); NULL when the model has no
 * such rank. */
struct tt_pane *tt_rank_pane(struct tt_app *a, int64_t rank);

/* The timeline of rank index ri at event ev, or at time t when ev is
 * TT_NONE (timeline.c). */
struct tt_pane *tt_timeline_new(struct tt_app *a, size_t ri, uint32_t ev, int64_t t);

/* An event of the model: rank index (into m->ranks) and event index. */
struct tt_tl_event {
	size_t ri;
	uint32_t ev;
};
/* A stretch of time drawn on the row of event ev of rank index ri: an
 * edge of a critical path (the time from its first node to its last). */
struct tt_tl_span {
	size_t ri;
	uint32_t ev;
	int64_t t0, t1; /* ns, absolute; t1 >= t0 */
};
/* The timeline of the ranks of v's events, with v[0..n) highlighted and
 * stepped through with n/N in that order (a critical path, say), the
 * cursor on v[0], and the stretches sp[0..nsp) highlighted on their rows
 * (the path's edges; sp may be NULL); `what` names the set in the status
 * line.  NULL when n is 0 (timeline.c). */
struct tt_pane *tt_timeline_set(struct tt_app *a, const struct tt_tl_event *v, size_t n,
				const struct tt_tl_span *sp, size_t nsp, const char *what);
/* The timeline of rank index ri over the time window last shown in a
 * timeline of this app (the whole span when none was) (timeline.c). */
struct tt_pane *tt_timeline_like(struct tt_app *a, size_t ri);

/* The split timeline of a diff, Control above, Test below, from side
 * `side` (0: Control, 1: Test): its rank index ri and the other side's
 * rank paired with it (the rank of the same number, else its first), both
 * from the start of the same ProfilerStep -- the side's step at time t
 * (ns, absolute, on its clock; 0: its first) when the other side has it,
 * else the first both have (tlsplit.c). */
struct tt_pane *tt_split_side(struct tt_app *a, int side, size_t ri, int64_t t);

/* The split timeline at event ev of side `side` (0: Control, 1: Test): the
 * side's rank index ri[side] from the start of its ProfilerStep
 * step[side], the other side's rank ri[!side] (SIZE_MAX: the one paired
 * with it, else its first) from step[!side] (-1: the same number, else the
 * first both have); the cursor on the event, the window around it
 * (tlsplit.c). */
struct tt_pane *tt_split_at(struct tt_app *a, int side, const size_t ri[2], const int64_t step[2],
			    uint32_t ev);

/* A side-by-side row's drill-down on both sides (sides.c), for struct
 * tt_pane_diff.drill_both: each side's pane (p's drill of row[s] on side
 * s, made and opened over that side) as one table, a side column first,
 * the Control's rows then the Test's; Enter on a row opens the split
 * timeline of its rank pair at the row's event (a hidden column
 * "gpu_event", "next_event" or "event" with "rank_index"), else at its
 * rank's step. */
struct tt_pane *tt_sides_drill(struct tt_pane *p, struct tt_pane *const side[2],
			       const size_t row[2]);

/* One name's instances on both sides of a diff (diffinst.c): the events
 * the Diff pane's row `name` counts, or the kernels named `name` as the
 * Kernels pane counts them. */
enum tt_dinst_kind { TT_DINST_ROW, TT_DINST_KERNEL };
struct tt_pane *tt_dinst_pane(struct tt_app *a, const char *name, enum tt_dinst_kind kind);

/* What ran in [t0, t1) (ns, absolute) on the ranks of model indices
 * ri[0..n) (range.c). */
struct tt_pane *tt_range_pane(struct tt_app *a, const size_t *ri, size_t n, int64_t t0,
			      int64_t t1);

/* One event's details (event.c). */
struct tt_pane *tt_event_pane(struct tt_app *a, const struct tt_rank *r, uint32_t ev);

/* Should the Overview be a heatmap (more ranks than fit as `rows` rows)? */
bool tt_heatmap_wanted(const struct tt_app *a, int rows);

/* A list of runs or cycles (cycles.c) just opened: the cursor to the row
 * it opens on (the run or cycle shown, a new one). */
void tt_input_list_goto(struct tt_pane *p);

/* ---- the registered panes' ops (one file each; registry.c lists them) ---- */

extern const struct tt_pane_ops tt_overview_ops, tt_temporal_ops, tt_idle_ops, tt_kernels_ops,
	tt_overlap_ops, tt_launch_ops, tt_counters_ops, tt_patterns_ops, tt_timeline_ops,
	tt_diff_ops, tt_heatmap_ops, tt_load_ops;
/* the diff's steps and rank pairs (diff.c) */
extern const struct tt_pane_ops tt_diff_steps_ops, tt_diff_ranks_ops;
/* the TensorBoard profiler's views (tbpanes.c; memory and source: tbmem.c) */
extern const struct tt_pane_ops tt_steptime_ops, tt_util_ops, tt_dist_ops, tt_operators_ops,
	tt_memory_ops, tt_source_ops, tt_steps_ops, tt_advice_ops;
/* the critical path per rank and step (critpath.c) */
extern const struct tt_pane_ops tt_critpath_ops;
extern const struct tt_pane_ops tt_cpjob_ops;
/* the runs of a log directory and the cycles of a run (cycles.c) */
extern const struct tt_pane_ops tt_runs_ops, tt_cycles_ops;
/* the perf model and its roofline plot (perfview.c) */
extern const struct tt_pane_ops tt_perf_ops, tt_perf_shapes_ops, tt_roofline_ops;

#endif
