// The 2-D linear-filter kernels for u16 sources.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_2D(std::uint16_t)

}  // namespace texcv::cuda::ops
