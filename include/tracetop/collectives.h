/* analysis: collectives matched across ranks (../shared/docs/collectives.md).
 *
 * One typed result that every job-wide view reads: the critical path
 * across ranks, the all-ranks timeline, bandwidth per collective and the
 * Distributed view's synchronizing / data-transfer split.  Get it through
 * tt_res_collectives() (results.h) so that it is computed once.
 *
 * What it holds
 *   parts   one rank's share of a collective: the communication kernels
 *           launched under one CPU collective op (record_param_comms,
 *           nccl:NAME, c10d::NAME), or one kernel when no op is linked --
 *           the calls of the Distributed view, every one of them, matched
 *           or not.  Kernels are those tt_kernel_type() calls
 *           COMMUNICATION; exact ns times (no HTA rounding).
 *   groups  process groups: `Process Group Name` (kernel args, else the
 *           record_param_comms around the launch); a trace that names none
 *           gets one group per communication stream (the k-th stream, by
 *           stream number, of each rank).  Members: `Process Group Ranks`
 *           when given, else every selected rank that has parts in it.
 *   colls   one collective matched across ranks: the parts of the same
 *           group at the same position of that group's sequence on each
 *           member.  Positions count within each ProfilerStep#N (a part's
 *           step is the one whose CPU span holds its launch), so a
 *           collective one rank lacks disturbs only its step, and ranks
 *           whose trace windows start at different steps still line up;
 *           before the first step they count back from it; a rank without
 *           steps counts from its first part.  At each position the
 *           operation and the message size must agree on every member, and
 *           the ranks with parts in that step must have as many of them:
 *           where not, the collective is flagged (TT_COLL_MISMATCH,
 *           TT_COLL_MISSING) and an issue names the rank that differs.
 *           Flagged parts are never silently paired: they get no wait.
 *           Point-to-point operations (SendRecv, Send, Recv, by name) pair
 *           two ranks only: within a group of exactly two members the n-th
 *           p2p part of one is matched with the n-th of the other; in a
 *           larger group the trace does not say the peer, so they stay
 *           unmatched (counted).
 *   clocks  per rank, the offset of its clock from the job's clock (the
 *           reference: the first selected rank's host).  A collective's
 *           kernels end at about the same instant on every member, so the
 *           median of the end differences to already placed members, over
 *           many collectives, estimates it (robust to outliers).  Ranks on
 *           one host share a clock: hosts come from the trace's `host_name`
 *           (`hostname`); without one each rank is its own host.  The
 *           offset is applied only with at least TT_COLL_MIN_EVIDENCE
 *           collectives behind it, when it is at least
 *           TT_COLL_MIN_OFFSET_NS, and when it is more than twice the
 *           median's standard error (from the differences' spread); why
 *           not is said (clock.why).
 *
 * Wait and transfer (the Distributed view's synchronizing and data
 * transfer are these numbers, per part): on the job's clock, a part's
 * arrival is its first kernel's start minus its rank's offset; the
 * collective's last arrival is the latest of its parts'.  A part's wait is
 * from its arrival to the last arrival (at most its kernels' duration),
 * its transfer the rest of its kernels' duration.  The last-arriving rank
 * waits 0.  A part that is not matched (or flagged) has wait 0 and
 * transfer = its duration.
 *
 * Cost: linear in the communication kernels (parts hashed by group and
 * position); per rank work on o->threads threads.
 *
 * Stability: fields and functions are only added, never renamed or
 * removed; indices are stable for one result. */
#ifndef TRACETOP_COLLECTIVES_H
#define TRACETOP_COLLECTIVES_H

#include "tracetop/analysis.h"

/* an offset is applied with at least this many collectives behind it */
#define TT_COLL_MIN_EVIDENCE 5
/* ... and when it is at least this big (smaller is jitter) */
#define TT_COLL_MIN_OFFSET_NS (2 * INT64_C(1000))

