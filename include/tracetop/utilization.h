/* analysis: GPU utilisation, estimated SM efficiency and achieved occupancy
 * per device and per kernel, over time (the TensorBoard plugin's GPU summary
 * and kernel view).
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads.
 * "GPU ops" are the kernel, gpu_memcpy and gpu_memset events of GPU stream
 * tracks. */
#ifndef TRACETOP_UTILIZATION_H
#define TRACETOP_UTILIZATION_H

#include "tracetop/analysis.h"

/* SM count of GPU `device` of rank r from its deviceProperties: the entry
 * with that id, else the count every entry agrees on; 0 when unknown. */
int64_t tt_tb_num_sms(const struct tt_rank *r, int64_t device);

/* Estimated SM efficiency of one kernel, 0..1: min(blocks / SMs, 1) with
 * blocks = grid x * y * z; without an SM count, min(`blocks per SM`, 1) as
 * the trace gives it; NaN when neither is known. */
double tt_tb_sm_efficiency(const struct tt_kinfo *k, int64_t num_sms);

/* ---- GPU utilisation ---- */

#define TT_UTIL_BUCKETS 60

struct tt_util_dev {
	size_t ri;
	int64_t rank;
	int64_t device;          /* GPU (track device), -1 when unknown */
	uint32_t nstreams;
	uint32_t nkernels, nmem; /* kernels; memcpy + memset */
	int64_t t0, t1;          /* first start and last end of its GPU ops */
	int64_t busy_ns;         /* |union of kernels, memcpy and memset| over its streams */
	int64_t kernel_busy_ns;  /* |union of kernels| */
	int64_t kernel_sum_ns;   /* sum of kernel durations */
	double util_pct;         /* 100 busy / (t1 - t0); NaN for an empty span */
	int64_t num_sms;         /* from deviceProperties, 0 when unknown */
	/* 100 * Σ dur·eff / Σ dur over the kernels whose efficiency is known
	 * (tt_tb_sm_efficiency); NaN when none is */
	double sm_eff_pct;
	int64_t sm_eff_ns;       /* Σ dur of those kernels */
	bool sm_from_args;       /* some efficiency came from `blocks per SM` */
	/* Σ dur·occ / Σ dur over the kernels with `est. achieved occupancy %` */
	double occ_pct;
	int64_t occ_ns;
	float *series;           /* nbuckets busy fractions (0..1) over [t0, t1) */
};

struct tt_util_kernel {
	const char *name;
	uint32_t nranks;         /* ranks where it ran */
	uint64_t count;
	int64_t sum_ns, max_ns;
	double sm_eff_pct;       /* time-weighted as for devices; NaN unknown */
	double occ_pct;          /* time-weighted; NaN unknown */
	int64_t blocks;          /* grid x*y*z of the longest instance, -1 unknown */
	int32_t threads;         /* block x*y*z of the longest instance, -1 unknown */
	int32_t regs;            /* registers per thread of the longest instance */
	size_t ri;               /* the longest instance */
	uint32_t longest;
};

struct tt_util {
	int nbuckets;
	struct tt_util_dev *devs;  /* by rank index, then device */
	size_t ndevs;
	struct tt_util_kernel *kernels; /* sum descending, then name */
	size_t nkernels;
	uint32_t nranks_sel;       /* ranks analysed */
	uint32_t nranks_nogpu;     /* of them without GPU ops */
	struct tt_strtab names;    /* kernel names across ranks */
};

/* Compute for every rank o selects; nbuckets (>= 1, else TT_UTIL_BUCKETS)
 * time buckets per device.  Never fails.  Free with tt_util_free. */
void tt_util_compute(const struct tt_model *m, const struct tt_aopts *o, int nbuckets,
		     struct tt_util *out);
void tt_util_free(struct tt_util *u);

#endif
