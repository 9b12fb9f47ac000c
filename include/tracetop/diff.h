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

/* The time verdict of a row: is B slower, faster, or within the threshold? */
enum tt_diff_verdict { TT_DIFF_SAME = 0, TT_DIFF_SLOWER, TT_DIFF_FASTER };
const char *tt_diff_verdict_name(enum tt_diff_verdict v); /* "unchanged", "slower", "faster" */

/* The verdict on a time that went from a (control) to b (test), both ns:
 * slower when b - a > max(threshold * |a|, floor_ns), faster when
 * a - b > that, unchanged otherwise (threshold is a fraction: 0.05 = 5 %).
 * Every diff row, step and rank of tt_diff uses this rule, and so should
 * anything else that calls a time "slower". */
enum tt_diff_verdict tt_diff_judge(double a, double b, double threshold, int64_t floor_ns);

/* iteration: which ProfilerSteps are compared */
#define TT_DIFF_FIRST (-1)  /* HTA's default: each side's first step */
#define TT_DIFF_COMMON (-2) /* every step both sides have (tracetop's default) */

/* rank a of the control side compared with rank b of the test side */
struct tt_diff_pair {
	int64_t a, b;
};

/* The default verdict rule: 5 % of the control time, at least 50 µs per
 * step. */
#define TT_DIFF_THRESHOLD 0.05
#define TT_DIFF_FLOOR_NS 50000

struct tt_diff_opts {
	enum tt_diff_device device; /* ALL; GPU = events with a stream; CPU = without */
	bool short_names;           /* group by tt_diff_short_name */
	/* >= 0: that ProfilerStep on both sides; TT_DIFF_FIRST: each side's
	 * first (HTA); TT_DIFF_COMMON: every step number both ranks of a pair
	 * have (when they share none: their steps in order) */
	int64_t iteration;
	bool exact;                 /* no rounding (tracetop --exact) */
	/* Ranks compared.  map (nmap pairs) names the pairs.  Otherwise ranks
	 * (nranks numbers; each must be on both sides) pair rank r with rank
	 * r.  Otherwise, with an iteration >= 0 or TT_DIFF_FIRST, HTA's: each
	 * side's smallest rank; with TT_DIFF_COMMON the rank numbers both sides
	 * have, or, when they share none, both sides' ranks in order. */
	const int64_t *ranks;
	size_t nranks;
	const struct tt_diff_pair *map;
	size_t nmap;
	/* the verdict rule (tt_diff_judge); zero: every change counts */
	double threshold;
	int64_t floor_ns;
};

/* Fill o with tracetop's defaults: all events, full names, every common
 * step, the default verdict rule. */
void tt_diff_opts_init(struct tt_diff_opts *o);

/* What was taken from one side. */
struct tt_diff_side {
	int64_t first_rank;  /* smallest rank used */
	uint32_t first_idx;  /* its index in model->ranks */
	uint32_t nranks;     /* ranks used */
	int64_t iteration;   /* the step compared with an iteration >= 0 or
			      * TT_DIFF_FIRST; the first step compared with
			      * TT_DIFF_COMMON; -1 when the side has no
			      * ProfilerStep (all events are then compared; HTA
			      * raises) */
	uint32_t nsteps;     /* distinct ProfilerStep#N names of the side */
	uint32_t unpaired;   /* ranks of the side without a partner */
	uint64_t events;     /* events counted */
	int64_t total_ns;    /* their summed duration */
};

/* A sample is one rank of one side in one compared step: a row's "per
 * step" values are means over the samples (a rank-step), its spread their
 * sample standard deviation.  Both sides have the same number of samples. */
struct tt_diff_row {
	const char *name;      /* full or short name (owned by the result);
				* with TT_DIFF_COMMON the ProfilerStep#N names
				* are one row, "ProfilerStep#*" */
	int64_t count[2];      /* 0 = A (control), 1 = B (test); over all samples */
	int64_t dur[2];        /* summed durations, ns (HTA view) */
	int64_t diff_count;    /* count[1] - count[0] */
	int64_t diff_dur;      /* dur[1] - dur[0] */
	char sign;             /* counts_change_categories: '+', '-', '=' */
	uint8_t change;        /* enum tt_diff_change */
	uint8_t verdict;       /* enum tt_diff_verdict of mean[0] -> mean[1] */
	double mean[2];        /* duration per sample, ns */
	double sd[2];          /* its sample standard deviation (0 with one sample) */
	double cmean[2];       /* count per sample */
	double dmean;          /* mean[1] - mean[0] */
};

/* what the rank and step tables compare, per step (ns) */
enum tt_diff_metric {
	TT_DM_STEP = 0, /* the ProfilerStep's duration (CPU side) */
	TT_DM_BUSY,     /* union of the step's GPU events (launched in the step),
			 * clipped to the step's window: at most the step */
	TT_DM_COMP,     /* summed durations of its GPU events by kernel type */
	TT_DM_COMM,
	TT_DM_MEM,
	TT_DM_IDLE,     /* step - busy: the GPU waiting */
	TT_DM_COUNT
};
/* "step", "gpu_busy", "computation", "communication", "memory", "gpu_idle" */
const char *tt_diff_metric_name(enum tt_diff_metric m);
/* "step", "GPU busy", "computation", ..., "GPU idle" (for sentences) */
const char *tt_diff_metric_title(enum tt_diff_metric m);

/* one compared step: the means over the rank pairs that have it */
struct tt_diff_step {
	int64_t num[2];                 /* step number on each side; -1: the
					 * whole trace (no ProfilerStep) */
	uint32_t npairs;                /* rank pairs that have it */
	double v[2][TT_DM_COUNT];       /* ns */
	uint8_t verdict[TT_DM_COUNT];   /* tt_diff_judge of v[0][m] -> v[1][m] */
};

