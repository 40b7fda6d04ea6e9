// cvt_color's rows in Highway vectors (see simd.hpp). To gray: the channels deinterleaved by
// LoadInterleaved3/4, widened to 32 bits, and color_pixel.hpp's arithmetic (u8/u16: the same
// integer weights, rounding and shift; f32: the same products and sums in the same order),
// narrowed again. Channel swaps and gray to RGB(A) move elements only.
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

// Channels 0 and 2 swapped (px_swap_rb). Three channels: deinterleaved and stored back in the
// other order. Four: pixels of 4, 8 or 16 bytes tile a 16-byte block, so one byte shuffle per
// block does it (alpha stays in place).
template <typename T>
bool swap_rb_impl(const T* s, T* d, int w, int channels) {
  if (channels == 3) {
    const hn::ScalableTag<T> dt;
    const int n = static_cast<int>(hn::Lanes(dt));
    if (w < n) return false;
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
      hn::Vec<decltype(dt)> c0, c1, c2;
      hn::LoadInterleaved3(dt, s + static_cast<std::size_t>(x0) * 3, c0, c1, c2);
      hn::StoreInterleaved3(c2, c1, c0, dt, d + static_cast<std::size_t>(x0) * 3);
      if (x0 + n >= w) break;
    }
    return true;
  }
  if (channels != 4) return false;
  const hn::ScalableTag<std::uint8_t> d8;
  const int n = static_cast<int>(hn::Lanes(d8));
  const int bytes = w * 4 * static_cast<int>(sizeof(T));
  if (bytes < n) return false;
  // Byte i of a block takes byte kIdx[i]: the first and third element of each pixel exchanged.
  alignas(16) static constexpr std::uint8_t kIdx1[16] = {2,  1, 0, 3,  6,  5,  4,  7,
                                                         10, 9, 8, 11, 14, 13, 12, 15};
  alignas(16) static constexpr std::uint8_t kIdx2[16] = {4,  5,  2,  3,  0, 1, 6,  7,
                                                         12, 13, 10, 11, 8, 9, 14, 15};
  alignas(16) static constexpr std::uint8_t kIdx4[16] = {8, 9, 10, 11, 4,  5,  6,  7,
                                                         0, 1, 2,  3,  12, 13, 14, 15};
  const auto idx = hn::LoadDup128(d8, sizeof(T) == 1 ? kIdx1 : sizeof(T) == 2 ? kIdx2 : kIdx4);
  const auto* sb = reinterpret_cast<const std::uint8_t*>(s);
  auto* db = reinterpret_cast<std::uint8_t*>(d);
  // Vectors are whole blocks, so every vector (the last one too: bytes and n are multiples of
  // the pixel size) starts at a pixel boundary.
  for (int x = 0;; x += n) {
    const int x0 = x + n <= bytes ? x : bytes - n;
    hn::StoreU(hn::TableLookupBytes(hn::LoadU(d8, sb + x0), idx), d8, db + x0);
    if (x0 + n >= bytes) break;
  }
  return true;
}

