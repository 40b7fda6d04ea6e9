// gamma on f32 (CPU): |x|^g rounded to the nearest float, the same value from the plain loop and
// from every SIMD target (simd_gamma.cpp's gamma_row).
//
// Each path first computes r = exp(g log |x|) in double (the plain loop with glibc's log and
// exp, the vectors with Highway's: each within 4 ulp of double, so r is within about 2^-42 of
// the exact value, relative, for |g log |x|| <= 200). When r (1 - kPowMargin) and r (1 +
// kPowMargin) round to the same normal float, that float is the exact value's nearest: the
// interval holds the exact value, and rounding is monotonic. Results certainly past FLT_MAX are
// inf, those certainly below half the smallest subnormal 0. Otherwise (about one element in
// 3,000: the exact value lies near the midpoint of two floats; and subnormal results), both paths
// take powl's value, rounded to float. So the result does not depend on which functions computed
// r, and every path gives the same bits.
#pragma once

#include <cmath>

namespace texcv::cpu::detail {

inline constexpr double kPowMargin = 0x1p-36;
inline constexpr double kPowExpLimit = 200.0;  // |g log |x|| clamped: e^200 is far past FLT_MAX

// The slow path: powl's value rounded to float.
inline float pow_rounded_slow(float ax, float g) {
  return static_cast<float>(std::pow(static_cast<long double>(ax), static_cast<long double>(g)));
}

// |x|^g for ax = |x| (>= 0, inf or NaN) and a finite g > 0, rounded to the nearest float.
inline float pow_rounded(float ax, float g) {
  if (!(ax > 0.0f) || std::isinf(ax)) return ax;  // 0^g = 0, inf^g = inf, NaN stays NaN
  double y = static_cast<double>(g) * std::log(static_cast<double>(ax));
  y = y < -kPowExpLimit ? -kPowExpLimit : (y > kPowExpLimit ? kPowExpLimit : y);
  const double r = std::exp(y);
  const double lo = r * (1.0 - kPowMargin), hi = r * (1.0 + kPowMargin);
  if (lo > 0x1p128) return INFINITY;
  if (hi < 0x1p-150) return 0.0f;
  if (lo >= 0x1p-126 && hi < 0x1p127) {
    const float a = static_cast<float>(lo), b = static_cast<float>(hi);
    if (a == b) return a;
  }
  return pow_rounded_slow(ax, g);
}

// gamma's plain loop: d[i] = copysign(pow_rounded(|s[i]|, g), s[i]) for i < n (also the vectors'
// tail and their fallback).
inline void gamma_plain(const float* s, float* d, int n, float g) {
  for (int i = 0; i < n; ++i) d[i] = std::copysign(pow_rounded(std::fabs(s[i]), g), s[i]);
}

}  // namespace texcv::cpu::detail
