/* critical path: what the graph builder (critpath.c) hands to the path
 * search (critpath_path.c) */
#ifndef TRACETOP_CRITPATH_INT_H
#define TRACETOP_CRITPATH_INT_H

#include "tracetop/critpath.h"

/* flags per string id */
enum {
	SF_LOCK = 1,
	SF_BLOCK = 2,
	SF_LAUNCH = 4,
	SF_FWD = 8,       /* contains "forward" */
	SF_AUTOGRAD = 16, /* contains "autograd" */
	SF_DATA = 32,     /* contains a data_load_events string */
	SF_ANNOT = 64,    /* contains the annotation asked for last */
};

/* An edge as added.  Nodes: event k of the graph has start node 2k and end
 * node 2k+1. */
struct cp_edge {
	uint32_t u, v;
	int64_t w;     /* ns, as created */
	uint32_t attr; /* attributed event or TT_NONE */
	uint8_t type;  /* enum tt_cp_etype */
	uint8_t phase; /* 0, 1, 2 */
	uint8_t dead;  /* merged into an earlier edge with the same (u, v) */
	uint8_t pad;
};

struct cp_graph {
	const struct tt_rank *r;
	uint32_t nne;       /* events with nodes */
	uint32_t *ev;       /* [nne] their event indices */
	int64_t *ts;        /* [2 nne] node times */
	struct cp_edge *e;  /* insertion order */
	size_t ne, ce;
	uint32_t *nx;       /* [2 nne] networkx insertion order, UINT32_MAX = not in
			     * the graph */
	uint32_t *nx_node;  /* [nnx] node by insertion order */
	uint32_t nnx;
	const uint8_t *sf;  /* SF_* flags per string id */
};

/* The longest path of g and everything the result reports about it. */
void cp_path(struct cp_graph *g, const struct tt_cp_opts *o, struct tt_cp_result *out);

#endif
