// Device code of the linear filters on kBlockX x kBlockY blocks. Borders go through
// src/core/sampling.hpp's border_index. Each output element accumulates in float from +0 in the
// CPU backend's order (kernel rows, then taps left to right; zero coefficients skipped), then
// saturate(acc * scale + delta): with --fmad=false on both sides the floats are the CPU's.
//
// The strip and tile kernels give each thread kFilterStrip output rows of one column: they walk
// the strip's source rows once, top to bottom, and add each tap to every output row whose window
// contains it. An output's contributions still arrive kernel row by kernel row, taps left to
// right, so the order (and the result) is the one-pixel-per-thread order of the CPU.
#pragma once

#include "src/core/dispatch.hpp"
#include "src/cuda/ops/filter/filter_tuning.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/block_range.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/ops/filter/filter_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

constexpr int kFilterThreads = kBlockX * kBlockY;
static_assert(kFilterBlockX == kBlockX && kFilterTileH == kBlockY * kFilterStrip,
              "filter_launch.hpp's tile must match the block shape");
// Dynamic shared memory a block may use without opting in.
constexpr std::size_t kDefaultSmem = 48 * 1024;

template <typename T>
__device__ __forceinline__ const T* filter_row(const FilterSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

template <typename T>
__device__ __forceinline__ T* out_row(const DstArgs& d, int y) {
  return reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y));
}

__device__ __forceinline__ int filter_tid() {
  return static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
}

// Copies n coefficients (by-value kernel argument) to shared memory (no barrier).
__device__ __forceinline__ void copy_taps(const float* k, int n, float* ks) {
  for (int i = filter_tid(); i < n; i += kFilterThreads) ks[i] = k[i];
}

// The accumulators of one thread: kFilterStrip rows x PX pixels x C channels.
template <int PX, int C>
struct StripAcc {
  float v[kFilterStrip][PX * C];

  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int p = 0; p < kFilterStrip; ++p)
#pragma unroll
      for (int e = 0; e < PX * C; ++e) v[p][e] = 0.0f;
  }

  // Source element column t (0 .. PX + kw - 2 from the strip's left window edge) of window row r
  // holds value val: it is tap i = t - q of pixel q and kernel row j = r - p of output row p.
  // ks is row-major kw x kh (kw = 1 for a column kernel).
  __device__ __forceinline__ void add(const float* ks, int kw, int kh, int r, int t,
                                      const float* val) {
#pragma unroll
    for (int q = 0; q < PX; ++q) {
      const int i = t - q;
      if (i < 0 || i >= kw) continue;
#pragma unroll
      for (int p = 0; p < kFilterStrip; ++p) {
        const int j = r - p;
        if (j < 0 || j >= kh) continue;
        const float kv = ks[j * kw + i];
        if (kv == 0.0f) continue;
#pragma unroll
        for (int c = 0; c < C; ++c) v[p][q * C + c] += kv * val[c];
      }
    }
  }

  // Stores saturate(acc * scale + delta) for the strip at (x0, y0), n pixels of the PX valid.
  template <typename Tout>
  __device__ __forceinline__ void store(const DstArgs& d, int x0, int y0, int n, float scale,
                                        float delta) const {
#pragma unroll
    for (int p = 0; p < kFilterStrip; ++p) {
      const int y = y0 + p;
      if (y >= d.height) break;
      Tout e[PX * C];
#pragma unroll
      for (int k = 0; k < PX * C; ++k) e[k] = detail::saturate<Tout>(v[p][k] * scale + delta);
      store_elems<Tout, PX * C>(out_row<Tout>(d, y) + static_cast<std::size_t>(x0) * C, e, n * C);
    }
  }
};

// Fixed kernel sizes (compile-time K x K, or NB taps): fully unrolled, coefficients in
// registers. Window row r (compile-time after unrolling) with values v[t] for the thread's PX
// pixels' columns t = 0 .. PX + K - 2 adds tap (j = r - p, i) to output row p, pixel q, from
// v[q + i]; per output the order is still kernel rows, then taps left to right.
template <int S, int PX, int C, int K, int KW>
__device__ __forceinline__ void fixed_row(const float* kv, int r, const float (&v)[PX + KW - 1][C],
                                          float (&acc)[S][PX * C]) {
#pragma unroll
  for (int p = 0; p < S; ++p) {
    const int j = r - p;
    if (j < 0 || j >= K) continue;
#pragma unroll
    for (int i = 0; i < KW; ++i) {
      const float k = kv[j * KW + i];
      if (k == 0.0f) continue;
#pragma unroll
      for (int q = 0; q < PX; ++q)
#pragma unroll
        for (int c = 0; c < C; ++c) acc[p][q * C + c] += k * v[q + i][c];
    }
  }
}

template <int S, int PX, int C>
__device__ __forceinline__ void zero_acc(float (&acc)[S][PX * C]) {
#pragma unroll
  for (int p = 0; p < S; ++p)
#pragma unroll
    for (int e = 0; e < PX * C; ++e) acc[p][e] = 0.0f;
}

template <typename Tout, int S, int PX, int C>
__device__ __forceinline__ void store_acc(const DstArgs& d, int x0, int y0,
                                          const float (&acc)[S][PX * C], float scale, float delta) {
  const int n = min(PX, d.width - x0);
#pragma unroll
  for (int p = 0; p < S; ++p) {
    const int y = y0 + p;
    if (y >= d.height) break;
    Tout e[PX * C];
#pragma unroll
    for (int k = 0; k < PX * C; ++k) e[k] = saturate_nobranch<Tout>(acc[p][k] * scale + delta);
    store_elems<Tout, PX * C>(out_row<Tout>(d, y) + static_cast<std::size_t>(x0) * C, e, n * C);
  }
}

// ---- 2-D kernels --------------------------------------------------------------------------

// global / texture: Src is GlobalSource or TextureSource (load(x, y, v)). Each thread: PX
// pixels x kFilterStrip rows; every source element of its window is loaded once.
// Any kernel size and anchor.
template <typename T, typename Tout, int C, int PX, class Src>
__global__ void __launch_bounds__(kFilterThreads)
    filter_2d_strip_kernel(const Src src, const DstArgs d, const Kernel2DArgs a,
                           const FilterBorderArgs b) {
  __shared__ float ks[kMaxKernel2D * kMaxKernel2D];
  copy_taps(a.k, a.kw * a.kh, ks);
  __syncthreads();
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * kFilterStrip;
  if (x0 >= d.width || y0 >= d.height) return;
  StripAcc<PX, C> acc;
  acc.zero();
  const int xs = x0 - a.ax, span = PX + a.kw - 1;
  const bool inside_x = xs >= 0 && xs + span <= src.width;
  const int rows = kFilterStrip + a.kh - 1;
  for (int r = 0; r < rows; ++r) {
    const int iy = detail::border_index(y0 - a.ay + r, src.height, b.border);
    for (int t = 0; t < span; ++t) {
      float v[C];
      const int ix = iy < 0     ? -1
                     : inside_x ? xs + t
                                : detail::border_index(xs + t, src.width, b.border);
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[c] = b.value[c];
      } else {
        src.load(ix, iy, v);
      }
      acc.add(ks, a.kw, a.kh, r, t, v);
    }
  }
  acc.template store<Tout>(d, x0, y0, min(PX, d.width - x0), a.scale, a.delta);
}

