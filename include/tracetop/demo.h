/* The built-in demo job: a deterministic generator of a realistic
 * data-parallel training trace, one Kineto JSON document per rank. */
#ifndef TRACETOP_DEMO_H
#define TRACETOP_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/err.h"
#include "tracetop/model.h"

#define TT_DEMO_MAX_STRAGGLERS 16

/* what makes a straggler slow */
enum tt_demo_slow {
	TT_DEMO_SLOW_HOST = 0, /* data loading on the host: its GPU idles (host
				* wait), the others wait for it in all-reduce */
	TT_DEMO_SLOW_GPU,      /* its kernels run ~35 % slower */
	TT_DEMO_SLOW_LINK,     /* its all-reduces finish late (a slow link) */
};

/* Whose GPUs the job ran on: the names and quirks of the traces. */
enum tt_demo_vendor {
	TT_DEMO_NVIDIA = 0, /* CUDA runtime calls, cuDNN / cuBLAS kernels, A100s */
	TT_DEMO_AMD,        /* ROCm: hip* runtime calls whose args.stream is a hex
			     * string ("0x0"), Tensile Cijk_* GEMMs and MIOpen
			     * kernels, MI300X with warpSize 64 */
};

/* which run of the job */
enum tt_demo_variant {
	TT_DEMO_BASE = 0,  /* the job as it is */
	TT_DEMO_REGRESSED, /* the same job after a regression: rank 2 (the first
			    * rank in jobs of fewer than 3) waits for its input on
			    * the host, the all-reduces move their bytes at 40 %
			    * of the bandwidth, plus a fixed delay of 1/12 of a step,
			    * from the third step on, and the
			    * input batch goes to the GPU from pageable memory in
			    * one copy per sample (32 cudaMemcpyAsync instead of
			    * one, each blocking the host) */
};

struct tt_demo_opts {
	int nranks;       /* ranks in the job (default 8) */
	int steps;        /* ProfilerStep iterations per rank (default 6) */
	int layers;       /* model layers: forward/backward ops per step (default 24) */
	uint64_t seed;    /* default 1 */
	/* ranks made slow on the host side (data loading): they show high idle
	 * time, and the other ranks wait for them in their all-reduce */
	int stragglers[TT_DEMO_MAX_STRAGGLERS];
	int nstragglers;  /* default 1: rank 5 (or nranks-1 if fewer ranks) */
	uint8_t straggler_kind[TT_DEMO_MAX_STRAGGLERS]; /* enum tt_demo_slow of
							  * each (default host) */
	enum tt_demo_vendor vendor; /* default NVIDIA; the timing is the same */
	int variant;      /* enum tt_demo_variant (default base) */
};

/* Fill o with the defaults above. */
void tt_demo_defaults(struct tt_demo_opts *o);

/* A job of nranks ranks: each rank smaller as the job grows (steps x
 * layers: up to 8 ranks 6 x 24, up to 32 ranks 5 x 12, up to 128 ranks
 * 4 x 8, beyond 3 x 6), and planted stragglers at fixed places: below 16
 * ranks one slow host at rank 5 (the last rank if there are fewer); from
 * 16 ranks also a slow GPU at rank nranks/2 + 3 and a slow link at rank
 * nranks - 6.  Set steps and layers afterwards to override the sizes. */
void tt_demo_set_ranks(struct tt_demo_opts *o, int nranks);

/* Generate every rank of the job in memory and load it as files
 * demo/rank-<N>.pt.trace.json would be (tt_model_load_mem with lo).
 * Returns what tt_model_load_mem returns; *out is the model. */
int tt_demo_load(const struct tt_demo_opts *o, const struct tt_load_opts *lo,
		 struct tt_model **out);

/* Write rank files rank-<N>.pt.trace.json (or .json.gz when gzip) into dir,
 * creating dir if needed, on up to one thread per CPU (the files do not
 * depend on it).  Returns 0 or -code with *err filled. */
int tt_demo_write_dir(const struct tt_demo_opts *o, const char *dir, bool gzip,
		      struct tt_err *err);

#endif
