// gamma's f32 rows in Highway vectors (see simd.hpp): |x|^g rounded to the nearest float, the
// same bits as detail::gamma_plain (pow_rounded.hpp) on every target.
#include <cmath>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_gamma.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
// After highway.h, once per target (its own guard toggles).
#include <hwy/contrib/math/math-inl.h>

#include "src/cpu/pow_rounded.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// gamma on f32 (pow_rounded.hpp): per vector of double lanes, r = exp(g log |x|) with
// Highway's Log and Exp, accepted where r (1 -+ kPowMargin) round to the same normal float (or
// certainly to inf or 0), as the plain loop does; a vector with any other lane goes through
// pow_rounded element by element, and so does the row's tail. 0, inf and NaN are their own
// power. Same bits as the plain loop on every target.
#if HWY_TARGET == HWY_SCALAR
bool gamma_f32(const float*, float*, int, float) {
  return false;
}
#else
bool gamma_f32(const float* s, float* d, int n, float g) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int lanes = static_cast<int>(hn::Lanes(dd));
  if (n < lanes) return false;
  const auto vg = hn::Set(dd, static_cast<double>(g));
  const auto lim_hi = hn::Set(dd, detail::kPowExpLimit);
  const auto lim_lo = hn::Set(dd, -detail::kPowExpLimit);
  const auto m_lo = hn::Set(dd, 1.0 - detail::kPowMargin);
  const auto m_hi = hn::Set(dd, 1.0 + detail::kPowMargin);
  const auto one = hn::Set(dd, 1.0);
  const auto inf_f = hn::Set(df, HUGE_VALF);
  const auto inf_d = hn::Set(dd, HUGE_VAL);
  const auto over = hn::Set(dd, 0x1p128);
  const auto under = hn::Set(dd, 0x1p-150);
  const auto norm_lo = hn::Set(dd, 0x1p-126);
  const auto norm_hi = hn::Set(dd, 0x1p127);
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto vf = hn::LoadU(df, s + i);
    const auto af = hn::Abs(vf);
    const auto ad = hn::PromoteTo(dd, af);
    // Lanes with a logarithm: 0 < |x| < inf (NaN fails both compares).
    const auto finite = hn::And(hn::Gt(ad, hn::Zero(dd)), hn::Lt(ad, inf_d));
    const auto x = hn::IfThenElse(finite, ad, one);
    const auto y = hn::Min(hn::Max(hn::Mul(vg, hn::Log(dd, x)), lim_lo), lim_hi);
    const auto r = hn::Exp(dd, y);
    const auto lo = hn::Mul(r, m_lo), hi = hn::Mul(r, m_hi);
    const auto flo = hn::DemoteTo(df, lo), fhi = hn::DemoteTo(df, hi);
    const auto normal = hn::And(hn::And(hn::Ge(lo, norm_lo), hn::Lt(hi, norm_hi)),
                                hn::Eq(hn::PromoteTo(dd, flo), hn::PromoteTo(dd, fhi)));
    const auto is_inf = hn::Gt(lo, over), is_zero = hn::Lt(hi, under);
    const auto settled = hn::Or(hn::Not(finite), hn::Or(normal, hn::Or(is_inf, is_zero)));
    if (!hn::AllTrue(dd, settled)) {
      detail::gamma_plain(s + i, d + i, lanes, g);
      continue;
    }
    // The accepted rounding (lo demotes to it again), inf or 0; |x| itself where it is 0, inf or
    // NaN (taken from the float lanes: a NaN keeps its bits, as in the plain loop). inf is not
    // demoted: EMU128's DemoteTo saturates it to FLT_MAX (Highway 1.0.3), so those lanes carry
    // -1 (every other value is >= 0) and become inf as floats.
    const auto v =
        hn::IfThenElse(is_inf, hn::Set(dd, -1.0), hn::IfThenElseZero(hn::Not(is_zero), lo));
    const auto vf32 = hn::DemoteTo(df, v);
    const auto r32 = hn::IfThenElse(hn::Lt(vf32, hn::Zero(df)), inf_f, vf32);
    const auto finite_f = hn::And(hn::Gt(af, hn::Zero(df)), hn::Lt(af, inf_f));
    const auto m = hn::IfThenElse(finite_f, r32, af);
    hn::StoreU(hn::CopySign(m, vf), df, d + i);
  }
  detail::gamma_plain(s + i, d + i, n - i, g);
  return true;
}
#endif

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(gamma_f32);
bool gamma_row(const float* s, float* d, int n, float g) {
  return HWY_DYNAMIC_DISPATCH(gamma_f32)(s, d, n, g);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool gamma_row(const float*, float*, int, float) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
