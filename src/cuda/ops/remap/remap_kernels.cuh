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

// One thread: PX adjacent pixels along x on PY rows blockDim.y apart (as warp_kernel); the map
// values of its PX pixels are read with one vector load per map where aligned.
template <typename T, int C, Interp IP, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    remap_kernel(const Src src, const DstArgs dst, const RemapArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = IP == Interp::cubic ? 2 : (PX >= 4 ? 2 : 4);
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
    const std::size_t y = static_cast<std::size_t>(min(y0 + j * kBlockY, dst.height - 1));
    float mx[PX], my[PX];
    load_elems<float, PX>(reinterpret_cast<const float*>(a.map_x + a.map_x_pitch * y) + x0, mx, n);
    load_elems<float, PX>(reinterpret_cast<const float*>(a.map_y + a.map_y_pitch * y) + x0, my, n);
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      // Pixels past the right edge repeat the last one (never stored).
      sx[j * PX + i] = i < n ? mx[i] : mx[0];
      sy[j * PX + i] = i < n ? my[i] : my[0];
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

template <typename T, int C, Interp IP, class Src>
void launch_remap_ip(const Src& src, const DstArgs& d, const RemapArgs& a, cudaStream_t st) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = IP == Interp::cubic ? 2 : (PX >= 4 ? 2 : 4);
  const dim3 grid(static_cast<unsigned>((d.width + kBlockX * PX - 1) / (kBlockX * PX)),
                  static_cast<unsigned>((d.height + kBlockY * PY - 1) / (kBlockY * PY)));
  remap_kernel<T, C, IP, Src><<<grid, dim3(kBlockX, kBlockY), 0, st>>>(src, d, a);
  TEXCV_CUDA_CHECK_LAUNCH("remap");
}

template <typename T, int C, class Src>
void launch_remap_src(const Src& src, const DstArgs& d, const RemapArgs& a, cudaStream_t st) {
  switch (a.s.interp) {
    case Interp::nearest:
      return launch_remap_ip<T, C, Interp::nearest>(src, d, a, st);
    case Interp::cubic:
      return launch_remap_ip<T, C, Interp::cubic>(src, d, a, st);
    default:
      return launch_remap_ip<T, C, Interp::linear>(src, d, a, st);
  }
}

// remap's source coordinate, for the texture_filter kernel.
struct RemapCoord {
  RemapArgs a;
  __device__ __forceinline__ void operator()(int x, int y, float& sx, float& sy) const {
    remap_coord(a, x, y, sx, sy);
  }
};

template <typename T, int C>
void launch_remap(const SourceArgs& s, const DstArgs& d, const RemapArgs& a, cudaStream_t st) {
  launch_by_path<T, C>(
      "remap", s, d, RemapCoord{a}, [&](const auto& src) { launch_remap_src<T, C>(src, d, a, st); },
      st);
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_REMAP(T)                                                      \
  template void launch_remap<T, 1>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);                                       \
  template void launch_remap<T, 3>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);                                       \
  template void launch_remap<T, 4>(const SourceArgs&, const DstArgs&, const RemapArgs&, \
                                   cudaStream_t);
