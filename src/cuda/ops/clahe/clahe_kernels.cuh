// clahe's device code. The tables are exact integers whatever the order; the blend that
// produces pixels is the CPU's expression in the CPU's order (the library compiles CUDA with
// --fmad=false), so results equal the CPU backend's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/clahe/clahe_launch.hpp"
#include "src/cuda/ops/clahe/clahe_tuning.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

template <typename T>
__device__ __forceinline__ const T* clahe_row(const ReduceSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

template <typename T>
constexpr int kClaheBins = sizeof(T) == 1 ? 256 : 65536;

constexpr int kClaheHistThreads = tuning::Clahe::kHistThreads;

// Grid: x = tile, y = a split of the tile's pixels. u8 counts into shared memory first, u16
// (65536 bins) with atomics on the tile's global histogram.
template <typename T>
__global__ void __launch_bounds__(kClaheHistThreads)
    clahe_hist_kernel(const ReduceSrc s, const ClaheArgs a, int* __restrict__ hist) {
  constexpr int kBins = kClaheBins<T>;
  constexpr bool kShared = kBins == 256;
  __shared__ int sh[kShared ? kBins : 1];
  const int tid = static_cast<int>(threadIdx.x);
  const int tile = static_cast<int>(blockIdx.x);
  int* th = hist + static_cast<std::size_t>(tile) * kBins;
  if constexpr (kShared) {
    for (int k = tid; k < kBins; k += kClaheHistThreads) sh[k] = 0;
    __syncthreads();
  }
  const int tx = tile % a.tiles_x, ty = tile / a.tiles_x;
  const int stride = static_cast<int>(gridDim.y) * kClaheHistThreads;
  for (int i = static_cast<int>(blockIdx.y) * kClaheHistThreads + tid; i < a.tile_total;
       i += stride) {
    const int x = tx * a.tw + i % a.tw, y = ty * a.th + i / a.tw;
    // The CPU's indexing: rows (and columns past the right edge) through reflect101.
    const int sy = detail::border_index(y, a.height, Border::reflect101);
    const int sx = x < a.width ? x : detail::border_index(x, a.width, Border::reflect101);
    const int v = clahe_row<T>(s, sy)[sx];
    if constexpr (kShared)
      atomicAdd(&sh[v], 1);
    else
      atomicAdd(&th[v], 1);
  }
  if constexpr (kShared) {
    __syncthreads();
    for (int k = tid; k < kBins; k += kClaheHistThreads)
      if (sh[k] != 0) atomicAdd(&th[k], sh[k]);
  }
}

// Block-wide sum and exclusive prefix sum of one int per thread (blockDim.x a multiple of 32,
// at most 1024). sh: 32 ints of shared memory.
__device__ __forceinline__ int block_sum(int v, int* sh) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  const int nw = static_cast<int>(blockDim.x) >> 5;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __syncthreads();  // sh may still be read from an earlier call
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  int t = 0;
  for (int w = 0; w < nw; ++w) t += sh[w];
  return t;
}

__device__ __forceinline__ int block_exclusive_scan(int v, int* sh) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  const int nw = static_cast<int>(blockDim.x) >> 5;
  int x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  __syncthreads();
  if (lane == 31) sh[warp] = x;
  __syncthreads();
  if (warp == 0) {
    int w = lane < nw ? sh[lane] : 0;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const int y = __shfl_up_sync(0xffffffffu, w, o);
      if (lane >= o) w += y;
    }
    if (lane < nw) sh[lane] = w;  // inclusive scan of the warp totals
  }
  __syncthreads();
  return x - v + (warp > 0 ? sh[warp - 1] : 0);
}

template <typename T>
constexpr int kClaheLutThreads = sizeof(T) == 1 ? tuning::Clahe::kLutThreadsU8
                                                : tuning::Clahe::kLutThreadsU16;

// One block per tile; thread t owns the bins [t per, (t + 1) per). The CPU's steps: clip at
// a.clip counting the excess, add excess / bins to every bin and one more to the bins 0, step,
// 2 step, ... (remainder of them, step = max(bins / remainder, 1)), then the running sum as
// saturate(float(sum) * lut_scale).
template <typename T>
__global__ void __launch_bounds__(kClaheLutThreads<T>)
    clahe_lut_kernel(const ClaheArgs a, const int* __restrict__ hist, T* __restrict__ luts) {
  constexpr int kBins = kClaheBins<T>;
  constexpr int kThreads = kClaheLutThreads<T>;
  constexpr int kPer = kBins / kThreads;
  __shared__ int sh[32];
  const int tid = static_cast<int>(threadIdx.x);
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kBins;
  const int* h = hist + base;
  const int k0 = tid * kPer;
  int batch = 0, residual = 0, step = 1;
  if (a.clip > 0) {
    int excess = 0;
    for (int k = k0; k < k0 + kPer; ++k) excess += max(h[k] - a.clip, 0);
    const int clipped = block_sum(excess, sh);
    batch = clipped / kBins;
    residual = clipped - batch * kBins;
    if (residual > 0) step = max(kBins / residual, 1);
  }
  auto value = [&](int k) {
    if (a.clip <= 0) return h[k];
    const int extra = residual > 0 && k % step == 0 && k / step < residual ? 1 : 0;
    return min(h[k], a.clip) + batch + extra;
  };
  int part = 0;
  for (int k = k0; k < k0 + kPer; ++k) part += value(k);
  int sum = block_exclusive_scan(part, sh);
  T* lut = luts + base;
  for (int k = k0; k < k0 + kPer; ++k) {
    sum += value(k);
    lut[k] = detail::saturate<T>(static_cast<float>(sum) * a.lut_scale);
  }
}

