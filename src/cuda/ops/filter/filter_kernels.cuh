// Device code of the linear filters: one thread per output pixel (all its channels) on kBlockX x
// kBlockY blocks, plain global loads, borders through src/core/sampling.hpp's border_index. Each
// output element accumulates in float from +0 in the CPU backend's order (kernel rows, then taps
// left to right; zero coefficients skipped), then saturate(acc * scale + delta): with --fmad=false
// on both sides the floats are the CPU's.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/filter/filter_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

template <typename T>
__device__ __forceinline__ const T* filter_row(const FilterSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

template <typename T>
__device__ __forceinline__ T* out_row(const DstArgs& d, int y) {
  return reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y));
}

// Copies n coefficients (by-value kernel argument) to shared memory.
__device__ __forceinline__ void load_taps(const float* k, int n, float* ks) {
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  for (int i = tid; i < n; i += kBlockX * kBlockY) ks[i] = k[i];
  __syncthreads();
}

template <typename T, typename Tout, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    filter_2d_kernel(const FilterSrc s, const DstArgs d, const Kernel2DArgs a,
                     const FilterBorderArgs b) {
  __shared__ float ks[kMaxKernel2D * kMaxKernel2D];
  load_taps(a.k, a.kw * a.kh, ks);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  float acc[C];
#pragma unroll
  for (int c = 0; c < C; ++c) acc[c] = 0.0f;
  for (int j = 0; j < a.kh; ++j) {
    const int iy = detail::border_index(y + j - a.ay, s.height, b.border);
    const T* row = iy < 0 ? nullptr : filter_row<T>(s, iy);
    for (int i = 0; i < a.kw; ++i) {
      const float kv = ks[j * a.kw + i];
      if (kv == 0.0f) continue;
      const int ix = row ? detail::border_index(x + i - a.ax, s.width, b.border) : -1;
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] += kv * b.value[c];
      } else {
        const T* p = row + static_cast<std::size_t>(ix) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] += kv * static_cast<float>(p[c]);
      }
    }
  }
  Tout* o = out_row<Tout>(d, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = detail::saturate<Tout>(acc[c] * a.scale + a.delta);
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    sep_rows_kernel(const FilterSrc s, const DstArgs t, const Kernel1DArgs k,
                    const FilterBorderArgs b) {
  __shared__ float ks[kMaxKernel1D];
  load_taps(k.k, k.n, ks);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= t.width || y >= t.height) return;
  const T* row = filter_row<T>(s, y);
  float acc[C];
#pragma unroll
  for (int c = 0; c < C; ++c) acc[c] = 0.0f;
  for (int i = 0; i < k.n; ++i) {
    const float kv = ks[i];
    if (kv == 0.0f) continue;
    const int ix = detail::border_index(x + i - k.anchor, s.width, b.border);
    if (ix < 0) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * b.value[c];
    } else {
      const T* p = row + static_cast<std::size_t>(ix) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * static_cast<float>(p[c]);
    }
  }
  float* o = out_row<float>(t, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = acc[c];
}

template <typename Tout, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    sep_cols_kernel(const FilterSrc t, const DstArgs d, const Kernel1DArgs k, const ColumnArgs a) {
  __shared__ float ks[kMaxKernel1D];
  load_taps(k.k, k.n, ks);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  float acc[C];
#pragma unroll
  for (int c = 0; c < C; ++c) acc[c] = 0.0f;
  for (int j = 0; j < k.n; ++j) {
    const float kv = ks[j];
    if (kv == 0.0f) continue;
    const int iy = detail::border_index(y + j - k.anchor, t.height, a.border);
    if (iy < 0) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * a.crow[c];
    } else {
      const float* p = filter_row<float>(t, iy) + static_cast<std::size_t>(x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * p[c];
    }
  }
  Tout* o = out_row<Tout>(d, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = detail::saturate<Tout>(acc[c] * a.scale + a.delta);
}

// Per element (widths in elements): out = src + amount * (src - blur) where |src - blur| >=
// threshold, else src.
template <typename T>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    unsharp_kernel(const FilterSrc s, const FilterSrc bl, const DstArgs d, float amount,
                   float threshold) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  const T sv = filter_row<T>(s, y)[x];
  const float v = static_cast<float>(sv);
  const float diff = v - static_cast<float>(filter_row<T>(bl, y)[x]);
  const float mag = diff < 0.0f ? -diff : diff;
  out_row<T>(d, y)[x] = mag >= threshold ? detail::saturate<T>(v + amount * diff) : sv;
}

