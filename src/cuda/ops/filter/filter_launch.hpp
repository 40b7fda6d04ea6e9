// Launchers of the linear-filter kernels, one explicit instantiation per source element type
// (filter.<type>.cu). Host code (filter.cpp) calls them. Kernel coefficients travel by value in
// the argument structs (copied to shared memory by each block). The per-element arithmetic and
// its order are those of the CPU backend (src/cpu/filter_rows.hpp, filter_2d.cpp,
// filter_separable.cpp), so the results are identical on every path.
//
// Access paths (SourceArgs::path, resolved by the host):
// - global: plain loads through L1; each thread computes a strip of kFilterStrip output rows of
//   one column, reading every source row of the strip's window once.
// - texture: the same strips, the source read by point-sampled texture fetches (1 or 4 channels).
// - shared: the block's source window (or, for separable filters, the row pass of it) is staged
//   in shared memory first; separable filters then run both passes in one kernel (no float
//   temporary in global memory).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/cuda/ops/common/kernel_args.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::cuda::ops {

// Output rows per thread in the strip and tile kernels; a block is 32 x 8 threads, so it covers
// 32 * filter_px columns x kFilterTileH rows.
constexpr int kFilterStrip = 8;
constexpr int kFilterBlockX = 32;
constexpr int kFilterTileH = 8 * kFilterStrip;

// Output pixels per thread along x: 4 for 1-channel u8 (4-byte stores), 2 for 1-channel u16.
constexpr int filter_px(std::size_t elem_bytes, int channels) {
  return channels != 1 ? 1 : elem_bytes == 1 ? 4 : elem_bytes == 2 ? 2 : 1;
}
inline int filter_px(ElemType t, int channels) {
  return filter_px(elem_size(t), channels);
}

// A pitched device image read by a filter kernel (the float row-pass temporary, or an image).
struct FilterSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;  // pixels
};

struct FilterBorderArgs {
  Border border = Border::reflect101;
  float value[4] = {0, 0, 0, 0};
};

// dst = scale * sum_{j,i} k[j * kw + i] * src(x + i - ax, y + j - ay) + delta.
struct Kernel2DArgs {
  int kw = 0, kh = 0, ax = 0, ay = 0;
  float scale = 1.0f, delta = 0.0f;
  float k[kMaxKernel2D * kMaxKernel2D] = {};
};

struct Kernel1DArgs {
  int n = 0, anchor = 0;
  float k[kMaxKernel1D] = {};
};

// Column pass: rows outside the image per border (a constant-border row is the row pass of a
// constant row: crow per channel), then * scale + delta.
struct ColumnArgs {
  Border border = Border::reflect101;
  float crow[4] = {0, 0, 0, 0};
  float scale = 1.0f, delta = 0.0f;
};

// The dp4a kernel of launch_filter_2d (u8 one channel; filter_kernels.cuh says why its sums are
// exact). The packed taps: per kernel row, word 0 holds taps 0-3, word 1 tap 4 (5x5), as int8
// bytes.
struct Dp4aTaps {
  int w[5][2];
  float unit;  // 2^-e
  float scale, delta;
  std::uint8_t cval;  // the constant border's value
};

// Whether k's taps and border take the dp4a kernel (3x3 or 5x5 with a centred anchor), and its
// packed taps.
inline bool dp4a_taps(const Kernel2DArgs& k, const FilterBorderArgs& b, Dp4aTaps& out) {
  if (k.kw != k.kh || (k.kw != 3 && k.kw != 5) || k.ax != k.kw / 2 || k.ay != k.kh / 2)
    return false;
  if (b.border == Border::constant) {
    const float v = b.value[0];
    if (!(v >= 0.0f && v <= 255.0f) || v != static_cast<float>(static_cast<int>(v))) return false;
    out.cval = static_cast<std::uint8_t>(v);
  } else {
    out.cval = 0;
  }
  const int n = k.kw * k.kh;
  for (int e = 0; e <= 24; ++e) {
    const double f = static_cast<double>(1u << e);
    bool fits = true;
    int m[25] = {};
    for (int i = 0; i < n && fits; ++i) {
      const double v = static_cast<double>(k.k[i]) * f;
      fits = v == static_cast<double>(static_cast<long long>(v)) && v >= -128.0 && v <= 127.0;
      if (fits) m[i] = static_cast<int>(v);
    }
    if (!fits) continue;
    for (int j = 0; j < 5; ++j) out.w[j][0] = out.w[j][1] = 0;
    for (int j = 0; j < k.kh; ++j)
      for (int i = 0; i < k.kw; ++i) {
        const unsigned byte = static_cast<unsigned>(m[j * k.kw + i]) & 0xffu;
        out.w[j][i / 4] =
            static_cast<int>(static_cast<unsigned>(out.w[j][i / 4]) | (byte << (8 * (i % 4))));
      }
    out.unit = static_cast<float>(1.0 / f);
    out.scale = k.scale;
    out.delta = k.delta;
    return true;
  }
  return false;
}

