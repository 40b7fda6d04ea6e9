// detail::saturate in Highway vectors, shared by the simd_*.cpp files (a per-target header:
// include it after <hwy/highway.h>; the toggle guard lets foreach_target.h compile it once per
// target). saturated<T>(df, v): the float lanes v as T lanes: > 0 or 0 (also NaN), at most the
// type's maximum, rounded half to even (the default rounding mode). store_saturated stores them
// (f32: v as is).
#if defined(TEXCV_CPU_SIMD_SATURATE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TEXCV_CPU_SIMD_SATURATE_INL_H_
#undef TEXCV_CPU_SIMD_SATURATE_INL_H_
#else
#define TEXCV_CPU_SIMD_SATURATE_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {

template <typename T, class DF>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::Rebind<T, DF>> saturated(
    DF df, hwy::HWY_NAMESPACE::Vec<DF> v) {
  namespace hn = hwy::HWY_NAMESPACE;
  static_assert(sizeof(T) < 4, "u8 or u16");
  constexpr float kMax = sizeof(T) == 1 ? 255.0f : 65535.0f;
  const auto c = hn::Min(hn::IfThenElseZero(hn::Gt(v, hn::Zero(df)), v), hn::Set(df, kMax));
  return hn::DemoteTo(hn::Rebind<T, DF>(), hn::NearestInt(c));
}

template <typename T, class DF>
HWY_INLINE void store_saturated(DF df, hwy::HWY_NAMESPACE::Vec<DF> v, T* out) {
  namespace hn = hwy::HWY_NAMESPACE;
  if constexpr (sizeof(T) == 4) {
    hn::StoreU(v, df, out);
  } else {
    hn::StoreU(saturated<T>(df, v), hn::Rebind<T, DF>(), out);
  }
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
