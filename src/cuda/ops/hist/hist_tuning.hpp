// The histogram family's launch constants per GPU architecture (min/max and mean/std
// reductions, clahe), apart from the kernels (hist_kernels.cuh reads them). Only sm_90 is built
// (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H100/H200): the values the kernels had inline before this header.
struct HistSm90 {
  // Threads of a reduction block (min_max, mean_std).
  static constexpr int kMaxReduceThreads = 256;
  // Threads of clahe's per-tile histogram block.
  static constexpr int kClaheHistThreads = 256;
  // Threads of clahe's per-tile table block: one bin each for u8 (256 bins), 64 bins each for
  // u16 (65,536 bins).
  static constexpr int kClaheLutThreadsU8 = 256;
  static constexpr int kClaheLutThreadsU16 = 1024;
};

using Hist = HistSm90;

static_assert(Hist::kMaxReduceThreads % 32 == 0 && Hist::kMaxReduceThreads <= 1024,
              "whole warps, a legal block");
static_assert(Hist::kClaheHistThreads % 32 == 0 && Hist::kClaheHistThreads <= 1024,
              "whole warps, a legal block");
static_assert(256 % Hist::kClaheLutThreadsU8 == 0 && 65536 % Hist::kClaheLutThreadsU16 == 0,
              "each thread owns the same number of bins");
static_assert(Hist::kClaheLutThreadsU8 <= 1024 && Hist::kClaheLutThreadsU16 <= 1024,
              "a legal block");

}  // namespace texcv::cuda::ops::tuning
