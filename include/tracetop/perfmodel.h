/* analysis: is each op fast?  A performance model per op: FLOPs and bytes
 * from the shapes and dtypes the profiler records (record_shapes=True:
 * "Input Dims", "Input type", "Input Strides", "Concrete Inputs"), the GPU
 * time of the kernels each op launched, hence achieved TFLOP/s and TB/s,
 * arithmetic intensity and, against a GPU's peaks, the roofline: the bound
 * (compute or memory) and how far from it the op runs.
 *
 * The definitions are AMD TraceLens' (../shared/reference-tracelens/README.md
 * states them): its op categories, kernel launchers, formulas and table
 * columns, so its notebooks read tracetop's CSV.  Where TraceLens is wrong
 * tracetop is right and says so where the number is made (pmcalc.c).  The
 * one deliberate difference in scope: TraceLens ties kernels to their
 * launch through `ac2g` flow events only and drops the others silently;
 * tracetop ties them by correlation id (every pair the trace records) and
 * counts and names the GPU work no launch owns.
 *
 * Three layers, each usable alone:
 *   - tt_pm_calc: one op's FLOPs and bytes from its recorded args (text);
 *   - the peak table (peaks.c): a GPU's peaks per compute class, chosen from
 *     the trace's deviceProperties name, overridable by a user file;
 *   - tt_perf_compute: the analysis over a model (the typed result
 *     TT_RES_PERF of results.h), which the report and the explorer read.
 * Pure functions; libc only. */
#ifndef TRACETOP_PERFMODEL_H
#define TRACETOP_PERFMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/analysis.h"
#include "tracetop/err.h"
#include "tracetop/strtab.h"

/* ---- names ---- */

/* Op categories, TraceLens' names: of a perf model, by name, else triton,
 * record_param_comms, else from the first kernel's name, else other. */
#define TT_PM_CATS(_)                                     \
	_(GEMM, "GEMM")                                   \
	_(CONV_FWD, "CONV_fwd")                           \
	_(CONV_BWD, "CONV_bwd")                           \
	_(SDPA_FWD, "SDPA_fwd")                           \
	_(SDPA_BWD, "SDPA_bwd")                           \
	_(NORM_FWD, "NORM_fwd")                           \
	_(NORM_BWD, "NORM_bwd")                           \
	_(ELEMENTWISE, "elementwise")                     \
	_(REDUCE, "reduce")                               \
	_(TRITON, "triton")                               \
	_(COMMS, "record_param_comms")                    \
	_(MTA, "multi_tensor_apply")                      \
	_(OTHER, "other")
enum tt_pm_cat {
#define _(id, s) TT_PMC_##id,
	TT_PM_CATS(_)
#undef _
	TT_PMC_COUNT
};
const char *tt_pm_cat_name(int cat);

/* The model families and the tables (TraceLens' sheet names) they fill.
 * GEMM, norms and elementwise ops have one table each; convolution,
 * attention and reductions one per direction. */
enum tt_pm_family { TT_PMF_GEMM, TT_PMF_CONV, TT_PMF_SDPA, TT_PMF_NORM, TT_PMF_UNARY,
		    TT_PMF_BINARY, TT_PMF_REDUCE, TT_PMF_COUNT };
#define TT_PM_SHEETS(_)                          \
	_(GEMM, "GEMM")                          \
	_(CONV_FWD, "CONV_fwd")                  \
	_(CONV_BWD, "CONV_bwd")                  \
	_(SDPA_FWD, "SDPA_fwd")                  \
	_(SDPA_BWD, "SDPA_bwd")                  \
	_(NORM, "Normalization")                 \
	_(UNARY, "UnaryElementwise")             \
	_(BINARY, "BinaryElementwise")           \
	_(REDUCE_FWD, "Reduce_fwd")              \
	_(REDUCE_BWD, "Reduce_bwd")
enum tt_pm_sheet {
#define _(id, s) TT_PMS_##id,
	TT_PM_SHEETS(_)
#undef _
	TT_PMS_COUNT
};
const char *tt_pm_sheet_name(int sheet);
/* The parameter names of a family's rows, in TraceLens' order ("M", "N",
 * ...): *n of them. */
const char *const *tt_pm_param_keys(enum tt_pm_family f, size_t *n);

/* Compute classes (TraceLens' "Compute Spec"): matrix units (GEMM,
 * convolution, attention) or vector units (the rest) at a precision. */
