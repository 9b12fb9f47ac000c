/* The performance model: FLOPs and bytes computed by hand for a GEMM, a
 * convolution (forward and backward), causal attention and a layer norm,
 * from args as the profiler records them; the peak table and its user
 * file; and the analysis on a hand-made trace (launchers, kernel time,
 * TFLOP/s, roofline, an unlinked kernel counted, a composite op left to
 * the op inside it, a backward linked by Sequence number). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/collbw.h"
#include "tracetop/perfmodel.h"
#include "tracetop/testing.h"
#include "testlib.h"

static void calc_ok(const char *name, const char *dims, const char *types, const char *conc,
		    struct tt_pm_calc *c)
{
	struct tt_pm_args a = {.name = name, .dims = dims, .types = types, .concrete = conc};
	int rc = tt_pm_calc(&a, c);
	ck_assert_msg(rc == 0, "%s: %s", name, c->why);
}

#define EQ(a, b) ck_assert_msg(fabs((double)(a) - (double)(b)) < 1e-12 * fabs((double)(b)) + 1e-12, \
			       "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

/* addmm(bias [512], A [1024, 1705], B [1705, 512]) fp32:
 * FLOPs 2*1024*512*1705 + 1024*512 = 1788346368;
 * bytes (1024*1705 + 1705*512 + 1024*512 + 512) * 4 = 12574720 (11.9921875 MiB,
 * diff-test's first GEMM row in TraceLens too) */
START_TEST(gemm_addmm)
{
	struct tt_pm_calc c;
	calc_ok("aten::addmm", "[[512],[1024,1705],[1705,512],[],[]]",
		"[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]", NULL, &c);
	EQ(c.flops, 1788346368.0);
	EQ(c.bytes, 12574720.0);
	ck_assert_int_eq(c.sheet, TT_PMS_GEMM);
	ck_assert_int_eq(c.cat, TT_PMC_GEMM);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "matrix_fp32");
	ck_assert_str_eq(c.params, "1024\x1f" "512\x1f" "1705\x1fTrue\x1fNone\x1fNone\x1f"
				   "('float', 'float')\x1f" "1");
}
END_TEST

/* mm [4096, 4096] x [4096, 11008] bf16: FLOPs 2*4096*11008*4096 =
 * 369367187456; bytes (4096*4096 + 4096*11008 + 4096*11008) * 2 = 213909504;
 * bmm [8, 128, 64] x [8, 64, 256] fp16: 8 * 2*128*256*64 = 33554432 FLOPs,
 * 8 * (128*64 + 64*256 + 128*256) * 2 = 917504 bytes */
START_TEST(gemm_mm_bmm)
{
	struct tt_pm_calc c;
	calc_ok("aten::mm", "[[4096,4096],[4096,11008]]", "[\"c10::BFloat16\",\"c10::BFloat16\"]",
		NULL, &c);
	EQ(c.flops, 369367187456.0);
	EQ(c.bytes, 213909504.0);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "matrix_bf16");
	calc_ok("aten::bmm", "[[8,128,64],[8,64,256]]", "[\"c10::Half\",\"c10::Half\"]", NULL, &c);
	EQ(c.flops, 33554432.0);
	EQ(c.bytes, 917504.0);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "matrix_fp16");
	/* _scaled_mm(a [64, 128] fp8, b [128, 256] fp8, scale_a [], scale_b [],
	 * bias [256] bf16, ...): 2*64*256*128 + 64*256 = 4210688 FLOPs; bytes
	 * 64*128 + 128*256 (fp8) + 64*256*2 (bf16 out) + 256*2 (bias) + 4 + 4
	 * (the fp32 scales) = 8192 + 32768 + 32768 + 512 + 8 = 74248 */
	calc_ok("aten::_scaled_mm", "[[64,128],[128,256],[],[],[256],[],[],[]]",
		"[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\","
		"\"c10::BFloat16\",\"\",\"\",\"\"]",
		NULL, &c);
	EQ(c.flops, 4210688.0);
	EQ(c.bytes, 74248.0);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "matrix_fp8");
}
END_TEST

