/* Loading: paths -> files -> ranks, on a pool of threads (one file each). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_int.h"
#include "model_int.h"
#include "tracetop/util.h"

/* ---- paths ---- */

static bool trace_like(const char *name)
{
	size_t n = strlen(name);
	if (name[0] == '.')
		return false;
	static const char *const ext[] = {".json", ".json.gz", ".gz", ".trace", ".tts"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(ext); i++) {
		size_t m = strlen(ext[i]);
		if (n > m && strcmp(name + n - m, ext[i]) == 0)
			return true;
	}
	return false;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct plist {
	char **v;
	size_t n, cap;
};

static void padd(struct plist *l, const char *s)
{
	TT_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = tt_strdup(s);
}

static void bad_path(void (*bad)(void *, const struct tt_err *), void *ctx, const char *path,
		     const char *msg, size_t *nbad)
{
	struct tt_err e;
	tt_err_set(&e, TT_E_NOTFOUND, path, TT_NO_OFFSET, "%s", msg);
	(*nbad)++;
	if (bad)
		bad(ctx, &e);
}

static void add_dir(struct plist *l, const char *dir, void (*bad)(void *, const struct tt_err *),
		    void *ctx, size_t *nbad)
{
	DIR *d = opendir(dir);
	if (!d) {
		bad_path(bad, ctx, dir, strerror(errno), nbad);
		return;
	}
	size_t before = l->n;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!trace_like(de->d_name))
			continue;
		size_t n = strlen(dir) + strlen(de->d_name) + 2;
		char *p = tt_malloc(n);
		snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			padd(l, p);
		free(p);
	}
	closedir(d);
	/* X.tts beside X: X is listed and uses its cache when that is fresh */
	size_t w = before;
	for (size_t i = before; i < l->n; i++) {
		size_t n = strlen(l->v[i]);
		bool shadowed = false;
		if (n > 4 && strcmp(l->v[i] + n - 4, ".tts") == 0)
			for (size_t j = before; j < l->n && !shadowed; j++)
				shadowed = strlen(l->v[j]) == n - 4 && strncmp(l->v[j], l->v[i], n - 4) == 0;
		if (shadowed)
			free(l->v[i]);
		else
			l->v[w++] = l->v[i];
	}
	l->n = w;
	if (l->n == before)
		bad_path(bad, ctx, dir, "no trace files (*.json, *.json.gz, *.gz, *.tts) in this directory",
			 nbad);
	else
		qsort(l->v + before, l->n - before, sizeof(*l->v), str_cmp);
}

size_t tt_expand_paths(const char *const *paths, size_t n, char ***out, size_t *nbad,
		       void (*bad)(void *ctx, const struct tt_err *e), void *ctx)
{
	struct plist l = {0};
	*nbad = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = paths[i];
		struct stat st;
		if (strcmp(p, "-") == 0) {
			padd(&l, p);
		} else if (tt_remote_is(p)) {
			/* a prefix ending in '/' lists its objects; else one object */
			if (p[strlen(p) - 1] != '/') {
				padd(&l, p);
			} else {
				char **objs;
				struct tt_err e;
				int no = tt_remote_list(p, &objs, &e);
				if (no < 0) {
					(*nbad)++;
					if (bad)
						bad(ctx, &e);
				}
				for (int k = 0; k < no; k++) {
					if (trace_like(objs[k]))
						padd(&l, objs[k]);
					free(objs[k]);
				}
				free(no > 0 ? objs : NULL);
			}
		} else if (stat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				add_dir(&l, p, bad, ctx, nbad);
			else
				padd(&l, p);
		} else if (strpbrk(p, "*?[")) {
			glob_t g;
			if (glob(p, 0, NULL, &g) == 0) {
				for (size_t k = 0; k < g.gl_pathc; k++) {
					if (stat(g.gl_pathv[k], &st) == 0 && S_ISDIR(st.st_mode))
						add_dir(&l, g.gl_pathv[k], bad, ctx, nbad);
					else
						padd(&l, g.gl_pathv[k]);
				}
				globfree(&g);
			} else {
				bad_path(bad, ctx, p, "no file matches this pattern", nbad);
			}
		} else {
			bad_path(bad, ctx, p, strerror(errno), nbad);
		}
	}
	*out = l.v;
	return l.n;
}

