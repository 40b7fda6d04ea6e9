// The reductions' launch constants per GPU architecture (min/max and mean/std), apart from the
// kernels (hist_kernels.cuh reads them). Only sm_90 is built
// (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H100/H200): the values the kernels had inline before this header.
struct HistSm90 {
  // Threads of a reduction block (min_max, mean_std).
  static constexpr int kMaxReduceThreads = 256;
};

using Hist = HistSm90;

static_assert(Hist::kMaxReduceThreads % 32 == 0 && Hist::kMaxReduceThreads <= 1024,
              "whole warps, a legal block");

}  // namespace texcv::cuda::ops::tuning