/* one rank's part of a collective */
struct tt_coll_part {
	size_t ri;          /* rank index in the model */
	int64_t rank;
	uint32_t group;     /* index into tt_coll.groups */
	uint32_t coll;      /* index into tt_coll.colls; TT_NONE: not matched */
	uint32_t pos;       /* its place in its group's sequence on this rank
			     * (0-based; p2p parts counted apart) */
	int64_t step;       /* N of the ProfilerStep#N its launch lies in, -1 none */
	const char *name;   /* the operation as named ("all_reduce", "allreduce",
			     * "AllReduce" from a kernel name) */
	const char *source; /* where the name came from: "kernel args",
			     * "record_param_comms", "annotation", "c10d op",
			     * "kernel name" */
	uint32_t kernel;    /* first kernel (event index) */
	uint32_t nkernels;  /* kernels of the part */
	uint32_t track;     /* the first kernel's stream (track index) */
	uint32_t cpu;       /* the CPU collective op (innermost), TT_NONE */
	uint32_t launch;    /* runtime call that launched the first kernel, TT_NONE */
	int64_t ts, end;    /* first kernel start, last kernel end: the rank's clock */
	int64_t dur;        /* sum of its kernels' durations */
	int64_t launch_ts;  /* its launch's start (rank's clock); -1 without one */
	int64_t arrival;    /* ts - the rank's clock offset: the job's clock */
	int64_t wait;       /* arrival to the collective's last arrival, clipped
			     * to [0, dur]; 0 when not matched */
	int64_t transfer;   /* dur - wait */
	int64_t bytes;      /* message size (In msg nelems x dtype, else Input
			     * Dims x Input type); -1 unknown */
	bool p2p;           /* SendRecv, Send or Recv */
};

/* flags of a collective */
#define TT_COLL_MISMATCH 0x01 /* members disagree on the operation or size */
#define TT_COLL_MISSING 0x02  /* a rank with parts in this step of the group has
			       * none at this position */
#define TT_COLL_PARTIAL 0x04  /* members of the group not loaded (or not selected):
			       * the last arrival is among those loaded */
#define TT_COLL_P2P 0x08      /* a point-to-point pair */

/* one collective, matched across ranks */
struct tt_coll_op {
	uint32_t group;     /* index into tt_coll.groups */
	uint32_t seq;       /* n: its place in the group's sequence (0-based,
			     * over the collectives of the group in this result) */
	const char *name;   /* the operation, as the first part names it */
	int64_t step;       /* the first part's step, -1 none */
	uint32_t first, n;  /* its parts: tt_coll.members[first .. first + n),
			     * part indices by rank index */
	unsigned flags;     /* TT_COLL_* */
	uint32_t last;      /* part index of the last to arrive (flagged: TT_NONE) */
	uint32_t early;     /* part index of the first to arrive */
	int64_t t_first, t_last; /* first and last arrival: the job's clock */
	int64_t end_min, end_max; /* earliest, latest end on the job's clock */
	int64_t latency;    /* the shortest duration over its parts */
	int64_t wait_sum;   /* sum of its parts' waits */
	int64_t wait_max;
	int64_t bytes;      /* message size of the first part that knows it, -1 */
};

struct tt_coll_group {
	const char *name;   /* "0", "default_pg:0", or "stream #1" */
	const char *desc;   /* Process Group Description, "" */
	const char *source; /* "kernel args", "record_param_comms", "stream" */
	uint32_t nmembers;  /* ranks in the group: Process Group Ranks (or Group
			     * size), else those with parts */
	uint32_t nloaded;   /* selected ranks with parts in it */
	uint32_t ncolls;    /* matched collectives */
	uint32_t nparts;
	uint32_t nunmatched; /* parts in no collective */
	uint32_t nflagged;   /* collectives flagged MISMATCH or MISSING */
};

