/* Runs, workers and profiling cycles: trace files grouped as PyTorch's
 * tensorboard_trace_handler writes them (include/tracetop/runs.h). */
#include "config.h"

#include "tracetop/runs.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model_int.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

/* ---- names ---- */

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t m = strlen(suf);
	return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* ns since the epoch of a number of `digits` digits, when it is a time
 * from 2000 to 2200 in s, ms, µs or ns; else -1 */
static int64_t stamp_ns(uint64_t v, size_t digits)
{
	static const int64_t lo_s = 946684800, hi_s = 7258118400; /* 2000, 2200 */
	int64_t mul;
	if (digits <= 10)
		mul = 1000000000;
	else if (digits <= 13)
		mul = 1000000;
	else if (digits <= 16)
		mul = 1000;
	else if (digits <= 19)
		mul = 1;
	else
		return -1;
	if (v / (uint64_t)(1000000000 / mul) < (uint64_t)lo_s ||
	    v / (uint64_t)(1000000000 / mul) >= (uint64_t)hi_s)
		return -1;
	return (int64_t)v * mul;
}

bool tt_handler_name(const char *name, char *worker, size_t n, uint64_t *num, int64_t *stamp)
{
	size_t len = strlen(name);
	*num = 0;
	*stamp = -1;
	if (ends_with(name, len, ".tts"))
		len -= 4;
	if (ends_with(name, len, ".gz"))
		len -= 3;
	if (!ends_with(name, len, ".pt.trace.json"))
		return false;
	len -= strlen(".pt.trace.json");
	/* {worker}.{digits} */
	size_t d = len;
	while (d > 0 && isdigit((unsigned char)name[d - 1]))
		d--;
	if (d == len || d < 2 || name[d - 1] != '.')
		return false;
	uint64_t v = 0;
	size_t digits = len - d;
	for (size_t i = d; i < len; i++) {
		if (v > (UINT64_MAX - 9) / 10) {
			v = UINT64_MAX;
			break;
		}
		v = v * 10 + (uint64_t)(name[i] - '0');
	}
	if (n)
		snprintf(worker, n, "%.*s", (int)(d - 1), name);
	*num = v;
	*stamp = v == UINT64_MAX ? -1 : stamp_ns(v, digits);
	return true;
}

/* ---- looking at a file ---- */

/* the base name of a path or URL */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s[1] ? s + 1 : p;
}

/* Plain JSON whose last bytes are not the end of a JSON text ('}' or ']'
 * after white space): cut, being written or truncated.  gzip and caches
 * are not judged here (their end is known only when read). */
static bool text_cut(const char *path, uint64_t size)
{
	if (size == 0)
		return true;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	unsigned char head[2], tail[64];
	bool cut = false;
	if (pread(fd, head, 2, 0) == 2 && !(head[0] == 0x1f && head[1] == 0x8b)) {
		size_t k = size < sizeof(tail) ? (size_t)size : sizeof(tail);
		ssize_t got = pread(fd, tail, k, (off_t)(size - k));
		if (got == (ssize_t)k) {
			size_t i = k;
			while (i > 0 && (tail[i - 1] == ' ' || tail[i - 1] == '\n' ||
					 tail[i - 1] == '\r' || tail[i - 1] == '\t' || tail[i - 1] == 0))
				i--;
			cut = i == 0 || (tail[i - 1] != '}' && tail[i - 1] != ']');
		}
	}
	close(fd);
	return cut;
}

/* prev: the same file as last looked at, or NULL (its end is not read
 * again when its size and time are the same) */
static void look_at(struct tt_tfile *f, const struct tt_tfile *prev)
{
	char w[256];
	const char *b = base_name(f->path);
	f->named = tt_handler_name(b, w, sizeof(w), &f->num, &f->stamp);
	if (f->named) {
		f->worker = tt_strdup(w);
	} else {
		/* the file is its own worker (a lone cache stands for its trace) */
		size_t len = strlen(b);
		if (ends_with(b, len, ".tts") && len > 4)
			len -= 4;
		f->worker = tt_strndup(b, len);
	}
	struct stat st;
	if (strcmp(f->path, "-") != 0 && stat(f->path, &st) == 0 && S_ISREG(st.st_mode)) {
		f->local = true;
		f->size = (uint64_t)st.st_size;
		f->mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
		size_t len = strlen(f->path);
		if (prev && prev->local && prev->size == f->size && prev->mtime == f->mtime)
			f->cut = prev->cut;
		else if (!ends_with(f->path, len, ".tts"))
			f->cut = text_cut(f->path, f->size);
	}
}

