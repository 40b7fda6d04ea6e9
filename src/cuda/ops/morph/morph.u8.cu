// Morphology kernels for u8 images.
#include "src/cuda/ops/morph/morph_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_MORPH(std::uint8_t)

}  // namespace texcv::cuda::ops
