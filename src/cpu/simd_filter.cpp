// The separable filters' two float passes in Highway vectors (see simd.hpp): the same
// multiplications and additions in the same order per element as the plain loops
// (filter_rows.hpp), each sum kept in a register across the taps instead of in memory.
#include <cstddef>
#include <cstdint>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_filter.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "src/cpu/simd_saturate-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// acc[i] += kern[k] * src[k * step + i] for k = 0 .. taps - 1 in order (zero taps skipped), i < n.
void taps_add(const float* src, std::size_t step, const float* kern, int taps, int n, float* acc) {
  const hn::ScalableTag<float> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  int i = 0;
  // Four vectors at a time: four independent sums hide the addition's latency (one sum's chain
  // of adds over the taps is otherwise the bound), and each tap's broadcast serves four.
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    auto a0 = hn::LoadU(d, acc + i);
    auto a1 = hn::LoadU(d, acc + i + lanes);
    auto a2 = hn::LoadU(d, acc + i + 2 * lanes);
    auto a3 = hn::LoadU(d, acc + i + 3 * lanes);
    for (int k = 0; k < taps; ++k) {
      if (kern[k] == 0.0f) continue;
      const auto kv = hn::Set(d, kern[k]);
      const float* p = src + k * step + i;
      a0 = hn::Add(a0, hn::Mul(kv, hn::LoadU(d, p)));
      a1 = hn::Add(a1, hn::Mul(kv, hn::LoadU(d, p + lanes)));
      a2 = hn::Add(a2, hn::Mul(kv, hn::LoadU(d, p + 2 * lanes)));
      a3 = hn::Add(a3, hn::Mul(kv, hn::LoadU(d, p + 3 * lanes)));
    }
    hn::StoreU(a0, d, acc + i);
    hn::StoreU(a1, d, acc + i + lanes);
    hn::StoreU(a2, d, acc + i + 2 * lanes);
    hn::StoreU(a3, d, acc + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) {
    auto a = hn::LoadU(d, acc + i);
    for (int k = 0; k < taps; ++k) {
      if (kern[k] == 0.0f) continue;
      a = hn::Add(a, hn::Mul(hn::Set(d, kern[k]), hn::LoadU(d, src + k * step + i)));
    }
    hn::StoreU(a, d, acc + i);
  }
  for (; i < n; ++i) {
    float a = acc[i];
    for (int k = 0; k < taps; ++k)
      if (kern[k] != 0.0f) a += kern[k] * src[k * step + i];
    acc[i] = a;
  }
}

