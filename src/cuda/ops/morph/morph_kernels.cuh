// Device code of the morphology operations on kBlockX x kBlockY blocks, plain global loads (the
// L1 cache serves neighbouring threads' overlapping windows: on the H200 plain loads beat a
// shared-memory tile for small stencils, docs GPU_FACTS), borders through src/core/sampling.hpp's
// border_index. Each thread computes kMorphPx<T> neighbouring pixels of one row (4 bytes of every
// channel), sliding along the source once for all of them, and stores them with vector stores
// where aligned.
//
// Identical to the CPU backend (src/cpu/morph.cpp): the same comparison pick() in the same
// order for every output element. Rectangles: row pass starting from the first tap, taps left to
// right, then column pass starting from the first row, rows top to bottom (a constant-border row
// of the row pass is the border value itself), as two kernels through a temporary, or fused in
// one kernel (morph_rect_kernel, used for 1-channel f32 where it measured faster). Other elements:
// start from the never-winning extreme, element rows top to bottom, each row's run left to right.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "src/core/dispatch.hpp"
#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/morph/morph_launch.hpp"
#include "src/cuda/ops/morph/morph_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// Pixels per thread: 4 bytes of each channel.
template <typename T>
constexpr int kMorphPx = static_cast<int>(4 / sizeof(T));

// The CPU backend's comparison: b replaces a only when strictly larger (max) or smaller (min).
template <bool Max, typename T>
__device__ __forceinline__ T morph_pick(T a, T b) {
  if constexpr (Max) {
    return b > a ? b : a;
  } else {
    return b < a ? b : a;
  }
}

// A u8x4 pixel word (U8x4Word): the pick per byte, which is the CPU's per channel (min and max of
// integers do not depend on the order).
template <bool Max>
__device__ __forceinline__ U8x4Word morph_pick(U8x4Word a, U8x4Word b) {
  if constexpr (Max) {
    return U8x4Word{__vmaxu4(a.v, b.v)};
  } else {
    return U8x4Word{__vminu4(a.v, b.v)};
  }
}

template <typename T>
__device__ __forceinline__ T morph_ldg(const T* p) {
  return __ldg(p);
}
__device__ __forceinline__ U8x4Word morph_ldg(const U8x4Word* p) {
  return U8x4Word{__ldg(&p->v)};
}

template <typename T>
__device__ __forceinline__ const T* morph_row(const MorphSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

template <typename T>
__device__ __forceinline__ T* morph_out_row(const DstArgs& d, int y) {
  return reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y));
}

// Loads pixel x of row (x inside the image).
template <typename T, int C>
__device__ __forceinline__ void load_px(const T* row, int x, T (&v)[C]) {
  const T* p = row + static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) v[c] = morph_ldg(p + c);
}

// Loads pixel x of row (row null: a border row) with the border applied.
template <typename T, int C>
__device__ __forceinline__ void load_px_border(const T* row, int x, int width, Border b,
                                               const T (&bv)[C], T (&v)[C]) {
  const int ix = row ? detail::border_index(x, width, b) : -1;
  if (ix < 0) {
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = bv[c];
  } else {
    load_px<T, C>(row, ix, v);
  }
}

template <typename T, int C>
__device__ __forceinline__ void border_values(const float* f, T (&bv)[C]) {
  if constexpr (std::is_same_v<T, U8x4Word>) {
    static_assert(C == 1, "a u8x4 word is one pixel");
    unsigned w = 0;
#pragma unroll
    for (int c = 0; c < 4; ++c)
      w |= static_cast<unsigned>(static_cast<std::uint8_t>(f[c])) << (8 * c);
    bv[0] = U8x4Word{w};
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c) bv[c] = static_cast<T>(f[c]);
  }
}

// Folds source pixel t of a window into the PX outputs whose taps [lo, hi) contain it: output p
// sees this pixel as its tap t - p. With First, the tap lo starts the output instead.
template <bool Max, bool First, typename T, int C, int PX>
__device__ __forceinline__ void fold(int t, int lo, int hi, const T (&v)[C], T (&acc)[PX * C]) {
#pragma unroll
  for (int p = 0; p < PX; ++p) {
    const int i = t - p;
    if (First && i == lo) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[p * C + c] = v[c];
    } else if (i >= lo && i < hi) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[p * C + c] = morph_pick<Max>(acc[p * C + c], v[c]);
    }
  }
}

// Row pass of a rectangle: dst(x) = pick over i = 0..n-1 of src(x + i - anchor), from i = 0.
template <typename T, int C, bool Max>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rows_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs a) {
  constexpr int PX = kMorphPx<T>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= d.height || x0 >= d.width) return;
  T bv[C];
  border_values<T, C>(a.bv, bv);
  T acc[PX * C];
#pragma unroll
  for (int k = 0; k < PX * C; ++k) acc[k] = bv[k % C];
  const T* row = morph_row<T>(s, y);
  const int first = x0 - a.anchor;  // source x of output x0's tap 0
  const int span = PX - 1 + a.n;    // source pixels the PX outputs read
  if (first >= 0 && first + span <= s.width) {
    for (int t = 0; t < span; ++t) {
      T v[C];
      load_px<T, C>(row, first + t, v);
      fold<Max, true, T, C, PX>(t, 0, a.n, v, acc);
    }
  } else {
    for (int t = 0; t < span; ++t) {
      T v[C];
      load_px_border<T, C>(row, first + t, s.width, a.border, bv, v);
      fold<Max, true, T, C, PX>(t, 0, a.n, v, acc);
    }
  }
  const int n = min(PX, d.width - x0);
  store_elems<T, PX * C>(morph_out_row<T>(d, y) + static_cast<std::size_t>(x0) * C, acc, n * C);
}

// Column pass of a rectangle: dst(y) = pick over j = 0..n-1 of src(y + j - anchor), from j = 0.
template <typename T, int C, bool Max>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_cols_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs a) {
  constexpr int PX = kMorphPx<T>;
  constexpr int N = PX * C;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= d.height || x0 >= d.width) return;
  const int n = min(PX, d.width - x0) * C;
  T bv[C];
  border_values<T, C>(a.bv, bv);
  T acc[N];
  for (int j = 0; j < a.n; ++j) {
    const int iy = detail::border_index(y + j - a.anchor, s.height, a.border);
    T v[N];
    if (iy < 0) {
#pragma unroll
      for (int k = 0; k < N; ++k) v[k] = bv[k % C];
    } else {
      load_elems<T, N>(morph_row<T>(s, iy) + static_cast<std::size_t>(x0) * C, v, n);
    }
    if (j == 0) {
#pragma unroll
      for (int k = 0; k < N; ++k) acc[k] = v[k];
    } else {
#pragma unroll
      for (int k = 0; k < N; ++k) acc[k] = morph_pick<Max>(acc[k], v[k]);
    }
  }
  store_elems<T, N>(morph_out_row<T>(d, y) + static_cast<std::size_t>(x0) * C, acc, n);
}

