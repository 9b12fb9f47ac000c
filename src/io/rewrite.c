/* Writing traces: the plain/gzip output file (temporary, renamed into
 * place), and a trace copied through with elements inserted before the ']'
 * that closes traceEvents (tracetop/rewrite.h). */
#include "config.h"

#include "tracetop/rewrite.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "tracetop/outfile.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

/* ---- the output file ---- */

#define WBUF_SIZE (256u << 10)

struct tt_writer {
	char *path;  /* final name */
	struct tt_outfile out; /* the temporary file beside it (not for stdout) */
	bool tmp;    /* out is in use */
	FILE *f;     /* plain output */
	gzFile gz;   /* gzip output */
	char *buf;
	size_t n;
	bool failed;
};

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

int tt_writer_open(struct tt_writer **out, const char *path, struct tt_err *err)
{
	*out = NULL;
	struct tt_writer *w = tt_calloc(1, sizeof(*w));
	w->path = tt_strdup(path);
	w->buf = tt_malloc(WBUF_SIZE);
	if (strcmp(path, "-") == 0) {
		w->f = stdout;
		*out = w;
		return 0;
	}
	/* (tracetop/outfile.h: a temporary file beside path, renamed over it
	 * when complete; a FIFO or device node is never replaced) */
	int rc = tt_output_begin(&w->out, path, err);
	if (rc) {
		free(w->path);
		free(w->buf);
		free(w);
		return rc;
	}
	w->tmp = true;
	int fd = w->out.fd;
	w->out.fd = -1; /* (the gzFile or FILE owns it) */
	if (ends_with(path, ".gz")) {
		w->gz = gzdopen(fd, "wb6");
		if (w->gz)
			gzbuffer(w->gz, 256u << 10);
	} else {
		w->f = fdopen(fd, "wb");
	}
	if (!w->gz && !w->f) {
		close(fd);
		tt_output_end(&w->out, false, NULL);
		free(w->path);
		free(w->buf);
		free(w);
		return tt_err_set(err, TT_E_NOMEM, path, TT_NO_OFFSET, "cannot start the output");
	}
	*out = w;
	return 0;
}

static int flush(struct tt_writer *w, struct tt_err *err)
{
	if (w->failed)
		return -TT_E_IO;
	if (!w->n)
		return 0;
	bool ok;
	if (w->gz)
		ok = gzwrite(w->gz, w->buf, (unsigned)w->n) == (int)w->n;
	else
		ok = fwrite(w->buf, 1, w->n, w->f) == w->n;
	w->n = 0;
	if (!ok) {
		w->failed = true;
		int e = errno;
		return tt_err_set(err, TT_E_IO, w->path, TT_NO_OFFSET, "cannot write: %s",
				  e ? strerror(e) : "write error");
	}
	return 0;
}

