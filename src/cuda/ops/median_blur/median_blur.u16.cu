// median_blur kernels for u16 images.
#include "src/cuda/ops/median_blur/median_blur_kernels.cuh"

namespace texcv::cuda::ops {

template void launch_median<std::uint16_t>(const MedianSrc&, const DstArgs&, int, int,
                                           cudaStream_t);

}  // namespace texcv::cuda::ops
