/* tracetop report perf-model: is each op fast?  FLOPs, bytes, achieved
 * TFLOP/s and TB/s and the roofline per op and shape; the ops by category,
 * by name and by args; the GPU timeline; kernels; short kernels.
 *
 * CSV column names are TraceLens' where the number is TraceLens' (its
 * notebooks read them): "Data Moved (MB)" is its name for MiB (2^20
 * bytes), kept for the CSV, "MiB" in the text table.  Columns TraceLens has
 * not are tracetop's own names. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/collbw.h"
#include "tracetop/perfmodel.h"
#include "tracetop/results.h"
#include "tracetop/util.h"
#include "tb_int.h"

#define MAXC 72

struct cols {
	struct tt_col c[MAXC];
	int n;
};

static int add(struct cols *c, struct tt_col col)
{
	if (c->n >= MAXC)
		return MAXC - 1;
	c->c[c->n] = col;
	return c->n++;
}

static int csv_num(struct cols *c, const char *name)
{
	return add(c, (struct tt_col){.name = name, .type = TT_C_NUM, .prec = 3, .hidden_text = true});
}

static int csv_str(struct cols *c, const char *name)
{
	return add(c, (struct tt_col){.name = name, .type = TT_C_STR, .hidden_text = true});
}

/* a text cell; NULL leaves it empty */
static void set_s(struct tt_table *t, size_t r, int c, const char *s)
{
	if (s)
		tt_table_set_str(t, r, c, s);
}

static bool want(const struct tt_report_opts *o, const char *table)
{
	return !o->table || strcmp(o->table, table) == 0;
}

static size_t top_n(const struct tt_report_opts *o, size_t n, size_t dflt)
{
	size_t top = o->top > 0 ? (size_t)o->top : dflt;
	return o->format == TT_FMT_TABLE && n > top ? top : n;
}

/* "name×3, other×1" of a kernel list, the largest first */
static void kernels_text(char *buf, size_t n, const struct tt_pm_kernel *k, size_t nk)
{
	size_t l = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nk && l + 1 < n; i++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s x%llu (stream %lld, %.1f us)", i ? "; " : "",
				      k[i].name, (unsigned long long)k[i].count,
				      (long long)k[i].stream, k[i].sum / 1e3);
}

/* ---- the GPU timeline (TraceLens' gpu_timeline) ---- */

static struct tt_table *timeline_table(const struct tt_perf *p)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "rank", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "type", .type = TT_C_STR, .width = 20});
	add(&c, (struct tt_col){.name = "time ms", .title = "time (ms)", .type = TT_C_NUM, .prec = 3});
	add(&c, (struct tt_col){.name = "percent", .type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "linked time ms", .title = "launched (ms)", .type = TT_C_NUM,
				.prec = 3});
	add(&c, (struct tt_col){.name = "linked percent", .title = "launched", .type = TT_C_PCT,
				.prec = 1});
	struct tt_table *t = tt_table_new("gpu_timeline", c.c, c.n);
	tt_table_set_title(t, "GPU timeline per rank: computation, exposed communication and memcpy, "
			      "idle (TraceLens' gpu_timeline, over every GPU op)");
	for (size_t i = 0; i < p->nranks; i++) {
		const double *v = &p->rank_timeline[i * TT_PMT_N],
			     *w = &p->rank_timeline_linked[i * TT_PMT_N];
		for (int k = 0; k < TT_PMT_N; k++) {
			size_t r = tt_table_add_row(t);
			tt_table_set_int(t, r, 0, p->rank[i]);
			set_s(t, r, 1, tt_pm_timeline_name(k));
			tt_table_set_num(t, r, 2, v[k] / 1e3);
			tt_table_set_num(t, r, 3,
					 v[TT_PMT_TOTAL] > 0 ? v[k] / v[TT_PMT_TOTAL] * 100 : NAN);
			tt_table_set_num(t, r, 4, w[k] / 1e3);
			tt_table_set_num(t, r, 5,
					 w[TT_PMT_TOTAL] > 0 ? w[k] / w[TT_PMT_TOTAL] * 100 : NAN);
		}
	}
	tt_table_add_note(t, "launched: only the GPU ops a runtime call launched (TraceLens' "
			     "default, which leaves the others out)");
	if (!p->has_gpu)
		tt_table_add_note(t, "no GPU ops in the ranks shown");
	return t;
}

/* ---- launchers ---- */

static struct tt_table *cat_table(const struct tt_perf *p)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "op category", .type = TT_C_STR, .width = 20});
	add(&c, (struct tt_col){.name = "Count", .title = "ops", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "total_direct_kernel_time_ms", .title = "kernel time (ms)",
				.type = TT_C_NUM, .prec = 3});
	add(&c, (struct tt_col){.name = "Percentage (%)", .title = "share", .type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "Cumulative Percentage (%)", .title = "cumulative",
				.type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = 3, .width = 20,
				.bar_max = 100});
	struct tt_table *t = tt_table_new("ops_summary_by_category", c.c, c.n);
	tt_table_set_title(t, "GPU kernel time by op category (the kernels each op launched itself)");
	double total = 0, cum = 0;
	for (size_t i = 0; i < p->ncats; i++)
		total += p->cats[i].direct_us;
	for (size_t i = 0; i < p->ncats; i++) {
		const struct tt_pm_catsum *s = &p->cats[i];
		size_t r = tt_table_add_row(t);
		double pct = total > 0 ? s->direct_us / total * 100 : NAN;
		cum += pct;
		set_s(t, r, 0, tt_pm_cat_name(s->cat));
		tt_table_set_int(t, r, 1, (int64_t)s->count);
		tt_table_set_num(t, r, 2, s->direct_us / 1e3);
		tt_table_set_num(t, r, 3, pct);
		tt_table_set_num(t, r, 4, cum);
	}
	if (p->gpu_unlinked)
		tt_table_add_note(t,
				  "%llu of %llu GPU ops (%.3f ms busy) have no launch in the trace: no "
				  "op owns them, so no row counts them",
				  (unsigned long long)p->gpu_unlinked, (unsigned long long)p->gpu_ops,
				  p->gpu_unlinked_us / 1e3);
	tt_table_add_note(t, "communication kernels have no launcher (TraceLens' rule): their time "
			     "is in the GPU timeline");
	return t;
}

