/* The built-in demo job: a deterministic generator of Kineto traces of a
 * data-parallel training run (a ConvNeXt-like model under DDP on 8 GPUs).
 *
 * The job is simulated rank by rank in lock step.  Each step of each rank
 * runs in two phases:
 *
 *   A  the host side up to the end of backward: data loading, the input
 *      copy, forward ops on the main thread, backward ops on the autograd
 *      thread; every op launches its kernels on stream 7, and each gradient
 *      bucket launches an all-reduce on the NCCL stream.  A kernel starts
 *      only after its launch and after the previous kernel of its stream.
 *   -  then the all-reduce of every bucket ends, on all ranks alike, once
 *      the last rank has started it (plus the transfer time);
 *   B  the NCCL kernels (now of known length), the optimizer, whose kernels
 *      wait for the last all-reduce, and the loss copy back to the host,
 *      which blocks the main thread until the GPU is done.
 *
 * Every rank draws from its own PRNG (seed, rank) and the transfers from one
 * PRNG per (seed, step, bucket), so generating rank r alone still computes
 * the same schedule as generating all of them: the other ranks are simulated
 * for their timing only, without text.  All arithmetic is integer, so the
 * output is byte-identical for the same options and rank.
 *
 * Times are integer microseconds since the epoch, as Kineto writes them. */
#include "config.h"

#include "tracetop/demo.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#include "tracetop/util.h"

#define BASE_US 1717171717000000LL /* 2024-05-31, plus a seed-dependent offset */
#define NUM_GPUS 8
#define NUM_SMS 108
#define STREAM_COMPUTE 7
#define STREAM_NCCL 20
#define STEP_BASE 100     /* ProfilerStep#100 is the first step */
#define BUCKET_LAYERS 4   /* layers per gradient bucket */
#define DOWN_EVERY 6      /* every 6th layer is a downsampling conv block */
#define MAX_DEPTH 16      /* nesting of CPU ops */
#define MAX_STEPS 100000
#define MAX_LAYERS 10000
#define MAX_RANKS 1000000

#define EVAL_PFX "autograd::engine::evaluate_function: "

/* ---- deterministic PRNG (splitmix64) ---- */

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	uint64_t z = *s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static int64_t urand(uint64_t *s, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* ---- the model: kernels and ops ---- */

struct kdef {
	const char *name;
	int32_t dmin, dmax;  /* duration range, µs */
	int32_t grid[3];
	int32_t block[3];
	int32_t regs, shmem, occ;
};

#define ELEM_GRID {3136, 1, 1}, {128, 1, 1}, 16, 0, 88

static const struct kdef k_fprop_stem = {
	"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
	2600, 3800, {784, 2, 1}, {128, 1, 1}, 232, 81920, 12};
static const struct kdef k_wgrad_stem = {
	"sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
	3200, 4600, {2, 1, 98}, {128, 1, 1}, 230, 81920, 12};
static const struct kdef k_fprop = {
	"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
	140, 260, {196, 4, 1}, {128, 1, 1}, 168, 49152, 25};
static const struct kdef k_dgrad = {
	"sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
	150, 280, {392, 2, 1}, {128, 1, 1}, 236, 81920, 12};
static const struct kdef k_wgrad = {
	"sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn",
	160, 300, {4, 4, 49}, {128, 1, 1}, 230, 81920, 12};
static const struct kdef k_nchw2nhwc = {
	"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
	"(cudnnKernelDataType_t)2>(cudnn::ops::nchwToNhwcParams_t<float>, float const*, float*)",
	8, 20, {784, 16, 32}, {256, 1, 1}, 24, 4224, 86};
static const struct kdef k_nhwc2nchw = {
	"void cudnn::ops::nhwcToNchwKernel<float, float, float, true, false, "
	"(cudnnKernelDataType_t)0>(cudnn::ops::nhwcToNchwParams_t<float>, float const*, float*)",
	8, 20, {784, 16, 32}, {256, 1, 1}, 24, 4224, 86};
static const struct kdef k_bn_fw = {
	"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
	"float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
	"float*, float*, float*, float, float)",
	30, 60, {512, 4, 1}, {512, 1, 1}, 48, 4096, 70};
static const struct kdef k_bn_bw = {
	"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, "
	"float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
	"float*, float const*, float*, float*, float const*, float const*, float)",
	45, 90, {512, 4, 1}, {512, 1, 1}, 56, 8192, 62};
static const struct kdef k_relu = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
	"launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
	"at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::"
	"operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
	"at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
	"c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
	"const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
	8, 16, ELEM_GRID};
static const struct kdef k_threshold = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
	"threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, "
	"float)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::"
	"threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, "
	"float)#1}, at::detail::Array<char*, 3>)",
	10, 20, ELEM_GRID};
static const struct kdef k_dw_fprop = {
	"void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, float, "
	"float, float, float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float const*, "
	"float const*, float*, float, float*, float const*, float const*, float)",
	60, 140, {196, 512, 1}, {256, 1, 1}, 40, 10368, 48};
static const struct kdef k_dw_dgrad = {
	"void cudnn::cnn::dgrad2d_grouped_direct_kernel<float, int, float, float, false, false, 0, "
	"0, 0>(cudnn::cnn::GroupedDirectDgradParams, float const*, float const*, float*, float, "
	"float)",
	80, 160, {196, 512, 1}, {256, 1, 1}, 48, 10368, 45};
static const struct kdef k_dw_wgrad = {
	"void cudnn::cnn::wgrad2d_grouped_direct_kernel<false, false, int, float, float, "
	"float>(cudnn::cnn::GroupedDirectWgradParams, float const*, float const*, float*, float, "
	"float)",
	90, 200, {49, 512, 1}, {256, 1, 1}, 64, 18432, 31};
static const struct kdef k_ln_fw = {
	"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
	"float, float const*, float const*, float const*, float*, float*, float*)",
	15, 35, {25088, 1, 1}, {128, 1, 1}, 30, 0, 81};
static const struct kdef k_ln_bw_in = {
	"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, "
	"float>(float const*, float const*, float const*, float const*, float const*, float*, int)",
	25, 45, {25088, 1, 1}, {128, 1, 1}, 32, 128, 80};
static const struct kdef k_ln_bw_gb = {
	"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<float, float>(long, "
	"long, float const*, float const*, float const*, float const*, float*, float*)",
	20, 40, {16, 1, 1}, {32, 32, 1}, 40, 8448, 14};
static const struct kdef k_fc1 = {
	"ampere_sgemm_128x64_tn", 180, 320, {16, 196, 1}, {128, 1, 1}, 122, 12544, 25};
static const struct kdef k_fc2 = {
	"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>("
	"cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4::Params)",
	170, 300, {4, 196, 1}, {128, 1, 1}, 254, 73728, 8};
static const struct kdef k_fc1_dgrad = {
	"ampere_sgemm_128x64_nn", 170, 310, {4, 196, 1}, {128, 1, 1}, 122, 12544, 25};
static const struct kdef k_fc1_wgrad = {
	"ampere_sgemm_128x128_nt", 190, 340, {8, 4, 1}, {256, 1, 1}, 118, 16896, 12};
static const struct kdef k_fc2_dgrad = {
	"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>("
	"cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
	170, 300, {16, 196, 1}, {128, 1, 1}, 254, 73728, 8};
static const struct kdef k_fc2_wgrad = {
	"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x128_32x3_nt_align4>("
	"cutlass_80_tensorop_s1688gemm_64x128_32x3_nt_align4::Params)",
	180, 320, {8, 8, 1}, {128, 1, 1}, 230, 49152, 12};
static const struct kdef k_sum = {
	"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
	"at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
	"float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, "
	"4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
	"at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda("
	"float, float)#1}>, unsigned int, float, 4>)",
	6, 14, {16, 32, 1}, {32, 16, 1}, 32, 16, 45};
static const struct kdef k_gelu = {
	"void at::native::vectorized_elementwise_kernel<4, "
	"at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()"
	"#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
	"at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
	"at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
	"const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
	10, 22, {12544, 1, 1}, {128, 1, 1}, 28, 0, 90};
static const struct kdef k_gelu_bw = {
	"void at::native::vectorized_elementwise_kernel<4, "
	"at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
	"at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
	"const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
	"at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
	"at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
	"const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)",
	12, 25, {12544, 1, 1}, {128, 1, 1}, 32, 0, 86};
static const struct kdef k_mul = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
	"float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> "
	">(int, at::native::BinaryFunctor<float, float, float, "
	"at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)",
	6, 14, ELEM_GRID};
static const struct kdef k_add = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3>)",
	6, 14, ELEM_GRID};
static const struct kdef k_acc = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3>)",
	2, 9, {2052, 1, 1}, {128, 1, 1}, 16, 0, 71};
