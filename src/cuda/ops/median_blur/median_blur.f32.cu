// median_blur kernels for f32 images.
#include "src/cuda/ops/median_blur/median_blur_kernels.cuh"

namespace texcv::cuda::ops {

template void launch_median<float>(const MedianSrc&, const DstArgs&, int, int, cudaStream_t);

}  // namespace texcv::cuda::ops
