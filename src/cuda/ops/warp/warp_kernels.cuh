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

// Output rows per thread of the gather kernels (warps, remap): several independent pixels per
// thread keep more loads in flight. Fewer for cubic (16 taps a pixel) and for 4-pixel threads.
template <typename T, int C, Interp IP>
constexpr int kGatherPy = IP == Interp::cubic ? 2 : (kResamplePx<T, C> >= 4 ? 2 : 4);

// One thread: PX adjacent pixels along x (one vector store) on PY rows blockDim.y apart.
template <typename T, int C, Interp IP, bool Persp, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    warp_kernel(const Src src, const DstArgs dst, const WarpArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  constexpr int N = PX * PY;
  int tx, ty;
  patch_thread<kGatherPatch<T, IP>>(tx, ty);
  const int x0 = (static_cast<int>(blockIdx.x) * kBlockX + tx) * PX;
  const int y0 = static_cast<int>(blockIdx.y) * kBlockY * PY + ty;
  if (y0 >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float sx[N], sy[N];
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = min(y0 + j * kBlockY, dst.height - 1);
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      const int x = min(x0 + i, dst.width - 1);
      if constexpr (Persp) {
        const detail::PerspectiveMap m{
            {a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5], a.m[6], a.m[7], a.m[8]}};
        m(x, y, sx[j * PX + i], sy[j * PX + i]);
      } else {
        const detail::AffineMap m{{a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5]}};
        m(x, y, sx[j * PX + i], sy[j * PX + i]);
      }
    }
  }
  float v[N * C];
  gather_samples<IP, C, N>(src, a.s, sx, sy, v);
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = y0 + j * kBlockY;
    if (y < dst.height) {
      float w[PX * C];
#pragma unroll
      for (int e = 0; e < PX * C; ++e) w[e] = v[j * PX * C + e];
      store_pixels<T, C, PX>(dst, x0, y, w, n);
    }
  }
}

template <typename T, int C, Interp IP, bool Persp, class Src>
void launch_warp_ip(const Src& src, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  const dim3 grid(static_cast<unsigned>((d.width + kBlockX * PX - 1) / (kBlockX * PX)),
                  static_cast<unsigned>((d.height + kBlockY * PY - 1) / (kBlockY * PY)));
  warp_kernel<T, C, IP, Persp, Src><<<grid, dim3(kBlockX, kBlockY), 0, st>>>(src, d, a);
  TEXCV_CUDA_CHECK_LAUNCH("warp");
}

template <typename T, int C, class Src>
void launch_warp_src(const Src& src, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  const auto go = [&]<Interp IP>() {
    if (a.perspective)
      launch_warp_ip<T, C, IP, true>(src, d, a, st);
    else
      launch_warp_ip<T, C, IP, false>(src, d, a, st);
  };
  switch (a.s.interp) {
    case Interp::nearest:
      go.template operator()<Interp::nearest>();
      return;
    case Interp::cubic:
      go.template operator()<Interp::cubic>();
      return;
    default:
      go.template operator()<Interp::linear>();
      return;
  }
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
      launch_warp_src<T, C>(make_texture_source<T, C>(s), d, a, st);
      return;
    }
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, "warp", "no texture kernel for 3 channels", to_string(s.path),
         "global");
  launch_warp_src<T, C>(make_global_source<T, C>(s), d, a, st);
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_WARP(T)                                                     \
  template void launch_warp<T, 1>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 3>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 4>(const SourceArgs&, const DstArgs&, const WarpArgs&, cudaStream_t);
