// gamma's kernels on the per-pixel kernel shape (point.cuh): u16 through its 65536-entry table in
// device memory (read through the read-only cache); f32 as sign(in) * |in|^gamma rounded to float
// (GammaF32F: within 1 ulp of the CPU's correctly rounded value, and the same value but where the
// exact one lies within 2^-36 of a float midpoint; docs/ops/color.md). u8 uses lut_u8.cu's table
// kernel.
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/gamma/gamma_launch.hpp"

namespace texcv::cuda::ops {

namespace {

struct GlobalLut16F {
  const std::uint16_t* __restrict__ lut;
  __device__ __forceinline__ void operator()(const std::uint16_t* s, std::uint16_t* d) const {
    d[0] = __ldg(lut + s[0]);
  }
};

// |x|^g rounded to float as the CPU's pow_rounded (src/cpu/pow_rounded.hpp) decides it: r =
// exp(g log |x|) in double (CUDA's log and exp, each within 1 ulp of double, so r is within about
// 2^-44 of the exact value, relative, for |g log |x|| <= 200); when r (1 -+ 2^-36) round to the
// same normal float, that is the exact value's nearest. Otherwise (about one element in 3,000,
// and subnormal results) double pow, rounded to float: within 1 ulp of the CPU's value. This costs
// a third of pow's instructions on every element (pow computes its log in extra precision).
struct GammaF32F {
  float g;
  __device__ __forceinline__ void operator()(const float* s, float* d) const {
    const float ax = fabsf(s[0]);
    float m = ax;  // 0^g = 0, inf^g = inf, NaN stays NaN
    if (ax > 0.0f && !isinf(ax)) {
      constexpr double kMargin = 0x1p-36, kLimit = 200.0;
      const double y =
          fmin(fmax(static_cast<double>(g) * log(static_cast<double>(ax)), -kLimit), kLimit);
      const double r = exp(y);
      const double lo = r * (1.0 - kMargin), hi = r * (1.0 + kMargin);
      const float a = __double2float_rn(lo), b = __double2float_rn(hi);
      if (lo > 0x1p128)
        m = INFINITY;
      else if (hi < 0x1p-150)
        m = 0.0f;
      else if (lo >= 0x1p-126 && hi < 0x1p127 && a == b)
        m = a;
      else
        m = __double2float_rn(pow(static_cast<double>(ax), static_cast<double>(g)));
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
  launch_point<float, float, 1, 1>("gamma", s, d, GammaF32F{g}, st);
}

}  // namespace texcv::cuda::ops
