// Reduction and histogram kernels for f32 sources, and the double-precision sums of normalize's
// mean_std on f32.
#include "src/cuda/ops/hist/hist_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_HIST(float)

void launch_f32_sums(const ReduceSrc& s, int blocks, const Centre& centre, double* out,
                     cudaStream_t st) {
  by_channels("normalize", s.channels, [&]<int C>() {
    f32_sums_kernel<C><<<blocks, reduce_threads(C), 0, st>>>(s, centre, out);
  });
  TEXCV_CUDA_CHECK_LAUNCH("normalize");
}

}  // namespace texcv::cuda::ops
