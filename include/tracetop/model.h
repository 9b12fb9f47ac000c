/* The model: per rank, tracks (GPU streams, CPU threads) holding flat arrays
 * of events sorted by (start, -duration); side tables for the args analyses
 * use; runtime->GPU links by correlation id; counters; metadata.
 * Times are int64 nanoseconds since the epoch.  Strings are interned per rank.
 * Immutable after loading, so analyses may run on several threads. */
#ifndef TRACETOP_MODEL_H
#define TRACETOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/strtab.h"
#include "tracetop/trace.h"

#define TT_NONE UINT32_MAX

/* category of an event, from its cat string (legacy names matched too) */
#define TT_CAT_KINDS(_)                                  \
	_(OTHER, "other")                                \
	_(NONE, "")                                      \
	_(CPU_OP, "cpu_op")                              \
	_(USER_ANNOT, "user_annotation")                 \
	_(GPU_ANNOT, "gpu_user_annotation")              \
	_(RUNTIME, "cuda_runtime")                       \
	_(DRIVER, "cuda_driver")                         \
	_(KERNEL, "kernel")                              \
	_(MEMCPY, "gpu_memcpy")                          \
	_(MEMSET, "gpu_memset")                          \
	_(SYNC, "cuda_sync")                             \
	_(PYTHON, "python_function")                     \
	_(TRACE, "Trace")                                \
	_(CPU_INSTANT, "cpu_instant_event")              \
	_(OVERHEAD, "overhead")                          \
	_(MTIA_RUNTIME, "mtia_runtime")                  \
	_(MTIA_CCP, "mtia_ccp_events")                   \
	_(FLOW, "ac2g")

enum tt_cat_kind {
#define _(id, s) TT_K_##id,
	TT_CAT_KINDS(_)
#undef _
	TT_K_COUNT
};

struct tt_cat {
	uint32_t name;  /* the cat string as written */
	uint8_t kind;   /* enum tt_cat_kind */
	bool legacy;    /* capitalised legacy spelling (Kernel, Runtime, ...) */
	uint16_t pad;
};

enum tt_track_kind {
	TT_TRACK_CPU = 0,   /* a CPU thread (pid, tid) */
	TT_TRACK_GPU,       /* a GPU stream: events with args.stream */
	TT_TRACK_GPU_ANNOT, /* gpu_user_annotation spans of a stream */
	TT_TRACK_GPU_SYNC,  /* cuda_sync events without a real stream */
	TT_TRACK_GLOBAL,    /* global instants */
};

struct tt_track {
	uint8_t kind;
	bool pid_is_str, tid_is_str;
	uint8_t pad[5];
	int64_t pid, tid;    /* numbers; for strings their trailing digits */
	uint32_t pid_str, tid_str; /* string ids when given as strings */
	int64_t device;      /* GPU device (pid) or -1 */
	int64_t stream;      /* args.stream of GPU tracks, -1 otherwise */
	uint32_t name;       /* thread_name, or a made-up label */
	uint32_t proc_name;  /* process_name (or labels) */
	int64_t sort_index;
	uint32_t first, count; /* events[first .. first+count) */
	int64_t t0, t1;      /* first start and last end of its events */
	int64_t max_dur;     /* longest event (bounds window searches) */
};

/* event flags */
#define TT_EF_STREAM 0x01 /* had args.stream != -1: a GPU event in HTA's sense */
#define TT_EF_MARKER 0x02 /* profiler window marker: not work */
#define TT_EF_KINFO 0x04  /* aux indexes kinfo */
#define TT_EF_MINFO 0x08  /* aux indexes minfo */
#define TT_EF_OPINFO 0x10 /* aux indexes opinfo */
#define TT_EF_MEMEV 0x20  /* aux indexes meminfo */
#define TT_EF_PAIRED 0x40 /* made from a B/E pair */
#define TT_EF_SYNCINFO 0x80 /* aux indexes syncinfo */

struct tt_event {
	int64_t ts;     /* ns */
	int64_t dur;    /* ns, >= 0 */
	uint32_t name;  /* string id */
	uint32_t corr;  /* correlation id or TT_NONE */
	uint32_t ext;   /* External id or TT_NONE */
	uint32_t aux;   /* side-table index (see flags) or TT_NONE */
	uint16_t cat;   /* index into rank->cats */
	uint8_t ph;     /* 'X', 'i' */
	uint8_t flags;
	uint32_t track; /* index into rank->tracks */
};

/* CUDA kernel launch parameters */
struct tt_kinfo {
	int32_t grid[3];
	int32_t block[3];
	int32_t regs, shmem;
	float occupancy; /* est. achieved occupancy %, < 0 if absent */
	float blocks_per_sm, warps_per_sm;
	uint32_t comm;   /* collective info index or TT_NONE */
};

