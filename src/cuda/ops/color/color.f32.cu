// Pointwise colour kernels for f32 sources, and gamma on f32: sign(in) * |in|^gamma through the
// double-precision pow rounded to float (within 1 ulp of the CPU's correctly rounded value;
// docs/ops/color.md).
#include "src/cuda/ops/color/color_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_COLOR(float)

namespace {
struct GammaF32F {
  float g;
  __device__ __forceinline__ void operator()(const float* s, float* d) const {
    const float m =
        static_cast<float>(pow(static_cast<double>(fabsf(s[0])), static_cast<double>(g)));
    d[0] = copysignf(m, s[0]);
  }
};
}  // namespace

void launch_gamma_f32(const PointSrc& s, const DstArgs& d, float g, cudaStream_t st) {
  launch_point<float, float, 1, 1>("gamma", s, d, GammaF32F{g}, st);
}

}  // namespace texcv::cuda::ops
