// flip kernels for f32 (1, 3 and 4 channels).
#include "src/cuda/ops/flip/flip_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_FLIP(float)
}  // namespace texcv::cuda::ops
