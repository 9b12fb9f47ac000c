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
	bool annotation;     /* user_annotation (else cpu_op) */
	uint32_t nranks;
	uint64_t calls;
	/* host: total = durations; self = total - time of direct child ops on
	 * the same thread (clipped to the op).  device: self = GPU ops launched
	 * by runtime calls whose innermost op is this one; total = self plus
	 * that of every descendant op */
	int64_t host_total, host_self, dev_total, dev_self;
	uint64_t gpu_ops_self, gpu_ops_total;
	size_t ri;           /* longest call */
	uint32_t ev;
};

struct tt_ops {
	struct tt_op_row *rows; /* device self desc, host self desc, name, shapes */
	size_t n;
	bool any_shapes;     /* some op had Input Dims */
	struct tt_strtab keys;
};

/* Every cpu_op and user_annotation of the CPU threads except
 * ProfilerStep#N, grouped by name (and Input Dims when by_shapes).  Nesting
 * is by time on each thread (start ascending, longer first); a partial
 * overlap nests the later op under the earlier.  Free with tt_ops_free. */
void tt_ops_compute(const struct tt_model *m, const struct tt_aopts *o, bool by_shapes,
		    struct tt_ops *out);
void tt_ops_free(struct tt_ops *p);

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
