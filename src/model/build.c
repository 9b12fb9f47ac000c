/* Builder: raw events -> tracks -> sorted, immutable event arrays.
 *
 * While a file is scanned, events are appended to their track's staging
 * chunks (from 32 events, doubling; the large ones mmap'ed, so memory goes
 * back to the system as soon as a chunk has been copied out).  builder_finish() copies track after track into one flat
 * array, sorting each track by (start, -duration) with a stable sort, so
 * that the peak stays near one copy of the events. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "build_int.h"
#include "model_int.h"
#include "tracetop/util.h"

/* chunked, page-backed staging memory (returned to the system when freed)
 * (a small chunk from malloc: a trace of many short tracks -- a thread or
 * a stream per event -- would otherwise cost a mapping and a page fault
 * per track; the larger ones mapped, so that they go back at once) */
#define STAGE_MMAP_MIN (128 * 1024)

static void *stage_alloc(size_t n)
{
	void *p;
	if (n < STAGE_MMAP_MIN) {
		p = tt_malloc(n);
	} else {
		p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			tt_die("out of memory (%zu bytes)", n);
	}
	tt_mem_account((int64_t)n);
	return p;
}

static void stage_free(void *p, size_t n)
{
	if (p) {
		if (n < STAGE_MMAP_MIN)
			free(p);
		else
			munmap(p, n);
		tt_mem_account(-(int64_t)n);
	}
}

struct builder *builder_new(uint64_t max_memory)
{
	struct builder *b = tt_calloc(1, sizeof(*b));
	b->r = tt_calloc(1, sizeof(*b->r));
	tt_strtab_init(&b->r->strs);
	b->max_memory = max_memory;
	b->last_track = TT_NONE;
	b->min_ts_nonzero = INT64_MAX;
	b->max_ts = INT64_MIN;
	b->icache = tt_calloc((size_t)1 << ICACHE_BITS, sizeof(*b->icache));
	return b;
}

void free_chunks(struct stage_track *t)
{
	struct chunk *c = t->head;
	while (c) {
		struct chunk *n = c->next;
		stage_free(c, chunk_bytes(c->cap));
		c = n;
	}
	t->head = t->tail = NULL;
}

void builder_free(struct builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->ntracks; i++)
		free_chunks(&b->tracks[i]);
	free(b->tracks);
	tt_hmap_free(&b->thash);
	free(b->icache);
	free(b->catmap);
	free(b->be);
	free(b->procs);
	tt_hmap_free(&b->phash);
	free(b->threads);
	tt_hmap_free(&b->mthash);
	free(b->counters);
	tt_hmap_free(&b->chash);
	free(b->cs);
	if (b->r)
		tt_rank_free(b->r);
	free(b);
}

struct tt_load_report *builder_report(struct builder *b)
{
	return &b->rep;
}

/* ---- tracks ---- */

static uint64_t tkey_hash(const struct tkey *k)
{
	/* (seeded: a trace cannot choose ids whose keys share a hash) */
	uint64_t h = ((uint64_t)k->kind ^ tt_hash_seed) * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)k->pid + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
	h ^= (uint64_t)k->tid + 0x85EBCA77C2B2AE63ull + (h << 6) + (h >> 2);
	h ^= (uint64_t)k->pid_is_str << 1 | (uint64_t)k->tid_is_str;
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	return h;
}

static bool tkey_eq(const struct tkey *a, const struct tkey *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->tid == b->tid &&
	       a->pid_is_str == b->pid_is_str && a->tid_is_str == b->tid_is_str;
}

static uint32_t track_get(struct builder *b, const struct tkey *k)
{
	if (b->last_track != TT_NONE && tkey_eq(&b->tracks[b->last_track].key, k))
		return b->last_track;
	uint64_t h = tkey_hash(k);
	size_t pos;
	for (uint32_t t = tt_hmap_first(&b->thash, h, &pos); t != TT_HMAP_NONE;
	     t = tt_hmap_next(&b->thash, h, &pos))
		if (tkey_eq(&b->tracks[t].key, k))
			return b->last_track = t;
	/* new track */
	TT_GROW(b->tracks, b->ctracks, b->ntracks + 1);
	uint32_t idx = (uint32_t)b->ntracks++;
	struct stage_track *st = &b->tracks[idx];
	memset(st, 0, sizeof(*st));
	st->key = *k;
	st->last_ts = INT64_MIN;
	tt_hmap_add(&b->thash, h, idx);
	return b->last_track = idx;
}

struct tt_event *track_push(struct stage_track *t)
{
	struct chunk *c = t->tail;
	if (!c || c->n == c->cap) {
		uint32_t cap = c ? c->cap * 2 : CHUNK_MIN;
		if (cap > CHUNK_MAX)
			cap = CHUNK_MAX;
		struct chunk *nc = stage_alloc(chunk_bytes(cap));
		nc->next = NULL;
		nc->n = 0;
		nc->cap = cap;
		if (c)
			c->next = nc;
		else
			t->head = nc;
		t->tail = nc;
		c = nc;
	}
	t->n++;
	return &c->ev[c->n++];
}

/* ---- strings ---- */

/* tt_strtab_intern() through the builder's cache */
static uint32_t intern(struct builder *b, const char *p, size_t n)
{
	uint64_t head = 0, tail = 0;
	memcpy(&head, p, n < 8 ? n : 8);
	if (n > 8)
		memcpy(&tail, p + n - 8, 8);
	uint64_t h = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^
		     ((uint64_t)n * 0x165667B19E3779F9ull);
	struct icache_ent *e = &b->icache[h >> (64 - ICACHE_BITS)];
	const struct tt_strtab *t = &b->r->strs;
	if (e->len == n && e->head == head && e->id < t->n &&
	    memcmp(t->str[e->id], p, n) == 0)
		return e->id;
	uint32_t id = tt_strtab_intern(&b->r->strs, p, n);
	if (n <= UINT32_MAX - 1) {
		e->head = head;
		e->len = (uint32_t)n;
		e->id = id;
	}
	return id;
}