// Output rows per thread of the fused rectangle kernel: registers hold R x PX x C partial results.
template <int C>
constexpr int kRectRows = tuning::Morph::rect_rows(C);  // morph_tuning.hpp

// The rectangle sizes the fused kernels are also compiled for (KX x KY, their loops unrolled:
// 8192^2 3x3 u8 erode ran 97.6 M warp instructions with the size as an argument, most of them
// predicated off); f calls the kernel with <KX, KY>, <0, 0> for any other size.
template <class F>
void with_fixed_size(int kx, int ky, const F& f) {
  if (kx == 3 && ky == 3)
    f.template operator()<3, 3>();
  else if (kx == 5 && ky == 5)
    f.template operator()<5, 5>();
  else
    f.template operator()<0, 0>();
}

// Runs step(t) for t = 0 .. R - 2 + ny: unrolled where ny is known when compiling (K != 0: the
// row checks of the column pass then fold away), a plain loop otherwise.
template <int R, int K, class Step>
__device__ __forceinline__ void for_rows(int ny, const Step& step) {
  if constexpr (K != 0) {
#pragma unroll
    for (int t = 0; t < R - 1 + K; ++t) step(t);
  } else {
    for (int t = 0; t < R - 1 + ny; ++t) step(t);
  }
}

// Runs tap(u) for u = 0 .. n - 1, unrolled where n is known when compiling (K != 0).
template <int K, class Tap>
__device__ __forceinline__ void for_taps(int n, const Tap& tap) {
  if constexpr (K != 0) {
#pragma unroll
    for (int u = 0; u < K; ++u) tap(u);
  } else {
    for (int u = 0; u < n; ++u) tap(u);
  }
}

