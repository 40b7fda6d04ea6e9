// The benchmark's copy floor (bench/copy_floor.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// Copies height rows of row_bytes from src to dst (device memory) with a 16-byte-per-thread
// kernel (cudaMemcpy2DAsync when rows or pitches are not multiples of 16 bytes).
cudaError_t bench_copy_kernel(const void* src, std::size_t spitch, void* dst, std::size_t dpitch,
                              std::size_t row_bytes, std::size_t height, cudaStream_t stream);
