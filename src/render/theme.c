/* Themes: parsing and the built-in default. */
#include "config.h"

#include "tracetop/testing.h"
#include "tracetop/theme.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

static const char *const colors[] = {"black", "red",     "green", "yellow",
				     "blue",  "magenta", "cyan",  "white"};

int tt_color_lookup(const char *name)
{
	if (strcmp(name, "default") == 0)
		return TT_COLOR_DEFAULT;
	bool bright = strncmp(name, "bright-", 7) == 0;
	const char *n = bright ? name + 7 : name;
	for (int i = 0; i < 8; i++)
		if (strcmp(n, colors[i]) == 0)
			return i + (bright ? 8 : 0);
	char *end;
	long v = strtol(name, &end, 10);
	if (end != name && !*end && v >= 0 && v <= 255)
		return (int)v;
	return -2;
}

static int attr_lookup(const char *s)
{
	if (strcmp(s, "bold") == 0)
		return TT_ATTR_BOLD;
	if (strcmp(s, "dim") == 0)
		return TT_ATTR_DIM;
	if (strcmp(s, "reverse") == 0)
		return TT_ATTR_REVERSE;
	if (strcmp(s, "underline") == 0)
		return TT_ATTR_UNDERLINE;
	if (strcmp(s, "italic") == 0)
		return TT_ATTR_ITALIC;
	return -1;
}

void tt_theme_mono(struct tt_theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "mono");
	t->mono = true;
	for (int r = 0; r < TT_ROLE_COUNT; r++) {
		struct tt_style *s = &t->style[r];
		s->fg = s->bg = TT_COLOR_DEFAULT;
		s->set = true;
		for (const char *m = tt_role_mono(r); *m; m++)
			s->attrs |= *m == 'b' ? TT_ATTR_BOLD : *m == 'r' ? TT_ATTR_REVERSE :
				    *m == 'u' ? TT_ATTR_UNDERLINE : *m == 'd' ? TT_ATTR_DIM : 0;
	}
}

/* the same text as themes/default.theme (tests/unit/test_ui.c checks it) */
static const char default_theme[] = "[theme]\n"
				    "name = default\n"
				    "[styles]\n"
				    "default = default default\n"
				    "title = white blue\n"
				    "title.focus = black cyan bold\n"
				    "header = default default bold underline\n"
				    "cursor = black cyan\n"
				    "status = black white\n"
				    "dim = default default dim\n"
				    "match = yellow default bold\n"
				    "marked = bright-red default bold\n"
				    "warning = yellow default bold\n"
				    "error = white red bold\n"
				    "bar = cyan default\n"
				    "bar.comp = green default\n"
				    "bar.comm = yellow default\n"
				    "bar.mem = magenta default\n"
				    "bar.idle = default default dim\n"
				    "bar.other = blue default\n"
				    "bar.cpu = cyan default\n"
				    "bar.runtime = red default\n"
				    "better = green default\n"
				    "worse = bright-red default bold\n"
				    "ruler = default default dim\n"
				    "tl.cursor = black white\n"
				    "tl.mark = magenta default bold\n"
				    "tl.coll = black yellow\n"
				    "help.key = cyan default bold\n"
				    "border = blue default\n";

void tt_theme_default(struct tt_theme *t)
{
	memset(t, 0, sizeof(*t));
	tt_theme_parse(t, default_theme, "(built-in)", NULL, NULL);
}

