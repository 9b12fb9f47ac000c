/* The load report as a pane: every file's load warnings and notes (counts
 * and first offsets), files that could not be read, and the errors of the
 * keymap and theme files -- what went to standard error before the screen
 * started, where nobody could read it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"
#include "pane.h"

static int load_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	struct tt_table *t = tt_report_load_table(a->m);
	/* the keymap and theme files' errors (file:line: message) */
	int file = tt_table_col(t, "file"), sev = tt_table_col(t, "severity"),
	    what = tt_table_col(t, "what"), count = tt_table_col(t, "count");
	for (size_t i = 0; i < a->nnotes; i++) {
		size_t r = tt_table_add_row(t);
		char path[512];
		const char *msg = a->notes[i];
		const char *colon = strstr(msg, ": ");
		snprintf(path, sizeof(path), "%.*s", colon ? (int)(colon - msg) : 0, msg);
		tt_table_set_str(t, r, file, path);
		tt_table_set_str(t, r, sev, "error");
		tt_table_set_int(t, r, count, 1);
		tt_table_set_str(t, r, what, colon ? colon + 2 : msg);
	}
	size_t n = tt_ui_warnings(a);
	if (!t->nrows) {
		tt_table_free(t);
		snprintf(p->msg, sizeof(p->msg), "no warnings: every file loaded cleanly");
		return -1;
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, n ? TT_ROLE_WARNING : TT_ROLE_DIM,
		     "%zu warning%s or error%s; notes are informational. first byte: the offset in "
		     "the (decompressed) file where the first one was met",
		     n, n == 1 ? "" : "s", n == 1 ? "" : "s");
	return 0;
}

const struct tt_pane_ops tt_load_ops = {
	.name = "load",
	.title = "Load",
	.help = "What loading reported (tracetop report load): for each file its warnings and "
		"notes with their count and the byte offset of the first, the files that could "
		"not be read, and the errors found in the keymap (tracetoprc) and theme files.  "
		"The status line counts the warnings and errors; W opens this pane.",
	.open = load_open,
};
