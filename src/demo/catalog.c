/* The demo job's catalogue: the kernels and ops of a ConvNeXt-like model
 * (stem, blocks, downsampling blocks, the head and the loss) with their
 * duration ranges, launch geometry and input shapes. */
#include "config.h"

#include "demo_int.h"

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
const struct kdef demo_k_foreach_add = {
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
	"namespace)::TensorListMetadata<2>, at::native::(anonymous "
	"namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, "
	"float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
	"namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
	30, 110, {320, 1, 1}, {512, 1, 1}, 40, 0, 62};
const struct kdef demo_k_foreach_mul = {
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
	"namespace)::TensorListMetadata<1>, at::native::(anonymous "
	"namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, "
	"float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
	"namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)",
	25, 90, {320, 1, 1}, {512, 1, 1}, 32, 0, 64};
const struct kdef demo_k_nccl = {
	"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	0, 0, {24, 1, 1}, {512, 1, 1}, 96, 0, 3};

#define D_ACT "[32, 512, 7, 7]"
#define T_CONV \
	"[\"float\", \"float\", \"float\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Int\"]"
#define D_NHWC "[32, 7, 7, 512]"
/* batch_norm(input, weight, bias, running_mean, running_var, training,
 * momentum, eps, cudnn_enabled) */
#define T_BN \
	"[\"float\", \"float\", \"float\", \"float\", \"float\", \"Scalar\", \"Scalar\", " \
	"\"Scalar\", \"Scalar\"]"
/* Concrete Inputs of conv2d(input, weight, bias, stride, padding, dilation,
 * groups) */
#define C_CONV(stride, pad, groups) \
	"[\"\", \"\", \"\", \"[" stride ", " stride "]\", \"[" pad ", " pad "]\", \"[1, 1]\", " \
	"\"" groups "\"]"
/* convolution_backward(grad_output, input, weight, bias_sizes, stride,
 * padding, dilation, transposed, output_padding, groups, output_mask) */
#define T_CONV_BWD \
	"[\"float\", \"float\", \"float\", \"ScalarList\", \"ScalarList\", \"ScalarList\", " \
	"\"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\", \"ScalarList\"]"
#define C_CONV_BWD(stride, pad, groups, mask) \
	"[\"\", \"\", \"\", \"[512]\", \"[" stride ", " stride "]\", \"[" pad ", " pad "]\", " \
	"\"[1, 1]\", \"False\", \"[0, 0]\", \"" groups "\", \"" mask "\"]"

/* the stem: a 4x4 stride-4 conv on the images, its wgrad only */
static const struct opdef stem_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_nchw2nhwc, &k_fprop_stem, &k_nhwc2nchw},
	  "[[32, 3, 224, 224], [512, 3, 4, 4], [512], [], [], [], []]",
	  T_CONV, C_CONV("4", "0", "1")},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_wgrad_stem, &k_sum},
	   "[[32, 512, 56, 56], [32, 3, 224, 224], [512, 3, 4, 4], [], [], [], [], [], [], [], []]",
	   T_CONV_BWD, C_CONV_BWD("4", "0", "1", "[False, True, True]")}},
	 512 * 3 * 16 + 512},
	{{{"aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"}, NULL,
	  {&k_bn_fw}, "[" D_ACT ", [512], [512], [512], [512], [], [], [], []]", T_BN, NULL},
	 "CudnnBatchNormBackward0",
	 {{{"aten::cudnn_batch_norm_backward"}, NULL, {&k_bn_bw}, NULL, NULL, NULL}},
	 2 * 512},
	{{{"aten::relu", "aten::clamp_min"}, NULL, {&k_relu}, "[" D_ACT "]", "[\"float\"]", NULL},
	 "ReluBackward0",
	 {{{"aten::threshold_backward"}, NULL, {&k_threshold}, NULL, NULL, NULL}},
	 0},
};

