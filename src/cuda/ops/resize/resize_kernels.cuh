// Device code of resize. Kernels are templated on the element type, the channel count and the
// source (plain loads or point-sampled texture); interpolation, border, border value and the
// axis maps are runtime arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/ops/resize/resize_launch.hpp"
#include "src/cuda/ops/resize/resize_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// Interp::area, as cv::INTER_AREA: averaging when both axes shrink, else bilinear with
// OpenCV's area fractions (sampling.hpp's area_taps / area_upscale_coord).
template <int C, class Src>
__device__ __forceinline__ void area_pixel(const Src& src, int x, int y, const ResizeArgs& a,
                                           float* out) {
  if (a.area_shrink) {
#pragma unroll
    for (int c = 0; c < C; ++c) out[c] = 0.0f;
    detail::area_taps(y, a.scale_y, src.height, [&](int iy, float wy) {
      float row[C];
#pragma unroll
      for (int c = 0; c < C; ++c) row[c] = 0.0f;
      detail::area_taps(x, a.scale_x, src.width, [&](int ix, float wx) {
        float p[C];
        src.load(ix, iy, p);
#pragma unroll
        for (int c = 0; c < C; ++c) row[c] += p[c] * wx;
      });
#pragma unroll
      for (int c = 0; c < C; ++c) out[c] += row[c] * wy;
    });
    return;
  }
  int x0, y0;
  float fx, fy;
  detail::area_upscale_coord(x, a.scale_x, a.inv_scale_x, x0, fx);
  detail::area_upscale_coord(y, a.scale_y, a.inv_scale_y, y0, fy);
  float p00[C], p01[C], p10[C], p11[C];
  detail::fetch<C>(src, x0, y0, a.s.border, a.s.bv, p00);
  detail::fetch<C>(src, x0 + 1, y0, a.s.border, a.s.bv, p01);
  detail::fetch<C>(src, x0, y0 + 1, a.s.border, a.s.bv, p10);
  detail::fetch<C>(src, x0 + 1, y0 + 1, a.s.border, a.s.bv, p11);
  const float gx = 1.0f - fx;
  const float gy = 1.0f - fy;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const float r0 = p00[c] * gx + p01[c] * fx;
    const float r1 = p10[c] * gx + p11[c] * fx;
    out[c] = r0 * gy + r1 * fy;
  }
}

template <typename T, int C, class Src>
__device__ __forceinline__ void resize_area_body(const Src src, const DstArgs dst,
                                                 const ResizeArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) area_pixel<C>(src, min(x0 + i, dst.width - 1), y, a, v + i * C);
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

// ---- Separable resize: per-column taps computed once, rows walked down ----
//
// resize's source coordinate is separable: sx depends on the output column only, sy on the row
// only. A thread owns PX adjacent output columns and walks down ry consecutive output rows
// (a warp writes whole row segments: coalesced). Column taps and weights are computed once; the
// horizontal pass over a source row (r = p0 * wx0 + p1 * wx1 for linear, the row sums for cubic)
// is the same float computation sampling.hpp does for that row, so it is kept in a window of
// TAPS rows and reused while consecutive output rows share source rows (2x enlargement: each
// source row serves two output rows). The vertical combination is then done in sampling.hpp's
// order. Results equal the per-pixel kernels bit for bit.

template <typename T, int C>
constexpr int kResizePx = tuning::Resize::kPx<T, C>;

template <Interp IP>
constexpr int kTaps = IP == Interp::nearest ? 1 : (IP == Interp::linear ? 2 : 4);

