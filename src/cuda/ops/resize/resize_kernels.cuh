// Device code of resize. Kernels are templated on the element type, the channel count and the
// source (plain loads or point-sampled texture); interpolation, border, border value and the
// axis maps are runtime arguments.
#pragma once

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/resize/resize_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// nearest, linear and cubic; PX output pixels per thread along x.
template <typename T, int C, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    resize_kernel(const Src src, const DstArgs dst, const ResizeArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
  switch (a.s.interp) {
    case Interp::nearest: {
      const int iy = a.ay.nearest(y, src.height);
#pragma unroll
      for (int i = 0; i < PX; ++i)
        src.load(a.ax.nearest(min(x0 + i, dst.width - 1), src.width), iy, v + i * C);
      break;
    }
    case Interp::cubic: {
      const float sy = a.ay(y);
#pragma unroll
      for (int i = 0; i < PX; ++i)
        detail::sample_cubic<C>(src, a.ax(min(x0 + i, dst.width - 1)), sy, a.s.border, a.s.bv,
                                v + i * C);
      break;
    }
    default: {
      const float sy = a.ay(y);
#pragma unroll
      for (int i = 0; i < PX; ++i)
        detail::sample_linear<C>(src, a.ax(min(x0 + i, dst.width - 1)), sy, a.s.border, a.s.bv,
                                 v + i * C);
      break;
    }
  }
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

// Interp::area, as cv::INTER_AREA: averaging when both axes shrink, else bilinear with
// OpenCV's area fractions (sampling.hpp's area_taps / area_upscale_coord).
template <int C, class Src>
__device__ __forceinline__ void area_pixel(const Src& src, int x, int y, const ResizeArgs& a,
                                           float* out) {
  if (a.area_shrink) {
#pragma unroll
    for (int c = 0; c < C; ++c) out[c] = 0.0f;
    detail::area_taps(y, a.scale_y, src.height, [&](int iy, float wy) {
      float row[C];
#pragma unroll
      for (int c = 0; c < C; ++c) row[c] = 0.0f;
      detail::area_taps(x, a.scale_x, src.width, [&](int ix, float wx) {
        float p[C];
        src.load(ix, iy, p);
#pragma unroll
        for (int c = 0; c < C; ++c) row[c] += p[c] * wx;
      });
#pragma unroll
      for (int c = 0; c < C; ++c) out[c] += row[c] * wy;
    });
    return;
  }
  int x0, y0;
  float fx, fy;
  detail::area_upscale_coord(x, a.scale_x, x0, fx);
  detail::area_upscale_coord(y, a.scale_y, y0, fy);
  float p00[C], p01[C], p10[C], p11[C];
  detail::fetch<C>(src, x0, y0, a.s.border, a.s.bv, p00);
  detail::fetch<C>(src, x0 + 1, y0, a.s.border, a.s.bv, p01);
  detail::fetch<C>(src, x0, y0 + 1, a.s.border, a.s.bv, p10);
  detail::fetch<C>(src, x0 + 1, y0 + 1, a.s.border, a.s.bv, p11);
  const float gx = 1.0f - fx;
  const float gy = 1.0f - fy;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const float r0 = p00[c] * gx + p01[c] * fx;
    const float r1 = p10[c] * gx + p11[c] * fx;
    out[c] = r0 * gy + r1 * fy;
  }
}

template <typename T, int C, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    resize_area_kernel(const Src src, const DstArgs dst, const ResizeArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) area_pixel<C>(src, min(x0 + i, dst.width - 1), y, a, v + i * C);
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

// Hardware bilinear (Path::texture_filter), 1 and 4 channels.
template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    resize_filter_kernel(const SourceArgs s, const DstArgs dst, const ResizeArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  const float sy = a.ay(y);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) filter_fetch<C>(s, a.ax(min(x0 + i, dst.width - 1)), sy, v + i * C);
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

template <typename T, int C, class Src>
void launch_resize_src(const Src& src, const DstArgs& d, const ResizeArgs& a, cudaStream_t st) {
  const dim3 grid = grid_for(d.width, d.height, kResamplePx<T, C>);
  const dim3 block(kBlockX, kBlockY);
  if (a.s.interp == Interp::area)
    resize_area_kernel<T, C, Src><<<grid, block, 0, st>>>(src, d, a);
  else
    resize_kernel<T, C, Src><<<grid, block, 0, st>>>(src, d, a);
  TEXCV_CUDA_CHECK_LAUNCH("resize");
}

template <typename T, int C>
void launch_resize(const SourceArgs& s, const DstArgs& d, const ResizeArgs& a, cudaStream_t st) {
  if constexpr (C != 3) {
    if (s.path == Path::texture_filter) {
      resize_filter_kernel<T, C>
          <<<grid_for(d.width, d.height, kResamplePx<T, C>), dim3(kBlockX, kBlockY), 0, st>>>(s, d,
                                                                                              a);
      TEXCV_CUDA_CHECK_LAUNCH("resize");
      return;
    }
    if (s.path == Path::texture) {
      launch_resize_src<T, C>(make_texture_source<T, C>(s), d, a, st);
      return;
    }
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, "resize", "no texture kernel for 3 channels", to_string(s.path),
         "global");
  launch_resize_src<T, C>(make_global_source<T, C>(s), d, a, st);
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_RESIZE(T)                                                       \
  template void launch_resize<T, 1>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);                                        \
  template void launch_resize<T, 3>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);                                        \
  template void launch_resize<T, 4>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);
