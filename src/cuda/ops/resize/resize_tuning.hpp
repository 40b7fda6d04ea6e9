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
  // loaded, each once) and source rows loaded ahead of the one summed. A first choice.
  static constexpr int kHalfCubicRows = 8;
  // Source rows a thread of the exact double-size kernel (u8 and u16 linear; ResizeDoubleCall):
  // with 8, 2 of every 10 row sums are made twice.
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