// One pixel per thread: the CPU's blend, (l1[x1] a1 + l1[x2] a) ya1 + (l2[x1] a1 + l2[x2] a) ya,
// in float, in that order.
template <typename T>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    clahe_apply_kernel(const PointSrc s, const DstArgs d, const ClaheArgs a,
                       const T* __restrict__ luts) {
  constexpr std::size_t kBins = kClaheBins<T>;
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  const float fy = static_cast<float>(y) * a.inv_th - 0.5f;
  const int iy = static_cast<int>(floorf(fy));
  const float ya = fy - static_cast<float>(iy), ya1 = 1.0f - ya;
  const float fx = static_cast<float>(x) * a.inv_tw - 0.5f;
  const int ix = static_cast<int>(floorf(fx));
  const float xa = fx - static_cast<float>(ix), xa1 = 1.0f - xa;
  const std::size_t row_luts = static_cast<std::size_t>(a.tiles_x) * kBins;
  const T* l1 = luts + static_cast<std::size_t>(max(iy, 0)) * row_luts;
  const T* l2 = luts + static_cast<std::size_t>(min(iy + 1, a.tiles_y - 1)) * row_luts;
  const std::size_t x1 = static_cast<std::size_t>(max(ix, 0)) * kBins;
  const std::size_t x2 = static_cast<std::size_t>(min(ix + 1, a.tiles_x - 1)) * kBins;
  const std::size_t v =
      reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y))[x];
  const float l1a = static_cast<float>(__ldg(l1 + x1 + v));
  const float l1b = static_cast<float>(__ldg(l1 + x2 + v));
  const float l2a = static_cast<float>(__ldg(l2 + x1 + v));
  const float l2b = static_cast<float>(__ldg(l2 + x2 + v));
  const float r = (l1a * xa1 + l1b * xa) * ya1 + (l2a * xa1 + l2b * xa) * ya;
  reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y))[x] = detail::saturate<T>(r);
}

template <typename T>
void launch_clahe_hist(const ReduceSrc& s, const ClaheArgs& a, int* hist, cudaStream_t st) {
  const int ntiles = a.tiles_x * a.tiles_y;
  // About 16 pixels a thread, at most 64 blocks a tile.
  const long per_block = static_cast<long>(kClaheHistThreads) * 16;
  const long split = (static_cast<long>(a.tile_total) + per_block - 1) / per_block;
  const dim3 grid(static_cast<unsigned>(ntiles), static_cast<unsigned>(split < 1    ? 1
                                                                       : split > 64 ? 64
                                                                                    : split));
  clahe_hist_kernel<T><<<grid, kClaheHistThreads, 0, st>>>(s, a, hist);
  TEXCV_CUDA_CHECK_LAUNCH("clahe");
}

template <typename T>
void launch_clahe_lut(const ClaheArgs& a, const int* hist, T* luts, cudaStream_t st) {
  const int ntiles = a.tiles_x * a.tiles_y;
  clahe_lut_kernel<T><<<ntiles, kClaheLutThreads<T>, 0, st>>>(a, hist, luts);
  TEXCV_CUDA_CHECK_LAUNCH("clahe");
}

template <typename T>
void launch_clahe_apply(const PointSrc& s, const DstArgs& d, const ClaheArgs& a, const T* luts,
                        cudaStream_t st) {
  clahe_apply_kernel<T>
      <<<grid_for(d.width, d.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(s, d, a, luts);
  TEXCV_CUDA_CHECK_LAUNCH("clahe");
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_CLAHE(T)                                                                 \
  template void launch_clahe_hist<T>(const ReduceSrc&, const ClaheArgs&, int*, cudaStream_t);      \
  template void launch_clahe_lut<T>(const ClaheArgs&, const int*, T*, cudaStream_t);               \
  template void launch_clahe_apply<T>(const PointSrc&, const DstArgs&, const ClaheArgs&, const T*, \
                                      cudaStream_t);
