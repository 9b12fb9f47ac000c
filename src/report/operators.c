/* tracetop report operators: host and device time per operator. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/operators.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* ---- operators ---- */

static struct tt_table *ops_table(const struct tt_ops *p, bool by_shapes,
				  const struct tt_report_opts *o)
{
	static const struct tt_col base[] = {
		{.name = "name", .type = TT_C_STR, .width = 50},
		{.name = "input_dims", .title = "input dims", .type = TT_C_STR, .width = 40},
		{.name = "calls", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "host_self(us)", .title = "host self", .type = TT_C_DUR},
		{.name = "device_total(us)", .title = "device total", .type = TT_C_DUR},
		{.name = "device_self(us)", .title = "device self", .type = TT_C_DUR},
		{.name = "gpu_ops_self", .title = "GPU ops", .type = TT_C_INT},
		{.name = "gpu_ops_total", .type = TT_C_INT, .hidden_text = true},
		{.name = "runtime(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "tc_eligible", .title = "TC", .type = TT_C_STR},
		{.name = "tc_self_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "tc_total_pctg", .type = TT_C_PCT, .prec = 1, .hidden_text = true},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_col cols[TT_ARRAY_SIZE(base)];
	int nc = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(base); i++)
		if (by_shapes || i != 1)
			cols[nc++] = base[i];
	int s = by_shapes ? 1 : 0; /* column shift after the name */
	struct tt_table *t =
		tt_table_new(by_shapes ? "operators_by_shapes" : "operators", cols, nc);
	tt_table_set_title(
		t, by_shapes ? "Operators by name and input shapes (Input Dims)"
			     : "Operators (plain cpu_ops) by device self time, then host self time");
	size_t n = p->n, top = o->top > 0 ? (size_t)o->top : 40;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	for (size_t i = 0; i < n; i++) {
		const struct tt_op_row *w = &p->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, w->name);
		if (by_shapes)
			tt_table_set_str(t, k, 1, w->shapes ? w->shapes : "[]");
		tt_table_set_int(t, k, 1 + s, (int64_t)w->calls);
		tt_table_set_int(t, k, 2 + s, w->host_total);
		tt_table_set_int(t, k, 3 + s, w->host_self);
		tt_table_set_int(t, k, 4 + s, w->dev_total);
		tt_table_set_int(t, k, 5 + s, w->dev_self);
		tt_table_set_int(t, k, 6 + s, (int64_t)w->gpu_ops_self);
		tt_table_set_int(t, k, 7 + s, (int64_t)w->gpu_ops_total);
		tt_table_set_int(t, k, 8 + s, w->runtime_ns);
		tt_table_set_str(t, k, 9 + s, w->tc_eligible ? "yes" : "no");
		tt_table_set_num(t, k, 10 + s,
				 w->dev_self > 0 ? 100.0 * (double)w->tc_self_ns / (double)w->dev_self
						 : 0);
		tt_table_set_num(t, k, 11 + s,
				 w->dev_total > 0
					 ? 100.0 * (double)w->tc_total_ns / (double)w->dev_total
					 : 0);
		tt_table_set_int(t, k, 12 + s, w->nranks);
		tt_table_set_int(t, k, 13 + s, (int64_t)w->ri);
		tt_table_set_int(t, k, 14 + s, w->ev);
	}
	if (n < p->n)
		tt_table_add_note(t, "%zu of %zu operators shown (--top N; CSV and JSON list all)",
				  n, p->n);
	if (!by_shapes) {
		tt_table_add_note(
			t, "host self: the op's time minus its child ops and its own runtime "
			   "calls; device self: GPU ops its own runtime calls launched; totals "
			   "include the children; TC: tensor-core eligible (the plugin's rules)");
		tt_table_add_note(t, "runtime calls belong to the innermost op around them (the "
				     "plugin links them by External id, which newer traces break: it "
				     "then shows no device time and counts runtime time as host self)");
		if (p->ndropped)
			tt_table_add_note(t,
					  "%u ops left out: they partly overlap an op open on their "
					  "thread (ranges on a thread must nest)",
					  p->ndropped);
	} else if (!p->any_shapes) {
		tt_table_add_note(t, "no Input Dims recorded: use torch.profiler.profile("
				     "record_shapes=True)");
	}
	if (!p->n)
		tt_table_add_note(t, "no CPU operators in the ranks shown");
	return t;
}

/* the kernels one operator launched (--op NAME: its exact name), as the
 * Operators view's drill-down lists them */
static struct tt_table *op_kernels_table(const struct tt_model *m,
					 const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "operator", .type = TT_C_STR, .hidden_text = true},
		{.name = "name", .type = TT_C_STR, .width = 50},
		{.name = "count", .type = TT_C_INT},
		{.name = "total(us)", .title = "total", .type = TT_C_DUR},
		{.name = "self_count", .title = "self", .type = TT_C_INT},
		{.name = "self(us)", .title = "self time", .type = TT_C_DUR},
	};
	struct tt_table *t = tt_table_new("operator_kernels", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "GPU ops launched under %s or its children (self: by its own "
			      "runtime calls), by total time", o->op_name);
	struct tt_op_kernel *v;
	size_t nk = tt_op_kernels(m, &o->a, o->op_name, NULL, &v);
	for (size_t i = 0; i < nk; i++) {
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, o->op_name);
		tt_table_set_str(t, k, 1, v[i].name);
		tt_table_set_int(t, k, 2, (int64_t)v[i].count);
		tt_table_set_int(t, k, 3, v[i].sum_ns);
		tt_table_set_int(t, k, 4, (int64_t)v[i].count_self);
		tt_table_set_int(t, k, 5, v[i].self_ns);
	}
	free(v);
	if (!nk)
		tt_table_add_note(t, "%s launched no GPU work", o->op_name);
	return t;
}

int tt_report_operators(struct tt_results *res, const struct tt_report_opts *o,
			struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	struct tt_table *t[3];
	t[0] = ops_table(tt_res_ops(res, false), false, o);
	size_t k = 1;
	if (!o->table || strcmp(o->table, "operators_by_shapes") == 0)
		t[k++] = ops_table(tt_res_ops(res, true), true, o);
	if (o->op_name)
		t[k++] = op_kernels_table(tt_results_model(res), o);
	tt_tb_give(out, n, t, k);
	return 0;
}

