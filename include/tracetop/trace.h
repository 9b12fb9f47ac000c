/* json room interface: trace text -> raw events + top-level metadata.
 *
 * tt_scan() walks one trace file (object form in any key order, or the legacy
 * bare array), splits traceEvents into events and hands each one, as a
 * struct tt_raw_event, to a sink.  A purpose-built fast path extracts the
 * fields tracetop keeps in one pass; anything unusual falls back to cJSON for
 * that one event, and both produce identical records (tests/unit/test_diff.c
 * checks it).  Metadata values (deviceProperties, distributedInfo, ...) are
 * parsed with cJSON into plain structs: no cJSON type leaves this room. */
#ifndef TRACETOP_TRACE_H
#define TRACETOP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/err.h"
#include "tracetop/io.h"
#include "tracetop/warn.h"

/* ---- limits (format.md §12) ---- */
#define TT_MAX_DEPTH 64                       /* nesting levels, top object = 1 */
#define TT_MAX_STRING (16u << 20)             /* bytes in one string */
#define TT_MAX_ITEM ((size_t)64 << 20)        /* bytes in one event or metadata value */
#define TT_MAX_SERIES 16                      /* numeric args kept per counter event */
#define TT_MAX_DUR_NS (7LL * 24 * 3600 * 1000000000LL)
/* |ts| and baseTimeNanoseconds up to 4e18 ns (1843..2096), and their sum as
 * well (else the base is ignored): any two times of a model are then less
 * than 2^63 ns apart, so a difference of times never overflows */
#define TT_MAX_TS_NS 4000000000000000000LL

/* ---- the raw event ---- */

/* A slice of text; not NUL-terminated.  Points into the scanner's buffer or
 * scratch space and is valid only during the sink call. */
struct tt_str {
	const char *p;
	uint32_t n;
};

enum tt_vtype { TT_V_ABSENT = 0, TT_V_NUM, TT_V_STR, TT_V_OTHER };

/* pid or tid: an integer, or a string (its trailing digits give num, else 0) */
struct tt_rawid {
	uint8_t type; /* enum tt_vtype; TT_V_NUM only for integers */
	int64_t num;
	struct tt_str str;
};

/* bits of tt_raw_event.have: which args were present with a usable value */
#define TT_ARGS(_)                                                                \
	_(CORR, "correlation")                                                    \
	_(EXT, "External id")                                                     \
	_(STREAM, "stream")                                                       \
	_(DEVICE, "device")                                                       \
	_(BYTES, "bytes")                                                         \
	_(BW, "memory bandwidth (GB/s)")                                          \
	_(CBID, "cbid")                                                           \
	_(GRID, "grid")                                                           \
	_(BLOCK, "block")                                                         \
	_(REGS, "registers per thread")                                           \
	_(SHMEM, "shared memory")                                                 \
	_(OCC, "est. achieved occupancy %")                                       \
	_(BPSM, "blocks per SM")                                                  \
	_(WPSM, "warps per SM")                                                   \
	_(COLL, "Collective name")                                                \
	_(DTYPE, "dtype")                                                         \
	_(IN_NELEMS, "In msg nelems")                                             \
	_(OUT_NELEMS, "Out msg nelems")                                           \
	_(GROUP_SIZE, "Group size")                                               \
	_(PG_NAME, "Process Group Name")                                          \
	_(PG_ID, "Process Group ID")                                              \
	_(PG_RANKS, "Process Group Ranks")                                        \
	_(INPUT_DIMS, "Input Dims")                                               \
	_(INPUT_TYPE, "Input type")                                               \
	_(INPUT_DIMS_OLD, "Input dims") /* autograd-profiler traces */            \
	_(CALL_STACK, "Call stack")                                               \
	_(SEQ, "Sequence number")                                                 \
	_(FWD_TID, "Fwd thread id")                                               \
	_(M_NAME, "name")                                                         \
	_(M_LABELS, "labels")                                                     \
	_(M_SORT, "sort_index")                                                   \
	_(MEM_BYTES, "Bytes")                                                     \
	_(MEM_ALLOC, "Total Allocated")                                           \
	_(MEM_RESERVED, "Total Reserved")                                         \
	_(MEM_DEVICE, "Device Id")                                                \
	_(MEM_DEVTYPE, "Device Type")                                             \
	_(MEM_ADDR, "Addr")                                                       \
	_(WAIT_STREAM, "wait_on_stream")                                          \
	_(WAIT_CORR, "wait_on_cuda_event_record_corr_id")                          \
	_(INPUT_STRIDES, "Input Strides")                                         \
	_(CONCRETE, "Concrete Inputs")