// Pixels a thread of the vector strip kernel: one 16-byte load for 1 and 4 channels, 4 u8 or
// 2 u16 pixels for 3 channels (12 bytes: three 4-byte words), 1 f32 RGB pixel.
template <typename T, int C>
constexpr int kVecPx = C == 3 ? (sizeof(T) == 4 ? 1 : 4 / static_cast<int>(sizeof(T)))
                              : 16 / static_cast<int>(sizeof(T) * C);
// Output rows a thread of the vector strip kernel (measured: filter_tuning.hpp).
constexpr int kVecRows = tuning::Filter::kVecRows;

// n = N / C pixels from (x, y) into v (C floats each): one vector load where aligned.
template <typename T, int C, int N>
__device__ __forceinline__ void load_run(const GlobalSource<T, C>& s, int x, int y, float* v) {
  const T* p = reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y)) +
               static_cast<std::size_t>(x) * C;
  T e[N];
  load_elems<T, N>(p, e, N);
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = int_to_float(e[i]);
}
template <typename T, int C, int N>
__device__ __forceinline__ void load_run(const TextureSource<T, C>& s, int x, int y, float* v) {
#pragma unroll
  for (int i = 0; i < N / C; ++i) s.load(x + i, y, v + i * C);
}

// Window row r of a thread's PX pixels (SPAN = PX + K - 1 pixels from xs), borders applied.
template <typename T, int C, int PX, int K, class Src>
__device__ __forceinline__ void load_window_row(const Src& src, const FilterBorderArgs& b, int iy,
                                                int x0, bool inside_x, float (&v)[PX + K - 1][C]) {
  constexpr int R = K / 2, SPAN = PX + K - 1;
  const int xs = x0 - R;
  if (iy >= 0 && inside_x) {
    load_run<T, C, PX * C>(src, x0, iy, &v[R][0]);
#pragma unroll
    for (int t = 0; t < R; ++t) {
      src.load(xs + t, iy, v[t]);
      src.load(x0 + PX + t, iy, v[R + PX + t]);
    }
  } else {
#pragma unroll
    for (int t = 0; t < SPAN; ++t) {
      const int ix = iy < 0 ? -1 : detail::border_index(xs + t, src.width, b.border);
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[t][c] = b.value[c];
      } else {
        src.load(ix, iy, v[t]);
      }
    }
  }
}

// BlockRange, interior_blocks, edge_block: src/cuda/ops/common/block_range.hpp.

// The second launch's grid for the whole grid `full`: one block per block outside the range,
// along x (block_of<false> maps them back; range.gx and gy set here). With
// TEXCV_FILTER_EDGE_GRID=full (an A/B aid) the whole grid, whose blocks inside the range return
// at once: 4-5 % slower on the small filters' rows (H100, docs/performance.md).
inline dim3 edge_grid(BlockRange& range, dim3 full) {
  static const bool whole = [] {
    const char* v = std::getenv("TEXCV_FILTER_EDGE_GRID");
    return v != nullptr && std::string(v) == "full";
  }();
  if (whole || static_cast<unsigned long long>(full.x) * full.y > 0x7fffffffULL) return full;
  range.gx = static_cast<int>(full.x);
  range.gy = static_cast<int>(full.y);
  return dim3(static_cast<unsigned>(range.edge_count()));
}

// This thread's block, and whether it runs: an Interior launch covers range's blocks (offset by
// its origin); the other launch enumerates the blocks outside it (edge_block), or covers the
// whole grid and leaves range's blocks to the first (range.gx 0).
template <bool Interior>
__device__ __forceinline__ bool block_of(const BlockRange& range, int& bx, int& by) {
  bx = static_cast<int>(blockIdx.x);
  by = static_cast<int>(blockIdx.y);
  if constexpr (Interior) {
    bx += range.x0;
    by += range.y0;
    return true;
  } else {
    if (range.gx == 0) return !range.contains(bx, by);
    edge_block(range, bx, bx, by);
    return true;
  }
}

// Window row iy (inside the image) of a thread's PX pixels from x0 - K / 2, no border checks.
template <typename T, int C, int PX, int K>
__device__ __forceinline__ void load_window_row_inside(const GlobalSource<T, C>& src, int iy,
                                                       int x0, float (&v)[PX + K - 1][C]) {
  constexpr int R = K / 2;
  load_run<T, C, PX * C>(src, x0, iy, &v[R][0]);
#pragma unroll
  for (int t = 0; t < R; ++t) {
    src.load(x0 - R + t, iy, v[t]);
    src.load(x0 + PX + t, iy, v[R + PX + t]);
  }
}

// global / texture, a K x K kernel with its anchor at the centre (compile-time K): each thread
// computes PX pixels x S rows; a window row is one vector load of the PX pixels above the
// outputs plus K / 2 pixels each side, reused by every output row and tap that needs it.
// KA: Kernel2DArgs, or SmallKernel2D<K> (the batched call's copy of its taps).
template <typename T, typename Tout, int C, int PX, int S, int K, bool Interior, class Src,
          class KA>
__device__ __forceinline__ void filter_2d_vec_body(const Src src, const DstArgs d, const KA& a,
                                                   const FilterBorderArgs b,
                                                   const BlockRange range) {
  constexpr int R = K / 2, SPAN = PX + K - 1;
  int bx, by;
  if (!block_of<Interior>(range, bx, by)) return;
  float kv[K * K];
#pragma unroll
  for (int e = 0; e < K * K; ++e) kv[e] = a.k[e];
  const int x0 = (bx * kBlockX + static_cast<int>(threadIdx.x)) * PX;
  const int y0 = (by * kBlockY + static_cast<int>(threadIdx.y)) * S;
  if (!Interior && (x0 >= d.width || y0 >= d.height)) return;
  float acc[S][PX * C];
  zero_acc<S, PX, C>(acc);
  const bool inside_x = x0 - R >= 0 && x0 - R + SPAN <= src.width;
#pragma unroll
  for (int r = 0; r < S + K - 1; ++r) {
    float v[SPAN][C];
    if constexpr (Interior) {
      load_window_row_inside<T, C, PX, K>(src, y0 - R + r, x0, v);
    } else {
      const int iy = detail::border_index(y0 - R + r, src.height, b.border);
      load_window_row<T, C, PX, K>(src, b, iy, x0, inside_x, v);
    }
    fixed_row<S, PX, C, K, K>(kv, r, v, acc);
  }
  store_acc<Tout, S, PX, C>(d, x0, y0, acc, a.scale, a.delta);
}

template <typename T, typename Tout, int C, int PX, int S, int K, bool Interior, class Src>
__global__ void __launch_bounds__(kFilterThreads)
    filter_2d_vec_kernel(const Src src, const DstArgs d, const Kernel2DArgs a,
                         const FilterBorderArgs b, const BlockRange range) {
  filter_2d_vec_body<T, Tout, C, PX, S, K, Interior, Src>(src, d, a, b, range);
}

// The taps of a K x K kernel, as filter_2d_vec_body reads them from Kernel2DArgs.
template <int K>
struct SmallKernel2D {
  float k[K * K];
  float scale, delta;
};

// filter_2d_vec_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename T, typename Tout, int C, int PX, int S, int K, bool Interior, class Src>
struct Filter2DVecCall {
  Src src;
  DstArgs d;
  SmallKernel2D<K> a;
  FilterBorderArgs b;
  BlockRange range;
  __device__ __forceinline__ void operator()() const {
    filter_2d_vec_body<T, Tout, C, PX, S, K, Interior, Src>(src, d, a, b, range);
  }
};

