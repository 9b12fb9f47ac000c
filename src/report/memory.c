/* tracetop report memory: peaks per device, allocations alive at the peak,
 * the curve. */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/memory.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"
#include "tracetop/advice.h"

/* ---- memory ---- */


static struct tt_table *mem_dev_table(const struct tt_model *m, const struct tt_mem *mm)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "events", .type = TT_C_INT},
		{.name = "allocations", .title = "allocs", .type = TT_C_INT},
		{.name = "frees", .type = TT_C_INT},
		{.name = "peak_allocated", .type = TT_C_INT, .hidden_text = true},
		{.name = "peak_allocated_text",
		 .title = "peak allocated",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "peak_time(us)", .title = "at", .type = TT_C_DUR},
		{.name = "peak_reserved", .type = TT_C_INT, .hidden_text = true},
		{.name = "peak_reserved_text",
		 .title = "peak reserved",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "device_memory_pctg", .title = "of device", .type = TT_C_PCT, .prec = 1},
		{.name = "live_at_peak", .title = "alive at peak", .type = TT_C_INT},
		{.name = "live_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "live_bytes_text",
		 .title = "their size",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "before_trace", .type = TT_C_INT, .hidden_text = true},
		{.name = "before_trace_text",
		 .title = "from before",
		 .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "allocated_over_time",
		 .title = "allocated over time",
		 .type = TT_C_STR,
		 .width = 64,
		 .hidden_csv = true},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "device_id", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("memory_devices", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Memory per rank and device from [memory] events: the peak of the "
			      "allocated total, and the allocations alive at the peak");
	char buf[64], spark[400];
	float series[TT_UTIL_BUCKETS];
	bool no_addr = false, no_total = false;
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		const struct tt_rank *r = m->ranks[d->ri];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, d->rank);
		tt_tb_dev_label(buf, sizeof(buf), d->device);
		tt_table_set_str(t, k, 1, buf);
		tt_table_set_int(t, k, 2, d->nevents);
		tt_table_set_int(t, k, 3, d->nallocs);
		tt_table_set_int(t, k, 4, d->nfrees);
		tt_tb_set_bytes(t, k, 5, 6, d->peak_alloc);
		tt_table_set_int(t, k, 7, d->peak_ts - r->t0);
		tt_tb_set_bytes(t, k, 8, 9, d->peak_reserved);
		tt_table_set_num(t, k, 10, d->peak_pct);
		if (d->nwith_addr == d->nevents) {
			tt_table_set_int(t, k, 11, (int64_t)d->nlive);
			tt_tb_set_bytes(t, k, 12, 13, d->live_bytes);
		} else {
			tt_table_set_str(t, k, 13, "unknown");
			no_addr = true;
		}
		if (d->nwith_addr == d->nevents && d->nwith_total == d->nevents) {
			tt_tb_set_bytes(t, k, 14, 15, TT_MAX(0, d->peak_alloc - d->live_bytes));
		} else {
			tt_table_set_str(t, k, 15, "unknown");
			no_total |= d->nwith_total != d->nevents;
		}
		/* the curve over the rank's span */
		for (int b = 0; b < TT_UTIL_BUCKETS; b++) {
			int64_t x = tt_lerp_ns(r->t0, r->t1, b, TT_UTIL_BUCKETS);
			int64_t y = tt_lerp_ns(r->t0, r->t1, b + 1, TT_UTIL_BUCKETS);
			int64_t v = tt_mem_max(d, x, y > x ? y : x + 1, false);
			series[b] = v > 0 ? (float)v : 0;
		}
		tt_sparkline(spark, sizeof(spark), series, TT_UTIL_BUCKETS, (double)d->peak_alloc);
		tt_table_set_str(t, k, 16, spark);
		tt_table_set_int(t, k, 17, (int64_t)d->ri);
		tt_table_set_int(t, k, 18, d->device);
	}
	if (!mm->ndevs)
		tt_table_add_note(t, "%s", tt_hint_memory);
	else
		tt_table_add_note(t, "from before: allocated before the trace started (the peak "
				     "minus the allocations alive at it that the trace saw)");
	if (no_addr)
		tt_table_add_note(t, "unknown: [memory] events without Addr (PyTorch < 1.10) cannot "
				     "be paired with their frees, so what is alive at the peak is "
				     "unknown");
	if (no_total)
		tt_table_add_note(t, "[memory] events without Total Allocated: the curve is the sum "
				     "of Bytes from the trace's start, so the peak leaves out what was "
				     "allocated before");
	return t;
}

