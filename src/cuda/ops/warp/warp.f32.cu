// warp kernels for f32 (1, 3 and 4 channels).
#include "src/cuda/ops/warp/warp_kernels.cuh"

namespace texcv::cuda::ops {
TEXCV_INSTANTIATE_WARP(float)
}  // namespace texcv::cuda::ops
