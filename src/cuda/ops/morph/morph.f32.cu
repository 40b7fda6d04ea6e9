// Morphology kernels for f32 images.
#include "src/cuda/ops/morph/morph_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_MORPH(float)

}  // namespace texcv::cuda::ops
