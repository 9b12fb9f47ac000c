/* Traces as PyTorch writes them: runs, workers and profiling cycles.
 *
 * torch.profiler.tensorboard_trace_handler(DIR) writes one file per worker
 * and profiling cycle, named {worker}.{stamp}.pt.trace.json[.gz]: worker
 * is {hostname}_{pid} unless worker_name was given, stamp the time the
 * file was written (ms since the epoch in older PyTorch, ns in newer).  A
 * schedule with repeat (or a long run) writes several cycles; the files of
 * one cycle carry nearly the same stamp on every worker.  A TensorBoard log
 * directory holds one such folder per run.
 *
 * A run is a list of trace files (a folder, files, a glob, an object
 * prefix) grouped into cycles: by worker from the names, then matched
 * across workers by their stamps -- files of one cycle lie closer in time
 * than half the shortest gap between two cycles of one worker (a minute
 * when no worker has two), and a cycle never holds two stamps of one
 * worker.  Names whose number is no
 * time (a pid, say) are matched by their order per worker, as the
 * TensorBoard plugin does.  Files without the handler's naming (rank-3.json)
 * are workers of their own; when no file names a cycle, the run is one
 * cycle holding every file, as tracetop always read a folder.
 *
 * Everything here is data about files: nothing is parsed but names and,
 * for plain JSON, the last bytes (does the text end its JSON?). */
#ifndef TRACETOP_RUNS_H
#define TRACETOP_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/err.h"
#include "tracetop/model.h"

struct tt_tfile {
	char *path;     /* as listed */
	char *worker;   /* the handler's worker name, else the file name */
	int64_t stamp;  /* ns since the epoch from the name, or -1 (none, or no time) */
	uint64_t num;   /* the number of the name ({worker}.{num}.pt.trace...) */
	bool named;     /* the handler's naming: {worker}.{num}.pt.trace.json[.gz] */
	bool local;     /* a local file: size and mtime are known */
	bool cut;       /* plain JSON whose text stops before its end */
	uint64_t size;  /* bytes on disk */
	int64_t mtime;  /* ns since the epoch, 0 when unknown */
	uint32_t cycle; /* index into the run's cycles */
	uint32_t wid;   /* index of its worker in the run's sorted worker names */
};

struct tt_cycle {
	size_t first, nfiles; /* run->files[first .. first + nfiles), by worker */
	size_t nworkers;      /* distinct workers with a file in it */
	size_t expected;      /* workers of the cycles it shares workers with (the most) */
	int64_t time;         /* ns since the epoch: its newest stamp, else newest mtime; 0 unknown */
	int64_t mtime;        /* its newest file's mtime (ns), 0 unknown */
	uint64_t bytes;
	size_t ncut;          /* files whose text stops early */
	size_t nwriting;      /* of those, the ones changed lately: being written */
};

struct tt_run {
	char *name;    /* the path under its log directory ("r1", "a/b"); else the path given */
	char *dir;     /* the local folder it was read from, or NULL */
	struct tt_tfile *files; /* sorted by cycle, worker, path */
	size_t nfiles;
	struct tt_cycle *cycles; /* oldest first */
	size_t ncycles;
	size_t nworkers;
	bool cycled;   /* its files name cycles: a worker has several, or a stamp is a time */
	int64_t newest; /* ns since the epoch: the newest cycle's time */
	uint64_t bytes;
};

struct tt_logdir {
	char *path;
	struct tt_run **runs; /* sorted by name */
	size_t nruns;
};

/* seconds after its last change a file that stops early may still be
 * being written (older, it is a truncated file) */
#define TT_WRITING_RECENT_S 120

/* The cycle to open: a number from 1, or one of these. */
#define TT_CYCLE_DEFAULT 0   /* the newest complete one */
#define TT_CYCLE_ALL (-1)    /* every one (reports) */

/* A run of the files paths[0..n) (already expanded: tt_expand_paths),
 * named name: each file looked at (stat, and the end of a plain JSON text),
 * then grouped into cycles.  dir: the local folder they came from, or
 * NULL.  Never fails. */
struct tt_run *tt_run_new(const char *name, const char *dir, char *const *paths, size_t n);
void tt_run_free(struct tt_run *r);
/* The paths of cycle c (index), into a new array of borrowed pointers. */
size_t tt_run_cycle_paths(const struct tt_run *r, size_t c, const char ***out);
/* Is cycle c complete as far as its files tell: every expected worker has
 * a file in it and none is being written (plain text that stops early and
 * changed in the last TT_WRITING_RECENT_S seconds)? */
bool tt_cycle_complete(const struct tt_cycle *c);
/* Index of the cycle whose time is t (ns), or SIZE_MAX. */
size_t tt_run_cycle_at(const struct tt_run *r, int64_t t);
/* The workers of cycle c's group that have no file in it: their names,
 * ", "-separated, into buf (the first few, then "and N more"). */
void tt_run_missing(const struct tt_run *r, size_t c, char *buf, size_t n);

/* The run of the trace files in folder dir (as a folder is listed), named
 * name; it may have no files. */
struct tt_run *tt_run_open_dir(const char *name, const char *dir);
/* The run of the same folder read again (its files as they are now), or
 * NULL when r has no folder (r->dir NULL). */
struct tt_run *tt_run_reread(const struct tt_run *r);

/* Is path a log directory: a local folder with no trace files of its own
 * whose subfolders (to a few levels) hold some?  Then *out gets its runs,
 * one per folder holding trace files, named by their path under it. */
bool tt_logdir_scan(const char *path, struct tt_logdir **out);
/* The same log directory looked at again (new runs, new cycles): a file
 * whose size and time did not change is not read again.  NULL when it
 * holds no run now. */
struct tt_logdir *tt_logdir_rescan(const struct tt_logdir *d);
void tt_logdir_free(struct tt_logdir *d);
/* The run named name: exactly, else the one run whose name starts with
 * it; SIZE_MAX when none or several (*several says which). */
size_t tt_logdir_find(const struct tt_logdir *d, const char *name, bool *several);

/* ---- a loaded cycle ---- */

/* Load cycle c (index) of r into a new model (tt_model_load) and mark the
 * model with the cycle (m->cycle, m->ncycles, m->cycle_time, m->run). */
int tt_run_load(const struct tt_run *r, size_t c, const struct tt_load_opts *o,
		struct tt_model **out);
/* Does the model show a file that is still being written: one whose text
 * stops early (or could not be read at all) and that changed in the last
 * `recent_s` seconds (now: the wall clock, ns)? */
bool tt_model_writing(const struct tt_model *m, int64_t now, int recent_s);
/* The ProfilerStep numbers the model's ranks hold: the smallest and the
 * largest; *agree false when some rank holds none of the numbers the
 * others share.  false when no rank has a ProfilerStep. */
bool tt_model_steps(const struct tt_model *m, int64_t *lo, int64_t *hi, bool *agree);
/* "cycle 3 of 5 (12:03:05, steps 40-42)" of a model marked with its
 * cycle; "" when it is not.  The time is local (TZ). */
void tt_model_cycle_text(const struct tt_model *m, char *buf, size_t n);
/* The same for cycle idx (from 1) of ncycles at time (ns), with the steps
 * of m (NULL: none said). */
void tt_cycle_text(char *buf, size_t n, int idx, int ncycles, int64_t time,
		   const struct tt_model *m);
/* A time (ns since the epoch) as "2023-11-14 22:13:20" (local), or "" for 0. */
void tt_fmt_walltime(char *buf, size_t n, int64_t ns, bool date);

#endif
