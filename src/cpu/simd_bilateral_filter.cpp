// bilateral_filter of u8 images (1 or 3 channels) in Highway vectors (see simd.hpp): a vector of
// neighbouring output pixels at a time, so that each tap of the disc is one contiguous load of
// the padded source (no gather) and only the colour weight is a table gather. Per lane the
// arithmetic is bilateral_filter.cpp's, in its order: the integer L1 colour distance, the table's
// weight, wk = space * weight, wsum += wk and sum += wk * q over the taps, then sum / wsum
// saturated. The same floats as the plain loop.
#include <cstddef>
#include <cstdint>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_bilateral_filter.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "src/cpu/simd_saturate-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
template <int C>
void bilateral_impl(const std::uint8_t* center, const long* ofs, const float* space, int taps,
                    const float* table, int w, std::uint8_t* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const int lanes = static_cast<int>(hn::Lanes(df));
  // The C channels of `lanes` pixels from p, as int32 lanes.
  const auto load = [&](const std::uint8_t* p, hn::Vec<decltype(di)>* v) HWY_ATTR {
    if constexpr (C == 1) {
      v[0] = hn::PromoteTo(di, hn::LoadU(d8, p));
    } else {
      hn::Vec<decltype(d8)> a, b, c;
      hn::LoadInterleaved3(d8, p, a, b, c);
      v[0] = hn::PromoteTo(di, a), v[1] = hn::PromoteTo(di, b), v[2] = hn::PromoteTo(di, c);
    }
  };
  for (int x = 0;; x += lanes) {
    const int xs = x + lanes <= w ? x : w - lanes;  // the last vector ends at w (overlapping)
    const std::uint8_t* p = center + static_cast<std::size_t>(xs) * C;
    hn::Vec<decltype(di)> pc[C];
    load(p, pc);
    hn::Vec<decltype(df)> sum[C];
    for (int c = 0; c < C; ++c) sum[c] = hn::Zero(df);
    auto wsum = hn::Zero(df);
    for (int k = 0; k < taps; ++k) {
      hn::Vec<decltype(di)> q[C];
      load(p + ofs[k], q);
      auto dist = hn::Abs(hn::Sub(q[0], pc[0]));
      for (int c = 1; c < C; ++c) dist = hn::Add(dist, hn::Abs(hn::Sub(q[c], pc[c])));
      const auto wk = hn::Mul(hn::Set(df, space[k]), hn::GatherIndex(df, table, dist));
      wsum = hn::Add(wsum, wk);
      for (int c = 0; c < C; ++c) sum[c] = hn::Add(sum[c], hn::Mul(wk, hn::ConvertTo(df, q[c])));
    }
    // detail::saturate(sum / wsum): > 0 or 0 (also NaN), at most 255, rounded half to even.
    hn::Vec<decltype(d8)> o[C];
    for (int c = 0; c < C; ++c) o[c] = saturated<std::uint8_t>(df, hn::Div(sum[c], wsum));
    std::uint8_t* dst = out + static_cast<std::size_t>(xs) * C;
    if constexpr (C == 1) {
      hn::StoreU(o[0], d8, dst);
    } else {
      hn::StoreInterleaved3(o[0], o[1], o[2], d8, dst);
    }
    if (xs + lanes >= w) break;
  }
}
#endif

bool bilateral_u8(const std::uint8_t* center, int channels, const long* ofs, const float* space,
                  int taps, const float* table, int w, std::uint8_t* out) {
#if HWY_TARGET == HWY_SCALAR
  (void)center, (void)channels, (void)ofs, (void)space, (void)taps, (void)table, (void)w;
  (void)out;
  return false;  // one lane: the plain loop
#else
  const hn::ScalableTag<float> df;
  if (w < static_cast<int>(hn::Lanes(df))) return false;
  if (channels == 1) {
    bilateral_impl<1>(center, ofs, space, taps, table, w, out);
    return true;
  }
  if (channels == 3) {
    bilateral_impl<3>(center, ofs, space, taps, table, w, out);
    return true;
  }
  return false;
#endif
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(bilateral_u8);
bool bilateral_row(const std::uint8_t* center, int channels, const long* ofs, const float* space,
                   int taps, const float* table, int w, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(bilateral_u8)(center, channels, ofs, space, taps, table, w, out);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool bilateral_row(const std::uint8_t*, int, const long*, const float*, int, const float*, int,
                   std::uint8_t*) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
