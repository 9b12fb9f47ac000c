/* Pane 6, Launch: kernel launch statistics per rank, and its drill-down,
 * the launch outliers of one rank. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static int launch_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "launch", "launch_summary"))
		return -1;
	pane_add_bar_at(p->table, TT_LSUM_DELAY_MEAN, "mean delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, p->table);
	const struct tt_launch *l = tt_res_launch(p->app->res);
	tt_pane_head(p, TT_ROLE_DIM,
		     "cutoffs: runtime %.0f us, launch delay %.0f us (--runtime-cutoff, "
		     "--launch-delay-cutoff). Enter: the outliers of the rank",
		     l->runtime_cutoff_us, l->delay_cutoff_us);
	return 0;
}

/* ---- the outliers of one rank ---- */

/* the outliers of each kind shown, the largest (the pane says of how many) */
#define OUTLIERS_SHOWN 10000

struct ref {
	const struct tt_launch_row *w; /* (in the rank's order) */
	int64_t key;
};

/* x before y: the larger key, then the rank's order */
static bool ref_before(const struct ref *x, const struct ref *y)
{
	return x->key != y->key ? x->key > y->key : x->w < y->w;
}

static int ref_cmp(const void *a, const void *b, void *ctx)
{
	const struct ref *x = a, *y = b;
	(void)ctx;
	return ref_before(x, y) ? -1 : ref_before(y, x) ? 1 : 0;
}

/* keep the first `cap` refs in ref_before's order: h[0..n) is a heap whose
 * root is the last of those kept */
static void keep_first(struct ref *h, size_t *n, size_t cap, struct ref r)
{
	size_t i;
	if (*n < cap) {
		i = (*n)++;
		while (i > 0 && ref_before(&h[(i - 1) / 2], &r)) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = r;
		return;
	}
	if (!ref_before(&r, &h[0]))
		return;
	i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && ref_before(&h[c], &h[c + 1]))
			c++;
		if (!ref_before(&r, &h[c]))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = r;
}

struct outlier_state {
	size_t rank;                      /* index into the analysis' ranks */
	const struct tt_launch_row **row; /* table row i = row[i] */
	size_t n;
	/* the work of opening (off the UI thread): each kind's largest, in
	 * order, and how many there are */
	const struct tt_launch *l;
	struct ref *sel[3];
	size_t nsel[3], all[3];
};

/* each kind's largest outliers of the rank, in order (tt_pane_work) */
static void outliers_work(void *arg, const atomic_bool *cancel)
{
	struct outlier_state *s = arg;
	const struct tt_launch *l = s->l;
	const struct tt_launch_rank *rk = &l->ranks[s->rank];
	(void)cancel;
	for (int kind = 0; kind < 3; kind++) {
		struct ref *v = tt_malloc((OUTLIERS_SHOWN + 1) * sizeof(*v));
		size_t nv = 0;
		for (size_t j = 0; j < rk->nrows; j++) {
			const struct tt_launch_row *w = &rk->rows[j];
			bool in = kind == 0 ? tt_launch_runtime_outlier(l, w) :
				  kind == 1 ? tt_launch_delay_outlier(l, w) :
					      tt_launch_short_kernel(l, w);
			if (in) {
				struct ref x = {w, kind == 1 ? w->delay : w->cpu_dur};
				keep_first(v, &nv, OUTLIERS_SHOWN, x);
				s->all[kind]++;
			}
		}
		tt_msort(v, nv, sizeof(*v), ref_cmp, NULL);
		s->sel[kind] = v;
		s->nsel[kind] = nv;
	}
}

