/* The explorer's text inputs: keymap files (tig's bind syntax, libtermkey's
 * key names) and theme files, parsed without a terminal. */
#include "config.h"

#include "uitest.h"
#include "tracetop/testing.h"

/* ---- keymap ---- */

struct warnings {
	char msg[8][256];
	int n;
};

static void collect(void *ctx, const char *msg)
{
	struct warnings *w = ctx;
	if (w->n < 8)
		snprintf(w->msg[w->n++], sizeof(w->msg[0]), "%s", msg);
}

START_TEST(keymap_parse)
{
	struct tt_keymap *k = tt_keymap_new();
	/* the defaults */
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "j"), TT_ACT_MOVE_DOWN);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "<Down>"), TT_ACT_MOVE_DOWN);
	ck_assert_int_eq(tt_keymap_lookup(k, NULL, "q"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<Tab>"), TT_ACT_NEXT_PANE);
	ck_assert_int_eq(tt_keymap_lookup(k, "timeline", "<Tab>"), TT_ACT_NEXT_EVENT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "Z"), TT_ACT_NONE);
	for (int i = 0; i <= 9; i++) {
		char key[2] = {(char)('0' + i), 0};
		ck_assert_int_eq(tt_keymap_lookup(k, "generic", key),
				 i == 0 ? TT_ACT_PANE_0 : TT_ACT_PANE_1 + i - 1);
	}
	/* bind, rebind, unbind; comments and blank lines */
	struct warnings w = {0};
	int bad = tt_keymap_parse(k,
				  "# my keys\n"
				  "bind generic x quit   # leave\n"
				  "\n"
				  "bind kernels <C-s> sort-next\n"
				  "bind generic j move-up\n"
				  "unbind generic q\n"
				  "bind generic <CR> help\n",
				  "my.rc", collect, &w);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(w.n, 0);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "x"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "<C-s>"), TT_ACT_SORT_NEXT);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<C-s>"), TT_ACT_NONE);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "j"), TT_ACT_MOVE_UP);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "q"), TT_ACT_NONE);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "<Enter>"), TT_ACT_HELP); /* <CR> alias */
	ck_assert_str_eq(tt_keymap_key_of(k, "kernels", TT_ACT_SORT_NEXT), "<C-s>");
	ck_assert_str_eq(tt_keymap_key_of(k, "overview", TT_ACT_SORT_NEXT), "s");
	/* a pane's section comes before generic */
	tt_keymap_parse(k, "bind overview s quit\n", "x.rc", NULL, NULL);
	ck_assert_int_eq(tt_keymap_lookup(k, "overview", "s"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "kernels", "s"), TT_ACT_SORT_NEXT);
	/* bad lines: warnings with FILE:LINE, the rest still applies */
	w.n = 0;
	bad = tt_keymap_parse(k,
			      "bind generic z frobnicate\n"
			      "bind generic y\n"
			      "bind generic ab quit\n"
			      "bind generic Z quit\n"
			      "blind generic w quit\n",
			      "bad.rc", collect, &w);
	ck_assert_int_eq(bad, 4);
	ck_assert_int_eq(w.n, 4);
	ck_assert_str_eq(w.msg[0], "bad.rc:1: unknown action 'frobnicate'");
	ck_assert_ptr_nonnull(strstr(w.msg[1], "bad.rc:2:"));
	ck_assert_str_eq(w.msg[2], "bad.rc:3: 'ab' is not one key");
	ck_assert_ptr_nonnull(strstr(w.msg[3], "bad.rc:5:"));
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "Z"), TT_ACT_QUIT);
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "z"), TT_ACT_NONE);
	/* a file; a missing file is no error */
	char path[] = "/tmp/tt_test_rc_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char *text = "bind generic v pane-diff\nbind generic u nosuch\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	w.n = 0;
	ck_assert_int_eq(tt_keymap_load(k, path, collect, &w), 1);
	ck_assert_int_eq(tt_keymap_lookup(k, "generic", "v"), TT_ACT_PANE_0);
	char want[300];
	snprintf(want, sizeof(want), "%s:2: unknown action 'nosuch'", path);
	ck_assert_str_eq(w.msg[0], want);
	unlink(path);
	ck_assert_int_eq(tt_keymap_load(k, "/nonexistent/tracetoprc", collect, &w), 0);
	tt_keymap_free(k);
	/* every action name round-trips */
	for (int a = 0; a < TT_ACT_COUNT; a++) {
		bool ok;
		ck_assert_int_eq(tt_action_lookup(tt_action_name((enum tt_action)a), &ok), a);
		ck_assert(ok);
		ck_assert_str_ne(tt_action_help((enum tt_action)a), "");
	}
	bool ok = true;
	tt_action_lookup("nosuch", &ok);
	ck_assert(!ok);
}
END_TEST

