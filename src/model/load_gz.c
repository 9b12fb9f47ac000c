/* Loading one gzip file: inflated on one thread, parsed in blocks on all. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "build_int.h"
#include "load_int.h"
#include "model_int.h"
#include "tracetop/pool.h"
#include "tracetop/util.h"

/* ---- one gzip file: inflated on one thread, parsed in blocks on all ----
 *
 * A gzip stream can only be inflated from its start, so one thread does
 * that, into blocks of text; the blocks are parsed as they come, on all
 * threads, each into a builder of its own, and the builders are merged in
 * file order.  Each block's part starts at what looks like an event
 * boundary in its first bytes (as the split of a plain file does) and
 * reads on into a copy of the next block's first bytes to finish its last
 * event.  Anything unusual (the guess was inside a string, an event longer
 * than that overlap, a truncated or corrupt stream, the array not closed
 * in the last block) gives up, and the file is read again the ordinary
 * way, which knows how to report all of those. */

#ifndef GZ_BLOCK /* (tests build with small blocks) */
#define GZ_BLOCK ((size_t)4 << 20)
#define GZ_TAIL ((size_t)256 << 10)
#endif
#define GZ_LIVE 4 /* blocks in memory at once (inflated, not yet parsed) */

struct gzpart {
	char *data;          /* GZ_BLOCK + GZ_TAIL bytes */
	size_t len, tail;    /* its own bytes, then the copy of the next block's */
	uint64_t start;      /* text offset of data[0] */
	uint64_t ev_start;   /* first event of the part (part 0: found by the prefix scan) */
	uint64_t stop_at;    /* the next part's first event, 0 for the last part */
	bool last, ready, done;
	struct builder *b;
	struct tt_load_report rep;
	struct tt_scan_pos pos;
	struct tt_trace_meta meta;
};

struct gzjob {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gzpart **parts;
	size_t nparts, cparts, next;
	int live;
	bool eof, fail;
	/* parts are merged in order as soon as they are parsed, so that the
	 * parts' own tables do not pile up */
	struct builder *b;
	struct tt_load_report rep;
	size_t merged;
	bool merging;
	const char *path;
	const struct tt_load_opts *o;
	/* the text before the events (part 0) */
	struct tt_trace_meta meta;
	struct tt_load_report prep;
	char *spare[GZ_LIVE + 1]; /* blocks to use again */
	int nspare;
};

/* blocks are mapped memory, returned to the system at the end and not
 * counted in the model's budget (--max-memory); in between they are used
 * again (fresh pages cost a fault and a clearing each) */
