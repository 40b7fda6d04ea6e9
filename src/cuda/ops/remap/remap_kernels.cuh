// Device code of remap: dst(x, y) = src(map_x(x, y), map_y(x, y)) with two f32 maps. Templated
// on element type, channel count and source; interpolation and border are runtime arguments.
#pragma once

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/remap/remap_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

__device__ __forceinline__ void remap_coord(const RemapArgs& a, int x, int y, float& sx,
                                            float& sy) {
  const std::size_t yy = static_cast<std::size_t>(y);
  sx = __ldg(reinterpret_cast<const float*>(a.map_x + a.map_x_pitch * yy) + x);
  sy = __ldg(reinterpret_cast<const float*>(a.map_y + a.map_y_pitch * yy) + x);
}

template <typename T, int C, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    remap_kernel(const Src src, const DstArgs dst, const RemapArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
  sample_pixels<C, PX>(
      src, a.s,
      [&](int i, float& sx, float& sy) { remap_coord(a, min(x0 + i, dst.width - 1), y, sx, sy); },
      v);
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    remap_filter_kernel(const SourceArgs s, const DstArgs dst, const RemapArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) {
    float sx, sy;
    remap_coord(a, min(x0 + i, dst.width - 1), y, sx, sy);
    filter_fetch<C>(s, sx, sy, v + i * C);
  }
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

template <typename T, int C>
void launch_remap(const SourceArgs& s, const DstArgs& d, const RemapArgs& a, cudaStream_t st) {
  const dim3 grid = grid_for(d.width, d.height, kResamplePx<T, C>);
  const dim3 block(kBlockX, kBlockY);
  if constexpr (C != 3) {
    if (s.path == Path::texture_filter) {
      remap_filter_kernel<T, C><<<grid, block, 0, st>>>(s, d, a);
      TEXCV_CUDA_CHECK_LAUNCH("remap");
      return;
    }
    if (s.path == Path::texture) {
      remap_kernel<T, C><<<grid, block, 0, st>>>(make_texture_source<T, C>(s), d, a);
      TEXCV_CUDA_CHECK_LAUNCH("remap");
      return;
    }
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, "remap", "no texture kernel for 3 channels", to_string(s.path),
         "global");
  remap_kernel<T, C><<<grid, block, 0, st>>>(make_global_source<T, C>(s), d, a);
  TEXCV_CUDA_CHECK_LAUNCH("remap");
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_REMAP(T)                                                      \
  template void launch_remap<T, 1>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);                                       \
  template void launch_remap<T, 3>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);                                       \
  template void launch_remap<T, 4>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);
