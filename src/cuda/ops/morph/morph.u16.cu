// Morphology kernels for u16 images.
#include "src/cuda/ops/morph/morph_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_MORPH(std::uint16_t)

}  // namespace texcv::cuda::ops
