/* Where the traces come from: a run or a log directory of runs, the cycle
 * open, and following a running job (include/tracetop/input.h). */
#include "config.h"

#include "tracetop/input.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tracetop/pool.h"
#include "tracetop/util.h"
#include "tracetop/watch.h"

/* what a followed file looked like, and when it last changed */
struct fstate {
	char *path;
	uint64_t size;
	int64_t mtime;
	int64_t changed; /* monotonic ns when a change was first seen */
};

/* a cycle loading on a thread of its own */
struct bg {
	pthread_t th;
	bool running;
	int done; /* set by the thread (__atomic) */
	char **paths;
	size_t n;
	struct tt_load_opts o;
	struct tt_model *m;
	int64_t time;
	uint64_t sig;
	bool accept_cut;
	int cycle, ncycles;
	char *run;
};

struct tt_input {
	char **paths; /* as given: expanded again when following */
	size_t npaths;
	struct tt_logdir *logdir;
	struct tt_run *run; /* the logdir's runs[run_i], or its own */
	size_t run_i;
	/* following */
	bool follow, poll_only;
	bool runs_shown; /* the log directory's runs are in view: every run followed */
	struct tt_load_opts fo;
	struct tt_watch *watch;
	int poll_ms;     /* between two looks */
	int64_t next_ns; /* monotonic: the next look */
	struct fstate *fs;
	size_t nfs;
	int64_t seen;    /* cycles up to this time are not new */
	struct bg bg;
	struct tt_model *ready;
	int64_t cut_time; /* a cycle that loaded cut: its time, files, since when */
	uint64_t cut_sig;
	int64_t cut_since;
	void (*before)(void *ctx, char *const *paths, size_t n);
	void *before_ctx;
	struct tt_load_opts lo; /* when tt_input_load gets none */
	/* the ProfilerStep numbers of the open run's cycles loaded so far, by
	 * cycle time (one entry per cycle: bounded by the run's cycles) */
	struct csteps {
		int64_t time, lo, hi;
	} *steps;
	size_t nsteps, capsteps;
};

static int64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* the open run made again from the paths given (a folder listed again) */
static struct tt_run *reread(struct tt_input *s)
{
	struct tt_run *r = s->run ? tt_run_reread(s->run) : NULL;
	if (r)
		return r;
	char **files;
	size_t nbad;
	size_t n = tt_expand_paths((const char *const *)s->paths, s->npaths, &files, &nbad, NULL,
				   NULL);
	r = tt_run_new(s->run ? s->run->name : "", NULL, files, n);
	tt_paths_free(files, n);
	return r;
}

struct tt_input *tt_input_new(const char *const *paths, size_t n, size_t *nbad,
			      void (*bad)(void *ctx, const struct tt_err *e), void *ctx)
{
	*nbad = 0;
	struct tt_input *s = tt_calloc(1, sizeof(*s));
	s->paths = tt_calloc(n + 1, sizeof(*s->paths));
	s->npaths = n;
	for (size_t i = 0; i < n; i++)
		s->paths[i] = tt_strdup(paths[i]);
	s->run_i = SIZE_MAX;
	s->poll_ms = TT_FOLLOW_POLL_MS;
	if (n == 1 && tt_logdir_scan(paths[0], &s->logdir)) {
		/* one run: no choice to make */
		if (s->logdir->nruns == 1) {
			s->run_i = 0;
			s->run = s->logdir->runs[0];
		}
		return s;
	}
	char **files;
	size_t nf = tt_expand_paths(paths, n, &files, nbad, bad, ctx);
	if (!nf) {
		tt_paths_free(files, nf);
		tt_input_free(s);
		return NULL;
	}
	bool dir = n == 1 && is_dir(paths[0]);
	s->run = tt_run_new(n == 1 ? paths[0] : "", dir ? paths[0] : NULL, files, nf);
	tt_paths_free(files, nf);
	return s;
}

