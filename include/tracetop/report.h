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
	bool csv_safe;          /* CSV: formula-like text cells get a ' (--csv-safe) */
	int width;              /* text: lines at most this wide (--width; 0: see
				 * tt_report_width) */
	bool wide;              /* text: every text whole, lines as wide as they
				 * get (--wide) */
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
	int64_t iteration;      /* >= 0, TT_DIFF_FIRST or TT_DIFF_COMMON (default) */
	const struct tt_diff_pair *diff_map; /* --map pairs, or NULL */
	size_t diff_nmap;
	double diff_threshold;  /* fraction (default 0.05) */
	int64_t diff_floor_ns;  /* default 50 µs */
	/* outliers */
	const char *metric;     /* one metric, or NULL for all */
	/* critical-path */
	const char *annotation; /* NULL: ProfilerStep; "": the whole trace */
	int64_t inst_first, inst_last; /* instances (HTA numbering); -1: each one */
	struct tt_cp_whatif whatif[8];
	size_t nwhatif;
	enum tt_cp_model cp_model; /* tracetop's (default) or HTA's */
	const char *data_load[8]; /* data-loading op names (substrings) */
	size_t ndata_load;
	/* range: [from, to) in ns from the job's origin (tt_model_origin);
	 * without them, the start and the end of the data */
	bool range_has_from, range_has_to;
	int64_t range_from, range_to;
	/* perf-model */
	const char *peaks_file; /* a user GPU peak file, or NULL */
	const char *gpu;        /* the peaks of this GPU (a row name), or NULL */
};

void tt_report_opts_init(struct tt_report_opts *o);

/* The report names, NULL-terminated, and a one-line description of each. */
extern const char *const tt_report_names[];
const char *tt_report_help(const char *name);

/* Build the tables of report `name` over model m (m2: the second side of a
 * diff, else NULL).  Returns 0 and an array of tables (free with
 * tt_tables_free), or -code with *err filled (unknown name, nothing to
 * report).  With o->table set, the other tables may be left out. */
int tt_report_build(const char *name, const struct tt_model *m, const struct tt_model *m2,
		    const struct tt_report_opts *o, struct tt_table ***out, size_t *n,
		    struct tt_err *err);
void tt_tables_free(struct tt_table **t, size_t n);

/* The width text reports fit (tt_print_opts.max_width): 0 with o->wide
 * (every text whole), else o->width when set, else the terminal's when out
 * is one, else $COLUMNS when it holds a number of 20 or more, else
 * TT_REPORT_WIDTH. */
#define TT_REPORT_WIDTH 80
int tt_report_width(const struct tt_report_opts *o, FILE *out);

/* Build and print.  Reports of a profiling cycle (tracetop/runs.h) say
 * which: CSV and JSON in a column "cycle" of every table ("control_cycle"
 * and "test_cycle" in a diff), text in a line above the tables ("run r1,
 * cycle 3 of 5 (12:03:05, steps 40-42)", a line each side of a diff; none
 * when neither model holds a cycle). */
int tt_report_run(const char *name, const struct tt_model *m, const struct tt_model *m2,
		  const struct tt_report_opts *o, FILE *out, struct tt_err *err);
/* Several cycles in one report (--cycle all): the tables of report name
 * over model m, with its cycle in a column "cycle" (in text too), added to
 * acc[0..*nacc): rows go into a table of the same name and columns there,
 * else the table is appended.  Free acc with tt_tables_free. */
int tt_report_collect(const char *name, const struct tt_model *m, const struct tt_report_opts *o,
		      struct tt_table ***acc, size_t *nacc, struct tt_err *err);
/* Print tables as tt_report_run does (o->format, o->table). */
int tt_report_print(const char *name, struct tt_table **t, size_t n,
		    const struct tt_report_opts *o, FILE *out, struct tt_err *err);

/* ---- from results computed once (include/tracetop/results.h) ----
 * A report is an analysis (its typed result, kept in a struct tt_results)
 * and the formatting of that result as tables (below).  tt_report_build
 * makes a results object for the one report; the TUI keeps one and formats
 * the panes' tables from it, so both show the numbers of one computation. */
struct tt_results;
struct tt_results_opts;

/* The analysis options o stands for (the ones that change a number). */
void tt_report_results_opts(const struct tt_report_opts *o, struct tt_results_opts *ro);
/* The tables of report `name` from res: what tt_report_build gives for the
 * models and options of res, formatted with o (o's analysis options must
 * be those of res).  Returns 0 or -code as tt_report_build. */
