/* Actions and key bindings. */
#include "config.h"

#include "tracetop/keymap.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/testing.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"

static const char *const action_names[] = {
#define _(id, name, help) name,
	TT_ACTIONS(_)
#undef _
};
static const char *const action_help[] = {
#define _(id, name, help) help,
	TT_ACTIONS(_)
#undef _
};

const char *tt_action_name(enum tt_action a)
{
	return (unsigned)a < TT_ACT_COUNT ? action_names[a] : "none";
}

const char *tt_action_help(enum tt_action a)
{
	return (unsigned)a < TT_ACT_COUNT ? action_help[a] : "";
}

enum tt_action tt_action_lookup(const char *name, bool *ok)
{
	for (int a = 0; a < TT_ACT_COUNT; a++)
		if (strcmp(action_names[a], name) == 0) {
			*ok = true;
			return (enum tt_action)a;
		}
	*ok = false;
	return TT_ACT_NONE;
}

const char tt_keymap_defaults[] =
	"# tracetop's built-in key bindings (same syntax as ~/.config/tracetop/tracetoprc)\n"
	"bind generic j          move-down\n"
	"bind generic <Down>     move-down\n"
	"bind generic k          move-up\n"
	"bind generic <Up>       move-up\n"
	"bind generic h          move-left\n"
	"bind generic <Left>     move-left\n"
	"bind generic l          move-right\n"
	"bind generic <Right>    move-right\n"
	"bind generic <PageDown> page-down\n"
	"bind generic <C-f>      page-down\n"
	"bind generic <Space>    page-down\n"
	"bind generic <PageUp>   page-up\n"
	"bind generic <C-b>      page-up\n"
	"bind generic g          move-first\n"
	"bind generic <Home>     move-first\n"
	"bind generic G          move-last\n"
	"bind generic <End>      move-last\n"
	"bind generic <Enter>    enter\n"
	"bind generic <Escape>   back\n"
	"bind generic <Backspace> back\n"
	"bind generic <Tab>      next-pane\n"
	"bind generic <S-Tab>    prev-pane\n"
	"bind generic 1          pane-overview\n"
	"bind generic 2          pane-temporal\n"
	"bind generic 3          pane-idle\n"
	"bind generic 4          pane-kernels\n"
	"bind generic 5          pane-overlap\n"
	"bind generic 6          pane-launch\n"
	"bind generic 7          pane-counters\n"
	"bind generic 8          pane-patterns\n"
	"bind generic 9          pane-timeline\n"
	"bind generic 0          pane-diff\n"
	"bind generic /          filter\n"
	"bind generic n          next-match\n"
	"bind generic N          prev-match\n"
	"bind generic s          sort-next\n"
	"bind generic S          sort-reverse\n"
	"bind generic r          pick-ranks\n"
	"bind generic [          prev-rank\n"
	"bind generic ]          next-rank\n"
	"bind generic a          all-ranks\n"
	"bind generic +          zoom-in\n"
	"bind generic -          zoom-out\n"
	"bind generic =          zoom-fit\n"
	"bind generic w          write-csv\n"
	"bind generic ?          help\n"
	"bind generic <C-l>      redraw\n"
	"bind generic q          quit\n"
	"bind generic <C-c>      quit\n"
	"bind generic m          next-metric\n"
	"bind generic v          views\n"
	"bind generic d          diff-view\n"
	"bind generic W          warnings\n"
	"bind generic c          cycles\n"
	"bind generic C          cycles\n"
	"bind generic {          prev-cycle\n"
	"bind generic }          next-cycle\n"
	"bind generic p          cycle-diff\n"
	"bind generic o          runs\n"
	"bind timeline <Tab>     next-event\n"
	"bind timeline <S-Tab>   prev-event\n"
	"bind timeline c         follow-link\n"
	"bind timeline m         set-mark\n"
	"bind timeline M         mark-event\n"
	"bind timeline A         range\n"
	"bind timeline /         search\n"
	"bind timeline :         jump\n"
	"bind timeline t         jump\n"
	"bind timeline H         pan-left\n"
	"bind timeline L         pan-right\n"
	"bind timeline <C-u>     pan-left\n"
	"bind timeline <C-d>     pan-right\n"
	"bind timeline R         row-mode\n"
	"bind timeline o         fold\n"
	"bind timeline z         group-rows\n"
	"bind timeline w         last-arrival\n"
	"bind timeline J         rank-down\n"
	"bind timeline K         rank-up\n"
	"bind timeline D         split\n"
	"bind critical-path J    job-path\n"
	"bind critical-path x    what-if\n"
	"bind critical-path-events x what-if\n";

struct binding {
	char section[24];
	char key[24];
	enum tt_action action;
};

struct tt_keymap {
	struct binding *b;
	size_t n, cap;
	bool no_mouse;
};

bool tt_keymap_mouse(const struct tt_keymap *k)
{
	return !k->no_mouse;
}

