/* Typed results computed once and kept: see results.h.
 *
 * One mutex guards the slots.  A slot is EMPTY, BUSY (some thread computes
 * it, outside the lock) or DONE; whoever finds it EMPTY marks it BUSY and
 * computes, whoever finds it BUSY waits on the condition variable. */
#include "config.h"

#include "tracetop/results.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/advice.h"
#include "tracetop/collbw.h"
#include "tracetop/perfmodel.h"
#include "tracetop/pool.h"
#include "tracetop/tbviews.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

enum { EMPTY, BUSY, DONE };

struct slot {
	int state;
	void *v;           /* the result (NULL for a failed diff) */
	struct tt_err err; /* why there is none */
};

struct tt_results {
	const struct tt_model *m, *m2;
	struct tt_results_opts o; /* o.a.ranks -> ranks, o.op_name -> op_name,
				   * o.diff_map -> map */
	struct tt_diff_pair *map;
	int64_t *ranks;
	char *op_name;
	char *peaks_file, *gpu;
	char *cp_annotation;                 /* o.cp.annotation */
	char *cp_data_load[8];               /* o.cp.cp.data_load -> cp_load */
	const char *cp_load[8];
	struct tt_cp_whatif cp_whatif[8];    /* o.cp.cp.whatif */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot s[TT_RES_COUNT];
	/* the background thread: it computes todo[0..ntodo) in order, taking
	 * each from the front; tt_results_want puts kinds at the front */
	bool thread, stop, running, paused;
	pthread_t th;
	enum tt_rkind todo[TT_RES_COUNT];
	size_t ntodo;
};

static const char *const names[] = {
#define _(id, name) name,
	TT_RESULTS(_)
#undef _
};

const char *tt_rkind_name(enum tt_rkind k)
{
	return k < TT_RES_COUNT ? names[k] : "?";
}

void tt_results_opts_init(struct tt_results_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kernel_delay_us = 30;
	o->runtime_cutoff_us = 50;
	o->launch_delay_cutoff_us = 100;
	o->kb.num_kernels = 10;
	o->kb.duration_ratio = 0.8;
	o->min_pattern_len = 3;
	o->diff_device = TT_DIFF_ALL;
	o->diff_iteration = TT_DIFF_COMMON;
	o->diff_threshold = TT_DIFF_THRESHOLD;
	o->diff_floor_ns = TT_DIFF_FLOOR_NS;
	tt_cp_steps_opts_init(&o->cp);
}

/* ---- computing and freeing each kind ---- */

/* (advice asks for the idle breakdown only when it needs it) */
static const struct tt_idle *idle_of(void *ctx)
{
	return tt_res_idle(ctx);
}