static int path_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_tfile *f = ctx;
	return strcmp(f[*(const size_t *)a].path, f[*(const size_t *)b].path);
}

struct find_ctx {
	const struct tt_tfile *f;
	const char *path;
};

static int find_cmp(const void *key, const void *b)
{
	const struct find_ctx *k = key;
	return strcmp(k->path, k->f[*(const size_t *)b].path);
}

/* ---- grouping ---- */

struct ord {
	size_t i;   /* file index */
	int64_t t;  /* the time (or order) that matches it */
};

static int name_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_tfile *f = ctx;
	const struct tt_tfile *x = &f[*(const size_t *)a], *y = &f[*(const size_t *)b];
	int c = strcmp(x->worker, y->worker);
	return c ? c : strcmp(x->path, y->path);
}

static int num_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_tfile *f = ctx;
	const struct tt_tfile *x = &f[*(const size_t *)a], *y = &f[*(const size_t *)b];
	if (x->wid != y->wid)
		return x->wid < y->wid ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int64_t file_time(const struct tt_tfile *f);

static int time_cmp(const void *a, const void *b, void *ctx)
{
	const struct tt_tfile *f = ctx;
	const struct tt_tfile *x = &f[*(const size_t *)a], *y = &f[*(const size_t *)b];
	if (x->wid != y->wid)
		return x->wid < y->wid ? -1 : 1;
	if (file_time(x) != file_time(y))
		return file_time(x) < file_time(y) ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int ord_cmp(const void *a, const void *b, void *ctx)
{
	const struct ord *x = a, *y = b;
	const struct tt_tfile *f = ctx;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (f[x->i].wid != f[y->i].wid)
		return f[x->i].wid < f[y->i].wid ? -1 : 1;
	return strcmp(f[x->i].path, f[y->i].path);
}

static int file_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct tt_tfile *x = a, *y = b;
	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	if (x->wid != y->wid)
		return x->wid < y->wid ? -1 : 1;
	return strcmp(x->path, y->path);
}

static size_t uf_find(size_t *p, size_t i)
{
	while (p[i] != i)
		i = p[i] = p[p[i]];
	return i;
}

/* a file's time for matching: its stamp, else its mtime */
static int64_t file_time(const struct tt_tfile *f)
{
	return f->stamp >= 0 ? f->stamp : f->mtime;
}

