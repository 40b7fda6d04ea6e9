// clahe's launch constants per GPU architecture, apart from its kernels (clahe_kernels.cuh reads
// them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H100/H200): the values the kernels had inline before the tuning headers.
struct ClaheSm90 {
  // Threads of the per-tile histogram block.
  static constexpr int kHistThreads = 256;
  // Threads of the per-tile table block: one bin each for u8 (256 bins), 64 bins each for u16
  // (65,536 bins).
  static constexpr int kLutThreadsU8 = 256;
  static constexpr int kLutThreadsU16 = 1024;
};

using Clahe = ClaheSm90;

static_assert(Clahe::kHistThreads % 32 == 0 && Clahe::kHistThreads <= 1024,
              "whole warps, a legal block");
static_assert(256 % Clahe::kLutThreadsU8 == 0 && 65536 % Clahe::kLutThreadsU16 == 0,
              "each thread owns the same number of bins");
static_assert(Clahe::kLutThreadsU8 <= 1024 && Clahe::kLutThreadsU16 <= 1024, "a legal block");

}  // namespace texcv::cuda::ops::tuning
