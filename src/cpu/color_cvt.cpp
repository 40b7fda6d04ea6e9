// CPU backend: cvt_color (channel swaps, gray, YUV matrices, HSV), parallel over rows.
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

template <typename T>
constexpr float kMax = sizeof(T) == 1   ? 255.0f
                       : sizeof(T) == 2 ? 65535.0f
                                        : 1.0f;

// Calls f(row index) for every row, in parallel for large images.
template <class F>
void for_rows(const ImageView& v, F&& f) {
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(v.width) * v.height)
  for (int y = 0; y < v.height; ++y) f(y);
}

template <typename T, int CS, int CD, class F>
void map_pixels(const ImageView& src, const ImageView& dst, F&& f) {
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    for (int x = 0; x < src.width; ++x)
      f(s + static_cast<std::size_t>(x) * CS, d + static_cast<std::size_t>(x) * CD);
  });
}

// Swap channels 0 and 2 (C = 3 or 4; alpha copied).
template <typename T, int C>
void swap_rb(const ImageView& src, const ImageView& dst) {
  map_pixels<T, C, C>(src, dst, [](const T* s, T* d) {
    d[0] = s[2];
    d[1] = s[1];
    d[2] = s[0];
    if constexpr (C == 4) d[3] = s[3];
  });
}

// Gray: u8 and u16 in OpenCV's fixed point (below), rounded by adding half of the divisor;
// f32 as c0 s0 + c1 s1 + c2 s2 with 0.299f, 0.587f, 0.114f in the source's channel order.
template <typename T, int C>
void to_gray(const ImageView& src, const ImageView& dst, bool bgr) {
  const int r = bgr ? 2 : 0, b = bgr ? 0 : 2;
  if constexpr (sizeof(T) == 4) {
    float k[3];
    k[r] = 0.299f;
    k[1] = 0.587f;
    k[b] = 0.114f;
    map_pixels<T, C, 1>(src, dst,
                        [&](const T* s, T* d) { d[0] = s[0] * k[0] + s[1] * k[1] + s[2] * k[2]; });
  } else {
    // u8: 15-bit weights 9798, 19235, 3735 (sum 32768); u16: 14-bit 4899, 9617, 1868.
    constexpr bool kU8 = sizeof(T) == 1;
    constexpr std::uint32_t kShift = kU8 ? 15 : 14;
    std::uint32_t k[3];
    k[r] = kU8 ? 9798 : 4899;
    k[1] = kU8 ? 19235 : 9617;
    k[b] = kU8 ? 3735 : 1868;
    map_pixels<T, C, 1>(src, dst, [&](const T* s, T* d) {
      d[0] = static_cast<T>((s[0] * k[0] + s[1] * k[1] + s[2] * k[2] + (1u << (kShift - 1))) >>
                            kShift);
    });
  }
}

template <typename T, int C>
void from_gray(const ImageView& src, const ImageView& dst) {
  map_pixels<T, 1, C>(src, dst, [](const T* s, T* d) {
    d[0] = d[1] = d[2] = s[0];
    if constexpr (C == 4) d[3] = static_cast<T>(kMax<T>);
  });
}

template <typename T>
void apply_matrix(const ImageView& src, const ImageView& dst, const sd::ColorMatrix& m) {
  map_pixels<T, 3, 3>(src, dst, [&](const T* s, T* d) {
    const float a = static_cast<float>(s[0]), b = static_cast<float>(s[1]),
                c = static_cast<float>(s[2]);
    for (int i = 0; i < 3; ++i)
      d[i] = sd::saturate<T>(m.m[3 * i] * a + m.m[3 * i + 1] * b + m.m[3 * i + 2] * c + m.o[i]);
  });
}