/* Group r's files into cycles (again, after r->files changed). */
static void tt_run_group(struct tt_run *r)
{
	size_t n = r->nfiles;
	free(r->cycles);
	r->cycles = NULL;
	r->ncycles = 0;
	r->nworkers = 0;
	r->cycled = false;
	r->newest = 0;
	r->bytes = 0;
	if (!n)
		return;
	/* workers: indices in name order */
	size_t *by = tt_malloc(n * sizeof(*by));
	for (size_t i = 0; i < n; i++)
		by[i] = i;
	tt_msort(by, n, sizeof(*by), name_cmp, r->files);
	size_t nw = 0;
	for (size_t k = 0; k < n; k++) {
		if (k && strcmp(r->files[by[k]].worker, r->files[by[k - 1]].worker) != 0)
			nw++;
		r->files[by[k]].wid = (uint32_t)nw;
	}
	nw++;
	r->nworkers = nw;
	/* does any file name a cycle? */
	bool timed = false, several = false, untimed = false;
	for (size_t k = 0; k < n; k++) {
		const struct tt_tfile *f = &r->files[by[k]];
		if (f->named && f->stamp >= 0)
			timed = true;
		if (f->named && f->stamp < 0)
			untimed = true;
		/* (two files of one name, x.json and x.json.gz, are a clash) */
		if (k && f->named && f->wid == r->files[by[k - 1]].wid &&
		    f->num != r->files[by[k - 1]].num)
			several = true;
	}
	r->cycled = timed || several;
	struct ord *o = tt_malloc(n * sizeof(*o));
	for (size_t i = 0; i < n; i++)
		o[i] = (struct ord){i, 0};
	if (!r->cycled) {
		/* one cycle of every file */
		for (size_t i = 0; i < n; i++)
			r->files[i].cycle = 0;
		r->ncycles = 1;
	} else if (untimed || !timed) {
		/* numbers that are no time: the k-th file of each worker in the
		 * order of their numbers is cycle k (the TensorBoard plugin's way);
		 * by is in worker order */
		tt_msort(by, n, sizeof(*by), num_cmp, r->files);
		for (size_t k = 0; k < n; k++) {
			bool same = k && r->files[by[k]].wid == r->files[by[k - 1]].wid;
			r->files[by[k]].cycle = same ? r->files[by[k - 1]].cycle + 1 : 0;
		}
		size_t nc = 0;
		for (size_t i = 0; i < n; i++)
			nc = TT_MAX(nc, (size_t)r->files[i].cycle + 1);
		r->ncycles = nc;
	} else {
		/* by time: a cycle's files lie within half the shortest gap
		 * between two files of one worker, and hold one stamp a worker */
		int64_t gap = INT64_MAX;
		for (size_t i = 0; i < n; i++)
			o[i].t = file_time(&r->files[i]);
		tt_msort(by, n, sizeof(*by), time_cmp, r->files);
		for (size_t k = 1; k < n; k++) {
			const struct tt_tfile *f = &r->files[by[k]], *g = &r->files[by[k - 1]];
			if (f->wid != g->wid)
				continue;
			int64_t d = file_time(f) - file_time(g);
			if (d > 0 && d < gap)
				gap = d;
		}
		/* (no worker with two: files of one cycle within a minute) */
		int64_t window = gap == INT64_MAX ? INT64_C(60000000000) : gap / 2;
		tt_msort(o, n, sizeof(*o), ord_cmp, r->files);
		/* the cycle and stamp each worker was last seen in */
		size_t *seen = tt_malloc(nw * sizeof(*seen));
		int64_t *seen_t = tt_malloc(nw * sizeof(*seen_t));
		for (size_t w = 0; w < nw; w++)
			seen[w] = SIZE_MAX;
		size_t c = 0;
		int64_t start = o[0].t;
		for (size_t k = 0; k < n; k++) {
			struct tt_tfile *f = &r->files[o[k].i];
			bool again = seen[f->wid] == c && seen_t[f->wid] != o[k].t;
			if (k && (again || o[k].t - start > window)) {
				c++;
				start = o[k].t;
			}
			f->cycle = (uint32_t)c;
			seen[f->wid] = c;
			seen_t[f->wid] = o[k].t;
		}
		free(seen);
		free(seen_t);
		r->ncycles = c + 1;
	}
	free(o);
	free(by);
	/* files in cycle, worker order (one cycle: in the order given, as
	 * ranks without a number are numbered in file order); each cycle's
	 * range and figures */
	if (r->cycled)
		tt_msort(r->files, n, sizeof(*r->files), file_cmp, NULL);
	r->cycles = tt_calloc(r->ncycles, sizeof(*r->cycles));
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	for (size_t i = 0; i < n; i++) {
		const struct tt_tfile *f = &r->files[i];
		struct tt_cycle *cy = &r->cycles[f->cycle];
		if (!cy->nfiles)
			cy->first = i;
		cy->nfiles++;
		if (cy->nfiles == 1 || f->wid != r->files[i - 1].wid)
			cy->nworkers++;
		if (!r->cycled)
			cy->nworkers = nw;
		cy->bytes += f->size;
		r->bytes += f->size;
		if (f->cut) {
			cy->ncut++;
			if (f->mtime > now - (int64_t)TT_WRITING_RECENT_S * 1000000000)
				cy->nwriting++;
		}
		if (f->stamp >= 0 && f->stamp > cy->time)
			cy->time = f->stamp;
		if (f->mtime > cy->mtime)
			cy->mtime = f->mtime;
	}
	/* cycles linked by a worker they share: each one expects as many
	 * workers as the fullest of its group (a restarted job's new pids
	 * make a group of their own) */
	size_t nc = r->ncycles;
	size_t *uf = tt_malloc(nc * sizeof(*uf));
	for (size_t c = 0; c < nc; c++)
		uf[c] = c;
	size_t *last = tt_malloc(nw * sizeof(*last));
	for (size_t w = 0; w < nw; w++)
		last[w] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct tt_tfile *f = &r->files[i];
		if (last[f->wid] != SIZE_MAX) {
			size_t a = uf_find(uf, last[f->wid]), b = uf_find(uf, f->cycle);
			if (a != b)
				uf[a] = b;
		}
		last[f->wid] = f->cycle;
	}
	size_t *most = tt_calloc(nc, sizeof(*most));
	for (size_t c = 0; c < nc; c++) {
		size_t g = uf_find(uf, c);
		most[g] = TT_MAX(most[g], r->cycles[c].nworkers);
	}
	for (size_t c = 0; c < nc; c++) {
		struct tt_cycle *cy = &r->cycles[c];
		cy->expected = most[uf_find(uf, c)];
		if (!cy->time)
			cy->time = cy->mtime;
	}
	free(most);
	free(last);
	free(uf);
	r->newest = r->cycles[nc - 1].time;
	for (size_t c = 0; c < nc; c++)
		r->newest = TT_MAX(r->newest, r->cycles[c].time);
}

