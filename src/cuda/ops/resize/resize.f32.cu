// resize kernels for f32 (1, 3 and 4 channels).
#include "src/cuda/ops/resize/resize_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_RESIZE(float)
}  // namespace texcv::cuda::ops
