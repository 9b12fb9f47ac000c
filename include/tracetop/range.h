/* analysis: what ran in a time range -- the terminal version of an area
 * selection in a trace viewer.
 *
 * Over the ranks o selects and the range [t0, t1) (ns, absolute), with every
 * work event at its exact ns times (markers left out; the timeline's view,
 * not HTA's: no iteration filter, no µs rounding).  An event counts when it
 * overlaps the range (one of zero length: when it starts in it); its time
 * is the part inside the range.  Per rank: GPU busy time (the union of its
 * streams' events) and kernel time; per GPU stream: busy time and %, the
 * idle gaps (the range's time no event of the stream covers, the ends of the
 * range included); per name and kind (kernel, memcpy, memset, CPU op,
 * runtime call): count and time, summed over the ranks (nested CPU ops each
 * count their own inclusive time).  Pure; results owned by the caller (free
 * with tt_range_free); names point into the model. */
#ifndef TRACETOP_RANGE_H
#define TRACETOP_RANGE_H

#include "tracetop/analysis.h"

enum tt_range_kind {
	TT_RK_KERNEL,
	TT_RK_MEMCPY,
	TT_RK_MEMSET,
	TT_RK_CPU_OP,
	TT_RK_RUNTIME,
	TT_RK_COUNT
};
/* "kernel", "memcpy", "memset", "cpu_op", "runtime" */
const char *tt_range_kind_name(enum tt_range_kind k);
/* The kind event e counts as (enum tt_range_kind), or -1 when it does not
 * count (markers, annotations, instants of other categories). */
int tt_range_event_kind(const struct tt_rank *r, const struct tt_event *e);

struct tt_range_rank {
	size_t ri;
	int64_t rank;
	uint32_t streams;        /* GPU streams with events in the range */
	uint32_t kernels;        /* kernels overlapping the range */
	int64_t kernel_ns;       /* their time inside the range */
	int64_t comm_ns;         /* of which communication kernels (by name, metrics.md §1) */
	int64_t memcpy_ns, memset_ns;
	int64_t gpu_busy_ns;     /* union of the GPU events of all its streams */
	uint32_t cpu_ops;        /* CPU ops overlapping the range */
	double kernel_pct;       /* 100 kernel_ns / the range; NaN for an empty range */
	double gpu_busy_pct;     /* 100 gpu_busy_ns / the range; NaN likewise */
};

struct tt_range_stream {
	size_t ri;
	int64_t rank;
	uint32_t track;          /* index into the rank's tracks */
	int64_t device, stream;
	uint32_t events;         /* GPU events overlapping the range */
	int64_t kernel_ns;       /* kernel time inside the range */
	int64_t busy_ns;         /* union of its events inside the range */
	double busy_pct;         /* 100 busy_ns / the range */
	uint32_t gaps;           /* idle gaps */
	int64_t max_gap_ns;
	int64_t max_gap_t0;      /* start of the largest gap (ns, absolute) */
};

struct tt_range_name {
	const char *name;
	enum tt_range_kind kind;
	uint32_t count;
	int64_t ns;              /* time inside the range, summed */
	uint32_t nranks;         /* ranks it ran on */
	double range_pct;        /* 100 ns / (the range x nranks): of the range on
				  * each rank it ran on */
};

struct tt_range_gap {
	size_t ri;
	int64_t rank;
	uint32_t track;
	int64_t t0, t1;          /* ns, absolute */
};

struct tt_range {
	int64_t t0, t1;          /* the range, ns, absolute */
	int64_t origin;          /* tt_model_origin: times are shown from it */
	struct tt_range_rank *ranks; /* model order */
	size_t nranks;
	struct tt_range_stream *streams; /* by rank, then the model's track order */
	size_t nstreams;
	struct tt_range_name *names; /* by time, largest first (ties: kind, name) */
	size_t nnames;
	struct tt_range_gap *gaps;   /* every idle gap of every stream, longest first
				      * (ties: rank, track, start) */
	size_t ngaps;
};

/* What ran in [t0, t1) on the ranks o selects, each rank on one of
 * o->threads threads (o->exact is not used).  An empty range (t1 <= t0)
 * gives zeros.  Never fails. */
void tt_range_compute(const struct tt_model *m, const struct tt_aopts *o, int64_t t0, int64_t t1,
		      struct tt_range *out);
void tt_range_free(struct tt_range *r);

#endif
