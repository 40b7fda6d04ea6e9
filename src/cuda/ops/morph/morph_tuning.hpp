// Morphology's launch constants and path choice, per GPU architecture, apart from the kernels
// (morph.cpp and morph_kernels.cuh read them). Only sm_90 is built (CMAKE_CUDA_ARCHITECTURES 90).
#pragma once

namespace texcv::cuda::ops::tuning {

// sm_90 (H200), docs/performance.md.
struct MorphSm90 {
  // Largest rectangle side of the fused single-kernel path (f32, one channel); larger
  // rectangles run as a row pass and a column pass.
  static constexpr int kFusedRectMax = 15;
  // Output rows a thread of the fused rectangle kernel: registers hold rows x pixels x channels
  // partial results (only one channel is launched).
  static constexpr int rect_rows(int channels) { return channels == 1 ? 8 : 2; }
  // The u8 one-channel rectangle kernel on 32-bit words (4 pixels a thread, byte-wise min/max):
  // the widest rectangle it takes (taps of the row pass, from the iterations' enlarged rectangle
  // too; wider ones run as a row pass and a column pass), and its output rows a thread. A first
  // choice (the f32 kernel's 8 rows), not swept yet.
  static constexpr int kRectU8MaxTaps = 15;
  static constexpr int kRectU8Rows = 8;
  // Output rows a thread of the u8 sliding-window kernel (3x3 and 5x5, morph_rect_u8_slide_kernel):
  // its source rows are RS + KY - 1, each loaded once. Measured on an H100 (8192^2 3x3 erode,
  // caa69d4): 8 rows 0.0679 ms, 16 0.0744, 32 0.1481; TEXCV_MORPH_U8_ROWS=16 or 32 runs the others.
  static constexpr int kRectU8SlideRows = 8;
  // f32's sliding-window kernel (3x3 and 5x5 anchored at the centre, 4 pixels a thread): output
  // rows a thread. A first choice, not swept (0.2037 ms for an 8192^2 3x3 erode on an H100).
  static constexpr int kRectF32SlideRows = 16;
  // Source rows the sliding-window kernels' threads load ahead of the row they fold (each a
  // 16-byte load in flight).
  static constexpr int kRectSlidePrefetch = 3;
};

using Morph = MorphSm90;

static_assert(Morph::kFusedRectMax % 2 == 1, "an odd side");
static_assert(Morph::kRectU8MaxTaps >= 1 && Morph::kRectU8Rows >= 1 &&
                  Morph::kRectU8SlideRows >= 1 && Morph::kRectF32SlideRows >= 1 &&
                  Morph::kRectSlidePrefetch >= 1,
              "at least one tap and row");

}  // namespace texcv::cuda::ops::tuning
