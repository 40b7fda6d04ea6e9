// The u8 store of the CUDA dp4a filter kernel (src/cuda/ops/filter/filter_kernels.cuh) in integer
// arithmetic, where it gives the float store's bytes.
//
// The float kernels store a u8 as saturate(round_half_even(v * scale + delta)), v the float sum
// of the taps' products. With taps m * 2^-e (m integers) and a u8 source, v is exactly acc * 2^-e
// for the integer sum acc. When scale is 1 and either delta is 0, or e is 0 and delta an integer
// (|delta| <= 2^22), v * scale + delta is also exact in float (|acc| < 2^20), so the stored byte
// is clamp(round_half_even(acc / 2^e) + delta, 0, 255), which integers compute without the
// float conversions (quarter rate on the GPU). Other scales and deltas keep the float store.
#pragma once

#include <cmath>

#include "src/core/sampling.hpp"  // TEXCV_HD

namespace texcv::detail {

// round_half_even(acc / 2^shift) + delta as (acc + bias + ((acc >> shift) & odd)) >> shift:
// for shift > 0, bias = 2^(shift - 1) - 1 and odd = 1 (a tie goes up only from an odd
// quotient); for shift 0, bias = delta and odd = 0.
struct DyadicIntStore {
  int shift = 0, bias = 0, odd = 0;
};

TEXCV_HD int dyadic_int_round(int acc, const DyadicIntStore& s) {
  return (acc + s.bias + ((acc >> s.shift) & s.odd)) >> s.shift;
}

// Whether the float store of sums acc * 2^-e, * scale + delta, equals the integer one; if so,
// its constants in out.
inline bool dyadic_int_store(int e, float scale, float delta, DyadicIntStore& out) {
  if (scale != 1.0f || e < 0 || e > 24) return false;
  if (delta == 0.0f) {
    out.shift = e;
    out.bias = e == 0 ? 0 : (1 << (e - 1)) - 1;
    out.odd = e == 0 ? 0 : 1;
    return true;
  }
  if (e == 0 && std::fabs(delta) <= 4194304.0f && delta == std::nearbyint(delta)) {
    out.shift = 0;
    out.bias = static_cast<int>(delta);
    out.odd = 0;
    return true;
  }
  return false;
}

}  // namespace texcv::detail