void tt_paths_free(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

/* ---- one large plain file, split across threads ----
 *
 * The text before traceEvents is read first.  The rest of the file is cut
 * into as many parts as threads, each part starting at what looks like the
 * start of an event ("}, {" between events).  Each thread parses its part
 * with a builder of its own and stops before the first event at or past the
 * next part's start.  If it stops exactly there, the next part started at a
 * real event; if not (the pattern was inside a string), the next part is
 * parsed again from where this one stopped.  Then the builders are merged in
 * file order and the text after the array is read. */

#define SPLIT_MIN_DEFAULT ((uint64_t)48 << 20)
#define MAX_PARTS 64

struct part {
	const char *path;
	uint64_t start, end, stop_at;
	const struct tt_load_opts *o;
	struct builder *b;
	struct tt_trace_meta meta;
	struct tt_load_report rep;
	struct tt_scan_pos pos;
	struct tt_err err;
	int rc;
};

static int scan_part(struct part *p)
{
	struct tt_reader *rd;
	tt_err_clear(&p->err);
	p->rc = tt_reader_open_range(&rd, p->path, p->start, p->end, &p->err);
	if (p->rc)
		return p->rc;
	struct tt_scan_opts so = {0};
	so.no_fast = p->o->no_fast;
	so.verify = p->o->verify;
	so.start_in_array = true;
	so.array_depth = 3;
	so.stop_at = p->stop_at;
	so.pos = &p->pos;
	p->b = builder_new(p->o->max_memory);
	struct tt_sink sink = {p->b, builder_event};
	p->rc = tt_scan(rd, &so, &sink, &p->meta, &p->rep, &p->err);
	tt_reader_close(rd);
	return p->rc;
}

static void *part_thread(void *arg)
{
	scan_part(arg);
	return NULL;
}

/* the offset of an event boundary ("}, {" then '"') in p[0, n), or -1 */
static int64_t mem_boundary(const char *p, size_t n)
{
	for (size_t i = 0; i + 3 < n; i++) {
		if (p[i] != '}')
			continue;
		size_t j = i + 1;
		while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\r' || p[j] == '\t'))
			j++;
		if (j >= n || p[j] != ',')
			continue;
		j++;
		while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\r' || p[j] == '\t'))
			j++;
		if (j + 1 < n && p[j] == '{' && (p[j + 1] == '"' || p[j + 1] == '\n' || p[j + 1] == ' '))
			return (int64_t)j;
	}
	return -1;
}

/* the offset of the '{' of an event boundary at or after `from`, or 0 */
static uint64_t find_boundary(int fd, uint64_t from, uint64_t end)
{
	char buf[1 << 16];
	while (from < end) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)from);
		if (n <= 0)
			return 0;
		int64_t at = mem_boundary(buf, (size_t)n);
		if (at >= 0)
			return from + (uint64_t)at;
		/* keep a little overlap so that a boundary across reads is found;
		 * a short read is the end of the file */
		if ((size_t)n < sizeof(buf))
			return 0;
		from += (uint64_t)n - 64;
	}
	return 0;
}

