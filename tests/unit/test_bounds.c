/* Inputs written to make the tool slow, wrong or unsafe: regular
 * expressions in bounded time, sums that saturate, duplicates at one time
 * found in one pass, commands to paste safe for any file name, caches true
 * to the bytes read, cells drawn to size whatever the libc's widths. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "testlib.h"
#include "tracetop/checked.h"
#include "tracetop/model.h"
#include "tracetop/regex.h"
#include "tracetop/source.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"
#include "tracetop/warn.h"

/* ---- regular expressions ---- */

static bool rx_match(const char *pat, const char *s)
{
	char why[200];
	struct tt_re *re = tt_re_compile(pat, true, why, sizeof(why));
	ck_assert_msg(re, "'%s' refused: %s", pat, why);
	bool m = tt_re_search(re, s, strlen(s));
	tt_re_free(re);
	return m;
}

static const char *rx_refused(const char *pat)
{
	static char why[200];
	struct tt_re *re = tt_re_compile(pat, true, why, sizeof(why));
	ck_assert_msg(!re, "'%s' compiled", pat);
	return why;
}

START_TEST(test_re_syntax)
{
	static const struct {
		const char *pat, *s;
		bool m;
	} c[] = {
		{"", "", true},
		{"", "abc", true},
		{"nccl", "ncclDevKernel_AllReduce", true},
		{"^nccl.*f32$", "ncclDevKernel_AllReduce_Sum_f32", true},
		{"^nccl.*f32$", "ncclDevKernel_AllReduce_Sum_f32_RING", false},
		{"^nccl.*f32$", "xncclf32", false},
		{"NCCL", "nccl", true}, /* case ignored */
		{"[A-C]x", "bx", true},
		{"[^a-z]", "abc", false},
		{"[^a-z]", "abC", false}, /* (case ignored: C is in a-z) */
		{"[^a-z]", "ab1", true},
		{"[]a]", "]", true},
		{"[a-]", "-", true},
		{"[[:digit:]]{3}", "ab12c", false},
		{"[[:digit:]]{3}", "ab123", true},
		{"a{2,3}b", "ab", false},
		{"a{2,3}b", "aaab", true},
		{"^a{2,3}b", "aaaab", false},
		{"a{2,}$", "baa", true},
		{"(ab|cd)+e", "abcdabe", true},
		{"(ab|cd)+e", "abce", false},
		{"x(a|)y", "xy", true},
		{"()", "", true},
		{"(a*)*b", "aaaaab", true},
		{"(a*)*b", "aaaaa", false},
		{"a|b|c", "c", true},
		{"\\.", "a.b", true},
		{"\\.", "ab", false},
		{"a\\*", "a*", true},
		{"\\w+\\s\\d", "op 7", true},
		{"\\bmm\\b", "aten::mm", true},
		{"\\bmm\\b", "aten::mmx", false},
		{"\\<mm", "aten::mm", true},
		{"mm\\>", "mm_x", false},
		{"x{", "x{", true},   /* not a bound: itself */
		{"x{a}", "x{a}", true},
		{"^$", "", true},
		{"a$|^b", "ba", true},
		{"é", "CAFÉ", true},  /* a character, case ignored */
		{"^.$", "é", true},   /* one character, two bytes */
		{"^..$", "é", false},
	};
	setlocale(LC_ALL, "C.UTF-8");
	for (size_t i = 0; i < TT_ARRAY_SIZE(c); i++)
		ck_assert_msg(rx_match(c[i].pat, c[i].s) == c[i].m, "'%s' on '%s': expected %d",
			      c[i].pat, c[i].s, c[i].m);
	printf("regex: %zu of %zu cases as expected\n", TT_ARRAY_SIZE(c), TT_ARRAY_SIZE(c));
}
END_TEST

