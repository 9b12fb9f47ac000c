/* Loading: paths -> files -> ranks, on a pool of threads (one file each). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model_int.h"
#include "tracetop/util.h"

/* ---- paths ---- */

static bool trace_like(const char *name)
{
	size_t n = strlen(name);
	if (name[0] == '.')
		return false;
	static const char *const ext[] = {".json", ".json.gz", ".gz", ".trace"};
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
		if (!trace_like(de->d_name))
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
	if (l->n == before)
		bad_path(bad, ctx, dir, "no trace files (*.json, *.json.gz, *.gz) in this directory",
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

/* ---- one rank ---- */

struct progress_ctx {
	const struct tt_load_opts *o;
	size_t file;
};

static void scan_progress(void *ctx, uint64_t text, uint64_t raw, uint64_t events)
{
	struct progress_ctx *p = ctx;
	p->o->progress(p->o->progress_ctx, p->file, text, raw, events, false);
}

int tt_rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		 const struct tt_load_opts *o, size_t file_index, struct tt_err *err)
{
	struct tt_reader *rd = NULL;
	int rc;
	*out = NULL;
	if (mem)
		rc = tt_reader_open_mem(&rd, path, mem, memlen, err);
	else if (strcmp(path, "-") == 0)
		rc = tt_reader_open_fd(&rd, dup(0), "(standard input)", err);
	else
		rc = tt_reader_open(&rd, path, err);
	if (rc)
		return rc;
	if (o && o->pipeline)
		tt_reader_set_threaded(rd, true);

	struct builder *b = builder_new(o ? o->max_memory : 0);
	struct tt_sink sink = {b, builder_event};
	struct tt_scan_opts so = {0};
	struct progress_ctx pc = {o, file_index};
	if (o) {
		so.no_fast = o->no_fast;
		so.verify = o->verify;
		so.max_events = o->max_events;
		if (o->progress) {
			so.progress = scan_progress;
			so.progress_ctx = &pc;
		}
	}
	struct tt_trace_meta meta = {0};
	struct tt_load_report rep = {0};
	rc = tt_scan(rd, &so, &sink, &meta, &rep, err);
	enum tt_compress comp = tt_reader_compression(rd);
	uint64_t size = tt_reader_size(rd);
	tt_reader_close(rd);
	if (rc) {
		tt_meta_free(&meta);
		builder_free(b);
		return rc;
	}
	struct tt_rank *r = builder_finish(b, &meta, &rep);
	builder_free(b);
	r->path = tt_strdup(path);
	const char *slash = strrchr(r->path, '/');
	r->file = slash ? slash + 1 : r->path;
	r->compression = comp;
	r->file_bytes = size ? size : memlen;
	r->name_rank = tt_rank_from_name(r->file);
	if (r->meta.has_rank) {
		r->rank = r->meta.rank;
		r->rank_src = TT_RANK_JSON;
		if (r->name_rank >= 0 && r->name_rank != r->rank)
			tt_report_warn(&r->report, TT_W_RANK_MISMATCH, 0);
	} else if (r->name_rank >= 0) {
		r->rank = r->name_rank;
		r->rank_src = TT_RANK_NAME;
		tt_report_warn(&r->report, TT_W_RANK_FROM_NAME, 0);
	} else {
		r->rank = -1;
		r->rank_src = TT_RANK_POSITION;
	}
	if (o && o->progress)
		o->progress(o->progress_ctx, file_index, r->report.bytes_total, r->file_bytes,
			    r->report.events_seen, true);
	*out = r;
	return 0;
}

/* ---- many ranks ---- */

struct job {
	char *const *files;
	const char *const *names;
	const void *const *data;
	const size_t *lens;
	size_t n;
	const struct tt_load_opts *o;
	atomic_size_t next;
	struct tt_rank **ranks;
	struct tt_err *errs;
	int *rcs;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		tt_err_clear(&j->errs[i]);
		if (j->data)
			j->rcs[i] = tt_rank_load(&j->ranks[i], j->names[i], j->data[i], j->lens[i],
						 j->o, i, &j->errs[i]);
		else
			j->rcs[i] = tt_rank_load(&j->ranks[i], j->files[i], NULL, 0, j->o, i,
						 &j->errs[i]);
	}
	return NULL;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct tt_rank *x = *(struct tt_rank *const *)a, *y = *(struct tt_rank *const *)b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->file, y->file);
}