struct tt_coll_clock {
	size_t ri;
	int64_t rank;
	char host[64];      /* "" unknown */
	int64_t offset;     /* ns: the rank's clock minus the job's (applied) */
	int64_t estimate;   /* the median end difference found, ns */
	int64_t spread;     /* median absolute deviation of those differences */
	uint32_t evidence;  /* collectives behind the estimate */
	bool reference;     /* on the reference host */
	bool applied;       /* offset = estimate */
	const char *why;    /* "reference", "applied", "too few collectives",
			     * "below the jitter floor", "within its
			     * uncertainty", "no collective shared with placed
			     * ranks"; ranks of one host share its clock */
};

/* per rank: how late it came, what it cost the others */
struct tt_coll_rank {
	size_t ri;
	int64_t rank;
	uint32_t nparts;    /* its parts */
	uint32_t nmatched;  /* of them in unflagged collectives */
	uint32_t nlast;     /* collectives it arrived last in (with 2+ parts) */
	int64_t caused;     /* the others' waits in those collectives, summed */
	int64_t wait;       /* its own waits, summed */
	int64_t transfer;   /* its own transfers, summed */
};

enum tt_coll_issue_kind {
	TT_CI_ORDER = 0, /* members name different operations at one position */
	TT_CI_SIZE,      /* ... or different message sizes */
	TT_CI_COUNT,     /* ranks make different numbers of collectives in one
			  * step of a group */
	TT_CI_P2P,       /* point-to-point parts whose peer the trace does not name */
};

struct tt_coll_issue {
	enum tt_coll_issue_kind kind;
	uint32_t group;
	uint32_t coll;      /* the collective, TT_NONE for P2P */
	int64_t rank;       /* the rank that differs (or is missing) */
	int64_t other;      /* the rank it was compared with, -1 */
	uint32_t count;     /* times met (collectives, steps or parts) */
	char text[200];     /* one sentence */
};

struct tt_coll {
	struct tt_coll_part *parts; /* by rank index, then start */
	size_t nparts;
	size_t *rank_first;         /* [nranks of the model + 1]: parts of rank index
				     * ri are parts[rank_first[ri] .. rank_first[ri+1]) */
	struct tt_coll_op *colls;   /* by first arrival (job's clock), then group, seq */
	size_t ncolls;
	uint32_t *members;          /* part indices, grouped by collective */
	struct tt_coll_group *groups;
	size_t ngroups;
	struct tt_coll_clock *clocks; /* the selected ranks, model order */
	size_t nclocks;
	struct tt_coll_rank *ranks; /* the selected ranks, model order (as clocks) */
	struct tt_coll_issue *issues; /* one per group, kind and rank, with a count;
				       * at most 256 */
	size_t nissues;
	uint64_t nissues_more;      /* issues left out past those */
	size_t nranks;              /* selected ranks */
	uint64_t nkernels;          /* communication kernels seen */
	uint32_t nmatched_parts;    /* parts in an unflagged collective */
	uint32_t nflagged;          /* collectives flagged */
	uint32_t np2p_unpaired;
	int64_t max_offset;         /* largest |offset| applied, 0 none */
	uint32_t noffsets;          /* ranks with an offset applied */
	/* kernel -> part: per rank, kernel event indices sorted (kev) and
	 * their part (kpart), ranges as rank_first's */
	uint32_t *kev, *kpart;
	size_t *kfirst;
	struct tt_strtab names;
};

/* Match the collectives of the ranks o selects (o->exact does not matter:
 * exact times always).  Free with tt_coll_free. */
void tt_coll_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_coll *out);
void tt_coll_free(struct tt_coll *c);

/* The part a communication kernel (rank index ri, event index ev) belongs
 * to, or TT_NONE.  O(log n). */
uint32_t tt_coll_part_of(const struct tt_coll *c, size_t ri, uint32_t ev);
/* The clock of rank index ri, or NULL when it was not selected. */
const struct tt_coll_clock *tt_coll_clock_of(const struct tt_coll *c, size_t ri);
/* "all_reduce #12 of pg 0" for collective k into buf. */
void tt_coll_label(const struct tt_coll *c, uint32_t k, char *buf, size_t n);

#endif
