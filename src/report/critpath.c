/* report critical-path: HTA's critical path analysis per rank and step.
 *
 * critical_path_steps   one row per rank and window: the path's length and
 *                       the two classes that bound it most (text default)
 * critical_path_summary HTA's summary in the reference's long format:
 *                       totals, counts, edge types, categories, bound_by
 * critical_path         the path edge by edge
 * critical_path_top     the events with most time on the path, by name
 * critical_path_ranks   per instance across ranks: the rank with the longest
 *                       path and what bounds it (several ranks)
 * critical_path_what_if (with --what-if) the longest path re-run with
 *                       changed weights on the same graph
 *
 * All of it formatted from the typed result tt_res_critpath (the Critical
 * path pane draws from the same). */
#include "config.h"

#include "tracetop/report.h"
#include "tracetop/results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

struct ctx {
	const struct tt_model *m;
	const struct tt_report_opts *o;
	const struct tt_cp_steps *s;
};

static double pct(int64_t part, int64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : NAN;
}

void tt_report_cp_step(const struct tt_model *m, const struct tt_cp_step *s, char *buf, size_t n)
{
	if (s->res.wkind != TT_CPW_TIME) {
		snprintf(buf, n, "%s", s->step);
		return;
	}
	int64_t base = tt_model_origin(m);
	char a[32] = "start", b[32] = "end";
	if (s->t0 != INT64_MIN)
		tt_fmt_dur(a, sizeof(a), s->t0 - base);
	if (s->t1 != INT64_MAX)
		tt_fmt_dur(b, sizeof(b), s->t1 - base);
	snprintf(buf, n, "%s to %s", a, b);
}

/* "GPU compute 26.8%": the k-th largest of the sums by[] as a share of len */
static void bound_text(const struct tt_cp_sum by[TT_CPB_COUNT], int64_t len, int k, char *buf,
		       size_t n)
{
	int b = tt_cp_bound_rank(by, k);
	if (b < 0) {
		snprintf(buf, n, "-");
		return;
	}
	double pc = pct(by[b].dur, len);
	if (pc < 0.05) /* (not 0.0%: it is there) */
		snprintf(buf, n, "%s <0.1%%", tt_cp_bound_label((enum tt_cp_bound)b));
	else
		snprintf(buf, n, "%s %.1f%%", tt_cp_bound_label((enum tt_cp_bound)b), pc);
}

void tt_report_cp_bound(const struct tt_cp_result *res, int k, char *buf, size_t n)
{
	bound_text(res->by_bound, res->length, k, buf, n);
}

/* ---- tables ---- */