template <typename T, int C, Interp IP, class Src>
__device__ __forceinline__ void resize_sep_body(const Src src, const DstArgs dst,
                                                const ResizeArgs a, int ry) {
  constexpr int PX = kResizePx<T, C>;
  constexpr int TAPS = kTaps<IP>;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int ybeg = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * ry;
  if (x0 >= dst.width || ybeg >= dst.height) return;
  const int yend = min(ybeg + ry, dst.height);
  const int n = min(PX, dst.width - x0);
  const Border b = a.s.border;

  if constexpr (IP == Interp::nearest) {
    int ix[PX];
#pragma unroll
    for (int i = 0; i < PX; ++i) ix[i] = a.ax.nearest(min(x0 + i, dst.width - 1), src.width);
#pragma unroll 2
    for (int y = ybeg; y < yend; ++y) {
      const int iy = a.ay.nearest(y, src.height);
      float v[PX * C];
#pragma unroll
      for (int i = 0; i < PX; ++i) src.load(ix[i], iy, v + i * C);
      store_pixels<T, C, PX>(dst, x0, y, v, n);
    }
  } else {
    // Column taps: border-resolved indices (-1: border value) and weights.
    int ix[PX][TAPS];
    float wx[PX][TAPS];
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      // In double: exact far from the origin (sampling.hpp's coord_fraction).
      const double sx = detail::sanitize_coord(a.ax(min(x0 + i, dst.width - 1)));
      const int xi = detail::floor_to_int(sx);
      if constexpr (IP == Interp::linear) {
        const float fx = detail::coord_fraction(sx, xi);
        wx[i][0] = 1.0f - fx;
        wx[i][1] = fx;
      } else {
        detail::cubic_weights(detail::coord_fraction(sx, xi), wx[i]);
      }
      constexpr int first = IP == Interp::cubic ? -1 : 0;
#pragma unroll
      for (int t = 0; t < TAPS; ++t) ix[i][t] = detail::border_index(xi + first + t, src.width, b);
    }
    // Load positions: border taps (index -1) read column 0 and are replaced by the border value.
    int lx[PX][TAPS];
#pragma unroll
    for (int i = 0; i < PX; ++i)
#pragma unroll
      for (int t = 0; t < TAPS; ++t) lx[i][t] = ix[i][t] < 0 ? 0 : ix[i][t];
    // The horizontal pass over source row yy, for the PX columns.
    const auto hrow = [&](int yy, float* r) {
      const int iy = detail::border_index(yy, src.height, b);
      const int ly = iy < 0 ? 0 : iy;
      float p[TAPS][PX][C];
#pragma unroll
      for (int t = 0; t < TAPS; ++t)
#pragma unroll
        for (int i = 0; i < PX; ++i) {
          // Border taps (index -1) take the border value.
          const bool in = iy >= 0 && ix[i][t] >= 0;
          if constexpr (sizeof(T) == 4) {
            // f32: branches around the loads measured faster (resize 2.0: 0.398 against 0.478
            // ms branch-free, H200, 8192^2).
            if (in) {
              src.load(ix[i][t], iy, p[t][i]);
            } else {
#pragma unroll
              for (int c = 0; c < C; ++c) p[t][i][c] = a.s.bv[c];
            }
          } else {
            // u8 / u16: every load issued (border taps read column 0 / row 0), the border value
            // selected after; no branch between the loads. Measured faster (u8 resize 2.0: 1.93
            // against 2.20 ms, 0.5 cubic 0.49 against 0.65 ms, 16384^2).
            src.load(lx[i][t], ly, p[t][i]);
#pragma unroll
            for (int c = 0; c < C; ++c) p[t][i][c] = in ? p[t][i][c] : a.s.bv[c];
          }
        }
#pragma unroll
      for (int i = 0; i < PX; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c) {
          if constexpr (IP == Interp::linear) {
            r[i * C + c] = p[0][i][c] * wx[i][0] + p[1][i][c] * wx[i][1];
          } else {
            float row = 0.0f;
#pragma unroll
            for (int t = 0; t < TAPS; ++t) row += p[t][i][c] * wx[i][t];
            r[i * C + c] = row;
          }
        }
    };
    float win[TAPS][PX * C];
    int cbase = 0;
    bool have = false;
    for (int y = ybeg; y < yend; ++y) {
      const double sy = detail::sanitize_coord(a.ay(y));
      const int yi = detail::floor_to_int(sy);
      const int base = IP == Interp::cubic ? yi - 1 : yi;
      if (!have || base < cbase || base - cbase >= TAPS) {
#pragma unroll
        for (int j = 0; j < TAPS; ++j) hrow(base + j, win[j]);
      } else {
        for (int k = cbase; k < base; ++k) {
#pragma unroll
          for (int j = 0; j + 1 < TAPS; ++j)
#pragma unroll
            for (int e = 0; e < PX * C; ++e) win[j][e] = win[j + 1][e];
          hrow(k + TAPS, win[TAPS - 1]);
        }
      }
      cbase = base;
      have = true;
      float v[PX * C];
      if constexpr (IP == Interp::linear) {
        const float fy = detail::coord_fraction(sy, yi);
        const float gy = 1.0f - fy;
#pragma unroll
        for (int e = 0; e < PX * C; ++e) v[e] = win[0][e] * gy + win[1][e] * fy;
      } else {
        float wy[4];
        detail::cubic_weights(detail::coord_fraction(sy, yi), wy);
#pragma unroll
        for (int e = 0; e < PX * C; ++e) {
          float o = 0.0f;
#pragma unroll
          for (int j = 0; j < 4; ++j) o += win[j][e] * wy[j];
          v[e] = o;
        }
      }
      store_pixels<T, C, PX>(dst, x0, y, v, n);
    }
  }
}

// Interp::area shrinking with at most kAreaTaps source columns per output column (scale_x <= 3):
// the column taps (area_taps) are computed once per thread; the row taps once per row.
constexpr int kAreaTaps = 4;

template <typename T, int C, class Src>
__device__ __forceinline__ void resize_area_sep_body(const Src src, const DstArgs dst,
                                                     const ResizeArgs a, int ry) {
  constexpr int PX = kResizePx<T, C>;
  constexpr int K = kAreaTaps;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  const int ybeg = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * ry;
  if (x0 >= dst.width || ybeg >= dst.height) return;
  const int yend = min(ybeg + ry, dst.height);
  const int n = min(PX, dst.width - x0);
  int ix[PX][K];
  float wx[PX][K];
  int cnt[PX];
#pragma unroll
  for (int i = 0; i < PX; ++i) {
    int c = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      ix[i][k] = 0;
      wx[i][k] = 0.0f;
    }
    detail::area_taps(min(x0 + i, dst.width - 1), a.scale_x, src.width, [&](int idx, float w) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (k == c) {
          ix[i][k] = idx;
          wx[i][k] = w;
        }
      ++c;
    });
    cnt[i] = c;
  }
  for (int y = ybeg; y < yend; ++y) {
    float out[PX * C];
#pragma unroll
    for (int e = 0; e < PX * C; ++e) out[e] = 0.0f;
    detail::area_taps(y, a.scale_y, src.height, [&](int iy, float wy) {
      float row[PX * C];
#pragma unroll
      for (int i = 0; i < PX; ++i) {
#pragma unroll
        for (int c = 0; c < C; ++c) row[i * C + c] = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          // Unused taps load a valid pixel (index 0) and are not added: no branch around loads.
          float p[C];
          src.load(ix[i][k], iy, p);
#pragma unroll
          for (int c = 0; c < C; ++c)
            row[i * C + c] = k < cnt[i] ? row[i * C + c] + p[c] * wx[i][k] : row[i * C + c];
        }
      }
#pragma unroll
      for (int e = 0; e < PX * C; ++e) out[e] += row[e] * wy;
    });
    store_pixels<T, C, PX>(dst, x0, y, out, n);
  }
}