static void cats_text(char *buf, size_t n, uint32_t cats)
{
	size_t l = 0;
	buf[0] = '\0';
	l += (size_t)snprintf(buf, n, "[");
	bool first = true;
	/* (sorted by name, as TraceLens' sorted(set)) */
	const char *names[TT_PMC_COUNT];
	int k = 0;
	for (int c = 0; c < TT_PMC_COUNT; c++)
		if (cats & (1u << c))
			names[k++] = tt_pm_cat_name(c);
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *x = names[j];
			names[j] = names[j - 1];
			names[j - 1] = x;
		}
	for (int i = 0; i < k && l < n; i++) {
		l += (size_t)snprintf(buf + l, n - l, "%s'%s'", first ? "" : ", ", names[i]);
		first = false;
	}
	if (l < n)
		snprintf(buf + l, n - l, "]");
}

static struct tt_table *ops_table(const struct tt_perf *p, const struct tt_report_opts *o)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "name", .type = TT_C_STR, .width = 44});
	csv_num(&c, "total_direct_kernel_time_sum");
	csv_num(&c, "total_subtree_kernel_time_sum");
	add(&c, (struct tt_col){.name = "total_direct_kernel_time_ms", .title = "direct (ms)",
				.type = TT_C_NUM, .prec = 3});
	add(&c, (struct tt_col){.name = "total_subtree_kernel_time_ms", .title = "subtree (ms)",
				.type = TT_C_NUM, .prec = 3});
	add(&c, (struct tt_col){.name = "Count", .title = "ops", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "Categories", .title = "categories", .type = TT_C_STR,
				.width = 24});
	add(&c, (struct tt_col){.name = "Percentage (%)", .title = "share", .type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "Cumulative Percentage (%)", .type = TT_C_PCT, .prec = 1,
				.hidden_text = true});
	struct tt_table *t = tt_table_new("ops_summary", c.c, c.n);
	tt_table_set_title(t, "Kernel launchers by name: the kernels each op launched itself "
			      "(direct) and under it (subtree)");
	double total = 0, cum = 0;
	for (size_t i = 0; i < p->nops; i++)
		total += p->ops[i].direct_us;
	size_t n = top_n(o, p->nops, 30);
	char cb[200];
	for (size_t i = 0; i < p->nops; i++) {
		const struct tt_pm_opsum *s = &p->ops[i];
		double pct = total > 0 ? s->direct_us / total * 100 : NAN;
		cum += pct;
		if (i >= n)
			continue;
		size_t r = tt_table_add_row(t);
		set_s(t, r, 0, s->name);
		tt_table_set_num(t, r, 1, s->direct_us);
		tt_table_set_num(t, r, 2, s->subtree_us);
		tt_table_set_num(t, r, 3, s->direct_us / 1e3);
		tt_table_set_num(t, r, 4, s->subtree_us / 1e3);
		tt_table_set_int(t, r, 5, (int64_t)s->count);
		cats_text(cb, sizeof(cb), s->cats);
		set_s(t, r, 6, cb);
		tt_table_set_num(t, r, 7, pct);
		tt_table_set_num(t, r, 8, cum);
	}
	if (n < p->nops)
		tt_table_add_note(t, "%zu of %zu ops shown (--top N; CSV and JSON list all)", n, p->nops);
	return t;
}

static void stat_cols(struct cols *c, const char *prefix, bool sum, const char **names)
{
	static const char *const suf[] = {"mean", "median", "std", "min", "max", "sum"};
	(void)prefix;
	for (int i = 0; i < (sum ? 6 : 5); i++)
		csv_num(c, names[i]);
	(void)suf;
}

static void set_stat(struct tt_table *t, size_t r, int col, const struct tt_pm_stat *s, bool sum)
{
	tt_table_set_num(t, r, col, s->mean);
	tt_table_set_num(t, r, col + 1, s->median);
	tt_table_set_num(t, r, col + 2, s->std);
	tt_table_set_num(t, r, col + 3, s->min);
	tt_table_set_num(t, r, col + 4, s->max);
	if (sum)
		tt_table_set_num(t, r, col + 5, s->sum);
}

static struct tt_table *unique_table(const struct tt_perf *p, const struct tt_report_opts *o)
{
	static const char *const dn[] = {"total_direct_kernel_time_mean",  "total_direct_kernel_time_median",
					 "total_direct_kernel_time_std",   "total_direct_kernel_time_min",
					 "total_direct_kernel_time_max",   "total_direct_kernel_time_sum"};
	static const char *const sn[] = {"total_subtree_kernel_time_mean", "total_subtree_kernel_time_median",
					 "total_subtree_kernel_time_std",  "total_subtree_kernel_time_min",
					 "total_subtree_kernel_time_max",  "total_subtree_kernel_time_sum"};
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "name", .type = TT_C_STR, .width = 36});
	add(&c, (struct tt_col){.name = "op category", .title = "category", .type = TT_C_STR, .width = 12});
	csv_str(&c, "process_name");
	csv_str(&c, "thread_name");
	add(&c, (struct tt_col){.name = "Input Dims", .title = "input dims", .type = TT_C_STR,
				.width = 30, .free_text = true});
	add(&c, (struct tt_col){.name = "Input type", .title = "types", .type = TT_C_STR, .width = 18,
				.free_text = true});
	csv_str(&c, "Input Strides");
	csv_str(&c, "Concrete Inputs");
	add(&c, (struct tt_col){.name = "operation_count", .title = "ops", .type = TT_C_INT});
	int cd = c.n;
	stat_cols(&c, "d", true, (const char **)dn);
	int cs = c.n;
	stat_cols(&c, "s", true, (const char **)sn);
	int kt = add(&c, (struct tt_col){.name = "direct (ms)", .type = TT_C_NUM, .prec = 3,
					 .hidden_csv = true});
	int km = add(&c, (struct tt_col){.name = "mean (us)", .type = TT_C_NUM, .prec = 1,
					 .hidden_csv = true});
	int kd = add(&c, (struct tt_col){.name = "kernels", .type = TT_C_STR, .width = 60,
					 .hidden_text = true});
	int pc = add(&c, (struct tt_col){.name = "Percentage (%)", .title = "share", .type = TT_C_PCT,
					 .prec = 1});
	int cc = add(&c, (struct tt_col){.name = "Cumulative Percentage (%)", .type = TT_C_PCT,
					 .prec = 1, .hidden_text = true});
	struct tt_table *t = tt_table_new("ops_unique_args", c.c, c.n);
	tt_table_set_title(t, "Kernel launchers by name, thread and args (Input Dims, Input type, "
			      "Input Strides, Concrete Inputs)");
	double total = 0, cum = 0;
	for (size_t i = 0; i < p->nlaunch; i++)
		total += p->launch[i].direct_us.sum;
	size_t n = top_n(o, p->nlaunch, 30);
	char *kb = tt_malloc(8192);
	for (size_t i = 0; i < p->nlaunch; i++) {
		const struct tt_pm_launch *l = &p->launch[i];
		double pct = total > 0 ? l->direct_us.sum / total * 100 : NAN;
		cum += pct;
		if (i >= n)
			continue;
		size_t r = tt_table_add_row(t);
		set_s(t, r, 0, l->name);
		set_s(t, r, 1, tt_pm_cat_name(l->cat));
		set_s(t, r, 2, l->process);
		set_s(t, r, 3, l->thread);
		if (l->dims)
			set_s(t, r, 4, l->dims);
		if (l->types)
			set_s(t, r, 5, l->types);
		if (l->strides)
			set_s(t, r, 6, l->strides);
		if (l->concrete)
			set_s(t, r, 7, l->concrete);
		tt_table_set_int(t, r, 8, (int64_t)l->count);
		set_stat(t, r, cd, &l->direct_us, true);
		set_stat(t, r, cs, &l->subtree_us, true);
		tt_table_set_num(t, r, kt, l->direct_us.sum / 1e3);
		tt_table_set_num(t, r, km, l->direct_us.mean);
		kernels_text(kb, 8192, l->kernels, l->nkernels);
		set_s(t, r, kd, kb);
		tt_table_set_num(t, r, pc, pct);
		tt_table_set_num(t, r, cc, cum);
	}
	free(kb);
	if (n < p->nlaunch)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N; CSV and JSON list all)", n,
				  p->nlaunch);
	if (p->nranks > 1)
		tt_table_add_note(t, "several ranks: threads are named without their id (\"thread "
				     "(python3)\"), so one thread's ops of every rank share a row");
	return t;
}

