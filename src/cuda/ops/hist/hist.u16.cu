// Reduction and histogram kernels for u16 sources.
#include "src/cuda/ops/hist/hist_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_HIST(std::uint16_t)
TEXCV_INSTANTIATE_HIST_INT(std::uint16_t)

}  // namespace texcv::cuda::ops
