/* Loading, the paths: files, directories and globs -> trace files. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model_int.h"
#include "tracetop/util.h"

bool tt_trace_like(const char *name)
{
	size_t n = strlen(name);
	if (name[0] == '.')
		return false;
	static const char *const ext[] = {".json", ".json.gz", ".gz", ".trace", ".tts"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(ext); i++) {
		size_t m = strlen(ext[i]);
		if (n > m && strcmp(name + n - m, ext[i]) == 0)
			return true;
	}
	return false;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct plist {
	char **v;
	size_t n, cap;
};

static void padd(struct plist *l, const char *s)
{
	TT_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = tt_strdup(s);
}

static void bad_path(void (*bad)(void *, const struct tt_err *), void *ctx, const char *path,
		     const char *msg, size_t *nbad)
{
	struct tt_err e;
	tt_err_set(&e, TT_E_NOTFOUND, path, TT_NO_OFFSET, "%s", msg);
	(*nbad)++;
	if (bad)
		bad(ctx, &e);
}

static void add_dir(struct plist *l, const char *dir, void (*bad)(void *, const struct tt_err *),
		    void *ctx, size_t *nbad)
{
	DIR *d = opendir(dir);
	if (!d) {
		bad_path(bad, ctx, dir, strerror(errno), nbad);
		return;
	}
	size_t before = l->n;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!tt_trace_like(de->d_name))
			continue;
		size_t n = strlen(dir) + strlen(de->d_name) + 2;
		char *p = tt_malloc(n);
		snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			padd(l, p);
		free(p);
	}
	closedir(d);
	/* X.tts beside X: X is listed and uses its cache when that is fresh */
	size_t w = before;
	for (size_t i = before; i < l->n; i++) {
		size_t n = strlen(l->v[i]);
		bool shadowed = false;
		if (n > 4 && strcmp(l->v[i] + n - 4, ".tts") == 0)
			for (size_t j = before; j < l->n && !shadowed; j++)
				shadowed = strlen(l->v[j]) == n - 4 && strncmp(l->v[j], l->v[i], n - 4) == 0;
		if (shadowed)
			free(l->v[i]);
		else
			l->v[w++] = l->v[i];
	}
	l->n = w;
	if (l->n == before)
		bad_path(bad, ctx, dir, "no trace files (*.json, *.json.gz, *.gz, *.tts) in this directory",
			 nbad);
	else
		qsort(l->v + before, l->n - before, sizeof(*l->v), str_cmp);
}

size_t tt_expand_paths(const char *const *paths, size_t n, char ***out, size_t *nbad,
		       void (*bad)(void *ctx, const struct tt_err *e), void *ctx)
{
	struct plist l = {0};
	*nbad = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = paths[i];
		struct stat st;
		if (strcmp(p, "-") == 0) {
			padd(&l, p);
		} else if (tt_remote_is(p)) {
			/* a prefix ending in '/' lists its objects; else one object */
			if (p[strlen(p) - 1] != '/') {
				padd(&l, p);
			} else {
				char **objs;
				struct tt_err e;
				int no = tt_remote_list(p, &objs, &e);
				if (no < 0) {
					(*nbad)++;
					if (bad)
						bad(ctx, &e);
				}
				int found = 0;
				for (int k = 0; k < no; k++) {
					if (tt_trace_like(objs[k])) {
						padd(&l, objs[k]);
						found++;
					}
					free(objs[k]);
				}
				free(no > 0 ? objs : NULL);
				/* (an empty prefix is said, as an empty directory is) */
				if (no >= 0 && !found)
					bad_path(bad, ctx, p,
						 "no trace files (*.json, *.json.gz, *.gz, *.tts) under this prefix",
						 nbad);
			}
		} else if (stat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				add_dir(&l, p, bad, ctx, nbad);
			else
				padd(&l, p);
		} else if (strpbrk(p, "*?[")) {
			glob_t g;
			if (glob(p, 0, NULL, &g) == 0) {
				for (size_t k = 0; k < g.gl_pathc; k++) {
					if (stat(g.gl_pathv[k], &st) == 0 && S_ISDIR(st.st_mode))
						add_dir(&l, g.gl_pathv[k], bad, ctx, nbad);
					else
						padd(&l, g.gl_pathv[k]);
				}
				globfree(&g);
			} else {
				bad_path(bad, ctx, p, "no file matches this pattern", nbad);
			}
		} else {
			bad_path(bad, ctx, p, strerror(errno), nbad);
		}
	}
	*out = l.v;
	return l.n;
}

void tt_paths_free(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}
