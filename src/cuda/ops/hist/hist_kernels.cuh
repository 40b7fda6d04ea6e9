// Device code of the reductions (min/max, sums: normalize) and histograms (histogram, Otsu's
// threshold, equalize_hist). Integer results (counts, integer sums) are exact whatever the order.
#pragma once

#include "src/core/dispatch.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/device_common.cuh"
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

}  // namespace texcv::cuda::ops

// Every element type: min/max and histogram.
#define TEXCV_INSTANTIATE_HIST(T)                                                        \
  template void launch_min_max<T>(const ReduceSrc&, int, double*, cudaStream_t);         \
  template void launch_histogram<T>(const char*, const ReduceSrc&, int, const HistArgs&, \
                                    unsigned long long*, cudaStream_t);
// u8 and u16: exact integer sums.
#define TEXCV_INSTANTIATE_HIST_INT(T) \
  template void launch_int_sums<T>(const ReduceSrc&, int, unsigned long long*, cudaStream_t);