// Whether the n taps k are m * 2^-e for one e <= 24, every m an integer in [-128, 127]. A
// separable filter of a u8 source with such taps in both directions computes exactly in float
// (its row sums and column sums are multiples of 2^-(ex + ey) far below 2^24 of them), so where
// the outer product of its taps also passes dp4a_taps, the dp4a kernel gives its bytes.
inline bool dyadic_int8_taps(const float* k, int n) {
  for (int e = 0; e <= 24; ++e) {
    const double f = static_cast<double>(1u << e);
    bool fits = true;
    for (int i = 0; i < n && fits; ++i) {
      const double v = static_cast<double>(k[i]) * f;
      fits = v == static_cast<double>(static_cast<long long>(v)) && v >= -128.0 && v <= 127.0;
    }
    if (fits) return true;
  }
  return false;
}

// Dynamic shared memory of the shared-path kernels (bytes) for px pixels a thread: the source
// window as floats, and for separable filters also its row pass.
inline std::size_t filter_2d_tile_bytes(int kw, int kh, int channels, int px) {
  return static_cast<std::size_t>(kFilterBlockX * px + kw - 1) * (kFilterTileH + kh - 1) *
         channels * sizeof(float);
}
inline std::size_t sep_tile_bytes(int nx, int ny, int channels, int px) {
  return static_cast<std::size_t>(2 * kFilterBlockX * px + nx - 1) * (kFilterTileH + ny - 1) *
         channels * sizeof(float);
}

// dst (width, height in pixels) of element type T, or f32 (dst_type) for any T; s.path is
// global, texture or shared.
template <typename T>
void launch_filter_2d(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                      const Kernel2DArgs& k, const FilterBorderArgs& b, cudaStream_t st);
// Row pass into the float temporary t (same size as s); s.path is global or texture.
template <typename T>
void launch_sep_rows(const SourceArgs& s, const DstArgs& t, int channels, const Kernel1DArgs& k,
                     const FilterBorderArgs& b, cudaStream_t st);
// Column pass from the float temporary t into dst of element type Tout.
template <typename Tout>
void launch_sep_cols(const FilterSrc& t, const DstArgs& d, int channels, const Kernel1DArgs& k,
                     const ColumnArgs& c, cudaStream_t st);
// Both passes in one kernel (Path::shared): dst of element type T or f32 (dst_type).
template <typename T>
void launch_sep_fused(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                      const Kernel1DArgs& kx, const Kernel1DArgs& ky, const FilterBorderArgs& b,
                      const ColumnArgs& c, cudaStream_t st);
// Whether launch_filter_2d has a register-blocked kernel (global / texture paths): 3x3 and 5x5
// kernels with centred anchors.
inline bool filter_2d_vec_applies(int kw, int kh, int ax, int ay) {
  return kw == kh && (kw == 3 || kw == 5) && ax == kw / 2 && ay == kh / 2;
}
// Whether launch_sep_vec_taps has a kernel for these taps and types (every channel count): both
// kernels of one size among 3, 5, 7, 9, 13, 17 with centred anchors, with this limit, which keeps
// the build's largest objects (the register kernels: 1-3 minutes of ptxas each on 2 cores) to what
// pays: an f32 destination of a u8/u16 source only for 3, 5 and 7 taps (sobel's and scharr's
// sizes; a 9-, 13- or 17-tap blur into f32 is rare and runs on the shared tile, same
// arithmetic). 13 and 17 taps of 4-channel u8/u16 run sep_tile4_kernel (both passes through
// shared memory; the register kernel holds too few pixels a thread there).
inline bool sep_vec_applies(int nx, int ny, int ax, int ay, ElemType src, ElemType dst) {
  if (nx != ny || ax != nx / 2 || ay != ny / 2) return false;
  switch (nx) {
    case 3:
    case 5:
    case 7:
      return true;
    case 9:
    case 13:
    case 17:
      return src == dst;
    default:
      return false;
  }
}
// Both passes in registers (global path), NB taps each (a sep_vec_applies() size), centred.
template <typename T, int NB>
void launch_sep_vec_taps(const SourceArgs& s, const DstArgs& d, int channels, ElemType dst_type,
                         const Kernel1DArgs& kx, const Kernel1DArgs& ky, const FilterBorderArgs& b,
                         const ColumnArgs& c, cudaStream_t st);

}  // namespace texcv::cuda::ops
