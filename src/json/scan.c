/* The streaming scanner: top-level object (any key order) or bare array,
 * traceEvents split into events, metadata values handed to cJSON.
 *
 * Text arrives from a reader into one buffer.  Every item (a key, an event,
 * a metadata value) is parsed from its first byte; when the buffer ends
 * inside an item, the item is moved to the front, more text is read behind
 * it, and the item is parsed again.  So an item must fit the buffer, which
 * grows up to TT_MAX_ITEM, and the text never has to be held whole. */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "json_int.h"
#include "tracetop/ranklist.h"
#include "tracetop/util.h"

#define BUF_INITIAL (1u << 20)

struct scanner {
	struct tt_reader *rd;
	const char *path;
	bool compressed;
	const struct tt_scan_opts *opts;
	const struct tt_sink *sink;
	struct tt_trace_meta *meta;
	struct tt_load_report *rep;
	struct tt_err *err;
	struct tt_scratch *scr;

	char *buf;
	size_t cap, len, pos;
	uint64_t base; /* text offset of buf[0] */
	bool eof;

	uint64_t nevents;   /* events delivered */
	bool stopped;       /* a split chunk reached its end */
	uint64_t nelements; /* elements of traceEvents seen */
	bool saw_events;
	struct tt_raw_event ev, ev2;
};

static enum tt_offset_kind off_kind(const struct scanner *s)
{
	return s->compressed ? TT_OFF_DECOMPRESSED : TT_OFF_PLAIN;
}

static int fail(struct scanner *s, enum tt_status code, uint64_t off, const char *fmt, ...)
	TT_PRINTF(4, 5);

static int fail(struct scanner *s, enum tt_status code, uint64_t off, const char *fmt, ...)
{
	struct tt_err *e = s->err;
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		e->code = code;
		snprintf(e->path, sizeof(e->path), "%s", s->path);
		e->offset = off;
		e->offset_kind = off_kind(s);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -(int)code;
}

/* an error the lexer filled (code, offset, msg): add the path */
static int lexer_fail(struct scanner *s)
{
	if (s->err) {
		snprintf(s->err->path, sizeof(s->err->path), "%s", s->path);
		s->err->offset_kind = off_kind(s);
		if (s->err->code == TT_E_OK)
			s->err->code = TT_E_SYNTAX;
		return -(int)s->err->code;
	}
	return -TT_E_SYNTAX;
}

/* The text buffer is mapped memory of its own, so that it goes back to the
 * system when the thread ends (a heap block this big would stay resident
 * in the thread's malloc arena).  A thread keeps one buffer of the initial
 * size for its next scan: a split load scans many parts, and fresh pages
 * cost a fault and a clearing each. */
static pthread_key_t buf_key;
static pthread_once_t buf_once = PTHREAD_ONCE_INIT;

static void buf_unmap(void *p)
{
	munmap(p, BUF_INITIAL);
}

static void buf_key_init(void)
{
	if (pthread_key_create(&buf_key, buf_unmap) != 0)
		tt_die("cannot create a thread key");
}

static char *buf_new(size_t cap)
{
	if (cap == BUF_INITIAL) {
		pthread_once(&buf_once, buf_key_init);
		char *kept = pthread_getspecific(buf_key);
		if (kept) {
			pthread_setspecific(buf_key, NULL);
			return kept;
		}
	}
	void *p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tt_die("out of memory (%zu bytes)", cap);
	return p;
}

static void buf_free(char *p, size_t cap)
{
	if (cap == BUF_INITIAL) {
		pthread_once(&buf_once, buf_key_init);
		if (!pthread_getspecific(buf_key) && pthread_setspecific(buf_key, p) == 0)
			return;
	}
	munmap(p, cap);
}

static char *buf_grow(char *old, size_t cap, size_t ncap)
{
	char *p = buf_new(ncap);
	memcpy(p, old, cap);
	buf_free(old, cap);
	return p;
}

/* Keep buf[keep..len), read more behind it.  Returns 1 if bytes were added,
 * 0 at the end of the text, <0 on a read error or an oversized item. */
