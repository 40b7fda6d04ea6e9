// Pointwise colour kernels for u8 sources, and gamma on u8 through its table in shared memory.
#include "src/cuda/ops/color/color_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_COLOR(std::uint8_t)

namespace {

struct SharedLut8F {
  const std::uint8_t* lut;
  __device__ __forceinline__ void operator()(const std::uint8_t* s, std::uint8_t* d) const {
    d[0] = lut[s[0]];
  }
};

constexpr int kGammaPx = kPointPx<std::uint8_t, 1, 1>;

__global__ void __launch_bounds__(kBlockX* kBlockY)
    gamma_u8_kernel(const PointSrc s, const DstArgs d, const GammaLut8 lut) {
  __shared__ std::uint8_t t[256];
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  for (int i = tid; i < 256; i += kBlockX * kBlockY) t[i] = lut.v[i];
  __syncthreads();
  point_body<std::uint8_t, std::uint8_t, 1, 1, kGammaPx>(s, d, SharedLut8F{t});
}

}  // namespace

void launch_gamma_u8(const PointSrc& s, const DstArgs& d, const GammaLut8& lut, cudaStream_t st) {
  gamma_u8_kernel<<<grid_for(d.width, d.height, kGammaPx), dim3(kBlockX, kBlockY), 0, st>>>(s, d,
                                                                                            lut);
  TEXCV_CUDA_CHECK_LAUNCH("gamma");
}

}  // namespace texcv::cuda::ops
