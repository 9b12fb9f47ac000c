/* critical path: what the per-rank preparation (critpath.c), the graph
 * of a window (critpath_graph.c) and the path search (critpath_path.c)
 * share */
#ifndef TRACETOP_CRITPATH_INT_H
#define TRACETOP_CRITPATH_INT_H

#include <string.h>

#include "tracetop/critpath.h"
#include "tracetop/hmap.h"
#include "tracetop/analysis.h"

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

/* uint32 -> uint32 maps (events, correlations) on the one hash map:
 * TT_NONE when a key is absent; storing TT_NONE takes the value out */
#define CP_GONE (UINT32_MAX - 1)

static inline void map_init(struct tt_hmap *m, size_t n)
{
	memset(m, 0, sizeof(*m));
	tt_hmap_reserve(m, n);
}

static inline void map_free(struct tt_hmap *m)
{
	tt_hmap_free(m);
}

static inline void map_put(struct tt_hmap *m, uint32_t key, uint32_t val)
{
	*tt_hmap_slot(m, key) = val == TT_NONE ? CP_GONE : val;
}

static inline uint32_t map_get(const struct tt_hmap *m, uint32_t key)
{
	uint32_t v = tt_hmap_get(m, key);
	return v == CP_GONE ? TT_NONE : v;
}

/* what tt_cp_prepare computes for a rank */
struct tt_cp {
	const struct tt_model *m;
	size_t ri;
	const struct tt_rank *r;
	struct tt_sel s;
	bool exact;
	bool tt;           /* tracetop's model (critpath.h) */
	struct tt_cp_opts o;
	uint8_t *sf; /* flags per string id */
	uint32_t id_event_sync, id_context_sync, id_stream_sync, id_swe, id_record, id_swe_call;
	int32_t *qr, *qk;  /* per event: queue length at the launch of a GPU op
			    * and at the op itself; INT32_MIN = none */
	bool any_queue;    /* a launch with a kernel exists (HTA's queue) */
	struct tt_hmap rec_src;  /* cudaEventRecord correlation -> kernel */
	struct tt_hmap swe_dest; /* cudaStreamWaitEvent call -> next kernel */
	uint32_t *swe;     /* Stream Wait Event rows */
	size_t nswe;
	int64_t min_ts;    /* first start of the rank (HTA's ts.min()) */
	/* rows of the annotation asked for last */
	char *annot;
	uint32_t *arows;
	size_t narows;
	/* the window being built (tt_cp_run), per event of the rank: its graph
	 * event (nodes 2k, 2k+1) or TT_NONE, and the GPU rows clipped, a bit
	 * each; allocated by the first window, cleared of what a window set
	 * when it ends (a step costs its own events, not the rank's) */
	uint32_t *node_of;
	uint64_t *taken;
	/* per string id: the path's time by name (make_top's row, TT_NONE
	 * between windows); a kernel name's class, 0 = not known yet, else
	 * 1 + the bound (classify_edge) */
	uint32_t *name_slot;
	uint8_t *name_bound;
	/* a window's growing arrays, kept for the next window (their pages
	 * stay mapped): its CPU and GPU rows (struct crow), a thread's rows in
	 * stack order (struct srow), its edges */
	void *rows_cpu, *rows_gpu, *rows_thread;
	size_t cap_cpu, cap_gpu, cap_thread;
	struct cp_edge *edges;
	size_t cap_edges;
};

static inline int64_t ev_ts(const struct tt_cp *c, uint32_t i)
{
	return tt_sel_ts(&c->s, &c->r->ev[i]);
}

static inline int64_t ev_end(const struct tt_cp *c, uint32_t i)
{
	return tt_sel_end(&c->s, &c->r->ev[i]);
}

/* An edge as added.  Nodes: event k of the graph has start node 2k and end
 * node 2k+1. */
struct cp_edge {
	uint32_t u, v;
	int64_t w;     /* ns, as created */
	uint32_t attr; /* attributed event or TT_NONE */
	uint8_t type;  /* enum tt_cp_etype */
	uint8_t phase; /* 0, 1, 2 */
	uint8_t dead;  /* merged into an earlier edge with the same (u, v) */
	uint8_t fixed; /* TT_CPE_WAIT from the step's start to a last arrival:
			* weight 0, and in a what-if the arrival's time (the
			* late rank comes when it comes) */
	uint32_t part; /* TT_CPE_WAIT: the collective part (tt_coll.parts) */
};

/* what the nodes 2k, 2k+1 of graph event k stand for: an event, or (in
 * tracetop's model) a point inside one -- the step's start (k's event: the
 * step's annotation; both nodes at its start), a collective kernel's last
 * arrival (k's event: the kernel; node 2k+1 at the arrival) */
enum { CPK_EVENT = 0, CPK_STEP = TT_CPN_STEP, CPK_ARRIVAL = TT_CPN_ARRIVAL };

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
	uint8_t *kind;      /* [nne] CPK_* */
	bool tt;            /* tracetop's model */
	const struct tt_coll *coll;
	/* nodes whose longest paths the result keeps (tt_cp_result.targets),
	 * and their collective parts */
	uint32_t *tgt_node, *tgt_part;
	size_t ntgt;
	/* the rank's scratch (tt_cp): name_slot, name_bound, and a bit per
	 * event, all clear */
	uint32_t *name_slot;
	uint8_t *name_bound;
	uint64_t *evbits;
};

/* The longest path of g and everything the result reports about it. */
void cp_path(struct cp_graph *g, const struct tt_cp_opts *o, struct tt_cp_result *out);

#endif