/* convolution(x [32, 64, 56, 56] fp16, w [128, 64, 3, 3], b [128],
 * stride 2, padding 1, dilation 1, groups 1): out [32, 128, 28, 28] =
 * 3211264; FLOPs 2*64*3*3 * 3211264 + 3211264 = 3702587392; bytes
 * (6422528 + 73728 + 128 + 3211264) * 2 = 19415296 */
START_TEST(conv_fwd_bwd)
{
	struct tt_pm_calc c;
	calc_ok("aten::convolution", "[[32,64,56,56],[128,64,3,3],[128],[],[],[],[],[],[]]",
		"[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"\",\"\",\"\",\"\",\"\",\"\"]",
		"[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"1\"]", &c);
	EQ(c.flops, 3702587392.0);
	EQ(c.bytes, 19415296.0);
	ck_assert_int_eq(c.sheet, TT_PMS_CONV_FWD);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "matrix_fp16");
	/* its backward, output_mask [True, True, False]: input gradient
	 * 3211264 * 2*64*9 = 3699376128, weight gradient the same (the
	 * convolution of x^T by grad^T): 7398752256; bytes of each (grad +
	 * weight + input) * 2 */
	calc_ok("aten::convolution_backward",
		"[[32,128,28,28],[32,64,56,56],[128,64,3,3],[],[],[],[],[],[],[],[]]",
		"[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"]",
		"[\"\",\"\",\"\",\"[0]\",\"[2, 2]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"1\","
		"\"[True, True, False]\"]",
		&c);
	EQ(c.flops, 7398752256.0);
	EQ(c.bytes, 2.0 * 2 * (3211264.0 + 73728 + 6422528));
	ck_assert_int_eq(c.sheet, TT_PMS_CONV_BWD);
	/* no Concrete Inputs: no stride or padding, no model (said) */
	struct tt_pm_args a = {.name = "aten::convolution",
			       .dims = "[[32,64,56,56],[128,64,3,3],[128]]",
			       .types = "[\"c10::Half\",\"c10::Half\",\"c10::Half\"]"};
	ck_assert_int_eq(tt_pm_calc(&a, &c), -1);
	ck_assert_msg(strstr(c.why, "Concrete Inputs"), "%s", c.why);
}
END_TEST

/* flash attention q, k, v [2, 16, 1024, 64] bf16, causal: QK^T and PV are
 * 2 * 16 * 2*1024*1024*64 = 4294967296 FLOPs each, halved by the mask:
 * 4294967296; bytes q + k + v + out = 4 * 2*1024*16*64 * 2 = 16777216 */