// A rectangle in one kernel: each thread reduces every source row its R output rows need along x
// (the row pass, from the first tap) and folds each reduced row into the outputs whose element
// rows contain it (the column pass, from the first row): the CPU's order, no temporary. KX, KY:
// the rectangle's size when known when compiling (kMorphFixedSizes), else 0 (ax.n, ay.n).
template <typename T, int C, bool Max, int KX = 0, int KY = 0>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rect_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                      const MorphAxisArgs ay) {
  constexpr int PX = kMorphPx<T>;
  constexpr int R = kRectRows<C>;
  constexpr int N = PX * C;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (x0 >= d.width || y0 >= d.height) return;
  const int nx = KX != 0 ? KX : ax.n, ny = KY != 0 ? KY : ay.n;
  T bv[C];
  border_values<T, C>(ax.bv, bv);
  T acc[R][N];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int k = 0; k < N; ++k) acc[r][k] = bv[k % C];
  const int first = x0 - ax.anchor;
  const int span = PX - 1 + nx;
  const bool inside_x = first >= 0 && first + span <= s.width;
  for_rows<R, KY>(ny, [&](int t) {
    const int iy = detail::border_index(y0 + t - ay.anchor, s.height, ay.border);
    T h[N];
#pragma unroll
    for (int k = 0; k < N; ++k) h[k] = bv[k % C];
    if (iy >= 0) {
      const T* row = morph_row<T>(s, iy);
      if (inside_x) {
        for_taps<KX != 0 ? PX - 1 + KX : 0>(span, [&](int u) {
          T v[C];
          load_px<T, C>(row, first + u, v);
          fold<Max, true, T, C, PX>(u, 0, nx, v, h);
        });
      } else {
        for (int u = 0; u < span; ++u) {
          T v[C];
          load_px_border<T, C>(row, first + u, s.width, ax.border, bv, v);
          fold<Max, true, T, C, PX>(u, 0, nx, v, h);
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int j = t - r;
      if (j == 0) {
#pragma unroll
        for (int k = 0; k < N; ++k) acc[r][k] = h[k];
      } else if (j > 0 && j < ny) {
#pragma unroll
        for (int k = 0; k < N; ++k) acc[r][k] = morph_pick<Max>(acc[r][k], h[k]);
      }
    }
  });
  const int n = min(PX, d.width - x0) * C;
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (y0 + r < d.height)
      store_elems<T, N>(morph_out_row<T>(d, y0 + r) + static_cast<std::size_t>(x0) * C, acc[r], n);
}

// u8, one channel: a rectangle in one kernel on 32-bit words, 4 pixels a thread and R output rows.
// Each source row's 4-pixel word of tap i is cut from aligned 32-bit loads by __byte_perm, and
// the taps and rows are folded by byte-wise __vminu4 / __vmaxu4. The result is the CPU's: min and
// max of integers do not depend on the order. The words are used where the thread's source
// window lies inside the row (threads at the left and right edges read byte by byte with the
// border); rows outside the image are the border's rows (a constant row is the value itself).
// The source rows must start at 4-byte steps (pitch % 4 == 0); `mis` is the first row's
// misalignment (the view's start modulo 4), so that sub-views at any column take the words too.
constexpr int kRectU8MaxTaps = tuning::Morph::kRectU8MaxTaps;  // morph_tuning.hpp
constexpr int kRectU8Rows = tuning::Morph::kRectU8Rows;
constexpr int kRectU8SlideRows = tuning::Morph::kRectU8SlideRows;
constexpr int kRectSlidePrefetch = tuning::Morph::kRectSlidePrefetch;

template <bool Max>
__device__ __forceinline__ unsigned vpick(unsigned a, unsigned b) {
  if constexpr (Max) {
    return __vmaxu4(a, b);
  } else {
    return __vminu4(a, b);
  }
}

template <bool Max>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rect_u8_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                         const MorphAxisArgs ay, const int mis) {
  constexpr int PX = 4;
  constexpr int R = kRectU8Rows;
  constexpr int NW = (kRectU8MaxTaps + PX - 1 + 3 + 3) / 4;  // words a row's window spans, at most
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (x0 >= d.width || y0 >= d.height) return;
  std::uint8_t bv[1];
  border_values<std::uint8_t, 1>(ax.bv, bv);
  const unsigned bvw = 0x01010101u * bv[0];
  const int first = x0 - ax.anchor;  // source x of output x0's tap 0
  const int s0 = (first + mis) & 3;  // its byte in its aligned word: the same in every thread
  const int base = first - s0;       // the view's column of that aligned word
  const int nw = (s0 + ax.n + PX - 1 + 3) >> 2;  // words covering [first, first + n + 3)
  const bool words = base >= 0 && base + 4 * nw <= s.width;
  const unsigned sel = 0x3210u + 0x1111u * static_cast<unsigned>(s0);
  unsigned acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = Max ? 0u : 0xFFFFFFFFu;
  const int rows = R - 1 + ay.n;
  for (int t = 0; t < rows; ++t) {
    const int iy = detail::border_index(y0 + t - ay.anchor, s.height, ay.border);
    unsigned h = bvw;
    if (iy >= 0) {
      const std::uint8_t* row = morph_row<std::uint8_t>(s, iy);
      if (words) {
        // w[k]: the view's bytes base + 4k .. base + 4k + 3 (one aligned load each).
        const auto* p = reinterpret_cast<const unsigned*>(row + base);
        unsigned w[NW + 1];
#pragma unroll
        for (int k = 0; k < NW + 1; ++k) w[k] = k < nw ? __ldg(p + k) : 0u;
        // a[k]: the bytes first + 4k .. first + 4k + 3.
        unsigned a[NW];
#pragma unroll
        for (int k = 0; k < NW; ++k) a[k] = __byte_perm(w[k], w[k + 1], sel);
        h = a[0];
#pragma unroll
        for (int i = 1; i < kRectU8MaxTaps; ++i) {
          if (i < ax.n) {
            const unsigned v =
                (i & 3) == 0 ? a[i >> 2]
                             : __byte_perm(a[i >> 2], a[(i >> 2) + 1], 0x3210u + 0x1111u * (i & 3));
            h = vpick<Max>(h, v);
          }
        }
      } else {
        h = 0;
#pragma unroll
        for (int q = 0; q < PX; ++q) {
          std::uint8_t m = 0;
          for (int i = 0; i < ax.n; ++i) {
            std::uint8_t v[1];
            load_px_border<std::uint8_t, 1>(row, first + q + i, s.width, ax.border, bv, v);
            m = i == 0 ? v[0] : morph_pick<Max>(m, v[0]);
          }
          h |= static_cast<unsigned>(m) << (8 * q);
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int j = t - r;
      if (j >= 0 && j < ay.n) acc[r] = vpick<Max>(acc[r], h);
    }
  }
  const int n = min(PX, d.width - x0);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (y0 + r >= d.height) break;
    std::uint8_t* o = morph_out_row<std::uint8_t>(d, y0 + r) + x0;
    if (n == PX && (reinterpret_cast<std::uintptr_t>(o) & 3) == 0) {
      *reinterpret_cast<unsigned*>(o) = acc[r];
    } else {
      for (int q = 0; q < n; ++q) o[q] = static_cast<std::uint8_t>(acc[r] >> (8 * q));
    }
  }
}

// The 32-bit words of nv aligned 16-byte loads from p (nv <= NV; the words past them are 0): a
// source row's window in the 16-pixel u8 rectangle kernels.
template <int NV>
__device__ __forceinline__ void load_row_words(const std::uint8_t* p, int nv,
                                               unsigned (&w)[4 * NV]) {
  const auto* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
  for (int v = 0; v < NV; ++v) {
    const uint4 u = v < nv ? __ldg(q + v) : make_uint4(0u, 0u, 0u, 0u);
    w[4 * v] = u.x;
    w[4 * v + 1] = u.y;
    w[4 * v + 2] = u.z;
    w[4 * v + 3] = u.w;
  }
}

// The same rectangle on 16 pixels a thread (4 output words) from 16-byte loads, for sources whose
// rows start at 16-byte steps (pitch % 16 == 0): a row's window is at most 3 aligned 16-byte loads
// (the 4-pixel kernel above needs a 4-byte load per word), so each thread has 4 times the bytes in
// flight for the same instructions. The window starts at the 16-byte word holding the first tap
// (`base`), at byte s0 = 4 SW + b0 of it; s0 is the same in every thread (x0 steps by 16), so SW
// is a template argument (the words are register indices known when compiling) and b0 a
// __byte_perm selector. Edge threads go byte by byte with the border, as above.
template <bool Max, int SW, int KX = 0, int KY = 0>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rect_u8x16_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                            const MorphAxisArgs ay, const int s0) {
  constexpr int Q = 4;       // output words a thread
  constexpr int PX = 4 * Q;  // output pixels a thread
  constexpr int R = kRectU8Rows;
  constexpr int MT = KX != 0 ? KX : kRectU8MaxTaps;  // taps, at most
  constexpr int NV = (15 + MT - 1 + PX + 15) / 16;   // 16-byte loads a row, at most
  constexpr int NA = (MT - 1 + PX + 3) / 4;          // words from the first tap
  static_assert(SW + NA + 1 <= 4 * NV, "the window's words fit the loads");
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (x0 >= d.width || y0 >= d.height) return;
  const int nx = KX != 0 ? KX : ax.n, ny = KY != 0 ? KY : ay.n;
  std::uint8_t bv[1];
  border_values<std::uint8_t, 1>(ax.bv, bv);
  const unsigned bvw = 0x01010101u * bv[0];
  const int first = x0 - ax.anchor;             // source x of output x0's tap 0
  const int base = first - s0;                  // the view's column of its aligned 16-byte word
  const int nv = (s0 + nx - 1 + PX + 15) >> 4;  // 16-byte loads covering the window
  const bool words = base >= 0 && base + 16 * nv <= s.width;
  const unsigned sel = 0x3210u + 0x1111u * static_cast<unsigned>(s0 & 3);
  unsigned acc[R][Q];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int q = 0; q < Q; ++q) acc[r][q] = Max ? 0u : 0xFFFFFFFFu;
  for_rows<R, KY>(ny, [&](int t) {
    const int iy = detail::border_index(y0 + t - ay.anchor, s.height, ay.border);
    unsigned h[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) h[q] = bvw;
    if (iy >= 0) {
      const std::uint8_t* row = morph_row<std::uint8_t>(s, iy);
      if (words) {
        unsigned w[4 * NV];
        load_row_words<NV>(row + base, nv, w);
        // a[k]: the bytes first + 4k .. first + 4k + 3.
        unsigned a[NA];
#pragma unroll
        for (int k = 0; k < NA; ++k) a[k] = __byte_perm(w[SW + k], w[SW + k + 1], sel);
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          unsigned m = a[q];
#pragma unroll
          for (int i = 1; i < MT; ++i) {
            if (i < nx) {
              const int k = q + (i >> 2);
              const unsigned v =
                  (i & 3) == 0 ? a[k] : __byte_perm(a[k], a[k + 1], 0x3210u + 0x1111u * (i & 3));
              m = vpick<Max>(m, v);
            }
          }
          h[q] = m;
        }
      } else {
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          unsigned m4 = 0;
          for (int b = 0; b < 4; ++b) {
            std::uint8_t m = 0;
            for (int i = 0; i < nx; ++i) {
              std::uint8_t v[1];
              load_px_border<std::uint8_t, 1>(row, first + 4 * q + b + i, s.width, ax.border, bv,
                                              v);
              m = i == 0 ? v[0] : morph_pick<Max>(m, v[0]);
            }
            m4 |= static_cast<unsigned>(m) << (8 * b);
          }
          h[q] = m4;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int j = t - r;
      if (j >= 0 && j < ny) {
#pragma unroll
        for (int q = 0; q < Q; ++q) acc[r][q] = vpick<Max>(acc[r][q], h[q]);
      }
    }
  });
  const int n = min(PX, d.width - x0);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (y0 + r >= d.height) break;
    std::uint8_t* o = morph_out_row<std::uint8_t>(d, y0 + r) + x0;
    if (n == PX && (reinterpret_cast<std::uintptr_t>(o) & 15) == 0) {
      *reinterpret_cast<uint4*>(o) = make_uint4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
    } else {
      for (int q = 0; q < n; ++q) o[q] = static_cast<std::uint8_t>(acc[r][q >> 2] >> (8 * (q & 3)));
    }
  }
}

