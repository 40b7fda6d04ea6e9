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

#ifndef TEXCV_SIMD_GAMMA_TABLES
#define TEXCV_SIMD_GAMMA_TABLES
namespace texcv::cpu::simd::gamma_tables {
// The tables of the table-driven log2 and exp2 below (filled once, in long double):
// log2 of m in [1, 2) is log2(m inv[i]) + neg_log2_inv[i], i the top 5 bits of m's fraction,
// inv[i] the double nearest 1 / (1 + (i + 0.5) / 32) (any value would do: neg_log2_inv is
// -log2 of the stored one), so |m inv[i] - 1| <= 1/64; exp2[j] = 2^(j / 32).
struct Tables {
  alignas(64) double inv[32];
  alignas(64) double neg_log2_inv[32];
  alignas(64) double exp2[32];
  Tables() {
    for (int i = 0; i < 32; ++i) {
      inv[i] = static_cast<double>(1.0L / (1.0L + (i + 0.5L) / 32.0L));
      neg_log2_inv[i] = static_cast<double>(-std::log2(static_cast<long double>(inv[i])));
      exp2[i] = static_cast<double>(std::exp2(static_cast<long double>(i) / 32.0L));
    }
  }
};
inline const Tables& tables() {
  static const Tables t;
  return t;
}
}  // namespace texcv::cpu::simd::gamma_tables
#endif

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// gamma on f32 (pow_rounded.hpp): per vector of double lanes, r = 2^(g log2 |x|) from the
// table-driven log2 and exp2 below (g > 64: exp(g log |x|) with Highway's Log and Exp), accepted
// where r (1 -+ kPowMargin) round to the same normal float (or
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
  // The table-driven log2 and exp2 (for |g| <= kTableMaxG): r = 2^(g log2 |x|) within about
  // 2^-43 relative, well inside kPowMargin (2^-36):
  // - log2 |x| = e + neg_log2_inv[i] + log2(1 + t), t = m inv[i] - 1 (|t| <= 1/64; |x| as a
  //   double is normal, so e and m come from its bits), log2(1 + t) by its Taylor series to
  //   t^7 (the rest is below 2^-50.5, absolute);
  // - y = g e + g (neg_log2_inv[i] + log2(1 + t)) (g e exact), clamped to +-300 (2^300 is far
  //   past FLT_MAX, 2^-300 far below its subnormals, and both are normal doubles);
  // - 2^y = 2^q exp2[j] 2^f, y = (32 q + j + f') / 32 with j = 0..31, f = f' / 32, |f| <= 1/64,
  //   2^f by its Taylor series to f^5 (the rest below 2^-48.7, relative).
  // The error of y is at most |g| 2^-50.5 + |y| 2^-52 plus a few ulp, so 2^-44 for |g| <= 64;
  // the rounding steps add a few 2^-53. Larger |g| take Highway's Log and Exp.
  constexpr float kTableMaxG = 64.0f;
  const bool tabled = g <= kTableMaxG;
  const hn::RebindToUnsigned<decltype(dd)> du;
  const hn::RebindToSigned<decltype(dd)> di;
  const gamma_tables::Tables& tab = gamma_tables::tables();
  const auto frac_mask = hn::Set(du, 0x000FFFFFFFFFFFFFull);
  const auto one_bits = hn::Set(du, 0x3FF0000000000000ull);
  const auto idx_mask = hn::Set(du, 31);
  const auto magic_bits = hn::Set(du, 0x4330000000000000ull);     // 2^52 as a double's bits
  const auto magic_e = hn::Set(dd, 4503599627370496.0 + 1023.0);  // 2^52 + the bias
  const auto shifter = hn::Set(dd, 0x1.8p52);  // y 32 + this: the nearest integer in the low bits
  const auto thirty_two = hn::Set(dd, 32.0);
  const auto inv32 = hn::Set(dd, 1.0 / 32.0);
  const auto lim2 = hn::Set(dd, 300.0);
  const auto neg_lim2 = hn::Set(dd, -300.0);
  const auto q_offset = hn::Set(du, (1ull << 46) - 1023);
  // log2(1 + t) = t (c1 + t (c2 + ... + t c7)), c_k = (-1)^(k+1) / (k ln 2).
  constexpr double kLn2 = 0.693147180559945309417232121458176568;
  const auto c1 = hn::Set(dd, 1.0 / kLn2), c2 = hn::Set(dd, -1.0 / (2 * kLn2));
  const auto c3 = hn::Set(dd, 1.0 / (3 * kLn2)), c4 = hn::Set(dd, -1.0 / (4 * kLn2));
  const auto c5 = hn::Set(dd, 1.0 / (5 * kLn2)), c6 = hn::Set(dd, -1.0 / (6 * kLn2));
  const auto c7 = hn::Set(dd, 1.0 / (7 * kLn2));
  // 2^f = 1 + f (e1 + f (e2 + ... + f e5)), e_k = ln2^k / k!.
  const auto e1 = hn::Set(dd, kLn2), e2 = hn::Set(dd, kLn2 * kLn2 / 2);
  const auto e3 = hn::Set(dd, kLn2 * kLn2 * kLn2 / 6);
  const auto e4 = hn::Set(dd, kLn2 * kLn2 * kLn2 * kLn2 / 24);
  const auto e5 = hn::Set(dd, kLn2 * kLn2 * kLn2 * kLn2 * kLn2 / 120);
  auto pow_tabled = [&](decltype(vg) x) {
    const auto bits = hn::BitCast(du, x);
    const auto ex = hn::ShiftRight<52>(bits);  // the biased exponent (x > 0)
    const auto ed = hn::Sub(hn::BitCast(dd, hn::Or(ex, magic_bits)), magic_e);  // e, exact
    const auto idx = hn::BitCast(di, hn::And(hn::ShiftRight<47>(bits), idx_mask));
    const auto m = hn::BitCast(dd, hn::Or(hn::And(bits, frac_mask), one_bits));
    const auto t = hn::MulAdd(m, hn::GatherIndex(dd, tab.inv, idx), hn::Set(dd, -1.0));
    auto p = hn::MulAdd(t, c7, c6);
    p = hn::MulAdd(t, p, c5);
    p = hn::MulAdd(t, p, c4);
    p = hn::MulAdd(t, p, c3);
    p = hn::MulAdd(t, p, c2);
    p = hn::MulAdd(t, p, c1);
    const auto l = hn::MulAdd(t, p, hn::GatherIndex(dd, tab.neg_log2_inv, idx));
    auto y = hn::MulAdd(vg, l, hn::Mul(vg, ed));
    y = hn::Min(hn::Max(y, neg_lim2), lim2);
    const auto s32 = hn::MulAdd(y, thirty_two, shifter);
    const auto k = hn::Sub(s32, shifter);  // round(32 y), exact
    const auto f = hn::NegMulAdd(k, inv32, y);
    // s32's 52 fraction bits hold k + 2^51, k = round(32 y) = 32 q + j (j = 0..31; 2^51 is
    // 32 2^46): j is their low 5 bits, q + 1023 (> 0) their rest minus 2^46 - 1023.
    const auto kb = hn::And(hn::BitCast(du, s32), frac_mask);
    const auto j = hn::BitCast(di, hn::And(kb, idx_mask));
    const auto qb = hn::Sub(hn::ShiftRight<5>(kb), q_offset);
    const auto scale = hn::BitCast(dd, hn::ShiftLeft<52>(qb));  // 2^q
    auto e = hn::MulAdd(f, e5, e4);
    e = hn::MulAdd(f, e, e3);
    e = hn::MulAdd(f, e, e2);
    e = hn::MulAdd(f, e, e1);
    e = hn::MulAdd(f, e, one);
    return hn::Mul(hn::Mul(hn::GatherIndex(dd, tab.exp2, j), scale), e);
  };
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto vf = hn::LoadU(df, s + i);
    const auto af = hn::Abs(vf);
    const auto ad = hn::PromoteTo(dd, af);
    // Lanes with a logarithm: 0 < |x| < inf (NaN fails both compares).
    const auto finite = hn::And(hn::Gt(ad, hn::Zero(dd)), hn::Lt(ad, inf_d));
    const auto x = hn::IfThenElse(finite, ad, one);
    const auto r = tabled
                       ? pow_tabled(x)
                       : hn::Exp(dd, hn::Min(hn::Max(hn::Mul(vg, hn::Log(dd, x)), lim_lo), lim_hi));
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
