/* Where the traces come from: one run (a folder, files, a glob, an object
 * prefix, standard input) or a log directory of runs (tracetop/runs.h);
 * the run open and its cycles; loading a cycle; and following a job that
 * is still running (--follow).
 *
 * Following: the run's folder is watched (inotify, tracetop/watch.h) and
 * looked at again at least every poll interval (a network file system
 * tells no changes made elsewhere).  A cycle newer than any seen when
 * following started is offered once every worker's file is in it, none has
 * changed for a whole interval, and each parses to its end (a gzip stream
 * to its trailer): it is loaded on a thread of its own, and a file that
 * does not parse to its end is waited for, never shown as truncated.  A
 * file that stops early and has not changed for TT_FOLLOW_STALE_S is no
 * longer being written: its cycle is offered as it is, with the warning of
 * a truncated file.  A followed log directory is looked at whole (new runs,
 * the runs' new cycles) while no run is open and while its runs are in
 * view (tt_input_show_runs); else only the open run is. */
#ifndef TRACETOP_INPUT_H
#define TRACETOP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/model.h"
#include "tracetop/runs.h"

#define TT_FOLLOW_STALE_S 120
/* the shortest time between two looks at a followed folder (ms) */
#define TT_FOLLOW_POLL_MS 1000

struct tt_input;

/* The traces paths[0..n) name: a log directory when that is one path to a
 * local folder with no traces of its own whose subfolders hold some (no
 * run open yet: tt_input_set_run), else one run of the expanded paths
 * (tt_expand_paths; paths that name nothing are reported through bad, as
 * there).  NULL when no trace file was found (each bad path reported;
 * *nbad counts them). */
struct tt_input *tt_input_new(const char *const *paths, size_t n, size_t *nbad,
			      void (*bad)(void *ctx, const struct tt_err *e), void *ctx);
/* The same for one folder that may hold no traces yet (a job to follow). */
struct tt_input *tt_input_new_dir(const char *dir);
void tt_input_free(struct tt_input *s);

/* The log directory, or NULL when the paths named one run. */
const struct tt_logdir *tt_input_logdir(const struct tt_input *s);
/* The run open, or NULL (a log directory before a run was chosen).  The
 * pointer stays valid until the next tt_input_* call that looks at the
 * files again (tt_input_set_run, tt_input_rescan, tt_input_tick). */
const struct tt_run *tt_input_run(const struct tt_input *s);
/* The open run's index in the log directory (SIZE_MAX: none). */
size_t tt_input_run_index(const struct tt_input *s);
/* Open run i of the log directory (its files looked at again; SIZE_MAX:
 * none); a follower follows it from now on. */
void tt_input_set_run(struct tt_input *s, size_t i);
/* Look at the open run's files again (new cycles, files grown); the log
 * directory's runs too when rescan_logdir (a file whose size and time did
 * not change is not read again). */
void tt_input_rescan(struct tt_input *s, bool rescan_logdir);
/* Whether the log directory's runs are in view: a follower looks at every
 * run then, not only the open one. */
void tt_input_show_runs(struct tt_input *s, bool shown);

/* Load cycle `cycle` of the open run (from 1; TT_CYCLE_DEFAULT: the newest
 * one that is complete and whose files are not being written -- a newer
 * one that is, is passed over and said in why).  0 with *out a model
 * holding at least one rank; else -code with *out the model of failures
 * (or NULL) and why saying what is wrong ("no cycle 7: 5 cycles").  o: as
 * tt_model_load's. */
int tt_input_load(struct tt_input *s, int cycle, const struct tt_load_opts *o,
		  struct tt_model **out, char *why, size_t whysz);
/* The options tt_input_load uses when given none (o NULL): copied, without
 * progress. */
void tt_input_set_opts(struct tt_input *s, const struct tt_load_opts *o);
/* before(ctx, paths, n) is called before each cycle's files are loaded
 * (a progress line's list of files), when set. */
void tt_input_on_load(struct tt_input *s, void (*before)(void *ctx, char *const *paths, size_t n),
		      void *ctx);

/* "cycle 3 of 5 (12:03:05, steps 40-42)" of model m, numbered as the
 * open run's cycles are now (a followed run grows); "" when m holds no
 * cycle. */
void tt_input_cycle_text(const struct tt_input *s, const struct tt_model *m, char *buf, size_t n);

/* The ProfilerStep numbers of cycle c (index) of the open run, smallest
 * and largest, when a load of it has told them (a cycle is parsed only
 * when opened); false when not known. */
bool tt_input_cycle_steps(const struct tt_input *s, size_t c, int64_t *lo, int64_t *hi);

/* ---- following ---- */

/* Follow the open run (and the run opened later): poll_only leaves inotify
 * out.  o: the options new cycles are loaded with (copied, without
 * progress). */
void tt_input_follow(struct tt_input *s, bool poll_only, const struct tt_load_opts *o);
bool tt_input_following(const struct tt_input *s);
/* A descriptor readable when the folder changed, or -1. */
int tt_input_follow_fd(const struct tt_input *s);
/* Milliseconds until the next look is due (0: now; -1: not following). */
int tt_input_follow_wait_ms(const struct tt_input *s);
enum {
	TT_IN_CHANGED = 1, /* the run's files or cycles changed */
	TT_IN_READY = 2,   /* a new cycle is loaded: tt_input_take */
};
/* Look again when due (or at once when woken: the descriptor was
 * readable), start loading a new complete cycle, collect one loaded.
 * Returns TT_IN_* bits.  From one thread only (the one showing). */
unsigned tt_input_tick(struct tt_input *s, bool woken);
/* The new cycle loaded in the background (the caller owns it), or NULL;
 * later offers are of cycles newer than it. */
struct tt_model *tt_input_take(struct tt_input *s);
/* The time of that cycle (ns since the epoch), 0 when none is ready. */
int64_t tt_input_ready_time(const struct tt_input *s);
/* What the follower knows of cycle c (index) of the open run that its
 * files do not say, in a few words ("being written: growing", "being
 * written: a file stops early", "loading"), or "". */
void tt_input_cycle_note(const struct tt_input *s, size_t c, char *buf, size_t n);
/* What the follower waits for, in a few words ("cycle 6: 2 of 4 workers
 * written", "cycle 6 being written"; brief: always the latter), or ""
 * when nothing. */
void tt_input_pending(const struct tt_input *s, bool brief, char *buf, size_t n);
/* Wait (blocking, at most timeout_ms; -1: no limit) for the first new
 * cycle of a followed run; the model, or NULL when the time ran out.
 * For a job that has written no complete cycle yet. */
struct tt_model *tt_input_wait(struct tt_input *s, int timeout_ms);
/* How the folder is watched: "inotify and polling every 1 s", "polling
 * every 1 s". */
void tt_input_follow_kind(const struct tt_input *s, char *buf, size_t n);

#endif