#define TT_PM_SPECS(_)                          \
	_(MATRIX_FP64, "matrix_fp64")           \
	_(MATRIX_FP32, "matrix_fp32")           \
	_(MATRIX_TF32, "matrix_tf32")           \
	_(MATRIX_FP16, "matrix_fp16")           \
	_(MATRIX_BF16, "matrix_bf16")           \
	_(MATRIX_FP8, "matrix_fp8")             \
	_(MATRIX_INT8, "matrix_int8")           \
	_(VECTOR_FP64, "vector_fp64")           \
	_(VECTOR_FP32, "vector_fp32")           \
	_(VECTOR_FP16, "vector_fp16")           \
	_(VECTOR_BF16, "vector_bf16")
enum tt_pm_spec {
#define _(id, s) TT_PMSPEC_##id,
	TT_PM_SPECS(_)
#undef _
	TT_PM_NSPEC
};
#define TT_PMSPEC_NONE (-1)
/* "matrix_bf16"; "" for TT_PMSPEC_NONE */
const char *tt_pm_spec_name(int spec);
/* The spec named s, or TT_PMSPEC_NONE. */
int tt_pm_spec_of(const char *s);

/* ---- one op's model ---- */

/* An op's recorded args as the trace has them (compact JSON text), NULL
 * when absent. */
struct tt_pm_args {
	const char *name;
	const char *dims;     /* Input Dims:   [[64,4096],[4096,2798]] */
	const char *types;    /* Input type:   ["float","float"] */
	const char *strides;  /* Input Strides */
	const char *concrete; /* Concrete Inputs: ["","","[1, 1]","False"] */
};

#define TT_PM_PARAMS 384

struct tt_pm_calc {
	uint8_t family;       /* enum tt_pm_family */
	uint8_t sheet;        /* the op's own table (enum tt_pm_sheet) */
	uint8_t cat;          /* its category (enum tt_pm_cat) */
	int8_t spec;          /* its compute class, or TT_PMSPEC_NONE */
	bool composite;       /* aten::linear, aten::matmul, aten::conv2d, ...:
			       * TraceLens models the op they call; tracetop
			       * models them only when nothing inside them is */
	bool tf32_able;       /* fp32 matrix work: TF32 when its kernels are */
	double flops;
	double bytes;         /* < 0: unknown (a dtype without a size) */
	/* the backward of a forward op, timed on the backward ops the
	 * autograd engine ran for it (attention, reductions) */
	bool has_bwd;
	uint8_t bwd_sheet;
	double flops_bwd, bytes_bwd;
	/* TraceLens' parameters of the row, its repr() of each value, in the
	 * order of tt_pm_param_keys(family), separated by '\x1f' */
	char params[TT_PM_PARAMS];
	char why[256];        /* not modelled: why (no Input Dims, ...) */
};

/* Does op `name` have a perf model (and its category)?  Cheap: a name
 * lookup.  *cat gets the category by name (TT_PMC_OTHER when the name
 * decides nothing). */
bool tt_pm_has_model(const char *name);
int tt_pm_cat_by_name(const char *name);

/* The model of one op: 0 with *c filled, or -1 with c->why set (no model
 * for the name, or its args do not give the shapes: no record_shapes, no
 * Concrete Inputs for a convolution's stride, ...). */
int tt_pm_calc(const struct tt_pm_args *a, struct tt_pm_calc *c);

/* ---- GPU peaks ---- */

struct tt_gpu_peak {
	const char *name;       /* "H100 SXM" */
	const char *match;      /* deviceProperties name tests: '&'-joined
				 * case-insensitive substrings, '|' between
				 * alternatives ("A100&PCIE") */
	double min_mem_gib;     /* and at least this much device memory (0: any) */
	double mem_gbps;        /* memory bandwidth, GB/s (10^9 B/s) */
	double tflops[TT_PM_NSPEC]; /* dense peak per class, TFLOP/s; 0: none */
	const char *source;     /* the vendor's spec sheet */
};

/* The peak of spec on g, TFLOP/s: matrix_tf32 falls back to matrix_fp32
 * and vector fp16/bf16 to vector fp32 (PyTorch's elementwise kernels
 * compute 16-bit types in fp32).  0 when g has none. */
double tt_gpu_peak_of(const struct tt_gpu_peak *g, int spec, bool *fallback);

/* A user's peak file: ini sections, one GPU each:
 *   [MI300X (TraceLens)]
 *   match = MI300X              ; the deviceProperties test, as above
 *   mem_bw_gbps = 5300
 *   matrix_bf16 = 708           ; TFLOP/s, any spec name
 *   source = TraceLens' MI300X.json
 * Its rows come before the built-in ones.  NULL with *err on a bad file
 * (path and line). */
