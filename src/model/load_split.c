/* Loading one large plain file split across threads. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_int.h"
#include "load_int.h"
#include "model_int.h"
#include "tracetop/pool.h"
#include "tracetop/util.h"

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

struct part {
	const char *path;
	int fd; /* duplicated for the part's reader; -1: open path */
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
	p->rc = p->fd >= 0 ? tt_reader_open_range_fd(&rd, fcntl(p->fd, F_DUPFD_CLOEXEC, 0),
						     p->path, p->start, p->end, &p->err)
			   : tt_reader_open_range(&rd, p->path, p->start, p->end, &p->err);
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

static void part_item(size_t i, void *ctx)
{
	scan_part((struct part *)ctx + i);
}

int64_t load_boundary(const char *p, size_t n)
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
		int64_t at = load_boundary(buf, (size_t)n);
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

int load_split(struct tt_rank **out, const char *path, int sfd, uint64_t size, int nparts,
	       const struct tt_load_opts *o, struct tt_err *err)
{
	struct tt_reader *rd;
	int rc = sfd >= 0 ? tt_reader_open_fd(&rd, fcntl(sfd, F_DUPFD_CLOEXEC, 0), path, err)
			  : tt_reader_open(&rd, path, err);
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
	int fd = sfd >= 0 ? fcntl(sfd, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC);
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
		parts[j].fd = sfd;
		parts[j].end = size;
		parts[j].stop_at = j + 1 < np ? parts[j + 1].start : 0;
		parts[j].o = o;
		parts[j].meta.world_size = -1;
	}
	/* 3. parse the parts in parallel */
	tt_parallel_for((size_t)np, np, part_item, parts);
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
		rc = sfd >= 0 ? tt_reader_open_range_fd(&rd, fcntl(sfd, F_DUPFD_CLOEXEC, 0), path,
							after, size, err)
			      : tt_reader_open_range(&rd, path, after, size, err);
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