START_TEST(attention_causal)
{
	struct tt_pm_calc c;
	calc_ok("aten::_scaled_dot_product_flash_attention",
		"[[2,16,1024,64],[2,16,1024,64],[2,16,1024,64],[],[],[],[]]",
		"[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\","
		"\"Scalar\",\"\"]",
		"[\"\",\"\",\"\",\"0.0\",\"True\",\"False\",\"\"]", &c);
	EQ(c.flops, 4294967296.0);
	EQ(c.bytes, 16777216.0);
	ck_assert_int_eq(c.sheet, TT_PMS_SDPA_FWD);
	ck_assert(c.has_bwd);
	/* the backward (flash: QK^T again, dV, dP, dQ, dK: 5 matmuls) halved:
	 * 5 * 4294967296 / 2 */
	EQ(c.flops_bwd, 5.0 * 4294967296.0 / 2);
	/* not causal: twice */
	calc_ok("aten::_scaled_dot_product_flash_attention",
		"[[2,16,1024,64],[2,16,1024,64],[2,16,1024,64],[],[],[],[]]",
		"[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]",
		"[\"\",\"\",\"\",\"0.0\",\"False\",\"False\",\"\"]", &c);
	EQ(c.flops, 8589934592.0);
	/* causal with 2 queries over 4 keys (top-left mask): 1 + 2 of 8 pairs
	 * kept; the full op is 2 * 2*2*4*64 = 2048 FLOPs: 768 */
	calc_ok("aten::_scaled_dot_product_efficient_attention",
		"[[1,1,2,64],[1,1,4,64],[1,1,4,64],[],[],[],[],[]]",
		"[\"float\",\"float\",\"float\"]",
		"[\"\",\"\",\"\",\"\",\"True\",\"0.0\",\"True\",\"\"]", &c);
	EQ(c.flops, 768.0);
	/* flash-attn's own op: [B, N, H, d], bottom-right mask: row 0 sees 3
	 * keys, row 1 all 4: 7 of 8 */
	calc_ok("flash_attn::_flash_attn_forward", "[[1,2,1,64],[1,4,1,64],[1,4,1,64]]",
		"[\"c10::Half\",\"c10::Half\",\"c10::Half\"]",
		"[\"\",\"\",\"\",\"0.0\",\"0.125\",\"True\"]", &c);
	EQ(c.flops, 2048.0 * 7 / 8);
}
END_TEST

/* layer_norm(x [4, 128, 768] fp16, [768], weight [768], bias [768]):
 * N = 393216 elements in R = 512 rows of 768; FLOPs 5N + 6R = 1969152;
 * bytes: x read and y written (2N * 2), weight and bias (2 * 768 * 2), the
 * mean and rstd of each row written in fp32 (2 * 512 * 4): 1580032 */
START_TEST(layer_norm)
{
	struct tt_pm_calc c;
	calc_ok("aten::layer_norm", "[[4,128,768],[],[768],[768],[],[]]",
		"[\"c10::Half\",\"\",\"c10::Half\",\"c10::Half\",\"Scalar\",\"Scalar\"]",
		"[\"\",\"[768]\",\"\",\"\",\"1e-05\",\"True\"]", &c);
	EQ(c.flops, 1969152.0);
	EQ(c.bytes, 1580032.0);
	ck_assert_int_eq(c.sheet, TT_PMS_NORM);
	ck_assert_int_eq(c.cat, TT_PMC_NORM_FWD);
	ck_assert_str_eq(tt_pm_spec_name(c.spec), "vector_fp16");
	/* without weight and bias ([] in Input Dims): 1572864 + 4096 bytes */
	calc_ok("aten::layer_norm", "[[4,128,768],[],[],[],[],[]]",
		"[\"c10::Half\",\"\",\"\",\"\",\"Scalar\",\"Scalar\"]",
		"[\"\",\"[768]\",\"\",\"\",\"1e-05\",\"True\"]", &c);
	EQ(c.bytes, 1576960.0);
}
END_TEST

