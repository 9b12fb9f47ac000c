/* io room: a byte source for the JSON scanner.
 *
 * A reader yields the text of one trace file: plain files are read in chunks,
 * gzip (detected by magic bytes, never by the name) is inflated as it is read,
 * member after member.  Other compressions are recognised only to name them.
 * A reader may also read a byte range of a plain file (parallel split) or a
 * memory buffer (the built-in demo, tests). */
#ifndef TRACETOP_IO_H
#define TRACETOP_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/err.h"

enum tt_compress {
	TT_COMP_NONE = 0,
	TT_COMP_GZIP,
	TT_COMP_ZSTD,
	TT_COMP_BZIP2,
	TT_COMP_XZ,
	TT_COMP_ZIP,
};

const char *tt_compress_name(enum tt_compress c);
/* Kind of compression from the first bytes of a file (n may be small). */
enum tt_compress tt_compress_detect(const unsigned char *p, size_t n);

struct tt_reader;

/* Open a file.  Fails (with the path in *err) if it cannot be opened, is a
 * directory, is empty, or is compressed with something other than gzip. */
int tt_reader_open(struct tt_reader **out, const char *path, struct tt_err *err);
/* Read an already open descriptor (e.g. standard input); name is for messages.
 * The reader owns fd and closes it. */
int tt_reader_open_fd(struct tt_reader **out, int fd, const char *name, struct tt_err *err);
/* Read bytes [start, end) of a plain file. */
int tt_reader_open_range(struct tt_reader **out, const char *path, uint64_t start, uint64_t end,
			 struct tt_err *err);
/* The same on an open descriptor (the reader owns fd and closes it; reads
 * use pread, so duplicates of one descriptor serve several readers at
 * once); name is for messages. */
int tt_reader_open_range_fd(struct tt_reader **out, int fd, const char *name, uint64_t start,
			    uint64_t end, struct tt_err *err);
/* The descriptor a file reader reads (-1 for memory). */
int tt_reader_fd(const struct tt_reader *r);
/* Read a memory buffer (not copied; must outlive the reader).  gzip is
 * detected here too. */
int tt_reader_open_mem(struct tt_reader **out, const char *name, const void *data, size_t n,
		       struct tt_err *err);

/* Which library inflates gzip: ISA-L when the build has it (configure
 * finds libisal) and the source can be read again (a file, memory; zlib
 * takes a member over on any error, so that messages and offsets are
 * zlib's), zlib otherwise.  TT_INFLATE_ZLIB forces zlib for the readers
 * opened after the call (tests, benchmarks); not thread-safe against
 * readers being opened meanwhile. */
enum tt_inflater { TT_INFLATE_AUTO = 0, TT_INFLATE_ZLIB };
void tt_io_set_inflater(enum tt_inflater which);
/* "ISA-L 2.30" or "zlib 1.3": what inflates a gzip file now */
const char *tt_io_inflater_name(void);

/* Inflate gzip on a second thread, handing buffers to the reader (pipelined).
 * Call before the first read; no effect on plain input. */
void tt_reader_set_threaded(struct tt_reader *r, bool on);

/* Read up to cap bytes of text.  Returns the byte count, 0 at the end of the
 * text, or -code with *err filled (gzip CRC/length mismatch, corrupt data,
 * read error).  A gzip stream that stops early is not an error here: the
 * reader returns 0 and tt_reader_truncated() says so. */
ssize_t tt_reader_read(struct tt_reader *r, void *buf, size_t cap, struct tt_err *err);

enum tt_compress tt_reader_compression(const struct tt_reader *r);
const char *tt_reader_name(const struct tt_reader *r);
/* Size of the underlying file or buffer (compressed bytes), 0 if unknown. */
uint64_t tt_reader_size(const struct tt_reader *r);
/* Text bytes produced so far. */
uint64_t tt_reader_text_pos(const struct tt_reader *r);
/* Compressed bytes consumed so far (equals the text position for plain input). */
uint64_t tt_reader_raw_pos(const struct tt_reader *r);
/* True when a gzip stream ended before its trailer; *raw_off gets the
 * compressed offset where the data stopped. */
bool tt_reader_truncated(const struct tt_reader *r, uint64_t *raw_off);
/* True when non-gzip bytes followed the last gzip member (ignored). */
bool tt_reader_trailing_garbage(const struct tt_reader *r, uint64_t *raw_off);
void tt_reader_close(struct tt_reader *r);
/* The reader reads the stdout of child process pid (the command name):
 * at the end of its output the reader waits for it, and a non-zero exit
 * status is a read error ("aws failed (exit status 1) after N bytes"): the
 * text is then incomplete.  Closed early, the child is stopped. */
void tt_reader_set_child(struct tt_reader *r, pid_t pid, const char *name);

/* ---- object storage: s3://, gs://, az:// through the standard CLIs ---- */

/* Is path an object-storage URL this build knows? */
bool tt_remote_is(const char *path);
/* Open an object by running its CLI (aws, gsutil or gcloud, az) as a child
 * that writes the object to a pipe.  Fails with a clear message when the
 * CLI is not installed.  The reader reaps the child when closed; a child
 * that failed is reported by tt_reader_close_status(). */
int tt_reader_open_remote(struct tt_reader **out, const char *url, struct tt_err *err);
/* List the objects under a prefix URL (ending in '/'), sorted; returns the
 * count (the caller frees each string and the array) or -code. */
int tt_remote_list(const char *url, char ***out, struct tt_err *err);

/* Read a whole plain or gzip file into memory (for small files and tools).
 * *out is NUL-terminated; the caller frees it. */
int tt_read_file(const char *path, char **out, size_t *len, struct tt_err *err);

#endif
