// bilateral_filter's launch constants and path choice, per GPU architecture, apart from the kernels
// (bilateral_filter_kernels.cuh reads them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H100 / H200), docs/performance.md.
struct BilateralSm90 {
  // The tiled kernel: each thread filters kTilePx pixels along x (kBlockX apart) and kTileRows rows
  // (kBlockY apart) from the block's source tile in shared memory. A first choice, not swept yet.
  static constexpr int kTilePx = 4;
  static constexpr int kTileRows = 2;
  // The most shared memory the tiled kernel may take (colour table, disc, tile); a larger disc or
  // table runs the disc kernel, which reads the source through the L1 cache.
  static constexpr int kTileMaxSharedBytes = 160 * 1024;
};

using Bilateral = BilateralSm90;

static_assert(Bilateral::kTilePx >= 1 && Bilateral::kTileRows >= 1, "at least one pixel a thread");

}  // namespace texcv::cuda::ops::tuning
