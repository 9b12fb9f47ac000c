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

#include <inttypes.h>
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

/* a class's label; a wait names the rank waited for (wait_rank >= 0) */
static void class_label(int b, int64_t wait_rank, char *buf, size_t n)
{
	if (b == TT_CPB_WAIT && wait_rank >= 0)
		snprintf(buf, n, "waiting for rank %lld", (long long)wait_rank);
	else
		snprintf(buf, n, "%s", tt_cp_bound_label((enum tt_cp_bound)b));
}

/* "GPU compute 26.8%": the k-th largest of the sums by[] as a share of len */
static void bound_text(const struct tt_cp_sum by[TT_CPB_COUNT], int64_t len, int k,
		       int64_t wait_rank, char *buf, size_t n)
{
	int b = tt_cp_bound_rank(by, k);
	if (b < 0) {
		snprintf(buf, n, "-");
		return;
	}
	char label[48];
	class_label(b, wait_rank, label, sizeof(label));
	double pc = pct(by[b].dur, len);
	if (pc < 0.05) /* (not 0.0%: it is there) */
		snprintf(buf, n, "%s <0.1%%", label);
	else
		snprintf(buf, n, "%s %.1f%%", label, pc);
}

void tt_report_cp_bound(const struct tt_cp_result *res, int k, char *buf, size_t n)
{
	bound_text(res->by_bound, res->length, k, res->wait_rank, buf, n);
}

/* The label of an edge's class: "waiting for rank 5" for a wait, else
 * tt_cp_bound_label. */
static void tt_report_cp_edge_label(const struct tt_cp_edge *e, char *buf, size_t n)
{
	class_label(e->bound, e->peer_rank, buf, n);
}

void tt_report_cp_cover(const struct tt_cp_result *res, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!res->has_step || res->status != TT_CP_OK)
		return;
	char len[32], span[32], a[32], b[32], c[32];
	int64_t sp = res->step_t1 - res->step_t0;
	tt_fmt_dur(len, sizeof(len), res->length);
	tt_fmt_dur(span, sizeof(span), sp);
	int w = snprintf(buf, n, "path %s of a %s step", len, span);
	/* the pieces the path leaves out, the big ones (over 0.5 % of the step) */
	int64_t floor_ = sp / 200;
	bool any = false;
	const char *who = res->model == TT_CPM_HTA ? "HTA's" : "the";
	if (w < 0 || (size_t)w >= n)
		return;
	if (res->not_before > floor_) {
		tt_fmt_dur(a, sizeof(a), res->not_before);
		w += snprintf(buf + w, n - (size_t)w, "; not on %s path: %s before its first event",
			      who, a);
		any = true;
	}
	if ((size_t)w < n && res->not_after > floor_) {
		tt_fmt_dur(b, sizeof(b), res->not_after);
		w += snprintf(buf + w, n - (size_t)w, "%s%s after its last", any ? ", " : "; not on "
									       "the path: ",
			      b);
		any = true;
	}
	if ((size_t)w < n && res->not_inside > floor_) {
		tt_fmt_dur(c, sizeof(c), res->not_inside);
		snprintf(buf + w, n - (size_t)w, "%s%s between its events (edges of weight 0)",
			 any ? ", " : "; not on the path: ", c);
	}
}

/* ---- tables ---- */

