/* The generic table pane: its table, head lines, cursor, sort, filter,
 * drawing and CSV writing; the services panes get from the explorer; small
 * helpers the pane files share.  See pane.h for who may call what. */
#include "config.h"

#include "pane.h"

#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/diff.h"
#include "tracetop/pool.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"

/* ---- a pane ---- */

struct tt_pane *tt_pane_new(struct tt_app *a, const struct tt_pane_ops *ops)
{
	struct tt_pane *p = tt_calloc(1, sizeof(*p));
	p->ops = ops;
	p->app = a;
	p->sort_col = -1;
	return p;
}

static void pane_clear(struct tt_pane *p)
{
	if (p->ops->close)
		p->ops->close(p);
	p->state = NULL;
	tt_table_free(p->table);
	p->table = NULL;
	free(p->rows);
	p->rows = NULL;
	p->nrows = 0;
	free(p->row_role);
	p->row_role = NULL;
	for (size_t i = 0; i < p->nhead; i++)
		free(p->head[i].text);
	free(p->head);
	p->head = NULL;
	p->nhead = 0;
	p->msg[0] = '\0';
	p->opened = false;
	tt_pane_free(p->shadow);
	tt_pane_free(p->shadow_b);
	p->shadow = p->shadow_b = NULL;
}

/* ---- open()'s work on a thread of its own ---- */

struct tt_pane_job {
	pthread_t th;
	void (*fn)(void *arg, const atomic_bool *cancel);
	void *arg;
	void (*wake)(void);
	atomic_bool cancel, done;
};

static void *job_main(void *x)
{
	struct tt_pane_job *j = x;
	j->fn(j->arg, &j->cancel);
	atomic_store(&j->done, true);
	if (j->wake)
		j->wake();
	return NULL;
}

/* the job ended: join its thread */
static void job_end(struct tt_pane *p)
{
	pthread_join(p->job->th, NULL);
	free(p->job);
	p->job = NULL;
}

bool tt_pane_work(struct tt_pane *p, void (*fn)(void *arg, const atomic_bool *cancel), void *arg)
{
	static atomic_bool never;
	if (p->worked)
		return true;
	struct tt_pane_job *j = p->job;
	if (!j) {
		struct tt_app *a = p->app;
		/* (closed panes still at work: start when one has ended) */
		tt_ui_reap(a, false);
		if (a->async && a->norphans >= TT_ARRAY_SIZE(a->orphan))
			return false;
		j = tt_calloc(1, sizeof(*j));
		j->fn = fn;
		j->arg = arg;
		j->wake = a->wake;
		if (!a->async || !tt_thread_start(&j->th, job_main, j)) {
			free(j);
			fn(arg, &never);
			p->worked = true;
			return true;
		}
		p->job = j;
		return false;
	}
	if (!atomic_load(&j->done))
		return false;
	job_end(p);
	p->worked = true;
	return true;
}

void tt_ui_reap(struct tt_app *a, bool wait)
{
	size_t k = 0;
	for (size_t i = 0; i < a->norphans; i++) {
		struct tt_pane *p = a->orphan[i];
		if (wait || atomic_load(&p->job->done)) {
			job_end(p);
			tt_pane_free(p);
		} else {
			a->orphan[k++] = p;
		}
	}
	a->norphans = k;
}

void tt_pane_free(struct tt_pane *p)
{
	if (!p)
		return;
	if (p->job) {
		/* its work still runs: told to stop, and the pane kept until
		 * it has returned (there is always room: tt_pane_work starts
		 * no work while the orphans are full) */
		struct tt_app *a = p->app;
		atomic_store(&p->job->cancel, true);
		if (!atomic_load(&p->job->done) && a->norphans < TT_ARRAY_SIZE(a->orphan)) {
			a->orphan[a->norphans++] = p;
			return;
		}
		job_end(p);
	}
	pane_clear(p);
	free(p);
}

/* Whether the results p's open() reads are computed; when not, the
 * background thread is asked for them first. */
static bool results_ready(struct tt_results *res, unsigned needs)
{
	enum tt_rkind k[TT_RES_COUNT];
	size_t n = 0;
	for (int i = 0; i < TT_RES_COUNT; i++)
		if ((needs & TT_NEED(i)) && !tt_results_ready(res, (enum tt_rkind)i))
			k[n++] = (enum tt_rkind)i;
	if (n)
		tt_results_want(res, k, n);
	return n == 0;
}

static bool needs_ready(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	bool ok = results_ready(a->res, p->ops->needs);
	/* side by side: the other side's too; a diff: the diff (the headline,
	 * the rank pairs) */
	if (a->m2 && a->view == TT_VIEW_BOTH && p->ops->diff && a->side_res[1])
		ok &= results_ready(a->side_res[1], p->ops->needs);
	if (tt_ui_diffing(a) && !p->ops->draw)
		ok &= results_ready(tt_ui_diff_results(a), TT_NEED(TT_RES_DIFF));
	return ok;
}

/* ---- a diff: the headline, and panes side by side ---- */

