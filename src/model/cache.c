/* .tts: the loaded model of one rank in a file that opens in milliseconds.
 *
 * Layout (little-endian, every section 8-byte aligned):
 *   header     magic "TRACETOP-TTS", version, byte-order mark, total size,
 *              size and mtime of the trace it was made from, section count,
 *              a 64-bit checksum of everything after the header (sum64)
 *   sections   a table {id, count, offset, size}, then the arrays as they are
 *              in memory (events, tracks, side tables, links, counters) and
 *              the strings (NUL-terminated, one after the other)
 * The reader maps the file and points the rank's arrays into the mapping, but
 * only after checking the checksum and every size, offset and index: a corrupt or
 * foreign file is refused with a clear error, never trusted. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model_int.h"
#include "tracetop/outfile.h"
#include "tracetop/ranklist.h"
#include "tracetop/util.h"

#define TTS_MAGIC "TRACETOP-TTS\0\0\0"
#define TTS_VERSION 6
#define TTS_BOM 0x01020304u

enum sect {
	S_RANK = 1, S_META, S_KV, S_DEVPROPS, S_STRINGS, S_STRLEN, S_CATS, S_TRACKS,
	S_EVENTS, S_KINFO, S_MINFO, S_OPINFO, S_COMM, S_MEMINFO, S_LINKS, S_LINKS_BY_GPU,
	S_COUNTERS, S_SAMPLES, S_FLOWS, S_SYNCINFO, S_COUNT
};

struct tts_header {
	char magic[16];
	uint32_t version, bom;
	uint64_t file_size;
	uint64_t source_size;
	int64_t source_mtime_ns;
	uint32_t nsections;
	uint32_t flags;
	uint64_t sum; /* checksum of everything after the header (sum64 below) */
	uint64_t source_hash; /* sum64 of the trace's first and last 64 KiB */
};

/* A 64-bit checksum of four multiply-xor lanes over 8-byte words: a few
 * times faster than zlib's CRC-32, which matters when a thousand caches
 * open at once; it catches any changed, cut or swapped block as well. */
struct sum64 {
	uint64_t lane[4];
	unsigned char tail[32];
	size_t ntail;
	uint64_t len;
};

#define SUM_K1 0x9E3779B97F4A7C15ull
#define SUM_K2 0xC2B2AE3D27D4EB4Full

static void sum_init(struct sum64 *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 4; i++)
		s->lane[i] = SUM_K1 * (uint64_t)(i + 1);
}

static inline uint64_t sum_mix(uint64_t l, uint64_t w)
{
	l ^= w * SUM_K2;
	l = (l << 31) | (l >> 33);
	return l * SUM_K1;
}

static void sum_blocks(struct sum64 *s, const unsigned char *p, size_t nblocks)
{
	uint64_t a = s->lane[0], b = s->lane[1], c = s->lane[2], d = s->lane[3];
	for (size_t i = 0; i < nblocks; i++, p += 32) {
		uint64_t w[4];
		memcpy(w, p, 32);
		a = sum_mix(a, w[0]);
		b = sum_mix(b, w[1]);
		c = sum_mix(c, w[2]);
		d = sum_mix(d, w[3]);
	}
	s->lane[0] = a;
	s->lane[1] = b;
	s->lane[2] = c;
	s->lane[3] = d;
}

static void sum_update(struct sum64 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->len += n;
	if (s->ntail) {
		size_t k = TT_MIN(n, 32 - s->ntail);
		memcpy(s->tail + s->ntail, p, k);
		s->ntail += k;
		p += k;
		n -= k;
		if (s->ntail < 32)
			return;
		sum_blocks(s, s->tail, 1);
		s->ntail = 0;
	}
	sum_blocks(s, p, n / 32);
	p += n / 32 * 32;
	n %= 32;
	memcpy(s->tail, p, n);
	s->ntail = n;
}

static uint64_t sum_final(struct sum64 *s)
{
	unsigned char last[32] = {0};
	memcpy(last, s->tail, s->ntail);
	sum_blocks(s, last, 1);
	uint64_t h = s->len * SUM_K1;
	for (int i = 0; i < 4; i++) {
		h ^= s->lane[i];
		h = ((h << 27) | (h >> 37)) * SUM_K2;
	}
	h ^= h >> 33;
	return h;
}

struct tts_section {
	uint32_t id, pad;
	uint64_t count, offset, size;
};

/* the scalar part of a rank */
struct tts_rank {
	int64_t rank, name_rank, base_ns, t0, t1;
	uint64_t file_bytes, nflows_total;
	uint32_t rank_src, compression, hta_round;
	uint32_t n_kernel, n_memcpy, n_memset, n_cpu_op, n_runtime, n_annot, n_gpu_tracks,
		n_steps;
	uint32_t pad;
	struct tt_load_report report;
};

struct tts_meta {
	int64_t schema_version, rank, world_size, pg_count, base_time_ns;
	uint32_t is_object, has_schema, has_rank, has_dist, has_base_time, has_devprops;
	char backend[32], nccl_version[32], display_unit[8], trace_name[256];
};

/* sum64 of a file's first and last 64 KiB (the whole file when smaller):
 * with its size and mtime, what says a trace is the one a cache was made
 * from (0 when they cannot be read) */
#define HASH_SPAN 65536