static bool rank_used(struct tt_rank **v, size_t n, int64_t rank)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && v[i]->rank == rank)
			return true;
	return false;
}

static int load_all(struct tt_model **out, struct job *j)
{
	struct tt_model *m = tt_calloc(1, sizeof(*m));
	size_t n = j->n;
	j->ranks = tt_calloc(n + 1, sizeof(*j->ranks));
	j->errs = tt_calloc(n + 1, sizeof(*j->errs));
	j->rcs = tt_calloc(n + 1, sizeof(*j->rcs));
	atomic_init(&j->next, 0);
	int nthreads = j->o && j->o->threads > 0 ? j->o->threads : tt_ncpus();
	/* fewer files than cores: inflate gzip on a thread of its own */
	struct tt_load_opts o2 = {0};
	if (j->o)
		o2 = *j->o;
	o2.pipeline = nthreads > 1 && (size_t)nthreads > n;
	j->o = &o2;
	if ((size_t)nthreads > n)
		nthreads = (int)n;
	if (nthreads <= 1) {
		worker(j);
	} else {
		pthread_t *th = tt_calloc((size_t)nthreads, sizeof(*th));
		for (int i = 0; i < nthreads; i++)
			if (pthread_create(&th[i], NULL, worker, j) != 0)
				tt_die("cannot start a loader thread");
		for (int i = 0; i < nthreads; i++)
			pthread_join(th[i], NULL);
		free(th);
	}
	/* ranks from position: the lowest unused numbers, in file order */
	for (size_t i = 0; i < n; i++) {
		struct tt_rank *r = j->ranks[i];
		if (!r || r->rank >= 0)
			continue;
		int64_t k = 0;
		while (rank_used(j->ranks, n, k))
			k++;
		r->rank = k;
		tt_report_warn(&r->report, TT_W_NO_RANK, 0);
	}
	m->ranks = tt_calloc(n + 1, sizeof(*m->ranks));
	for (size_t i = 0; i < n; i++) {
		if (j->ranks[i]) {
			m->ranks[m->nranks++] = j->ranks[i];
		} else {
			m->failures = tt_realloc_array(m->failures, m->nfailures + 1,
						       sizeof(*m->failures));
			struct tt_load_failure *f = &m->failures[m->nfailures++];
			f->path = tt_strdup(j->data ? j->names[i] : j->files[i]);
			f->err = j->errs[i];
		}
	}
	qsort(m->ranks, m->nranks, sizeof(*m->ranks), rank_cmp);
	for (size_t i = 0; i < m->nranks; i++) {
		bool dup = (i > 0 && m->ranks[i]->rank == m->ranks[i - 1]->rank) ||
			   (i + 1 < m->nranks && m->ranks[i]->rank == m->ranks[i + 1]->rank);
		if (dup)
			tt_report_warn(&m->ranks[i]->report, TT_W_DUP_RANK, 0);
	}
	free(j->ranks);
	free(j->errs);
	free(j->rcs);
	*out = m;
	if (m->nranks == 0)
		return m->nfailures ? -(int)m->failures[0].err.code : -TT_E_NOTFOUND;
	return 0;
}

int tt_model_load(struct tt_model **out, char *const *files, size_t n,
		  const struct tt_load_opts *o)
{
	struct job j = {0};
	j.files = files;
	j.n = n;
	j.o = o;
	return load_all(out, &j);
}

int tt_model_load_mem(struct tt_model **out, const char *const *names, const void *const *data,
		      const size_t *lens, size_t n, const struct tt_load_opts *o)
{
	struct job j = {0};
	j.names = names;
	j.data = data;
	j.lens = lens;
	j.n = n;
	j.o = o;
	return load_all(out, &j);
}

void tt_model_free(struct tt_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nranks; i++)
		tt_rank_free(m->ranks[i]);
	free(m->ranks);
	for (size_t i = 0; i < m->nfailures; i++)
		free(m->failures[i].path);
	free(m->failures);
	free(m);
}