static const struct kdef k_mean = {
	"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
	"at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> "
	">(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned "
	"int, float, 4>)",
	20, 40, {32, 16, 1}, {16, 32, 1}, 32, 16, 40};
static const struct kdef k_div = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<float, float, "
	"float, at::native::binary_internal::DivFunctor<float> >, at::detail::Array<char*, 2> "
	">(int, at::native::BUnaryFunctor<float, float, float, "
	"at::native::binary_internal::DivFunctor<float> >, at::detail::Array<char*, 2>)",
	10, 20, ELEM_GRID};
static const struct kdef k_head = {
	"ampere_sgemm_32x128_tn", 20, 45, {8, 1, 1}, {256, 1, 1}, 57, 16384, 6};
static const struct kdef k_head_dgrad = {
	"ampere_sgemm_64x32_sliced1x4_nn", 15, 30, {8, 1, 1}, {128, 1, 1}, 120, 12288, 4};
static const struct kdef k_head_wgrad = {
	"ampere_sgemm_128x32_nt", 18, 36, {8, 4, 1}, {256, 1, 1}, 86, 20480, 8};
static const struct kdef k_softmax_fw = {
	"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
	"at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
	6, 12, {32, 1, 1}, {512, 1, 1}, 38, 2048, 14};
static const struct kdef k_softmax_bw = {
	"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, "
	"at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, "
	"float const*, long)",
	6, 12, {32, 1, 1}, {512, 1, 1}, 32, 2048, 14};
static const struct kdef k_nll_fw = {
	"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, "
	"float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, "
	"long, long)",
	4, 8, {1, 1, 1}, {32, 1, 1}, 30, 1024, 0};
static const struct kdef k_nll_bw = {
	"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, "
	"long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, "
	"long)",
	3, 6, {1, 1, 1}, {32, 1, 1}, 26, 0, 0};
static const struct kdef k_fill = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
	"at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
	"at::detail::Array<char*, 1>)",
	2, 4, {250, 1, 1}, {128, 1, 1}, 16, 0, 2};
static const struct kdef k_foreach_add = {
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
	"namespace)::TensorListMetadata<2>, at::native::(anonymous "
	"namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, "
	"float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
	"namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
	30, 110, {320, 1, 1}, {512, 1, 1}, 40, 0, 62};
static const struct kdef k_foreach_mul = {
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
	"namespace)::TensorListMetadata<1>, at::native::(anonymous "
	"namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, "
	"float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
	"namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)",
	25, 90, {320, 1, 1}, {512, 1, 1}, 32, 0, 64};
static const struct kdef k_nccl = {
	"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	0, 0, {24, 1, 1}, {512, 1, 1}, 96, 0, 3};

/* One call of an op: a chain of nested CPU ops (outermost first); the
 * innermost launches the kernels. */
struct call {
	const char *chain[4];
	const char *pre;            /* CPU-only child of the outermost, run first */
	const struct kdef *k[3];
	const char *dims, *types;   /* Input Dims / Input type of the outermost */
};

struct opdef {
	struct call f;              /* forward */
	const char *node;           /* autograd node, NULL if none */
	struct call b[3];           /* backward calls under the node */
	int64_t params;             /* parameter elements: AccumulateGrad, bucket size */
};

#define D_ACT "[[32, 512, 28, 28]]"
#define T_CONV \
	"[\"float\", \"float\", \"float\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Int\"]"
#define D_NHWC "[[32, 28, 28, 512]]"

/* the stem: a 4x4 stride-4 conv on the images, its wgrad only */
static const struct opdef stem_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_nchw2nhwc, &k_fprop_stem, &k_nhwc2nchw},
	  "[[32, 3, 224, 224], [512, 3, 4, 4], [512], [], [], [], []]",
	  T_CONV},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_wgrad_stem, &k_sum}, NULL, NULL}},
	 512 * 3 * 16 + 512},
	{{{"aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"}, NULL,
	  {&k_bn_fw}, "[" D_ACT ", [512], [512], [512], [512], [], [], [], []]", NULL},
	 "CudnnBatchNormBackward0",
	 {{{"aten::cudnn_batch_norm_backward"}, NULL, {&k_bn_bw}, NULL, NULL}},
	 2 * 512},
	{{{"aten::relu", "aten::clamp_min"}, NULL, {&k_relu}, "[" D_ACT "]", "[\"float\"]"},
	 "ReluBackward0",
	 {{{"aten::threshold_backward"}, NULL, {&k_threshold}, NULL, NULL}},
	 0},
};

/* a 2x2 conv block (conv, batch norm, relu) every DOWN_EVERY layers */
static const struct opdef down_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_nchw2nhwc, &k_fprop, &k_nhwc2nchw},
	  "[" D_ACT ", [512, 512, 2, 2], [512], [], [], [], []]",
	  T_CONV},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_dgrad, &k_wgrad, &k_sum}, NULL, NULL}},
	 512 * 512 * 4 + 512},
	{{{"aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"}, NULL,
	  {&k_bn_fw}, "[" D_ACT ", [512], [512], [512], [512], [], [], [], []]", NULL},
	 "CudnnBatchNormBackward0",
	 {{{"aten::cudnn_batch_norm_backward"}, NULL, {&k_bn_bw}, NULL, NULL}},
	 2 * 512},
	{{{"aten::relu", "aten::clamp_min"}, NULL, {&k_relu}, "[" D_ACT "]", "[\"float\"]"},
	 "ReluBackward0",
	 {{{"aten::threshold_backward"}, NULL, {&k_threshold}, NULL, NULL}},
	 0},
};

/* a ConvNeXt block: depthwise conv, layer norm, MLP, layer scale, residual */
static const struct opdef block_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_dw_fprop}, "[" D_ACT ", [512, 1, 7, 7], [512], [], [], [], []]", NULL},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_dw_dgrad, &k_dw_wgrad, &k_sum}, NULL, NULL}},
	 512 * 49 + 512},
	{{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, "[" D_ACT ", []]",
	  "[\"float\", \"IntList\"]"},
	 "PermuteBackward0",
	 {{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, NULL, NULL}},
	 0},
	{{{"aten::layer_norm", "aten::native_layer_norm"}, NULL, {&k_ln_fw},
	  "[" D_NHWC ", [], [512], [512], [], []]",
	  "[\"float\", \"IntList\", \"float\", \"float\", \"Double\", \"Bool\"]"},
	 "NativeLayerNormBackward0",
	 {{{"aten::native_layer_norm_backward"}, NULL, {&k_ln_bw_in, &k_ln_bw_gb}, NULL, NULL}},
	 2 * 512},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_fc1},
	  "[[32, 28, 28, 512], [2048, 512], [2048]]", "[\"float\", \"float\", \"float\"]"},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_fc1_dgrad}, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_fc1_wgrad}, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL}},
	 2048 * 512 + 2048},
	{{{"aten::gelu"}, NULL, {&k_gelu}, "[[32, 28, 28, 2048], []]", "[\"float\", \"String\"]"},
	 "GeluBackward0",
	 {{{"aten::gelu_backward"}, NULL, {&k_gelu_bw}, NULL, NULL}},
	 0},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_fc2},
	  "[[32, 28, 28, 2048], [512, 2048], [512]]", "[\"float\", \"float\", \"float\"]"},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_fc2_dgrad}, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_fc2_wgrad}, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL}},
	 512 * 2048 + 512},
	{{{"aten::mul"}, NULL, {&k_mul}, "[" D_NHWC ", [512]]", "[\"float\", \"float\"]"},
	 "MulBackward0",
	 {{{"aten::mul"}, NULL, {&k_mul}, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL}},
	 512},
	{{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, "[" D_NHWC ", []]",
	  "[\"float\", \"IntList\"]"},
	 "PermuteBackward0",
	 {{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, NULL, NULL}},
	 0},
	{{{"aten::add_"}, NULL, {&k_add}, "[" D_ACT ", " D_ACT ", []]",
	  "[\"float\", \"float\", \"Scalar\"]"},
	 "AddBackward0", {{{NULL}, NULL, {NULL}, NULL, NULL}}, 0},
};

/* pooling and the classifier, inside DistributedDataParallel.forward */
static const struct opdef head_ops[] = {
	{{{"aten::mean"}, NULL, {&k_mean}, "[" D_ACT ", [], [], []]",
	  "[\"float\", \"IntList\", \"Bool\", \"\"]"},
	 "MeanBackward1",
	 {{{"aten::div"}, NULL, {&k_div}, NULL, NULL}},
	 0},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_head},
	  "[[32, 512], [1000, 512], [1000]]", "[\"float\", \"float\", \"float\"]"},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_head_dgrad}, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_head_wgrad}, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL}},
	 1000 * 512 + 1000},
};

