// Device-to-device 2-D copy with wide loads and stores (see copy_device.hpp): crop's copy on the
// device (through cuda::copy, src/cuda/cuda_backend.cpp).
#include <cstdint>

#include "src/cuda/ops/copy/copy_device.hpp"

namespace texcv::cuda::ops {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxGridY = 65535;

// Word: uint4 (16 bytes) or unsigned (4 bytes). Rows hold `words` words; grid-stride over rows.
template <typename Word>
__global__ void copy_rows(const unsigned char* __restrict__ src, std::size_t src_pitch,
                          unsigned char* __restrict__ dst, std::size_t dst_pitch, unsigned words,
                          unsigned height) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= words) return;
  for (unsigned y = blockIdx.y; y < height; y += gridDim.y) {
    const Word v = __ldg(reinterpret_cast<const Word*>(src + y * src_pitch) + x);
    reinterpret_cast<Word*>(dst + y * dst_pitch)[x] = v;
  }
}

bool aligned(const void* p, std::size_t a) {
  return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

template <typename Word>
cudaError_t launch(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch,
                   std::size_t row_bytes, std::size_t height, cudaStream_t stream) {
  const auto words = static_cast<unsigned>(row_bytes / sizeof(Word));
  const dim3 grid((words + kThreads - 1) / kThreads,
                  static_cast<unsigned>(height < kMaxGridY ? height : kMaxGridY));
  copy_rows<Word><<<grid, kThreads, 0, stream>>>(static_cast<const unsigned char*>(src), src_pitch,
                                                 static_cast<unsigned char*>(dst), dst_pitch, words,
                                                 static_cast<unsigned>(height));
  return cudaGetLastError();
}

template <typename Word>
bool fits(const void* src, std::size_t src_pitch, const void* dst, std::size_t dst_pitch,
          std::size_t row_bytes) {
  constexpr std::size_t w = sizeof(Word);
  return aligned(src, w) && aligned(dst, w) && src_pitch % w == 0 && dst_pitch % w == 0 &&
         row_bytes % w == 0;
}

}  // namespace

cudaError_t copy_device_2d(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch,
                           std::size_t row_bytes, std::size_t height, cudaStream_t stream) {
  // 32-bit row and word counts keep the kernel's index arithmetic short.
  const bool small = height <= 0xffffffffu && row_bytes / 4 <= 0xffffffffu;
  if (small && fits<uint4>(src, src_pitch, dst, dst_pitch, row_bytes))
    return launch<uint4>(src, src_pitch, dst, dst_pitch, row_bytes, height, stream);
  if (small && fits<unsigned>(src, src_pitch, dst, dst_pitch, row_bytes))
    return launch<unsigned>(src, src_pitch, dst, dst_pitch, row_bytes, height, stream);
  return cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, height,
                           cudaMemcpyDeviceToDevice, stream);
}

}  // namespace texcv::cuda::ops