static struct tt_table *mem_ops_table(const struct tt_mem *mm, const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "operator", .type = TT_C_STR, .width = 50},
		{.name = "calls", .type = TT_C_INT},
		{.name = "size_increase_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "size_increase", .title = "size increase", .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "self_size_increase_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "self_size_increase", .title = "self", .type = TT_C_STR, .hidden_csv = true},
		{.name = "allocation_count", .title = "allocs", .type = TT_C_INT},
		{.name = "self_allocation_count", .title = "self", .type = TT_C_INT},
		{.name = "allocation_size_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "allocation_size", .title = "allocated", .type = TT_C_STR,
		 .hidden_csv = true},
		{.name = "self_allocation_size_bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "self_allocation_size", .title = "self", .type = TT_C_STR,
		 .hidden_csv = true},
	};
	struct tt_table *t = tt_table_new("memory_operators", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Memory per operator (the plugin's memory statistics): allocations "
			      "inside the op itself, and with the ops below it");
	size_t top = o->top > 0 ? (size_t)o->top : 30, shown = 0;
	char buf[64];
	for (size_t i = 0; i < mm->nops; i++) {
		const struct tt_mem_op *x = &mm->ops[i];
		if (o->format == TT_FMT_TABLE && i && (x->ri != mm->ops[i - 1].ri ||
						       x->device != mm->ops[i - 1].device))
			shown = 0;
		if (o->format == TT_FMT_TABLE && shown++ >= top)
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, x->rank);
		tt_tb_dev_label(buf, sizeof(buf), x->device);
		tt_table_set_str(t, k, 1, buf);
		tt_table_set_str(t, k, 2, x->name);
		tt_table_set_int(t, k, 3, (int64_t)x->calls);
		tt_table_set_int(t, k, 4, x->increase);
		tt_fmt_bytes(buf, sizeof(buf), (double)x->increase);
		tt_table_set_str(t, k, 5, buf);
		tt_table_set_int(t, k, 6, x->self_increase);
		tt_fmt_bytes(buf, sizeof(buf), (double)x->self_increase);
		tt_table_set_str(t, k, 7, buf);
		tt_table_set_int(t, k, 8, (int64_t)x->allocs);
		tt_table_set_int(t, k, 9, (int64_t)x->self_allocs);
		tt_tb_set_bytes(t, k, 10, 11, x->alloc_bytes);
		tt_tb_set_bytes(t, k, 12, 13, x->self_alloc_bytes);
	}
	if (o->format == TT_FMT_TABLE && mm->nops > t->nrows)
		tt_table_add_note(t, "the top %zu operators per rank and device (--top N; CSV and "
				     "JSON list all)",
				  top);
	tt_table_add_note(t, "an event counts for the innermost op around it on its thread "
			     "(events in a step or DataLoader span but no op are left out, as the "
			     "plugin does)");
	if (!mm->ndevs)
		tt_table_add_note(t, "%s", tt_hint_memory);
	return t;
}

static struct tt_table *mem_live_table(const struct tt_model *m, const struct tt_mem *mm,
				       const struct tt_report_opts *o)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "size", .type = TT_C_STR, .hidden_csv = true},
		{.name = "allocated_at(us)", .title = "allocated at", .type = TT_C_DUR,
		 .unit_group = 2},
		{.name = "age_at_peak(us)", .title = "age at peak", .type = TT_C_DUR},
		{.name = "address", .type = TT_C_STR},
		{.name = "operator", .type = TT_C_STR, .width = 60},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
		{.name = "event", .type = TT_C_INT, .hidden_text = true},
		{.name = "op_event", .type = TT_C_INT, .hidden_text = true},
		{.name = "device_id", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("memory_live_at_peak", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Allocations alive at the peak, largest first, with the operator "
			      "that made each (times since the rank's first event)");
	size_t top = o->top > 0 ? (size_t)o->top : 20;
	char buf[64];
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		const struct tt_rank *r = m->ranks[d->ri];
		size_t n = d->nlive;
		if (o->format == TT_FMT_TABLE && n > top)
			n = top;
		for (size_t j = 0; j < n; j++) {
			const struct tt_mem_live *a = &mm->live[d->first_live + j];
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			tt_tb_dev_label(buf, sizeof(buf), d->device);
			tt_table_set_str(t, k, 1, buf);
			tt_tb_set_bytes(t, k, 2, 3, a->bytes);
			tt_table_set_int(t, k, 4, a->ts - r->t0);
			tt_table_set_int(t, k, 5, d->peak_ts - a->ts);
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)a->addr);
			tt_table_set_str(t, k, 6, buf);
			tt_table_set_str(t, k, 7,
					 a->op != TT_NONE ? tt_ev_name(r, &r->ev[a->op])
							  : "(no operator)");
			tt_table_set_int(t, k, 8, (int64_t)a->ri);
			tt_table_set_int(t, k, 9, a->ev);
			if (a->op != TT_NONE)
				tt_table_set_int(t, k, 10, a->op);
			tt_table_set_int(t, k, 11, d->device);
		}
		if (n < d->nlive)
			tt_table_add_note(t, "rank %lld %s: %zu of %zu allocations shown (--top N)",
					  (long long)d->rank, buf, n, d->nlive);
	}
	if (!mm->ndevs)
		tt_table_add_note(t, "%s", tt_hint_memory);
	return t;
}

static struct tt_table *mem_curve_table(const struct tt_model *m, const struct tt_mem *mm)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "device", .type = TT_C_STR},
		{.name = "time(us)", .title = "time", .type = TT_C_DUR},
		{.name = "allocated", .type = TT_C_INT},
		{.name = "reserved", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("memory_curve", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Allocated and reserved totals after each [memory] event (time "
			      "since the rank's first event)");
	char buf[32];
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		tt_tb_dev_label(buf, sizeof(buf), d->device);
		for (size_t j = 0; j < d->npts; j++) {
			size_t k = tt_table_add_row(t);
			tt_table_set_int(t, k, 0, d->rank);
			tt_table_set_str(t, k, 1, buf);
			tt_table_set_int(t, k, 2, d->pts[j].ts - m->ranks[d->ri]->t0);
			tt_table_set_int(t, k, 3, d->pts[j].alloc);
			if (d->pts[j].reserved >= 0)
				tt_table_set_int(t, k, 4, d->pts[j].reserved);
		}
	}
	return t;
}

int tt_report_memory(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_mem *mm = tt_res_mem(res);
	struct tt_table *t[4];
	size_t k = 0;
	t[k++] = mem_dev_table(m, mm);
	t[k++] = mem_live_table(m, mm, o);
	t[k++] = mem_ops_table(mm, o);
	if (tt_tb_want(o, "memory_curve"))
		t[k++] = mem_curve_table(m, mm);
	tt_tb_give(out, n, t, k);
	return 0;
}

