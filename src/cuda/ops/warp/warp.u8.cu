// warp kernels for u8 (1, 3 and 4 channels).
#include "src/cuda/ops/warp/warp_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_WARP(std::uint8_t)
}  // namespace texcv::cuda::ops