/* a run of paths; prev: the same run as last looked at, or NULL */
static struct tt_run *run_new(const char *name, const char *dir, char *const *paths, size_t n,
			      const struct tt_run *prev)
{
	struct tt_run *r = tt_calloc(1, sizeof(*r));
	r->name = tt_strdup(name ? name : "");
	r->dir = dir ? tt_strdup(dir) : NULL;
	r->files = tt_calloc(n ? n : 1, sizeof(*r->files));
	r->nfiles = n;
	size_t *ix = NULL, np = prev ? prev->nfiles : 0;
	if (np) {
		ix = tt_malloc(np * sizeof(*ix));
		for (size_t i = 0; i < np; i++)
			ix[i] = i;
		tt_msort(ix, np, sizeof(*ix), path_cmp, prev->files);
	}
	for (size_t i = 0; i < n; i++) {
		r->files[i].path = tt_strdup(paths[i]);
		struct find_ctx k = {np ? prev->files : NULL, paths[i]};
		const size_t *hit = np ? bsearch(&k, ix, np, sizeof(*ix), find_cmp) : NULL;
		look_at(&r->files[i], hit ? &prev->files[*hit] : NULL);
	}
	free(ix);
	tt_run_group(r);
	return r;
}

struct tt_run *tt_run_new(const char *name, const char *dir, char *const *paths, size_t n)
{
	return run_new(name, dir, paths, n, NULL);
}

void tt_run_free(struct tt_run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].path);
		free(r->files[i].worker);
	}
	free(r->files);
	free(r->cycles);
	free(r->name);
	free(r->dir);
	free(r);
}

size_t tt_run_cycle_paths(const struct tt_run *r, size_t c, const char ***out)
{
	const struct tt_cycle *cy = &r->cycles[c];
	const char **v = tt_calloc(cy->nfiles + 1, sizeof(*v));
	for (size_t i = 0; i < cy->nfiles; i++)
		v[i] = r->files[cy->first + i].path;
	*out = v;
	return cy->nfiles;
}

bool tt_cycle_complete(const struct tt_cycle *c)
{
	return c->nworkers >= c->expected && !c->nwriting;
}

size_t tt_run_newest_complete(const struct tt_run *r)
{
	for (size_t c = r->ncycles; c-- > 0;)
		if (tt_cycle_complete(&r->cycles[c]))
			return c;
	return r->ncycles ? r->ncycles - 1 : 0;
}