/* the loss, under aten::cross_entropy_loss */
static const struct opdef loss_ops[] = {
	{{{"aten::log_softmax", "aten::_log_softmax"}, NULL, {&k_softmax_fw},
	  "[[32, 1000], [], []]", "[\"float\", \"Scalar\", \"\"]"},
	 "LogSoftmaxBackward0",
	 {{{"aten::_log_softmax_backward_data"}, NULL, {&k_softmax_bw}, NULL, NULL}},
	 0},
	{{{"aten::nll_loss_nd", "aten::nll_loss", "aten::nll_loss_forward"}, NULL, {&k_nll_fw},
	  "[[32, 1000], [32], [], [], []]",
	  "[\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\"]"},
	 "NllLossBackward0",
	 {{{"aten::nll_loss_backward"}, "aten::zero_", {&k_fill, &k_nll_bw}, NULL, NULL}},
	 0},
};

static const struct call ones_like_call = {
	{"aten::ones_like", "aten::fill_"}, "aten::empty_like", {&k_fill},
	"[[], [], [], [], [], []]", NULL};
static const struct call acc_call = {{"aten::add_"}, NULL, {&k_acc}, NULL, NULL};

#define NOPS(a) ((int)TT_ARRAY_SIZE(a))

static void layer_ops(int layer, const struct opdef **ops, int *n)
{
	if (layer == 0) {
		*ops = stem_ops;
		*n = NOPS(stem_ops);
	} else if (layer % DOWN_EVERY == 0) {
		*ops = down_ops;
		*n = NOPS(down_ops);
	} else {
		*ops = block_ops;
		*n = NOPS(block_ops);
	}
}

/* ---- text output ---- */

struct sbuf {
	char *p;
	size_t n, cap;
};

static void sb_need(struct sbuf *b, size_t more)
{
	if (b->n + more <= b->cap)
		return;
	size_t c = b->cap ? b->cap : 65536;
	while (c < b->n + more)
		c *= 2;
	b->p = tt_realloc_array(b->p, c, 1);
	b->cap = c;
}