// ---- Launchers ----

// Calls f.template operator()<C>() for channels 1, 3 or 4.
template <class F>
void by_channels(const char* op, int channels, F&& f) {
  switch (channels) {
    case 1:
      return f.template operator()<1>();
    case 3:
      return f.template operator()<3>();
    case 4:
      return f.template operator()<4>();
  }
  fail(ErrorCode::Internal, op, "unsupported channel count reached the kernel",
       std::to_string(channels), "1, 3 or 4");
}

template <typename T>
void launch_filter_2d(const FilterSrc& s, const DstArgs& d, int channels, ElemType dst_type,
                      const Kernel2DArgs& k, const FilterBorderArgs& b, cudaStream_t st) {
  by_channels("convolve", channels, [&]<int C>() {
    const dim3 grid = grid_for(d.width, d.height, 1), block(kBlockX, kBlockY);
    if (dst_type == detail::ElemTraits<T>::kType)
      filter_2d_kernel<T, T, C><<<grid, block, 0, st>>>(s, d, k, b);
    else
      filter_2d_kernel<T, float, C><<<grid, block, 0, st>>>(s, d, k, b);
    TEXCV_CUDA_CHECK_LAUNCH("convolve");
  });
}

template <typename T>
void launch_sep_rows(const FilterSrc& s, const DstArgs& t, int channels, const Kernel1DArgs& k,
                     const FilterBorderArgs& b, cudaStream_t st) {
  by_channels("separable_filter", channels, [&]<int C>() {
    sep_rows_kernel<T, C>
        <<<grid_for(t.width, t.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(s, t, k, b);
    TEXCV_CUDA_CHECK_LAUNCH("separable_filter");
  });
}

template <typename Tout>
void launch_sep_cols(const FilterSrc& t, const DstArgs& d, int channels, const Kernel1DArgs& k,
                     const ColumnArgs& c, cudaStream_t st) {
  by_channels("separable_filter", channels, [&]<int C>() {
    sep_cols_kernel<Tout, C>
        <<<grid_for(d.width, d.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(t, d, k, c);
    TEXCV_CUDA_CHECK_LAUNCH("separable_filter");
  });
}

template <typename T>
void launch_unsharp(const FilterSrc& s, const FilterSrc& blur, const DstArgs& d, float amount,
                    float threshold, cudaStream_t st) {
  unsharp_kernel<T><<<grid_for(d.width, d.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(
      s, blur, d, amount, threshold);
  TEXCV_CUDA_CHECK_LAUNCH("unsharp_mask");
}

#define TEXCV_INSTANTIATE_FILTER(T)                                                              \
  template void launch_filter_2d<T>(const FilterSrc&, const DstArgs&, int, ElemType,             \
                                    const Kernel2DArgs&, const FilterBorderArgs&, cudaStream_t); \
  template void launch_sep_rows<T>(const FilterSrc&, const DstArgs&, int, const Kernel1DArgs&,   \
                                   const FilterBorderArgs&, cudaStream_t);                       \
  template void launch_sep_cols<T>(const FilterSrc&, const DstArgs&, int, const Kernel1DArgs&,   \
                                   const ColumnArgs&, cudaStream_t);                             \
  template void launch_unsharp<T>(const FilterSrc&, const FilterSrc&, const DstArgs&, float,     \
                                  float, cudaStream_t);

}  // namespace texcv::cuda::ops
