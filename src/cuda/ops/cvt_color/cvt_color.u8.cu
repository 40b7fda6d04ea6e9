// cvt_color's kernels for u8 images.
#include "src/cuda/ops/cvt_color/cvt_color_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_CVT_COLOR(std::uint8_t)

}  // namespace texcv::cuda::ops
