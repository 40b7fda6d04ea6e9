// The one definition of how texcv samples an image: border indexing, nearest, linear, cubic and
// area weights, and saturating stores. Host and device code include this header, so the CPU
// backend and the CUDA plain-load path compute the same arithmetic in the same order. Build
// flags keep it so: -ffp-contract=off for C++ and --fmad=false for CUDA (no fused multiply-add
// on one side only).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "texcv/geometry.hpp"

#if defined(__CUDACC__)
#define TEXCV_HD __host__ __device__ __forceinline__
#else
#define TEXCV_HD inline
#endif
// Device code unrolls; nvcc's host pass gets no pragma (GCC warns on "unroll", nvcc's front end
// on "GCC unroll"); the C++ compiler gets "GCC unroll".
#if defined(__CUDA_ARCH__)
#define TEXCV_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define TEXCV_UNROLL
#else
#define TEXCV_UNROLL _Pragma("GCC unroll 4")
#endif

namespace texcv::detail {

// Coordinates outside +-kCoordLimit (and NaN) are treated as far outside the image.
constexpr float kCoordLimit = 1.0e9f;

template <typename T>
struct ElemTraits;
template <>
struct ElemTraits<std::uint8_t> {
  static constexpr ElemType kType = ElemType::u8;
};
template <>
struct ElemTraits<std::uint16_t> {
  static constexpr ElemType kType = ElemType::u16;
};
template <>
struct ElemTraits<float> {
  static constexpr ElemType kType = ElemType::f32;
};

TEXCV_HD float round_half_even(float v) {
#if defined(__CUDA_ARCH__)
  return rintf(v);
#else
  return std::nearbyint(v);
#endif
}

// Round to nearest (half to even) and saturate, as OpenCV's saturate_cast; NaN gives 0.
template <typename T>
TEXCV_HD T saturate(float v) {
  if constexpr (sizeof(T) == 4) {
    return v;
  } else {
    constexpr float kMax = sizeof(T) == 1 ? 255.0f : 65535.0f;
#if defined(__CUDA_ARCH__)
    if (!(v > 0.0f)) return T(0);  // also NaN
    if (v >= kMax) return T(kMax);
    return static_cast<T>(round_half_even(v));
#else
    // Branch-free, so that the CPU backend's row loops vectorize (std::nearbyint is a library
    // call on baseline x86-64): clamp (NaN and v <= 0 give 0), then one float addition of
    // 1.5 * 2^23, whose ulp is 1 there: the sum rounds to nearest, half to even (an even offset
    // keeps the parity), and its low 16 mantissa bits are the integer. Same results as the
    // branches above in the default rounding mode.
    float c = v > 0.0f ? v : 0.0f;
    c = c < kMax ? c : kMax;
    return static_cast<T>(std::bit_cast<std::uint32_t>(c + 12582912.0f) & 0xFFFFu);
#endif
  }
}

TEXCV_HD int floor_to_int(float v) {
#if defined(__CUDA_ARCH__)
  return __float2int_rd(v);
#else
  return static_cast<int>(std::floor(v));
#endif
}
TEXCV_HD int floor_to_int(double v) {
#if defined(__CUDA_ARCH__)
  return __double2int_rd(v);
#else
  return static_cast<int>(std::floor(v));
#endif
}

// Clamp a source coordinate into a range where int arithmetic is safe; NaN goes far outside.
TEXCV_HD float sanitize_coord(float v) {
  if (v > -kCoordLimit && v < kCoordLimit) return v;
  return v >= kCoordLimit ? kCoordLimit : -kCoordLimit;
}
TEXCV_HD double sanitize_coord(double v) {
  constexpr double kLimit = kCoordLimit;
  if (v > -kLimit && v < kLimit) return v;
  return v >= kLimit ? kLimit : -kLimit;
}

// Source coordinates: the exact paths carry them as double (Coord = double), so that the integer
// part and the float32 fraction, v - floor(v) rounded once, stay exact far from the origin (a
// float32 coordinate near x = 16,000 has a step of 1/1024 px: tens of u16 levels between
// full-range neighbours). The fast paths, and remap's float maps (whose fraction v - floor(v) is
// exact in float32), pass float. Weights and sums are float32 either way.
template <typename Coord>
TEXCV_HD float coord_fraction(Coord v, int i) {
  return static_cast<float>(v - static_cast<Coord>(i));
}

// The index that border mode b gives to index i of a row of n pixels, or -1 for the constant
// border. Patterns for abcdefgh: replicate aaa|abcdefgh|hhh, reflect cba|abcdefgh|hgf,
// reflect101 dcb|abcdefgh|gfe, wrap fgh|abcdefgh|abc.
TEXCV_HD int border_index(int i, int n, Border b) {
  if (static_cast<unsigned>(i) < static_cast<unsigned>(n)) return i;
  switch (b) {
    case Border::constant:
      return -1;
    case Border::replicate:
      return i < 0 ? 0 : n - 1;
    case Border::reflect: {
      const int p = 2 * n;
      i %= p;
      if (i < 0) i += p;
      return i < n ? i : p - 1 - i;
    }
    case Border::reflect101: {
      if (n == 1) return 0;
      const int p = 2 * n - 2;
      i %= p;
      if (i < 0) i += p;
      return i < n ? i : p - i;
    }
    case Border::wrap: {
      i %= n;
      if (i < 0) i += n;
      return i;
    }
  }
  return -1;
}

// A source image in plain (host or global device) memory. T: element type, C: channels.
template <typename T, int C>
struct PitchedSource {
  const unsigned char* data;
  std::size_t pitch;
  int width, height;