static struct tt_table *steps_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		[TT_CPS_MARK] = {.name = "mark", .title = " ", .type = TT_C_STR, .width = 1,
				 .hidden_csv = true, .free_text = true},
		[TT_CPS_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_CPS_ANNOTATION] = {.name = "annotation", .type = TT_C_STR, .hidden_text = true},
		[TT_CPS_INSTANCE] = {.name = "instance_id", .title = "inst", .type = TT_C_STR,
				     .width = 8},
		[TT_CPS_STEP] = {.name = "step", .type = TT_C_STR, .width = 20},
		[TT_CPS_LENGTH] = {.name = "critical_path_length", .title = "length",
				   .type = TT_C_DUR},
		/* (the widest: "waiting for rank 1023 100.0%") */
		[TT_CPS_BOUND_1] = {.name = "bound_1", .title = "bound most by", .type = TT_C_STR,
				    .width = 28},
		[TT_CPS_BOUND_2] = {.name = "bound_2", .title = "then by", .type = TT_C_STR,
				    .width = 28},
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
		[TT_CPS_BY_BOUND + TT_CPB_NONE] = {.name = "none", .type = TT_C_DUR,
						   .hidden_text = true, .hidden_csv = true},
		[TT_CPS_BY_BOUND + TT_CPB_MEM] = {.name = "gpu_memory_bound", .type = TT_C_DUR,
						  .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_OUTSIDE] = {.name = "cpu_outside_ops", .type = TT_C_DUR,
						      .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_START] = {.name = "before_first_op", .type = TT_C_DUR,
						    .hidden_text = true},
		[TT_CPS_BY_BOUND + TT_CPB_WAIT] = {.name = "waiting_for_rank", .type = TT_C_DUR,
						   .hidden_text = true},
		[TT_CPS_EDGES] = {.name = "path_edges", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_NO_GPU] = {.name = "no_gpu", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_STATUS] = {.name = "status", .type = TT_C_STR, .hidden_text = true},
		[TT_CPS_RANK_INDEX] = {.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		[TT_CPS_WINDOW_EVENT] = {.name = "window_event", .type = TT_C_INT,
					 .hidden_text = true},
		[TT_CPS_SPAN] = {.name = "step_span", .title = "of step", .type = TT_C_DUR},
		[TT_CPS_COVER] = {.name = "covers_pct", .title = "covers", .type = TT_C_PCT,
				  .prec = 0},
		[TT_CPS_NOT_BEFORE] = {.name = "not_before_path", .type = TT_C_DUR,
				       .hidden_text = true},
		[TT_CPS_NOT_AFTER] = {.name = "not_after_path", .type = TT_C_DUR,
				      .hidden_text = true},
		[TT_CPS_NOT_INSIDE] = {.name = "not_inside_path", .type = TT_C_DUR,
				       .hidden_text = true},
		[TT_CPS_MODEL] = {.name = "model", .type = TT_C_STR, .hidden_text = true},
		/* the groups of the pane's bar (tt_cp_groups) */
		[TT_CPS_GROUP + TT_CPG_DATA] = {.name = "bar_data", .type = TT_C_DUR,
						.hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_CPU] = {.name = "bar_cpu", .type = TT_C_DUR,
					       .hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_GPU] = {.name = "bar_gpu", .type = TT_C_DUR,
					       .hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_COMM] = {.name = "bar_comm", .type = TT_C_DUR,
						.hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_WAIT] = {.name = "bar_wait", .type = TT_C_DUR,
						.hidden_text = true, .hidden_csv = true},
		[TT_CPS_GROUP + TT_CPG_OVERHEAD] = {.name = "bar_overhead", .type = TT_C_DUR,
						    .hidden_text = true, .hidden_csv = true},
	};
	_Static_assert(TT_ARRAY_SIZE(cols) == TT_CPS_NCOLS, "one title per column");
	struct tt_table *t = tt_table_new("critical_path_steps", cols, (int)TT_ARRAY_SIZE(cols));
	bool hta = x->o->cp_model == TT_CPM_HTA;
	tt_table_set_title(t, "Critical path per rank and step (%s model): its length, the step "
			      "it covers, and what bounds it",
			   hta ? "HTA's" : "tracetop's");
	const struct tt_model *m = x->m;
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_cp_result *res = &p->res;
		size_t k = tt_table_add_row(t); /* (row i is step i) */
		char buf[96];
		tt_table_set_int(t, k, TT_CPS_RANK, res->rank);
		if (hta ? p->longest : p->bounds_job)
			tt_table_set_str(t, k, TT_CPS_MARK, "*");
		tt_table_set_str(t, k, TT_CPS_ANNOTATION, p->annotation);
		tt_table_set_str(t, k, TT_CPS_INSTANCE, p->inst);
		tt_report_cp_step(m, p, buf, sizeof(buf));
		tt_table_set_str(t, k, TT_CPS_STEP, buf);
		tt_table_set_int(t, k, TT_CPS_RANK_INDEX, (int64_t)p->ri);
		if (res->win_ev != TT_NONE)
			tt_table_set_int(t, k, TT_CPS_WINDOW_EVENT, res->win_ev);
		tt_table_set_str(t, k, TT_CPS_STATUS, tt_cp_status_text(res->status));
		tt_table_set_str(t, k, TT_CPS_MODEL, res->model == TT_CPM_HTA ? "hta" : "tracetop");
		if (res->has_step)
			tt_table_set_int(t, k, TT_CPS_SPAN, res->step_t1 - res->step_t0);
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
		for (int b = 0; b < (hta ? TT_CPB_NONE : TT_CPB_COUNT); b++)
			tt_table_set_int(t, k, TT_CPS_BY_BOUND + b, res->by_bound[b].dur);
		if (res->has_step) {
			tt_table_set_num(t, k, TT_CPS_COVER,
					 pct(res->length, res->step_t1 - res->step_t0));
			tt_table_set_int(t, k, TT_CPS_NOT_BEFORE, res->not_before);
			tt_table_set_int(t, k, TT_CPS_NOT_AFTER, res->not_after);
			tt_table_set_int(t, k, TT_CPS_NOT_INSIDE, res->not_inside);
		}
		tt_table_set_int(t, k, TT_CPS_EDGES, (int64_t)res->nedges);
		tt_table_set_int(t, k, TT_CPS_NO_GPU, res->no_gpu);
		int64_t g[TT_CPG_COUNT];
		tt_cp_groups(res, g);
		for (int j = 0; j < TT_CPG_COUNT; j++)
			tt_table_set_int(t, k, TT_CPS_GROUP + j, g[j]);
	}
	/* (tracetop's model: every path spans its step; what bounds the job is
	 * critical_path_job's) */
	if (hta && x->s->longest != SIZE_MAX && x->s->nranks > 1) {
		const struct tt_cp_step *p = &x->s->steps[x->s->longest];
		char len[32], buf[64], step[96];
		tt_fmt_dur(len, sizeof(len), p->res.length);
		tt_report_cp_bound(&p->res, 0, buf, sizeof(buf));
		tt_report_cp_step(m, p, step, sizeof(step));
		tt_table_add_note(t, "longest path: rank %lld, %s, %s, bound most by %s",
				  (long long)p->res.rank, step, len, buf);
	}
	if (hta ? x->s->nstrag > 0 : x->s->njobs > 0)
		tt_table_add_note(t, hta ? "*: the longest path of the step across ranks" :
					   "*: the rank that bounds the job's step (critical_path_job)");
	/* what "covers" means, and what the model leaves out */
	tt_table_add_note(t, "of step: from the step's start to the end of the last GPU op it "
			     "launched; covers: the path's length as a share of it");
	if (hta)
		tt_table_add_note(t, "HTA's model: the path starts at the first op, runtime call or "
				     "kernel it reaches; time before it, and between top-level "
				     "ops, is not on the path (tracetop's model, the default, "
				     "counts both)");
	else
		tt_table_add_note(t, "tracetop's model: HTA's graph, plus the time from the step's "
				     "start to its first op, the time outside ops on each thread, "
				     "DataLoader spans as data loading, copies as GPU memory and "
				     "each collective's wait for the last rank (--model hta: HTA's "
				     "path)");
	return t;
}

