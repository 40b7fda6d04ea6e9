// unsharp_mask's pointwise step: the CPU's expression per element (--fmad=false), for every
// element type.
#include "src/cuda/ops/filter/filter_kernels.cuh"
#include "src/cuda/ops/unsharp_mask/unsharp_mask_launch.hpp"

namespace texcv::cuda::ops {

namespace {

// Per element (widths in elements): out = src + amount * (src - blur) where |src - blur| >=
// threshold, else src.
template <typename T>
__global__ void __launch_bounds__(kFilterThreads)
    unsharp_kernel(const FilterSrc s, const FilterSrc bl, const DstArgs d, float amount,
                   float threshold) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  const T sv = filter_row<T>(s, y)[x];
  const float v = static_cast<float>(sv);
  const float diff = v - static_cast<float>(filter_row<T>(bl, y)[x]);
  const float mag = diff < 0.0f ? -diff : diff;
  out_row<T>(d, y)[x] = mag >= threshold ? detail::saturate<T>(v + amount * diff) : sv;
}

}  // namespace

template <typename T>
void launch_unsharp(const FilterSrc& s, const FilterSrc& blur, const DstArgs& d, float amount,
                    float threshold, cudaStream_t st) {
  unsharp_kernel<T><<<grid_for(d.width, d.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(
      s, blur, d, amount, threshold);
  TEXCV_CUDA_CHECK_LAUNCH("unsharp_mask");
}

template void launch_unsharp<std::uint8_t>(const FilterSrc&, const FilterSrc&, const DstArgs&,
                                           float, float, cudaStream_t);
template void launch_unsharp<std::uint16_t>(const FilterSrc&, const FilterSrc&, const DstArgs&,
                                            float, float, cudaStream_t);
template void launch_unsharp<float>(const FilterSrc&, const FilterSrc&, const DstArgs&, float,
                                    float, cudaStream_t);

}  // namespace texcv::cuda::ops
