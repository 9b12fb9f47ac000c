/* The runs of a log directory and the profiling cycles of a run
 * (tracetop/runs.h): two lists; Enter opens the run or the cycle under the
 * cursor (the explorer loads it, pane.h: tt_ui_open_input). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/input.h"
#include "tracetop/runs.h"
#include "tracetop/util.h"
#include "pane.h"

/* the row a list opens on (open() sets it; tt_pane_open puts the cursor
 * on the first row, tt_input_list_goto moves it here) */
struct list_state {
	size_t at;
};

static void set_at(struct tt_pane *p, size_t row)
{
	if (!p->state)
		p->state = tt_calloc(1, sizeof(struct list_state));
	((struct list_state *)p->state)->at = row;
}

void tt_input_list_goto(struct tt_pane *p)
{
	if ((p->ops == &tt_cycles_ops || p->ops == &tt_runs_ops) && p->state)
		tt_pane_goto(p, ((struct list_state *)p->state)->at);
}

/* ---- the cycles of the run ---- */

/* the cycle index of model m in run r, or SIZE_MAX */
static size_t cycle_of(const struct tt_run *r, const struct tt_model *m)
{
	return m && m->cycle ? tt_run_cycle_at(r, m->cycle_time) : SIZE_MAX;
}

static int cycles_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	const struct tt_run *r = a->in ? tt_input_run(a->in) : NULL;
	if (!r || !r->ncycles) {
		snprintf(p->msg, sizeof(p->msg), "no cycles: the traces were not given as a folder");
		return -1;
	}
	static const struct tt_col cols[] = {
		{.name = "cycle", .type = TT_C_INT},
		{.name = "written", .type = TT_C_STR},
		{.name = "workers", .type = TT_C_INT},
		{.name = "expected", .title = "of", .type = TT_C_INT},
		{.name = "size", .type = TT_C_STR},
		{.name = "steps", .type = TT_C_STR},
		{.name = "state", .type = TT_C_STR, .free_text = true, .width = 60},
	};
	struct tt_table *t = tt_table_new("cycles", cols, (int)TT_ARRAY_SIZE(cols));
	size_t shown[2] = {cycle_of(r, a->side_m[0]), cycle_of(r, a->side_m[1])};
	size_t fresh = SIZE_MAX;
	if (a->fresh)
		fresh = r->ncycles - 1;
	for (size_t c = 0; c < r->ncycles; c++) {
		const struct tt_cycle *cy = &r->cycles[c];
		size_t k = tt_table_add_row(t);
		char when[40], size[32], steps[64] = "", state[320];
		tt_fmt_walltime(when, sizeof(when), cy->time, true);
		tt_fmt_bytes(size, sizeof(size), (double)cy->bytes);
		int side = shown[0] == c ? 0 : shown[1] == c ? 1 : -1;
		int64_t lo, hi;
		bool agree = true;
		if ((side >= 0 && tt_model_steps(a->side_m[side], &lo, &hi, &agree)) ||
		    (side < 0 && tt_input_cycle_steps(a->in, c, &lo, &hi)))
			snprintf(steps, sizeof(steps), lo == hi ? "%lld" : "%lld-%lld",
				 (long long)lo, (long long)hi);
		char miss[120], note[80];
		tt_run_missing(r, c, miss, sizeof(miss));
		tt_input_cycle_note(a->in, c, note, sizeof(note));
		if (side >= 0 && a->m2)
			snprintf(state, sizeof(state), "shown (%s)",
				 a->ropts.label_a && side == 0 ? a->ropts.label_a :
				 a->ropts.label_b && side == 1 ? a->ropts.label_b : "compared");
		else if (side >= 0)
			snprintf(state, sizeof(state), "shown");
		else if (c == fresh)
			snprintf(state, sizeof(state), "new: ready to open");
		else if (note[0] && cy->nworkers < cy->expected)
			snprintf(state, sizeof(state), "%s; lacks %s", note, miss);
		else if (note[0])
			snprintf(state, sizeof(state), "%s", note);
		else if (cy->nwriting)
			snprintf(state, sizeof(state), "being written");
		else if (cy->nworkers < cy->expected)
			snprintf(state, sizeof(state), "lacks %s", miss);
		else if (cy->ncut)
			snprintf(state, sizeof(state), "a file is cut short (truncated)");
		else
			snprintf(state, sizeof(state), "complete");
		tt_table_set_int(t, k, 0, (int64_t)c + 1);
		tt_table_set_str(t, k, 1, when);
		tt_table_set_int(t, k, 2, (int64_t)cy->nworkers);
		tt_table_set_int(t, k, 3, (int64_t)cy->expected);
		tt_table_set_str(t, k, 4, size);
		tt_table_set_str(t, k, 5, steps);
		tt_table_set_str(t, k, 6, state);
	}
	tt_pane_set_table(p, t);
	for (size_t c = 0; c < r->ncycles; c++) {
		const struct tt_cycle *cy = &r->cycles[c];
		if (c == shown[0] || c == shown[1])
			p->row_role[c] = TT_ROLE_MARKED;
		else if (c == fresh)
			p->row_role[c] = TT_ROLE_BETTER;
		else if (!tt_cycle_complete(cy))
			p->row_role[c] = TT_ROLE_DIM;
	}
	tt_pane_head(p, TT_ROLE_DIM,
		     "%s%s%zu profiling cycle%s of %zu worker%s, oldest first. Enter opens one; "
		     "{ } the previous and next, p compares the one shown with the one before",
		     r->name[0] ? r->name : "", r->name[0] ? ": " : "", r->ncycles,
		     r->ncycles == 1 ? "" : "s", r->nworkers, r->nworkers == 1 ? "" : "s");
	if (tt_input_following(a->in)) {
		char kind[64];
		tt_input_follow_kind(a->in, kind, sizeof(kind));
		tt_pane_head(p, TT_ROLE_DIM, "following the folder: %s; a new cycle is offered "
			     "once its files are whole", kind);
	}
	/* the cursor on the new cycle, else on the one shown */
	size_t at = fresh != SIZE_MAX ? fresh : shown[1] != SIZE_MAX ? shown[1] : shown[0];
	set_at(p, at);
	snprintf(p->subtitle, sizeof(p->subtitle), "cycles");
	return 0;
}

