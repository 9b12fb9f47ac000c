/* io room: writing traces.  Copy a trace through, adding events to
 * traceEvents.
 *
 * tt_rewrite_trace() streams the text of a trace from a reader to a writer
 * byte for byte, and at the ']' that closes traceEvents (object form) or the
 * bare array (legacy form) calls back so that new elements can be written
 * just before it.  The text is never held whole: only one read buffer.  The
 * JSON is not validated again (the loader already accepted the file); the
 * scanner only tracks strings, escapes and nesting to find that ']'.
 * zlib is used here and in the reader only.
 *
 * tt_writer is the output file: plain, or gzip when the name ends in ".gz"
 * (zlib), written to a temporary file next to it and renamed over the name on
 * tt_writer_close(), so that a failure never leaves a half-written file and
 * the output may replace the input.  "-" writes plain text to standard
 * output. */
#ifndef TRACETOP_REWRITE_H
#define TRACETOP_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/err.h"
#include "tracetop/io.h"

struct tt_writer;

/* Open path for writing.  Returns 0 or -code (the directory cannot be
 * written, ...) with *err naming the path. */
int tt_writer_open(struct tt_writer **out, const char *path, struct tt_err *err);
/* Buffered write.  Returns 0 or -TT_E_IO. */
int tt_writer_write(struct tt_writer *w, const void *p, size_t n, struct tt_err *err);
int tt_writer_puts(struct tt_writer *w, const char *s, struct tt_err *err);
/* Flush, close and rename into place.  With ok false (or after an error) the
 * temporary file is removed instead and the name is left untouched.  Frees
 * w; returns 0 or -code. */
int tt_writer_close(struct tt_writer *w, bool ok, struct tt_err *err);

/* Called once, at the insertion point.  comma: the array already holds an
 * element that is not followed by a comma, so the first new element must be
 * preceded by ','.  Each further element needs its own ','.  Returns 0 or
 * -code (the rewrite stops with that code). */
typedef int (*tt_rewrite_insert_fn)(void *ctx, struct tt_writer *w, bool comma,
				    struct tt_err *err);

/* tt_rewrite_trace from the file in_path (plain or gzip) into out_path
 * (gzip when it ends in ".gz"; "-" for standard output), written whole or
 * not at all.  Returns 0 or -code with *err filled. */
int tt_rewrite_file(const char *in_path, const char *out_path, tt_rewrite_insert_fn insert,
		    void *ctx, struct tt_err *err);

#endif
