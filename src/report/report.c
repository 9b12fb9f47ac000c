/* The report registry: names, help, build and print. */
#include "config.h"

#include "tracetop/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tracetop/results.h"
#include "tracetop/runs.h"
#include "tracetop/util.h"

/* a report formatted from results computed once (results.h) */
typedef int (*format_fn)(struct tt_results *, const struct tt_report_opts *, struct tt_table ***,
			 size_t *, struct tt_err *);
/* a report that computes its analysis itself */
typedef int (*builder_fn)(const struct tt_model *, const struct tt_model *,
			  const struct tt_report_opts *, struct tt_table ***, size_t *,
			  struct tt_err *);

static int load(const struct tt_model *m, const struct tt_model *m2,
		const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		struct tt_err *err)
{
	(void)m2;
	(void)o;
	(void)err;
	*out = tt_malloc(sizeof(**out));
	(*out)[0] = tt_report_load_table(m);
	*n = 1;
	return 0;
}

#define SINGLE(fn)                                                                         \
	static int fn##_b(const struct tt_model *m, const struct tt_model *m2,             \
			  const struct tt_report_opts *o, struct tt_table ***out, size_t *n,  \
			  struct tt_err *err)                                                 \
	{                                                                                  \
		(void)m2;                                                                  \
		return tt_report_##fn(m, o, out, n, err);                                  \
	}
SINGLE(range)
#undef SINGLE

static const struct {
	const char *name;
	const char *help;
	builder_fn fn;    /* either */
	format_fn format; /* or */
} reports[] = {
	{"summary", "one row per rank: events, span, streams, kernels, GPU busy time", NULL,
	 tt_report_summary},
	{"byrank", "one row per rank, as the Overview: busy, compute, communication, memory "
		   "and idle shares of the GPU span, overlap, top kernel, stragglers",
	 NULL, tt_report_byrank},
	{"temporal", "idle, compute and non-compute GPU time per rank (HTA temporal breakdown)",
	 NULL, tt_report_temporal},
	{"idle", "GPU idle time per rank and stream: host wait, kernel wait, other", NULL,
	 tt_report_idle},
	{"kernels", "time by kernel type, top kernels per rank, and across ranks", NULL,
	 tt_report_kernels},
	{"overlap", "computation/communication overlap per rank", NULL, tt_report_overlap},
	{"launch", "CUDA kernel launch statistics and outliers per rank", NULL, tt_report_launch},
	{"counters", "queue length and memory bandwidth series and summaries", NULL,
	 tt_report_counters},
	{"patterns", "frequent CUDA kernel sequences under an operator", NULL, tt_report_patterns},
	{"diff", "two traces: ops and kernels added, removed, changed", NULL, tt_report_diff},
	{"overview", "step time per step: kernel, memcpy, memset, communication, runtime, "
		     "DataLoader, CPU exec, other (the TensorBoard plugin's Overview)",
	 NULL, tt_report_overview},
	{"utilization", "GPU utilisation, estimated SM efficiency and occupancy per device",
	 NULL, tt_report_utilization},
	{"distributed", "computation/communication/overlap per rank, collectives, stragglers",
	 NULL, tt_report_distributed},
	{"operators", "host and device time per operator (calls, self and total)", NULL, tt_report_operators},
	{"memory", "allocated and reserved memory over time, peak, allocations alive at the peak",
	 NULL, tt_report_memory},
	{"source", "the Python stacks of operators (with_stack traces)", NULL, tt_report_source},
	{"steps", "ProfilerStep durations per rank, the slowest steps", NULL, tt_report_steps},
	{"collectives", "collectives matched across ranks: who arrived last, the wait it "
			"caused, clock offsets, ranks that disagree",
	 NULL, tt_report_collectives},
	{"advice", "findings with the numbers behind them, and where to look", NULL, tt_report_advice},
	{"outliers", "the ranks furthest from the median of a metric, with the reason", NULL,
	 tt_report_outliers},
	{"critical-path", "what bounds each step: the longest path through ops, kernels and syncs",
	 NULL, tt_report_critpath},
	{"perf-model", "is each op fast: FLOPs, bytes, TFLOP/s, TB/s and roofline per op and "
		       "shape; ops by category; kernels; short kernels (TraceLens' tables)",
	 NULL, tt_report_perf_model},
	{"load", "load warnings of every file, with counts and first offsets", load, NULL},
	{"range", "what ran between --from and --to: busy % per stream, kernels and ops by "
		  "time, idle gaps",
	 range_b, NULL},
};

const char *const tt_report_names[] = {
	"summary",  "byrank", "temporal", "idle",	    "kernels",	   "overlap", "launch", "counters",
	"patterns", "diff",	"overview", "utilization", "distributed", "operators", "memory", "source",
	"steps",    "collectives", "advice",	"outliers",    "critical-path", "perf-model", "load",	   "range",	NULL};

const char *tt_report_help(const char *name)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(reports); i++)
		if (strcmp(reports[i].name, name) == 0)
			return reports[i].help;
	return NULL;
}