// ---- u8 one channel, K x K taps of the form m * 2^-e with m in int8: dp4a ----------------------
//
// When every tap is m * 2^-e (one e, integers m in [-128, 127]), every product k * v of a u8 value
// and every partial sum of the float accumulation is a multiple of 2^-e below 2^24 * 2^-e in
// magnitude, so the float sums are exact in any order: the result is 2^-e times the integer sum
// of m * v. This kernel forms that sum with dp4a (four byte products and their sum in one
// instruction; the taps of a kernel row packed as int8x4), converts it to float (exact) and ends
// as the float kernels (store_acc: * scale + delta, saturate), so its bytes are theirs and the
// CPU's. The 3x3 and 5x5 binomial, sharpen and box-sum kernels are of this form. Borders: any but
// a constant whose value is not an integer in [0, 255].

// Dp4aTaps and dp4a_taps (which taps take this kernel): filter_launch.hpp.

// The sum of the four unsigned bytes of a times the four signed bytes of b, plus c.
__device__ __forceinline__ int dp4a_us(unsigned a, int b, int c) {
  int d;
  asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

// 4 bytes of a row from x on, with the border (the threads at a row's ends; a null row: the
// constant border's row).
__device__ __noinline__ inline unsigned dp4a_border_word(const std::uint8_t* row, int x, int width,
                                                         Border border, std::uint8_t cval) {
  unsigned w = 0;
  for (int i = 0; i < 4; ++i) {
    const int ix = row ? detail::border_index(x + i, width, border) : -1;
    const unsigned v = ix < 0 ? cval : row[ix];
    w |= v << (8 * i);
  }
  return w;
}

// Each thread makes 16 pixels (one 16-byte chunk of a row) x S rows. A window row is 24 bytes
// from x0 - 4 (a 4-byte load, a 16-byte load, a 4-byte load), rows on 16-byte steps; each output
// pixel's taps of that row are cut from them by one __byte_perm (two for 5x5) and folded by one
// dp4a (two) into the integer sum of every output row the window row belongs to.
template <typename Tout, int K, int S, bool Interior>
__device__ __forceinline__ void filter_2d_dp4a_body(const GlobalSource<std::uint8_t, 1> src,
                                                    const DstArgs d, const Dp4aTaps& a,
                                                    const FilterBorderArgs b,
                                                    const BlockRange range) {
  constexpr int R = K / 2, PX = 16;
  int bx, by;
  if (!block_of<Interior>(range, bx, by)) return;
  const int x0 = (bx * kBlockX + static_cast<int>(threadIdx.x)) * PX;
  const int y0 = (by * kBlockY + static_cast<int>(threadIdx.y)) * S;
  if (!Interior && (x0 >= d.width || y0 >= d.height)) return;
  int taps[K][2];
#pragma unroll
  for (int j = 0; j < K; ++j) {
    taps[j][0] = a.w[j][0];
    taps[j][1] = a.w[j][1];
  }
  int acc[S][PX];
#pragma unroll
  for (int p = 0; p < S; ++p)
#pragma unroll
    for (int q = 0; q < PX; ++q) acc[p][q] = 0;
  const bool inside_x = x0 - 4 >= 0 && x0 + PX + 4 <= src.width;
#pragma unroll
  for (int r = 0; r < S + K - 1; ++r) {
    const int yy = y0 - R + r;
    int iy = yy;
    if constexpr (!Interior) {
      if (static_cast<unsigned>(yy) >= static_cast<unsigned>(src.height))
        iy = border_index_out_of_line(yy, src.height, b.border);
    }
    unsigned w[8];  // bytes x0 - 4 .. x0 + 27 (the last 8 only for 5x5's zero taps)
    const std::uint8_t* row =
        iy < 0 ? nullptr : src.data + src.pitch * static_cast<std::size_t>(iy);
    if (Interior || (row && inside_x)) {
      w[0] = __ldg(reinterpret_cast<const unsigned*>(row + x0 - 4));
      const uint4 m = __ldg(reinterpret_cast<const uint4*>(row + x0));
      w[1] = m.x;
      w[2] = m.y;
      w[3] = m.z;
      w[4] = m.w;
      w[5] = __ldg(reinterpret_cast<const unsigned*>(row + x0 + PX));
    } else {
#pragma unroll
      for (int i = 0; i < 6; ++i)
        w[i] = dp4a_border_word(row, x0 - 4 + 4 * i, src.width, b.border, a.cval);
    }
    w[6] = 0;
    w[7] = 0;
#pragma unroll
    for (int q = 0; q < PX; ++q) {
      const int o = q - R + 4;  // the first tap's byte in w
      const unsigned p0 = (o & 3) == 0
                              ? w[o >> 2]
                              : __byte_perm(w[o >> 2], w[(o >> 2) + 1],
                                            0x3210u + 0x1111u * static_cast<unsigned>(o & 3));
      unsigned p1 = 0;
      if constexpr (K == 5) {
        const int o1 = o + 4;
        p1 = (o1 & 3) == 0 ? w[o1 >> 2]
                           : __byte_perm(w[o1 >> 2], w[(o1 >> 2) + 1],
                                         0x3210u + 0x1111u * static_cast<unsigned>(o1 & 3));
      }
#pragma unroll
      for (int p = 0; p < S; ++p) {
        const int j = r - p;
        if (j < 0 || j >= K) continue;
        acc[p][q] = dp4a_us(p0, taps[j][0], acc[p][q]);
        if constexpr (K == 5) acc[p][q] = dp4a_us(p1, taps[j][1], acc[p][q]);
      }
    }
  }
  float f[S][PX];
#pragma unroll
  for (int p = 0; p < S; ++p)
#pragma unroll
    for (int q = 0; q < PX; ++q) f[p][q] = static_cast<float>(acc[p][q]) * a.unit;
  store_acc<Tout, S, PX, 1>(d, x0, y0, f, a.scale, a.delta);
}

template <typename Tout, int K, int S, bool Interior>
__global__ void __launch_bounds__(kFilterThreads)
    filter_2d_dp4a_kernel(const GlobalSource<std::uint8_t, 1> src, const DstArgs d,
                          const Dp4aTaps a, const FilterBorderArgs b, const BlockRange range) {
  filter_2d_dp4a_body<Tout, K, S, Interior>(src, d, a, b, range);
}

// filter_2d_dp4a_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename Tout, int K, int S, bool Interior>
struct Filter2DDp4aCall {
  GlobalSource<std::uint8_t, 1> src;
  DstArgs d;
  Dp4aTaps a;
  FilterBorderArgs b;
  BlockRange range;
  __device__ __forceinline__ void operator()() const {
    filter_2d_dp4a_body<Tout, K, S, Interior>(src, d, a, b, range);
  }
};

// How far sep_vec_kernel's border blocks unroll their window-row loop: 1 (the default) keeps
// the loop; 0 unrolls it fully, as the interior blocks do (for comparing the two on a GPU).
#ifndef TEXCV_SEP_BORDER_UNROLL
#define TEXCV_SEP_BORDER_UNROLL 1
#endif

// Rows a thread and pixels a thread of the separable vector kernel for NB taps: enough rows to
// amortize the row pass (recomputed for the S + NB - 1 window rows of S outputs), at most 64
// accumulators a thread.
template <int NB>
constexpr int kSepRows = tuning::Filter::sep_rows(NB);
template <typename T, int C, int NB>
constexpr int kSepPx = kVecPx<T, C>* kSepRows<NB>* C <= tuning::Filter::kSepAccumulators
                           ? kVecPx<T, C>
                           : (tuning::Filter::kSepAccumulators / (kSepRows<NB> * C) > 0
                                  ? tuning::Filter::kSepAccumulators / (kSepRows<NB> * C)
                                  : 1);

// global / texture, separable kernels of NB taps each with centred anchors (compile-time NB):
// each thread computes PX pixels x S rows; for each of the S + NB - 1 window rows it runs the
// row pass of its PX pixels in registers (the CPU's row-pass arithmetic; a constant-border row
// outside the image is crow) and adds it to the column sums of the output rows it belongs to.
// No temporary image; the row pass is recomputed (S + NB - 1) / S times.
// KA: Kernel1DArgs, or SmallKernel1D<NB> (the batched call's copy of its taps).
template <typename T, typename Tout, int C, int PX, int S, int NB, bool Interior, class Src,
          class KA>
__device__ __forceinline__ void sep_vec_body(const Src src, const DstArgs d, const KA& kx,
                                             const KA& ky, const FilterBorderArgs b,
                                             const ColumnArgs a, const BlockRange range) {
  constexpr int R = NB / 2;
  int bx, by;
  if (!block_of<Interior>(range, bx, by)) return;
  float kxr[NB], kyr[NB];
#pragma unroll
  for (int i = 0; i < NB; ++i) {
    kxr[i] = kx.k[i];
    kyr[i] = ky.k[i];
  }
  const int x0 = (bx * kBlockX + static_cast<int>(threadIdx.x)) * PX;
  const int y0 = (by * kBlockY + static_cast<int>(threadIdx.y)) * S;
  if (!Interior && (x0 >= d.width || y0 >= d.height)) return;
  float acc[S][PX * C];
  zero_acc<S, PX, C>(acc);
  const bool inside_x = x0 - R >= 0 && x0 - R + PX + NB - 1 <= src.width;
  // Interior blocks unroll the window rows fully. Border blocks (the Interior == false launch,
  // which skips the interior ones) keep the loop over window rows: unrolled, their border
  // handling made these the build's largest kernels (filter_sepvec_17.u8.cu 62 s of ptxas and
  // cicc on one core, 9 s with the loop kept); the arithmetic and its order are the same.
  constexpr int kBorderUnroll = TEXCV_SEP_BORDER_UNROLL > 0 ? TEXCV_SEP_BORDER_UNROLL : S + NB - 1;
#pragma unroll(Interior ? S + NB - 1 : kBorderUnroll)
  for (int r = 0; r < S + NB - 1; ++r) {
    const int iy = Interior ? y0 - R + r : detail::border_index(y0 - R + r, src.height, b.border);
    float rowv[PX][C];
    if (!Interior && iy < 0) {
#pragma unroll
      for (int q = 0; q < PX; ++q)
#pragma unroll
        for (int c = 0; c < C; ++c) rowv[q][c] = a.crow[c];
    } else {
      float v[PX + NB - 1][C];
      if constexpr (Interior)
        load_window_row_inside<T, C, PX, NB>(src, iy, x0, v);
      else
        load_window_row<T, C, PX, NB>(src, b, iy, x0, inside_x, v);
#pragma unroll
      for (int q = 0; q < PX; ++q)
#pragma unroll
        for (int c = 0; c < C; ++c) {
          float t = 0.0f;
#pragma unroll
          for (int i = 0; i < NB; ++i) {
            if (kxr[i] == 0.0f) continue;
            t += kxr[i] * v[q + i][c];
          }
          rowv[q][c] = t;
        }
    }
    fixed_row<S, PX, C, NB, 1>(kyr, r, rowv, acc);
  }
  store_acc<Tout, S, PX, C>(d, x0, y0, acc, a.scale, a.delta);
}

template <typename T, typename Tout, int C, int PX, int S, int NB, bool Interior, class Src>
__global__ void __launch_bounds__(kFilterThreads)
    sep_vec_kernel(const Src src, const DstArgs d, const Kernel1DArgs kx, const Kernel1DArgs ky,
                   const FilterBorderArgs b, const ColumnArgs a, const BlockRange range) {
  sep_vec_body<T, Tout, C, PX, S, NB, Interior, Src>(src, d, kx, ky, b, a, range);
}

// The taps of an NB-tap pass, as sep_vec_body reads them from Kernel1DArgs.
template <int NB>
struct SmallKernel1D {
  float k[NB];
};

// sep_vec_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename T, typename Tout, int C, int PX, int S, int NB, bool Interior, class Src>
struct SepVecCall {
  Src src;
  DstArgs d;
  SmallKernel1D<NB> kx, ky;
  FilterBorderArgs b;
  ColumnArgs a;
  BlockRange range;
  __device__ __forceinline__ void operator()() const {
    sep_vec_body<T, Tout, C, PX, S, NB, Interior, Src>(src, d, kx, ky, b, a, range);
  }
};

// ---- Separable, 13 and 17 taps of 4-channel u8/u16: both passes through shared memory ----------
//
// The register kernel above holds too few pixels a thread for these (64 accumulators: 2 pixels x
// 8 rows, the row pass recomputed 2.5 times). Here a block of 32 x 8 threads makes 32 pixels x TH
// rows: it stages its source window ((TH + NB - 1) x (32 + NB - 1) pixels, borders applied) as
// elements, runs the row pass once per window row into a float tile (channel planes, so that both
// passes read and write it without bank conflicts), then the column pass, TH / 8 rows a thread.
// The arithmetic and its order are sep_vec_body's (and the CPU's): each row sum from 0 over the
// taps left to right, each column sum from 0 over the rows top to bottom, zero taps skipped, then
// * scale + delta and the saturating store. A constant-border row is a row of the border value,
// whose row pass is crow. Rows a block: tuning::Filter::kSepTileRows.
template <typename T, int NB, int TH>
struct SepTile4 {
  static constexpr int R = NB / 2, TW = kBlockX, cols = TW + NB - 1, rows = TH + NB - 1;
  using V = typename Vec4Of<T, 4>::type;
  static constexpr std::size_t raw_bytes = (sizeof(V) * rows * cols + 15) / 16 * 16;
  static constexpr std::size_t bytes = raw_bytes + sizeof(float) * 4 * rows * TW;
};

template <typename T, int NB, int TH>
__device__ __forceinline__ void sep_tile4_body(const GlobalSource<T, 4>& src, const DstArgs& d,
                                               const SmallKernel1D<NB>& kx,
                                               const SmallKernel1D<NB>& ky,
                                               const FilterBorderArgs& b, const ColumnArgs& a,
                                               unsigned char* smem) {
  using Sh = SepTile4<T, NB, TH>;
  using V = typename Sh::V;
  constexpr int R = Sh::R, TW = Sh::TW, cols = Sh::cols, rows = Sh::rows;
  V* raw = reinterpret_cast<V*>(smem);
  float* rowp = reinterpret_cast<float*>(smem + Sh::raw_bytes);  // [4][rows][TW]
  const int tid = filter_tid();
  const int bx = static_cast<int>(blockIdx.x) * TW, by = static_cast<int>(blockIdx.y) * TH;
  // 1. The source window, as elements (loads unrolled: all in flight before the stores).
  {
    const bool inside =
        bx - R >= 0 && by - R >= 0 && bx + TW + R <= src.width && by + TH + R <= src.height;
    V cv;
    cv.x = static_cast<T>(b.value[0]);
    cv.y = static_cast<T>(b.value[1]);
    cv.z = static_cast<T>(b.value[2]);
    cv.w = static_cast<T>(b.value[3]);
    constexpr int n = rows * cols, kIters = (n + kFilterThreads - 1) / kFilterThreads;
    V v[kIters];
#pragma unroll
    for (int u = 0; u < kIters; ++u) {
      const int idx = tid + u * kFilterThreads;
      if (idx >= n) break;
      const int r = idx / cols, cx = idx - r * cols;
      int iy = by - R + r, ix = bx - R + cx;
      if (!inside) {
        iy = detail::border_index(iy, src.height, b.border);
        ix = iy < 0 ? -1 : detail::border_index(ix, src.width, b.border);
      }
      if (ix < 0) {
        v[u] = cv;
      } else {
        const T* p =
            reinterpret_cast<const T*>(src.data + src.pitch * static_cast<std::size_t>(iy)) +
            static_cast<std::size_t>(ix) * 4;
        if (src.vec) {
          v[u] = __ldg(reinterpret_cast<const V*>(p));
        } else {
          v[u].x = __ldg(p);
          v[u].y = __ldg(p + 1);
          v[u].z = __ldg(p + 2);
          v[u].w = __ldg(p + 3);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < kIters; ++u) {
      const int idx = tid + u * kFilterThreads;
      if (idx >= n) break;
      raw[idx] = v[u];
    }
  }
  __syncthreads();
  // 2. The row pass: 4 adjacent pixels a task, their NB + 3 window pixels each read once, by
  // 16-byte loads (a quarter warp's 8 tasks read 128 consecutive bytes: no bank conflicts).
  constexpr int kQuads = TW / 4, kPerLoad = 16 / static_cast<int>(sizeof(V));
  static_assert((NB + 3) % kPerLoad == 0 && (sizeof(V) * cols) % 16 == 0, "16-byte loads");
  union Chunk {
    uint4 u;
    V v[kPerLoad];
  };
  for (int t = tid; t < rows * kQuads; t += kFilterThreads) {
    const int r = t / kQuads, x0 = (t - r * kQuads) * 4;
    float acc[4][4];
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int c = 0; c < 4; ++c) acc[q][c] = 0.0f;
    const uint4* w = reinterpret_cast<const uint4*>(raw + r * cols + x0);
#pragma unroll
    for (int l = 0; l < (NB + 3) / kPerLoad; ++l) {
      Chunk ch;
      ch.u = w[l];
#pragma unroll
      for (int e = 0; e < kPerLoad; ++e) {
        const int i = l * kPerLoad + e;  // window pixel x0 + i
        const V p = ch.v[e];
        const float v[4] = {int_to_float<T>(p.x), int_to_float<T>(p.y), int_to_float<T>(p.z),
                            int_to_float<T>(p.w)};
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int k = i - q;  // pixel x0 + q's tap k
          if (k < 0 || k >= NB || kx.k[k] == 0.0f) continue;
#pragma unroll
          for (int c = 0; c < 4; ++c) acc[q][c] += kx.k[k] * v[c];
        }
      }
    }
#pragma unroll
    for (int c = 0; c < 4; ++c)
      *reinterpret_cast<float4*>(rowp + (c * rows + r) * TW + x0) =
          make_float4(acc[0][c], acc[1][c], acc[2][c], acc[3][c]);
  }
  __syncthreads();
  // 3. The column pass: pixel threadIdx.x, rows threadIdx.y * RT on.
  constexpr int RT = TH / kBlockY;
  const int x = bx + static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y) * RT;
  if (x >= d.width || by + ty >= d.height) return;
  float acc[RT][4];
#pragma unroll
  for (int p = 0; p < RT; ++p)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[p][c] = 0.0f;
  const float* col = rowp + ty * TW + static_cast<int>(threadIdx.x);
#pragma unroll
  for (int rr = 0; rr < RT + NB - 1; ++rr) {
    float v[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) v[c] = col[(c * rows + rr) * TW];
#pragma unroll
    for (int p = 0; p < RT; ++p) {
      const int j = rr - p;
      if (j < 0 || j >= NB || ky.k[j] == 0.0f) continue;
#pragma unroll
      for (int c = 0; c < 4; ++c) acc[p][c] += ky.k[j] * v[c];
    }
  }
#pragma unroll
  for (int p = 0; p < RT; ++p) {
    const int y = by + ty + p;
    if (y >= d.height) break;
    // Not store_pixels: its per-pointer alignment test took 73 registers here (64 with this
    // store, 4 blocks an SM) and 1.266 ms against 1.159 (H100, docs/performance.md).
    V o;
    o.x = saturate_nobranch<T>(acc[p][0] * a.scale + a.delta);
    o.y = saturate_nobranch<T>(acc[p][1] * a.scale + a.delta);
    o.z = saturate_nobranch<T>(acc[p][2] * a.scale + a.delta);
    o.w = saturate_nobranch<T>(acc[p][3] * a.scale + a.delta);
    T* q = out_row<T>(d, y) + static_cast<std::size_t>(x) * 4;
    if (src.vec) {  // the destination's alignment is checked with the source's (launcher)
      *reinterpret_cast<V*>(q) = o;
    } else {
      q[0] = o.x;
      q[1] = o.y;
      q[2] = o.z;
      q[3] = o.w;
    }
  }
}