size_t tt_run_cycle_at(const struct tt_run *r, int64_t t)
{
	for (size_t c = 0; c < r->ncycles; c++)
		if (r->cycles[c].time == t)
			return c;
	return SIZE_MAX;
}

void tt_run_missing(const struct tt_run *r, size_t c, char *buf, size_t n)
{
	buf[0] = '\0';
	if (c >= r->ncycles || r->cycles[c].nworkers >= r->cycles[c].expected)
		return;
	/* the workers of the cycles around it that it lacks */
	bool *in = tt_calloc(r->nworkers, sizeof(*in));
	bool *near = tt_calloc(r->nworkers, sizeof(*near));
	const char **name = tt_calloc(r->nworkers, sizeof(*name));
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct tt_tfile *f = &r->files[i];
		name[f->wid] = f->worker;
		if (f->cycle == c)
			in[f->wid] = true;
		else if (f->cycle + 1 == c || f->cycle == c + 1)
			near[f->wid] = true;
	}
	size_t k = 0, shown = 0, len = 0;
	for (size_t w = 0; w < r->nworkers; w++) {
		if (in[w] || !near[w])
			continue;
		if (shown < 3 && len + strlen(name[w]) + 16 < n) {
			len += (size_t)snprintf(buf + len, n - len, "%s%s", shown ? ", " : "", name[w]);
			shown++;
		}
		k++;
	}
	if (k > shown && len + 24 < n)
		snprintf(buf + len, n - len, " and %zu more", k - shown);
	free(in);
	free(near);
	free(name);
}

/* ---- log directories ---- */

#define LOGDIR_DEPTH 4       /* folders below the log directory looked into */
#define LOGDIR_FOLDERS 4096  /* folders looked into at most */

