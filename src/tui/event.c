/* The event pane: one event's details -- name, times, track, correlation,
 * the args the model keeps, and what launched it or what it launched.
 * Opened from the timeline (Enter). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/analysis.h"
#include "tracetop/util.h"
#include "pane.h"
#include "tltracks.h"
#include "tlwindow.h"

struct ev_state {
	const struct tt_rank *r;
	uint32_t ev;
};

static void kv(struct tt_table *t, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kv(struct tt_table *t, const char *k, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	size_t row = tt_table_add_row(t);
	tt_table_set_str(t, row, 0, k);
	tt_table_set_str(t, row, 1, buf);
}

static void kv_comm(struct tt_table *t, const struct tt_rank *r, uint32_t ci)
{
	if (ci == TT_NONE || ci >= r->ncomm)
		return;
	const struct tt_comm *c = &r->comm[ci];
	kv(t, "collective", "%s", tt_str(r, c->name));
	if (c->dtype != TT_NONE)
		kv(t, "dtype", "%s", tt_str(r, c->dtype));
	if (c->in_nelems >= 0 || c->out_nelems >= 0)
		kv(t, "elements", "in %lld, out %lld", (long long)c->in_nelems,
		   (long long)c->out_nelems);
	if (c->group_size >= 0)
		kv(t, "group size", "%lld", (long long)c->group_size);
	if (c->pg != TT_NONE)
		kv(t, "process group", "%s", tt_str(r, c->pg));
	if (c->pg_ranks != TT_NONE)
		kv(t, "group ranks", "%s", tt_str(r, c->pg_ranks));
}

static int ev_open(struct tt_pane *p)
{
	struct ev_state *es = p->state;
	const struct tt_rank *r = es->r;
	const struct tt_event *e = &r->ev[es->ev];
	static const struct tt_col cols[] = {
		{.name = "field", .type = TT_C_STR, .width = 18},
		{.name = "value", .type = TT_C_STR, .width = 400, .free_text = true},
	};
	struct tt_table *t = tt_table_new("event", cols, 2);
	char a[64], b[64], c[64];
	const struct tt_track *tr = &r->tracks[e->track];
	char lab[96];
	tt_track_label(r, tr, lab, sizeof(lab));
	kv(t, "name", "%s", tt_ev_name(r, e));
	kv(t, "category", "%s", tt_str(r, r->cats[e->cat].name));
	if (tt_ev_kind(r, e) == TT_K_KERNEL) {
		const char *rule = NULL;
		enum tt_ktype kt = tt_kernel_type(tt_ev_name(r, e), &rule);
		kv(t, "kernel type", "%s (%s)", tt_ktype_name(kt), rule ? rule : "");
	}
	kv(t, "rank", "%lld (%s)", (long long)r->rank, r->file ? r->file : "");
	kv(t, "track", "%s", lab);
	if (tr->kind == TT_TRACK_GPU)
		kv(t, "device, stream", "%lld, %lld", (long long)tr->device, (long long)tr->stream);
	else
		kv(t, "pid, tid", "%lld, %lld", (long long)tr->pid, (long long)tr->tid);
	/* times from the job's first event, as the timeline shows them (the
	 * Test job's for an event of a diff's second trace) */
	const struct tt_model *jm = p->app->m;
	for (size_t i = 0; p->app->m2 && i < p->app->m2->nranks; i++)
		if (p->app->m2->ranks[i] == r)
			jm = p->app->m2;
	int64_t origin = tt_model_origin(jm);
	tl_fmt_time(a, sizeof(a), e->ts - origin, 1, 0);
	int64_t ts = e->ts - r->base_ns;
	kv(t, "start", "%s (ts %s%lld.%03lld us in the trace)", a, ts < 0 ? "-" : "",
	   (long long)(llabs(ts) / 1000), (long long)(llabs(ts) % 1000));
	tt_fmt_dur(b, sizeof(b), e->dur);
	kv(t, "duration", "%s (%lld ns)", b, (long long)e->dur);
	tl_fmt_time(c, sizeof(c), tt_ev_end(e) - origin, 1, 0);
	kv(t, "end", "%s", c);
	if (r->t0 != origin) {
		tl_fmt_time(c, sizeof(c), r->t0 - origin, 1, 0);
		kv(t, "rank's start", "%s", c);
	}
	if (e->corr != TT_NONE)
		kv(t, "correlation", "%u", e->corr);
	if (e->ext != TT_NONE)
		kv(t, "external id", "%u", e->ext);
	if ((e->flags & TT_EF_KINFO) && e->aux < r->nkinfo) {
		const struct tt_kinfo *k = &r->kinfo[e->aux];
		kv(t, "grid", "[%d, %d, %d]", k->grid[0], k->grid[1], k->grid[2]);
		kv(t, "block", "[%d, %d, %d]", k->block[0], k->block[1], k->block[2]);
		kv(t, "registers", "%d per thread", k->regs);
		kv(t, "shared memory", "%d bytes", k->shmem);
		if (k->occupancy >= 0)
			kv(t, "occupancy", "%.1f%% (estimated achieved)", (double)k->occupancy);
		if (k->blocks_per_sm > 0)
			kv(t, "blocks per SM", "%.2f", (double)k->blocks_per_sm);
		if (k->warps_per_sm > 0)
			kv(t, "warps per SM", "%.2f", (double)k->warps_per_sm);
		kv_comm(t, r, k->comm);
	}
	if ((e->flags & TT_EF_MINFO) && e->aux < r->nminfo) {
		const struct tt_minfo *mi = &r->minfo[e->aux];
		if (mi->bytes >= 0) {
			tt_fmt_bytes(a, sizeof(a), (double)mi->bytes);
			kv(t, "bytes", "%s (%lld)", a, (long long)mi->bytes);
		}
		if (mi->bw_gbps > 0)
			kv(t, "bandwidth", "%.2f GB/s", mi->bw_gbps);
		else if (mi->bytes > 0 && e->dur > 0)
			kv(t, "bandwidth", "%.2f GB/s (bytes / duration)",
			   (double)mi->bytes / (double)e->dur);
	}
	if ((e->flags & TT_EF_OPINFO) && e->aux < r->nopinfo) {
		const struct tt_opinfo *o = &r->opinfo[e->aux];
		if (o->input_dims != TT_NONE)
			kv(t, "input dims", "%s", tt_str(r, o->input_dims));
		if (o->input_type != TT_NONE)
			kv(t, "input types", "%s", tt_str(r, o->input_type));
		if (o->call_stack != TT_NONE)
			kv(t, "call stack", "%s", tt_str(r, o->call_stack));
		kv_comm(t, r, o->comm);
	}
	if ((e->flags & TT_EF_MEMEV) && e->aux < r->nmeminfo) {
		const struct tt_meminfo *mm = &r->meminfo[e->aux];
		kv(t, "bytes", "%lld", (long long)mm->bytes);
		kv(t, "total allocated", "%lld", (long long)mm->total_alloc);
		kv(t, "total reserved", "%lld", (long long)mm->total_reserved);
	}
	uint32_t l = tt_launch_of(r, es->ev);
	if (l != TT_NONE) {
		const struct tt_event *le = &r->ev[l];
		tl_fmt_time(a, sizeof(a), e->ts - tt_ev_end(le), 1, 0);
		kv(t, "launched by", "%s (corr %u), %s after the call ended", tt_ev_name(r, le),
		   le->corr, a);
	}
	uint32_t lo, hi;
	tt_links_of_cpu(r, es->ev, &lo, &hi);
	for (uint32_t i = lo; i < hi && i < lo + 8; i++)
		kv(t, "launches", "%s", tt_ev_name(r, &r->ev[r->links[i].gpu]));
	if (hi > lo + 8)
		kv(t, "launches", "... %u more", hi - lo - 8);
	if (tr->kind == TT_TRACK_CPU && tt_ev_kind(r, e) == TT_K_CPU_OP) {
		/* the GPU ops its runtime calls launched */
		uint32_t shown = 0, more = 0, n = 0;
		for (uint32_t i = es->ev + 1; i < tr->first + tr->count && r->ev[i].ts < tt_ev_end(e) &&
					       n < TL_LINK_SCAN;
		     i++, n++) {
			tt_links_of_cpu(r, i, &lo, &hi);
			for (uint32_t k = lo; k < hi; k++) {
				if (shown < 8)
					kv(t, "launches", "%s (via %s)",
					   tt_ev_name(r, &r->ev[r->links[k].gpu]), tt_ev_name(r, &r->ev[i]));
				else
					more++;
				shown++;
			}
		}
		if (more)
			kv(t, "launches", "... %u more", more);
	}
	if (tr->kind == TT_TRACK_CPU && tt_ev_kind(r, e) != TT_K_CPU_OP) {
		uint32_t op = tl_enclosing_op(r, es->ev);
		if (op != TT_NONE)
			kv(t, "inside op", "%s", tt_ev_name(r, &r->ev[op]));
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "times from the job's first event; Esc: back to the timeline");
	return 0;
}

static const struct tt_pane_ops event_ops = {
	.name = "event",
	.title = "Event",
	.help = "One event of the trace: its name, times, track, correlation id and the args "
		"the model keeps (kernel launch parameters, bytes and bandwidth of copies, input "
		"dims of operators, collective info), and what launched it or what it launched.",
	.open = ev_open,
	.close = pane_free_state,
};

struct tt_pane *tt_event_pane(struct tt_app *a, const struct tt_rank *r, uint32_t ev)
{
	struct tt_pane *p = tt_pane_new(a, &event_ops);
	struct ev_state *es = tt_calloc(1, sizeof(*es));
	es->r = r;
	es->ev = ev;
	p->state = es;
	char nm[48];
	tt_utf8_fit(nm, sizeof(nm), tt_ev_name(r, &r->ev[ev]), 40);
	snprintf(p->subtitle, sizeof(p->subtitle), "%s", nm);
	return p;
}
