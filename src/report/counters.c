/* report counters: queue length and memory bandwidth summaries (HTA's
 * get_queue_length_summary, get_time_spent_blocked_on_full_queue,
 * get_memory_bw_summary), and `tracetop counters PATH -o OUT`: the trace with
 * the two series added as counter events (HTA's generate_trace_with_counters). */
#include "config.h"

#include "tracetop/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/rewrite.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

/* ---- the tables ---- */

static const struct tt_col queue_cols[] = {
	{.name = "rank", .type = TT_C_INT},
	{.name = "stream", .type = TT_C_INT},
	{.name = "count", .type = TT_C_INT},
	{.name = "mean", .type = TT_C_NUM, .prec = 2},
	{.name = "std", .type = TT_C_NUM, .prec = 2},
	{.name = "min", .type = TT_C_NUM, .prec = 0},
	{.name = "25%", .type = TT_C_NUM, .prec = 2},
	{.name = "50%", .type = TT_C_NUM, .prec = 2},
	{.name = "75%", .type = TT_C_NUM, .prec = 2},
	{.name = "max", .type = TT_C_NUM, .prec = 0},
	/* beyond HTA: streams are told apart by device too */
	{.name = "device", .type = TT_C_INT},
};

static const struct tt_col blocked_cols[] = {
	{.name = "rank", .type = TT_C_INT},
	{.name = "stream", .type = TT_C_INT},
	{.name = "duration_at_max_queue_length", .title = "time at max queue", .type = TT_C_DUR},
	{.name = "relative_duration_at_max_queue_length", .title = "of trace", .type = TT_C_NUM,
	 .prec = 4},
	{.name = "device", .type = TT_C_INT},
};

static const struct tt_col bw_cols[] = {
	{.name = "rank", .type = TT_C_INT},
	{.name = "name", .type = TT_C_STR},
	{.name = "count", .type = TT_C_INT},
	{.name = "mean", .type = TT_C_NUM, .prec = 3},
	{.name = "std", .type = TT_C_NUM, .prec = 3},
	{.name = "min", .type = TT_C_NUM, .prec = 3},
	{.name = "25%", .type = TT_C_NUM, .prec = 3},
	{.name = "50%", .type = TT_C_NUM, .prec = 3},
	{.name = "75%", .type = TT_C_NUM, .prec = 3},
	{.name = "max", .type = TT_C_NUM, .prec = 3},
	/* beyond HTA: copies of the kind (each gives two samples) */
	{.name = "copies", .type = TT_C_INT},
};

static void set_describe(struct tt_table *t, size_t k, int c, const struct tt_describe *d)
{
	tt_table_set_int(t, k, c++, (int64_t)d->count);
	tt_table_set_num(t, k, c++, d->mean);
	tt_table_set_num(t, k, c++, d->std);
	tt_table_set_num(t, k, c++, d->min);
	tt_table_set_num(t, k, c++, d->q25);
	tt_table_set_num(t, k, c++, d->q50);
	tt_table_set_num(t, k, c++, d->q75);
	tt_table_set_num(t, k, c, d->max);
}

static void limit_rows(struct tt_table *t, int top)
{
	if (top <= 0 || t->nrows <= (size_t)top)
		return;
	size_t more = t->nrows - (size_t)top;
	tt_table_truncate(t, (size_t)top);
	tt_table_add_note(t, "%zu more row%s not shown (--top %d)", more, more == 1 ? "" : "s",
			  top);
}