static void sb_mem(struct sbuf *b, const char *s, size_t n)
{
	sb_need(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

/* Our strings are all constants without quotes, backslashes or control
 * characters, so they need no escaping. */
static void sb_str(struct sbuf *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

#define SB_LIT(b, s) sb_mem((b), (s), sizeof(s) - 1)

static void sb_int(struct sbuf *b, int64_t v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	sb_mem(b, tmp + i, sizeof(tmp) - (size_t)i);
}

/* v / 1e6 with up to six decimals and no trailing zeros (1, 1.375) */
static void sb_micro(struct sbuf *b, int64_t v)
{
	if (v < 0) {
		SB_LIT(b, "-");
		v = -v;
	}
	sb_int(b, v / 1000000);
	int64_t f = v % 1000000;
	if (!f)
		return;
	char tmp[8];
	int n = 6;
	for (int i = 5; i >= 0; i--) {
		tmp[i + 1] = (char)('0' + f % 10);
		f /= 10;
	}
	tmp[0] = '.';
	while (tmp[n] == '0')
		n--;
	sb_mem(b, tmp, (size_t)n + 1);
}

/* ,\n  {"ph": "X", "cat": CAT, "name": NAME, "pid": P, "tid": T, "ts": TS, "dur": D, "args": { */
static void ev_x_head(struct sbuf *b, const char *cat, const char *pfx, const char *name,
		      int64_t num, int64_t pid, int64_t tid, int64_t ts, int64_t dur)
{
	SB_LIT(b, ",\n  {\"ph\": \"X\", \"cat\": \"");
	sb_str(b, cat);
	SB_LIT(b, "\", \"name\": \"");
	if (pfx)
		sb_str(b, pfx);
	sb_str(b, name);
	if (num >= 0)
		sb_int(b, num);
	SB_LIT(b, "\", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"dur\": ");
	sb_int(b, dur);
	SB_LIT(b, ", \"args\": {");
}

static void ev_flow(struct sbuf *b, char ph, const char *cat, int64_t id, int64_t pid,
		    int64_t tid, int64_t ts)
{
	SB_LIT(b, ",\n  {\"ph\": \"");
	sb_mem(b, &ph, 1);
	SB_LIT(b, "\", \"id\": ");
	sb_int(b, id);
	SB_LIT(b, ", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"cat\": \"");
	sb_str(b, cat);
	SB_LIT(b, "\", \"name\": \"");
	sb_str(b, cat);
	if (ph == 'f')
		SB_LIT(b, "\", \"bp\": \"e\"}");
	else
		SB_LIT(b, "\"}");
}

/* ---- simulation state ---- */

enum { CAT_OP, CAT_ANNOT };

/* a CPU op waiting for its end (written in start order once its top-level op ends) */
struct pend {
	const char *pfx, *name;
	int64_t num;            /* appended to the name if >= 0 */
	int64_t ts, dur;
	uint32_t ext, evidx;
	int64_t seq;            /* Sequence number, -1 if none */
	uint8_t cat;
	char flow;              /* fwdbwd flow end bound here: 's', 'f' or 0 */
	bool fwd_tid;           /* backward op: has Fwd thread id */
	const char *dims, *types;
	int64_t comm;           /* record_param_comms: message elements, -1 if not */
};

struct cthread {
	int64_t tid;
	int64_t t;              /* the thread's clock */
	struct pend *p;
	size_t np, cap;
	struct {
		size_t pend;
		uint32_t ext;
		int64_t ts;
	} st[MAX_DEPTH];
	int depth;
};

struct bucket {
	int64_t ready;          /* the all-reduce can start on this rank */
	int64_t nelems;
	uint32_t corr, ext;
};

/* Events go to the document one step at a time, like Kineto's per-iteration
 * buffers: the step's CPU ops, then its runtime calls, then its GPU ops. */
struct out {
	struct sbuf doc;        /* the JSON document */
	struct sbuf cpu, rt, gpu; /* events of the current step */
	bool first;             /* no event in the document yet */
};

struct job;

struct rsim {
	const struct job *job;
	int rank;
	bool straggler;
	uint8_t slow;           /* enum tt_demo_slow of a straggler */
	uint64_t rng;
	int64_t speed;          /* GPU speed, per mille of nominal durations */
	int64_t pid, device;
	int64_t s7;             /* compute stream busy until */
	int64_t start;          /* first step begins */
	int64_t step_end;
	uint32_t corr, ext, evidx;
	int64_t nelems;         /* gradient elements of the bucket being filled */
	int nb;                 /* buckets launched in this step */
	struct cthread main, bw;
	struct bucket *bk;
	struct out *out;        /* NULL: timing only */
};

struct job {
	int nranks, steps, layers, nbuckets;
	uint64_t seed;
	int64_t base;
	int64_t nominal;        /* GPU µs of one step, estimated */
	const struct tt_demo_opts *o;
	int64_t *etab;          /* all-reduce end of each bucket, steps x nbuckets */
	const int64_t *e_end;   /* the row of the current step */
	int64_t nccl_free;      /* NCCL stream busy until (the same on all ranks) */
	struct rsim *rs;
};

/* ---- CPU ops ---- */

static struct pend *op_begin(struct rsim *s, struct cthread *th, const char *pfx,
			     const char *name, int64_t num, int cat)
{
	if (th->depth == MAX_DEPTH)
		tt_die("demo: CPU ops nested too deeply");
	uint32_t ext = s->ext++, evidx = s->evidx++;
	int d = th->depth++;
	th->st[d].ext = ext;
	th->st[d].ts = th->t;
	if (!s->out)
		return NULL;
	TT_GROW(th->p, th->cap, th->np + 1);
	struct pend *p = &th->p[th->np];
	th->st[d].pend = th->np++;
	p->pfx = pfx;
	p->name = name;
	p->num = num;
	p->ts = th->t;
	p->dur = 0;
	p->ext = ext;
	p->evidx = evidx;
	p->seq = -1;
	p->cat = (uint8_t)cat;
	p->flow = 0;
	p->fwd_tid = false;
	p->dims = p->types = NULL;
	p->comm = -1;
	return p;
}

static void flush_ops(struct rsim *s, struct cthread *th)
{
	struct sbuf *b = &s->out->cpu;
	int64_t n = s->job->nranks;
	for (size_t i = 0; i < th->np; i++) {
		const struct pend *p = &th->p[i];
		ev_x_head(b, p->cat == CAT_OP ? "cpu_op" : "user_annotation", p->pfx, p->name,
			  p->num, s->pid, th->tid, p->ts, p->dur);
		SB_LIT(b, "\"External id\": ");
		sb_int(b, p->ext);
		if (p->seq >= 0) {
			SB_LIT(b, ", \"Sequence number\": ");
			sb_int(b, p->seq);
			if (p->fwd_tid)
				SB_LIT(b, ", \"Fwd thread id\": 1");
		}
		if (p->dims) {
			SB_LIT(b, ", \"Input Dims\": ");
			sb_str(b, p->dims);
		}
		if (p->types) {
			SB_LIT(b, ", \"Input type\": ");
			sb_str(b, p->types);
		}
		if (p->comm >= 0) {
			SB_LIT(b, ", \"Collective name\": \"allreduce\", \"dtype\": \"Float\", "
				  "\"In msg nelems\": ");
			sb_int(b, p->comm);
			SB_LIT(b, ", \"Out msg nelems\": ");
			sb_int(b, p->comm);
			SB_LIT(b, ", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
				  "\"Global rank start\": 0, \"Global rank stride\": 1, "
				  "\"Group size\": ");
			sb_int(b, n);
			SB_LIT(b, ", \"Process Group Name\": \"0\", "
				  "\"Process Group Description\": \"default_pg\"");
			if (n <= 64) {
				SB_LIT(b, ", \"Process Group Ranks\": \"[");
				for (int64_t q = 0; q < n; q++) {
					if (q)
						SB_LIT(b, ", ");
					sb_int(b, q);
				}
				SB_LIT(b, "]\"");
			}
		}
		SB_LIT(b, ", \"Ev Idx\": ");
		sb_int(b, p->evidx);
		SB_LIT(b, "}}");
		if (p->flow)
			ev_flow(b, p->flow, "fwdbwd", p->seq, s->pid, th->tid, p->ts);
	}
	th->np = 0;
}

static void op_end(struct rsim *s, struct cthread *th)
{
	int d = --th->depth;
	if (!s->out)
		return;
	th->p[th->st[d].pend].dur = th->t - th->st[d].ts;
	if (d == 0)
		flush_ops(s, th);
}

/* a CPU op with no children that takes lo..hi µs */
static void op_leaf(struct rsim *s, struct cthread *th, const char *name, int cat, int64_t lo,
		    int64_t hi)
{
	op_begin(s, th, NULL, name, -1, cat);
	th->t += urand(&s->rng, lo, hi);
	op_end(s, th);
}

/* ---- runtime calls and GPU activities ---- */

struct launch {
	int64_t ts;
	uint32_t corr, ext;
};

static struct launch rt_call(struct rsim *s, struct cthread *th, const char *name, int cbid,
			     int64_t dur, bool flow)
{
	struct launch l;
	l.ts = th->t;
	l.corr = s->corr++;
	l.ext = th->depth ? th->st[th->depth - 1].ext : 0;
	th->t += dur;
	if (s->out) {
		struct sbuf *b = &s->out->rt;
		ev_x_head(b, "cuda_runtime", NULL, name, -1, s->pid, th->tid, l.ts, dur);
		SB_LIT(b, "\"External id\": ");
		sb_int(b, l.ext);
		SB_LIT(b, ", \"cbid\": ");
		sb_int(b, cbid);
		SB_LIT(b, ", \"correlation\": ");
		sb_int(b, l.corr);
		SB_LIT(b, "}}");
		if (flow)
			ev_flow(b, 's', "ac2g", l.corr, s->pid, th->tid, l.ts);
	}
	return l;
}

/* start of a GPU op on the compute stream launched by l */
static int64_t gpu_start(struct rsim *s, const struct launch *l)
{
	int64_t a = l->ts + urand(&s->rng, 4, 9);
	int64_t b = s->s7 + urand(&s->rng, 1, 3);
	return TT_MAX(a, b);
}

static void gpu_head(struct sbuf *b, const char *cat, const char *name, int64_t dev,
		     int64_t stream, int64_t ts, int64_t dur, const struct launch *l, bool queued)
{
	ev_x_head(b, cat, NULL, name, -1, dev, stream, ts, dur);
	SB_LIT(b, "\"External id\": ");
	sb_int(b, l->ext);
	if (queued)
		SB_LIT(b, ", \"queued\": 0");
	SB_LIT(b, ", \"device\": ");
	sb_int(b, dev);
	SB_LIT(b, ", \"context\": 1, \"stream\": ");
	sb_int(b, stream);
	SB_LIT(b, ", \"correlation\": ");
	sb_int(b, l->corr);
}

static void emit_kernel(struct rsim *s, const struct kdef *k, int64_t stream, int64_t ts,
			int64_t dur, const struct launch *l, int64_t comm)
{
	struct sbuf *b = &s->out->gpu;
	gpu_head(b, "kernel", k->name, s->device, stream, ts, dur, l, true);
	int64_t blocks = (int64_t)k->grid[0] * k->grid[1] * k->grid[2];
	int64_t threads = (int64_t)k->block[0] * k->block[1] * k->block[2];
	int64_t warps = (threads + 31) / 32;
	SB_LIT(b, ", \"registers per thread\": ");
	sb_int(b, k->regs);
	SB_LIT(b, ", \"shared memory\": ");
	sb_int(b, k->shmem);
	SB_LIT(b, ", \"blocks per SM\": ");
	sb_micro(b, blocks * 1000000 / NUM_SMS);
	SB_LIT(b, ", \"warps per SM\": ");
	sb_micro(b, blocks * warps * 1000000 / NUM_SMS);
	SB_LIT(b, ", \"grid\": [");
	sb_int(b, k->grid[0]);
	SB_LIT(b, ", ");
	sb_int(b, k->grid[1]);
	SB_LIT(b, ", ");
	sb_int(b, k->grid[2]);
	SB_LIT(b, "], \"block\": [");
	sb_int(b, k->block[0]);
	SB_LIT(b, ", ");
	sb_int(b, k->block[1]);
	SB_LIT(b, ", ");
	sb_int(b, k->block[2]);
	SB_LIT(b, "], \"est. achieved occupancy %\": ");
	sb_int(b, k->occ);
	if (comm >= 0) {
		SB_LIT(b, ", \"Collective name\": \"allreduce\", \"In msg nelems\": ");
		sb_int(b, comm);
		SB_LIT(b, ", \"Out msg nelems\": ");
		sb_int(b, comm);
		SB_LIT(b, ", \"Group size\": ");
		sb_int(b, s->job->nranks);
		SB_LIT(b, ", \"dtype\": \"Float\", \"Process Group Name\": \"0\", "
			  "\"Process Group Description\": \"default_pg\"");
	}
	SB_LIT(b, "}}");
	ev_flow(b, 'f', "ac2g", l->corr, s->device, stream, ts);
}

static void emit_mem(struct rsim *s, const char *cat, const char *name, int64_t ts, int64_t dur,
		     const struct launch *l, int64_t bytes)
{
	struct sbuf *b = &s->out->gpu;
	gpu_head(b, cat, name, s->device, STREAM_COMPUTE, ts, dur, l, false);
	SB_LIT(b, ", \"bytes\": ");
	sb_int(b, bytes);
	SB_LIT(b, ", \"memory bandwidth (GB/s)\": ");
	sb_micro(b, bytes * 1000 / (dur > 0 ? dur : 1));
	SB_LIT(b, "}}");
	ev_flow(b, 'f', "ac2g", l->corr, s->device, STREAM_COMPUTE, ts);
}

static int64_t kdur(struct rsim *s, const struct kdef *k)
{
	int64_t d = urand(&s->rng, k->dmin, k->dmax);
	return TT_MAX(1, d * s->speed / 1000);
}

static void launch_kernel(struct rsim *s, struct cthread *th, const struct kdef *k)
{
	th->t += urand(&s->rng, 1, 3);
	struct launch l = rt_call(s, th, "cudaLaunchKernel", 211, urand(&s->rng, 4, 10), true);
	int64_t ts = gpu_start(s, &l);
	int64_t dur = kdur(s, k);
	s->s7 = ts + dur;
	if (s->out)
		emit_kernel(s, k, STREAM_COMPUTE, ts, dur, &l, -1);
	th->t += urand(&s->rng, 1, 3);
}

/* a cudaMemcpyAsync / cudaMemsetAsync and its GPU op on the compute stream;
 * returns the end of the GPU op */
static int64_t mem_op(struct rsim *s, struct cthread *th, bool memset, const char *name,
		      int64_t bytes, int64_t mbps)
{
	th->t += urand(&s->rng, 1, 3);
	struct launch l;
	if (memset)
		l = rt_call(s, th, "cudaMemsetAsync", 51, urand(&s->rng, 4, 9), true);
	else
		l = rt_call(s, th, "cudaMemcpyAsync", 41, urand(&s->rng, 6, 14), true);
	int64_t ts = gpu_start(s, &l);
	int64_t dur = TT_MAX(1, bytes / mbps);
	dur += urand(&s->rng, 0, 1);
	s->s7 = ts + dur;
	if (s->out)
		emit_mem(s, memset ? "gpu_memset" : "gpu_memcpy", name, ts, dur, &l, bytes);
	th->t += urand(&s->rng, 1, 3);
	return ts + dur;
}

/* move the events of src to the document and empty src */
static void put_events(struct out *o, struct sbuf *src)
{
	if (!src->n)
		return;
	/* events start with ",\n"; the first of the array drops the comma */
	size_t skip = o->first ? 1 : 0;
	sb_mem(&o->doc, src->p + skip, src->n - skip);
	src->n = 0;
	o->first = false;
}

/* ---- ops ---- */

static void run_call(struct rsim *s, struct cthread *th, const struct call *c, int64_t seq,
		     char flow, bool fwd_tid)
{
	int n = 0;
	while (n < (int)TT_ARRAY_SIZE(c->chain) && c->chain[n])
		n++;
	if (!n)
		return;
	for (int i = 0; i < n; i++) {
		struct pend *p = op_begin(s, th, NULL, c->chain[i], -1, CAT_OP);
		if (p && i == 0) {
			p->dims = c->dims;
			p->types = c->types;
			p->seq = seq;
			p->flow = flow;
			p->fwd_tid = fwd_tid;
		}
		th->t += i == 0 ? urand(&s->rng, 4, 14) : urand(&s->rng, 2, 6);
		if (i == 0 && c->pre) {
			op_leaf(s, th, c->pre, CAT_OP, 2, 7);
			th->t += urand(&s->rng, 1, 3);
		}
	}
	for (int i = 0; i < (int)TT_ARRAY_SIZE(c->k) && c->k[i]; i++)
		launch_kernel(s, th, c->k[i]);
	for (int i = n; i-- > 0;) {
		th->t += urand(&s->rng, 1, 4);
		op_end(s, th);
	}
}

/* Sequence number of op i of layer l in a step: shared by the forward op and
 * its backward node, and the id of their fwdbwd flow. */
static int64_t seq_of(const struct job *j, int step, int layer, int i)
{
	return 1000 + ((int64_t)step * (j->layers + 2) + layer) * 16 + i;
}

static void fwd_ops(struct rsim *s, struct cthread *th, const struct opdef *ops, int n,
		    int step, int layer)
{
	for (int i = 0; i < n; i++) {
		int64_t seq = ops[i].node ? seq_of(s->job, step, layer, i) : -1;
		run_call(s, th, &ops[i].f, seq, seq >= 0 ? 's' : 0, false);
		th->t += urand(&s->rng, 2, 12);
	}
}

static void bwd_op(struct rsim *s, struct cthread *th, const struct opdef *d, int64_t seq)
{
	if (d->node) {
		struct pend *p = op_begin(s, th, EVAL_PFX, d->node, -1, CAT_OP);
		if (p) {
			p->seq = seq;
			p->fwd_tid = true;
		}
		th->t += urand(&s->rng, 2, 6);
		p = op_begin(s, th, NULL, d->node, -1, CAT_OP);
		if (p) {
			p->seq = seq;
			p->fwd_tid = true;
			p->flow = 'f';
		}
		th->t += urand(&s->rng, 3, 10);
		for (int i = 0; i < (int)TT_ARRAY_SIZE(d->b); i++) {
			run_call(s, th, &d->b[i], -1, 0, false);
			if (d->b[i].chain[0])
				th->t += urand(&s->rng, 1, 4);
		}
		th->t += urand(&s->rng, 1, 4);
		op_end(s, th);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 3, 12);
	}
	if (d->params) {
		op_begin(s, th, EVAL_PFX, "torch::autograd::AccumulateGrad", -1, CAT_OP);
		th->t += urand(&s->rng, 2, 5);
		op_begin(s, th, NULL, "torch::autograd::AccumulateGrad", -1, CAT_OP);
		th->t += urand(&s->rng, 2, 6);
		run_call(s, th, &acc_call, -1, 0, false);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 3, 10);
		s->nelems += d->params;
	}
}

static void bwd_ops(struct rsim *s, struct cthread *th, const struct opdef *ops, int n,
		    int step, int layer)
{
	for (int i = n; i-- > 0;)
		bwd_op(s, th, &ops[i], ops[i].node ? seq_of(s->job, step, layer, i) : -1);
}

/* DDP: the gradients of a bucket are ready; all-reduce them on the NCCL
 * stream once the compute stream got there */
static void allreduce(struct rsim *s, struct cthread *th)
{
	struct bucket *bk = &s->bk[s->nb++];
	struct pend *p = op_begin(s, th, NULL, "record_param_comms", -1, CAT_OP);
	if (p)
		p->comm = s->nelems;
	th->t += urand(&s->rng, 4, 10);
	op_begin(s, th, NULL, "nccl:all_reduce", -1, CAT_ANNOT);
	th->t += urand(&s->rng, 3, 8);
	rt_call(s, th, "cudaEventRecord", 135, urand(&s->rng, 2, 5), false);
	th->t += urand(&s->rng, 1, 3);
	rt_call(s, th, "cudaStreamWaitEvent", 147, urand(&s->rng, 1, 4), false);
	th->t += urand(&s->rng, 1, 3);
	struct launch l = rt_call(s, th, "cudaLaunchKernel", 211, urand(&s->rng, 6, 14), true);
	int64_t a = l.ts + urand(&s->rng, 5, 10);
	bk->ready = TT_MAX(a, s->s7);
	bk->nelems = s->nelems;
	bk->corr = l.corr;
	bk->ext = l.ext;
	th->t += urand(&s->rng, 2, 6);
	op_end(s, th);
	th->t += urand(&s->rng, 3, 8);
	op_end(s, th);
	th->t += urand(&s->rng, 4, 12);
	s->nelems = 0;
}

static void foreach_op(struct rsim *s, struct cthread *th, const char *name,
		       const struct kdef *k, int chunks)
{
	op_begin(s, th, NULL, name, -1, CAT_OP);
	th->t += urand(&s->rng, 15, 40);
	for (int i = 0; i < chunks; i++) {
		launch_kernel(s, th, k);
		th->t += urand(&s->rng, 2, 6);
	}
	op_end(s, th);
	th->t += urand(&s->rng, 3, 10);
}

/* ---- one step ---- */

static void step_a(struct rsim *s, int step)
{
	const struct job *j = s->job;
	struct cthread *m = &s->main, *bw = &s->bw;

	op_begin(s, m, NULL, "ProfilerStep#", STEP_BASE + step, CAT_ANNOT);
	m->t += urand(&s->rng, 8, 20);

	/* waiting for the next batch: the straggler's loader is slow */
	int64_t w = s->straggler && s->slow == TT_DEMO_SLOW_HOST ? urand(&s->rng, 560, 660) :
								    urand(&s->rng, 150, 200);
	op_begin(s, m, NULL, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", -1,
		 CAT_ANNOT);
	m->t += j->nominal * w / 1000;
	op_end(s, m);
	m->t += urand(&s->rng, 5, 15);
	op_leaf(s, m, "Optimizer.zero_grad#SGD.zero_grad", CAT_ANNOT, 20, 60);
	m->t += urand(&s->rng, 5, 15);

	/* the batch to the GPU */
	static const char *const to_chain[] = {"aten::to", "aten::_to_copy", "aten::copy_"};
	static const int64_t copy_bytes[] = {32LL * 3 * 224 * 224 * 4, 32 * 8};
	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < 3; i++) {
			op_begin(s, m, NULL, to_chain[i], -1, CAT_OP);
			m->t += urand(&s->rng, 3, 9);
		}
		mem_op(s, m, false, "Memcpy HtoD (Pinned -> Device)", copy_bytes[c],
		       urand(&s->rng, 20500, 23500));
		for (int i = 0; i < 3; i++) {
			m->t += urand(&s->rng, 1, 4);
			op_end(s, m);
		}
		m->t += urand(&s->rng, 4, 12);
	}

	/* forward */
	op_begin(s, m, NULL, "DistributedDataParallel.forward", -1, CAT_ANNOT);
	m->t += urand(&s->rng, 30, 80);
	for (int l = 0; l < j->layers; l++) {
		const struct opdef *ops;
		int n;
		layer_ops(l, &ops, &n);
		fwd_ops(s, m, ops, n, step, l);
	}
	fwd_ops(s, m, head_ops, NOPS(head_ops), step, j->layers);
	m->t += urand(&s->rng, 5, 20);
	op_end(s, m);
	m->t += urand(&s->rng, 10, 30);
	op_begin(s, m, NULL, "aten::cross_entropy_loss", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	fwd_ops(s, m, loss_ops, NOPS(loss_ops), step, j->layers + 1);
	op_end(s, m);
	m->t += urand(&s->rng, 20, 60);

	/* loss.backward(): the seed gradient, then the autograd thread */
	run_call(s, m, &ones_like_call, -1, 0, false);
	bw->t = TT_MAX(bw->t, m->t) + urand(&s->rng, 10, 30);
	s->nb = 0;
	s->nelems = 0;
	bwd_ops(s, bw, loss_ops, NOPS(loss_ops), step, j->layers + 1);
	bwd_ops(s, bw, head_ops, NOPS(head_ops), step, j->layers);
	for (int l = j->layers; l-- > 0;) {
		const struct opdef *ops;
		int n;
		layer_ops(l, &ops, &n);
		bwd_ops(s, bw, ops, n, step, l);
		if (l % BUCKET_LAYERS == 0)
			allreduce(s, bw);
	}
	/* the reducer's finalize: the compute stream waits for the all-reduces */
	bw->t += urand(&s->rng, 10, 30);
	rt_call(s, bw, "cudaStreamWaitEvent", 147, urand(&s->rng, 1, 4), false);
	bw->t += urand(&s->rng, 5, 15);
	m->t = TT_MAX(m->t, bw->t) + urand(&s->rng, 15, 40);
}

