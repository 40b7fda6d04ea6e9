// The device side of the per-pixel ops (cvt_color, gamma, convert, threshold, normalize's affine
// map, equalize_hist's table): one kernel shape. Each thread maps PX consecutive pixels of a row
// (SC source and DC destination elements each), loaded and stored as 16-, 8- or 4-byte vectors
// where the addresses allow (a warp covers one contiguous span of a row: coalesced); an op gives
// the per-pixel functor f(source pixel, destination pixel). Batched launches through
// launch_batch.cuh.
#pragma once

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/ops/common/point.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// Pixels per thread: 16 source bytes for the per-element ops, 4 pixels for cvt_color.
template <typename S, int SC, int DC>
constexpr int kPointPx = SC == 1 && DC == 1 ? static_cast<int>(16 / sizeof(S)) : 4;

// Elements a thread maps per chunk when one-channel elements widen (u8 -> f32, u8 -> u16, u16 ->
// f32): one 16-byte store; 0 when they do not widen (one chunk of PX).
template <typename S, typename D, int SC, int DC>
constexpr int kWidenChunk = SC == 1 && DC == 1 && sizeof(D) > sizeof(S) ? 16 / sizeof(D) : 0;

template <typename S, typename D, int SC, int DC, int PX, class F>
__device__ __forceinline__ void point_body(const PointSrc& s, const DstArgs& d, const F& f) {
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const S* srow = reinterpret_cast<const S*>(s.data + s.pitch * static_cast<std::size_t>(y));
  D* drow = reinterpret_cast<D*>(d.data + d.pitch * static_cast<std::size_t>(y));
  if constexpr (constexpr int C = kWidenChunk<S, D, SC, DC>; C != 0) {
    // Widening: the warp's 32 * PX elements in chunks of C, chunk k of lane l at (k * 32 + l) * C,
    // so each store instruction of the warp writes 512 contiguous bytes (with PX contiguous
    // elements a thread, each would write 16 bytes of every 64 and fill sectors by halves).
    if (y >= d.height) return;
    const int lane = static_cast<int>(threadIdx.x);
    const int base = static_cast<int>(blockIdx.x * blockDim.x) * PX;
#pragma unroll
    for (int k = 0; k < PX / C; ++k) {
      const int x0 = base + (k * kBlockX + lane) * C;
      if (x0 >= d.width) return;
      const int n = min(C, d.width - x0);
      S in[C];
      load_elems<S, C>(srow + x0, in, n);
      D out[C];
#pragma unroll
      for (int i = 0; i < C; ++i) f(in + i, out + i);
      store_elems<D, C>(drow + x0, out, n);
    }
  } else {
    const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
    if (y >= d.height || x0 >= d.width) return;
    const int n = min(PX, d.width - x0);
    S in[PX * SC];
    load_elems<S, PX * SC>(srow + static_cast<std::size_t>(x0) * SC, in, n * SC);
    D out[PX * DC];
#pragma unroll
    for (int i = 0; i < PX; ++i) f(in + i * SC, out + i * DC);
    store_elems<D, PX * DC>(drow + static_cast<std::size_t>(x0) * DC, out, n * DC);
  }
}

template <typename S, typename D, int SC, int DC, int PX, class F>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    point_kernel(const PointSrc s, const DstArgs d, const F f) {
  point_body<S, D, SC, DC, PX>(s, d, f);
}

// point_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename S, typename D, int SC, int DC, int PX, class F>
struct PointCall {
  PointSrc s;
  DstArgs d;
  F f;
  __device__ __forceinline__ void operator()() const { point_body<S, D, SC, DC, PX>(s, d, f); }
};

template <typename S, typename D, int SC, int DC, class F>
void launch_point(const char* op, const PointSrc& s, const DstArgs& d, const F& f,
                  cudaStream_t st) {
  constexpr int PX = kPointPx<S, SC, DC>;
  const dim3 grid = grid_for(d.width, d.height, PX);
  const dim3 block(kBlockX, kBlockY);
  if (defer_launch<kBlockX * kBlockY>(grid, block, st, PointCall<S, D, SC, DC, PX, F>{s, d, f}))
    return;
  point_kernel<S, D, SC, DC, PX, F><<<grid, block, 0, st>>>(s, d, f);
  TEXCV_CUDA_CHECK_LAUNCH(op);
}

}  // namespace texcv::cuda::ops