// Three-way byte-lane min or max of u16x2 words whose lanes hold bytes (values below 256): one
// VIMNMX3 instruction on sm_90 (the DPX instructions), where a four-byte __vminu4 / __vmaxu4 takes
// six.
template <bool Max>
__device__ __forceinline__ unsigned pick3_u16x2(unsigned a, unsigned b, unsigned c) {
  if constexpr (Max) {
    return __vimax3_u16x2(a, b, c);
  } else {
    return __vimin3_u16x2(a, b, c);
  }
}

// The split form of 4 source bytes b0..b3 in a word: the even bytes (b0, b2) and the odd bytes
// (b1, b3) as the lanes of two u16x2 words.
__device__ __forceinline__ unsigned even_bytes(unsigned w) {
  return __byte_perm(w, 0u, 0x4240u);
}
__device__ __forceinline__ unsigned odd_bytes(unsigned w) {
  return __byte_perm(w, 0u, 0x4341u);
}

// Lanes 2k + s and 2k + s + 1 of the lane sequence held two to a word in x[]: word k + s / 2, or
// the high lane of one word and the low lane of the next.
template <int S, int N>
__device__ __forceinline__ unsigned lanes_at(const unsigned (&x)[N], int k) {
  if constexpr (S % 2 == 0) {
    return x[k + S / 2];
  } else {
    return __byte_perm(x[k + S / 2], x[k + S / 2 + 1], 0x5432u);
  }
}

// The pick over taps t = 0 .. KX - 1 of the lane sequences: output lane L takes lane L + t / 2 of
// `a` for even t and lane L + (t - 1) / 2 + A1 of `b` for odd t (even outputs: a = even bytes,
// b = odd bytes, A1 = 0; odd outputs: a = odd bytes, b = even bytes, A1 = 1).
template <bool Max, int KX, int A1, int N>
__device__ __forceinline__ unsigned pick_taps(const unsigned (&a)[N], const unsigned (&b)[N],
                                              int k) {
  unsigned m = lanes_at<0>(a, k);
  // Taps 1 and 2 (b's lane A1, a's lane 1), then 3 and 4, ...
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((m = (2 * I + 2 < KX) ? pick3_u16x2<Max>(m, lanes_at<I + A1>(b, k), lanes_at<I + 1>(a, k))
                           : pick3_u16x2<Max>(m, lanes_at<I + A1>(b, k), m)),
     ...);
  }
  (std::make_integer_sequence<int, KX / 2>{});
  return m;
}

// Tap C alone, in pick_taps' terms (a: the lanes of tap 0, b: of tap 1, A1 as there): the
// window bytes C on from the output lanes' first taps.
template <int C, int A1, int N>
__device__ __forceinline__ unsigned tap_lanes(const unsigned (&a)[N], const unsigned (&b)[N],
                                              int k) {
  if constexpr (C % 2 == 0) {
    return lanes_at<C / 2>(a, k);
  } else {
    return lanes_at<(C - 1) / 2 + A1>(b, k);
  }
}

// The picks along x of n taps for the 4 output bytes whose first taps are source x0 .. x0 + 3,
// byte by byte with the border (the threads at a row's ends).
template <bool Max>
__device__ __noinline__ unsigned rect_u8_word_border(const std::uint8_t* row, int x0, int n,
                                                     int width, Border border, std::uint8_t bv) {
  unsigned m4 = 0;
  for (int b = 0; b < 4; ++b) {
    std::uint8_t m = 0;
    for (int i = 0; i < n; ++i) {
      std::uint8_t v[1];
      const std::uint8_t bvs[1] = {bv};
      load_px_border<std::uint8_t, 1>(row, x0 + b + i, width, border, bvs, v);
      m = i == 0 ? v[0] : morph_pick<Max>(m, v[0]);
    }
    m4 |= static_cast<unsigned>(m) << (8 * b);
  }
  return m4;
}

// Stores the 16 bytes of one output chunk (out, 4 words) at op: one 16-byte store, or the first
// n bytes one by one (the row's last chunk, or an unaligned destination).
__device__ __forceinline__ void store_u8_chunk(std::uint8_t* op, const unsigned (&out)[4], int n) {
  if (n == 16 && (reinterpret_cast<std::uintptr_t>(op) & 15) == 0) {
    *reinterpret_cast<uint4*>(op) = make_uint4(out[0], out[1], out[2], out[3]);
    return;
  }
#pragma unroll 1
  for (int b = 0; b < n; ++b) {
    const unsigned wv = b < 4 ? out[0] : b < 8 ? out[1] : b < 12 ? out[2] : out[3];
    op[b] = static_cast<std::uint8_t>(wv >> (8 * (b & 3)));
  }
}

