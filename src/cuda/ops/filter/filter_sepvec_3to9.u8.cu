// The separable register kernels (both passes in registers, global path) for u8 sources,
// taps 3, 5, 7, 9.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP_VEC(std::uint8_t, 3)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(std::uint8_t, 5)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(std::uint8_t, 7)
TEXCV_INSTANTIATE_FILTER_SEP_VEC(std::uint8_t, 9)

}  // namespace texcv::cuda::ops