static uint64_t source_hash(int fd, uint64_t size)
{
	unsigned char *buf = tt_malloc(HASH_SPAN);
	struct sum64 s;
	sum_init(&s);
	uint64_t offs[2] = {0, size > HASH_SPAN ? size - HASH_SPAN : 0};
	bool ok = true;
	for (int k = 0; k < 2 && ok; k++) {
		size_t want = (size_t)TT_MIN(size, (uint64_t)HASH_SPAN), got = 0;
		while (got < want) {
			ssize_t n = pread(fd, buf + got, want - got, (off_t)(offs[k] + got));
			if (n <= 0) {
				ok = false;
				break;
			}
			got += (size_t)n;
		}
		sum_update(&s, buf, got);
	}
	free(buf);
	return ok ? sum_final(&s) : 0;
}

bool src_id_take(int fd, struct src_id *id)
{
	struct stat st;
	memset(id, 0, sizeof(*id));
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	id->size = (uint64_t)st.st_size;
	id->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	id->hash = source_hash(fd, id->size);
	return true;
}

void src_id_keep(struct tt_rank *r, const struct src_id *start, const struct src_id *end)
{
	r->src_state = 0;
	if (!start)
		return;
	r->src_size = start->size;
	r->src_hash = start->hash;
	r->src_dev = start->dev;
	r->src_ino = start->ino;
	r->src_mtime_ns = start->mtime_ns;
	r->src_state = end && memcmp(start, end, sizeof(*start)) == 0 ? 1 : 2;
}

/* ---- writing ---- */

struct wsec {
	uint32_t id;
	const void *p;
	uint64_t count, size;
	void *owned;
};

