// The per-pixel arithmetic of the pointwise colour and intensity operations (cvt_color, gamma,
// convert, threshold), shared by the CPU backend (src/cpu/<op>.cpp) and the CUDA kernels
// (src/cuda/ops/<op>/) so both compute the same values: the library compiles C++ with
// -ffp-contract=off and CUDA with --fmad=false, and only IEEE-exact float operations (+, -, *,
// /, fmin/fmax, floor, fabs, rint) are used here. gamma on f32 (pow) is not here: its device and
// host pow differ by at most 1 ulp (see docs/ops/color.md).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/sampling.hpp"

namespace texcv::detail {

template <typename T>
constexpr float kColorMax = sizeof(T) == 1   ? 255.0f
                            : sizeof(T) == 2 ? 65535.0f
                                             : 1.0f;

// Swap channels 0 and 2 (C = 3 or 4; alpha copied).
template <typename T, int C>
TEXCV_HD void px_swap_rb(const T* s, T* d) {
  d[0] = s[2];
  d[1] = s[1];
  d[2] = s[0];
  if constexpr (C == 4) d[3] = s[3];
}

// Gray: u8 and u16 in OpenCV's fixed point, rounded by adding half of the divisor (u8: 15-bit
// weights 9798, 19235, 3735, sum 32768; u16: 14-bit 4899, 9617, 1868); f32 as
// c0 s0 + c1 s1 + c2 s2 with 0.299f, 0.587f, 0.114f in the source's channel order.
template <typename T, bool Bgr>
TEXCV_HD void px_to_gray(const T* s, T* d) {
  constexpr int r = Bgr ? 2 : 0, b = Bgr ? 0 : 2;
  if constexpr (sizeof(T) == 4) {
    float k[3];
    k[r] = 0.299f;
    k[1] = 0.587f;
    k[b] = 0.114f;
    d[0] = s[0] * k[0] + s[1] * k[1] + s[2] * k[2];
  } else {
    constexpr bool kU8 = sizeof(T) == 1;
    constexpr std::uint32_t kShift = kU8 ? 15 : 14;
    std::uint32_t k[3];
    k[r] = kU8 ? 9798 : 4899;
    k[1] = kU8 ? 19235 : 9617;
    k[b] = kU8 ? 3735 : 1868;
    d[0] =
        static_cast<T>((s[0] * k[0] + s[1] * k[1] + s[2] * k[2] + (1u << (kShift - 1))) >> kShift);
  }
}

template <typename T, int C>
TEXCV_HD void px_from_gray(const T* s, T* d) {
  d[0] = d[1] = d[2] = s[0];
  if constexpr (C == 4) d[3] = static_cast<T>(kColorMax<T>);
}

template <typename T>
TEXCV_HD void px_matrix(const T* s, T* d, const ColorMatrix& m) {
  const float a = static_cast<float>(s[0]), b = static_cast<float>(s[1]),
              c = static_cast<float>(s[2]);
  for (int i = 0; i < 3; ++i)
    d[i] = saturate<T>(m.m[3 * i] * a + m.m[3 * i + 1] * b + m.m[3 * i + 2] * c + m.o[i]);
}

// RGB -> HSV. f32: H in [0, 360), S = diff / (V + FLT_EPSILON), V = max (as OpenCV's float
// path). u8: H = round(30 * sector position) in [0, 180), S = round(255 diff / V), V = max.
template <typename T, bool Bgr>
TEXCV_HD void px_to_hsv(const T* s, T* d) {
  constexpr int ri = Bgr ? 2 : 0, bi = Bgr ? 0 : 2;
  const float r = s[ri], g = s[1], b = s[bi];
  const float v = fmaxf(r, fmaxf(g, b));
  const float mn = fminf(r, fminf(g, b));
  const float diff = v - mn;
  if constexpr (sizeof(T) == 4) {
    const float sat = diff / (fabsf(v) + FLT_EPSILON);
    const float k = 60.0f / (diff + FLT_EPSILON);
    float h;
    if (v == r)
      h = (g - b) * k;
    else if (v == g)
      h = (b - r) * k + 120.0f;
    else
      h = (r - g) * k + 240.0f;
    if (h < 0.0f) h += 360.0f;
    d[0] = h;
    d[1] = sat;
    d[2] = v;
  } else {
    float h = 0.0f;
    if (diff > 0.0f) {
      if (v == r)
        h = (g - b) / diff;
      else if (v == g)
        h = (b - r) / diff + 2.0f;
      else
        h = (r - g) / diff + 4.0f;
      if (h < 0.0f) h += 6.0f;
    }
    float hq = round_half_even(h * 30.0f);
    if (hq >= 180.0f) hq -= 180.0f;
    d[0] = static_cast<T>(hq);
    d[1] = v > 0.0f ? saturate<T>(255.0f * diff / v) : T(0);
    d[2] = static_cast<T>(v);
  }
}

// HSV -> RGB as the usual six-sector formula (OpenCV's float path; u8 scales H by 2, S and V by
// 1/255 first and the result by 255).
template <typename T, bool Bgr>
TEXCV_HD void px_from_hsv(const T* s, T* d) {
  constexpr int ri = Bgr ? 2 : 0, bi = Bgr ? 0 : 2;
  constexpr bool kU8 = sizeof(T) == 1;
  const float hscale = kU8 ? 6.0f / 180.0f : 6.0f / 360.0f;
  float h = s[0], sat = s[1], v = s[2];
  if constexpr (kU8) {
    sat *= 1.0f / 255.0f;
    v *= 1.0f / 255.0f;
  }
  float r = v, g = v, b = v;
  if (sat != 0.0f) {
    h *= hscale;
    h = h - 6.0f * floorf(h / 6.0f);
    int sector = static_cast<int>(floorf(h));
    h -= static_cast<float>(sector);
    if (sector < 0 || sector >= 6) {
      sector = 0;
      h = 0.0f;
    }
    const float p = v * (1.0f - sat), q = v * (1.0f - sat * h), t = v * (1.0f - sat * (1.0f - h));
    switch (sector) {
      case 0:
        r = v;
        g = t;
        b = p;
        break;
      case 1:
        r = q;
        g = v;
        b = p;
        break;
      case 2:
        r = p;
        g = v;
        b = t;
        break;
      case 3:
        r = p;
        g = q;
        b = v;
        break;
      case 4:
        r = t;
        g = p;
        b = v;
        break;
      default:
        r = v;
        g = p;
        b = q;
        break;
    }
  }
  const float k = kU8 ? 255.0f : 1.0f;
  d[ri] = saturate<T>(r * k);
  d[1] = saturate<T>(g * k);
  d[bi] = saturate<T>(b * k);
}

// convert: dst = saturate(src * scale + offset) in float (identity: saturate(src)).
template <typename D, typename S>
TEXCV_HD D px_convert(S s, float a, float b) {
  return saturate<D>(static_cast<float>(s) * a + b);
}
template <typename D, typename S>
TEXCV_HD D px_convert_identity(S s) {
  return saturate<D>(static_cast<float>(s));
}

// threshold of one element. Integer types compare against floor(thresh) as a double; f32
// compares and stores in float. mv: the stored maximum; tv: the trunc value.
template <typename T>
using ThreshCmp = std::conditional_t<sizeof(T) == 4, float, double>;

// The value stored for element s whether or not it is above the threshold.
template <ThresholdType TT, typename T>
TEXCV_HD T px_threshold_pick(bool above, T s, T mv, T tv) {
  if constexpr (TT == ThresholdType::binary)
    return above ? mv : T(0);
  else if constexpr (TT == ThresholdType::binary_inv)
    return above ? T(0) : mv;
  else if constexpr (TT == ThresholdType::trunc)
    return above ? tv : s;
  else if constexpr (TT == ThresholdType::tozero)
    return above ? s : T(0);
  else
    return above ? T(0) : s;  // tozero_inv
}

template <ThresholdType TT, typename T>
TEXCV_HD T px_threshold(T s, ThreshCmp<T> th, T mv, T tv) {
  return px_threshold_pick<TT>(static_cast<ThreshCmp<T>>(s) > th, s, mv, tv);
}

// The threshold's comparison value, stored maximum and trunc value for element type T.
template <typename T>
struct ThreshValues {
  ThreshCmp<T> th;
  T mv, tv;
};
template <typename T>
inline ThreshValues<T> thresh_values(const ThresholdDesc& d) {
  ThreshValues<T> r;
  r.th = static_cast<ThreshCmp<T>>(d.thresh);
  r.mv = static_cast<T>(d.maxval);
  r.tv = sizeof(T) == 4 ? static_cast<T>(d.thresh) : r.mv;
  return r;
}

// gamma's lookup table for u8 (256 entries) and u16 (65536): max * (i / max)^g, rounded half to
// even (in double, host only).
template <typename T>
inline std::vector<T> gamma_lut(double g) {
  constexpr int kN = sizeof(T) == 1 ? 256 : 65536;
  const double mx = kN - 1;
  std::vector<T> lut(kN);
  for (int i = 0; i < kN; ++i) {
    const double v = mx * std::pow(i / mx, g);
    lut[i] = static_cast<T>(std::fmin(std::nearbyint(v), mx));
  }
  return lut;
}

}  // namespace texcv::detail
