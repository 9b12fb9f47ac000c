/* report room: analyses as tables, printed as text, CSV or JSON.
 * `tracetop report NAME` and the TUI panes share these table builders. */
#ifndef TRACETOP_REPORT_H
#define TRACETOP_REPORT_H

#include <stdio.h>

#include "tracetop/analysis.h"
#include "tracetop/critpath.h"
#include "tracetop/render.h"

struct tt_report_opts {
	enum tt_format format;
	struct tt_aopts a;
	const char *table;      /* print only this table of the report */
	int top;                /* rows of top-N lists (0 = report default) */
	/* kernels */
	int num_kernels;        /* HTA num_kernels (default 10) */
	double duration_ratio;  /* HTA duration_ratio (default 0.8) */
	bool no_memory;         /* HTA include_memory_kernels=False */
	bool explain;           /* show the rule that classified each kernel */
	/* idle */
	double kernel_delay_us; /* HTA consecutive_kernel_delay (default 30) */
	/* launch */
	double runtime_cutoff_us;     /* default 50 */
	double launch_delay_cutoff_us; /* default 100 */
	/* patterns */
	const char *op_name;    /* operator name substring */
	int min_pattern_len;    /* default 3 */
	/* diff */
	bool gpu_only, cpu_only, short_names;
	const char *label_a, *label_b;
	int64_t iteration;      /* -1 = first */
	/* outliers */
	const char *metric;     /* one metric, or NULL for all */
	/* critical-path */
	const char *annotation; /* NULL: ProfilerStep; "": the whole trace */
	int64_t inst_first, inst_last; /* instances (HTA numbering); -1: each one */
	struct tt_cp_whatif whatif[8];
	size_t nwhatif;
	const char *data_load[8]; /* data-loading op names (substrings) */
	size_t ndata_load;
};

void tt_report_opts_init(struct tt_report_opts *o);

/* The report names, NULL-terminated, and a one-line description of each. */
extern const char *const tt_report_names[];
const char *tt_report_help(const char *name);

/* Build the tables of report `name` over model m (m2: the second side of a
 * diff, else NULL).  Returns 0 and an array of tables (free with
 * tt_tables_free), or -code with *err filled (unknown name, nothing to
 * report). */
int tt_report_build(const char *name, const struct tt_model *m, const struct tt_model *m2,
		    const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		    struct tt_err *err);
void tt_tables_free(struct tt_table **t, size_t n);

/* Build and print. */
int tt_report_run(const char *name, const struct tt_model *m, const struct tt_model *m2,
		  const struct tt_report_opts *o, FILE *out, struct tt_err *err);

/* Per-report builders (report/\*.c) */
int tt_report_summary(const struct tt_model *m, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
/* Each analysis report; the tables carry HTA's column names. */
int tt_report_temporal(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_overlap(const struct tt_model *m, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_kernels(const struct tt_model *m, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_idle(const struct tt_model *m, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_launch(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_counters(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_patterns(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_diff(const struct tt_model *a, const struct tt_model *b,
		   const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		   struct tt_err *err);
/* The TensorBoard profiler's views (report/overview.c, utilization.c, ...) */
int tt_report_overview(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_utilization(const struct tt_model *m, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_distributed(const struct tt_model *m, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_operators(const struct tt_model *m, const struct tt_report_opts *o,
			struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_memory(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_source(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_steps(const struct tt_model *m, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_advice(const struct tt_model *m, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
/* Critical path per rank and step (report/critpath.c) */
int tt_report_critpath(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
/* Many ranks: the ranks furthest from the median (report/outliers.c) */
int tt_report_outliers(const struct tt_model *m, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);

/* tracetop counters PATH -o OUT[.gz]: the trace of rank 0 of m (read again
 * from its file) with HTA's counter events added.  Returns 0 or -code. */
int tt_counters_write(const struct tt_model *m, const struct tt_report_opts *o,
		      const char *out_path, struct tt_err *err);

/* Load warnings of every file as a table (the load report). */
struct tt_table *tt_report_load_table(const struct tt_model *m);

#endif