void tt_report_opts_init(struct tt_report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = TT_FMT_TABLE;
	o->num_kernels = 10;
	o->duration_ratio = 0.8;
	o->kernel_delay_us = 30;
	o->runtime_cutoff_us = 50;
	o->launch_delay_cutoff_us = 100;
	o->min_pattern_len = 3;
	o->label_a = "Control";
	o->label_b = "Test";
	o->iteration = TT_DIFF_COMMON;
	o->diff_threshold = TT_DIFF_THRESHOLD;
	o->diff_floor_ns = TT_DIFF_FLOOR_NS;
	o->inst_first = o->inst_last = -1;
	o->cp_model = TT_CPM_TRACETOP;
}

void tt_tables_free(struct tt_table **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tt_table_free(t[i]);
	free(t);
}

void tt_report_results_opts(const struct tt_report_opts *o, struct tt_results_opts *ro)
{
	tt_results_opts_init(ro);
	ro->a = o->a;
	ro->kernel_delay_us = o->kernel_delay_us;
	ro->runtime_cutoff_us = o->runtime_cutoff_us;
	ro->launch_delay_cutoff_us = o->launch_delay_cutoff_us;
	ro->kb.num_kernels = o->num_kernels > 0 ? o->num_kernels : 10;
	ro->kb.duration_ratio = o->duration_ratio;
	ro->kb.no_memory = o->no_memory;
	ro->op_name = o->op_name;
	ro->min_pattern_len = o->min_pattern_len;
	ro->diff_device = o->gpu_only ? TT_DIFF_GPU : o->cpu_only ? TT_DIFF_CPU : TT_DIFF_ALL;
	ro->diff_short_names = o->short_names;
	ro->diff_iteration = o->iteration;
	ro->diff_map = o->diff_map;
	ro->diff_nmap = o->diff_nmap;
	ro->diff_threshold = o->diff_threshold;
	ro->diff_floor_ns = o->diff_floor_ns;
	/* (ro->cp.cp.a is pointed at ro->a by tt_results_new) */
	ro->cp.cp.data_load = o->data_load;
	ro->cp.cp.ndata_load = o->ndata_load;
	ro->cp.cp.whatif = o->whatif;
	ro->cp.cp.nwhatif = o->nwhatif;
	ro->cp.cp.model = o->cp_model;
	ro->cp.annotation = o->annotation;
	ro->cp.inst_first = o->inst_first;
	ro->cp.inst_last = o->inst_last;
	ro->cp.has_from = o->range_has_from;
	ro->cp.has_to = o->range_has_to;
	ro->cp.from = o->range_from;
	ro->cp.to = o->range_to;
	ro->peaks_file = o->peaks_file;
	ro->gpu = o->gpu;
}

int tt_report_width(const struct tt_report_opts *o, FILE *out)
{
	if (o->wide)
		return 0;
	if (o->width > 0)
		return o->width;
	struct winsize ws;
	if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	const char *e = getenv("COLUMNS");
	if (e && *e) {
		char *end;
		long v = strtol(e, &end, 10);
		if (!*end && v >= 20 && v <= 100000)
			return (int)v;
	}
	return TT_REPORT_WIDTH;
}

static int unknown(const char *name, struct tt_err *err)
{
	return tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
			  "unknown report '%s' (see tracetop report --list)", name);
}

int tt_report_tables(struct tt_results *res, const char *name, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(reports); i++)
		if (strcmp(reports[i].name, name) == 0)
			return reports[i].format ?
				       reports[i].format(res, o, out, n, err) :
				       reports[i].fn(tt_results_model(res), tt_results_model2(res), o,
						     out, n, err);
	return unknown(name, err);
}

int tt_report_build(const char *name, const struct tt_model *m, const struct tt_model *m2,
		    const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		    struct tt_err *err)
{
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < TT_ARRAY_SIZE(reports); i++) {
		if (strcmp(reports[i].name, name) != 0)
			continue;
		if (!reports[i].format)
			return reports[i].fn(m, m2, o, out, n, err);
		struct tt_results_opts ro;
		tt_report_results_opts(o, &ro);
		struct tt_results *res = tt_results_new(m, m2, &ro);
		int rc = reports[i].format(res, o, out, n, err);
		tt_results_free(res);
		return rc;
	}
	return unknown(name, err);
}

/* The cycle a report describes (tracetop/runs.h), in CSV and JSON a
 * column of every table: "cycle", or for a diff "control_cycle" and
 * "test_cycle" (the number, from 1). */
static void cycle_cols(struct tt_table **t, size_t n, const struct tt_model *m,
		       const struct tt_model *m2, bool in_text)
{
	for (int s = 0; s < 2; s++) {
		const struct tt_model *x = s ? m2 : m;
		if (!x || !x->cycle)
			continue;
		struct tt_col c = {.name = !m2 ? "cycle" : s ? "test_cycle" : "control_cycle",
				   .type = TT_C_INT,
				   .hidden_text = !in_text};
		for (size_t i = 0; i < n; i++) {
			int k = tt_table_add_col(t[i], &c);
			for (size_t r = 0; r < t[i]->nrows; r++)
				tt_table_set_int(t[i], r, k, x->cycle);
		}
	}
}