int tt_rank_save(const struct tt_rank *r, const char *out, struct tt_err *err)
{
	/* a cache says which bytes it was made from: the identity the loader
	 * took on its descriptor, never the path opened again (it may name
	 * another file by now) */
	if (r->src_state == 2)
		return tt_err_set(err, TT_E_IO, r->path ? r->path : out, TT_NO_OFFSET,
				  "the file changed while it was read (its size, time or first "
				  "and last bytes differ): no cache written; read it again");
	struct stat pst;
	if (r->src_state == 1 && r->src_ino && r->path &&
	    (stat(r->path, &pst) != 0 || (uint64_t)pst.st_dev != r->src_dev ||
	     (uint64_t)pst.st_ino != r->src_ino))
		return tt_err_set(err, TT_E_IO, r->path, TT_NO_OFFSET,
				  "replaced by another file while it was read: no cache written; "
				  "read it again");
	struct wsec w[S_COUNT];
	int n = 0;
#define SEC(sid, ptr, cnt, sz) (w[n++] = (struct wsec){sid, ptr, cnt, sz, NULL})
	struct tts_rank rk;
	memset(&rk, 0, sizeof(rk));
	rk.rank = r->rank;
	rk.name_rank = r->name_rank;
	rk.base_ns = r->base_ns;
	rk.t0 = r->t0;
	rk.t1 = r->t1;
	rk.file_bytes = r->file_bytes;
	rk.nflows_total = r->nflows_total;
	rk.rank_src = r->rank_src;
	rk.compression = r->compression;
	rk.hta_round = r->hta_round;
	rk.n_kernel = r->n_kernel;
	rk.n_memcpy = r->n_memcpy;
	rk.n_memset = r->n_memset;
	rk.n_cpu_op = r->n_cpu_op;
	rk.n_runtime = r->n_runtime;
	rk.n_annot = r->n_annot;
	rk.n_gpu_tracks = r->n_gpu_tracks;
	rk.n_steps = r->n_steps;
	rk.report = r->report;
	SEC(S_RANK, &rk, 1, sizeof(rk));

	struct tts_meta mt;
	const struct tt_trace_meta *m = &r->meta;
	memset(&mt, 0, sizeof(mt));
	mt.schema_version = m->schema_version;
	mt.rank = m->rank;
	mt.world_size = m->world_size;
	mt.pg_count = m->pg_count;
	mt.base_time_ns = m->base_time_ns;
	mt.is_object = m->is_object;
	mt.has_schema = m->has_schema;
	mt.has_rank = m->has_rank;
	mt.has_dist = m->has_dist;
	mt.has_base_time = m->has_base_time;
	mt.has_devprops = m->has_devprops;
	memcpy(mt.backend, m->backend, sizeof(mt.backend));
	memcpy(mt.nccl_version, m->nccl_version, sizeof(mt.nccl_version));
	memcpy(mt.display_unit, m->display_unit, sizeof(mt.display_unit));
	memcpy(mt.trace_name, m->trace_name, sizeof(mt.trace_name));
	SEC(S_META, &mt, 1, sizeof(mt));

	/* key/value text: key NUL value NUL ... */
	size_t kvn = 0;
	for (size_t i = 0; i < m->nkv; i++)
		kvn += strlen(m->kv[i].key) + strlen(m->kv[i].value) + 2;
	char *kv = tt_malloc(kvn + 1);
	size_t k = 0;
	for (size_t i = 0; i < m->nkv; i++) {
		size_t a = strlen(m->kv[i].key) + 1, b = strlen(m->kv[i].value) + 1;
		memcpy(kv + k, m->kv[i].key, a);
		memcpy(kv + k + a, m->kv[i].value, b);
		k += a + b;
	}
	SEC(S_KV, kv, m->nkv, kvn);
	w[n - 1].owned = kv;
	SEC(S_DEVPROPS, m->devprops, m->ndevprops, m->ndevprops * sizeof(*m->devprops));

	size_t sn = r->strs.n;
	uint64_t blob = 0;
	for (size_t i = 0; i < sn; i++)
		blob += r->strs.len[i] + 1;
	char *sb = tt_malloc(blob + 1);
	uint64_t o = 0;
	for (size_t i = 0; i < sn; i++) {
		memcpy(sb + o, r->strs.str[i], r->strs.len[i] + 1);
		o += r->strs.len[i] + 1;
	}
	SEC(S_STRINGS, sb, sn, blob);
	w[n - 1].owned = sb;
	SEC(S_STRLEN, r->strs.len, sn, sn * sizeof(uint32_t));
	SEC(S_CATS, r->cats, r->ncats, r->ncats * sizeof(*r->cats));
	SEC(S_TRACKS, r->tracks, r->ntracks, r->ntracks * sizeof(*r->tracks));
	SEC(S_EVENTS, r->ev, r->nev, (uint64_t)r->nev * sizeof(*r->ev));
	SEC(S_KINFO, r->kinfo, r->nkinfo, (uint64_t)r->nkinfo * sizeof(*r->kinfo));
	SEC(S_MINFO, r->minfo, r->nminfo, (uint64_t)r->nminfo * sizeof(*r->minfo));
	SEC(S_OPINFO, r->opinfo, r->nopinfo, (uint64_t)r->nopinfo * sizeof(*r->opinfo));
	SEC(S_COMM, r->comm, r->ncomm, (uint64_t)r->ncomm * sizeof(*r->comm));
	SEC(S_MEMINFO, r->meminfo, r->nmeminfo, (uint64_t)r->nmeminfo * sizeof(*r->meminfo));
	SEC(S_LINKS, r->links, r->nlinks, (uint64_t)r->nlinks * sizeof(*r->links));
	SEC(S_LINKS_BY_GPU, r->links_by_gpu, r->nlinks, (uint64_t)r->nlinks * sizeof(uint32_t));
	SEC(S_COUNTERS, r->counters, r->ncounters, (uint64_t)r->ncounters * sizeof(*r->counters));
	SEC(S_SAMPLES, r->samples, r->nsamples, (uint64_t)r->nsamples * sizeof(*r->samples));
	SEC(S_FLOWS, r->flows, r->nflows, (uint64_t)r->nflows * sizeof(*r->flows));
	SEC(S_SYNCINFO, r->syncinfo, r->nsyncinfo, (uint64_t)r->nsyncinfo * sizeof(*r->syncinfo));
#undef SEC

	/* offsets */
	struct tts_section tab[S_COUNT];
	memset(tab, 0, sizeof(tab));
	uint64_t off = sizeof(struct tts_header) + (uint64_t)n * sizeof(struct tts_section);
	for (int i = 0; i < n; i++) {
		off = (off + 7) & ~(uint64_t)7;
		tab[i].id = w[i].id;
		tab[i].count = w[i].count;
		tab[i].offset = off;
		tab[i].size = w[i].size;
		off += w[i].size;
	}
	struct tts_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, TTS_MAGIC, sizeof(h.magic));
	h.version = TTS_VERSION;
	h.bom = TTS_BOM;
	h.file_size = off;
	h.nsections = (uint32_t)n;
	/* the bytes it was made from, as tt_cache_for() compares them (taken
	 * on the descriptor the loader read) */
	if (r->src_state == 1) {
		h.source_size = r->src_size;
		h.source_mtime_ns = r->src_mtime_ns;
		h.source_hash = r->src_hash;
	}

	/* checksum over the section table and the sections, zero padding included */
	static const char zero[8];
	struct sum64 sum;
	sum_init(&sum);
	sum_update(&sum, tab, (size_t)n * sizeof(*tab));
	uint64_t pos = sizeof(h) + (uint64_t)n * sizeof(*tab);
	for (int i = 0; i < n; i++) {
		if (tab[i].offset > pos)
			sum_update(&sum, zero, (size_t)(tab[i].offset - pos));
		if (w[i].size)
			sum_update(&sum, w[i].p, (size_t)w[i].size);
		pos = tab[i].offset + w[i].size;
	}
	h.sum = sum_final(&sum);

	/* a temporary file beside out, renamed over it when complete
	 * (tracetop/outfile.h): never a half-written cache, never written
	 * through a planted symlink */
	struct tt_outfile of;
	int rc = tt_output_begin(&of, out, err);
	FILE *f = rc ? NULL : fdopen(of.fd, "wb");
	if (!rc && !f) {
		rc = tt_err_set(err, TT_E_IO, out, TT_NO_OFFSET, "%s", strerror(errno));
		tt_output_end(&of, false, NULL);
	} else if (f) {
		of.fd = -1; /* (the FILE owns it now) */
		bool ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
			  fwrite(tab, sizeof(*tab), (size_t)n, f) == (size_t)n;
		pos = sizeof(h) + (uint64_t)n * sizeof(*tab);
		for (int i = 0; ok && i < n; i++) {
			if (tab[i].offset > pos)
				ok = fwrite(zero, 1, (size_t)(tab[i].offset - pos), f) ==
				     (size_t)(tab[i].offset - pos);
			if (ok && w[i].size)
				ok = fwrite(w[i].p, 1, (size_t)w[i].size, f) == (size_t)w[i].size;
			pos = tab[i].offset + w[i].size;
		}
		int e = ok ? 0 : errno;
		if (fclose(f) != 0 && ok) {
			ok = false;
			e = errno;
		}
		if (!ok)
			rc = tt_err_set(err, TT_E_IO, out, TT_NO_OFFSET, "cannot write: %s",
					strerror(e ? e : EIO));
		int rc2 = tt_output_end(&of, ok, err);
		if (!rc)
			rc = rc2;
	}
	for (int i = 0; i < n; i++)
		free(w[i].owned);
	return rc;
}

/* ---- mapped caches that change under us ----
 * A cache cut or overwritten in place while it is mapped raises SIGBUS on
 * the next read of a page that is gone.  The handler looks the address up
 * among the mappings: one of ours ends the program with a line naming the
 * file, after the fatal hook restored the terminal; any other SIGBUS gets
 * the default action.  The table only grows (old copies are kept), so the
 * handler can read it without a lock. */

