// median_blur kernels for u16 images.
#include "src/cuda/ops/median/median_kernels.cuh"

namespace texcv::cuda::ops {

template void launch_median<std::uint16_t>(const MedianSrc&, const DstArgs&, int, int,
                                           cudaStream_t);

}  // namespace texcv::cuda::ops