// RGB -> HSV. f32: H in [0, 360), S = diff / (V + FLT_EPSILON), V = max (as OpenCV's float
// path). u8: H = round(30 * sector position) in [0, 180), S = round(255 diff / V), V = max.
template <typename T>
void to_hsv(const ImageView& src, const ImageView& dst, bool bgr) {
  const int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
  map_pixels<T, 3, 3>(src, dst, [&](const T* s, T* d) {
    const float r = s[ri], g = s[1], b = s[bi];
    const float v = std::fmax(r, std::fmax(g, b));
    const float mn = std::fmin(r, std::fmin(g, b));
    const float diff = v - mn;
    if constexpr (sizeof(T) == 4) {
      const float sat = diff / (std::fabs(v) + FLT_EPSILON);
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
      float hq = sd::round_half_even(h * 30.0f);
      if (hq >= 180.0f) hq -= 180.0f;
      d[0] = static_cast<T>(hq);
      d[1] = v > 0.0f ? sd::saturate<T>(255.0f * diff / v) : T(0);
      d[2] = static_cast<T>(v);
    }
  });
}

// HSV -> RGB as the usual six-sector formula (OpenCV's float path; u8 scales H by 2, S and V by
// 1/255 first and the result by 255).
template <typename T>
void from_hsv(const ImageView& src, const ImageView& dst, bool bgr) {
  const int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
  constexpr bool kU8 = sizeof(T) == 1;
  const float hscale = kU8 ? 6.0f / 180.0f : 6.0f / 360.0f;
  map_pixels<T, 3, 3>(src, dst, [&](const T* s, T* d) {
    float h = s[0], sat = s[1], v = s[2];
    if constexpr (kU8) {
      sat *= 1.0f / 255.0f;
      v *= 1.0f / 255.0f;
    }
    float r = v, g = v, b = v;
    if (sat != 0.0f) {
      h *= hscale;
      h = h - 6.0f * std::floor(h / 6.0f);
      int sector = static_cast<int>(std::floor(h));
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
    d[ri] = sd::saturate<T>(r * k);
    d[1] = sd::saturate<T>(g * k);
    d[bi] = sd::saturate<T>(b * k);
  });
}

}  // namespace

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code) {
  detail::dispatch(src.type, 1, "cvt_color", [&](auto tag, auto) {
    using T = typename decltype(tag)::type;
    switch (code) {
      case ColorCode::rgb2bgr:
        return swap_rb<T, 3>(src, dst);
      case ColorCode::rgba2bgra:
        return swap_rb<T, 4>(src, dst);
      case ColorCode::rgb2gray:
        return to_gray<T, 3>(src, dst, false);
      case ColorCode::bgr2gray:
        return to_gray<T, 3>(src, dst, true);
      case ColorCode::rgba2gray:
        return to_gray<T, 4>(src, dst, false);
      case ColorCode::bgra2gray:
        return to_gray<T, 4>(src, dst, true);
      case ColorCode::gray2rgb:
        return from_gray<T, 3>(src, dst);
      case ColorCode::gray2rgba:
        return from_gray<T, 4>(src, dst);
      case ColorCode::rgb2yuv_bt601:
      case ColorCode::rgb2yuv_bt601_limited:
      case ColorCode::rgb2yuv_bt709:
      case ColorCode::rgb2yuv_bt709_limited:
      case ColorCode::yuv2rgb_bt601:
      case ColorCode::yuv2rgb_bt601_limited:
      case ColorCode::yuv2rgb_bt709:
      case ColorCode::yuv2rgb_bt709_limited:
        return apply_matrix<T>(src, dst, sd::yuv_matrix(code, src.type));
      case ColorCode::rgb2hsv:
      case ColorCode::bgr2hsv:
        if constexpr (sizeof(T) != 2) return to_hsv<T>(src, dst, code == ColorCode::bgr2hsv);
        break;
      case ColorCode::hsv2rgb:
      case ColorCode::hsv2bgr:
        if constexpr (sizeof(T) != 2) return from_hsv<T>(src, dst, code == ColorCode::hsv2bgr);
        break;
    }
    fail(ErrorCode::Internal, "cvt_color", "unsupported conversion reached the CPU backend",
         to_string(code), "a validated code");
  });
}

}  // namespace texcv::cpu
