// cvt_color's kernels for f32 images.
#include "src/cuda/ops/cvt_color/cvt_color_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_CVT_COLOR(float)

}  // namespace texcv::cuda::ops
