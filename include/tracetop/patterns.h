/* analysis: the CPU call graph of a rank and the frequent CUDA kernel
 * sequences under an operator (HTA get_frequent_cuda_kernel_sequences,
 * metrics.md §10).
 *
 * Both work on HTA's view of one rank (struct tt_sel: iteration filter and
 * µs rounding, unless tt_aopts.exact).  Nesting is decided on the model's
 * exact ns times and track order (start ascending, longer first, then file
 * order), which is HTA's order on µs traces; partial overlaps (ns traces)
 * nest the later event under the earlier one instead of failing the way
 * HTA's comparator does.  Durations summed are HTA's (rounded) ones.
 * Results keep event indices (into rank->ev) so a pane can drill down. */
#ifndef TRACETOP_PATTERNS_H
#define TRACETOP_PATTERNS_H

#include "tracetop/analysis.h"

/* ---- call graph ---- */

/* Every selected CPU event (no stream) of every CPU thread is a node, nested
 * by time per thread.  HTA then hangs the first-layer events of the
 * backward thread (the one thread whose names contain "autograd::") under
 * the "## backward ##" annotation (else the ProfilerStep#N) of the main
 * thread (the one thread with ProfilerStep#N) whose window contains them.
 * A GPU event with stream > 0 whose launching runtime call is a node
 * becomes a child of that call.  Arrays are indexed by event index. */
struct tt_callgraph {
	const struct tt_rank *r;
	uint32_t rank_idx;     /* index into model->ranks */
	struct tt_sel sel;     /* the events HTA keeps, and its rounding */
	uint32_t *parent;      /* parent node, TT_NONE for a first-layer node
				* or an event outside the graph */
	int32_t *depth;        /* 0 for first-layer nodes, -1 outside */
	uint32_t *nkern;       /* CPU node: GPU events in its subtree */
	int64_t *kdur;         /* CPU node: sum of their durations, ns (HTA) */
	uint32_t *order;       /* CPU nodes, every parent before its children */
	uint32_t norder;
	uint32_t *kern;        /* linked GPU events, event index order */
	uint32_t nkern_linked;
	uint32_t main_track, bwd_track; /* threads linked, TT_NONE if not */
	uint32_t nrelinked;    /* backward first-layer nodes moved */
};

static inline bool tt_callgraph_is_op(const struct tt_callgraph *g, uint32_t i)
{
	return g->depth[i] >= 0 && !(g->r->ev[i].flags & TT_EF_STREAM);
}

/* ---- frequent kernel sequences ---- */

struct tt_pattern {
	uint32_t *seq;      /* name ids: the op, then its kernels in ts order */
	uint32_t len;       /* 1 + kernels per occurrence */
	uint32_t count;     /* occurrences */
	int64_t gpu_ns;     /* sum over occurrences of the op's kernel durations */
	int64_t cpu_ns;     /* sum of the op durations */
	uint32_t *roots;    /* event index of each occurrence's op, ts order */
	uint32_t *kernels;  /* occurrence o's kernels: kernels[o * (len - 1) ..] */
	int64_t *kernel_ns; /* per position (len - 1): duration summed over
			     * occurrences, ns */
	char *text;         /* the names joined with '|' (HTA's pattern) */
};

/* An operator the automatic choice tried (struct tt_patterns.tried). */
struct tt_pattern_try {
	char *op;
	uint32_t nodes;     /* ops of that name launching >= min_len kernels */
	size_t rows;        /* patterns it gave */
};

struct tt_patterns {
	bool no_rank;       /* no rank selected: everything else is empty */
	uint32_t rank_idx;
	int64_t rank;
	char *op;           /* operator substring used, NULL if none found */
	bool op_auto;       /* chosen automatically (op_name was NULL) */
	int min_len;
	int32_t min_depth;  /* depth of the candidates' shallowest, -1 if none */
	uint32_t ncandidates; /* ops whose name contains op */
	uint32_t nroots;    /* of them at min_depth with >= min_len kernels */
	struct tt_pattern *p; /* count descending, then text ascending */
	size_t n;
	struct tt_pattern_try *tried; /* automatic choice, in the order tried */
	size_t ntried;
};

/* Patterns under the ops whose name contains op_name on the first selected
 * rank (o->ranks, else the smallest).  Candidates are CPU ops (not GPU
 * events, which HTA also matches by name); roots are the candidates at the
 * smallest candidate depth that launch >= min_len kernels in their subtree.
 * When op_name is NULL the op is chosen as the reference driver did: the
 * "aten::" names ordered by how many ops of that name launch >= min_len
 * kernels (descending, then name), the first that gives a pattern.
 * Returns 0; fills *out (free with tt_patterns_free). */
int tt_patterns(struct tt_patterns *out, const struct tt_model *m, const struct tt_aopts *o,
		const char *op_name, int min_len);
void tt_patterns_free(struct tt_patterns *p);

#endif
