/* Functions exported only for the unit tests (tests/unit): the program
 * itself does not call them from another file, so they are kept out of the
 * public headers, which hold what the program uses.  Each is declared here
 * as it was beside its room's API (the header named above it).  Only the
 * unit tests and the files that define these functions include this
 * header; tests/layering-test.sh checks that none of them is called from
 * another file of the program (it would then belong in its header) and
 * that no other function is exported for the tests alone. */
#ifndef TRACETOP_TESTING_H
#define TRACETOP_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/advice.h"
#include "tracetop/breakdown.h"
#include "tracetop/collbw.h"
#include "tracetop/collectives.h"
#include "tracetop/counters.h"
#include "tracetop/demo.h"
#include "tracetop/diff.h"
#include "tracetop/idle.h"
#include "tracetop/io.h"
#include "tracetop/keymap.h"
#include "tracetop/patterns.h"
#include "tracetop/perfmodel.h"
#include "tracetop/ranks.h"
#include "tracetop/raster.h"
#include "tracetop/results.h"
#include "tracetop/render.h"
#include "tracetop/rewrite.h"
#include "tracetop/runs.h"
#include "tracetop/theme.h"
#include "tracetop/trace.h"
#include "tracetop/ui.h"
#include "tracetop/utilization.h"

/* ---- advice.h ---- */

/* Run the rules over the ranks o selects (computing the analyses they
 * read).  Never fails.  Free with tt_advice_free. */
void tt_advice_compute(const struct tt_model *m, const struct tt_aopts *o,
		       const struct tt_advice_opts *ao, struct tt_advice *out);

/* ---- breakdown.h ---- */

/* HTA's "others" cut (metrics.md §5.2), exposed for tests: sums[0..n) sorted
 * descending (ns).  Marks grouped[i] = true for the names that become
 * "others"; returns how many.  Nothing is grouped when n <= num_kernels. */
size_t tt_kbreak_cut(const int64_t *sums, size_t n, int num_kernels, double duration_ratio,
		     bool *grouped);

/* ---- collbw.h ---- */

/* "RING_LL" of "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)" into buf
 * ("" when the name says none); returns buf. */
const char *tt_cbw_algo(const char *kernel, char *buf, size_t n);
/* busbw / algbw for a kind in a group of n ranks (NaN: none) */
double tt_cbw_bus_factor(enum tt_cbw_kind k, uint32_t n);
/* The kind of an operation name ("all_reduce", "AllReduce",
 * "_allgather_base", "nccl:reduce_scatter", ...). */
enum tt_cbw_kind tt_cbw_kind_of(const char *name);

/* ---- collectives.h ---- */

/* Is this operation name point-to-point (SendRecv, Send, Recv)? */
bool tt_coll_is_p2p(const char *name);
/* A time of rank index ri on the job's clock (t minus its offset). */
int64_t tt_coll_job_time(const struct tt_coll *c, size_t ri, int64_t t);

/* ---- counters.h ---- */

/* Sorts v in place (ascending) and describes it.  Sums are pairwise, as
 * numpy's, so results match pandas to the last bit or nearly. */
void tt_describe(double *v, size_t n, struct tt_describe *d);
/* Memory sub-kind of a MEMORY event name, HTA's get_memory_kernel_type:
 * "Memset" for Memset*, the first 11 characters of Memcpy*, else
 * "Memcpy Unknown".  Writes a NUL-terminated string into buf (n >= 48). */
void tt_memory_kind(const char *name, char *buf, size_t n);

/* ---- demo.h ---- */

/* Kineto JSON text of one rank of the job; the caller frees it.  The same
 * options and rank always give the same bytes. */
char *tt_demo_rank_json(const struct tt_demo_opts *o, int rank, size_t *len);

/* ---- diff.h ---- */

/* Reorder rows by impact: |diff_dur| descending, then |diff_count|
 * descending, then name.  (The headline's row indices then no longer
 * apply: take them before.) */
void tt_diff_sort_impact(struct tt_diff *d);

/* ---- idle.h ---- */

/* Fill *st from v[0..n), which must be sorted ascending.  Same arithmetic as
 * pandas/numpy (two-pass variance, numpy's _lerp), so rounded results
 * match. */
void tt_idle_describe(const double *v, size_t n, struct tt_idle_stats *st);

/* ---- io.h ---- */

/* "ISA-L" or "zlib": what inflates the reader's gzip stream now (zlib
 * once it took a member over from ISA-L); NULL for plain text.  Not while
 * the inflate thread runs. */
const char *tt_reader_inflater(const struct tt_reader *r);

/* ---- keymap.h ---- */

/* by name, or TT_ACT_NONE with *ok = false */
enum tt_action tt_action_lookup(const char *name, bool *ok);
/* Parse keymap text ("bind", "unbind", "set mouse on|off", "#" comments).  Bad lines are
 * reported through warn as "FILE:LINE: what" and skipped.  Returns the
 * number of bad lines. */
int tt_keymap_parse(struct tt_keymap *k, const char *text, const char *file,
		    void (*warn)(void *ctx, const char *msg), void *ctx);

/* ---- patterns.h ---- */

