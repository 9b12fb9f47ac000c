/* analysis: [memory] instants: curves, peaks, allocations alive at the peak.
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads. */
#ifndef TRACETOP_MEMORY_H
#define TRACETOP_MEMORY_H

#include "tracetop/analysis.h"

/* ---- memory ---- */

struct tt_mem_point {
	int64_t ts;
	int64_t alloc, reserved; /* totals after the event; reserved -1 unknown */
};

/* the plugin's "memory near the device's limit": peak_pct at or above */
#define TT_MEM_NEAR_LIMIT_PCT 90.0

struct tt_mem_dev {
	size_t ri;
	int64_t rank;
	int64_t device;      /* Device Id: -1 for the CPU */
	uint32_t nevents, nallocs, nfrees;
	/* events with `Total Allocated` and with `Addr`: without the first the
	 * curve is a running sum of Bytes from the trace's start (what was
	 * allocated before is unknown); without the second allocations cannot
	 * be paired with their frees (what is alive at the peak is unknown) */
	uint32_t nwith_total, nwith_addr;
	uint32_t unmatched_frees; /* frees of memory allocated before the trace */
	struct tt_mem_point *pts; /* by time */
	size_t npts;
	int64_t peak_alloc, peak_ts;
	int64_t peak_reserved, peak_reserved_ts; /* -1 unknown */
	int64_t total_mem;   /* deviceProperties totalGlobalMem, 0 unknown */
	/* 100 max(peak_alloc, peak_reserved) / total_mem: the device's share
	 * at the peak (the plugin's advice above 90); NaN when unknown */
	double peak_pct;
	size_t first_live, nlive; /* tt_mem.live[first_live ..) */
	int64_t live_bytes;  /* sum of those; peak_alloc - live_bytes was
			      * allocated before the trace started */
};

struct tt_mem_live {
	size_t dev;          /* index into tt_mem.devs */
	size_t ri;
	uint32_t ev;         /* the allocation's [memory] event */
	int64_t ts, bytes, addr;
	uint32_t op;         /* innermost CPU op around it on its thread, TT_NONE */
};

/* The plugin's memory statistics per operator (memory_parser.py): the
 * [memory] events lying in a plain cpu_op (innermost node of the op tree
 * around the event on its thread; events in another node are left out),
 * self, and with those of every op below it. */
struct tt_mem_op {
	size_t ri;
	int64_t rank;
	int64_t device;      /* -1: the CPU */
	const char *name;
	uint64_t calls;      /* calls of the op (all, with memory events or not) */
	int64_t self_increase, self_alloc_bytes; /* Σ Bytes; Σ Bytes > 0 */
	uint64_t self_allocs;
	int64_t increase, alloc_bytes;
	uint64_t allocs;
};

struct tt_mem {
	struct tt_mem_dev *devs; /* by rank index, device */
	size_t ndevs;
	struct tt_mem_live *live; /* per device, bytes descending */
	size_t nlive;
	struct tt_mem_op *ops;    /* by rank, device, allocated bytes desc, name */
	size_t nops;
	uint32_t nranks_sel;
};

/* [memory] instants (Bytes > 0: an allocation, < 0: a free) per rank and
 * Device Id.  The curve is Total Allocated / Total Reserved after each
 * event (a running sum of Bytes when Total Allocated is absent); the peak
 * is its first maximum; allocations alive there are the allocations before
 * or at the peak whose address was not freed since (a free matches the
 * latest allocation of its address).  Free with tt_mem_free. */
void tt_mem_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_mem *out);
void tt_mem_free(struct tt_mem *mm);
/* The largest value (alloc, or reserved when `reserved`) of the curve over
 * [a, b): the value in force at a, and every point inside.  -1 before the
 * first point. */
int64_t tt_mem_max(const struct tt_mem_dev *d, int64_t a, int64_t b, bool reserved);

#endif