void tt_keymap_set_mouse(struct tt_keymap *k, bool on)
{
	k->no_mouse = !on;
}

static const char *const mouse_names[] = {
	[TT_MOUSE_CLICK] = "Click",
	[TT_MOUSE_DCLICK] = "DClick",
	[TT_MOUSE_WHEEL_UP] = "WheelUp",
	[TT_MOUSE_WHEEL_DOWN] = "WheelDown",
};

bool tt_mouse_parse(const char *key, struct tt_mouse *m)
{
	if (key[0] != '<')
		return false;
	const char *p = key + 1;
	struct tt_mouse r = {0};
	for (;;) {
		if (strncmp(p, "C-", 2) == 0 && !r.ctrl) {
			r.ctrl = true;
			p += 2;
		} else if (strncmp(p, "S-", 2) == 0 && !r.shift) {
			r.shift = true;
			p += 2;
		} else {
			break;
		}
	}
	size_t i;
	for (i = 0; i < TT_ARRAY_SIZE(mouse_names); i++) {
		size_t len = strlen(mouse_names[i]);
		if (strncmp(p, mouse_names[i], len) == 0 && p[len] == ':') {
			p += len + 1;
			break;
		}
	}
	if (i == TT_ARRAY_SIZE(mouse_names))
		return false;
	r.kind = (enum tt_mouse_kind)i;
	char *end;
	long x = strtol(p, &end, 10);
	if (end == p || *end != ',' || x < 0 || x > 100000)
		return false;
	p = end + 1;
	long y = strtol(p, &end, 10);
	if (end == p || strcmp(end, ">") != 0 || y < 0 || y > 100000)
		return false;
	r.x = (int)x;
	r.y = (int)y;
	*m = r;
	return true;
}

int tt_mouse_name(char *buf, size_t n, const struct tt_mouse *m)
{
	return snprintf(buf, n, "<%s%s%s:%d,%d>", m->ctrl ? "C-" : "", m->shift ? "S-" : "",
			mouse_names[m->kind], m->x, m->y);
}

struct tt_keymap *tt_keymap_new(void)
{
	struct tt_keymap *k = tt_calloc(1, sizeof(*k));
	tt_keymap_parse(k, tt_keymap_defaults, "(built-in)", NULL, NULL);
	return k;
}

void tt_keymap_free(struct tt_keymap *k)
{
	if (!k)
		return;
	free(k->b);
	free(k);
}

static const struct {
	const char *from, *to;
} aliases[] = {
	{"<CR>", "<Enter>"},	  {"<Return>", "<Enter>"},    {"<Esc>", "<Escape>"},
	{"<BS>", "<Backspace>"},  {"<PgUp>", "<PageUp>"},     {"<PgDn>", "<PageDown>"},
	{"<PgDown>", "<PageDown>"}, {"<Del>", "<Delete>"},    {"<lt>", "<"},
	{"<C-i>", "<Tab>"},	  {"<C-m>", "<Enter>"},
};

const char *tt_key_next(const char *s, char *buf, size_t n)
{
	if (!s || !*s || n < 2)
		return NULL;
	size_t len = 0;
	if (*s == '<') {
		const char *e = strchr(s + 1, '>');
		/* "<Name>": letters, digits and '-' inside (mouse events: also
		 * ':' and ',', as in <Click:3,4>) */
		bool ok = e && e > s + 1;
		for (const char *p = s + 1; ok && p < e; p++)
			if (!isalnum((unsigned char)*p) && *p != '-' && *p != ':' && *p != ',')
				ok = false;
		if (ok && e[-1] == '-' && e[1] == '>')
			e++; /* <C->> */
		len = ok ? (size_t)(e - s + 1) : 1;
	} else {
		/* one UTF-8 character */
		len = tt_utf8_seqlen(s);
	}
	if (len >= n)
		len = n - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strcmp(buf, " ") == 0)
		snprintf(buf, n, "<Space>");
	for (size_t i = 0; i < TT_ARRAY_SIZE(aliases); i++)
		if (strcasecmp(buf, aliases[i].from) == 0)
			snprintf(buf, n, "%s", aliases[i].to);
	return s + len;
}

static void bind(struct tt_keymap *k, const char *section, const char *key, enum tt_action a)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->b[i].section, section) == 0 && strcmp(k->b[i].key, key) == 0) {
			k->b[i].action = a;
			return;
		}
	TT_GROW(k->b, k->cap, k->n + 1);
	struct binding *b = &k->b[k->n++];
	snprintf(b->section, sizeof(b->section), "%s", section);
	snprintf(b->key, sizeof(b->key), "%s", key);
	b->action = a;
}