template <typename T, int NB, int TH>
__global__ void __launch_bounds__(kFilterThreads)
    sep_tile4_kernel(const GlobalSource<T, 4> src, const DstArgs d, const SmallKernel1D<NB> kx,
                     const SmallKernel1D<NB> ky, const FilterBorderArgs b, const ColumnArgs a) {
  extern __shared__ __align__(16) unsigned char sep_tile_smem[];
  sep_tile4_body<T, NB, TH>(src, d, kx, ky, b, a, sep_tile_smem);
}

// Fills tile (rows x cols floats x C) with the source window whose top-left pixel is (x0, y0),
// borders applied (a constant-border element is the border value).
template <typename T, int C>
__device__ __forceinline__ void load_tile(const SourceArgs& s, const FilterBorderArgs& b, int x0,
                                          int y0, int rows, int cols, float* tile) {
  // kBatch independent loads in flight per thread before their shared-memory stores.
  constexpr int kBatch = 8;
  const int n = rows * cols;
  for (int base = filter_tid(); base < n; base += kFilterThreads * kBatch) {
    float v[kBatch][C];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int idx = base + u * kFilterThreads;
      if (idx >= n) break;
      const int r = idx / cols, cc = idx - r * cols;
      const int iy = detail::border_index(y0 + r, s.height, b.border);
      const int ix = iy < 0 ? -1 : detail::border_index(x0 + cc, s.width, b.border);
      if (ix < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[u][c] = b.value[c];
      } else {
        const T* p = reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(iy)) +
                     static_cast<std::size_t>(ix) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) v[u][c] = static_cast<float>(__ldg(p + c));
      }
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int idx = base + u * kFilterThreads;
      if (idx >= n) break;
