// bilateral_filter kernels for f32 images, and the range reduction that sizes the f32 colour table.
#include "src/cuda/ops/bilateral_filter/bilateral_filter_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_BILATERAL(float)

namespace bilateral {

// Each block takes rows blockIdx.x, blockIdx.x + gridDim.x, ... and its threads step along each
// row (no division per element); each warp reduces its keys and lane 0 folds them into out.
__global__ void __launch_bounds__(256)
    finite_range_kernel(const BilateralSrc s, int row_elems, std::uint32_t* out) {
  std::uint32_t lo = 0xffffffffu, hi = 0u;
  for (int y = static_cast<int>(blockIdx.x); y < s.height; y += static_cast<int>(gridDim.x)) {
    const float* row =
        reinterpret_cast<const float*>(s.data + s.pitch * static_cast<std::size_t>(y));
    for (int e = static_cast<int>(threadIdx.x); e < row_elems; e += static_cast<int>(blockDim.x)) {
      const float v = __ldg(row + e);
      if (isfinite(v)) {
        const std::uint32_t k = detail::float_key(__float_as_uint(v));
        lo = min(lo, k);
        hi = max(hi, k);
      }
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, off));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, off));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(out, lo);
    atomicMax(out + 1, hi);
  }
}

}  // namespace bilateral

void launch_finite_range(const BilateralSrc& s, int channels, std::uint32_t* out, cudaStream_t st) {
  constexpr const char* kOp = "bilateral_filter";
  TEXCV_CUDA_CHECK(kOp, cudaMemsetAsync(out, 0xff, sizeof(std::uint32_t), st));
  TEXCV_CUDA_CHECK(kOp, cudaMemsetAsync(out + 1, 0, sizeof(std::uint32_t), st));
  const unsigned grid = static_cast<unsigned>(s.height < 2048 ? s.height : 2048);
  bilateral::finite_range_kernel<<<grid, 256, 0, st>>>(s, s.width * channels, out);
  TEXCV_CUDA_CHECK_LAUNCH(kOp);
}

}  // namespace texcv::cuda::ops
