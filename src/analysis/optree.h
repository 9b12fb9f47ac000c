/* analysis room, private: the pieces the TensorBoard views share.
 *
 * The op tree of a rank's CPU threads (nesting by time), the merged blocks
 * of its GPU ops, the kernel type of every GPU op name, the plugin's step
 * windows, and a small map from 64-bit keys to 32-bit values.  Arrays are
 * malloc'd and freed by the caller unless a _free() is named. */
#ifndef TRACETOP_ANALYSIS_OPTREE_H
#define TRACETOP_ANALYSIS_OPTREE_H

#include "tracetop/tbviews.h"

/* kernel, gpu_memcpy or gpu_memset X event (not a marker) */
bool tt_tb_is_gpu_op(const struct tt_rank *r, const struct tt_event *e);

/* An array of n + 1 uint32_t, every one TT_NONE. */
uint32_t *tt_tb_none_array(uint32_t n);

/* The op tree of a rank's CPU threads, by time (start ascending, longer
 * first; an op partly overlapping an earlier one nests under it).  Arrays
 * by event index; TT_NONE where nothing applies. */
struct tt_optree {
	uint32_t *parent;   /* op -> enclosing op */
	uint32_t *owner;    /* runtime call, instant -> innermost op around it */
	uint32_t *py;       /* op -> innermost python_function around it (with python) */
	uint32_t *pyparent; /* python_function -> enclosing python_function */
	uint32_t *order;    /* the ops, parents before children */
	uint32_t norder;
};

/* Build the tree of rank r (python: also the python_function stacks).
 * Free with tt_optree_free. */
void tt_optree_build(const struct tt_rank *r, struct tt_optree *t, bool python);
void tt_optree_free(struct tt_optree *t);

/* Merged GPU op blocks of a rank (every GPU stream): all GPU ops, or the
 * computation (non-communication) or communication kernels, by the kernel
 * types of tt_tb_kernel_types (not needed for TT_TB_GPU_ALL).  Returns the
 * count; *out freed by the caller. */
enum { TT_TB_GPU_ALL, TT_TB_GPU_COMP, TT_TB_GPU_COMM };
size_t tt_tb_gpu_blocks(const struct tt_rank *r, int which, const int8_t *ktype,
			struct tt_iv **out);
/* enum tt_ktype of every GPU op name id of r (-1 for other names); an array
 * of r->strs.n + 1, freed by the caller. */
int8_t *tt_tb_kernel_types(const struct tt_rank *r);

/* The plugin's steps of one rank (struct tt_step; steps.h; ri: the rank's
 * index), by start: the kept steps first (*nkept of them), then the dropped
 * tail steps.  Returns the count (0 only without steps and without
 * cpu_ops); *out (never NULL) freed by the caller.  Computed once per rank
 * (kept in its memo) and copied. */
size_t tt_tb_rank_steps(const struct tt_rank *r, size_t ri, struct tt_step **out, size_t *nkept);

/* Id of s[0..n) interned in t, with the side array *map (TT_NONE for new
 * slots) grown to cover it. */
uint32_t tt_tb_key_index(struct tt_strtab *t, const char *s, size_t n, uint32_t **map,
			 size_t *cap);

/* Id of the NUL-terminated s in t (interned), as an index into arrays kept
 * beside t. */
static inline uint32_t tt_tb_intern(struct tt_strtab *t, const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return tt_strtab_intern(t, s, n);
}

/* ---- what each name is to the plugin's views ---- */

/* Flags of a string by its text (the plugin's tests on op names). */
enum {
	TT_NF_STEP_PREFIX = 1 << 0, /* starts with "ProfilerStep#" */
	TT_NF_STEP = 1 << 1,        /* ProfilerStep#N (tt_step_number >= 0) */
	TT_NF_DATALOADER = 1 << 2,  /* enumerate(DataLoader)#...__next__, enumerate(DataPipe)#... */
	TT_NF_OPT_STEP = 1 << 3,    /* starts with "Optimizer.step" */
	TT_NF_OPT = 1 << 4,         /* starts with "Optimizer." */
	TT_NF_DP_FWD = 1 << 5,      /* DataParallel.forward */
	TT_NF_DDP_FWD = 1 << 6,     /* DistributedDataParallel.forward */
	TT_NF_COMM = 1 << 7,        /* tt_tb_is_comm_op_name */
	TT_NF_GLOO = 1 << 8,        /* ... of gloo */
	TT_NF_TC_ELIGIBLE = 1 << 9, /* tt_tb_op_tc_eligible */
};

/* (slots of tt_rank_memo: common.c uses 0 to 3) */
#define TT_MEMO_TB_NAMES 4
#define TT_MEMO_TB_STEPS 5
#define TT_MEMO_TB_TREE 6     /* tt_tbtree_of */
#define TT_MEMO_TB_NODESTAT 7 /* tt_tb_node_stats_of */
#define TT_MEMO_STEP_INDEX 8  /* tt_step_index */

/* The TT_NF_* flags of every string id of rank r (r->strs.n of them),
 * computed once per rank and kept in its memo: tests on an event's name
 * become one lookup. */
const uint16_t *tt_tb_name_flags(const struct tt_rank *r);

/* ---- the TensorBoard plugin's op tree (op_tree.py, node.py) ---- */

