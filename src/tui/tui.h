/* tui room private: running the explorer on a terminal or headless */
#ifndef TRACETOP_TUI_H
#define TRACETOP_TUI_H

#include <stdio.h>

#include "tracetop/theme.h"
#include "tracetop/ui.h"

/* Run on the terminal until the user quits.  Returns 0, or 2 when the
 * terminal cannot be used (a message was printed). */
int tt_term_run(struct tt_app *a, const struct tt_theme *theme);

/* Feed keys (a key sequence like "<Tab>jj<Enter>") to the app without a
 * terminal, then write the screen (w x h) to out.  The pseudo key <Dump>
 * writes the screen at that point too, followed by a line of dashes; <Wait>
 * waits until the reports built in the background are ready.
 * With time_keys, the time of each key plus redraw is printed to stderr.
 * Returns 0. */
int tt_headless_run(struct tt_app *a, int w, int h, const char *keys, FILE *out, bool time_keys);

#endif
