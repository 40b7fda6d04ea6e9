// clahe's kernels for u8 images.
#include "src/cuda/ops/clahe/clahe_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_CLAHE(std::uint8_t)

}  // namespace texcv::cuda::ops