struct tt_input *tt_input_new_dir(const char *dir)
{
	struct tt_input *s = tt_calloc(1, sizeof(*s));
	s->paths = tt_calloc(2, sizeof(*s->paths));
	s->paths[0] = tt_strdup(dir);
	s->npaths = 1;
	s->run_i = SIZE_MAX;
	s->poll_ms = TT_FOLLOW_POLL_MS;
	if (tt_logdir_scan(dir, &s->logdir)) {
		if (s->logdir->nruns == 1) {
			s->run_i = 0;
			s->run = s->logdir->runs[0];
		}
		return s;
	}
	s->run = tt_run_open_dir(dir, dir);
	return s;
}

static void bg_release(struct bg *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->paths[i]);
	free(b->paths);
	free(b->run);
	b->paths = NULL;
	b->run = NULL;
	b->n = 0;
}

static void bg_join(struct tt_input *s)
{
	if (!s->bg.running)
		return;
	pthread_join(s->bg.th, NULL);
	s->bg.running = false;
	bg_release(&s->bg);
}

static void fs_clear(struct tt_input *s)
{
	for (size_t i = 0; i < s->nfs; i++)
		free(s->fs[i].path);
	free(s->fs);
	s->fs = NULL;
	s->nfs = 0;
}

void tt_input_free(struct tt_input *s)
{
	if (!s)
		return;
	bg_join(s);
	tt_model_free(s->bg.m);
	tt_model_free(s->ready);
	fs_clear(s);
	tt_watch_close(s->watch);
	if (!s->logdir)
		tt_run_free(s->run);
	tt_logdir_free(s->logdir);
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->steps);
	free(s);
}

const struct tt_logdir *tt_input_logdir(const struct tt_input *s)
{
	return s->logdir;
}

const struct tt_run *tt_input_run(const struct tt_input *s)
{
	return s->run;
}

size_t tt_input_run_index(const struct tt_input *s)
{
	return s->run_i;
}

/* replace the open run by r (a log directory keeps it among its runs) */
static void set_run(struct tt_input *s, struct tt_run *r)
{
	if (s->logdir && s->run_i < s->logdir->nruns) {
		tt_run_free(s->logdir->runs[s->run_i]);
		s->logdir->runs[s->run_i] = r;
	} else {
		tt_run_free(s->run);
	}
	s->run = r;
}

static void follow_reset(struct tt_input *s);

void tt_input_set_run(struct tt_input *s, size_t i)
{
	if (!s->logdir || (i >= s->logdir->nruns && i != SIZE_MAX))
		return;
	if (i != s->run_i) {
		s->seen = 0; /* (another run: its cycles are all new to us) */
		s->nsteps = 0;
	}
	s->run_i = i;
	s->run = i == SIZE_MAX ? NULL : s->logdir->runs[i];
	if (s->run)
		set_run(s, reread(s));
	if (s->follow)
		follow_reset(s);
}

/* a number that changes when what the run list says of the log
 * directory's runs changes (names, files, cycles, times, sizes) */
static uint64_t logdir_sig(const struct tt_logdir *d)
{
	uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
	for (size_t i = 0; d && i < d->nruns; i++) {
		const struct tt_run *r = d->runs[i];
		for (const char *c = r->name; *c; c++)
			MIX((unsigned char)*c);
		MIX(r->nfiles);
		MIX(r->ncycles);
		MIX(r->nworkers);
		MIX(r->newest);
		MIX(r->bytes);
		MIX(r->ncycles ? tt_cycle_complete(&r->cycles[r->ncycles - 1]) : 0);
	}
#undef MIX
	return h;
}

/* The open run looked at again, and every run of the log directory when
 * all (a run that appeared, a run's new cycles).  A log directory whose
 * open run went away (or that holds no run now) stays as it was seen. */