static const char *label_of(const struct tt_app *a, int s)
{
	const char *l = s ? a->ropts.label_b : a->ropts.label_a;
	return l ? l : s ? "Test" : "Control";
}

struct tt_results *tt_ui_diff_results(struct tt_app *a)
{
	return a->side_res[0] ? a->side_res[0] : a->res;
}

const struct tt_aopts *tt_ui_side_aopts(struct tt_app *a, int s)
{
	return a->m2 ? &a->side_aopts[s ? 1 : 0] : &a->ropts.a;
}

bool tt_ui_diffing(const struct tt_app *a)
{
	return a->m2 && (a->diff_mode || a->view != TT_VIEW_CONTROL);
}

int tt_ui_pane_sides(const struct tt_pane *p)
{
	const struct tt_app *a = p->app;
	if (!tt_ui_diffing(a))
		return 0;
	if (p->sides)
		return p->sides;
	if ((a->view == TT_VIEW_BOTH && p->ops->diff) || strcmp(p->source, "diff") == 0)
		return 2;
	return p->ops->both_sides ? 2 : 0;
}

/* the rank of the Control side paired with rank v of the Test side (v
 * itself when none is) */
static int64_t paired_rank(struct tt_app *a, int64_t v)
{
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(a), NULL);
	for (size_t i = 0; d && i < d->nranks; i++)
		if (d->ranks[i].rank[1] == v)
			return d->ranks[i].rank[0];
	return v;
}

/* The streams of the rank pairs, paired by what they carry: computed for a
 * pair when first asked, kept for the app (tt_ui_share). */
struct spairs_pair {
	int64_t rank[2];
	struct tt_stream_pair *p;
	size_t n;
};
struct spairs {
	struct spairs_pair *v;
	size_t n, cap;
};
static const int spairs_tag;

static void spairs_drop(void *x)
{
	struct spairs *s = x;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].p);
	free(s->v);
	free(s);
}

static const struct spairs_pair *stream_pairs(struct tt_app *a, int64_t ra, int64_t rb)
{
	struct spairs *s = tt_ui_shared(a, &spairs_tag);
	if (!s) {
		s = tt_calloc(1, sizeof(*s));
		if (!tt_ui_share(a, &spairs_tag, s, spairs_drop)) {
			free(s);
			return NULL;
		}
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].rank[0] == ra && s->v[i].rank[1] == rb)
			return &s->v[i];
	size_t ia = pane_rank_index(a->side_m[0], ra), ib = pane_rank_index(a->side_m[1], rb);
	if (ia == SIZE_MAX || ib == SIZE_MAX)
		return NULL;
	TT_GROW(s->v, s->cap, s->n + 1);
	struct spairs_pair *q = &s->v[s->n++];
	q->rank[0] = ra;
	q->rank[1] = rb;
	q->n = tt_diff_stream_pairs(a->side_m[0]->ranks[ia], a->side_m[1]->ranks[ib], &q->p);
	return q;
}

/* the stream number a key cell names: the number, or the N of a text
 * ending in "stream N"; -1 when none */
static int64_t stream_of(const struct tt_cell *x, size_t *at)
{
	*at = 0;
	if (x->kind == TT_CV_I)
		return x->v.i;
	if (x->kind != TT_CV_S)
		return -1;
	const char *p = strstr(x->v.s, "stream ");
	if (!p || !p[7] || strspn(p + 7, "0123456789") != strlen(p + 7))
		return -1;
	*at = (size_t)(p + 7 - x->v.s);
	return strtoll(p + 7, NULL, 10);
}

/* the pair of stream v of side `side` (its rank: rank[side]), or NULL */
static const struct tt_stream_pair *stream_pair_of(struct tt_app *a, const int64_t rank[2],
						   int side, int64_t v)
{
	const struct spairs_pair *q = stream_pairs(a, rank[0], rank[1]);
	for (size_t i = 0; q && i < q->n; i++)
		if (q->p[i].stream[side] == v)
			return &q->p[i];
	return NULL;
}

/* map_key of tt_table_diff: a Test row's rank and stream in the
 * Control's terms */
static const char *map_key(void *ctx, const struct tt_table *b, size_t row, int col, char *buf,
			   size_t n)
{
	struct tt_pane *p = ctx;
	const struct tt_pane_diff *pd = p->ops->diff;
	const struct tt_cell *x = tt_table_cell(b, row, col);
	if (col == pd->rank_col && x->kind == TT_CV_I) {
		snprintf(buf, n, "%lld", (long long)paired_rank(p->app, x->v.i));
		return buf;
	}
	if (!pd->stream_key || pd->rank_col < 0 || col != tt_table_col(b, pd->stream_key))
		return NULL;
	const struct tt_cell *rc = tt_table_cell(b, row, pd->rank_col);
	size_t at;
	int64_t v = stream_of(x, &at);
	if (rc->kind != TT_CV_I || v < 0)
		return NULL;
	int64_t rank[2] = {paired_rank(p->app, rc->v.i), rc->v.i};
	const struct tt_stream_pair *sp = stream_pair_of(p->app, rank, 1, v);
	/* a stream with no partner joins no row of the Control's */
	if (!sp || sp->stream[0] < 0)
		snprintf(buf, n, "%.*s%lld (%s only)", (int)at, x->kind == TT_CV_S ? x->v.s : "",
			 (long long)v, label_of(p->app, 1));
	else
		snprintf(buf, n, "%.*s%lld", (int)at, x->kind == TT_CV_S ? x->v.s : "",
			 (long long)sp->stream[0]);
	return buf;
}