/* memcpy / memset */
struct tt_minfo {
	int64_t bytes;  /* -1 if absent */
	double bw_gbps; /* memory bandwidth (GB/s), 0 if absent */
};

/* CPU op args */
struct tt_opinfo {
	uint32_t input_dims; /* compact JSON text, or TT_NONE */
	uint32_t input_type;
	uint32_t call_stack;
	uint32_t comm;       /* collective info index or TT_NONE */
	/* a CPU op or annotation with args.stream (torch.compile's triton_*
	 * ops) sits on that GPU stream's track, as HTA reads it: the track of
	 * its CPU thread, else TT_NONE */
	uint32_t thread;
	uint32_t input_strides; /* compact JSON text, or TT_NONE */
	uint32_t concrete;   /* Concrete Inputs: compact JSON text, or TT_NONE */
	uint32_t pad;
	int64_t seq;         /* Sequence number (autograd), -1 if absent */
};

/* record_param_comms / NCCL kernel collective args */
struct tt_comm {
	uint32_t name;   /* Collective name */
	uint32_t dtype;
	uint32_t pg;     /* Process Group Name or ID */
	uint32_t pg_ranks;
	int64_t in_nelems, out_nelems, group_size; /* -1 if absent */
};

/* [memory] instants */
struct tt_meminfo {
	int64_t bytes, total_alloc, total_reserved, device, addr;
	uint32_t device_type;
	uint32_t pad;
};

/* cuda_sync events (Event Sync, Stream Wait Event): the CUDA event they
 * wait on, as args.wait_on_stream and args.wait_on_cuda_event_record_corr_id */
struct tt_syncinfo {
	int64_t wait_stream; /* stream the event was recorded on, -1 if absent */
	int64_t wait_corr;   /* correlation id of its cudaEventRecord, -1 if absent */
};

/* runtime call -> GPU op, by correlation id (all pairs) */
struct tt_link {
	uint32_t corr;
	uint32_t cpu; /* event index of the launching call */
	uint32_t gpu; /* event index of the GPU op */
};

struct tt_counter {
	uint32_t name;   /* event name, e.g. "Queue Length" */
	uint32_t series; /* args key */
	int64_t pid;
	uint32_t pid_str;
	uint32_t first, count; /* samples[first .. first+count), sorted by ts */
	uint32_t pad;
};

struct tt_sample {
	int64_t ts;
	double value;
};

/* fwdbwd flow ends (forward op -> backward op) */
struct tt_flow {
	int64_t ts;
	uint32_t track;
	uint32_t id;
	uint8_t ph; /* 's' or 'f' */
	uint8_t pad[7];
};

/* records are written to .tts caches as they are: no hidden padding */
_Static_assert(sizeof(struct tt_event) == 40, "tt_event is 40 bytes");
_Static_assert(sizeof(struct tt_track) == 96, "tt_track has no padding");
_Static_assert(sizeof(struct tt_kinfo) == 48, "tt_kinfo has no padding");
_Static_assert(sizeof(struct tt_opinfo) == 40, "tt_opinfo has no padding");
_Static_assert(sizeof(struct tt_meminfo) == 48, "tt_meminfo has no padding");
_Static_assert(sizeof(struct tt_syncinfo) == 16, "tt_syncinfo has no padding");
_Static_assert(sizeof(struct tt_counter) == 32, "tt_counter has no padding");
_Static_assert(sizeof(struct tt_flow) == 24, "tt_flow has no padding");

enum tt_rank_source { TT_RANK_JSON, TT_RANK_NAME, TT_RANK_POSITION, TT_RANK_GIVEN };

struct tt_rank {
	int64_t rank;
	enum tt_rank_source rank_src;
	char *path;          /* as given */
	const char *file;    /* base name inside path */
	int64_t name_rank;   /* rank found in the file name, -1 if none */
	struct tt_strtab strs;
	struct tt_cat *cats;
	uint32_t ncats;
	struct tt_track *tracks;
	uint32_t ntracks;
	struct tt_event *ev;
	uint32_t nev;
	struct tt_kinfo *kinfo;
	uint32_t nkinfo;
	struct tt_minfo *minfo;
	uint32_t nminfo;
	struct tt_opinfo *opinfo;
	uint32_t nopinfo;
	struct tt_comm *comm;
	uint32_t ncomm;
	struct tt_meminfo *meminfo;
	uint32_t nmeminfo;
	struct tt_syncinfo *syncinfo;
	uint32_t nsyncinfo;
	struct tt_link *links;     /* sorted by (cpu, gpu) */
	uint32_t *links_by_gpu;    /* link indices sorted by gpu event */
	uint32_t nlinks;
	struct tt_counter *counters;
	uint32_t ncounters;
	struct tt_sample *samples;
	uint32_t nsamples;
	struct tt_flow *flows;
	uint32_t nflows;

