// Linear-filter kernels for u8 sources (and the column pass into u8 destinations).
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER(std::uint8_t)

}  // namespace texcv::cuda::ops
