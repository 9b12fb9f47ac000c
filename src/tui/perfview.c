/* Is each op fast: the perf model in the explorer.  The modelled ops by
 * kernel time with achieved TFLOP/s and TB/s, % of the roofline and the
 * bound; Enter: the op's shapes; Enter on a shape: the kernels it launched
 * and their share; m (or the Roof view): the roofline plot, log-log, the
 * shapes as points.  Every number is the typed result's (tt_res_perf). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/perfmodel.h"
#include "tracetop/render.h"
#include "tracetop/util.h"
#include "pane.h"

/* what a drill-down lists: the rows of one op, or one row */
struct pv_pick {
	char name[256];
	int sheet;
	size_t row;     /* into p->rows */
	size_t *items;  /* the table's rows: indices into p->rows */
	size_t nitems;
};

static void pick_close(struct tt_pane *p)
{
	struct pv_pick *s = p->state;
	if (s)
		free(s->items);
	free(s);
}

/* the short name of a dtype as traces write it: "float" -> "fp32" */
static const char *dtype_short(const char *t, size_t n)
{
	static const struct {
		const char *in, *out;
	} m[] = {{"float", "fp32"},	   {"c10::BFloat16", "bf16"}, {"c10::Half", "fp16"},
		 {"double", "fp64"},	   {"c10::Float8_e4m3fn", "fp8"}, {"c10::Float8_e5m2", "fp8"},
		 {"c10::Float8_e4m3fnuz", "fp8"}, {"int", "i32"}, {"long int", "i64"},
		 {"unsigned char", "u8"}, {"signed char", "i8"}, {"bool", "bool"}};
	for (size_t i = 0; i < TT_ARRAY_SIZE(m); i++)
		if (strlen(m[i].in) == n && strncmp(t, m[i].in, n) == 0)
			return m[i].out;
	return NULL;
}

/* the first type of an "Input type" list */
static const char *first_dtype(const char *types)
{
	const char *q = types ? strchr(types, '"') : NULL;
	if (!q)
		return NULL;
	const char *e = strchr(q + 1, '"');
	return e ? dtype_short(q + 1, (size_t)(e - q - 1)) : NULL;
}

/* "32x7x7x512 · 512": the tensors of an Input Dims list (at most two) */
static void dims_label(const char *dims, char *buf, size_t n)
{
	size_t l = 0;
	int shown = 0;
	buf[0] = '\0';
	const char *p = dims ? strchr(dims, '[') : NULL;
	if (!p)
		return;
	p++;
	while (*p && shown < 2 && l + 1 < n) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p != '[')
			break;
		const char *e = strchr(p, ']');
		if (!e || memchr(p + 1, '[', (size_t)(e - p - 1)))
			break; /* (a nested list: a TensorList) */
		if (e > p + 1) {
			l += (size_t)snprintf(buf + l, n - l, "%s", shown ? " · " : "");
			for (const char *c = p + 1; c < e && l + 1 < n; c++)
				if (*c != ' ')
					buf[l++] = *c == ',' ? 'x' : *c;
			buf[l] = '\0';
			shown++;
		}
		p = e + 1;
	}
}

/* "1568x2048x512 fp32" for a GEMM, "32x7x7x512 · 512 fp32" for the rest:
 * the shape and the dtype (what a row of the model stands for) */
static void shape_label(const struct tt_pm_row *w, char *buf, size_t n)
{
	const char *v[16];
	size_t nv = 0;
	const char *s = w->params;
	while (s && nv < 16) {
		v[nv++] = s;
		s = strchr(s, '\x1f');
		if (s)
			s++;
	}
	const char *dt = first_dtype(w->types);
	char sh[200];
	if (w->family == TT_PMF_GEMM && nv >= 8) {
		int m = atoi(v[0]), nn = atoi(v[1]), k = atoi(v[2]), b = atoi(v[7]);
		if (b > 1)
			snprintf(sh, sizeof(sh), "%dx %dx%dx%d", b, m, nn, k);
		else
			snprintf(sh, sizeof(sh), "%dx%dx%d", m, nn, k);
	} else if (w->family == TT_PMF_SDPA && nv >= 9) {
		snprintf(sh, sizeof(sh), "B%d H%d N%d/%d d%d%s", atoi(v[0]), atoi(v[2]), atoi(v[1]),
			 atoi(v[3]), atoi(v[5]), strncmp(v[8], "True", 4) == 0 ? " causal" : "");
	} else {
		dims_label(w->dims, sh, sizeof(sh));
	}
	snprintf(buf, n, "%s%s%s", sh[0] ? sh : "?", dt ? " " : "", dt ? dt : "");
}

static const char *spec_short(int spec)
{
	const char *s = tt_pm_spec_name(spec);
	const char *u = strchr(s, '_');
	return u ? u + 1 : s;
}

