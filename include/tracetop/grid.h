/* render room: a text grid of cells, each a character and a style role.
 *
 * Panes draw into a grid; the TUI turns roles into curses attributes and the
 * headless mode prints the characters.  Roles name what a cell shows, never
 * a colour (themes map roles to colours). */
#ifndef TRACETOP_GRID_H
#define TRACETOP_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* role, monochrome attributes (b bold, r reverse, u underline, d dim, - none),
 * description */
#define TT_ROLES(_)                                                  \
	_(DEFAULT, "-", "normal text")                               \
	_(TITLE, "r", "the title bar")                               \
	_(TITLE_FOCUS, "b", "the current pane in the title bar")     \
	_(HEADER, "bu", "table headers")                             \
	_(CURSOR, "r", "the selected row")                           \
	_(STATUS, "r", "the status line")                            \
	_(DIM, "d", "secondary text")                                \
	_(MATCH, "b", "filter matches")                              \
	_(MARKED, "b", "marked rows, stragglers")                    \
	_(WARNING, "b", "warnings")                                  \
	_(ERROR, "br", "errors")                                     \
	_(BAR, "-", "bars")                                          \
	_(BAR_COMP, "-", "computation")                              \
	_(BAR_COMM, "-", "communication")                            \
	_(BAR_MEM, "-", "memory copies and sets")                    \
	_(BAR_IDLE, "d", "idle time")                                \
	_(BAR_OTHER, "-", "other work")                              \
	_(BAR_CPU, "-", "CPU operators")                             \
	_(BAR_RUNTIME, "-", "runtime calls")                         \
	_(BETTER, "-", "diff: less time")                            \
	_(WORSE, "b", "diff: more time")                             \
	_(RULER, "d", "the timeline ruler")                          \
	_(TL_CURSOR, "r", "the timeline cursor")                     \
	_(TL_MARK, "b", "the timeline mark")                         \
	_(TL_COLL, "u", "a collective's parts on every rank")        \
	_(HELP_KEY, "b", "keys in the help")                         \
	_(BORDER, "-", "frames")

enum tt_role {
#define _(id, mono, help) TT_ROLE_##id,
	TT_ROLES(_)
#undef _
	TT_ROLE_COUNT
};

const char *tt_role_name(enum tt_role r); /* "bar.comp" style names */
const char *tt_role_mono(enum tt_role r);
/* role by its theme name ("cursor", "bar.comp", "title.focus"), -1 if none */
int tt_role_lookup(const char *name);

struct tt_gcell {
	uint32_t cp;  /* Unicode code point; 0 = the right half of a wide character */
	uint8_t role;
};

struct tt_grid {
	int w, h;
	struct tt_gcell *c;
};

void tt_grid_init(struct tt_grid *g, int w, int h);
void tt_grid_free(struct tt_grid *g);
void tt_grid_clear(struct tt_grid *g);
static inline struct tt_gcell *tt_grid_at(struct tt_grid *g, int x, int y)
{
	return &g->c[(size_t)y * (size_t)g->w + (size_t)x];
}
/* Write UTF-8 text at (x, y), at most maxw columns (-1 = to the edge).
 * Returns the number of columns written. */
int tt_grid_put(struct tt_grid *g, int x, int y, enum tt_role role, const char *s, int maxw);
/* Text wrapped at spaces into w columns from (x, y), at most maxl rows (the
 * last ending in an ellipsis when the text goes on); with g NULL it only
 * counts.  Returns the rows used. */
int tt_grid_wrap(struct tt_grid *g, int x, int y, enum tt_role role, const char *t, int w, int maxl);
int tt_grid_printf(struct tt_grid *g, int x, int y, enum tt_role role, int maxw, const char *fmt,
		   ...) __attribute__((format(printf, 6, 7)));
/* Fill columns [x, x+n) of row y with code point cp in a role. */
void tt_grid_fill(struct tt_grid *g, int x, int y, int n, uint32_t cp, enum tt_role role);
/* Set the role of columns [x, x+n) of row y, keeping the characters. */
void tt_grid_paint(struct tt_grid *g, int x, int y, int n, enum tt_role role);
/* A horizontal bar of fraction f over width columns (partial blocks in UTF-8). */
void tt_grid_bar(struct tt_grid *g, int x, int y, int width, double f, enum tt_role role);
/* A stacked bar: segments of fractions f[i] (of the whole width), each with
 * its role and its ASCII glyph (used when the glyph set is ASCII or there are
 * more than four segments, and always different per segment so that bars
 * read in monochrome). */
void tt_grid_stack(struct tt_grid *g, int x, int y, int width, const double *f,
		   const enum tt_role *roles, const char *ascii, int k);
/* Texts tt_grid_put cut short: stopped at its limit with more than
 * spaces left and no ellipsis at the cut (a word cut, or a sentence cut at
 * a space).  From tt_grid_cuts_start on, on this thread: what was cut and
 * where (for the screen tests: a screen should have none). */
struct tt_grid_cut {
	int x, y;        /* the cell after the last one put */
	char text[120];  /* the text put (its start) */
};
void tt_grid_cuts_start(void);
size_t tt_grid_cuts(const struct tt_grid_cut **v);
/* Row y as UTF-8 text (trailing spaces kept up to w).  Returns bytes. */
size_t tt_grid_row_text(const struct tt_grid *g, int y, char *buf, size_t n);
/* All rows as text, one line each, trailing spaces removed. */
void tt_grid_dump(const struct tt_grid *g, FILE *out);

#endif