// The 16-pixel rectangle kernel above for 3x3 and 5x5 (KX and KY known when compiling), in split
// form: each 4-byte word of a source row becomes its even and its odd bytes as u16x2 lanes, and
// the taps and rows are folded three at a time by VIMNMX3 (pick3_u16x2). Output pixels 4q and
// 4q + 2 are the even lanes' picks, 4q + 1 and 4q + 3 the odd lanes'. Each output row is stored
// as soon as its last source row is in (rows held: KY, in registers). Same bytes as the CPU (min
// and max of integers do not depend on the order).
template <bool Max, int SW, int KX, int KY>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rect_u8_split_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                               const MorphAxisArgs ay, const int s0) {
  static_assert(KX % 2 == 1 && KY % 2 == 1 && KX >= 3 && KY >= 3, "odd sizes from 3");
  constexpr int Q = 4;       // output words a thread
  constexpr int PX = 4 * Q;  // output pixels a thread
  constexpr int R = kRectU8Rows;
  constexpr int NV = (15 + KX - 1 + PX + 15) / 16;  // 16-byte loads a row, at most
  constexpr int NA = Q + ((KX - 1) / 2 + 1) / 2;    // window words from the first tap
  static_assert(SW + NA + 1 <= 4 * NV, "the window's words fit the loads");
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (x0 >= d.width || y0 >= d.height) return;
  std::uint8_t bv[1];
  border_values<std::uint8_t, 1>(ax.bv, bv);
  const unsigned bvw = 0x01010101u * bv[0];
  const int first = x0 - ax.anchor;
  const int base = first - s0;
  const int nv = (s0 + KX - 1 + PX + 15) >> 4;
  const bool words = base >= 0 && base + 16 * nv <= s.width;
  const unsigned sel = 0x3210u + 0x1111u * static_cast<unsigned>(s0 & 3);
  const int n = min(PX, d.width - x0);
  unsigned he[R - 1 + KY][Q], ho[R - 1 + KY][Q];  // each row's pick along x, split
#pragma unroll
  for (int t = 0; t < R - 1 + KY; ++t) {
    const int yy = y0 + t - ay.anchor;
    const int iy = static_cast<unsigned>(yy) < static_cast<unsigned>(s.height)
                       ? yy
                       : border_index_out_of_line(yy, s.height, ay.border);
    if (iy >= 0 && words) {
      unsigned w[4 * NV];
      load_row_words<NV>(morph_row<std::uint8_t>(s, iy) + base, nv, w);
      unsigned e[NA], o[NA];  // the window's bytes from the first tap, split
#pragma unroll
      for (int k = 0; k < NA; ++k) {
        const unsigned a = __byte_perm(w[SW + k], w[SW + k + 1], sel);
        e[k] = even_bytes(a);
        o[k] = odd_bytes(a);
      }
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        he[t][q] = pick_taps<Max, KX, 0>(e, o, q);
        ho[t][q] = pick_taps<Max, KX, 1>(o, e, q);
      }
    } else {
      // A constant-border row is the value itself; threads at the row's ends go byte by byte
      // (out of line: the unrolled rows would otherwise repeat it).
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const unsigned m4 =
            iy < 0 ? bvw
                   : rect_u8_word_border<Max>(morph_row<std::uint8_t>(s, iy), first + 4 * q, KX,
                                              s.width, ax.border, bv[0]);
        he[t][q] = even_bytes(m4);
        ho[t][q] = odd_bytes(m4);
      }
    }
    // Output row r = t - KY + 1 has all its rows: fold them and store it.
    constexpr int kFirst = KY - 1;
    if (t >= kFirst) {
      const int r = t - kFirst;
      if (y0 + r < d.height) {
        unsigned out[Q];
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          unsigned me = he[r][q], mo = ho[r][q];
#pragma unroll
          for (int j = 1; j < KY; j += 2) {
            me = pick3_u16x2<Max>(me, he[r + j][q], he[r + j + 1][q]);
            mo = pick3_u16x2<Max>(mo, ho[r + j][q], ho[r + j + 1][q]);
          }
          out[q] = __byte_perm(me, mo, 0x6240u);
        }
        store_u8_chunk(morph_out_row<std::uint8_t>(d, y0 + r) + x0, out, n);
      }
    }
  }
}

// The u8 one-channel 3x3 and 5x5 rectangles on sliding windows of rows: each thread owns one
// 16-byte source chunk of a row band (16 output pixels, RS output rows) and loads only that chunk
// of each source row; the 4 to 8 bytes its window takes beyond the chunk come from the
// neighbouring lanes' chunks (__shfl_*_sync; a warp is 32 neighbouring chunks of one band, lanes 0
// and 31 load their outer word themselves). The picks along x are the split kernel's (even and
// odd bytes as u16x2 lanes, VIMNMX3), computed once per source row and kept for the KY output rows
// that use them (a ring of KY rows, indices known when compiling), so a thread holds KY rows of
// picks instead of RS - 1 + KY. r: output x0's first tap relative to the chunk's first byte, the
// same for every thread (x0 steps by 16 and rows by a pitch of 16-byte steps), in [-4, 3]; LW:
// r < 0 (the window starts in the word before the chunk). Same bytes as the CPU (min and max of
// integers do not depend on the order).
// Full: the element's rows (bit j: row j) that take all KX taps; the others take only the centre
// tap (KX / 2): the rectangle (every bit), OpenCV's 3x3 and 5x5 ellipses (0b010, 0b01110) and
// crosses anchored at the centre (0b010, 0b00100). Each source row's centre picks are kept beside
// its full ones where some row takes them (a byte_perm a word, no VIMNMX3).
// One source row of the sliding-window kernel as loaded: the thread's chunk and the outer words
// lanes 0 and 31 load themselves (row null: a constant-border row).
struct SlideRow {
  const std::uint8_t* row;
  uint4 c;
  unsigned wl, wr, wr2;
};