struct tt_gpu_table;
struct tt_gpu_table *tt_gpu_table_load(const char *path, struct tt_err *err);
void tt_gpu_table_free(struct tt_gpu_table *t);

/* The peaks for a device named `devname` with mem_bytes of memory (<= 0:
 * unknown): a row of the user table u (may be NULL), else of the built-in
 * table; NULL when none matches.  `force` (not NULL): the row of that name
 * (case-insensitive substring of the row name) whatever the device. */
const struct tt_gpu_peak *tt_gpu_lookup(const struct tt_gpu_table *u, const char *devname,
					int64_t mem_bytes, const char *force);

/* ---- the analysis ---- */

struct tt_perf_opts {
	const struct tt_aopts *a;   /* ranks (exact ns times always) */
	const char *peaks_file;     /* a user peak file, or NULL */
	const char *gpu;            /* force a row of the table (--gpu), or NULL */
	double short_us;            /* short kernels: under this (TraceLens: 10) */
};
void tt_perf_opts_init(struct tt_perf_opts *o);

/* Statistics of one value over instances (pandas' conventions: NaN values
 * left out; std with ddof 1, NaN for one value). */
struct tt_pm_stat {
	double mean, median, std, min, max, sum;
	uint64_t n;              /* values that counted */
};

/* A kernel under a row: name, stream, count and durations (ns). */
struct tt_pm_kernel {
	const char *name;
	int64_t stream;
	uint64_t count;
	int64_t sum, min, max;
	double mean;
};

/* A modelled row: one op name and parameter set (TraceLens' grouping). */
struct tt_pm_row {
	uint8_t sheet, family, cat;
	int8_t spec;                 /* compute class (TF32 when the kernels are) */
	bool bwd;                    /* timed on the linked backward ops */
	const char *name;
	const char *params;          /* '\x1f'-separated values (tt_pm_param_keys) */
	const char *dims, *types, *strides, *concrete; /* the first instance's args
				       * (NULL when absent) */
	const char *process, *process_label, *thread; /* the first instance's */
	double flops, bytes;         /* per instance; bytes < 0: unknown */
	uint64_t count;              /* instances */
	uint32_t nranks;
	struct tt_pm_stat time_us;   /* Kernel Time (µs): busy time of its kernels */
	struct tt_pm_stat tflops;    /* TFLOPS/s per instance (time > 0) */
	struct tt_pm_stat tbps;      /* TB/s per instance (time > 0, bytes known) */
	struct tt_pm_stat pct_roof;  /* Pct Roofline per instance */
	/* the roofline (peak of the first instance's GPU) */
	const struct tt_gpu_peak *gpu;
	double peak_tflops, mem_gbps; /* 0: no peak */
	double roof_us;              /* Roofline Time (µs) of one instance, NaN: none */
	bool compute_bound;
	double flops_total;          /* over instances */
	/* over all instances together (time-weighted): FLOPs / kernel time,
	 * bytes / kernel time, roofline time / kernel time (of the
	 * instances that ran); NaN when none ran or no peak */
	double tflops_all, tbps_all, roof_pct_all;
	struct tt_pm_kernel *kernels; /* by position, TraceLens' kernel summary */
	size_t nkernels;
	size_t ri;                   /* the first instance: rank index, event */
	uint32_t ev;
	uint64_t uid_first;          /* its position in the trace (sorting) */
};

/* A kernel launcher row (TraceLens' ops_unique_args): one op name,
 * category, thread and args. */
struct tt_pm_launch {
	const char *name;
	uint8_t cat;
	bool runtime;               /* the launcher is a runtime call (no cpu_op) */
	const char *process, *process_label, *thread;
	const char *dims, *types, *strides, *concrete;
	uint64_t count;
	struct tt_pm_stat direct_us, subtree_us;
	struct tt_pm_kernel *kernels;
	size_t nkernels;
	size_t ri;
	uint32_t ev;
	uint64_t uid_first;
};

/* TraceLens' ops_summary row (per launcher name) */
struct tt_pm_opsum {
	const char *name;
	uint64_t count;
	double direct_us, subtree_us;
	uint32_t cats;              /* bit per category */
};

/* TraceLens' ops_summary_by_category row */
struct tt_pm_catsum {
	uint8_t cat;
	uint64_t count;
	double direct_us;
};