static char *block_new(struct gzjob *j)
{
	pthread_mutex_lock(&j->mu);
	char *p = j->nspare ? j->spare[--j->nspare] : NULL;
	pthread_mutex_unlock(&j->mu);
	if (p)
		return p;
	p = mmap(NULL, GZ_BLOCK + GZ_TAIL, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		tt_die("out of memory (%zu bytes)", GZ_BLOCK + GZ_TAIL);
	return p;
}

/* (with j->mu held, or after the threads ended) */
static void block_free(struct gzjob *j, char *p)
{
	if (!p)
		return;
	if (j->nspare < GZ_LIVE + 1)
		j->spare[j->nspare++] = p;
	else
		munmap(p, GZ_BLOCK + GZ_TAIL);
}

/* where a block's part starts: a boundary in its first GZ_TAIL - 64 bytes
 * (the same bytes whether read from the block or from the copy behind the
 * previous one) */
static int64_t gz_first_event(const char *p, size_t n)
{
	return load_boundary(p, n < GZ_TAIL - 64 ? n : GZ_TAIL - 64);
}

/* offsets from a memory reader count from `base` in the file's text */
static void shift_report(struct tt_load_report *r, uint64_t base)
{
	for (int w = 0; w < TT_W_COUNT; w++)
		if (r->count[w])
			r->first_off[w] += base;
	r->bytes_total += base;
}

static bool gz_parse(struct gzjob *j, struct gzpart *p, size_t k)
{
	struct tt_err err;
	struct tt_reader *rd;
	tt_err_clear(&err);
	if (k == 0) {
		/* the text before traceEvents, in the first block */
		struct tt_scan_pos pos = {0};
		struct tt_scan_opts so = {0};
		so.prefix_only = true;
		so.pos = &pos;
		struct tt_sink none = {NULL, NULL};
		if (tt_reader_open_mem(&rd, j->path, p->data, p->len + p->tail, &err))
			return false;
		int rc = tt_scan(rd, &so, &none, &j->meta, &j->prep, &err);
		tt_reader_close(rd);
		if (rc || pos.bare || !pos.events_at || pos.events_at >= p->len)
			return false;
		p->ev_start = pos.events_at;
		if (p->stop_at && p->ev_start >= p->stop_at)
			return false;
	}
	size_t off = (size_t)(p->ev_start - p->start);
	if (tt_reader_open_mem(&rd, j->path, p->data + off, p->len + p->tail - off, &err))
		return false;
	struct tt_scan_opts so = {0};
	so.no_fast = j->o->no_fast;
	so.verify = j->o->verify;
	so.start_in_array = true;
	so.array_depth = 3;
	so.stop_at = p->stop_at ? p->stop_at - p->ev_start : 0;
	so.pos = &p->pos;
	p->b = builder_new(j->o->max_memory);
	struct tt_sink sink = {p->b, builder_event};
	p->meta.world_size = -1;
	int rc = tt_scan(rd, &so, &sink, &p->meta, &p->rep, &err);
	tt_reader_close(rd);
	if (rc || p->rep.count[TT_W_TRUNCATED] || p->rep.count[TT_W_MISSING_BRACKET])
		return false;
	shift_report(&p->rep, p->ev_start);
	shift_report(builder_report(p->b), p->ev_start);
	if (p->b->frac_off)
		p->b->frac_off += p->ev_start;
	p->pos.stopped_at += p->ev_start;
	p->pos.after_array += p->ev_start;
	if (p->last)
		return p->pos.array_closed;
	return !p->pos.array_closed && p->pos.stopped_at == p->stop_at;
}

/* one of the parsers: takes parts as they become ready until the end */
static void gz_worker(size_t worker, void *arg)
{
	struct gzjob *j = arg;
	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (!j->fail && j->next < j->nparts && !j->parts[j->next]->ready)
			pthread_cond_wait(&j->cv, &j->mu);
		if (j->fail || j->next >= j->nparts) {
			if (j->fail || j->eof)
				break;
			pthread_cond_wait(&j->cv, &j->mu);
			continue;
		}
		size_t k = j->next++;
		struct gzpart *p = j->parts[k];
		pthread_mutex_unlock(&j->mu);
		bool ok = gz_parse(j, p, k);
		pthread_mutex_lock(&j->mu);
		p->done = true;
		if (!ok)
			j->fail = true;
		if (!p->last) {
			/* the text of the last block is read again after the array */
			block_free(j, p->data);
			p->data = NULL;
			j->live--;
		}
		pthread_cond_broadcast(&j->cv);
		if (j->merging)
			continue;
		j->merging = true;
		while (!j->fail && j->merged < j->nparts && j->parts[j->merged]->done) {
			struct gzpart *q = j->parts[j->merged];
			pthread_mutex_unlock(&j->mu);
			if (!j->b) {
				j->b = q->b;
				q->b = NULL;
			} else {
				builder_merge(j->b, q->b);
				builder_free(q->b);
				q->b = NULL;
			}
			tt_report_merge(&j->rep, &q->rep);
			tt_meta_free(&q->meta);
			pthread_mutex_lock(&j->mu);
			j->merged++;
		}
		j->merging = false;
	}
	pthread_mutex_unlock(&j->mu);
}

/* mark part k parseable; its stop is the next block's first event */
static bool gz_ready(struct gzjob *j, size_t k, bool last)
{
	struct gzpart *p = j->parts[k];
	p->last = last;
	if (!last) {
		int64_t b = gz_first_event(p->data + p->len, p->tail);
		if (b < 0)
			return false;
		p->stop_at = p->start + p->len + (uint64_t)b;
		j->parts[k + 1]->ev_start = p->stop_at;
	}
	p->ready = true;
	return true;
}

/* the producer: inflate into blocks */
static void gz_produce(struct gzjob *j, struct tt_reader *rd)
{
	uint64_t text = 0;
	for (;;) {
		pthread_mutex_lock(&j->mu);
		while (!j->fail && j->live >= GZ_LIVE)
			pthread_cond_wait(&j->cv, &j->mu);
		bool stop = j->fail;
		if (!stop)
			j->live++;
		pthread_mutex_unlock(&j->mu);
		if (stop)
			return;
		struct gzpart *p = tt_calloc(1, sizeof(*p));
		p->data = block_new(j);
		p->start = text;
		bool eof = false, bad = false;
		while (p->len < GZ_BLOCK) {
			struct tt_err err;
			ssize_t n = tt_reader_read(rd, p->data + p->len, GZ_BLOCK - p->len, &err);
			if (n < 0)
				bad = true;
			if (n <= 0) {
				eof = true;
				break;
			}
			p->len += (size_t)n;
		}
		text += p->len;
		if (eof && (tt_reader_truncated(rd, NULL) || tt_reader_trailing_garbage(rd, NULL)))
			bad = true;
		pthread_mutex_lock(&j->mu);
		if (bad || (p->len == 0 && j->nparts == 0)) {
			j->fail = true;
			block_free(j, p->data);
			free(p);
			j->live--;
			p = NULL;
		} else if (p->len == 0) {
			/* the end fell on a block boundary */
			block_free(j, p->data);
			free(p);
			j->live--;
			if (!gz_ready(j, j->nparts - 1, true))
				j->fail = true;
			p = NULL;
		} else {
			TT_GROW(j->parts, j->cparts, j->nparts + 1);
			j->parts[j->nparts++] = p;
			if (j->nparts > 1) {
				struct gzpart *q = j->parts[j->nparts - 2];
				q->tail = p->len < GZ_TAIL ? p->len : GZ_TAIL;
				memcpy(q->data + q->len, p->data, q->tail);
				if (!gz_ready(j, j->nparts - 2, false))
					j->fail = true;
			}
			if (eof && !gz_ready(j, j->nparts - 1, true))
				j->fail = true;
		}
		if (eof || j->fail)
			j->eof = true;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		if (eof || bad)
			return;
	}
}

