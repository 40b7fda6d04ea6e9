// Device code of bilateral_filter: one thread per output pixel on kBlockX x kBlockY blocks. The
// colour table lives in shared memory for the whole block; the disc (offsets and space weights)
// passes through shared memory in chunks of kTapChunk taps. Per tap, as the CPU backend: the
// neighbour (border through sampling.hpp's border_index, the constant value converted to the
// element type), the L1 colour distance summed over channels in order, the colour weight (u8:
// table[D]; f32: detail::bilateral_f32_weight), wk = space * colour, wsum += wk,
// sum[c] += wk * q[c]; finally saturate(sum[c] / wsum). With --fmad=false the floats are the CPU's.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/core/dispatch.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "src/core/sampling.hpp"
#include "src/cuda/ops/bilateral_filter/bilateral_filter_launch.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

namespace bilateral {

constexpr int kTapChunk = 1024;

// Shared bytes of a launch: the colour table (rounded up to 4 floats), then the chunk's space
// weights, dx and dy.
inline std::size_t shared_bytes(int table_size) {
  return (static_cast<std::size_t>(table_size + 3) / 4 * 4) * sizeof(float) +
         static_cast<std::size_t>(kTapChunk) * (sizeof(float) + 2 * sizeof(int));
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    bilateral_kernel(const BilateralSrc s, const DstArgs d, const BilateralArgs a) {
  extern __shared__ float sm[];
  float* tab = sm;
  float* sp = sm + (a.table_size + 3) / 4 * 4;
  int* sdx = reinterpret_cast<int*>(sp + kTapChunk);
  int* sdy = sdx + kTapChunk;
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  constexpr int kThreads = kBlockX * kBlockY;
  for (int i = tid; i < a.table_size; i += kThreads) tab[i] = a.table[i];
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const bool inside = x < d.width && y < d.height;
  T p[C];
  float sum[C];
  float wsum = 0.0f;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    p[c] = T(0);
    sum[c] = 0.0f;
  }
  if (inside) {
    const T* cp = reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y)) +
                  static_cast<std::size_t>(x) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) p[c] = cp[c];
  }
  T bv[C];
#pragma unroll
  for (int c = 0; c < C; ++c) bv[c] = static_cast<T>(a.value[c]);
  for (int base = 0; base < a.taps; base += kTapChunk) {
    const int n = min(kTapChunk, a.taps - base);
    __syncthreads();  // the previous chunk is consumed
    for (int i = tid; i < n; i += kThreads) {
      sp[i] = a.space[base + i];
      sdx[i] = a.dx[base + i];
      sdy[i] = a.dy[base + i];
    }
    __syncthreads();
    if (!inside) continue;
    for (int k = 0; k < n; ++k) {
      const int iy = detail::border_index(y + sdy[k], s.height, a.border);
      const int ix = iy < 0 ? -1 : detail::border_index(x + sdx[k], s.width, a.border);
      T q[C];
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) q[c] = bv[c];
      } else {
        const T* qp = reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(iy)) +
                      static_cast<std::size_t>(ix) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) q[c] = __ldg(qp + c);
      }
      float cw;
      if constexpr (sizeof(T) == 1) {
        int dist = 0;
#pragma unroll
        for (int c = 0; c < C; ++c) dist += abs(static_cast<int>(q[c]) - static_cast<int>(p[c]));
        cw = tab[dist];
      } else {
        float dist = 0.0f;
#pragma unroll
        for (int c = 0; c < C; ++c) dist += fabsf(q[c] - p[c]);
        cw = detail::bilateral_f32_weight(tab, a.scale, a.bins, dist);
      }
      const float wk = sp[k] * cw;
      wsum += wk;
#pragma unroll
      for (int c = 0; c < C; ++c) sum[c] += wk * static_cast<float>(q[c]);
    }
  }
  if (!inside) return;
  T* o = reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y)) +
         static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = detail::saturate<T>(sum[c] / wsum);
}

}  // namespace bilateral

template <typename T>
void launch_bilateral(const BilateralSrc& s, const DstArgs& d, int channels, const BilateralArgs& a,
                      cudaStream_t st) {
  constexpr const char* kOp = "bilateral_filter";
  const auto run = [&]<int C>() {
    const auto kernel = bilateral::bilateral_kernel<T, C>;
    const std::size_t bytes = bilateral::shared_bytes(a.table_size);
    if (bytes > 48 * 1024)
      TEXCV_CUDA_CHECK(kOp,
                       cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
    kernel<<<grid_for(d.width, d.height, 1), dim3(kBlockX, kBlockY), bytes, st>>>(s, d, a);
    TEXCV_CUDA_CHECK_LAUNCH(kOp);
  };
  texcv::detail::by_channels_of<1, 3>(kOp, channels, run);
}

#define TEXCV_INSTANTIATE_BILATERAL(T)                                        \
  template void launch_bilateral<T>(const BilateralSrc&, const DstArgs&, int, \
                                    const BilateralArgs&, cudaStream_t);

}  // namespace texcv::cuda::ops