static struct tt_table *steps_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		[TT_CPS_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_CPS_ANNOTATION] = {.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		[TT_CPS_INSTANCE] = {.name = "instance_id", .title = "inst", .type = TT_C_STR,
				     .width = 8},
		[TT_CPS_STEP] = {.name = "step", .type = TT_C_STR, .width = 20},
		[TT_CPS_LENGTH] = {.name = "critical_path_length", .title = "length",
				   .type = TT_C_DUR},
		[TT_CPS_BOUND_1] = {.name = "bound_1", .title = "bound most by", .type = TT_C_STR,
				    .width = 24},
		[TT_CPS_BOUND_2] = {.name = "bound_2", .title = "then by", .type = TT_C_STR,
				    .width = 24},
		[TT_CPS_BY_BOUND + TT_CPB_CPU] = {.name = "cpu_bound", .type = TT_C_DUR,
						  .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_DATA] = {.name = "data_loading", .type = TT_C_DUR,
						   .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_COMPUTE] = {.name = "gpu_compute_bound", .type = TT_C_DUR,
						      .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_COMM] = {.name = "gpu_communication_bound",
						   .type = TT_C_DUR, .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_KK] = {.name = "gpu_kernel_kernel_overhead",
						 .type = TT_C_DUR, .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_LAUNCH] = {.name = "gpu_kernel_launch_overhead",
						     .type = TT_C_DUR, .hidden_text = true},
		[TT_CPS_EDGES] = {.name = "path_edges", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_NO_GPU] = {.name = "no_gpu", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_STATUS] = {.name = "status", .type = TT_C_STR, .hidden_text = true},
		[TT_CPS_RANK_INDEX] = {.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_WINDOW_EVENT] = {.name = "window_event", .type = TT_C_INT,
					 .hidden_text = true},
		/* the four groups of the pane's bar (tt_cp_groups) */
		[TT_CPS_GROUP + TT_CPG_CPU] = {.name = "bar_cpu", .type = TT_C_DUR,
					       .hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_GPU] = {.name = "bar_gpu", .type = TT_C_DUR,
					       .hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_COMM] = {.name = "bar_comm", .type = TT_C_DUR,
						.hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_OVERHEAD] = {.name = "bar_overhead", .type = TT_C_DUR,
						    .hidden_text = true, .hidden_csv = true},
	};
	_Static_assert(TT_ARRAY_SIZE(cols) == TT_CPS_NCOLS, "one title per column");
	struct tt_table *t = tt_table_new("critical_path_steps", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Critical path per rank and step: its length, and what bounds it");
	const struct tt_model *m = x->m;
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		size_t k = tt_table_add_row(t); /* (row i is step i) */
		char buf[96];
		tt_table_set_int(t, k, TT_CPS_RANK, res->rank);
		tt_table_set_str(t, k, TT_CPS_ANNOTATION, p->annotation);
		tt_table_set_str(t, k, TT_CPS_INSTANCE, p->inst);
		tt_report_cp_step(m, p, buf, sizeof(buf));
		tt_table_set_str(t, k, TT_CPS_STEP, buf);
		tt_table_set_int(t, k, TT_CPS_RANK_INDEX, (int64_t)p->ri);
		if (res->win_ev != TT_NONE)
			tt_table_set_int(t, k, TT_CPS_WINDOW_EVENT, res->win_ev);
		tt_table_set_str(t, k, TT_CPS_STATUS, tt_cp_status_text(res->status));
		if (res->status != TT_CP_OK) {
			static const char *const why[] = {
				"", "no such rows", "no such instance", "no op in it", "a cycle",
			};
			tt_table_set_str(t, k, TT_CPS_BOUND_1, why[res->status]);
			continue;
		}
		tt_table_set_int(t, k, TT_CPS_LENGTH, res->length);
		tt_report_cp_bound(res, 0, buf, sizeof(buf));
		tt_table_set_str(t, k, TT_CPS_BOUND_1, buf);
		tt_report_cp_bound(res, 1, buf, sizeof(buf));
		tt_table_set_str(t, k, TT_CPS_BOUND_2, buf);
		for (int b = 0; b < TT_CPB_NONE; b++)
			tt_table_set_int(t, k, TT_CPS_BY_BOUND + b, res->by_bound[b].dur);
		tt_table_set_int(t, k, TT_CPS_EDGES, (int64_t)res->nedges);
		tt_table_set_int(t, k, TT_CPS_NO_GPU, res->no_gpu);
		int64_t g[TT_CPG_COUNT];
		tt_cp_groups(res, g);
		for (int j = 0; j < TT_CPG_COUNT; j++)
			tt_table_set_int(t, k, TT_CPS_GROUP + j, g[j]);
	}
	if (x->s->longest != SIZE_MAX && x->s->nranks > 1) {
		const struct tt_cp_step *p = &x->s->steps[x->s->longest];
		char len[32], buf[64], step[96];
		tt_fmt_dur(len, sizeof(len), p->res.length);
		tt_report_cp_bound(&p->res, 0, buf, sizeof(buf));
		tt_report_cp_step(m, p, step, sizeof(step));
		tt_table_add_note(t, "longest path: rank %lld, %s, %s, bound most by %s",
				  (long long)p->res.rank, step, len, buf);
	}
	return t;
}

/* Across ranks, per instance: the rank whose path is longest, by how much,
 * and what bounds it (the straggler's bound). */