int tt_theme_parse(struct tt_theme *t, const char *text, const char *file,
		   void (*warn)(void *ctx, const char *msg), void *ctx)
{
	char section[32] = "";
	int bad = 0, lineno = 0;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[256];
		snprintf(buf, sizeof(buf), "%.*s", (int)TT_MIN(len, sizeof(buf) - 1), p);
		p += len + (eol ? 1 : 0);
		lineno++;
		char *c = strpbrk(buf, ";#");
		if (c)
			*c = '\0';
		char *line = tt_trim(buf);
		if (!*line)
			continue;
		char msg[400] = "";
		if (*line == '[') {
			char *e = strchr(line, ']');
			if (!e)
				snprintf(msg, sizeof(msg), "%s:%d: expected ']'", file, lineno);
			else {
				*e = '\0';
				snprintf(section, sizeof(section), "%s", tt_trim(line + 1));
			}
		} else {
			char *eq = strchr(line, '=');
			if (!eq) {
				snprintf(msg, sizeof(msg), "%s:%d: expected 'key = value'", file, lineno);
			} else {
				*eq = '\0';
				char *key = tt_trim(line), *val = tt_trim(eq + 1);
				if (strcmp(section, "theme") == 0) {
					if (strcmp(key, "name") == 0)
						snprintf(t->name, sizeof(t->name), "%s", val);
					else if (strcmp(key, "mono") == 0 &&
						 (strcmp(val, "yes") == 0 || strcmp(val, "true") == 0))
						tt_theme_mono(t);
				} else if (strcmp(section, "styles") == 0) {
					int role = tt_role_lookup(key);
					char w[6][32];
					int nw = sscanf(val, "%31s %31s %31s %31s %31s %31s", w[0], w[1],
							w[2], w[3], w[4], w[5]);
					struct tt_style st = {TT_COLOR_DEFAULT, TT_COLOR_DEFAULT, 0, true};
					if (role < 0) {
						snprintf(msg, sizeof(msg), "%s:%d: unknown role '%s'", file,
							 lineno, key);
					} else if (nw < 1) {
						snprintf(msg, sizeof(msg), "%s:%d: expected 'FG [BG] [ATTRS]'",
							 file, lineno);
					} else {
						int fg = tt_color_lookup(w[0]);
						int bg = nw > 1 ? tt_color_lookup(w[1]) : TT_COLOR_DEFAULT;
						if (fg == -2 || bg == -2) {
							snprintf(msg, sizeof(msg), "%s:%d: unknown color '%s'",
								 file, lineno, fg == -2 ? w[0] : w[1]);
						} else {
							st.fg = (int16_t)fg;
							st.bg = (int16_t)bg;
							for (int i = 2; i < nw && !msg[0]; i++) {
								int a = attr_lookup(w[i]);
								if (a < 0)
									snprintf(msg, sizeof(msg),
										 "%s:%d: unknown attribute '%s'",
										 file, lineno, w[i]);
								else
									st.attrs |= (uint8_t)a;
							}
							if (!msg[0] && !t->mono)
								t->style[role] = st;
						}
					}
				} else {
					snprintf(msg, sizeof(msg), "%s:%d: '%s' outside [theme] or [styles]",
						 file, lineno, key);
				}
			}
		}
		if (msg[0]) {
			bad++;
			if (warn)
				warn(ctx, msg);
		}
	}
	return bad;
}

struct tt_style tt_theme_style(const struct tt_theme *t, enum tt_role r)
{
	if ((unsigned)r < TT_ROLE_COUNT && t->style[r].set)
		return t->style[r];
	/* base role: "bar.comp" -> "bar" */
	char base[32];
	snprintf(base, sizeof(base), "%s", tt_role_name(r));
	char *dot = strchr(base, '.');
	if (dot) {
		*dot = '\0';
		int b = tt_role_lookup(base);
		if (b >= 0 && t->style[b].set)
			return t->style[b];
	}
	if (t->style[TT_ROLE_DEFAULT].set)
		return t->style[TT_ROLE_DEFAULT];
	struct tt_style d = {TT_COLOR_DEFAULT, TT_COLOR_DEFAULT, 0, true};
	return d;
}

bool tt_theme_load(struct tt_theme *t, const char *name, const char *const *dirs,
		   void (*warn)(void *ctx, const char *msg), void *ctx)
{
	if (strcmp(name, "mono") == 0) {
		tt_theme_mono(t);
		return true;
	}
	static char cand[8][1024];
	int nc = 0;
	if (strchr(name, '/') || strstr(name, ".theme")) {
		snprintf(cand[nc++], sizeof(cand[0]), "%s", name);
	} else {
		const char *env = getenv("TRACETOP_THEMES"), *home = getenv("HOME");
		if (env)
			snprintf(cand[nc++], sizeof(cand[0]), "%s/%s.theme", env, name);
		if (home)
			snprintf(cand[nc++], sizeof(cand[0]), "%s/.config/tracetop/themes/%s.theme",
				 home, name);
		for (const char *const *d = dirs; d && *d && nc < 8; d++)
			snprintf(cand[nc++], sizeof(cand[0]), "%s/%s.theme", *d, name);
	}
	for (int i = 0; i < nc; i++) {
		FILE *f = fopen(cand[i], "r");
		if (!f)
			continue;
		char text[16384];
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		struct tt_theme nt;
		tt_theme_default(&nt);
		tt_theme_parse(&nt, text, cand[i], warn, ctx);
		*t = nt;
		return true;
	}
	return false;
}