static void relook(struct tt_input *s, bool all)
{
	if (all && s->logdir) {
		struct tt_logdir *d = tt_logdir_rescan(s->logdir);
		size_t i = SIZE_MAX;
		if (d && s->run) {
			bool several;
			i = tt_logdir_find(d, s->run->name, &several);
			if (i != SIZE_MAX && strcmp(d->runs[i]->name, s->run->name) != 0)
				i = SIZE_MAX;
		}
		if (d && (!s->run || i != SIZE_MAX)) {
			tt_logdir_free(s->logdir);
			s->logdir = d;
			s->run_i = i;
			s->run = i == SIZE_MAX ? NULL : d->runs[i];
			return;
		}
		tt_logdir_free(d);
	}
	if (s->run)
		set_run(s, reread(s));
}

void tt_input_rescan(struct tt_input *s, bool rescan_logdir)
{
	relook(s, rescan_logdir);
}

void tt_input_show_runs(struct tt_input *s, bool shown)
{
	if (s)
		s->runs_shown = shown;
}

/* ---- loading ---- */

void tt_input_on_load(struct tt_input *s, void (*before)(void *ctx, char *const *paths, size_t n),
		      void *ctx)
{
	s->before = before;
	s->before_ctx = ctx;
}

void tt_input_set_opts(struct tt_input *s, const struct tt_load_opts *o)
{
	s->lo = *o;
	s->lo.progress = NULL;
	s->lo.progress_ctx = NULL;
}

static int load_cycle(struct tt_input *s, size_t c, const struct tt_load_opts *o,
		      struct tt_model **out)
{
	if (!o)
		o = &s->lo;
	const char **paths = NULL;
	if (s->before) {
		/* (the list lives as long as the load: progress lines name its files) */
		size_t n = tt_run_cycle_paths(s->run, c, &paths);
		s->before(s->before_ctx, (char *const *)paths, n);
	}
	int rc = tt_run_load(s->run, c, o, out);
	free(paths);
	return rc;
}

static int csteps_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct csteps *)a)->time, y = ((const struct csteps *)b)->time;
	return x < y ? -1 : x > y;
}

/* the steps of a loaded cycle, remembered for the cycle list */
static void note_steps(struct tt_input *s, const struct tt_model *m)
{
	int64_t lo, hi;
	bool agree;
	if (!m || !m->cycle || !tt_model_steps(m, &lo, &hi, &agree))
		return;
	struct csteps key = {m->cycle_time, lo, hi};
	struct csteps *hit =
		s->nsteps ? bsearch(&key, s->steps, s->nsteps, sizeof(key), csteps_cmp) : NULL;
	if (hit) {
		*hit = key;
		return;
	}
	TT_GROW(s->steps, s->capsteps, s->nsteps + 1);
	size_t at = s->nsteps;
	while (at > 0 && s->steps[at - 1].time > key.time)
		at--;
	memmove(s->steps + at + 1, s->steps + at, (s->nsteps - at) * sizeof(key));
	s->steps[at] = key;
	s->nsteps++;
}

bool tt_input_cycle_steps(const struct tt_input *s, size_t c, int64_t *lo, int64_t *hi)
{
	if (!s || !s->run || c >= s->run->ncycles || !s->nsteps)
		return false;
	struct csteps key = {.time = s->run->cycles[c].time};
	const struct csteps *hit = bsearch(&key, s->steps, s->nsteps, sizeof(key), csteps_cmp);
	if (!hit)
		return false;
	*lo = hit->lo;
	*hi = hit->hi;
	return true;
}

static void mark(struct tt_model *m, struct tt_input *s)
{
	if (s->logdir && s->run && !m->run)
		m->run = tt_strdup(s->run->name);
	note_steps(s, m);
}

/* the first file of a model that stops early (or failed), for messages */
static const char *cut_file(const struct tt_model *m)
{
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i]->report.count[TT_W_TRUNCATED] ||
		    m->ranks[i]->report.count[TT_W_MISSING_BRACKET])
			return m->ranks[i]->file;
	if (m->nfailures) {
		const char *p = m->failures[0].path, *sl = strrchr(p, '/');
		return sl ? sl + 1 : p;
	}
	return "";
}

