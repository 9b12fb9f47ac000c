/* analysis: the operator view: host and device self / total time per
 * operator, the GPU ops under one operator, the sizes of op inputs.
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads. */
#ifndef TRACETOP_OPERATORS_H
#define TRACETOP_OPERATORS_H

#include "tracetop/analysis.h"

/* Bytes of one element of a tensor type as written in traces: "float",
 * "c10::Half", "unsigned char", "Float", "BFloat16", "long int", ...
 * 0 when unknown or not a tensor ("Scalar", "TensorList", ""). */
int tt_tb_dtype_size(const char *type, size_t n);

/* Bytes of an op's inputs from its "Input Dims" and "Input type" args
 * (compact JSON: [[2,3],[4]] and ["float","long"]): the sum over inputs of
 * the product of the dims times the element size.  -1 when nothing is
 * known (no dims, or only types of unknown size). */
int64_t tt_tb_input_bytes(const char *dims, const char *types);

/* ---- operators ---- */

struct tt_op_row {
	const char *name;
	const char *shapes;  /* Input Dims (by_shapes), else NULL */
	uint32_t nranks;
	uint64_t calls;
	/* the plugin's definitions (node.py): host total = durations; host
	 * self = total - child nodes - the op's own runtime calls; device self
	 * = the GPU ops (kernels, memcpy, memset) its own runtime calls
	 * launched; device total = self plus that of every descendant node */
	int64_t host_total, host_self, dev_total, dev_self;
	int64_t runtime_ns;  /* its own runtime calls */
	uint64_t gpu_ops_self, gpu_ops_total;
	/* tensor cores: eligible (the plugin's op list, a tensor-core eligible
	 * child, or launched tensor-core kernels); time of tensor-core kernels
	 * launched by its own runtime calls / under it */
	bool tc_eligible;
	int64_t tc_self_ns, tc_total_ns;
	size_t ri;           /* longest call */
	uint32_t ev;
};

struct tt_ops {
	struct tt_op_row *rows; /* device self desc, host self desc, name, shapes */
	size_t n;
	bool any_shapes;     /* some op had Input Dims */
	uint32_t ndropped;   /* ops partly overlapping an open op: left out */
	uint32_t nmerged;    /* calls merged into a same-name parent */
	struct tt_strtab keys;
};

/* The plugin's operators: plain cpu_ops of the CPU threads (not
 * ProfilerStep#N, DataLoader, Optimizer.*, DataParallel.forward,
 * DistributedDataParallel.forward, python functions or user annotations),
 * nested by time as the plugin's op tree does (an op partly overlapping
 * the open one is dropped; a cpu_op whose only child has its name absorbs
 * it), grouped by name (and Input Dims when by_shapes).  Runtime calls
 * belong to the innermost node around them on their thread, a
 * collective's user annotation passing them to the op around it (the
 * plugin links them by External id, which newer traces break: it then
 * shows no device time).  Free with tt_ops_free. */
void tt_ops_compute(const struct tt_model *m, const struct tt_aopts *o, bool by_shapes,
		    struct tt_ops *out);
void tt_ops_free(struct tt_ops *p);

/* The plugin's tensor-core kernel names (a substring list) and eligible
 * operators (an exact list). */
bool tt_tb_kernel_uses_tc(const char *name);
bool tt_tb_op_tc_eligible(const char *name);

/* GPU ops launched under the ops named `op` (with Input Dims `shapes` when
 * not NULL), grouped by GPU op name: all = under the op or a descendant,
 * self = launched by the op's own runtime calls. */
struct tt_op_kernel {
	const char *name;
	uint64_t count, count_self;
	int64_t sum_ns, self_ns;
	size_t ri;           /* longest instance */
	uint32_t longest;
};
/* Sum descending.  Returns the count; *out freed by the caller (free()). */
size_t tt_op_kernels(const struct tt_model *m, const struct tt_aopts *o, const char *op,
		     const char *shapes, struct tt_op_kernel **out);

#endif