struct cache_map {
	const char *_Atomic p; /* NULL: a free slot (set last, cleared first) */
	size_t n;
	char *path;
};

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_map *_Atomic maps;
static atomic_size_t nmaps;
static size_t maps_cap;

static void put_str(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t k = write(2, s, n);
		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	const char *a = si ? si->si_addr : NULL;
	struct cache_map *m = atomic_load(&maps);
	size_t n = atomic_load(&nmaps);
	for (size_t i = 0; m && i < n; i++) {
		const char *p = atomic_load_explicit(&m[i].p, memory_order_acquire);
		if (p && a >= p && a < p + m[i].n) {
			/* (async-signal-safe only: this may interrupt curses or
			 * malloc, on any thread) */
			tt_run_die_signal_hook();
			tt_output_cleanup();
			put_str("tracetop: ");
			put_str(m[i].path);
			put_str(": the cache file changed while in use (cut or overwritten); "
				"run tracetop again\n");
			_exit(1);
		}
	}
	/* not a cache: the default action (the fault happens again) */
	signal(sig, SIG_DFL);
}

static void install_sigbus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* A mapped cache: registered so that a SIGBUS in it (the file cut or
 * overwritten while in use) ends the program with a line naming it;
 * cache_unmap() forgets and unmaps it. */
static void cache_map_register(const void *p, size_t n, const char *path)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install_sigbus);
	pthread_mutex_lock(&maps_lock);
	struct cache_map *m = atomic_load(&maps);
	size_t k = atomic_load(&nmaps);
	/* (a free slot first) */
	for (size_t i = 0; i < k; i++) {
		if (!atomic_load_explicit(&m[i].p, memory_order_relaxed)) {
			free(m[i].path);
			m[i].path = tt_strdup(path);
			m[i].n = n;
			/* (release: a handler that sees p sees its n and path) */
			atomic_store_explicit(&m[i].p, (const char *)p, memory_order_release);
			pthread_mutex_unlock(&maps_lock);
			return;
		}
	}
	if (k == maps_cap) {
		size_t cap = maps_cap ? maps_cap * 2 : 64;
		struct cache_map *nm = tt_calloc(cap, sizeof(*nm));
		if (k)
			memcpy(nm, m, k * sizeof(*nm));
		atomic_store(&maps, nm); /* (the old table stays: a handler may read it) */
		maps_cap = cap;
		m = nm;
	}
	m[k] = (struct cache_map){p, n, tt_strdup(path)};
	atomic_store(&nmaps, k + 1);
	pthread_mutex_unlock(&maps_lock);
}

void cache_unmap(const void *p, size_t n)
{
	pthread_mutex_lock(&maps_lock);
	struct cache_map *m = atomic_load(&maps);
	size_t k = atomic_load(&nmaps);
	for (size_t i = 0; i < k; i++)
		if (atomic_load_explicit(&m[i].p, memory_order_relaxed) == p) {
			atomic_store_explicit(&m[i].p, NULL, memory_order_relaxed);
			break;
		}
	pthread_mutex_unlock(&maps_lock);
	munmap((void *)p, n);
}

/* ---- reading ---- */

static int bad(struct tt_err *err, const char *path, uint64_t off, const char *what)
{
	return tt_err_set(err, TT_E_CACHE, path, off, "not a valid .tts cache: %s", what);
}

bool tt_cache_is(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && strcmp(path + n - 4, ".tts") == 0;
}

/* a bool read from the file is checked as a byte first: any value but 0
 * and 1 is no valid bool */
static bool bool_ok(const bool *b)
{
	unsigned char v;
	memcpy(&v, b, 1);
	return v <= 1;
}

/* times as the loader makes them: within 4e18 ns of 1970, base included */
#define TS_MIN (-TT_MAX_TS_NS)
#define TS_MAX TT_MAX_TS_NS
#define BASE_MAX TT_MAX_TS_NS

static bool finite_f(float x)
{
	return x - x == 0.0f;
}

static bool finite_d(double x)
{
	return x - x == 0.0;
}

/* the side table an event's flags name, and its size (none: 0 bits set) */
static int info_table(const struct tt_rank *r, uint8_t flags, uint32_t *lim)
{
	static const uint8_t bits[] = {TT_EF_KINFO, TT_EF_MINFO, TT_EF_OPINFO, TT_EF_MEMEV,
				       TT_EF_SYNCINFO};
	const uint32_t lims[] = {r->nkinfo, r->nminfo, r->nopinfo, r->nmeminfo, r->nsyncinfo};
	int n = 0;
	for (size_t k = 0; k < TT_ARRAY_SIZE(bits); k++)
		if (flags & bits[k]) {
			*lim = lims[k];
			n++;
		}
	return n;
}

#define EF_KNOWN (TT_EF_STREAM | TT_EF_MARKER | TT_EF_KINFO | TT_EF_MINFO | TT_EF_OPINFO | \
		  TT_EF_MEMEV | TT_EF_PAIRED | TT_EF_SYNCINFO)