/* ---- the job ---- */

void tt_report_cp_verdict(const struct tt_cp_steps *s, char *buf, size_t n)
{
	const struct tt_cp_verdict *v = &s->verdict;
	buf[0] = '\0';
	if (!v->has)
		return;
	char b[32], w[32], label[48];
	class_label(v->bound, -1, label, sizeof(label));
	tt_fmt_dur(b, sizeof(b), v->bound_ns);
	int k = snprintf(buf, n, "bound by rank %lld: %s %s a step", (long long)v->rank, label, b);
	if (k < 0 || (size_t)k >= n)
		return;
	if (v->nbound < v->nsteps)
		k += snprintf(buf + k, n - (size_t)k, " (%u of %u steps)", v->nbound, v->nsteps);
	if ((size_t)k >= n || v->one_rank)
		return;
	if (v->nwaiting && v->wait_ns > 0) {
		/* (the wait of one of them, on average) */
		tt_fmt_dur(w, sizeof(w), v->wait_ns / v->nwaiting);
		snprintf(buf + k, n - (size_t)k, "; %u rank%s for it%s%s, %s each a step",
			 v->nwaiting, v->nwaiting == 1 ? " waits" : "s wait", v->coll[0] ? " in " : "",
			 v->coll, w);
	} else {
		snprintf(buf + k, n - (size_t)k, "; no rank waits for it");
	}
}

