/* One op's performance model: FLOPs and bytes from its recorded args.
 *
 * The op list, the categories and the formulas are TraceLens'
 * (TraceLens/PerfModel/perf_model.py and torch_op_mapping.py, commit
 * 171dd74); its parameter values are written as Python's repr() writes
 * them, so rows group as TraceLens' do.  Where TraceLens is wrong, the
 * comment at the formula says what it does and why ours differs:
 *
 *   - it reads "Input Strides" for every elementwise, norm and flash
 *     attention op and fails without them (traces before PyTorch 2.1 have
 *     none): those ops get no row at all; strides change no FLOP or byte,
 *     so tracetop models them without;
 *   - "Concrete Inputs" are strings in traces: its reductions test them
 *     for bool and int values, find none, and take every reduction as one
 *     over all elements (output 1 element); its batch norm takes
 *     bool("False") as training;
 *   - an absent tensor is [] in "Input Dims", never None: its norms take
 *     every weight and bias as present;
 *   - layer norm's mean and rstd are per row (N / prod(normalized_shape)
 *     of them), not per normalized element;
 *   - _scaled_mm records all 8 args, so its `len(Input Dims) == 3` never
 *     sees the bias (argument 4);
 *   - addmm/baddbmm bias bytes: the bias tensor's own size (it assumes N);
 *   - convolution backward: the gradients output_mask asks for, and the
 *     bias gradient's bytes in bytes (it adds elements);
 *   - causal attention with N_Q != N_KV: the aligned mask's share of
 *     (q, k) pairs (it refuses the op).
 * Everything else is TraceLens' to the FLOP. */
#include "config.h"

#include "tracetop/perfmodel.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* ---- names ---- */

static const char *const cat_names[] = {
#define _(id, s) s,
	TT_PM_CATS(_)
#undef _
};
static const char *const sheet_names[] = {
#define _(id, s) s,
	TT_PM_SHEETS(_)
#undef _
};
static const char *const spec_names[] = {
#define _(id, s) s,
	TT_PM_SPECS(_)
#undef _
};

const char *tt_pm_cat_name(int cat)
{
	return cat >= 0 && cat < TT_PMC_COUNT ? cat_names[cat] : "";
}

const char *tt_pm_sheet_name(int sheet)
{
	return sheet >= 0 && sheet < TT_PMS_COUNT ? sheet_names[sheet] : "";
}

const char *tt_pm_spec_name(int spec)
{
	return spec >= 0 && spec < TT_PM_NSPEC ? spec_names[spec] : "";
}

int tt_pm_spec_of(const char *s)
{
	for (int i = 0; i < TT_PM_NSPEC; i++)
		if (strcmp(s, spec_names[i]) == 0)
			return i;
	return TT_PMSPEC_NONE;
}

const char *const *tt_pm_param_keys(enum tt_pm_family f, size_t *n)
{
	static const char *const gemm[] = {"M",	 "N",	     "K",	  "bias",
					   "stride_A", "stride_B", "dtype_A_B", "B"};
	static const char *const conv[] = {
		"convNd",	"input_shape", "filter_shape",	  "dtype_input_weight",
		"input_stride", "weight_stride", "bias",	  "stride",
		"padding",	"dilation",    "transposed_conv", "output_padding",
		"groups"};
	static const char *const sdpa[] = {"B",      "N_Q",	  "H_Q",   "N_KV",
					   "H_KV",   "d_h_qk",	  "d_h_v", "dropout",
					   "causal", "flash_impl", "dtype_A_B"};
	static const char *const norm[] = {"op_shape",	   "dtype_in_out", "stride_input",
					   "stride_output", "num_channels", "has_bias",
					   "is_affine",	   "is_training",  "output_mask"};
	static const char *const unary[] = {"op_shape", "dtype_in_out", "stride_input",
					    "stride_output"};
	static const char *const binary[] = {"shape_in1",     "shape_in2",
					     "dtype_in1_in2_out", "stride_input1",
					     "stride_input2", "stride_output"};
	static const char *const reduce[] = {"num_input_elems", "num_output_elems",
					     "dtype_in_out", "reduce_type"};
	switch (f) {
	case TT_PMF_GEMM:
		*n = TT_ARRAY_SIZE(gemm);
		return gemm;
	case TT_PMF_CONV:
		*n = TT_ARRAY_SIZE(conv);
		return conv;
	case TT_PMF_SDPA:
		*n = TT_ARRAY_SIZE(sdpa);
		return sdpa;
	case TT_PMF_NORM:
		*n = TT_ARRAY_SIZE(norm);
		return norm;
	case TT_PMF_UNARY:
		*n = TT_ARRAY_SIZE(unary);
		return unary;
	case TT_PMF_BINARY:
		*n = TT_ARRAY_SIZE(binary);
		return binary;
	case TT_PMF_REDUCE:
		*n = TT_ARRAY_SIZE(reduce);
		return reduce;
	case TT_PMF_COUNT:
		break;
	}
	*n = 0;
	return NULL;
}

/* ---- dtypes ---- */

static bool lower_eq(const char *s, size_t n, const char *lit)
{
	size_t i = 0;
	for (; i < n && lit[i]; i++)
		if (tolower((unsigned char)s[i]) != lit[i])
			return false;
	return i == n && !lit[i];
}

static const struct {
	const char *name; /* lower case */
	int bpe, prec;
} dtypes[] = {
	{"float", 4, 32},
	{"c10::float", 4, 32},
	{"float32", 4, 32},
	{"double", 8, 64},
	{"c10::double", 8, 64},
	{"float64", 8, 64},
	{"c10::half", 2, 16},
	{"half", 2, 16},
	{"float16", 2, 16},
	{"c10::bfloat16", 2, 17},
	{"bfloat16", 2, 17},
	{"c10::float8_e4m3fn", 1, 8},
	{"c10::float8_e4m3fnuz", 1, 8},
	{"c10::float8_e5m2", 1, 8},
	{"c10::float8_e5m2fnuz", 1, 8},
	{"c10::float8_e8m0fnu", 1, 8},
	{"fp8", 1, 8},
	{"signed char", 1, 1},
	{"int8", 1, 1},
	/* uint8: TraceLens takes it for fp8; it is an integer type */
	{"unsigned char", 1, 1},
	{"uint8", 1, 1},
	{"int", 4, 0},
	{"int32", 4, 0},
	{"long int", 8, 0},
	{"long", 8, 0},
	{"int64", 8, 0},
	{"long long", 8, 0},
	{"short", 2, 0},
	{"short int", 2, 0},
	{"int16", 2, 0},
	{"bool", 1, 0},
	{"c10::complex<float>", 8, 0},
	{"c10::complex<double>", 16, 0},
};

/* Bytes per element of a dtype as traces write it ("float", "c10::Half",
 * "c10::BFloat16", "c10::Float8_e4m3fn", "long int", ...); 0: unknown or
 * not a tensor ("Scalar", "").  Precision class: 64, 32, 16 (fp16), 17
 * (bf16), 8 (fp8), 1 (int8/uint8), 0 (none: integers wider than a byte,
 * bool, unknown). */
static int tt_pm_dtype_bpe(const char *s, size_t n)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(dtypes); i++)
		if (lower_eq(s, n, dtypes[i].name))
			return dtypes[i].bpe;
	return 0;
}

static int tt_pm_dtype_prec(const char *s, size_t n)
{
	for (size_t i = 0; i < TT_ARRAY_SIZE(dtypes); i++)
		if (lower_eq(s, n, dtypes[i].name))
			return dtypes[i].prec;
	return 0;
}

static int spec_for(bool matrix, int prec)
{
	switch (prec) {
	case 64:
		return matrix ? TT_PMSPEC_MATRIX_FP64 : TT_PMSPEC_VECTOR_FP64;
	case 32:
		return matrix ? TT_PMSPEC_MATRIX_FP32 : TT_PMSPEC_VECTOR_FP32;
	case 16:
		return matrix ? TT_PMSPEC_MATRIX_FP16 : TT_PMSPEC_VECTOR_FP16;
	case 17:
		return matrix ? TT_PMSPEC_MATRIX_BF16 : TT_PMSPEC_VECTOR_BF16;
	case 8:
		return matrix ? TT_PMSPEC_MATRIX_FP8 : TT_PMSPEC_NONE;
	case 1:
		return matrix ? TT_PMSPEC_MATRIX_INT8 : TT_PMSPEC_NONE;
	default:
		return TT_PMSPEC_NONE;
	}
}

