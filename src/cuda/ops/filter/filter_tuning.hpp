// The linear filters' launch constants, measured per GPU architecture, apart from the kernels
// (filter_kernels.cuh reads them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90); another
// architecture adds its struct, measured the same way (bench/), and its selection here.
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H200), docs/performance.md.
struct FilterSm90 {
  // Output rows a thread of the 2-D vector strip kernel: f32 3x3 2 rows 0.145 ms, 1 row 0.155,
  // 4 rows 0.150, 8 rows 0.171; u8 with 16 pixels: 2 rows 0.073 ms.
  static constexpr int kVecRows = 2;
  // Output rows a thread of the u8 dp4a kernel (16 pixels a thread; taps m * 2^-e). A first
  // choice, not swept yet.
  static constexpr int kDp4aRows = 2;
  // Rows a thread of the separable vector kernel for NB taps: enough rows to amortize the row
  // pass (recomputed for the S + NB - 1 window rows of S outputs).
  static constexpr int sep_rows(int nb) { return nb <= 3 ? 2 : nb <= 9 ? 4 : 8; }
  // The most accumulators a thread of the separable vector kernel holds.
  static constexpr int kSepAccumulators = 64;
  // Output rows a block of the 4-channel u8/u16 13/17-tap shared-tile kernel (32 or 64; H100,
  // u8x4 8192^2 gaussian sigma 2, 13 taps: 64 rows 1.159 ms, 32 rows 1.260).
  static constexpr int kSepTileRows = 64;
};

using Filter = FilterSm90;

static_assert(Filter::kVecRows >= 1 && Filter::kVecRows <= 8, "rows a thread");
static_assert(Filter::sep_rows(31) * 4 <= Filter::kSepAccumulators, "accumulators a thread");

}  // namespace texcv::cuda::ops::tuning