/* elementwise and reductions */
START_TEST(elementwise_reduce)
{
	struct tt_pm_calc c;
	/* add [64, 1024] + [1024] fp32 -> [64, 1024]: 65536 FLOPs; bytes
	 * (65536 + 1024 + 65536) * 4 */
	calc_ok("aten::add", "[[64,1024],[1024],[]]", "[\"float\",\"float\",\"Scalar\"]", NULL, &c);
	EQ(c.flops, 65536.0);
	EQ(c.bytes, (65536.0 + 1024 + 65536) * 4);
	ck_assert_int_eq(c.sheet, TT_PMS_BINARY);
	/* a Scalar operand costs no bytes */
	calc_ok("aten::mul", "[[1000],[]]", "[\"c10::BFloat16\",\"Scalar\"]", NULL, &c);
	EQ(c.bytes, 2000.0 + 2000.0);
	/* sum over dim 1 of [8, 4096] (Concrete Inputs strings): 32768 in,
	 * 8 out */
	calc_ok("aten::sum", "[[8,4096],[],[],[]]", "[\"float\",\"\",\"Scalar\",\"\"]",
		"[\"\",\"[1]\",\"False\",\"\"]", &c);
	EQ(c.flops, 32768.0);
	EQ(c.bytes, (32768.0 + 8) * 4);
	/* without Concrete Inputs: the whole tensor, one element out */
	calc_ok("aten::sum", "[[8,4096],[],[],[]]", "[\"float\",\"\",\"Scalar\",\"\"]", NULL, &c);
	EQ(c.bytes, (32768.0 + 1) * 4);
	/* no Input Dims: no model */
	struct tt_pm_args a = {.name = "aten::mm"};
	ck_assert_int_eq(tt_pm_calc(&a, &c), -1);
	ck_assert_msg(strstr(c.why, "record_shapes"), "%s", c.why);
	a.name = "aten::relu";
	ck_assert_int_eq(tt_pm_calc(&a, &c), -1);
	ck_assert(!tt_pm_has_model("aten::relu"));
	ck_assert_int_eq(tt_pm_cat_by_name("triton_poi_fused_0"), TT_PMC_TRITON);
	ck_assert_int_eq(tt_pm_cat_by_name("aten::cudnn_convolution"), TT_PMC_CONV_FWD);
}
END_TEST

START_TEST(peaks)
{
	const struct tt_gpu_peak *g = tt_gpu_lookup(NULL, "NVIDIA A100-SXM4-80GB", 85899345920, NULL);
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(g->name, "A100 SXM4 80GB");
	g = tt_gpu_lookup(NULL, "NVIDIA A100-PG509-200", 42505273344, NULL);
	ck_assert_str_eq(g->name, "A100 SXM4 40GB");
	ck_assert_str_eq(tt_gpu_lookup(NULL, "NVIDIA H100 PCIe", 0, NULL)->name, "H100 PCIe");
	ck_assert_str_eq(tt_gpu_lookup(NULL, "NVIDIA H100 80GB HBM3", 0, NULL)->name, "H100 SXM");
	ck_assert_str_eq(tt_gpu_lookup(NULL, "AMD Instinct MI300X", 0, NULL)->name, "MI300X");
	ck_assert_str_eq(tt_gpu_lookup(NULL, "AMD Instinct MI250X / MI250", 0, NULL)->name,
			 "MI250X (one GCD)");
	ck_assert_str_eq(tt_gpu_lookup(NULL, "Tesla V100-SXM2-16GB", 0, NULL)->name, "V100 SXM2");
	ck_assert_ptr_null(tt_gpu_lookup(NULL, "Some Future GPU", 0, NULL));
	ck_assert_ptr_null(tt_gpu_lookup(NULL, NULL, 0, NULL));
	/* every row: its source, a bandwidth, an fp32 peak */
	size_t n;
	const struct tt_gpu_peak *t = tt_gpu_peaks(&n);
	ck_assert_uint_ge(n, 12);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(t[i].source && *t[i].source, "%s", t[i].name);
		ck_assert_msg(t[i].mem_gbps > 0 && t[i].tflops[TT_PMSPEC_VECTOR_FP32] > 0, "%s",
			      t[i].name);
	}
	/* fallbacks: no tf32 on V100 (fp32 instead), vector bf16 = fp32 */
	bool fb;
	g = tt_gpu_lookup(NULL, NULL, 0, "V100 SXM2");
	EQ(tt_gpu_peak_of(g, TT_PMSPEC_MATRIX_TF32, &fb), 15.7);
	ck_assert(fb);
	EQ(tt_gpu_peak_of(g, TT_PMSPEC_MATRIX_BF16, &fb), 0);
	EQ(tt_gpu_peak_of(g, TT_PMSPEC_VECTOR_BF16, &fb), 15.7);
	/* a user file first */
	char path[] = "/tmp/tt-peaks-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char *txt = "; mine\n[My A100]\nmatch = A100\nmem_bw_gbps = 1000\n"
			  "matrix_bf16 = 100 ; measured\n";
	ck_assert_int_eq(write(fd, txt, strlen(txt)), (ssize_t)strlen(txt));
	close(fd);
	struct tt_err err;
	struct tt_gpu_table *u = tt_gpu_table_load(path, &err);
	ck_assert_ptr_nonnull(u);
	g = tt_gpu_lookup(u, "NVIDIA A100-SXM4-80GB", 0, NULL);
	ck_assert_str_eq(g->name, "My A100");
	EQ(g->mem_gbps, 1000);
	EQ(g->tflops[TT_PMSPEC_MATRIX_BF16], 100);
	ck_assert_str_eq(tt_gpu_lookup(u, "NVIDIA H100 PCIe", 0, NULL)->name, "H100 PCIe");
	tt_gpu_table_free(u);
	unlink(path);
}
END_TEST

