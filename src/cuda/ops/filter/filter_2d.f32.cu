// The 2-D linear-filter kernels for f32 sources.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_2D(float)

}  // namespace texcv::cuda::ops