static void *compute(struct tt_results *r, enum tt_rkind k, struct tt_err *err)
{
	const struct tt_model *m = r->m;
	const struct tt_results_opts *o = &r->o;
	switch (k) {
	case TT_RES_SUMMARY: {
		struct tt_summary_res *v = tt_calloc(1, sizeof(*v));
		v->rows = tt_summary(m, &v->n);
		return v;
	}
	case TT_RES_TEMPORAL: {
		struct tt_temporal_res *v = tt_calloc(1, sizeof(*v));
		v->rows = tt_temporal(m, &o->a, &v->n);
		return v;
	}
	case TT_RES_OVERLAP: {
		struct tt_overlap_res *v = tt_calloc(1, sizeof(*v));
		v->rows = tt_overlap(m, &o->a, &v->n);
		return v;
	}
	case TT_RES_KBREAK: {
		struct tt_kbreak *v = tt_calloc(1, sizeof(*v));
		tt_kbreak(m, &o->a, &o->kb, v);
		return v;
	}
	case TT_RES_BYRANK: {
		/* the other results, computed here or waited for */
		struct tt_results *rw = r;
		const struct tt_temporal_res *t = tt_res_temporal(rw);
		const struct tt_overlap_res *v = tt_res_overlap(rw);
		return tt_byrank(m, &o->a, t->rows, t->n, v->rows, v->n, tt_res_kbreak(rw));
	}
	case TT_RES_IDLE:
		return tt_idle_breakdown(m, &o->a, o->kernel_delay_us);
	case TT_RES_LAUNCH:
		return tt_launch_stats(m, &o->a, o->runtime_cutoff_us, o->launch_delay_cutoff_us);
	case TT_RES_COUNTERS: {
		struct tt_counters *v = tt_calloc(1, sizeof(*v));
		tt_counters_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_PATTERNS: {
		struct tt_patterns *v = tt_calloc(1, sizeof(*v));
		tt_patterns(v, m, &o->a, o->op_name, o->min_pattern_len);
		return v;
	}
	case TT_RES_RANKS:
		return tt_ranks_compute(m, &o->a, o->kernel_delay_us);
	case TT_RES_DIFF: {
		if (!r->m2) {
			tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
				   "a diff needs two traces: CONTROL TEST");
			return NULL;
		}
		struct tt_diff_opts d;
		tt_diff_opts_init(&d);
		d.device = o->diff_device;
		d.short_names = o->diff_short_names;
		d.iteration = o->diff_iteration;
		d.exact = o->a.exact;
		d.ranks = o->a.ranks;
		d.nranks = o->a.nranks;
		d.map = o->diff_map;
		d.nmap = o->diff_nmap;
		d.threshold = o->diff_threshold;
		d.floor_ns = o->diff_floor_ns;
		struct tt_diff *v = tt_calloc(1, sizeof(*v));
		if (tt_diff(v, m, r->m2, &d, err)) {
			tt_diff_free(v);
			free(v);
			return NULL;
		}
		return v;
	}
	case TT_RES_TBOVERVIEW: {
		struct tt_overview *v = tt_calloc(1, sizeof(*v));
		tt_overview_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_UTIL: {
		struct tt_util *v = tt_calloc(1, sizeof(*v));
		tt_util_compute(m, &o->a, TT_UTIL_BUCKETS, v);
		return v;
	}
	case TT_RES_STEPS: {
		struct tt_steps *v = tt_calloc(1, sizeof(*v));
		tt_steps_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_COLL: {
		struct tt_coll *v = tt_calloc(1, sizeof(*v));
		tt_coll_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_DIST: {
		/* the collectives and the Overview, computed here or waited for */
		const struct tt_coll *cl = tt_res_collectives(r);
		const struct tt_overview *ov = tt_res_tb_overview(r);
		struct tt_dist *v = tt_calloc(1, sizeof(*v));
		tt_dist_compute_coll(m, &o->a, cl, ov, v);
		return v;
	}
	case TT_RES_OPS:
	case TT_RES_OPS_SHAPES: {
		struct tt_ops *v = tt_calloc(1, sizeof(*v));
		tt_ops_compute(m, &o->a, k == TT_RES_OPS_SHAPES, v);
		return v;
	}
	case TT_RES_MEM: {
		struct tt_mem *v = tt_calloc(1, sizeof(*v));
		tt_mem_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_SRC: {
		struct tt_src *v = tt_calloc(1, sizeof(*v));
		tt_src_compute(m, &o->a, v);
		return v;
	}
	case TT_RES_ADVICE: {
		/* the other results, computed here or waited for (and kept for
		 * their panes) */
		struct tt_advice *v = tt_calloc(1, sizeof(*v));
		const struct tt_temporal_res *t = tt_res_temporal(r);
		const struct tt_overlap_res *ov = tt_res_overlap(r);
		struct tt_advice_in in = {
			.temporal = t->rows,
			.ntemporal = t->n,
			.overlap = ov->rows,
			.noverlap = ov->n,
			.util = tt_res_util(r),
			.launch = tt_res_launch(r),
			.dist = tt_res_dist(r),
			.steps = tt_res_steps(r),
			.ops = tt_res_ops(r, false),
			.src = tt_res_src(r),
			.mem = tt_res_mem(r),
			.overview = tt_res_tb_overview(r),
			.idle = idle_of,
			.idle_ctx = r,
		};
		tt_advice_from(m, &o->a, &in, v);
		return v;
	}
	case TT_RES_CRITPATH: {
		/* tracetop's model: the collectives' waits (computed here or
		 * waited for) */
		struct tt_cp_steps_opts co = o->cp;
		if (co.cp.model == TT_CPM_TRACETOP)
			co.cp.coll = tt_res_collectives(r);
		struct tt_cp_steps *v = tt_calloc(1, sizeof(*v));
		tt_cp_steps_compute(m, &co, v);
		return v;
	}
	case TT_RES_PERF: {
		struct tt_perf *v = tt_calloc(1, sizeof(*v));
		struct tt_perf_opts po;
		tt_perf_opts_init(&po);
		po.a = &o->a;
		po.peaks_file = o->peaks_file;
		po.gpu = o->gpu;
		tt_perf_compute(m, &po, v);
		return v;
	}
	case TT_RES_COLLBW: {
		/* the collectives, computed here or waited for */
		const struct tt_coll *cl = tt_res_collectives(r);
		struct tt_coll_bw *v = tt_calloc(1, sizeof(*v));
		tt_coll_bw_compute(m, cl, v);
		return v;
	}
	case TT_RES_COUNT:
		break;
	}
	return NULL;
}

static void release(enum tt_rkind k, void *v)
{
	if (!v)
		return;
	switch (k) {
	case TT_RES_SUMMARY:
		free(((struct tt_summary_res *)v)->rows);
		break;
	case TT_RES_TEMPORAL:
		tt_temporal_free(((struct tt_temporal_res *)v)->rows);
		break;
	case TT_RES_OVERLAP:
		tt_overlap_free(((struct tt_overlap_res *)v)->rows);
		break;
	case TT_RES_KBREAK:
		tt_kbreak_free(v);
		break;
	case TT_RES_BYRANK:
		tt_byrank_free(v);
		return;
	case TT_RES_IDLE:
		tt_idle_free(v);
		return;
	case TT_RES_LAUNCH:
		tt_launch_free(v);
		return;
	case TT_RES_COUNTERS:
		tt_counters_free(v);
		break;
	case TT_RES_PATTERNS:
		tt_patterns_free(v);
		break;
	case TT_RES_RANKS:
		tt_ranks_free(v);
		return;
	case TT_RES_DIFF:
		tt_diff_free(v);
		break;
	case TT_RES_TBOVERVIEW:
		tt_overview_free(v);
		break;
	case TT_RES_UTIL:
		tt_util_free(v);
		break;
	case TT_RES_STEPS:
		tt_steps_free(v);
		break;
	case TT_RES_COLL:
		tt_coll_free(v);
		break;
	case TT_RES_DIST:
		tt_dist_free(v);
		break;
	case TT_RES_OPS:
	case TT_RES_OPS_SHAPES:
		tt_ops_free(v);
		break;
	case TT_RES_MEM:
		tt_mem_free(v);
		break;
	case TT_RES_SRC:
		tt_src_free(v);
		break;
	case TT_RES_ADVICE:
		tt_advice_free(v);
		break;
	case TT_RES_CRITPATH:
		tt_cp_steps_free(v);
		break;
	case TT_RES_PERF:
		tt_perf_free(v);
		break;
	case TT_RES_COLLBW:
		tt_coll_bw_free(v);
		break;
	case TT_RES_COUNT:
		break;
	}
	free(v);
}

/* ---- the slots ---- */

/* The result of kind k: computed here when nobody has, waited for when
 * another thread computes it.  Takes and gives back the lock. */
static void *get(struct tt_results *r, enum tt_rkind k, struct tt_err *err)
{
	pthread_mutex_lock(&r->mu);
	struct slot *s = &r->s[k];
	if (s->state == EMPTY) {
		s->state = BUSY;
		pthread_mutex_unlock(&r->mu);
		struct tt_err e;
		tt_err_clear(&e);
		void *v = compute(r, k, &e);
		pthread_mutex_lock(&r->mu);
		s->v = v;
		s->err = e;
		s->state = DONE;
		pthread_cond_broadcast(&r->cv);
	}
	while (s->state != DONE)
		pthread_cond_wait(&r->cv, &r->mu);
	void *v = s->v;
	if (!v && err)
		*err = s->err;
	pthread_mutex_unlock(&r->mu);
	return v;
}

bool tt_results_ready(struct tt_results *r, enum tt_rkind k)
{
	pthread_mutex_lock(&r->mu);
	bool done = r->s[k].state == DONE;
	pthread_mutex_unlock(&r->mu);
	return done;
}

/* ---- the background thread ---- */

static void *worker(void *arg)
{
	struct tt_results *r = arg;
	tt_thread_background(); /* (the screen's keys first) */
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (r->paused && !r->stop)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->stop || !r->ntodo)
			break;
		enum tt_rkind k = r->todo[0];
		r->ntodo--;
		memmove(r->todo, r->todo + 1, r->ntodo * sizeof(*r->todo));
		pthread_mutex_unlock(&r->mu);
		get(r, k, NULL);
		pthread_mutex_lock(&r->mu);
	}
	r->running = false;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* Start the background thread on r->todo unless it runs; under the lock. */
static void start_worker(struct tt_results *r)
{
	if (r->running || r->stop || !r->ntodo)
		return;
	if (r->thread) {
		/* (it has finished: running is false) */
		pthread_join(r->th, NULL);
		r->thread = false;
	}
	r->running = true;
	r->thread = tt_thread_start(&r->th, worker, r);
	if (!r->thread)
		r->running = false; /* computed on first use instead */
}

/* Remove kind k from r->todo; under the lock. */
static void unqueue(struct tt_results *r, enum tt_rkind k)
{
	size_t j = 0;
	for (size_t i = 0; i < r->ntodo; i++)
		if (r->todo[i] != k)
			r->todo[j++] = r->todo[i];
	r->ntodo = j;
}

void tt_results_prefetch(struct tt_results *r, const enum tt_rkind *k, size_t n)
{
	pthread_mutex_lock(&r->mu);
	if (r->thread || r->stop) {
		pthread_mutex_unlock(&r->mu);
		return;
	}
	r->ntodo = 0;
	for (size_t i = 0; i < n; i++)
		if (k[i] < TT_RES_COUNT) {
			unqueue(r, k[i]);
			r->todo[r->ntodo++] = k[i];
		}
	start_worker(r);
	pthread_mutex_unlock(&r->mu);
}

void tt_results_enqueue(struct tt_results *r, const enum tt_rkind *k, size_t n)
{
	pthread_mutex_lock(&r->mu);
	if (r->stop) {
		pthread_mutex_unlock(&r->mu);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (k[i] >= TT_RES_COUNT || r->s[k[i]].state != EMPTY)
			continue;
		bool queued = false;
		for (size_t j = 0; j < r->ntodo && !queued; j++)
			queued = r->todo[j] == k[i];
		if (!queued)
			r->todo[r->ntodo++] = k[i];
	}
	start_worker(r);
	pthread_mutex_unlock(&r->mu);
}

void tt_results_want(struct tt_results *r, const enum tt_rkind *k, size_t n)
{
	pthread_mutex_lock(&r->mu);
	/* the last first, so that k[0] ends at the front */
	for (size_t i = n; i-- > 0;) {
		if (k[i] >= TT_RES_COUNT || r->s[k[i]].state != EMPTY)
			continue;
		unqueue(r, k[i]);
		memmove(r->todo + 1, r->todo, r->ntodo * sizeof(*r->todo));
		r->todo[0] = k[i];
		r->ntodo++;
	}
	start_worker(r);
	pthread_mutex_unlock(&r->mu);
}

void tt_results_pause(struct tt_results *r, bool paused)
{
	pthread_mutex_lock(&r->mu);
	r->paused = paused;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

void tt_results_wait(struct tt_results *r)
{
	pthread_mutex_lock(&r->mu);
	while (r->running)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

void tt_results_stop(struct tt_results *r)
{
	pthread_mutex_lock(&r->mu);
	r->stop = true;
	pthread_cond_broadcast(&r->cv); /* (a paused thread) */
	pthread_mutex_unlock(&r->mu);
}

bool tt_results_busy(struct tt_results *r)
{
	pthread_mutex_lock(&r->mu);
	bool busy = r->running;
	pthread_mutex_unlock(&r->mu);
	return busy;
}

/* ---- life ---- */

/* r->o.cp from o: its strings and arrays copied, its analysis options a */
static void copy_cp(struct tt_results *r, const struct tt_cp_steps_opts *o)
{
	struct tt_cp_steps_opts *c = &r->o.cp;
	*c = *o;
	c->cp.a = &r->o.a;
	r->cp_annotation = o->annotation ? tt_strdup(o->annotation) : NULL;
	c->annotation = r->cp_annotation;
	size_t nd = TT_MIN(o->cp.ndata_load, TT_ARRAY_SIZE(r->cp_data_load));
	for (size_t i = 0; i < nd; i++) {
		r->cp_data_load[i] = tt_strdup(o->cp.data_load[i]);
		r->cp_load[i] = r->cp_data_load[i];
	}
	c->cp.data_load = nd ? r->cp_load : NULL;
	c->cp.ndata_load = nd;
	size_t nw = TT_MIN(o->cp.nwhatif, TT_ARRAY_SIZE(r->cp_whatif));
	if (nw)
		memcpy(r->cp_whatif, o->cp.whatif, nw * sizeof(*r->cp_whatif));
	c->cp.whatif = nw ? r->cp_whatif : NULL;
	c->cp.nwhatif = nw;
}

struct tt_results *tt_results_new(const struct tt_model *m, const struct tt_model *m2,
				  const struct tt_results_opts *o)
{
	struct tt_results *r = tt_calloc(1, sizeof(*r));
	r->m = m;
	r->m2 = m2;
	r->o = *o;
	if (o->a.ranks && o->a.nranks) {
		r->ranks = tt_malloc(o->a.nranks * sizeof(*r->ranks));
		memcpy(r->ranks, o->a.ranks, o->a.nranks * sizeof(*r->ranks));
	}
	r->o.a.ranks = r->ranks;
	r->o.a.nranks = r->ranks ? o->a.nranks : 0;
	r->op_name = o->op_name ? tt_strdup(o->op_name) : NULL;
	r->o.op_name = r->op_name;
	r->peaks_file = o->peaks_file ? tt_strdup(o->peaks_file) : NULL;
	r->o.peaks_file = r->peaks_file;
	r->gpu = o->gpu ? tt_strdup(o->gpu) : NULL;
	r->o.gpu = r->gpu;
	if (o->diff_map && o->diff_nmap) {
		r->map = tt_malloc(o->diff_nmap * sizeof(*r->map));
		memcpy(r->map, o->diff_map, o->diff_nmap * sizeof(*r->map));
	}
	r->o.diff_map = r->map;
	r->o.diff_nmap = r->map ? o->diff_nmap : 0;
	copy_cp(r, &o->cp);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (!m2) {
		/* no diff without a second model: known at once, never queued
		 * behind an analysis */
		struct slot *sd = &r->s[TT_RES_DIFF];
		sd->v = compute(r, TT_RES_DIFF, &sd->err);
		sd->state = DONE;
	}
	return r;
}

void tt_results_free(struct tt_results *r)
{
	if (!r)
		return;
	tt_results_stop(r);
	if (r->thread)
		pthread_join(r->th, NULL);
	for (int k = 0; k < TT_RES_COUNT; k++)
		release((enum tt_rkind)k, r->s[k].v);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r->ranks);
	free(r->op_name);
	free(r->peaks_file);
	free(r->gpu);
	free(r->map);
	free(r->cp_annotation);
	for (size_t i = 0; i < TT_ARRAY_SIZE(r->cp_data_load); i++)
		free(r->cp_data_load[i]);
	free(r);
}

const struct tt_model *tt_results_model(const struct tt_results *r)
{
	return r->m;
}

const struct tt_model *tt_results_model2(const struct tt_results *r)
{
	return r->m2;
}

const struct tt_results_opts *tt_results_options(const struct tt_results *r)
{
	return &r->o;
}

/* ---- typed getters ---- */

const struct tt_summary_res *tt_res_summary(struct tt_results *r)
{
	return get(r, TT_RES_SUMMARY, NULL);
}

const struct tt_temporal_res *tt_res_temporal(struct tt_results *r)
{
	return get(r, TT_RES_TEMPORAL, NULL);
}

const struct tt_overlap_res *tt_res_overlap(struct tt_results *r)
{
	return get(r, TT_RES_OVERLAP, NULL);
}

const struct tt_kbreak *tt_res_kbreak(struct tt_results *r)
{
	return get(r, TT_RES_KBREAK, NULL);
}

const struct tt_byrank *tt_res_byrank(struct tt_results *r)
{
	return get(r, TT_RES_BYRANK, NULL);
}

const struct tt_idle *tt_res_idle(struct tt_results *r)
{
	return get(r, TT_RES_IDLE, NULL);
}

const struct tt_launch *tt_res_launch(struct tt_results *r)
{
	return get(r, TT_RES_LAUNCH, NULL);
}

const struct tt_counters *tt_res_counters(struct tt_results *r)
{
	return get(r, TT_RES_COUNTERS, NULL);
}

const struct tt_patterns *tt_res_patterns(struct tt_results *r)
{
	return get(r, TT_RES_PATTERNS, NULL);
}

const struct tt_ranks *tt_res_ranks(struct tt_results *r)
{
	return get(r, TT_RES_RANKS, NULL);
}

const struct tt_overview *tt_res_tb_overview(struct tt_results *r)
{
	return get(r, TT_RES_TBOVERVIEW, NULL);
}

const struct tt_util *tt_res_util(struct tt_results *r)
{
	return get(r, TT_RES_UTIL, NULL);
}

const struct tt_steps *tt_res_steps(struct tt_results *r)
{
	return get(r, TT_RES_STEPS, NULL);
}

const struct tt_dist *tt_res_dist(struct tt_results *r)
{
	return get(r, TT_RES_DIST, NULL);
}

const struct tt_coll *tt_res_collectives(struct tt_results *r)
{
	return get(r, TT_RES_COLL, NULL);
}

const struct tt_ops *tt_res_ops(struct tt_results *r, bool by_shapes)
{
	return get(r, by_shapes ? TT_RES_OPS_SHAPES : TT_RES_OPS, NULL);
}

const struct tt_mem *tt_res_mem(struct tt_results *r)
{
	return get(r, TT_RES_MEM, NULL);
}

const struct tt_perf *tt_res_perf(struct tt_results *r)
{
	return get(r, TT_RES_PERF, NULL);
}

const struct tt_coll_bw *tt_res_coll_bw(struct tt_results *r)
{
	return get(r, TT_RES_COLLBW, NULL);
}

const struct tt_src *tt_res_src(struct tt_results *r)
{
	return get(r, TT_RES_SRC, NULL);
}

const struct tt_advice *tt_res_advice(struct tt_results *r)
{
	return get(r, TT_RES_ADVICE, NULL);
}

const struct tt_diff *tt_res_diff(struct tt_results *r, struct tt_err *err)
{
	return get(r, TT_RES_DIFF, err);
}

const struct tt_cp_steps *tt_res_critpath(struct tt_results *r)
{
	return get(r, TT_RES_CRITPATH, NULL);
}
