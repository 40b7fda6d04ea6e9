// The arguments of the per-pixel ops' kernels (point.cuh): a source as its first byte and pitch
// (host_common.hpp's point_src), and a 256-entry u8 table passed by value with its kernel
// (gamma) or in device memory (equalize_hist).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

struct PointSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
};

// A u8 table, passed to a kernel by value (copied to shared memory there).
struct Lut8 {
  std::uint8_t v[256];
};

// dst = lut[src] on u8 elements (d.width counts elements); op names errors (lut_u8.cu).
void launch_lut_u8(const char* op, const PointSrc& s, const DstArgs& d, const Lut8& lut,
                   cudaStream_t st);
// The same with the table in device memory (256 bytes, written before on the stream).
void launch_lut_u8_device(const char* op, const PointSrc& s, const DstArgs& d,
                          const std::uint8_t* lut, cudaStream_t st);

}  // namespace texcv::cuda::ops