static void step_b(struct rsim *s)
{
	const struct job *j = s->job;
	struct cthread *m = &s->main;

	/* the all-reduces: each ends when the last rank has joined it */
	int64_t prev = j->nccl_free;
	for (int b = 0; b < j->nbuckets; b++) {
		const struct bucket *bk = &s->bk[b];
		int64_t ts = TT_MAX(bk->ready, prev);
		int64_t end = j->e_end[b];
		/* a slow link: this rank's part of every all-reduce ends late */
		if (s->straggler && s->slow == TT_DEMO_SLOW_LINK)
			end = TT_MAX(end, ts) + j->nominal / 5 +
			      urand(&s->rng, 0, 20);
		if (s->out) {
			struct launch l = {0, bk->corr, bk->ext};
			emit_kernel(s, &k_nccl, STREAM_NCCL, ts, end - ts, &l, bk->nelems);
		}
		prev = end;
	}
	s->s7 = TT_MAX(s->s7, prev);

	/* optimizer: SGD with momentum, foreach implementation */
	int chunks = TT_MAX(1, (j->layers + 5) / 6);
	op_begin(s, m, NULL, "Optimizer.step#SGD.step", -1, CAT_ANNOT);
	m->t += urand(&s->rng, 40, 120);
	op_begin(s, m, NULL, "aten::zeros", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	op_begin(s, m, NULL, "aten::zero_", -1, CAT_OP);
	m->t += urand(&s->rng, 2, 5);
	mem_op(s, m, true, "Memset (Device)", 2048, 1000);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);
	m->t += urand(&s->rng, 5, 15);
	foreach_op(s, m, "aten::_foreach_mul_", &k_foreach_mul, chunks);
	foreach_op(s, m, "aten::_foreach_add_", &k_foreach_add, chunks);
	foreach_op(s, m, "aten::_foreach_add_", &k_foreach_add, chunks);
	m->t += urand(&s->rng, 10, 40);
	op_end(s, m);
	m->t += urand(&s->rng, 20, 60);

	/* loss.item(): blocks until the GPU is done */
	op_begin(s, m, NULL, "aten::item", -1, CAT_OP);
	m->t += urand(&s->rng, 2, 5);
	op_begin(s, m, NULL, "aten::_local_scalar_dense", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	int64_t done = mem_op(s, m, false, "Memcpy DtoH (Device -> Pageable)", 4, 4);
	int64_t wait = TT_MAX(done - m->t, 0) + urand(&s->rng, 2, 6);
	rt_call(s, m, "cudaStreamSynchronize", 131, wait, false);
	m->t += urand(&s->rng, 2, 5);
	op_end(s, m);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);

	/* logging and the rest of the Python loop */
	m->t += urand(&s->rng, 150, 400);
	op_end(s, m); /* ProfilerStep */
	s->step_end = m->t;
	m->t += urand(&s->rng, 5, 25);

	if (s->out) {
		struct out *o = s->out;
		put_events(o, &o->cpu);
		put_events(o, &o->rt);
		put_events(o, &o->gpu);
	}
}