int tt_writer_write(struct tt_writer *w, const void *p, size_t n, struct tt_err *err)
{
	const char *s = p;
	while (n) {
		if (w->n == WBUF_SIZE) {
			int rc = flush(w, err);
			if (rc)
				return rc;
		}
		size_t k = TT_MIN(n, WBUF_SIZE - w->n);
		memcpy(w->buf + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
	}
	return w->failed ? -TT_E_IO : 0;
}

int tt_writer_puts(struct tt_writer *w, const char *s, struct tt_err *err)
{
	return tt_writer_write(w, s, strlen(s), err);
}

int tt_writer_close(struct tt_writer *w, bool ok, struct tt_err *err)
{
	int rc = ok ? flush(w, err) : 0;
	if (w->gz) {
		int zr = gzclose(w->gz);
		if (ok && !rc && zr != Z_OK)
			rc = tt_err_set(err, TT_E_IO, w->path, TT_NO_OFFSET,
					"cannot finish the gzip output");
	} else if (w->f == stdout) {
		if (ok && !rc && fflush(stdout) != 0)
			rc = tt_err_set(err, TT_E_IO, w->path, TT_NO_OFFSET, "cannot write: %s",
					strerror(errno));
	} else if (w->f) {
		if (fclose(w->f) != 0 && ok && !rc)
			rc = tt_err_set(err, TT_E_IO, w->path, TT_NO_OFFSET, "cannot write: %s",
					strerror(errno));
	}
	if (w->tmp) {
		int rc2 = tt_output_end(&w->out, ok && !rc, err);
		if (!rc)
			rc = rc2;
	}
	free(w->path);
	free(w->buf);
	free(w);
	return rc;
}

/* ---- finding the end of traceEvents ---- */

#define RBUF_SIZE (1u << 20)

struct rw {
	int top;         /* '{' or '[' once the first value starts, else 0 */
	int depth;       /* open containers */
	bool in_str, esc;
	bool key_pos;    /* the next string at depth 1 of the object is a key */
	bool capturing;  /* reading that key */
	char key[12];
	size_t klen;
	bool key_bad;    /* longer than "traceEvents" or escaped */
	bool want;       /* the last key was traceEvents, its value not yet met */
	int ev_depth;    /* depth inside the events array, 0 when outside */
	bool saw_events;
	char last;       /* last significant byte inside the events array */
	bool inserted;
};

/* One byte outside a string.  Returns true when c is the ']' closing the
 * events array (the caller inserts before it). */
static bool structural(struct rw *s, char c)
{
	switch (c) {
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		return false;
	case '"':
		s->in_str = true;
		if (s->top == '{' && s->depth == 1 && s->key_pos) {
			s->capturing = true;
			s->klen = 0;
			s->key_bad = false;
		} else {
			s->want = false;
		}
		break;
	case '{':
	case '[':
		if (!s->top)
			s->top = c;
		s->depth++;
		if (c == '[' && !s->inserted && !s->ev_depth &&
		    ((s->top == '[' && s->depth == 1) ||
		     (s->top == '{' && s->depth == 2 && s->want))) {
			s->ev_depth = s->depth;
			s->saw_events = true;
		}
		if (s->top == '{' && s->depth == 1)
			s->key_pos = true;
		s->want = false;
		break;
	case '}':
	case ']':
		if (c == ']' && s->ev_depth && s->depth == s->ev_depth)
			return true;
		s->depth--;
		s->want = false;
		break;
	case ',':
		if (s->top == '{' && s->depth == 1)
			s->key_pos = true;
		s->want = false;
		break;
	case ':':
		break;
	default:
		s->want = false;
		break;
	}
	if (s->ev_depth)
		s->last = c;
	return false;
}

static void in_string(struct rw *s, char c)
{
	if (s->ev_depth)
		s->last = 'v';
	if (s->esc) {
		s->esc = false;
		return;
	}
	if (c == '\\') {
		s->esc = true;
		s->key_bad = true;
		return;
	}
	if (c == '"') {
		s->in_str = false;
		if (s->capturing) {
			s->capturing = false;
			s->key_pos = false;
			s->want = !s->key_bad && s->klen == 11 &&
				  memcmp(s->key, "traceEvents", 11) == 0;
		}
		return;
	}
	if (s->capturing) {
		if (s->klen < sizeof(s->key))
			s->key[s->klen++] = c;
		else
			s->key_bad = true;
	}
}

static int do_insert(struct rw *s, struct tt_writer *w, tt_rewrite_insert_fn insert, void *ctx,
		     struct tt_err *err)
{
	/* '[': empty array; ',': a trailing comma already separates */
	bool comma = s->last != '[' && s->last != ',';
	s->inserted = true;
	s->ev_depth = 0;
	return insert(ctx, w, comma, err);
}

int tt_rewrite_trace(struct tt_reader *rd, struct tt_writer *w, tt_rewrite_insert_fn insert,
		     void *ctx, struct tt_err *err)
{
	struct rw s = {0};
	char *buf = tt_malloc(RBUF_SIZE);
	const char *name = tt_reader_name(rd);
	uint64_t off = 0;
	int rc = 0;
	for (;;) {
		ssize_t n = tt_reader_read(rd, buf, RBUF_SIZE, err);
		if (n < 0) {
			rc = (int)n;
			break;
		}
		if (n == 0)
			break;
		size_t from = 0;
		if (!s.inserted) {
			for (size_t i = 0; i < (size_t)n; i++) {
				char c = buf[i];
				if (s.in_str) {
					in_string(&s, c);
					continue;
				}
				if (!structural(&s, c))
					continue;
				rc = tt_writer_write(w, buf + from, i - from, err);
				if (!rc)
					rc = do_insert(&s, w, insert, ctx, err);
				if (rc)
					break;
				from = i;
				/* the ']' itself is copied with the rest */
				s.depth--;
				break;
			}
		}
		if (rc)
			break;
		rc = tt_writer_write(w, buf + from, (size_t)n - from, err);
		if (rc)
			break;
		off += (uint64_t)n;
	}
	free(buf);
	if (rc)
		return rc;
	if (s.inserted)
		return 0;
	if (s.top == '[' && s.ev_depth == 1 && s.depth == 1 && !s.in_str) {
		/* bare array without its ']': the loader takes the elements
		 * read; add ours and close it */
		rc = do_insert(&s, w, insert, ctx, err);
		if (!rc)
			rc = tt_writer_puts(w, "]\n", err);
		return rc;
	}
	if (s.saw_events)
		return tt_err_set(err, TT_E_TRUNCATED, name, off,
				  "the text ends inside traceEvents: cannot add events");
	return tt_err_set(err, TT_E_NOEVENTS, name, TT_NO_OFFSET,
			  "no traceEvents array to add events to");
}

int tt_rewrite_file(const char *in_path, const char *out_path, tt_rewrite_insert_fn insert,
		    void *ctx, struct tt_err *err)
{
	struct tt_reader *rd;
	int rc = tt_reader_open(&rd, in_path, err);
	if (rc)
		return rc;
	struct tt_writer *w;
	rc = tt_writer_open(&w, out_path, err);
	if (rc) {
		tt_reader_close(rd);
		return rc;
	}
	rc = tt_rewrite_trace(rd, w, insert, ctx, err);
	int rc2 = tt_writer_close(w, rc == 0, rc ? NULL : err);
	if (!rc)
		rc = rc2;
	tt_reader_close(rd);
	return rc;
}