/* ---- categories ---- */

static enum tt_cat_kind tt_cat_kind_of(const char *s, size_t n, bool *legacy)
{
	static const struct {
		const char *name;
		enum tt_cat_kind k;
		bool legacy;
	} tab[] = {
		{"cpu_op", TT_K_CPU_OP, false},
		{"user_annotation", TT_K_USER_ANNOT, false},
		{"gpu_user_annotation", TT_K_GPU_ANNOT, false},
		{"cuda_runtime", TT_K_RUNTIME, false},
		{"cuda_driver", TT_K_DRIVER, false},
		{"kernel", TT_K_KERNEL, false},
		{"gpu_memcpy", TT_K_MEMCPY, false},
		{"gpu_memset", TT_K_MEMSET, false},
		{"cuda_sync", TT_K_SYNC, false},
		{"python_function", TT_K_PYTHON, false},
		{"trace", TT_K_TRACE, false},
		{"cpu_instant_event", TT_K_CPU_INSTANT, false},
		{"overhead", TT_K_OVERHEAD, false},
		{"mtia_runtime", TT_K_MTIA_RUNTIME, false},
		{"mtia_ccp_events", TT_K_MTIA_CCP, false},
		{"ac2g", TT_K_FLOW, false},
		{"async_cpu_to_gpu", TT_K_FLOW, false},
		{"fwdbwd", TT_K_FLOW, false},
		{"async", TT_K_FLOW, false},
		{"runtime", TT_K_RUNTIME, true},
		{"memcpy", TT_K_MEMCPY, true},
		{"memset", TT_K_MEMSET, true},
		{"operator", TT_K_CPU_OP, true},
		{"python", TT_K_PYTHON, true},
		{"user annotation", TT_K_USER_ANNOT, true},
		{"gpu user annotation", TT_K_GPU_ANNOT, true},
		{"driver", TT_K_DRIVER, true},
	};
	*legacy = false;
	for (size_t i = 0; i < TT_ARRAY_SIZE(tab); i++) {
		size_t m = strlen(tab[i].name);
		if (m != n || strncasecmp(s, tab[i].name, n) != 0)
			continue;
		/* exact lower-case spelling is current, anything else legacy */
		*legacy = tab[i].legacy || memcmp(s, tab[i].name, n) != 0;
		if (tab[i].k == TT_K_TRACE)
			*legacy = false;
		return tab[i].k;
	}
	return TT_K_OTHER;
}

static uint16_t cat_get(struct builder *b, uint8_t type, struct tt_str s, uint64_t off)
{
	struct tt_rank *r = b->r;
	uint32_t id = type == TT_V_STR ? intern(b, s.p, s.n) : TT_NONE;
	if (id != TT_NONE && id < b->ncatmap && b->catmap[id])
		return (uint16_t)(b->catmap[id] - 1);
	if (id == TT_NONE) {
		/* "no cat" has a fixed slot: look for it */
		for (uint32_t i = 0; i < r->ncats; i++)
			if (r->cats[i].kind == TT_K_NONE)
				return (uint16_t)i;
	}
	if (r->ncats >= 65535) {
		/* absurd number of categories: lump into the first "other" */
		for (uint32_t i = 0; i < r->ncats; i++)
			if (r->cats[i].kind == TT_K_OTHER)
				return (uint16_t)i;
	}
	TT_GROW(r->cats, b->ccats, (size_t)r->ncats + 1);
	struct tt_cat *c = &r->cats[r->ncats];
	memset(c, 0, sizeof(*c));
	c->name = id == TT_NONE ? 0 : id;
	c->legacy = false;
	c->kind = id == TT_NONE ? TT_K_NONE : (uint8_t)tt_cat_kind_of(s.p, s.n, &c->legacy);
	if (c->kind == TT_K_OTHER)
		tt_report_warn(&b->rep, TT_W_UNKNOWN_CAT, off);
	if (c->legacy)
		tt_report_warn(&b->rep, TT_W_LEGACY_CAT, off);
	if (id != TT_NONE) {
		if (id >= b->ncatmap) {
			size_t n = b->ncatmap;
			TT_GROW(b->catmap, b->ncatmap, (size_t)id + 1);
			memset(b->catmap + n, 0, (b->ncatmap - n) * sizeof(*b->catmap));
		}
		b->catmap[id] = (uint16_t)(r->ncats + 1);
	}
	return (uint16_t)r->ncats++;
}

/* ---- keys ---- */

static bool str_is(struct tt_str s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n == n && memcmp(s.p, lit, n) == 0;
}

static void id_key(struct builder *b, const struct tt_rawid *id, bool *is_str, int64_t *v,
		   uint64_t off)
{
	if (id->type == TT_V_STR) {
		*is_str = true;
		*v = intern(b, id->str.p, id->str.n);
		tt_report_warn(&b->rep, TT_W_STRING_ID, off);
	} else if (id->type == TT_V_NUM) {
		*is_str = false;
		*v = id->num;
	} else {
		/* absent: the string "" */
		*is_str = true;
		*v = 0;
	}
}

static uint32_t u32_id(struct builder *b, const struct tt_raw_event *ev, int a)
{
	if (!(ev->have & TT_HAVE(a)))
		return TT_NONE;
	int64_t v = ev->i[a];
	if (v < 0 || v >= (int64_t)TT_NONE) {
		tt_report_warn(&b->rep, TT_W_CORR_RANGE, ev->offset);
		return TT_NONE;
	}
	return (uint32_t)v;
}

static uint32_t str_arg(struct builder *b, const struct tt_raw_event *ev, int a)
{
	if (!(ev->have & TT_HAVE(a)))
		return TT_NONE;
	struct tt_str s = ev->s_arg[a];
	if (s.n > 65536)
		s.n = 65536;
	return intern(b, s.p, s.n);
}

static int64_t int_arg(const struct tt_raw_event *ev, int a, int64_t dflt)
{
	return (ev->have & TT_HAVE(a)) ? ev->i[a] : dflt;
}

