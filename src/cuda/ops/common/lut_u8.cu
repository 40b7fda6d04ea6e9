// dst = lut[src] on u8 elements, the table copied to shared memory from the kernel's arguments
// (gamma's u8 path) or from device memory (equalize_hist's table, made on the GPU).
#include "src/cuda/ops/common/point.cuh"

namespace texcv::cuda::ops {

namespace {

struct SharedLutF {
  const std::uint8_t* lut;
  __device__ __forceinline__ void operator()(const std::uint8_t* s, std::uint8_t* d) const {
    d[0] = lut[s[0]];
  }
};

constexpr int kLutPx = kPointPx<std::uint8_t, 1, 1>;

__global__ void __launch_bounds__(kBlockX* kBlockY)
    lut_u8_kernel(const PointSrc s, const DstArgs d, const Lut8 lut) {
  __shared__ std::uint8_t t[256];
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  for (int i = tid; i < 256; i += kBlockX * kBlockY) t[i] = lut.v[i];
  __syncthreads();
  point_body<std::uint8_t, std::uint8_t, 1, 1, kLutPx>(s, d, SharedLutF{t});
}

// The table in device memory (equalize_hist's, made on the GPU).
__global__ void __launch_bounds__(kBlockX* kBlockY)
    lut_u8_device_kernel(const PointSrc s, const DstArgs d, const std::uint8_t* __restrict__ lut) {
  __shared__ std::uint8_t t[256];
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  for (int i = tid; i < 256; i += kBlockX * kBlockY) t[i] = lut[i];
  __syncthreads();
  point_body<std::uint8_t, std::uint8_t, 1, 1, kLutPx>(s, d, SharedLutF{t});
}

}  // namespace

void launch_lut_u8_device(const char* op, const PointSrc& s, const DstArgs& d,
                          const std::uint8_t* lut, cudaStream_t st) {
  lut_u8_device_kernel<<<grid_for(d.width, d.height, kLutPx), dim3(kBlockX, kBlockY), 0, st>>>(s, d,
                                                                                               lut);
  TEXCV_CUDA_CHECK_LAUNCH(op);
}

void launch_lut_u8(const char* op, const PointSrc& s, const DstArgs& d, const Lut8& lut,
                   cudaStream_t st) {
  lut_u8_kernel<<<grid_for(d.width, d.height, kLutPx), dim3(kBlockX, kBlockY), 0, st>>>(s, d, lut);
  TEXCV_CUDA_CHECK_LAUNCH(op);
}

}  // namespace texcv::cuda::ops