	struct tt_trace_meta meta;
	struct tt_load_report report;
	enum tt_compress compression;
	uint64_t file_bytes; /* size on disk */

	int64_t base_ns;     /* baseTimeNanoseconds added to every ts (0 if none) */
	int64_t t0, t1;      /* span of the work events (markers excluded) */
	bool hta_round;      /* HTA rounds ts up / ends down (a ts was a float or absent) */
	uint64_t nflows_total; /* all flow events seen (most are not stored) */
	uint64_t bytes_model; /* memory held by this rank */
	/* counts by kind */
	uint32_t n_kernel, n_memcpy, n_memset, n_cpu_op, n_runtime, n_annot, n_gpu_tracks;
	uint32_t n_steps;    /* ProfilerStep#N annotations */
	uint64_t mem_accounted; /* counted in tt_mem_used() (rank_account) */
	uint64_t mem_kept;      /* counted in tt_mem_kept() (rank_account) */
	const void *cache_map; /* set when loaded from a .tts file (mapping) */
	size_t cache_len;
	/* the bytes it was read from, as a .tts records them: size, mtime (ns)
	 * and the sum64 of the first and last 64 KiB, taken on the descriptor
	 * the loader read, when it opened it; dev and ino too.  src_state: 0
	 * no file (memory, a pipe, a remote object), 1 the file's, 2 the file
	 * changed while it was read (its size, mtime or those bytes differ at
	 * the end: no .tts may be written from it) */
	uint64_t src_size, src_hash, src_dev, src_ino;
	int64_t src_mtime_ns;
	uint8_t src_state;
	struct tt_rank_memo *memo; /* derived data kept by tt_rank_memo(), or NULL */
};

/* Derived data that analyses compute from a rank and share (HTA's event
 * selection, say): built by build(r, ctx) on the first call for slot, kept
 * until the rank is freed (then free_fn(value)), and returned by every later
 * call.  Safe from several threads; the rank itself stays unchanged.  The
 * value must depend only on the rank and on what slot stands for.  A build
 * may ask for the value of another slot (never, through others, of its
 * own: that would wait for itself). */
#define TT_MEMO_SLOTS 9
void *tt_rank_memo(const struct tt_rank *r, unsigned slot,
		   void *(*build)(const struct tt_rank *r, void *ctx), void *ctx,
		   void (*free_fn)(void *));

struct tt_load_failure {
	char *path;
	struct tt_err err;
};

struct tt_model {
	struct tt_rank **ranks; /* sorted by rank, then file name */
	size_t nranks;
	struct tt_load_failure *failures;
	size_t nfailures;
	/* the profiling cycle it holds (tracetop/runs.h): from 1, 0 when its
	 * files name no cycles; the run's cycles then; its time (ns since the
	 * epoch, 0 unknown); its run's name in a log directory, or NULL */
	int cycle, ncycles;
	int64_t cycle_time;
	char *run;
	/* derived, kept by the analyses (not part of the model): HTA's count
	 * of distinct ProfilerStep#N names over the ranks, up to 2, plus 1;
	 * 0 until asked */
	_Atomic int step_names;
};

/* ---- loading ---- */

struct tt_load_opts {
	int threads;             /* 0 = one per CPU */
	uint64_t max_events;     /* per file, 0 = unlimited */
	uint64_t max_memory;     /* bytes for the model, 0 = unlimited */
	bool no_fast;            /* every event through cJSON */
	bool verify;             /* differential check of both parsing paths */
	bool no_cache;           /* do not use .tts caches */
	bool no_split;           /* never split one file across threads */
	uint64_t split_min;      /* split plain files at least this big (0 = default) */
	bool pipeline;           /* inflate gzip on a second thread (set by the loader) */
	/* progress while loading: file index, text bytes, raw bytes, events, done */
	void (*progress)(void *ctx, size_t file, uint64_t text, uint64_t raw, uint64_t events,
			 bool done);
	void *progress_ctx;
};

/* Expand paths (files, directories, globs) into the list of trace files,
 * sorted.  "-" stands for standard input.  Returns the count; *out is freed
 * with tt_paths_free.  A path that matches nothing is reported in *err and
 * counted in *nbad. */
size_t tt_expand_paths(const char *const *paths, size_t n, char ***out, size_t *nbad,
		       void (*bad)(void *ctx, const struct tt_err *e), void *ctx);
void tt_paths_free(char **p, size_t n);

/* Load files into a new model.  Files that fail are listed in
 * model->failures and skipped.  Returns 0 if at least one file loaded, else
 * -code (the model is still returned, with its failures). */
int tt_model_load(struct tt_model **out, char *const *files, size_t n,
		  const struct tt_load_opts *o);