START_TEST(test_re_refused)
{
	ck_assert(strstr(rx_refused("(.*)(.*)\\2\\1x"), "back-references (\\2) are not supported"));
	ck_assert(strstr(rx_refused("(a"), "unmatched ("));
	ck_assert(strstr(rx_refused("a)"), "unmatched )"));
	ck_assert(strstr(rx_refused("[ab"), "unmatched ["));
	ck_assert(strstr(rx_refused("[[:nope:]]"), "unknown class"));
	ck_assert(strstr(rx_refused("*a"), "nothing before *"));
	ck_assert(strstr(rx_refused("a\\"), "trailing"));
	ck_assert(strstr(rx_refused("[z-a]"), "invalid range"));
	ck_assert(strstr(rx_refused("a{3,2}"), "invalid bound"));
	ck_assert(strstr(rx_refused("a{256}"), "above 255"));
	/* repetitions written out past the budget: refused, never run */
	ck_assert(strstr(rx_refused("(a{255}){255}"), "too large"));
	ck_assert(strstr(rx_refused("((((((((((((((((((((((((((((((((((((((((((((((((((((((("
				    "(((((((((((((a)))))))))))))))))))))))))))))))))))))))))"
				    "))))))))))))))))))))))))"),
			 "nested more than"));
}
END_TEST

/* The same answer as glibc's regexec (POSIX extended, case ignored) on
 * random patterns and texts, the anchors left out (glibc is wrong with
 * them inside repeated groups) and bounds small (glibc backtracks there). */
START_TEST(test_re_glibc)
{
	static const char *const atoms[] = {"a",   "b",     "c",     "A",     "B",   ".",
					    "[ab]", "[^a]", "[a-c]", "[[:digit:]]", "[[:upper:]]",
					    "1",   "x",     "_",     "\\.",   ":",   "(a|b)",
					    "()",  "(a*)",  "[]a]",  "[a-]"};
	static const char *const reps[] = {"", "", "", "*", "+", "?", "{2}", "{1,2}"};
	static const char *const alph[] = {"a", "b", "c", "A", "B", "1", "2", "x", "_", ".", ":", " "};
	setlocale(LC_ALL, "C.UTF-8");
	uint64_t st = 88172645463325252ULL;
#define RND() (st ^= st << 13, st ^= st >> 7, st ^= st << 17, (unsigned)st)
	size_t compared = 0, want = 0;
	for (int it = 0; it < 3000; it++) {
		char pat[512] = "";
		int na = 1 + (int)(RND() % 4);
		for (int i = 0; i < na; i++) {
			if (RND() % 6 == 0) {
				strcat(pat, "(");
				strcat(pat, atoms[RND() % TT_ARRAY_SIZE(atoms)]);
				strcat(pat, reps[RND() % TT_ARRAY_SIZE(reps)]);
				strcat(pat, RND() % 2 ? "|" : "");
				strcat(pat, atoms[RND() % TT_ARRAY_SIZE(atoms)]);
				strcat(pat, ")");
			} else {
				strcat(pat, atoms[RND() % TT_ARRAY_SIZE(atoms)]);
			}
			strcat(pat, reps[RND() % TT_ARRAY_SIZE(reps)]);
		}
		regex_t rx;
		if (regcomp(&rx, pat, REG_EXTENDED | REG_NOSUB | REG_ICASE) != 0)
			continue;
		char why[200];
		struct tt_re *re = tt_re_compile(pat, true, why, sizeof(why));
		ck_assert_msg(re, "'%s' refused: %s", pat, why);
		for (int j = 0; j < 6; j++) {
			char s[64] = "";
			int len = (int)(RND() % 8);
			for (int q = 0; q < len; q++)
				strcat(s, alph[RND() % TT_ARRAY_SIZE(alph)]);
			bool g = regexec(&rx, s, 0, NULL, 0) == 0;
			bool o = tt_re_search(re, s, strlen(s));
			ck_assert_msg(g == o, "'%s' on '%s': glibc %d, ours %d", pat, s, g, o);
			compared++;
		}
		want += 6;
		tt_re_free(re);
		regfree(&rx);
	}
#undef RND
	printf("regex: %zu of %zu texts matched as glibc does\n", compared, want);
	ck_assert_uint_eq(compared, want);
	ck_assert_uint_gt(compared, 15000);
}
END_TEST

/* What makes a backtracking matcher take exponential or quadratic time
 * takes one pass here (Check's timeout would catch a hang). */