/* ---- the recorded args ---- */

#define MAXIN 40 /* args looked at */
#define MAXD 8   /* dimensions of one tensor */

struct slice {
	const char *p;
	size_t n;
};

/* one entry of Input Dims / Input Strides */
struct shape {
	int nd;          /* -1: not a flat list of integers (TensorList, ...) */
	int64_t d[MAXD];
};

struct args {
	const char *name;
	int ndims, ntypes, nstrides, nconc; /* -1: the arg is absent */
	struct shape dims[MAXIN], strides[MAXIN];
	struct slice types[MAXIN], conc[MAXIN];
};

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The items of a JSON list [a, b, ...] as slices (at most max kept);
 * returns how many, or -1 when s is not a list. */
static int split_list(const char *s, struct slice *out, int max)
{
	if (!s)
		return -1;
	const char *end = s + strlen(s), *p = skip_ws(s, end);
	if (p >= end || *p != '[')
		return -1;
	p = skip_ws(p + 1, end);
	int n = 0;
	if (p < end && *p == ']')
		return 0;
	while (p < end) {
		const char *a = p;
		int depth = 0;
		bool str = false;
		for (; p < end; p++) {
			char c = *p;
			if (str) {
				if (c == '\\' && p + 1 < end)
					p++;
				else if (c == '"')
					str = false;
			} else if (c == '"') {
				str = true;
			} else if (c == '[' || c == '{') {
				depth++;
			} else if (c == ']' || c == '}') {
				if (depth == 0)
					break;
				depth--;
			} else if (c == ',' && depth == 0) {
				break;
			}
		}
		const char *b = p;
		while (b > a && (b[-1] == ' ' || b[-1] == '\n' || b[-1] == '\t' || b[-1] == '\r'))
			b--;
		if (n < max)
			out[n] = (struct slice){a, (size_t)(b - a)};
		n++;
		if (p >= end || *p == ']')
			break;
		p = skip_ws(p + 1, end);
	}
	return n > max ? max : n;
}

/* a flat list of integers "[2, 3]" (a JSON list or the text of a
 * Concrete Inputs string) */
static void parse_shape(struct slice s, struct shape *sh)
{
	sh->nd = -1;
	const char *p = s.p, *end = s.p + s.n;
	p = skip_ws(p, end);
	if (p >= end || *p != '[')
		return;
	p = skip_ws(p + 1, end);
	int nd = 0;
	if (p < end && *p == ']') {
		sh->nd = 0;
		return;
	}
	while (p < end) {
		if (!(isdigit((unsigned char)*p) || *p == '-'))
			return;
		char *e;
		long long v = strtoll(p, &e, 10);
		if (e == p || e > end)
			return;
		if (nd < MAXD)
			sh->d[nd] = v;
		nd++;
		p = skip_ws(e, end);
		if (p < end && *p == ',') {
			p = skip_ws(p + 1, end);
			continue;
		}
		if (p < end && *p == ']')
			break;
		return;
	}
	if (nd > MAXD)
		return;
	sh->nd = nd;
}

/* the text of a JSON string item (its quotes off; escapes kept) */
static struct slice unquote(struct slice s)
{
	if (s.n >= 2 && s.p[0] == '"' && s.p[s.n - 1] == '"')
		return (struct slice){s.p + 1, s.n - 2};
	return s;
}

static void parse_args(const struct tt_pm_args *a, struct args *x)
{
	struct slice it[MAXIN];
	x->name = a->name;
	x->ndims = split_list(a->dims, it, MAXIN);
	for (int i = 0; i < x->ndims; i++)
		parse_shape(it[i], &x->dims[i]);
	x->nstrides = split_list(a->strides, it, MAXIN);
	for (int i = 0; i < x->nstrides; i++)
		parse_shape(it[i], &x->strides[i]);
	x->ntypes = split_list(a->types, x->types, MAXIN);
	for (int i = 0; i < x->ntypes; i++)
		x->types[i] = unquote(x->types[i]);
	x->nconc = split_list(a->concrete, x->conc, MAXIN);
	for (int i = 0; i < x->nconc; i++)
		x->conc[i] = unquote(x->conc[i]);
}

static const struct shape *dim(const struct args *x, int i)
{
	static const struct shape none = {.nd = -1};
	return i < x->ndims ? &x->dims[i] : &none;
}

static struct slice type(const struct args *x, int i)
{
	return i < x->ntypes ? x->types[i] : (struct slice){"", 0};
}

static struct slice conc(const struct args *x, int i)
{
	return i < x->nconc ? x->conc[i] : (struct slice){"", 0};
}

static int bpe(const struct args *x, int i)
{
	struct slice t = type(x, i);
	return tt_pm_dtype_bpe(t.p, t.n);
}

static int prec(const struct args *x, int i)
{
	struct slice t = type(x, i);
	return tt_pm_dtype_prec(t.p, t.n);
}

static double numel(const struct shape *s)
{
	double v = 1;
	for (int i = 0; i < s->nd; i++)
		v *= (double)s->d[i];
	return v;
}