/* the time of the newest cycle complete by its files that none of them
 * changed lately (0: none) */
static int64_t settled_newest(const struct tt_run *r)
{
	int64_t now = wall_ns(), recent = (int64_t)TT_WRITING_RECENT_S * 1000000000;
	for (size_t c = r->ncycles; c-- > 0;) {
		const struct tt_cycle *cy = &r->cycles[c];
		if (tt_cycle_complete(cy) && now - cy->mtime >= recent)
			return cy->time;
	}
	return 0;
}

int tt_input_load(struct tt_input *s, int cycle, const struct tt_load_opts *o,
		  struct tt_model **out, char *why, size_t whysz)
{
	*out = NULL;
	why[0] = '\0';
	const struct tt_run *r = s->run;
	if (!r || !r->ncycles) {
		snprintf(why, whysz, "%s", r ? "no trace files yet" : "no run open");
		return -TT_E_USAGE;
	}
	if (cycle != TT_CYCLE_DEFAULT) {
		if (cycle < 1 || (size_t)cycle > r->ncycles) {
			snprintf(why, whysz, "no cycle %d: %s%s%zu cycle%s", cycle, r->name,
				 r->name[0] ? " has " : "there ", r->ncycles, r->ncycles == 1 ? "" : "s");
			if (!r->name[0])
				snprintf(why, whysz, "no cycle %d: %zu cycle%s", cycle, r->ncycles,
					 r->ncycles == 1 ? "" : "s");
			return -TT_E_USAGE;
		}
		int rc = load_cycle(s, (size_t)cycle - 1, o, out);
		if (*out && tt_model_writing(*out, wall_ns(), TT_WRITING_RECENT_S)) {
			snprintf(why, whysz,
				 "cycle %d is still being written (%s stops early and changed in the "
				 "last %d s): open it when it is complete, or follow the job with "
				 "--follow",
				 cycle, cut_file(*out), TT_WRITING_RECENT_S);
			tt_model_free(*out);
			*out = NULL;
			return -TT_E_TRUNCATED;
		}
		if (*out) {
			mark(*out, s);
			/* the newer cycles there are now are not news either */
			int64_t t = TT_MAX((*out)->cycle_time, settled_newest(r));
			if (t > s->seen)
				s->seen = t;
		}
		return rc;
	}
	if (!r->cycled && !s->follow) {
		/* files that name no cycles: all of them, as they are (as always) */
		int rc = load_cycle(s, 0, o, out);
		if (*out)
			mark(*out, s);
		return rc;
	}
	/* the newest complete cycle whose files are not being written */
	size_t passed = 0;
	char first[200] = "";
	struct tt_model *oldest = NULL; /* the first cycle, being written */
	for (size_t c = r->ncycles; c-- > 0;) {
		const struct tt_cycle *cy = &r->cycles[c];
		if (!tt_cycle_complete(cy)) {
			if (!passed++) {
				char miss[120];
				tt_run_missing(r, c, miss, sizeof(miss));
				if (cy->nwriting)
					snprintf(first, sizeof(first), "cycle %zu is being written", c + 1);
				else
					snprintf(first, sizeof(first), "cycle %zu lacks %s", c + 1,
						 miss[0] ? miss : "workers");
			}
			continue;
		}
		struct tt_model *m = NULL;
		int rc = load_cycle(s, c, o, &m);
		if (m && tt_model_writing(m, wall_ns(), TT_WRITING_RECENT_S)) {
			if (!passed++)
				snprintf(first, sizeof(first), "cycle %zu is being written (%s)", c + 1,
					 cut_file(m));
			if (c == 0 && !s->follow)
				oldest = m; /* (nothing older: shown as it is, not read twice) */
			else
				tt_model_free(m);
			continue;
		}
		if (passed)
			snprintf(why, whysz, "%s%s: showing cycle %zu", first,
				 passed > 1 ? " (and newer ones incomplete)" : "", c + 1);
		*out = m;
		if (m) {
			mark(m, s);
			if (m->cycle_time > s->seen)
				s->seen = m->cycle_time;
		}
		return rc;
	}
	if (s->follow) {
		/* (a followed job: its first cycle is waited for, never shown cut) */
		snprintf(why, whysz, "no complete cycle yet (%s)", first);
		return -TT_E_TRUNCATED;
	}
	/* every cycle lacks workers or is being written: the newest, as it is */
	size_t c = r->ncycles - 1;
	int rc = 0;
	if (oldest && c == 0) {
		*out = oldest;
		rc = oldest->nranks ? 0 : -TT_E_TRUNCATED;
	} else
		rc = load_cycle(s, c, o, out);
	if (oldest && *out != oldest)
		tt_model_free(oldest);
	if (*out)
		mark(*out, s);
	if (r->cycled)
		snprintf(why, whysz, "no cycle is complete (%s): showing cycle %zu as it is so far",
			 first, c + 1);
	else
		snprintf(why, whysz, "a file is being written (%s): shown as it is so far",
			 *out ? cut_file(*out) : "");
	return rc;
}