/* the name of a row of the op list: a backward row says so */
static void op_label(const char *name, int sheet, char *buf, size_t n)
{
	bool bwd = sheet == TT_PMS_SDPA_BWD || sheet == TT_PMS_REDUCE_BWD;
	snprintf(buf, n, "%s%s", name, bwd ? " (backward)" : "");
}

static void heads(struct tt_pane *p, const struct tt_perf *r)
{
	char g[160];
	tt_perf_gpu_label(r, g, sizeof(g));
	double busy = r->timeline_us[TT_PMT_BUSY], mod = 0;
	for (size_t i = 0; i < r->nrows; i++)
		if (!r->rows[i].bwd)
			mod += r->rows[i].time_us.sum;
	(void)mod;
	tt_pane_head(p, TT_ROLE_DEFAULT, "peaks of %s; roof: time at the peak FLOP/s or bandwidth, "
					 "of the time taken", g);
	if (r->gpu_unlinked)
		tt_pane_head(p, TT_ROLE_WARNING,
			     "%llu of %llu GPU ops (%.1f of %.1f ms) have no launch: no op counts them",
			     (unsigned long long)r->gpu_unlinked, (unsigned long long)r->gpu_ops,
			     r->gpu_unlinked_us / 1e3, busy / 1e3);
	for (size_t i = 0; i < r->nranks; i++)
		if (!r->rank_gpu[i]) {
			tt_pane_head(p, TT_ROLE_WARNING,
				     "rank %lld: %s: no peaks known (--gpu-type NAME or --peaks FILE)",
				     (long long)r->rank[i],
				     r->rank_devname[i] ? r->rank_devname[i] : "no deviceProperties");
			break;
		}
}

/* ---- the ops ---- */

enum { V_NAME, V_OPS, V_TIME, V_TF, V_TB, V_BOUND, V_ROOF, V_BAR, V_N };

static int perf_open(struct tt_pane *p)
{
	pick_close(p); /* (opened again after the ranks changed) */
	p->state = NULL;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (!r->nrows) {
		if (!r->any_shapes)
			snprintf(p->msg, sizeof(p->msg),
				 "no op shapes in the trace: record with torch.profiler.profile("
				 "record_shapes=True) for FLOPs and bytes; `tracetop report "
				 "perf-model` has the kernel launchers without them");
		else
			snprintf(p->msg, sizeof(p->msg), "no op with a perf model in the ranks shown%s%s",
				 r->why_first ? ": " : "", r->why_first ? r->why_first : "");
		return -1;
	}
	static const struct tt_col cols[V_N] = {
		[V_NAME] = {.name = "name", .type = TT_C_STR, .width = 30},
		[V_OPS] = {.name = "ops", .type = TT_C_INT},
		[V_TIME] = {.name = "kernel_time", .title = "time", .type = TT_C_DUR},
		[V_TF] = {.name = "tflops", .title = "TFLOP/s", .type = TT_C_NUM, .prec = 2},
		[V_TB] = {.name = "tbps", .title = "TB/s", .type = TT_C_NUM, .prec = 2},
		[V_ROOF] = {.name = "roofline_pct", .title = "roof", .type = TT_C_PCT, .prec = 0},
		[V_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = V_ROOF, .width = 5,
			   .bar_max = 100, .role = {TT_ROLE_BAR_COMP}},
		[V_BOUND] = {.name = "bound", .type = TT_C_STR, .width = 5},
	};
	struct tt_pm_opagg *v;
	size_t n = tt_perf_by_op(r, &v);
	/* row i = v[i] (kept in the pane's shared data: the drill needs it) */
	struct tt_table *t = tt_table_new("perf-model", cols, V_N);
	for (size_t i = 0; i < n; i++) {
		const struct tt_pm_opagg *a = &v[i];
		size_t k = tt_table_add_row(t);
		char nm[300];
		op_label(a->name, a->sheet, nm, sizeof(nm));
		tt_table_set_str(t, k, V_NAME, nm);
		tt_table_set_int(t, k, V_OPS, (int64_t)a->count);
		tt_table_set_int(t, k, V_TIME, (int64_t)llround(a->time_us * 1e3));
		double sec = a->time_us / 1e6;
		tt_table_set_num(t, k, V_TF, sec > 0 ? a->flops / 1e12 / sec : NAN);
		tt_table_set_num(t, k, V_TB, sec > 0 && a->bytes > 0 ? a->bytes / 1e12 / sec : NAN);
		tt_table_set_num(t, k, V_ROOF,
				 a->roof_time_us > 0 ? a->roof_us / a->roof_time_us * 100 : NAN);
		if (a->nbound_compute || a->nbound_memory)
			tt_table_set_str(t, k, V_BOUND,
					 a->nbound_compute && a->nbound_memory ? "mix"
					 : a->nbound_compute		       ? "comp"
										       : "mem");
	}
	struct pv_pick *s = tt_calloc(1, sizeof(*s));
	s->items = tt_malloc((n + 1) * sizeof(*s->items));
	for (size_t i = 0; i < n; i++)
		s->items[i] = v[i].first_row;
	s->nitems = n;
	p->state = s;
	free(v);
	tt_pane_set_table(p, t);
	heads(p, r);
	tt_pane_head(p, TT_ROLE_DIM, "bound: compute, memory, or mix (its shapes differ).  Enter: "
				     "the op's shapes   m: the roofline plot");
	return 0;
}