/* pair_text of tt_table_diff: a stream paired with another number says
 * what they both carry ("20 | 14 (comm)") */
static const char *pair_text(void *ctx, const struct tt_table *ta, size_t ra,
			     const struct tt_table *tb, size_t rb, int col, const char *xa,
			     const char *xb, char *buf, size_t n)
{
	struct tt_pane *p = ctx;
	const struct tt_pane_diff *pd = p->ops->diff;
	if (!pd->stream_key || pd->rank_col < 0 || col != tt_table_col(ta, pd->stream_key) ||
	    strcmp(xa, xb) == 0)
		return NULL;
	const struct tt_cell *r0 = tt_table_cell(ta, ra, pd->rank_col);
	const struct tt_cell *r1 = tt_table_cell(tb, rb, pd->rank_col);
	size_t at0, at1;
	int64_t s0 = stream_of(tt_table_cell(ta, ra, col), &at0);
	int64_t s1 = stream_of(tt_table_cell(tb, rb, col), &at1);
	if (r0->kind != TT_CV_I || r1->kind != TT_CV_I || s0 < 0 || s1 < 0)
		return NULL;
	int64_t rank[2] = {r0->v.i, r1->v.i};
	const struct tt_stream_pair *sp = stream_pair_of(p->app, rank, 0, s0);
	snprintf(buf, n, "%s | %lld (%s)", xa, (long long)s1,
		 sp ? tt_stream_kind_name((enum tt_stream_kind)sp->kind) : "?");
	return buf;
}

void tt_ui_side_enter(struct tt_app *a, int s, struct tt_ui_side *save)
{
	save->m = a->m;
	save->res = a->res;
	save->ao = a->ropts.a;
	if (!a->m2)
		return;
	a->m = a->side_m[s ? 1 : 0];
	a->res = a->side_res[s ? 1 : 0];
	a->ropts.a = a->side_aopts[s ? 1 : 0];
}

void tt_ui_side_leave(struct tt_app *a, const struct tt_ui_side *save)
{
	a->m = save->m;
	a->res = save->res;
	a->ropts.a = save->ao;
}

/* p's ops opened over side s: a pane that is not the app's, or NULL with
 * why in msg */
static struct tt_pane *open_side(struct tt_pane *p, int s, char *msg, size_t n)
{
	struct tt_app *a = p->app;
	struct tt_ui_side sv;
	tt_ui_side_enter(a, s, &sv);
	struct tt_pane *q = tt_pane_new(a, p->ops);
	q->opened = true;
	int rc = p->ops->open(q);
	tt_ui_side_leave(a, &sv);
	if (rc != 0 || !q->table) {
		snprintf(msg, n, "%s: %.200s", label_of(a, s), q->msg[0] ? q->msg : "nothing to show");
		tt_pane_free(q);
		return NULL;
	}
	return q;
}

/* The pane's table of both sides, joined (tt_table_diff), by |Δ| of the
 * primary column; Enter drills in on the Control side. */
static int open_both(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	const struct tt_pane_diff *pd = p->ops->diff;
	char why[2][300];
	struct tt_pane *q[2];
	for (int s = 0; s < 2; s++)
		q[s] = open_side(p, s, why[s], sizeof(why[s]));
	if (!q[0] && !q[1]) {
		snprintf(p->msg, sizeof(p->msg), "%s", why[0]);
		return -1;
	}
	/* a side without rows: an empty table of the other's columns */
	struct tt_table *t[2];
	for (int s = 0; s < 2; s++) {
		if (q[s]) {
			t[s] = q[s]->table;
		} else {
			t[s] = tt_table_copy(q[!s]->table);
			tt_table_truncate(t[s], 0);
		}
	}
	struct tt_table_diff_opts o = {
		.nkeys = pd->nkeys,
		.cols = pd->cols,
		.ncols = pd->ncols,
		.la = label_of(a, 0),
		.lb = label_of(a, 1),
		.map_key = pd->rank_col >= 0 ? map_key : NULL,
		.pair_text = pd->stream_key ? pair_text : NULL,
		.ctx = p,
		.more_role = pd->more_is < 0 ? TT_ROLE_WORSE : pd->more_is > 0 ? TT_ROLE_BETTER : TT_ROLE_BAR,
		.less_role = pd->more_is < 0 ? TT_ROLE_BETTER : pd->more_is > 0 ? TT_ROLE_WORSE : TT_ROLE_BAR,
	};
	struct tt_table *j = tt_table_diff(t[0], t[1], &o);
	snprintf(p->source, sizeof(p->source), "%s", q[0] ? q[0]->source : q[1]->source);
	for (int s = 0; s < 2; s++)
		if (!q[s])
			tt_table_free(t[s]);
	tt_pane_set_table(p, j);
	int absc = tt_table_col(j, "abs_diff"), bc = tt_table_col(j, "bar");
	int dc = j->cols[bc].type == TT_C_BAR ? j->cols[bc].bar_of : -1;
	for (size_t i = 0; i < j->nrows && pd->more_is && dc >= 0; i++) {
		double d = tt_cell_num(tt_table_cell(j, i, dc));
		if (d > 0 || d < 0)
			p->row_role[i] = (uint8_t)((d > 0) == (pd->more_is > 0) ? TT_ROLE_BETTER :
										 TT_ROLE_WORSE);
	}
	tt_pane_sort(p, absc, true);
	tt_pane_head(p, TT_ROLE_DIM, "%s: %s, %s and Δ, by |Δ|%s%s", pd->what, o.la, o.lb,
		     pd->drill_both ? "; Enter: " : "",
		     pd->drill_both ? (pd->enter ? pd->enter : "the row on both sides") : "");
	/* the sides' panes stay, with their tables: Enter drills into them */
	p->shadow = q[0];
	p->shadow_b = q[1];
	return j->nrows ? 0 : -1;
}