template <bool Max, int KX, int KY, int RS, bool LW, unsigned Full>
__global__ void __launch_bounds__(kBlockX* kBlockY, 2)
    morph_rect_u8_slide_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                               const MorphAxisArgs ay, const int r) {
  static_assert(kBlockX == 32, "a warp is one row band of 32 chunks");
  static_assert(KX % 2 == 1 && KY % 2 == 1 && KX >= 3 && KX <= 5 && KY >= 3, "3 or 5 taps");
  constexpr unsigned kAll = (1u << KY) - 1u;
  static_assert((Full & ~kAll) == 0u, "a bit a row");
  constexpr bool kCentre = Full != kAll;          // some row takes only the centre tap
  constexpr int Q = 4;                            // output words a thread
  constexpr int PX = 4 * Q;                       // output pixels a thread
  constexpr int NA = Q + ((KX - 1) / 2 + 1) / 2;  // window words from the first tap
  constexpr int T = RS - 1 + KY;                  // source rows
  constexpr int PD = kRectSlidePrefetch;          // rows loaded ahead of the one folded
  // Source words -1 .. 5 around the chunk (W[i + 1] is word i); window word k is made of words
  // k + F and k + F + 1.
  constexpr int F = LW ? -1 : 0;
  static_assert(F + NA + 1 <= 6, "the window's words are at most word 5");
  const unsigned full = 0xFFFFFFFFu;
  const int lane = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * RS;
  if (y0 >= d.height) return;  // the same in the whole warp
  std::uint8_t bv[1];
  border_values<std::uint8_t, 1>(ax.bv, bv);
  const unsigned bvw = 0x01010101u * bv[0];
  const int first = x0 - ax.anchor;  // source x of output x0's first tap
  const int c0 = first - r;          // the chunk's first byte (16-byte aligned in memory)
  // Loads touch only aligned words and chunks holding a byte of the row, so never another page.
  const bool chunk_ok = c0 < s.width && c0 + 16 > 0;
  const bool left_ok = LW && lane == 0 && c0 - 1 >= 0 && c0 - 1 < s.width;
  const bool right_ok = lane == kBlockX - 1 && c0 + 16 >= 0 && c0 + 16 < s.width;
  const bool right2_ok = !LW && right_ok && c0 + 20 < s.width;
  const bool active = x0 < d.width;
  const bool inside = first >= 0 && first + PX + KX - 1 <= s.width && x0 + PX <= d.width;
  const unsigned sel = 0x3210u + 0x1111u * static_cast<unsigned>(r & 3);
  const int n = min(PX, d.width - x0);
  // Source row t's loads (issued PD rows before it is folded, so that its latency overlaps the
  // folding of the rows before it).
  auto fetch = [&](int t) {
    const int yy = y0 + t - ay.anchor;
    const int iy = static_cast<unsigned>(yy) < static_cast<unsigned>(s.height)
                       ? yy
                       : border_index_out_of_line(yy, s.height, ay.border);
    SlideRow f{iy >= 0 ? morph_row<std::uint8_t>(s, iy) : nullptr, make_uint4(0u, 0u, 0u, 0u), 0u,
               0u, 0u};
    if (f.row != nullptr) {
      if (chunk_ok) f.c = __ldg(reinterpret_cast<const uint4*>(f.row + c0));
      if (left_ok) f.wl = __ldg(reinterpret_cast<const unsigned*>(f.row + c0 - 4));
      if (right_ok) f.wr = __ldg(reinterpret_cast<const unsigned*>(f.row + c0 + 16));
      if (right2_ok) f.wr2 = __ldg(reinterpret_cast<const unsigned*>(f.row + c0 + 20));
    }
    return f;
  };
  SlideRow ahead[PD];
#pragma unroll
  for (int t = 0; t < PD && t < T; ++t) ahead[t] = fetch(t);
  unsigned he[KY][Q], ho[KY][Q];  // the last KY source rows' picks along x, split
  unsigned ce[KY][Q], co[KY][Q];  // their centre taps (kCentre), split
#pragma unroll
  for (int t = 0; t < T; ++t) {
    const SlideRow f = ahead[t % PD];
    if (t + PD < T) ahead[t % PD] = fetch(t + PD);
    const int slot = t % KY;
    unsigned W[7];
    W[1] = f.c.x;
    W[2] = f.c.y;
    W[3] = f.c.z;
    W[4] = f.c.w;
    // Every lane shuffles (a row is the same in the whole warp, so null in all lanes or none).
    W[5] = __shfl_down_sync(full, f.c.x, 1);
    if constexpr (LW) {
      W[0] = __shfl_up_sync(full, f.c.w, 1);
      W[6] = 0u;
    } else {
      W[0] = 0u;
      W[6] = __shfl_down_sync(full, f.c.y, 1);
    }
    if (left_ok) W[0] = f.wl;
    if (right_ok) W[5] = f.wr;
    if (right2_ok) W[6] = f.wr2;
    if (f.row != nullptr) {
      unsigned a[NA];  // the window's bytes from the first tap
#pragma unroll
      for (int k = 0; k < NA; ++k) a[k] = __byte_perm(W[k + F + 1], W[k + F + 2], sel);
      if (!inside && active) {
        // A thread at a row's end: its window's bytes outside the row with the border.
#pragma unroll
        for (int b = 0; b < 4 * NA; ++b) {
          const int x = first + b;
          if (static_cast<unsigned>(x) >= static_cast<unsigned>(s.width))
            a[b >> 2] = __byte_perm(a[b >> 2], border_byte(f.row, x, s.width, ax.border, bv[0]),
                                    insert_byte_sel(b & 3));
        }
      }
      unsigned e[NA], o[NA];  // split
#pragma unroll
      for (int k = 0; k < NA; ++k) {
        e[k] = even_bytes(a[k]);
        o[k] = odd_bytes(a[k]);
      }
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        he[slot][q] = pick_taps<Max, KX, 0>(e, o, q);
        ho[slot][q] = pick_taps<Max, KX, 1>(o, e, q);
        if constexpr (kCentre) {
          ce[slot][q] = tap_lanes<KX / 2, 0>(e, o, q);
          co[slot][q] = tap_lanes<KX / 2, 1>(o, e, q);
        }
      }
    } else {
      // A constant-border row is the value itself.
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        he[slot][q] = ce[slot][q] = even_bytes(bvw);
        ho[slot][q] = co[slot][q] = odd_bytes(bvw);
      }
    }
    // Output row t - KY + 1 has all its source rows: fold them and store it.
    if (t >= KY - 1 && active) {
      const int ro = t - (KY - 1);
      if (y0 + ro < d.height) {
        unsigned out[Q];
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          // Element row j's picks: source row ro + j's full or centre ones (j known when
          // compiling: the rows unrolled).
          const auto pe = [&](int j) {
            const int i = (ro + j) % KY;
            return (Full >> j & 1u) ? he[i][q] : ce[i][q];
          };
          const auto po = [&](int j) {
            const int i = (ro + j) % KY;
            return (Full >> j & 1u) ? ho[i][q] : co[i][q];
          };
          unsigned me = pe(0), mo = po(0);
#pragma unroll
          for (int j = 1; j < KY; j += 2) {
            me = pick3_u16x2<Max>(me, pe(j), pe(j + 1));
            mo = pick3_u16x2<Max>(mo, po(j), po(j + 1));
          }
          out[q] = __byte_perm(me, mo, 0x6240u);
        }
        store_u8_chunk(morph_out_row<std::uint8_t>(d, y0 + ro) + x0, out, n);
      }
    }
  }
}

// Pixel x of an f32 row (x outside [0, width)) with the border: out of line, for the threads at
// a row's ends of the f32 sliding-window kernel.
__device__ __noinline__ inline float border_px_f32(const float* row, int x, int width,
                                                   Border border, float bv) {
  const int ix = detail::border_index(x, width, border);
  return ix < 0 ? bv : row[ix];
}