/* Build the call graph of rank index ri.  Never fails (an empty graph for a
 * rank without CPU events).  Free with tt_callgraph_free. */
void tt_callgraph_build(struct tt_callgraph *g, const struct tt_model *m, size_t ri,
			const struct tt_aopts *o);
void tt_callgraph_free(struct tt_callgraph *g);

/* ---- perfmodel.h ---- */

/* The built-in table (peaks.c), *n rows. */
const struct tt_gpu_peak *tt_gpu_peaks(size_t *n);

/* ---- ranks.h ---- */

/* Distributions and z-scores again, from rows[].v (tests fill v by hand). */
void tt_ranks_score(struct tt_ranks *s);
/* Distributions of the numeric columns of any per-rank table: one row per
 * column with n, min, p10, median, p90, max and the ranks at min and max
 * (from column rank_col).  Durations are shown in the column's unit.
 * Hidden and bar columns and rank_col itself are left out.  The new table
 * is named `name`. */
struct tt_table *tt_table_distributions(const struct tt_table *t, const char *rank_col,
					const char *name);

/* ---- raster.h ---- */

/* Convenience: rasterise an array of spans (sorted by (ts, -dur)). */
void tt_raster_spans(const struct tt_span *v, uint32_t n, int64_t t0, int64_t t1, int w,
		     struct tt_rcell *out);
/* Cells as text (w glyphs and a NUL): for tests and the headless dump. */
void tt_raster_text(const struct tt_rcell *cells, int w, char *buf);
uint32_t tt_rix_count(const struct tt_rix *ix);

/* ---- results.h ---- */

/* While paused, the background thread starts no new analysis (the one it
 * computes goes on); the asking threads still compute what they ask for.
 * For tests of what shows while a result is not ready. */
void tt_results_pause(struct tt_results *r, bool paused);
/* "temporal", "kernels", ... */
const char *tt_rkind_name(enum tt_rkind k);

/* ---- rewrite.h ---- */

/* Copy the text of rd to w, calling insert before the ']' that closes the
 * first traceEvents array (or the bare array).  A bare array that ends
 * without its ']' (accepted by the loader with a warning) gets the new
 * elements and a ']' at the end.  Errors: -TT_E_NOEVENTS when the object has
 * no traceEvents array, -TT_E_TRUNCATED when the text ends inside it, read
 * and write errors as reported by the reader and the writer. */
int tt_rewrite_trace(struct tt_reader *rd, struct tt_writer *w, tt_rewrite_insert_fn insert,
		     void *ctx, struct tt_err *err);

/* ---- runs.h ---- */

/* Does file name `name` (a base name) follow the handler's naming?  Fills
 * worker (the part before the number, cut to n bytes), *num and *stamp_ns
 * (the number read as seconds, ms, µs or ns by its digits when that is a
 * time from 2000 to 2200; else -1).  A trailing ".tts" is looked through. */
bool tt_handler_name(const char *name, char *worker, size_t n, uint64_t *num, int64_t *stamp_ns);
/* The newest cycle (index) that is complete as far as its files tell, or
 * the newest when none is. */
size_t tt_run_newest_complete(const struct tt_run *r);

/* ---- theme.h ---- */

/* colour by name, or -2 if unknown */
int tt_color_lookup(const char *name);
/* Parse theme text over t.  Returns the number of bad lines, each reported
 * as "FILE:LINE: what". */
int tt_theme_parse(struct tt_theme *t, const char *text, const char *file,
		   void (*warn)(void *ctx, const char *msg), void *ctx);

/* ---- trace.h ---- */

/* Exact conversion of a JSON number's text (µs) to int64 ns; rounds half to
 * even beyond three fraction digits.  Returns false if out of range. */
bool tt_json_us_to_ns(const char *p, size_t n, int64_t *ns);

/* ---- ui.h ---- */

/* Open the timeline of rank index ri at event ev (ev = TT_NONE: at time t). */
void tt_app_open_timeline(struct tt_app *a, size_t ri, uint32_t ev, int64_t t);
/* Drill down into p (the app owns it from now on). */
void tt_app_push(struct tt_app *a, struct tt_pane *p);

/* ---- utilization.h ---- */

/* SM count of GPU `device` of rank r from its deviceProperties: the entry
 * with that id, else the count every entry agrees on; 0 when unknown. */
int64_t tt_tb_num_sms(const struct tt_rank *r, int64_t device);

/* ---- the explorer's own (src/tui/tlwindow.h, src/tui/pane.h) ---- */

struct tl_view;
struct tt_pane;

/* The unit a ruler over [t0, t1) (relative to base) labels its ticks in:
 * the largest in which the farthest time from base is at least 1 (µs from
 * 1 µs, ms from 1 ms, s from 1 s), so labels step up with the scale. */
enum tt_unit tl_ruler_unit(int64_t base, int64_t t0, int64_t t1);
/* The widest window: the whole span of the data, at least one ns per cell. */
long double tl_span_max(const struct tl_view *v);
/* The heatmap of the app's ranks (heatmap.c). */
struct tt_pane *tt_heatmap_new(struct tt_app *a);

#endif
