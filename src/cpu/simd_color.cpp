// cvt_color's RGB(A)/BGR(A) to gray in Highway vectors (see simd.hpp): the channels
// deinterleaved by LoadInterleaved3/4, widened to 32 bits, and color_pixel.hpp's arithmetic
// (u8/u16: the same integer weights, rounding and shift; f32: the same products and sums in the
// same order), narrowed again.
#include <cstddef>
#include <cstdint>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_color.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Pixels [0, w) of one row; C = 3 or 4 channels (the 4th ignored); weights k[] in channel order.
template <typename T, int C>
bool gray_impl(const T* s, T* d, int w, const float* kf, const std::uint32_t* ki) {
  if constexpr (sizeof(T) == 4) {
    const hn::ScalableTag<float> df;
    const int n = static_cast<int>(hn::Lanes(df));
    if (w < n) return false;
    const auto k0 = hn::Set(df, kf[0]), k1 = hn::Set(df, kf[1]), k2 = hn::Set(df, kf[2]);
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
      hn::Vec<decltype(df)> c0, c1, c2, c3;
      if constexpr (C == 3)
        hn::LoadInterleaved3(df, s + static_cast<std::size_t>(x0) * 3, c0, c1, c2);
      else
        hn::LoadInterleaved4(df, s + static_cast<std::size_t>(x0) * 4, c0, c1, c2, c3);
      const auto g = hn::Add(hn::Add(hn::Mul(c0, k0), hn::Mul(c1, k1)), hn::Mul(c2, k2));
      hn::StoreU(g, df, d + x0);
      if (x0 + n >= w) break;
    }
    return true;
  } else {
    const hn::ScalableTag<std::uint32_t> d32;
    const hn::RebindToSigned<decltype(d32)> di;
    const hn::Rebind<T, decltype(d32)> dt;  // as many T lanes as 32-bit lanes
    const int n = static_cast<int>(hn::Lanes(d32));
    if (w < n) return false;
    constexpr int kShift = sizeof(T) == 1 ? 15 : 14;
    const auto k0 = hn::Set(d32, ki[0]), k1 = hn::Set(d32, ki[1]), k2 = hn::Set(d32, ki[2]);
    const auto half = hn::Set(d32, 1u << (kShift - 1));
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;
      hn::Vec<decltype(dt)> c0, c1, c2, c3;
      if constexpr (C == 3)
        hn::LoadInterleaved3(dt, s + static_cast<std::size_t>(x0) * 3, c0, c1, c2);
      else
        hn::LoadInterleaved4(dt, s + static_cast<std::size_t>(x0) * 4, c0, c1, c2, c3);
      const auto sum = hn::Add(
          hn::Add(hn::Add(hn::Mul(hn::PromoteTo(d32, c0), k0), hn::Mul(hn::PromoteTo(d32, c1), k1)),
                  hn::Mul(hn::PromoteTo(d32, c2), k2)),
          half);
      // The gray value fits T: narrowed from int32 (Highway 1.0 demotes signed lanes only).
      hn::StoreU(hn::DemoteTo(dt, hn::BitCast(di, hn::ShiftRight<kShift>(sum))), dt, d + x0);
      if (x0 + n >= w) break;
    }
    return true;
  }
}

template <typename T>
bool gray(const T* s, T* d, int w, int channels, bool bgr) {
  const int r = bgr ? 2 : 0, b = bgr ? 0 : 2;
  float kf[3];
  kf[r] = 0.299f;
  kf[1] = 0.587f;
  kf[b] = 0.114f;
  constexpr bool kU8 = sizeof(T) == 1;
  std::uint32_t ki[3];
  ki[r] = kU8 ? 9798 : 4899;
  ki[1] = kU8 ? 19235 : 9617;
  ki[b] = kU8 ? 3735 : 1868;
  if (channels == 3) return gray_impl<T, 3>(s, d, w, kf, ki);
  if (channels == 4) return gray_impl<T, 4>(s, d, w, kf, ki);
  return false;
}

bool gray_u8(const std::uint8_t* s, std::uint8_t* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;  // one lane: nothing to gain over the plain loop
#else
  return gray(s, d, w, c, bgr);
#endif
}
bool gray_u16(const std::uint16_t* s, std::uint16_t* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;
#else
  return gray(s, d, w, c, bgr);
#endif
}
bool gray_f32(const float* s, float* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;
#else
  return gray(s, d, w, c, bgr);
#endif
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(gray_u8);
HWY_EXPORT(gray_u16);
HWY_EXPORT(gray_f32);
bool to_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_u8)(s, d, w, channels, bgr);
}
bool to_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_u16)(s, d, w, channels, bgr);
}
bool to_gray_row(const float* s, float* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_f32)(s, d, w, channels, bgr);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool to_gray_row(const std::uint8_t*, std::uint8_t*, int, int, bool) {
  return false;
}
bool to_gray_row(const std::uint16_t*, std::uint16_t*, int, int, bool) {
  return false;
}
bool to_gray_row(const float*, float*, int, int, bool) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