/* One thread: aten::linear [100, 150) around aten::addmm [105, 145) around
 * cudaLaunchKernel [110, 115) (correlation 1), which launched an sgemm
 * [200, 210) on stream 7; an aten::sum [300, 320) (Sequence number 5)
 * launching a reduce kernel [400, 406); its backward on thread 2,
 * evaluate_function: SumBackward0 [500, 530) (Sequence number 5) launching
 * [600, 603); a kernel [700, 704) no launch owns.  The device is an H100
 * SXM: 67 TFLOP/s fp32, 3350 GB/s. */
#define OP(name, tid, ts, dur, args) \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}}"
#define RT(tid, ts, dur, corr) \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr "}}"
#define KERN(name, ts, dur, corr) \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts \
	",\"dur\":" #dur ",\"args\":{\"stream\":7,\"device\":0,\"correlation\":" #corr "}}"

static const char trace[] =
	"{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\","
	"\"totalGlobalMem\":85000000000}],\"traceEvents\":["
	OP("aten::linear", 1, 100, 50,
	   "\"Input Dims\":[[64,128],[256,128],[256]],\"Input type\":[\"float\",\"float\",\"float\"]")
	","
	OP("aten::addmm", 1, 105, 40,
	   "\"Input Dims\":[[256],[64,128],[128,256],[],[]],"
	   "\"Input type\":[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]")
	"," RT(1, 110, 5, 1) ","
	OP("aten::sum", 1, 300, 20,
	   "\"Input Dims\":[[4096,64],[],[],[]],\"Input type\":[\"float\",\"\",\"Scalar\",\"\"],"
	   "\"Sequence number\":5")
	"," RT(1, 305, 5, 2) ","
	OP("autograd::engine::evaluate_function: SumBackward0", 2, 500, 30, "\"Sequence number\":5")
	"," RT(2, 505, 5, 3) ","
	KERN("volta_sgemm_128x64_nn", 200, 10, 1) "," KERN("reduce_kernel", 400, 6, 2) ","
	KERN("fill_kernel", 600, 3, 3) "," KERN("orphan_kernel", 700, 4, 99) "]}";