// f32, one channel: 3x3 and 5x5 rectangles anchored at their centre on sliding windows of rows.
// Each thread owns 4 neighbouring pixels of a row band (RS output rows) and loads one 16-byte
// chunk a source row; the K / 2 pixels its window takes on each side come from the neighbouring
// lanes (lanes 0 and 31 load theirs), and its rows are loaded kRectSlidePrefetch ahead of the one
// it folds. Each source row's picks along x are kept for the K output rows that use them (a ring
// of K rows). The picks are the fused kernel's and the CPU's, in the same order (taps left to
// right from the first, rows top to bottom from the first), so NaN, -0 and equal values give the
// same bytes. Sources whose rows start at 16-byte steps.
// Full: as the u8 kernel's, the element's rows that take all K taps, the others the centre tap
// only (centred ellipses and crosses). Such elements are picked as the CPU's general element:
// from the never-winning extreme, row by row (each row's picks from the extreme too, which gives
// the same values: a pick from the extreme is never NaN, and picks of non-NaN values do not depend
// on the grouping).
template <bool Max, int K, int RS, unsigned Full = (1u << K) - 1u>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_rect_f32_slide_kernel(const MorphSrc s, const DstArgs d, const MorphAxisArgs ax,
                                const MorphAxisArgs ay) {
  static_assert(kBlockX == 32, "a warp is one row band of 32 chunks");
  static_assert(K == 3 || K == 5, "3 or 5 taps");
  constexpr bool kRect = Full == (1u << K) - 1u;
  // The CPU's identity (the general element's start).
  constexpr float kId =
      Max ? std::numeric_limits<float>::lowest() : std::numeric_limits<float>::max();
  constexpr int A = K / 2;  // the anchor: pixels on each side
  constexpr int PX = 4;     // output pixels a thread
  constexpr int T = RS - 1 + K;
  constexpr int PD = kRectSlidePrefetch;
  const unsigned full = 0xFFFFFFFFu;
  const int lane = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x) * PX;
  const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * RS;
  if (y0 >= d.height) return;  // the same in the whole warp
  float bv[1];
  border_values<float, 1>(ax.bv, bv);
  const bool chunk_ok = x0 < s.width;
  const bool left_ok = lane == 0 && x0 - A >= 0 && x0 <= s.width;  // x0 - A .. x0 - 1 in the row
  const bool right_ok = lane == kBlockX - 1 && x0 + PX + A <= s.width;
  const bool active = x0 < d.width;
  const bool inside = x0 - A >= 0 && x0 + PX + A <= s.width && x0 + PX <= d.width;
  const int n = min(PX, d.width - x0);
  struct Row {
    const float* row;
    float4 c;
    float l[A], r[A];
  };
  auto fetch = [&](int t) {
    const int yy = y0 + t - ay.anchor;
    const int iy = static_cast<unsigned>(yy) < static_cast<unsigned>(s.height)
                       ? yy
                       : border_index_out_of_line(yy, s.height, ay.border);
    Row f;
    f.row = iy >= 0 ? morph_row<float>(s, iy) : nullptr;
    f.c = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int i = 0; i < A; ++i) f.l[i] = f.r[i] = 0.f;
    if (f.row != nullptr) {
      if (chunk_ok) f.c = __ldg(reinterpret_cast<const float4*>(f.row + x0));
#pragma unroll
      for (int i = 0; i < A; ++i) {
        if (left_ok) f.l[i] = __ldg(f.row + x0 - A + i);
        if (right_ok) f.r[i] = __ldg(f.row + x0 + PX + i);
      }
    }
    return f;
  };
  Row ahead[PD];
#pragma unroll
  for (int t = 0; t < PD && t < T; ++t) ahead[t] = fetch(t);
  float hv[K][PX];  // the last K source rows' picks along x
  float hc[K][PX];  // their centre taps' (elements other than rectangles)
#pragma unroll
  for (int t = 0; t < T; ++t) {
    const Row f = ahead[t % PD];
    if (t + PD < T) ahead[t % PD] = fetch(t + PD);
    const int slot = t % K;
    // The window: pixels x0 - A .. x0 + PX - 1 + A (every lane shuffles; a row is null in all
    // lanes of the warp or none).
    float P[PX + 2 * A];
    P[A] = f.c.x;
    P[A + 1] = f.c.y;
    P[A + 2] = f.c.z;
    P[A + 3] = f.c.w;
    P[A - 1] = __shfl_up_sync(full, f.c.w, 1);
    P[PX + A] = __shfl_down_sync(full, f.c.x, 1);
    if constexpr (A == 2) {
      P[0] = __shfl_up_sync(full, f.c.z, 1);
      P[PX + A + 1] = __shfl_down_sync(full, f.c.y, 1);
    }
#pragma unroll
    for (int i = 0; i < A; ++i) {
      if (left_ok) P[i] = f.l[i];
      if (right_ok) P[PX + A + i] = f.r[i];
    }
    if (f.row != nullptr) {
      if (!inside && active) {
        // A thread at a row's end: its window's pixels outside the row with the border.
#pragma unroll
        for (int j = 0; j < PX + 2 * A; ++j) {
          const int x = x0 - A + j;
          if (static_cast<unsigned>(x) >= static_cast<unsigned>(s.width))
            P[j] = border_px_f32(f.row, x, s.width, ax.border, bv[0]);
        }
      }
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        if constexpr (kRect) {
          float m = P[p];
#pragma unroll
          for (int i = 1; i < K; ++i) m = morph_pick<Max>(m, P[p + i]);
          hv[slot][p] = m;
        } else {
          // Both picks: the whole row's and the centre tap's (which rows take which is known
          // only at the fold: slot is a source row).
          float m = kId;
#pragma unroll
          for (int i = 0; i < K; ++i) m = morph_pick<Max>(m, P[p + i]);
          hv[slot][p] = m;
          hc[slot][p] = morph_pick<Max>(kId, P[p + A]);
        }
      }
    } else {
      // A constant-border row is the value itself.
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        hv[slot][p] = kRect ? bv[0] : morph_pick<Max>(kId, bv[0]);
        hc[slot][p] = hv[slot][p];
      }
    }
    // Output row t - K + 1 has all its source rows: fold them, top to bottom, and store it.
    if (t >= K - 1 && active) {
      const int ro = t - (K - 1);
      if (y0 + ro < d.height) {
        float out[PX];
#pragma unroll
        for (int p = 0; p < PX; ++p) {
          // Element row j: source row ro + j's whole-row or centre pick (j known when compiling).
          const auto row_pick = [&](int j) {
            const int i = (ro + j) % K;
            return (Full >> j & 1u) ? hv[i][p] : hc[i][p];
          };
          float m = kRect ? hv[ro % K][p] : morph_pick<Max>(kId, row_pick(0));
#pragma unroll
          for (int j = 1; j < K; ++j) m = morph_pick<Max>(m, row_pick(j));
          out[p] = m;
        }
        store_elems<float, PX>(morph_out_row<float>(d, y0 + ro) + x0, out, n);
      }
    }
  }
}

// A general element (one run per row): dst(x, y) = pick, from the never-winning extreme, over
// rows j and then i in [start[j], end[j]) of src(x + i - ax, y + j - ay).
template <typename T, int C, bool Max>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_mask_kernel(const MorphSrc s, const DstArgs d, const MorphMaskArgs a) {
  constexpr int PX = kMorphPx<T>;
  constexpr T kId = Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= d.height || x0 >= d.width) return;
  T bv[C];
  border_values<T, C>(a.bv, bv);
  T acc[PX * C];