static struct tt_table *ranks_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		{.name = "instance_id", .title = "inst", .type = TT_C_STR, .hidden_text = true},
		{.name = "step", .type = TT_C_STR, .width = 20},
		{.name = "ranks", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank", .type = TT_C_INT},
		{.name = "critical_path_length", .title = "length", .type = TT_C_DUR},
		{.name = "median_length", .title = "median", .type = TT_C_DUR},
		{.name = "over_median_pct", .title = "over %", .type = TT_C_NUM, .prec = 1},
		{.name = "bound_1", .title = "bound most by", .type = TT_C_STR, .width = 24},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("critical_path_ranks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Across ranks, per step: the rank with the longest path, and its "
			      "bound");
	for (size_t i = 0; i < x->s->nstrag; i++) {
		const struct tt_cp_straggler *g = &x->s->strag[i];
		const struct tt_cp_step *p = &x->s->steps[g->step];
		size_t k = tt_table_add_row(t);
		char buf[96];
		tt_table_set_str(t, k, 0, p->inst);
		tt_report_cp_step(x->m, p, buf, sizeof(buf));
		tt_table_set_str(t, k, 1, buf);
		tt_table_set_int(t, k, 2, g->ranks);
		tt_table_set_int(t, k, 3, p->res.rank);
		tt_table_set_int(t, k, 4, p->res.length);
		tt_table_set_int(t, k, 5, g->median);
		tt_table_set_num(t, k, 6, g->over_pct);
		tt_report_cp_bound(&p->res, 0, buf, sizeof(buf));
		tt_table_set_str(t, k, 7, buf);
		tt_table_set_int(t, k, 8, (int64_t)p->ri);
	}
	return t;
}

/* the reference's long format (critical_path_summary.csv) */
static struct tt_table *summary_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "annotation", .type = TT_C_STR},
		{.name = "instance_id", .type = TT_C_STR},
		{.name = "group", .type = TT_C_STR},
		{.name = "key", .type = TT_C_STR, .width = 34},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "count", .type = TT_C_INT},
		{.name = "pct_of_length", .title = "% of length", .type = TT_C_NUM, .prec = 1},
	};
	struct tt_table *t = tt_table_new("critical_path_summary", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Critical path summary (HTA's groups: totals, edge types, "
			      "categories, bound_by)");
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		if (res->status != TT_CP_OK)
			continue;
		int64_t len = res->length;
#define ROW(grp, key, dur, has_dur, cnt, pc)                                                  \
do {                                                                                  \
	size_t k_ = tt_table_add_row(t);                                              \
	tt_table_set_int(t, k_, 0, res->rank);                                        \
	tt_table_set_str(t, k_, 1, p->annotation);                                    \
	tt_table_set_str(t, k_, 2, p->inst);                                          \
	tt_table_set_str(t, k_, 3, grp);                                              \
	tt_table_set_str(t, k_, 4, key);                                              \
	if (has_dur)                                                                  \
		tt_table_set_int(t, k_, 5, dur);                                      \
	tt_table_set_int(t, k_, 6, cnt);                                              \
	tt_table_set_num(t, k_, 7, pc);                                               \
} while (0)
		int64_t ne = (int64_t)res->nedges;
		ROW("total", "critical_path_length", len, true, ne, len ? 100.0 : NAN);
		ROW("total", "critical_path_length_graph_weight", res->length_graph, true, ne,
		    pct(res->length_graph, len));
		ROW("total", "span_last_node_ts_minus_first", res->span, true, ne,
		    pct(res->span, len));
		ROW("count", "path_nodes", 0, false, (int64_t)res->nnodes, NAN);
		ROW("count", "critical_events", 0, false, res->critical_events, NAN);
		for (int k = 0; k < TT_CPE_COUNT; k++)
			ROW("edge_type", tt_cp_etype_name((enum tt_cp_etype)k),
			    res->by_type[k].dur, true, res->by_type[k].count,
			    pct(res->by_type[k].dur, len));
		for (int k = 0; k < TT_CPC_COUNT; k++)
			ROW("category", tt_cp_cat_name((enum tt_cp_cat)k), res->by_cat[k].dur,
			    true, res->by_cat[k].count, pct(res->by_cat[k].dur, len));
		for (int k = 0; k < TT_CPB_COUNT; k++)
			ROW("bound_by", tt_cp_bound_name((enum tt_cp_bound)k),
			    res->by_bound[k].dur, true, res->by_bound[k].count,
			    pct(res->by_bound[k].dur, len));
#undef ROW
	}
	return t;
}

static const char *short_type(uint8_t type)
{
	static const char *const n[] = {"operator", "dependency", "launch", "kernel-kernel",
					"sync"};
	return type < TT_CPE_COUNT ? n[type] : "?";
}

