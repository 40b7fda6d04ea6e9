// flip kernels for u8 (1, 3 and 4 channels).
#include "src/cuda/ops/flip/flip_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_FLIP(std::uint8_t)
}  // namespace texcv::cuda::ops