START_TEST(test_re_bounded)
{
	size_t n = 200000;
	char *s = tt_malloc(n + 2);
	memset(s, 'a', n);
	s[n] = '\0';
	ck_assert(!rx_match("(a*)*(a*)*(a*)*b", s));
	ck_assert(!rx_match("x.*y", s)); /* (glibc: n^2 on a long name) */
	ck_assert(rx_match("(a|aa)+$", s));
	s[n] = 'b';
	s[n + 1] = '\0';
	ck_assert(rx_match("(.*)(.*)(.*)(.*)(.*)b", s));
	free(s);
	/* five groups of .* before an x absent from 80 names (no back-references) */
	char why[200];
	struct tt_re *re = tt_re_compile("(.*)(.*)(.*)(.*)(.*)x", true, why, sizeof(why));
	ck_assert(re);
	for (int i = 0; i < 80; i++) {
		char name[64];
		snprintf(name, sizeof(name), "aten::op_%06d_abcdefghijklmnopqr", i);
		ck_assert(!tt_re_search(re, name, strlen(name)));
	}
	tt_re_free(re);
}
END_TEST

/* ---- sums ---- */

START_TEST(test_checked)
{
	ck_assert_int_eq(tt_sat_add(1, 2), 3);
	ck_assert_int_eq(tt_sat_add(INT64_MAX, 1), INT64_MAX);
	ck_assert_int_eq(tt_sat_add(INT64_MIN, -1), INT64_MIN);
	ck_assert_int_eq(tt_sat_add(INT64_MAX, INT64_MIN), -1);
	ck_assert_int_eq(tt_sat_sub(INT64_MIN, 1), INT64_MIN);
	ck_assert_int_eq(tt_sat_sub(0, INT64_MIN), INT64_MAX);
	ck_assert_int_eq(tt_sat_mul(INT64_MAX, 2), INT64_MAX);
	ck_assert_int_eq(tt_sat_mul(INT64_MAX, -2), INT64_MIN);
	ck_assert_int_eq(tt_sat_mul(-3, 4), -12);
	ck_assert(tt_sat_addu(UINT64_MAX, 1) == UINT64_MAX);
	ck_assert_int_eq(tt_sat_128((__int128)INT64_MAX * 4), INT64_MAX);
	ck_assert_int_eq(tt_sat_128(-(__int128)INT64_MAX * 4), INT64_MIN);
	/* 16,000 kernels of 7 days: the sum stays at the largest time */
	int64_t acc = 0;
	for (int i = 0; i < 16000; i++)
		tt_sat_acc(&acc, TT_MAX_DUR_NS);
	ck_assert_int_eq(acc, INT64_MAX);
}
END_TEST

/* ---- duplicates at one time ---- */

/* One track, every event at ts 1000 with dur 5: events without an id are
 * never duplicates; an event equal to an earlier one with an id is.  A run
 * longer than the pairwise limit goes the sorted way; a short one the
 * pairwise way: both keep the first of each class, in order. */
static void dup_case(int plain, int ids, int copies, int ext_copies)
{
	size_t cap = 4096 + (size_t)(plain + ids * copies + ext_copies) * 200;
	char *j = tt_malloc(cap);
	size_t n = (size_t)snprintf(j, cap, "{\"traceEvents\": [");
	bool first = true;
#define SEP() (first ? (first = false, "") : ",")
	/* interleaved: plain ops, launches (each copies times), ext copies */
	for (int k = 0; k < copies; k++)
		for (int i = 0; i < ids; i++)
			n += (size_t)snprintf(j + n, cap - n,
					      "%s{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
					      "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 1000, "
					      "\"dur\": 5, \"args\": {\"correlation\": %d}}",
					      SEP(), i + 1);
	for (int i = 0; i < plain; i++)
		n += (size_t)snprintf(j + n, cap - n,
				      "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op\", "
				      "\"pid\": 1, \"tid\": 1, \"ts\": 1000, \"dur\": 5}",
				      SEP());
	for (int i = 0; i < ext_copies; i++)
		n += (size_t)snprintf(j + n, cap - n,
				      "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::x\", "
				      "\"pid\": 1, \"tid\": 1, \"ts\": 1000, \"dur\": 5, \"args\": "
				      "{\"External id\": 7}}",
				      SEP());
#undef SEP
	snprintf(j + n, cap - n, "]}");
	struct tt_model *m = tl_load_json1(j);
	free(j);
	ck_assert(m && m->nranks == 1);
	const struct tt_rank *r = m->ranks[0];
	uint64_t kept = 0, dups = (uint64_t)(ids * (copies - 1) + (ext_copies ? ext_copies - 1 : 0));
	for (uint32_t i = 0; i < r->nev; i++)
		kept += r->ev[i].ts > 0 && !(r->ev[i].flags & TT_EF_MARKER);
	ck_assert_uint_eq(kept, (uint64_t)(plain + ids + (ext_copies ? 1 : 0)));
	ck_assert_uint_eq(r->report.count[TT_W_DUP_EVENT], dups);
	/* the first of each class, in the order they came */
	const struct tt_track *tr = NULL;
	for (uint32_t t = 0; t < r->ntracks; t++)
		if (r->tracks[t].count)
			tr = &r->tracks[t];
	ck_assert(tr);
	for (int i = 0; i < ids; i++) {
		const struct tt_event *e = &r->ev[tr->first + (uint32_t)i];
		ck_assert_uint_eq(e->corr, (uint32_t)i + 1);
	}
	tt_model_free(m);
}

