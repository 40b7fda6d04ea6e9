// clahe's kernels for u16 images.
#include "src/cuda/ops/clahe/clahe_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_CLAHE(std::uint16_t)

}  // namespace texcv::cuda::ops
