// gamma on f32 (CPU): |x|^g rounded to the nearest float, the same value from the plain loop and
// from every SIMD target (simd_gamma.cpp's gamma_row).
//
// Each path first computes r = exp(g log |x|) in double (the plain loop with glibc's log and
// exp, within 4 ulp of double, so r is within about 2^-42 of the exact value, relative, for
// |g log |x|| <= 200; the vectors with their own table-driven log2 and exp2, within about 2^-44
// for g <= 64, or Highway's Log and Exp above), then makes src/core/pow_accept.hpp's test;
// where it cannot decide, both paths take powl's value, rounded to float. So the result does not
// depend on which functions computed r, and every path gives the same bits.
#pragma once

#include <cmath>

#include "src/core/pow_accept.hpp"

namespace texcv::cpu::detail {

using texcv::detail::kPowExpLimit;
using texcv::detail::kPowMargin;

// The slow path: powl's value rounded to float.
inline float pow_rounded_slow(float ax, float g) {
  return static_cast<float>(std::pow(static_cast<long double>(ax), static_cast<long double>(g)));
}

// |x|^g for ax = |x| (>= 0, inf or NaN) and a finite g > 0, rounded to the nearest float.
inline float pow_rounded(float ax, float g) {
  if (!(ax > 0.0f) || std::isinf(ax)) return ax;  // 0^g = 0, inf^g = inf, NaN stays NaN
  double y = static_cast<double>(g) * std::log(static_cast<double>(ax));
  y = y < -kPowExpLimit ? -kPowExpLimit : (y > kPowExpLimit ? kPowExpLimit : y);
  float out;
  if (texcv::detail::pow_accept(std::exp(y), &out)) return out;
  return pow_rounded_slow(ax, g);
}

// gamma's plain loop: d[i] = copysign(pow_rounded(|s[i]|, g), s[i]) for i < n (also the vectors'
// tail and their fallback).
inline void gamma_plain(const float* s, float* d, int n, float g) {
  for (int i = 0; i < n; ++i) d[i] = std::copysign(pow_rounded(std::fabs(s[i]), g), s[i]);
}

}  // namespace texcv::cpu::detail