void tt_report_cp_disagree(const struct tt_cp_steps *s, char *buf, size_t n)
{
	buf[0] = '\0';
	size_t nsteps = 0, first = SIZE_MAX;
	uint64_t ncolls = 0;
	for (size_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].ndisagree) {
			nsteps++;
			ncolls += s->jobs[i].ndisagree;
			if (first == SIZE_MAX)
				first = i;
		}
	if (!nsteps)
		return;
	const struct tt_cp_job *j = &s->jobs[first];
	if (nsteps == 1)
		snprintf(buf, n, "the ranks disagree on %" PRIu64 " collective%s of step %lld (%s%s): "
				 "no wait in %s is on the job's path; report collectives says how",
			 ncolls, ncolls == 1 ? "" : "s", (long long)j->step, j->disagree,
			 ncolls == 1 ? "" : ", ...", ncolls == 1 ? "it" : "them");
	else
		snprintf(buf, n, "the ranks disagree on %" PRIu64 " collectives in %zu steps "
				 "(first: %s of step %lld): no wait in them is on the job's path; "
				 "report collectives says how",
			 ncolls, nsteps, j->disagree, (long long)j->step);
}

/* The steps in which the ranks disagree on collectives: no wait is taken
 * from those, so the job's path may miss a late rank there.  At most three
 * named, then a count. */
static void disagree_notes(struct tt_table *t, const struct tt_cp_steps *s)
{
	size_t nsteps = 0, named = 0;
	for (size_t i = 0; i < s->njobs; i++)
		nsteps += s->jobs[i].ndisagree > 0;
	for (size_t i = 0; i < s->njobs && named < 3; i++) {
		const struct tt_cp_job *j = &s->jobs[i];
		if (!j->ndisagree)
			continue;
		named++;
		if (j->ndisagree == 1)
			tt_table_add_note(t,
					  "step %lld: the ranks disagree on %s (its operation, size or "
					  "place differs between ranks): no rank's wait in it is on "
					  "the job's path (report collectives: issues)",
					  (long long)j->step, j->disagree);
		else
			tt_table_add_note(t,
					  "step %lld: the ranks disagree on %u collectives (%s, ...: "
					  "operation, size or place differs between ranks): no rank's "
					  "wait in them is on the job's path (report collectives: "
					  "issues)",
					  (long long)j->step, j->ndisagree, j->disagree);
	}
	if (nsteps > named)
		tt_table_add_note(t, "... and %zu more steps with collectives the ranks disagree on",
				  nsteps - named);
}