/* The headline of the diff as the pane's first line. */
static void head_headline(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	const struct tt_diff *d = tt_res_diff(tt_ui_diff_results(a), NULL);
	if (!d)
		return;
	char buf[600];
	tt_diff_headline_text(d, label_of(a, 0), label_of(a, 1), buf, sizeof(buf));
	for (size_t i = 0; i < p->nhead; i++)
		if (strcmp(p->head[i].text, buf) == 0) {
			/* the table's own title: moved first, not said twice */
			struct tt_head_line h = p->head[i];
			memmove(p->head + 1, p->head, i * sizeof(*p->head));
			p->head[0] = h;
			p->head[0].role = TT_ROLE_MARKED;
			return;
		}
	tt_pane_head(p, TT_ROLE_MARKED, "%s", buf);
	/* first */
	struct tt_head_line h = p->head[p->nhead - 1];
	memmove(p->head + 1, p->head, (p->nhead - 1) * sizeof(*p->head));
	p->head[0] = h;
}

void tt_pane_open(struct tt_pane *p)
{
	if (p->opened)
		return;
	if (p->app->async && p->ops->needs && !needs_ready(p)) {
		/* not yet: drawn as "computing", opened by a later call */
		p->waiting = true;
		snprintf(p->msg, sizeof(p->msg), "%s: computing… (the other panes and keys answer meanwhile)",
			 p->ops->title);
		return;
	}
	if (p->waiting) {
		p->waiting = false;
		p->msg[0] = '\0';
	}
	p->opened = true;
	int rc = 0;
	if (p->ops->diff && p->app->m2 && p->app->view == TT_VIEW_BOTH)
		rc = open_both(p);
	else if (p->ops->open)
		rc = p->ops->open(p);
	if (rc == TT_OPEN_WAIT) {
		/* its work runs on: opened by a later call */
		p->opened = false;
		p->waiting = true;
		snprintf(p->msg, sizeof(p->msg),
			 "%s: computing… (Esc: back; the other panes and keys answer meanwhile)",
			 p->subtitle[0] ? p->subtitle : p->ops->title);
		return;
	}
	if (rc != 0 && !p->msg[0])
		snprintf(p->msg, sizeof(p->msg), "nothing to show");
	if (tt_ui_diffing(p->app) && !p->ops->draw)
		head_headline(p);
	/* a pane opens on its first row, whatever sorting open() did */
	p->cursor = 0;
	p->top = 0;
}

void tt_pane_head(struct tt_pane *p, enum tt_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->head = tt_realloc_array(p->head, p->nhead + 1, sizeof(*p->head));
	p->head[p->nhead].role = (uint8_t)role;
	p->head[p->nhead].text = tt_strdup(buf);
	p->nhead++;
}

size_t tt_pane_row(const struct tt_pane *p)
{
	if (!p->table || p->cursor >= p->nrows)
		return SIZE_MAX;
	return p->rows[p->cursor];
}

void tt_pane_goto(struct tt_pane *p, size_t row)
{
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i] == row) {
			p->cursor = i;
			return;
		}
}

struct sort_ctx {
	const struct tt_table *t;
	int col;
	bool desc;
};

static int row_cmp(const void *a, const void *b, void *vctx)
{
	const struct sort_ctx *c = vctx;
	size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
	const struct tt_cell *x = tt_table_cell(c->t, ra, c->col), *y = tt_table_cell(c->t, rb, c->col);
	bool nx = x->kind == TT_CV_NONE, ny = y->kind == TT_CV_NONE;
	int r;
	if (nx || ny) {
		r = nx == ny ? 0 : nx ? 1 : -1;
		return r ? r : (ra < rb ? -1 : 1);
	}
	if (x->kind == TT_CV_S || y->kind == TT_CV_S) {
		r = strcmp(x->kind == TT_CV_S ? x->v.s : "", y->kind == TT_CV_S ? y->v.s : "");
	} else {
		double dx = tt_cell_num(x), dy = tt_cell_num(y);
		r = dx < dy ? -1 : dx > dy;
	}
	if (c->desc)
		r = -r;
	return r ? r : (ra < rb ? -1 : 1);
}

