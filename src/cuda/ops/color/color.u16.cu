// Pointwise colour kernels for u16 sources, and gamma on u16 through its 65536-entry table in
// device memory (read through the read-only cache).
#include "src/cuda/ops/color/color_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_COLOR(std::uint16_t)

namespace {
struct GlobalLut16F {
  const std::uint16_t* __restrict__ lut;
  __device__ __forceinline__ void operator()(const std::uint16_t* s, std::uint16_t* d) const {
    d[0] = __ldg(lut + s[0]);
  }
};
}  // namespace

void launch_gamma_u16(const PointSrc& s, const DstArgs& d, const std::uint16_t* lut,
                      cudaStream_t st) {
  launch_point<std::uint16_t, std::uint16_t, 1, 1>("gamma", s, d, GlobalLut16F{lut}, st);
}

}  // namespace texcv::cuda::ops