START_TEST(key_next)
{
	char buf[32];
	const char *s = "<Tab>jj<C-f>";
	const char *want[] = {"<Tab>", "j", "j", "<C-f>"};
	for (int i = 0; i < 4; i++) {
		s = tt_key_next(s, buf, sizeof(buf));
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(buf, want[i]);
	}
	ck_assert_str_eq(s, "");
	ck_assert_ptr_null(tt_key_next(s, buf, sizeof(buf)));
	ck_assert_ptr_null(tt_key_next(NULL, buf, sizeof(buf)));
	/* aliases */
	static const char *const al[][2] = {
		{"<CR>", "<Enter>"},	    {"<Return>", "<Enter>"},	 {"<Esc>", "<Escape>"},
		{"<BS>", "<Backspace>"},    {"<PgUp>", "<PageUp>"},	 {"<PgDn>", "<PageDown>"},
		{" ", "<Space>"},	    {"<lt>", "<"},		 {"<esc>", "<Escape>"},
		{"<S-Tab>", "<S-Tab>"},	    {"<Dump>", "<Dump>"},	 {"<C-c>", "<C-c>"},
	};
	for (size_t i = 0; i < TT_ARRAY_SIZE(al); i++) {
		ck_assert_ptr_nonnull(tt_key_next(al[i][0], buf, sizeof(buf)));
		ck_assert_str_eq(buf, al[i][1]);
	}
	/* a lone '<' is a key; UTF-8 stays one key */
	s = tt_key_next("<a b>", buf, sizeof(buf));
	ck_assert_str_eq(buf, "<");
	ck_assert_str_eq(s, "a b>");
	s = tt_key_next("\xC3\xA9x", buf, sizeof(buf));
	ck_assert_str_eq(buf, "\xC3\xA9");
	ck_assert_str_eq(s, "x");
	s = tt_key_next("<C->>j", buf, sizeof(buf));
	ck_assert_str_eq(buf, "<C->>");
	ck_assert_str_eq(s, "j");
}
END_TEST

/* ---- themes ---- */

static bool style_eq(struct tt_style a, struct tt_style b)
{
	return a.fg == b.fg && a.bg == b.bg && a.attrs == b.attrs;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	static char text[65536];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

START_TEST(theme_parse)
{
	struct tt_theme def, t;
	tt_theme_default(&def);
	ck_assert_str_eq(def.name, "default");
	ck_assert(!def.mono);
	/* themes/default.theme is the built-in default */
	char path[4096];
	snprintf(path, sizeof(path), "%s/themes/default.theme", tl_srcdir());
	memset(&t, 0, sizeof(t));
	struct warnings w = {0};
	ck_assert_int_eq(tt_theme_parse(&t, read_file(path), path, collect, &w), 0);
	ck_assert_int_eq(w.n, 0);
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert_msg(style_eq(tt_theme_style(&t, r), tt_theme_style(&def, r)),
			      "role %s differs between themes/default.theme and the built-in",
			      tt_role_name(r));
	/* every role is set in it, explicitly */
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert_msg(t.style[r].set, "role %s is not in default.theme", tt_role_name(r));
	/* errors: warnings with FILE:LINE; the value before stays */
	t = def;
	w.n = 0;
	int bad = tt_theme_parse(&t,
				 "[styles]\n"
				 "cursor = purpel black\n"
				 "bar.comp = red default blink\n"
				 "nosuch.role = red\n"
				 "header\n"
				 "bar.comm = 208 default bold\n"
				 "[other]\n"
				 "x = y\n",
				 "my.theme", collect, &w);
	ck_assert_int_eq(bad, 5);
	ck_assert_str_eq(w.msg[0], "my.theme:2: unknown color 'purpel'");
	ck_assert_str_eq(w.msg[1], "my.theme:3: unknown attribute 'blink'");
	ck_assert_str_eq(w.msg[2], "my.theme:4: unknown role 'nosuch.role'");
	ck_assert_ptr_nonnull(strstr(w.msg[3], "my.theme:5:"));
	ck_assert_ptr_nonnull(strstr(w.msg[4], "my.theme:8:"));
	ck_assert(style_eq(tt_theme_style(&t, TT_ROLE_CURSOR), tt_theme_style(&def, TT_ROLE_CURSOR)));
	ck_assert(style_eq(tt_theme_style(&t, TT_ROLE_BAR_COMP),
			   tt_theme_style(&def, TT_ROLE_BAR_COMP)));
	struct tt_style c = tt_theme_style(&t, TT_ROLE_BAR_COMM);
	ck_assert_int_eq(c.fg, 208);
	ck_assert_int_eq(c.bg, TT_COLOR_DEFAULT);
	ck_assert_int_eq(c.attrs, TT_ATTR_BOLD);
	/* colours */
	ck_assert_int_eq(tt_color_lookup("default"), TT_COLOR_DEFAULT);
	ck_assert_int_eq(tt_color_lookup("red"), 1);
	ck_assert_int_eq(tt_color_lookup("bright-red"), 9);
	ck_assert_int_eq(tt_color_lookup("255"), 255);
	ck_assert_int_eq(tt_color_lookup("256"), -2);
	ck_assert_int_eq(tt_color_lookup("purpel"), -2);
	/* a scoped role falls back to its base, then to default */
	memset(&t, 0, sizeof(t));
	tt_theme_parse(&t, "[styles]\nbar = magenta default\ndefault = white black\n", "s.theme",
		       NULL, NULL);
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_BAR_IDLE).fg, 5);
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_CURSOR).fg, 7);
	/* role names */
	ck_assert_str_eq(tt_role_name(TT_ROLE_TITLE_FOCUS), "title.focus");
	ck_assert_int_eq(tt_role_lookup("bar.comp"), TT_ROLE_BAR_COMP);
	ck_assert_int_eq(tt_role_lookup("nope"), -1);
}
END_TEST