static int load_split(struct tt_rank **out, const char *path, uint64_t size, int nparts,
		      const struct tt_load_opts *o, struct tt_err *err)
{
	struct tt_reader *rd;
	int rc = tt_reader_open(&rd, path, err);
	if (rc)
		return rc;
	/* 1. the text before traceEvents */
	struct tt_trace_meta meta = {0};
	struct tt_load_report rep = {0};
	struct tt_scan_pos pos = {0};
	struct tt_scan_opts so = {0};
	so.prefix_only = true;
	so.pos = &pos;
	struct tt_sink none = {NULL, NULL};
	rc = tt_scan(rd, &so, &none, &meta, &rep, err);
	tt_reader_close(rd);
	if (rc || !pos.events_at || pos.bare) {
		tt_meta_free(&meta);
		return rc ? rc : 1; /* 1: not splittable, load it whole */
	}
	/* 2. part starts */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	struct part parts[MAX_PARTS];
	memset(parts, 0, sizeof(parts));
	int np = 0;
	parts[np++].start = pos.events_at;
	for (int j = 1; j < nparts; j++) {
		uint64_t at = pos.events_at + (size - pos.events_at) / (uint64_t)nparts * (uint64_t)j;
		uint64_t b = find_boundary(fd, at, size);
		if (b && b > parts[np - 1].start)
			parts[np++].start = b;
	}
	close(fd);
	for (int j = 0; j < np; j++) {
		parts[j].path = path;
		parts[j].end = size;
		parts[j].stop_at = j + 1 < np ? parts[j + 1].start : 0;
		parts[j].o = o;
		parts[j].meta.world_size = -1;
	}
	/* 3. parse the parts in parallel */
	pthread_t th[MAX_PARTS];
	bool started[MAX_PARTS] = {false};
	for (int j = 1; j < np; j++)
		started[j] = pthread_create(&th[j], NULL, part_thread, &parts[j]) == 0;
	scan_part(&parts[0]);
	for (int j = 1; j < np; j++) {
		if (started[j])
			pthread_join(th[j], NULL);
		else
			scan_part(&parts[j]);
	}
	/* 4. check the seams; re-parse a part whose start was not an event */
	rc = 0;
	struct builder *b = NULL;
	uint64_t after = 0, delivered = 0;
	int j = 0;
	while (j < np) {
		struct part *p = &parts[j];
		if (p->rc && delivered > 0 && p->err.code == TT_E_TRUNCATED && p->pos.events == 0) {
			/* the file is cut inside this part's first event: keep the
			 * events before it, as a whole-file load does */
			tt_report_warn(&rep, TT_W_TRUNCATED, p->err.offset);
			rep.bytes_lost = size - p->err.offset;
			rep.bytes_total = size;
			break;
		}
		if (p->rc) {
			rc = p->rc;
			*err = p->err;
			break;
		}
		if (!b) {
			b = p->b;
			p->b = NULL;
		} else {
			builder_merge(b, p->b);
		}
		tt_report_merge(&rep, &p->rep);
		delivered += p->pos.events;
		if (p->rep.count[TT_W_TRUNCATED]) {
			rep.bytes_lost = p->rep.bytes_lost;
			rep.bytes_total = p->rep.bytes_total;
			after = 0;
			break;
		}
		if (p->pos.array_closed) {
			after = p->pos.after_array;
			break;
		}
		if (j + 1 >= np)
			break;
		if (p->pos.stopped_at == parts[j + 1].start) {
			j++;
			continue;
		}
		/* the next part began inside something: parse from here again */
		struct part *q = &parts[j + 1];
		builder_free(q->b);
		tt_meta_free(&q->meta);
		memset(&q->rep, 0, sizeof(q->rep));
		memset(&q->pos, 0, sizeof(q->pos));
		q->b = NULL;
		q->start = p->pos.stopped_at;
		scan_part(q);
		j++;
	}
	if (!rc && b && !after && !rep.count[TT_W_TRUNCATED]) {
		/* the text ended inside the array after an event or a comma (a
		 * chunk takes it for a missing ']'): as in a whole-file load, a
		 * truncation, and an error if no event was complete */
		uint64_t cut = parts[j < np ? j : np - 1].pos.stopped_at;
		if (delivered == 0) {
			rc = tt_err_set(err, TT_E_TRUNCATED, path, cut,
					"file ends before any complete event");
		} else {
			tt_report_warn(&rep, TT_W_TRUNCATED, cut);
			rep.bytes_lost = size - cut;
			rep.bytes_total = size;
		}
	}
	for (int k = 0; k < np; k++) {
		builder_free(parts[k].b);
		tt_meta_free(&parts[k].meta);
	}
	/* 5. the text after the array */
	if (!rc && after) {
		struct tt_trace_meta tail = {0};
		struct tt_load_report trep = {0};
		rc = tt_reader_open_range(&rd, path, after, size, err);
		if (!rc) {
			struct tt_scan_opts to = {0};
			to.resume_object = true;
			rc = tt_scan(rd, &to, &none, &tail, &trep, err);
			tt_reader_close(rd);
			if (rc == -TT_E_TRUNCATED && delivered > 0) {
				/* cut in the metadata after the events: they are
				 * kept, as a whole-file load keeps them */
				tt_report_warn(&trep, TT_W_TRUNCATED, err->offset);
				rc = 0;
			}
			if (trep.events_seen > 0) {
				/* a second traceEvents array (its events would be
				 * lost here): read the file whole */
				tt_meta_free(&tail);
				tt_meta_free(&meta);
				builder_free(b);
				return 1;
			}
		}
		trep.count[TT_W_NO_SCHEMA] = 0;
		tt_report_merge(&rep, &trep);
		rep.bytes_total = trep.bytes_total;
		tt_meta_merge(&meta, &tail);
	}
	if (!meta.has_schema)
		tt_report_warn(&rep, TT_W_NO_SCHEMA, 0);
	if (rc || !b) {
		builder_free(b);
		tt_meta_free(&meta);
		return rc ? rc : tt_err_set(err, TT_E_NOEVENTS, path, TT_NO_OFFSET, "no events");
	}
	b->fin_threads = nparts; /* the cores that parsed the parts sort the tracks */
	*out = builder_finish(b, &meta, &rep);
	builder_free(b);
	return 0;
}

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
	return mem_boundary(p, n < GZ_TAIL - 64 ? n : GZ_TAIL - 64);
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