#pragma unroll
      for (int c = 0; c < C; ++c) tile[static_cast<std::size_t>(idx) * C + c] = v[u][c];
    }
  }
}

// shared: the block's window ((kFilterTileH + kh - 1) x (32 PX + kw - 1)) staged first.
template <typename T, typename Tout, int C, int PX>
__global__ void __launch_bounds__(kFilterThreads)
    filter_2d_tile_kernel(const SourceArgs s, const DstArgs d, const Kernel2DArgs a,
                          const FilterBorderArgs b) {
  extern __shared__ float tile[];
  __shared__ float ks[kMaxKernel2D * kMaxKernel2D];
  copy_taps(a.k, a.kw * a.kh, ks);
  const int cols = kBlockX * PX + a.kw - 1, rows = kFilterTileH + a.kh - 1;
  const int bx = static_cast<int>(blockIdx.x) * kBlockX * PX;
  const int by = static_cast<int>(blockIdx.y) * kFilterTileH;
  load_tile<T, C>(s, b, bx - a.ax, by - a.ay, rows, cols, tile);
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x) * PX;
  const int ty = static_cast<int>(threadIdx.y) * kFilterStrip;
  const int x0 = bx + tx, y0 = by + ty;
  if (x0 >= d.width || y0 >= d.height) return;
  StripAcc<PX, C> acc;
  acc.zero();
  const int span = PX + a.kw - 1;
  for (int r = 0; r < kFilterStrip + a.kh - 1; ++r) {
    const float* t = tile + (static_cast<std::size_t>(ty + r) * cols + tx) * C;
    for (int k = 0; k < span; ++k) acc.add(ks, a.kw, a.kh, r, k, t + k * C);
  }
  acc.template store<Tout>(d, x0, y0, min(PX, d.width - x0), a.scale, a.delta);
}