/* ---- the perf model ---- */

static const char *bound_text(const struct tt_pm_row *w)
{
	if (isnan(w->roof_us))
		return NULL;
	return w->compute_bound ? "COMPUTE_BOUND" : "MEMORY_BOUND";
}

/* the perf-model rows of one sheet, TraceLens' sheet columns */
static struct tt_table *sheet_table(const struct tt_perf *p, int sheet,
				    const struct tt_report_opts *o)
{
	static const char *const tb[] = {"TB/s_mean", "TB/s_median", "TB/s_std", "TB/s_min", "TB/s_max"};
	static const char *const tf[] = {"TFLOPS/s_mean", "TFLOPS/s_median", "TFLOPS/s_std",
					 "TFLOPS/s_min", "TFLOPS/s_max"};
	static const char *const pr[] = {"Pct Roofline_mean", "Pct Roofline_median", "Pct Roofline_std",
					 "Pct Roofline_min", "Pct Roofline_max"};
	static const char *const kt[] = {"Kernel Time (µs)_mean", "Kernel Time (µs)_median",
					 "Kernel Time (µs)_std",  "Kernel Time (µs)_min",
					 "Kernel Time (µs)_max",  "Kernel Time (µs)_sum"};
	/* "param: X" names, per family (static: the table keeps pointers) */
	static const char *const pn[TT_PMF_COUNT][16] = {
		[TT_PMF_GEMM] = {"param: M", "param: N", "param: K", "param: bias", "param: stride_A",
				 "param: stride_B", "param: dtype_A_B", "param: B"},
		[TT_PMF_CONV] = {"param: convNd", "param: input_shape", "param: filter_shape",
				 "param: dtype_input_weight", "param: input_stride",
				 "param: weight_stride", "param: bias", "param: stride", "param: padding",
				 "param: dilation", "param: transposed_conv", "param: output_padding",
				 "param: groups"},
		[TT_PMF_SDPA] = {"param: B", "param: N_Q", "param: H_Q", "param: N_KV", "param: H_KV",
				 "param: d_h_qk", "param: d_h_v", "param: dropout", "param: causal",
				 "param: flash_impl", "param: dtype_A_B"},
		[TT_PMF_NORM] = {"param: op_shape", "param: dtype_in_out", "param: stride_input",
				 "param: stride_output", "param: num_channels", "param: has_bias",
				 "param: is_affine", "param: is_training", "param: output_mask"},
		[TT_PMF_UNARY] = {"param: op_shape", "param: dtype_in_out", "param: stride_input",
				  "param: stride_output"},
		[TT_PMF_BINARY] = {"param: shape_in1", "param: shape_in2", "param: dtype_in1_in2_out",
				   "param: stride_input1", "param: stride_input2", "param: stride_output"},
		[TT_PMF_REDUCE] = {"param: num_input_elems", "param: num_output_elems",
				   "param: dtype_in_out", "param: reduce_type"},
	};
	int fam = -1;
	for (size_t i = 0; i < p->nrows && fam < 0; i++)
		if (p->rows[i].sheet == sheet)
			fam = p->rows[i].family;
	if (fam < 0)
		return NULL;
	size_t nk;
	tt_pm_param_keys((enum tt_pm_family)fam, &nk);
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "name", .type = TT_C_STR, .width = 32});
	int p0 = c.n;
	for (size_t k = 0; k < nk; k++)
		csv_str(&c, pn[fam][k]);
	int shape = add(&c, (struct tt_col){.name = "shape", .type = TT_C_STR, .width = 34,
					    .free_text = true, .hidden_csv = true});
	int gf = add(&c, (struct tt_col){.name = "GFLOPS_first", .title = "GFLOP", .type = TT_C_NUM,
					 .prec = 3});
	int dm = add(&c, (struct tt_col){.name = "Data Moved (MB)_first", .title = "MiB",
					 .type = TT_C_NUM, .prec = 2});
	int fb = add(&c, (struct tt_col){.name = "FLOPS/Byte_first", .title = "FLOP/B",
					 .type = TT_C_NUM, .prec = 1});
	int ctb = c.n;
	for (int k = 0; k < 5; k++)
		csv_num(&c, tb[k]);
	int ctf = c.n;
	for (int k = 0; k < 5; k++)
		csv_num(&c, tf[k]);
	int cpn = csv_str(&c, "process_name_first");
	int ctn = csv_str(&c, "thread_name_first");
	int spec = add(&c, (struct tt_col){.name = "Compute Spec", .title = "spec", .type = TT_C_STR,
					   .width = 11});
	int rt = csv_num(&c, "Roofline Time (µs)_first");
	int rb = csv_str(&c, "Roofline Bound_first");
	int cpr = c.n;
	for (int k = 0; k < 5; k++)
		csv_num(&c, pr[k]);
	int cid = csv_str(&c, "Input Dims_first");
	csv_str(&c, "Input type_first");
	csv_str(&c, "Input Strides_first");
	csv_str(&c, "Concrete Inputs_first");
	int ckt = c.n;
	for (int k = 0; k < 6; k++)
		csv_num(&c, kt[k]);
	int cnt = add(&c, (struct tt_col){.name = "name_count", .title = "ops", .type = TT_C_INT});
	/* tracetop's own */
	int tsum = add(&c, (struct tt_col){.name = "kernel time (ms)", .type = TT_C_NUM, .prec = 3,
					   .hidden_csv = true});
	int vtf = add(&c, (struct tt_col){.name = "TFLOP/s", .type = TT_C_NUM, .prec = 2,
					  .hidden_csv = true});
	int vtb = add(&c, (struct tt_col){.name = "TB/s", .type = TT_C_NUM, .prec = 3,
					  .hidden_csv = true});
	int vpr = add(&c, (struct tt_col){.name = "roofline", .type = TT_C_PCT, .prec = 1,
					  .hidden_csv = true});
	int vbd = add(&c, (struct tt_col){.name = "bound", .type = TT_C_STR, .width = 7,
					  .hidden_csv = true});
	int pk = csv_num(&c, "peak TFLOPS/s");
	int bw = csv_num(&c, "memory bandwidth GB/s");
	int gpu = csv_str(&c, "gpu");
	int nr = csv_num(&c, "ranks");
	int kd = csv_str(&c, "kernels");
	struct tt_table *t = tt_table_new(tt_pm_sheet_name(sheet), c.c, c.n);
	tt_table_set_title(t, "%s: FLOPs and bytes per op and parameters; achieved TFLOP/s, TB/s "
			      "and %% of the roofline over all the ops' kernel time (CSV: TraceLens' "
			      "statistics of each op's)", tt_pm_sheet_name(sheet));
	size_t all = 0, shown = 0;
	for (size_t i = 0; i < p->nrows; i++)
		all += p->rows[i].sheet == sheet;
	size_t n = top_n(o, all, 25);
	char *kb = tt_malloc(8192);
	for (size_t i = 0; i < p->nrows; i++) {
		const struct tt_pm_row *w = &p->rows[i];
		if (w->sheet != sheet || shown >= n)
			continue;
		shown++;
		size_t r = tt_table_add_row(t);
		set_s(t, r, 0, w->name);
		/* the params, '\x1f'-separated */
		const char *s = w->params;
		for (size_t k = 0; k < nk && s; k++) {
			const char *e = strchr(s, '\x1f');
			size_t l = e ? (size_t)(e - s) : strlen(s);
			char v[TT_PM_PARAMS];
			memcpy(v, s, l);
			v[l] = '\0';
			set_s(t, r, p0 + (int)k, v);
			s = e ? e + 1 : NULL;
		}
		if (w->dims) {
			char sh[600];
			snprintf(sh, sizeof(sh), "%s %s", w->dims, w->types ? w->types : "");
			set_s(t, r, shape, sh);
		}
		tt_table_set_num(t, r, gf, w->flops / 1e9);
		if (w->bytes >= 0) {
			tt_table_set_num(t, r, dm, w->bytes / (1024.0 * 1024.0));
			tt_table_set_num(t, r, fb, w->bytes > 0 ? w->flops / w->bytes : NAN);
		}
		for (int k = 0; k < 5; k++) {
			const double *a = &w->tbps.mean, *b = &w->tflops.mean, *d = &w->pct_roof.mean;
			tt_table_set_num(t, r, ctb + k, a[k]);
			tt_table_set_num(t, r, ctf + k, b[k]);
			tt_table_set_num(t, r, cpr + k, d[k]);
		}
		set_s(t, r, cpn, w->process);
		set_s(t, r, ctn, w->thread);
		set_s(t, r, spec, tt_pm_spec_name(w->spec));
		tt_table_set_num(t, r, rt, w->roof_us);
		if (bound_text(w))
			set_s(t, r, rb, bound_text(w));
		if (w->dims)
			set_s(t, r, cid, w->dims);
		if (w->types)
			set_s(t, r, cid + 1, w->types);
		if (w->strides)
			set_s(t, r, cid + 2, w->strides);
		if (w->concrete)
			set_s(t, r, cid + 3, w->concrete);
		set_stat(t, r, ckt, &w->time_us, true);
		tt_table_set_int(t, r, cnt, (int64_t)w->count);
		tt_table_set_num(t, r, tsum, w->time_us.sum / 1e3);
		tt_table_set_num(t, r, vtf, w->tflops_all);
		tt_table_set_num(t, r, vtb, w->tbps_all);
		tt_table_set_num(t, r, vpr, w->roof_pct_all);
		if (!isnan(w->roof_us))
			set_s(t, r, vbd, w->compute_bound ? "compute" : "memory");
		tt_table_set_num(t, r, pk, w->peak_tflops > 0 ? w->peak_tflops : NAN);
		tt_table_set_num(t, r, bw, w->mem_gbps > 0 ? w->mem_gbps : NAN);
		if (w->gpu)
			set_s(t, r, gpu, w->gpu->name);
		tt_table_set_num(t, r, nr, w->nranks);
		kernels_text(kb, 8192, w->kernels, w->nkernels);
		set_s(t, r, kd, kb);
	}
	free(kb);
	if (n < all)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N; CSV and JSON list all)", n, all);
	if (sheet == TT_PMS_SDPA_BWD || sheet == TT_PMS_REDUCE_BWD)
		tt_table_add_note(t, "backward: the forward op's backward FLOPs over the kernels of "
				     "the backward ops the autograd engine ran for it (Sequence number)");
	return t;
}