// convolve's output row in one pass: v[i] = 0 + kv[0] * src[0][i] + kv[1] * src[1][i] + ... (in
// order), then d[i] = saturate(v[i] * scale + delta): the plain path's zeroed accumulator, its
// taps_add per kernel row and store_row, with the sums in registers instead of memory.
template <typename T>
bool taps_store_impl(const float* const* src, const float* kv, int taps, int n, float scale,
                     float delta, T* d) {
#if HWY_TARGET == HWY_SCALAR
  (void)src, (void)kv, (void)taps, (void)n, (void)scale, (void)delta, (void)d;
  return false;  // one lane: the plain loops
#else
  const hn::ScalableTag<float> df;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (n < lanes) return false;
  const auto sc = hn::Set(df, scale), de = hn::Set(df, delta);
  const auto store = [&](hn::Vec<decltype(df)> a, int i)
                         HWY_ATTR { store_saturated(df, hn::Add(hn::Mul(a, sc), de), d + i); };
  int i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {  // four sums: see taps_add
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    for (int t = 0; t < taps; ++t) {
      const auto k = hn::Set(df, kv[t]);
      const float* p = src[t] + i;
      a0 = hn::Add(a0, hn::Mul(k, hn::LoadU(df, p)));
      a1 = hn::Add(a1, hn::Mul(k, hn::LoadU(df, p + lanes)));
      a2 = hn::Add(a2, hn::Mul(k, hn::LoadU(df, p + 2 * lanes)));
      a3 = hn::Add(a3, hn::Mul(k, hn::LoadU(df, p + 3 * lanes)));
    }
    store(a0, i);
    store(a1, i + lanes);
    store(a2, i + 2 * lanes);
    store(a3, i + 3 * lanes);
  }
  for (;; i += lanes) {
    const int is = i + lanes <= n ? i : n - lanes;  // the last vector ends at n (overlapping)
    if (is < 0 || i >= n) break;
    auto a = hn::Zero(df);
    for (int t = 0; t < taps; ++t)
      a = hn::Add(a, hn::Mul(hn::Set(df, kv[t]), hn::LoadU(df, src[t] + is)));
    store(a, is);
    if (is + lanes >= n) break;
  }
  return true;
#endif
}
bool taps_store_u8(const float* const* s, const float* k, int t, int n, float sc, float de,
                   std::uint8_t* d) {
  return taps_store_impl(s, k, t, n, sc, de, d);
}
bool taps_store_u16(const float* const* s, const float* k, int t, int n, float sc, float de,
                    std::uint16_t* d) {
  return taps_store_impl(s, k, t, n, sc, de, d);
}
bool taps_store_f32(const float* const* s, const float* k, int t, int n, float sc, float de,
                    float* d) {
  return taps_store_impl(s, k, t, n, sc, de, d);
}

// The filters' output rows: d[i] = saturate(acc[i] * scale + delta) (f32: as is), filter_rows.hpp's
// store_row.
template <typename T>
bool store_impl(const float* acc, int n, float scale, float delta, T* d) {
#if HWY_TARGET == HWY_SCALAR
  (void)acc, (void)n, (void)scale, (void)delta, (void)d;
  return false;  // one lane: the plain loop
#else
  const hn::ScalableTag<float> df;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (n < lanes) return false;
  const auto sc = hn::Set(df, scale), de = hn::Set(df, delta);
  for (int x = 0;; x += lanes) {
    const int xs = x + lanes <= n ? x : n - lanes;  // the last vector ends at n (overlapping)
    store_saturated(df, hn::Add(hn::Mul(hn::LoadU(df, acc + xs), sc), de), d + xs);
    if (xs + lanes >= n) break;
  }
  return true;
#endif
}
bool store_u8(const float* a, int n, float s, float de, std::uint8_t* d) {
  return store_impl(a, n, s, de, d);
}
bool store_u16(const float* a, int n, float s, float de, std::uint16_t* d) {
  return store_impl(a, n, s, de, d);
}
bool store_f32(const float* a, int n, float s, float de, float* d) {
  return store_impl(a, n, s, de, d);
}

// convert and normalize: o[i] = saturate(float(s[i]) * a + b) (color_pixel.hpp's px_convert).
template <typename S, typename D>
bool convert_impl(const S* s, int n, float a, float b, D* o) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)n, (void)a, (void)b, (void)o;
  return false;  // one lane: the plain loop
#else
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<S, decltype(df)> ds;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (n < lanes) return false;
  const auto va = hn::Set(df, a), vb = hn::Set(df, b);
  for (int x = 0;; x += lanes) {
    const int xs = x + lanes <= n ? x : n - lanes;  // the last vector ends at n (overlapping)
    hn::Vec<decltype(df)> v;
    if constexpr (sizeof(S) == 4)
      v = hn::LoadU(df, s + xs);
    else
      v = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(ds, s + xs)));
    store_saturated(df, hn::Add(hn::Mul(v, va), vb), o + xs);
    if (xs + lanes >= n) break;
  }
  return true;