/* the end of every bucket's all-reduce in this step */
static void sync_buckets(struct job *j, int step, int64_t *e_end)
{
	int64_t prev = j->nccl_free;
	int n = j->nranks;
	for (int b = 0; b < j->nbuckets; b++) {
		int64_t last = prev;
		int64_t nelems = j->rs[0].bk[b].nelems;
		for (int q = 0; q < n; q++)
			last = TT_MAX(last, j->rs[q].bk[b].ready);
		uint64_t x = (uint64_t)step * 1000003u + (uint64_t)b;
		x = mix64(j->seed ^ mix64(0xa11eull + x));
		int64_t xfer;
		if (n == 1) {
			xfer = urand(&x, 6, 12);
		} else {
			int lg = 0;
			while ((1 << lg) < n && lg < 30)
				lg++;
			/* ring: 2(n-1)/n of the bytes at ~110 GB/s, plus latency */
			int64_t bytes = nelems * 4;
			xfer = 2 * (int64_t)(n - 1) * bytes / ((int64_t)n * 110000);
			xfer = xfer * urand(&x, 950, 1100) / 1000 + 12 + 3 * lg + urand(&x, 0, 8);
		}
		e_end[b] = last + xfer;
		prev = e_end[b];
	}
}

/* estimated GPU time of one step on a nominal GPU: scales the data loading */
static int64_t kmean(const struct kdef *k)
{
	return k ? (k->dmin + k->dmax) / 2 + 2 : 0;
}

static int64_t call_gpu(const struct call *c)
{
	int64_t t = 0;
	for (int i = 0; i < (int)TT_ARRAY_SIZE(c->k); i++)
		t += kmean(c->k[i]);
	return t;
}

static int64_t ops_gpu(const struct opdef *ops, int n)
{
	int64_t t = 0;
	for (int i = 0; i < n; i++) {
		t += call_gpu(&ops[i].f);
		for (int b = 0; b < (int)TT_ARRAY_SIZE(ops[i].b); b++)
			t += call_gpu(&ops[i].b[b]);
		if (ops[i].params)
			t += kmean(&k_acc);
	}
	return t;
}

static int64_t nominal_step(int layers)
{
	int64_t t = 900 + ops_gpu(head_ops, NOPS(head_ops)) + ops_gpu(loss_ops, NOPS(loss_ops));
	for (int l = 0; l < layers; l++) {
		const struct opdef *ops;
		int n;
		layer_ops(l, &ops, &n);
		t += ops_gpu(ops, n);
	}
	int chunks = TT_MAX(1, (layers + 5) / 6);
	t += chunks * (kmean(&k_foreach_mul) + 2 * kmean(&k_foreach_add));
	return t;
}

/* ---- the document ---- */


static void meta_ev(struct sbuf *b, const char *name, int64_t ts, int64_t pid, int64_t tid,
		    const char *key, const char *sval, int64_t ival)
{
	SB_LIT(b, ",\n  {\"name\": \"");
	sb_str(b, name);
	SB_LIT(b, "\", \"ph\": \"M\", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"args\": {\"");
	sb_str(b, key);
	SB_LIT(b, "\": ");
	if (sval) {
		SB_LIT(b, "\"");
		sb_str(b, sval);
		SB_LIT(b, "\"");
	} else {
		sb_int(b, ival);
	}
	SB_LIT(b, "}}");
}

static void write_meta(const struct rsim *s, struct sbuf *b, int64_t ts)
{
	char buf[64];
	meta_ev(b, "process_name", ts, s->pid, 0, "name", "python", 0);
	meta_ev(b, "process_labels", ts, s->pid, 0, "labels", "CPU", 0);
	meta_ev(b, "process_sort_index", ts, s->pid, 0, "sort_index", NULL, s->pid);
	for (int g = 0; g < NUM_GPUS; g++) {
		meta_ev(b, "process_name", ts, g, 0, "name", "python", 0);
		snprintf(buf, sizeof(buf), "GPU %d", g);
		meta_ev(b, "process_labels", ts, g, 0, "labels", buf, 0);
		meta_ev(b, "process_sort_index", ts, g, 0, "sort_index", NULL, 16777216 + g);
	}
	static const int streams[] = {STREAM_COMPUTE, STREAM_NCCL};
	for (int i = 0; i < 2; i++) {
		snprintf(buf, sizeof(buf), "stream %d ", streams[i]);
		meta_ev(b, "thread_name", ts, s->device, streams[i], "name", buf, 0);
		meta_ev(b, "thread_sort_index", ts, s->device, streams[i], "sort_index", NULL,
			streams[i]);
	}
	snprintf(buf, sizeof(buf), "thread %lld (pt_main_thread)", (long long)s->main.tid);
	meta_ev(b, "thread_name", ts, s->pid, s->main.tid, "name", buf, 0);
	meta_ev(b, "thread_sort_index", ts, s->pid, s->main.tid, "sort_index", NULL, s->main.tid);
	snprintf(buf, sizeof(buf), "thread %lld (pt_autograd_0)", (long long)s->bw.tid);
	meta_ev(b, "thread_name", ts, s->pid, s->bw.tid, "name", buf, 0);
	meta_ev(b, "thread_sort_index", ts, s->pid, s->bw.tid, "sort_index", NULL, s->bw.tid);
}