#pragma unroll
  for (int k = 0; k < PX * C; ++k) acc[k] = kId;
  const int first = x0 - a.ax;  // source x of output x0's column 0
  const bool inside_x = first >= 0 && first + PX - 1 + a.kw <= s.width;
  for (int j = 0; j < a.kh; ++j) {
    const int lo = a.start[j], hi = a.end[j];
    if (lo >= hi) continue;
    const int iy = detail::border_index(y + j - a.ay, s.height, a.border);
    if (iy < 0) {
      // A row of border values: folding the same value again changes nothing (pick is
      // idempotent), so once is the CPU's whole run.
#pragma unroll
      for (int k = 0; k < PX * C; ++k) acc[k] = morph_pick<Max>(acc[k], bv[k % C]);
      continue;
    }
    const T* row = morph_row<T>(s, iy);
    const int t1 = hi - 1 + PX;
    if (inside_x) {
      for (int t = lo; t < t1; ++t) {
        T v[C];
        load_px<T, C>(row, first + t, v);
        fold<Max, false, T, C, PX>(t, lo, hi, v, acc);
      }
    } else {
      for (int t = lo; t < t1; ++t) {
        T v[C];
        load_px_border<T, C>(row, first + t, s.width, a.border, bv, v);
        fold<Max, false, T, C, PX>(t, lo, hi, v, acc);
      }
    }
  }
  const int n = min(PX, d.width - x0);
  store_elems<T, PX * C>(morph_out_row<T>(d, y) + static_cast<std::size_t>(x0) * C, acc, n * C);
}

// Elements per thread of the subtraction.
constexpr int kSubtractElems = 4;

// d = a - b per element (widths in elements): saturated at 0 for integers, as the CPU backend.
template <typename T>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    morph_subtract_kernel(const MorphSrc a, const MorphSrc b, const DstArgs d) {
  constexpr int E = kSubtractElems;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * E;
  if (y >= d.height || x0 >= d.width) return;
  const int n = min(E, d.width - x0);
  T va[E], vb[E], o[E];
  load_elems<T, E>(morph_row<T>(a, y) + x0, va, n);
  load_elems<T, E>(morph_row<T>(b, y) + x0, vb, n);
#pragma unroll
  for (int k = 0; k < E; ++k) {
    if constexpr (std::numeric_limits<T>::is_integer) {
      o[k] = va[k] > vb[k] ? static_cast<T>(va[k] - vb[k]) : T(0);
    } else {
      o[k] = va[k] - vb[k];
    }
  }
  store_elems<T, E>(morph_out_row<T>(d, y) + x0, o, n);
}

// ---- Launchers ----

// Calls f.template operator()<C, Max>() for channels 1, 3 or 4 and the direction.
template <class F>
void morph_dispatch(const char* op, int channels, bool max, F&& f) {
  const auto by_max = [&]<int C>() {
    if (max)
      f.template operator()<C, true>();
    else
      f.template operator()<C, false>();
  };
  texcv::detail::by_channels(op, channels, by_max);
}

inline const char* morph_op(bool max) {
  return max ? "dilate" : "erode";
}

template <typename T>
void launch_morph_rows(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& a, cudaStream_t st) {
  morph_dispatch(morph_op(max), channels, max, [&]<int C, bool Max>() {
    morph_rows_kernel<T, C, Max>
        <<<grid_for(d.width, d.height, kMorphPx<T>), dim3(kBlockX, kBlockY), 0, st>>>(s, d, a);
    TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
  });
}

template <typename T>
void launch_morph_cols(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& a, cudaStream_t st) {
  morph_dispatch(morph_op(max), channels, max, [&]<int C, bool Max>() {
    morph_cols_kernel<T, C, Max>
        <<<grid_for(d.width, d.height, kMorphPx<T>), dim3(kBlockX, kBlockY), 0, st>>>(s, d, a);
    TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
  });
}

template <typename T>
void launch_morph_rect(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& ax, const MorphAxisArgs& ay, cudaStream_t st) {
  // Instantiated for 1-channel f32 and u8x4 words only: the host takes this path for nothing
  // else (measured).
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, U8x4Word>) {
    if constexpr (std::is_same_v<T, float>) {
      // 3x3 and 5x5 anchored at the centre, rows at 16-byte steps: the sliding-window kernel.
      if (channels == 1 && ax.n <= 5 &&
          launch_morph_f32_slide(s, d, max, ax, ay, (1u << ax.n) - 1u, st))
        return;
    }
    if (channels == 1) {
      constexpr int R = kRectRows<1>;
      const dim3 g = grid_for(d.width, (d.height + R - 1) / R, kMorphPx<T>);
      with_fixed_size(ax.n, ay.n, [&]<int KX, int KY>() {
        if (max)
          morph_rect_kernel<T, 1, true, KX, KY><<<g, dim3(kBlockX, kBlockY), 0, st>>>(s, d, ax, ay);
        else
          morph_rect_kernel<T, 1, false, KX, KY>
              <<<g, dim3(kBlockX, kBlockY), 0, st>>>(s, d, ax, ay);
      });
      TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
      return;
    }
  }
  fail(ErrorCode::Internal, morph_op(max),
       "the fused rectangle kernel takes 1-channel f32 and u8x4 words only",
       std::to_string(channels) + " channels", "1-channel f32 or u8x4 words");
}

template <typename T>
void launch_morph_mask(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphMaskArgs& a, cudaStream_t st) {
  morph_dispatch(morph_op(max), channels, max, [&]<int C, bool Max>() {
    morph_mask_kernel<T, C, Max>
        <<<grid_for(d.width, d.height, kMorphPx<T>), dim3(kBlockX, kBlockY), 0, st>>>(s, d, a);
    TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
  });
}

template <typename T>
void launch_morph_subtract(const MorphSrc& a, const MorphSrc& b, const DstArgs& d,
                           cudaStream_t st) {
  morph_subtract_kernel<T>
      <<<grid_for(d.width, d.height, kSubtractElems), dim3(kBlockX, kBlockY), 0, st>>>(a, b, d);
  TEXCV_CUDA_CHECK_LAUNCH("morphology");
}

#define TEXCV_INSTANTIATE_MORPH(T)                                                              \
  template void launch_morph_rows<T>(const MorphSrc&, const DstArgs&, int, bool,                \
                                     const MorphAxisArgs&, cudaStream_t);                       \
  template void launch_morph_cols<T>(const MorphSrc&, const DstArgs&, int, bool,                \
                                     const MorphAxisArgs&, cudaStream_t);                       \
  template void launch_morph_rect<T>(const MorphSrc&, const DstArgs&, int, bool,                \
                                     const MorphAxisArgs&, const MorphAxisArgs&, cudaStream_t); \
  template void launch_morph_mask<T>(const MorphSrc&, const DstArgs&, int, bool,                \
                                     const MorphMaskArgs&, cudaStream_t);                       \
  template void launch_morph_subtract<T>(const MorphSrc&, const MorphSrc&, const DstArgs&,      \
                                         cudaStream_t);

}  // namespace texcv::cuda::ops