// ---- Exactly half size (Interp::linear or area, no align_corners) ----
//
// Each output element is then the mean of a 2x2 block: linear's taps are 2x and 2x + 1 with
// weights 0.5, area's cells are the same block. For u8 and u16 sampling.hpp's float passes are
// exact on such sums, so the result is the sum s of the four rounded half to even,
// (s + 1 + ((s >> 2) & 1)) >> 2, as the CPU backend's resize_half_linear computes it. f32 takes
// the CPU's float operations in its order: linear (resize_half_linear) r = a * 0.5 + b * 0.5 per
// row, then r0 * 0.5 + r1 * 0.5; area (resize_area_shrink, whose sums start from 0, which turns a
// -0 into +0) (0 + a * 0.5) + b * 0.5 per row, then (0 + r0 * 0.5) + r1 * 0.5 (the library is
// compiled without fused multiply-adds, as the CPU). A thread makes one chunk of an output row,
// kE elements (16 bytes; 48 for 3 channels, whole pixels), from 2 kE elements of each of the two
// source rows, with 16-byte loads and stores; a chunk cut by the row's end element by element.
// Launched only when both images' pointers and pitches are 16-byte aligned (resize_half_fits).
// Nearest: Interp::nearest with ResizeAxis::nearest's step exactly 2 on both axes, which picks
// source pixel (2x, 2y): one source row a chunk, its even pixels (the same bytes as the general
// kernel, which reads them one by one).
template <typename T, int C, bool Area = false, bool Nearest = false>
struct ResizeHalfCall {
  static constexpr int kE = static_cast<int>(16 / sizeof(T)) * (C == 3 ? 3 : 1);
  static constexpr int kV = kE * static_cast<int>(sizeof(T)) / 16;  // 16-byte stores
  static_assert(kE % C == 0, "a chunk holds whole pixels");
  const unsigned char* src;
  std::size_t spitch;
  unsigned char* dst;
  std::size_t dpitch;
  int elems;  // output elements a row: width * C
  int height;

  static __device__ __forceinline__ T mean(T a0, T a1, T b0, T b1) {
    if constexpr (std::is_same_v<T, float>) {
      if constexpr (Area) {
        const float r0 = (0.0f + a0 * 0.5f) + a1 * 0.5f;
        const float r1 = (0.0f + b0 * 0.5f) + b1 * 0.5f;
        return (0.0f + r0 * 0.5f) + r1 * 0.5f;
      } else {
        const float r0 = a0 * 0.5f + a1 * 0.5f;
        const float r1 = b0 * 0.5f + b1 * 0.5f;
        return r0 * 0.5f + r1 * 0.5f;
      }
    } else {
      const unsigned s = static_cast<unsigned>(a0) + a1 + b0 + b1;
      return static_cast<T>((s + 1u + ((s >> 2) & 1u)) >> 2);
    }
  }
  __device__ __forceinline__ void operator()() const {
    const int e0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * kE;
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (y >= height || e0 >= elems) return;
    const T* a = reinterpret_cast<const T*>(src + spitch * (2 * static_cast<std::size_t>(y))) +
                 2 * static_cast<std::size_t>(e0);
    const T* b = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(a) + spitch);
    T* o = reinterpret_cast<T*>(dst + dpitch * static_cast<std::size_t>(y)) + e0;
    if constexpr (Nearest) {
      if (e0 + kE <= elems) {
        uint4 ra[2 * kV];
#pragma unroll
        for (int i = 0; i < 2 * kV; ++i) ra[i] = __ldg(reinterpret_cast<const uint4*>(a) + i);
        const T* pa = reinterpret_cast<const T*>(ra);
        uint4 out[kV];
        T* po = reinterpret_cast<T*>(out);
#pragma unroll
        for (int j = 0; j < kE; ++j) po[j] = pa[2 * C * (j / C) + j % C];
#pragma unroll
        for (int i = 0; i < kV; ++i) reinterpret_cast<uint4*>(o)[i] = out[i];
        return;
      }
      for (int j = 0; j < elems - e0; ++j) o[j] = a[2 * C * (j / C) + j % C];
      return;
    }
    if (e0 + kE <= elems) {
      uint4 ra[2 * kV], rb[2 * kV];
#pragma unroll
      for (int i = 0; i < 2 * kV; ++i) {
        ra[i] = __ldg(reinterpret_cast<const uint4*>(a) + i);
        rb[i] = __ldg(reinterpret_cast<const uint4*>(b) + i);
      }
      const T* pa = reinterpret_cast<const T*>(ra);
      const T* pb = reinterpret_cast<const T*>(rb);
      uint4 out[kV];
      T* po = reinterpret_cast<T*>(out);
#pragma unroll
      for (int j = 0; j < kE; ++j) {
        const int s0 = 2 * C * (j / C) + j % C;  // element c of source pixel 2x, then 2x + 1
        po[j] = mean(pa[s0], pa[s0 + C], pb[s0], pb[s0 + C]);
      }
#pragma unroll
      for (int i = 0; i < kV; ++i) reinterpret_cast<uint4*>(o)[i] = out[i];
      return;
    }
    for (int j = 0; j < elems - e0; ++j) {
      const int s0 = 2 * C * (j / C) + j % C;
      o[j] = mean(a[s0], a[s0 + C], b[s0], b[s0 + C]);
    }
  }
};