static int outliers_open(struct tt_pane *p)
{
	static const struct tt_col cols[] = {
		{.name = "kind", .type = TT_C_STR},
		{.name = "launch_delay", .title = "launch delay", .type = TT_C_DUR},
		{.name = "correlation", .type = TT_C_INT},
		{.name = "runtime", .type = TT_C_STR, .width = 20},
		{.name = "kernel", .type = TT_C_STR, .width = 50},
		{.name = "cpu_duration", .title = "runtime call", .type = TT_C_DUR},
		{.name = "gpu_duration", .title = "GPU op", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "cpu_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "gpu_event", .type = TT_C_INT, .hidden_text = true},
	};
	/* the kind first: one launch can be an outlier of several kinds; each
	 * kind largest first (the runtime call, or the delay) */
	static const char *const why[] = {"long runtime", "long delay", "short kernel"};
	struct outlier_state *s = p->state;
	const struct tt_launch *l = tt_res_launch(p->app->res);
	const struct tt_launch_rank *rk = &l->ranks[s->rank];
	const struct tt_rank *r = p->app->m->ranks[rk->rank_idx];
	if (!s->l)
		s->l = l;
	/* (a pass over the rank's launches, each kind's largest kept) */
	if (!tt_pane_work(p, outliers_work, s))
		return TT_OPEN_WAIT;
	struct tt_table *t = tt_table_new("outliers", cols, (int)TT_ARRAY_SIZE(cols));
	s->row = tt_malloc((s->nsel[0] + s->nsel[1] + s->nsel[2] + 1) * sizeof(*s->row));
	size_t *all = s->all;
	for (int kind = 0; kind < 3; kind++) {
		const struct ref *v = s->sel[kind];
		for (size_t i = 0; i < s->nsel[kind]; i++) {
			const struct tt_launch_row *w = v[i].w;
			size_t k = tt_table_add_row(t);
			tt_table_set_str(t, k, 0, why[kind]);
			tt_table_set_int(t, k, 1, w->delay);
			tt_table_set_int(t, k, 2, w->corr);
			tt_table_set_str(t, k, 3, tt_ev_name(r, &r->ev[w->cpu]));
			tt_table_set_str(t, k, 4, tt_ev_name(r, &r->ev[w->gpu]));
			tt_table_set_int(t, k, 5, w->cpu_dur);
			tt_table_set_int(t, k, 6, w->gpu_dur);
			tt_table_set_int(t, k, 7, rk->rank_idx);
			tt_table_set_int(t, k, 8, w->cpu);
			tt_table_set_int(t, k, 9, w->gpu);
			s->row[s->n++] = w;
		}
	}
	pane_add_bar_at(t, 1, "launch delay", TT_ROLE_BAR_RUNTIME, 0);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, 1, true);
	if (all[0] + all[1] + all[2] > t->nrows) {
		char c[3][32];
		for (int k = 0; k < 3; k++)
			tt_fmt_count(c[k], sizeof(c[k]), (int64_t)all[k]);
		tt_pane_head(p, TT_ROLE_DIM,
			     "the %d largest of each kind: of %s long runtime calls, %s long "
			     "delays, %s short kernels (all: tracetop report launch)",
			     OUTLIERS_SHOWN, c[0], c[1], c[2]);
	}
	tt_pane_head(p, TT_ROLE_DIM, "Enter: the timeline at the kernel");
	return 0;
}

static void outliers_close(struct tt_pane *p)
{
	struct outlier_state *s = p->state;
	if (s) {
		free(s->row);
		for (int k = 0; k < 3; k++)
			free(s->sel[k]);
	}
	free(s);
}

static struct tt_pane *outlier_drill(struct tt_pane *p, size_t row)
{
	struct outlier_state *s = p->state;
	if (row >= s->n)
		return NULL;
	const struct tt_launch *l = tt_res_launch(p->app->res);
	return tt_timeline_new(p->app, l->ranks[s->rank].rank_idx, s->row[row]->gpu, 0);
}

static const struct tt_pane_ops outliers_ops = {
	.name = "outliers",
	.title = "Outliers",
	.help = "Kernel launches of one rank that stand out: a long launch delay (the GPU "
		"started the kernel long after the runtime call returned), a long runtime call, "
		"or a short kernel (shorter than its own launch call).  Enter opens the timeline.",
	.open = outliers_open,
	.close = outliers_close,
	.drill = outlier_drill,
};

/* the summary has one row per rank of the analysis, in order */
static struct tt_pane *launch_drill(struct tt_pane *p, size_t row)
{
	const struct tt_launch *l = tt_res_launch(p->app->res);
	if (row >= l->nranks)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &outliers_ops);
	struct outlier_state *s = tt_calloc(1, sizeof(*s));
	s->rank = row;
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "rank %lld", (long long)l->ranks[row].rank);
	return np;
}

static const struct tt_pane_diff launch_diff = {
	.nkeys = 1,
	.cols = {TT_LSUM_DELAY_MEAN, TT_LSUM_ROWS, TT_LSUM_CPU_MEAN, TT_LSUM_GPU_MEAN,
		 TT_LSUM_DELAY_MAX, TT_LSUM_DELAY_SUM, TT_LSUM_CPU_SUM, TT_LSUM_GPU_SUM,
		 TT_LSUM_RUNTIME_OUTLIERS, TT_LSUM_DELAY_OUTLIERS},
	.ncols = 10,
	.rank_col = TT_LSUM_RANK,
	.more_is = -1,
	.what = "mean launch delay per rank",
	.drill_both = tt_sides_drill,
};

const struct tt_pane_ops tt_launch_ops = {
	.name = "launch",
	.title = "Launch",
	.help = "CUDA kernel launch statistics per rank (HTA): each launch call joined with "
		"its GPU op by correlation id; the CPU duration of the call, the GPU duration, "
		"and the launch delay (GPU start - end of the call).  Outliers use the cutoffs "
		"shown above.  Enter lists the rank's outliers.",
	.open = launch_open,
	.drill = launch_drill,
	.needs = TT_NEED(TT_RES_LAUNCH),
	.diff = &launch_diff,
};
