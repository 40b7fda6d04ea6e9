// Device code of warp_affine / warp_perspective (and rotate). Templated on element type, channel
// count and source; the matrix, its kind, interpolation and border are runtime arguments.
#pragma once

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/warp/warp_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// The source coordinate of destination pixel (x, y), as the CPU backend computes it.
__device__ __forceinline__ void warp_coord(const WarpArgs& a, int x, int y, float& sx, float& sy) {
  if (a.perspective) {
    const detail::PerspectiveMap m{
        {a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5], a.m[6], a.m[7], a.m[8]}};
    m(x, y, sx, sy);
  } else {
    const detail::AffineMap m{{a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5]}};
    m(x, y, sx, sy);
  }
}

template <typename T, int C, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    warp_kernel(const Src src, const DstArgs dst, const WarpArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
  sample_pixels<C, PX>(
      src, a.s,
      [&](int i, float& sx, float& sy) { warp_coord(a, min(x0 + i, dst.width - 1), y, sx, sy); },
      v);
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    warp_filter_kernel(const SourceArgs s, const DstArgs dst, const WarpArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) {
    float sx, sy;
    warp_coord(a, min(x0 + i, dst.width - 1), y, sx, sy);
    filter_fetch<C>(s, sx, sy, v + i * C);
  }
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

template <typename T, int C>
void launch_warp(const SourceArgs& s, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  const dim3 grid = grid_for(d.width, d.height, kResamplePx<T, C>);
  const dim3 block(kBlockX, kBlockY);
  if constexpr (C != 3) {
    if (s.path == Path::texture_filter) {
      warp_filter_kernel<T, C><<<grid, block, 0, st>>>(s, d, a);
      TEXCV_CUDA_CHECK_LAUNCH("warp");
      return;
    }
    if (s.path == Path::texture) {
      warp_kernel<T, C><<<grid, block, 0, st>>>(make_texture_source<T, C>(s), d, a);
      TEXCV_CUDA_CHECK_LAUNCH("warp");
      return;
    }
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, "warp", "no texture kernel for 3 channels", to_string(s.path),
         "global");
  warp_kernel<T, C><<<grid, block, 0, st>>>(make_global_source<T, C>(s), d, a);
  TEXCV_CUDA_CHECK_LAUNCH("warp");
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_WARP(T)                                                     \
  template void launch_warp<T, 1>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 3>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 4>(const SourceArgs&, const DstArgs&, const WarpArgs&, cudaStream_t);