/* tracetop's summary of the model rows: per op name, all shapes */
static struct tt_table *byop_table(const struct tt_perf *p, const struct tt_report_opts *o)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "name", .type = TT_C_STR, .width = 36});
	add(&c, (struct tt_col){.name = "table", .type = TT_C_STR, .width = 17});
	add(&c, (struct tt_col){.name = "ops", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "shapes", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "kernel_time(us)", .title = "kernel time", .type = TT_C_DUR});
	add(&c, (struct tt_col){.name = "tflops", .title = "TFLOP/s", .type = TT_C_NUM, .prec = 2});
	add(&c, (struct tt_col){.name = "tbps", .title = "TB/s", .type = TT_C_NUM, .prec = 3});
	add(&c, (struct tt_col){.name = "flops_per_byte", .title = "FLOP/B", .type = TT_C_NUM, .prec = 1});
	add(&c, (struct tt_col){.name = "roofline_pct", .title = "roofline", .type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "bound", .type = TT_C_STR, .width = 7});
	add(&c, (struct tt_col){.name = "spec", .type = TT_C_STR, .width = 11});
	struct tt_table *t = tt_table_new("perf_model", c.c, c.n);
	t->nkeys = 2; /* an op's forward and backward rows: name and table */
	char g[160];
	tt_table_set_title(t, "Modelled ops by kernel time: achieved TFLOP/s and TB/s over all their "
			      "shapes, %% of the roofline (%s)", tt_perf_gpu_label(p, g, sizeof(g)));
	struct tt_pm_opagg *v;
	size_t nv = tt_perf_by_op(p, &v), n = top_n(o, nv, 25);
	for (size_t i = 0; i < n; i++) {
		const struct tt_pm_opagg *a = &v[i];
		size_t r = tt_table_add_row(t);
		set_s(t, r, 0, a->name);
		set_s(t, r, 1, tt_pm_sheet_name(a->sheet));
		tt_table_set_int(t, r, 2, (int64_t)a->count);
		tt_table_set_int(t, r, 3, (int64_t)a->nshapes);
		tt_table_set_int(t, r, 4, (int64_t)llround(a->time_us * 1e3));
		double s = a->time_us / 1e6;
		tt_table_set_num(t, r, 5, s > 0 ? a->flops / 1e12 / s : NAN);
		tt_table_set_num(t, r, 6, s > 0 && a->bytes > 0 ? a->bytes / 1e12 / s : NAN);
		tt_table_set_num(t, r, 7, a->bytes > 0 ? a->flops / a->bytes : NAN);
		tt_table_set_num(t, r, 8, a->roof_time_us > 0 ? a->roof_us / a->roof_time_us * 100 : NAN);
		if (a->nbound_compute || a->nbound_memory)
			set_s(t, r, 9,
					 a->nbound_compute && a->nbound_memory ? "mixed"
					 : a->nbound_compute		       ? "compute"
										       : "memory");
		set_s(t, r, 10, a->spec >= 0 ? tt_pm_spec_name(a->spec) : "mixed");
	}
	if (n < nv)
		tt_table_add_note(t, "%zu of %zu ops shown (--top N)", n, nv);
	free(v);
	if (!p->any_shapes)
		tt_table_add_note(t, "no Input Dims recorded: record with "
				     "torch.profiler.profile(record_shapes=True) for FLOPs and bytes");
	else if (p->ops_unmodelled)
		tt_table_add_note(t, "%llu ops with a model were not modelled; the first: %s",
				  (unsigned long long)p->ops_unmodelled,
				  p->why_first ? p->why_first : "?");
	if (p->bwd_unlinked)
		tt_table_add_note(t, "%llu forward ops have no backward linked by Sequence number",
				  (unsigned long long)p->bwd_unlinked);
	for (size_t i = 0; i < p->nranks; i++)
		if (!p->rank_gpu[i]) {
			tt_table_add_note(
				t, "rank %lld: %s: no peaks (give --gpu-type NAME or a --peaks FILE)",
				(long long)p->rank[i],
				p->rank_devname[i] ? p->rank_devname[i] : "no deviceProperties");
			break;
		}
	if (p->error[0])
		tt_table_add_note(t, "peak file not read: %s", p->error);
	tt_table_add_note(t, "roofline: the time at the GPU's peak for the op's FLOPs (compute) or "
			     "bytes (memory), whichever is longer, as a share of its kernel time");
	if (p->depth_cut)
		tt_table_add_note(t, "%llu GPU ops under ops nested deeper than 256 levels: counted "
				     "for the 256 innermost only",
				  (unsigned long long)p->depth_cut);
	return t;
}

