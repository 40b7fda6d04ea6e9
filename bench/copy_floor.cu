// The memory floor for the benchmark: a device-to-device copy of an image with 16-byte loads and
// stores (what a well-written memory-bound kernel can reach), next to cudaMemcpy2DAsync.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "bench/copy_floor.hpp"

namespace {

// Rows of `row_bytes` bytes; each thread moves 16-byte chunks, grid-stride over the image.
__global__ void copy_rows_16(const unsigned char* __restrict__ src, std::size_t spitch,
                             unsigned char* __restrict__ dst, std::size_t dpitch,
                             std::size_t chunks_per_row, std::size_t total_chunks) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < total_chunks; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t y = i / chunks_per_row;
    const std::size_t x = (i - y * chunks_per_row) * 16;
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(src + y * spitch + x));
    *reinterpret_cast<uint4*>(dst + y * dpitch + x) = v;
  }
}

}  // namespace

cudaError_t bench_copy_kernel(const void* src, std::size_t spitch, void* dst, std::size_t dpitch,
                              std::size_t row_bytes, std::size_t height, cudaStream_t stream) {
  if (row_bytes % 16 != 0 || spitch % 16 != 0 || dpitch % 16 != 0) {
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, row_bytes, height, cudaMemcpyDeviceToDevice,
                             stream);
  }
  const std::size_t chunks_per_row = row_bytes / 16;
  const std::size_t total = chunks_per_row * height;
  int device = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) return err;
  const int threads = 256;
  const std::size_t want = (total + threads - 1) / threads;
  const std::size_t cap = static_cast<std::size_t>(sms) * 16;
  const unsigned blocks = static_cast<unsigned>(want < cap ? want : cap);
  copy_rows_16<<<blocks, threads, 0, stream>>>(static_cast<const unsigned char*>(src), spitch,
                                               static_cast<unsigned char*>(dst), dpitch,
                                               chunks_per_row, total);
  return cudaGetLastError();
}
