/* report summary and the load report. */
#include "config.h"

#include "tracetop/report.h"

#include <stdlib.h>

#include "tracetop/results.h"
#include "tracetop/util.h"

int tt_report_summary(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err)
{
	static const struct tt_col cols[] = {
		{.name = "file", .type = TT_C_STR, .width = 40},
		{.name = "rank", .type = TT_C_INT},
		{.name = "events", .type = TT_C_INT},
		{.name = "trace_span", .title = "trace span", .type = TT_C_DUR},
		{.name = "gpu_streams", .title = "streams", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "memcpy", .type = TT_C_INT},
		{.name = "memset", .type = TT_C_INT},
		{.name = "gpu_busy", .title = "GPU busy", .type = TT_C_DUR},
		{.name = "gpu_busy_of_trace_span_pctg", .title = "busy % of trace span",
		 .type = TT_C_PCT, .prec = 1},
		{.name = "cpu_ops", .title = "CPU ops", .type = TT_C_INT},
		{.name = "runtime_calls", .title = "runtime", .type = TT_C_INT},
		{.name = "steps", .type = TT_C_INT},
		{.name = "warnings", .type = TT_C_INT},
	};
	(void)err;
	const struct tt_summary_res *sr = tt_res_summary(res);
	const struct tt_summary_row *rows = sr->rows;
	size_t nr = sr->n;
	struct tt_table *t = tt_table_new("summary", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < nr; i++) {
		const struct tt_summary_row *w = &rows[i];
		if (!tt_aopts_has_rank(&o->a, w->r->rank))
			continue;
		size_t k = tt_table_add_row(t);
		int c = 0;
		tt_table_set_str(t, k, c++, w->r->file);
		tt_table_set_int(t, k, c++, w->r->rank);
		tt_table_set_int(t, k, c++, (int64_t)w->events);
		tt_table_set_int(t, k, c++, w->span_ns);
		tt_table_set_int(t, k, c++, w->gpu_streams);
		tt_table_set_int(t, k, c++, w->kernels);
		tt_table_set_int(t, k, c++, w->memcpys);
		tt_table_set_int(t, k, c++, w->memsets);
		tt_table_set_int(t, k, c++, w->gpu_busy_ns);
		tt_table_set_num(t, k, c++, w->gpu_busy_pct);
		tt_table_set_int(t, k, c++, w->cpu_ops);
		tt_table_set_int(t, k, c++, w->runtime_calls);
		tt_table_set_int(t, k, c++, w->steps);
		tt_table_set_int(t, k, c++, (int64_t)w->warnings);
	}
	*out = tt_malloc(sizeof(**out));
	(*out)[0] = t;
	*n = 1;
	return 0;
}

struct tt_table *tt_report_load_table(const struct tt_model *m)
{
	static const struct tt_col cols[] = {
		{.name = "file", .type = TT_C_STR, .width = 40},
		{.name = "rank", .type = TT_C_INT},
		{.name = "severity", .type = TT_C_STR},
		{.name = "count", .type = TT_C_INT},
		{.name = "first_offset", .title = "first byte", .type = TT_C_INT},
		{.name = "what", .type = TT_C_STR, .width = 70},
	};
	struct tt_table *t = tt_table_new("load", cols, (int)TT_ARRAY_SIZE(cols));
	for (size_t i = 0; i < m->nranks; i++) {
		const struct tt_rank *r = m->ranks[i];
		for (int w = 0; w < TT_W_COUNT; w++) {
			if (!r->report.count[w])
				continue;
			size_t k = tt_table_add_row(t);
			tt_table_set_str(t, k, 0, r->file);
			tt_table_set_int(t, k, 1, r->rank);
			tt_table_set_str(t, k, 2, tt_warning_severity(w) == 'w' ? "warning" : "note");
			tt_table_set_int(t, k, 3, (int64_t)r->report.count[w]);
			tt_table_set_int(t, k, 4, (int64_t)r->report.first_off[w]);
			tt_table_set_str(t, k, 5, tt_warning_msg(w));
		}
	}
	for (size_t i = 0; i < m->nfailures; i++) {
		const struct tt_load_failure *f = &m->failures[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, f->path);
		tt_table_set_str(t, k, 2, "error");
		tt_table_set_int(t, k, 3, 1);
		if (f->err.offset != TT_NO_OFFSET)
			tt_table_set_int(t, k, 4, (int64_t)f->err.offset);
		tt_table_set_str(t, k, 5, f->err.msg);
	}
	return t;
}
