// resize kernels for u16 (1, 3 and 4 channels).
#include "src/cuda/ops/resize/resize_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_RESIZE(std::uint16_t)
}  // namespace texcv::cuda::ops
