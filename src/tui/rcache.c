/* Reports built once per rank selection, the panes' ones ahead of time on a
 * background thread, so that switching panes is instant once they are done. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/ui.h"
#include "tracetop/util.h"

enum { R_NONE, R_BUILDING, R_DONE };

struct rentry {
	char name[24];
	int state;
	uint64_t gen;
	struct tt_table **t;
	size_t n;
	char msg[300];
};

struct tt_rcache {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct rentry e[32];
	int n;
	uint64_t gen; /* bumped when the ranks change: older entries are stale */
	bool thread;
	pthread_t th;
	struct tt_app *app;
	/* what the background thread builds with (its own copy of the ranks) */
	struct tt_report_opts o;
	int64_t *ranks;
	bool stop;
	/* the counter series of the Counters pane */
	struct tt_counters counters;
	int cstate;
	uint64_t cgen;
};

/* the reports the panes open with, the Overview's first */
static const char *const ahead[] = {"summary", "temporal", "overlap", "kernels",  "idle",
				    "launch",  "counters", "patterns", "utilization", "steps"};

static struct tt_rcache *cache_of(struct tt_app *a)
{
	if (!a->rcache) {
		struct tt_rcache *c = tt_calloc(1, sizeof(*c));
		pthread_mutex_init(&c->mu, NULL);
		pthread_cond_init(&c->cv, NULL);
		c->app = a;
		a->rcache = c;
	}
	return a->rcache;
}

/* the entry of name for the current generation (created empty) */
static struct rentry *entry(struct tt_rcache *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (c->e[i].gen == c->gen && strcmp(c->e[i].name, name) == 0)
			return &c->e[i];
	/* reuse a stale slot, or take a new one */
	int k = -1;
	for (int i = 0; i < c->n && k < 0; i++)
		if (c->e[i].gen != c->gen && c->e[i].state != R_BUILDING)
			k = i;
	if (k < 0) {
		if (c->n == (int)TT_ARRAY_SIZE(c->e))
			return NULL;
		k = c->n++;
	}
	struct rentry *e = &c->e[k];
	if (e->t)
		tt_tables_free(e->t, e->n);
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->gen = c->gen;
	return e;
}