static const char *check_events(const struct tt_rank *r, uint32_t ns)
{
	for (uint32_t ti = 0; ti < r->ntracks; ti++) {
		const struct tt_track *tr = &r->tracks[ti];
		int64_t t0 = INT64_MAX, t1 = INT64_MIN, max_dur = 0;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct tt_event *e = &r->ev[i];
			uint32_t lim = 0;
			int ninfo = info_table(r, e->flags, &lim);
			if (e->name >= ns || e->cat >= r->ncats || e->track != ti || e->dur < 0 ||
			    e->dur > TT_MAX_DUR_NS || e->ts < TS_MIN || e->ts > TS_MAX ||
			    (e->ph != 'X' && e->ph != 'i') || (e->ph == 'i' && e->dur != 0) ||
			    (e->flags & ~EF_KNOWN) || ninfo > 1 ||
			    (ninfo == 1 && e->aux >= lim) || (ninfo == 0 && e->aux != TT_NONE) ||
			    (i > tr->first && (e->ts < r->ev[i - 1].ts ||
					       (e->ts == r->ev[i - 1].ts && e->dur > r->ev[i - 1].dur))))
				return "an event is out of range";
			if (e->dur > max_dur)
				max_dur = e->dur;
			if (e->flags & TT_EF_MARKER)
				continue;
			if (e->ts < t0)
				t0 = e->ts;
			if (e->ts + e->dur > t1)
				t1 = e->ts + e->dur;
		}
		/* (as the loader makes them: 0 for an empty track; a track of
		 * markers only keeps INT64_MAX and INT64_MIN) */
		if (tr->count == 0)
			t0 = t1 = 0;
		if (tr->max_dur != max_dur || tr->t0 != t0 || tr->t1 != t1)
			return "a track's bounds disagree with its events";
	}
	return NULL;
}

/* links: by launching call, then GPU op; each by-GPU index once, in GPU
 * order; both ends carry the link's correlation id */
static const char *check_links(const struct tt_rank *r)
{
	if (!r->nlinks)
		return NULL;
	uint8_t *seen = tt_calloc(r->nlinks, 1);
	const char *why = NULL;
	for (uint32_t i = 0; !why && i < r->nlinks; i++) {
		const struct tt_link *l = &r->links[i];
		uint32_t g = r->links_by_gpu[i];
		if (l->cpu >= r->nev || l->gpu >= r->nev || l->cpu == l->gpu || g >= r->nlinks ||
		    seen[g] || r->ev[l->cpu].corr != l->corr || r->ev[l->gpu].corr != l->corr ||
		    (r->ev[l->cpu].flags & TT_EF_STREAM) ||
		    (i && (l->cpu < r->links[i - 1].cpu ||
			   (l->cpu == r->links[i - 1].cpu && l->gpu <= r->links[i - 1].gpu))) ||
		    (i && r->links[g].gpu < r->links[r->links_by_gpu[i - 1]].gpu))
			why = "a link is out of range";
		else
			seen[g] = 1;
	}
	free(seen);
	return why;
}

static const char *check_rank(const struct tt_rank *r, uint32_t ns)
{
	if (r->base_ns < 0 || r->base_ns > BASE_MAX || r->rank < -1 || r->rank > TT_RANK_MAX ||
	    r->name_rank < -1 || r->name_rank > TT_RANK_MAX || r->nflows_total < r->nflows)
		return "the rank's values are out of range";
	for (uint32_t i = 0; i < r->ncats; i++)
		if (!bool_ok(&r->cats[i].legacy) || r->cats[i].name >= ns ||
		    r->cats[i].kind >= TT_K_COUNT)
			return "a category is out of range";
	uint32_t expect = 0;
	for (uint32_t i = 0; i < r->ntracks; i++) {
		const struct tt_track *tr = &r->tracks[i];
		if (!bool_ok(&tr->pid_is_str) || !bool_ok(&tr->tid_is_str) || tr->first != expect ||
		    tr->count > r->nev - tr->first || tr->kind > TT_TRACK_GLOBAL ||
		    (tr->name != TT_NONE && tr->name >= ns) ||
		    (tr->proc_name != TT_NONE && tr->proc_name >= ns) ||
		    (tr->pid_is_str && tr->pid_str >= ns) || (tr->tid_is_str && tr->tid_str >= ns))
			return "a track is out of range";
		expect = tr->first + tr->count;
	}
	if (expect != r->nev)
		return "tracks do not cover the events";
	const char *why = check_events(r, ns);
	if (why)
		return why;
	for (uint32_t i = 0; i < r->nkinfo; i++) {
		const struct tt_kinfo *k = &r->kinfo[i];
		if ((k->comm != TT_NONE && k->comm >= r->ncomm) || !finite_f(k->occupancy) ||
		    !finite_f(k->blocks_per_sm) || !finite_f(k->warps_per_sm))
			return "kernel info is out of range";
	}
	for (uint32_t i = 0; i < r->nminfo; i++)
		if (!finite_d(r->minfo[i].bw_gbps))
			return "memcpy info is out of range";
	for (uint32_t i = 0; i < r->nopinfo; i++) {
		const struct tt_opinfo *op = &r->opinfo[i];
		if ((op->comm != TT_NONE && op->comm >= r->ncomm) ||
		    (op->input_dims != TT_NONE && op->input_dims >= ns) ||
		    (op->input_type != TT_NONE && op->input_type >= ns) ||
		    (op->call_stack != TT_NONE && op->call_stack >= ns) ||
		    (op->input_strides != TT_NONE && op->input_strides >= ns) ||
		    (op->concrete != TT_NONE && op->concrete >= ns) ||
		    (op->thread != TT_NONE && (op->thread >= r->ntracks ||
					       r->tracks[op->thread].kind != TT_TRACK_CPU)))
			return "op info is out of range";
	}
	for (uint32_t i = 0; i < r->ncomm; i++) {
		const struct tt_comm *c = &r->comm[i];
		uint32_t ids[] = {c->name, c->dtype, c->pg, c->pg_ranks};
		for (size_t j = 0; j < 4; j++)
			if (ids[j] != TT_NONE && ids[j] >= ns)
				return "collective info is out of range";
	}
	for (uint32_t i = 0; i < r->nmeminfo; i++)
		if (r->meminfo[i].device_type != TT_NONE && r->meminfo[i].device_type >= ns)
			return "memory info is out of range";
	if ((why = check_links(r)) != NULL)
		return why;
	for (uint32_t i = 0; i < r->ncounters; i++) {
		const struct tt_counter *c = &r->counters[i];
		if (c->name >= ns || c->series >= ns || c->first > r->nsamples ||
		    c->count > r->nsamples - c->first || (c->pid_str != TT_NONE && c->pid_str >= ns))
			return "a counter is out of range";
		for (uint32_t k = c->first; k < c->first + c->count; k++)
			if (!finite_d(r->samples[k].value) || r->samples[k].ts < TS_MIN ||
			    r->samples[k].ts > TS_MAX ||
			    (k > c->first && r->samples[k].ts < r->samples[k - 1].ts))
				return "a counter is out of range";
	}
	for (uint32_t i = 0; i < r->nflows; i++) {
		const struct tt_flow *f = &r->flows[i];
		if (f->track >= r->ntracks || f->ts < TS_MIN || f->ts > TS_MAX ||
		    (f->ph != 's' && f->ph != 't' && f->ph != 'f'))
			return "a flow is out of range";
	}
	return NULL;
}

