/* report byrank: the Overview's rows -- per rank, the shares of one span
 * (the GPU span) over one selection of events, the overlap, the top kernel
 * and the ranks that stand out.  The Overview pane draws this table. */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "tracetop/results.h"
#include "tracetop/util.h"

int tt_report_byrank(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col cols[TT_BYRANK_NCOLS] = {
		[TT_BYRANK_RANK] = {.name = "rank", .type = TT_C_INT},
		[TT_BYRANK_SPAN] = {.name = "gpu_span(us)", .title = "GPU span", .type = TT_C_DUR},
		[TT_BYRANK_BUSY] = {.name = "busy_pctg", .title = "busy %", .type = TT_C_PCT,
				    .prec = 1},
		[TT_BYRANK_COMPUTE] = {.name = "compute_pctg", .title = "comp %", .type = TT_C_PCT,
				       .prec = 1},
		[TT_BYRANK_COMM] = {.name = "comm_pctg", .title = "comm %", .type = TT_C_PCT,
				    .prec = 1},
		[TT_BYRANK_MEM] = {.name = "memory_pctg", .title = "mem %", .type = TT_C_PCT,
				   .prec = 1},
		[TT_BYRANK_IDLE] = {.name = "idle_pctg", .title = "idle %", .type = TT_C_PCT,
				    .prec = 1},
		[TT_BYRANK_OVERLAP] = {.name = "overlap_pctg", .title = "overlap %",
				       .type = TT_C_PCT, .prec = 1},
		[TT_BYRANK_TOP] = {.name = "top_kernel", .title = "top kernel", .type = TT_C_STR,
				   .width = 32},
		[TT_BYRANK_FLAG] = {.name = "straggler", .title = "", .type = TT_C_STR, .width = 12},
		[TT_BYRANK_NON_COMPUTE] = {.name = "non_compute_pctg", .type = TT_C_PCT, .prec = 1,
					   .hidden_text = true},
	};
	static const char *const what[TT_BR_NMETRICS] = {"idle", "comm"};
	(void)err;
	const struct tt_byrank *v = tt_res_byrank(res);
	struct tt_table *t = tt_table_new("byrank", cols, TT_BYRANK_NCOLS);
	tt_table_set_title(t, "%s", tt_byrank_span_words(&o->a));
	for (size_t i = 0; i < v->n; i++) {
		const struct tt_byrank_row *w = &v->rows[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, TT_BYRANK_RANK, w->rank);
		if (w->has_gpu)
			tt_table_set_int(t, k, TT_BYRANK_SPAN, w->span_ns);
		tt_table_set_num(t, k, TT_BYRANK_BUSY, w->busy_pct);
		tt_table_set_num(t, k, TT_BYRANK_COMPUTE, w->compute_pct);
		tt_table_set_num(t, k, TT_BYRANK_COMM, w->comm_pct);
		tt_table_set_num(t, k, TT_BYRANK_MEM, w->mem_pct);
		tt_table_set_num(t, k, TT_BYRANK_IDLE, w->idle_pct);
		tt_table_set_num(t, k, TT_BYRANK_OVERLAP, w->overlap_pct);
		if (w->top_kernel)
			tt_table_set_str(t, k, TT_BYRANK_TOP, w->top_kernel);
		tt_table_set_num(t, k, TT_BYRANK_NON_COMPUTE, w->non_compute_pct);
		/* the first metric flagged names the cell */
		for (int mi = 0; mi < TT_BR_NMETRICS; mi++)
			if (w->side[mi]) {
				char flag[64];
				snprintf(flag, sizeof(flag), "%s %s", what[mi],
					 w->side[mi] > 0 ? "high" : "low");
				tt_table_set_str(t, k, TT_BYRANK_FLAG, flag);
				break;
			}
		if (!w->has_gpu)
			tt_table_add_note(t, "rank %lld: no GPU event in this selection: no shares",
					  (long long)w->rank);
	}
	tt_table_add_note(t, "busy + idle = compute + non-compute + idle = 100 %%; communication "
			     "and memory are parts of busy, overlapping computation at times");
	for (size_t i = 0; i < v->nflags; i++) {
		const struct tt_br_flag *f = &v->flags[i];
		tt_table_add_note(t, "straggler: rank %lld, %s %.1f %% vs median %.1f %% across ranks",
				  (long long)v->rows[f->row].rank, what[f->metric], f->value,
				  f->median);
	}
	*out = tt_malloc(sizeof(**out));
	(*out)[0] = t;
	*n = 1;
	return 0;
}