static int32_t i32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

#define HAVE_COMM                                                                   \
	(TT_HAVE(TT_A_COLL) | TT_HAVE(TT_A_DTYPE) | TT_HAVE(TT_A_IN_NELEMS) |       \
	 TT_HAVE(TT_A_OUT_NELEMS) | TT_HAVE(TT_A_GROUP_SIZE) | TT_HAVE(TT_A_PG_NAME) | \
	 TT_HAVE(TT_A_PG_ID))

static uint32_t comm_info(struct builder *b, const struct tt_raw_event *ev)
{
	if (!(ev->have & HAVE_COMM))
		return TT_NONE;
	struct tt_rank *r = b->r;
	TT_GROW(r->comm, b->ccomm, (size_t)r->ncomm + 1);
	struct tt_comm *c = &r->comm[r->ncomm];
	c->name = str_arg(b, ev, TT_A_COLL);
	c->dtype = str_arg(b, ev, TT_A_DTYPE);
	c->pg = str_arg(b, ev, TT_A_PG_NAME);
	if (c->pg == TT_NONE)
		c->pg = str_arg(b, ev, TT_A_PG_ID);
	c->pg_ranks = str_arg(b, ev, TT_A_PG_RANKS);
	c->in_nelems = int_arg(ev, TT_A_IN_NELEMS, -1);
	c->out_nelems = int_arg(ev, TT_A_OUT_NELEMS, -1);
	c->group_size = int_arg(ev, TT_A_GROUP_SIZE, -1);
	return r->ncomm++;
}

#define HAVE_KINFO                                                                  \
	(TT_HAVE(TT_A_GRID) | TT_HAVE(TT_A_BLOCK) | TT_HAVE(TT_A_REGS) |            \
	 TT_HAVE(TT_A_SHMEM) | TT_HAVE(TT_A_OCC) | TT_HAVE(TT_A_BPSM) |             \
	 TT_HAVE(TT_A_WPSM) | HAVE_COMM)
#define HAVE_OPINFO                                                                 \
	(TT_HAVE(TT_A_INPUT_DIMS) | TT_HAVE(TT_A_INPUT_DIMS_OLD) | TT_HAVE(TT_A_INPUT_TYPE) | \
	 TT_HAVE(TT_A_CALL_STACK) | TT_HAVE(TT_A_INPUT_STRIDES) | TT_HAVE(TT_A_CONCRETE) |      \
	 TT_HAVE(TT_A_SEQ) | HAVE_COMM)
#define HAVE_MEMEV                                                                  \
	(TT_HAVE(TT_A_MEM_BYTES) | TT_HAVE(TT_A_MEM_ALLOC) | TT_HAVE(TT_A_MEM_RESERVED))

/* a double arg as a float: absent gives dflt; a value a float cannot hold
 * (1e300, or an exponent that overflowed to infinity) is a bad arg */
static float f32_arg(struct builder *b, const struct tt_raw_event *ev, int a, float dflt)
{
	if (!(ev->have & TT_HAVE(a)))
		return dflt;
	double v = ev->d[a];
	if (!(fabs(v) <= FLT_MAX)) {
		tt_report_warn(&b->rep, TT_W_BAD_ARG, ev->offset);
		return dflt;
	}
	return (float)v;
}

/* a double arg that must be finite */
static double f64_arg(struct builder *b, const struct tt_raw_event *ev, int a, double dflt)
{
	if (!(ev->have & TT_HAVE(a)))
		return dflt;
	double v = ev->d[a];
	if (!isfinite(v)) {
		tt_report_warn(&b->rep, TT_W_BAD_ARG, ev->offset);
		return dflt;
	}
	return v;
}

/* thread: the CPU track of a CPU-side event placed on a GPU stream track
 * (kept in its opinfo), else TT_NONE */
