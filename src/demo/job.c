/* The demo job's entry points: options, one rank's text, the rank files
 * (written on several threads) and the in-memory load. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "demo_int.h"
#include "tracetop/pool.h"
#include "tracetop/rewrite.h"
#include "tracetop/testing.h"

void tt_demo_defaults(struct tt_demo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nranks = 8;
	o->steps = 6;
	o->layers = 24;
	o->seed = 1;
	o->nstragglers = 1;
	o->stragglers[0] = 5;
}

void tt_demo_set_ranks(struct tt_demo_opts *o, int nranks)
{
	static const struct {
		int upto, steps, layers;
	} sizes[] = {{8, 6, 24}, {32, 5, 12}, {128, 4, 8}, {INT_MAX, 3, 6}};
	o->nranks = nranks;
	for (size_t i = 0; i < TT_ARRAY_SIZE(sizes); i++)
		if (nranks <= sizes[i].upto) {
			o->steps = sizes[i].steps;
			o->layers = sizes[i].layers;
			break;
		}
	memset(o->straggler_kind, 0, sizeof(o->straggler_kind));
	o->nstragglers = 1;
	o->stragglers[0] = nranks > 5 ? 5 : TT_MAX(nranks - 1, 0);
	o->straggler_kind[0] = TT_DEMO_SLOW_HOST;
	if (nranks >= 16) {
		o->stragglers[1] = nranks / 2 + 3;
		o->straggler_kind[1] = TT_DEMO_SLOW_GPU;
		o->stragglers[2] = nranks - 6;
		o->straggler_kind[2] = TT_DEMO_SLOW_LINK;
		o->nstragglers = 3;
	}
}

char *tt_demo_rank_json(const struct tt_demo_opts *o, int rank, size_t *len)
{
	struct tt_demo_opts def;
	if (!o) {
		tt_demo_defaults(&def);
		o = &def;
	}
	if (len)
		*len = 0;
	if (rank < 0 || rank >= TT_MIN(TT_MAX(o->nranks, 1), MAX_RANKS))
		return NULL;
	struct job j;
	demo_job_init(&j, o);
	demo_job_schedule(&j);
	size_t n;
	char *text = demo_rank_text(&j, rank, &n);
	demo_job_free(&j);
	if (len)
		*len = n;
	return text;
}

/* ---- files ---- */

static int mkdir_p(const char *dir, struct tt_err *err)
{
	char path[PATH_MAX];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof(path))
		return tt_err_set(err, TT_E_USAGE, dir, TT_NO_OFFSET, "bad directory name");
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET,
					  "cannot create directory: %s", strerror(errno));
		path[i] = c;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return tt_err_set(err, TT_E_IO, dir, TT_NO_OFFSET, "not a directory");
	return 0;
}

/* a rank file being written: where its text goes, piece by piece */
struct rank_file {
	struct tt_writer *w;
	struct tt_err *err;
};

static int rank_file_put(void *ctx, const char *p, size_t n)
{
	struct rank_file *f = ctx;
	return tt_writer_write(f->w, p, n, f->err);
}

/* one rank's file, plain or gzip by its name (io writes it), its text
 * written as it is made */
static int write_file(struct job *j, int rank, const char *path, struct tt_err *err)
{
	struct rank_file f = {.err = err};
	int rc = tt_writer_open(&f.w, path, err);
	if (rc)
		return rc;
	rc = demo_rank_write(j, rank, rank_file_put, &f);
	int rc2 = tt_writer_close(f.w, rc == 0, rc ? NULL : err);
	return rc ? rc : rc2;
}

/* the writers: each rank replayed on a copy of the job (the rank states
 * are shared, one slot per rank; nccl_free and e_end are the copy's own) */
struct writers {
	const struct job *job;
	const char *dir;
	bool gzip;
	atomic_bool failed;
	pthread_mutex_t lock;
	int rc;
	struct tt_err *err;
};

static void write_rank(size_t r, void *ctx)
{
	struct writers *w = ctx;
	if (atomic_load(&w->failed))
		return;
	struct job j = *w->job;
	char path[PATH_MAX];
	struct tt_err err;
	tt_err_clear(&err);
	int rc = 0;
	int n = snprintf(path, sizeof(path), "%s/rank-%zu.pt.trace.json%s", w->dir, r,
			 w->gzip ? ".gz" : "");
	if (n < 0 || (size_t)n >= sizeof(path)) {
		rc = tt_err_set(&err, TT_E_USAGE, w->dir, TT_NO_OFFSET, "path too long");
	} else {
		rc = write_file(&j, (int)r, path, &err);
	}
	if (rc) {
		pthread_mutex_lock(&w->lock);
		if (!w->rc) {
			w->rc = rc;
			*w->err = err;
		}
		pthread_mutex_unlock(&w->lock);
		atomic_store(&w->failed, true);
	}
}

int tt_demo_write_dir(const struct tt_demo_opts *o, const char *dir, bool gzip,
		      struct tt_err *err)
{
	struct tt_demo_opts def;
	if (!o) {
		tt_demo_defaults(&def);
		o = &def;
	}
	int rc = mkdir_p(dir, err);
	if (rc)
		return rc;
	/* one schedule for the job, then each rank alone */
	struct job j;
	demo_job_init(&j, o);
	demo_job_schedule(&j);
	struct writers w = {.job = &j, .dir = dir, .gzip = gzip, .err = err};
	atomic_init(&w.failed, false);
	pthread_mutex_init(&w.lock, NULL);
	tt_parallel_for((size_t)j.nranks, TT_MIN(tt_ncpus(), 16), write_rank, &w);
	pthread_mutex_destroy(&w.lock);
	demo_job_free(&j);
	return w.rc;
}

int tt_demo_load(const struct tt_demo_opts *o, const struct tt_load_opts *lo,
		 struct tt_model **out)
{
	int n = o->nranks;
	char **bufs = tt_calloc((size_t)n, sizeof(*bufs));
	char **names = tt_calloc((size_t)n, sizeof(*names));
	size_t *lens = tt_calloc((size_t)n, sizeof(*lens));
	char namebuf[64];
	for (int i = 0; i < n; i++) {
		bufs[i] = tt_demo_rank_json(o, i, &lens[i]);
		snprintf(namebuf, sizeof(namebuf), "demo/rank-%d.pt.trace.json", i);
		names[i] = tt_strdup(namebuf);
	}
	int rc = tt_model_load_mem(out, (const char *const *)names, (const void *const *)bufs, lens,
				   (size_t)n, lo);
	for (int i = 0; i < n; i++) {
		free(bufs[i]);
		free(names[i]);
	}
	free(bufs);
	free(names);
	free(lens);
	return rc;
}