struct gzprod {
	struct gzjob *j;
	struct tt_reader *rd;
};

static void *gz_producer(void *arg)
{
	struct gzprod *g = arg;
	gz_produce(g->j, g->rd);
	pthread_mutex_lock(&g->j->mu);
	g->j->eof = true;
	pthread_cond_broadcast(&g->j->cv);
	pthread_mutex_unlock(&g->j->mu);
	return NULL;
}

int load_gz_split(struct tt_rank **out, struct tt_reader *rd, const char *path,
			 int nthreads, const struct tt_load_opts *o, uint64_t *text_bytes)
{
	struct gzjob j;
	memset(&j, 0, sizeof(j));
	pthread_mutex_init(&j.mu, NULL);
	pthread_cond_init(&j.cv, NULL);
	j.path = path;
	j.o = o;
	j.meta.world_size = -1;
	struct gzprod g = {&j, rd};
	pthread_t prod;
	/* without the producer thread, read the file the ordinary way */
	bool prod_ok = tt_thread_start(&prod, gz_producer, &g);
	if (prod_ok) {
		tt_parallel_for((size_t)nthreads, nthreads, gz_worker, &j);
		pthread_join(prod, NULL);
	} else {
		j.fail = true;
	}
	int rc = 1;
	struct builder *b = j.b;
	struct tt_load_report rep = j.prep;
	tt_report_merge(&rep, &j.rep);
	struct tt_trace_meta meta = j.meta;
	memset(&j.meta, 0, sizeof(j.meta));
	bool ok = !j.fail && j.nparts > 0 && j.parts[j.nparts - 1]->last &&
		  j.merged == j.nparts && b;
	if (ok) {
		/* the text after the array */
		struct gzpart *p = j.parts[j.nparts - 1];
		uint64_t after = p->pos.after_array;
		struct tt_trace_meta tail = {0};
		struct tt_load_report trep = {0};
		struct tt_reader *tr;
		struct tt_err err;
		size_t off = (size_t)(after - p->start);
		int trc = 1;
		if (after >= p->start && off <= p->len) {
			if (off == p->len)
				trc = 1; /* the top object's '}' is missing: let the ordinary path say so */
			else if (tt_reader_open_mem(&tr, path, p->data + off, p->len - off, &err) == 0) {
				struct tt_scan_opts to = {0};
				to.resume_object = true;
				trc = tt_scan(tr, &to, NULL, &tail, &trep, &err);
				tt_reader_close(tr);
			}
		}
		/* (events after the array: a second traceEvents, read the ordinary way) */
		if (trc == 0 && !trep.count[TT_W_TRUNCATED] && trep.events_seen == 0) {
			shift_report(&trep, after);
			trep.count[TT_W_NO_SCHEMA] = 0;
			tt_report_merge(&rep, &trep);
			rep.bytes_total = trep.bytes_total;
			tt_meta_merge(&meta, &tail);
			if (!meta.has_schema)
				tt_report_warn(&rep, TT_W_NO_SCHEMA, 0);
			*text_bytes = rep.bytes_total;
			b->fin_threads = nthreads;
			*out = builder_finish(b, &meta, &rep);
			rc = 0;
		} else {
			tt_meta_free(&tail);
		}
	}
	builder_free(b);
	tt_meta_free(&meta);
	for (size_t k = 0; k < j.nparts; k++) {
		struct gzpart *p = j.parts[k];
		builder_free(p->b);
		tt_meta_free(&p->meta);
		block_free(&j, p->data);
		free(p);
	}
	for (int k = 0; k < j.nspare; k++)
		munmap(j.spare[k], GZ_BLOCK + GZ_TAIL);
	free(j.parts);
	pthread_mutex_destroy(&j.mu);
	pthread_cond_destroy(&j.cv);
	return rc;
}