/* a 2x2 conv block (conv, batch norm, relu) every DOWN_EVERY layers */
static const struct opdef down_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_nchw2nhwc, &k_fprop, &k_nhwc2nchw},
	  "[" D_ACT ", [512, 512, 2, 2], [512], [], [], [], []]",
	  T_CONV, C_CONV("1", "0", "1")},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_dgrad, &k_wgrad, &k_sum},
	   "[[32, 512, 6, 6], " D_ACT ", [512, 512, 2, 2], [], [], [], [], [], [], [], []]",
	   T_CONV_BWD, C_CONV_BWD("1", "0", "1", "[True, True, True]")}},
	 512 * 512 * 4 + 512},
	{{{"aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"}, NULL,
	  {&k_bn_fw}, "[" D_ACT ", [512], [512], [512], [512], [], [], [], []]", T_BN, NULL},
	 "CudnnBatchNormBackward0",
	 {{{"aten::cudnn_batch_norm_backward"}, NULL, {&k_bn_bw}, NULL, NULL, NULL}},
	 2 * 512},
	{{{"aten::relu", "aten::clamp_min"}, NULL, {&k_relu}, "[" D_ACT "]", "[\"float\"]", NULL},
	 "ReluBackward0",
	 {{{"aten::threshold_backward"}, NULL, {&k_threshold}, NULL, NULL, NULL}},
	 0},
};

/* a ConvNeXt block: depthwise conv, layer norm, MLP, layer scale, residual */
static const struct opdef block_ops[] = {
	{{{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
	  NULL, {&k_dw_fprop}, "[" D_ACT ", [512, 1, 7, 7], [512], [], [], [], []]", T_CONV,
	  C_CONV("1", "3", "512")},
	 "ConvolutionBackward0",
	 {{{"aten::convolution_backward"}, NULL, {&k_dw_dgrad, &k_dw_wgrad, &k_sum},
	   "[" D_ACT ", " D_ACT ", [512, 1, 7, 7], [], [], [], [], [], [], [], []]",
	   T_CONV_BWD, C_CONV_BWD("1", "3", "512", "[True, True, True]")}},
	 512 * 49 + 512},
	{{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, "[" D_ACT ", []]",
	  "[\"float\", \"IntList\"]", NULL},
	 "PermuteBackward0",
	 {{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, NULL, NULL, NULL}},
	 0},
	{{{"aten::layer_norm", "aten::native_layer_norm"}, NULL, {&k_ln_fw},
	  "[" D_NHWC ", [], [512], [512], [], []]",
	  "[\"float\", \"IntList\", \"float\", \"float\", \"Double\", \"Bool\"]", NULL},
	 "NativeLayerNormBackward0",
	 {{{"aten::native_layer_norm_backward"}, NULL, {&k_ln_bw_in, &k_ln_bw_gb}, NULL, NULL, NULL}},
	 2 * 512},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_fc1},
	  "[[32, 7, 7, 512], [2048, 512], [2048]]", "[\"float\", \"float\", \"float\"]", NULL},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_fc1_dgrad}, NULL, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_fc1_wgrad}, NULL, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL, NULL}},
	 2048 * 512 + 2048},
	{{{"aten::gelu"}, NULL, {&k_gelu}, "[[32, 7, 7, 2048], []]", "[\"float\", \"String\"]", NULL},
	 "GeluBackward0",
	 {{{"aten::gelu_backward"}, NULL, {&k_gelu_bw}, NULL, NULL, NULL}},
	 0},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_fc2},
	  "[[32, 7, 7, 2048], [512, 2048], [512]]", "[\"float\", \"float\", \"float\"]", NULL},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_fc2_dgrad}, NULL, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_fc2_wgrad}, NULL, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL, NULL}},
	 512 * 2048 + 512},
	{{{"aten::mul"}, NULL, {&k_mul}, "[" D_NHWC ", [512]]", "[\"float\", \"float\"]", NULL},
	 "MulBackward0",
	 {{{"aten::mul"}, NULL, {&k_mul}, NULL, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL, NULL}},
	 512},
	{{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, "[" D_NHWC ", []]",
	  "[\"float\", \"IntList\"]", NULL},
	 "PermuteBackward0",
	 {{{"aten::permute", "aten::as_strided"}, NULL, {NULL}, NULL, NULL, NULL}},
	 0},
	{{{"aten::add_"}, NULL, {&k_add}, "[" D_ACT ", " D_ACT ", []]",
	  "[\"float\", \"float\", \"Scalar\"]", NULL},
	 "AddBackward0", {{{NULL}, NULL, {NULL}, NULL, NULL, NULL}}, 0},
};