static void write_header(const struct job *j, const struct rsim *s, struct sbuf *b)
{
	SB_LIT(b, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
	for (int g = 0; g < NUM_GPUS; g++) {
		if (g)
			SB_LIT(b, ",");
		SB_LIT(b, "\n    {\n");
		SB_LIT(b, "      \"id\": ");
		sb_int(b, g);
		SB_LIT(b, ", \"name\": \"NVIDIA A100-SXM4-80GB\", "
			  "\"totalGlobalMem\": 85899345920,\n"
			  "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
			  "      \"maxThreadsPerBlock\": 1024, "
			  "\"maxThreadsPerMultiprocessor\": 2048,\n"
			  "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, "
			  "\"warpSize\": 32,\n"
			  "      \"sharedMemPerBlock\": 49152, "
			  "\"sharedMemPerMultiprocessor\": 167936,\n"
			  "      \"numSms\": 108, \"sharedMemPerBlockOptin\": 166912\n    }");
	}
	SB_LIT(b, "\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
	sb_int(b, s->rank);
	SB_LIT(b, ", \"world_size\": ");
	sb_int(b, j->nranks);
	SB_LIT(b, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
		  "\"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": ");
	sb_int(b, j->nranks);
	SB_LIT(b, ", \"ranks\": [");
	for (int q = 0; q < j->nranks; q++) {
		if (q)
			SB_LIT(b, ", ");
		sb_int(b, q);
	}
	SB_LIT(b, "]}], \"nccl_version\": \"2.20.5\"},\n  \"record_shapes\": 1,\n"
		  "  \"trace_id\": \"");
	char id[40];
	snprintf(id, sizeof(id), "%016llX%016llX", (unsigned long long)mix64(j->seed),
		 (unsigned long long)mix64(j->seed ^ mix64((uint64_t)s->rank + 1)));
	sb_str(b, id);
	SB_LIT(b, "\",\n  \"job_name\": \"tracetop-demo-convnext-ddp\",\n  \"username\": "
		  "\"tracetop\",\n  \"host_name\": \"demo-node-");
	sb_int(b, s->rank / NUM_GPUS);
	SB_LIT(b, "\",\n  \"demo_seed\": ");
	sb_int(b, (int64_t)(j->seed & INT64_MAX));
	SB_LIT(b, ",\n  \"demo_straggler\": ");
	if (s->straggler)
		SB_LIT(b, "true");
	else
		SB_LIT(b, "false");
	if (s->straggler && s->slow == TT_DEMO_SLOW_GPU)
		SB_LIT(b, ",\n  \"demo_straggler_cause\": \"slow GPU\"");
	else if (s->straggler && s->slow == TT_DEMO_SLOW_LINK)
		SB_LIT(b, ",\n  \"demo_straggler_cause\": \"slow link\"");
	SB_LIT(b, ",\n  \"traceEvents\": [");
}

static void write_trailer(const struct rsim *s, struct sbuf *b)
{
	SB_LIT(b, "\n  ],\n  \"traceName\": \"/tmp/tracetop-demo/libkineto_activities_");
	sb_int(b, s->pid);
	SB_LIT(b, ".json\",\n  \"displayTimeUnit\": \"ms\"\n}\n");
}

/* ---- the job ---- */

static void rsim_init(struct job *j, int q, struct out *out)
{
	const struct tt_demo_opts *o = j->o;
	struct rsim *s = &j->rs[q];
	struct bucket *bk = s->bk;
	free(s->main.p);
	free(s->bw.p);
	memset(s, 0, sizeof(*s));
	s->job = j;
	s->rank = q;
	int ns = TT_MIN(TT_MAX(o->nstragglers, 0), TT_DEMO_MAX_STRAGGLERS);
	for (int i = 0; i < ns; i++)
		if (o->stragglers[i] == q) {
			s->straggler = true;
			s->slow = o->straggler_kind[i];
		}
	/* the default straggler moves to the last rank in small jobs */
	if (ns == 1 && o->stragglers[0] == 5 && j->nranks <= 5) {
		s->straggler = q == j->nranks - 1;
		s->slow = o->straggler_kind[0];
	}
	s->rng = mix64(o->seed ^ mix64(0x5eed0000ull + (uint64_t)q));
	s->speed = urand(&s->rng, 975, 1030);
	if (s->straggler && s->slow == TT_DEMO_SLOW_GPU)
		s->speed = s->speed * 135 / 100;
	s->pid = 4000 + (int64_t)q * 16 + urand(&s->rng, 0, 9);
	s->device = q % NUM_GPUS;
	s->main.tid = s->pid;
	s->bw.tid = s->pid + 160 + urand(&s->rng, 0, 20);
	s->start = j->base + urand(&s->rng, 0, 300);
	s->main.t = s->start;
	s->bw.t = s->start;
	s->s7 = s->start;
	s->corr = 1000 + (uint32_t)urand(&s->rng, 0, 500);
	s->ext = 1;
	s->evidx = 0;
	s->bk = bk;
	s->out = out;
}

static void job_init(struct job *j, const struct tt_demo_opts *o)
{
	memset(j, 0, sizeof(*j));
	j->o = o;
	j->nranks = TT_MIN(TT_MAX(o->nranks, 1), MAX_RANKS);
	j->steps = TT_MIN(TT_MAX(o->steps, 1), MAX_STEPS);
	j->layers = TT_MIN(TT_MAX(o->layers, 1), MAX_LAYERS);
	j->nbuckets = (j->layers + BUCKET_LAYERS - 1) / BUCKET_LAYERS;
	j->seed = o->seed;
	j->base = BASE_US + (int64_t)(mix64(o->seed) % 86400) * 1000000;
	j->nominal = nominal_step(j->layers);
	j->etab = tt_calloc((size_t)j->steps * (size_t)j->nbuckets, sizeof(*j->etab));
	j->rs = tt_calloc((size_t)j->nranks, sizeof(*j->rs));
	struct bucket *bk = tt_calloc((size_t)j->nranks * (size_t)j->nbuckets, sizeof(*bk));
	for (int q = 0; q < j->nranks; q++) {
		j->rs[q].bk = bk + (size_t)q * (size_t)j->nbuckets;
		rsim_init(j, q, NULL);
	}
}

/* The job's schedule: every rank in lock step, for timing only, to find
 * when each all-reduce ends. */
static void job_schedule(struct job *j)
{
	j->nccl_free = 0;
	for (int step = 0; step < j->steps; step++) {
		int64_t *e = j->etab + (size_t)step * (size_t)j->nbuckets;
		for (int q = 0; q < j->nranks; q++)
			step_a(&j->rs[q], step);
		sync_buckets(j, step, e);
		j->e_end = e;
		for (int q = 0; q < j->nranks; q++)
			step_b(&j->rs[q]);
		j->nccl_free = e[j->nbuckets - 1];
	}
}

static void job_free(struct job *j)
{
	if (j->rs) {
		free(j->rs[0].bk);
		for (int q = 0; q < j->nranks; q++) {
			free(j->rs[q].main.p);
			free(j->rs[q].bw.p);
		}
	}
	free(j->rs);
	free(j->etab);
}

/* Replay one rank against the schedule, this time with text. */
static char *rank_text(struct job *j, int rank, size_t *len)
{
	struct out out;
	memset(&out, 0, sizeof(out));
	out.first = true;
	rsim_init(j, rank, &out);
	struct rsim *s = &j->rs[rank];
	/* about 40 kB per layer and step; pages never touched cost nothing */
	sb_need(&out.doc, 65536 + (size_t)j->nranks * 8 +
				  (size_t)j->steps * (size_t)(j->layers + 2) * 48000);
	write_header(j, s, &out.doc);
	j->nccl_free = 0;
	for (int step = 0; step < j->steps; step++) {
		j->e_end = j->etab + (size_t)step * (size_t)j->nbuckets;
		step_a(s, step);
		step_b(s);
		j->nccl_free = j->e_end[j->nbuckets - 1];
	}

	/* metadata, the profiler span and the window markers */
	struct sbuf *tail = &out.cpu;
	uint64_t x = mix64(j->seed ^ mix64(0x7ace0000ull + (uint64_t)rank));
	int64_t t0 = s->start - urand(&x, 1500, 3000);
	int64_t t1 = s->step_end + urand(&x, 50, 200);
	write_meta(s, tail, t0);
	SB_LIT(tail, ",\n  {\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", "
		      "\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"ts\": ");
	sb_int(tail, t0);
	SB_LIT(tail, ", \"dur\": ");
	sb_int(tail, t1 - t0);
	SB_LIT(tail, ", \"args\": {\"Op count\": 0}}");
	SB_LIT(tail, ",\n  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
	sb_int(tail, t0);
	SB_LIT(tail, ", \"pid\": \"Spans\", \"tid\": 0, \"args\": {\"sort_index\": 536870912}}");
	SB_LIT(tail, ",\n  {\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", "
		      "\"s\": \"g\", \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", "
		      "\"ts\": ");
	sb_int(tail, t0);
	SB_LIT(tail, "}");
	SB_LIT(tail, ",\n  {\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", "
		      "\"pid\": \"\", \"tid\": \"\", \"ts\": ");
	sb_int(tail, t1 + urand(&x, 100, 600));
	SB_LIT(tail, "}");
	put_events(&out, tail);
	write_trailer(s, &out.doc);

	free(out.cpu.p);
	free(out.rt.p);
	free(out.gpu.p);
	s->out = NULL;
	*len = out.doc.n;
	sb_need(&out.doc, 1);
	out.doc.p[out.doc.n] = '\0';
	return out.doc.p;
}

void tt_demo_defaults(struct tt_demo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nranks = 8;
	o->steps = 6;
	o->layers = 24;
	o->seed = 1;
	o->nstragglers = 1;
	o->stragglers[0] = 5;
}

void tt_demo_set_ranks(struct tt_demo_opts *o, int nranks)
{
	static const struct {
		int upto, steps, layers;
	} sizes[] = {{8, 6, 24}, {32, 5, 12}, {128, 4, 8}, {INT_MAX, 3, 6}};
	o->nranks = nranks;
	for (size_t i = 0; i < TT_ARRAY_SIZE(sizes); i++)
		if (nranks <= sizes[i].upto) {
			o->steps = sizes[i].steps;
			o->layers = sizes[i].layers;
			break;
		}
	memset(o->straggler_kind, 0, sizeof(o->straggler_kind));
	o->nstragglers = 1;
	o->stragglers[0] = nranks > 5 ? 5 : TT_MAX(nranks - 1, 0);
	o->straggler_kind[0] = TT_DEMO_SLOW_HOST;
	if (nranks >= 16) {
		o->stragglers[1] = nranks / 2 + 3;
		o->straggler_kind[1] = TT_DEMO_SLOW_GPU;
		o->stragglers[2] = nranks - 6;
		o->straggler_kind[2] = TT_DEMO_SLOW_LINK;
		o->nstragglers = 3;
	}
}

char *tt_demo_rank_json(const struct tt_demo_opts *o, int rank, size_t *len)
{
	struct tt_demo_opts def;
	if (!o) {
		tt_demo_defaults(&def);
		o = &def;
	}
	if (len)
		*len = 0;
	if (rank < 0 || rank >= TT_MIN(TT_MAX(o->nranks, 1), MAX_RANKS))
		return NULL;
	struct job j;
	job_init(&j, o);
	job_schedule(&j);
	size_t n;
	char *text = rank_text(&j, rank, &n);
	job_free(&j);
	if (len)
		*len = n;
	return text;
}

/* ---- files ---- */

static int mkdir_p(const char *dir, struct tt_err *err)
{
	char path[PATH_MAX];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof(path))
		return tt_err_set(err, TT_E_USAGE, dir, TT_NO_OFFSET, "bad directory name");
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET,
					  "cannot create directory: %s", strerror(errno));
		path[i] = c;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return tt_err_set(err, TT_E_IO, dir, TT_NO_OFFSET, "not a directory");
	return 0;
}

static int write_plain(const char *path, const char *text, size_t len, struct tt_err *err)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "cannot create: %s",
				  strerror(errno));
	size_t w = fwrite(text, 1, len, f);
	int e = errno;
	if (fclose(f) != 0 && w == len) {
		w = 0;
		e = errno;
	}
	if (w != len)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "cannot write: %s",
				  strerror(e));
	return 0;
}

