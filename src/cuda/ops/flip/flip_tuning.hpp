// flip's launch constants per GPU architecture, apart from the kernels (flip_kernels.cuh reads
// them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H100/H200): the value the kernels had inline before this header.
struct FlipSm90 {
  // Bytes a thread moves per row segment: 16 (one 128-bit load and store); 3-channel images
  // move 16 / sizeof(T) whole pixels (3 x 16 bytes) so that a segment holds whole pixels.
  static constexpr int kBytesPerThread = 16;
};

using Flip = FlipSm90;

static_assert(Flip::kBytesPerThread % 4 == 0 && Flip::kBytesPerThread <= 16,
              "whole f32 elements, at most one 128-bit access");

}  // namespace texcv::cuda::ops::tuning
