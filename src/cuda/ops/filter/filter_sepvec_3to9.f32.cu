// The separable register kernels (both passes in registers, global path) for f32 sources,
// taps 3, 5, 7, 9.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP_VEC(float, 3)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(float, 5)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(float, 7)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(float, 9)

}  // namespace texcv::cuda::ops