static struct tt_table *path_table(const struct ctx *x, int64_t base)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		{.name = "instance_id", .title = "inst", .type = TT_C_STR},
		{.name = "pos", .type = TT_C_INT},
		{.name = "type", .type = TT_C_STR, .hidden_text = true},
		{.name = "edge", .type = TT_C_STR, .hidden_csv = true},
		{.name = "duration", .type = TT_C_DUR},
		{.name = "graph_weight", .type = TT_C_DUR, .hidden_text = true},
		{.name = "start_ts", .title = "start", .type = TT_C_DUR},
		{.name = "end_ts", .type = TT_C_DUR, .hidden_text = true},
		{.name = "u_name", .type = TT_C_STR, .hidden_text = true},
		{.name = "u_is_start", .type = TT_C_INT, .hidden_text = true},
		{.name = "v_name", .type = TT_C_STR, .hidden_text = true},
		{.name = "v_is_start", .type = TT_C_INT, .hidden_text = true},
		{.name = "attributed_name", .title = "in event", .type = TT_C_STR, .width = 36},
		{.name = "attributed_stream", .type = TT_C_INT, .hidden_text = true},
		{.name = "bound_by", .type = TT_C_STR, .hidden_text = true},
		{.name = "bound", .type = TT_C_STR, .hidden_csv = true, .width = 16},
		{.name = "category", .type = TT_C_STR, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "u_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "v_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "attributed_event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("critical_path", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "The critical path edge by edge (start: since the job's first "
			      "event)");
	const struct tt_model *m = x->m;
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_rank *r = m->ranks[p->ri];
		const struct tt_cp_result *res = &p->res;
		for (size_t j = 0; j < res->nedges; j++) {
			const struct tt_cp_edge *e = &res->edges[j];
			const struct tt_cp_node *u = &res->nodes[e->u], *v = &res->nodes[e->v];
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, res->rank);
			tt_table_set_str(t, k, 1, p->annotation);
			tt_table_set_str(t, k, 2, p->inst);
			tt_table_set_int(t, k, 3, (int64_t)j);
			tt_table_set_str(t, k, 4, tt_cp_etype_name((enum tt_cp_etype)e->type));
			tt_table_set_str(t, k, 5, short_type(e->type));
			tt_table_set_int(t, k, 6, e->weight);
			tt_table_set_int(t, k, 7, e->graph_weight);
			tt_table_set_int(t, k, 8, u->ts - base);
			tt_table_set_int(t, k, 9, v->ts - base);
			tt_table_set_str(t, k, 10, tt_ev_name(r, &r->ev[u->ev]));
			tt_table_set_int(t, k, 11, u->start);
			tt_table_set_str(t, k, 12, tt_ev_name(r, &r->ev[v->ev]));
			tt_table_set_int(t, k, 13, v->start);
			if (e->attr != TT_NONE) {
				tt_table_set_str(t, k, 14, tt_ev_name(r, &r->ev[e->attr]));
				tt_table_set_int(t, k, 15, e->attr_stream);
				tt_table_set_int(t, k, 22, e->attr);
			}
			tt_table_set_str(t, k, 16,
					 e->bound == TT_CPB_NONE ?
						 "" :
						 tt_cp_bound_name((enum tt_cp_bound)e->bound));
			tt_table_set_str(t, k, 17, tt_cp_bound_label((enum tt_cp_bound)e->bound));
			tt_table_set_str(t, k, 18, tt_cp_cat_name((enum tt_cp_cat)e->cat));
			tt_table_set_int(t, k, 19, (int64_t)p->ri);
			tt_table_set_int(t, k, 20, u->ev);
			tt_table_set_int(t, k, 21, v->ev);
		}
	}
	return t;
}

static struct tt_table *top_new(void)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		{.name = "instance_id", .title = "inst", .type = TT_C_STR},
		{.name = "name", .type = TT_C_STR, .width = 30},
		{.name = "bound_by", .type = TT_C_STR, .hidden_text = true},
		{.name = "bound", .type = TT_C_STR, .hidden_csv = true, .width = 16},
		[TT_CPT_ON_PATH] = {.name = "duration", .title = "on path", .type = TT_C_DUR},
		{.name = "pct_of_length", .title = "%", .type = TT_C_NUM, .prec = 1},
		{.name = "events", .type = TT_C_INT, .hidden_text = true},
		{.name = "edges", .type = TT_C_INT, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "first_event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("critical_path_top", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Events with the most time on the critical path (time inside them, "
			      "by name)");
	return t;
}

