/* analysis: the bandwidth of each collective matched across ranks.
 *
 * Read from the one matching of collectives (collectives.h,
 * tt_res_collectives): per collective its latency (the shortest duration
 * over the ranks, the time the transfer itself took), the skew of its
 * starts and ends on the job's clock, the first and last rank to arrive,
 * the algorithm NCCL/RCCL ran (from the kernel's name), the message size
 * and the algorithm and bus bandwidths of nccl-tests:
 *
 *   size    all_gather: the output (every rank's part); the others: the
 *           input (reduce_scatter: the whole input);
 *   algbw = size / latency;
 *   busbw = algbw x 2(n-1)/n (all_reduce), x (n-1)/n (all_gather,
 *           reduce_scatter, all_to_all), x 1 (broadcast, reduce,
 *           point-to-point), n the group's size.
 *
 * Units said: bytes exact; GB/s are 10^9 bytes per second (TraceLens'
 * "algo bw (GB/s)" is GiB/s, 2^30, and its "MB" MiB).  Sizes come from the
 * kernel's collective args (In/Out msg nelems x dtype), else the
 * record_param_comms around the launch, else the collective op's Input
 * Dims x Input type; when none, the size is missing and said.
 * Pure functions; libc only. */
#ifndef TRACETOP_COLLBW_H
#define TRACETOP_COLLBW_H

#include "tracetop/collectives.h"

enum tt_cbw_kind {
	TT_CBW_ALLREDUCE,
	TT_CBW_ALLGATHER,
	TT_CBW_REDUCE_SCATTER,
	TT_CBW_ALLTOALL,
	TT_CBW_BROADCAST,
	TT_CBW_REDUCE,
	TT_CBW_P2P,
	TT_CBW_OTHER, /* gather, scatter, barrier, unknown: no bus factor */
};

struct tt_cbw {
	uint32_t coll;        /* index into tt_coll.colls */
	const char *op;       /* the operation as the collective names it */
	uint8_t kind;         /* enum tt_cbw_kind */
	char algo[24];        /* "RING_LL", "" unknown */
	uint32_t n;           /* the group's size */
	uint32_t nparts;      /* ranks loaded that took part */
	int64_t bytes;        /* the size (above), -1: missing */
	const char *size_src; /* "kernel args", "record_param_comms", "Input Dims",
			       * NULL */
	bool size_scaled;     /* all_gather's output from an input x n */
	bool input_only;      /* all_gather's input alone: its output needs the
			       * group's size, which the trace does not give
			       * (no bandwidth then) */
	bool n_known;         /* n from the trace (Process Group Ranks, Group
			       * size), not the world size taken for a group
			       * the trace does not name */
	int64_t latency;      /* ns: the shortest duration over its parts */
	int64_t start_skew;   /* last arrival - first (job's clock) */
	int64_t end_skew;     /* latest end - earliest */
	int64_t first_rank, last_rank; /* first and last to arrive; last -1 when
				 * flagged (first: then the earliest start) */
	int64_t first_ts;     /* the earliest start of its parts, each on its
			       * rank's clock (the traces' own times) */
	int64_t step;
	unsigned flags;       /* the collective's TT_COLL_* */
	double algbw, busbw;  /* GB/s (10^9 B/s); NaN without a size */
};

/* per operation, group, size and group size */
struct tt_cbw_sum {
	const char *op;
	uint8_t kind;
	const char *group;
	int64_t bytes;
	uint32_t n;
	uint64_t count;
	double lat_mean, lat_min, lat_max;          /* ns */
	double algbw_mean, busbw_mean, busbw_median, busbw_max; /* GB/s */
	char algo[24];        /* of the first */
};

struct tt_coll_bw {
	struct tt_cbw *colls; /* one per tt_coll.colls, same order */
	size_t ncolls;
	struct tt_cbw_sum *sums; /* busbw x count descending */
	size_t nsums;
	double *part_busbw;   /* per tt_coll part: its collective's busbw, NaN */
	size_t nparts;
	uint64_t nmissing;    /* collectives without a size */
	uint64_t ninput_only; /* all_gathers with their input size only */
	uint64_t nflagged;    /* flagged ones (sizes or names disagree) */
	struct tt_strtab names;
};

/* Bandwidths of the collectives of c (the matching of model m).  Free with
 * tt_coll_bw_free. */
void tt_coll_bw_compute(const struct tt_model *m, const struct tt_coll *c, struct tt_coll_bw *out);
void tt_coll_bw_free(struct tt_coll_bw *b);
/* The mean bus bandwidth (GB/s) of rank index ri's parts whose operation
 * has collective key `key` (tt_tb_coll_key), over those with a size; NaN
 * when none.  *n (optional) gets how many. */
double tt_coll_bw_rank_mean(const struct tt_coll_bw *b, const struct tt_coll *c, size_t ri,
			    const char *key, uint64_t *n);

#endif
