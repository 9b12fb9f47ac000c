/* demo room private interface: the catalogue of kernels and ops
 * (catalog.c), the simulation of a job (sim.c), its JSON text (emit.c) and
 * the public entry points (job.c).
 *
 * The built-in demo job: a deterministic generator of Kineto traces of a
 * data-parallel training run (a ConvNeXt-like model under DDP on 8 GPUs).
 *
 * The job is simulated rank by rank in lock step.  Each step of each rank
 * runs in two phases:
 *
 *   A  the host side up to the end of backward: data loading, the input
 *      copy, forward ops on the main thread, backward ops on the autograd
 *      thread; every op launches its kernels on stream 7, and each gradient
 *      bucket launches an all-reduce on the NCCL stream.  A kernel starts
 *      only after its launch and after the previous kernel of its stream.
 *   -  then the all-reduce of every bucket ends, on all ranks alike, once
 *      the last rank has started it (plus the transfer time);
 *   B  the NCCL kernels (now of known length), the optimizer, whose kernels
 *      wait for the last all-reduce, and the loss copy back to the host,
 *      which blocks the main thread until the GPU is done.
 *
 * Every rank draws from its own PRNG (seed, rank) and the transfers from one
 * PRNG per (seed, step, bucket), so generating rank r alone still computes
 * the same schedule as generating all of them: the other ranks are simulated
 * for their timing only, without text.  All arithmetic is integer, so the
 * output is byte-identical for the same options and rank.
 *
 * Times are integer microseconds since the epoch, as Kineto writes them. */
#ifndef TRACETOP_DEMO_INT_H
#define TRACETOP_DEMO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tracetop/demo.h"
#include "tracetop/util.h"

#define BASE_US 1717171717000000LL /* 2024-05-31, plus a seed-dependent offset */
#define NUM_GPUS 8
#define NUM_SMS 108
#define STREAM_COMPUTE 7
#define STREAM_NCCL 20
#define STEP_BASE 100     /* ProfilerStep#100 is the first step */
#define REG_SLOW_FROM 2   /* regressed run: the step from which all-reduces are slow */
#define REG_BW 40         /* ... at this per cent of the bandwidth */
#define REG_CHUNKS 32     /* ... and the input batch is copied in this many pieces */
#define BUCKET_LAYERS 4   /* layers per gradient bucket */
#define DOWN_EVERY 6      /* every 6th layer is a downsampling conv block */
#define MAX_DEPTH 16      /* nesting of CPU ops */
#define MAX_STEPS 100000
#define MAX_LAYERS 10000
#define MAX_RANKS 1000000

#define EVAL_PFX "autograd::engine::evaluate_function: "

/* ---- deterministic PRNG (splitmix64) ---- */

