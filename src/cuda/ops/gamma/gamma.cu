// gamma's kernels on the per-pixel kernel shape (point.cuh): u16 through its 65536-entry table in
// device memory (read through the read-only cache); f32 as sign(in) * |in|^gamma rounded to float
// (GammaF32F: within 1 ulp of the CPU's correctly rounded value, and the same value but where the
// exact one lies within 2^-36 of a float midpoint; docs/ops/color.md). u8 uses lut_u8.cu's table
// kernel.
#include "src/core/pow_accept.hpp"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/gamma/gamma_launch.hpp"
#include "src/cuda/ops/gamma/gamma_tables.hpp"

namespace texcv::cuda::ops {

namespace {

struct GlobalLut16F {
  const std::uint16_t* __restrict__ lut;
  __device__ __forceinline__ void operator()(const std::uint16_t* s, std::uint16_t* d) const {
    d[0] = __ldg(lut + s[0]);
  }
};

using detail::kPowExpLimit;

// src/core/pow_accept.hpp's test on r, an approximation of |x|^g within 2^-40 relative; where it
// cannot decide (about one element in 3,000, and subnormal results), double pow rounded to float,
// which is within 1 ulp of the CPU's powl.
__device__ __forceinline__ float pow_decide(double r, float ax, float g) {
  float out;
  if (detail::pow_accept(r, &out)) return out;
  return __double2float_rn(pow(static_cast<double>(ax), static_cast<double>(g)));
}

// r = exp(g log |x|) through CUDA's double log and exp (each within 1 ulp of double: r within
// about 2^-44 of |x|^g, relative, for |g log |x|| <= 200), then pow_decide. Any g.
struct GammaF32F {
  float g;
  __device__ __forceinline__ void operator()(const float* s, float* d) const {
    const float ax = fabsf(s[0]);
    float m = ax;  // 0^g = 0, inf^g = inf, NaN stays NaN
    if (ax > 0.0f && !isinf(ax)) {
      const double y = fmin(
          fmax(static_cast<double>(g) * log(static_cast<double>(ax)), -kPowExpLimit), kPowExpLimit);
      m = pow_decide(exp(y), ax, g);
    }
    d[0] = copysignf(m, s[0]);
  }
};

// The tables of the fast path (gamma_tables.hpp, from gamma_tables.py): {1 / c_i, -log(1 /
// c_i)} for the 32 centres c_i of [1, 2), and 2^(j / 32).
__device__ const double2 kGammaLog[32] = TEXCV_GAMMA_LOG;
__device__ const double kGammaExp2[32] = TEXCV_GAMMA_EXP2;

// The same decision on r from table-driven log and exp in double, for 0 < g <= kGammaFastMaxG:
// about 30 double operations an element where CUDA's log and exp take several times that.
// - log |x| for a normal float x = 2^e m (m in [1, 2)): e ln 2 + t_i + log1p(r), r = m / c_i - 1
//   by one fma (|r| <= 2^-6; the series to r^9, truncated below 2^-60); ln 2 split in two so that
//   e ln2_hi is exact. The rounding errors sum to about 2^-52 |log x| + 2^-58 absolute.
// - y = g log |x| (|y| clamped at 200), then exp(y) = 2^(k / 32) exp(f), k = rint(32 y / ln 2),
//   f = y - k ln2 / 32 (two fma with a split ln 2 / 32; |f| <= 0.0109), exp(f) by its series to
//   f^6 (truncated below 2^-58).
// So r is within about 2^-50 + g 2^-58 of |x|^g, relative: far inside pow_decide's 2^-36 for
// g <= 64. Subnormal x (and g > 64, chosen on the host) take GammaF32F's way.
constexpr float kGammaFastMaxG = 64.0f;

struct GammaF32FastF {
  float g;
  __device__ __forceinline__ void operator()(const float* s, float* d) const {
    constexpr double kLn2Hi = 0x1.62e42fee00000p-1, kLn2Lo = 0x1.a39ef35793c76p-33;
    constexpr double k32OverLn2 = 0x1.71547652b82fep+5;
    const float ax = fabsf(s[0]);
    const unsigned bits = __float_as_uint(ax);
    float m = ax;                            // 0^g = 0, inf^g = inf, NaN stays NaN
    if (bits - 0x00800000u < 0x7F000000u) {  // a normal, finite x
      const unsigned mb = bits & 0x7FFFFFu;
      const double2 t = __ldg(&kGammaLog[mb >> 18]);
      const double mm = __hiloint2double(static_cast<int>(0x3FF00000u | (mb >> 3)),
                                         static_cast<int>(mb << 29));  // m, exactly
      const double r = fma(mm, t.x, -1.0);
      double p = fma(r, 1.0 / 9.0, -1.0 / 8.0);
      p = fma(r, p, 1.0 / 7.0);
      p = fma(r, p, -1.0 / 6.0);
      p = fma(r, p, 1.0 / 5.0);
      p = fma(r, p, -1.0 / 4.0);
      p = fma(r, p, 1.0 / 3.0);
      p = fma(r, p, -0.5);
      p = fma(r, p, 1.0);
      p *= r;  // log1p(r)
      // e = biased exponent - 127 as a double by one addition (2^52 + b - (2^52 + 127)), not a
      // conversion (conversions run at a quarter of the double rate or less).
      const double ed =
          __hiloint2double(0x43300000, static_cast<int>(bits >> 23)) - 0x1.000000000007fp52;
      const double lg = fma(ed, kLn2Hi, t.y) + fma(ed, kLn2Lo, p);
      const double y = fmin(fmax(static_cast<double>(g) * lg, -kPowExpLimit), kPowExpLimit);
      // k = rint(32 y / ln 2) by adding 1.5 * 2^52 (the integer in the low bits), no conversion.
      const double kt = fma(y, k32OverLn2, 0x1.8p52);
      const int k = __double2loint(kt);
      const double kd = kt - 0x1.8p52;
      double f = fma(-kd, kLn2Hi / 32.0, y);
      f = fma(-kd, kLn2Lo / 32.0, f);
      double q = fma(f, 1.0 / 720.0, 1.0 / 120.0);
      q = fma(f, q, 1.0 / 24.0);
      q = fma(f, q, 1.0 / 6.0);
      q = fma(f, q, 0.5);
      q = fma(f, q, 1.0);
      q = fma(f, q, 1.0);                                                   // exp(f)
      const double scale = __hiloint2double((((k >> 5) + 1023) << 20), 0);  // 2^(k >> 5)
      m = pow_decide(q * __ldg(&kGammaExp2[k & 31]) * scale, ax, g);
    } else if (bits != 0u && bits < 0x00800000u) {  // subnormal
      GammaF32F{g}(s, d);
      return;
    }
    d[0] = copysignf(m, s[0]);
  }
};

}  // namespace

void launch_gamma_u16(const PointSrc& s, const DstArgs& d, const std::uint16_t* lut,
                      cudaStream_t st) {
  launch_point<std::uint16_t, std::uint16_t, 1, 1>("gamma", s, d, GlobalLut16F{lut}, st);
}

void launch_gamma_f32(const PointSrc& s, const DstArgs& d, float g, cudaStream_t st) {
  if (g <= kGammaFastMaxG)
    launch_point<float, float, 1, 1>("gamma", s, d, GammaF32FastF{g}, st);
  else
    launch_point<float, float, 1, 1>("gamma", s, d, GammaF32F{g}, st);
}

}  // namespace texcv::cuda::ops
