/* analysis: the TensorBoard plugin's Overview: the step-time breakdown
 * (overall_parser.py) and the computation / communication overlap per step
 * its distributed view draws.
 *
 * Per kept step (steps.h), every instant of the step's window is charged to
 * exactly one category, by priority: Kernel > Memcpy > Memset >
 * Communication > Runtime > DataLoader > CPU Exec > Other, so the columns
 * sum to the step's duration.  Communication: the CPU spans of the
 * plugin's collective ops (nccl:/gloo: broadcast, reduce, all_reduce,
 * all_gather, reduce_scatter) and the communication kernels.  A kernel is a
 * communication kernel when its launch lies inside such an op (the plugin
 * links it by External id, which newer traces break) or when its name says
 * so (tt_kernel_type: NCCL/RCCL kernels); the result counts both.  Events
 * of every thread and stream of the rank count, with exact ns times.
 *
 * Pure; results owned by the caller (tt_overview_free). */
#ifndef TRACETOP_OVERVIEW_H
#define TRACETOP_OVERVIEW_H

#include "tracetop/analysis.h"

enum tt_ov_cat {
	TT_OV_KERNEL,
	TT_OV_MEMCPY,
	TT_OV_MEMSET,
	TT_OV_COMM,
	TT_OV_RUNTIME,
	TT_OV_DATALOADER,
	TT_OV_CPU_EXEC,
	TT_OV_OTHER,
	TT_OV_NCAT
};

/* "Kernel", "Memcpy", ... "CPU Exec", "Other": the plugin's labels */
const char *tt_ov_cat_name(enum tt_ov_cat c);

struct tt_ov_step {
	size_t ri;
	int64_t rank;
	int64_t num;         /* ProfilerStep#N; 0 for the pseudo-step */
	bool pseudo;
	int64_t t0, t1;      /* the window */
	int64_t cpu_ts, cpu_dur;
	int64_t cost[TT_OV_NCAT]; /* ns; they sum to t1 - t0 */
	double pct[TT_OV_NCAT];   /* 100 cost / (t1 - t0); NaN for an empty window */
	/* the distributed view's overlap (computation: kernels that are not
	 * communication, or the CPU ops on a rank without kernels) */
	int64_t comp_ns, overlap_ns, comm_ns, other_ns; /* comp and comm exclude the overlap */
};

struct tt_ov_rank {
	size_t ri;
	int64_t rank;
	size_t first, nsteps;  /* tt_overview.steps[first .. first+nsteps) (kept steps) */
	size_t ndropped;       /* tail steps dropped */
	bool pseudo;           /* no ProfilerStep: one step over the CPU ops */
	int64_t t0, t1;        /* steps window */
	double avg[TT_OV_NCAT]; /* mean per step, ns */
	double avg_total;
	double avg_pct[TT_OV_NCAT]; /* 100 avg / avg_total; NaN when that is 0 */
	/* the distributed view's mean over steps, truncated as the plugin does */
	int64_t comp_ns, overlap_ns, comm_ns, other_ns;
	bool has_kernel, has_runtime, has_memcpy_memset, has_comm;
	bool nccl, gloo;       /* collective ops of the plugin's names seen */
	bool use_dp, use_ddp;  /* DataParallel.forward / DistributedDataParallel.forward */
	uint32_t ncomm_ops;    /* collective ops of the plugin's names */
	uint32_t comm_kernels_linked;  /* launched inside a collective op */
	uint32_t comm_kernels_by_name; /* recognised by name only */
};

struct tt_overview {
	struct tt_ov_step *steps;
	size_t nsteps;
	struct tt_ov_rank *ranks; /* selected ranks with steps, model order */
	size_t nranks;
	uint32_t nranks_sel;
};

void tt_overview_compute(const struct tt_model *m, const struct tt_aopts *o,
			 struct tt_overview *out);
void tt_overview_free(struct tt_overview *v);

#endif