static inline uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rng_next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	uint64_t z = *s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static inline int64_t urand(uint64_t *s, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* ---- the catalogue: kernels and ops (catalog.c) ---- */

struct kdef {
	const char *name;
	int32_t dmin, dmax;  /* duration range, µs */
	int32_t grid[3];
	int32_t block[3];
	int32_t regs, shmem, occ;
};

/* One call of an op: a chain of nested CPU ops (outermost first); the
 * innermost launches the kernels. */
struct call {
	const char *chain[4];
	const char *pre;            /* CPU-only child of the outermost, run first */
	const struct kdef *k[3];
	const char *dims, *types;   /* Input Dims / Input type of the outermost */
	const char *conc;           /* its Concrete Inputs (a JSON array), NULL if none */
};

struct opdef {
	struct call f;              /* forward */
	const char *node;           /* autograd node, NULL if none */
	struct call b[3];           /* backward calls under the node */
	int64_t params;             /* parameter elements: AccumulateGrad, bucket size */
};

extern const struct kdef demo_k_nccl, demo_k_foreach_mul, demo_k_foreach_add;
extern const struct call demo_ones_like_call, demo_acc_call;
/* pooling and the classifier; the loss */
extern const struct opdef demo_head_ops[], demo_loss_ops[];
extern const int demo_nhead_ops, demo_nloss_ops;

/* the ops of one layer: the stem, a downsampling block or a plain block */
void demo_layer_ops(int layer, const struct opdef **ops, int *n);

/* estimated GPU µs of one step on a nominal GPU: scales the data loading */
int64_t demo_nominal_step(int layers);

/* ---- text buffers ---- */

struct sbuf {
	char *p;
	size_t n, cap;
};

static inline void sb_need(struct sbuf *b, size_t more)
{
	if (b->n + more <= b->cap)
		return;
	size_t c = b->cap ? b->cap : 65536;
	while (c < b->n + more)
		c *= 2;
	b->p = tt_realloc_array(b->p, c, 1);
	b->cap = c;
}

static inline void sb_mem(struct sbuf *b, const char *s, size_t n)
{
	sb_need(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

/* Our strings are all constants without quotes, backslashes or control
 * characters, so they need no escaping. */
static inline void sb_str(struct sbuf *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

#define SB_LIT(b, s) sb_mem((b), (s), sizeof(s) - 1)

/* v in decimal, written in place (room for the longest made first) */
static inline void sb_int(struct sbuf *b, int64_t v)
{
	sb_need(b, TT_I64_DEC_MAX);
	b->n += tt_i64_dec(b->p + b->n, v);
}

/* ---- simulation state (sim.c) ---- */

enum { CAT_OP, CAT_ANNOT };

/* a CPU op waiting for its end (written in start order once its top-level op ends) */
struct pend {
	const char *pfx, *name;
	int64_t num;            /* appended to the name if >= 0 */
	int64_t ts, dur;
	uint32_t ext, evidx;
	int64_t seq;            /* Sequence number, -1 if none */
	uint8_t cat;
	char flow;              /* fwdbwd flow end bound here: 's', 'f' or 0 */
	bool fwd_tid;           /* backward op: has Fwd thread id */
	const char *dims, *types, *conc;
	int64_t comm;           /* record_param_comms: message elements, -1 if not */
	int pyline;             /* its line in the model's Python file (a Call
				 * stack), 0 if none */
};

struct cthread {
	int64_t tid;
	int64_t t;              /* the thread's clock */
	struct pend *p;
	size_t np, cap;
	struct {
		size_t pend;
		uint32_t ext;
		int64_t ts;
	} st[MAX_DEPTH];
	int depth;
};

struct bucket {
	int64_t ready;          /* the all-reduce can start on this rank */
	int64_t nelems;
	uint32_t corr, ext;
};

/* Events go to the document one step at a time, like Kineto's per-iteration
 * buffers: the step's CPU ops, then its runtime calls, then its GPU ops. */
struct out {
	struct sbuf doc;        /* the JSON document */
	struct sbuf cpu, rt, gpu; /* events of the current step */
	bool first;             /* no event in the document yet */
};

struct job;

struct rsim {
	const struct job *job;
	int rank;
	bool straggler;
	uint8_t slow;           /* enum tt_demo_slow of a straggler */
	bool host_bound;        /* the regressed run's slow input (TT_DEMO_REGRESSED) */
	uint64_t rng;
	int64_t speed;          /* GPU speed, per mille of nominal durations */
	int64_t pid, device;
	int64_t s7;             /* compute stream busy until */
	int64_t start;          /* first step begins */
	int64_t step_end;
	uint32_t corr, ext, evidx;
	int64_t nelems;         /* gradient elements of the bucket being filled */
	int nb;                 /* buckets launched in this step */
	struct cthread main, bw;
	struct bucket *bk;
	struct out *out;        /* NULL: timing only */
	int64_t mem_alloc, mem_reserved; /* the device's allocator (text only) */
};

struct job {
	int nranks, steps, layers, nbuckets;
	uint64_t seed;
	int64_t base;
	int64_t nominal;        /* GPU µs of one step, estimated */
	const struct tt_demo_opts *o;
	int64_t *etab;          /* all-reduce end of each bucket, steps x nbuckets */
	const int64_t *e_end;   /* the row of the current step */
	int64_t nccl_free;      /* NCCL stream busy until (the same on all ranks) */
	struct rsim *rs;
};

struct launch {
	int64_t ts;
	uint32_t corr, ext;
};

/* One schedule of the job o: every rank simulated in lock step for its
 * timing only (job_init, then job_schedule); free with demo_job_free. */
void demo_job_init(struct job *j, const struct tt_demo_opts *o);
void demo_job_schedule(struct job *j);
void demo_job_free(struct job *j);

/* Replay one rank of a scheduled job, this time with text: the rank's
 * Kineto JSON document, NUL-terminated, *len bytes; the caller frees it.
 * Writes j->rs[rank], j->nccl_free and j->e_end only. */
char *demo_rank_text(struct job *j, int rank, size_t *len);
/* The same text given to sink a piece at a time, as it is written (a long
 * job's need not fit in memory); 0, or the first error sink returned. */
int demo_rank_write(struct job *j, int rank, int (*sink)(void *ctx, const char *p, size_t n),
		    void *ctx);

/* ---- the JSON text (emit.c) ---- */

/* the CPU ops of th's finished top-level op, to the step's CPU events */
void demo_flush_ops(const struct rsim *s, struct cthread *th);
/* a [memory] instant on th at ts: bytes allocated at addr (negative: freed),
 * and the allocator's totals after it */
void demo_emit_memory(const struct rsim *s, const struct cthread *th, int64_t ts, int64_t addr,
		      int64_t bytes);
/* a runtime call of th, to the step's runtime events (with an ac2g flow start) */
void demo_emit_rt(const struct rsim *s, const struct cthread *th, const char *name, int cbid,
		  int64_t dur, const struct launch *l, bool flow);
/* is k a GEMM (launched by hipExtModuleLaunchKernel on AMD)? */
bool demo_kernel_is_gemm(const struct kdef *k);
/* a kernel (comm >= 0: an all-reduce of comm elements) / a memcpy or memset */
void demo_emit_kernel(const struct rsim *s, const struct kdef *k, int64_t stream, int64_t ts,
		      int64_t dur, const struct launch *l, int64_t comm);
void demo_emit_mem(const struct rsim *s, const char *cat, const char *name, int64_t ts,
		   int64_t dur, const struct launch *l, int64_t bytes);
/* move the events of src to the document and empty src */
void demo_put_events(struct out *o, struct sbuf *src);
/* the document's head (up to "traceEvents": [) and tail */
void demo_write_header(const struct job *j, const struct rsim *s, struct sbuf *b);
void demo_write_trailer(const struct rsim *s, struct sbuf *b);
/* the metadata events, the profiler span [t0, t1] and the window markers
 * (the record window ends at wend) */
void demo_write_tail(const struct rsim *s, struct sbuf *b, int64_t t0, int64_t t1, int64_t wend);

#endif
