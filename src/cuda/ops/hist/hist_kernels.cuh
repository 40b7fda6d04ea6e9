// Device code of the reductions (min/max, sums), histograms and clahe. Integer results (counts,
// integer sums, the clahe tables) are exact whatever the order; the float arithmetic that
// produces pixels (clahe's blend, the per-channel affine map) is the CPU's expression in the
// CPU's order (the library compiles CUDA with --fmad=false), so results equal the CPU backend's.
#pragma once

#include "src/core/dispatch.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/hist/hist_launch.hpp"
#include "src/cuda/ops/hist/hist_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda::ops {

constexpr int kMaxReduceThreads = tuning::Hist::kMaxReduceThreads;

template <typename T>
__device__ __forceinline__ const T* reduce_row(const ReduceSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

// sh[0 .. N) holds one value per thread (N = blockDim.x, a multiple of C whose halvings down to
// C stay multiples of C: 192 = 3 * 64, 256 = 4 * 64). Afterwards sh[0 .. C) holds the per-channel
// results (stride s combines thread t with t + s, a multiple of C apart: the same channel).
template <int C, int N, typename V, class Op>
__device__ __forceinline__ void tree_reduce(V* sh, int tid, Op op) {
  __syncthreads();
#pragma unroll
  for (int s = N / 2; s >= C; s /= 2) {
    if (tid < s) sh[tid] = op(sh[tid], sh[tid + s]);
    __syncthreads();
  }
}

// Calls f(channel, value) for every element the block's thread tid owns (one channel per thread).
template <typename T, int C, int N, class F>
__device__ __forceinline__ void for_block_elems(const ReduceSrc& s, int tid, F&& f) {
  const int n = s.width * C;
  const int c = tid % C;
  for (int y = static_cast<int>(blockIdx.x); y < s.height; y += static_cast<int>(gridDim.x)) {
    const T* row = reduce_row<T>(s, y);
    for (int i = tid; i < n; i += N) f(c, row[i]);
  }
}

// ---- min / max ----

template <typename T>
struct MinMaxOps {
  // Integers: exact; identities 65535 / 0 (or 255).
  static __device__ __forceinline__ T lo_init() { return sizeof(T) == 1 ? T(255) : T(65535); }
  static __device__ __forceinline__ T hi_init() { return T(0); }
  static __device__ __forceinline__ T lo(T a, T b) { return b < a ? b : a; }
  static __device__ __forceinline__ T hi(T a, T b) { return a < b ? b : a; }
};
template <>
struct MinMaxOps<float> {
  // fminf / fmaxf return the non-NaN operand: NaN is ignored.
  static __device__ __forceinline__ float lo_init() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float hi_init() { return -__int_as_float(0x7f800000); }
  static __device__ __forceinline__ float lo(float a, float b) { return fminf(a, b); }
  static __device__ __forceinline__ float hi(float a, float b) { return fmaxf(a, b); }
};

template <typename T, int C>
__global__ void __launch_bounds__(kMaxReduceThreads)
    min_max_kernel(const ReduceSrc s, double* __restrict__ out) {
  constexpr int N = reduce_threads(C);
  using M = MinMaxOps<T>;
  __shared__ T lo_sh[N], hi_sh[N];
  const int tid = static_cast<int>(threadIdx.x);
  T lo = M::lo_init(), hi = M::hi_init();
  for_block_elems<T, C, N>(s, tid, [&](int, T v) {
    lo = M::lo(lo, v);
    hi = M::hi(hi, v);
  });
  lo_sh[tid] = lo;
  hi_sh[tid] = hi;
  tree_reduce<C, N>(lo_sh, tid, [](T a, T b) { return M::lo(a, b); });
  tree_reduce<C, N>(hi_sh, tid, [](T a, T b) { return M::hi(a, b); });
  if (tid == 0) {
    // The channels together.
    T l = lo_sh[0], h = hi_sh[0];
#pragma unroll
    for (int c = 1; c < C; ++c) {
      l = M::lo(l, lo_sh[c]);
      h = M::hi(h, hi_sh[c]);
    }
    out[2 * blockIdx.x] = static_cast<double>(l);
    out[2 * blockIdx.x + 1] = static_cast<double>(h);
  }
}

// ---- sums ----

template <typename T, int C>
__global__ void __launch_bounds__(kMaxReduceThreads)
    int_sums_kernel(const ReduceSrc s, unsigned long long* __restrict__ out) {
  constexpr int N = reduce_threads(C);
  __shared__ unsigned long long sum_sh[N], sq_sh[N];
  const int tid = static_cast<int>(threadIdx.x);
  unsigned long long sum = 0, sq = 0;
  for_block_elems<T, C, N>(s, tid, [&](int, T v) {
    const unsigned long long u = v;
    sum += u;
    sq += u * u;
  });
  sum_sh[tid] = sum;
  sq_sh[tid] = sq;
  const auto add = [](unsigned long long a, unsigned long long b) { return a + b; };
  tree_reduce<C, N>(sum_sh, tid, add);
  tree_reduce<C, N>(sq_sh, tid, add);
  if (tid < C) {
    out[8 * blockIdx.x + 2 * tid] = sum_sh[tid];
    out[8 * blockIdx.x + 2 * tid + 1] = sq_sh[tid];
  }
  if (tid >= C && tid < 4) {  // unused channels: zero
    out[8 * blockIdx.x + 2 * tid] = 0;
    out[8 * blockIdx.x + 2 * tid + 1] = 0;
  }
}

template <int C>
__global__ void __launch_bounds__(kMaxReduceThreads)
    f32_sums_kernel(const ReduceSrc s, const Centre centre, double* __restrict__ out) {
  constexpr int N = reduce_threads(C);
  __shared__ double sh[N];
  const int tid = static_cast<int>(threadIdx.x);
  double acc = 0;
  const double m = centre.c[tid % C];
  for_block_elems<float, C, N>(s, tid, [&](int, float f) {
    const double v = static_cast<double>(f);
    acc += centre.use ? (v - m) * (v - m) : v;
  });
  sh[tid] = acc;
  tree_reduce<C, N>(sh, tid, [](double a, double b) { return a + b; });
  if (tid < 4) out[4 * blockIdx.x + tid] = tid < C ? sh[tid] : 0.0;
}

// ---- histogram ----

template <typename T, int C, bool Shared>
__global__ void __launch_bounds__(kMaxReduceThreads)
    histogram_kernel(const ReduceSrc s, const HistArgs h, unsigned long long* __restrict__ counts) {
  constexpr int N = reduce_threads(C);
  extern __shared__ unsigned int hist_sh[];  // C * bins when Shared
  const int tid = static_cast<int>(threadIdx.x);
  const int total = C * h.bins;
  if constexpr (Shared) {
    for (int k = tid; k < total; k += N) hist_sh[k] = 0;
    __syncthreads();
  }
  const double nb = static_cast<double>(h.bins);
  for_block_elems<T, C, N>(s, tid, [&](int c, T v) {
    // The CPU's bin: floor(v a + b) in double, counted when in [0, bins) (NaN never).
    const double f = floor(static_cast<double>(v) * h.a + h.b);
    if (f >= 0.0 && f < nb) {
      const int k = c * h.bins + static_cast<int>(f);
      if constexpr (Shared)
        atomicAdd(&hist_sh[k], 1u);
      else
        atomicAdd(&counts[k], 1ull);
    }
  });
  if constexpr (Shared) {
    __syncthreads();
    for (int k = tid; k < total; k += N)
      if (hist_sh[k] != 0) atomicAdd(&counts[k], static_cast<unsigned long long>(hist_sh[k]));
  }
}

// ---- per-channel affine map (normalize mean_std) and u8 table lookup ----

template <typename T, int C>
struct AffineF {
  float scale[4], offset[4];
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
#pragma unroll
    for (int c = 0; c < C; ++c)
      d[c] = detail::saturate<T>(static_cast<float>(s[c]) * scale[c] + offset[c]);
  }
};