int tt_report_tables(struct tt_results *res, const char *name, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);

/* The formatting half of each analysis report: its tables from the typed
 * result in res (computed there on first use).  The tables carry HTA's
 * column names; with o->table set the others may be left out. */
int tt_report_summary(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
/* The Overview's table: per rank, the shares of the GPU span over one
 * selection of events, by the columns below. */
enum {
	TT_BYRANK_RANK,
	TT_BYRANK_SPAN,
	TT_BYRANK_BUSY,
	TT_BYRANK_COMPUTE,
	TT_BYRANK_COMM,
	TT_BYRANK_MEM,
	TT_BYRANK_IDLE,
	TT_BYRANK_OVERLAP,
	TT_BYRANK_TOP,
	TT_BYRANK_FLAG,
	TT_BYRANK_NON_COMPUTE,
	TT_BYRANK_NCOLS
};
int tt_report_byrank(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_temporal(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_overlap(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_kernels(struct tt_results *res, const struct tt_report_opts *o,
		      struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_idle(struct tt_results *res, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_launch(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_counters(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_patterns(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_diff(struct tt_results *res, const struct tt_report_opts *o,
		   struct tt_table ***out, size_t *n, struct tt_err *err);
/* Many ranks: the ranks furthest from the median (report/outliers.c) */
int tt_report_outliers(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);

/* Column numbers of the tables the TUI draws bars over (the tables' column
 * lists use them, so they cannot drift apart). */
enum tt_temporal_col {
	TT_TEMPORAL_RANK,
	TT_TEMPORAL_IDLE,
	TT_TEMPORAL_COMPUTE,
	TT_TEMPORAL_NON_COMPUTE,
	TT_TEMPORAL_SPAN,
	TT_TEMPORAL_IDLE_PCT,
	TT_TEMPORAL_COMPUTE_PCT,
	TT_TEMPORAL_NON_COMPUTE_PCT,
	TT_TEMPORAL_NCOLS
};
enum tt_overlap_col {
	TT_OVERLAP_RANK,
	TT_OVERLAP_PCT,
	TT_OVERLAP_COMM,
	TT_OVERLAP_COMP,
	TT_OVERLAP_TIME,
	TT_OVERLAP_NCOLS
};
enum tt_across_col {
	TT_ACROSS_NAME,
	TT_ACROSS_TYPE,
	TT_ACROSS_RANKS,
	TT_ACROSS_TOTAL,
	TT_ACROSS_MIN_RANK,
	TT_ACROSS_MIN,
	TT_ACROSS_MEDIAN_RANK,
	TT_ACROSS_MEDIAN,
	TT_ACROSS_MAX_RANK,
	TT_ACROSS_MAX,
	TT_ACROSS_NCOLS
};
enum tt_launch_summary_col {
	TT_LSUM_RANK,
	TT_LSUM_ROWS,
	TT_LSUM_CPU_SUM,
	TT_LSUM_GPU_SUM,
	TT_LSUM_DELAY_SUM,
	TT_LSUM_CPU_MEAN,
	TT_LSUM_GPU_MEAN,
	TT_LSUM_DELAY_MEAN,
	TT_LSUM_DELAY_MAX,
	TT_LSUM_RUNTIME_OUTLIERS,
	TT_LSUM_DELAY_OUTLIERS,
	TT_LSUM_SHORT,
	TT_LSUM_NCOLS
};
enum tt_patterns_col {
	TT_PAT_NUM,
	TT_PAT_OP,
	TT_PAT_PATTERN,
	TT_PAT_COUNT,
	TT_PAT_GPU,
	TT_PAT_CPU,
	TT_PAT_KERNELS,
	TT_PAT_SEQ,
	TT_PAT_NCOLS
};
enum tt_compare_col {
	TT_CMP_NAME,
	TT_CMP_A_COUNT,
	TT_CMP_A_TIME,
	TT_CMP_B_COUNT,
	TT_CMP_B_TIME,
	TT_CMP_D_COUNT,
	TT_CMP_D_TIME,
	TT_CMP_SIGN,
	TT_CMP_CHANGE,
	/* per step (rank-step) */
	TT_CMP_A_MEAN,
	TT_CMP_B_MEAN,
	TT_CMP_D_MEAN,
	TT_CMP_D_PCT,
	TT_CMP_A_SD,
	TT_CMP_B_SD,
	TT_CMP_A_CALLS,
	TT_CMP_B_CALLS,
	TT_CMP_VERDICT,
	TT_CMP_COUNT, /* text only: the ops_diff bucket */
	TT_CMP_NCOLS
};
/* Rows of the kernels-across-ranks table: row i is k->across[order[i]]
 * (the table's order follows o); order has k->nacross entries, free it. */
struct tt_kbreak;
struct tt_table *tt_kernels_across_table(const struct tt_kbreak *k, const struct tt_report_opts *o,
					 size_t **order);
/* The compare_traces table of the diff in res; table row i is
 * d->rows[(*order)[i]] (by impact for text, by name otherwise, cut to --top
 * for text; free *order).  0, or -code with *err filled as tt_report_diff. */
int tt_report_diff_table(struct tt_results *res, const struct tt_report_opts *o,
			 struct tt_table **t, size_t **order, struct tt_err *err);
/* The largest idle gaps given by index into r->gaps, with what a timeline
 * needs to jump there (hidden columns rank_index, track, prev_event,
 * next_event); start is since the rank's first GPU event. */
struct tt_idle;
struct tt_table *tt_idle_gaps_table(const struct tt_model *m, const struct tt_idle *r,
				    const uint32_t *gaps, size_t n);

/* The headline of d as one sentence into buf (n bytes, cut if longer), e.g.
 * "Test is 24.8 ms (+33 %) slower per step; most of it: cudaMemcpyAsync
 * +30.8 ms, 38 → 802 calls"; la, lb: the side labels.  Returns its
 * length. */
struct tt_diff;
size_t tt_diff_headline_text(const struct tt_diff *d, const char *la, const char *lb, char *buf,
			     size_t n);

/* The TensorBoard profiler's views (report/overview.c, utilization.c, ...) */
int tt_report_overview(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_utilization(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_distributed(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_operators(struct tt_results *res, const struct tt_report_opts *o,
			struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_memory(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_source(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
int tt_report_steps(struct tt_results *res, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err);
/* The sentence of one finding of the advice (report/advice.c): what the
 * report and the Advice pane show. */
struct tt_finding;
void tt_finding_text(const struct tt_finding *x, char *buf, size_t n);
int tt_report_advice(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err);
/* the columns of critical_path_steps (row i is step i of tt_cp_steps) */
enum {
	TT_CPS_MARK, /* text only: "*" on the row of the rank that bounds the job's
		      * step (tracetop's model), or of the step's longest path
		      * (HTA's) */
	TT_CPS_RANK,
	TT_CPS_ANNOTATION,
	TT_CPS_INSTANCE,
	TT_CPS_STEP,
	TT_CPS_LENGTH,
	TT_CPS_BOUND_1,
	TT_CPS_BOUND_2,
	TT_CPS_BY_BOUND, /* + enum tt_cp_bound (the NONE column shows nowhere) */
	TT_CPS_EDGES = TT_CPS_BY_BOUND + TT_CPB_COUNT,
	TT_CPS_NO_GPU,
	TT_CPS_STATUS,
	TT_CPS_RANK_INDEX,
	TT_CPS_WINDOW_EVENT,
	TT_CPS_SPAN,       /* the step: its start to the end of its last GPU op */
	TT_CPS_COVER,      /* length / span, % */
	TT_CPS_NOT_BEFORE, /* tt_cp_result.not_before, not_after, not_inside */
	TT_CPS_NOT_AFTER,
	TT_CPS_NOT_INSIDE,
	TT_CPS_MODEL,      /* "tracetop" or "hta" */
	TT_CPS_GROUP, /* + enum tt_cp_group: the pane's bar */
	TT_CPS_NCOLS = TT_CPS_GROUP + TT_CPG_COUNT
};
/* Is each op fast (report/perfmodel.c), from the typed result tt_res_perf:
 * TraceLens' tables and tracetop's per-op summary. */
int tt_report_perf_model(struct tt_results *res, const struct tt_report_opts *o,
			 struct tt_table ***out, size_t *n, struct tt_err *err);
/* collectives matched across ranks (report/collectives.c) */
int tt_report_collectives(struct tt_results *res, const struct tt_report_opts *o,
			  struct tt_table ***out, size_t *n, struct tt_err *err);
/* Critical path per rank and step (report/critpath.c), from the typed
 * result tt_res_critpath; the Critical path pane draws the same. */
int tt_report_critpath(struct tt_results *res, const struct tt_report_opts *o,
		       struct tt_table ***out, size_t *n, struct tt_err *err);
/* What a window is, in words: the step's name, "whole trace", or
 * "1.2 ms to 3.4 ms" since the job's origin. */
void tt_report_cp_step(const struct tt_model *m, const struct tt_cp_step *s, char *buf,
		       size_t n);
/* critical_path_top of one step: row i is s->res.top[i] */
enum { TT_CPT_ON_PATH = 6 };
struct tt_table *tt_report_cp_top(const struct tt_model *m, const struct tt_cp_step *s);
/* "GPU compute 26.8%" (a share under 0.05 % reads "<0.1%"): the k-th
 * largest bound of res, or "-" */
void tt_report_cp_bound(const struct tt_cp_result *res, int k, char *buf, size_t n);
/* What the path covers, in words: "path 56.1 ms of a 86.7 ms step; not on
 * HTA's path: 30.6 ms before its first event" (buf "" when the window is
 * not one step). */
void tt_report_cp_cover(const struct tt_cp_result *res, char *buf, size_t n);
/* critical_path_job: one row per step number (row i is jobs[i]) */
enum {
	TT_CPJ_STEP,
	TT_CPJ_RANK,
	TT_CPJ_BOUND_BY,
	TT_CPJ_BOUND,
	TT_CPJ_EXCESS,
	TT_CPJ_LATE,
	TT_CPJ_WAIT,
	TT_CPJ_NWAIT,
	TT_CPJ_COLL,
	TT_CPJ_LENGTH,
	TT_CPJ_SPAN,
	TT_CPJ_COVER,
	TT_CPJ_END_RANK,
	TT_CPJ_SEGS,
	TT_CPJ_RANKS,
	TT_CPJ_RANK_INDEX,
	TT_CPJ_CARRIED,
	TT_CPJ_DISAGREE,
	TT_CPJ_NCOLS
};
/* The what-if of s (computed with whatif[0..n)): per rank and step the
 * length now and then, and the new main bound (critical_path_what_if). */
struct tt_table *tt_report_cp_whatif(const struct tt_model *m, const struct tt_cp_steps *s,
				     const struct tt_cp_whatif *whatif, size_t n);
/* The job's verdict in one line: "bound by rank 5: data loading 30.2 ms a
 * step; 7 ranks wait for it in allreduce" (buf "" without one). */
void tt_report_cp_verdict(const struct tt_cp_steps *s, char *buf, size_t n);
/* The steps whose collectives the ranks disagree on, in one line: "the
 * ranks disagree on 1 collective of step 551 (all_reduce #3 on stream #1):
 * no wait in it is on the job's path; report collectives says how" (buf ""
 * when they agree everywhere). */
void tt_report_cp_disagree(const struct tt_cp_steps *s, char *buf, size_t n);

/* What ran between two times (report/range.c): per rank, per GPU stream,
 * by name, and the idle gaps, from the typed result of tt_range_compute
 * (the timeline's range pane draws the same tables). */
struct tt_range;
int tt_report_range(const struct tt_model *m, const struct tt_report_opts *o,
		    struct tt_table ***out, size_t *n, struct tt_err *err);
/* "608.146 ms .. 1239.123 ms (630.977 ms)": the range from the origin */
void tt_range_text(char *buf, size_t n, const struct tt_range *r);
struct tt_table *tt_range_ranks_table(const struct tt_range *r);
struct tt_table *tt_range_streams_table(const struct tt_model *m, const struct tt_range *r);
/* the top names by time (top <= 0: all) */
struct tt_table *tt_range_names_table(const struct tt_range *r, int top);
/* the top gaps by length (top <= 0: all) */
struct tt_table *tt_range_gaps_table(const struct tt_model *m, const struct tt_range *r, int top);

/* tracetop counters PATH -o OUT[.gz]: the trace of rank 0 of m (read again
 * from its file) with HTA's counter events added.  Returns 0 or -code. */
int tt_counters_write(const struct tt_model *m, const struct tt_report_opts *o,
		      const char *out_path, struct tt_err *err);

/* Load warnings of every file as a table (the load report). */
struct tt_table *tt_report_load_table(const struct tt_model *m);

#endif
