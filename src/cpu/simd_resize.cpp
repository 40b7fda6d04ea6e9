// resize's exact half-size 2x2 mean for u8/u16 rows in Highway vectors (see simd.hpp): the
// channels deinterleaved (LoadInterleaved3/4; one channel as is), each pair of neighbouring
// pixels summed as the two halves of a lane twice as wide, the two rows added, rounded half to
// even as resize.cpp's plain loop: (s + 1 + ((s >> 2) & 1)) >> 2.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_resize.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
template <typename T, int C>
bool half_impl(const T* a, const T* b, T* o, int w) {
  using W = std::conditional_t<sizeof(T) == 1, std::uint16_t, std::uint32_t>;
  const hn::ScalableTag<T> d;                // one channel of 2n input pixels
  const hn::Repartition<W, decltype(d)> dw;  // their pairs, one W lane each
  const hn::RebindToSigned<decltype(dw)> ds;
  const hn::Rebind<T, decltype(dw)> dh;  // n output elements of one channel
  const int n = static_cast<int>(hn::Lanes(dw));
  if (w < n) return false;
  constexpr int kBits = static_cast<int>(sizeof(T)) * 8;
  const auto low = hn::Set(dw, static_cast<W>((W{1} << kBits) - 1));
  const auto one = hn::Set(dw, W{1});
  const auto pairs = [&](hn::Vec<decltype(d)> v) HWY_ATTR {
    const auto u = hn::BitCast(dw, v);
    return hn::Add(hn::And(u, low), hn::ShiftRight<kBits>(u));
  };
  const auto mean = [&](hn::Vec<decltype(d)> va, hn::Vec<decltype(d)> vb) HWY_ATTR {
    const auto s = hn::Add(pairs(va), pairs(vb));
    const auto r = hn::ShiftRight<2>(hn::Add(hn::Add(s, one), hn::And(hn::ShiftRight<2>(s), one)));
    return hn::DemoteTo(dh, hn::BitCast(ds, r));  // <= the type's maximum: exact
  };
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
    const std::size_t i = static_cast<std::size_t>(2 * x0) * C;
    T* out = o + static_cast<std::size_t>(x0) * C;
    if constexpr (C == 1) {
      hn::StoreU(mean(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), dh, out);
    } else if constexpr (C == 3) {
      hn::Vec<decltype(d)> a0, a1, a2, b0, b1, b2;
      hn::LoadInterleaved3(d, a + i, a0, a1, a2);
      hn::LoadInterleaved3(d, b + i, b0, b1, b2);
      hn::StoreInterleaved3(mean(a0, b0), mean(a1, b1), mean(a2, b2), dh, out);
    } else {
      hn::Vec<decltype(d)> a0, a1, a2, a3, b0, b1, b2, b3;
      hn::LoadInterleaved4(d, a + i, a0, a1, a2, a3);
      hn::LoadInterleaved4(d, b + i, b0, b1, b2, b3);
      hn::StoreInterleaved4(mean(a0, b0), mean(a1, b1), mean(a2, b2), mean(a3, b3), dh, out);
    }
    if (x0 + n >= w) break;
  }
  return true;
}
#endif

template <typename T>
bool half_any(const T* a, const T* b, T* o, int w, int c) {
#if HWY_TARGET == HWY_SCALAR
  (void)a, (void)b, (void)o, (void)w, (void)c;
  return false;  // one lane: no pairs to split
#else
  if (c == 1) return half_impl<T, 1>(a, b, o, w);
  if (c == 3) return half_impl<T, 3>(a, b, o, w);
  if (c == 4) return half_impl<T, 4>(a, b, o, w);
  return false;
#endif
}
bool half_u8(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int w, int c) {
  return half_any(a, b, o, w, c);
}
bool half_u16(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int w, int c) {
  return half_any(a, b, o, w, c);
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(half_u8);
HWY_EXPORT(half_u16);
bool half_mean_row(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int w,
                   int channels) {
  return HWY_DYNAMIC_DISPATCH(half_u8)(a, b, o, w, channels);
}
bool half_mean_row(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int w,
                   int channels) {
  return HWY_DYNAMIC_DISPATCH(half_u16)(a, b, o, w, channels);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool half_mean_row(const std::uint8_t*, const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool half_mean_row(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
