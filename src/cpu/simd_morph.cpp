// erode/dilate's element-wise min/max of two rows in Highway vectors (see simd.hpp), with
// morph.cpp's pick: b < a ? b : a (min) or b > a ? b : a (max), so that a NaN in either
// operand leaves a (x86's minps/maxps would return b): the same values as the plain loop.
#include <cstddef>
#include <cstdint>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_morph.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
template <typename T>
bool pick_impl(const T* a, const T* b, T* out, int n, bool max) {
  const hn::ScalableTag<T> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  if (n < lanes) return false;
  // out may be a (an accumulator), so the overlapping last vector must not read what an earlier
  // store changed: it is computed before the loop and stored after it.
  const int last = n - lanes;
  const auto pick = [&](hn::Vec<decltype(d)> va, hn::Vec<decltype(d)> vb) HWY_ATTR {
    if constexpr (sizeof(T) == 4) {  // float: the comparison decides, as in the plain loop
      return hn::IfThenElse(max ? hn::Gt(vb, va) : hn::Lt(vb, va), vb, va);
    } else {
      return max ? hn::Max(va, vb) : hn::Min(va, vb);
    }
  };
  const auto tail = pick(hn::LoadU(d, a + last), hn::LoadU(d, b + last));
  for (int x = 0; x < last; x += lanes)
    hn::StoreU(pick(hn::LoadU(d, a + x), hn::LoadU(d, b + x)), d, out + x);
  hn::StoreU(tail, d, out + last);
  return true;
}
#endif

#if HWY_TARGET == HWY_SCALAR
#define TEXCV_MORPH_SIMD(expr) return false  // one lane: the plain loop
#else
#define TEXCV_MORPH_SIMD(expr) return expr
#endif
bool pick_u8(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int n, bool max) {
  (void)a, (void)b, (void)o, (void)n, (void)max;
  TEXCV_MORPH_SIMD(pick_impl(a, b, o, n, max));
}
bool pick_u16(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int n, bool max) {
  (void)a, (void)b, (void)o, (void)n, (void)max;
  TEXCV_MORPH_SIMD(pick_impl(a, b, o, n, max));
}
bool pick_f32(const float* a, const float* b, float* o, int n, bool max) {
  (void)a, (void)b, (void)o, (void)n, (void)max;
  TEXCV_MORPH_SIMD(pick_impl(a, b, o, n, max));
}
#undef TEXCV_MORPH_SIMD

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(pick_u8);
HWY_EXPORT(pick_u16);
HWY_EXPORT(pick_f32);
bool pick_rows(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, int n, bool max) {
  return HWY_DYNAMIC_DISPATCH(pick_u8)(a, b, out, n, max);
}
bool pick_rows(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out, int n,
               bool max) {
  return HWY_DYNAMIC_DISPATCH(pick_u16)(a, b, out, n, max);
}
bool pick_rows(const float* a, const float* b, float* out, int n, bool max) {
  return HWY_DYNAMIC_DISPATCH(pick_f32)(a, b, out, n, max);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool pick_rows(const std::uint8_t*, const std::uint8_t*, std::uint8_t*, int, bool) {
  return false;
}
bool pick_rows(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, int, bool) {
  return false;
}
bool pick_rows(const float*, const float*, float*, int, bool) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