/* ---- kernels ---- */

static const char *kcat(int cat)
{
	switch (cat) {
	case -1:
		return NULL;
	case -2:
		return "runtime";
	case -3:
		return "graph";
	default:
		return tt_pm_cat_name(cat);
	}
}

static struct tt_table *ksum_table(const struct tt_perf *p, const struct tt_report_opts *o)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "Parent op category", .title = "category", .type = TT_C_STR,
				.width = 12});
	add(&c, (struct tt_col){.name = "Parent cpu_op", .title = "op", .type = TT_C_STR, .width = 28});
	add(&c, (struct tt_col){.name = "Kernel name", .title = "kernel", .type = TT_C_STR, .width = 44});
	add(&c, (struct tt_col){.name = "Kernel stream", .title = "stream", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "Kernel duration (µs)_sum", .title = "sum (us)", .type = TT_C_NUM,
				.prec = 1});
	add(&c, (struct tt_col){.name = "Kernel duration (µs)_count", .title = "count", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "Kernel duration (µs)_mean", .title = "mean (us)",
				.type = TT_C_NUM, .prec = 1});
	add(&c, (struct tt_col){.name = "Kernel duration (µs)_min", .type = TT_C_NUM, .prec = 1,
				.hidden_text = true});
	add(&c, (struct tt_col){.name = "Kernel duration (µs)_max", .type = TT_C_NUM, .prec = 1,
				.hidden_text = true});
	add(&c, (struct tt_col){.name = "Percent of kernels time (%)", .title = "of kernels",
				.type = TT_C_PCT, .prec = 1});
	add(&c, (struct tt_col){.name = "Percent of total time (%)", .title = "of span",
				.type = TT_C_PCT, .prec = 1});
	struct tt_table *t = tt_table_new("kernel_summary", c.c, c.n);
	tt_table_set_title(t, "Kernels by the op that launched them: category, op, name, stream");
	double total = p->timeline_us[TT_PMT_TOTAL];
	size_t n = top_n(o, p->nksum, 25);
	for (size_t i = 0; i < n; i++) {
		const struct tt_pm_ksum *k = &p->ksum[i];
		size_t r = tt_table_add_row(t);
		if (kcat(k->cat))
			set_s(t, r, 0, kcat(k->cat));
		if (k->parent)
			set_s(t, r, 1, k->parent);
		set_s(t, r, 2, k->name);
		tt_table_set_int(t, r, 3, k->stream);
		tt_table_set_num(t, r, 4, k->sum_us);
		tt_table_set_int(t, r, 5, (int64_t)k->count);
		tt_table_set_num(t, r, 6, k->sum_us / (double)k->count);
		tt_table_set_num(t, r, 7, k->min_us);
		tt_table_set_num(t, r, 8, k->max_us);
		tt_table_set_num(t, r, 9, p->kernels_us > 0 ? k->sum_us / p->kernels_us * 100 : NAN);
		tt_table_set_num(t, r, 10, total > 0 ? k->sum_us / total * 100 : NAN);
	}
	if (n < p->nksum)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N; CSV and JSON list all)", n,
				  p->nksum);
	tt_table_add_note(t, "of span: of the GPU timeline's total time (every rank's added); an "
			     "empty op: the kernel has no launch in the trace");
	return t;
}