int tt_report_counters(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_counters c = *tt_res_counters(res);

	struct tt_table *q = tt_table_new("queue_length_summary", queue_cols,
					  (int)TT_ARRAY_SIZE(queue_cols));
	struct tt_table *b = tt_table_new("time_blocked_on_full_queue", blocked_cols,
					  (int)TT_ARRAY_SIZE(blocked_cols));
	struct tt_table *w = tt_table_new("memory_bw_summary", bw_cols,
					  (int)TT_ARRAY_SIZE(bw_cols));
	tt_table_set_title(q, "Queue length per stream: operations launched and not yet started "
			      "(statistics of the samples, not time-weighted)");
	tt_table_set_title(b, "Time with a full launch queue (>= %d operations)", TT_QUEUE_MAX);
	tt_table_set_title(w, "Memory bandwidth per copy kind, GB/s of the copies in flight "
			      "(samples > 0, not time-weighted)");
	size_t full_ranks = 0;
	for (size_t i = 0; i < c.nranks; i++) {
		const struct tt_counters_rank *cr = &c.ranks[i];
		long long rank = (long long)cr->r->rank;
		if (!cr->gpu) {
			tt_table_add_note(q, "rank %lld: no GPU activity", rank);
			tt_table_add_note(w, "rank %lld: no GPU activity", rank);
			continue;
		}
		if (!cr->nq)
			tt_table_add_note(q, "rank %lld: no kernel launch linked to a GPU op",
					  rank);
		if (!cr->nbw)
			tt_table_add_note(w, "rank %lld: no memory copy or set on the GPU", rank);
		size_t full = 0;
		for (size_t s = 0; s < cr->nq; s++) {
			const struct tt_queue_series *qs = &cr->q[s];
			size_t k = tt_table_add_row(q);
			tt_table_set_int(q, k, 0, cr->r->rank);
			tt_table_set_int(q, k, 1, qs->stream);
			set_describe(q, k, 2, &qs->stats);
			tt_table_set_int(q, k, 10, qs->device);
			if (!qs->reaches_max)
				continue;
			k = tt_table_add_row(b);
			tt_table_set_int(b, k, 0, cr->r->rank);
			tt_table_set_int(b, k, 1, qs->stream);
			tt_table_set_int(b, k, 2, qs->full_ns);
			tt_table_set_num(b, k, 3, qs->full_rel);
			tt_table_set_int(b, k, 4, qs->device);
			full++;
		}
		if (full > 1)
			full_ranks++;
		for (size_t s = 0; s < cr->nbw; s++) {
			const struct tt_bw_series *bs = &cr->bw[s];
			size_t k = tt_table_add_row(w);
			tt_table_set_int(w, k, 0, cr->r->rank);
			tt_table_set_str(w, k, 1, bs->name);
			set_describe(w, k, 2, &bs->stats);
			tt_table_set_int(w, k, 10, bs->copies);
		}
	}
	if (!b->nrows)
		tt_table_add_note(b, "no stream reached %d queued operations", TT_QUEUE_MAX);
	if (full_ranks)
		tt_table_add_note(b, "every stream that reaches the limit is listed; "
				     "HTA keeps only the last one of each rank");
	limit_rows(q, o->top);
	limit_rows(b, o->top);
	limit_rows(w, o->top);
	*out = tt_malloc(3 * sizeof(**out));
	(*out)[0] = q;
	(*out)[1] = b;
	(*out)[2] = w;
	*n = 3;
	return 0;
}

/* ---- the trace with counters ---- */

struct emit {
	const struct tt_counters_rank *cr;
	int64_t base_ns; /* the file's ts are (ns - base) / 1000 µs */
	uint64_t events; /* written so far */
};

/* ts in µs as the trace writes it: integer, or with the ns fraction */
static void fmt_ts(char *buf, size_t n, int64_t ns, int64_t base)
{
	int64_t t = ns - base;
	const char *sign = t < 0 ? "-" : "";
	uint64_t a = t < 0 ? (uint64_t)0 - (uint64_t)t : (uint64_t)t;
	uint64_t us = a / 1000, frac = a % 1000;
	if (!frac) {
		snprintf(buf, n, "%s%" PRIu64, sign, us);
		return;
	}
	int len = snprintf(buf, n, "%s%" PRIu64 ".%03" PRIu64, sign, us, frac);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
}

/* a JSON string body (the kind names come from event names) */
static void json_str(char *dst, size_t n, const char *s)
{
	size_t k = 0;
	for (; *s && k + 7 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\') {
			dst[k++] = '\\';
			dst[k++] = (char)ch;
		} else if (ch < 0x20) {
			k += (size_t)snprintf(dst + k, n - k, "\\u%04x", ch);
		} else {
			dst[k++] = (char)ch;
		}
	}
	dst[k] = '\0';
}

