/* Pane 4, Kernels: the top kernels across ranks and the time by kernel
 * type; its drill-down, one kernel's durations and slowest instances. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "pane.h"

static struct tt_table *report_table(struct tt_app *a, const char *name, const char *table)
{
	char msg[300];
	return tt_app_table(a, name, table, msg, sizeof(msg));
}

static int kernels_open(struct tt_pane *p)
{
	struct tt_table *types = report_table(p->app, "kernels", "kernel_type_breakdown");
	if (tt_pane_report(p, "kernels", "kernels_across_ranks"))
		return -1;
	if (types) {
		char line[600];
		size_t k = 0;
		k += (size_t)snprintf(line, sizeof(line), "time by type:");
		for (size_t i = 0; i < types->nrows && k < sizeof(line) - 64; i++)
			k += (size_t)snprintf(line + k, sizeof(line) - k, "  %s %.1f%%",
					      pane_str(types, i, "kernel_type"), pane_num(types, i, "percentage"));
		tt_pane_head(p, TT_ROLE_DEFAULT, "%s", line);
		tt_table_free(types);
	}
	pane_add_bar(p->table, "total (us)", "total", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_sort(p, tt_table_col(p->table, "total (us)"), true);
	/* the answer to "which kernel costs most, and where is it slowest?" */
	size_t top = p->nrows ? p->rows[0] : SIZE_MAX;
	if (top != SIZE_MAX && !isnan(pane_num(p->table, top, "max_rank"))) {
		char tot[32], mx[32], mn[32];
		struct tt_table *t = p->table;
		tt_fmt_dur(tot, sizeof(tot), (int64_t)pane_num(t, top, "total (us)"));
		tt_fmt_dur(mx, sizeof(mx), (int64_t)pane_num(t, top, "max (us)"));
		tt_fmt_dur(mn, sizeof(mn), (int64_t)pane_num(t, top, "min (us)"));
		tt_pane_head(p, TT_ROLE_MARKED,
			     "most time: %s, %s on %lld rank%s; most on rank %lld (%s), least on rank "
			     "%lld (%s)",
			     pane_str(t, top, "name"), tot, (long long)pane_num(t, top, "ranks"),
			     pane_num(t, top, "ranks") == 1 ? "" : "s", (long long)pane_num(t, top, "max_rank"), mx,
			     (long long)pane_num(t, top, "min_rank"), mn);
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "top kernels over the ranks shown (min/median/max rank by total time). Enter: "
		     "durations and slowest instances");
	return 0;
}

struct kernel_state {
	char *name;
};

struct inst {
	size_t ri;
	uint32_t ev;
	int64_t dur;
};

static int inst_cmp(const void *a, const void *b)
{
	const struct inst *x = a, *y = b;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static int kernel_open(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	struct tt_app *a = p->app;
	const struct tt_model *m = a->m;
	size_t n = 0, cap = 0;
	struct inst *v = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(&a->ropts.a, r->rank))
			continue;
		uint32_t id = tt_strtab_find(&r->strs, s->name, strlen(s->name));
		if (id == TT_NONE)
			continue;
		for (uint32_t i = 0; i < r->nev; i++)
			if (r->ev[i].name == id && (r->ev[i].flags & TT_EF_STREAM)) {
				TT_GROW(v, cap, n + 1);
				v[n].ri = ri;
				v[n].ev = i;
				v[n].dur = r->ev[i].dur;
				n++;
			}
	}
	if (!n) {
		free(v);
		snprintf(p->msg, sizeof(p->msg), "no instance of this kernel in the ranks shown");
		return -1;
	}
	qsort(v, n, sizeof(*v), inst_cmp);
	/* histogram of durations: 8 bins between min and max */
	int64_t lo = v[n - 1].dur, hi = v[0].dur;
	size_t bins[8] = {0};
	for (size_t i = 0; i < n; i++) {
		int b = hi > lo ? (int)((double)(v[i].dur - lo) / (double)(hi - lo) * 8) : 0;
		bins[b > 7 ? 7 : b]++;
	}
	size_t bmax = 1;
	for (int b = 0; b < 8; b++)
		bmax = TT_MAX(bmax, bins[b]);
	tt_pane_head(p, TT_ROLE_DEFAULT, "%zu instances; durations:", n);
	for (int b = 0; b < 8; b++) {
		char l[32], h[32], bar[200];
		tt_fmt_dur(l, sizeof(l), lo + (hi - lo) * b / 8);
		tt_fmt_dur(h, sizeof(h), lo + (hi - lo) * (b + 1) / 8);
		tt_bar(bar, sizeof(bar), (double)bins[b] / (double)bmax, 30);
		/* padded by columns, not bytes: "µs" is one column in two bytes */
		char lp[48], hp[48];
		snprintf(lp, sizeof(lp), "%*s%s", TT_MAX(0, 10 - (int)tt_utf8_width(l)), "", l);
		snprintf(hp, sizeof(hp), "%s%*s", h, TT_MAX(0, 10 - (int)tt_utf8_width(h)), "");
		tt_pane_head(p, TT_ROLE_BAR, "  %s - %s %6zu %s", lp, hp, bins[b], bar);
		if (hi == lo)
			break;
	}
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "stream", .type = TT_C_INT},
		{.name = "start", .type = TT_C_DUR},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("instances", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < n && i < 500; i++) {
		const struct tt_rank *r = m->ranks[v[i].ri];
		const struct tt_event *e = &r->ev[v[i].ev];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, r->rank);
		tt_table_set_int(t, k, 1, r->tracks[e->track].stream);
		tt_table_set_int(t, k, 2, e->ts - r->t0);
		tt_table_set_int(t, k, 3, e->dur);
		tt_table_set_int(t, k, 4, (int64_t)v[i].ri);
		tt_table_set_int(t, k, 5, v[i].ev);
	}
	free(v);
	pane_add_bar(t, "duration", "duration", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "slowest instances first; start: since the rank's first event. "
				     "Enter: the timeline at the instance");
	return 0;
}

static struct tt_pane *instance_drill(struct tt_pane *p, size_t row)
{
	return tt_timeline_new(p->app, (size_t)pane_num(p->table, row, "rank_index"),
			       (uint32_t)pane_num(p->table, row, "event"), 0);
}

static void kernel_close(struct tt_pane *p)
{
	struct kernel_state *s = p->state;
	if (s)
		free(s->name);
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
	const char *name = pane_str(p->table, row, "name");
	if (!name[0] || strcmp(name, "others") == 0)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &kernel_ops);
	struct kernel_state *s = tt_calloc(1, sizeof(*s));
	s->name = tt_strdup(name);
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", name);
	return np;
}

const struct tt_pane_ops tt_kernels_ops = {
	.name = "kernels",
	.title = "Kernels",
	.help = "GPU kernels by total time over the ranks shown, with the rank where each one "
		"takes least, the median and the most time.  Above: the time by kernel type "
		"(computation, communication, memory, and their overlaps).  `tracetop report "
		"kernels --explain` tells which rule classified each kernel.  Enter shows a "
		"kernel's durations and slowest instances.",
	.open = kernels_open,
	.drill = kernels_drill,
};