// ---- Separable filters ----------------------------------------------------------------------

// Row pass (global / texture) into the float temporary.
template <typename T, int C, class Src>
__global__ void __launch_bounds__(kFilterThreads)
    sep_rows_kernel(const Src src, const DstArgs t, const Kernel1DArgs k,
                    const FilterBorderArgs b) {
  __shared__ float ks[kMaxKernel1D];
  copy_taps(k.k, k.n, ks);
  __syncthreads();
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= t.width || y >= t.height) return;
  float acc[C];
#pragma unroll
  for (int c = 0; c < C; ++c) acc[c] = 0.0f;
  const int xs = x - k.anchor;
  const bool inside_x = xs >= 0 && xs + k.n <= src.width;
  for (int i = 0; i < k.n; ++i) {
    const float kv = ks[i];
    if (kv == 0.0f) continue;
    const int ix = inside_x ? xs + i : detail::border_index(xs + i, src.width, b.border);
    if (ix < 0) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * b.value[c];
    } else {
      float v[C];
      src.load(ix, y, v);
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] += kv * v[c];
    }
  }
  float* o = out_row<float>(t, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = acc[c];
}

// Column pass from the float temporary, PX pixels x kFilterStrip rows per thread.
template <typename Tout, int C, int PX>
__global__ void __launch_bounds__(kFilterThreads)
    sep_cols_kernel(const FilterSrc t, const DstArgs d, const Kernel1DArgs k, const ColumnArgs a) {
  __shared__ float ks[kMaxKernel1D];
  copy_taps(k.k, k.n, ks);
  __syncthreads();
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * kFilterStrip;
  if (x0 >= d.width || y0 >= d.height) return;
  StripAcc<PX, C> acc;
  acc.zero();
  for (int r = 0; r < kFilterStrip + k.n - 1; ++r) {
    const int iy = detail::border_index(y0 - k.anchor + r, t.height, a.border);
#pragma unroll
    for (int q = 0; q < PX; ++q) {
      float v[C];
      if (iy < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[c] = a.crow[c];
      } else {
        const float* p =
            filter_row<float>(t, iy) + static_cast<std::size_t>(min(x0 + q, d.width - 1)) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) v[c] = p[c];
      }
      acc.add(ks, 1, k.n, r, q, v);  // tap 0 of pixel q only
    }
  }
  acc.template store<Tout>(d, x0, y0, min(PX, d.width - x0), a.scale, a.delta);
}

// shared: both passes in one kernel. The block stages its source window
// ((kFilterTileH + ny - 1) rows x (32 PX + nx - 1) columns), runs the row pass over it into a
// second tile (the same rows x 32 PX columns; a constant-border row outside the image is crow),
// then the column pass from that tile.
template <typename T, typename Tout, int C, int PX>
__global__ void __launch_bounds__(kFilterThreads)
    sep_fused_kernel(const SourceArgs s, const DstArgs d, const Kernel1DArgs kx,
                     const Kernel1DArgs ky, const FilterBorderArgs b, const ColumnArgs a) {
  extern __shared__ float smem[];
  __shared__ float ksx[kMaxKernel1D];
  __shared__ float ksy[kMaxKernel1D];
  copy_taps(kx.k, kx.n, ksx);
  copy_taps(ky.k, ky.n, ksy);
  constexpr int W = kBlockX * PX;  // output columns of the block
  const int cols = W + kx.n - 1, rows = kFilterTileH + ky.n - 1;
  float* raw = smem;
  float* rowp = smem + static_cast<std::size_t>(rows) * cols * C;
  const int bx = static_cast<int>(blockIdx.x) * W;
  const int by = static_cast<int>(blockIdx.y) * kFilterTileH;
  load_tile<T, C>(s, b, bx - kx.anchor, by - ky.anchor, rows, cols, raw);
  __syncthreads();
  for (int idx = filter_tid(); idx < rows * W; idx += kFilterThreads) {
    const int r = idx / W, cx = idx - r * W;
    float acc[C];
    if (detail::border_index(by - ky.anchor + r, s.height, b.border) < 0) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = a.crow[c];
    } else {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = 0.0f;
      const float* t = raw + (static_cast<std::size_t>(r) * cols + cx) * C;
      for (int i = 0; i < kx.n; ++i) {
        const float kv = ksx[i];
        if (kv == 0.0f) continue;
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] += kv * t[i * C + c];
      }
    }
    float* o = rowp + static_cast<std::size_t>(idx) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) o[c] = acc[c];
  }
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x) * PX;
  const int ty = static_cast<int>(threadIdx.y) * kFilterStrip;
  const int x0 = bx + tx, y0 = by + ty;
  if (x0 >= d.width || y0 >= d.height) return;
  StripAcc<PX, C> acc;
  acc.zero();
  for (int r = 0; r < kFilterStrip + ky.n - 1; ++r) {
    const float* t = rowp + (static_cast<std::size_t>(ty + r) * W + tx) * C;
#pragma unroll
    for (int q = 0; q < PX; ++q) acc.add(ksy, 1, ky.n, r, q, t + q * C);
  }
  acc.template store<Tout>(d, x0, y0, min(PX, d.width - x0), a.scale, a.delta);
}

// ---- Launchers ----

using texcv::detail::by_channels;  // src/core/dispatch.hpp

// Calls f.template operator()<Tout>() for dst of T or f32.
template <typename T, class F>
void by_dst(ElemType dst_type, F&& f) {
  if (dst_type == detail::ElemTraits<T>::kType)
    f.template operator()<T>();
  else
    f.template operator()<float>();
}

// Calls on_source(source) with the GlobalSource or TextureSource of s.
template <typename T, int C, class F>
void by_source(const char* op, const SourceArgs& s, F&& on_source) {
  if constexpr (C != 3) {
    if (s.path == Path::texture) return on_source(make_texture_source<T, C>(s));
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, op, "no strip kernel for this path", to_string(s.path),
         "global or texture (1 or 4 channels)");
  on_source(make_global_source<T, C>(s));
}

