// The separable register kernels (both passes in registers, global path) for f32 sources,
// 13 taps (a translation unit of its own: the largest kernel set).
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP_VEC(float, 13)

}  // namespace texcv::cuda::ops
