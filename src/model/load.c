/* Loading: files -> ranks, on a pool of threads (one file each); a large
 * plain file is split across threads (load_split.c), a gzip file inflated
 * on one and parsed on all (load_gz.c). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_int.h"
#include "load_int.h"
#include "model_int.h"
#include "tracetop/pool.h"
#include "tracetop/util.h"

#define SPLIT_MIN_DEFAULT ((uint64_t)48 << 20)

/* ---- one rank ---- */

static void finish_rank(struct tt_rank *r, const char *path, uint64_t size, size_t memlen,
			enum tt_compress comp, const struct tt_load_opts *o, size_t file_index);
static int rank_read(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		     const struct tt_load_opts *o, size_t file_index, struct tt_reader *rd,
		     int sfd, struct tt_err *err);

/* a rank read from a cache: its own path, and a position rank assigned anew */
static void cached_rank(struct tt_rank *r, const char *path, const struct tt_load_opts *o,
			size_t file_index)
{
	free(r->path);
	r->path = tt_strdup(path);
	const char *slash = strrchr(r->path, '/');
	r->file = slash ? slash + 1 : r->path;
	if (r->rank_src == TT_RANK_POSITION)
		r->rank = -1;
	if (o && o->progress)
		o->progress(o->progress_ctx, file_index, r->report.bytes_total, r->file_bytes,
			    r->report.events_seen, true);
}

struct progress_ctx {
	const struct tt_load_opts *o;
	size_t file;
};

static void scan_progress(void *ctx, uint64_t text, uint64_t raw, uint64_t events)
{
	struct progress_ctx *p = ctx;
	p->o->progress(p->o->progress_ctx, p->file, text, raw, events, false);
}

static int rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		     const struct tt_load_opts *o, size_t file_index, struct tt_err *err);

/* "1.04 MB", "12.5 MB", "3072 MB" */
static const char *mbytes(char *buf, size_t n, double bytes)
{
	double mb = bytes / 1048576.0;
	snprintf(buf, n, "%.*f MB", mb >= 100 ? 0 : mb >= 10 ? 1 : 2, mb);
	return buf;
}

/* The memory budget holds for the whole model: every rank loaded stays
 * counted (tt_mem_keep) until it is freed, so a file that would take the
 * ranks kept before it past the budget fails; the files still loading
 * beside it do not count here (they are bounded as they grow, build.c),
 * so a small file is not refused for a big one's sake. */
int tt_rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		 const struct tt_load_opts *o, size_t file_index, struct tt_err *err)
{
	int rc = rank_load(out, path, mem, memlen, o, file_index, err);
	if (rc)
		return rc;
	struct tt_rank *r = *out;
	rank_account(r);
	if (o && o->max_memory && (uint64_t)tt_mem_kept() > o->max_memory) {
		char budget[32], used[32];
		rc = tt_err_set(err, TT_E_LIMIT, path, TT_NO_OFFSET,
				"the model needs more than the memory budget of %s (--max-memory): "
				"%s in use with this file",
				mbytes(budget, sizeof(budget), (double)o->max_memory),
				mbytes(used, sizeof(used), (double)tt_mem_kept()));
		tt_rank_free(r);
		*out = NULL;
	}
	return rc;
}

static int rank_load(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		     const struct tt_load_opts *o, size_t file_index, struct tt_err *err)
{
	struct tt_reader *rd = NULL;
	int rc;
	*out = NULL;
	if (!mem && tt_cache_is(path)) {
		struct tt_rank *r;
		rc = tt_rank_open_cache(&r, path, err);
		if (rc)
			return rc;
		cached_rank(r, path, o, file_index);
		*out = r;
		return 0;
	}
	char cpath[4200];
	if (!mem && !(o && o->no_cache) && strcmp(path, "-") != 0 &&
	    tt_cache_for(path, cpath, sizeof(cpath))) {
		struct tt_rank *r;
		struct tt_err cerr;
		if (tt_rank_open_cache(&r, cpath, &cerr) == 0) {
			cached_rank(r, path, o, file_index);
			*out = r;
			return 0;
		}
		/* a bad cache beside its trace: parse the trace instead */
	}
	if (mem)
		rc = tt_reader_open_mem(&rd, path, mem, memlen, err);
	else if (strcmp(path, "-") == 0)
		rc = tt_reader_open_fd(&rd, dup(0), "(standard input)", err);
	else if (tt_remote_is(path))
		rc = tt_reader_open_remote(&rd, path, err);
	else
		rc = tt_reader_open(&rd, path, err);
	if (rc)
		return rc;
	/* every byte is read from this one descriptor (the splitting paths
	 * read duplicates of it, never the path again), whose identity is
	 * taken now and when the read is done: a cache written from the rank
	 * says which bytes it was made from, or is refused when they changed */
	struct src_id id0, id1;
	int sfd = -1;
	if (!mem && strcmp(path, "-") != 0 && !tt_remote_is(path)) {
		sfd = fcntl(tt_reader_fd(rd), F_DUPFD_CLOEXEC, 0);
		if (!src_id_take(sfd, &id0) && sfd >= 0) {
			close(sfd);
			sfd = -1;
		}
	}
	rc = rank_read(out, path, mem, memlen, o, file_index, rd, sfd, err);
	if (!rc && *out)
		src_id_keep(*out, sfd >= 0 ? &id0 : NULL,
			    sfd >= 0 && src_id_take(sfd, &id1) ? &id1 : NULL);
	if (sfd >= 0)
		close(sfd);
	return rc;
}