static int refill(struct scanner *s, size_t keep)
{
	if (keep > 0) {
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->len -= keep;
		s->pos -= keep;
		s->base += keep;
	}
	if (s->eof)
		return 0;
	if (s->len == s->cap) {
		if (s->cap >= TT_MAX_ITEM)
			return fail(s, TT_E_LIMIT, s->base, "one item is larger than %zu MiB",
				    TT_MAX_ITEM >> 20);
		size_t ncap = s->cap * 2;
		if (ncap > TT_MAX_ITEM)
			ncap = TT_MAX_ITEM;
		s->buf = buf_grow(s->buf, s->cap, ncap);
		s->cap = ncap;
	}
	ssize_t n = tt_reader_read(s->rd, s->buf + s->len, s->cap - s->len, s->err);
	if (n < 0)
		return (int)n;
	if (n == 0) {
		s->eof = true;
		return 0;
	}
	s->len += (size_t)n;
	s->rep->bytes_total = s->base + s->len;
	if (s->opts && s->opts->progress)
		s->opts->progress(s->opts->progress_ctx, s->base + s->len,
				  tt_reader_raw_pos(s->rd), s->nevents);
	return 1;
}

/* Skip whitespace, reading more as needed.  Returns 1 if a byte is
 * available at pos, 0 at the end, <0 on error. */
static int ws(struct scanner *s)
{
	for (;;) {
		while (s->pos < s->len) {
			char c = s->buf[s->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return 1;
			s->pos++;
		}
		int r = refill(s, s->pos);
		if (r <= 0)
			return r;
	}
}

static struct lx lexer(struct scanner *s)
{
	struct lx l = {s->buf, s->base, s->buf + s->len, s->err, false};
	if (s->err)
		s->err->code = TT_E_OK;
	return l;
}

/* ---- metadata ---- */

/* returns true if the key was already there (last wins) */
static bool kv_add(struct tt_trace_meta *m, const char *key, const char *val)
{
	for (size_t i = 0; i < m->nkv; i++) {
		if (strcmp(m->kv[i].key, key) == 0) {
			free(m->kv[i].value);
			m->kv[i].value = tt_strdup(val);
			return true;
		}
	}
	m->kv = tt_realloc_array(m->kv, m->nkv + 1, sizeof(*m->kv));
	m->kv[m->nkv].key = tt_strdup(key);
	m->kv[m->nkv].value = tt_strdup(val);
	m->nkv++;
	return false;
}

static int64_t obj_int(const cJSON *o, const char *k, int64_t dflt)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, k);
	/* (range first: casting a double beyond int64 is undefined) */
	if (cJSON_IsNumber(c) && c->valuedouble > -9e18 && c->valuedouble < 9e18 &&
	    c->valuedouble == (double)(int64_t)c->valuedouble)
		return (int64_t)c->valuedouble;
	return dflt;
}

static void obj_str(const cJSON *o, const char *k, char *dst, size_t n)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsString(c))
		snprintf(dst, n, "%s", c->valuestring);
}