// Whether resize_half applies: linear or area, both axes exactly 2 without align_corners, the
// source at least twice the destination, 16-byte aligned pointers and pitches.
template <typename T, int C>
bool resize_half_fits(const GlobalSource<T, C>& src, const DstArgs& d, const ResizeArgs& a) {
  if constexpr (C == 2) {
    return false;
  } else {
    auto aligned = [](const void* p, std::size_t pitch) {
      return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && pitch % 16 == 0;
    };
    // The CPU backend's condition (src/cpu/resize.cpp, half_size); for nearest, the fixed-point
    // step of exactly 2 (source pixel 2x on every axis).
    const bool mean = (a.s.interp == Interp::linear || a.s.interp == Interp::area) &&
                      a.scale_x == 2.0 && a.scale_y == 2.0;
    const bool nearest = a.s.interp == Interp::nearest && a.ax.nearest_step == (2LL << 16) &&
                         a.ay.nearest_step == (2LL << 16);
    return (mean || nearest) && !a.ax.align_corners && !a.ay.align_corners &&
           2L * d.width <= src.width && 2L * d.height <= src.height && d.width > 0 &&
           d.height > 0 && aligned(src.data, src.pitch) && aligned(d.data, d.pitch) &&
           !resize_half_off();
  }
}

// ---- Exactly half size with Interp::cubic (no align_corners), 1 and 4 channels ----
//
// Output column x then samples source columns 2x - 1 .. 2x + 2 with cubic_weights(0.5), the rows
// likewise, so a thread's PX output pixels take the 2 PX source pixels of one aligned chunk (16
// or 32 bytes, vector loads) and one pixel on each side. A thread walks RS output rows: each
// source row's horizontal sums are made once and kept in a ring of 4 (consecutive output rows
// share 2 source rows), and rows are loaded tuning::Resize::kHalfCubicPrefetch rows ahead of
// the one summed. The sums are the separable kernel's (the CPU's two passes): per row
// ((((0 + p0 w0) + p1 w1) + p2 w2) + p3 w3), then the same over the 4 rows' sums; the border
// as the CPU (border_index; the constant border's value as a tap). Threads whose taps cross the
// row's ends take their taps through border_index one by one. Launched for sources whose pointer
// and pitch are 16-byte aligned (resize_half_cubic_fits).
template <typename T, int C, int RS = tuning::Resize::kHalfCubicRows>
struct ResizeHalfCubicCall {
  // Output pixels a thread: a 16-byte source chunk for u8 and u16, 32 bytes for f32 x1.
  static constexpr int PX = C == 1 ? (sizeof(T) == 1 ? 8 : 4) : (sizeof(T) == 1 ? 2 : 1);
  static constexpr int kChunk = 2 * PX * C * static_cast<int>(sizeof(T));  // bytes
  static constexpr int kV = kChunk / 16;                                   // 16-byte loads
  static constexpr int PD = tuning::Resize::kHalfCubicPrefetch;
  static_assert(kChunk % 16 == 0, "a chunk is whole 16-byte loads");
  const unsigned char* src;
  std::size_t spitch;
  int swidth, sheight;
  DstArgs d;
  Border border;
  float bv[4];

  struct Row {
    const T* row;  // null: the constant border's row
    uint4 v[kV];
    T l[C], r[C];
  };

  __device__ __forceinline__ void operator()() const {
    const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
    const int y0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * RS;
    if (x0 >= d.width || y0 >= d.height) return;
    const int n = min(PX, d.width - x0);
    const int sx0 = 2 * x0 - 1;  // the first tap's column
    const bool inside = sx0 >= 0 && sx0 + 2 * PX + 1 < swidth && x0 + PX <= d.width;
    float w[4];
    detail::cubic_weights(0.5f, w);
    constexpr int T_ROWS = 2 * RS + 2;  // source rows 2 y0 - 1 .. 2 (y0 + RS) inclusive
    auto fetch = [&](int t) {
      const int iy = detail::border_index(2 * y0 - 1 + t, sheight, border);
      Row f;
      f.row = iy >= 0 ? reinterpret_cast<const T*>(src + spitch * static_cast<std::size_t>(iy))
                      : nullptr;
      if (f.row != nullptr && inside) {
        const auto* q =
            reinterpret_cast<const uint4*>(f.row + static_cast<std::size_t>(sx0 + 1) * C);
#pragma unroll
        for (int k = 0; k < kV; ++k) f.v[k] = __ldg(q + k);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          f.l[c] = __ldg(f.row + static_cast<std::size_t>(sx0) * C + c);
          f.r[c] = __ldg(f.row + static_cast<std::size_t>(sx0 + 2 * PX + 1) * C + c);
        }
      }
      return f;
    };
    Row ahead[PD];
#pragma unroll
    for (int t = 0; t < PD; ++t) ahead[t] = fetch(t);
    float hs[4][PX * C];  // the last 4 source rows' horizontal sums
#pragma unroll
    for (int t = 0; t < T_ROWS; ++t) {
      const Row f = ahead[t % PD];
      if (t + PD < T_ROWS) ahead[t % PD] = fetch(t + PD);
      // The taps' values: pixel j of the window is source column sx0 + j.
      float p[2 * PX + 2][C];
      if (f.row == nullptr) {
#pragma unroll
        for (int j = 0; j < 2 * PX + 2; ++j)
#pragma unroll
          for (int c = 0; c < C; ++c) p[j][c] = bv[c];
      } else if (inside) {
        const T* e = reinterpret_cast<const T*>(f.v);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          p[0][c] = static_cast<float>(f.l[c]);
          p[2 * PX + 1][c] = static_cast<float>(f.r[c]);
        }
#pragma unroll
        for (int j = 0; j < 2 * PX; ++j)
#pragma unroll
          for (int c = 0; c < C; ++c) p[j + 1][c] = static_cast<float>(e[j * C + c]);
      } else {
        // The window's columns one by one (unrolled, so that p stays in registers; the border's
        // index out of line).
#pragma unroll
        for (int j = 0; j < 2 * PX + 2; ++j) {
          const int xx = sx0 + j;
          const int ix = static_cast<unsigned>(xx) < static_cast<unsigned>(swidth)
                             ? xx
                             : border_index_out_of_line(xx, swidth, border);
#pragma unroll
          for (int c = 0; c < C; ++c)
            p[j][c] =
                ix >= 0 ? static_cast<float>(f.row[static_cast<std::size_t>(ix) * C + c]) : bv[c];
        }
      }
#pragma unroll
      for (int i = 0; i < PX; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c) {
          float h = 0.0f;
#pragma unroll
          for (int k = 0; k < 4; ++k) h += p[2 * i + k][c] * w[k];
          hs[t % 4][i * C + c] = h;
        }
      // Output row r takes source rows t = 2r .. 2r + 3: complete at odd t from 3.
      if (t >= 3 && t % 2 == 1) {
        const int r = (t - 3) / 2;
        if (y0 + r < d.height) {
          float v[PX * C];
#pragma unroll
          for (int e = 0; e < PX * C; ++e) {
            float o = 0.0f;
#pragma unroll
            for (int k = 0; k < 4; ++k) o += hs[(2 * r + k) % 4][e] * w[k];
            v[e] = o;
          }
          store_pixels<T, C, PX>(d, x0, y0 + r, v, n);
        }
      }
    }
  }
};

