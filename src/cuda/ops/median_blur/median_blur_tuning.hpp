// median_blur's launch constants per GPU architecture, apart from the kernels
// (median_blur_kernels.cuh reads them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H200), docs/performance.md.
struct MedianSm90 {
  // Output rows a thread of the sorting-network kernel (its shared tile is kBlockY times as many
  // rows, plus the window's halo).
  static constexpr int kRowsPerThread = 4;
};

using Median = MedianSm90;

static_assert(Median::kRowsPerThread >= 1, "rows a thread");

}  // namespace texcv::cuda::ops::tuning