static struct tt_table *job_table(const struct ctx *x)
{
	static const struct tt_col cols[] = {
		[TT_CPJ_STEP] = {.name = "step", .type = TT_C_INT},
		[TT_CPJ_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_CPJ_BOUND_BY] = {.name = "bound_by", .title = "bound by", .type = TT_C_STR,
				     .width = 15},
		[TT_CPJ_BOUND] = {.name = "bound(us)", .title = "time", .type = TT_C_DUR,
				  .unit_group = 1},
		[TT_CPJ_EXCESS] = {.name = "over_median(us)", .title = "excess", .type = TT_C_DUR,
				   .unit_group = 1},
		[TT_CPJ_LATE] = {.name = "late_start(us)", .title = "late", .type = TT_C_DUR,
				 .unit_group = 1},
		[TT_CPJ_WAIT] = {.name = "wait_caused(us)", .title = "waited", .type = TT_C_DUR,
				 .unit_group = 1},
		[TT_CPJ_NWAIT] = {.name = "ranks_waiting", .title = "ranks", .type = TT_C_INT},
		[TT_CPJ_COLL] = {.name = "collective", .type = TT_C_STR, .width = 14},
		[TT_CPJ_LENGTH] = {.name = "job_path_length(us)", .title = "path",
				   .type = TT_C_DUR, .unit_group = 2},
		[TT_CPJ_SPAN] = {.name = "job_step(us)", .title = "of step", .type = TT_C_DUR,
				 .unit_group = 2},
		[TT_CPJ_COVER] = {.name = "covers_pct", .title = "covers", .type = TT_C_PCT,
				  .prec = 0},
		[TT_CPJ_END_RANK] = {.name = "end_rank", .type = TT_C_INT, .hidden_text = true},
		[TT_CPJ_SEGS] = {.name = "ranks_on_path", .type = TT_C_STR, .hidden_text = true},
		[TT_CPJ_RANKS] = {.name = "ranks", .type = TT_C_INT, .hidden_text = true},
		[TT_CPJ_RANK_INDEX] = {.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		[TT_CPJ_CARRIED] = {.name = "carried", .type = TT_C_INT, .hidden_text = true},
		[TT_CPJ_DISAGREE] = {.name = "collectives_disagreed", .type = TT_C_INT,
				     .hidden_text = true},
	};
	_Static_assert(TT_ARRAY_SIZE(cols) == TT_CPJ_NCOLS, "one title per column");
	struct tt_table *t = tt_table_new("critical_path_job", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "The job's critical path per step, across ranks: the rank that "
			      "bounds it, what bounds that rank, the wait it caused");
	const struct tt_cp_steps *s = x->s;
	for (size_t i = 0; i < s->njobs; i++) {
		const struct tt_cp_job *j = &s->jobs[i];
		size_t k = tt_table_add_row(t);
		char buf[160];
		tt_table_set_int(t, k, TT_CPJ_STEP, j->step);
		tt_table_set_int(t, k, TT_CPJ_RANK, j->rank);
		class_label(j->bound, -1, buf, sizeof(buf));
		tt_table_set_str(t, k, TT_CPJ_BOUND_BY, buf);
		tt_table_set_int(t, k, TT_CPJ_BOUND, j->bound_ns);
		tt_table_set_int(t, k, TT_CPJ_EXCESS, j->excess_ns);
		tt_table_set_int(t, k, TT_CPJ_LATE, j->late_ns);
		tt_table_set_int(t, k, TT_CPJ_CARRIED, j->carried);
		tt_table_set_int(t, k, TT_CPJ_WAIT, j->wait_caused);
		tt_table_set_int(t, k, TT_CPJ_NWAIT, j->nwaiting);
		tt_table_set_str(t, k, TT_CPJ_COLL, j->coll);
		tt_table_set_int(t, k, TT_CPJ_LENGTH, j->length);
		tt_table_set_int(t, k, TT_CPJ_SPAN, j->t1 - j->t0);
		tt_table_set_num(t, k, TT_CPJ_COVER, pct(j->length, j->t1 - j->t0));
		tt_table_set_int(t, k, TT_CPJ_END_RANK, j->end_rank);
		/* the ranks the path crosses, in order */
		size_t w = 0;
		int64_t prev = INT64_MIN;
		buf[0] = '\0';
		for (size_t e = j->first; e < j->first + j->n && w + 24 < sizeof(buf); e++) {
			int64_t r = s->jedges[e].rank;
			if (r == prev)
				continue;
			int c = snprintf(buf + w, sizeof(buf) - w, "%s%lld", w ? " " : "", (long long)r);
			if (c < 0)
				break;
			w += (size_t)c;
			prev = r;
		}
		tt_table_set_str(t, k, TT_CPJ_SEGS, buf);
		tt_table_set_int(t, k, TT_CPJ_RANKS, j->nranks);
		tt_table_set_int(t, k, TT_CPJ_RANK_INDEX, (int64_t)j->ri);
		tt_table_set_int(t, k, TT_CPJ_DISAGREE, j->ndisagree);
	}
	char v[300];
	tt_report_cp_verdict(s, v, sizeof(v));
	if (v[0])
		tt_table_add_note(t, "%s", v);
	tt_table_add_note(t, "the path starts at the end of the rank whose step ends last; where "
			     "that rank waited in a collective for a later rank, it goes on along "
			     "the late rank's path to its arrival; rank: the one the path spends "
			     "most time on; bound by: the class in which that rank's path to the "
			     "first collective the others waited in exceeds the other ranks' paths "
			     "there most (excess: over their median), or its largest; late: "
			     "how much later than the others' its step started -- when that is "
			     "more than any excess, the class is the one that bound it the step "
			     "before; time: that class on its path; waited: the other ranks' waits for it in the "
			     "step's collectives, summed; ranks: how many waited; covers: the "
			     "path's length as a share of the job's step (the first rank's start "
			     "to the last rank's end)");
	bool cut = false;
	for (size_t i = 0; i < s->njobs; i++)
		cut |= s->jobs[i].cut;
	if (cut)
		tt_table_add_note(t, "some paths stop at a late rank's arrival whose path was not "
				     "found (its step is not analysed)");
	disagree_notes(t, s);
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
		/* HTA's model: HTA's rows only */
		bool hta = res->model == TT_CPM_HTA;
		for (int k = 0; k < (hta ? TT_CPE_HTA_COUNT : TT_CPE_COUNT); k++)
			ROW("edge_type", tt_cp_etype_name((enum tt_cp_etype)k),
			    res->by_type[k].dur, true, res->by_type[k].count,
			    pct(res->by_type[k].dur, len));
		for (int k = 0; k < (hta ? TT_CPC_HTA_COUNT : TT_CPC_COUNT); k++)
			ROW("category", tt_cp_cat_name((enum tt_cp_cat)k), res->by_cat[k].dur,
			    true, res->by_cat[k].count, pct(res->by_cat[k].dur, len));
		for (int k = 0; k < (hta ? TT_CPB_HTA_COUNT : TT_CPB_COUNT); k++)
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
					"sync",	    "gap",	  "wait"};
	_Static_assert(TT_ARRAY_SIZE(n) == TT_CPE_COUNT, "a name per edge type");
	return type < TT_CPE_COUNT ? n[type] : "?";
}

