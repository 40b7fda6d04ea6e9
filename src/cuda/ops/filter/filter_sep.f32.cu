// The separable linear-filter kernels and unsharp_mask for f32 sources.
#include "src/cuda/ops/filter/filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_FILTER_SEP(float)

}  // namespace texcv::cuda::ops