static void set_aux(struct builder *b, const struct tt_raw_event *ev, struct tt_event *e,
		    enum tt_cat_kind kind, uint32_t thread)
{
	struct tt_rank *r = b->r;
	uint64_t h = ev->have;
	if (kind == TT_K_KERNEL && (h & HAVE_KINFO)) {
		TT_GROW(r->kinfo, b->ckinfo, (size_t)r->nkinfo + 1);
		struct tt_kinfo *k = &r->kinfo[r->nkinfo];
		memset(k, 0, sizeof(*k));
		for (int i = 0; i < 3; i++) {
			k->grid[i] = (h & TT_HAVE(TT_A_GRID)) ? i32(ev->dim[0][i]) : 0;
			k->block[i] = (h & TT_HAVE(TT_A_BLOCK)) ? i32(ev->dim[1][i]) : 0;
		}
		k->regs = i32(int_arg(ev, TT_A_REGS, 0));
		k->shmem = i32(int_arg(ev, TT_A_SHMEM, 0));
		k->occupancy = f32_arg(b, ev, TT_A_OCC, -1.0f);
		k->blocks_per_sm = f32_arg(b, ev, TT_A_BPSM, -1.0f);
		k->warps_per_sm = f32_arg(b, ev, TT_A_WPSM, -1.0f);
		k->comm = comm_info(b, ev);
		e->aux = r->nkinfo++;
		e->flags |= TT_EF_KINFO;
	} else if ((kind == TT_K_MEMCPY || kind == TT_K_MEMSET) &&
		   (h & (TT_HAVE(TT_A_BYTES) | TT_HAVE(TT_A_BW)))) {
		TT_GROW(r->minfo, b->cminfo, (size_t)r->nminfo + 1);
		struct tt_minfo *m = &r->minfo[r->nminfo];
		m->bytes = int_arg(ev, TT_A_BYTES, -1);
		m->bw_gbps = f64_arg(b, ev, TT_A_BW, 0.0);
		e->aux = r->nminfo++;
		e->flags |= TT_EF_MINFO;
	} else if (kind == TT_K_SYNC && (h & (TT_HAVE(TT_A_WAIT_STREAM) | TT_HAVE(TT_A_WAIT_CORR)))) {
		TT_GROW(r->syncinfo, b->csyncinfo, (size_t)r->nsyncinfo + 1);
		struct tt_syncinfo *y = &r->syncinfo[r->nsyncinfo];
		y->wait_stream = int_arg(ev, TT_A_WAIT_STREAM, -1);
		y->wait_corr = int_arg(ev, TT_A_WAIT_CORR, -1);
		e->aux = r->nsyncinfo++;
		e->flags |= TT_EF_SYNCINFO;
	} else if (ev->ph.p[0] == 'i' || ev->ph.p[0] == 'I') {
		if (h & HAVE_MEMEV) {
			TT_GROW(r->meminfo, b->cmeminfo, (size_t)r->nmeminfo + 1);
			struct tt_meminfo *m = &r->meminfo[r->nmeminfo];
			memset(m, 0, sizeof(*m));
			m->bytes = int_arg(ev, TT_A_MEM_BYTES, 0);
			m->total_alloc = int_arg(ev, TT_A_MEM_ALLOC, -1);
			m->total_reserved = int_arg(ev, TT_A_MEM_RESERVED, -1);
			m->device = int_arg(ev, TT_A_MEM_DEVICE, -1);
			m->addr = int_arg(ev, TT_A_MEM_ADDR, 0);
			m->device_type = str_arg(b, ev, TT_A_MEM_DEVTYPE);
			if (m->device_type == TT_NONE && (h & TT_HAVE(TT_A_MEM_DEVTYPE)))
				m->device_type = TT_NONE;
			e->aux = r->nmeminfo++;
			e->flags |= TT_EF_MEMEV;
		}
	} else if ((h & HAVE_OPINFO) || thread != TT_NONE) {
		TT_GROW(r->opinfo, b->copinfo, (size_t)r->nopinfo + 1);
		struct tt_opinfo *o = &r->opinfo[r->nopinfo];
		/* (autograd-profiler traces spell it "Input dims") */
		o->input_dims = str_arg(b, ev, (h & TT_HAVE(TT_A_INPUT_DIMS)) ? TT_A_INPUT_DIMS
									   : TT_A_INPUT_DIMS_OLD);
		o->input_type = str_arg(b, ev, TT_A_INPUT_TYPE);
		o->call_stack = str_arg(b, ev, TT_A_CALL_STACK);
		if (o->call_stack != TT_NONE && tt_strtab_len(&r->strs, o->call_stack) == 0)
			o->call_stack = TT_NONE;
		o->input_strides = str_arg(b, ev, TT_A_INPUT_STRIDES);
		o->concrete = str_arg(b, ev, TT_A_CONCRETE);
		o->pad = 0;
		o->seq = int_arg(ev, TT_A_SEQ, -1);
		o->comm = comm_info(b, ev);
		o->thread = thread;
		e->aux = r->nopinfo++;
		e->flags |= TT_EF_OPINFO;
	}
}

/* ---- metadata events ---- */

/* A thread's metadata is keyed by (pid, tid), a process's by pid, whatever
 * the kind of the track asking; both found through an index (a trace may
 * name a thread or process per event). */
static struct tkey meta_key(const struct tkey *k, bool proc)
{
	return (struct tkey){0, k->pid_is_str, proc ? false : k->tid_is_str, k->pid,
			     proc ? 0 : k->tid};
}