// ---- clahe ----

template <typename T>
constexpr int kClaheBins = sizeof(T) == 1 ? 256 : 65536;

constexpr int kClaheHistThreads = tuning::Hist::kClaheHistThreads;

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
    const int v = reduce_row<T>(s, sy)[sx];
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
constexpr int kClaheLutThreads = sizeof(T) == 1 ? tuning::Hist::kClaheLutThreadsU8
                                                : tuning::Hist::kClaheLutThreadsU16;

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

// ---- launchers ----

using texcv::detail::by_channels;  // src/core/dispatch.hpp

template <typename T>
void launch_min_max(const ReduceSrc& s, int blocks, double* out, cudaStream_t st) {
  by_channels("normalize", s.channels,
              [&]<int C>() { min_max_kernel<T, C><<<blocks, reduce_threads(C), 0, st>>>(s, out); });
  TEXCV_CUDA_CHECK_LAUNCH("normalize");
}

template <typename T>
void launch_int_sums(const ReduceSrc& s, int blocks, unsigned long long* out, cudaStream_t st) {
  by_channels("normalize", s.channels, [&]<int C>() {
    int_sums_kernel<T, C><<<blocks, reduce_threads(C), 0, st>>>(s, out);
  });
  TEXCV_CUDA_CHECK_LAUNCH("normalize");
}