enum { S_SHAPE, S_OPS, S_TIME, S_TF, S_TB, S_BOUND, S_ROOF, S_BAR, S_SPEC, S_MEAN, S_N };

/* idx[0..n) (rows of r) by kernel time, longest first; equal times in
 * the rows' order */
struct by_time {
	double t;
	size_t i;
};

static int by_time_cmp(const void *a, const void *b)
{
	const struct by_time *x = a, *y = b;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void order_by_time(const struct tt_perf *r, size_t *idx, size_t n)
{
	if (n < 2)
		return;
	struct by_time *v = tt_malloc(n * sizeof(*v));
	for (size_t k = 0; k < n; k++)
		v[k] = (struct by_time){r->rows[idx[k]].time_us.sum, idx[k]};
	qsort(v, n, sizeof(*v), by_time_cmp);
	for (size_t k = 0; k < n; k++)
		idx[k] = v[k].i;
	free(v);
}

static struct tt_table *shapes_table(const struct tt_perf *r, struct pv_pick *s, bool all)
{
	static const struct tt_col cols[S_N] = {
		[S_SHAPE] = {.name = "shape", .type = TT_C_STR, .width = 30, .free_text = true},
		[S_OPS] = {.name = "ops", .type = TT_C_INT},
		[S_TIME] = {.name = "kernel_time", .title = "time", .type = TT_C_DUR},
		[S_MEAN] = {.name = "mean", .type = TT_C_DUR},
		[S_TF] = {.name = "tflops", .title = "TFLOP/s", .type = TT_C_NUM, .prec = 2},
		[S_TB] = {.name = "tbps", .title = "TB/s", .type = TT_C_NUM, .prec = 2},
		[S_ROOF] = {.name = "roofline_pct", .title = "roof", .type = TT_C_PCT, .prec = 0},
		[S_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = S_ROOF, .width = 5,
			   .bar_max = 100, .role = {TT_ROLE_BAR_COMP}},
		[S_BOUND] = {.name = "bound", .type = TT_C_STR, .width = 5},
		[S_SPEC] = {.name = "spec", .type = TT_C_STR, .width = 6},
	};
	struct tt_table *t = tt_table_new(all ? "perf-all-shapes" : "perf-shapes", cols, S_N);
	size_t cap = 0;
	char buf[300];
	/* every shape: by kernel time; one op's: in the result's order */
	size_t *order = tt_malloc((r->nrows + 1) * sizeof(*order)), no = 0;
	for (size_t i = 0; i < r->nrows; i++)
		if (all || (r->rows[i].sheet == s->sheet && strcmp(r->rows[i].name, s->name) == 0))
			order[no++] = i;
	if (all)
		order_by_time(r, order, no);
	for (size_t oi = 0; oi < no; oi++) {
		size_t i = order[oi];
		const struct tt_pm_row *w = &r->rows[i];
		TT_GROW(s->items, cap, s->nitems + 1);
		s->items[s->nitems++] = i;
		size_t k = tt_table_add_row(t);
		shape_label(w, buf, sizeof(buf));
		if (all) {
			char nb[600], nm[300];
			op_label(w->name, w->sheet, nm, sizeof(nm));
			snprintf(nb, sizeof(nb), "%s %s", nm, buf);
			tt_table_set_str(t, k, S_SHAPE, nb);
		} else {
			tt_table_set_str(t, k, S_SHAPE, buf);
		}
		tt_table_set_int(t, k, S_OPS, (int64_t)w->count);
		tt_table_set_int(t, k, S_TIME, (int64_t)llround(w->time_us.sum * 1e3));
		tt_table_set_int(t, k, S_MEAN, (int64_t)llround(w->time_us.mean * 1e3));
		tt_table_set_num(t, k, S_TF, w->tflops_all);
		tt_table_set_num(t, k, S_TB, w->tbps_all);
		tt_table_set_num(t, k, S_ROOF, w->roof_pct_all);
		if (!isnan(w->roof_us))
			tt_table_set_str(t, k, S_BOUND, w->compute_bound ? "comp" : "mem");
		char sp[16];
		snprintf(sp, sizeof(sp), "%s%s", w->spec >= TT_PMSPEC_VECTOR_FP64 ? "v-" : "",
			 spec_short(w->spec));
		tt_table_set_str(t, k, S_SPEC, w->spec >= 0 ? sp : "");
	}
	free(order);
	return t;
}

enum { K_NAME, K_STREAM, K_COUNT, K_TOTAL, K_MEAN, K_SHARE, K_BAR, K_N };

static int kern_open(struct tt_pane *p)
{
	struct pv_pick *s = p->state;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (!s || s->row >= r->nrows)
		return -1;
	const struct tt_pm_row *w = &r->rows[s->row];
	static const struct tt_col cols[K_N] = {
		[K_NAME] = {.name = "kernel", .type = TT_C_STR, .width = 44},
		[K_STREAM] = {.name = "stream", .type = TT_C_INT},
		[K_COUNT] = {.name = "count", .type = TT_C_INT},
		[K_TOTAL] = {.name = "total", .type = TT_C_DUR},
		[K_MEAN] = {.name = "mean", .type = TT_C_DUR},
		[K_SHARE] = {.name = "share", .type = TT_C_PCT, .prec = 1},
		[K_BAR] = {.name = "bar", .title = "", .type = TT_C_BAR, .bar_of = K_SHARE, .width = 12,
			   .bar_max = 100, .role = {TT_ROLE_BAR_COMP}},
	};
	struct tt_table *t = tt_table_new("perf-kernels", cols, K_N);
	double tot = 0;
	for (size_t i = 0; i < w->nkernels; i++)
		tot += (double)w->kernels[i].sum;
	for (size_t i = 0; i < w->nkernels; i++) {
		const struct tt_pm_kernel *k = &w->kernels[i];
		size_t x = tt_table_add_row(t);
		tt_table_set_str(t, x, K_NAME, k->name);
		tt_table_set_int(t, x, K_STREAM, k->stream);
		tt_table_set_int(t, x, K_COUNT, (int64_t)k->count);
		tt_table_set_int(t, x, K_TOTAL, k->sum);
		tt_table_set_int(t, x, K_MEAN, (int64_t)llround(k->mean));
		tt_table_set_num(t, x, K_SHARE, tot > 0 ? (double)k->sum / tot * 100 : NAN);
	}
	tt_pane_set_table(p, t);
	if (!w->nkernels)
		snprintf(p->msg, sizeof(p->msg), "no kernel under these ops");
	char sh[300];
	shape_label(w, sh, sizeof(sh));
	tt_pane_head(p, TT_ROLE_DEFAULT, "%.3f GFLOP, %.2f MiB each; %s; %s",
		     w->flops / 1e9, w->bytes >= 0 ? w->bytes / 1048576.0 : NAN,
		     tt_pm_spec_name(w->spec), w->gpu ? w->gpu->name : "no peaks");
	tt_pane_head(p, TT_ROLE_DIM,
		     "share: of the kernel time of these ops (their kernels' durations summed; "
		     "the op's time is their union). Enter: the timeline at the first op");
	return 0;
}

static struct tt_pane *kern_drill(struct tt_pane *p, size_t row)
{
	(void)row;
	struct pv_pick *s = p->state;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (s->row >= r->nrows)
		return NULL;
	const struct tt_pm_row *w = &r->rows[s->row];
	/* the rank index of the result's rank: the model's index */
	size_t ri = pane_rank_index(p->app->m, r->rank[w->ri]);
	return ri == SIZE_MAX ? NULL : tt_timeline_new(p->app, ri, w->ev, 0);
}

static const struct tt_pane_ops kern_ops = {
	.name = "perf-kernels",
	.title = "Op kernels",
	.help = "The kernels launched under the ops of one shape (one row of the perf model): "
		"stream, count, total and mean duration, and their share of the kernels' time.  "
		"Enter opens the timeline at the first op of the shape.",
	.open = kern_open,
	.close = pick_close,
	.drill = kern_drill,
	.needs = TT_NEED(TT_RES_PERF),
};

static int shapes_open(struct tt_pane *p)
{
	struct pv_pick *s = p->state;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (!s)
		return -1;
	free(s->items);
	s->items = NULL;
	s->nitems = 0;
	struct tt_table *t = shapes_table(r, s, false);
	tt_pane_set_table(p, t);
	if (!t->nrows) {
		snprintf(p->msg, sizeof(p->msg), "no shape of %s in the ranks shown", s->name);
		return -1;
	}
	const struct tt_pm_row *w = &r->rows[s->items[0]];
	tt_pane_head(p, TT_ROLE_DEFAULT, "%s (%s): %s", s->name, tt_pm_sheet_name(s->sheet),
		     w->gpu ? w->gpu->name : "no peaks");
	tt_pane_head(p, TT_ROLE_DIM, "spec: the peak rated against (v-: vector units). Enter: "
				     "the kernels and their share");
	return 0;
}

static struct tt_pane *shapes_drill(struct tt_pane *p, size_t row)
{
	struct pv_pick *ps = p->state;
	if (row >= ps->nitems)
		return NULL;
	struct tt_pane *np = tt_pane_new(p->app, &kern_ops);
	struct pv_pick *s = tt_calloc(1, sizeof(*s));
	s->row = ps->items[row];
	np->state = s;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	char sh[200];
	shape_label(&r->rows[s->row], sh, sizeof(sh));
	snprintf(np->subtitle, sizeof(np->subtitle), "%.80s %.100s", r->rows[s->row].name, sh);
	return np;
}

static const struct tt_pane_ops shapes_ops = {
	.name = "perf-shapes",
	.title = "Op shapes",
	.help = "One modelled op's parameter sets (its shapes and dtypes): ops, kernel time "
		"(total and mean), achieved TFLOP/s and TB/s, % of the roofline and the bound, the "
		"compute class rated against.  Enter lists the kernels of the shape.",
	.open = shapes_open,
	.close = pick_close,
	.drill = shapes_drill,
	.needs = TT_NEED(TT_RES_PERF),
};

/* every shape of every op, by kernel time: the side-by-side of a diff per
 * shape */
static int allshapes_open(struct tt_pane *p)
{
	pick_close(p);
	p->state = NULL;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (!r->nrows) {
		snprintf(p->msg, sizeof(p->msg), "no modelled op in the ranks shown (record_shapes=True "
						 "gives the shapes)");
		return -1;
	}
	struct pv_pick *s = tt_calloc(1, sizeof(*s));
	p->state = s;
	struct tt_table *t = shapes_table(r, s, true);
	t->cols[S_SHAPE].width = 44;
	tt_pane_set_table(p, t);
	heads(p, r);
	tt_pane_head(p, TT_ROLE_DIM, "every op shape by kernel time. Enter: its kernels");
	return 0;
}

static const struct tt_pane_diff allshapes_diff = {
	.nkeys = 1, /* op and shape */
	.cols = {S_TF, S_TIME, S_TB, S_ROOF, S_OPS},
	.ncols = 5,
	.rank_col = -1,
	.more_is = 1,
	.what = "achieved TFLOP/s and kernel time per op and shape",
};

const struct tt_pane_ops tt_perf_shapes_ops = {
	.name = "perf-all-shapes",
	.title = "Op shapes",
	.help = "Every modelled op shape (one row of the perf model each: an op name and its "
		"parameter set) by kernel time: ops, achieved TFLOP/s and TB/s, % of the "
		"roofline, the bound, the peak rated against.  In a diff, side by side: the change "
		"in achieved TFLOP/s per op and shape first.  Enter lists the kernels.",
	.open = allshapes_open,
	.close = pick_close,
	.drill = shapes_drill,
	.needs = TT_NEED(TT_RES_PERF),
	.diff = &allshapes_diff,
};

static struct tt_pane *perf_drill(struct tt_pane *p, size_t row)
{
	struct pv_pick *ps = p->state;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	if (!ps || row >= ps->nitems || ps->items[row] >= r->nrows)
		return NULL;
	const struct tt_pm_row *w = &r->rows[ps->items[row]];
	struct tt_pane *np = tt_pane_new(p->app, &shapes_ops);
	struct pv_pick *s = tt_calloc(1, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", w->name);
	s->sheet = w->sheet;
	np->state = s;
	snprintf(np->subtitle, sizeof(np->subtitle), "%.150s", w->name);
	return np;
}

static int perf_key(struct tt_pane *p, enum tt_action a)
{
	if (a == TT_ACT_NEXT_METRIC) {
		tt_ui_open_view(p->app, "roofline");
		return TT_R_REDRAW;
	}
	return TT_R_UNHANDLED;
}

static const struct tt_pane_diff perf_diff = {
	.nkeys = 1, /* name (with "(backward)") */
	.cols = {V_TF, V_TIME, V_TB, V_ROOF, V_OPS},
	.ncols = 5,
	.rank_col = -1,
	.more_is = 1,
	.what = "achieved TFLOP/s and kernel time per op",
};

const struct tt_pane_ops tt_perf_ops = {
	.name = "perf-model",
	.title = "Perf model",
	.help = "Is each op fast: every op with a perf model (GEMMs, convolutions, attention, "
		"norms, elementwise, reductions; TraceLens' models) by the time of the kernels "
		"it launched, with its FLOPs and bytes from the recorded shapes and dtypes "
		"(record_shapes=True): achieved TFLOP/s and TB/s, % of the roofline (the time it "
		"would take at the GPU's peak for its precision, or at the memory bandwidth, "
		"whichever is longer) and whether compute or memory bounds it.  The peaks are the "
		"GPU's deviceProperties name's (--gpu-type, --peaks to choose).  Enter lists the "
		"op's shapes, then a shape's kernels; m shows the roofline plot.  `tracetop report "
		"perf-model` has TraceLens' tables.",
	.open = perf_open,
	.close = pick_close,
	.drill = perf_drill,
	.key = perf_key,
	.needs = TT_NEED(TT_RES_PERF),
	.diff = &perf_diff,
};

/* ---- the roofline plot ---- */

#define MAXPTS 26

struct roof_state {
	size_t rows[MAXPTS]; /* into p->rows: the points, by kernel time */
	size_t n;
	size_t cur;
	double x[MAXPTS], y[MAXPTS]; /* FLOP/B, TFLOP/s */
	double pct[MAXPTS];
	const struct tt_gpu_peak *gpu;
	int specs[3];
	int nspecs;
};

static int roof_open(struct tt_pane *p)
{
	const struct tt_perf *r = tt_res_perf(p->app->res);
	free(p->state);
	struct roof_state *st = tt_calloc(1, sizeof(*st));
	p->state = st;
	/* the shapes with time, FLOPs and bytes, by kernel time */
	size_t *idx = tt_malloc((r->nrows + 1) * sizeof(*idx)), ni = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct tt_pm_row *w = &r->rows[i];
		if (w->time_us.sum > 0 && w->flops > 0 && w->bytes > 0)
			idx[ni++] = i;
	}
	order_by_time(r, idx, ni);
	double spec_time[TT_PM_NSPEC] = {0};
	for (size_t k = 0; k < ni && st->n < MAXPTS; k++) {
		const struct tt_pm_row *w = &r->rows[idx[k]];
		st->rows[st->n] = idx[k];
		st->x[st->n] = w->flops / w->bytes;
		st->y[st->n] = w->tflops_all;
		st->pct[st->n] = w->roof_pct_all;
		if (!st->gpu)
			st->gpu = w->gpu;
		if (w->spec >= 0)
			spec_time[w->spec] += w->time_us.sum;
		st->n++;
	}
	free(idx);
	if (!st->n) {
		snprintf(p->msg, sizeof(p->msg),
			 "no op with FLOPs, bytes and kernel time to plot (record_shapes=True)");
		return -1;
	}
	/* the ceilings: the compute classes with most time, up to three */
	for (int k = 0; k < 3; k++) {
		int best = -1;
		for (int sp = 0; sp < TT_PM_NSPEC; sp++) {
			bool used = false;
			for (int j = 0; j < st->nspecs; j++)
				used |= st->specs[j] == sp;
			if (!used && spec_time[sp] > 0 && (best < 0 || spec_time[sp] > spec_time[best]))
				best = sp;
		}
		if (best >= 0 && tt_gpu_peak_of(st->gpu, best, NULL) > 0)
			st->specs[st->nspecs++] = best;
	}
	return 0;
}

/* log10 axis: value -> cell in [0, n) from lo to hi decades */
static int axis(double v, double lo, double hi, int n)
{
	double f = (log10(v) - lo) / (hi - lo);
	int c = (int)floor(f * n);
	return c < 0 ? 0 : c >= n ? n - 1 : c;
}

static void decade_label(char *buf, size_t n, double e)
{
	double v = pow(10, e);
	if (e >= 3)
		snprintf(buf, n, "1e%d", (int)e);
	else if (e >= 0)
		snprintf(buf, n, "%g", v);
	else
		snprintf(buf, n, "1e%d", (int)e);
}

static void roof_draw(struct tt_pane *p, struct tt_grid *g, int y0, int h)
{
	struct roof_state *st = p->state;
	const struct tt_perf *r = tt_res_perf(p->app->res);
	int w = g->w;
	bool side = w >= 110;
	int lw = side ? TT_MAX(43, TT_MIN(64, w - 72)) : w; /* the legend's width */
	int legend_rows = side ? 0 : (int)TT_MIN(st->n, (size_t)TT_MAX(2, h / 4));
	int top = y0, plot_h = h - 3 - legend_rows, lm = 7;
	int plot_w = (side ? w - lw - 1 : w) - lm - 1;
	if (plot_h < 5 || plot_w < 20) {
		tt_grid_put(g, 0, y0, TT_ROLE_DIM, "the terminal is too small for the plot", w);
		return;
	}
	if (!st->n) {
		tt_grid_put(g, 0, y0, TT_ROLE_DIM,
			    "no op with FLOPs, bytes and kernel time to plot (record_shapes=True)", w);
		return;
	}
	/* ranges: decades covering the points and the ridge */
	const struct tt_gpu_peak *gpu = st->gpu;
	double xlo = 1e9, xhi = -1e9, ylo = 1e9, yhi = -1e9;
	for (size_t i = 0; i < st->n; i++) {
		xlo = TT_MIN(xlo, log10(st->x[i]));
		xhi = TT_MAX(xhi, log10(st->x[i]));
		ylo = TT_MIN(ylo, log10(st->y[i]));
		yhi = TT_MAX(yhi, log10(st->y[i]));
	}
	double bw = gpu ? gpu->mem_gbps : 0;
	for (int k = 0; k < st->nspecs; k++) {
		double pk = tt_gpu_peak_of(gpu, st->specs[k], NULL);
		yhi = TT_MAX(yhi, log10(pk));
		if (bw > 0)
			xhi = TT_MAX(xhi, log10(pk * 1000 / bw));
	}
	xlo = floor(xlo), xhi = ceil(xhi + 1e-9), ylo = floor(ylo), yhi = ceil(yhi + 1e-9);
	/* at most 6 decades down from the top: slower ops sit on the bottom row */
	if (yhi - ylo > 6)
		ylo = yhi - 6;
	if (xhi - xlo > 7)
		xlo = xhi - 7;
	if (xhi - xlo < 1)
		xhi = xlo + 1;
	if (yhi - ylo < 1)
		yhi = ylo + 1;
	int x0 = lm;
	/* frame and labels */
	char lb[32];
	for (int row = 0; row < plot_h; row++)
		tt_grid_put(g, x0 - 1, top + row, TT_ROLE_DIM, "|", 1);
	tt_grid_fill(g, x0, top + plot_h, plot_w, '-', TT_ROLE_DIM);
	for (double e = ylo; e <= yhi + 1e-9; e++) {
		int row = plot_h - 1 - axis(pow(10, e) * (e < yhi ? 1.0001 : 0.9999), ylo, yhi, plot_h);
		decade_label(lb, sizeof(lb), e);
		tt_grid_put(g, 0, top + row, TT_ROLE_DIM, lb, lm - 1);
	}
	for (double e = xlo; e <= xhi + 1e-9; e++) {
		int col = axis(pow(10, e) * (e < xhi ? 1.0001 : 0.9999), xlo, xhi, plot_w);
		decade_label(lb, sizeof(lb), e);
		int len = (int)strlen(lb);
		int at = x0 + col - (e >= xhi ? len - 1 : 0);
		tt_grid_put(g, TT_MAX(0, at), top + plot_h + 1, TT_ROLE_DIM, lb, len);
	}
	/* what the axes are; the roofs are named at their right end */
	char ax[200];
	snprintf(ax, sizeof(ax), "y TFLOP/s, x FLOP/B; +: ops in one place; memory %.4g GB/s", bw);
	tt_grid_put(g, 0, top + plot_h + 2, TT_ROLE_DIM, ax, w);
	/* the roofs: min(peak, bandwidth x intensity) per column; then their
	 * names at the right end of each ceiling */
	bool ascii = tt_render_ascii();
	for (int k = 0; k < st->nspecs && bw > 0; k++) {
		double pk = tt_gpu_peak_of(gpu, st->specs[k], NULL);
		for (int c = 0; c < plot_w; c++) {
			double xi = pow(10, xlo + (xhi - xlo) * (c + 0.5) / plot_w);
			double roof = TT_MIN(pk, bw * xi / 1000);
			if (log10(roof) < ylo || log10(roof) > yhi + 1e-9)
				continue;
			int row = plot_h - 1 - axis(roof, ylo, yhi, plot_h);
			const char *ch = roof >= pk ? (ascii ? "-" : "─") : (ascii ? "/" : "╱");
			tt_grid_put(g, x0 + c, top + row, TT_ROLE_BAR_IDLE, ch, 1);
		}
	}
	/* each ceiling's name and peak at its right end, above the line when
	 * there is room (equal peaks share one label) */
	for (int k = 0; k < st->nspecs; k++) {
		double pk = tt_gpu_peak_of(gpu, st->specs[k], NULL);
		bool seen = false;
		for (int j = 0; j < k; j++)
			seen |= tt_gpu_peak_of(gpu, st->specs[j], NULL) == pk;
		if (seen || log10(pk) < ylo || log10(pk) > yhi + 1e-9)
			continue;
		char lab[80];
		size_t ll = 0;
		for (int j = k; j < st->nspecs && ll < sizeof(lab); j++)
			if (tt_gpu_peak_of(gpu, st->specs[j], NULL) == pk)
				ll += (size_t)snprintf(lab + ll, sizeof(lab) - ll, "%c-%s ",
						       st->specs[j] < TT_PMSPEC_VECTOR_FP64 ? 'm' : 'v',
						       spec_short(st->specs[j]));
		if (ll < sizeof(lab))
			snprintf(lab + ll, sizeof(lab) - ll, "%.4g", pk);
		int len = (int)strlen(lab);
		int row = plot_h - 1 - axis(pk, ylo, yhi, plot_h);
		if (row > 0)
			row--;
		if (len < plot_w)
			tt_grid_put(g, x0 + plot_w - len, top + row, TT_ROLE_DIM, lab, len);
	}
	/* the points: the chosen one last, so that it shows whatever shares
	 * its place; a place with two or more ops shows + */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < st->n; i++) {
			if ((i == st->cur) != (pass == 1))
				continue;
			int c = axis(st->x[i], xlo, xhi, plot_w);
			int row = plot_h - 1 - axis(st->y[i], ylo, yhi, plot_h);
			struct tt_gcell *cell = tt_grid_at(g, x0 + c, top + row);
			char ch[2] = {(char)('a' + (int)i), 0};
			bool busy = (cell->cp >= 'a' && cell->cp <= 'z') || cell->cp == '+';
			if (pass == 0 && busy)
				ch[0] = '+';
			tt_grid_put(g, x0 + c, top + row, pass ? TT_ROLE_CURSOR : TT_ROLE_MARKED, ch, 1);
		}
	/* the legend */
	int lx = side ? w - lw : 0, ly = side ? top : top + plot_h + 3;
	int lrows = side ? plot_h + 3 : legend_rows;
	size_t first = st->cur >= (size_t)lrows ? st->cur - (size_t)lrows + 1 : 0;
	for (int k = 0; k < lrows && first + (size_t)k < st->n; k++) {
		size_t i = first + (size_t)k;
		const struct tt_pm_row *wr = &r->rows[st->rows[i]];
		char sh[120], line[400];
		shape_label(wr, sh, sizeof(sh));
		char pc[16];
		if (isnan(st->pct[i]))
			snprintf(pc, sizeof(pc), "   -");
		else
			snprintf(pc, sizeof(pc), "%3.0f%%", st->pct[i]);
		/* the name and the shape share what the prefix leaves, the
		 * name first; each cut shows an ellipsis */
		char name[200], shape[120];
		int n0 = snprintf(line, sizeof(line), "%c %s %.2f TF/s ", (char)('a' + (int)i), pc,
				  st->y[i]);
		size_t room = lw > n0 + 1 ? (size_t)(lw - n0 - 1) : 0;
		size_t shw = tt_utf8_width(sh), nw = tt_utf8_width(wr->name);
		size_t ncols = TT_MIN(nw, TT_MAX(room / 2, room > shw ? room - shw : 0));
		tt_name_fit(name, sizeof(name), wr->name, ncols);
		tt_utf8_fit(shape, sizeof(shape), sh, room - tt_utf8_width(name));
		snprintf(line + n0, sizeof(line) - (size_t)n0, "%s %s", name, shape);
		tt_grid_put(g, lx, ly + k, i == st->cur ? TT_ROLE_CURSOR : TT_ROLE_DEFAULT, line, lw);
	}
	(void)r;
}