static struct tt_table *short_hist_table(const struct tt_perf *p)
{
	static const struct tt_col cols[] = {
		{.name = "bin_start", .type = TT_C_NUM, .prec = 2},
		{.name = "bin_end", .type = TT_C_NUM, .prec = 2},
		{.name = "count", .type = TT_C_INT},
	};
	struct tt_table *t = tt_table_new("short_kernel_histogram", cols, 3);
	tt_table_set_title(t, "Kernels under %.0f µs: their durations (µs) in 100 bins", p->short_us);
	if (!p->nshort)
		return t;
	for (int b = 0; b < 100; b++) {
		size_t r = tt_table_add_row(t);
		double lo = p->short_min_us, hi = p->short_max_us;
		tt_table_set_num(t, r, 0, lo + (hi - lo) * b / 100.0);
		tt_table_set_num(t, r, 1, lo + (hi - lo) * (b + 1) / 100.0);
		tt_table_set_int(t, r, 2, (int64_t)p->short_hist[b]);
	}
	return t;
}

static struct tt_table *short_table(const struct tt_perf *p, const struct tt_report_opts *o)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "Parent cpu_op", .title = "op", .type = TT_C_STR, .width = 28});
	add(&c, (struct tt_col){.name = "Input dims", .title = "input dims", .type = TT_C_STR,
				.width = 24, .free_text = true});
	csv_str(&c, "Input strides");
	csv_str(&c, "Concrete Inputs");
	add(&c, (struct tt_col){.name = "Kernel name", .title = "kernel", .type = TT_C_STR, .width = 40});
	add(&c, (struct tt_col){.name = "Short Kernel duration (µs) sum", .title = "sum (us)",
				.type = TT_C_NUM, .prec = 1});
	add(&c, (struct tt_col){.name = "Short Kernel count", .title = "count", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "Short Kernel duration (µs) mean", .title = "mean (us)",
				.type = TT_C_NUM, .prec = 2});
	add(&c, (struct tt_col){.name = "Short Kernel duration (µs) percent of total time",
				.title = "of span", .type = TT_C_PCT, .prec = 2});
	struct tt_table *t = tt_table_new("short_kernels_summary", c.c, c.n);
	double total = p->timeline_us[TT_PMT_TOTAL];
	tt_table_set_title(t, "Short kernels (under %.0f µs): %llu kernels, %.3f ms, %.1f %% of the "
			      "GPU span, by op and kernel",
			   p->short_us, (unsigned long long)p->nshort, p->short_sum_us / 1e3,
			   total > 0 ? p->short_sum_us / total * 100 : 0.0);
	size_t n = top_n(o, p->nshorts, 20);
	for (size_t i = 0; i < n; i++) {
		const struct tt_pm_short *s = &p->shorts[i];
		size_t r = tt_table_add_row(t);
		if (s->parent)
			set_s(t, r, 0, s->parent);
		if (s->dims)
			set_s(t, r, 1, s->dims);
		if (s->strides)
			set_s(t, r, 2, s->strides);
		if (s->concrete)
			set_s(t, r, 3, s->concrete);
		set_s(t, r, 4, s->name);
		tt_table_set_num(t, r, 5, s->sum_us);
		tt_table_set_int(t, r, 6, (int64_t)s->count);
		tt_table_set_num(t, r, 7, s->sum_us / (double)s->count);
		tt_table_set_num(t, r, 8, total > 0 ? s->sum_us / total * 100 : NAN);
	}
	if (n < p->nshorts)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N; CSV and JSON list all)", n,
				  p->nshorts);
	return t;
}

/* ---- the GPUs ---- */

static struct tt_table *gpu_table(const struct tt_perf *p)
{
	struct cols c = {0};
	add(&c, (struct tt_col){.name = "rank", .type = TT_C_INT});
	add(&c, (struct tt_col){.name = "device", .type = TT_C_STR, .width = 28});
	add(&c, (struct tt_col){.name = "gpu", .title = "peaks of", .type = TT_C_STR, .width = 18});
	add(&c, (struct tt_col){.name = "mem_bw_gbps", .title = "GB/s", .type = TT_C_NUM, .prec = 0});
	static const char *const sp[] = {"matrix_fp32", "matrix_tf32", "matrix_bf16", "matrix_fp16",
					 "matrix_fp8", "vector_fp32"};
	for (size_t k = 0; k < TT_ARRAY_SIZE(sp); k++)
		add(&c, (struct tt_col){.name = sp[k], .type = TT_C_NUM, .prec = 1});
	add(&c, (struct tt_col){.name = "source", .type = TT_C_STR, .width = 40, .hidden_text = true});
	struct tt_table *t = tt_table_new("gpus", c.c, c.n);
	tt_table_set_title(t, "Peaks per rank (TFLOP/s, dense; memory GB/s): from deviceProperties, "
			      "--gpu-type or --peaks");
	for (size_t i = 0; i < p->nranks; i++) {
		size_t r = tt_table_add_row(t);
		const struct tt_gpu_peak *g = p->rank_gpu[i];
		tt_table_set_int(t, r, 0, p->rank[i]);
		set_s(t, r, 1, p->rank_devname[i] ? p->rank_devname[i] : "(none in the trace)");
		if (!g) {
			set_s(t, r, 2, "(not found)");
			continue;
		}
		set_s(t, r, 2, g->name);
		tt_table_set_num(t, r, 3, g->mem_gbps);
		for (size_t k = 0; k < TT_ARRAY_SIZE(sp); k++) {
			double v = g->tflops[tt_pm_spec_of(sp[k])];
			tt_table_set_num(t, r, 4 + (int)k, v > 0 ? v : NAN);
		}
		set_s(t, r, 4 + (int)TT_ARRAY_SIZE(sp), g->source ? g->source : "");
	}
	return t;
}