// Lets kernel use `bytes` of dynamic shared memory: an opt-in is needed once dynamic plus static
// shared memory (the kernels' coefficient arrays, up to 3.8 KB) exceeds 48 KB.
template <class K>
void allow_smem(const char* op, K kernel, std::size_t bytes) {
  if (bytes + kMaxKernel2D * kMaxKernel2D * sizeof(float) <= kDefaultSmem) return;
  TEXCV_CUDA_CHECK(op, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
}

inline dim3 strip_grid(int width, int height, int px) {
  const int threads_x = (width + px - 1) / px;
  return dim3(static_cast<unsigned>((threads_x + kBlockX - 1) / kBlockX),
              static_cast<unsigned>((height + kFilterTileH - 1) / kFilterTileH));
}

template <typename T>
void launch_filter_2d(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                      const Kernel2DArgs& k, const FilterBorderArgs& b, cudaStream_t st) {
  constexpr const char* kOp = "convolve";
  const dim3 block(kBlockX, kBlockY);
  by_channels(kOp, channels, [&]<int C>() {
    constexpr int PX = filter_px(sizeof(T), C);
    const dim3 grid = strip_grid(d.width, d.height, PX);
    by_dst<T>(dst_type, [&]<typename Tout>() {
      if (s.path == Path::shared) {
        const std::size_t bytes = filter_2d_tile_bytes(k.kw, k.kh, C, PX);
        allow_smem(kOp, filter_2d_tile_kernel<T, Tout, C, PX>, bytes);
        filter_2d_tile_kernel<T, Tout, C, PX><<<grid, block, bytes, st>>>(s, d, k, b);
      } else if (Dp4aTaps dt{}; std::is_same_v<T, std::uint8_t> && C == 1 &&
                                s.path == Path::global &&
                                reinterpret_cast<std::uintptr_t>(s.data) % 16 == 0 &&
                                s.pitch % 16 == 0 && dp4a_taps(k, b, dt)) {
        if constexpr (std::is_same_v<T, std::uint8_t> && C == 1) {
          constexpr int S = tuning::Filter::kDp4aRows;
          const GlobalSource<T, C> src = make_global_source<T, C>(s);
          const auto run = [&]<int K>() {
            // Interior blocks: the window's 24 bytes a row (4 each side) inside the image.
            BlockRange in = interior_blocks(s.width, s.height, kBlockX * 16, kBlockY * S, 4);
            if (!in.empty()) {
              const dim3 igrid(static_cast<unsigned>(in.x1 - in.x0),
                               static_cast<unsigned>(in.y1 - in.y0));
              if (!defer_launch<kFilterThreads>(
                      igrid, block, st, Filter2DDp4aCall<Tout, K, S, true>{src, d, dt, b, in})) {
                filter_2d_dp4a_kernel<Tout, K, S, true><<<igrid, block, 0, st>>>(src, d, dt, b, in);
                TEXCV_CUDA_CHECK_LAUNCH(kOp);
              }
            }
            const dim3 egrid = edge_grid(
                in, dim3(static_cast<unsigned>(((d.width + 15) / 16 + kBlockX - 1) / kBlockX),
                         static_cast<unsigned>((d.height + kBlockY * S - 1) / (kBlockY * S))));
            if (defer_launch<kFilterThreads>(
                    egrid, block, st, Filter2DDp4aCall<Tout, K, S, false>{src, d, dt, b, in}))
              return;
            filter_2d_dp4a_kernel<Tout, K, S, false><<<egrid, block, 0, st>>>(src, d, dt, b, in);
          };
          if (k.kw == 3)
            run.template operator()<3>();
          else
            run.template operator()<5>();
        }
      } else if (s.path == Path::global && filter_2d_vec_applies(k.kw, k.kh, k.ax, k.ay)) {
        constexpr int VPX = kVecPx<T, C>;
        const dim3 vgrid(
            static_cast<unsigned>(((d.width + VPX - 1) / VPX + kBlockX - 1) / kBlockX),
            static_cast<unsigned>((d.height + kBlockY * kVecRows - 1) / (kBlockY * kVecRows)));
        const GlobalSource<T, C> src = make_global_source<T, C>(s);
        const auto run = [&]<int K>() {
          BlockRange in =
              interior_blocks(s.width, s.height, kBlockX * VPX, kBlockY * kVecRows, K / 2);
          const dim3 egrid = edge_grid(in, vgrid);
          // The two launches write disjoint blocks: both may be batched.
          SmallKernel2D<K> small{};
          for (int e = 0; e < K * K; ++e) small.k[e] = k.k[e];
          small.scale = k.scale;
          small.delta = k.delta;
          if (!in.empty()) {
            const dim3 igrid(static_cast<unsigned>(in.x1 - in.x0),
                             static_cast<unsigned>(in.y1 - in.y0));
            using InteriorCall =
                Filter2DVecCall<T, Tout, C, VPX, kVecRows, K, true, GlobalSource<T, C>>;
            if (!defer_launch<kFilterThreads>(igrid, block, st,
                                              InteriorCall{src, d, small, b, in})) {
              filter_2d_vec_kernel<T, Tout, C, VPX, kVecRows, K, true>
                  <<<igrid, block, 0, st>>>(src, d, k, b, in);
              TEXCV_CUDA_CHECK_LAUNCH(kOp);
            }
          }
          using EdgeCall = Filter2DVecCall<T, Tout, C, VPX, kVecRows, K, false, GlobalSource<T, C>>;
          if (defer_launch<kFilterThreads>(egrid, block, st, EdgeCall{src, d, small, b, in}))
            return;
          filter_2d_vec_kernel<T, Tout, C, VPX, kVecRows, K, false>
              <<<egrid, block, 0, st>>>(src, d, k, b, in);
        };
        if (k.kw == 3)
          run.template operator()<3>();
        else
          run.template operator()<5>();
      } else {
        by_source<T, C>(kOp, s, [&](const auto& src) {
          filter_2d_strip_kernel<T, Tout, C, PX><<<grid, block, 0, st>>>(src, d, k, b);
        });
      }
      TEXCV_CUDA_CHECK_LAUNCH(kOp);
    });
  });
}

template <typename T>
void launch_sep_rows(const SourceArgs& s, const DstArgs& t, int channels, const Kernel1DArgs& k,
                     const FilterBorderArgs& b, cudaStream_t st) {
  constexpr const char* kOp = "separable_filter";
  by_channels(kOp, channels, [&]<int C>() {
    by_source<T, C>(kOp, s, [&](const auto& src) {
      sep_rows_kernel<T, C>
          <<<grid_for(t.width, t.height, 1), dim3(kBlockX, kBlockY), 0, st>>>(src, t, k, b);
    });
    TEXCV_CUDA_CHECK_LAUNCH(kOp);
  });
}

template <typename Tout>
void launch_sep_cols(const FilterSrc& t, const DstArgs& d, int channels, const Kernel1DArgs& k,
                     const ColumnArgs& c, cudaStream_t st) {
  constexpr const char* kOp = "separable_filter";
  by_channels(kOp, channels, [&]<int C>() {
    constexpr int PX = filter_px(sizeof(Tout), C);
    sep_cols_kernel<Tout, C, PX>
        <<<strip_grid(d.width, d.height, PX), dim3(kBlockX, kBlockY), 0, st>>>(t, d, k, c);
    TEXCV_CUDA_CHECK_LAUNCH(kOp);
  });
}

template <typename T>
void launch_sep_fused(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                      const Kernel1DArgs& kx, const Kernel1DArgs& ky, const FilterBorderArgs& b,
                      const ColumnArgs& c, cudaStream_t st) {
  constexpr const char* kOp = "separable_filter";
  by_channels(kOp, channels, [&]<int C>() {
    constexpr int PX = filter_px(sizeof(T), C);
    by_dst<T>(dst_type, [&]<typename Tout>() {
      const std::size_t bytes = sep_tile_bytes(kx.n, ky.n, C, PX);
      allow_smem(kOp, sep_fused_kernel<T, Tout, C, PX>, bytes);
      sep_fused_kernel<T, Tout, C, PX>
          <<<strip_grid(d.width, d.height, PX), dim3(kBlockX, kBlockY), bytes, st>>>(s, d, kx, ky,
                                                                                     b, c);
      TEXCV_CUDA_CHECK_LAUNCH(kOp);
    });
  });
}

// sep_tile4_kernel (4-channel u8/u16, 13 or 17 taps): kSepTileRows rows a block, or
// TEXCV_SEP_TILE_ROWS=32 / 64 (for A/B runs).
template <typename T, int NB>
void launch_sep_tile4(const SourceArgs& s, const DstArgs& d, const Kernel1DArgs& kx,
                      const Kernel1DArgs& ky, const FilterBorderArgs& b, const ColumnArgs& c,
                      cudaStream_t st) {
  constexpr const char* kOp = "separable_filter";
  static const int rows = [] {
    const char* v = std::getenv("TEXCV_SEP_TILE_ROWS");
    const int r = v ? std::atoi(v) : tuning::Filter::kSepTileRows;
    return r == 32 || r == 64 ? r : tuning::Filter::kSepTileRows;
  }();
  SmallKernel1D<NB> sx{}, sy{};
  for (int i = 0; i < NB; ++i) {
    sx.k[i] = kx.k[i];
    sy.k[i] = ky.k[i];
  }
  GlobalSource<T, 4> src = make_global_source<T, 4>(s);
  // One flag for the 4-element loads and stores: both rows' starts and pitches aligned.
  constexpr std::size_t kPx = 4 * sizeof(T);
  src.vec = src.vec && reinterpret_cast<std::uintptr_t>(d.data) % kPx == 0 && d.pitch % kPx == 0;
  const auto run = [&]<int TH>() {
    using Sh = SepTile4<T, NB, TH>;
    allow_smem(kOp, sep_tile4_kernel<T, NB, TH>, Sh::bytes);
    const dim3 grid(static_cast<unsigned>((d.width + Sh::TW - 1) / Sh::TW),
                    static_cast<unsigned>((d.height + TH - 1) / TH));
    sep_tile4_kernel<T, NB, TH>
        <<<grid, dim3(kBlockX, kBlockY), Sh::bytes, st>>>(src, d, sx, sy, b, c);
    TEXCV_CUDA_CHECK_LAUNCH(kOp);
  };
  if (rows == 32)
    run.template operator()<32>();
  else
    run.template operator()<64>();
}

template <typename T, int NB>
void launch_sep_vec_taps(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                         const Kernel1DArgs& kx, const Kernel1DArgs& ky, const FilterBorderArgs& b,
                         const ColumnArgs& c, cudaStream_t st) {
  constexpr const char* kOp = "separable_filter";
  // sep_vec_applies(): which destination types have kernels.
  constexpr bool kNarrow = !std::is_same_v<T, float>;
  const auto per_channels = [&]<int C>() {
    const auto run = [&]<typename Tout>() {
      constexpr int PX = kSepPx<T, C, NB>, S = kSepRows<NB>;
      const dim3 grid(static_cast<unsigned>(((d.width + PX - 1) / PX + kBlockX - 1) / kBlockX),
                      static_cast<unsigned>((d.height + kBlockY * S - 1) / (kBlockY * S)));
      const GlobalSource<T, C> src = make_global_source<T, C>(s);
      BlockRange in = interior_blocks(s.width, s.height, kBlockX * PX, kBlockY * S, NB / 2);
      const dim3 egrid = edge_grid(in, grid);
      // The two launches write disjoint blocks: both may be batched.
      SmallKernel1D<NB> sx{}, sy{};
      for (int i = 0; i < NB; ++i) {
        sx.k[i] = kx.k[i];
        sy.k[i] = ky.k[i];
      }
      const dim3 block(kBlockX, kBlockY);
      if (!in.empty()) {
        const dim3 igrid(static_cast<unsigned>(in.x1 - in.x0),
                         static_cast<unsigned>(in.y1 - in.y0));
        using InteriorCall = SepVecCall<T, Tout, C, PX, S, NB, true, GlobalSource<T, C>>;
        if (!defer_launch<kFilterThreads>(igrid, block, st,
                                          InteriorCall{src, d, sx, sy, b, c, in})) {
          sep_vec_kernel<T, Tout, C, PX, S, NB, true>
              <<<igrid, block, 0, st>>>(src, d, kx, ky, b, c, in);
          TEXCV_CUDA_CHECK_LAUNCH(kOp);
        }
      }
      using EdgeCall = SepVecCall<T, Tout, C, PX, S, NB, false, GlobalSource<T, C>>;
      if (defer_launch<kFilterThreads>(egrid, block, st, EdgeCall{src, d, sx, sy, b, c, in}))
        return;
      sep_vec_kernel<T, Tout, C, PX, S, NB, false>
          <<<egrid, block, 0, st>>>(src, d, kx, ky, b, c, in);
      TEXCV_CUDA_CHECK_LAUNCH(kOp);
    };
    if constexpr (NB <= 7) {
      by_dst<T>(dst_type, run);
    } else {
      if (dst_type != detail::ElemTraits<T>::kType)
        fail(ErrorCode::Internal, kOp, "no register kernel of these taps for this destination type",
             to_string(dst_type), "the source's element type");
      run.template operator()<T>();
    }
  };
  if constexpr (NB >= 13 && kNarrow) {
    if (channels == 4) {
      if (dst_type != detail::ElemTraits<T>::kType)
        fail(ErrorCode::Internal, kOp, "no 13/17-tap kernel of 4 channels for this destination",
             to_string(dst_type), "the source's element type");
      return launch_sep_tile4<T, NB>(s, d, kx, ky, b, c, st);
    }
    if (channels == 3) return per_channels.template operator()<3>();
    return per_channels.template operator()<1>();
  } else {
    by_channels(kOp, channels, per_channels);
  }
}

// One explicit instantiation per source type, split in two translation units per type so that
// the (large) kernel sets compile in parallel.
#define TEXCV_INSTANTIATE_FILTER_2D(T)                                                \
  template void launch_filter_2d<T>(const SourceArgs&, const DstArgs&, int, ElemType, \
                                    const Kernel2DArgs&, const FilterBorderArgs&, cudaStream_t);

#define TEXCV_INSTANTIATE_FILTER_SEP(T)                                                         \
  template void launch_sep_rows<T>(const SourceArgs&, const DstArgs&, int, const Kernel1DArgs&, \
                                   const FilterBorderArgs&, cudaStream_t);                      \
  template void launch_sep_cols<T>(const FilterSrc&, const DstArgs&, int, const Kernel1DArgs&,  \
                                   const ColumnArgs&, cudaStream_t);                            \
  template void launch_sep_fused<T>(const SourceArgs&, const DstArgs&, int, ElemType,           \
                                    const Kernel1DArgs&, const Kernel1DArgs&,                   \
                                    const FilterBorderArgs&, const ColumnArgs&, cudaStream_t);

// The separable register kernels (per tap count: channels x output types, the largest kernel
// set) in translation units of their own, a few tap counts each, so that they compile in parallel.
#define TEXCV_INSTANTIATE_FILTER_SEP_VEC(T, NB)                                                   \
  template void launch_sep_vec_taps<T, NB>(                                                       \
      const SourceArgs&, const DstArgs&, int, ElemType, const Kernel1DArgs&, const Kernel1DArgs&, \
      const FilterBorderArgs&, const ColumnArgs&, cudaStream_t);

}  // namespace texcv::cuda::ops