static void *gz_worker(void *arg)
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
	return NULL;
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

/* 0 and *out, 1 to read the file the ordinary way, never an error */
static int load_gz_split(struct tt_rank **out, struct tt_reader *rd, const char *path,
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
	bool prod_ok = pthread_create(&prod, NULL, gz_producer, &g) == 0;
	pthread_t th[MAX_PARTS];
	bool started[MAX_PARTS] = {false};
	for (int i = 1; i < nthreads && prod_ok; i++)
		started[i] = pthread_create(&th[i], NULL, gz_worker, &j) == 0;
	if (prod_ok) {
		gz_worker(&j);
	} else {
		j.fail = true;
	}
	for (int i = 1; i < nthreads; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	if (prod_ok)
		pthread_join(prod, NULL);
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

/* ---- one rank ---- */

static void finish_rank(struct tt_rank *r, const char *path, uint64_t size, size_t memlen,
			enum tt_compress comp, const struct tt_load_opts *o, size_t file_index);

/* a rank read from a cache: its own path, and a position rank assigned anew */
static void cached_rank(struct tt_rank *r, const char *path, const struct tt_load_opts *o,
			size_t file_index)
{
	free(r->path);
	r->path = tt_strdup(path);
	const char *slash = strrchr(r->path, '/');
	r->file = slash ? slash + 1 : r->path;
	if (r->rank_src == TT_RANK_POSITION)
		r->rank = -1;
	if (o && o->progress)
		o->progress(o->progress_ctx, file_index, r->report.bytes_total, r->file_bytes,
			    r->report.events_seen, true);
}

struct progress_ctx {
	const struct tt_load_opts *o;
	size_t file;
};

static void scan_progress(void *ctx, uint64_t text, uint64_t raw, uint64_t events)
{
	struct progress_ctx *p = ctx;
	p->o->progress(p->o->progress_ctx, p->file, text, raw, events, false);
}

int tt_rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		 const struct tt_load_opts *o, size_t file_index, struct tt_err *err)
{
	struct tt_reader *rd = NULL;
	int rc;
	*out = NULL;
	if (!mem && tt_cache_is(path)) {
		struct tt_rank *r;
		rc = tt_rank_open_cache(&r, path, err);
		if (rc)
			return rc;
		cached_rank(r, path, o, file_index);
		*out = r;
		return 0;
	}
	char cpath[4200];
	if (!mem && !(o && o->no_cache) && strcmp(path, "-") != 0 &&
	    tt_cache_for(path, cpath, sizeof(cpath))) {
		struct tt_rank *r;
		struct tt_err cerr;
		if (tt_rank_open_cache(&r, cpath, &cerr) == 0) {
			cached_rank(r, path, o, file_index);
			*out = r;
			return 0;
		}
		/* a bad cache beside its trace: parse the trace instead */
	}
	if (mem)
		rc = tt_reader_open_mem(&rd, path, mem, memlen, err);
	else if (strcmp(path, "-") == 0)
		rc = tt_reader_open_fd(&rd, dup(0), "(standard input)", err);
	else if (tt_remote_is(path))
		rc = tt_reader_open_remote(&rd, path, err);
	else
		rc = tt_reader_open(&rd, path, err);
	if (rc)
		return rc;
	int nthreads = o && o->threads > 0 ? o->threads : tt_ncpus();
	uint64_t split_min = o && o->split_min ? o->split_min : SPLIT_MIN_DEFAULT;
	/* (--max-events counts the events of the whole file: no split) */
	if (!mem && o && o->pipeline && !o->no_split && !o->max_events && nthreads > 1 &&
	    tt_reader_compression(rd) == TT_COMP_NONE && tt_reader_size(rd) >= split_min) {
		uint64_t size = tt_reader_size(rd);
		tt_reader_close(rd);
		struct tt_rank *r = NULL;
		rc = load_split(&r, path, size, nthreads > MAX_PARTS ? MAX_PARTS : nthreads, o, err);
		if (rc <= 0) {
			if (rc == 0)
				finish_rank(r, path, size, 0, TT_COMP_NONE, o, file_index);
			*out = r;
			return rc;
		}
		/* not splittable: read it whole */
		rc = tt_reader_open(&rd, path, err);
		if (rc)
			return rc;
	}
	/* (a memory budget is checked as the one builder grows: no split) */
	if (!mem && o && o->pipeline && !o->no_split && !o->max_events && !o->max_memory &&
	    nthreads > 1 && tt_reader_compression(rd) == TT_COMP_GZIP && strcmp(path, "-") != 0 &&
	    !tt_remote_is(path)) {
		struct tt_rank *r = NULL;
		uint64_t size = tt_reader_size(rd), text = 0;
		rc = load_gz_split(&r, rd, path, nthreads > MAX_PARTS ? MAX_PARTS : nthreads, o,
				   &text);
		tt_reader_close(rd);
		if (rc == 0) {
			finish_rank(r, path, size, 0, TT_COMP_GZIP, o, file_index);
			*out = r;
			return 0;
		}
		/* something unusual: read it the ordinary way */
		rc = tt_reader_open(&rd, path, err);
		if (rc)
			return rc;
	}
	if (o && o->pipeline)
		tt_reader_set_threaded(rd, true);

	struct builder *b = builder_new(o ? o->max_memory : 0);
	struct tt_sink sink = {b, builder_event};
	struct tt_scan_opts so = {0};
	struct progress_ctx pc = {o, file_index};
	if (o) {
		so.no_fast = o->no_fast;
		so.verify = o->verify;
		so.max_events = o->max_events;
		if (o->progress) {
			so.progress = scan_progress;
			so.progress_ctx = &pc;
		}
	}
	struct tt_trace_meta meta = {0};
	struct tt_load_report rep = {0};
	rc = tt_scan(rd, &so, &sink, &meta, &rep, err);
	enum tt_compress comp = tt_reader_compression(rd);
	uint64_t size = tt_reader_size(rd);
	if (rc == -TT_E_LIMIT && err && strstr(err->msg, "(--max-memory)") &&
	    comp == TT_COMP_NONE && err->offset && err->offset < size) {
		/* what the whole file would need, in proportion to what was read */
		size_t k = strlen(err->msg);
		double need = (double)tt_mem_used() * (double)size / (double)err->offset;
		snprintf(err->msg + k, sizeof(err->msg) - k, ", about %.0f MB for the whole file",
			 need / 1048576.0);
	}
	tt_reader_close(rd);
	if (rc) {
		tt_meta_free(&meta);
		builder_free(b);
		return rc;
	}
	/* alone on the machine (o->pipeline): finish on all threads */
	b->fin_threads = o && o->pipeline ? nthreads : 1;
	struct tt_rank *r = builder_finish(b, &meta, &rep);
	builder_free(b);
	finish_rank(r, path, size, memlen, comp, o, file_index);
	*out = r;
	return 0;
}

/* naming, rank number, and the last progress call of a loaded rank */
static void finish_rank(struct tt_rank *r, const char *path, uint64_t size, size_t memlen,
			enum tt_compress comp, const struct tt_load_opts *o, size_t file_index)
{
	r->path = tt_strdup(path);
	const char *slash = strrchr(r->path, '/');
	r->file = slash ? slash + 1 : r->path;
	r->compression = comp;
	r->file_bytes = size ? size : memlen;
	r->name_rank = tt_rank_from_name(r->file);
	if (r->meta.has_rank) {
		r->rank = r->meta.rank;
		r->rank_src = TT_RANK_JSON;
		if (r->name_rank >= 0 && r->name_rank != r->rank)
			tt_report_warn(&r->report, TT_W_RANK_MISMATCH, 0);
	} else if (r->name_rank >= 0) {
		r->rank = r->name_rank;
		r->rank_src = TT_RANK_NAME;
		tt_report_warn(&r->report, TT_W_RANK_FROM_NAME, 0);
	} else {
		r->rank = -1;
		r->rank_src = TT_RANK_POSITION;
	}
	if (o && o->progress)
		o->progress(o->progress_ctx, file_index, r->report.bytes_total, r->file_bytes,
			    r->report.events_seen, true);
}

/* ---- many ranks ---- */

struct job {
	char *const *files;
	const char *const *names;
	const void *const *data;
	const size_t *lens;
	size_t n;
	const struct tt_load_opts *o;
	atomic_size_t next;
	struct tt_rank **ranks;
	struct tt_err *errs;
	int *rcs;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		tt_err_clear(&j->errs[i]);
		if (j->data)
			j->rcs[i] = tt_rank_load(&j->ranks[i], j->names[i], j->data[i], j->lens[i],
						 j->o, i, &j->errs[i]);
		else
			j->rcs[i] = tt_rank_load(&j->ranks[i], j->files[i], NULL, 0, j->o, i,
						 &j->errs[i]);
	}
	return NULL;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct tt_rank *x = *(struct tt_rank *const *)a, *y = *(struct tt_rank *const *)b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->file, y->file);
}