#endif
}
bool convert_u8_u8(const std::uint8_t* s, int n, float a, float b, std::uint8_t* o) {
  return convert_impl(s, n, a, b, o);
}
bool convert_u16_u16(const std::uint16_t* s, int n, float a, float b, std::uint16_t* o) {
  return convert_impl(s, n, a, b, o);
}
bool convert_f32_u8(const float* s, int n, float a, float b, std::uint8_t* o) {
  return convert_impl(s, n, a, b, o);
}
bool convert_f32_u16(const float* s, int n, float a, float b, std::uint16_t* o) {
  return convert_impl(s, n, a, b, o);
}
bool convert_f32_f32(const float* s, int n, float a, float b, float* o) {
  return convert_impl(s, n, a, b, o);
}

// unsharp_mask's combination: unsharp_mask.cpp's floats (v + amount * diff where |diff| >=
// threshold, else the source element), selected in float lanes: a u8/u16 source element converts
// to float and back exactly.
template <typename T>
bool unsharp_impl(const T* s, const T* b, T* o, int n, float amount, float threshold) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)b, (void)o, (void)n, (void)amount, (void)threshold;
  return false;  // one lane: the plain loop
#else
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<T, decltype(df)> dt;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (n < lanes) return false;
  const auto a = hn::Set(df, amount), thr = hn::Set(df, threshold);
  const auto load = [&](const T* p) HWY_ATTR {
    if constexpr (sizeof(T) == 4) {
      return hn::LoadU(df, p);
    } else {
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(dt, p)));
    }
  };
  for (int x = 0;; x += lanes) {
    const int xs = x + lanes <= n ? x : n - lanes;  // the last vector ends at n (overlapping)
    const auto v = load(s + xs);
    const auto diff = hn::Sub(v, load(b + xs));
    const auto sharp = hn::Ge(hn::Abs(diff), thr);  // NaN: false, as in the plain loop
    const auto r = hn::Add(v, hn::Mul(a, diff));
    // The sharpened lanes saturated; the others the source element, which saturate leaves as is
    // (an integer in the type's range, or f32).
    store_saturated(df, hn::IfThenElse(sharp, r, v), o + xs);
    if (xs + lanes >= n) break;
  }
  return true;