  TEXCV_HD const T* px(int x, int y) const {
    return reinterpret_cast<const T*>(data + pitch * static_cast<std::size_t>(y)) +
           static_cast<std::size_t>(x) * C;
  }
  TEXCV_HD void load(int x, int y, float* v) const {
    const T* p = px(x, y);
    TEXCV_UNROLL
    for (int c = 0; c < C; ++c) v[c] = static_cast<float>(p[c]);
  }
};

// Source pixel (x, y) with border handling; bv holds the constant border value per channel.
template <int C, class Src>
TEXCV_HD void fetch(const Src& s, int x, int y, Border b, const float* bv, float* v) {
  const int ix = border_index(x, s.width, b);
  const int iy = border_index(y, s.height, b);
  if (ix < 0 || iy < 0) {
    TEXCV_UNROLL
    for (int c = 0; c < C; ++c) v[c] = bv[c];
    return;
  }
  s.load(ix, iy, v);
}

// Cubic convolution weights with a = -0.75 (as OpenCV), for fraction t in [0, 1).
TEXCV_HD void cubic_weights(float t, float* w) {
  constexpr float A = -0.75f;
  const float t1 = t + 1.0f;
  const float u = 1.0f - t;
  w[0] = ((A * t1 - 5.0f * A) * t1 + 8.0f * A) * t1 - 4.0f * A;
  w[1] = ((A + 2.0f) * t - (A + 3.0f)) * t * t + 1.0f;
  w[2] = ((A + 2.0f) * u - (A + 3.0f)) * u * u + 1.0f;
  w[3] = 1.0f - w[0] - w[1] - w[2];
}

// Nearest: the pixel whose centre is nearest to (sx, sy), ties upward: floor(v + 0.5).
template <int C, class Src, typename Coord>
TEXCV_HD void sample_nearest(const Src& s, Coord sx, Coord sy, Border b, const float* bv,
                             float* out) {
  sx = sanitize_coord(sx);
  sy = sanitize_coord(sy);
  fetch<C>(s, floor_to_int(sx + Coord(0.5)), floor_to_int(sy + Coord(0.5)), b, bv, out);
}

// Bilinear interpolation at (sx, sy) in pixel-centre coordinates, weights in float32.
template <int C, class Src, typename Coord>
TEXCV_HD void sample_linear(const Src& s, Coord sx, Coord sy, Border b, const float* bv,
                            float* out) {
  sx = sanitize_coord(sx);
  sy = sanitize_coord(sy);
  const int x0 = floor_to_int(sx);
  const int y0 = floor_to_int(sy);
  const float fx = coord_fraction(sx, x0);
  const float fy = coord_fraction(sy, y0);
  float p00[C], p01[C], p10[C], p11[C];
  if (x0 >= 0 && y0 >= 0 && x0 + 1 < s.width && y0 + 1 < s.height) {
    s.load(x0, y0, p00);
    s.load(x0 + 1, y0, p01);
    s.load(x0, y0 + 1, p10);
    s.load(x0 + 1, y0 + 1, p11);
  } else {
    fetch<C>(s, x0, y0, b, bv, p00);
    fetch<C>(s, x0 + 1, y0, b, bv, p01);
    fetch<C>(s, x0, y0 + 1, b, bv, p10);
    fetch<C>(s, x0 + 1, y0 + 1, b, bv, p11);
  }
  const float gx = 1.0f - fx;
  const float gy = 1.0f - fy;
  TEXCV_UNROLL
  for (int c = 0; c < C; ++c) {
    const float r0 = p00[c] * gx + p01[c] * fx;
    const float r1 = p10[c] * gx + p11[c] * fx;
    out[c] = r0 * gy + r1 * fy;
  }
}

// Bicubic interpolation (a = -0.75) over the 4x4 neighbourhood, weights in float32.
template <int C, class Src, typename Coord>
TEXCV_HD void sample_cubic(const Src& s, Coord sx, Coord sy, Border b, const float* bv,
                           float* out) {
  sx = sanitize_coord(sx);
  sy = sanitize_coord(sy);
  const int x0 = floor_to_int(sx);
  const int y0 = floor_to_int(sy);
  float wx[4], wy[4];
  cubic_weights(coord_fraction(sx, x0), wx);
  cubic_weights(coord_fraction(sy, y0), wy);
  const bool inside = x0 >= 1 && y0 >= 1 && x0 + 2 < s.width && y0 + 2 < s.height;
  TEXCV_UNROLL
  for (int c = 0; c < C; ++c) out[c] = 0.0f;
  TEXCV_UNROLL
  for (int j = 0; j < 4; ++j) {
    float row[C];
    TEXCV_UNROLL
    for (int c = 0; c < C; ++c) row[c] = 0.0f;
    TEXCV_UNROLL
    for (int i = 0; i < 4; ++i) {
      float p[C];
      if (inside) {
        s.load(x0 - 1 + i, y0 - 1 + j, p);
      } else {
        fetch<C>(s, x0 - 1 + i, y0 - 1 + j, b, bv, p);
      }
      TEXCV_UNROLL
      for (int c = 0; c < C; ++c) row[c] += p[c] * wx[i];
    }
    TEXCV_UNROLL
    for (int c = 0; c < C; ++c) out[c] += row[c] * wy[j];
  }
}

// Sample with any of nearest, linear, cubic (area is resize-only, see resize_area below).
template <int C, class Src, typename Coord>
TEXCV_HD void sample(const Src& s, Coord sx, Coord sy, Interp ip, Border b, const float* bv,
                     float* out) {
  switch (ip) {
    case Interp::nearest:
      sample_nearest<C>(s, sx, sy, b, bv, out);
      return;
    case Interp::cubic:
      sample_cubic<C>(s, sx, sy, b, bv, out);
      return;
    default:
      sample_linear<C>(s, sx, sy, b, bv, out);
      return;
  }
}

// ---- coordinate transforms, shared so both backends map pixels identically ----

// A destination-to-source transform, its coefficients the double-precision inverse that src/core
// computes. The source coordinate is evaluated in double: float coefficients alone are off by up
// to 6e-8 relative, 4e-3 px at x = 65,535. The float form (fast paths: hardware texture
// coordinates are float32) rounds the double result.
struct AffineMap {
  double m[6];
  TEXCV_HD void operator()(int x, int y, double& sx, double& sy) const {
    const double fx = x;
    const double fy = y;
    sx = m[0] * fx + m[1] * fy + m[2];
    sy = m[3] * fx + m[4] * fy + m[5];
  }
  TEXCV_HD void operator()(int x, int y, float& sx, float& sy) const {
    double dx, dy;
    (*this)(x, y, dx, dy);
    sx = static_cast<float>(dx);
    sy = static_cast<float>(dy);
  }
};

struct PerspectiveMap {
  double m[9];
  TEXCV_HD void operator()(int x, int y, double& sx, double& sy) const {
    const double fx = x;
    const double fy = y;
    const double w = m[6] * fx + m[7] * fy + m[8];
    const double iw = w != 0.0 ? 1.0 / w : 0.0;  // w == 0: far outside (sanitize_coord)
    sx = w != 0.0 ? (m[0] * fx + m[1] * fy + m[2]) * iw : static_cast<double>(kCoordLimit);
    sy = w != 0.0 ? (m[3] * fx + m[4] * fy + m[5]) * iw : static_cast<double>(kCoordLimit);
  }
  TEXCV_HD void operator()(int x, int y, float& sx, float& sy) const {
    double dx, dy;
    (*this)(x, y, dx, dy);
    sx = static_cast<float>(dx);
    sy = static_cast<float>(dy);
  }
};

// resize: source coordinate of destination index d along one axis.
struct ResizeAxis {
  double scale;  // src / dst, or (src - 1) / (dst - 1) with align_corners
  bool align_corners;
  // src / dst in 16.16 fixed point, ((src << 16) + dst / 2) / dst, for Interp::nearest (set by
  // src/core with nearest_fixed_step).
  long long nearest_step = 0;
  // With align_corners, dst - 1 (0 for a 1-pixel dst): Interp::nearest's exact rational form.
  long long corners_den = 0;
  // In double (see coord_fraction); coord_f for the paths that take float32 coordinates.
  TEXCV_HD double operator()(int d) const {
    return align_corners ? static_cast<double>(d) * scale
                         : (static_cast<double>(d) + 0.5) * scale - 0.5;
  }
  TEXCV_HD float coord_f(int d) const { return static_cast<float>((*this)(d)); }
  // Interp::nearest: floor((d + 0.5) * src / dst) evaluated in 16.16 fixed point exactly as
  // cv::INTER_NEAREST_EXACT (OpenCV 4.6: (step * d + step / 2 - 1) >> 16), so ties fall as in
  // OpenCV (the step is rounded: far from the origin this can be the neighbour of the nearest
  // centre, as in OpenCV). With align_corners floor(d * (n - 1) / (dst - 1) + 0.5) in integers,
  // ties upward (300 -> 65,535: d = 32,767 lands on 149.5 exactly). Clamped into [0, n).
  TEXCV_HD int nearest(int d, int n) const {
    long long i = 0;
    if (!align_corners)
      i = (nearest_step * d + nearest_step / 2 - 1) >> 16;
    else if (corners_den > 0)
      i = (2 * static_cast<long long>(d) * (n - 1) + corners_den) / (2 * corners_den);
    return i < 0 ? 0 : (i >= n ? n - 1 : static_cast<int>(i));
  }
};

// The 16.16 fixed-point step of ResizeAxis::nearest for a src -> dst resize.
constexpr long long nearest_fixed_step(int src, int dst) {
  return ((static_cast<long long>(src) << 16) + dst / 2) / dst;
}

// ---- Interp::area for resize (as cv::INTER_AREA) ----

// Shrinking along one axis (scale = src/dst >= 1): the source pixels that destination pixel d
// covers, [d * scale, (d + 1) * scale), with fractional weights at both ends. Calls f(index,
// weight) for each; weights sum to 1.
template <class F>
TEXCV_HD void area_taps(int d, double scale, int n, F&& f) {
  const double f1 = d * scale;
  const double f2 = f1 + scale;
  const double cell = scale < n - f1 ? scale : n - f1;
  int s1 = static_cast<int>(ceil(f1));
  int s2 = static_cast<int>(floor(f2));
  if (s2 > n - 1) s2 = n - 1;  // the last cell may run past the edge
  if (s1 > s2) s1 = s2;
  if (s1 - f1 > 1e-3) f(s1 - 1, static_cast<float>((s1 - f1) / cell));
  for (int i = s1; i < s2; ++i) f(i, static_cast<float>(1.0 / cell));
  if (f2 - s2 > 1e-3) {
    double w = f2 - s2 < 1.0 ? f2 - s2 : 1.0;
    w = w < cell ? w : cell;
    f(s2, static_cast<float>(w / cell));
  }
}

// Enlarging (or mixed) with Interp::area, exactly as OpenCV 4.6: bilinear with the fraction
// fx = (float)((d + 1) - (floor(d * scale) + 1) * inv_scale) taken modulo 1 in float (0 when
// <= 0), scale = 1 / inv_scale. inv_scale is cv::resize's (dst / src, or fx): dividing by scale
// instead moves the product by an ulp, and where it lands on a whole number (160 -> 208: d = 13)
// the fraction then flips between 0 and ~1.
TEXCV_HD void area_upscale_coord(int d, double scale, double inv_scale, int& i0, float& frac) {
  const int s = static_cast<int>(floor(d * scale));
  float f = static_cast<float>((d + 1) - (s + 1) * inv_scale);
  f = f <= 0.0f ? 0.0f : f - floorf(f);
  i0 = s;
  frac = f;
}

// Store C floats to a destination pixel with rounding and saturation.
template <typename T, int C>
TEXCV_HD void store(T* dst_px, const float* v) {
  TEXCV_UNROLL
  for (int c = 0; c < C; ++c) dst_px[c] = saturate<T>(v[c]);
}

}  // namespace texcv::detail
