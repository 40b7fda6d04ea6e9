// remap kernels for u8 (1, 3 and 4 channels).
#include "src/cuda/ops/remap/remap_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_REMAP(std::uint8_t)
}  // namespace texcv::cuda::ops
