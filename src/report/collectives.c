/* report collectives: collectives matched across ranks (tt_res_collectives).
 *
 * collective_late    per rank: how often it arrived last, the wait it
 *                    caused on the others, its own wait (text default)
 * collectives        one row per matched collective: who arrived last, by
 *                    how much, the waits, the latency (text: the ones with
 *                    the most waiting)
 * collective_groups  the process groups and how their parts matched
 * collective_clocks  per rank, the clock offset found and whether it was
 *                    applied (text: when one was)
 * collective_issues  ranks that disagree (counts, order, sizes), unpaired
 *                    point-to-point parts
 * collective_parts   every rank's part: arrival, wait, transfer (CSV/JSON,
 *                    or asked for by name) */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

static const char *flags_text(unsigned f)
{
	if (f & TT_COLL_MISMATCH)
		return "mismatch";
	if (f & TT_COLL_MISSING)
		return "rank missing";
	if (f & TT_COLL_PARTIAL)
		return "partial";
	return "";
}

static struct tt_table *late_table(const struct tt_coll *c, size_t top)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "collectives", .type = TT_C_INT},
		{.name = "matched", .type = TT_C_INT, .hidden_text = true},
		{.name = "arrived_last", .title = "last in", .type = TT_C_INT},
		{.name = "wait_caused(us)", .title = "others waited", .type = TT_C_DUR,
		 .unit_group = 1},
		{.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = 4, .width = 16,
		 .role = {TT_ROLE_BAR_COMM}},
		{.name = "wait(us)", .title = "it waited", .type = TT_C_DUR, .unit_group = 1},
		{.name = "transfer(us)", .title = "transfer", .type = TT_C_DUR, .unit_group = 1},
		{.name = "rank_index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("collective_late", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Per rank: the collectives it arrived last in, and the wait that "
			      "caused on the other ranks");
	for (size_t i = 0; i < c->nclocks; i++) {
		const struct tt_coll_rank *w = &c->ranks[i];
		if (!w->nparts)
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, w->rank);
		tt_table_set_int(t, k, 1, w->nparts);
		tt_table_set_int(t, k, 2, w->nmatched);
		tt_table_set_int(t, k, 3, w->nlast);
		tt_table_set_int(t, k, 4, w->caused);
		tt_table_set_int(t, k, 6, w->wait);
		tt_table_set_int(t, k, 7, w->transfer);
		tt_table_set_int(t, k, 8, (int64_t)w->ri);
	}
	tt_table_sort(t, 4, true);
	if (top && t->nrows > top) {
		size_t more = t->nrows - top;
		tt_table_truncate(t, top);
		tt_table_add_note(t, "%zu more ranks: --table collective_late", more);
	}
	tt_table_add_note(t, "a rank waits from its arrival (its kernel's start, on the job's "
			     "clock) to the last rank's; the rest of the kernel is the transfer "
			     "(the Distributed view's sync and transfer are these numbers)");
	return t;
}