/* the first n names of step p's path (all: n = 0); true when cut */
static bool top_rows(struct tt_table *t, const struct tt_model *m, const struct tt_cp_step *p,
		     size_t top)
{
	const struct tt_rank *r = m->ranks[p->ri];
	const struct tt_cp_result *res = &p->res;
	size_t n = res->ntop;
	bool cut = top && n > top;
	if (cut)
		n = top;
	for (size_t j = 0; j < n; j++) {
		const struct tt_cp_top *e = &res->top[j];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, res->rank);
		tt_table_set_str(t, k, 1, p->annotation);
		tt_table_set_str(t, k, 2, p->inst);
		tt_table_set_str(t, k, 3, tt_str(r, e->name));
		tt_table_set_str(t, k, 4, tt_cp_bound_name((enum tt_cp_bound)e->bound));
		tt_table_set_str(t, k, 5, tt_cp_bound_label((enum tt_cp_bound)e->bound));
		tt_table_set_int(t, k, TT_CPT_ON_PATH, e->dur);
		tt_table_set_num(t, k, 7, pct(e->dur, res->length));
		tt_table_set_int(t, k, 8, e->events);
		tt_table_set_int(t, k, 9, e->edges);
		tt_table_set_int(t, k, 10, (int64_t)p->ri);
		tt_table_set_int(t, k, 11, e->first_ev);
	}
	return cut;
}

struct tt_table *tt_report_cp_top(const struct tt_model *m, const struct tt_cp_step *p)
{
	struct tt_table *t = top_new();
	top_rows(t, m, p, 0);
	return t;
}

static struct tt_table *top_table(const struct ctx *x, size_t top)
{
	struct tt_table *t = top_new();
	bool cut = false;
	for (size_t i = 0; i < x->s->n; i++)
		cut |= top_rows(t, x->m, &x->s->steps[i], top);
	if (cut)
		tt_table_add_note(t, "the first %zu names of each step (--top N; -f csv gives all)",
				  top);
	return t;
}

static void whatif_desc(const struct tt_report_opts *o, char *buf, size_t n)
{
	size_t w = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < o->nwhatif && w < n; i++) {
		const struct tt_cp_whatif *q = &o->whatif[i];
		int k = q->kind == TT_CPWI_LAUNCH ? snprintf(buf + w, n - w, "%slaunch delays x%g",
							     i ? ", " : "", q->factor) :
			q->kind == TT_CPWI_GAPS	  ? snprintf(buf + w, n - w, "%skernel gaps x%g",
							     i ? ", " : "", q->factor) :
						    snprintf(buf + w, n - w, "%s*%s* x%g",
							     i ? ", " : "", q->pattern, q->factor);
		if (k < 0)
			break;
		w += (size_t)k;
	}
}