/* ---- collectives ---- */

static const char *cbw_kind_name(int k)
{
	static const char *const n[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
					"broadcast",  "reduce",	    "point-to-point", "other"};
	return k >= 0 && k < (int)TT_ARRAY_SIZE(n) ? n[k] : "";
}

static struct tt_table *cbw_table(const struct tt_model *m, const struct tt_coll *c,
				  const struct tt_coll_bw *b, const struct tt_report_opts *o)
{
	struct cols x = {0};
	add(&x, (struct tt_col){.name = "collective", .type = TT_C_STR, .width = 30});
	csv_str(&x, "operation");
	add(&x, (struct tt_col){.name = "kind", .type = TT_C_STR, .width = 14, .hidden_text = true});
	add(&x, (struct tt_col){.name = "algorithm", .title = "algo", .type = TT_C_STR, .width = 14});
	csv_str(&x, "group");
	add(&x, (struct tt_col){.name = "group_size", .title = "n", .type = TT_C_INT});
	add(&x, (struct tt_col){.name = "ranks_loaded", .type = TT_C_INT, .hidden_text = true});
	csv_num(&x, "step");
	add(&x, (struct tt_col){.name = "msg_size_bytes", .type = TT_C_INT, .hidden_text = true});
	add(&x, (struct tt_col){.name = "msg size", .title = "size", .type = TT_C_STR, .width = 10,
				.hidden_csv = true});
	add(&x, (struct tt_col){.name = "msg_size_MiB", .type = TT_C_NUM, .prec = 3, .hidden_text = true});
	csv_str(&x, "size_from");
	add(&x, (struct tt_col){.name = "latency(us)", .title = "latency", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "start_skew(us)", .title = "start skew", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "end_skew(us)", .title = "end skew", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "first_rank", .title = "first", .type = TT_C_INT});
	add(&x, (struct tt_col){.name = "last_rank", .title = "last", .type = TT_C_INT});
	csv_num(&x, "first_ts(us)");
	add(&x, (struct tt_col){.name = "algbw(GB/s)", .title = "algbw GB/s", .type = TT_C_NUM,
				.prec = 2});
	add(&x, (struct tt_col){.name = "busbw(GB/s)", .title = "busbw GB/s", .type = TT_C_NUM,
				.prec = 2});
	add(&x, (struct tt_col){.name = "flags", .type = TT_C_STR, .width = 10});
	struct tt_table *t = tt_table_new("collective_bandwidth", x.c, x.n);
	tt_table_set_title(t, "Collectives matched across ranks: latency, skews, who came first and "
			      "last, algorithm and bus bandwidth (GB/s = 10^9 B/s)");
	size_t n = top_n(o, b->ncolls, 30);
	char buf[160];
	for (size_t i = 0; i < n; i++) {
		const struct tt_cbw *w = &b->colls[i];
		size_t r = tt_table_add_row(t);
		tt_coll_label(c, w->coll, buf, sizeof(buf));
		set_s(t, r, 0, buf);
		set_s(t, r, 1, w->op);
		set_s(t, r, 2, cbw_kind_name(w->kind));
		set_s(t, r, 3, w->algo[0] ? w->algo : NULL);
		set_s(t, r, 4, c->groups[c->colls[w->coll].group].name);
		tt_table_set_int(t, r, 5, w->n);
		tt_table_set_int(t, r, 6, w->nparts);
		tt_table_set_num(t, r, 7, w->step >= 0 ? (double)w->step : NAN);
		if (w->bytes >= 0) {
			tt_table_set_int(t, r, 8, w->bytes);
			tt_fmt_bytes(buf, sizeof(buf), (double)w->bytes);
			if (w->input_only)
				strncat(buf, " (in)", sizeof(buf) - strlen(buf) - 1);
			set_s(t, r, 9, buf);
			tt_table_set_num(t, r, 10, (double)w->bytes / 1048576.0);
			set_s(t, r, 11, w->size_src);
		}
		tt_table_set_int(t, r, 12, w->latency);
		tt_table_set_int(t, r, 13, w->start_skew);
		tt_table_set_int(t, r, 14, w->end_skew);
		if (w->first_rank >= 0)
			tt_table_set_int(t, r, 15, w->first_rank);
		if (w->last_rank >= 0)
			tt_table_set_int(t, r, 16, w->last_rank);
		if (w->first_ts >= 0)
			tt_table_set_num(t, r, 17, (double)w->first_ts / 1e3);
		tt_table_set_num(t, r, 18, w->algbw);
		tt_table_set_num(t, r, 19, w->busbw);
		set_s(t, r, 20, (w->flags & TT_COLL_MISMATCH) ? "mismatch"
				 : (w->flags & TT_COLL_MISSING) ? "rank missing"
				 : (w->flags & TT_COLL_PARTIAL) ? "partial"
								  : NULL);
	}
	(void)m;
	if (n < b->ncolls)
		tt_table_add_note(t, "%zu of %zu collectives shown (--top N; CSV and JSON list all)", n,
				  b->ncolls);
	if (!b->ncolls)
		tt_table_add_note(t, "no collective matched across the ranks shown");
	if (b->ninput_only)
		tt_table_add_note(t, "%llu all_gathers: their size is the input (the output needs the "
				     "group's size, which the traces do not give): no bandwidth",
				  (unsigned long long)b->ninput_only);
	bool guessed = false;
	for (size_t i = 0; i < b->ncolls; i++)
		guessed |= !b->colls[i].n_known;
	if (guessed)
		tt_table_add_note(t, "n: the world size where the traces name no process group (the "
				     "bus factor assumes every rank took part)");
	if (b->nmissing)
		tt_table_add_note(t, "%llu collectives without a message size: the traces have no "
				     "In/Out msg nelems (kernel args or record_param_comms) nor Input "
				     "Dims for them, so no bandwidth",
				  (unsigned long long)b->nmissing);
	tt_table_add_note(t, "latency: the shortest kernel time over the ranks; skews on the job's "
			     "clock; size: all_gather's output, the others' input; busbw = algbw x "
			     "2(n-1)/n (all_reduce), x (n-1)/n (all_gather, reduce_scatter, "
			     "all_to_all); msg_size_MiB is TraceLens' \"MB\"; its \"GB/s\" is GiB/s");
	return t;
}