enum tt_arg {
#define _(id, key) TT_A_##id,
	TT_ARGS(_)
#undef _
	TT_A_COUNT
};
#define TT_HAVE(a) (UINT64_C(1) << (a))

/* what kind of value each arg holds in tt_raw_event */
enum tt_arg_kind { TT_AK_INT, TT_AK_DBL, TT_AK_STR, TT_AK_DIM3, TT_AK_JSON };
enum tt_arg_kind tt_arg_kind(enum tt_arg a);
const char *tt_arg_key(enum tt_arg a);

/* raw_event.flags */
#define TT_RF_TS_FLOAT 0x01    /* ts written with a fraction or exponent */
#define TT_RF_TS_SHORTFRAC 0x02 /* ts fraction of 1 or 2 digits */
#define TT_RF_TS_FRAC3 0x04     /* ts fraction of exactly 3 digits */
#define TT_RF_HAS_ARGS 0x08    /* an args object was present */
#define TT_RF_SLOW 0x10        /* produced by the cJSON path */
#define TT_RF_BAD_UTF8 0x20    /* a kept string was repaired */
#define TT_RF_DUP_KEY 0x40     /* a kept key appeared twice */
#define TT_RF_NUM_STRING 0x80  /* a numeric arg was given as a string */
#define TT_RF_BIG_INT 0x100    /* an integer arg was out of range */
#define TT_RF_BAD_ARG 0x200    /* a kept arg had an unexpected type */

struct tt_raw_series {
	struct tt_str key;
	double value;
};

struct tt_raw_event {
	uint64_t offset; /* text offset of the event's '{' */
	uint64_t index;  /* position in traceEvents, from 0 */
	uint32_t flags;

	/* top-level fields; *_type is an enum tt_vtype */
	uint8_t ph_type, cat_type, name_type, ts_type, dur_type, id_type, bp_type, s_type;
	struct tt_str ph, cat, name, bp, s;
	struct tt_rawid pid, tid;
	int64_t ts_ns, dur_ns; /* exact: digits of the µs value times 1000 */
	bool ts_range_err, dur_range_err;
	struct tt_rawid id; /* flow id: int or string */

	/* args */
	uint64_t have; /* TT_HAVE(TT_A_x) bits */
	int64_t i[TT_A_COUNT]; /* integer args (TT_AK_INT) */
	double d[TT_A_COUNT];  /* double args (TT_AK_DBL) */
	struct tt_str s_arg[TT_A_COUNT]; /* string and JSON-text args */
	int64_t dim[2][3];     /* grid, block */
	uint32_t nseries;      /* numeric args not listed above (counter series) */
	uint32_t series_dropped;
	struct tt_raw_series series[TT_MAX_SERIES];
};

/* ---- top-level metadata ---- */

struct tt_devprop {
	int64_t id;
	char name[64];
	int64_t total_mem;
	int64_t num_sms;
	int64_t compute_major, compute_minor;
	int64_t max_threads_per_block, max_threads_per_sm;
	int64_t regs_per_block, regs_per_sm;
	int64_t warp_size;
	int64_t shmem_per_block, shmem_per_sm;
};

struct tt_meta_kv {
	char *key;
	char *value; /* compact JSON text, truncated to 240 bytes */
};