/* pooling and the classifier, inside DistributedDataParallel.forward */
const struct opdef demo_head_ops[] = {
	{{{"aten::mean"}, NULL, {&k_mean}, "[" D_ACT ", [], [], []]",
	  "[\"float\", \"IntList\", \"Bool\", \"\"]", NULL},
	 "MeanBackward1",
	 {{{"aten::div"}, NULL, {&k_div}, NULL, NULL, NULL}},
	 0},
	{{{"aten::linear", "aten::addmm"}, "aten::t", {&k_head},
	  "[[32, 512], [1000, 512], [1000]]", "[\"float\", \"float\", \"float\"]", NULL},
	 "AddmmBackward0",
	 {{{"aten::mm"}, NULL, {&k_head_dgrad}, NULL, NULL, NULL},
	  {{"aten::mm"}, NULL, {&k_head_wgrad}, NULL, NULL, NULL},
	  {{"aten::sum"}, NULL, {&k_sum}, NULL, NULL, NULL}},
	 1000 * 512 + 1000},
};

/* the loss, under aten::cross_entropy_loss */
const struct opdef demo_loss_ops[] = {
	{{{"aten::log_softmax", "aten::_log_softmax"}, NULL, {&k_softmax_fw},
	  "[[32, 1000], [], []]", "[\"float\", \"Scalar\", \"\"]", NULL},
	 "LogSoftmaxBackward0",
	 {{{"aten::_log_softmax_backward_data"}, NULL, {&k_softmax_bw}, NULL, NULL, NULL}},
	 0},
	{{{"aten::nll_loss_nd", "aten::nll_loss", "aten::nll_loss_forward"}, NULL, {&k_nll_fw},
	  "[[32, 1000], [32], [], [], []]",
	  "[\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\"]", NULL},
	 "NllLossBackward0",
	 {{{"aten::nll_loss_backward"}, "aten::zero_", {&k_fill, &k_nll_bw}, NULL, NULL, NULL}},
	 0},
};

const struct call demo_ones_like_call = {
	{"aten::ones_like", "aten::fill_"}, "aten::empty_like", {&k_fill},
	"[[], [], [], [], [], []]", NULL, NULL};
const struct call demo_acc_call = {{"aten::add_"}, NULL, {&k_acc}, NULL, NULL, NULL};

#define NOPS(a) ((int)TT_ARRAY_SIZE(a))

const int demo_nhead_ops = NOPS(demo_head_ops);
const int demo_nloss_ops = NOPS(demo_loss_ops);

void demo_layer_ops(int layer, const struct opdef **ops, int *n)
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

int64_t demo_nominal_step(int layers)
{
	int64_t t = 900 + ops_gpu(demo_head_ops, demo_nhead_ops) + ops_gpu(demo_loss_ops, demo_nloss_ops);
	for (int l = 0; l < layers; l++) {
		const struct opdef *ops;
		int n;
		demo_layer_ops(l, &ops, &n);
		t += ops_gpu(ops, n);
	}
	int chunks = TT_MAX(1, (layers + 5) / 6);
	t += chunks * (kmean(&demo_k_foreach_mul) + 2 * kmean(&demo_k_foreach_add));
	return t;
}
