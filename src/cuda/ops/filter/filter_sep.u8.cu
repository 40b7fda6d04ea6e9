// The separable linear-filter kernels and unsharp_mask for u8 sources.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP(std::uint8_t)

}  // namespace texcv::cuda::ops