static struct tt_table *colls_table(const struct tt_model *m, const struct tt_coll *c,
				    size_t top)
{
	static const struct tt_col cols[] = {
		{.name = "collective", .type = TT_C_STR, .width = 28},
		{.name = "group", .type = TT_C_STR, .hidden_text = true},
		{.name = "operation", .type = TT_C_STR, .hidden_text = true},
		{.name = "seq", .type = TT_C_INT, .hidden_text = true},
		{.name = "step", .type = TT_C_INT},
		{.name = "ranks", .type = TT_C_INT},
		{.name = "members", .type = TT_C_INT, .hidden_text = true},
		{.name = "bytes", .type = TT_C_INT, .hidden_text = true},
		{.name = "first_arrival(us)", .title = "first at", .type = TT_C_DUR},
		{.name = "last_rank", .title = "last", .type = TT_C_INT},
		{.name = "last_after_first(us)", .title = "late by", .type = TT_C_DUR,
		 .unit_group = 1},
		{.name = "wait_mean(us)", .title = "mean wait", .type = TT_C_DUR, .unit_group = 1},
		{.name = "wait_max(us)", .title = "max wait", .type = TT_C_DUR, .unit_group = 1},
		{.name = "wait_sum(us)", .type = TT_C_DUR, .hidden_text = true},
		{.name = "latency(us)", .title = "latency", .type = TT_C_DUR, .unit_group = 1},
		{.name = "end_skew(us)", .title = "end skew", .type = TT_C_DUR, .unit_group = 1},
		{.name = "first_rank", .type = TT_C_INT, .hidden_text = true},
		{.name = "flags", .type = TT_C_STR, .width = 12},
		{.name = "index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("collectives", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Collectives matched across ranks: who arrived last, and how long "
			      "the others waited");
	int64_t base = tt_model_origin(m);
	char buf[160];
	for (size_t i = 0; i < c->ncolls; i++) {
		const struct tt_coll_op *x = &c->colls[i];
		size_t k = tt_table_add_row(t);
		tt_coll_label(c, (uint32_t)i, buf, sizeof(buf));
		tt_table_set_str(t, k, 0, buf);
		tt_table_set_str(t, k, 1, c->groups[x->group].name);
		tt_table_set_str(t, k, 2, x->name);
		tt_table_set_int(t, k, 3, x->seq);
		if (x->step >= 0)
			tt_table_set_int(t, k, 4, x->step);
		tt_table_set_int(t, k, 5, x->n);
		tt_table_set_int(t, k, 6, c->groups[x->group].nmembers);
		if (x->bytes >= 0)
			tt_table_set_int(t, k, 7, x->bytes);
		tt_table_set_int(t, k, 8, x->t_first - base);
		if (x->last != TT_NONE) {
			tt_table_set_int(t, k, 9, c->parts[x->last].rank);
			tt_table_set_int(t, k, 10, x->t_last - x->t_first);
			tt_table_set_int(t, k, 11, x->wait_sum / (int64_t)x->n);
			tt_table_set_int(t, k, 12, x->wait_max);
			tt_table_set_int(t, k, 13, x->wait_sum);
		}
		tt_table_set_int(t, k, 14, x->latency);
		tt_table_set_int(t, k, 15, x->end_max - x->end_min);
		if (x->early != TT_NONE)
			tt_table_set_int(t, k, 16, c->parts[x->early].rank);
		tt_table_set_str(t, k, 17, flags_text(x->flags));
		tt_table_set_int(t, k, 18, (int64_t)i);
	}
	if (top && t->nrows > top) {
		tt_table_sort(t, 13, true);
		size_t more = t->nrows - top;
		tt_table_truncate(t, top);
		tt_table_set_title(t, "The %zu collectives the ranks waited longest in (of %zu "
				      "matched)",
				   top, c->ncolls);
		tt_table_add_note(t, "%zu more: --table collectives (every one, in time order)",
				  more);
	}
	tt_table_add_note(t, "first at: the first rank's arrival from the job's first event; "
			     "late by: the last rank's arrival after the first; latency: the "
			     "shortest kernel time over the ranks; end skew: the spread of the "
			     "kernels' ends (on the job's clock)");
	return t;
}

static struct tt_table *groups_table(const struct tt_coll *c)
{
	static const struct tt_col cols[] = {
		{.name = "group", .type = TT_C_STR, .width = 24},
		{.name = "source", .title = "named by", .type = TT_C_STR},
		{.name = "members", .type = TT_C_INT},
		{.name = "loaded", .type = TT_C_INT},
		{.name = "collectives", .type = TT_C_INT},
		{.name = "parts", .type = TT_C_INT},
		{.name = "unmatched", .type = TT_C_INT},
		{.name = "flagged", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("collective_groups", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Process groups: members, and how their ranks' collectives matched");
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct tt_coll_group *G = &c->groups[g];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, G->name);
		tt_table_set_str(t, k, 1, G->source);
		tt_table_set_int(t, k, 2, G->nmembers);
		tt_table_set_int(t, k, 3, G->nloaded);
		tt_table_set_int(t, k, 4, G->ncolls);
		tt_table_set_int(t, k, 5, G->nparts);
		tt_table_set_int(t, k, 6, G->nunmatched);
		tt_table_set_int(t, k, 7, G->nflagged);
	}
	bool any_stream = false, any_partial = false;
	for (size_t g = 0; g < c->ngroups; g++) {
		any_stream |= strcmp(c->groups[g].source, "stream") == 0;
		any_partial |= c->groups[g].nmembers > c->groups[g].nloaded;
	}
	if (any_stream)
		tt_table_add_note(t, "stream #k: the trace names no process group; each rank's "
				     "k-th communication stream is taken as one group");
	if (any_partial)
		tt_table_add_note(t, "loaded < members: the last rank to arrive is the last of "
				     "the ranks loaded (the others may have come later)");
	tt_table_add_note(t, "parts: one rank's kernels of one collective call; unmatched: no "
			     "other rank has a part at its place in the group's sequence");
	return t;
}

static struct tt_table *clocks_table(const struct tt_coll *c, bool only_applied)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "host", .type = TT_C_STR, .width = 24},
		{.name = "offset(us)", .title = "offset", .type = TT_C_DUR, .unit_group = 1},
		{.name = "estimate(us)", .title = "estimate", .type = TT_C_DUR, .unit_group = 1},
		{.name = "spread(us)", .title = "spread", .type = TT_C_DUR, .unit_group = 1},
		{.name = "evidence", .title = "from", .type = TT_C_INT},
		{.name = "applied", .type = TT_C_INT, .hidden_text = true},
		{.name = "why", .type = TT_C_STR, .width = 40, .free_text = true},
	};
	struct tt_table *t = tt_table_new("collective_clocks", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Clock offsets: each host's clock against the first rank's host, "
			      "from the ends of the collectives they share");
	for (size_t i = 0; i < c->nclocks; i++) {
		const struct tt_coll_clock *k = &c->clocks[i];
		if (only_applied && !k->applied)
			continue;
		size_t r = tt_table_add_row(t);
		tt_table_set_int(t, r, 0, k->rank);
		tt_table_set_str(t, r, 1, k->host);
		tt_table_set_int(t, r, 2, k->offset);
		if (!k->reference && k->evidence) {
			tt_table_set_int(t, r, 3, k->estimate);
			tt_table_set_int(t, r, 4, k->spread);
		}
		tt_table_set_int(t, r, 5, k->evidence);
		tt_table_set_int(t, r, 6, k->applied);
		tt_table_set_str(t, r, 7, k->why);
	}
	tt_table_add_note(t, "estimate: the median difference of the collectives' kernel ends "
			     "(from: that many collectives); applied with at least %d of them "
			     "and when at least %lld us; ranks of one host share its clock",
			  TT_COLL_MIN_EVIDENCE, (long long)(TT_COLL_MIN_OFFSET_NS / 1000));
	return t;
}