void tt_input_cycle_text(const struct tt_input *s, const struct tt_model *m, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!m || !m->cycle)
		return;
	size_t c = s && s->run ? tt_run_cycle_at(s->run, m->cycle_time) : SIZE_MAX;
	if (c == SIZE_MAX || !m->cycle_time)
		tt_model_cycle_text(m, buf, n);
	else
		tt_cycle_text(buf, n, (int)c + 1, (int)s->run->ncycles, m->cycle_time, m);
}

/* ---- following ---- */

static int fs_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fstate *)a)->path, ((const struct fstate *)b)->path);
}

/* The files as the open run holds them now; a file new or changed since
 * the last look changed at `now`. */
static bool fs_update(struct tt_input *s, int64_t now)
{
	bool any = s->run->nfiles != s->nfs;
	const struct tt_run *r = s->run;
	struct fstate *v = tt_calloc(r->nfiles + 1, sizeof(*v));
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct tt_tfile *f = &r->files[i];
		v[i].path = tt_strdup(f->path);
		v[i].size = f->size;
		v[i].mtime = f->mtime;
		v[i].changed = now;
		struct fstate key = {.path = f->path};
		const struct fstate *old =
			s->fs ? bsearch(&key, s->fs, s->nfs, sizeof(*s->fs), fs_cmp) : NULL;
		if (old && old->size == f->size && old->mtime == f->mtime)
			v[i].changed = old->changed;
		else
			any = true;
	}
	qsort(v, r->nfiles, sizeof(*v), fs_cmp);
	fs_clear(s);
	s->fs = v;
	s->nfs = r->nfiles;
	return any;
}

static int64_t file_changed(const struct tt_input *s, const char *path)
{
	struct fstate key = {.path = (char *)path};
	const struct fstate *f = bsearch(&key, s->fs, s->nfs, sizeof(*s->fs), fs_cmp);
	return f ? f->changed : 0;
}

/* the folder to watch: the run's, else the first file's */
static void watch_open(struct tt_input *s)
{
	tt_watch_close(s->watch);
	s->watch = NULL;
	if (!s->run) {
		/* (a log directory before a run is chosen: new runs show in it;
		 * new files in its runs' folders are found by polling) */
		if (s->logdir)
			s->watch = tt_watch_open(s->logdir->path, s->poll_only);
		return;
	}
	char dir[4096];
	if (s->run->dir) {
		snprintf(dir, sizeof(dir), "%s", s->run->dir);
	} else if (s->run->nfiles && s->run->files[0].local) {
		snprintf(dir, sizeof(dir), "%s", s->run->files[0].path);
		char *sl = strrchr(dir, '/');
		if (sl)
			*sl = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
	} else {
		return;
	}
	s->watch = tt_watch_open(dir, s->poll_only);
}