/* TraceLens' gpu_timeline, in µs */
enum { TT_PMT_COMP, TT_PMT_EXPOSED_COMM, TT_PMT_EXPOSED_MEMCPY, TT_PMT_BUSY, TT_PMT_IDLE,
       TT_PMT_TOTAL, TT_PMT_TOTAL_COMM, TT_PMT_TOTAL_MEMCPY, TT_PMT_N };
const char *tt_pm_timeline_name(int k);

/* TraceLens' kernel_summary row: kernels (not memcpy/memset) per parent
 * category, parent cpu_op, name and stream; cat -1: no launch. */
struct tt_pm_ksum {
	int cat;                    /* enum tt_pm_cat, or -2: "runtime", -3:
				     * "graph" (no cpu_op), -1: no launch */
	const char *parent;         /* NULL: no launch */
	const char *name;
	int64_t stream;
	uint64_t count;
	double sum_us, min_us, max_us;
};

/* Short kernels (under short_us): per parent op, its args and kernel name */
struct tt_pm_short {
	const char *parent, *dims, *strides, *concrete; /* NULL: none */
	const char *name;
	uint64_t count;
	double sum_us;
};

struct tt_perf {
	struct tt_pm_row *rows;      /* modelled rows, by sheet then Kernel Time sum desc */
	size_t nrows;
	struct tt_pm_launch *launch; /* ops_unique_args, direct time sum desc */
	size_t nlaunch;
	struct tt_pm_opsum *ops;     /* ops_summary, direct time desc */
	size_t nops;
	struct tt_pm_catsum cats[TT_PMC_COUNT]; /* ops_summary_by_category, direct desc */
	size_t ncats;
	double timeline_us[TT_PMT_N];        /* every GPU op (the ranks' sums) */
	double timeline_linked_us[TT_PMT_N]; /* those a launch owns (TraceLens' default) */
	double *rank_timeline, *rank_timeline_linked; /* per rank: TT_PMT_N each */
	bool has_gpu;
	struct tt_pm_ksum *ksum;     /* kernel_summary, sum desc */
	size_t nksum;
	double kernels_us;           /* all kernels' durations */
	/* short kernels */
	double short_us;             /* the threshold */
	struct tt_pm_short *shorts;  /* sum desc */
	size_t nshorts;
	uint64_t short_hist[100];
	double short_min_us, short_max_us; /* the histogram's range */
	uint64_t nshort;
	double short_sum_us;
	/* what is not modelled or not linked, said */
	uint64_t gpu_ops, gpu_unlinked; /* GPU ops (kernels, memcpy, memset), without a launch */
	double gpu_unlinked_us;      /* their busy time */
	uint64_t ops_modelled, ops_unmodelled; /* op instances with a model name: modelled, not */
	uint64_t bwd_unlinked;       /* forward ops of attention/reductions without a linked backward */
	const char *why_first;       /* why the first unmodelled one was not */
	uint64_t depth_cut;          /* ancestor walks cut at the depth bound */
	/* the GPUs: per rank its peak row (NULL: no deviceProperties match) */
	size_t nranks;
	const struct tt_gpu_peak **rank_gpu;
	const char **rank_devname;   /* deviceProperties name, NULL: none */
	int64_t *rank;               /* rank numbers */
	bool any_shapes;             /* some op had Input Dims */
	char error[300];             /* the peak file could not be read */
	struct tt_gpu_table *user;   /* owned */
	struct tt_strtab strs;       /* strings of the result */
};

/* The analysis over the ranks o->a selects.  Rows of all ranks together
 * (TraceLens is per file: one rank gives its numbers).  Free with
 * tt_perf_free. */
void tt_perf_compute(const struct tt_model *m, const struct tt_perf_opts *o, struct tt_perf *out);
void tt_perf_free(struct tt_perf *p);

/* The model rows of one op name: summed over its parameter sets, for the
 * explorer's top list.  Owned by the caller (free()). */
struct tt_pm_opagg {
	const char *name;
	uint8_t sheet, cat;
	int8_t spec;
	uint64_t count;
	size_t nshapes;
	double time_us, flops, bytes; /* sums over instances (bytes: known ones) */
	double roof_us;               /* sum of roofline times (rows with a peak) */
	double roof_time_us;          /* kernel time of those rows */
	uint32_t nbound_compute, nbound_memory; /* rows */
	size_t first_row;             /* into p->rows */
};
size_t tt_perf_by_op(const struct tt_perf *p, struct tt_pm_opagg **out);

/* The GPU shown for the ranks: one name when all agree, "mixed", or
 * "unknown" (the device names not found).  buf gets it. */
const char *tt_perf_gpu_label(const struct tt_perf *p, char *buf, size_t n);

#endif