// Gray to RGB(A) (px_from_gray): the value three times, then the opaque alpha (kColorMax).
// u8: each 16-byte block of gray pixels spread into 3 or 4 blocks by byte shuffles (faster than
// Highway's StoreInterleaved3/4 of whole vectors, which reshuffle across blocks).
template <typename T>
bool from_gray_impl(const T* s, T* d, int w, int channels) {
  if constexpr (sizeof(T) == 1) {
    const hn::CappedTag<std::uint8_t, 16> d8;
    const int n = static_cast<int>(hn::Lanes(d8));
    if (n == 16 && w >= n && (channels == 3 || channels == 4)) {
      constexpr std::uint8_t Z = 0x80;  // TableLookupBytesOr0: a zero byte, then alpha or'ed in
      alignas(16) static constexpr std::uint8_t k3[3][16] = {
          {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5},
          {5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10},
          {10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15}};
      alignas(16) static constexpr std::uint8_t k4[4][16] = {
          {0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z},
          {4, 4, 4, Z, 5, 5, 5, Z, 6, 6, 6, Z, 7, 7, 7, Z},
          {8, 8, 8, Z, 9, 9, 9, Z, 10, 10, 10, Z, 11, 11, 11, Z},
          {12, 12, 12, Z, 13, 13, 13, Z, 14, 14, 14, Z, 15, 15, 15, Z}};
      alignas(16) static constexpr std::uint8_t kAlpha[16] = {0, 0, 0, 255, 0, 0, 0, 255,
                                                              0, 0, 0, 255, 0, 0, 0, 255};
      const auto alpha = hn::Load(d8, kAlpha);
      for (int x = 0;; x += n) {
        const int x0 = x + n <= w ? x : w - n;
        const auto v = hn::LoadU(d8, s + x0);
        T* o = d + static_cast<std::size_t>(x0) * channels;
        if (channels == 3) {
          for (int k = 0; k < 3; ++k)
            hn::StoreU(hn::TableLookupBytes(v, hn::Load(d8, k3[k])), d8, o + 16 * k);
        } else {
          for (int k = 0; k < 4; ++k)
            hn::StoreU(hn::Or(hn::TableLookupBytesOr0(v, hn::Load(d8, k4[k])), alpha), d8,
                       o + 16 * k);
        }
        if (x0 + n >= w) break;
      }
      return true;
    }
  }
  const hn::ScalableTag<T> dt;
  const int n = static_cast<int>(hn::Lanes(dt));
  if (w < n || (channels != 3 && channels != 4)) return false;
  const auto alpha = hn::Set(dt, static_cast<T>(sizeof(T) == 1   ? 255.0f
                                                : sizeof(T) == 2 ? 65535.0f
                                                                 : 1.0f));
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const auto v = hn::LoadU(dt, s + x0);
    if (channels == 3)
      hn::StoreInterleaved3(v, v, v, dt, d + static_cast<std::size_t>(x0) * 3);
    else
      hn::StoreInterleaved4(v, v, v, alpha, dt, d + static_cast<std::size_t>(x0) * 4);
    if (x0 + n >= w) break;
  }
  return true;
}

#if HWY_TARGET == HWY_SCALAR
// One lane: nothing to gain over the plain loops.
#define TEXCV_COLOR_ROW(name, impl, T)               \
  bool name(const T* s, T* d, int w, int channels) { \
    (void)s, (void)d, (void)w, (void)channels;       \
    return false;                                    \
  }
#else
#define TEXCV_COLOR_ROW(name, impl, T)               \
  bool name(const T* s, T* d, int w, int channels) { \
    return impl(s, d, w, channels);                  \
  }
#endif
TEXCV_COLOR_ROW(swap_rb_u8, swap_rb_impl, std::uint8_t)
TEXCV_COLOR_ROW(swap_rb_u16, swap_rb_impl, std::uint16_t)
TEXCV_COLOR_ROW(swap_rb_f32, swap_rb_impl, float)
TEXCV_COLOR_ROW(from_gray_u8, from_gray_impl, std::uint8_t)
TEXCV_COLOR_ROW(from_gray_u16, from_gray_impl, std::uint16_t)
TEXCV_COLOR_ROW(from_gray_f32, from_gray_impl, float)
#undef TEXCV_COLOR_ROW

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
HWY_EXPORT(swap_rb_u8);
HWY_EXPORT(swap_rb_u16);
HWY_EXPORT(swap_rb_f32);
bool swap_rb_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_u8)(s, d, w, channels);
}
bool swap_rb_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_u16)(s, d, w, channels);
}
bool swap_rb_row(const float* s, float* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_f32)(s, d, w, channels);
}
HWY_EXPORT(from_gray_u8);
HWY_EXPORT(from_gray_u16);
HWY_EXPORT(from_gray_f32);
bool from_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_u8)(s, d, w, channels);
}
bool from_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_u16)(s, d, w, channels);
}
bool from_gray_row(const float* s, float* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_f32)(s, d, w, channels);
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
bool swap_rb_row(const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool swap_rb_row(const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
bool swap_rb_row(const float*, float*, int, int) {
  return false;
}
bool from_gray_row(const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool from_gray_row(const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
bool from_gray_row(const float*, float*, int, int) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
