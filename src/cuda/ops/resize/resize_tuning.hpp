// resize's launch constants per GPU architecture, apart from the kernels (resize_kernels.cuh
// reads them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

#include <cstddef>

namespace texcv::cuda::ops::tuning {

// sm_90 (H100/H200): the values the kernels had inline before this header (their timings are
// in docs/performance.md's resize rows; no sweep of these two was recorded).
struct ResizeSm90 {
  // Output pixels a thread writes along a row: 4 for 1 channel, 2 for 4-channel u8, else 1 (a
  // thread's store stays within 16 bytes).
  template <typename T, int C>
  static constexpr int kPx = C == 1 ? 4 : (C == 4 && sizeof(T) == 1 ? 2 : 1);
  // Output rows a thread computes (reusing a source row's horizontal pass), halved while the
  // grid would have fewer than kMinBlocks blocks.
  static constexpr int kMaxRowsPerThread = 8;
  static constexpr long long kMinBlocks = 4096;
  // The half-size cubic kernel (ResizeHalfCubicCall): output rows a thread (2 RS + 2 source rows
  // loaded, each once) and source rows loaded ahead of the one summed. Measured on an H100
  // (7401164, 0.5 cubic): 4 rows f32 8192^2 0.1276 ms, u8 16384^2 0.2513, u8x4 4096^2 0.0726;
  // 8 rows 0.1509 / 0.2867 / 0.0818; 16 rows 0.2374 / 0.6164 / 0.1543.
  static constexpr int kHalfCubicRows = 4;
  // Source rows a thread of the exact double-size kernel (u8 and u16 linear; ResizeDoubleCall):
  // with 8, 2 of every 10 row sums are made twice. Measured on an H100 (7401164, 2.0 linear):
  // 8 rows u8 16384^2 0.6422 ms, u16 8192^2 0.2548, u8x4 0.1690; 4 rows 0.6882 / 0.2459 / 0.1790;
  // 16 rows 0.6350 / 0.2602 / 0.1690: no value better on every type.
  static constexpr int kDoubleRows = 8;
  static constexpr int kHalfCubicPrefetch = 2;
};

using Resize = ResizeSm90;

static_assert(Resize::kPx<unsigned char, 1> * 1 <= 16 && Resize::kPx<float, 1> * 4 <= 16,
              "a thread's store is at most 16 bytes");
static_assert(Resize::kMaxRowsPerThread >= 1 &&
                  (Resize::kMaxRowsPerThread & (Resize::kMaxRowsPerThread - 1)) == 0,
              "rows a thread: a power of two (halved down to 1)");

}  // namespace texcv::cuda::ops::tuning