START_TEST(test_dup_long_run)
{
	dup_case(40, 20, 3, 10); /* 110 events at one time: sorted */
	dup_case(3, 2, 2, 2);    /* 9: pairwise */
	dup_case(1000, 0, 1, 0); /* no ids: nothing dropped */
	dup_case(0, 500, 4, 0);
}
END_TEST

/* ---- commands to paste ---- */

/* The editor command of a frame whose file name is hostile, run by sh
 * with an "editor" that prints its arguments: the file arrives as one
 * argument after "--", an option-looking name with ./ before it, and
 * nothing in the name runs. */
START_TEST(test_editor_command_hostile)
{
	static const char *const names[] = {
		"+!touch pwned", "-c", "--help", "+3", "a'b", "$(touch pwned)", "`touch pwned`",
		"x; touch pwned", "a b", "\\'\"", "-", "model.py",
	};
	char dir[] = "/tmp/tt-editor.XXXXXX";
	ck_assert(mkdtemp(dir));
	size_t ok = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(names); i++) {
		char cmd[512], sh[700];
		ck_assert(tt_tb_editor_command(cmd, sizeof(cmd), "printf '%s\\n'", names[i], 3) > 0);
		snprintf(sh, sizeof(sh), "cd %s && %s", dir, cmd);
		FILE *f = popen(sh, "r");
		ck_assert(f);
		char out[3][256] = {"", "", ""};
		int k = 0;
		while (k < 3 && fgets(out[k], sizeof(out[k]), f)) {
			out[k][strcspn(out[k], "\n")] = '\0';
			k++;
		}
		char extra[8];
		ck_assert_msg(!fgets(extra, sizeof(extra), f), "'%s': more than 3 arguments", names[i]);
		ck_assert_int_eq(pclose(f), 0);
		ck_assert_int_eq(k, 3);
		char want[300];
		bool dot = names[i][0] == '-' || names[i][0] == '+';
		snprintf(want, sizeof(want), "%s%s", dot ? "./" : "", names[i]);
		ck_assert_str_eq(out[0], "+3");
		ck_assert_str_eq(out[1], "--");
		ck_assert_msg(strcmp(out[2], want) == 0, "'%s' arrived as '%s'", names[i], out[2]);
		char pw[300];
		snprintf(pw, sizeof(pw), "%s/pwned", dir);
		ck_assert_msg(access(pw, F_OK) != 0, "'%s' ran a command", names[i]);
		ok++;
	}
	/* control characters: no command (it would be shown escaped) */
	char cmd[64] = "x";
	ck_assert_uint_eq(tt_tb_editor_command(cmd, sizeof(cmd), NULL, "a\nb.py", 1), 0);
	ck_assert_str_eq(cmd, "");
	rmdir(dir);
	printf("editor command: %zu of %zu hostile names reach the editor whole\n", ok,
	       TT_ARRAY_SIZE(names));
}
END_TEST

/* ---- caches true to the bytes read ---- */