static void follow_reset(struct tt_input *s)
{
	bg_join(s);
	tt_model_free(s->bg.m);
	s->bg.m = NULL;
	tt_model_free(s->ready);
	s->ready = NULL;
	fs_clear(s);
	watch_open(s);
	if (s->run) {
		/* the files as they are now count as changed long ago: a file that
		 * is complete when following starts is not waited for */
		fs_update(s, INT64_MIN / 2);
	}
	s->cut_time = s->cut_since = 0;
	s->cut_sig = 0;
	s->next_ns = tt_now_ns() + s->poll_ms * (int64_t)1000000;
}

void tt_input_follow(struct tt_input *s, bool poll_only, const struct tt_load_opts *o)
{
	s->follow = true;
	s->poll_only = poll_only;
	if (o)
		s->fo = *o;
	s->fo.progress = NULL;
	s->fo.progress_ctx = NULL;
	follow_reset(s);
}

bool tt_input_following(const struct tt_input *s)
{
	return s && s->follow;
}

int tt_input_follow_fd(const struct tt_input *s)
{
	return s && s->follow ? tt_watch_fd(s->watch) : -1;
}

int tt_input_follow_wait_ms(const struct tt_input *s)
{
	if (!s || !s->follow)
		return -1;
	if (s->bg.running)
		return 50; /* a cycle loading: look for its end soon */
	int64_t d = s->next_ns - tt_now_ns();
	return d <= 0 ? 0 : (int)TT_MIN(d / 1000000 + 1, (int64_t)INT32_MAX);
}