/* build outside the lock, store if the generation still holds */
static void build(struct tt_rcache *c, const char *name, const struct tt_report_opts *o,
		  uint64_t gen)
{
	struct tt_table **t = NULL;
	size_t n = 0;
	struct tt_err err;
	tt_err_clear(&err);
	int rc = tt_report_build(name, c->app->m, c->app->m2, o, &t, &n, &err);
	pthread_mutex_lock(&c->mu);
	struct rentry *e = NULL;
	for (int i = 0; i < c->n; i++)
		if (c->e[i].gen == gen && strcmp(c->e[i].name, name) == 0)
			e = &c->e[i];
	if (e && e->state == R_BUILDING) {
		e->state = R_DONE;
		e->t = rc ? NULL : t;
		e->n = rc ? 0 : n;
		snprintf(e->msg, sizeof(e->msg), "%s", rc ? err.msg : "");
		t = NULL;
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (t)
		tt_tables_free(t, n);
}

static void build_counters(struct tt_rcache *c, const struct tt_aopts *o, uint64_t gen)
{
	struct tt_counters v;
	tt_counters_compute(c->app->m, o, &v);
	pthread_mutex_lock(&c->mu);
	if (c->cgen == gen && c->cstate == R_BUILDING) {
		c->counters = v;
		c->cstate = R_DONE;
	} else {
		tt_counters_free(&v);
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

static void *worker(void *arg)
{
	struct tt_rcache *c = arg;
	for (size_t i = 0; i < TT_ARRAY_SIZE(ahead); i++) {
		pthread_mutex_lock(&c->mu);
		if (c->stop || c->gen != 0) {
			pthread_mutex_unlock(&c->mu);
			break;
		}
		struct rentry *e = entry(c, ahead[i]);
		bool mine = e && e->state == R_NONE;
		if (mine)
			e->state = R_BUILDING;
		pthread_mutex_unlock(&c->mu);
		if (mine)
			build(c, ahead[i], &c->o, 0);
		if (i == 5) {
			/* the Counters pane's series, after the reports before it */
			pthread_mutex_lock(&c->mu);
			bool go = !c->stop && c->gen == 0 && c->cstate == R_NONE;
			if (go) {
				c->cstate = R_BUILDING;
				c->cgen = 0;
			}
			pthread_mutex_unlock(&c->mu);
			if (go)
				build_counters(c, &c->o.a, 0);
		}
	}
	return NULL;
}

const struct tt_counters *tt_app_counters(struct tt_app *a)
{
	struct tt_rcache *c = cache_of(a);
	pthread_mutex_lock(&c->mu);
	if (c->cgen != c->gen && c->cstate != R_BUILDING) {
		if (c->cstate == R_DONE)
			tt_counters_free(&c->counters);
		c->cstate = R_NONE;
		c->cgen = c->gen;
	}
	if (c->cstate == R_NONE) {
		c->cstate = R_BUILDING;
		c->cgen = c->gen;
		uint64_t gen = c->gen;
		pthread_mutex_unlock(&c->mu);
		build_counters(c, &a->ropts.a, gen);
		pthread_mutex_lock(&c->mu);
	}
	while (c->cstate != R_DONE || c->cgen != c->gen) {
		if (c->cstate == R_NONE || (c->cstate == R_DONE && c->cgen != c->gen)) {
			/* built for other ranks meanwhile: build again here */
			if (c->cstate == R_DONE)
				tt_counters_free(&c->counters);
			c->cstate = R_BUILDING;
			c->cgen = c->gen;
			uint64_t gen = c->gen;
			pthread_mutex_unlock(&c->mu);
			build_counters(c, &a->ropts.a, gen);
			pthread_mutex_lock(&c->mu);
			continue;
		}
		pthread_cond_wait(&c->cv, &c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return &c->counters;
}

void tt_app_prefetch(struct tt_app *a)
{
	struct tt_rcache *c = cache_of(a);
	if (c->thread)
		return;
	c->o = a->ropts;
	if (a->nranks) {
		c->ranks = tt_malloc(a->nranks * sizeof(*c->ranks));
		memcpy(c->ranks, a->ranks, a->nranks * sizeof(*c->ranks));
	}
	c->o.a.ranks = c->ranks;
	c->o.a.nranks = a->nranks;
	c->thread = pthread_create(&c->th, NULL, worker, c) == 0;
}

/* the app's ranks changed: what was built is stale */
void tt_rcache_invalidate(struct tt_app *a)
{
	struct tt_rcache *c = cache_of(a);
	pthread_mutex_lock(&c->mu);
	c->gen++;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

void tt_rcache_free(struct tt_app *a)
{
	struct tt_rcache *c = a->rcache;
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	c->stop = true;
	pthread_mutex_unlock(&c->mu);
	if (c->thread)
		pthread_join(c->th, NULL);
	for (int i = 0; i < c->n; i++)
		if (c->e[i].t)
			tt_tables_free(c->e[i].t, c->e[i].n);
	if (c->cstate == R_DONE)
		tt_counters_free(&c->counters);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cv);
	free(c->ranks);
	free(c);
	a->rcache = NULL;
}

struct tt_table *tt_app_table(struct tt_app *a, const char *name, const char *table, char *msg,
			      size_t msgn)
{
	struct tt_rcache *c = cache_of(a);
	pthread_mutex_lock(&c->mu);
	struct rentry *e = entry(c, name);
	if (!e) {
		pthread_mutex_unlock(&c->mu);
		snprintf(msg, msgn, "too many reports");
		return NULL;
	}
	uint64_t gen = c->gen;
	if (e->state == R_NONE) {
		/* nobody builds it: build it here, now */
		e->state = R_BUILDING;
		pthread_mutex_unlock(&c->mu);
		build(c, name, &a->ropts, gen);
		pthread_mutex_lock(&c->mu);
	}
	/* wait for the background thread if it is building this one */
	for (;;) {
		e = NULL;
		for (int i = 0; i < c->n; i++)
			if (c->e[i].gen == gen && strcmp(c->e[i].name, name) == 0)
				e = &c->e[i];
		if (!e || e->state == R_DONE)
			break;
		pthread_cond_wait(&c->cv, &c->mu);
	}
	struct tt_table *out = NULL;
	if (e && e->t) {
		for (size_t i = 0; i < e->n && !out; i++)
			if (strcmp(e->t[i]->name, table) == 0)
				out = tt_table_copy(e->t[i]);
		if (!out)
			snprintf(msg, msgn, "no %s table", table);
	} else {
		snprintf(msg, msgn, "%s", e && e->msg[0] ? e->msg : "nothing to show");
	}
	pthread_mutex_unlock(&c->mu);
	return out;
}

void tt_app_wait_prefetch(struct tt_app *a)
{
	struct tt_rcache *c = a->rcache;
	if (c && c->thread) {
		pthread_join(c->th, NULL);
		c->thread = false;
	}
}
