/* render room: the name shortener on real names -- every kernel and
 * operator name of every trace set in ../shared/traces and of the demo job,
 * shortened at 20, 28 and 40 columns: each fits, names that fit are kept
 * whole, and different names never show the same text.  Exits 77 (skip)
 * when ../shared/traces is absent. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/demo.h"
#include "tracetop/model.h"
#include "tracetop/render.h"
#include "tracetop/util.h"

static char traces[1024];

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the distinct names of the events of m (kernels and operators alike);
 * the strings are copies */
static char **names_of(const struct tt_model *m, size_t *n)
{
	char **v = NULL;
	size_t k = 0, cap = 0;
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		for (uint32_t e = 0; e < r->nev; e++) {
			TT_GROW(v, cap, k + 1);
			v[k++] = (char *)tt_ev_name(r, &r->ev[e]);
		}
	}
	if (k)
		qsort(v, k, sizeof(*v), cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || strcmp(v[u - 1], v[i]) != 0)
			v[u++] = v[i];
	for (size_t i = 0; i < u; i++)
		v[i] = tt_strdup(v[i]);
	*n = u;
	return v;
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

struct pair {
	const char *out, *name;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int r = strcmp(x->out, y->out);
	return r ? r : strcmp(x->name, y->name);
}

/* the checks on one set of names at one width; returns the failures */
static int check_set(const char *what, char **names, size_t n, size_t cols)
{
	char **out = tt_names_fit((const char *const *)names, n, cols);
	int bad = 0;
	struct pair *p = tt_calloc(n + 1, sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		size_t w = tt_utf8_width(out[i]);
		if (w > cols && bad++ < 5)
			fprintf(stderr, "%s at %zu: '%s' is %zu columns: '%s'\n", what, cols, names[i],
				w, out[i]);
		if (tt_utf8_width(names[i]) <= cols && strcmp(out[i], names[i]) != 0 && bad++ < 5)
			fprintf(stderr, "%s at %zu: '%s' fits but shows as '%s'\n", what, cols,
				names[i], out[i]);
		p[i].out = out[i];
		p[i].name = names[i];
	}
	qsort(p, n, sizeof(*p), cmp_pair);
	for (size_t i = 1; i < n; i++)
		if (strcmp(p[i].out, p[i - 1].out) == 0 && strcmp(p[i].name, p[i - 1].name) != 0 &&
		    bad++ < 5)
			fprintf(stderr, "%s at %zu: '%s' and '%s' both show as '%s'\n", what, cols,
				p[i - 1].name, p[i].name, p[i].out);
	free(p);
	tt_names_free(out, n);
	return bad;
}

static int check_model(const char *what, const struct tt_model *m, size_t *count)
{
	size_t n;
	char **names = names_of(m, &n);
	*count += n;
	static const size_t widths[] = {20, 28, 40};
	int bad = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(widths); i++)
		bad += check_set(what, names, n, widths[i]);
	names_free(names, n);
	return bad;
}

START_TEST(shared_names_distinct)
{
	DIR *d = opendir(traces);
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	int bad = 0, sets = 0;
	size_t count = 0;
	char **dirs = NULL;
	size_t nd = 0, cap = 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char p[2048];
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", traces, de->d_name);
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		TT_GROW(dirs, cap, nd + 1);
		dirs[nd++] = tt_strdup(p);
	}
	closedir(d);
	for (size_t i = 0; i < nd; i++) {
		const char *paths[1] = {dirs[i]};
		char **files;
		size_t nbad;
		size_t nf = tt_expand_paths(paths, 1, &files, &nbad, NULL, NULL);
		struct tt_model *m = NULL;
		struct tt_load_opts o = {0};
		o.threads = 2;
		o.no_cache = true;
		if (nf && tt_model_load(&m, files, nf, &o) == 0) {
			bad += check_model(dirs[i], m, &count);
			sets++;
		}
		tt_model_free(m);
		tt_paths_free(files, nf);
		free(dirs[i]);
	}
	free(dirs);
	ck_assert_int_gt(sets, 5);
	ck_assert_uint_gt(count, 1000); /* (the sets hold thousands of names) */
	ck_assert_msg(bad == 0, "%d names shown wrongly (see above)", bad);
}
END_TEST

START_TEST(demo_names_distinct)
{
	struct tt_demo_opts dopt;
	tt_demo_defaults(&dopt);
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	struct tt_model *m = NULL;
	tt_demo_load(&dopt, &lo, &m);
	ck_assert_ptr_nonnull(m);
	size_t count = 0;
	int bad = check_model("demo", m, &count);
	ck_assert_uint_gt(count, 20);
	ck_assert_msg(bad == 0, "%d names shown wrongly (see above)", bad);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	setenv("LC_ALL", "C.UTF-8", 1);
	const char *sh = getenv("SHARED");
	const char *src = getenv("SRCDIR");
	if (sh && *sh)
		snprintf(traces, sizeof(traces), "%s/traces", sh);
	else
		snprintf(traces, sizeof(traces), "%s/../shared/traces", src && *src ? src : ".");
	if (access(traces, R_OK) != 0) {
		printf("skip: %s is absent\n", traces);
		return 77;
	}
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, shared_names_distinct);
	tcase_add_test(tc, demo_names_distinct);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