/* What an event is in the plugin's tree. */
enum tt_tbn {
	TT_TBN_NONE = 0,  /* not a node (or dropped, or merged into its parent) */
	TT_TBN_OP,        /* a plain cpu_op: a row of the operator view */
	TT_TBN_OP_HIDDEN, /* a cpu_op the operator view leaves out: Optimizer.*,
			   * DataParallel.forward, DistributedDataParallel.forward */
	TT_TBN_STEP,      /* ProfilerStep#N */
	TT_TBN_DATALOADER, /* enumerate(DataLoader)#...__next__, enumerate(DataPipe)#... */
	TT_TBN_OPTIMIZER, /* Optimizer.step... */
	TT_TBN_COMM,      /* a user_annotation nccl:/gloo: collective (of the plugin's
			   * five names each) */
	TT_TBN_PYTHON,    /* a span of the legacy "Python" category (autograd-profiler
			   * traces; python_function events are no nodes) */
};

/* Is e a span of the legacy "Python" category (not python_function)?  The
 * plugin makes it a node of its tree and counts it as CPU Exec. */
bool tt_tb_is_python_span(const struct tt_rank *r, const struct tt_event *e);

/* A runtime call (cuda_runtime, or another runtime category) */
bool tt_tb_is_runtime(const struct tt_rank *r, const struct tt_event *e);

/* The plugin's op tree of a rank's CPU threads, the one tree every
 * plugin-named view reads (operators, kernels by operator, tensor cores,
 * memory by operator, the step-time communication links):
 *  - nodes: cpu_ops, ProfilerStep#N, and of the user annotations only the
 *    plugin's kinds (steps, DataLoader, Optimizer.step, collectives); legacy
 *    "Python" spans; a CPU op placed on a GPU stream track by its args.stream
 *    (triton_*) is taken back into its thread;
 *  - by time (start ascending, longer first); a node partly overlapping the
 *    innermost open node is dropped;
 *  - a cpu_op whose only child is a cpu_op of the same name absorbs it (the
 *    child's children and runtime calls become its own);
 *  - runtime calls and instants belong to the innermost node around them on
 *    their thread (owner): that node's host time holds them.  The GPU work a
 *    call launched is charged to tt_tbtree_gpu_owner: the innermost cpu_op
 *    or step around it (a user annotation or Python span is a range, not a
 *    caller), found once per node while the tree is built (gpu_owner).
 *    The plugin links calls by External id, which newer traces break;
 *    tracetop nests by time, as the reference's nested run does.
 * Arrays by event index. */
struct tt_tbtree {
	uint8_t *kind;     /* enum tt_tbn after drops and merges */
	uint32_t *parent;  /* node -> parent node, TT_NONE: the thread's root */
	uint32_t *owner;   /* other events on CPU threads -> innermost node, TT_NONE: root */
	uint32_t *gpu_owner; /* node -> the node its own calls' GPU work is charged to
			      * (itself, or the first cpu_op or step above it), TT_NONE */
	uint32_t *order;   /* the nodes, parents before children */
	uint32_t norder;
	uint32_t ndropped, nmerged;
	const uint16_t *nflags; /* tt_tb_name_flags of the rank (not owned) */
	uint32_t *comm;         /* node -> its collective (tt_tbtree_comm_of_call) */
};

/* The tree of rank r, built once and kept with the rank (tt_rank_memo)
 * for every view that reads it: 21 bytes per event (kind 1, parent, owner,
 * gpu_owner and comm 4 each) and 4 per node (order).  Safe from several
 * threads; never freed by the caller. */
const struct tt_tbtree *tt_tbtree_of(const struct tt_rank *r);

/* The node the GPU work of runtime call `call` is charged to: the innermost
 * cpu_op or ProfilerStep node around it; TT_NONE when none (the plugin's
 * CallTreeRoot).  Two lookups (owner, gpu_owner). */
static inline uint32_t tt_tbtree_gpu_owner(const struct tt_tbtree *t, uint32_t call)
{
	uint32_t o = call != TT_NONE ? t->owner[call] : TT_NONE;
	return o != TT_NONE ? t->gpu_owner[o] : TT_NONE;
}

/* Per-node figures of the tree (operators.c), by position in t->order
 * (pos: event index -> position, for the nodes only): the time of a node's
 * child nodes and of its own runtime calls (those whose innermost node it
 * is); the GPU ops its own runtime calls launched (self; a collective's
 * user annotation passes them to the op around it) and those under it
 * (total): time, count, tensor-core kernel time; tensor-core eligibility
 * as the plugin decides it.  A node's figures in one struct (one cache
 * line: the passes that fill them touch them together). */
struct tt_tb_node {
	int64_t child, runtime, dself, dtotal, tcself, tctotal;
	int64_t kself;          /* kernels (only) its own runtime calls launched */
	uint32_t gself, gtotal; /* GPU op counts (at most the rank's events) */
};
struct tt_tb_nodestat {
	uint32_t *pos;
	struct tt_tb_node *node;
	uint8_t *tc_eligible;
};
/* tt_tb_node_stats of tt_tbtree_of(r), built once and kept with the rank
 * like the tree: 4 bytes per event (pos) and 65 per node.  Never freed by
 * the caller. */
const struct tt_tb_nodestat *tt_tb_node_stats_of(const struct tt_rank *r);

/* The innermost collective op of the plugin's names around each node or
 * the node itself (TT_NONE: none) is t->comm, by event index, found while
 * the tree is built; tt_tbtree_comm_of_call answers for a runtime call
 * (that of a GPU op: tt_launch_of_from). */
static inline uint32_t tt_tbtree_comm_of_call(const struct tt_tbtree *t, uint32_t call)
{
	if (call == TT_NONE || t->owner[call] == TT_NONE)
		return TT_NONE;
	return t->comm[t->owner[call]];
}

#endif