/* The column whose values order column c: a text shown for the number in
 * the column before it (a size with its unit, drawn on the screen, beside
 * the bytes, written to CSV) sorts by that number; any other, by itself. */
static int sort_key(const struct tt_table *t, int c)
{
	const struct tt_col *col = &t->cols[c];
	if (c > 0 && col->type == TT_C_STR && col->hidden_csv && t->cols[c - 1].hidden_text &&
	    t->cols[c - 1].type != TT_C_STR)
		return c - 1;
	return c;
}

static void pane_order(struct tt_pane *p)
{
	size_t keep = tt_pane_row(p);
	free(p->rows);
	p->rows = tt_malloc((p->table->nrows + 1) * sizeof(*p->rows));
	p->nrows = 0;
	for (size_t r = 0; r < p->table->nrows; r++)
		if (!p->filter[0] || tt_table_row_matches(p->table, r, p->filter))
			p->rows[p->nrows++] = r;
	if (p->sort_col >= 0) {
		struct sort_ctx c = {p->table, sort_key(p->table, p->sort_col), p->sort_desc};
		tt_msort(p->rows, p->nrows, sizeof(*p->rows), row_cmp, &c);
	}
	p->cursor = 0;
	p->top = 0;
	if (keep != SIZE_MAX)
		tt_pane_goto(p, keep);
}

void tt_pane_refilter(struct tt_pane *p)
{
	if (p->table)
		pane_order(p);
}

void tt_pane_sort(struct tt_pane *p, int c, bool desc)
{
	p->sort_col = c;
	p->sort_desc = desc;
	if (p->table)
		pane_order(p);
}

void tt_pane_set_table(struct tt_pane *p, struct tt_table *t)
{
	if (p->table != t) {
		tt_table_free(p->table);
		p->table = t;
		free(p->row_role);
		p->row_role = NULL;
	}
	/* row roles survive a column added to the same table */
	if (!p->row_role)
		p->row_role = tt_calloc(t->nrows + 1, 1);
	pane_order(p);
}

struct tt_table *tt_pane_table(struct tt_pane *p, const char *name, const char *table)
{
	struct tt_report_opts o = p->app->ropts;
	o.table = table;
	struct tt_table **t;
	size_t n;
	struct tt_err err;
	tt_err_clear(&err);
	/* (the diff is of both sides, whichever is shown) */
	struct tt_results *res = strcmp(name, "diff") == 0 ? tt_ui_diff_results(p->app) : p->app->res;
	if (tt_report_tables(res, name, &o, &t, &n, &err)) {
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg[0] ? err.msg : "nothing to show");
		return NULL;
	}
	struct tt_table *keep = NULL;
	for (size_t i = 0; i < n; i++)
		if (!keep && strcmp(t[i]->name, table) == 0) {
			keep = t[i];
			t[i] = NULL;
		}
	tt_tables_free(t, n);
	if (!keep)
		snprintf(p->msg, sizeof(p->msg), "no %s table", table);
	else
		snprintf(p->source, sizeof(p->source), "%s", name);
	return keep;
}

