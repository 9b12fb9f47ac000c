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

static void help_section(struct help_line_ctx *c, const struct tt_keymap *k, const char *section,
			 const char *title)
{
	struct help_keys *h = tt_calloc(1, sizeof(*h));
	tt_keymap_foreach(k, section, help_collect, h);
	if (h->n) {
		help_line(c, TT_ROLE_HEADER, NULL, title);
		for (int i = 0; i < h->n; i++)
			help_line(c, TT_ROLE_DEFAULT, h->keys[i], tt_action_help(h->act[i]));
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	free(h);
}

static void help_lines(struct tt_pane *p, struct help_line_ctx *c, int w)
{
	struct help_state *s = p->state;
	if (s->pane_help) {
		/* the pane's help text, wrapped */
		const char *t = s->pane_help;
		w -= 4;
		while (*t && w > 0) {
			/* the longest prefix that fits, cut at a space when there is one */
			size_t fit = tt_utf8_cut(t, (size_t)w, NULL), cut = fit;
			if (t[fit])
				while (cut > 0 && t[cut] != ' ')
					cut--;
			if (!cut)
				cut = fit ? fit : tt_utf8_seqlen(t);
			char line[512];
			snprintf(line, sizeof(line), "%.*s", (int)TT_MIN(cut, sizeof(line) - 1), t);
			help_line(c, TT_ROLE_DEFAULT, NULL, line);
			t += cut;
			while (*t == ' ')
				t++;
		}
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
	struct help_line_ctx n = {NULL, 0, 0, 1 << 20, 0};
	help_lines(p, &n, g->w);
	s->scroll = TT_MAX(0, TT_MIN(s->scroll, n.y - h));
	struct help_line_ctx c = {g, y, y, h, s->scroll};
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
	snprintf(p->subtitle, sizeof(p->subtitle), "help: %s (j/k scroll, Esc or ? go back)",
		 of->ops->title);
	return p;
}