template <typename T>
void launch_histogram(const char* op, const ReduceSrc& s, int blocks, const HistArgs& h,
                      unsigned long long* counts, cudaStream_t st) {
  by_channels(op, s.channels, [&]<int C>() {
    if (h.shared) {
      const std::size_t smem = static_cast<std::size_t>(C) * h.bins * sizeof(unsigned int);
      histogram_kernel<T, C, true><<<blocks, reduce_threads(C), smem, st>>>(s, h, counts);
    } else {
      histogram_kernel<T, C, false><<<blocks, reduce_threads(C), 0, st>>>(s, h, counts);
    }
  });
  TEXCV_CUDA_CHECK_LAUNCH(op);
}

template <typename T>
void launch_affine_channels(const PointSrc& s, const DstArgs& d, int channels,
                            const detail::AffineChannelDesc& a, cudaStream_t st) {
  by_channels("normalize", channels, [&]<int C>() {
    AffineF<T, C> f;
    for (int c = 0; c < 4; ++c) {
      f.scale[c] = a.scale[c];
      f.offset[c] = a.offset[c];
    }
    launch_point<T, T, C, C>("normalize", s, d, f, st);
  });
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

// Every element type: min/max, histogram, the per-channel affine map.
#define TEXCV_INSTANTIATE_HIST(T)                                                        \
  template void launch_min_max<T>(const ReduceSrc&, int, double*, cudaStream_t);         \
  template void launch_histogram<T>(const char*, const ReduceSrc&, int, const HistArgs&, \
                                    unsigned long long*, cudaStream_t);                  \
  template void launch_affine_channels<T>(const PointSrc&, const DstArgs&, int,          \
                                          const detail::AffineChannelDesc&, cudaStream_t);
// u8 and u16: exact integer sums and clahe.
#define TEXCV_INSTANTIATE_HIST_INT(T)                                                              \
  template void launch_int_sums<T>(const ReduceSrc&, int, unsigned long long*, cudaStream_t);      \
  template void launch_clahe_hist<T>(const ReduceSrc&, const ClaheArgs&, int*, cudaStream_t);      \
  template void launch_clahe_lut<T>(const ClaheArgs&, const int*, T*, cudaStream_t);               \
  template void launch_clahe_apply<T>(const PointSrc&, const DstArgs&, const ClaheArgs&, const T*, \
                                      cudaStream_t);