static void *bg_main(void *arg)
{
	struct bg *b = arg;
	struct tt_model *m = NULL;
	tt_model_load(&m, b->paths, b->n, &b->o);
	if (m) {
		m->cycle = b->cycle;
		m->ncycles = b->ncycles;
		m->cycle_time = b->time;
		if (b->run)
			m->run = tt_strdup(b->run);
	}
	b->m = m;
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* a number that changes when any file of cycle c changes */
static uint64_t cycle_sig(const struct tt_run *r, size_t c)
{
	uint64_t h = 1469598103934665603ull;
	const struct tt_cycle *cy = &r->cycles[c];
	for (size_t i = cy->first; i < cy->first + cy->nfiles; i++) {
		h = (h ^ r->files[i].size) * 1099511628211ull;
		h = (h ^ (uint64_t)r->files[i].mtime) * 1099511628211ull;
		h = (h ^ i) * 1099511628211ull;
	}
	return h;
}

static void bg_start(struct tt_input *s, size_t c, bool accept_cut)
{
	const struct tt_run *r = s->run;
	const struct tt_cycle *cy = &r->cycles[c];
	struct bg *b = &s->bg;
	b->n = cy->nfiles;
	b->paths = tt_calloc(b->n + 1, sizeof(*b->paths));
	for (size_t i = 0; i < b->n; i++)
		b->paths[i] = tt_strdup(r->files[cy->first + i].path);
	b->o = s->fo;
	b->m = NULL;
	b->time = cy->time;
	b->sig = cycle_sig(r, c);
	b->accept_cut = accept_cut;
	b->cycle = r->cycled ? (int)c + 1 : 0;
	b->ncycles = r->cycled ? (int)r->ncycles : 0;
	b->run = s->logdir ? tt_strdup(r->name) : NULL;
	b->done = 0;
	b->running = true;
	if (!tt_thread_start(&b->th, bg_main, b)) {
		/* no thread to be had: load it here */
		b->running = false;
		bg_main(b);
		bg_release(b);
	}
}

static bool model_cut(const struct tt_model *m)
{
	return !m || !m->nranks || cut_file(m)[0];
}

/* a loaded cycle: offered, or waited for when it stops early */
static unsigned bg_collect(struct tt_input *s, int64_t now)
{
	struct bg *b = &s->bg;
	if (b->running && !__atomic_load_n(&b->done, __ATOMIC_ACQUIRE))
		return 0;
	bool had = b->running || b->m;
	int64_t time = b->time;
	uint64_t sig = b->sig;
	bool accept = b->accept_cut;
	bg_join(s);
	struct tt_model *m = b->m;
	b->m = NULL;
	if (!had)
		return 0;
	if (!m || time <= s->seen) {
		tt_model_free(m);
		return 0;
	}
	if (model_cut(m) && !accept) {
		/* being written (or cut for good: known once it stays so) */
		if (s->cut_time != time || s->cut_sig != sig) {
			s->cut_time = time;
			s->cut_sig = sig;
			s->cut_since = now;
		}
		tt_model_free(m);
		return TT_IN_CHANGED; /* (what is known of the cycle changed) */
	}
	if (s->ready && s->ready->cycle_time > m->cycle_time) {
		tt_model_free(m);
		return 0;
	}
	tt_model_free(s->ready);
	s->ready = m;
	return TT_IN_READY;
}

/* the newest cycle that is new, complete, and whose files stopped
 * changing; SIZE_MAX when none */
static size_t candidate(const struct tt_input *s, int64_t now, int64_t settle)
{
	const struct tt_run *r = s->run;
	int64_t have = s->ready ? s->ready->cycle_time : s->seen;
	for (size_t c = r->ncycles; c-- > 0;) {
		const struct tt_cycle *cy = &r->cycles[c];
		if (cy->time <= have)
			return SIZE_MAX;
		if (!tt_cycle_complete(cy) && !(cy->ncut && cy->nworkers >= cy->expected))
			continue;
		bool still = true;
		for (size_t i = cy->first; i < cy->first + cy->nfiles && still; i++)
			still = now - file_changed(s, r->files[i].path) >= settle;
		if (still)
			return c;
	}
	return SIZE_MAX;
}

unsigned tt_input_tick(struct tt_input *s, bool woken)
{
	if (!s || !s->follow || (!s->run && !s->logdir))
		return 0;
	int64_t now = tt_now_ns();
	unsigned out = bg_collect(s, now);
	if (woken && tt_watch_drain(s->watch)) {
		/* a change: look soon, but not at every write of a growing file */
		int64_t soon = now + TT_MIN((int64_t)s->poll_ms, 200) * 1000000;
		if (soon < s->next_ns)
			s->next_ns = soon;
	}
	if (now < s->next_ns)
		return out;
	/* look: the folder again, each file's size and time (every run's
	 * while the log directory's runs are in view) */
	bool all = s->logdir && (s->runs_shown || !s->run);
	uint64_t dsig = all ? logdir_sig(s->logdir) : 0;
	const struct tt_run *old = s->run;
	size_t oldn = old ? old->ncycles : 0, oldf = old ? old->nfiles : 0;
	int64_t oldnew = old ? old->newest : 0;
	int64_t t0 = tt_now_ns();
	relook(s, all);
	bool grew = s->run && fs_update(s, now);
	int64_t cost = tt_now_ns() - t0;
	/* (a big folder on a slow file system is looked at less often: a
	 * look takes at most a fifth of the time) */
	s->poll_ms = (int)TT_MAX((int64_t)TT_FOLLOW_POLL_MS, cost * 5 / 1000000);
	s->next_ns = now + (int64_t)s->poll_ms * 1000000;
	if (all && logdir_sig(s->logdir) != dsig)
		out |= TT_IN_CHANGED;
	const struct tt_run *r = s->run;
	if (!r)
		return out;
	if (r->ncycles != oldn || r->nfiles != oldf || r->newest != oldnew || grew)
		out |= TT_IN_CHANGED;
	if (s->bg.running || !r->ncycles)
		return out;
	/* a file has stopped growing when a whole interval saw no change */
	int64_t settle = TT_MAX((int64_t)s->poll_ms, 1000) * 1000000;
	size_t c = candidate(s, now, settle);
	if (c == SIZE_MAX)
		return out;
	uint64_t sig = cycle_sig(r, c);
	if (r->cycles[c].time == s->cut_time && sig == s->cut_sig) {
		/* it loaded cut and nothing changed since: no longer written? */
		if (now - s->cut_since < (int64_t)TT_FOLLOW_STALE_S * 1000000000)
			return out;
		bg_start(s, c, true);
	} else {
		bg_start(s, c, false);
	}
	return out | TT_IN_CHANGED | bg_collect(s, now);
}

struct tt_model *tt_input_take(struct tt_input *s)
{
	if (!s)
		return NULL;
	struct tt_model *m = s->ready;
	s->ready = NULL;
	if (m && m->cycle_time > s->seen)
		s->seen = m->cycle_time;
	note_steps(s, m);
	return m;
}

int64_t tt_input_ready_time(const struct tt_input *s)
{
	return s && s->ready ? s->ready->cycle_time : 0;
}

void tt_input_cycle_note(const struct tt_input *s, size_t c, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!s || !s->follow || !s->run || c >= s->run->ncycles)
		return;
	const struct tt_run *r = s->run;
	const struct tt_cycle *cy = &r->cycles[c];
	if (cy->time <= s->seen)
		return;
	int64_t now = tt_now_ns(), settle = TT_MAX((int64_t)s->poll_ms, 1000) * 1000000;
	bool growing = false;
	for (size_t i = cy->first; i < cy->first + cy->nfiles; i++)
		growing |= now - file_changed(s, r->files[i].path) < settle;
	if (s->bg.running && s->bg.time == cy->time)
		snprintf(buf, n, "reading its files");
	else if (growing)
		snprintf(buf, n, "being written: growing");
	else if (cy->time == s->cut_time)
		snprintf(buf, n, "being written: a file stops early");
}