static bool slice_is(struct slice s, const char *lit)
{
	return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

/* a bool of Concrete Inputs: "True", "False" (1/0 too); -1 when neither */
static int conc_bool(const struct args *x, int i)
{
	struct slice s = conc(x, i);
	if (slice_is(s, "True") || slice_is(s, "true") || slice_is(s, "1"))
		return 1;
	if (slice_is(s, "False") || slice_is(s, "false") || slice_is(s, "0"))
		return 0;
	return -1;
}

static double conc_num(const struct args *x, int i, double dflt)
{
	struct slice s = conc(x, i);
	if (!s.n || slice_is(s, "None"))
		return dflt;
	char buf[64];
	size_t n = TT_MIN(s.n, sizeof(buf) - 1);
	memcpy(buf, s.p, n);
	buf[n] = '\0';
	char *e;
	double v = strtod(buf, &e);
	return e == buf ? dflt : v;
}

/* an int list of Concrete Inputs ("[1, 1]", or one int "2"); nd -1: none */
static void conc_ints(const struct args *x, int i, struct shape *sh)
{
	struct slice s = conc(x, i);
	sh->nd = -1;
	if (!s.n)
		return;
	if (s.p[0] == '[') {
		parse_shape(s, sh);
		return;
	}
	char buf[32];
	size_t n = TT_MIN(s.n, sizeof(buf) - 1);
	memcpy(buf, s.p, n);
	buf[n] = '\0';
	char *e;
	long long v = strtoll(buf, &e, 10);
	if (e != buf && !*e) {
		sh->nd = 1;
		sh->d[0] = v;
	}
}

/* ---- Python repr() of parameter values ---- */

struct out {
	char *p;
	size_t n, cap;
	bool first;
};

static void put(struct out *o, const char *fmt, ...) TT_PRINTF(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	if (o->n >= o->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->p + o->n, o->cap - o->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n = TT_MIN(o->n + (size_t)k, o->cap - 1);
}

/* the start of the next value */
static void next(struct out *o)
{
	if (!o->first)
		put(o, "\x1f");
	o->first = false;
}

static void p_int(struct out *o, double v)
{
	next(o);
	put(o, "%.0f", v);
}

static void p_num(struct out *o, double v)
{
	next(o);
	if (v == floor(v) && fabs(v) < 1e15)
		put(o, "%.1f", v);
	else
		put(o, "%.17g", v);
}

static void p_bool(struct out *o, bool v)
{
	next(o);
	put(o, "%s", v ? "True" : "False");
}

static void p_none(struct out *o)
{
	next(o);
	put(o, "None");
}

static void p_str(struct out *o, const char *s)
{
	next(o);
	put(o, "%s", s);
}

static void tuple_body(struct out *o, const struct shape *s)
{
	put(o, "(");
	for (int i = 0; i < s->nd; i++)
		put(o, "%s%lld", i ? ", " : "", (long long)s->d[i]);
	put(o, s->nd == 1 ? ",)" : ")");
}

static void p_tuple(struct out *o, const struct shape *s)
{
	next(o);
	if (s->nd < 0)
		put(o, "None");
	else
		tuple_body(o, s);
}

/* a stride tuple, None when the trace has no Input Strides */
static void p_stride(struct out *o, const struct args *x, int i)
{
	if (x->nstrides < 0 || i >= x->nstrides) {
		p_none(o);
		return;
	}
	p_tuple(o, &x->strides[i]);
}

/* ('float', 'float') of types i and j (-1: None) */
static void p_dtypes(struct out *o, const struct args *x, const int *idx, int n)
{
	next(o);
	put(o, "(");
	for (int k = 0; k < n; k++) {
		if (k)
			put(o, ", ");
		if (idx[k] < 0 || idx[k] >= x->ntypes) {
			put(o, "None");
		} else {
			struct slice t = type(x, idx[k]);
			put(o, "'%.*s'", (int)t.n, t.p);
		}
	}
	put(o, n == 1 ? ",)" : ")");
}

/* ---- the op table ---- */

enum model {
	M_NONE,
	/* GEMM */
	M_MM, M_ADDMM, M_SCALED_MM, M_BMM, M_BADDBMM, M_LINEAR, M_MATMUL,
	/* convolution */
	M_CONV, M_CONV_ND, M_CONV_INNER, M_CONV_BWD,
	/* attention */
	M_SDPA_FLASH, M_SDPA_EFF, M_SDPA_CUDNN, M_SDPA, M_FLASH_FWD, M_FLASH_BWD,
	/* norms */
	M_BN, M_BN_BWD, M_BN_BWD_CUDNN, M_LN, M_LN_BWD, M_GN, M_RMS, M_RMS_BWD,
	/* elementwise, reductions */
	M_UNARY, M_BINARY, M_REDUCE,
};

static const struct opdef {
	const char *name;
	uint8_t model;
	uint8_t cat;
} ops[] = {
	{"aten::mm", M_MM, TT_PMC_GEMM},
	{"aten::addmm", M_ADDMM, TT_PMC_GEMM},
	{"aten::_scaled_mm", M_SCALED_MM, TT_PMC_GEMM},
	{"aten::bmm", M_BMM, TT_PMC_GEMM},
	{"aten::baddbmm", M_BADDBMM, TT_PMC_GEMM},
	/* composites: modelled when nothing inside is (TraceLens: never) */
	{"aten::linear", M_LINEAR, TT_PMC_OTHER},
	{"aten::matmul", M_MATMUL, TT_PMC_OTHER},
	{"aten::convolution", M_CONV, TT_PMC_CONV_FWD},
	{"aten::conv1d", M_CONV_ND, TT_PMC_OTHER},
	{"aten::conv2d", M_CONV_ND, TT_PMC_OTHER},
	{"aten::conv3d", M_CONV_ND, TT_PMC_OTHER},
	{"aten::_convolution", M_CONV_INNER, TT_PMC_OTHER},
	{"aten::convolution_backward", M_CONV_BWD, TT_PMC_CONV_BWD},
	{"aten::_scaled_dot_product_flash_attention", M_SDPA_FLASH, TT_PMC_SDPA_FWD},
	{"aten::_scaled_dot_product_efficient_attention", M_SDPA_EFF, TT_PMC_SDPA_FWD},
	{"aten::_scaled_dot_product_cudnn_attention", M_SDPA_CUDNN, TT_PMC_SDPA_FWD},
	{"aten::scaled_dot_product_attention", M_SDPA, TT_PMC_OTHER},
	{"FlashAttnFunc", M_FLASH_FWD, TT_PMC_SDPA_FWD},
	{"flash_attn::_flash_attn_forward", M_FLASH_FWD, TT_PMC_SDPA_FWD},
	{"flash_attn::_flash_attn_backward", M_FLASH_BWD, TT_PMC_SDPA_BWD},
	{"aten::batch_norm", M_BN, TT_PMC_NORM_FWD},
	{"aten::native_batch_norm", M_BN, TT_PMC_NORM_FWD},
	{"aten::miopen_batch_norm", M_BN, TT_PMC_NORM_FWD},
	{"aten::cudnn_batch_norm", M_BN, TT_PMC_NORM_FWD},
	{"aten::native_batch_norm_backward", M_BN_BWD, TT_PMC_NORM_BWD},
	{"aten::batch_norm_backward", M_BN_BWD, TT_PMC_NORM_BWD},
	{"aten::cudnn_batch_norm_backward", M_BN_BWD_CUDNN, TT_PMC_NORM_BWD},
	{"aten::miopen_batch_norm_backward", M_BN_BWD_CUDNN, TT_PMC_NORM_BWD},
	{"aten::layer_norm", M_LN, TT_PMC_NORM_FWD},
	{"aten::native_layer_norm", M_LN, TT_PMC_NORM_FWD},
	{"aten::native_layer_norm_backward", M_LN_BWD, TT_PMC_NORM_BWD},
	{"aten::layer_norm_backward", M_LN_BWD, TT_PMC_NORM_BWD},
	{"aten::group_norm", M_GN, TT_PMC_NORM_FWD},
	{"aten::native_group_norm", M_GN, TT_PMC_NORM_FWD},
	{"aten::_fused_rms_norm", M_RMS, TT_PMC_NORM_FWD},
	{"aten::rms_norm", M_RMS, TT_PMC_OTHER},
	{"aten::_fused_rms_norm_backward", M_RMS_BWD, TT_PMC_NORM_BWD},
	{"aten::rms_norm_backward", M_RMS_BWD, TT_PMC_NORM_BWD},
	{"aten::copy", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::copy_", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::clamp_min", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::clamp_min_", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::clamp_max", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::clamp_max_", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::sigmoid", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::rsqrt", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::silu", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::neg", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::pow", M_UNARY, TT_PMC_ELEMENTWISE},
	{"aten::div", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::div_", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::mul", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::mul_", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::add", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::add_", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::sigmoid_backward", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::threshold_backward", M_BINARY, TT_PMC_ELEMENTWISE},
	{"aten::sum", M_REDUCE, TT_PMC_REDUCE},
	{"aten::mean", M_REDUCE, TT_PMC_REDUCE},
	{"aten::max", M_REDUCE, TT_PMC_REDUCE},
	{"aten::min", M_REDUCE, TT_PMC_REDUCE},
	{"aten::norm", M_REDUCE, TT_PMC_REDUCE},
	{"aten::linalg_norm", M_REDUCE, TT_PMC_REDUCE},
	{"aten::std", M_REDUCE, TT_PMC_REDUCE},
	{"aten::var", M_REDUCE, TT_PMC_REDUCE},
	{"aten::logsumexp", M_REDUCE, TT_PMC_REDUCE},
	{"aten::cumsum", M_REDUCE, TT_PMC_REDUCE},
	{"aten::cumprod", M_REDUCE, TT_PMC_REDUCE},
	{"aten::amin", M_REDUCE, TT_PMC_REDUCE},
	{"aten::amax", M_REDUCE, TT_PMC_REDUCE},
	/* category only (TraceLens' CATEGORY_ONLY_OP_MAPPING, core part) */
	{"aten::miopen_convolution", M_NONE, TT_PMC_CONV_FWD},
	{"aten::cudnn_convolution", M_NONE, TT_PMC_CONV_FWD},
	{"FlashAttnFuncBackward", M_NONE, TT_PMC_SDPA_BWD},
	{"FusedAttnFuncBackward", M_NONE, TT_PMC_SDPA_BWD},
	{"aten::_scaled_dot_product_cudnn_attention_backward", M_NONE, TT_PMC_SDPA_BWD},
	{"aten::_scaled_dot_product_efficient_attention_backward", M_NONE, TT_PMC_SDPA_BWD},
	{"aten::_scaled_dot_product_flash_attention_backward", M_NONE, TT_PMC_SDPA_BWD},
	{"aten::_efficient_attention_forward", M_NONE, TT_PMC_SDPA_FWD},
	{"aten::_efficient_attention_backward", M_NONE, TT_PMC_SDPA_BWD},
};

static const struct opdef *opdef_of(const char *name)
{
	/* (a short table: a linear scan is cheap next to a hash, and the
	 * analysis looks each name up once) */
	for (size_t i = 0; i < TT_ARRAY_SIZE(ops); i++)
		if (strcmp(name, ops[i].name) == 0)
			return &ops[i];
	return NULL;
}

bool tt_pm_has_model(const char *name)
{
	const struct opdef *d = opdef_of(name);
	return d && d->model != M_NONE;
}

int tt_pm_cat_by_name(const char *name)
{
	const struct opdef *d = opdef_of(name);
	if (d && d->cat != TT_PMC_OTHER)
		return d->cat;
	if (strncmp(name, "triton", 6) == 0)
		return TT_PMC_TRITON;
	if (strncmp(name, "record_param_comms", 18) == 0)
		return TT_PMC_COMMS;
	return TT_PMC_OTHER;
}

/* ---- the models ---- */

static int fail(struct tt_pm_calc *c, const char *fmt, ...) TT_PRINTF(2, 3);
static int fail(struct tt_pm_calc *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_matrix(const struct shape *s, int nd)
{
	return s->nd == nd;
}

/* GEMM: 2·B·M·N·K (+ B·M·N with a bias); bytes (M·K + K·N + M·N)·B·bpe
 * plus the bias tensor */
static int gemm(const struct args *x, struct tt_pm_calc *c, int model)
{
	int ia = 0, ib = 1, ibias = -1;
	double B = 1, M, N, K, bias_el = 0;
	const struct shape *a, *b;
	switch (model) {
	case M_ADDMM:
	case M_BADDBMM:
		ibias = 0, ia = 1, ib = 2;
		break;
	default:
		break;
	}
	a = dim(x, ia);
	b = dim(x, ib);
	bool batched = model == M_BMM || model == M_BADDBMM;
	if (batched) {
		if (!is_matrix(a, 3) || !is_matrix(b, 3))
			return fail(c, "%s: inputs are not [B, M, K] x [B, K, N]", x->name);
		B = (double)a->d[0], M = (double)a->d[1], K = (double)a->d[2], N = (double)b->d[2];
	} else {
		if (!is_matrix(a, 2) || !is_matrix(b, 2))
			return fail(c, "%s: inputs are not [M, K] x [K, N]", x->name);
		M = (double)a->d[0], K = (double)a->d[1], N = (double)b->d[1];
	}
	bool bias = false;
	if (ibias >= 0) {
		bias = true;
		/* the bias tensor's size (TraceLens assumes N) */
		const struct shape *s = dim(x, ibias);
		bias_el = s->nd >= 0 ? numel(s) : N;
	}
	int bpe_a = bpe(x, ia), bpe_b = bpe(x, ib), bpe_out = bpe_a, bpe_bias = bpe_a;
	if (model == M_SCALED_MM) {
		/* (a, b, scale_a, scale_b, bias, scale_result, out_dtype,
		 * use_fast_accum): the bias is argument 4 (TraceLens reads
		 * len(Input Dims) == 3, which all 8 args never are); fp8 in,
		 * 16-bit out (TraceLens' assumption), and the scales */
		const struct shape *s = dim(x, 4);
		if (s->nd > 0) {
			bias = true;
			bias_el = numel(s);
			bpe_bias = bpe(x, 4);
		}
		bpe_out = bpe_a == 1 ? 2 : bpe_a;
	}
	c->family = TT_PMF_GEMM;
	c->sheet = TT_PMS_GEMM;
	c->flops = B * (2 * M * N * K + (bias ? M * N : 0));
	if (!bpe_a || !bpe_b) {
		c->bytes = -1;
	} else {
		c->bytes = B * (M * K * bpe_a + K * N * bpe_b + M * N * bpe_out) +
			   (bias ? bias_el * bpe_bias : 0);
		if (model == M_SCALED_MM)
			for (int i = 2; i <= 3; i++)
				if (dim(x, i)->nd >= 0)
					c->bytes += numel(dim(x, i)) * (bpe(x, i) ? bpe(x, i) : 4);
	}
	c->spec = (int8_t)spec_for(true, prec(x, ia));
	c->tf32_able = prec(x, ia) == 32;
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_int(&o, M);
	p_int(&o, N);
	p_int(&o, K);
	p_bool(&o, bias);
	p_stride(&o, x, ia);
	p_stride(&o, x, ib);
	int dt[2] = {ia, ib};
	p_dtypes(&o, x, dt, 2);
	p_int(&o, B);
	return 0;
}

/* aten::linear(input [..., K], weight [N, K], bias [N]?) */
static int linear(const struct args *x, struct tt_pm_calc *c)
{
	const struct shape *in = dim(x, 0), *w = dim(x, 1), *bs = dim(x, 2);
	if (in->nd < 1 || !is_matrix(w, 2))
		return fail(c, "%s: inputs are not [..., K] x [N, K]", x->name);
	double K = (double)in->d[in->nd - 1], N = (double)w->d[0], M = numel(in) / (K ? K : 1);
	bool bias = bs->nd > 0;
	int b = bpe(x, 0);
	c->family = TT_PMF_GEMM;
	c->sheet = TT_PMS_GEMM;
	c->flops = 2 * M * N * K + (bias ? M * N : 0);
	c->bytes = b ? (M * K + N * K + M * N + (bias ? numel(bs) : 0)) * b : -1;
	c->spec = (int8_t)spec_for(true, prec(x, 0));
	c->tf32_able = prec(x, 0) == 32;
	c->composite = true;
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_int(&o, M);
	p_int(&o, N);
	p_int(&o, K);
	p_bool(&o, bias);
	p_stride(&o, x, 0);
	p_stride(&o, x, 1);
	int dt[2] = {0, 1};
	p_dtypes(&o, x, dt, 2);
	p_int(&o, 1);
	return 0;
}

/* aten::matmul(a, b) with numpy's broadcasting of the batch dims */
static int matmul(const struct args *x, struct tt_pm_calc *c)
{
	const struct shape *a = dim(x, 0), *b = dim(x, 1);
	if (a->nd < 1 || b->nd < 1)
		return fail(c, "%s: no input shapes", x->name);
	double M = a->nd >= 2 ? (double)a->d[a->nd - 2] : 1;
	double K = (double)a->d[a->nd - 1];
	double N = b->nd >= 2 ? (double)b->d[b->nd - 1] : 1;
	double Kb = b->nd >= 2 ? (double)b->d[b->nd - 2] : (double)b->d[0];
	if (K != Kb)
		return fail(c, "%s: inner dimensions differ", x->name);
	/* batch: the broadcast of the dims before the last two */
	double B = 1;
	int na = a->nd > 2 ? a->nd - 2 : 0, nb = b->nd > 2 ? b->nd - 2 : 0;
	for (int i = 0; i < TT_MAX(na, nb); i++) {
		double da = i < na ? (double)a->d[na - 1 - i] : 1;
		double db = i < nb ? (double)b->d[nb - 1 - i] : 1;
		if (da != db && da != 1 && db != 1)
			return fail(c, "%s: batch dims do not broadcast", x->name);
		B *= TT_MAX(da, db);
	}
	int bp = bpe(x, 0);
	c->family = TT_PMF_GEMM;
	c->sheet = TT_PMS_GEMM;
	c->flops = 2 * B * M * N * K;
	c->bytes = bp ? (numel(a) + numel(b) + B * M * N) * bp : -1;
	c->spec = (int8_t)spec_for(true, prec(x, 0));
	c->tf32_able = prec(x, 0) == 32;
	c->composite = true;
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_int(&o, M);
	p_int(&o, N);
	p_int(&o, K);
	p_bool(&o, false);
	p_stride(&o, x, 0);
	p_stride(&o, x, 1);
	int dt[2] = {0, 1};
	p_dtypes(&o, x, dt, 2);
	p_int(&o, B);
	return 0;
}

/* ---- convolution (torch/utils/flop_counter.py, as TraceLens) ---- */

struct convp {
	struct shape x, w, out;
	struct shape stride, pad, dil, opad;
	bool bias, transposed;
	int64_t groups;
};

/* a length-1 tuple broadcast to nd spatial dims; a missing one defaulted */
static bool spatial(struct shape *s, int nd, int64_t dflt)
{
	if (s->nd < 0 || s->nd == 0) {
		s->nd = nd;
		for (int i = 0; i < nd; i++)
			s->d[i] = dflt;
		return true;
	}
	if (s->nd == 1 && nd > 1) {
		for (int i = 1; i < nd; i++)
			s->d[i] = s->d[0];
		s->nd = nd;
	}
	return s->nd == nd;
}

static double conv_flops(const struct shape *x, const struct shape *w, const struct shape *out,
			 bool bias, bool transposed)
{
	double per = 2;
	for (int i = 1; i < w->nd; i++)
		per *= (double)w->d[i];
	double f = (transposed ? numel(x) : numel(out)) * per;
	return f + (bias ? numel(out) : 0);
}

static double conv_bytes(const struct shape *x, const struct shape *w, const struct shape *out,
			 bool bias, int b)
{
	return (numel(x) + numel(w) + (bias ? (double)out->d[1] : 0) + numel(out)) * b;
}

static struct shape t_shape(const struct shape *s)
{
	struct shape t = *s;
	t.d[0] = s->d[1];
	t.d[1] = s->d[0];
	return t;
}

/* the args of a convolution at argument positions: input i_x, weight
 * i_w, bias i_b (-1: none), then stride, padding, dilation, transposed,
 * output_padding, groups (Concrete Inputs; -1: not an argument) */
static int conv_params(const struct args *x, struct tt_pm_calc *c, struct convp *p, int i_x,
		       int i_w, int i_b, int i_stride, int i_pad, int i_dil, int i_tr, int i_opad,
		       int i_groups)
{
	p->x = *dim(x, i_x);
	p->w = *dim(x, i_w);
	if (p->x.nd < 3 || p->x.nd > 5 || p->w.nd != p->x.nd)
		return fail(c, "%s: no input and weight shapes", x->name);
	int nd = p->x.nd - 2;
	if (x->nconc < 0)
		return fail(c, "%s: no Concrete Inputs (stride, padding): record_shapes "
			       "with PyTorch 2.1 or later records them", x->name);
	p->bias = i_b >= 0 && dim(x, i_b)->nd > 0;
	conc_ints(x, i_stride, &p->stride);
	conc_ints(x, i_pad, &p->pad);
	conc_ints(x, i_dil, &p->dil);
	if (i_opad >= 0)
		conc_ints(x, i_opad, &p->opad);
	else
		p->opad.nd = -1;
	if (!spatial(&p->stride, nd, 1) || !spatial(&p->pad, nd, 0) ||
	    !spatial(&p->dil, nd, 1) || !spatial(&p->opad, nd, 0))
		return fail(c, "%s: stride, padding or dilation of the wrong length", x->name);
	p->transposed = i_tr >= 0 && conc_bool(x, i_tr) == 1;
	struct shape g;
	conc_ints(x, i_groups, &g);
	p->groups = g.nd == 1 ? g.d[0] : 1;
	/* the output shape */
	p->out.nd = p->x.nd;
	p->out.d[0] = p->x.d[0];
	/* (transposed: TraceLens takes filter_shape[1], the channels of one
	 * group; they are that times the groups) */
	p->out.d[1] = p->transposed ? p->w.d[1] * p->groups : p->w.d[0];
	for (int i = 0; i < nd; i++) {
		int64_t in = p->x.d[2 + i], k = p->w.d[2 + i], s = p->stride.d[i],
			pd = p->pad.d[i], dl = p->dil.d[i];
		if (s <= 0)
			return fail(c, "%s: stride 0", x->name);
		int64_t o = p->transposed ? (in - 1) * s - 2 * pd + dl * (k - 1) + p->opad.d[i] + 1
					  : (in + 2 * pd - dl * (k - 1) - 1) / s + 1;
		if (!p->transposed && in + 2 * pd - dl * (k - 1) - 1 < 0)
			o = 0;
		p->out.d[2 + i] = o;
	}
	return 0;
}

static void conv_out(struct tt_pm_calc *c, const struct args *x, const struct convp *p, int i_x,
		     int i_w)
{
	struct out o = {c->params, 0, sizeof(c->params), true};
	char nd[24];
	snprintf(nd, sizeof(nd), "conv%dd", p->x.nd - 2);
	p_str(&o, nd);
	p_tuple(&o, &p->x);
	p_tuple(&o, &p->w);
	int dt[2] = {i_x, i_w};
	p_dtypes(&o, x, dt, 2);
	p_stride(&o, x, i_x);
	p_stride(&o, x, i_w);
	p_bool(&o, p->bias);
	p_tuple(&o, &p->stride);
	p_tuple(&o, &p->pad);
	p_tuple(&o, &p->dil);
	p_bool(&o, p->transposed);
	p_tuple(&o, &p->opad);
	p_int(&o, (double)p->groups);
}

static int conv(const struct args *x, struct tt_pm_calc *c, int model)
{
	struct convp p;
	int rc;
	if (model == M_CONV_ND) /* conv2d(input, weight, bias, stride, padding, dilation, groups) */
		rc = conv_params(x, c, &p, 0, 1, 2, 3, 4, 5, -1, -1, 6);
	else /* (_)convolution(input, weight, bias, stride, padding, dilation,
	      * transposed, output_padding, groups, ...) */
		rc = conv_params(x, c, &p, 0, 1, 2, 3, 4, 5, 6, 7, 8);
	if (rc)
		return rc;
	int b = bpe(x, 0);
	c->family = TT_PMF_CONV;
	c->sheet = TT_PMS_CONV_FWD;
	c->flops = conv_flops(&p.x, &p.w, &p.out, p.bias, p.transposed);
	c->bytes = b ? conv_bytes(&p.x, &p.w, &p.out, p.bias, b) : -1;
	c->spec = (int8_t)spec_for(true, prec(x, 0));
	c->tf32_able = prec(x, 0) == 32;
	c->composite = model != M_CONV;
	conv_out(c, x, &p, 0, 1);
	return 0;
}

/* convolution_backward(grad_output, input, weight, bias_sizes, stride,
 * padding, dilation, transposed, output_padding, groups, output_mask):
 * the gradients output_mask asks for (TraceLens: all three always, the
 * bias one never, as Input Dims has [] for bias_sizes; and the bias
 * gradient's bytes counted as elements) */
static int conv_bwd(const struct args *x, struct tt_pm_calc *c)
{
	struct convp p;
	int rc = conv_params(x, c, &p, 1, 2, -1, 4, 5, 6, 7, 8, 9);
	if (rc)
		return rc;
	const struct shape *go = dim(x, 0);
	if (go->nd == p.x.nd)
		p.out = *go;
	bool mask[3] = {true, true, false};
	struct slice m = conc(x, 10);
	if (m.n) {
		/* "[True, True, False]" */
		const char *s = m.p, *e = m.p + m.n;
		for (int k = 0; k < 3 && s < e; k++) {
			while (s < e && !isalpha((unsigned char)*s))
				s++;
			if (s >= e)
				break;
			mask[k] = *s == 'T' || *s == 't';
			while (s < e && isalpha((unsigned char)*s))
				s++;
		}
	} else {
		struct shape bs;
		conc_ints(x, 3, &bs);
		mask[2] = bs.nd > 0;
	}
	p.bias = mask[2];
	int b = bpe(x, 1);
	double f = 0, by = 0;
	if (mask[0]) { /* grad_input: out (x) w -> x */
		f += conv_flops(&p.out, &p.w, &p.x, false, !p.transposed);
		by += conv_bytes(&p.out, &p.w, &p.x, false, 1);
	}
	if (mask[1]) { /* grad_weight */
		struct shape tx = t_shape(&p.x), to = t_shape(&p.out), tw = t_shape(&p.w);
		f += p.transposed ? conv_flops(&to, &tx, &tw, false, false)
				  : conv_flops(&tx, &to, &tw, false, false);
		by += conv_bytes(&p.out, &p.x, &p.w, false, 1);
	}
	if (mask[2]) { /* grad_bias: read grad_out, write C_out */
		f += numel(&p.out);
		by += numel(&p.out) + (double)p.out.d[1];
	}
	c->family = TT_PMF_CONV;
	c->sheet = TT_PMS_CONV_BWD;
	c->flops = f;
	c->bytes = b ? by * b : -1;
	c->spec = (int8_t)spec_for(true, prec(x, 1));
	c->tf32_able = prec(x, 1) == 32;
	conv_out(c, x, &p, 1, 2);
	return 0;
}

/* ---- attention ---- */

struct sdpa {
	double B, NQ, HQ, NKV, HKV, dqk, dv;
	bool causal, flash;
	double dropout;
	bool bottom_right; /* flash-attn aligns the causal mask bottom-right */
};

/* q, k, v shapes at positions iq.. with index order bhnd (B, H, N, d) */
static int sdpa_shapes(const struct args *x, struct tt_pm_calc *c, int iq, const int *bhnd,
		       struct sdpa *s)
{
	const struct shape *q = dim(x, iq), *k = dim(x, iq + 1), *v = dim(x, iq + 2);
	if (q->nd != 4 || k->nd != 4 || v->nd != 4)
		return fail(c, "%s: q, k, v are not 4-d", x->name);
	s->B = (double)q->d[bhnd[0]];
	s->HQ = (double)q->d[bhnd[1]];
	s->NQ = (double)q->d[bhnd[2]];
	s->dqk = (double)q->d[bhnd[3]];
	s->HKV = (double)k->d[bhnd[1]];
	s->NKV = (double)k->d[bhnd[2]];
	s->dv = (double)v->d[bhnd[3]];
	if (k->d[bhnd[0]] != q->d[bhnd[0]] || v->d[bhnd[0]] != q->d[bhnd[0]] ||
	    v->d[bhnd[1]] != k->d[bhnd[1]] || v->d[bhnd[2]] != k->d[bhnd[2]] ||
	    k->d[bhnd[3]] != q->d[bhnd[3]])
		return fail(c, "%s: q, k, v shapes do not agree", x->name);
	return 0;
}

/* The share of (q, k) pairs a causal mask keeps: 1/2 when N_Q == N_KV
 * (flash-attention's convention, TraceLens'), else the aligned mask's
 * exact count (TraceLens refuses those ops). */
static double causal_share(const struct sdpa *s)
{
	if (!s->causal)
		return 1;
	if (s->NQ == s->NKV)
		return 0.5;
	double L = s->NQ, S = s->NKV, kept = 0;
	if (s->bottom_right) {
		/* row i sees keys j <= i + S - L */
		for (double i = 0; i < L; i++)
			kept += TT_MAX(0, TT_MIN(S, i + S - L + 1));
	} else {
		/* top-left: row i sees keys j <= i */
		for (double i = 0; i < L; i++)
			kept += TT_MIN(S, i + 1);
	}
	return L * S > 0 ? kept / (L * S) : 1;
}

static double sdpa_flops(const struct sdpa *s)
{
	double f = s->B * s->HQ * (2 * s->NQ * s->NKV * s->dqk) +
		   s->B * s->HQ * (2 * s->NQ * s->dv * s->NKV);
	return f * causal_share(s);
}

static double sdpa_bytes(const struct sdpa *s, int b)
{
	return (s->B * s->NQ * s->HQ * s->dqk + s->B * s->NKV * s->HKV * s->dqk +
		s->B * s->NKV * s->HKV * s->dv + s->B * s->NQ * s->HQ * s->dv) *
	       b;
}

/* TraceLens' backward: (flash: recompute QK) + dV + dP + dQ + dK, the GQA
 * head reductions, causal share */
static double sdpa_flops_bwd(const struct sdpa *s)
{
	double f = 0, g = s->HKV > 0 ? floor(s->HQ / s->HKV) - 1 : 0;
	if (s->flash)
		f += s->B * s->HQ * (2 * s->NQ * s->NKV * s->dqk);
	f += s->B * s->HQ * (2 * s->NKV * s->NQ * s->dv) + s->B * s->NKV * s->dv * g;
	f += s->B * s->HQ * (2 * s->NQ * s->NKV * s->dv);
	f += s->B * s->HQ * (2 * s->NQ * s->NKV * s->dqk);
	f += s->B * s->HQ * (2 * s->NKV * s->NQ * s->dqk) + s->B * s->NKV * s->dqk * g;
	return f * causal_share(s);
}

static double sdpa_bytes_bwd(const struct sdpa *s, int b)
{
	double q = s->B * s->NQ * s->HQ * s->dqk, k = s->B * s->NKV * s->HKV * s->dqk,
	       v = s->B * s->NKV * s->HKV * s->dv, o = s->B * s->NQ * s->HQ * s->dv;
	return (q + k + v + o + q + k + v) * b;
}

static void sdpa_out(struct tt_pm_calc *c, const struct args *x, const struct sdpa *s, int iq)
{
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_int(&o, s->B);
	p_int(&o, s->NQ);
	p_int(&o, s->HQ);
	p_int(&o, s->NKV);
	p_int(&o, s->HKV);
	p_int(&o, s->dqk);
	p_int(&o, s->dv);
	p_num(&o, s->dropout);
	p_bool(&o, s->causal);
	p_bool(&o, s->flash);
	int dt[2] = {iq, iq + 1};
	p_dtypes(&o, x, dt, 2);
}

static int sdpa(const struct args *x, struct tt_pm_calc *c, int model)
{
	static const int bhnd[4] = {0, 1, 2, 3}, bnhd[4] = {0, 2, 1, 3};
	struct sdpa s = {0};
	int iq = model == M_FLASH_BWD ? 1 : 0;
	const int *ix = model == M_FLASH_FWD || model == M_FLASH_BWD ? bnhd : bhnd;
	if (sdpa_shapes(x, c, iq, ix, &s))
		return -1;
	int i_drop, i_causal;
	switch (model) {
	case M_SDPA_FLASH: /* (q, k, v, dropout_p, is_causal, return_debug_mask, scale) */
		i_drop = 3, i_causal = 4, s.flash = true;
		break;
	case M_SDPA_EFF: /* (q, k, v, attn_bias, compute_log_sumexp, dropout_p, is_causal, scale) */
	case M_SDPA_CUDNN:
		i_drop = 5, i_causal = 6;
		break;
	case M_SDPA: /* (q, k, v, attn_mask, dropout_p, is_causal, scale, enable_gqa) */
		i_drop = 4, i_causal = 5;
		break;
	case M_FLASH_FWD: /* (q, k, v, dropout_p, softmax_scale, causal, ...) */
		i_drop = 3, i_causal = 5, s.flash = true, s.bottom_right = true;
		break;
	default: /* flash_attn::_flash_attn_backward(dout, q, k, v, out,
		  * softmax_lse, dq, dk, dv, dropout_p, softmax_scale, causal,
		  * ...) (TraceLens reads positions 8 and 10: dv and
		  * softmax_scale, so any scale makes it causal) */
		i_drop = 9, i_causal = 11, s.flash = true, s.bottom_right = true;
		break;
	}
	if (x->nconc < 0 && model != M_FLASH_BWD)
		return fail(c, "%s: no Concrete Inputs (is_causal): record_shapes with PyTorch "
			       "2.1 or later records them", x->name);
	s.dropout = conc_num(x, i_drop, 0);
	s.causal = conc_bool(x, i_causal) == 1;
	int b = bpe(x, iq);
	c->family = TT_PMF_SDPA;
	c->spec = (int8_t)spec_for(true, prec(x, iq));
	c->composite = model == M_SDPA;
	if (model == M_FLASH_BWD) {
		c->sheet = TT_PMS_SDPA_BWD;
		c->flops = sdpa_flops_bwd(&s);
		c->bytes = b ? sdpa_bytes_bwd(&s, b) : -1;
	} else {
		c->sheet = TT_PMS_SDPA_FWD;
		c->flops = sdpa_flops(&s);
		c->bytes = b ? sdpa_bytes(&s, b) : -1;
		c->has_bwd = true;
		c->bwd_sheet = TT_PMS_SDPA_BWD;
		c->flops_bwd = sdpa_flops_bwd(&s);
		c->bytes_bwd = b ? sdpa_bytes_bwd(&s, b) : -1;
	}
	sdpa_out(c, x, &s, iq);
	return 0;
}

/* ---- norms (TraceLens' Normalization, with the fixes above) ---- */

struct normp {
	struct shape in;
	double elems, stats;       /* elements; per-statistic count (channels, rows) */
	double wsize;              /* elements of the weight and bias */
	bool bias, affine, training;
	bool mask[3];
	int bpe;
};

/* forward: TraceLens' flops_func and bytes_func, with the statistics
 * counted per statistic (batch norm: channels; layer norm: rows) and the
 * weight and bias per their own size */
static double norm_flops(const struct normp *p)
{
	double f = p->stats * 3;
	if (p->training)
		f += p->elems * 3;
	f += p->stats * 3;
	return f + 2 * p->elems;
}

static double norm_bytes(const struct normp *p, bool running)
{
	/* activations read and written; mean and var (or rstd) read, and
	 * written when training; the running stats updated (batch norm) */
	double w = (p->affine ? p->wsize : 0) + (p->bias ? p->wsize : 0);
	double st = 2 * p->stats;
	if (p->training && running)
		st += 2 * p->stats;
	return 2 * p->elems * p->bpe + (w + st) * p->bpe;
}

/* backward: TraceLens' flops_func_bwd / bytes_func_bwd, per statistic */
static double norm_flops_bwd(const struct normp *p)
{
	double per = p->stats > 0 ? p->elems / p->stats : 0, f = p->training ? 0 : 3;
	f += 4 * per;
	if (p->mask[0])
		f += p->training ? 5 * per : 2 * per;
	return p->stats * f;
}

static double norm_bytes_bwd(const struct normp *p)
{
	double b = p->elems * p->bpe + p->elems * p->bpe * (p->mask[0] && p->training ? 2 : 1);
	if (p->training)
		b += p->stats * p->bpe;
	if (p->affine) {
		b += p->wsize * p->bpe;
		if (p->training)
			b += p->wsize * p->bpe * (p->bias ? 2 : 1);
	}
	return b;
}

static void parse_mask(const struct args *x, int i, bool *mask)
{
	struct slice m = conc(x, i);
	const char *s = m.p, *e = m.p + m.n;
	for (int k = 0; k < 3 && s < e; k++) {
		while (s < e && !isalpha((unsigned char)*s))
			s++;
		if (s >= e)
			break;
		mask[k] = *s == 'T' || *s == 't';
		while (s < e && isalpha((unsigned char)*s))
			s++;
	}
}

static void norm_out(struct tt_pm_calc *c, const struct args *x, const struct normp *p, int iin,
		     bool with_mask)
{
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_tuple(&o, &p->in);
	int dt[2] = {iin, -1};
	p_dtypes(&o, x, dt, 2);
	p_stride(&o, x, iin);
	p_none(&o);
	p_int(&o, p->stats);
	p_bool(&o, p->bias);
	p_bool(&o, p->affine);
	p_bool(&o, p->training);
	if (with_mask) {
		next(&o);
		put(&o, "[%s, %s, %s]", p->mask[0] ? "True" : "False",
		    p->mask[1] ? "True" : "False", p->mask[2] ? "True" : "False");
	} else {
		p_none(&o);
	}
}

/* the product of a normalized_shape: Concrete Inputs i, else the shape of
 * tensor j (the weight), else 0 */
static double normalized(const struct args *x, int i, int j)
{
	struct shape s;
	conc_ints(x, i, &s);
	if (s.nd > 0)
		return numel(&s);
	if (j >= 0 && dim(x, j)->nd > 0)
		return numel(dim(x, j));
	return 0;
}

static int norm(const struct args *x, struct tt_pm_calc *c, int model)
{
	struct normp p = {0};
	p.mask[0] = p.mask[1] = p.mask[2] = true;
	int iin = 0;
	bool bwd = false, with_mask = false;
	c->family = TT_PMF_NORM;
	c->sheet = TT_PMS_NORM;
	switch (model) {
	case M_BN: /* (input, weight, bias, running_mean, running_var, training, ...) */
		p.in = *dim(x, 0);
		if (p.in.nd < 2)
			return fail(c, "%s: no input shape", x->name);
		p.stats = p.wsize = (double)p.in.d[1];
		p.affine = dim(x, 1)->nd > 0;
		p.bias = dim(x, 2)->nd > 0;
		/* TraceLens: bool("False") is True */
		p.training = conc_bool(x, 5) != 0;
		break;
	case M_BN_BWD: /* (grad_out, input, weight, running_mean, running_var,
			* save_mean, save_invstd, train, eps, output_mask) */
	case M_BN_BWD_CUDNN: /* (input, grad_output, weight, running_mean,
			      * running_var, save_mean, save_var, eps, reserve) */
		iin = model == M_BN_BWD ? 1 : 0;
		p.in = *dim(x, iin);
		if (p.in.nd < 2)
			return fail(c, "%s: no input shape", x->name);
		p.stats = p.wsize = (double)p.in.d[1];
		p.affine = dim(x, 2)->nd > 0;
		p.bias = p.affine;
		/* cudnn's and miopen's backward run in training only
		 * (TraceLens: never) */
		p.training = model == M_BN_BWD ? conc_bool(x, 7) != 0 : true;
		if (model == M_BN_BWD && conc(x, 9).n) {
			parse_mask(x, 9, p.mask);
			with_mask = true;
		}
		bwd = true;
		break;
	case M_LN: /* (input, normalized_shape, weight, bias, eps, ...) */
		p.in = *dim(x, 0);
		p.wsize = normalized(x, 1, 2);
		if (p.in.nd < 1 || !(p.wsize > 0))
			return fail(c, "%s: no input shape or normalized_shape", x->name);
		p.stats = numel(&p.in) / p.wsize;
		p.affine = dim(x, 2)->nd > 0;
		p.bias = dim(x, 3)->nd > 0;
		p.training = true;
		break;
	case M_LN_BWD: /* (grad_out, input, normalized_shape, mean, rstd, weight,
			* bias, output_mask) */
		iin = 1;
		p.in = *dim(x, 1);
		p.wsize = normalized(x, 2, 5);
		if (p.in.nd < 1 || !(p.wsize > 0))
			return fail(c, "%s: no input shape or normalized_shape", x->name);
		p.stats = numel(&p.in) / p.wsize;
		p.affine = dim(x, 5)->nd > 0;
		p.bias = dim(x, 6)->nd > 0;
		if (conc(x, 7).n) {
			parse_mask(x, 7, p.mask);
			with_mask = true;
			p.affine = p.affine && p.mask[1];
			p.bias = p.bias && p.mask[2];
		}
		p.training = true;
		bwd = true;
		break;
	case M_GN: { /* group_norm(input, num_groups, weight, bias, ...);
		      * native_group_norm(input, weight, bias, N, C, HxW, group, eps) */
		p.in = *dim(x, 0);
		if (p.in.nd < 2)
			return fail(c, "%s: no input shape", x->name);
		bool native = strcmp(x->name, "aten::native_group_norm") == 0;
		struct shape g;
		conc_ints(x, native ? 6 : 1, &g);
		double groups = g.nd == 1 && g.d[0] > 0 ? (double)g.d[0] : 0;
		if (!(groups > 0))
			return fail(c, "%s: no num_groups in Concrete Inputs", x->name);
		p.stats = (double)p.in.d[0] * groups;
		p.wsize = (double)p.in.d[1];
		p.affine = dim(x, native ? 1 : 2)->nd > 0;
		p.bias = dim(x, native ? 2 : 3)->nd > 0;
		p.training = true;
		break;
	}
	case M_RMS: /* (input, normalized_shape, weight, eps) */
	case M_RMS_BWD: { /* (grad_out, input, normalized_shape, rstd, weight, output_mask) */
		iin = model == M_RMS ? 0 : 1;
		p.in = *dim(x, iin);
		p.wsize = normalized(x, iin + 1, model == M_RMS ? 2 : 4);
		if (p.in.nd < 1 || !(p.wsize > 0))
			return fail(c, "%s: no input shape or normalized_shape", x->name);
		p.stats = p.wsize; /* (TraceLens' num_channels, printed) */
		p.affine = dim(x, model == M_RMS ? 2 : 4)->nd > 0;
		p.bpe = bpe(x, iin);
		double n = numel(&p.in), rows = n / p.wsize;
		if (model == M_RMS) {
			/* TraceLens' RMSNorm: rows·(2D + 2) for the rsqrt, then
			 * the scaling, and the weight */
			c->flops = rows * (2 * p.wsize + 2) + n * (p.affine ? 2 : 1);
			c->bytes = p.bpe ? 2 * n * p.bpe + (p.affine ? p.wsize * p.bpe : 0) : -1;
			c->composite = strcmp(x->name, "aten::rms_norm") == 0;
		} else {
			if (conc(x, 5).n) {
				parse_mask(x, 5, p.mask);
				with_mask = true;
			}
			double f = (p.affine ? n : 0) + n;
			if (p.mask[0])
				f += 6 * n;
			if (p.mask[1] && p.affine)
				f += n + (rows > 1 ? n : 0);
			c->flops = f;
			c->bytes = p.bpe ? n * p.bpe * 3 + (p.affine ? 2 * p.wsize * p.bpe : 0) : -1;
		}
		c->spec = (int8_t)spec_for(false, prec(x, iin));
		norm_out(c, x, &p, iin, with_mask);
		return 0;
	}
	default:
		return fail(c, "%s: no model", x->name);
	}
	p.bpe = bpe(x, iin);
	p.elems = numel(&p.in);
	bool running = model == M_BN || model == M_BN_BWD || model == M_BN_BWD_CUDNN;
	if (bwd) {
		c->flops = norm_flops_bwd(&p);
		c->bytes = p.bpe ? norm_bytes_bwd(&p) : -1;
	} else {
		c->flops = norm_flops(&p);
		c->bytes = p.bpe ? norm_bytes(&p, running) : -1;
		if (model == M_LN && p.bpe) {
			/* layer norm's mean and rstd: one per row, in fp32 (fp64
			 * for doubles), written for the backward */
			c->bytes = 2 * p.elems * p.bpe + (p.affine ? p.wsize * p.bpe : 0) +
				   (p.bias ? p.wsize * p.bpe : 0) + 2 * p.stats * TT_MAX(4, p.bpe);
		}
	}
	c->spec = (int8_t)spec_for(false, prec(x, iin));
	norm_out(c, x, &p, iin, with_mask);
	return 0;
}

/* ---- elementwise ---- */

/* unary: n elements read and written; (op_shape, dtype_in, dtype_out: the
 * second input's type when it is a tensor) */
static int unary(const struct args *x, struct tt_pm_calc *c)
{
	const struct shape *s = dim(x, 0);
	if (s->nd < 0)
		return fail(c, "%s: no input shape", x->name);
	bool out2 = dim(x, 1)->nd > 0;
	int bin = bpe(x, 0), bout = out2 ? bpe(x, 1) : bin;
	double n = numel(s);
	c->family = TT_PMF_UNARY;
	c->sheet = TT_PMS_UNARY;
	c->flops = n;
	c->bytes = bin && bout ? n * (bin + bout) : -1;
	c->spec = (int8_t)spec_for(false, prec(x, 0));
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_tuple(&o, s);
	int dt[2] = {0, out2 ? 1 : -1};
	p_dtypes(&o, x, dt, 2);
	p_stride(&o, x, 0);
	if (out2)
		p_stride(&o, x, 1);
	else
		p_none(&o);
	return 0;
}

/* binary: output elements of the broadcast shape; bytes in1 + in2 + out
 * (a Scalar operand is passed by value: no bytes; TraceLens counts 4) */
static int binary(const struct args *x, struct tt_pm_calc *c)
{
	const struct shape *a = dim(x, 0), *b = dim(x, 1);
	if (a->nd < 0 || b->nd < 0)
		return fail(c, "%s: no input shapes", x->name);
	int nd = TT_MAX(a->nd, b->nd);
	double out = 1;
	for (int i = 0; i < nd; i++) {
		int64_t da = i < a->nd ? a->d[a->nd - 1 - i] : 1, db = i < b->nd ? b->d[b->nd - 1 - i] : 1;
		if (da != db && da != 1 && db != 1)
			return fail(c, "%s: shapes do not broadcast", x->name);
		out *= (double)TT_MAX(da, db);
	}
	bool out3 = dim(x, 2)->nd > 0;
	int b1 = bpe(x, 0), b2 = bpe(x, 1);
	struct slice t2 = type(x, 1);
	bool scalar2 = slice_is(t2, "Scalar");
	int bout;
	if (out3)
		bout = bpe(x, 2);
	else if (a->nd > 0 && b->nd > 0 && !scalar2)
		bout = TT_MAX(b1, b2);
	else
		bout = b1;
	c->family = TT_PMF_BINARY;
	c->sheet = TT_PMS_BINARY;
	c->flops = out;
	if (!b1 || (!b2 && !scalar2) || !bout)
		c->bytes = -1;
	else
		c->bytes = numel(a) * b1 + (scalar2 ? 0 : numel(b) * b2) + out * bout;
	c->spec = (int8_t)spec_for(false, prec(x, 0));
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_tuple(&o, a);
	p_tuple(&o, b);
	int dt[3] = {0, 1, out3 ? 2 : -1};
	p_dtypes(&o, x, dt, 3);
	p_stride(&o, x, 0);
	p_stride(&o, x, 1);
	if (out3)
		p_stride(&o, x, 2);
	else
		p_none(&o);
	return 0;
}

/* ---- reductions ---- */

/* input elements; output elements from `dim` and `keepdim` in Concrete
 * Inputs (TraceLens looks for bool and int values there, but traces
 * record strings: it always finds none and takes the output as one
 * element; without Concrete Inputs so does tracetop, the lower bound) */
static int reduce(const struct args *x, struct tt_pm_calc *c)
{
	const struct shape *s = dim(x, 0);
	if (s->nd < 0)
		return fail(c, "%s: no input shape", x->name);
	double in = numel(s), out = 1;
	const char *n = x->name;
	if (strstr(n, "cumsum") || strstr(n, "cumprod")) {
		out = in;
	} else if (x->nconc > 1) {
		/* the dims: the last int list, else the last plain int, after
		 * the input (keepdim changes no element count) */
		struct shape d = {.nd = -1}, one = {.nd = -1};
		for (int i = x->nconc - 1; i >= 1; i--) {
			struct slice t = conc(x, i);
			if (!t.n || !(t.p[0] == '[' || t.p[0] == '-' || isdigit((unsigned char)t.p[0])))
				continue;
			struct shape v;
			conc_ints(x, i, &v);
			if (t.p[0] == '[' && d.nd < 0 && v.nd > 0)
				d = v;
			else if (t.p[0] != '[' && one.nd < 0 && v.nd == 1)
				one = v;
		}
		if (d.nd < 0)
			d = one;
		if (d.nd > 0) {
			bool red[MAXD] = {false};
			for (int i = 0; i < d.nd && i < MAXD; i++) {
				int64_t k = d.d[i] < 0 ? d.d[i] + s->nd : d.d[i];
				if (k >= 0 && k < s->nd)
					red[k] = true;
			}
			out = 1;
			for (int i = 0; i < s->nd; i++)
				if (!red[i])
					out *= (double)s->d[i];
		}
	}
	int b = bpe(x, 0);
	c->family = TT_PMF_REDUCE;
	c->sheet = TT_PMS_REDUCE_FWD;
	c->flops = in;
	c->bytes = b ? in * b + out * b : -1;
	c->has_bwd = true;
	c->bwd_sheet = TT_PMS_REDUCE_BWD;
	c->flops_bwd = in;
	c->bytes_bwd = c->bytes;
	c->spec = (int8_t)spec_for(false, prec(x, 0));
	const char *rt = strstr(n, "mean") ? "mean"
			 : strstr(n, "max") ? "max"
			 : strstr(n, "min") ? "min"
			 : strstr(n, "norm") ? "norm"
					     : "sum";
	struct out o = {c->params, 0, sizeof(c->params), true};
	p_int(&o, in);
	p_int(&o, out);
	int dt[2] = {0, -1};
	p_dtypes(&o, x, dt, 2);
	p_str(&o, rt);
	return 0;
}

int tt_pm_calc(const struct tt_pm_args *a, struct tt_pm_calc *c)
{
	memset(c, 0, sizeof(*c));
	c->spec = TT_PMSPEC_NONE;
	c->bytes = -1;
	const struct opdef *d = a->name ? opdef_of(a->name) : NULL;
	if (!d || d->model == M_NONE)
		return fail(c, "%s: no perf model", a->name ? a->name : "?");
	c->cat = d->cat;
	if (!a->dims)
		return fail(c, "%s: no Input Dims: record with "
			       "torch.profiler.profile(record_shapes=True)", a->name);
	struct args *x = tt_malloc(sizeof(*x));
	parse_args(a, x);
	int rc;
	switch (d->model) {
	case M_MM:
	case M_ADDMM:
	case M_SCALED_MM:
	case M_BMM:
	case M_BADDBMM:
		rc = gemm(x, c, d->model);
		break;
	case M_LINEAR:
		rc = linear(x, c);
		break;
	case M_MATMUL:
		rc = matmul(x, c);
		break;
	case M_CONV:
	case M_CONV_ND:
	case M_CONV_INNER:
		rc = conv(x, c, d->model);
		break;
	case M_CONV_BWD:
		rc = conv_bwd(x, c);
		break;
	case M_SDPA_FLASH:
	case M_SDPA_EFF:
	case M_SDPA_CUDNN:
	case M_SDPA:
	case M_FLASH_FWD:
	case M_FLASH_BWD:
		rc = sdpa(x, c, d->model);
		break;
	case M_UNARY:
		rc = unary(x, c);
		break;
	case M_BINARY:
		rc = binary(x, c);
		break;
	case M_REDUCE:
		rc = reduce(x, c);
		break;
	default:
		rc = norm(x, c, d->model);
		break;
	}
	free(x);
	if (rc == 0 && !(c->flops >= 0))
		rc = fail(c, "%s: the shapes give no FLOP count", a->name);
	return rc;
}