int tt_pane_report(struct tt_pane *p, const char *name, const char *table)
{
	struct tt_table *keep = tt_pane_table(p, name, table);
	if (!keep)
		return -1;
	/* the title says what the numbers are of (which span, which events) */
	if (keep->title)
		tt_pane_head(p, TT_ROLE_DIM, "%s", keep->title);
	for (size_t i = 0; i < keep->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", keep->notes[i]);
	tt_pane_set_table(p, keep);
	return 0;
}

/* ---- the job's verdict ---- */

/* (the text of a verdict head while the critical path is computed) */
static const char verdict_wait[] = "what bounds the job: finding its critical path across ranks…";

void pane_verdict_head(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	if (a->ropts.cp_model != TT_CPM_TRACETOP)
		return;
	if (!a->async || tt_results_ready(a->res, TT_RES_CRITPATH)) {
		char v[300];
		tt_report_cp_verdict(tt_res_critpath(a->res), v, sizeof(v));
		if (v[0])
			tt_pane_head(p, TT_ROLE_MARKED, "%s", v);
		return;
	}
	tt_pane_head(p, TT_ROLE_DIM, "%s", verdict_wait);
	p->pending = true;
}

void pane_verdict_refresh(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	if (!p->pending || !tt_results_ready(a->res, TT_RES_CRITPATH))
		return;
	p->pending = false;
	for (size_t i = 0; i < p->nhead; i++) {
		if (strcmp(p->head[i].text, verdict_wait) != 0)
			continue;
		char v[300];
		tt_report_cp_verdict(tt_res_critpath(a->res), v, sizeof(v));
		free(p->head[i].text);
		if (v[0]) {
			p->head[i].text = tt_strdup(v);
			p->head[i].role = TT_ROLE_MARKED;
		} else {
			memmove(p->head + i, p->head + i + 1, (p->nhead - i - 1) * sizeof(*p->head));
			p->nhead--;
		}
		return;
	}
}

void pane_set_head(struct tt_pane *p, size_t i, enum tt_role role, const char *text)
{
	if (i >= p->nhead)
		return;
	free(p->head[i].text);
	p->head[i].text = tt_strdup(text);
	p->head[i].role = (uint8_t)role;
}

/* ---- the generic list's keys ---- */

int tt_pane_list_key(struct tt_pane *p, enum tt_action act)
{
	size_t page = p->page > 1 ? (size_t)p->page - 1 : 1;
	if (!p->table)
		return TT_R_UNHANDLED;
	switch (act) {
	case TT_ACT_MOVE_DOWN:
		if (p->cursor + 1 < p->nrows)
			p->cursor++;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_UP:
		if (p->cursor > 0)
			p->cursor--;
		return TT_R_REDRAW;
	case TT_ACT_PAGE_DOWN:
		p->cursor = p->nrows ? TT_MIN(p->cursor + page, p->nrows - 1) : 0;
		p->top = TT_MIN(p->top + page, p->cursor);
		return TT_R_REDRAW;
	case TT_ACT_PAGE_UP:
		p->cursor = p->cursor > page ? p->cursor - page : 0;
		p->top = p->top > page ? p->top - page : 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_FIRST:
		p->cursor = 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_LAST:
		p->cursor = p->nrows ? p->nrows - 1 : 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_RIGHT:
		/* one column at a time; the key columns stay */
		if (p->xoff < p->layout.max_xoff)
			p->xoff++;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_LEFT:
		if (p->xoff > 0)
			p->xoff--;
		return TT_R_REDRAW;
	case TT_ACT_SORT_NEXT: {
		/* the next column that can be sorted: not a bar, not hidden;
		 * first the pane's measure when it names one */
		int c = p->sort_col < 0 && p->sort_first > 0 &&
				p->sort_first < p->table->ncols ? p->sort_first - 1 : p->sort_col;
		for (int k = 0; k < p->table->ncols; k++) {
			c = (c + 1) % p->table->ncols;
			const struct tt_col *col = &p->table->cols[c];
			if (col->type != TT_C_BAR && col->type != TT_C_STACK && !col->hidden_text)
				break;
		}
		/* numbers sort largest first, names A to Z; the view goes to the
		 * top, where the largest values now are */
		tt_pane_sort(p, c, p->table->cols[sort_key(p->table, c)].type != TT_C_STR);
		p->cursor = p->top = 0;
		tt_ui_status(p->app, TT_ROLE_DEFAULT, "sorted by %s",
			     p->table->cols[c].title ? p->table->cols[c].title :
						       p->table->cols[c].name);
		return TT_R_REDRAW;
	}
	case TT_ACT_SORT_REVERSE:
		if (p->sort_col >= 0) {
			tt_pane_sort(p, p->sort_col, !p->sort_desc);
			p->cursor = p->top = 0;
		} else {
			tt_ui_status(p->app, TT_ROLE_DIM, "not sorted yet: press s first");
		}
		return TT_R_REDRAW;
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH: {
		if (!p->filter[0] || !p->nrows) {
			tt_ui_status(p->app, TT_ROLE_WARNING, "no filter: press / first");
			return TT_R_REDRAW;
		}
		int dir = act == TT_ACT_NEXT_MATCH ? 1 : -1;
		for (size_t k = 1; k <= p->nrows; k++) {
			size_t i = (p->cursor + p->nrows + (size_t)(dir * (long)k)) % p->nrows;
			if (tt_table_row_matches(p->table, p->rows[i], p->filter)) {
				p->cursor = i;
				break;
			}
		}
		return TT_R_REDRAW;
	}
	case TT_ACT_ENTER: {
		size_t row = tt_pane_row(p);
		if (row == SIZE_MAX || !p->ops->drill)
			return TT_R_UNHANDLED;
		if (p->ops->diff && p->app->view == TT_VIEW_BOTH && p->app->m2) {
			int64_t ra = (int64_t)tt_cell_num(
				tt_table_cell(p->table, row, tt_table_col(p->table, "row_a")));
			int64_t rb = (int64_t)tt_cell_num(
				tt_table_cell(p->table, row, tt_table_col(p->table, "row_b")));
			if (p->ops->diff->drill_both) {
				/* side by side: a pane over both sides */
				struct tt_pane *side[2] = {p->shadow, p->shadow_b};
				size_t rows[2] = {ra >= 0 && p->shadow ? (size_t)ra : SIZE_MAX,
						  rb >= 0 && p->shadow_b ? (size_t)rb : SIZE_MAX};
				struct tt_pane *np = p->ops->diff->drill_both(p, side, rows);
				if (np)
					tt_ui_open(p->app, np);
				return TT_R_REDRAW;
			}
			/* side by side: the Control side's drill-down */
			if (!p->shadow || ra < 0) {
				tt_ui_status(p->app, TT_ROLE_WARNING,
					     "only in %s: press d for its view to see more",
					     label_of(p->app, 1));
				return TT_R_REDRAW;
			}
			struct tt_pane *np = p->ops->drill(p->shadow, (size_t)ra);
			if (np)
				tt_ui_open(p->app, np);
			return TT_R_REDRAW;
		}
		struct tt_pane *np = p->ops->drill(p, row);
		if (np)
			tt_ui_open(p->app, np);
		return TT_R_REDRAW;
	}
	default:
		return TT_R_UNHANDLED;
	}
}

int tt_pane_list_mouse(struct tt_pane *p, const struct tt_mouse *m)
{
	if (!p->table || !p->nrows)
		return TT_R_NONE;
	if (m->kind == TT_MOUSE_WHEEL_UP || m->kind == TT_MOUSE_WHEEL_DOWN) {
		size_t step = m->ctrl || m->shift ? 5 : 3;
		if (m->kind == TT_MOUSE_WHEEL_UP)
			p->cursor = p->cursor > step ? p->cursor - step : 0;
		else
			p->cursor = TT_MIN(p->cursor + step, p->nrows - 1);
		return TT_R_REDRAW;
	}
	if (!p->list_y || m->y < p->list_y || m->y >= p->list_y + TT_MAX(p->page, 0))
		return TT_R_NONE;
	size_t k = p->top + (size_t)(m->y - p->list_y);
	if (k >= p->nrows)
		return TT_R_NONE;
	p->cursor = k;
	if (m->kind == TT_MOUSE_DCLICK)
		return (tt_pane_list_key(p, TT_ACT_ENTER) & ~TT_R_UNHANDLED) | TT_R_REDRAW;
	return TT_R_REDRAW;
}

/* ---- drawing ---- */

/* Text wrapped at words into width w, at most maxl rows from (x, y), the
 * last ending in an ellipsis when the text goes on; with g NULL only
 * counts.  Returns the rows used. */
static int put_wrapped(struct tt_grid *g, int x, int y, enum tt_role role, const char *t, int w,
		       int maxl)
{
	return tt_grid_wrap(g, x, y, role, t, w, maxl);
}

void tt_pane_draw(struct tt_pane *p, struct tt_grid *g, int y, int body)
{
	if (p->opened && p->ops->refresh)
		p->ops->refresh(p);
	/* the lines above the table wrap when the table keeps enough rows */
	int want = 0;
	for (size_t i = 0; i < p->nhead; i++)
		want += put_wrapped(NULL, 1, 0, 0, p->head[i].text, g->w - 2, 1000);
	int need = p->table ? (int)p->nrows + 1 : 2;
	bool wrap = body - want >= TT_MIN(need, TT_MAX(body / 2, 4));
	for (size_t i = 0; i < p->nhead && body > 3; i++) {
		int n = 1;
		if (wrap)
			n = put_wrapped(g, 1, y, (enum tt_role)p->head[i].role, p->head[i].text,
					g->w - 2, body - 3);
		else if (i == 0) /* (the first, a diff's headline say, is read whole) */
			n = put_wrapped(g, 1, y, (enum tt_role)p->head[i].role, p->head[i].text,
					g->w - 2, TT_MIN(3, body - 3));
		else /* (one row: cut at a word, an ellipsis saying so) */
			put_wrapped(g, 1, y, (enum tt_role)p->head[i].role, p->head[i].text, g->w - 2,
				    1);
		y += n;
		body -= n;
	}
	p->list_y = 0;
	if (p->ops->draw && p->opened) {
		p->ops->draw(p, g, y, body);
	} else if (p->table && p->nrows) {
		int rows = body - 1;
		p->page = rows;
		p->list_y = y + 1; /* below the header */
		if (p->cursor >= p->nrows)
			p->cursor = p->nrows - 1;
		if (p->cursor < p->top)
			p->top = p->cursor;
		if (rows > 0 && p->cursor >= p->top + (size_t)rows)
			p->top = p->cursor - (size_t)rows + 1;
		struct tt_table_view v = {p->rows, p->nrows, p->top, p->cursor, true,
					  p->sort_col, p->sort_desc, p->filter[0] ? p->filter : NULL,
					  p->xoff, p->row_role, &p->layout};
		tt_table_draw(p->table, &v, g, y, body);
		/* (l pressed past the last column: h scrolls back at once) */
		p->xoff = p->layout.xoff;
		p->top = p->layout.top; /* (the details lines may take rows) */
		p->page = p->layout.nrows > 0 ? p->layout.nrows : p->page;
	} else {
		const char *m = p->msg[0] ? p->msg :
				p->table ? (p->filter[0] ? "no row matches the filter (Esc clears it)" :
							   "no rows") :
					   "nothing to show";
		put_wrapped(g, 2, y + 1, TT_ROLE_DIM, m, g->w - 4, TT_MAX(1, body - 2));
	}
}

/* ---- CSV ---- */

void tt_pane_write_csv(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	if (!p->table) {
		tt_ui_status(a, TT_ROLE_WARNING, "this view has no table to write");
		return;
	}
	/* a fresh name, created exclusively: an existing file, or a symlink
	 * planted under the next name, is never written through */
	char path[256];
	int fd = -1;
	for (int i = 0; i < 1000 && fd < 0; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "tracetop-%s.csv", p->ops->name);
		else
			snprintf(path, sizeof(path), "tracetop-%s-%d.csv", p->ops->name, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		tt_ui_status(a, TT_ROLE_ERROR, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return;
	}
	/* the rows as shown: filtered and sorted */
	struct tt_table *t = tt_table_new(p->table->name, p->table->cols, p->table->ncols);
	for (size_t i = 0; i < p->nrows; i++) {
		size_t r = tt_table_add_row(t);
		for (int c = 0; c < t->ncols; c++) {
			const struct tt_cell *x = tt_table_cell(p->table, p->rows[i], c);
			if (x->kind == TT_CV_S)
				tt_table_set_str(t, r, c, x->v.s);
			else if (x->kind == TT_CV_I)
				tt_table_set_int(t, r, c, x->v.i);
			else if (x->kind == TT_CV_D)
				tt_table_set_num(t, r, c, x->v.d);
		}
	}
	tt_table_print(t, TT_FMT_CSV, NULL, f);
	tt_table_free(t);
	bool ok = !ferror(f);
	ok = (fclose(f) == 0) && ok;
	char cwd[4096], full[4400], shown[4400];
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(full, sizeof(full), "%s/%s", cwd, path);
	/* the path from the left: its end names the file */
	tt_path_fit(shown, sizeof(shown), full, (size_t)TT_MAX(24, a->w - 22));
	if (ok) {
		tt_ui_status(a, TT_ROLE_DEFAULT, "wrote %zu rows to %s", p->nrows, shown);
	} else {
		/* (no half-written file left behind) */
		int e = errno;
		unlink(path);
		tt_ui_status(a, TT_ROLE_ERROR, "cannot write %s: %s", path, strerror(e));
	}
}

/* ---- services of the explorer ---- */

void tt_ui_status(struct tt_app *a, enum tt_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_role = (uint8_t)role;
}

void tt_ui_prompt(struct tt_app *a, int kind, const char *label, const char *init)
{
	a->prompt = kind;
	snprintf(a->prompt_label, sizeof(a->prompt_label), "%s", label);
	snprintf(a->input, sizeof(a->input), "%s", init ? init : "");
}

void tt_ui_open(struct tt_app *a, struct tt_pane *np)
{
	/* one request per handler: a later one wins */
	tt_pane_free(a->req_pane);
	a->req_pane = np;
	a->req_view[0] = '\0';
	a->req_tl.set = false;
}

void tt_ui_open_timeline(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	tt_pane_free(a->req_pane);
	a->req_pane = NULL;
	a->req_view[0] = '\0';
	a->req_tl.set = true;
	a->req_tl.ri = ri;
	a->req_tl.ev = ev;
	a->req_tl.t = t;
}

void tt_ui_open_view(struct tt_app *a, const char *name)
{
	tt_pane_free(a->req_pane);
	a->req_pane = NULL;
	a->req_tl.set = false;
	snprintf(a->req_view, sizeof(a->req_view), "%s", name);
}

void tt_ui_open_input(struct tt_app *a, enum tt_req_kind kind, size_t arg)
{
	a->req_in.kind = kind;
	a->req_in.arg = arg;
}

void *tt_ui_shared(struct tt_app *a, const void *tag)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(a->shared); i++)
		if (a->shared[i].tag == tag)
			return a->shared[i].data;
	return NULL;
}

