/* model room: the builder's state, shared by build.c and finish.c */
#ifndef TRACETOP_BUILD_INT_H
#define TRACETOP_BUILD_INT_H

#include "model_int.h"

#define CHUNK_MIN 32
#define CHUNK_MAX (64 * 1024)

struct chunk {
	struct chunk *next;
	uint32_t n, cap;
	struct tt_event ev[];
};

static inline size_t chunk_bytes(uint32_t cap)
{
	return sizeof(struct chunk) + (size_t)cap * sizeof(struct tt_event);
}

/* identity of a track while building */
struct tkey {
	uint8_t kind;
	bool pid_is_str, tid_is_str;
	int64_t pid, tid; /* numbers or string ids */
};

struct stage_track {
	struct tkey key;
	struct tt_track t;
	struct chunk *head, *tail;
	uint32_t n;
	bool unsorted;
	int64_t last_ts, last_dur;
};

struct be_ev {
	int64_t ts;
	uint64_t order;
	uint32_t track, name, corr, ext;
	uint16_t cat;
	char ph;
};

struct mproc {
	struct tkey key; /* kind unused, tid unused */
	uint32_t name, labels;
	int64_t sort;
	bool has_sort;
};

struct mthread {
	struct tkey key;
	uint32_t name;
	int64_t sort;
	bool has_sort, has_name;
};

struct csample {
	uint32_t counter;
	int64_t ts;
	double value;
};

/* recently interned strings: a direct-mapped cache in front of the string
 * table, so that a repeated name costs one compare instead of a hash over
 * all its bytes and a probe (a zeroed entry stands for "" = id 0) */
#define ICACHE_BITS 12
struct icache_ent {
	uint64_t head; /* the first 8 bytes (zero-padded) */
	uint32_t len, id;
};

struct builder {
	struct tt_rank *r;
	struct icache_ent *icache;
	int fin_threads; /* builder_finish may use this many threads (0 = 1) */
	uint64_t max_memory;
	struct tt_load_report rep;

	struct stage_track *tracks;
	size_t ntracks, ctracks;
	struct tt_hmap thash; /* key hash -> track index */
	uint32_t last_track;

	uint16_t *catmap; /* string id -> cat index + 1 */
	size_t ncatmap;
	size_t ccats;

	size_t ckinfo, cminfo, copinfo, ccomm, cmeminfo, csyncinfo, cflows;

	struct be_ev *be;
	size_t nbe, cbe;
	uint64_t order;

	struct mproc *procs;
	size_t nprocs, cprocs;
	struct tt_hmap phash; /* key hash -> procs index */
	struct mthread *threads;
	size_t nthreads, cthreads;
	struct tt_hmap mthash; /* key hash -> threads index */

	struct tt_counter *counters;
	size_t ncounters, ccounters;
	struct tt_hmap chash; /* (name, series, pid) hash -> counters index */
	struct csample *cs;
	size_t ncs, ccs;

	uint64_t nzero;          /* X events with ts 0 and dur 0 */
	int64_t min_ts_nonzero;  /* raw */
	int64_t max_ts;          /* raw, of every event with a ts; INT64_MIN if none */
	bool any_float_ts, any_no_ts, frac3, shortfrac;
	uint64_t frac_off;
	uint64_t nflows_total;
	uint64_t since_check;
};

/* The metadata of thread k (its pid and tid; kind ignored) or process k
 * (its pid), added (zeroed, no name) when add and missing, else NULL when
 * missing.  The pointer is valid until the next one is added. */
struct mthread *builder_thread(struct builder *b, const struct tkey *k, bool add);
struct mproc *builder_proc(struct builder *b, const struct tkey *k, bool add);

void free_chunks(struct stage_track *t);
struct tt_event *track_push(struct stage_track *t);

#endif
