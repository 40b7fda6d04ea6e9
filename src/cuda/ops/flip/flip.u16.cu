// flip kernels for u16 (1, 3 and 4 channels).
#include "src/cuda/ops/flip/flip_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_FLIP(std::uint16_t)
}  // namespace texcv::cuda::ops