/* a new reader on a duplicate of the descriptor the load reads, or (no
 * such descriptor: not a regular file) on the path */
static int reopen(struct tt_reader **rd, const char *path, int sfd, struct tt_err *err)
{
	if (sfd < 0)
		return tt_reader_open(rd, path, err);
	return tt_reader_open_fd(rd, fcntl(sfd, F_DUPFD_CLOEXEC, 0), path, err);
}

/* The rest of rank_load: the text of rd (a file's: sfd reads it too) into
 * *out. */
static int rank_read(struct tt_rank **out, const char *path, const void *mem, size_t memlen,
		     const struct tt_load_opts *o, size_t file_index, struct tt_reader *rd,
		     int sfd, struct tt_err *err)
{
	int rc;
	int nthreads = o && o->threads > 0 ? o->threads : tt_ncpus();
	uint64_t split_min = o && o->split_min ? o->split_min : SPLIT_MIN_DEFAULT;
	/* (--max-events counts the events of the whole file: no split) */
	if (!mem && o && o->pipeline && !o->no_split && !o->max_events && nthreads > 1 &&
	    tt_reader_compression(rd) == TT_COMP_NONE && tt_reader_size(rd) >= split_min) {
		uint64_t size = tt_reader_size(rd);
		tt_reader_close(rd);
		struct tt_rank *r = NULL;
		rc = load_split(&r, path, sfd, size, nthreads > MAX_PARTS ? MAX_PARTS : nthreads, o,
				err);
		if (rc <= 0) {
			if (rc == 0)
				finish_rank(r, path, size, 0, TT_COMP_NONE, o, file_index);
			*out = r;
			return rc;
		}
		/* not splittable: read it whole */
		rc = reopen(&rd, path, sfd, err);
		if (rc)
			return rc;
	}
	/* (a memory budget is checked as the one builder grows: no split) */
	if (!mem && o && o->pipeline && !o->no_split && !o->max_events && !o->max_memory &&
	    nthreads > 1 && tt_reader_compression(rd) == TT_COMP_GZIP && strcmp(path, "-") != 0 &&
	    !tt_remote_is(path)) {
		struct tt_rank *r = NULL;
		uint64_t size = tt_reader_size(rd), text = 0;
		rc = load_gz_split(&r, rd, path, nthreads > MAX_PARTS ? MAX_PARTS : nthreads, o,
				   &text);
		tt_reader_close(rd);
		if (rc == 0) {
			finish_rank(r, path, size, 0, TT_COMP_GZIP, o, file_index);
			*out = r;
			return 0;
		}
		/* something unusual: read it the ordinary way */
		rc = reopen(&rd, path, sfd, err);
		if (rc)
			return rc;
	}
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
	int64_t used0 = tt_mem_used(); /* (the ranks loaded before this file) */
	rc = tt_scan(rd, &so, &sink, &meta, &rep, err);
	enum tt_compress comp = tt_reader_compression(rd);
	uint64_t size = tt_reader_size(rd);
	if (rc == -TT_E_LIMIT && err && strstr(err->msg, "(--max-memory)") &&
	    comp == TT_COMP_NONE && err->offset && err->offset < size) {
		/* what the whole file would need, in proportion to what was read */
		size_t k = strlen(err->msg);
		double need = (double)(tt_mem_used() - used0) * (double)size / (double)err->offset;
		snprintf(err->msg + k, sizeof(err->msg) - k, ", about %.0f MB for the whole file",
			 need / 1048576.0);
	}
	tt_reader_close(rd);
	if (rc) {
		tt_meta_free(&meta);
		builder_free(b);
		return rc;
	}
	/* alone on the machine (o->pipeline): finish on all threads */
	b->fin_threads = o && o->pipeline ? nthreads : 1;
	struct tt_rank *r = builder_finish(b, &meta, &rep);
	builder_free(b);
	finish_rank(r, path, size, memlen, comp, o, file_index);
	*out = r;
	return 0;
}

/* naming, rank number, and the last progress call of a loaded rank */
static void finish_rank(struct tt_rank *r, const char *path, uint64_t size, size_t memlen,
			enum tt_compress comp, const struct tt_load_opts *o, size_t file_index)
{
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
}

/* ---- many ranks ---- */

struct job {
	char *const *files;
	const char *const *names;
	const void *const *data;
	const size_t *lens;
	size_t n;
	const struct tt_load_opts *user; /* the caller's options, or NULL */
	struct tt_load_opts o;           /* the options each file is loaded with */
	struct tt_rank **ranks;
	struct tt_err *errs;
	int *rcs;
};

static void load_one(size_t i, void *ctx)
{
	struct job *j = ctx;
	tt_err_clear(&j->errs[i]);
	if (j->data)
		j->rcs[i] = tt_rank_load(&j->ranks[i], j->names[i], j->data[i], j->lens[i], &j->o, i,
					 &j->errs[i]);
	else
		j->rcs[i] = tt_rank_load(&j->ranks[i], j->files[i], NULL, 0, &j->o, i, &j->errs[i]);
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
	int nthreads = j->user && j->user->threads > 0 ? j->user->threads : tt_ncpus();
	/* fewer files than cores: inflate gzip on a thread of its own (the
	 * options live in the job, as long as the threads that read them) */
	memset(&j->o, 0, sizeof(j->o));
	if (j->user)
		j->o = *j->user;
	j->o.pipeline = nthreads > 1 && (size_t)nthreads > n;
	j->o.threads = nthreads;
	tt_parallel_for(n, nthreads, load_one, j);
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
	j.user = o;
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
	j.user = o;
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
	free(m->run);
	free(m);
}
