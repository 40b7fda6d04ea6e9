// The warps' launch constants and path choices, measured per GPU architecture, apart from the
// kernels (warp_kernels.cuh reads them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H200), docs/performance.md.
struct WarpSm90 {
  // Output rows a thread of the gather kernels (warps, remap): several independent pixels a
  // thread keep more loads in flight; fewer for cubic (16 taps a pixel) and 4-pixel threads.
  static constexpr int gather_rows(bool cubic, int pixels_per_thread) {
    return cubic ? 2 : (pixels_per_thread >= 4 ? 2 : 4);
  }
  // Bytes of shared memory a block of the staged warp may use (8 blocks of 256 threads fit an
  // SM's 228 KB).
  static constexpr int kStageBytes = 20480;
  // Whether the affine cubic warp stages its source footprint in shared memory: it wins where the
  // 16 cubic taps of 1-byte elements cost the L1 most (u8 x1 rotate cubic 16384^2: 2.24 against
  // 3.24 ms; u8 x4 4096^2: 0.317 against 0.394 ms) and loses for linear (u8 x1 rotate 0.93
  // against 0.91 ms, f32 0.35 against 0.25 ms: the bounding box reads 2-3x the footprint from
  // L2) and f32 cubic (0.674 against 0.645 ms). Perspective and u16 / 3 channels were not
  // measured: plain loads.
  static constexpr bool staged_cubic(int elem_bytes, int channels) {
    return elem_bytes == 1 && channels != 3;
  }
};

using Warp = WarpSm90;

static_assert(Warp::kStageBytes * 8 <= 228 * 1024, "8 staged blocks fit an SM");

}  // namespace texcv::cuda::ops::tuning
