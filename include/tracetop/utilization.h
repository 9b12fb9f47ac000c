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

/* ---- GPU utilisation ---- */

#define TT_UTIL_BUCKETS 60

/* the plugin's low GPU Utilization: a device under it is advised on and
 * marked in the Utilisation pane */
#define TT_UTIL_LOW_PCT 50.0
/* a kernel's low est. achieved occupancy: advised on (by kernel time) and
 * marked in the Kernels pane */
#define TT_OCC_LOW_PCT 15.0

struct tt_util_dev {
	size_t ri;
	int64_t rank;
	int64_t device;          /* GPU (track device), -1 when unknown */
	uint32_t nstreams;
	uint32_t nkernels, nmem; /* kernels; memcpy + memset */
	/* ---- the plugin's GPU summary (gpu_metrics_parser.py) over the
	 * rank's steps window [win_t0, win_t1) (steps.h); NaN without one ---- */
	int64_t win_t0, win_t1;
	/* GPU Utilization: 100 |union of kernels ∩ window| / window */
	double gpu_util_pct;
	/* Est. SM Efficiency: 100 ∫ min(Σ blocks per SM of the kernels
	 * running, 1) dt over the window / window (never above utilization);
	 * blocks per SM from the kernels' `blocks per SM` arg (> 0): NaN when
	 * no kernel has it (ROCm traces), as the plugin shows none */
	double est_sm_eff_pct;
	/* tracetop's estimate of the same where the arg is absent: blocks per
	 * SM = grid blocks / the device's SMs; NaN when neither is known */
	double est_sm_eff_grid_pct;
	/* Est. Achieved Occupancy: kernel-time-weighted mean of `est. achieved
	 * occupancy %`, kernels clipped to the window, those with the arg */
	double est_occ_pct;
	/* tensor cores: 100 time of tensor-core kernels / time of the kernels
	 * the device's operators launched; 0 when they launched none there but
	 * did on another device; NaN when the rank's operators launched none */
	double tc_pct;
	int64_t tc_ns, op_kernel_ns;
	uint32_t nkernels_bps, nkernels_occ; /* kernels with `blocks per SM`, occupancy */
	/* ---- tracetop's own measures ---- */
	int64_t t0, t1;          /* first start and last end of its GPU ops */
	int64_t busy_ns;         /* |union of kernels, memcpy and memset| over its streams */
	int64_t kernel_busy_ns;  /* |union of kernels| */
	int64_t kernel_sum_ns;   /* sum of kernel durations */
	double busy_span_pct;    /* busy % of GPU span: 100 busy / (t1 - t0) */
	int64_t num_sms;         /* from deviceProperties, 0 when unknown */
	/* SM eff. per kernel time: 100 * Σ dur·eff / Σ dur over the kernels
	 * whose efficiency is known (tt_tb_sm_efficiency); NaN when none is */
	double sm_eff_ktime_pct;
	int64_t sm_eff_ns;       /* Σ dur of those kernels */
	bool sm_from_args;       /* some efficiency came from `blocks per SM` */
	/* occupancy per kernel time: Σ dur·occ / Σ dur over the kernels with
	 * `est. achieved occupancy %` (no clipping) */
	double occ_ktime_pct;
	int64_t occ_ns;
	float *series;           /* nbuckets busy fractions (0..1) over [t0, t1) */
};

struct tt_util_kernel {
	const char *name;
	uint32_t nranks;         /* ranks where it ran */
	bool tc;                 /* a tensor-core kernel (the plugin's name list) */
	uint64_t count;
	int64_t sum_ns, max_ns, min_ns;
	double time_pct;         /* 100 sum_ns / the sum over every kernel listed */
	/* the plugin's kernel view: duration-weighted means, a kernel without
	 * the arg counting as 0; NaN (the plugin shows no column) when no
	 * kernel of the ranks where it ran has the arg */
	double mean_bps;         /* blocks per SM */
	double mean_occ_pct;     /* est. achieved occupancy % */
	bool has_bps, has_occ;
	double sm_eff_ktime_pct; /* time-weighted as for devices; NaN unknown */
	double occ_ktime_pct;    /* over the kernels with the arg; NaN unknown */
	int64_t blocks;          /* grid x*y*z of the longest instance, -1 unknown */
	int32_t threads;         /* block x*y*z of the longest instance, -1 unknown */
	int32_t regs;            /* registers per thread of the longest instance */
	size_t ri;               /* the longest instance */
	uint32_t longest;
};

/* The plugin's kernel view grouped by kernel and operator: the cpu_op or
 * step whose runtime call launched it (op tree, optree.h); "(no op)", the
 * plugin's CallTreeRoot, for a call outside every node on a thread with
 * nodes and, on a rank with steps, for a kernel no runtime call launched;
 * kernels the plugin leaves out (a call on a thread without nodes, no call
 * on a rank without steps) are not listed.  grid and block zero: the
 * kernel has no such arg. */
struct tt_util_kop {
	const char *name, *op;
	int32_t grid[3], block[3], regs, shmem;
	uint64_t count;
	int64_t sum_ns, max_ns, min_ns;
	double mean_bps, mean_occ_pct;  /* as in tt_util_kernel */
	bool has_bps, has_occ;
	size_t ri;               /* the longest instance */
	uint32_t longest;
};

/* Per rank: the plugin's tensor-core figures. */
struct tt_util_rank {
	size_t ri;
	int64_t rank;
	/* tensor-core kernels' share of the rank's kernel time (the kernel
	 * view's pie); NaN without kernels */
	double tc_kernel_pct;
	/* the kernel time of the bottom tensor-core eligible operators (no
	 * eligible op below them), of all operators' own kernel time: the
	 * plugin's AMP advice turns on it; NaN without operator kernels */
	double tc_eligible_pct;
	int64_t compute_major;   /* deviceProperties[0].computeMajor, -1 unknown */
};

struct tt_util {
	int nbuckets;
	struct tt_util_rank *ranks; /* selected ranks, model order */
	size_t nranks;
	struct tt_util_dev *devs;  /* by rank index, then device */
	size_t ndevs;
	struct tt_util_kernel *kernels; /* sum descending, then name */
	size_t nkernels;
	struct tt_util_kop *kops;  /* sum descending, then name, op */
	size_t nkops;
	uint32_t nranks_sel;       /* ranks analysed */
	uint32_t nranks_nogpu;     /* of them without GPU ops */
	struct tt_strtab names;    /* kernel and op names, keys */
};

/* Compute for every rank o selects; nbuckets (>= 1, else TT_UTIL_BUCKETS)
 * time buckets per device.  Never fails.  Free with tt_util_free. */
void tt_util_compute(const struct tt_model *m, const struct tt_aopts *o, int nbuckets,
		     struct tt_util *out);
void tt_util_free(struct tt_util *u);

#endif
