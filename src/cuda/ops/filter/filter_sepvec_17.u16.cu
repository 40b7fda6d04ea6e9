// The separable register kernels (both passes in registers, global path) for u16 sources,
// 17 taps (a translation unit of its own: the largest kernel set).
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP_VEC(std::uint16_t, 17)

}  // namespace texcv::cuda::ops