struct tt_trace_meta {
	bool is_object;       /* false for the legacy bare array */
	bool has_schema;
	int64_t schema_version;
	bool has_rank;        /* distributedInfo.rank was an integer */
	int64_t rank;
	bool has_dist;
	char backend[32];
	int64_t world_size;   /* -1 if absent */
	int64_t pg_count;     /* -1 if absent */
	char nccl_version[32];
	bool has_base_time;
	int64_t base_time_ns; /* baseTimeNanoseconds */
	char display_unit[8];
	char trace_name[256];
	bool has_devprops;
	struct tt_devprop *devprops;
	size_t ndevprops;
	struct tt_meta_kv *kv; /* every other key, and the ones above as text */
	size_t nkv;
};

void tt_meta_free(struct tt_trace_meta *m);
/* Move what src holds into dst (src's values win, as later keys do). */
void tt_meta_merge(struct tt_trace_meta *dst, struct tt_trace_meta *src);

/* ---- scanning ---- */

/* The sink receives each event in document order.  A non-zero return stops
 * the scan (the sink sets *err). */
struct tt_sink {
	void *ctx;
	int (*event)(void *ctx, const struct tt_raw_event *ev, struct tt_err *err);
};

struct tt_scan_opts {
	bool no_fast;          /* every event through cJSON */
	bool verify;           /* run both paths on every event, fail on a difference */
	uint64_t max_events;   /* 0 = unlimited */
	/* called after each read: text bytes, raw bytes, events so far */
	void (*progress)(void *ctx, uint64_t text, uint64_t raw, uint64_t events);
	void *progress_ctx;
	/* the reader starts inside traceEvents (a chunk of a split file):
	 * parse events separated by commas until the end or a ']' */
	bool start_in_array;
	int array_depth; /* nesting level of the events, 3 for the object form */
	/* with start_in_array: stop before an event that starts at or after
	 * this text offset (0 = never) */
	uint64_t stop_at;
	/* stop at the '[' of traceEvents (the first part of a split load) */
	bool prefix_only;
	/* the reader starts just after the traceEvents array, inside the
	 * top-level object (the last part of a split load) */
	bool resume_object;
	struct tt_scan_pos *pos; /* where the scan stopped (may be NULL) */
};

struct tt_scan_pos {
	uint64_t events_at;  /* prefix_only: offset just after traceEvents' '[' */
	bool bare;           /* prefix_only: the file is a bare array */
	uint64_t stopped_at; /* start_in_array: offset of the first event not read */
	bool array_closed;   /* start_in_array: the array's ']' was reached */
	uint64_t after_array; /* offset just after that ']' */
	uint64_t events;     /* events delivered */
};

/* Scan one whole trace.  Errors reject the file: -code with *err naming the
 * path and byte offset.  Warnings (including a salvaged truncation) go to
 * *rep.  meta is filled (free it with tt_meta_free) even on error. */
int tt_scan(struct tt_reader *rd, const struct tt_scan_opts *o, const struct tt_sink *sink,
	    struct tt_trace_meta *meta, struct tt_load_report *rep, struct tt_err *err);

/* ---- single events (tests, fuzzing, event details) ---- */

enum tt_event_res {
	TT_EV_OK = 0,
	TT_EV_FALLBACK = 1, /* fast path: not handled, use the slow path */
	TT_EV_MORE = 2,     /* the text ends inside the event */
	TT_EV_ERROR = 3,    /* invalid JSON or a limit; *err says where */
};

/* Parse the event object starting at p (a '{'), base = text offset of p.
 * *used gets the length of the object.  scratch holds unescaped strings and
 * must outlive the use of *ev. */
struct tt_scratch;
struct tt_scratch *tt_scratch_new(void);
void tt_scratch_free(struct tt_scratch *s);
void tt_scratch_reset(struct tt_scratch *s);

enum tt_event_res tt_event_fast(const char *p, const char *end, uint64_t base, int depth,
				struct tt_raw_event *ev, size_t *used, struct tt_scratch *scr,
				struct tt_err *err);
enum tt_event_res tt_event_slow(const char *p, const char *end, uint64_t base, int depth,
				struct tt_raw_event *ev, size_t *used, struct tt_scratch *scr,
				struct tt_err *err);
/* Compare two records; returns NULL if equal, else the name of the first
 * field that differs. */
const char *tt_raw_diff(const struct tt_raw_event *a, const struct tt_raw_event *b);

#endif