struct walk {
	const char *root;
	struct tt_logdir *d;
	const struct tt_logdir *prev; /* the same directory as last looked at, or NULL */
	size_t folders;
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_cmp(const void *a, const void *b)
{
	return strcmp((*(struct tt_run *const *)a)->name, (*(struct tt_run *const *)b)->name);
}

/* the trace files of folder dir (X.tts beside X left out, as a folder's
 * listing does), sorted; its subfolders into *subs */
static size_t list_folder(const char *dir, char ***files, char ***subs, size_t *nsubs)
{
	*files = NULL;
	*subs = NULL;
	*nsubs = 0;
	DIR *dd = opendir(dir);
	if (!dd)
		return 0;
	size_t n = 0, cap = 0, scap = 0;
	struct dirent *de;
	while ((de = readdir(dd)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		char *p = tt_malloc(len);
		snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		/* (the kind from the listing where it says: one stat less a file) */
		struct stat st;
		if (de->d_type == DT_REG) {
			st.st_mode = S_IFREG;
		} else if (de->d_type == DT_DIR) {
			st.st_mode = S_IFDIR;
		} else if (stat(p, &st) != 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			TT_GROW(*subs, scap, *nsubs + 1);
			(*subs)[(*nsubs)++] = p;
		} else if (S_ISREG(st.st_mode) && tt_trace_like(de->d_name)) {
			TT_GROW(*files, cap, n + 1);
			(*files)[n++] = p;
		} else {
			free(p);
		}
	}
	closedir(dd);
	if (n)
		qsort(*files, n, sizeof(**files), str_cmp);
	if (*nsubs)
		qsort(*subs, *nsubs, sizeof(**subs), str_cmp);
	/* X.tts beside X: X stands for both */
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen((*files)[i]);
		bool shadowed = false;
		if (ends_with((*files)[i], len, ".tts"))
			for (size_t j = 0; j < n && !shadowed; j++)
				shadowed = strlen((*files)[j]) == len - 4 &&
					   strncmp((*files)[j], (*files)[i], len - 4) == 0;
		if (shadowed)
			free((*files)[i]);
		else
			(*files)[w++] = (*files)[i];
	}
	return w;
}

/* run `name` of d (sorted by name), or NULL */
static const struct tt_run *prev_run(const struct tt_logdir *d, const char *name)
{
	size_t lo = 0, hi = d ? d->nruns : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->runs[mid]->name, name);
		if (c == 0)
			return d->runs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void walk(struct walk *wk, const char *dir, int depth)
{
	if (wk->folders++ >= LOGDIR_FOLDERS)
		return;
	char **files, **subs;
	size_t nsubs;
	size_t n = list_folder(dir, &files, &subs, &nsubs);
	if (n && depth > 0) {
		const char *rel = dir + strlen(wk->root);
		while (*rel == '/')
			rel++;
		struct tt_logdir *d = wk->d;
		d->runs = tt_realloc_array(d->runs, d->nruns + 1, sizeof(*d->runs));
		d->runs[d->nruns++] = run_new(rel, dir, files, n, prev_run(wk->prev, rel));
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	/* a folder with traces of its own is one run at the top; below it,
	 * its subfolders are runs of their own too (TensorBoard's way) */
	for (size_t i = 0; i < nsubs; i++) {
		if (depth < LOGDIR_DEPTH && !(depth == 0 && n))
			walk(wk, subs[i], depth + 1);
		free(subs[i]);
	}
	free(subs);
}

static struct tt_run *open_dir(const char *name, const char *dir, const struct tt_run *prev);

struct tt_run *tt_run_reread(const struct tt_run *r)
{
	return r->dir ? open_dir(r->name, r->dir, r) : NULL;
}

struct tt_run *tt_run_open_dir(const char *name, const char *dir)
{
	return open_dir(name, dir, NULL);
}

static struct tt_run *open_dir(const char *name, const char *dir, const struct tt_run *prev)
{
	char **files, **subs;
	size_t nsubs;
	size_t n = list_folder(dir, &files, &subs, &nsubs);
	struct tt_run *nr = run_new(name, dir, files, n, prev);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	for (size_t i = 0; i < nsubs; i++)
		free(subs[i]);
	free(subs);
	return nr;
}

static bool logdir_scan(const char *path, const struct tt_logdir *prev, struct tt_logdir **out);

bool tt_logdir_scan(const char *path, struct tt_logdir **out)
{
	return logdir_scan(path, NULL, out);
}

struct tt_logdir *tt_logdir_rescan(const struct tt_logdir *d)
{
	struct tt_logdir *nd;
	return logdir_scan(d->path, d, &nd) ? nd : NULL;
}

static bool logdir_scan(const char *path, const struct tt_logdir *prev, struct tt_logdir **out)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	struct tt_logdir *d = tt_calloc(1, sizeof(*d));
	d->path = tt_strdup(path);
	struct walk wk = {path, d, prev, 0};
	walk(&wk, path, 0);
	if (!d->nruns) {
		tt_logdir_free(d);
		return false;
	}
	qsort(d->runs, d->nruns, sizeof(*d->runs), run_cmp);
	*out = d;
	return true;
}

void tt_logdir_free(struct tt_logdir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nruns; i++)
		tt_run_free(d->runs[i]);
	free(d->runs);
	free(d->path);
	free(d);
}

size_t tt_logdir_find(const struct tt_logdir *d, const char *name, bool *several)
{
	*several = false;
	size_t len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		len--;
	size_t hit = SIZE_MAX, nhit = 0;
	for (size_t i = 0; i < d->nruns; i++) {
		if (strlen(d->runs[i]->name) == len && strncmp(d->runs[i]->name, name, len) == 0)
			return i;
		if (strncmp(d->runs[i]->name, name, len) == 0) {
			hit = i;
			nhit++;
		}
	}
	*several = nhit > 1;
	return nhit == 1 ? hit : SIZE_MAX;
}

/* ---- a loaded cycle ---- */

int tt_run_load(const struct tt_run *r, size_t c, const struct tt_load_opts *o,
		struct tt_model **out)
{
	const char **paths;
	size_t n = tt_run_cycle_paths(r, c, &paths);
	int rc = tt_model_load(out, (char *const *)paths, n, o);
	free(paths);
	struct tt_model *m = *out;
	if (r->cycled) {
		m->cycle = (int)c + 1;
		m->ncycles = (int)r->ncycles;
		m->cycle_time = r->cycles[c].time;
	}
	return rc;
}

