/* Pane 4, Kernels: the top kernels across ranks (the report's table) and
 * the time by kernel type; its drill-down, one kernel's durations and
 * slowest instances.  From the kernel breakdown in the app's results
 * (tracetop/breakdown.h) and the instances of tracetop/drill.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/drill.h"
#include "tracetop/util.h"
#include "pane.h"

/* table row i is k->across[order[i]] */
struct kernels_state {
	const struct tt_kbreak *k;
	size_t *order;
};

static int kernels_open(struct tt_pane *p)
{
	struct kernels_state *s = tt_calloc(1, sizeof(*s));
	p->state = s;
	const struct tt_kbreak *k = s->k = tt_res_kbreak(p->app->res);
	/* the time by type, largest first (the kernel_type_breakdown report) */
	unsigned masks[8];
	int nm = tt_kbreak_labels(k, masks);
	{
		char lab[128], line[600];
		size_t n = (size_t)snprintf(line, sizeof(line), "time by type:");
		for (int i = 0; i < nm && n < sizeof(line) - 64; i++) {
			tt_kbreak_label(k, masks[i], lab, sizeof(lab));
			n += (size_t)snprintf(line + n, sizeof(line) - n, "  %s %.1f%%", lab,
					      tt_round(tt_kbreak_share(k, masks[i]), 1));
		}
		tt_pane_head(p, TT_ROLE_DEFAULT, "%s", line);
	}
	struct tt_table *t = tt_kernels_across_table(k, &p->app->ropts, &s->order);
	for (size_t i = 0; i < t->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", t->notes[i]);
	pane_add_bar_at(t, TT_ACROSS_TOTAL, "total", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	tt_pane_sort(p, TT_ACROSS_TOTAL, true);
	/* the answer to "which kernel costs most, and where is it slowest?" */
	if (p->nrows) {
		const struct tt_kacross *a = &k->across[s->order[p->rows[0]]];
		char tot[32], mx[32], mn[32];
		tt_fmt_dur(tot, sizeof(tot), a->total_ns);
		tt_fmt_dur(mx, sizeof(mx), a->max_ns);
		tt_fmt_dur(mn, sizeof(mn), a->min_ns);
		tt_pane_head(p, TT_ROLE_MARKED,
			     "most time: %s, %s on %lld rank%s; most on rank %lld (%s), least on rank "
			     "%lld (%s)",
			     a->name, tot, (long long)a->nranks, a->nranks == 1 ? "" : "s",
			     (long long)a->max_rank, mx, (long long)a->min_rank, mn);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "top kernels over the ranks shown (min/median/max rank by total time). Enter: "
		     "durations and slowest instances");
	return 0;
}

static void kernels_close(struct tt_pane *p)
{
	struct kernels_state *s = p->state;
	if (s)
		free(s->order);
	free(s);
}

/* ---- one kernel ---- */

#define INSTANCES_SHOWN 500

struct kernel_state {
	char *name;
	struct tt_kinstances ki;
};

static int kernel_open(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	struct tt_kinstances *ki = &s->ki;
	tt_kernel_instances(p->app->m, &p->app->ropts.a, s->name, ki);
	if (!ki->n) {
		snprintf(p->msg, sizeof(p->msg), "no instance of this kernel in the ranks shown");
		return -1;
	}
	tt_pane_head(p, TT_ROLE_DEFAULT, "%zu instances; durations%s:", ki->n,
		     ki->log_scale ? " (a log scale: each bin's edges in one ratio)" : "");
	for (int b = 0; b < ki->nbins; b++) {
		char l[32], h[32], bar[200];
		tt_fmt_dur(l, sizeof(l), tt_kinstances_edge(ki, b));
		tt_fmt_dur(h, sizeof(h), tt_kinstances_edge(ki, b + 1));
		tt_bar(bar, sizeof(bar), (double)ki->bins[b] / (double)ki->bmax, 30);
		/* padded by columns, not bytes: "µs" is one column in two bytes */
		char lp[48], hp[48];
		snprintf(lp, sizeof(lp), "%*s%s", TT_MAX(0, 10 - (int)tt_utf8_width(l)), "", l);
		snprintf(hp, sizeof(hp), "%s%*s", h, TT_MAX(0, 10 - (int)tt_utf8_width(h)), "");
		tt_pane_head(p, TT_ROLE_BAR, "  %s - %s %6zu %s", lp, hp, ki->bins[b], bar);
	}
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "start", .type = TT_C_DUR, .unit_group = 2},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("instances", cols, (int)TT_ARRAY_SIZE(cols));
	int64_t origin = tt_model_origin(p->app->m); /* (every screen's time origin) */
	for (size_t i = 0; i < ki->n && i < INSTANCES_SHOWN; i++) {
		const struct tt_rank *r = p->app->m->ranks[ki->v[i].ri];
		const struct tt_event *e = &r->ev[ki->v[i].ev];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, r->rank);
		tt_table_set_int(t, k, 1, r->tracks[e->track].stream);
		tt_table_set_int(t, k, 2, e->ts - origin);
		tt_table_set_int(t, k, 3, ki->v[i].dur);
		tt_table_set_int(t, k, 4, (int64_t)ki->v[i].ri);
		tt_table_set_int(t, k, 5, ki->v[i].ev);
	}
	pane_add_bar_at(t, 3, "duration", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "slowest instances first; start: since the job's first event. "
				     "Enter: the timeline at the instance");
	return 0;
}