/* exact int64 from the value's text (baseTimeNanoseconds exceeds 2^53) */
static bool text_int64(const char *p, size_t n, int64_t *out)
{
	bool neg = false;
	size_t i = 0;
	if (n && p[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == n || n - i > 19)
		return false;
	uint64_t v = 0;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

static int meta_value(struct scanner *s, const char *key, const char *text, size_t n,
		      uint64_t off)
{
	struct tt_trace_meta *m = s->meta;
	cjson_setup();
	cJSON *v = cJSON_ParseWithLengthOpts(text, n, NULL, 0);
	if (!v)
		return fail(s, TT_E_SYNTAX, off, "metadata value of '%s' not accepted by cJSON", key);
	char *txt = cJSON_PrintUnformatted(v);
	if (txt && strlen(txt) > 240)
		strcpy(txt + 237, "...");
	if (kv_add(m, key, txt ? txt : ""))
		tt_report_warn(s->rep, TT_W_DUP_META, off);
	free(txt);

	int rc = 0;
	if (strcmp(key, "schemaVersion") == 0) {
		m->has_schema = true;
		double sv = cJSON_IsNumber(v) ? v->valuedouble : 0;
		m->schema_version = sv > -9e18 && sv < 9e18 ? (int64_t)sv : 0;
	} else if (strcmp(key, "distributedInfo") == 0) {
		if (!cJSON_IsObject(v)) {
			tt_report_warn(s->rep, TT_W_BAD_META, off);
		} else {
			m->has_dist = true;
			const cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "rank");
			if (r) {
				double d = r->valuedouble;
				if (!cJSON_IsNumber(r) || d < 0 || d > 1e19 ||
				    d != floor(d)) {
					rc = fail(s, TT_E_TYPE, off,
						  "distributedInfo.rank is not a non-negative integer");
				} else if (d > (double)TT_RANK_MAX) {
					/* (the same bound as --ranks: any rank can be chosen) */
					rc = fail(s, TT_E_RANGE, off,
						  "distributedInfo.rank %.0f is beyond the largest rank, %lld",
						  d, (long long)TT_RANK_MAX);
				} else {
					m->has_rank = true;
					m->rank = (int64_t)d;
				}
			}
			obj_str(v, "backend", m->backend, sizeof(m->backend));
			obj_str(v, "nccl_version", m->nccl_version, sizeof(m->nccl_version));
			m->world_size = obj_int(v, "world_size", -1);
			m->pg_count = obj_int(v, "pg_count", -1);
		}
	} else if (strcmp(key, "deviceProperties") == 0) {
		if (!cJSON_IsArray(v)) {
			tt_report_warn(s->rep, TT_W_BAD_META, off);
		} else {
			m->has_devprops = true;
			free(m->devprops);
			int cnt = cJSON_GetArraySize(v);
			m->devprops = tt_calloc((size_t)cnt + 1, sizeof(*m->devprops));
			m->ndevprops = 0;
			const cJSON *d;
			cJSON_ArrayForEach(d, v)
			{
				if (!cJSON_IsObject(d))
					continue;
				struct tt_devprop *p = &m->devprops[m->ndevprops++];
				p->id = obj_int(d, "id", (int64_t)m->ndevprops - 1);
				obj_str(d, "name", p->name, sizeof(p->name));
				p->total_mem = obj_int(d, "totalGlobalMem", 0);
				p->num_sms = obj_int(d, "numSms", 0);
				p->compute_major = obj_int(d, "computeMajor", 0);
				p->compute_minor = obj_int(d, "computeMinor", 0);
				p->max_threads_per_block = obj_int(d, "maxThreadsPerBlock", 0);
				p->max_threads_per_sm = obj_int(d, "maxThreadsPerMultiprocessor", 0);
				p->regs_per_block = obj_int(d, "regsPerBlock", 0);
				p->regs_per_sm = obj_int(d, "regsPerMultiprocessor", 0);
				p->warp_size = obj_int(d, "warpSize", 0);
				p->shmem_per_block = obj_int(d, "sharedMemPerBlock", 0);
				p->shmem_per_sm = obj_int(d, "sharedMemPerMultiprocessor", 0);
			}
		}
	} else if (strcmp(key, "baseTimeNanoseconds") == 0) {
		int64_t b;
		if (cJSON_IsNumber(v) && text_int64(text, n, &b) && b >= 0 && b <= TT_TS_LIMIT_NS) {
			m->has_base_time = true;
			m->base_time_ns = b;
		} else {
			tt_report_warn(s->rep, TT_W_BAD_META, off);
		}
	} else if (strcmp(key, "displayTimeUnit") == 0) {
		if (cJSON_IsString(v))
			snprintf(m->display_unit, sizeof(m->display_unit), "%s", v->valuestring);
	} else if (strcmp(key, "traceName") == 0) {
		if (cJSON_IsString(v))
			snprintf(m->trace_name, sizeof(m->trace_name), "%s", v->valuestring);
	}
	cJSON_Delete(v);
	return rc;
}

void tt_meta_free(struct tt_trace_meta *m)
{
	if (!m)
		return;
	free(m->devprops);
	for (size_t i = 0; i < m->nkv; i++) {
		free(m->kv[i].key);
		free(m->kv[i].value);
	}
	free(m->kv);
	memset(m, 0, sizeof(*m));
}

void tt_meta_merge(struct tt_trace_meta *dst, struct tt_trace_meta *src)
{
	if (src->has_schema) {
		dst->has_schema = true;
		dst->schema_version = src->schema_version;
	}
	if (src->has_dist) {
		dst->has_dist = true;
		dst->has_rank = src->has_rank;
		dst->rank = src->rank;
		memcpy(dst->backend, src->backend, sizeof(dst->backend));
		memcpy(dst->nccl_version, src->nccl_version, sizeof(dst->nccl_version));
		dst->world_size = src->world_size;
		dst->pg_count = src->pg_count;
	}
	if (src->has_base_time) {
		dst->has_base_time = true;
		dst->base_time_ns = src->base_time_ns;
	}
	if (src->display_unit[0])
		memcpy(dst->display_unit, src->display_unit, sizeof(dst->display_unit));
	if (src->trace_name[0])
		memcpy(dst->trace_name, src->trace_name, sizeof(dst->trace_name));
	if (src->has_devprops) {
		free(dst->devprops);
		dst->has_devprops = true;
		dst->devprops = src->devprops;
		dst->ndevprops = src->ndevprops;
		src->devprops = NULL;
		src->ndevprops = 0;
	}
	for (size_t i = 0; i < src->nkv; i++)
		kv_add(dst, src->kv[i].key, src->kv[i].value);
	tt_meta_free(src);
}

/* ---- events ---- */

static int deliver(struct scanner *s, struct tt_raw_event *ev)
{
	ev->index = s->nelements - 1;
	int k = raw_check(ev, s->err);
	if (k < 0) {
		snprintf(s->err->path, sizeof(s->err->path), "%s", s->path);
		s->err->offset_kind = off_kind(s);
		return k;
	}
	if (k > 0) {
		tt_report_warn(s->rep, (enum tt_warning)(k - 1), ev->offset);
		return 0;
	}
	static const struct {
		uint32_t flag;
		enum tt_warning w;
	} fw[] = {
		{TT_RF_BAD_UTF8, TT_W_BAD_UTF8},   {TT_RF_DUP_KEY, TT_W_DUP_KEY},
		{TT_RF_NUM_STRING, TT_W_NUM_STRING}, {TT_RF_BIG_INT, TT_W_BIG_INT},
		{TT_RF_BAD_ARG, TT_W_BAD_ARG},
	};
	if (ev->flags & (TT_RF_BAD_UTF8 | TT_RF_DUP_KEY | TT_RF_NUM_STRING | TT_RF_BIG_INT |
			 TT_RF_BAD_ARG))
		for (size_t i = 0; i < TT_ARRAY_SIZE(fw); i++)
			if (ev->flags & fw[i].flag)
				tt_report_warn(s->rep, fw[i].w, ev->offset);
	if (ev->series_dropped)
		tt_report_warn(s->rep, TT_W_MANY_SERIES, ev->offset);
	if (s->opts && s->opts->max_events && s->nevents >= s->opts->max_events)
		return fail(s, TT_E_LIMIT, ev->offset,
			    "more than %llu events in one file (see --max-events)",
			    (unsigned long long)s->opts->max_events);
	s->nevents++;
	if (s->sink && s->sink->event) {
		int rc = s->sink->event(s->sink->ctx, ev, s->err);
		if (rc < 0 && s->err) {
			/* the sink knows neither the file nor the kind of offset */
			snprintf(s->err->path, sizeof(s->err->path), "%s", s->path);
			s->err->offset_kind = off_kind(s);
		}
		return rc;
	}
	return 0;
}

/* Parse the event at pos.  Returns 1 done, 0 the text ended inside it,
 * <0 error. */
static int one_event(struct scanner *s, int depth)
{
	for (;;) {
		const char *p = s->buf + s->pos, *end = s->buf + s->len;
		uint64_t off = s->base + s->pos;
		size_t used = 0;
		enum tt_event_res r;
		struct tt_raw_event *ev = &s->ev;
		tt_scratch_reset(s->scr);
		if (s->err)
			s->err->code = TT_E_OK;
		bool fast = !(s->opts && s->opts->no_fast);
		r = fast ? tt_event_fast(p, end, off, depth, ev, &used, s->scr, s->err) :
			   TT_EV_FALLBACK;
		if (r == TT_EV_FALLBACK)
			r = tt_event_slow(p, end, off, depth, ev, &used, s->scr, s->err);
		else if (r == TT_EV_OK && s->opts && s->opts->verify) {
			size_t used2 = 0;
			enum tt_event_res r2 =
				tt_event_slow(p, end, off, depth, &s->ev2, &used2, s->scr, s->err);
			const char *d = r2 == TT_EV_OK ? tt_raw_diff(ev, &s->ev2) : "result";
			if (!d && used2 != used)
				d = "length";
			if (d)
				return fail(s, TT_E_SYNTAX, off,
					    "fast path and cJSON disagree on '%s' of event %llu", d,
					    (unsigned long long)s->nelements);
		}
		if (r == TT_EV_OK) {
			if (ev->flags & TT_RF_SLOW)
				s->rep->slow_events++;
			else
				s->rep->fast_events++;
			s->pos += used;
			s->nelements++;
			s->rep->events_seen++;
			int rc = deliver(s, ev);
			return rc < 0 ? rc : 1;
		}
		if (r == TT_EV_ERROR)
			return lexer_fail(s);
		/* TT_EV_MORE */
		int rr = refill(s, s->pos);
		if (rr < 0)
			return rr;
		if (rr == 0)
			return 0;
	}
}

/* The text ended inside traceEvents: keep what was read, or fail. */
static int truncated(struct scanner *s, uint64_t cut)
{
	uint64_t total = s->base + s->len;
	uint64_t coff = 0;
	bool gz = tt_reader_truncated(s->rd, &coff);
	if (s->nevents == 0) {
		if (gz)
			return fail(s, TT_E_TRUNCATED, cut,
				    "gzip stream ends early (compressed byte %llu) before any complete event",
				    (unsigned long long)coff);
		return fail(s, TT_E_TRUNCATED, cut, "file ends before any complete event");
	}
	s->rep->bytes_lost = total - cut;
	tt_report_warn(s->rep, TT_W_TRUNCATED, cut);
	return 0;
}

static void array_end(struct scanner *s)
{
	if (s->opts && s->opts->pos) {
		s->opts->pos->array_closed = true;
		s->opts->pos->after_array = s->base + s->pos;
	}
}

/* traceEvents (or the bare array) from just after its '['. */
static int events_array(struct scanner *s, int depth, bool bare)
{
	bool expect_value = true, first = true;
	s->saw_events = true;
	for (;;) {
		uint64_t here = s->base + s->pos;
		int r = ws(s);
		if (r < 0)
			return r;
		if (r == 0) {
			/* a chunk of a split file: where its text ended (the
			 * loader decides whether that is a truncation) */
			if (s->opts && s->opts->start_in_array && s->opts->pos)
				s->opts->pos->stopped_at = here;
			if (bare && !expect_value) {
				tt_report_warn(s->rep, TT_W_MISSING_BRACKET, here);
				return 0;
			}
			if (bare && expect_value && !first) {
				tt_report_warn(s->rep, TT_W_TRAILING_COMMA, here);
				tt_report_warn(s->rep, TT_W_MISSING_BRACKET, here);
				return 0;
			}
			return truncated(s, here);
		}
		char c = s->buf[s->pos];
		if (expect_value) {
			if (c == ']') {
				if (!first)
					tt_report_warn(s->rep, TT_W_TRAILING_COMMA, s->base + s->pos);
				s->pos++;
				array_end(s);
				return 0;
			}
			if (c == '{' && s->opts && s->opts->stop_at &&
			    s->base + s->pos >= s->opts->stop_at) {
				if (s->opts->pos)
					s->opts->pos->stopped_at = s->base + s->pos;
				s->stopped = true;
				return 0;
			}
			if (c != '{') {
				if (c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') ||
				    c == 't' || c == 'f' || c == 'n')
					return fail(s, TT_E_TYPE, s->base + s->pos,
						    "element %llu of traceEvents is not an object",
						    (unsigned long long)s->nelements);
				struct lx l = lexer(s);
				lx_bad_value(&l, s->buf + s->pos);
				return lexer_fail(s);
			}
			uint64_t start = s->base + s->pos;
			r = one_event(s, depth);
			if (r < 0)
				return r;
			if (r == 0)
				return truncated(s, start);
			expect_value = false;
			first = false;
		} else {
			if (c == ',') {
				s->pos++;
				expect_value = true;
				continue;
			}
			if (c == ']') {
				s->pos++;
				array_end(s);
				return 0;
			}
			return fail(s, TT_E_SYNTAX, s->base + s->pos,
				    "expected ',' or ']' after event %llu",
				    (unsigned long long)(s->nelements - 1));
		}
	}
}

/* A whole value at pos (metadata): returns its length, 0 if the text ends
 * inside it, <0 on error. */
static int64_t whole_value(struct scanner *s, int depth)
{
	for (;;) {
		struct lx l = lexer(s);
		const char *p = s->buf + s->pos;
		int r = lx_value(&l, &p, depth);
		if (r == LX_OK)
			return p - (s->buf + s->pos);
		if (r == LX_ERR)
			return lexer_fail(s);
		int rr = refill(s, s->pos);
		if (rr < 0)
			return rr;
		if (rr == 0) {
			/* a number at the very end cannot be told complete; others are cut */
			return 0;
		}
	}
}

/* The text ends inside a top-level key: once events were read this is a
 * salvaged truncation like a cut inside a value (the metadata after the
 * cut is lost, the events are not); before that, an error. */
static int cut_in_key(struct scanner *s, uint64_t here, uint64_t off, const char *msg)
{
	if (s->saw_events && s->nevents > 0) {
		tt_report_warn(s->rep, TT_W_TRUNCATED, here);
		return 0;
	}
	return fail(s, TT_E_TRUNCATED, off, "%s", msg);
}

static int top_object(struct scanner *s)
{
	s->meta->is_object = true;
	bool expect_key = true, first = true;
	if (s->opts && s->opts->resume_object) {
		/* right after the traceEvents array */
		expect_key = first = false;
		s->saw_events = true;
	}
	for (;;) {
		uint64_t here = s->base + s->pos;
		int r = ws(s);
		if (r < 0)
			return r;
		if (r == 0) {
			if (s->saw_events) {
				if (s->nevents == 0)
					return fail(s, TT_E_TRUNCATED, here,
						    "file ends before any complete event");
				/* metadata after the events is lost, the events are not */
				tt_report_warn(s->rep, TT_W_TRUNCATED, here);
				return 0;
			}
			return fail(s, TT_E_TRUNCATED, here, "file ends before traceEvents");
		}
		char c = s->buf[s->pos];
		if (!expect_key) {
			if (c == ',') {
				s->pos++;
				expect_key = true;
				continue;
			}
			if (c == '}') {
				s->pos++;
				return 1;
			}
			return fail(s, TT_E_SYNTAX, here, "expected ',' or '}' in the top-level object");
		}
		if (c == '}' && first) {
			s->pos++;
			return 1;
		}
		if (c != '"')
			return fail(s, TT_E_SYNTAX, here, "expected '\"' to start a key");
		/* the key, then ':' */
		struct tt_str key;
		char keybuf[256];
		for (;;) {
			struct lx l = lexer(s);
			const char *p = s->buf + s->pos;
			bool esc;
			int lr = lx_string(&l, &p, &key, &esc);
			if (lr == LX_OK) {
				if (esc) {
					tt_scratch_reset(s->scr);
					key = lx_unescape(s->scr, key);
				}
				size_t kn = key.n < sizeof(keybuf) - 1 ? key.n : sizeof(keybuf) - 1;
				memcpy(keybuf, key.p, kn);
				keybuf[kn] = '\0';
				s->pos = (size_t)(p - s->buf);
				break;
			}
			if (lr == LX_ERR)
				return lexer_fail(s);
			int rr = refill(s, s->pos);
			if (rr < 0)
				return rr;
			if (rr == 0)
				return cut_in_key(s, here, here, "file ends inside a key");
		}
		r = ws(s);
		if (r < 0)
			return r;
		if (r == 0 || s->buf[s->pos] != ':')
			return r == 0 ? cut_in_key(s, here, s->base + s->pos, "file ends after a key") :
					fail(s, TT_E_SYNTAX, s->base + s->pos, "expected ':' after a key");
		s->pos++;
		r = ws(s);
		if (r < 0)
			return r;
		if (r == 0)
			return cut_in_key(s, here, s->base + s->pos, "file ends after a key");
		uint64_t voff = s->base + s->pos;
		if (strcmp(keybuf, "traceEvents") == 0) {
			if (s->buf[s->pos] != '[') {
				return fail(s, TT_E_NOEVENTS, voff, "traceEvents is not an array");
			}
			if (s->saw_events)
				tt_report_warn(s->rep, TT_W_DUP_META, voff); /* (both arrays are read) */
			s->pos++;
			if (s->opts && s->opts->prefix_only) {
				if (s->opts->pos)
					s->opts->pos->events_at = s->base + s->pos;
				s->stopped = true;
				return 0;
			}
			r = events_array(s, 3, false);
			if (r < 0)
				return r;
			if (s->rep->count[TT_W_TRUNCATED])
				return 0;
		} else {
			int64_t n = whole_value(s, 2);
			if (n < 0)
				return (int)n;
			if (n == 0) {
				if (s->saw_events && s->nevents > 0) {
					tt_report_warn(s->rep, TT_W_TRUNCATED, voff);
					return 0;
				}
				return fail(s, TT_E_TRUNCATED, voff, "file ends inside the value of '%s'",
					    keybuf);
			}
			r = meta_value(s, keybuf, s->buf + s->pos, (size_t)n, voff);
			if (r < 0)
				return r;
			s->pos += (size_t)n;
		}
		expect_key = false;
		first = false;
	}
}

int tt_scan(struct tt_reader *rd, const struct tt_scan_opts *o, const struct tt_sink *sink,
	    struct tt_trace_meta *meta, struct tt_load_report *rep, struct tt_err *err)
{
	struct tt_err local_err;
	struct scanner s = {0};
	s.rd = rd;
	s.path = tt_reader_name(rd);
	s.compressed = tt_reader_compression(rd) != TT_COMP_NONE;
	s.opts = o;
	s.sink = sink;
	s.meta = meta;
	s.rep = rep;
	s.err = err ? err : &local_err;
	tt_err_clear(s.err);
	s.scr = tt_scratch_new();
	s.cap = BUF_INITIAL;
	s.buf = buf_new(s.cap);
	meta->world_size = meta->pg_count = -1;
	/* a part of a split file: offsets (and bytes_total) count from the
	 * start of the file, not of the part */
	if (o && (o->start_in_array || o->resume_object))
		s.base = tt_reader_text_pos(rd);

	int rc = 0;
	int r = refill(&s, 0);
	if (r < 0) {
		rc = r;
		goto out;
	}
	if (o && o->start_in_array) {
		/* a chunk of traceEvents (parallel load): events and commas only */
		rc = events_array(&s, o->array_depth ? o->array_depth : 3, true);
		/* the missing-bracket warnings of a chunk mean nothing: the next
		 * chunk goes on where this one stopped */
		rep->count[TT_W_MISSING_BRACKET] = rep->count[TT_W_TRAILING_COMMA] = 0;
		goto out_chunk;
	}
	if (o && o->resume_object) {
		r = top_object(&s);
		rc = r < 0 ? r : 0;
		if (r == 1)
			goto trailing;
		goto out;
	}
	if (s.len >= 3 && memcmp(s.buf, "\xEF\xBB\xBF", 3) == 0) {
		tt_report_warn(rep, TT_W_BOM, 0);
		s.pos = 3;
	}
	r = ws(&s);
	if (r < 0) {
		rc = r;
		goto out;
	}
	if (r == 0) {
		uint64_t coff;
		if (tt_reader_truncated(rd, &coff))
			/* a gzip stream cut before any text: not an empty file */
			rc = fail(&s, TT_E_TRUNCATED, s.base + s.pos,
				  "gzip stream ends early (compressed byte %llu) before any complete event",
				  (unsigned long long)coff);
		else
			rc = fail(&s, TT_E_EMPTY, s.base + s.pos,
				  s.base + s.pos == 0 ? "empty file" : "no JSON value (only whitespace)");
		goto out;
	}
	char c = s.buf[s.pos];
	if (c == '{') {
		s.pos++;
		r = top_object(&s);
		if (r < 0) {
			rc = r;
			goto out;
		}
		if (s.stopped)
			goto out_chunk; /* prefix_only */
		if (!s.saw_events) {
			rc = fail(&s, TT_E_NOEVENTS, 0, "no traceEvents array in the top-level object");
			goto out;
		}
		if (r == 0) /* salvaged truncation: nothing follows */
			goto out;
	} else if (c == '[') {
		meta->is_object = false;
		tt_report_warn(rep, TT_W_BARE_ARRAY, s.base + s.pos);
		s.pos++;
		if (o && o->prefix_only) {
			if (o->pos) {
				o->pos->events_at = s.base + s.pos;
				o->pos->bare = true;
			}
			goto out_chunk;
		}
		rc = events_array(&s, 2, true);
		if (rc < 0 || s.rep->count[TT_W_TRUNCATED] || s.rep->count[TT_W_MISSING_BRACKET])
			goto out;
	} else {
		char hex[40] = "";
		size_t k = 0;
		for (size_t i = s.pos; i < s.len && k < 8; i++, k++)
			snprintf(hex + 3 * k, sizeof(hex) - 3 * k, "%02x ", (unsigned char)s.buf[i]);
		if (k)
			hex[3 * k - 1] = '\0';
		enum tt_compress cmp = tt_compress_detect((const unsigned char *)s.buf + s.pos,
							  s.len - s.pos);
		if (cmp != TT_COMP_NONE)
			rc = fail(&s, TT_E_COMPRESSED, s.base + s.pos,
				  "compressed with %s inside the file: decompress it first",
				  tt_compress_name(cmp));
		else
			rc = fail(&s, TT_E_NOTJSON, s.base + s.pos,
				  "not a JSON trace: expected '{' or '[', found bytes %s", hex);
		goto out;
	}
trailing:
	/* only whitespace or NULs may follow */
	for (;;) {
		while (s.pos < s.len) {
			char d = s.buf[s.pos];
			if (d != ' ' && d != '\n' && d != '\r' && d != '\t' && d != '\0') {
				rc = fail(&s, TT_E_SYNTAX, s.base + s.pos,
					  "unexpected bytes after the end of the JSON value");
				goto out;
			}
			s.pos++;
		}
		r = refill(&s, s.pos);
		if (r < 0) {
			rc = r;
			goto out;
		}
		if (r == 0)
			break;
	}
out:
	if (rc == 0) {
		/* drain a gzip stream to its end so that CRC errors are found */
		while (!s.eof) {
			r = refill(&s, s.len);
			if (r < 0) {
				rc = r;
				break;
			}
		}
		uint64_t coff;
		if (rc == 0 && tt_reader_truncated(rd, &coff)) {
			rep->gzip_truncated = true;
			rep->gzip_cut_offset = coff;
			if (!rep->count[TT_W_TRUNCATED])
				tt_report_warn(rep, TT_W_TRUNCATED, s.base + s.len);
		}
		if (rc == 0 && tt_reader_trailing_garbage(rd, &coff))
			tt_report_warn(rep, TT_W_GZIP_TRAILING, s.base + s.len); /* (text offset) */
		if (rc == 0 && !meta->has_schema && meta->is_object)
			tt_report_warn(rep, TT_W_NO_SCHEMA, 0);
	}
out_chunk:
	if (o && o->pos)
		o->pos->events = s.nevents;
	rep->bytes_total = s.base + s.len;
	buf_free(s.buf, s.cap);
	tt_scratch_free(s.scr);
	return rc;
}
