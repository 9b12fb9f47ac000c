/* tracetop: parse the command line, then run one command. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tracetop/escape.h"
#include "tracetop/io.h"
#include "tracetop/outfile.h"

/* Every byte written to standard output reached it, or the status says
 * otherwise with one line (a full disk, /dev/full, a closed stdout): the
 * last flush and the close are checked, and earlier failures are
 * remembered by the stream's error flag. */
static int close_stdout(int rc)
{
	errno = 0;
	bool failed = ferror(stdout) != 0 || fflush(stdout) != 0;
	int e = errno;
	/* (a closed stdout that nothing was written to is no error) */
	if (fclose(stdout) != 0 && errno != EBADF && !failed) {
		failed = true;
		e = errno;
	}
	if (!failed)
		return rc;
	tt_msg("standard output: cannot write: %s",
		e ? strerror(e) : "write error");
	return rc ? rc : 1;
}

int main(int argc, char **argv)
{
	struct cli c;
	setlocale(LC_ALL, "");
	/* numbers are always read and written with a '.' */
	setlocale(LC_NUMERIC, "C");
	/* temporary output files go when a signal ends the process; a write
	 * beyond `ulimit -f` fails (EFBIG) instead of killing it (the explorer
	 * installs its own handlers, which do the same) */
	tt_output_signals();
	/* TRACETOP_GZIP=zlib: gzip inflated by zlib even where ISA-L is built in */
	const char *gz = getenv("TRACETOP_GZIP");
	if (gz && strcmp(gz, "zlib") == 0)
		tt_io_set_inflater(TT_INFLATE_ZLIB);
	int rc = cli_parse(&c, argc, argv);
	if (rc == 0) {
		if (strcmp(c.cmd, "report") == 0)
			rc = cmd_report(&c);
		else if (strcmp(c.cmd, "demo-trace") == 0)
			rc = cmd_demo_trace(&c);
		else if (strcmp(c.cmd, "summarize") == 0)
			rc = cmd_summarize(&c);
		else if (strcmp(c.cmd, "counters") == 0)
			rc = cmd_counters(&c);
		else
			rc = cmd_tui(&c);
	} else if (rc == 1) {
		rc = 0;
	}
	cli_free(&c);
	return close_stdout(rc);
}