START_TEST(theme_load)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/themes", tl_srcdir());
	const char *dirs[] = {dir, NULL};
	unsetenv("TRACETOP_THEMES");
	setenv("HOME", "/nonexistent", 1);
	struct warnings w = {0};
	struct tt_theme t, def;
	tt_theme_default(&def);
	/* light: loads without warnings, and differs from the default */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "light", dirs, collect, &w));
	ck_assert_int_eq(w.n, 0);
	ck_assert_str_eq(t.name, "light");
	ck_assert(!t.mono);
	ck_assert(!style_eq(tt_theme_style(&t, TT_ROLE_CURSOR), tt_theme_style(&def, TT_ROLE_CURSOR)));
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_BAR_COMP).fg, 28);
	/* mono by name (no file needed) and from its file: attributes only */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "mono", dirs, collect, &w));
	ck_assert(t.mono);
	char path[4200];
	snprintf(path, sizeof(path), "%s/mono.theme", dir);
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, path, NULL, collect, &w));
	ck_assert_int_eq(w.n, 0);
	ck_assert(t.mono);
	for (int r = 0; r < TT_ROLE_COUNT; r++) {
		struct tt_style s = tt_theme_style(&t, r);
		ck_assert_int_eq(s.fg, TT_COLOR_DEFAULT);
		ck_assert_int_eq(s.bg, TT_COLOR_DEFAULT);
	}
	ck_assert(tt_theme_style(&t, TT_ROLE_CURSOR).attrs & TT_ATTR_REVERSE);
	ck_assert(tt_theme_style(&t, TT_ROLE_HEADER).attrs & TT_ATTR_BOLD);
	/* default by file name too */
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "default", dirs, collect, &w));
	for (int r = 0; r < TT_ROLE_COUNT; r++)
		ck_assert(style_eq(tt_theme_style(&t, r), tt_theme_style(&def, r)));
	/* TRACETOP_THEMES comes first */
	char tdir[] = "/tmp/tt_test_themes_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tdir));
	char tpath[4200];
	snprintf(tpath, sizeof(tpath), "%s/light.theme", tdir);
	FILE *f = fopen(tpath, "w");
	fputs("[theme]\nname = mine\n[styles]\ncursor = red green\nheader = oops\n", f);
	fclose(f);
	setenv("TRACETOP_THEMES", tdir, 1);
	w.n = 0;
	tt_theme_default(&t);
	ck_assert(tt_theme_load(&t, "light", dirs, collect, &w));
	ck_assert_str_eq(t.name, "mine");
	ck_assert_int_eq(tt_theme_style(&t, TT_ROLE_CURSOR).fg, 1);
	ck_assert_int_eq(w.n, 1);
	char want[4300];
	snprintf(want, sizeof(want), "%s:5: unknown color 'oops'", tpath);
	ck_assert_str_eq(w.msg[0], want);
	unsetenv("TRACETOP_THEMES");
	unlink(tpath);
	rmdir(tdir);
	/* not found: false, the theme unchanged */
	tt_theme_default(&t);
	ck_assert(!tt_theme_load(&t, "nosuchtheme", dirs, collect, &w));
	ck_assert_str_eq(t.name, "default");
}
END_TEST

/* ---- main ---- */

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	Suite *s = suite_create("ui-parsers");
	TCase *tp = tcase_create("parsers");
	tcase_add_test(tp, keymap_parse);
	tcase_add_test(tp, key_next);
	tcase_add_test(tp, theme_parse);
	tcase_add_test(tp, theme_load);
	suite_add_tcase(s, tp);
	return tl_run(s);
}
