// Device code of bilateral_filter, two kernels with the same arithmetic:
// - the tiled kernel (bilateral_tile_kernel, the default): the block's source tile (its outputs
//   plus the disc's radius on every side, the border applied while filling it), the colour table
//   and the disc (tile offsets and space weights) in shared memory; each thread filters
//   tuning::Bilateral::kTilePx x kTileRows pixels and reads each tap's offset and weight once for
//   all of them. u8 one channel keeps a copy of the colour table per lane (entry D of lane l at
//   D * 32 + l), so the table reads of a warp never meet in a bank.
// - the disc kernel (bilateral_kernel), for discs or tables too large for the tile's shared
//   memory: one thread per output pixel on kBlockX x kBlockY blocks, the colour table in shared
//   memory for the whole block, the disc passing through shared memory in chunks of kTapChunk
//   taps, the source read through the L1 cache.
// Per tap, in both and as the CPU backend: the
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
#include "src/cuda/ops/bilateral_filter/bilateral_filter_tuning.hpp"
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

// The colour weight of a tap from the pixel p and its neighbour q (as the CPU backend): u8, the
// table at the integer L1 distance (per lane: entry D at D * 32 + lane); f32, the interpolated
// table at the float L1 distance summed over channels in order.
template <typename T, int C, bool LaneTab>
__device__ __forceinline__ float colour_weight(const float* tab, const BilateralArgs& a, const T* p,
                                               const T* q, int lane) {
  if constexpr (sizeof(T) == 1) {
    int dist = 0;
#pragma unroll
    for (int c = 0; c < C; ++c) dist += abs(static_cast<int>(q[c]) - static_cast<int>(p[c]));
    if constexpr (LaneTab) {
      return tab[dist * 32 + lane];
    } else {
      return tab[dist];
    }
  } else {
    float dist = 0.0f;
#pragma unroll
    for (int c = 0; c < C; ++c) dist += fabsf(q[c] - p[c]);
    return detail::bilateral_f32_weight(tab, a.scale, a.bins, dist);
  }
}

// The floats of the tiled kernel's colour table in shared memory (a multiple of 4).
template <bool LaneTab>
__host__ __device__ inline int tile_table_floats(int table_size) {
  return LaneTab ? table_size * 32 : (table_size + 3) / 4 * 4;
}

// Shared bytes of the tiled kernel: colour table, space weights, tile offsets, then the tile of
// (kBlockX PX + 2 r) x (kBlockY PY + 2 r) pixels.
template <typename T, int C, int PX, int PY, bool LaneTab>
inline std::size_t tile_shared_bytes(int table_size, int taps, int radius) {
  const std::size_t tw = static_cast<std::size_t>(kBlockX * PX + 2 * radius);
  const std::size_t th = static_cast<std::size_t>(kBlockY * PY + 2 * radius);
  return static_cast<std::size_t>(tile_table_floats<LaneTab>(table_size)) * sizeof(float) +
         static_cast<std::size_t>(taps) * (sizeof(float) + sizeof(int)) + tw * th * C * sizeof(T);
}

// Thread (tx, ty) of the block whose outputs start at (bx0, by0) filters the pixels
// (bx0 + tx + kBlockX i, by0 + ty + kBlockY j) for i < PX, j < PY, from the tile whose element
// (u, v) is the source pixel (bx0 - r + u, by0 - r + v) (the border's pixel or value outside).
template <typename T, int C, int PX, int PY, bool LaneTab>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    bilateral_tile_kernel(const BilateralSrc s, const DstArgs d, const BilateralArgs a) {
  extern __shared__ float sm[];
  constexpr int kThreads = kBlockX * kBlockY;
  const int r = a.radius;
  const int tw = kBlockX * PX + 2 * r, th = kBlockY * PY + 2 * r;
  float* tab = sm;
  float* sp = tab + tile_table_floats<LaneTab>(a.table_size);
  int* off = reinterpret_cast<int*>(sp + a.taps);
  T* tile = reinterpret_cast<T*>(off + a.taps);
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  if constexpr (LaneTab) {
    for (int i = tid; i < a.table_size * 32; i += kThreads) tab[i] = __ldg(a.table + (i >> 5));
  } else {
    for (int i = tid; i < a.table_size; i += kThreads) tab[i] = __ldg(a.table + i);
  }
  for (int i = tid; i < a.taps; i += kThreads) {
    sp[i] = __ldg(a.space + i);
    off[i] = (__ldg(a.dy + i) * tw + __ldg(a.dx + i)) * C;
  }
  T bv[C];
#pragma unroll
  for (int c = 0; c < C; ++c) bv[c] = static_cast<T>(a.value[c]);
  const int bx0 = static_cast<int>(blockIdx.x) * kBlockX * PX;
  const int by0 = static_cast<int>(blockIdx.y) * kBlockY * PY;
  const int sx0 = bx0 - r, sy0 = by0 - r;
  // A tile inside the image needs no border.
  const bool inner = sx0 >= 0 && sy0 >= 0 && sx0 + tw <= s.width && sy0 + th <= s.height;
  for (int v = static_cast<int>(threadIdx.y); v < th; v += kBlockY) {
    const int iy = inner ? sy0 + v : detail::border_index(sy0 + v, s.height, a.border);
    const T* row =
        iy < 0 ? nullptr
               : reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(iy));
    T* t = tile + static_cast<std::size_t>(v) * tw * C;
    for (int u = static_cast<int>(threadIdx.x); u < tw; u += kBlockX) {
      const int ix =
          iy < 0 ? -1 : (inner ? sx0 + u : detail::border_index(sx0 + u, s.width, a.border));
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) t[u * C + c] = bv[c];
      } else {
#pragma unroll
        for (int c = 0; c < C; ++c)
          t[u * C + c] = __ldg(row + static_cast<std::size_t>(ix) * C + c);
      }
    }
  }
  __syncthreads();
  static_assert(kBlockX == 32, "threadIdx.x is the lane");
  const int lane = static_cast<int>(threadIdx.x);
  T p[PY][PX][C];
  float sum[PY][PX][C];
  float wsum[PY][PX];