START_TEST(analysis)
{
	struct tt_model *m = tl_load_json1(trace);
	struct tt_perf p;
	struct tt_perf_opts o;
	tt_perf_opts_init(&o);
	tt_perf_compute(m, &o, &p);
	/* the GEMM: addmm (linear has addmm inside: not modelled) */
	const struct tt_pm_row *g = NULL, *s = NULL, *sb = NULL;
	for (size_t i = 0; i < p.nrows; i++) {
		const struct tt_pm_row *w = &p.rows[i];
		ck_assert_str_ne(w->name, "aten::linear");
		if (w->sheet == TT_PMS_GEMM)
			g = w;
		else if (w->sheet == TT_PMS_REDUCE_FWD)
			s = w;
		else if (w->sheet == TT_PMS_REDUCE_BWD)
			sb = w;
	}
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(g->name, "aten::addmm");
	/* 2*64*256*128 + 64*256 FLOPs in 10 µs */
	EQ(g->flops, 4210688.0);
	EQ(g->time_us.sum, 10);
	EQ(g->tflops.mean, 4210688.0 / 10e-6 / 1e12);
	/* bytes (64*128 + 128*256 + 64*256 + 256) * 4 = 230400: 0.0688 µs at
	 * 3350 GB/s, over 0.0628 µs for the FLOPs at 67 TFLOP/s: memory-bound */
	EQ(g->bytes, 230400.0);
	ck_assert_str_eq(g->gpu->name, "H100 SXM");
	EQ(g->roof_us, 230400.0 / 3350e9 * 1e6);
	ck_assert(!g->compute_bound);
	EQ(g->pct_roof.mean, 230400.0 / 3350e9 * 1e6 / 10 * 100);
	/* the reduction and its backward (Sequence number 5, other thread) */
	ck_assert_ptr_nonnull(s);
	EQ(s->time_us.sum, 6);
	ck_assert_ptr_nonnull(sb);
	EQ(sb->time_us.sum, 3);
	ck_assert(sb->bwd);
	/* launchers: addmm (its kernel), sum, and the backward's runtime call
	 * under the autograd op */
	ck_assert_uint_eq(p.nops, 3);
	bool seen = false;
	for (size_t i = 0; i < p.nops; i++)
		if (strcmp(p.ops[i].name, "aten::addmm") == 0) {
			seen = true;
			EQ(p.ops[i].direct_us, 10);
			ck_assert_uint_eq(p.ops[i].count, 1);
		}
	ck_assert(seen);
	/* the kernel no launch owns: counted, not dropped */
	ck_assert_uint_eq(p.gpu_ops, 4);
	ck_assert_uint_eq(p.gpu_unlinked, 1);
	EQ(p.gpu_unlinked_us, 4);
	EQ(p.timeline_us[TT_PMT_BUSY], 23);
	EQ(p.timeline_linked_us[TT_PMT_BUSY], 19);
	/* short kernels (all under 10 µs but the sgemm) */
	ck_assert_uint_eq(p.nshort, 3);
	tt_perf_free(&p);
	tt_model_free(m);
}
END_TEST

START_TEST(coll_names)
{
	char b[24];
	ck_assert_str_eq(tt_cbw_algo("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", b,
				     sizeof(b)), "RING_LL");
	ck_assert_str_eq(tt_cbw_algo("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, "
				     "unsigned long, ncclWork*)", b, sizeof(b)),
			 "RING_LL");
	ck_assert_str_eq(tt_cbw_algo("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)", b,
				     sizeof(b)), "RING_SIMPLE");
	ck_assert_str_eq(tt_cbw_algo("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL128(x)", b,
				     sizeof(b)), "RING_LL128");
	ck_assert_str_eq(tt_cbw_algo("ncclDevKernel_AllReduce_Sum_bf16_NVLS_TREE_SIMPLE(x)", b,
				     sizeof(b)), "NVLS_TREE_SIMPLE");
	ck_assert_str_eq(tt_cbw_algo("ncclDevKernel_Generic_1(x)", b, sizeof(b)), "");
	ck_assert_int_eq(tt_cbw_kind_of("nccl:all_reduce"), TT_CBW_ALLREDUCE);
	ck_assert_int_eq(tt_cbw_kind_of("_allgather_base"), TT_CBW_ALLGATHER);
	ck_assert_int_eq(tt_cbw_kind_of("reduce_scatter_tensor"), TT_CBW_REDUCE_SCATTER);
	ck_assert_int_eq(tt_cbw_kind_of("AllToAll"), TT_CBW_ALLTOALL);
	ck_assert_int_eq(tt_cbw_kind_of("SendRecv"), TT_CBW_P2P);
	ck_assert_int_eq(tt_cbw_kind_of("barrier"), TT_CBW_OTHER);
	/* nccl-tests' bus factors */
	EQ(tt_cbw_bus_factor(TT_CBW_ALLREDUCE, 8), 1.75);
	EQ(tt_cbw_bus_factor(TT_CBW_ALLGATHER, 8), 0.875);
	EQ(tt_cbw_bus_factor(TT_CBW_BROADCAST, 8), 1);
	ck_assert(isnan(tt_cbw_bus_factor(TT_CBW_OTHER, 8)));
}
END_TEST