static int put_event(struct emit *e, struct tt_writer *w, bool *comma, struct tt_err *err,
		     const char *fmt, ...) TT_PRINTF(5, 6);

/* one element, on its own line, after a ',' when one is needed */
static int put_event(struct emit *e, struct tt_writer *w, bool *comma, struct tt_err *err,
		     const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(buf))
		len = (int)sizeof(buf) - 1;
	int rc = tt_writer_puts(w, *comma ? ",\n" : "\n", err);
	if (!rc)
		rc = tt_writer_write(w, buf, (size_t)len, err);
	*comma = true;
	e->events++;
	return rc;
}

static int insert_counters(void *ctx, struct tt_writer *w, bool comma, struct tt_err *err)
{
	struct emit *e = ctx;
	const struct tt_counters_rank *cr = e->cr;
	char ts[40], val[40], name[160];
	int rc = 0;
	/* HTA's counter events, with one change: the queue length of each
	 * stream is its own args key ("stream 7") instead of HTA's
	 * {"Queue Length": v} plus "id": stream, so that viewers that key
	 * counters by name and args (tracetop, chrome://tracing) keep the
	 * streams apart */
	for (size_t s = 0; s < cr->nq && !rc; s++) {
		const struct tt_queue_series *q = &cr->q[s];
		for (size_t i = 0; i < q->npts && !rc; i++) {
			fmt_ts(ts, sizeof(ts), q->pts[i].ts, e->base_ns);
			rc = put_event(e, w, &comma, err,
				       "{\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": %lld, "
				       "\"ts\": %s, \"args\": {\"stream %lld\": %lld}}",
				       (long long)q->device, ts, (long long)q->stream,
				       (long long)q->pts[i].value);
		}
	}
	for (size_t s = 0; s < cr->nbw && !rc; s++) {
		const struct tt_bw_series *b = &cr->bw[s];
		json_str(name, sizeof(name), b->name);
		for (size_t i = 0; i < b->npts && !rc; i++) {
			fmt_ts(ts, sizeof(ts), b->pts[i].ts, e->base_ns);
			tt_fmt_real(val, sizeof(val), b->pts[i].value);
			rc = put_event(e, w, &comma, err,
				       "{\"ph\": \"C\", \"name\": \"%s\", \"pid\": %lld, "
				       "\"ts\": %s, \"args\": {\"Memcpy BW\": %s}}",
				       name, (long long)b->device, ts, val);
		}
	}
	if (!rc && e->events)
		rc = tt_writer_puts(w, "\n", err);
	return rc;
}

int tt_counters_write(const struct tt_model *m, const struct tt_report_opts *o,
		      const char *out_path, struct tt_err *err)
{
	size_t ri = 0;
	while (ri < m->nranks && !tt_aopts_has_rank(&o->a, m->ranks[ri]->rank))
		ri++;
	if (ri == m->nranks)
		return tt_err_set(err, TT_E_NOTFOUND, "", TT_NO_OFFSET,
				  "none of the selected ranks was loaded");
	const struct tt_rank *r = m->ranks[ri];
	struct tt_counters_rank cr;
	tt_counters_rank_compute(m, ri, &o->a, &cr);
	int rc;
	if (!cr.nq && !cr.nbw) {
		/* HTA writes no file either */
		rc = tt_err_set(err, TT_E_NOTFOUND, r->path, TT_NO_OFFSET,
				"rank %lld: %s: no counters to add", (long long)r->rank,
				cr.gpu ? "no kernel launch or memory copy" : "no GPU activity");
		tt_counters_rank_free(&cr);
		return rc;
	}
	size_t pl = strlen(r->path);
	if (strcmp(r->path, "-") == 0 || (pl > 4 && strcmp(r->path + pl - 4, ".tts") == 0)) {
		tt_counters_rank_free(&cr);
		return tt_err_set(err, TT_E_USAGE, r->path, TT_NO_OFFSET,
				  "the trace text is needed to add counters: give the trace file");
	}
	struct emit e = {&cr, r->base_ns, 0};
	rc = tt_rewrite_file(r->path, out_path, insert_counters, &e, err);
	tt_counters_rank_free(&cr);
	return rc;
}