/* the line above a text report of a cycle: "run r1, cycle 3 of 5 (12:03:05,
 * steps 40-42)" (a diff: a line each side); "" when no side holds a cycle */
static void tt_report_cycle_line(const struct tt_model *m, const struct tt_model *m2, char *buf,
				 size_t n)
{
	buf[0] = '\0';
	size_t len = 0;
	for (int s = 0; s < 2; s++) {
		const struct tt_model *x = s ? m2 : m;
		if (!x || (!x->cycle && !x->run))
			continue;
		char cy[160];
		tt_model_cycle_text(x, cy, sizeof(cy));
		len += (size_t)snprintf(buf + len, n - len, "%s%s%s%s%s%s", len ? "\n" : "",
					m2 ? (s ? "Test: " : "Control: ") : "", x->run ? "run " : "",
					x->run ? x->run : "", x->run && cy[0] ? ", " : "", cy);
		if (len >= n)
			break;
	}
}

int tt_report_print(const char *name, struct tt_table **t, size_t n,
		    const struct tt_report_opts *o, FILE *out, struct tt_err *err)
{
	int rc = 0;
	/* text fits a width: the terminal's; else $COLUMNS; else 80 columns
	 * (--width N, or --wide: every text whole on one line) */
	struct tt_print_opts popts = {0};
	popts.csv_safe = o->csv_safe;
	popts.max_width = tt_report_width(o, out);
	size_t shown = 0;
	struct tt_table **sel = tt_calloc(n + 1, sizeof(*sel));
	for (size_t i = 0; i < n; i++)
		if (!o->table || strcmp(o->table, t[i]->name) == 0)
			sel[shown++] = t[i];
	if (o->table && !shown) {
		rc = tt_err_set(err, TT_E_USAGE, "", TT_NO_OFFSET,
				"report '%s' has no table '%s'", name, o->table);
	} else if (o->format == TT_FMT_JSON) {
		if (shown == 1)
			tt_table_print(sel[0], TT_FMT_JSON, NULL, out);
		else
			tt_tables_print_json(sel, shown, out);
	} else {
		for (size_t i = 0; i < shown; i++) {
			if (i)
				fputc('\n', out);
			if (shown > 1 && o->format == TT_FMT_CSV)
				fprintf(out, "# %s\n", sel[i]->name);
			tt_table_print(sel[i], o->format, &popts, out);
		}
	}
	free(sel);
	return rc;
}

int tt_report_run(const char *name, const struct tt_model *m, const struct tt_model *m2,
		  const struct tt_report_opts *o, FILE *out, struct tt_err *err)
{
	struct tt_table **t;
	size_t n;
	int rc = tt_report_build(name, m, m2, o, &t, &n, err);
	if (rc)
		return rc;
	cycle_cols(t, n, m, m2, false);
	char line[400];
	tt_report_cycle_line(m, m2, line, sizeof(line));
	if (line[0] && o->format == TT_FMT_TABLE)
		fprintf(out, "%s\n\n", line);
	rc = tt_report_print(name, t, n, o, out, err);
	tt_tables_free(t, n);
	return rc;
}

/* the same columns, by name and type */
static bool same_cols(const struct tt_table *a, const struct tt_table *b)
{
	if (a->ncols != b->ncols || strcmp(a->name, b->name) != 0)
		return false;
	for (int c = 0; c < a->ncols; c++)
		if (strcmp(a->cols[c].name, b->cols[c].name) != 0 || a->cols[c].type != b->cols[c].type)
			return false;
	return true;
}

int tt_report_collect(const char *name, const struct tt_model *m, const struct tt_report_opts *o,
		      struct tt_table ***acc, size_t *nacc, struct tt_err *err)
{
	struct tt_table **t;
	size_t n;
	int rc = tt_report_build(name, m, NULL, o, &t, &n, err);
	if (rc)
		return rc;
	cycle_cols(t, n, m, NULL, true);
	for (size_t i = 0; i < n; i++) {
		struct tt_table *into = NULL;
		for (size_t j = 0; j < *nacc && !into; j++)
			if (same_cols((*acc)[j], t[i]))
				into = (*acc)[j];
		if (!into) {
			*acc = tt_realloc_array(*acc, *nacc + 1, sizeof(**acc));
			(*acc)[(*nacc)++] = t[i];
			t[i] = NULL;
			continue;
		}
		for (size_t r = 0; r < t[i]->nrows; r++) {
			size_t k = tt_table_add_row(into);
			for (int c = 0; c < t[i]->ncols; c++) {
				const struct tt_cell *x = tt_table_cell(t[i], r, c);
				if (x->kind == TT_CV_S)
					tt_table_set_str(into, k, c, x->v.s);
				else if (x->kind == TT_CV_I)
					tt_table_set_int(into, k, c, x->v.i);
				else if (x->kind == TT_CV_D)
					tt_table_set_num(into, k, c, x->v.d);
			}
		}
	}
	tt_tables_free(t, n);
	return 0;
}
