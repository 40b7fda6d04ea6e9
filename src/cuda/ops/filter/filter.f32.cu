// Linear-filter kernels for f32 sources (and the column pass into f32 destinations).
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER(float)

}  // namespace texcv::cuda::ops