struct mthread *builder_thread(struct builder *b, const struct tkey *k, bool add)
{
	struct tkey m = meta_key(k, false);
	uint64_t h = tkey_hash(&m);
	size_t pos;
	for (uint32_t i = tt_hmap_first(&b->mthash, h, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(&b->mthash, h, &pos))
		if (tkey_eq(&b->threads[i].key, &m))
			return &b->threads[i];
	if (!add)
		return NULL;
	TT_GROW(b->threads, b->cthreads, b->nthreads + 1);
	struct mthread *t = &b->threads[b->nthreads];
	memset(t, 0, sizeof(*t));
	t->key = m;
	tt_hmap_add(&b->mthash, h, (uint32_t)b->nthreads++);
	return t;
}

struct mproc *builder_proc(struct builder *b, const struct tkey *k, bool add)
{
	struct tkey m = meta_key(k, true);
	uint64_t h = tkey_hash(&m);
	size_t pos;
	for (uint32_t i = tt_hmap_first(&b->phash, h, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(&b->phash, h, &pos))
		if (tkey_eq(&b->procs[i].key, &m))
			return &b->procs[i];
	if (!add)
		return NULL;
	TT_GROW(b->procs, b->cprocs, b->nprocs + 1);
	struct mproc *p = &b->procs[b->nprocs];
	memset(p, 0, sizeof(*p));
	p->key = m;
	p->name = p->labels = TT_NONE;
	tt_hmap_add(&b->phash, h, (uint32_t)b->nprocs++);
	return p;
}

static void meta_event(struct builder *b, const struct tt_raw_event *ev)
{
	struct tkey k = {0};
	id_key(b, &ev->pid, &k.pid_is_str, &k.pid, ev->offset);
	struct tt_str nm = ev->name_type == TT_V_STR ? ev->name : (struct tt_str){"", 0};
	bool is_thread = nm.n > 7 && memcmp(nm.p, "thread_", 7) == 0;
	bool is_proc = nm.n > 8 && memcmp(nm.p, "process_", 8) == 0;
	if (is_thread) {
		id_key(b, &ev->tid, &k.tid_is_str, &k.tid, ev->offset);
		struct mthread *t = builder_thread(b, &k, true);
		if (nm.n == 11 && memcmp(nm.p, "thread_name", 11) == 0 &&
		    (ev->have & TT_HAVE(TT_A_M_NAME))) {
			struct tt_str v = ev->s_arg[TT_A_M_NAME];
			uint32_t id = tt_strtab_intern(&b->r->strs, v.p, v.n);
			if (t->has_name && t->name != id)
				tt_report_warn(&b->rep, TT_W_THREAD_NAME, ev->offset);
			if (!t->has_name) {
				t->name = id;
				t->has_name = true;
			}
		} else if (ev->have & TT_HAVE(TT_A_M_SORT)) {
			t->sort = ev->i[TT_A_M_SORT];
			t->has_sort = true;
		}
	} else if (is_proc) {
		struct mproc *p = builder_proc(b, &k, true);
		if (ev->have & TT_HAVE(TT_A_M_NAME)) {
			struct tt_str v = ev->s_arg[TT_A_M_NAME];
			if (p->name == TT_NONE)
				p->name = tt_strtab_intern(&b->r->strs, v.p, v.n);
		}
		if (ev->have & TT_HAVE(TT_A_M_LABELS)) {
			struct tt_str v = ev->s_arg[TT_A_M_LABELS];
			p->labels = tt_strtab_intern(&b->r->strs, v.p, v.n);
		}
		if (ev->have & TT_HAVE(TT_A_M_SORT)) {
			p->sort = ev->i[TT_A_M_SORT];
			p->has_sort = true;
		}
	}
}

/* ---- counters ---- */

static uint64_t counter_hash(uint32_t name, const struct tkey *pk, uint32_t series)
{
	int64_t ns = (int64_t)((uint64_t)name << 32 | series);
	struct tkey k = {0, pk->pid_is_str, false, pk->pid, ns};
	return tkey_hash(&k);
}

/* (found through an index: a trace may hold a series per sample) */
static uint32_t counter_get(struct builder *b, uint32_t name, const struct tkey *pk,
			    uint32_t series)
{
	uint64_t h = counter_hash(name, pk, series);
	size_t pos;
	for (uint32_t i = tt_hmap_first(&b->chash, h, &pos); i != TT_HMAP_NONE;
	     i = tt_hmap_next(&b->chash, h, &pos)) {
		const struct tt_counter *c = &b->counters[i];
		if (c->name == name && c->series == series && c->pid == pk->pid &&
		    (c->pid_str != TT_NONE) == pk->pid_is_str)
			return i;
	}
	TT_GROW(b->counters, b->ccounters, b->ncounters + 1);
	struct tt_counter *c = &b->counters[b->ncounters];
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->series = series;
	c->pid = pk->pid;
	c->pid_str = pk->pid_is_str ? (uint32_t)pk->pid : TT_NONE;
	c->first = c->count = 0;
	tt_hmap_add(&b->chash, h, (uint32_t)b->ncounters);
	return (uint32_t)b->ncounters++;
}

static void counter_sample(struct builder *b, uint32_t counter, int64_t ts, double v)
{
	TT_GROW(b->cs, b->ccs, b->ncs + 1);
	b->cs[b->ncs].counter = counter;
	b->cs[b->ncs].ts = ts;
	b->cs[b->ncs].value = v;
	b->ncs++;
}

static void counter_event(struct builder *b, const struct tt_raw_event *ev)
{
	struct tkey k = {0};
	id_key(b, &ev->pid, &k.pid_is_str, &k.pid, ev->offset);
	uint32_t name = ev->name_type == TT_V_STR ? tt_strtab_intern(&b->r->strs, ev->name.p,
								     ev->name.n) :
						    0;
	for (uint32_t i = 0; i < ev->nseries; i++) {
		if (!isfinite(ev->series[i].value)) {
			tt_report_warn(&b->rep, TT_W_BAD_ARG, ev->offset);
			continue;
		}
		uint32_t s = tt_strtab_intern(&b->r->strs, ev->series[i].key.p, ev->series[i].key.n);
		counter_sample(b, counter_get(b, name, &k, s), ev->ts_ns, ev->series[i].value);
	}
	/* numeric args that have a meaning elsewhere are series here too */
	uint64_t h = ev->have;
	while (h) {
		int a = __builtin_ctzll(h);
		h &= h - 1;
		enum tt_arg_kind kind = tt_arg_kind(a);
		if (kind != TT_AK_INT && kind != TT_AK_DBL)
			continue;
		const char *key = tt_arg_key(a);
		uint32_t s = tt_strtab_intern(&b->r->strs, key, strlen(key));
		double v = kind == TT_AK_INT ? (double)ev->i[a] : ev->d[a];
		if (!isfinite(v)) {
			tt_report_warn(&b->rep, TT_W_BAD_ARG, ev->offset);
			continue;
		}
		counter_sample(b, counter_get(b, name, &k, s), ev->ts_ns, v);
	}
}

/* ---- the sink ---- */

static bool is_marker_name(struct tt_str n)
{
	return (n.n == 33 && memcmp(n.p, "Iteration Start: PyTorch Profiler", 33) == 0) ||
	       (n.n == 17 && memcmp(n.p, "Record Window End", 17) == 0);
}

/* "1.04 MB", "12.5 MB", "3072 MB" */
static const char *mbytes(char *buf, size_t n, double bytes)
{
	double mb = bytes / 1048576.0;
	snprintf(buf, n, "%.*f MB", mb >= 100 ? 0 : mb >= 10 ? 1 : 2, mb);
	return buf;
}

int builder_event(void *ctx, const struct tt_raw_event *ev, struct tt_err *err)
{
	struct builder *b = ctx;
	struct tt_rank *r = b->r;
	char ph = ev->ph.n == 1 ? ev->ph.p[0] : '?';

	/* (often enough that each part of a file loaded in parts checks too;
	 * the check is one atomic load) */
	if (++b->since_check >= 4096) {
		b->since_check = 0;
		if (b->max_memory && (uint64_t)tt_mem_used() > b->max_memory) {
			if (err) {
				/* (the scanner adds the path; the loader may add an
				 * estimate for the whole file) */
				char budget[32], used[32];
				err->code = TT_E_LIMIT;
				err->offset = ev->offset;
				snprintf(err->msg, sizeof(err->msg),
					 "the model needs more than the memory budget of %s "
					 "(--max-memory): %s in use at this event",
					 mbytes(budget, sizeof(budget), (double)b->max_memory),
					 mbytes(used, sizeof(used), (double)tt_mem_used()));
			}
			return -TT_E_LIMIT;
		}
	}
	if (ev->ts_type != TT_V_NUM)
		b->any_no_ts = true;
	else if (ev->flags & TT_RF_TS_FLOAT)
		b->any_float_ts = true;
	if (ev->ts_type == TT_V_NUM && ev->ts_ns > b->max_ts)
		b->max_ts = ev->ts_ns;
	if (ev->flags & (TT_RF_TS_FRAC3 | TT_RF_TS_SHORTFRAC)) {
		if (ev->flags & TT_RF_TS_FRAC3)
			b->frac3 = true;
		else
			b->shortfrac = true;
		if (b->frac3 && b->shortfrac && !b->frac_off)
			b->frac_off = ev->offset;
	}

	switch (ph) {
	case 'X':
	case 'i':
	case 'I':
	case 'B':
	case 'E':
		break;
	case 'M':
		meta_event(b, ev);
		return 0;
	case 'C':
		counter_event(b, ev);
		return 0;
	case 's':
	case 't':
	case 'f': {
		b->nflows_total++;
		if (ev->cat_type == TT_V_STR && ev->cat.n == 6 && memcmp(ev->cat.p, "fwdbwd", 6) == 0) {
			struct tkey k = {TT_TRACK_CPU, false, false, 0, 0};
			id_key(b, &ev->pid, &k.pid_is_str, &k.pid, ev->offset);
			id_key(b, &ev->tid, &k.tid_is_str, &k.tid, ev->offset);
			TT_GROW(r->flows, b->cflows, (size_t)r->nflows + 1);
			struct tt_flow *f = &r->flows[r->nflows++];
			memset(f, 0, sizeof(*f));
			f->ts = ev->ts_ns;
			f->track = track_get(b, &k);
			f->id = ev->id.type == TT_V_NUM || ev->id.type == TT_V_STR ? (uint32_t)ev->id.num : 0;
			f->ph = (uint8_t)ph;
		}
		return 0;
	}
	default:
		if (ev->ph.n == 1 && strchr("bneONDPSTFpRc(", ph))
			tt_report_warn(&b->rep, TT_W_SKIPPED_PH, ev->offset);
		else
			tt_report_warn(&b->rep, TT_W_UNKNOWN_PH, ev->offset);
		return 0;
	}

	uint16_t cat;
	if (ev->cat_type != TT_V_STR && ev->pid.type == TT_V_STR &&
	    str_is(ev->pid.str, "CPU functions")) {
		/* the autograd profiler before Kineto: no cat, its operators on
		 * "CPU functions" (its "CUDA functions" carry no stream: left
		 * unclassified, as HTA leaves them) */
		struct tt_str cs = {"cpu_op", 6};
		cat = cat_get(b, TT_V_STR, cs, ev->offset);
	} else {
		cat = cat_get(b, ev->cat_type, ev->cat, ev->offset);
	}
	enum tt_cat_kind kind = (enum tt_cat_kind)r->cats[cat].kind;
	bool has_stream = (ev->have & TT_HAVE(TT_A_STREAM)) && ev->i[TT_A_STREAM] != -1;

	/* which track */
	struct tkey k = {TT_TRACK_CPU, false, false, 0, 0};
	id_key(b, &ev->pid, &k.pid_is_str, &k.pid, ev->offset);
	if (has_stream) {
		k.kind = TT_TRACK_GPU;
		k.tid = ev->i[TT_A_STREAM];
	} else if (kind == TT_K_GPU_ANNOT) {
		k.kind = TT_TRACK_GPU_ANNOT;
		id_key(b, &ev->tid, &k.tid_is_str, &k.tid, ev->offset);
		if (k.tid_is_str) {
			/* (num is only set for a string: an absent tid is 0) */
			k.tid = ev->tid.type == TT_V_STR ? ev->tid.num : 0;
			k.tid_is_str = false;
		}
	} else if (kind == TT_K_SYNC) {
		k.kind = TT_TRACK_GPU_SYNC;
		k.tid = -1;
	} else if (kind == TT_K_KERNEL || kind == TT_K_MEMCPY || kind == TT_K_MEMSET) {
		/* legacy GPU events without args.stream: tid "stream 7" */
		k.kind = TT_TRACK_GPU;
		k.tid = ev->tid.type != TT_V_ABSENT ? ev->tid.num : 0;
	} else if ((ph == 'i' || ph == 'I') && ev->s_type == TT_V_STR && ev->s.n == 1 &&
		   ev->s.p[0] == 'g') {
		k.kind = TT_TRACK_GLOBAL;
		k.pid = k.tid = 0;
		k.pid_is_str = false;
	} else {
		id_key(b, &ev->tid, &k.tid_is_str, &k.tid, ev->offset);
		if (!k.tid_is_str && k.tid < 0)
			tt_report_warn(&b->rep, TT_W_NEG_TID, ev->offset);
	}
	if (k.kind != TT_TRACK_CPU && k.kind != TT_TRACK_GLOBAL && k.pid_is_str) {
		/* device from the digits of a string pid ("GPU 0"); an absent
		 * pid is device 0 (num holds a value only for a string) */
		k.pid = ev->pid.type == TT_V_STR ? ev->pid.num : 0;
		k.pid_is_str = false;
	}
	uint32_t ti = track_get(b, &k);
	/* a CPU op or annotation with args.stream goes to the stream's track
	 * (HTA's GPU event); its thread is kept for the op tree */
	uint32_t cpu_thread = TT_NONE;
	if (has_stream && (kind == TT_K_CPU_OP || kind == TT_K_USER_ANNOT)) {
		struct tkey ck = {TT_TRACK_CPU, false, false, 0, 0};
		id_key(b, &ev->pid, &ck.pid_is_str, &ck.pid, ev->offset);
		id_key(b, &ev->tid, &ck.tid_is_str, &ck.tid, ev->offset);
		cpu_thread = track_get(b, &ck);
	}

	uint32_t name = 0;
	if (ev->name_type == TT_V_STR)
		name = intern(b, ev->name.p, ev->name.n);
	else if (ph != 'E')
		tt_report_warn(&b->rep, TT_W_NO_NAME, ev->offset);

	if (ph == 'B' || ph == 'E') {
		TT_GROW(b->be, b->cbe, b->nbe + 1);
		struct be_ev *x = &b->be[b->nbe++];
		x->ts = ev->ts_ns;
		x->order = b->order++;
		x->track = ti;
		x->name = ev->name_type == TT_V_STR ? name : TT_NONE;
		x->corr = u32_id(b, ev, TT_A_CORR);
		x->ext = u32_id(b, ev, TT_A_EXT);
		x->cat = cat;
		x->ph = ph;
		return 0;
	}

	int64_t dur = ph == 'X' ? ev->dur_ns : 0;
	if (dur < 0) {
		tt_report_warn(&b->rep, TT_W_NEG_DUR, ev->offset);
		return 0;
	}
	if (dur > TT_MAX_DUR_NS) {
		tt_report_warn(&b->rep, TT_W_LONG_DUR, ev->offset);
		return 0;
	}
	struct stage_track *st = &b->tracks[ti];
	struct tt_event *e = track_push(st);
	e->ts = ev->ts_ns;
	e->dur = dur;
	e->name = name;
	e->corr = u32_id(b, ev, TT_A_CORR);
	e->ext = u32_id(b, ev, TT_A_EXT);
	e->aux = TT_NONE;
	e->cat = cat;
	e->ph = ph == 'X' ? 'X' : 'i';
	e->flags = has_stream ? TT_EF_STREAM : 0;
	if (kind == TT_K_TRACE || (ev->name_type == TT_V_STR && is_marker_name(ev->name)))
		e->flags |= TT_EF_MARKER;
	set_aux(b, ev, e, kind, cpu_thread);
	if (ph == 'X' && e->ts == 0 && dur == 0)
		b->nzero++;
	else if (e->ts != 0 && e->ts < b->min_ts_nonzero && !(e->flags & TT_EF_MARKER))
		b->min_ts_nonzero = e->ts;
	if (e->ts < st->last_ts || (e->ts == st->last_ts && dur > st->last_dur))
		st->unsorted = true;
	st->last_ts = e->ts;
	st->last_dur = dur;
	return 0;
}

/* ---- merging chunk builders ---- */

static uint32_t remap_str(struct builder *b, struct builder *b2, uint32_t id)
{
	if (id == TT_NONE)
		return TT_NONE;
	const struct tt_strtab *t = &b2->r->strs;
	return tt_strtab_intern(&b->r->strs, tt_strtab_get(t, id), tt_strtab_len(t, id));
}

void builder_merge(struct builder *b, struct builder *b2)
{
	struct tt_rank *r = b->r, *r2 = b2->r;
	uint32_t *smap = tt_malloc(((size_t)r2->strs.n + 1) * sizeof(*smap));
	for (uint32_t i = 0; i < r2->strs.n; i++)
		smap[i] = remap_str(b, b2, i);
#define S(x) ((x) == TT_NONE ? TT_NONE : smap[(x)])
	uint16_t *cmap = tt_malloc(((size_t)r2->ncats + 1) * sizeof(*cmap));
	for (uint32_t i = 0; i < r2->ncats; i++) {
		struct tt_str s = {tt_str(r2, r2->cats[i].name), tt_strtab_len(&r2->strs, r2->cats[i].name)};
		bool none = r2->cats[i].kind == TT_K_NONE;
		cmap[i] = cat_get(b, none ? TT_V_ABSENT : TT_V_STR, s, 0);
	}
	/* side tables: append with remapped strings */
	uint32_t comm0 = r->ncomm, kinfo0 = r->nkinfo, minfo0 = r->nminfo, op0 = r->nopinfo,
		 mem0 = r->nmeminfo, sync0 = r->nsyncinfo;
	for (uint32_t i = 0; i < r2->ncomm; i++) {
		TT_GROW(r->comm, b->ccomm, (size_t)r->ncomm + 1);
		struct tt_comm c = r2->comm[i];
		c.name = S(c.name);
		c.dtype = S(c.dtype);
		c.pg = S(c.pg);
		c.pg_ranks = S(c.pg_ranks);
		r->comm[r->ncomm++] = c;
	}
	for (uint32_t i = 0; i < r2->nkinfo; i++) {
		TT_GROW(r->kinfo, b->ckinfo, (size_t)r->nkinfo + 1);
		struct tt_kinfo k = r2->kinfo[i];
		if (k.comm != TT_NONE)
			k.comm += comm0;
		r->kinfo[r->nkinfo++] = k;
	}
	for (uint32_t i = 0; i < r2->nminfo; i++) {
		TT_GROW(r->minfo, b->cminfo, (size_t)r->nminfo + 1);
		r->minfo[r->nminfo++] = r2->minfo[i];
	}
	for (uint32_t i = 0; i < r2->nopinfo; i++) {
		TT_GROW(r->opinfo, b->copinfo, (size_t)r->nopinfo + 1);
		struct tt_opinfo o = r2->opinfo[i];
		o.input_dims = S(o.input_dims);
		o.input_type = S(o.input_type);
		o.call_stack = S(o.call_stack);
		o.input_strides = S(o.input_strides);
		o.concrete = S(o.concrete);
		if (o.comm != TT_NONE)
			o.comm += comm0;
		r->opinfo[r->nopinfo++] = o; /* (thread: remapped with the tracks) */
	}
	for (uint32_t i = 0; i < r2->nmeminfo; i++) {
		TT_GROW(r->meminfo, b->cmeminfo, (size_t)r->nmeminfo + 1);
		struct tt_meminfo m = r2->meminfo[i];
		m.device_type = S(m.device_type);
		r->meminfo[r->nmeminfo++] = m;
	}
	for (uint32_t i = 0; i < r2->nsyncinfo; i++) {
		TT_GROW(r->syncinfo, b->csyncinfo, (size_t)r->nsyncinfo + 1);
		r->syncinfo[r->nsyncinfo++] = r2->syncinfo[i];
	}
	/* tracks and their events */
	uint32_t *tmap = tt_malloc((b2->ntracks + 1) * sizeof(*tmap));
	for (size_t i = 0; i < b2->ntracks; i++) {
		struct stage_track *t2 = &b2->tracks[i];
		struct tkey k = t2->key;
		if (k.pid_is_str)
			k.pid = S((uint32_t)k.pid);
		if (k.tid_is_str)
			k.tid = S((uint32_t)k.tid);
		uint32_t ti = track_get(b, &k);
		tmap[i] = ti;
		struct stage_track *t = &b->tracks[ti];
		if (!t2->head)
			continue;
		/* remap in place, then move b2's chunks behind b's: no copy */
		for (struct chunk *c = t2->head; c; c = c->next) {
			for (uint32_t j = 0; j < c->n; j++) {
				struct tt_event *e = &c->ev[j];
				e->name = S(e->name);
				e->cat = cmap[e->cat];
				if (e->aux != TT_NONE) {
					if (e->flags & TT_EF_KINFO)
						e->aux += kinfo0;
					else if (e->flags & TT_EF_MINFO)
						e->aux += minfo0;
					else if (e->flags & TT_EF_OPINFO)
						e->aux += op0;
					else if (e->flags & TT_EF_MEMEV)
						e->aux += mem0;
					else if (e->flags & TT_EF_SYNCINFO)
						e->aux += sync0;
				}
			}
		}
		const struct tt_event *e0 = &t2->head->ev[0];
		if (t2->unsorted || e0->ts < t->last_ts ||
		    (e0->ts == t->last_ts && e0->dur > t->last_dur))
			t->unsorted = true;
		t->last_ts = t2->last_ts;
		t->last_dur = t2->last_dur;
		if (t->tail)
			t->tail->next = t2->head;
		else
			t->head = t2->head;
		t->tail = t2->tail;
		t->n += t2->n;
		t2->head = t2->tail = NULL;
		t2->n = 0;
	}
	for (uint32_t i = op0; i < r->nopinfo; i++)
		if (r->opinfo[i].thread != TT_NONE)
			r->opinfo[i].thread = tmap[r->opinfo[i].thread];
	for (size_t i = 0; i < b2->nbe; i++) {
		TT_GROW(b->be, b->cbe, b->nbe + 1);
		struct be_ev x = b2->be[i];
		x.track = tmap[x.track];
		x.name = S(x.name);
		x.cat = cmap[x.cat];
		x.order += b->order;
		b->be[b->nbe++] = x;
	}
	b->order += b2->order;
	for (size_t i = 0; i < b2->nprocs; i++) {
		struct mproc p = b2->procs[i];
		if (p.key.pid_is_str)
			p.key.pid = S((uint32_t)p.key.pid);
		p.name = S(p.name);
		p.labels = S(p.labels);
		struct mproc *q = builder_proc(b, &p.key, false);
		if (!q) {
			*builder_proc(b, &p.key, true) = p;
			continue;
		}
		/* as if b2's metadata events came after b's: the first name,
		 * the last labels and sort index */
		if (q->name == TT_NONE)
			q->name = p.name;
		if (p.labels != TT_NONE)
			q->labels = p.labels;
		if (p.has_sort) {
			q->sort = p.sort;
			q->has_sort = true;
		}
	}
	for (size_t i = 0; i < b2->nthreads; i++) {
		struct mthread t = b2->threads[i];
		if (t.key.pid_is_str)
			t.key.pid = S((uint32_t)t.key.pid);
		if (t.key.tid_is_str)
			t.key.tid = S((uint32_t)t.key.tid);
		t.name = t.has_name ? S(t.name) : 0;
		struct mthread *q = builder_thread(b, &t.key, false);
		if (!q) {
			*builder_thread(b, &t.key, true) = t;
			continue;
		}
		/* the first name (a different later one is a conflict), the
		 * last sort index */
		if (t.has_name) {
			if (q->has_name && q->name != t.name)
				tt_report_warn(&b->rep, TT_W_THREAD_NAME, 0);
			if (!q->has_name) {
				q->name = t.name;
				q->has_name = true;
			}
		}
		if (t.has_sort) {
			q->sort = t.sort;
			q->has_sort = true;
		}
	}
	for (size_t i = 0; i < b2->ncs; i++) {
		struct tt_counter *c2 = &b2->counters[b2->cs[i].counter];
		struct tkey pk = {0};
		pk.pid_is_str = c2->pid_str != TT_NONE;
		pk.pid = pk.pid_is_str ? S(c2->pid_str) : c2->pid;
		uint32_t c = counter_get(b, S(c2->name), &pk, S(c2->series));
		counter_sample(b, c, b2->cs[i].ts, b2->cs[i].value);
	}
	for (uint32_t i = 0; i < r2->nflows; i++) {
		TT_GROW(r->flows, b->cflows, (size_t)r->nflows + 1);
		struct tt_flow f = r2->flows[i];
		f.track = tmap[f.track];
		r->flows[r->nflows++] = f;
	}
	b->nzero += b2->nzero;
	if (b2->min_ts_nonzero < b->min_ts_nonzero)
		b->min_ts_nonzero = b2->min_ts_nonzero;
	if (b2->max_ts > b->max_ts)
		b->max_ts = b2->max_ts;
	b->any_float_ts |= b2->any_float_ts;
	b->any_no_ts |= b2->any_no_ts;
	b->frac3 |= b2->frac3;
	b->shortfrac |= b2->shortfrac;
	if (b2->frac_off && !b->frac_off)
		b->frac_off = b2->frac_off;
	b->nflows_total += b2->nflows_total;
	tt_report_merge(&b->rep, &b2->rep);
	free(tmap);
	free(cmap);
	free(smap);
#undef S
}