/* an event's name: copied into the table once per (rank, name) */
static void set_name(struct tt_table *t, size_t k, int col, size_t ri, const struct tt_rank *r,
		     uint32_t ev)
{
	const struct tt_event *e = &r->ev[ev];
	tt_table_set_keyed(t, k, col, (uint64_t)ri << 32 | e->name, tt_ev_name(r, e));
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
		{.name = "start_ts", .title = "start", .type = TT_C_DUR, .unit_group = 2},
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
	size_t rows = 0;
	for (size_t i = 0; i < x->s->n; i++)
		rows += x->s->steps[i].res.nedges;
	tt_table_reserve(t, rows);
	for (size_t i = 0; i < x->s->n; i++) {
		const struct tt_cp_step *p = &x->s->steps[i];
		const struct tt_rank *r = m->ranks[p->ri];
		const struct tt_cp_result *res = &p->res;
		/* the step's annotation and instance: copied into the table
		 * once, the step's other rows pointing at that copy */
		const char *annot = NULL, *inst = NULL;
		for (size_t j = 0; j < res->nedges; j++) {
			const struct tt_cp_edge *e = &res->edges[j];
			const struct tt_cp_node *u = &res->nodes[j], *v = &res->nodes[j + 1];
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, res->rank);
			if (!annot) {
				tt_table_set_str(t, k, 1, p->annotation);
				tt_table_set_str(t, k, 2, p->inst);
				annot = tt_table_cell(t, k, 1)->v.s;
				inst = tt_table_cell(t, k, 2)->v.s;
			} else {
				tt_table_set_static(t, k, 1, annot);
				tt_table_set_static(t, k, 2, inst);
			}
			tt_table_set_int(t, k, 3, (int64_t)j);
			tt_table_set_static(t, k, 4, tt_cp_etype_name((enum tt_cp_etype)e->type));
			tt_table_set_static(t, k, 5, short_type(e->type));
			tt_table_set_int(t, k, 6, e->weight);
			tt_table_set_int(t, k, 7, tt_cp_graph_weight(e->weight));
			tt_table_set_int(t, k, 8, u->ts - base);
			tt_table_set_int(t, k, 9, v->ts - base);
			set_name(t, k, 10, p->ri, r, u->ev);
			tt_table_set_int(t, k, 11, u->start);
			set_name(t, k, 12, p->ri, r, v->ev);
			tt_table_set_int(t, k, 13, v->start);
			if (e->attr != TT_NONE) {
				set_name(t, k, 14, p->ri, r, e->attr);
				tt_table_set_int(t, k, 15, tt_cp_attr_stream(r, e));
				tt_table_set_int(t, k, 22, e->attr);
			}
			tt_table_set_static(t, k, 16,
					    e->bound == TT_CPB_NONE ?
						    "" :
						    tt_cp_bound_name((enum tt_cp_bound)e->bound));
			char lab[48];
			tt_report_cp_edge_label(e, lab, sizeof(lab));
			tt_table_set_str(t, k, 17, lab);
			tt_table_set_static(t, k, 18, tt_cp_cat_name((enum tt_cp_cat)e->cat));
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

static void whatif_desc(const struct tt_cp_whatif *whatif, size_t nwhatif, char *buf, size_t n)
{
	size_t w = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nwhatif && w < n; i++) {
		const struct tt_cp_whatif *q = &whatif[i];
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
	return tt_report_cp_whatif(x->m, x->s, x->o->whatif, x->o->nwhatif);
}

struct tt_table *tt_report_cp_whatif(const struct tt_model *m, const struct tt_cp_steps *s,
				     const struct tt_cp_whatif *whatif, size_t nwhatif)
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
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_cp_result *res = &s->steps[i].res;
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
	whatif_desc(whatif, nwhatif, desc, sizeof(desc));
	tt_table_set_title(t, "What if %s: the longest path again", desc);
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_cp_step *p = &s->steps[i];
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
			bound_text(res->wi_bound, res->wi_length, 0, res->wait_rank, buf, sizeof(buf));
			tt_table_set_str(t, k, 7, buf);
		}
		tt_table_set_int(t, k, 8, res->wi_edges);
	}
	tt_table_add_note(t, "assumes the graph's dependencies stay as recorded (only times "
			     "change)%s",
			  s->njobs ? "; other ranks arrive in the collectives when they did: a "
				     "rank that waited for one still waits for it" :
				     "");
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
		{.name = "gap", .type = TT_C_INT, .hidden_text = true},
		{.name = "wait", .type = TT_C_INT, .hidden_text = true},
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
		_Static_assert(TT_CPE_COUNT == 7, "the graph table's edge types");
		for (int j = 0; j < TT_CPE_COUNT; j++)
			tt_table_set_int(t, k, 9 + j, st->by_type[j]);
		for (int j = 0; j < 3; j++)
			tt_table_set_int(t, k, 16 + j, st->by_phase[j]);
		tt_table_set_int(t, k, 19, st->reinserted);
		tt_table_set_int(t, k, 20, st->zeroed);
		tt_table_set_int(t, k, 21, st->no_edge);
		tt_table_set_int(t, k, 22, st->ends);
		tt_table_set_int(t, k, 23, st->several_best);
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
	struct tt_table **t = tt_malloc(10 * sizeof(*t));
	size_t k = 0;
	/* one table when one is asked for by name (the path can be long) */
	const char *one = o->table;
#define WANT(name) (!one || strcmp(one, name) == 0)
	if (WANT("critical_path_steps")) {
		t[k++] = steps_table(&x);
		add_notes(t[k - 1], &x);
	}
	if (x.s->njobs && WANT("critical_path_job"))
		t[k++] = job_table(&x);
	if (x.s->nstrag && o->cp_model == TT_CPM_HTA && WANT("critical_path_ranks"))
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