/* one rank pair: per-step means over its compared steps */
struct tt_diff_rank {
	int64_t rank[2];
	uint32_t idx[2];                /* index in each model's ranks */
	uint32_t nsteps;                /* steps compared */
	/* the step numbers compared, on each side (nsteps each, the j-th of
	 * one side with the j-th of the other; owned by the result); -1: the
	 * side's whole trace (it has no ProfilerStep) */
	const int64_t *steps[2];
	double v[2][TT_DM_COUNT];       /* ns per step */
	uint8_t verdict[TT_DM_COUNT];
	/* how much its time moved between computation, communication, memory
	 * and idle: the sum of their |Δ| (ns per step), and the largest */
	double moved;
	uint8_t most;                   /* enum tt_diff_metric */
};

/* The headline: how the step time changed and which rows changed most. */
struct tt_diff_headline {
	bool steps;           /* false: no ProfilerStep, totals compared */
	double t[2];          /* mean step time (or all events' total per sample), ns */
	uint8_t verdict;      /* tt_diff_judge of t[0] -> t[1] */
	size_t top[3];        /* rows changed most in the verdict's direction (by
			       * |dmean|; any direction when unchanged), not step
			       * annotations */
	size_t ntop;
	size_t slowest_step;  /* index in steps of the step that changed most in
			       * the verdict's direction (any when unchanged)
			       * and is itself not unchanged; SIZE_MAX if none */
	size_t rank;          /* index in ranks of the pair that moved most
			       * (tt_diff_rank.moved), SIZE_MAX if none */
};

struct tt_diff {
	struct tt_diff_row *rows; /* by name (bytewise), as HTA's index */
	size_t n;
	struct tt_diff_side side[2];
	size_t nchange[TT_DIFF_NCHANGE];
	size_t nverdict[3];       /* rows per enum tt_diff_verdict */
	struct tt_diff_step *steps; /* by control step number */
	size_t nsteps;
	struct tt_diff_rank *ranks; /* rank pairs, in pairing order */
	size_t nranks;
	uint64_t nsamples;        /* samples per side */
	int64_t iteration;        /* the mode (opts.iteration) */
	bool ranks_by_order;      /* no rank number in common: paired in order */
	bool steps_by_order;      /* no step number in common: paired in order */
	double threshold;         /* the verdict rule used */
	int64_t floor_ns;
	/* the selection used (opts): which events, whose names, which times */
	uint8_t device;           /* enum tt_diff_device */
	bool short_names, exact;
	struct tt_diff_headline head;
	struct tt_arena strs;
};

/* Compare model a (control) with b (test).  Returns 0, or -TT_E_USAGE with
 * *err filled when a requested rank or iteration is not on a side (HTA
 * raises ValueError there) or a side has no rank.  Free with tt_diff_free
 * (also after an error). */
int tt_diff(struct tt_diff *d, const struct tt_model *a, const struct tt_model *b,
	    const struct tt_diff_opts *o, struct tt_err *err);
void tt_diff_free(struct tt_diff *d);
/* The same order as indices into d->rows, d unchanged (n entries; free). */
size_t *tt_diff_impact_order(const struct tt_diff *d);

/* The rank pairs a diff of a (control) and b (test) with options o
 * compares when every rank is shown: o->map's, else rank r with rank r,
 * else (no number in common) both sides' ranks in order -- whatever
 * o->iteration and o->ranks say.  *out (malloc'd, *n pairs of rank
 * numbers; free it).  Returns 0, or -TT_E_USAGE with *err filled when a
 * map names a rank a side has not. */
int tt_diff_pairs(const struct tt_model *a, const struct tt_model *b,
		  const struct tt_diff_opts *o, struct tt_diff_pair **out, size_t *n,
		  struct tt_err *err);

/* ---- the GPU streams of two ranks, paired by what they carry ---- */

/* what a stream carries: the type of kernel with the most time on it */
enum tt_stream_kind { TT_SK_COMPUTE = 0, TT_SK_COMM, TT_SK_MEMORY, TT_SK_OTHER };
const char *tt_stream_kind_name(enum tt_stream_kind k); /* "compute", "comm", ... */

struct tt_stream_info {
	int64_t stream, device;
	uint8_t kind;     /* enum tt_stream_kind */
	uint32_t top;     /* its name with most time (string id of the rank), or TT_NONE */
	int64_t busy_ns;  /* summed durations of its GPU events */
	uint64_t nevents;
};

/* how two streams were paired */
enum { TT_SP_NUMBER = 0, /* the same number, carrying the same kind */
       TT_SP_NAME,       /* the same kind and the same busiest name */
       TT_SP_ORDER,      /* the same kind, in order of busy time */
       TT_SP_ALONE };    /* on one side only */
struct tt_stream_pair {
	int64_t stream[2]; /* a's and b's stream; -1 when on one side only */
	uint8_t kind;      /* enum tt_stream_kind */
	uint8_t how;       /* TT_SP_* */
};
/* The GPU streams of rank a (control) paired with those of rank b (test):
 * by number where both carry the same kind, else by kind -- the same
 * busiest kernel first, then the busiest with the busiest -- and the rest
 * alone.  *out malloc'd (free it); returns the pairs.  O(events + streams^2). */
size_t tt_diff_stream_pairs(const struct tt_rank *a, const struct tt_rank *b,
			    struct tt_stream_pair **out);

/* Parse a rank map "A:B[,A:B...]" (e.g. "3:1" or "0:4,1:5") into *out
 * (malloc'd, *n pairs).  Returns 0, or -1 with a message in msg. */
int tt_diff_map_parse(const char *s, struct tt_diff_pair **out, size_t *n, char *msg,
		      size_t msgn);

#endif