#endif
}
bool unsharp_u8(const std::uint8_t* s, const std::uint8_t* b, std::uint8_t* o, int n, float a,
                float t) {
  return unsharp_impl(s, b, o, n, a, t);
}
bool unsharp_u16(const std::uint16_t* s, const std::uint16_t* b, std::uint16_t* o, int n, float a,
                 float t) {
  return unsharp_impl(s, b, o, n, a, t);
}
bool unsharp_f32(const float* s, const float* b, float* o, int n, float a, float t) {
  return unsharp_impl(s, b, o, n, a, t);
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(taps_add);
HWY_EXPORT(unsharp_u8);
HWY_EXPORT(convert_u8_u8);
HWY_EXPORT(convert_u16_u16);
HWY_EXPORT(convert_f32_u8);
HWY_EXPORT(convert_f32_u16);
HWY_EXPORT(convert_f32_f32);
bool convert_row(const std::uint8_t* s, int n, float a, float b, std::uint8_t* o) {
  return HWY_DYNAMIC_DISPATCH(convert_u8_u8)(s, n, a, b, o);
}
bool convert_row(const std::uint16_t* s, int n, float a, float b, std::uint16_t* o) {
  return HWY_DYNAMIC_DISPATCH(convert_u16_u16)(s, n, a, b, o);
}
bool convert_row(const float* s, int n, float a, float b, std::uint8_t* o) {
  return HWY_DYNAMIC_DISPATCH(convert_f32_u8)(s, n, a, b, o);
}
bool convert_row(const float* s, int n, float a, float b, std::uint16_t* o) {
  return HWY_DYNAMIC_DISPATCH(convert_f32_u16)(s, n, a, b, o);
}
bool convert_row(const float* s, int n, float a, float b, float* o) {
  return HWY_DYNAMIC_DISPATCH(convert_f32_f32)(s, n, a, b, o);
}
HWY_EXPORT(store_u8);
HWY_EXPORT(taps_store_u8);
HWY_EXPORT(taps_store_u16);
HWY_EXPORT(taps_store_f32);
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, std::uint8_t* d) {
  return HWY_DYNAMIC_DISPATCH(taps_store_u8)(src, kv, taps, n, scale, delta, d);
}
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, std::uint16_t* d) {
  return HWY_DYNAMIC_DISPATCH(taps_store_u16)(src, kv, taps, n, scale, delta, d);
}
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, float* d) {
  return HWY_DYNAMIC_DISPATCH(taps_store_f32)(src, kv, taps, n, scale, delta, d);
}
HWY_EXPORT(store_u16);
HWY_EXPORT(store_f32);
bool scaled_store_row(const float* acc, int n, float scale, float delta, std::uint8_t* d) {
  return HWY_DYNAMIC_DISPATCH(store_u8)(acc, n, scale, delta, d);
}
bool scaled_store_row(const float* acc, int n, float scale, float delta, std::uint16_t* d) {
  return HWY_DYNAMIC_DISPATCH(store_u16)(acc, n, scale, delta, d);
}
bool scaled_store_row(const float* acc, int n, float scale, float delta, float* d) {
  return HWY_DYNAMIC_DISPATCH(store_f32)(acc, n, scale, delta, d);
}
HWY_EXPORT(unsharp_u16);
HWY_EXPORT(unsharp_f32);
bool unsharp_row(const std::uint8_t* s, const std::uint8_t* b, std::uint8_t* o, int n, float amount,
                 float threshold) {
  return HWY_DYNAMIC_DISPATCH(unsharp_u8)(s, b, o, n, amount, threshold);
}
bool unsharp_row(const std::uint16_t* s, const std::uint16_t* b, std::uint16_t* o, int n,
                 float amount, float threshold) {
  return HWY_DYNAMIC_DISPATCH(unsharp_u16)(s, b, o, n, amount, threshold);
}
bool unsharp_row(const float* s, const float* b, float* o, int n, float amount, float threshold) {
  return HWY_DYNAMIC_DISPATCH(unsharp_f32)(s, b, o, n, amount, threshold);
}
bool filter_taps_add(const float* src, std::size_t step, const float* kern, int taps, int n,
                     float* acc) {
  HWY_DYNAMIC_DISPATCH(taps_add)(src, step, kern, taps, n, acc);
  return true;
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool filter_taps_add(const float*, std::size_t, const float*, int, int, float*) {
  return false;
}
bool unsharp_row(const std::uint8_t*, const std::uint8_t*, std::uint8_t*, int, float, float) {
  return false;
}
bool unsharp_row(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, int, float, float) {
  return false;
}
bool unsharp_row(const float*, const float*, float*, int, float, float) {
  return false;
}
bool filter_taps_store(const float* const*, const float*, int, int, float, float, std::uint8_t*) {
  return false;
}
bool filter_taps_store(const float* const*, const float*, int, int, float, float, std::uint16_t*) {
  return false;
}
bool filter_taps_store(const float* const*, const float*, int, int, float, float, float*) {
  return false;
}
bool scaled_store_row(const float*, int, float, float, std::uint8_t*) {
  return false;
}
bool scaled_store_row(const float*, int, float, float, std::uint16_t*) {
  return false;
}
bool scaled_store_row(const float*, int, float, float, float*) {
  return false;
}
bool convert_row(const std::uint8_t*, int, float, float, std::uint8_t*) {
  return false;
}
bool convert_row(const std::uint16_t*, int, float, float, std::uint16_t*) {
  return false;
}
bool convert_row(const float*, int, float, float, std::uint8_t*) {
  return false;
}
bool convert_row(const float*, int, float, float, std::uint16_t*) {
  return false;
}
bool convert_row(const float*, int, float, float, float*) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
