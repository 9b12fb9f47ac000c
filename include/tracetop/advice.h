/* analysis: findings over every view, most important first (the report
 * `advice` and its pane format them).
 *
 * Each finding is typed: its kind says which rule fired, and its fields
 * hold the numbers behind it; the text is the report's.  Pure: runs the
 * analyses it needs over the ranks o selects. */
#ifndef TRACETOP_ADVICE_H
#define TRACETOP_ADVICE_H

#include "tracetop/analysis.h"

enum tt_sev { TT_SEV_HIGH, TT_SEV_MEDIUM, TT_SEV_INFO };

enum tt_finding_kind {
	TT_FIND_IDLE,          /* GPU idle on a rank: x[0] idle %, n[0] ranks idle >= 20 %,
				* n[1] ranks with GPU, n[2] top idle category (enum
				* tt_idle_cat, -1 unknown), x[1] its share of idle % */
	TT_FIND_EXPOSED_COMM,  /* x[0] mean exposed %, x[1] min, x[2] max over n[0] ranks,
				* x[3] communication share of the GPU span % */
	TT_FIND_LOW_OCC,       /* x[0] share of computation kernel time with occupancy
				* < 15 %, n[0] such kernels, name: the longest of them */
	TT_FIND_LOW_SM,        /* x[0] time-weighted SM efficiency % of computation kernels */
	TT_FIND_SHORT_KERNELS, /* x[0] % of kernels shorter than their launch, n[0] of n[1] */
	TT_FIND_STRAGGLER,     /* name: the metric, detail: the reason */
	TT_FIND_SYNC,          /* x[0] sync % of collective time, n[0] sync ns */
	TT_FIND_SLOW_STEP,     /* n[0] step, x[0] its ns, x[1] the median step ns */
	TT_FIND_HOT_OP,        /* name: the op, x[0] its share of host self %, n[0] calls,
				* n[1] 1 when it is a host-GPU synchronisation */
	TT_FIND_MEM_PEAK,      /* n[0] peak bytes, n[1] device, x[0] % of the device */
	/* the TensorBoard plugin's recommendations, with its thresholds */
	TT_FIND_LOW_GPU_UTIL,  /* GPU Utilization < 50 %: n[0] such devices of n[1];
				* detail: "rank R GPU G x %" for the lowest ones */
	TT_FIND_DATALOADER,    /* DataLoader > 5 % of the step time: x[0] %, rank */
	TT_FIND_COMM_SHARE,    /* Communication > 10 % of the step time: x[0] %, rank */
	TT_FIND_DATA_PARALLEL, /* DataParallel with n[0] > 1 GPUs */
	TT_FIND_DDP_NO_NCCL,   /* DistributedDataParallel without NCCL, compute
				* capability >= 3.5 */
	TT_FIND_AMP,           /* compute capability >= 7 (n[0]), no tensor-core kernel,
				* x[0] % of kernel time in tensor-core eligible ops */
	TT_FIND_NO_STACKS,     /* no Python stacks (info) */
	TT_FIND_NO_MEMORY,     /* no [memory] events (info) */
	TT_FIND_NKINDS
};

struct tt_finding {
	enum tt_finding_kind kind;
	enum tt_sev sev;
	double value;       /* the number the finding turns on (for sorting) */
	const char *pane;   /* pane name: "idle", "utilization", ... */
	const char *where;  /* "Idle (3)" */
	int64_t rank;       /* -1: all ranks */
	double x[4];
	int64_t n[3];
	char name[128];     /* kernel, op or metric name ("" when none) */
	char detail[200];
};

struct tt_advice_opts {
	double kernel_delay_us;        /* HTA consecutive_kernel_delay */
	double runtime_cutoff_us;      /* launch stats */
	double launch_delay_cutoff_us;
};

struct tt_advice {
	struct tt_finding *v; /* severity, then value descending, then kind, rank */
	size_t n;
};

/* "gpu_utilization", "dataloader", ...: a finding kind's topic, for
 * scripts (the report's `topic` column). */
const char *tt_finding_topic(enum tt_finding_kind k);

/* The results the rules read, each its analysis's over the ranks o selects
 * (the utilisation with any number of buckets, the operators by name; the
 * options of tt_advice_opts where they apply). */
struct tt_temporal_row;
struct tt_overlap_row;
struct tt_util;
struct tt_launch;
struct tt_dist;
struct tt_steps;
struct tt_ops;
struct tt_src;
struct tt_mem;
struct tt_overview;
struct tt_idle;
struct tt_advice_in {
	const struct tt_temporal_row *temporal;
	size_t ntemporal;
	const struct tt_overlap_row *overlap;
	size_t noverlap;
	const struct tt_util *util;
	const struct tt_launch *launch;
	const struct tt_dist *dist;
	const struct tt_steps *steps;
	const struct tt_ops *ops;
	const struct tt_src *src;
	const struct tt_mem *mem;
	const struct tt_overview *overview;
	/* the idle breakdown, asked for only when a rank's GPU idles >= 20 % */
	const struct tt_idle *(*idle)(void *ctx);
	void *idle_ctx;
};

/* tt_advice_compute over results already computed (results.c shares them
 * with the other views). */
void tt_advice_from(const struct tt_model *m, const struct tt_aopts *o,
		    const struct tt_advice_in *in, struct tt_advice *out);
void tt_advice_free(struct tt_advice *a);

/* The thresholds the rules use, as one sentence for "nothing found". */
extern const char tt_advice_thresholds[];

/* How to record what a view needs when the trace lacks it. */
extern const char tt_hint_memory[]; /* profile_memory=True */
extern const char tt_hint_stacks[]; /* with_stack=True */

#endif
