/* The one list of the explorer's views: the pane keys 1..9 and 0 in order,
 * then the views of the views menu (v).  The title bar, the help and the
 * views menu read it; nothing else names the views. */
#include "config.h"

#include "registry.h"

#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"

static const struct tt_view views[] = {
	/* pane keys, in the title bar's order */
	{'1', "Over", "one row per rank: busy, compute, communication, memory, idle, overlap",
	 &tt_overview_ops},
	{'2', "Temp", "idle, compute and non-compute GPU time per rank", &tt_temporal_ops},
	{'3', "Idle", "GPU idle time per rank and stream: host wait, kernel wait, other",
	 &tt_idle_ops},
	{'4', "Kern", "kernels by total time across ranks, and the time by kernel type",
	 &tt_kernels_ops},
	{'5', "Ovlp", "how much communication hides behind computation, per rank",
	 &tt_overlap_ops},
	{'6', "Lnch", "kernel launch delays and runtime calls per rank, and their outliers",
	 &tt_launch_ops},
	{'7', "Cntr", "launch queue length and memory bandwidth over time", &tt_counters_ops},
	{'8', "Patt", "frequent kernel sequences under an operator", &tt_patterns_ops},
	{'9', "Time", "the trace itself: streams and threads over time", &tt_timeline_ops},
	{'0', "Diff", "two traces compared op by op and kernel by kernel", &tt_diff_ops},
	/* the views menu, in its order */
	{0, "StpT", "time per step by category (the plugin's Overview)", &tt_steptime_ops},
	{0, "Util", "GPU utilization, SM efficiency, occupancy per GPU", &tt_util_ops},
	{0, "Dist", "computation vs communication per rank; collectives", &tt_dist_ops},
	{0, "Ops", "host and device time per operator", &tt_operators_ops},
	{0, "Mem", "memory peak per device; allocations alive there", &tt_memory_ops},
	{0, "Src", "operators by the Python stack that called them", &tt_source_ops},
	{0, "Step", "step durations across ranks; the slowest steps", &tt_steps_ops},
	{0, "Advc", "findings with their numbers, and where to look", &tt_advice_ops},
	{0, "Crit", "the longest path through each step, and what bounds it", &tt_critpath_ops},
	{0, "Job", "per step across ranks: the rank that bounds it and its wait", &tt_cpjob_ops},
	{0, "Perf", "is each op fast: TFLOP/s, TB/s, % of the roofline per op",
	 &tt_perf_ops},
	{0, "Shap", "every op shape: TFLOP/s, TB/s, % of the roofline", &tt_perf_shapes_ops},
	{0, "Roof", "the op shapes on the GPU's roofline, log-log", &tt_roofline_ops},
	{0, "Heat", "one cell per rank shaded by a metric, the outliers first", &tt_heatmap_ops},
	{0, "Load", "load warnings of every file, keymap and theme errors (key W)", &tt_load_ops},
	{0, "DStp", "two traces: each step both have, its time on each side, Δ",
	 &tt_diff_steps_ops},
	{0, "DRnk", "two traces: per rank pair, time per step by kind, both sides",
	 &tt_diff_ranks_ops},
};

const struct tt_view *tt_view_top(int i)
{
	return i >= 0 && i < TT_NTOP ? &views[i] : NULL;
}

const struct tt_view *tt_views(size_t *n)
{
	*n = TT_ARRAY_SIZE(views);
	return views;
}

const struct tt_view *tt_view_named(const char *name)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(views); i++)
		if (strcmp(views[i].ops->name, name) == 0)
			return &views[i];
	return NULL;
}

const char *tt_view_use(const struct tt_view *v)
{
	const char *s = v->use ? v->use : tt_report_help(v->ops->name);
	return s ? s : "";
}

const struct tt_pane_ops *tt_view_ops(const struct tt_view *v, const struct tt_app *a, int rows)
{
	/* more ranks than rows: the Overview is a heatmap */
	if (v->ops == &tt_overview_ops && tt_heatmap_wanted(a, rows))
		return &tt_heatmap_ops;
	return v->ops;
}