static int roof_key(struct tt_pane *p, enum tt_action a)
{
	struct roof_state *st = p->state;
	if (!st || !st->n)
		return TT_R_UNHANDLED;
	switch (a) {
	case TT_ACT_MOVE_DOWN:
	case TT_ACT_MOVE_RIGHT:
		if (st->cur + 1 < st->n)
			st->cur++;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_UP:
	case TT_ACT_MOVE_LEFT:
		if (st->cur > 0)
			st->cur--;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_FIRST:
		st->cur = 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_LAST:
		st->cur = st->n - 1;
		return TT_R_REDRAW;
	case TT_ACT_ENTER: {
		const struct tt_perf *r = tt_res_perf(p->app->res);
		struct tt_pane *np = tt_pane_new(p->app, &kern_ops);
		struct pv_pick *s = tt_calloc(1, sizeof(*s));
		s->row = st->rows[st->cur];
		np->state = s;
		char sh[200];
		shape_label(&r->rows[s->row], sh, sizeof(sh));
		snprintf(np->subtitle, sizeof(np->subtitle), "%.80s %.100s", r->rows[s->row].name, sh);
		tt_ui_open(p->app, np);
		return TT_R_REDRAW;
	}
	default:
		return TT_R_UNHANDLED;
	}
}

const struct tt_pane_ops tt_roofline_ops = {
	.name = "roofline",
	.title = "Roofline",
	.help = "The roofline of the GPU, log-log: achieved TFLOP/s against FLOP per byte, "
		"the memory slope (bandwidth x intensity) up to the compute ceiling of each "
		"precision the ops run at (up to three, each named at its right end), and the op "
		"shapes with most kernel time as points a, b, c... (+ where two fall on one cell; "
		"the selected one shows its letter), listed with their % of the "
		"roofline.  Up/down selects a point, Enter lists its kernels.",
	.open = roof_open,
	.close = pane_free_state,
	.draw = roof_draw,
	.key = roof_key,
	.needs = TT_NEED(TT_RES_PERF),
};