// Whether resize_half_cubic applies: cubic, both axes exactly 2 without align_corners, the source
// at least twice the destination, 1 or 4 channels, the source's pointer and pitch 16-byte aligned.
template <typename T, int C>
bool resize_half_cubic_fits(const GlobalSource<T, C>& src, const DstArgs& d, const ResizeArgs& a) {
  if constexpr (C != 1 && C != 4) {
    return false;
  } else {
    return a.s.interp == Interp::cubic && a.scale_x == 2.0 && a.scale_y == 2.0 &&
           !a.ax.align_corners && !a.ay.align_corners && 2L * d.width <= src.width &&
           2L * d.height <= src.height && d.width > 0 && d.height > 0 &&
           reinterpret_cast<std::uintptr_t>(src.data) % 16 == 0 && src.pitch % 16 == 0 &&
           !resize_half_off();
  }
}

// ---- Exactly twice the size, u8 and u16 (Interp::linear, no align_corners) ----
//
// Output column 2j then samples source columns j - 1 and j with weights 1/4 and 3/4, column
// 2j + 1 columns j and j + 1 with 3/4 and 1/4, and the rows likewise. sampling.hpp's float passes
// are exact on such values, so the result is v / 16 rounded half to even with the integer
// v = H(r0) + 3 H(r1) (or 3 H(r1) + H(r2)), H the row sums a + 3 b: the CPU's and the general
// kernels' floats, in integers. Every tap must be a pixel: any border but constant (border_index).
// A thread makes kP output pixels of two output rows (2i, 2i + 1) from kP / 2 + 2 source columns
// of rows i - 1, i, i + 1, and walks down `rows` source rows keeping the last two rows' sums.
template <typename T, int C>
struct ResizeDoubleCall {
  // Output pixels a thread writes along a row: 16 bytes (24 for 3 channels).
  static constexpr int kP = static_cast<int>(16 / sizeof(T)) / (C == 3 ? 2 : C);
  static constexpr int kE = kP * C;                                // elements a row
  static constexpr int kBytes = kE * static_cast<int>(sizeof(T));  // 16 or 24
  static constexpr int kS = kP / 2 + 2;                            // source columns
  static_assert(kP % 2 == 0 && (kBytes == 16 || kBytes == 24),
                "whole source pixels, 8-byte stores");
  const unsigned char* src;
  std::size_t spitch;
  int sw, sh;
  unsigned char* dst;
  std::size_t dpitch;
  int rows;  // source rows a thread walks
  Border border;
  bool vec;    // dst pointer and pitch 16-byte aligned: 16- or 8-byte stores
  bool words;  // u8: src pointer and pitch 4-byte aligned: a window's bytes by 32-bit loads