static struct tt_table *whatif_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		{.name = "instance_id", .title = "inst", .type = TT_C_STR},
		{.name = "step", .type = TT_C_STR, .width = 20},
		/* text: both lengths in one unit, so that they compare at a glance */
		{.name = "now", .type = TT_C_NUM, .prec = 1, .hidden_csv = true},
		{.name = "then", .type = TT_C_NUM, .prec = 1, .hidden_csv = true},
		{.name = "change_pct", .title = "change %", .type = TT_C_NUM, .prec = 1},
		{.name = "bound_1", .title = "bound most by", .type = TT_C_STR, .width = 24},
		{.name = "edges_changed", .type = TT_C_INT, .hidden_text = true},
		{.name = "critical_path_length", .type = TT_C_DUR, .hidden_text = true},
		{.name = "what_if_length", .type = TT_C_DUR, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("critical_path_what_if", cols, (int)TT_ARRAY_SIZE(cols));
	int64_t most = 0;
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_result *res = &x->s->steps[i].res;
		if (res->status == TT_CP_OK && res->has_whatif)
			most = TT_MAX(most, TT_MAX(res->length_graph, res->wi_length));
	}
	enum tt_unit u = tt_unit_pick(most);
	static const double div[] = {1, 1e3, 1e6, 1e9};
	char *titles = tt_arena_alloc(&t->strs, 64);
	snprintf(titles, 32, "now (%s)", tt_unit_name(u));
	snprintf(titles + 32, 32, "then (%s)", tt_unit_name(u));
	t->cols[4].title = titles;
	t->cols[5].title = titles + 32;
	char desc[600];
	whatif_desc(x->o, desc, sizeof(desc));
	tt_table_set_title(t, "What if %s: the longest path again", desc);
	const struct tt_model *m = x->m;
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		if (res->status != TT_CP_OK || !res->has_whatif)
			continue;
		size_t k = tt_table_add_row(t);
		char step[96];
		tt_report_cp_step(m, p, step, sizeof(step));
		tt_table_set_int(t, k, 0, res->rank);
		tt_table_set_str(t, k, 1, p->annotation);
		tt_table_set_str(t, k, 2, p->inst);
		tt_table_set_str(t, k, 3, step);
		tt_table_set_int(t, k, 9, res->length_graph);
		tt_table_set_int(t, k, 10, res->wi_length);
		tt_table_set_num(t, k, 4, (double)res->length_graph / div[u]);
		tt_table_set_num(t, k, 5, (double)res->wi_length / div[u]);
		tt_table_set_num(t, k, 6,
				 res->length_graph ?
					 100.0 * (double)(res->wi_length - res->length_graph) /
						 (double)res->length_graph :
					 NAN);
		if (tt_cp_bound_rank(res->wi_bound, 0) >= 0) {
			char buf[64];
			bound_text(res->wi_bound, res->wi_length, 0, buf, sizeof(buf));
			tt_table_set_str(t, k, 7, buf);
		}
		tt_table_set_int(t, k, 8, res->wi_edges);
	}
	tt_table_add_note(t, "assumes the graph's dependencies stay as recorded (only times "
			     "change)");
	return t;
}

/* the graph behind each path: sizes and where ties could matter */
static struct tt_table *graph_table(const struct ctx *x, int64_t base)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		{.name = "instance_id", .title = "inst", .type = TT_C_STR},
		{.name = "window_start", .type = TT_C_DUR, .hidden_text = true},
		{.name = "window_end", .type = TT_C_DUR, .hidden_text = true},
		{.name = "clipped_rows", .title = "events", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "graph_nodes", .title = "nodes", .type = TT_C_INT},
		{.name = "graph_edges", .title = "edges", .type = TT_C_INT},
		{.name = "operator", .type = TT_C_INT},
		{.name = "dependency", .type = TT_C_INT},
		{.name = "launch_delay", .title = "launch", .type = TT_C_INT},
		{.name = "kernel_kernel_delay", .title = "kk", .type = TT_C_INT},
		{.name = "sync_dependency", .title = "sync", .type = TT_C_INT},
		{.name = "phase_1_runtime_lock", .type = TT_C_INT, .hidden_text = true},
		{.name = "phase_2_call_stacks", .type = TT_C_INT, .hidden_text = true},
		{.name = "phase_3_kernels_and_syncs", .type = TT_C_INT, .hidden_text = true},
		{.name = "reinserted_edges", .type = TT_C_INT, .hidden_text = true},
		{.name = "zeroed_negative_weights", .type = TT_C_INT, .hidden_text = true},
		{.name = "kernels_without_edge", .type = TT_C_INT, .hidden_text = true},
		{.name = "path_ends", .title = "ends", .type = TT_C_INT},
		{.name = "path_nodes_with_ties", .title = "ties", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("critical_path_graph", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "The graphs: events of the window, nodes, edges by type, and ties "
			      "(ends: equally long path ends; ties: path nodes with two best "
			      "predecessors)");
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		const struct tt_cp_stats *st = &res->st;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, res->rank);
		tt_table_set_str(t, k, 1, p->annotation);
		tt_table_set_str(t, k, 2, p->inst);
		tt_table_set_int(t, k, 3, res->t0 - base);
		if (res->t1 != INT64_MAX)
			tt_table_set_int(t, k, 4, res->t1 - base);
		tt_table_set_int(t, k, 5, st->clipped);
		tt_table_set_int(t, k, 6, st->kernels);
		tt_table_set_int(t, k, 7, st->nodes);
		tt_table_set_int(t, k, 8, st->edges);
		for (int j = 0; j < TT_CPE_COUNT; j++)
			tt_table_set_int(t, k, 9 + j, st->by_type[j]);
		for (int j = 0; j < 3; j++)
			tt_table_set_int(t, k, 14 + j, st->by_phase[j]);
		tt_table_set_int(t, k, 17, st->reinserted);
		tt_table_set_int(t, k, 18, st->zeroed);
		tt_table_set_int(t, k, 19, st->no_edge);
		tt_table_set_int(t, k, 20, st->ends);
		tt_table_set_int(t, k, 21, st->several_best);
	}
	return t;
}