/* Load one trace from memory (demo, tests). */
int tt_model_load_mem(struct tt_model **out, const char *const *names, const void *const *data,
		      const size_t *lens, size_t n, const struct tt_load_opts *o);
void tt_model_free(struct tt_model *m);
/* Drop the derived data of every rank, so that the next analyses build it
 * again (measurements: tests/scaling.c).  Not while analyses run. */
void tt_model_forget(struct tt_model *m);

/* Load one rank; used by the loader and the .tts writer. */
int tt_rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		 const struct tt_load_opts *o, size_t file_index, struct tt_err *err);
void tt_rank_free(struct tt_rank *r);

/* ---- .tts caches: a loaded rank saved for instant reopening ---- */

/* Write rank r to out (atomically: a temporary file renamed at the end). */
int tt_rank_save(const struct tt_rank *r, const char *out, struct tt_err *err);
/* Map and check a cache; a corrupt or foreign file is refused. */
int tt_rank_open_cache(struct tt_rank **out, const char *path, struct tt_err *err);
/* Does the path name a .tts file? */
bool tt_cache_is(const char *path);
/* Fill buf with trace's cache name and say whether that cache is usable:
 * a regular file of this version, made from a file of the trace's size,
 * mtime (ns) and first and last 64 KiB. */
bool tt_cache_for(const char *trace, char *buf, size_t n);

/* ---- queries ---- */

static inline const char *tt_str(const struct tt_rank *r, uint32_t id)
{
	return tt_strtab_get(&r->strs, id);
}
static inline const char *tt_ev_name(const struct tt_rank *r, const struct tt_event *e)
{
	return tt_strtab_get(&r->strs, e->name);
}
static inline enum tt_cat_kind tt_ev_kind(const struct tt_rank *r, const struct tt_event *e)
{
	return (enum tt_cat_kind)r->cats[e->cat].kind;
}
static inline int64_t tt_ev_end(const struct tt_event *e)
{
	return e->ts + e->dur;
}

/* The job's time origin, ns: the first work event across all ranks of m
 * (min of the ranks' t0, ranks without events left out; 0 when no rank has
 * any).  Every time shown or typed (timeline ruler and cursor, the jump
 * prompt, event details, `report range --from/--to`) is relative to it, so
 * the same event has the same time on every screen and in every report,
 * whichever ranks are shown.  Per-rank offsets are r->t0 - origin. */
int64_t tt_model_origin(const struct tt_model *m);
/* Track holding event index i. */
uint32_t tt_track_of(const struct tt_rank *r, uint32_t i);
/* The first event of track t starting at or after ts (t->first + t->count
 * when none): binary search over the track's sorted starts. */
uint32_t tt_track_lower_ts(const struct tt_rank *r, const struct tt_track *t, int64_t ts);
/* Events of a track overlapping [t0, t1): [*lo, *hi) as event indices.
 * Binary search; events longer than the window start are found through the
 * track's sorted starts, so the first result may start before t0. */
void tt_track_window(const struct tt_rank *r, const struct tt_track *t, int64_t t0, int64_t t1,
		     uint32_t *lo, uint32_t *hi);
/* GPU ops launched by runtime event cpu: link indices [*lo, *hi). */
void tt_links_of_cpu(const struct tt_rank *r, uint32_t cpu, uint32_t *lo, uint32_t *hi);
/* Runtime event that launched GPU op gpu, or TT_NONE. */
uint32_t tt_launch_of(const struct tt_rank *r, uint32_t gpu);
/* The same for GPU ops met in ascending order: *pos (0 at first) is where
 * the previous search ended, and the search gallops on from it (any order
 * still gives the right answer). */
uint32_t tt_launch_of_from(const struct tt_rank *r, uint32_t gpu, uint32_t *pos);
/* The same search, returning the index of the link (r->links) instead of
 * its launching call: for tables kept by link. */
uint32_t tt_link_of_from(const struct tt_rank *r, uint32_t gpu, uint32_t *pos);
/* A ProfilerStep#num annotation of a rank: its number, its event. */
struct tt_step_ev {
	int64_t num;
	uint32_t ev;
};
/* The event of step number num in v[0..n) (sorted by number, one each), or
 * TT_NONE. */
uint32_t tt_step_ev_find(const struct tt_step_ev *v, size_t n, int64_t num);
/* Label of a track for display: "stream 7", "thread 1234 (pt_main_thread)". */
void tt_track_label(const struct tt_rank *r, const struct tt_track *t, char *buf, size_t n);
/* Rank number from a file name (rank-3, rank3, worker_0), or -1. */
int64_t tt_rank_from_name(const char *file);
/* Bytes of memory held by the model of one rank. */
size_t tt_rank_memsize(const struct tt_rank *r);

#endif