  static __device__ __forceinline__ T round16(unsigned v) {
    const unsigned q = v >> 4, r = v & 15u;
    return static_cast<T>(q + ((r > 8u || (r == 8u && (q & 1u))) ? 1u : 0u));
  }
  // The row sums of source row r (border mapped) at the thread's kE output elements.
  __device__ __forceinline__ void sums(int r, const int (&col)[kS], unsigned (&h)[kE]) const {
    const int iy = detail::border_index(r, sh, border);
    const T* p = reinterpret_cast<const T*>(src + spitch * static_cast<std::size_t>(iy));
#pragma unroll
    for (int k = 0; k < kP / 2; ++k)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const unsigned a = __ldg(p + col[k] * C + c), b = __ldg(p + col[k + 1] * C + c),
                       d = __ldg(p + col[k + 2] * C + c);
        h[(2 * k) * C + c] = a + 3u * b;
        h[(2 * k + 1) * C + c] = 3u * b + d;
      }
  }
  // ---- u8: two neighbouring elements' sums (e, e + 1) as the u16 lanes of one word ----
  // Element e (output pixel x = e / C, channel e % C) sums source window byte tap_a(e) (weight 1)
  // and tap_b(e) (weight 3); window byte m is source column col[m / C], channel m % C. Lanes hold
  // at most 16 * 255 = 4080: no carry crosses into the other lane.
  static constexpr int kH = kE / 2;
  static constexpr int tap_a(int e) {
    const int x = e / C, c = e % C;
    return (x % 2 == 0 ? x / 2 : x / 2 + 2) * C + c;
  }
  static constexpr int tap_b(int e) {
    return (e / C / 2 + 1) * C + e % C;
  }
  // The window's bytes from 32-bit loads: byte m at byte 4 - C + m of words starting at source
  // byte j0 C - 4 (j0 C is a multiple of 4 for every C: j0 steps by kP / 2).
  static constexpr int kNW = (4 - C + kS * C + 3) / 4;
  // Window bytes i and j as the low bytes of a word's two u16 lanes.
  static __device__ __forceinline__ unsigned lane_pair(const unsigned (&w)[kNW], int i, int j) {
    const int pi = 4 - C + i, pj = 4 - C + j;
    if (pi / 4 == pj / 4)
      return __byte_perm(w[pi / 4], 0u,
                         static_cast<unsigned>(pi % 4 | 0x40 | (pj % 4) << 8 | 0x4000));
    return __byte_perm(w[pi / 4], w[pj / 4], static_cast<unsigned>(pi % 4 | (4 + pj % 4) << 8)) &
           0x00FF00FFu;
  }
  // The packed row sums of source row r: by 32-bit loads where the thread's window lies inside
  // the row (xin) and the rows are 4-byte aligned, else sums()'s, packed.
  __device__ __forceinline__ void sums_packed(int r, const int (&col)[kS], int j0, bool xin,
                                              unsigned (&h)[kH]) const {
    if (xin) {
      const int iy = detail::border_index(r, sh, border);
      const unsigned* p = reinterpret_cast<const unsigned*>(
          src + spitch * static_cast<std::size_t>(iy) + static_cast<std::size_t>(j0) * C - 4);
      unsigned w[kNW];
#pragma unroll
      for (int i = 0; i < kNW; ++i) w[i] = __ldg(p + i);
#pragma unroll
      for (int k = 0; k < kH; ++k)
        h[k] = lane_pair(w, tap_a(2 * k), tap_a(2 * k + 1)) +
               3u * lane_pair(w, tap_b(2 * k), tap_b(2 * k + 1));
    } else {
      unsigned u[kE];
      sums(r, col, u);
#pragma unroll
      for (int k = 0; k < kH; ++k) h[k] = u[2 * k] | u[2 * k + 1] << 16;
    }
  }
  // v / 16 rounded half to even in both lanes (v = 16 q + r: q + 1 where r > 8, or r == 8 and q
  // odd), the results in bytes 1 and 3.
  static __device__ __forceinline__ unsigned round16_pair(unsigned v) {
    return (v + 0x00070007u + ((v >> 4) & 0x00010001u)) << 4;
  }
  // u8: the thread's rows from output column x0 (source column j0 = x0 / 2 on, col[] its window,
  // border mapped), n of its kP pixels inside the row, source rows i0 on.
  __device__ __forceinline__ void run_u8(int x0, int i0, int n, int j0,
                                         const int (&col)[kS]) const {
    const bool xin = words && j0 >= 1 && (j0 * C - 4 + 4 * kNW) <= sw * C;
    unsigned h0[kH], h1[kH], h2[kH];
    sums_packed(i0 - 1, col, j0, xin, h0);
    sums_packed(i0, col, j0, xin, h1);
    const int i1 = min(i0 + rows, sh);
    for (int i = i0; i < i1; ++i) {
      sums_packed(i + 1, col, j0, xin, h2);
      unsigned w[kW];
#pragma unroll
      for (int k = 0; k < kW; ++k)
        w[k] = __byte_perm(round16_pair(h0[2 * k] + 3u * h1[2 * k]),
                           round16_pair(h0[2 * k + 1] + 3u * h1[2 * k + 1]), 0x7531u);
      put(2 * i, x0, n, w);
#pragma unroll
      for (int k = 0; k < kW; ++k)
        w[k] = __byte_perm(round16_pair(3u * h1[2 * k] + h2[2 * k]),
                           round16_pair(3u * h1[2 * k + 1] + h2[2 * k + 1]), 0x7531u);
      put(2 * i + 1, x0, n, w);
#pragma unroll
      for (int k = 0; k < kH; ++k) {
        h0[k] = h1[k];
        h1[k] = h2[k];
      }
    }
  }
  static constexpr int kW = kBytes / 4;  // 32-bit words of a row's output
  // The output elements, packed (element e at byte e * sizeof(T)); constant indices only, so
  // that nothing goes to local memory.
  static __device__ __forceinline__ void pack(const unsigned (&v)[kE], unsigned (&w)[kW]) {
#pragma unroll
    for (int i = 0; i < kW; ++i) w[i] = 0;
#pragma unroll
    for (int e = 0; e < kE; ++e) {
      constexpr int kSize = static_cast<int>(sizeof(T));
      w[e * kSize / 4] |= static_cast<unsigned>(round16(v[e])) << (8 * ((e * kSize) % 4));
    }
  }
  __device__ __forceinline__ void put(int y, int x0, int n, const unsigned (&w)[kW]) const {
    T* q = reinterpret_cast<T*>(dst + dpitch * static_cast<std::size_t>(y)) +
           static_cast<std::size_t>(x0) * C;
    if (vec && n == kP) {
      if constexpr (kBytes == 16) {
        *reinterpret_cast<uint4*>(q) = make_uint4(w[0], w[1], w[2], w[3]);
      } else {
#pragma unroll
        for (int i = 0; i < 3; ++i)
          reinterpret_cast<uint2*>(q)[i] = make_uint2(w[2 * i], w[2 * i + 1]);
      }
      return;
    }
#pragma unroll
    for (int e = 0; e < kE; ++e) {
      constexpr int kSize = static_cast<int>(sizeof(T));
      constexpr unsigned kMask = kSize == 1 ? 0xffu : 0xffffu;
      if (e < n * C) q[e] = static_cast<T>((w[e * kSize / 4] >> (8 * ((e * kSize) % 4))) & kMask);
    }
  }
  __device__ __forceinline__ void operator()() const {
    const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * kP;
    const int i0 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) * rows;
    const int dw = 2 * sw;
    if (x0 >= dw || i0 >= sh) return;
    const int n = min(kP, dw - x0);
    const int j0 = x0 / 2;
    int col[kS];
