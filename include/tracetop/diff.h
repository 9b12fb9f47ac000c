/* analysis: two traces compared op by op (HTA TraceDiff.compare_traces and
 * ops_diff, metrics.md §11).
 *
 * Unlike the other analyses, TraceDiff parses each side WITHOUT the
 * iteration filter of metrics.md §0.4: every event HTA's parser keeps (a
 * complete event with a duration and a category, not the profiler span; B/E
 * pairs have no "dur" in the file and are left out) with HTA's µs rounding
 * of fractional timestamps.  struct tt_sel cannot express that selection,
 * so diff.c keeps its own.  Names are compared as strings across the two
 * models; the result copies them, so it outlives both models. */
#ifndef TRACETOP_DIFF_H
#define TRACETOP_DIFF_H

#include "tracetop/analysis.h"
#include "tracetop/arena.h"
#include "tracetop/err.h"

/* ---- iterations (HTA add_iteration) ---- */

/* Iteration of every event of r into iter[0 .. r->nev): for an event
 * without a stream, the N of the CPU-side ProfilerStep#N event whose
 * [ts, end) holds its start (the latest-starting one if steps overlap); for
 * an event with a stream, the iteration of its launching runtime call; -1
 * otherwise.  round: HTA's µs rounding (ts up, end down) before comparing.
 * Returns how many ProfilerStep#N events the rank has. */
uint32_t tt_diff_iterations(const struct tt_rank *r, bool round, int64_t *iter);

/* HTA's shortened name, the rule its output on our reference traces
 * follows (reference/diff-diff/compare_traces_short.csv, 310 names; it is
 * not quite metrics.md's older shorten_name): a name without '<' and '('
 * stays as it is; otherwise drop "->", then every <...> and (...) group (an
 * unmatched '>' or ')' drops everything before it), and keep what follows
 * the last space, or the whole name when that is empty ("Memset (Device)").
 * out must hold strlen(name) + 1 bytes; returns its length. */
size_t tt_diff_short_name(const char *name, char *out);

/* ---- the comparison ---- */

enum tt_diff_device { TT_DIFF_ALL = 0, TT_DIFF_GPU, TT_DIFF_CPU };

/* ops_diff buckets, in HTA's order */
enum tt_diff_change {
	TT_DIFF_ADDED = 0, /* only in B */
	TT_DIFF_DELETED,   /* only in A */
	TT_DIFF_INCREASED, /* in both, more in B */
	TT_DIFF_DECREASED, /* in both, fewer in B */
	TT_DIFF_UNCHANGED, /* in both, as many */
	TT_DIFF_NCHANGE
};
const char *tt_diff_change_name(enum tt_diff_change c); /* "added", ... */

struct tt_diff_opts {
	enum tt_diff_device device; /* ALL; GPU = events with a stream; CPU = without */
	bool short_names;           /* group by tt_diff_short_name */
	int64_t iteration;          /* ProfilerStep number on both sides, -1 = each
				     * side's first */
	bool exact;                 /* no rounding (tracetop --exact) */
	const int64_t *ranks;       /* ranks used on both sides, NULL = each side's
				     * smallest */
	size_t nranks;
};

/* What was taken from one side. */
struct tt_diff_side {
	int64_t first_rank;  /* smallest rank used */
	uint32_t first_idx;  /* its index in model->ranks */
	uint32_t nranks;     /* ranks used */
	int64_t iteration;   /* -1 when the side has no ProfilerStep (all events
			      * are then compared; HTA raises) */
	uint32_t nsteps;     /* distinct ProfilerStep#N names of the side */
	uint64_t events;     /* events counted */
	int64_t total_ns;    /* their summed duration */
};

struct tt_diff_row {
	const char *name;      /* full or short name (owned by the result) */
	int64_t count[2];      /* 0 = A (control), 1 = B (test) */
	int64_t dur[2];        /* summed durations, ns (HTA view) */
	int64_t diff_count;    /* count[1] - count[0] */
	int64_t diff_dur;      /* dur[1] - dur[0] */
	char sign;             /* counts_change_categories: '+', '-', '=' */
	uint8_t change;        /* enum tt_diff_change */
};

struct tt_diff {
	struct tt_diff_row *rows; /* by name (bytewise), as HTA's index */
	size_t n;
	struct tt_diff_side side[2];
	size_t nchange[TT_DIFF_NCHANGE];
	struct tt_arena strs;
};

/* Compare model a (control) with b (test).  Returns 0, or -TT_E_USAGE with
 * *err filled when a requested rank or iteration is not on a side (HTA
 * raises ValueError there).  Free with tt_diff_free (also after an error). */
int tt_diff(struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
	    const struct tt_diff_opts *o, struct tt_err *err);
void tt_diff_free(struct tt_diff *d);
/* Reorder rows by impact: |diff_dur| descending, then |diff_count|
 * descending, then name. */
void tt_diff_sort_impact(struct tt_diff *d);
/* The same order as indices into d->rows, d unchanged (n entries; free). */
size_t *tt_diff_impact_order(const struct tt_diff *d);

#endif