/* table row i is instance i */
static struct tt_pane *instance_drill(struct tt_pane *p, size_t row)
{
	struct kernel_state *s = p->state;
	if (row >= s->ki.n)
		return NULL;
	return tt_timeline_new(p->app, s->ki.v[row].ri, s->ki.v[row].ev, 0);
}

static void kernel_close(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	if (s) {
		free(s->name);
		tt_kinstances_free(&s->ki);
	}
	free(s);
}

static const struct tt_pane_ops kernel_ops = {
	.name = "kernel",
	.title = "Kernel",
	.help = "One kernel: the histogram of its durations over the ranks shown, and its "
		"slowest instances.  Enter opens the timeline at an instance.",
	.open = kernel_open,
	.close = kernel_close,
	.drill = instance_drill,
};

static struct tt_pane *kernels_drill(struct tt_pane *p, size_t row)
{
	struct kernels_state *s = p->state;
	const char *name = s->k->across[s->order[row]].name;
	if (strcmp(name, "others") == 0)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &kernel_ops);
	struct kernel_state *ks = tt_calloc(1, sizeof(*ks));
	ks->name = tt_strdup(name);
	np->state = ks;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", name);
	return np;
}

/* side by side: the kernel's instances on both sides */
static struct tt_pane *kernels_drill_both(struct tt_pane *p, struct tt_pane *const side[2],
					  const size_t row[2])
{
	for (int s = 0; s < 2; s++) {
		if (row[s] == SIZE_MAX)
			continue;
		struct kernels_state *ks = side[s]->state;
		const char *name = ks->k->across[ks->order[row[s]]].name;
		if (strcmp(name, "others") == 0)
			return NULL;
		return tt_dinst_pane(p->app, name, TT_DINST_KERNEL);
	}
	return NULL;
}

static const struct tt_pane_diff kernels_diff = {
	.nkeys = 1, /* (the name; its type is the same on both sides) */
	.cols = {TT_ACROSS_TOTAL, TT_ACROSS_RANKS, TT_ACROSS_MIN, TT_ACROSS_MEDIAN, TT_ACROSS_MAX},
	.ncols = 5,
	.rank_col = -1,
	.more_is = -1,
	.what = "total time per kernel",
	.drill_both = kernels_drill_both,
	.enter = "both sides' instances",
};

const struct tt_pane_ops tt_kernels_ops = {
	.name = "kernels",
	.title = "Kernels",
	.help = "GPU kernels by total time over the ranks shown, with the rank where each one "
		"takes least, the median and the most time.  Above: the time by kernel type "
		"(computation, communication, memory, and their overlaps).  `tracetop report "
		"kernels --explain` tells which rule classified each kernel.  Enter shows a "
		"kernel's durations and slowest instances (side by side in a diff: on both "
		"sides).",
	.open = kernels_open,
	.close = kernels_close,
	.drill = kernels_drill,
	.needs = TT_NEED(TT_RES_KBREAK),
	.diff = &kernels_diff,
};