#pragma unroll
    for (int k = 0; k < kS; ++k) col[k] = detail::border_index(min(j0 - 1 + k, sw), sw, border);
    if constexpr (sizeof(T) == 1) {
      run_u8(x0, i0, n, j0, col);
      return;
    }
    unsigned h0[kE], h1[kE], h2[kE];
    sums(i0 - 1, col, h0);
    sums(i0, col, h1);
    const int i1 = min(i0 + rows, sh);
    for (int i = i0; i < i1; ++i) {
      sums(i + 1, col, h2);
      unsigned v[kE], w[kW];
#pragma unroll
      for (int e = 0; e < kE; ++e) v[e] = h0[e] + 3u * h1[e];
      pack(v, w);
      put(2 * i, x0, n, w);
#pragma unroll
      for (int e = 0; e < kE; ++e) v[e] = 3u * h1[e] + h2[e];
      pack(v, w);
      put(2 * i + 1, x0, n, w);
#pragma unroll
      for (int e = 0; e < kE; ++e) {
        h0[e] = h1[e];
        h1[e] = h2[e];
      }
    }
  }
};

// Whether resize_double applies: u8 or u16, linear, both axes exactly 0.5 without align_corners,
// the destination twice the source, a border other than constant.
template <typename T, int C>
bool resize_double_fits(const GlobalSource<T, C>& src, const DstArgs& d, const ResizeArgs& a) {
  if constexpr (std::is_same_v<T, float> || C == 2) {
    return false;
  } else {
    return a.s.interp == Interp::linear && a.s.border != Border::constant && a.ax.scale == 0.5 &&
           a.ay.scale == 0.5 && !a.ax.align_corners && !a.ay.align_corners &&
           static_cast<long long>(d.width) == 2LL * src.width &&
           static_cast<long long>(d.height) == 2LL * src.height && src.width > 0 && src.height > 0;
  }
}

// Rows per thread: tuning::Resize::kMaxRowsPerThread, fewer when the grid would have under
// kMinBlocks blocks.
inline int resize_rows_per_thread(int width, int height, int px) {
  const long long bx = ((width + px - 1) / px + kBlockX - 1) / kBlockX;
  int ry = tuning::Resize::kMaxRowsPerThread;
  while (ry > 1 && bx * ((height + kBlockY * ry - 1) / (kBlockY * ry)) < tuning::Resize::kMinBlocks)
    ry /= 2;
  return ry;
}

// The kernels: each runs its body on one image, or (a Call, launch_batch.cuh) on each image of
// a batch. IP == Interp::area: the separable area kernel.
template <typename T, int C, Interp IP, class Src>
struct ResizeSepCall {
  Src src;
  DstArgs d;
  ResizeArgs a;
  int ry;
  __device__ __forceinline__ void operator()() const {
    if constexpr (IP == Interp::area)
      resize_area_sep_body<T, C, Src>(src, d, a, ry);
    else
      resize_sep_body<T, C, IP, Src>(src, d, a, ry);
  }
};
template <typename T, int C, class Src>
struct ResizeAreaCall {
  Src src;
  DstArgs d;
  ResizeArgs a;
  __device__ __forceinline__ void operator()() const { resize_area_body<T, C, Src>(src, d, a); }
};
template <class Call>
__global__ void __launch_bounds__(kBlockX* kBlockY) resize_kernel(const Call c) {
  c();
}

// Launches c over grid, or records it in the stream's LaunchBatch (plain loads only: a texture
// source's object may not outlive the call).
template <typename T, int C, class Src, class Call>
void launch_resize_call(const dim3 grid, const Call& c, cudaStream_t st) {
  const dim3 block(kBlockX, kBlockY);
  if constexpr (std::is_same_v<Src, GlobalSource<T, C>>) {
    if (defer_launch<kBlockX * kBlockY>(grid, block, st, c)) return;
  }
  resize_kernel<Call><<<grid, block, 0, st>>>(c);
  TEXCV_CUDA_CHECK_LAUNCH("resize");
}