bool tt_model_writing(const struct tt_model *m, int64_t now, int recent_s)
{
	int64_t recent = (int64_t)recent_s * 1000000000;
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		if (!r->report.count[TT_W_TRUNCATED] && !r->report.count[TT_W_MISSING_BRACKET])
			continue;
		struct stat st;
		if (stat(r->path, &st) == 0 &&
		    now - ((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec) < recent)
			return true;
	}
	for (size_t i = 0; i < m->nfailures; i++) {
		/* (a file that ends early, or too early to tell what it is) */
		const struct tt_load_failure *f = &m->failures[i];
		struct stat st;
		if (stat(f->path, &st) != 0 ||
		    !(f->err.code == TT_E_EMPTY || f->err.code == TT_E_TRUNCATED || st.st_size < 16))
			continue;
		if (now - ((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec) < recent)
			return true;
	}
	return false;
}

/* the ProfilerStep numbers of a rank: its names "ProfilerStep#N" (interned
 * once each, so a pass over the names, not the events) */
static bool rank_steps(const struct tt_rank *r, int64_t *lo, int64_t *hi)
{
	bool any = false;
	for (uint32_t id = 0; id < r->strs.n; id++) {
		const char *s = r->strs.str[id];
		if (strncmp(s, "ProfilerStep#", 13) != 0 || !isdigit((unsigned char)s[13]))
			continue;
		char *end;
		long long v = strtoll(s + 13, &end, 10);
		if (*end)
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

bool tt_model_steps(const struct tt_model *m, int64_t *lo, int64_t *hi, bool *agree)
{
	bool any = false;
	*agree = true;
	int64_t cl = 0, ch = 0; /* the numbers every rank so far shares */
	bool shared = true;
	for (size_t i = 0; i < m->nranks; i++) {
		int64_t a = 0, b = 0;
		if (!rank_steps(m->ranks[i], &a, &b))
			continue;
		if (!any) {
			*lo = cl = a;
			*hi = ch = b;
		} else {
			*lo = TT_MIN(*lo, a);
			*hi = TT_MAX(*hi, b);
			cl = TT_MAX(cl, a);
			ch = TT_MIN(ch, b);
			if (cl > ch)
				shared = false;
		}
		any = true;
	}
	*agree = shared;
	return any;
}

void tt_fmt_walltime(char *buf, size_t n, int64_t ns, bool date)
{
	if (!ns) {
		snprintf(buf, n, "%s", "");
		return;
	}
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;
	if (!localtime_r(&t, &tm)) {
		snprintf(buf, n, "%s", "");
		return;
	}
	strftime(buf, n, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
}

void tt_cycle_text(char *buf, size_t n, int idx, int ncycles, int64_t time,
		   const struct tt_model *m)
{
	char when[40], steps[80] = "";
	tt_fmt_walltime(when, sizeof(when), time, false);
	int64_t lo, hi;
	bool agree;
	if (m && tt_model_steps(m, &lo, &hi, &agree)) {
		if (lo == hi)
			snprintf(steps, sizeof(steps), "step %lld", (long long)lo);
		else
			snprintf(steps, sizeof(steps), "steps %lld-%lld", (long long)lo, (long long)hi);
		if (!agree)
			snprintf(steps + strlen(steps), sizeof(steps) - strlen(steps),
				 ", ranks disagree");
	}
	if (when[0] || steps[0])
		snprintf(buf, n, "cycle %d of %d (%s%s%s)", idx, ncycles, when,
			 when[0] && steps[0] ? ", " : "", steps);
	else
		snprintf(buf, n, "cycle %d of %d", idx, ncycles);
}

void tt_model_cycle_text(const struct tt_model *m, char *buf, size_t n)
{
	buf[0] = '\0';
	if (m && m->cycle)
		tt_cycle_text(buf, n, m->cycle, m->ncycles, m->cycle_time, m);
}