void tt_input_pending(const struct tt_input *s, bool brief, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!s || !s->follow || !s->run || s->ready)
		return;
	const struct tt_run *r = s->run;
	if (!r->ncycles)
		return;
	size_t c = r->ncycles - 1;
	const struct tt_cycle *cy = &r->cycles[c];
	if (cy->time <= s->seen)
		return;
	int64_t now = tt_now_ns(), settle = TT_MAX((int64_t)s->poll_ms, 1000) * 1000000;
	size_t growing = 0;
	for (size_t i = cy->first; i < cy->first + cy->nfiles; i++)
		if (now - file_changed(s, r->files[i].path) < settle || r->files[i].cut)
			growing++;
	if (cy->nworkers < cy->expected && !brief)
		snprintf(buf, n, "cycle %zu: %zu of %zu workers written", c + 1, cy->nworkers,
			 cy->expected);
	else if (cy->nworkers < cy->expected || growing || s->bg.running ||
		 cy->time == s->cut_time)
		snprintf(buf, n, "cycle %zu being written", c + 1);
}

struct tt_model *tt_input_wait(struct tt_input *s, int timeout_ms)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX : tt_now_ns() + (int64_t)timeout_ms * 1000000;
	while (s->follow) {
		struct tt_model *m = tt_input_take(s);
		if (m)
			return m;
		int64_t left = end - tt_now_ns();
		if (left <= 0)
			return NULL;
		int w = tt_input_follow_wait_ms(s);
		if (w < 0 || (int64_t)w > left / 1000000)
			w = (int)TT_MIN(left / 1000000 + 1, (int64_t)INT32_MAX);
		struct pollfd p = {tt_input_follow_fd(s), POLLIN, 0};
		int pr = poll(&p, p.fd >= 0 ? 1 : 0, w);
		if (pr < 0 && errno != EINTR)
			return NULL;
		tt_input_tick(s, pr > 0);
	}
	return NULL;
}

void tt_input_follow_kind(const struct tt_input *s, char *buf, size_t n)
{
	if (!s || !s->follow) {
		snprintf(buf, n, "%s", "");
		return;
	}
	double every = s->poll_ms / 1000.0;
	if (tt_watch_fd(s->watch) >= 0)
		snprintf(buf, n, "inotify and polling every %.3g s", every);
	else
		snprintf(buf, n, "polling every %.3g s", every);
}