/* Two ranks, one all_reduce of 1048576 floats (4 MiB, from the
 * record_param_comms around the launch) in a group of 2: rank 0's kernel
 * [1000, 1500) µs, rank 1's [1200, 1400).  Latency: the shorter, 200 µs;
 * algbw 4194304 B / 200 µs = 20.97152 GB/s; busbw x 2(2-1)/2 = the same;
 * start skew 200 µs, end skew 100 µs; rank 0 first, rank 1 last. */
#define COMMS(tid, ts, dur)                                                                 \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,\"tid\":" #tid \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"Collective name\":\"allreduce\","              \
	"\"dtype\":\"Float\",\"In msg nelems\":1048576,\"Out msg nelems\":1048576,"               \
	"\"Group size\":2,\"Process Group Name\":\"0\"}}"
static const char *const coll_trace[2] = {
	"{\"distributedInfo\":{\"rank\":0,\"world_size\":2},\"traceEvents\":[" COMMS(1, 900, 20) ","
	RT(1, 905, 5, 1) "," KERN("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 1000, 500, 1) "]}",
	"{\"distributedInfo\":{\"rank\":1,\"world_size\":2},\"traceEvents\":[" COMMS(1, 900, 20) ","
	RT(1, 905, 5, 1) "," KERN("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 1200, 200, 1) "]}",
};

START_TEST(coll_bandwidth)
{
	struct tt_model *m = tl_load_json(coll_trace, 2);
	struct tt_aopts ao = {0};
	struct tt_coll c;
	tt_coll_compute(m, &ao, &c);
	struct tt_coll_bw b;
	tt_coll_bw_compute(m, &c, &b);
	ck_assert_uint_eq(b.ncolls, 1);
	const struct tt_cbw *w = &b.colls[0];
	ck_assert_int_eq(w->kind, TT_CBW_ALLREDUCE);
	ck_assert_str_eq(w->algo, "RING_LL");
	ck_assert_uint_eq(w->n, 2);
	ck_assert_int_eq(w->bytes, 4194304);
	ck_assert_str_eq(w->size_src, "record_param_comms");
	ck_assert_int_eq(w->latency, 200000);
	EQ(w->algbw, 4194304.0 / 200000);
	EQ(w->busbw, 4194304.0 / 200000);
	ck_assert_int_eq(w->start_skew, 200000);
	ck_assert_int_eq(w->end_skew, 100000);
	ck_assert_int_eq(w->first_rank, 0);
	ck_assert_int_eq(w->last_rank, 1);
	ck_assert_uint_eq(b.nsums, 1);
	EQ(b.sums[0].busbw_mean, 4194304.0 / 200000);
	ck_assert_uint_eq(b.nmissing, 0);
	/* the Distributed view's per-rank figure: each rank's call */
	EQ(tt_coll_bw_rank_mean(&b, &c, 0, "allreduce", NULL), 4194304.0 / 200000);
	tt_coll_bw_free(&b);
	tt_coll_free(&c);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perfmodel");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, gemm_addmm);
	tcase_add_test(tc, gemm_mm_bmm);
	tcase_add_test(tc, conv_fwd_bwd);
	tcase_add_test(tc, attention_causal);
	tcase_add_test(tc, layer_norm);
	tcase_add_test(tc, elementwise_reduce);
	tcase_add_test(tc, peaks);
	tcase_add_test(tc, analysis);
	tcase_add_test(tc, coll_names);
	tcase_add_test(tc, coll_bandwidth);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