static struct tt_table *cbw_sum_table(const struct tt_coll_bw *b, const struct tt_report_opts *o)
{
	struct cols x = {0};
	add(&x, (struct tt_col){.name = "operation", .type = TT_C_STR, .width = 20});
	add(&x, (struct tt_col){.name = "group", .type = TT_C_STR, .width = 12});
	add(&x, (struct tt_col){.name = "group_size", .title = "n", .type = TT_C_INT});
	add(&x, (struct tt_col){.name = "msg_size_bytes", .type = TT_C_INT, .hidden_text = true});
	add(&x, (struct tt_col){.name = "msg size", .title = "size", .type = TT_C_STR, .width = 10,
				.hidden_csv = true});
	add(&x, (struct tt_col){.name = "count", .type = TT_C_INT});
	add(&x, (struct tt_col){.name = "latency_mean(us)", .title = "latency", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "latency_min(us)", .title = "min", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "latency_max(us)", .title = "max", .type = TT_C_DUR,
				.unit_group = 1});
	add(&x, (struct tt_col){.name = "algbw_mean(GB/s)", .title = "algbw", .type = TT_C_NUM,
				.prec = 2});
	add(&x, (struct tt_col){.name = "busbw_mean(GB/s)", .title = "busbw", .type = TT_C_NUM,
				.prec = 2});
	add(&x, (struct tt_col){.name = "busbw_median(GB/s)", .type = TT_C_NUM, .prec = 2,
				.hidden_text = true});
	add(&x, (struct tt_col){.name = "busbw_max(GB/s)", .title = "busbw max", .type = TT_C_NUM,
				.prec = 2});
	add(&x, (struct tt_col){.name = "algorithm", .title = "algo", .type = TT_C_STR, .width = 14});
	struct tt_table *t = tt_table_new("collective_bandwidth_summary", x.c, x.n);
	tt_table_set_title(t, "Collectives by operation, group and message size: latency and bus "
			      "bandwidth (GB/s = 10^9 B/s)");
	size_t n = top_n(o, b->nsums, 20);
	char buf[64];
	for (size_t i = 0; i < n; i++) {
		const struct tt_cbw_sum *s = &b->sums[i];
		size_t r = tt_table_add_row(t);
		set_s(t, r, 0, s->op);
		set_s(t, r, 1, s->group);
		tt_table_set_int(t, r, 2, s->n);
		if (s->bytes >= 0) {
			tt_table_set_int(t, r, 3, s->bytes);
			tt_fmt_bytes(buf, sizeof(buf), (double)s->bytes);
			set_s(t, r, 4, buf);
		}
		tt_table_set_int(t, r, 5, (int64_t)s->count);
		tt_table_set_int(t, r, 6, (int64_t)llround(s->lat_mean));
		tt_table_set_int(t, r, 7, (int64_t)llround(s->lat_min));
		tt_table_set_int(t, r, 8, (int64_t)llround(s->lat_max));
		tt_table_set_num(t, r, 9, s->algbw_mean);
		tt_table_set_num(t, r, 10, s->busbw_mean);
		tt_table_set_num(t, r, 11, s->busbw_median);
		tt_table_set_num(t, r, 12, s->busbw_max);
		set_s(t, r, 13, s->algo[0] ? s->algo : NULL);
	}
	if (n < b->nsums)
		tt_table_add_note(t, "%zu of %zu rows shown (--top N)", n, b->nsums);
	return t;
}

int tt_report_perf_model(struct tt_results *res, const struct tt_report_opts *o,
			 struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	const struct tt_perf *p = tt_res_perf(res);
	struct tt_table *t[TT_PMS_COUNT + 14];
	size_t k = 0;
	if (want(o, "perf_model"))
		t[k++] = byop_table(p, o);
	for (int s = 0; s < TT_PMS_COUNT; s++)
		if (want(o, tt_pm_sheet_name(s))) {
			struct tt_table *x = sheet_table(p, s, o);
			if (x)
				t[k++] = x;
		}
	if (want(o, "ops_summary_by_category"))
		t[k++] = cat_table(p);
	if (want(o, "ops_summary"))
		t[k++] = ops_table(p, o);
	if (want(o, "ops_unique_args"))
		t[k++] = unique_table(p, o);
	if (want(o, "gpu_timeline"))
		t[k++] = timeline_table(p);
	if (want(o, "kernel_summary"))
		t[k++] = ksum_table(p, o);
	if (o->table && strcmp(o->table, "short_kernel_histogram") == 0)
		t[k++] = short_hist_table(p);
	else if (!o->table && o->format != TT_FMT_TABLE)
		t[k++] = short_hist_table(p);
	if (want(o, "short_kernels_summary"))
		t[k++] = short_table(p, o);
	if (want(o, "gpus"))
		t[k++] = gpu_table(p);
	if (want(o, "collective_bandwidth_summary") || want(o, "collective_bandwidth")) {
		const struct tt_coll *c = tt_res_collectives(res);
		const struct tt_coll_bw *b = tt_res_coll_bw(res);
		if (want(o, "collective_bandwidth_summary") && (b->ncolls || o->table))
			t[k++] = cbw_sum_table(b, o);
		if (want(o, "collective_bandwidth") && (b->ncolls || o->table))
			t[k++] = cbw_table(tt_results_model(res), c, b, o);
	}
	tt_tb_give(out, n, t, k);
	return 0;
}