/* a trace of n kernels named name (about 200 bytes each) */
static void write_trace(const char *path, int n, const char *name)
{
	FILE *f = fopen(path, "w");
	ck_assert(f);
	fprintf(f, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (int i = 0; i < n; i++)
		fprintf(f,
			"%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, "
			"\"tid\": 7, \"ts\": %d, \"dur\": 5, \"args\": {\"stream\": 7, "
			"\"correlation\": %d}}\n",
			i ? "," : "", name, 1000 + 10 * i, i + 1);
	fprintf(f, "]}\n");
	ck_assert_int_eq(fclose(f), 0);
}

/* what the progress callback does to the file while it is read */
struct meddle {
	const char *path, *other;
	int what; /* 0 nothing, 1 overwrite its first bytes in place, 2 mv other over it */
	int calls;
};

static void meddle_progress(void *ctx, size_t file, uint64_t text, uint64_t raw, uint64_t events,
			    bool done)
{
	struct meddle *m = ctx;
	(void)file;
	(void)text;
	(void)raw;
	(void)events;
	if (done || m->calls++)
		return;
	if (m->what == 1) {
		FILE *f = fopen(m->path, "r+");
		ck_assert(f);
		ck_assert_int_eq(fputs("{\"schemaVersion\": 2", f) >= 0, 1);
		ck_assert_int_eq(fclose(f), 0);
	} else if (m->what == 2) {
		ck_assert_int_eq(rename(m->other, m->path), 0);
	}
}

/* Load path with the meddling of what, then save its cache: the error of
 * the save ("" when it was written). */
static const char *load_and_save(const char *dir, int what, bool split, char *why, size_t n)
{
	char path[256], other[256], out[300];
	snprintf(path, sizeof(path), "%s/t.json", dir);
	snprintf(other, sizeof(other), "%s/new.json", dir);
	snprintf(out, sizeof(out), "%s.tts", path);
	unlink(out);
	write_trace(path, 30000, "OLD_kernel");
	write_trace(other, 1000, "NEW_kernel");
	struct meddle md = {path, other, what, 0};
	struct tt_load_opts o = {.threads = 1, .no_cache = true, .progress = meddle_progress,
				 .progress_ctx = &md};
	if (split) {
		/* (the loader's parallel path: parts read on threads of their own) */
		o.threads = 4;
		o.pipeline = true;
		o.split_min = 1 << 20;
	}
	struct tt_rank *r = NULL;
	struct tt_err err;
	tt_err_clear(&err);
	ck_assert_int_eq(tt_rank_load(&r, path, NULL, 0, &o, 0, &err), 0);
	ck_assert_msg(md.calls > 1 || split, "the load reported no progress before its end");
	ck_assert_uint_eq(r->nev, 30000); /* (what was read: the old file) */
	tt_err_clear(&err);
	int rc = tt_rank_save(r, out, &err);
	tt_rank_free(r);
	snprintf(why, n, "%s", rc ? err.msg : "");
	ck_assert_int_eq(rc != 0, access(out, F_OK) != 0); /* refused: nothing written */
	return why;
}

START_TEST(test_cache_identity)
{
	char dir[] = "/tmp/tt-cache.XXXXXX";
	ck_assert(mkdtemp(dir));
	char why[300], path[256], cpath[300];
	snprintf(path, sizeof(path), "%s/t.json", dir);
	/* untouched: written, and it belongs to the trace */
	ck_assert_str_eq(load_and_save(dir, 0, false, why, sizeof(why)), "");
	ck_assert(tt_cache_for(path, cpath, sizeof(cpath)));
	/* the trace replaced afterwards: the cache is not the new file's */
	write_trace(path, 1000, "NEW_kernel");
	ck_assert(!tt_cache_for(path, cpath, sizeof(cpath)));
	/* overwritten in place while read: refused */
	ck_assert(strstr(load_and_save(dir, 1, false, why, sizeof(why)), "changed while it was read"));
	/* replaced (mv) while read: the old bytes were read, and the path
	 * names another file: refused (it was written with the new file's
	 * identity and trusted, 30,000 OLD_kernel events for 1,000 new ones) */
	ck_assert(strstr(load_and_save(dir, 2, false, why, sizeof(why)), "replaced by another file"));
	struct tt_model *m = NULL;
	const char *files[1] = {path};
	struct tt_load_opts o = {.threads = 1};
	ck_assert_int_eq(tt_model_load(&m, (char *const *)files, 1, &o), 0);
	ck_assert_uint_eq(m->ranks[0]->nev, 1000);
	tt_model_free(m);
	/* read in parts on several threads (from duplicates of the one
	 * descriptor): the identity is kept the same way */
	ck_assert_str_eq(load_and_save(dir, 0, true, why, sizeof(why)), "");
	ck_assert(tt_cache_for(path, cpath, sizeof(cpath)));
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- the terminal's widths ---- */

static int this_libc(uint32_t cp)
{
	return wcwidth((wchar_t)cp);
}

/* a libc of another Unicode version: U+2600 wide, U+1F600 narrow, U+0378
 * unprintable, U+0301 (a mark) wide; the rest as ours */
static int other_libc(uint32_t cp)
{
	switch (cp) {
	case 0x2600:
		return 2;
	case 0x1F600:
		return 1;
	case 0x0378:
		return -1;
	case 0x0301:
		return 2;
	default:
		return tt_cp_width(cp);
	}
}

START_TEST(test_widths)
{
	/* (the mark has no cell in the grid: it never differs there) */
	ck_assert_uint_eq(tt_width_check(other_libc), 3);
	static const uint32_t differ[] = {0x2600, 0x1F600, 0x0378};
	static const uint32_t same[] = {'A', 0xE9, 0x4E2D, 0x1F601, 0x0301, 0x2601};
	for (size_t i = 0; i < TT_ARRAY_SIZE(differ); i++)
		ck_assert_msg(tt_width_differs(differ[i]), "U+%04X", differ[i]);
	for (size_t i = 0; i < TT_ARRAY_SIZE(same); i++)
		ck_assert_msg(!tt_width_differs(same[i]), "U+%04X", same[i]);
	/* what is drawn fills the grid's cells exactly, by the terminal's libc */
	static const uint32_t all[] = {0x2600, 0x1F600, 0x0378, 'A', 0x4E2D};
	for (size_t i = 0; i < TT_ARRAY_SIZE(all); i++) {
		uint32_t out[2];
		int k = tt_width_plan(all[i], other_libc(all[i]), out), w = 0;
		for (int j = 0; j < k; j++)
			w += other_libc(out[j]);
		ck_assert_msg(w == tt_cp_width(all[i]), "U+%04X: %d cells drawn for %d", all[i], w,
			      tt_cp_width(all[i]));
	}
	uint32_t out[2];
	ck_assert_int_eq(tt_width_plan(0x1F600, 1, out), 2); /* narrower: it, then a space */
	ck_assert(out[0] == 0x1F600 && out[1] == ' ');
	ck_assert_int_eq(tt_width_plan(0x2600, 2, out), 1); /* wider: a '?' */
	ck_assert(out[0] == '?');
	ck_assert_int_eq(tt_width_plan('A', 1, out), 1);
	ck_assert(out[0] == 'A');
	/* this machine's libc: counted, and every difference drawn to size */
	setlocale(LC_ALL, "C.UTF-8");
	size_t n = tt_width_check(this_libc);
	printf("widths: this libc measures %zu code points otherwise than the table\n", n);
	for (uint32_t cp = 0xA0; cp < 0x30000; cp++)
		if (tt_width_differs(cp)) {
			int k = tt_width_plan(cp, this_libc(cp), out), w = 0;
			for (int j = 0; j < k; j++)
				w += this_libc(out[j]);
			ck_assert_msg(w == tt_cp_width(cp), "U+%04X", cp);
		}
}
END_TEST

static Suite *bounds_suite(void)
{
	Suite *s = suite_create("bounds");
	TCase *tc = tcase_create("regex");
	tcase_add_test(tc, test_re_syntax);
	tcase_add_test(tc, test_re_refused);
	tcase_add_test(tc, test_re_glibc);
	tcase_add_test(tc, test_re_bounded);
	suite_add_tcase(s, tc);
	tc = tcase_create("sums");
	tcase_add_test(tc, test_checked);
	suite_add_tcase(s, tc);
	tc = tcase_create("load");
	tcase_add_test(tc, test_dup_long_run);
	suite_add_tcase(s, tc);
	tc = tcase_create("cache");
	tcase_add_test(tc, test_cache_identity);
	suite_add_tcase(s, tc);
	tc = tcase_create("widths");
	tcase_add_test(tc, test_widths);
	suite_add_tcase(s, tc);
	tc = tcase_create("paste");
	tcase_add_test(tc, test_editor_command_hostile);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(bounds_suite());
}