static struct tt_pane *cycles_drill(struct tt_pane *p, size_t row)
{
	tt_ui_open_input(p->app, TT_REQ_CYCLE, row + 1);
	return NULL;
}

const struct tt_pane_ops tt_cycles_ops = {
	.name = "cycles",
	.title = "Cycles",
	.help = "The profiling cycles of the run: torch.profiler.tensorboard_trace_handler "
		"writes one file per worker and cycle, {worker}.{timestamp}.pt.trace.json[.gz]; "
		"the files of one cycle are matched across workers by their timestamps.  A cycle "
		"is complete when every worker's file is in it and none is being written.  Enter "
		"opens the cycle under the cursor (the pane in view stays the same); { and } open "
		"the previous and next cycle, p compares the cycle shown with the one before it.  "
		"steps: the ProfilerStep numbers of each cycle opened so far.  "
		"With --follow, a new cycle is offered once its files are whole (the status line "
		"says 'new cycle available').",
	.open = cycles_open,
	.close = pane_free_state,
	.drill = cycles_drill,
};

/* ---- the runs of the log directory ---- */

static int runs_open(struct tt_pane *p)
{
	struct tt_app *a = p->app;
	const struct tt_logdir *d = a->in ? tt_input_logdir(a->in) : NULL;
	if (!d) {
		snprintf(p->msg, sizeof(p->msg),
			 "one run: a log directory is a folder whose subfolders hold the traces "
			 "of each run");
		return -1;
	}
	static const struct tt_col cols[] = {
		{.name = "run", .type = TT_C_STR, .width = 40},
		{.name = "workers", .type = TT_C_INT},
		{.name = "cycles", .type = TT_C_INT},
		{.name = "newest", .type = TT_C_STR},
		{.name = "size", .type = TT_C_STR},
		{.name = "state", .type = TT_C_STR, .free_text = true, .width = 40},
	};
	struct tt_table *t = tt_table_new("runs", cols, (int)TT_ARRAY_SIZE(cols));
	size_t open = tt_input_run_index(a->in);
	for (size_t i = 0; i < d->nruns; i++) {
		const struct tt_run *r = d->runs[i];
		size_t k = tt_table_add_row(t);
		char when[40], size[32];
		tt_fmt_walltime(when, sizeof(when), r->newest, true);
		tt_fmt_bytes(size, sizeof(size), (double)r->bytes);
		bool writing = r->ncycles && !tt_cycle_complete(&r->cycles[r->ncycles - 1]);
		tt_table_set_str(t, k, 0, r->name);
		tt_table_set_int(t, k, 1, (int64_t)r->nworkers);
		tt_table_set_int(t, k, 2, (int64_t)r->ncycles);
		tt_table_set_str(t, k, 3, when);
		tt_table_set_str(t, k, 4, size);
		tt_table_set_str(t, k, 5, i == open ? "open" :
					 writing ? "newest cycle incomplete" : "");
	}
	tt_pane_set_table(p, t);
	if (open < t->nrows)
		p->row_role[open] = TT_ROLE_MARKED;
	tt_pane_head(p, TT_ROLE_DIM,
		     "%s: a log directory of %zu run%s (its subfolders). Enter opens the run under "
		     "the cursor at its newest complete cycle",
		     d->path, d->nruns, d->nruns == 1 ? "" : "s");
	if (tt_input_following(a->in)) {
		char kind[64];
		tt_input_follow_kind(a->in, kind, sizeof(kind));
		tt_pane_head(p, TT_ROLE_DIM, "following the log directory: %s; a run that starts "
			     "and the runs' new cycles show here", kind);
	}
	set_at(p, open);
	snprintf(p->subtitle, sizeof(p->subtitle), "runs");
	return 0;
}

static struct tt_pane *runs_drill(struct tt_pane *p, size_t row)
{
	tt_ui_open_input(p->app, TT_REQ_RUN, row);
	return NULL;
}

const struct tt_pane_ops tt_runs_ops = {
	.name = "runs",
	.title = "Runs",
	.help = "The runs of a TensorBoard log directory: each subfolder holding traces is a "
		"run, named by its path under the directory.  workers: the files of its newest "
		"cycles; cycles: its profiling cycles; newest: when its newest cycle was written.  "
		"Enter opens the run at its newest complete cycle; o comes back here.  With "
		"--follow the list stays current while it is in view: a run that starts appears "
		"and the runs' new cycles are counted.",
	.open = runs_open,
	.close = pane_free_state,
	.drill = runs_drill,
};
