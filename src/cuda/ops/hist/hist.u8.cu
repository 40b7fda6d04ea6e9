// Reduction and histogram kernels for u8 sources.
#include "src/cuda/ops/hist/hist_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_HIST(std::uint8_t)
TEXCV_INSTANTIATE_HIST_INT(std::uint8_t)

}  // namespace texcv::cuda::ops