static bool rank_used(struct tt_rank **v, size_t n, int64_t rank)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && v[i]->rank == rank)
			return true;
	return false;
}

static int load_all(struct tt_model **out, struct job *j)
{
	struct tt_model *m = tt_calloc(1, sizeof(*m));
	size_t n = j->n;
	j->ranks = tt_calloc(n + 1, sizeof(*j->ranks));
	j->errs = tt_calloc(n + 1, sizeof(*j->errs));
	j->rcs = tt_calloc(n + 1, sizeof(*j->rcs));
	atomic_init(&j->next, 0);
	int nthreads = j->o && j->o->threads > 0 ? j->o->threads : tt_ncpus();
	/* fewer files than cores: inflate gzip on a thread of its own */
	struct tt_load_opts o2 = {0};
	if (j->o)
		o2 = *j->o;
	o2.pipeline = nthreads > 1 && (size_t)nthreads > n;
	o2.threads = nthreads;
	j->o = &o2;
	if ((size_t)nthreads > n)
		nthreads = (int)n;
	if (nthreads <= 1) {
		worker(j);
	} else {
		pthread_t *th = tt_calloc((size_t)nthreads, sizeof(*th));
		for (int i = 0; i < nthreads; i++)
			if (pthread_create(&th[i], NULL, worker, j) != 0)
				tt_die("cannot start a loader thread");
		for (int i = 0; i < nthreads; i++)
			pthread_join(th[i], NULL);
		free(th);
	}
	/* ranks from position: the lowest unused numbers, in file order */
	for (size_t i = 0; i < n; i++) {
		struct tt_rank *r = j->ranks[i];
		if (!r || r->rank >= 0)
			continue;
		int64_t k = 0;
		while (rank_used(j->ranks, n, k))
			k++;
		r->rank = k;
		tt_report_warn(&r->report, TT_W_NO_RANK, 0);
	}
	m->ranks = tt_calloc(n + 1, sizeof(*m->ranks));
	for (size_t i = 0; i < n; i++) {
		if (j->ranks[i]) {
			m->ranks[m->nranks++] = j->ranks[i];
		} else {
			m->failures = tt_realloc_array(m->failures, m->nfailures + 1,
						       sizeof(*m->failures));
			struct tt_load_failure *f = &m->failures[m->nfailures++];
			f->path = tt_strdup(j->data ? j->names[i] : j->files[i]);
			f->err = j->errs[i];
		}
	}
	qsort(m->ranks, m->nranks, sizeof(*m->ranks), rank_cmp);
	for (size_t i = 0; i < m->nranks; i++) {
		bool dup = (i > 0 && m->ranks[i]->rank == m->ranks[i - 1]->rank) ||
			   (i + 1 < m->nranks && m->ranks[i]->rank == m->ranks[i + 1]->rank);
		if (dup)
			tt_report_warn(&m->ranks[i]->report, TT_W_DUP_RANK, 0);
	}
	free(j->ranks);
	free(j->errs);
	free(j->rcs);
	*out = m;
	if (m->nranks == 0)
		return m->nfailures ? -(int)m->failures[0].err.code : -TT_E_NOTFOUND;
	return 0;
}

int tt_model_load(struct tt_model **out, char *const *files, size_t n,
		  const struct tt_load_opts *o)
{
	struct job j = {0};
	j.files = files;
	j.n = n;
	j.o = o;
	return load_all(out, &j);
}

int tt_model_load_mem(struct tt_model **out, const char *const *names, const void *const *data,
		      const size_t *lens, size_t n, const struct tt_load_opts *o)
{
	struct job j = {0};
	j.names = names;
	j.data = data;
	j.lens = lens;
	j.n = n;
	j.o = o;
	return load_all(out, &j);
}

void tt_model_free(struct tt_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nranks; i++)
		tt_rank_free(m->ranks[i]);
	free(m->ranks);
	for (size_t i = 0; i < m->nfailures; i++)
		free(m->failures[i].path);
	free(m->failures);
	free(m);
}