int tt_keymap_parse(struct tt_keymap *k, const char *text, const char *file,
		    void (*warn)(void *ctx, const char *msg), void *ctx)
{
	int bad = 0, lineno = 0;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)TT_MIN(len, sizeof(line) - 1), p);
		p += len + (eol ? 1 : 0);
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char w[4][64];
		int nw = sscanf(line, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]);
		if (nw <= 0)
			continue;
		char msg[400];
		msg[0] = '\0';
		char key[32];
		if (strcmp(w[0], "bind") == 0 && nw == 4) {
			const char *rest = tt_key_next(w[2], key, sizeof(key));
			bool ok;
			enum tt_action a = tt_action_lookup(w[3], &ok);
			if (!rest || *rest)
				snprintf(msg, sizeof(msg), "%s:%d: '%s' is not one key", file, lineno, w[2]);
			else if (!ok)
				snprintf(msg, sizeof(msg), "%s:%d: unknown action '%s'", file, lineno, w[3]);
			else
				bind(k, w[1], key, a);
		} else if (strcmp(w[0], "set") == 0 && nw == 3 && strcmp(w[1], "mouse") == 0) {
			if (strcmp(w[2], "on") == 0 || strcmp(w[2], "yes") == 0)
				k->no_mouse = false;
			else if (strcmp(w[2], "off") == 0 || strcmp(w[2], "no") == 0)
				k->no_mouse = true;
			else
				snprintf(msg, sizeof(msg), "%s:%d: 'set mouse' takes on or off", file,
					 lineno);
		} else if (strcmp(w[0], "unbind") == 0 && nw == 3) {
			if (tt_key_next(w[2], key, sizeof(key)))
				bind(k, w[1], key, TT_ACT_NONE);
		} else {
			snprintf(msg, sizeof(msg),
				 "%s:%d: expected 'bind SECTION KEY ACTION' or 'set mouse on|off'", file,
				 lineno);
		}
		if (msg[0]) {
			bad++;
			if (warn)
				warn(ctx, msg);
		}
	}
	return bad;
}

int tt_keymap_load(struct tt_keymap *k, const char *path,
		   void (*warn)(void *ctx, const char *msg), void *ctx)
{
	char msg[600];
	/* (non-blocking and a regular file: a FIFO must not hang the start) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0; /* (no rc file is the usual case) */
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(msg, sizeof(msg), "%s: not a regular file (ignored)", path);
		if (warn)
			warn(ctx, msg);
		return 1;
	}
	size_t cap = 4096, n = 0;
	char *buf = tt_malloc(cap);
	ssize_t got;
	bool big = false;
	while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)got;
		if (cap - n < 2) {
			if (cap > (1 << 20)) {
				big = true; /* a keymap is small */
				break;
			}
			cap *= 2;
			buf = tt_realloc_array(buf, cap, 1);
		}
	}
	close(fd);
	buf[n] = '\0';
	int bad = 0;
	if (big && warn) {
		snprintf(msg, sizeof(msg), "%s: longer than 1 MiB (the rest ignored)", path);
		warn(ctx, msg);
		bad++;
	}
	/* a NUL byte would end the text early, silently: its line is dropped,
	 * with a warning, and the lines after it are read */
	int line = 1;
	char *ls = buf;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			line++;
			ls = buf + i + 1;
		} else if (buf[i] == '\0') {
			snprintf(msg, sizeof(msg), "%s:%d: a NUL byte (line ignored)", path, line);
			if (warn)
				warn(ctx, msg);
			bad++;
			char *e = memchr(buf + i, '\n', n - i);
			size_t end = e ? (size_t)(e - buf) : n;
			memset(ls, ' ', (size_t)(buf + end - ls));
			i = end - 1;
		}
	}
	bad += tt_keymap_parse(k, buf, path, warn, ctx);
	free(buf);
	return bad;
}

static const struct binding *find(const struct tt_keymap *k, const char *section, const char *key)
{
	for (size_t i = k->n; i-- > 0;)
		if (strcmp(k->b[i].section, section) == 0 && strcmp(k->b[i].key, key) == 0)
			return &k->b[i];
	return NULL;
}

enum tt_action tt_keymap_lookup(const struct tt_keymap *k, const char *section, const char *key)
{
	const struct binding *b = section ? find(k, section, key) : NULL;
	if (!b)
		b = find(k, "generic", key);
	return b ? b->action : TT_ACT_NONE;
}

void tt_keymap_foreach(const struct tt_keymap *k, const char *section,
		       void (*fn)(void *ctx, const char *key, enum tt_action a), void *ctx)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->b[i].section, section) == 0 && k->b[i].action != TT_ACT_NONE)
			fn(ctx, k->b[i].key, k->b[i].action);
}

const char *tt_keymap_key_of(const struct tt_keymap *k, const char *section, enum tt_action a)
{
	for (int pass = 0; pass < 2; pass++) {
		const char *sec = pass == 0 ? section : "generic";
		if (!sec)
			continue;
		for (size_t i = 0; i < k->n; i++)
			if (k->b[i].action == a && strcmp(k->b[i].section, sec) == 0 &&
			    (pass == 1 || tt_keymap_lookup(k, section, k->b[i].key) == a))
				return k->b[i].key;
	}
	return "";
}
