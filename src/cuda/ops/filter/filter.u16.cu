// Linear-filter kernels for u16 sources (and the column pass into u16 destinations).
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER(std::uint16_t)

}  // namespace texcv::cuda::ops