static int write_gz(const char *path, const char *text, size_t len, struct tt_err *err)
{
	gzFile f = gzopen(path, "wb6");
	if (!f)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "cannot create: %s",
				  errno ? strerror(errno) : "out of memory");
	size_t off = 0;
	while (off < len) {
		unsigned chunk = (unsigned)TT_MIN(len - off, (size_t)1 << 30);
		if (gzwrite(f, text + off, chunk) != (int)chunk) {
			int ze;
			const char *msg = gzerror(f, &ze);
			int rc = tt_err_set(err, TT_E_IO, path, off, "cannot write: %s",
					    ze == Z_ERRNO ? strerror(errno) : msg);
			gzclose(f);
			return rc;
		}
		off += chunk;
	}
	if (gzclose(f) != Z_OK)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "cannot finish the gzip file");
	return 0;
}

/* the writers: each thread replays ranks on its own copy of the job (the
 * rank states are shared, one slot per rank; nccl_free and e_end are the
 * copy's own) */
struct writers {
	struct job *job;
	const char *dir;
	bool gzip;
	atomic_int next;
	atomic_bool failed;
	pthread_mutex_t lock;
	int rc;
	struct tt_err *err;
};

static void *writer(void *arg)
{
	struct writers *w = arg;
	struct job j = *w->job;
	char path[PATH_MAX];
	struct tt_err err;
	tt_err_clear(&err);
	for (;;) {
		int r = atomic_fetch_add(&w->next, 1);
		if (r >= j.nranks || atomic_load(&w->failed))
			break;
		int rc = 0;
		int n = snprintf(path, sizeof(path), "%s/rank-%d.pt.trace.json%s", w->dir, r,
				 w->gzip ? ".gz" : "");
		if (n < 0 || (size_t)n >= sizeof(path)) {
			rc = tt_err_set(&err, TT_E_USAGE, w->dir, TT_NO_OFFSET, "path too long");
		} else {
			size_t len;
			char *text = rank_text(&j, r, &len);
			rc = w->gzip ? write_gz(path, text, len, &err) :
				       write_plain(path, text, len, &err);
			free(text);
		}
		if (rc) {
			pthread_mutex_lock(&w->lock);
			if (!w->rc) {
				w->rc = rc;
				*w->err = err;
			}
			pthread_mutex_unlock(&w->lock);
			atomic_store(&w->failed, true);
			break;
		}
	}
	return NULL;
}

int tt_demo_write_dir(const struct tt_demo_opts *o, const char *dir, bool gzip,
		      struct tt_err *err)
{
	struct tt_demo_opts def;
	if (!o) {
		tt_demo_defaults(&def);
		o = &def;
	}
	int rc = mkdir_p(dir, err);
	if (rc)
		return rc;
	/* one schedule for the job, then each rank alone */
	struct job j;
	job_init(&j, o);
	job_schedule(&j);
	struct writers w = {.job = &j, .dir = dir, .gzip = gzip, .err = err};
	atomic_init(&w.next, 0);
	atomic_init(&w.failed, false);
	pthread_mutex_init(&w.lock, NULL);
	int nt = TT_MIN(TT_MIN(tt_ncpus(), 16), j.nranks);
	pthread_t th[16];
	int started = 0;
	for (int i = 1; i < nt; i++) {
		if (pthread_create(&th[started], NULL, writer, &w) != 0)
			break;
		started++;
	}
	writer(&w);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&w.lock);
	job_free(&j);
	return w.rc;
}

int tt_demo_load(const struct tt_demo_opts *o, const struct tt_load_opts *lo,
		 struct tt_model **out)
{
	int n = o->nranks;
	char **bufs = tt_calloc((size_t)n, sizeof(*bufs));
	char **names = tt_calloc((size_t)n, sizeof(*names));
	size_t *lens = tt_calloc((size_t)n, sizeof(*lens));
	char namebuf[64];
	for (int i = 0; i < n; i++) {
		bufs[i] = tt_demo_rank_json(o, i, &lens[i]);
		snprintf(namebuf, sizeof(namebuf), "demo/rank-%d.pt.trace.json", i);
		names[i] = tt_strdup(namebuf);
	}
	int rc = tt_model_load_mem(out, (const char *const *)names, (const void *const *)bufs, lens,
				   (size_t)n, lo);
	for (int i = 0; i < n; i++) {
		free(bufs[i]);
		free(names[i]);
	}
	free(bufs);
	free(names);
	free(lens);
	return rc;
}