static struct tt_table *issues_table(const struct tt_coll *c)
{
	static const struct tt_col cols[] = {
		{.name = "kind", .type = TT_C_STR},
		{.name = "group", .type = TT_C_STR, .hidden_text = true},
		{.name = "rank", .type = TT_C_INT},
		{.name = "other_rank", .type = TT_C_INT, .hidden_text = true},
		{.name = "count", .type = TT_C_INT},
		{.name = "what", .type = TT_C_STR, .width = 100, .free_text = true},
	};
	static const char *const kinds[] = {"order", "size", "count", "p2p"};
	struct tt_table *t = tt_table_new("collective_issues", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Where ranks disagree: those collectives are not paired");
	for (size_t i = 0; i < c->nissues; i++) {
		const struct tt_coll_issue *x = &c->issues[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, kinds[x->kind]);
		tt_table_set_str(t, k, 1, c->groups[x->group].name);
		tt_table_set_int(t, k, 2, x->rank);
		if (x->other >= 0)
			tt_table_set_int(t, k, 3, x->other);
		tt_table_set_int(t, k, 4, x->count);
		tt_table_set_str(t, k, 5, x->text);
	}
	if (c->nissues_more)
		tt_table_add_note(t, "%llu more issues not listed",
				  (unsigned long long)c->nissues_more);
	return t;
}

static struct tt_table *parts_table(const struct tt_model *m, const struct tt_coll *c)
{
	static const struct tt_col cols[] = {
		{.name = "rank", .type = TT_C_INT},
		{.name = "group", .type = TT_C_STR},
		{.name = "operation", .type = TT_C_STR},
		{.name = "collective", .type = TT_C_INT},
		{.name = "seq", .type = TT_C_INT},
		{.name = "step", .type = TT_C_INT},
		{.name = "start(us)", .type = TT_C_DUR},
		{.name = "arrival(us)", .type = TT_C_DUR},
		{.name = "dur(us)", .type = TT_C_DUR},
		{.name = "wait(us)", .type = TT_C_DUR},
		{.name = "transfer(us)", .type = TT_C_DUR},
		{.name = "bytes", .type = TT_C_INT},
		{.name = "kernels", .type = TT_C_INT},
		{.name = "kernel_event", .type = TT_C_INT},
		{.name = "name_from", .type = TT_C_STR},
		{.name = "last", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("collective_parts", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Every rank's part of each collective (times from the job's first "
			      "event; arrival on the job's clock)");
	int64_t base = tt_model_origin(m);
	for (size_t i = 0; i < c->nparts; i++) {
		const struct tt_coll_part *p = &c->parts[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_int(t, k, 0, p->rank);
		tt_table_set_str(t, k, 1, c->groups[p->group].name);
		tt_table_set_str(t, k, 2, p->name);
		if (p->coll != TT_NONE) {
			tt_table_set_int(t, k, 3, p->coll);
			tt_table_set_int(t, k, 4, c->colls[p->coll].seq);
			tt_table_set_int(t, k, 15, c->colls[p->coll].last == i);
		}
		if (p->step >= 0)
			tt_table_set_int(t, k, 5, p->step);
		tt_table_set_int(t, k, 6, p->ts - base);
		tt_table_set_int(t, k, 7, p->arrival - base);
		tt_table_set_int(t, k, 8, p->dur);
		tt_table_set_int(t, k, 9, p->wait);
		tt_table_set_int(t, k, 10, p->transfer);
		if (p->bytes >= 0)
			tt_table_set_int(t, k, 11, p->bytes);
		tt_table_set_int(t, k, 12, p->nkernels);
		tt_table_set_int(t, k, 13, p->kernel);
		tt_table_set_str(t, k, 14, p->source);
	}
	return t;
}

int tt_report_collectives(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_model *m = tt_results_model(res);
	const struct tt_coll *c = tt_res_collectives(res);
	bool text = o->format == TT_FMT_TABLE;
	const char *one = o->table;
	size_t top = text && !one ? (o->top > 0 ? (size_t)o->top : 10) : 0;
	struct tt_table **t = tt_malloc(8 * sizeof(*t));
	size_t k = 0;
#define WANT(name) (!one || strcmp(one, name) == 0)
	if (WANT("collective_late")) {
		t[k++] = late_table(c, top);
		if (!c->nparts)
			tt_table_add_note(t[k - 1], "no communication kernels in the ranks shown");
		else if (c->noffsets)
			tt_table_add_note(t[k - 1],
					  "clocks: %u ranks' times moved by up to %.3f ms to the "
					  "first rank's clock (collective_clocks)",
					  c->noffsets, (double)c->max_offset / 1e6);
		else
			tt_table_add_note(t[k - 1], "clocks: no offset applied (collective_clocks "
						    "says why)");
	}
	if (WANT("collectives"))
		t[k++] = colls_table(m, c, top);
	if (WANT("collective_groups"))
		t[k++] = groups_table(c);
	if ((c->nissues || !text || one) && WANT("collective_issues"))
		t[k++] = issues_table(c);
	if ((c->noffsets || !text || one) && WANT("collective_clocks"))
		t[k++] = clocks_table(c, text && !one);
	if ((!text || one) && WANT("collective_parts"))
		t[k++] = parts_table(m, c);
#undef WANT
	if (!k)
		t[k++] = late_table(c, 0);
	*out = t;
	*n = k;
	return 0;
}
