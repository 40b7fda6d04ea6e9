// gamma's kernels on the per-pixel kernel shape (point.cuh): u16 through its 65536-entry table in
// device memory (read through the read-only cache); f32 as sign(in) * |in|^gamma through the
// double-precision pow rounded to float (within 1 ulp of the CPU's correctly rounded value;
// docs/ops/color.md). u8 uses lut_u8.cu's table kernel.
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

struct GammaF32F {
  float g;
  __device__ __forceinline__ void operator()(const float* s, float* d) const {
    const float m =
        static_cast<float>(pow(static_cast<double>(fabsf(s[0])), static_cast<double>(g)));
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
