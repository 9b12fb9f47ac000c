/* model room: the loader's parallel paths, shared by load.c, load_split.c
 * and load_gz.c */
#ifndef TRACETOP_LOAD_INT_H
#define TRACETOP_LOAD_INT_H

#include <stdint.h>

#include "model_int.h"

#define MAX_PARTS 64 /* threads on one file at most */

/* the offset of an event boundary ("}, {" then '"') in p[0, n), or -1 */
int64_t load_boundary(const char *p, size_t n);

/* Load the plain file path of size bytes in nparts parts on as many
 * threads, reading duplicates of fd (open on it; -1: open the path for
 * each part).  0 and *out; 1 when the file cannot be split (read it
 * whole); -code with *err filled on an error. */
int load_split(struct tt_rank **out, const char *path, int fd, uint64_t size, int nparts,
	       const struct tt_load_opts *o, struct tt_err *err);

/* Load the gzip file open in rd: inflated on a thread of its own, parsed
 * in blocks on nthreads.  0 and *out (*text_bytes: its inflated size); 1 to
 * read the file the ordinary way, never an error.  rd is read, not closed. */
int load_gz_split(struct tt_rank **out, struct tt_reader *rd, const char *path, int nthreads,
		  const struct tt_load_opts *o, uint64_t *text_bytes);

#endif
