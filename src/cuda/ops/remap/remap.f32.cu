// remap kernels for f32 (1, 3 and 4 channels).
#include "src/cuda/ops/remap/remap_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_REMAP(float)
}  // namespace texcv::cuda::ops
