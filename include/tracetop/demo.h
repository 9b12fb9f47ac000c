/* The built-in demo job: a deterministic generator of a realistic
 * data-parallel training trace, one Kineto JSON document per rank. */
#ifndef TRACETOP_DEMO_H
#define TRACETOP_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/err.h"

#define TT_DEMO_MAX_STRAGGLERS 16

struct tt_demo_opts {
	int nranks;       /* ranks in the job (default 8) */
	int steps;        /* ProfilerStep iterations per rank (default 6) */
	int layers;       /* model layers: forward/backward ops per step (default 24) */
	uint64_t seed;    /* default 1 */
	/* ranks made slow on the host side (data loading): they show high idle
	 * time, and the other ranks wait for them in their all-reduce */
	int stragglers[TT_DEMO_MAX_STRAGGLERS];
	int nstragglers;  /* default 1: rank 5 (or nranks-1 if fewer ranks) */
};

/* Fill o with the defaults above. */
void tt_demo_defaults(struct tt_demo_opts *o);

/* Kineto JSON text of one rank of the job; the caller frees it.  The same
 * options and rank always give the same bytes. */
char *tt_demo_rank_json(const struct tt_demo_opts *o, int rank, size_t *len);

/* Write rank files rank-<N>.pt.trace.json (or .json.gz when gzip) into dir,
 * creating dir if needed.  Returns 0 or -code with *err filled. */
int tt_demo_write_dir(const struct tt_demo_opts *o, const char *dir, bool gzip,
		      struct tt_err *err);

#endif
