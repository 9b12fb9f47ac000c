/* The help pane (?): the long help of the pane it was opened from, then the
 * keys bound in that pane's keymap section and everywhere, walked from the
 * keymap itself so it shows what is really bound. */
#include "config.h"

#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/utf8.h"
#include "tracetop/util.h"

struct help_state {
	const char *section;
	const char *pane_help;
	const char *title;
	const char *more; /* what the pane is as shown (side by side), or NULL */
	int scroll;
};

/* the keys of one section, grouped by action: "j <Down>   move down one row" */
struct help_keys {
	enum tt_action act[TT_ACT_COUNT];
	char keys[TT_ACT_COUNT][64];
	int n;
};

static void help_collect(void *vctx, const char *key, enum tt_action act)
{
	struct help_keys *h = vctx;
	int i = 0;
	while (i < h->n && h->act[i] != act)
		i++;
	if (i == h->n) {
		if (h->n == TT_ACT_COUNT)
			return;
		h->act[h->n] = act;
		h->keys[h->n++][0] = '\0';
	}
	size_t k = strlen(h->keys[i]);
	snprintf(h->keys[i] + k, sizeof(h->keys[i]) - k, "%s%s", k ? " " : "", key);
}

struct help_line_ctx {
	struct tt_grid *g;
	int y, y0, h, skip;
	int w; /* the width lines are wrapped to */
};

static void help_line(struct help_line_ctx *c, enum tt_role role, const char *key,
		      const char *text)
{
	if (c->skip > 0) {
		c->skip--;
		return;
	}
	if (c->y >= c->y0 + c->h)
		return;
	if (!c->g) { /* counting */
		c->y++;
		return;
	}
	int kw = 0;
	if (key) {
		kw = tt_grid_put(c->g, 2, c->y, TT_ROLE_HELP_KEY, key, c->g->w - 4);
		kw = TT_MAX(kw + 1, 22);
	}
	tt_grid_put(c->g, 2 + kw, c->y, role, text, -1);
	c->y++;
}

/* text wrapped at words into the help's width, after a key column (key
 * NULL: none; its lines then start at the left margin) */
static void help_text(struct help_line_ctx *c, enum tt_role role, const char *key,
		      const char *text, int w)
{
	int kw = key ? TT_MAX((int)tt_utf8_width(key) + 1, 22) : 0;
	int room = TT_MAX(10, w - 4 - kw);
	bool first = true;
	do {
		const char *next;
		size_t len = tt_wrap_line(text, (size_t)room, NULL, &next);
		char line[1024];
		snprintf(line, sizeof(line), "%*s%.*s", first || !key ? 0 : kw, "",
			 (int)TT_MIN(len, sizeof(line) - 1 - (size_t)kw), text);
		help_line(c, role, first ? key : NULL, line);
		first = false;
		text = next;
	} while (*text);
}

static void help_section(struct help_line_ctx *c, const struct tt_keymap *k, const char *section,
			 const char *title)
{
	struct help_keys *h = tt_calloc(1, sizeof(*h));
	tt_keymap_foreach(k, section, help_collect, h);
	if (h->n) {
		help_line(c, TT_ROLE_HEADER, NULL, title);
		for (int i = 0; i < h->n; i++)
			help_text(c, TT_ROLE_DEFAULT, h->keys[i], tt_action_help(h->act[i]),
				  c->g ? c->g->w : c->w);
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	free(h);
}

static void help_lines(struct tt_pane *p, struct help_line_ctx *c, int w)
{
	struct help_state *s = p->state;
	c->w = w;
	if (s->pane_help) {
		/* the pane's help text, wrapped at words */
		help_text(c, TT_ROLE_DEFAULT, NULL, s->pane_help, w);
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	if (s->more) {
		help_text(c, TT_ROLE_DEFAULT, NULL, s->more, w);
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	if (s->section && strcmp(s->section, "generic") != 0) {
		char title[120];
		snprintf(title, sizeof(title), "Keys of %s", s->title);
		help_section(c, p->app->keys, s->section, title);
	}
	help_section(c, p->app->keys, "generic", "Keys everywhere");
}

static void help_draw(struct tt_pane *p, struct tt_grid *g, int y, int h)
{
	struct help_state *s = p->state;
	/* never scrolled past the end */
	struct help_line_ctx n = {NULL, 0, 0, 1 << 20, 0, g->w};
	help_lines(p, &n, g->w);
	s->scroll = TT_MAX(0, TT_MIN(s->scroll, n.y - h));
	struct help_line_ctx c = {g, y, y, h, s->scroll, g->w};
	help_lines(p, &c, g->w);
}

static int help_key(struct tt_pane *p, enum tt_action act)
{
	struct help_state *s = p->state;
	if (act == TT_ACT_MOVE_DOWN || act == TT_ACT_PAGE_DOWN)
		s->scroll += act == TT_ACT_MOVE_DOWN ? 1 : 10;
	else if (act == TT_ACT_MOVE_UP || act == TT_ACT_PAGE_UP)
		s->scroll = TT_MAX(0, s->scroll - (act == TT_ACT_MOVE_UP ? 1 : 10));
	else if (act == TT_ACT_HELP || act == TT_ACT_QUIT)
		return TT_R_BACK | TT_R_REDRAW;
	else
		return TT_R_UNHANDLED;
	return TT_R_REDRAW;
}

const struct tt_pane_ops tt_help_ops = {
	.name = "help",
	.title = "Help",
	.draw = help_draw,
	.key = help_key,
	.close = pane_free_state,
};

struct tt_pane *tt_help_new(struct tt_app *a, const struct tt_pane *of)
{
	struct tt_pane *p = tt_pane_new(a, &tt_help_ops);
	struct help_state *s = tt_calloc(1, sizeof(*s));
	s->section = of->ops->name;
	s->pane_help = of->ops->help;
	s->title = of->ops->title;
	p->state = s;
	/* the pane as it is: side by side, its tag's sides */
	p->sides = (uint8_t)tt_ui_pane_sides(of);
	if (a->view == TT_VIEW_BOTH && of->ops->diff && a->m2)
		s->more = "Side by side: the pane of each side of the diff, joined row by row -- a "
			  "rank's row beside the row of the rank the diff pairs with it (--map, "
			  "else the same number, else in order; \"3 | 1\" when the numbers "
			  "differ), GPU streams matched by what they carry when their numbers "
			  "differ (\"20 | 14 (comm)\") -- and each compared column as Control, "
			  "Test and Δ = Test - Control in one unit; the rows by the size of the "
			  "first Δ.  Enter opens the row on both sides.  d shows the Control's "
			  "pane, then the Test's, then both again.";
	snprintf(p->subtitle, sizeof(p->subtitle), "help: %s (j/k scroll, Esc or ? go back)",
		 of->ops->title);
	return p;
}