#pragma unroll
  for (int j = 0; j < PY; ++j)
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      const T* cp = tile + ((static_cast<int>(threadIdx.y) + kBlockY * j + r) * tw +
                            static_cast<int>(threadIdx.x) + kBlockX * i + r) *
                               C;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        p[j][i][c] = cp[c];
        sum[j][i][c] = 0.0f;
      }
      wsum[j][i] = 0.0f;
    }
  const T* centre =
      tile + ((static_cast<int>(threadIdx.y) + r) * tw + static_cast<int>(threadIdx.x) + r) * C;
  for (int k = 0; k < a.taps; ++k) {
    const T* q0 = centre + off[k];
    const float ws = sp[k];
#pragma unroll
    for (int j = 0; j < PY; ++j)
#pragma unroll
      for (int i = 0; i < PX; ++i) {
        const T* qp = q0 + (kBlockY * j * tw + kBlockX * i) * C;
        T q[C];
#pragma unroll
        for (int c = 0; c < C; ++c) q[c] = qp[c];
        const float wk = ws * colour_weight<T, C, LaneTab>(tab, a, p[j][i], q, lane);
        wsum[j][i] += wk;
#pragma unroll
        for (int c = 0; c < C; ++c) sum[j][i][c] += wk * static_cast<float>(q[c]);
      }
  }
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = by0 + static_cast<int>(threadIdx.y) + kBlockY * j;
    if (y >= d.height) break;
    T* orow = reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y));
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      const int x = bx0 + static_cast<int>(threadIdx.x) + kBlockX * i;
      if (x >= d.width) break;
#pragma unroll
      for (int c = 0; c < C; ++c)
        orow[static_cast<std::size_t>(x) * C + c] = detail::saturate<T>(sum[j][i][c] / wsum[j][i]);
    }
  }
}

}  // namespace bilateral

template <typename T>
void launch_bilateral(const BilateralSrc& s, const DstArgs& d, int channels, const BilateralArgs& a,
                      cudaStream_t st) {
  constexpr const char* kOp = "bilateral_filter";
  const auto run = [&]<int C>() {
    constexpr int PX = tuning::Bilateral::kTilePx, PY = tuning::Bilateral::kTileRows;
    // u8 one channel: a copy of the colour table per lane (32 KB for 256 entries).
    constexpr bool kLaneTab = sizeof(T) == 1 && C == 1;
    const std::size_t tile_bytes =
        bilateral::tile_shared_bytes<T, C, PX, PY, kLaneTab>(a.table_size, a.taps, a.radius);
    if (a.radius >= 0 && tile_bytes <= tuning::Bilateral::kTileMaxSharedBytes &&
        !bilateral::force_disc_kernel()) {
      const auto kernel = bilateral::bilateral_tile_kernel<T, C, PX, PY, kLaneTab>;
      if (tile_bytes > 48 * 1024)
        TEXCV_CUDA_CHECK(kOp,
                         cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(tile_bytes)));
      const dim3 g(static_cast<unsigned>((d.width + kBlockX * PX - 1) / (kBlockX * PX)),
                   static_cast<unsigned>((d.height + kBlockY * PY - 1) / (kBlockY * PY)));
      kernel<<<g, dim3(kBlockX, kBlockY), tile_bytes, st>>>(s, d, a);
      TEXCV_CUDA_CHECK_LAUNCH(kOp);
      return;
    }
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
