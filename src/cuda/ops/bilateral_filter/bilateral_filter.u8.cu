// bilateral_filter kernels for u8 images.
#include "src/cuda/ops/bilateral_filter/bilateral_filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_BILATERAL(std::uint8_t)

}  // namespace texcv::cuda::ops