template <typename T, int C, class Src>
void launch_resize_sep(const Src& src, const DstArgs& d, const ResizeArgs& a, cudaStream_t st) {
  constexpr int PX = kResizePx<T, C>;
  const int ry = resize_rows_per_thread(d.width, d.height, PX);
  const dim3 grid(static_cast<unsigned>(((d.width + PX - 1) / PX + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((d.height + kBlockY * ry - 1) / (kBlockY * ry)));
  const auto run = [&]<Interp IP>() {
    launch_resize_call<T, C, Src>(grid, ResizeSepCall<T, C, IP, Src>{src, d, a, ry}, st);
  };
  switch (a.s.interp) {
    case Interp::nearest:
      run.template operator()<Interp::nearest>();
      break;
    case Interp::cubic:
      run.template operator()<Interp::cubic>();
      break;
    case Interp::area:
      run.template operator()<Interp::area>();
      break;
    default:
      run.template operator()<Interp::linear>();
      break;
  }
}

// Hardware bilinear (Path::texture_filter), 1 and 4 channels.
// resize's source coordinate (separable), for the texture_filter kernel.
struct ResizeCoord {
  ResizeArgs a;
  __device__ __forceinline__ void operator()(int x, int y, float& sx, float& sy) const {
    sx = a.ax.coord_f(x);  // hardware texture coordinates are float32
    sy = a.ay.coord_f(y);
  }
};

template <typename T, int C, class Src>
void launch_resize_src(const Src& src, const DstArgs& d, const ResizeArgs& a, cudaStream_t st) {
  // Plain loads (not 2 channels): the exact half size, and for u8 and u16 the exact double size.
  if constexpr (std::is_same_v<Src, GlobalSource<T, C>> && C != 2) {
    if (resize_half_fits<T, C>(src, d, a)) {
      const int elems = d.width * C;
      auto half = [&]<bool Area, bool Nearest = false>() {
        using Call = ResizeHalfCall<T, C, Area, Nearest>;
        const Call c{src.data, src.pitch, d.data, d.pitch, elems, d.height};
        launch_resize_call<T, C, Src>(grid_for(elems, d.height, Call::kE), c, st);
      };
      // u8 and u16 give the same bytes either way (the exact mean): one kernel.
      if (a.s.interp == Interp::nearest) {
        half.template operator()<false, true>();
      } else if constexpr (std::is_same_v<T, float>) {
        if (a.s.interp == Interp::area)
          half.template operator()<true>();
        else
          half.template operator()<false>();
      } else {
        half.template operator()<false>();
      }
      return;
    }
  }
  if constexpr (std::is_same_v<Src, GlobalSource<T, C>>) {
    if (resize_half_cubic_fits<T, C>(src, d, a)) {
      if constexpr (C == 1 || C == 4) {
        auto run = [&]<int RS>() {
          using Call = ResizeHalfCubicCall<T, C, RS>;
          Call c{src.data, src.pitch, src.width, src.height, d, a.s.border, {}};
          for (int k = 0; k < 4; ++k) c.bv[k] = a.s.bv[k];
          const dim3 grid(
              static_cast<unsigned>(((d.width + Call::PX - 1) / Call::PX + kBlockX - 1) / kBlockX),
              static_cast<unsigned>(((d.height + RS - 1) / RS + kBlockY - 1) / kBlockY));
          launch_resize_call<T, C, Src>(grid, c, st);
        };
        // Output rows a thread: the tuning's, or TEXCV_RESIZE_HALF_CUBIC_ROWS (an A/B aid).
        static_assert(tuning::Resize::kHalfCubicRows == 4 || tuning::Resize::kHalfCubicRows == 8 ||
                          tuning::Resize::kHalfCubicRows == 16,
                      "the rows resize_half_cubic_rows() gives");
        const int rows = resize_half_cubic_rows();
        if (rows == 4)
          run.template operator()<4>();
        else if (rows == 16)
          run.template operator()<16>();
        else
          run.template operator()<8>();
        return;
      }
    }
  }
  if constexpr (std::is_same_v<Src, GlobalSource<T, C>> && !std::is_same_v<T, float> && C != 2) {
    if (resize_double_fits<T, C>(src, d, a)) {
      using Call = ResizeDoubleCall<T, C>;
      // Source rows a thread (with 8, 2 of every 10 row sums made twice): the tuning's, or
      // TEXCV_RESIZE_DOUBLE_ROWS (an A/B aid).
      const int kRows = resize_double_rows();
      const bool vec = reinterpret_cast<std::uintptr_t>(d.data) % 16 == 0 && d.pitch % 16 == 0;
      const bool words = reinterpret_cast<std::uintptr_t>(src.data) % 4 == 0 && src.pitch % 4 == 0;
      const Call c{src.data, src.pitch, src.width,  src.height, d.data,
                   d.pitch,  kRows,     a.s.border, vec,        words};
      const dim3 grid(
          static_cast<unsigned>(((d.width + Call::kP - 1) / Call::kP + kBlockX - 1) / kBlockX),
          static_cast<unsigned>((src.height + kBlockY * kRows - 1) / (kBlockY * kRows)));
      launch_resize_call<T, C, Src>(grid, c, st);
      return;
    }
  }
  // Area enlargement, or shrinking by more than 3 along x: the per-pixel area kernel.
  if (a.s.interp == Interp::area && !(a.area_shrink && a.scale_x <= 3.0)) {
    launch_resize_call<T, C, Src>(grid_for(d.width, d.height, kResamplePx<T, C>),
                                  ResizeAreaCall<T, C, Src>{src, d, a}, st);
    return;
  }
  launch_resize_sep<T, C>(src, d, a, st);
}

template <typename T, int C>
void launch_resize(const SourceArgs& s, const DstArgs& d, const ResizeArgs& a, cudaStream_t st) {
  launch_by_path<T, C>(
      "resize", s, d, ResizeCoord{a},
      [&](const auto& src) { launch_resize_src<T, C>(src, d, a, st); }, st);
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_RESIZE(T)                                                       \
  template void launch_resize<T, 1>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);                                        \
  template void launch_resize<T, 3>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);                                        \
  template void launch_resize<T, 4>(const SourceArgs&, const DstArgs&, const ResizeArgs&, \
                                    cudaStream_t);
