/* tracetop report source: operators by Python stack, source lines. */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/source.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"
#include "tracetop/advice.h"

/* ---- source ---- */

static struct tt_table *src_stack_table(const struct tt_src *s, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "operator", .type = TT_C_STR, .width = 40},
		{.name = "calls", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "frames", .type = TT_C_INT},
		{.name = "innermost_frame",
		 .title = "innermost frame",
		 .type = TT_C_STR,
		 .width = 60},
		{.name = "from", .type = TT_C_STR},
		{.name = "stack", .type = TT_C_STR, .hidden_text = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("source_stacks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Operators by the Python stack that called them (innermost frame "
			      "first), by host time");
	size_t n = s->nstacks, top = o->top > 0 ? (size_t)o->top : 50;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	char frame[512];
	for (size_t i = 0; i < n; i++) {
		const struct tt_src_stack *st = &s->stacks[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, st->op);
		tt_table_set_int(t, k, 1, (int64_t)st->calls);
		tt_table_set_int(t, k, 2, st->host_ns);
		tt_table_set_int(t, k, 3, st->nframes);
		size_t fl = strcspn(st->stack, "\n");
		snprintf(frame, sizeof(frame), "%.*s", (int)TT_MIN(fl, sizeof(frame) - 1),
			 st->stack);
		tt_table_set_str(t, k, 4, frame);
		tt_table_set_str(t, k, 5, st->python ? "python_function" : "Call stack");
		/* CSV: frames separated by " | " on one line */
		char *flat = tt_strdup(st->stack);
		for (char *p = flat; *p; p++)
			if (*p == '\n')
				*p = '|';
		tt_table_set_str(t, k, 6, flat);
		free(flat);
		tt_table_set_int(t, k, 7, (int64_t)st->ri);
		tt_table_set_int(t, k, 8, st->ev);
	}
	if (n < s->nstacks)
		tt_table_add_note(t, "%zu of %zu stacks shown (--top N)", n, s->nstacks);
	if (!s->nstacks)
		tt_table_add_note(t, "%s", tt_hint_stacks);
	return t;
}

static struct tt_table *src_line_table(const struct tt_src *s, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "frame", .type = TT_C_STR, .width = 60},
		{.name = "file", .type = TT_C_STR, .hidden_text = true},
		{.name = "line", .type = TT_C_INT, .hidden_text = true},
		{.name = "calls", .type = TT_C_INT},
		{.name = "operators", .title = "ops", .type = TT_C_INT},
		{.name = "host_total(us)", .title = "host total", .type = TT_C_DUR},
		{.name = "bar",
		 .title = "",
		 .type = TT_C_BAR,
		 .bar_of = 5,
		 .width = 20,
		 .role = {TT_ROLE_BAR_CPU}},
	};
	struct tt_table *t = tt_table_new("source_lines", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Source lines that call operators (the innermost frame of each "
			      "stack), by the host time of the operators they call");
	size_t n = s->nlines, top = o->top > 0 ? (size_t)o->top : 50;
	if (o->format == TT_FMT_TABLE && n > top)
		n = top;
	char file[512];
	for (size_t i = 0; i < n; i++) {
		const struct tt_src_line *ln = &s->lines[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, ln->frame);
		int64_t line;
		if (tt_tb_frame_parse(ln->frame, strlen(ln->frame), file, sizeof(file), &line)) {
			tt_table_set_str(t, k, 1, file);
			tt_table_set_int(t, k, 2, line);
		}
		tt_table_set_int(t, k, 3, (int64_t)ln->calls);
		tt_table_set_int(t, k, 4, ln->nops);
		tt_table_set_int(t, k, 5, ln->host_ns);
	}
	if (n < s->nlines)
		tt_table_add_note(t, "%zu of %zu lines shown (--top N)", n, s->nlines);
	if (!s->nlines)
		tt_table_add_note(t, "%s", tt_hint_stacks);
	return t;
}

int tt_report_source(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_src *s = tt_res_src(res);
	struct tt_table *t[2];
	t[0] = src_stack_table(s, o);
	t[1] = src_line_table(s, o);
	tt_tb_give(out, n, t, 2);
	return 0;
}

