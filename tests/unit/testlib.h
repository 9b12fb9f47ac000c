/* What the unit tests share: loading traces (JSON text, fixtures, files,
 * the demo job, ../shared/traces), tables as text, and main().
 *
 * Header-only (each test is one program); every function is static inline
 * so a test uses what it needs.  Check forks each test, so a model loaded
 * by an unchecked fixture is shared by the tests of its case. */
#ifndef TRACETOP_TESTLIB_H
#define TRACETOP_TESTLIB_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/demo.h"
#include "tracetop/model.h"
#include "tracetop/render.h"
#include "tracetop/util.h"

/* ---- paths ---- */

/* The source tree (make check sets SRCDIR). */
static inline const char *tl_srcdir(void)
{
	const char *s = getenv("SRCDIR");
	return s && *s ? s : ".";
}

/* tests/fixtures/NAME, into buf. */
static inline const char *tl_fixture(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/tests/fixtures/%s", tl_srcdir(), name);
	return buf;
}

/* ../shared/traces/NAME into buf, or NULL when ../shared is absent (the
 * test then returns early, and main ends with tl_run_shared, which says so
 * and exits 77: a skip, not a pass). */
static inline const char *tl_shared(const char *name, char *buf, size_t n)
{
	const char *sh = getenv("SHARED");
	if (sh && *sh)
		snprintf(buf, n, "%s/traces/%s", sh, name);
	else
		snprintf(buf, n, "%s/../shared/traces/%s", tl_srcdir(), name);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

/* ---- models ---- */

/* Traces given as JSON text, one rank each, named rank0.json, rank1.json...
 * (o may be NULL); every one must load. */
static inline struct tt_model *tl_load_json_opts(const char *const *text, size_t n,
						 const struct tt_load_opts *o)
{
	const char **names = tt_calloc(n + 1, sizeof(*names));
	const void **data = tt_calloc(n + 1, sizeof(*data));
	size_t *lens = tt_calloc(n + 1, sizeof(*lens));
	char (*nbuf)[32] = tt_calloc(n + 1, sizeof(*nbuf));
	for (size_t i = 0; i < n; i++) {
		snprintf(nbuf[i], sizeof(nbuf[i]), "rank%zu.json", i);
		names[i] = nbuf[i];
		data[i] = text[i];
		lens[i] = strlen(text[i]);
	}
	struct tt_model *m = NULL;
	int rc = tt_model_load_mem(&m, names, data, lens, n, o);
	free(names);
	free(data);
	free(lens);
	free(nbuf);
	ck_assert_msg(rc == 0, "load failed: %s", m && m->nfailures ? m->failures[0].err.msg : "?");
	ck_assert_uint_eq(m->nfailures, 0);
	ck_assert_uint_eq(m->nranks, n);
	return m;
}

static inline struct tt_model *tl_load_json(const char *const *text, size_t n)
{
	return tl_load_json_opts(text, n, NULL);
}

static inline struct tt_model *tl_load_json1(const char *text)
{
	return tl_load_json_opts(&text, 1, NULL);
}

static inline struct tt_model *tl_load_json1_opts(const char *text, const struct tt_load_opts *o)
{
	return tl_load_json_opts(&text, 1, o);
}

/* Files (each a rank) with options o (NULL: defaults); must load. */
static inline struct tt_model *tl_load_files(const char *const *paths, size_t n,
					     const struct tt_load_opts *o)
{
	char **files = tt_calloc(n + 1, sizeof(*files));
	for (size_t i = 0; i < n; i++)
		files[i] = (char *)paths[i];
	struct tt_load_opts lo = {0};
	struct tt_model *m = NULL;
	int rc = tt_model_load(&m, files, n, o ? o : &lo);
	free(files);
	ck_assert_msg(rc == 0, "loading %s failed: %s", paths[0],
		      m && m->nfailures ? m->failures[0].err.msg : "?");
	return m;
}

/* Files and directories as the command line takes them (no cache). */
static inline struct tt_model *tl_load_path(const char *path)
{
	char **files;
	size_t nbad;
	const char *paths[1] = {path};
	size_t nf = tt_expand_paths(paths, 1, &files, &nbad, NULL, NULL);
	ck_assert_uint_gt(nf, 0);
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	struct tt_model *m = NULL;
	tt_model_load(&m, files, nf, &lo);
	tt_paths_free(files, nf);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The demo job (tracetop --demo). */
static inline struct tt_model *tl_load_demo(void)
{
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	struct tt_load_opts lo = {0};
	lo.threads = 2;
	lo.no_cache = true;
	struct tt_model *m = NULL;
	tt_demo_load(&d, &lo, &m);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* ---- tables ---- */

/* t printed in format f, as a string the caller frees. */
static inline char *tl_table_text(const struct tt_table *t, enum tt_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(mf);
	tt_table_print(t, f, NULL, mf);
	fclose(mf);
	return buf;
}

/* ---- main ---- */

/* Run every test of s; the exit status automake wants. */
static inline int tl_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

/* tl_run for a suite some of whose tests need ../shared/traces: without it,
 * those return early, so a run whose other tests pass is a skip (77) that
 * says what was not checked, not a pass. */
static inline int tl_run_shared(Suite *s, const char *what)
{
	char buf[4096];
	int rc = tl_run(s);
	if (rc == 0 && !tl_shared("", buf, sizeof(buf))) {
		printf("skip: ../shared/traces is absent: %s not checked\n", what);
		return 77;
	}
	return rc;
}

#endif
