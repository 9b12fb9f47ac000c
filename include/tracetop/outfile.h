/* io room: output files that never damage anything.
 *
 * An output is written to a temporary file made beside it with mkstemp()
 * (O_EXCL: a planted file or symlink is never written through), then renamed
 * over its name once every byte, flush and close succeeded; on any failure
 * the temporary file is removed and the name is left as it was.  A name that
 * exists must be a regular file (rename() over a FIFO or a device node
 * would replace it), and it may be refused when it is one of the command's
 * inputs.  Temporary files are registered, so that a signal that ends the
 * process (and SIGXFSZ, which is ignored so that a write over `ulimit -f`
 * fails with EFBIG instead of killing the process) leaves none behind. */
#ifndef TRACETOP_OUTFILE_H
#define TRACETOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/err.h"

struct tt_outfile {
	char *path; /* the final name */
	char *tmp;  /* the temporary file beside it */
	int fd;     /* open on tmp, -1 once closed */
	int slot;   /* in the registry of temporaries, -1 if none */
};

/* May path be replaced by an output?  0 when it does not exist or is a
 * regular file that is none of inputs[0..n) (same device and inode);
 * otherwise -TT_E_USAGE with a message naming path. */
int tt_output_check(const char *path, const char *const *inputs, size_t n, struct tt_err *err);

/* Check path (tt_output_check with no inputs) and create its temporary
 * file: o->fd is open for writing.  Returns 0 or -code. */
int tt_output_begin(struct tt_outfile *o, const char *path, struct tt_err *err);
/* Finish: with ok (and no earlier failure) fsync-free close and rename into
 * place, else remove the temporary file.  Closes o->fd unless the caller
 * took it over and closed it (set o->fd = -1 then).  Returns 0 or -code,
 * -TT_E_IO naming the path when a close or the rename fails. */
int tt_output_end(struct tt_outfile *o, bool ok, struct tt_err *err);

/* Install the handlers that remove registered temporary files when
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 or SIGALRM end the
 * process (the signal's default action then runs), and ignore SIGXFSZ.
 * For commands without a terminal UI; the explorer calls
 * tt_output_cleanup() from its own handlers. */
void tt_output_signals(void);
/* Remove every registered temporary file (async-signal-safe). */
void tt_output_cleanup(void);

#endif