/* what to say about each window beyond the numbers */
static void add_notes(struct tt_table *t, const struct ctx *x)
{
	const struct tt_model *m = x->m;
	size_t said_fallback = SIZE_MAX, said_nogpu = SIZE_MAX; /* (rank index) */
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		long long rank = (long long)res->rank;
		char step[96];
		tt_report_cp_step(m, p, step, sizeof(step));
		if (p->fell_back && said_fallback != p->ri) {
			tt_table_add_note(t, "rank %lld: no row named *%s*: the whole trace", rank,
					  x->o->annotation ? x->o->annotation :
							     TT_CP_DEFAULT_ANNOTATION);
			said_fallback = p->ri;
		}
		if (res->no_gpu && said_nogpu != p->ri) {
			tt_table_add_note(t,
					  "rank %lld: no GPU work in the window: the path runs "
					  "through CPU ops only, nothing on a GPU bounds it%s",
					  rank,
					  (res->hta_fails & TT_CP_HTA_NO_QUEUE) ?
						  " (HTA raises here: \"Queue length time "
						  "series is required\")" :
						  "");
			said_nogpu = p->ri;
		}
		if (res->status != TT_CP_OK) {
			tt_table_add_note(t, "rank %lld, %s%s: %s: no path", rank,
					  p->inst[0] ? "instance " : "", p->inst,
					  tt_cp_status_text(res->status));
			if (res->status == TT_CP_NO_INSTANCE)
				tt_table_add_note(t, "rank %lld has %u instances of *%s* (0 to %u)",
						  rank, res->ninstances, p->annotation,
						  res->ninstances ? res->ninstances - 1 : 0);
			continue;
		}
		if (res->hta_fails & TT_CP_HTA_LAUNCH_NODE)
			tt_table_add_note(t,
					  "rank %lld, %s: launches of category Runtime or "
					  "mtia_runtime count as launches (HTA raises an "
					  "AssertionError on them)",
					  rank, step);
		if (res->hta_fails & TT_CP_HTA_SAME_STREAM)
			tt_table_add_note(t,
					  "rank %lld, %s: a stream wait between kernels of one "
					  "stream was left out (HTA declares the graph invalid)",
					  rank, step);
		if (res->st.ends > 1)
			tt_table_add_note(t,
					  "rank %lld, %s: %u equally long paths end there; the "
					  "first in topological order is shown, as HTA's",
					  rank, step, res->st.ends);
	}
}

int tt_report_critpath(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	struct ctx x = {.m = m, .o = o, .s = tt_res_critpath(res)};
	int64_t base = tt_model_origin(m);

	bool text = o->format == TT_FMT_TABLE;
	size_t top = o->top > 0 ? (size_t)o->top : 10;
	struct tt_table **t = tt_malloc(8 * sizeof(*t));
	size_t k = 0;
	/* one table when one is asked for by name (the path can be long) */
	const char *one = o->table;
#define WANT(name) (!one || strcmp(one, name) == 0)
	if (WANT("critical_path_steps")) {
		t[k++] = steps_table(&x);
		add_notes(t[k - 1], &x);
	}
	if (x.s->nstrag && WANT("critical_path_ranks"))
		t[k++] = ranks_table(&x);
	if (o->nwhatif && WANT("critical_path_what_if"))
		t[k++] = whatif_table(&x);
	if (WANT("critical_path_top"))
		t[k++] = top_table(&x, text && !one ? top : 0);
	/* the long tables when asked for by name, or as CSV/JSON */
	if (!text || one) {
		if (WANT("critical_path_summary"))
			t[k++] = summary_table(&x);
		if (WANT("critical_path"))
			t[k++] = path_table(&x, base);
		if (WANT("critical_path_graph"))
			t[k++] = graph_table(&x, base);
	}
#undef WANT
	if (!k) /* (an unknown name: the caller says which tables there are) */
		t[k++] = steps_table(&x);
	*out = t;
	*n = k;
	return 0;
}
