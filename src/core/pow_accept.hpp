// gamma on f32: the one test that decides |x|^g, rounded to the nearest float, from r, an
// approximation of it within 2^-40 relative (|g log |x|| clamped to kPowExpLimit). Used by the
// CPU's plain loop (src/cpu/pow_rounded.hpp) and the CUDA kernel (src/cuda/ops/gamma/gamma.cu);
// the CPU's vectors (src/cpu/simd_gamma.cpp) make the same test lane by lane.
//
// When r (1 - kPowMargin) and r (1 + kPowMargin) round to the same normal float, that float is
// the exact value's nearest: the interval holds the exact value, and rounding is monotonic.
// Results certainly past FLT_MAX are inf, those certainly below half the smallest subnormal 0.
// Otherwise (about one element in 3,000: the exact value lies near the midpoint of two floats;
// and subnormal results) the caller's slow path decides.
#pragma once

#include <cmath>

#include "src/core/sampling.hpp"  // TEXCV_HD

namespace texcv::detail {

inline constexpr double kPowMargin = 0x1p-36;
inline constexpr double kPowExpLimit = 200.0;  // e^200 is far past FLT_MAX

// Sets *out and returns true where r decides the result; false: the slow path's turn.
TEXCV_HD bool pow_accept(double r, float* out) {
  const double lo = r * (1.0 - kPowMargin), hi = r * (1.0 + kPowMargin);
  if (lo > 0x1p128) {
    *out = INFINITY;
    return true;
  }
  if (hi < 0x1p-150) {
    *out = 0.0f;
    return true;
  }
  if (lo >= 0x1p-126 && hi < 0x1p127) {
    const float a = static_cast<float>(lo), b = static_cast<float>(hi);
    if (a == b) {
      *out = a;
      return true;
    }
  }
  return false;
}

}  // namespace texcv::detail