bool tt_ui_share(struct tt_app *a, const void *tag, void *data, void (*drop)(void *))
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(a->shared); i++)
		if (!a->shared[i].tag) {
			a->shared[i].tag = tag;
			a->shared[i].data = data;
			a->shared[i].drop = drop;
			return true;
		}
	return false;
}

size_t tt_ui_warnings(const struct tt_app *a)
{
	size_t n = a->nnotes + a->m->nfailures;
	for (size_t i = 0; i < a->m->nranks; i++)
		for (int w = 0; w < TT_W_COUNT; w++)
			if (a->m->ranks[i]->report.count[w] && tt_warning_severity(w) == 'w')
				n++;
	return n;
}

void tt_ui_shared_free(struct tt_app *a)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(a->shared); i++) {
		if (a->shared[i].tag && a->shared[i].drop)
			a->shared[i].drop(a->shared[i].data);
		memset(&a->shared[i], 0, sizeof(a->shared[i]));
	}
}

/* ---- helpers ---- */

void pane_add_bar_at(struct tt_table *t, int of, const char *title, enum tt_role role, double max)
{
	if (of < 0 || of >= t->ncols)
		return;
	struct tt_col c = {
		.name = "bar", .title = title, .type = TT_C_BAR, .bar_of = of, .bar_max = max};
	c.role[0] = (uint8_t)role;
	tt_table_add_col(t, &c);
}

void pane_free_state(struct tt_pane *p)
{
	free(p->state);
}

size_t pane_rank_index(const struct tt_model *m, int64_t rank)
{
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i]->rank == rank)
			return i;
	return SIZE_MAX;
}