/* The file mapped: a regular file at least as long as a header. */
static int cache_map_file(const char *path, void **mapp, uint64_t *sizep, struct tt_err *err)
{
	/* (non-blocking: a FIFO must not hang the open) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "not a regular file");
	}
	uint64_t size = (uint64_t)st.st_size;
	if (size < sizeof(struct tts_header)) {
		close(fd);
		return bad(err, path, 0, "shorter than its header");
	}
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map != MAP_FAILED)
		cache_map_register(map, size, path);
	close(fd);
	if (map == MAP_FAILED)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", strerror(errno));
	*mapp = map;
	*sizep = size;
	return 0;
}

/* The header: magic, byte order, version, size, section count, and the
 * checksum of everything after it. */
static int cache_check_header(const char *base, uint64_t size, const char *path,
			      struct tt_err *err)
{
	const struct tts_header *h = (const void *)base;
	if (memcmp(h->magic, TTS_MAGIC, sizeof(h->magic)) != 0)
		return bad(err, path, 0, "wrong magic bytes");
	if (h->bom != TTS_BOM)
		return bad(err, path, 20, "written on a machine of another byte order");
	if (h->version != TTS_VERSION)
		return tt_err_set(err, TT_E_CACHE, path, 16,
				  "cache version %u, this tracetop reads version %u: run tracetop summarize again",
				  h->version, TTS_VERSION);
	if (h->file_size != size)
		return bad(err, path, 24, "file size does not match its header (truncated?)");
	if (h->nsections == 0 || h->nsections > S_COUNT ||
	    sizeof(*h) + (uint64_t)h->nsections * sizeof(struct tts_section) > size)
		return bad(err, path, 48, "bad section count");
	struct sum64 sum;
	sum_init(&sum);
	sum_update(&sum, base + sizeof(*h), (size_t)(size - sizeof(*h)));
	if (sum_final(&sum) != h->sum)
		return bad(err, path, 56, "checksum mismatch (the file is corrupt)");
	return 0;
}

/* The section table into sec[]: each section once, inside the file, its
 * size its count of elements, the counts that must agree agreeing. */
static int cache_sections(const char *base, uint64_t size, const struct tts_section **sec,
			  const char *path, struct tt_err *err)
{
	const struct tts_header *h = (const void *)base;
	const struct tts_section *tab = (const void *)(base + sizeof(*h));
	uint64_t table_end = sizeof(*h) + (uint64_t)h->nsections * sizeof(*tab);
	for (uint32_t i = 0; i < h->nsections; i++) {
		const struct tts_section *t = &tab[i];
		if (t->id == 0 || t->id >= S_COUNT || sec[t->id] || t->offset % 8 ||
		    t->offset < table_end || t->offset > size || t->size > size - t->offset)
			return bad(err, path, sizeof(*h) + i * sizeof(*tab), "bad section entry");
		sec[t->id] = t;
	}
	static const size_t elem[S_COUNT] = {
		[S_RANK] = sizeof(struct tts_rank), [S_META] = sizeof(struct tts_meta),
		[S_DEVPROPS] = sizeof(struct tt_devprop), [S_STRLEN] = sizeof(uint32_t),
		[S_CATS] = sizeof(struct tt_cat), [S_TRACKS] = sizeof(struct tt_track),
		[S_EVENTS] = sizeof(struct tt_event), [S_KINFO] = sizeof(struct tt_kinfo),
		[S_MINFO] = sizeof(struct tt_minfo), [S_OPINFO] = sizeof(struct tt_opinfo),
		[S_COMM] = sizeof(struct tt_comm), [S_MEMINFO] = sizeof(struct tt_meminfo),
		[S_LINKS] = sizeof(struct tt_link), [S_LINKS_BY_GPU] = sizeof(uint32_t),
		[S_COUNTERS] = sizeof(struct tt_counter), [S_SAMPLES] = sizeof(struct tt_sample),
		[S_FLOWS] = sizeof(struct tt_flow), [S_SYNCINFO] = sizeof(struct tt_syncinfo),
	};
	for (int id = 1; id < S_COUNT; id++) {
		if (!sec[id])
			return bad(err, path, sizeof(*h), "a section is missing");
		/* (key/value text: at least two NULs per entry) */
		if ((elem[id] && (sec[id]->count > UINT32_MAX ||
				  sec[id]->count * elem[id] != sec[id]->size)) ||
		    (id == S_KV && sec[id]->count > sec[id]->size / 2))
			return bad(err, path, sec[id]->offset,
				   "a section's size does not match its count");
	}
	if (sec[S_RANK]->count != 1 || sec[S_META]->count != 1 ||
	    sec[S_STRLEN]->count != sec[S_STRINGS]->count ||
	    sec[S_LINKS_BY_GPU]->count != sec[S_LINKS]->count)
		return bad(err, path, sizeof(*h), "section counts disagree");
	return 0;
}

#define AT(id) ((const void *)(base + sec[id]->offset))
#define CNT(id) ((uint32_t)sec[id]->count)

/* The rank's own figures (the S_RANK section). */
static void cache_rank_fields(struct tt_rank *r, const struct tts_rank *rk)
{
	r->rank = rk->rank;
	r->name_rank = rk->name_rank;
	r->base_ns = rk->base_ns;
	r->t0 = rk->t0;
	r->t1 = rk->t1;
	r->file_bytes = rk->file_bytes;
	r->nflows_total = rk->nflows_total;
	r->rank_src = rk->rank_src <= TT_RANK_GIVEN ? (enum tt_rank_source)rk->rank_src : TT_RANK_JSON;
	r->compression = rk->compression <= TT_COMP_ZIP ? (enum tt_compress)rk->compression : 0;
	r->hta_round = rk->hta_round != 0;
	r->n_kernel = rk->n_kernel;
	r->n_memcpy = rk->n_memcpy;
	r->n_memset = rk->n_memset;
	r->n_cpu_op = rk->n_cpu_op;
	r->n_runtime = rk->n_runtime;
	r->n_annot = rk->n_annot;
	r->n_gpu_tracks = rk->n_gpu_tracks;
	r->n_steps = rk->n_steps;
	r->report = rk->report;
	unsigned char gz; /* (a byte from the file: any value but 0 and 1 is no bool) */
	memcpy(&gz, &rk->report.gzip_truncated, 1);
	r->report.gzip_truncated = gz != 0;
}

/* The trace's metadata: S_META, the device properties and the key/value
 * strings, every one NUL-terminated inside its section. */
static int cache_meta(struct tt_rank *r, const char *base, const struct tts_section **sec,
		      const char *path, struct tt_err *err)
{
	const struct tts_meta *mt = AT(S_META);
	struct tt_trace_meta *m = &r->meta;
	m->schema_version = mt->schema_version;
	m->rank = mt->rank;
	m->world_size = mt->world_size;
	m->pg_count = mt->pg_count;
	m->base_time_ns = mt->base_time_ns;
	m->is_object = mt->is_object;
	m->has_schema = mt->has_schema;
	m->has_rank = mt->has_rank;
	m->has_dist = mt->has_dist;
	m->has_base_time = mt->has_base_time;
	m->has_devprops = mt->has_devprops;
#define CPYSTR(f) memcpy(m->f, mt->f, sizeof(m->f)), m->f[sizeof(m->f) - 1] = '\0'
	CPYSTR(backend);
	CPYSTR(nccl_version);
	CPYSTR(display_unit);
	CPYSTR(trace_name);
#undef CPYSTR
	m->ndevprops = CNT(S_DEVPROPS);
	m->devprops = tt_calloc(m->ndevprops + 1, sizeof(*m->devprops));
	memcpy(m->devprops, AT(S_DEVPROPS), m->ndevprops * sizeof(*m->devprops));
	for (size_t i = 0; i < m->ndevprops; i++)
		m->devprops[i].name[sizeof(m->devprops[i].name) - 1] = '\0';
	const char *kv = AT(S_KV), *kvend = kv + sec[S_KV]->size;
	m->kv = tt_calloc(CNT(S_KV) + 1, sizeof(*m->kv));
	for (uint32_t i = 0; i < CNT(S_KV); i++) {
		const char *a = kv, *ae = memchr(a, 0, (size_t)(kvend - a));
		const char *b = ae ? ae + 1 : kvend;
		const char *be = b < kvend ? memchr(b, 0, (size_t)(kvend - b)) : NULL;
		if (!ae || !be)
			return bad(err, path, sec[S_KV]->offset, "metadata text is cut");
		m->kv[m->nkv].key = tt_strdup(a);
		m->kv[m->nkv].value = tt_strdup(b);
		m->nkv++;
		kv = be + 1;
	}
	return 0;
}

/* The string table over the mapping (rc: an error so far: the table is
 * made, left empty): lengths must match the NULs of the blob, string 0 is
 * empty. */
static int cache_strings(struct tt_rank *r, const char *base, const struct tts_section **sec,
			 int rc, const char *path, struct tt_err *err)
{
	uint32_t ns = CNT(S_STRINGS);
	const uint32_t *lens = AT(S_STRLEN);
	const char *sb = AT(S_STRINGS);
	uint64_t blob = sec[S_STRINGS]->size, so = 0;
	struct tt_strtab *t = &r->strs;
	memset(t, 0, sizeof(*t));
	tt_arena_init(&t->arena, 4096);
	t->str = tt_malloc(((size_t)ns + 1) * sizeof(*t->str));
	t->len = tt_malloc(((size_t)ns + 1) * sizeof(*t->len));
	t->cap = ns + 1;
	for (uint32_t i = 0; !rc && i < ns; i++) {
		if (lens[i] >= blob - so || sb[so + lens[i]] != '\0' ||
		    memchr(sb + so, 0, lens[i]) != NULL) {
			rc = bad(err, path, sec[S_STRINGS]->offset + so, "string table is inconsistent");
			break;
		}
		t->str[i] = sb + so;
		t->len[i] = lens[i];
		so += (uint64_t)lens[i] + 1;
		t->n = i + 1;
	}
	if (!rc && (ns == 0 || t->len[0] != 0))
		rc = bad(err, path, sec[S_STRINGS]->offset, "string 0 must be empty");
	if (!rc)
		tt_strtab_reindex(t);
	return rc;
}

/* The model's arrays: in the mapping itself. */
static void cache_arrays(struct tt_rank *r, const char *base, const struct tts_section **sec)
{
	r->cats = (struct tt_cat *)AT(S_CATS);
	r->ncats = CNT(S_CATS);
	r->tracks = (struct tt_track *)AT(S_TRACKS);
	r->ntracks = CNT(S_TRACKS);
	r->ev = (struct tt_event *)AT(S_EVENTS);
	r->nev = CNT(S_EVENTS);
	r->kinfo = (struct tt_kinfo *)AT(S_KINFO);
	r->nkinfo = CNT(S_KINFO);
	r->minfo = (struct tt_minfo *)AT(S_MINFO);
	r->nminfo = CNT(S_MINFO);
	r->opinfo = (struct tt_opinfo *)AT(S_OPINFO);
	r->nopinfo = CNT(S_OPINFO);
	r->comm = (struct tt_comm *)AT(S_COMM);
	r->ncomm = CNT(S_COMM);
	r->meminfo = (struct tt_meminfo *)AT(S_MEMINFO);
	r->nmeminfo = CNT(S_MEMINFO);
	r->links = (struct tt_link *)AT(S_LINKS);
	r->links_by_gpu = (uint32_t *)AT(S_LINKS_BY_GPU);
	r->nlinks = CNT(S_LINKS);
	r->counters = (struct tt_counter *)AT(S_COUNTERS);
	r->ncounters = CNT(S_COUNTERS);
	r->samples = (struct tt_sample *)AT(S_SAMPLES);
	r->nsamples = CNT(S_SAMPLES);
	r->flows = (struct tt_flow *)AT(S_FLOWS);
	r->nflows = CNT(S_FLOWS);
	r->syncinfo = (struct tt_syncinfo *)AT(S_SYNCINFO);
	r->nsyncinfo = CNT(S_SYNCINFO);
}

#undef AT
#undef CNT

int tt_rank_open_cache(struct tt_rank **out, const char *path, struct tt_err *err)
{
	*out = NULL;
	void *map = NULL;
	uint64_t size = 0;
	int rc = cache_map_file(path, &map, &size, err);
	if (rc)
		return rc;
	const char *base = map;
	const struct tts_header *h = map;
	const struct tts_section *sec[S_COUNT] = {NULL};
	rc = cache_check_header(base, size, path, err);
	if (!rc)
		rc = cache_sections(base, size, sec, path, err);
	if (rc) {
		cache_unmap(map, size);
		return rc;
	}
	struct tt_rank *r = tt_calloc(1, sizeof(*r));
	r->cache_map = map;
	r->cache_len = size;
	cache_rank_fields(r, (const void *)(base + sec[S_RANK]->offset));
	rc = cache_meta(r, base, sec, path, err);
	rc = cache_strings(r, base, sec, rc, path, err);
	cache_arrays(r, base, sec);
	/* every index must point inside its table, every value be one the
	 * loader makes: the analyses trust the model, so the cache is checked
	 * as untrusted input (a forged file can have a right checksum) */
	const char *why = rc ? NULL : check_rank(r, (uint32_t)sec[S_STRINGS]->count);
	if (!rc && why)
		rc = bad(err, path, TT_NO_OFFSET, why);
	if (rc) {
		r->cats = NULL; /* arrays belong to the mapping */
		tt_rank_free(r);
		return rc;
	}
	/* derived values are computed again, never taken from the file */
	rank_stats(r);
	r->bytes_model = tt_rank_memsize(r);
	/* the bytes it was made from pass on to a cache written from it */
	r->src_size = h->source_size;
	r->src_mtime_ns = h->source_mtime_ns;
	r->src_hash = h->source_hash;
	r->src_state = h->source_size || h->source_hash ? 1 : 0;
	*out = r;
	return 0;
}

/* The cache that belongs to a trace: PATH.tts, a regular file (a FIFO
 * must not hang the loader), made from a file of the trace's size, mtime
 * (to the ns) and first and last 64 KiB.  On any doubt the trace is
 * parsed. */
bool tt_cache_for(const char *trace, char *buf, size_t n)
{
	if (snprintf(buf, n, "%s.tts", trace) >= (int)n)
		return false;
	struct stat ts, cs;
	int tfd = open(trace, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (tfd < 0)
		return false;
	int cfd = -1;
	bool ok = fstat(tfd, &ts) == 0 && S_ISREG(ts.st_mode) &&
		  (cfd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0 &&
		  fstat(cfd, &cs) == 0 && S_ISREG(cs.st_mode);
	struct tts_header h;
	ok = ok && pread(cfd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
	     memcmp(h.magic, TTS_MAGIC, sizeof(h.magic)) == 0 && h.version == TTS_VERSION &&
	     h.source_size == (uint64_t)ts.st_size &&
	     h.source_mtime_ns ==
		     (int64_t)ts.st_mtim.tv_sec * 1000000000 + ts.st_mtim.tv_nsec &&
	     h.source_hash == source_hash(tfd, (uint64_t)ts.st_size);
	if (cfd >= 0)
		close(cfd);
	close(tfd);
	return ok;
}
