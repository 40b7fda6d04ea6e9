// Launchers of the morphology kernels (plain global loads), one explicit instantiation per element
// type (morph.<type>.cu). Host code (morph.cpp) calls them. Parameters travel by value in the
// argument structs. The comparisons and their order are those of the CPU backend
// (src/cpu/morph.cpp), so the results are identical, NaN and signed zeros included.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/cuda/ops/common/kernel_args.hpp"
#include "texcv/geometry.hpp"
#include "texcv/morphology.hpp"

namespace texcv::cuda::ops {

// A pitched device image read by a morphology kernel (the source or the row-pass temporary).
// A 4-channel u8 pixel as one 32-bit word: the fused rectangle kernel (launch_morph_rect) runs on
// these as one-channel elements, min and max taken per byte (morph_kernels.cuh).
struct U8x4Word {
  unsigned v;
};

struct MorphSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;  // pixels (elements for the subtraction)
};

// One axis of a rectangle (all ones): dst = min/max over taps 0..n-1 of src(x + i - anchor)
// (rows) or src(y + j - anchor) (columns), the first tap first. Outside the image: border; with
// Border::constant the value bv (already the element type's value, or its never-winning extreme).
struct MorphAxisArgs {
  int n = 1, anchor = 0;
  Border border = Border::constant;
  float bv[4] = {0, 0, 0, 0};
};

// A general element given as at most one run of ones per row: row j covers columns
// [start[j], end[j]) (empty when start == end). Rect, ellipse and cross elements are of this kind.
struct MorphMaskArgs {
  int kw = 1, kh = 1, ax = 0, ay = 0;
  Border border = Border::constant;
  float bv[4] = {0, 0, 0, 0};
  std::uint8_t start[kMaxMorphKernel] = {};
  std::uint8_t end[kMaxMorphKernel] = {};
};

// Row pass (s -> d, same size), column pass, general element; max: dilate, else erode.
template <typename T>
void launch_morph_rows(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& a, cudaStream_t st);
template <typename T>
void launch_morph_cols(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& a, cudaStream_t st);
// A/B aids read once from the environment (morph.cpp): the u8 sliding-window kernel's output rows
// a thread (the tuning's, or 8 / 16 / 32 from TEXCV_MORPH_U8_ROWS; 0 with
// TEXCV_MORPH_U8_KERNEL=split, which keeps the split kernel), and whether f32's 3x3 and 5x5 stay on
// the fused kernel (TEXCV_MORPH_F32_KERNEL=fused).
int u8_slide_rows();
bool fused_f32_forced();
// A whole rectangle in one kernel (rows ax, columns ay), no temporary.
template <typename T>
void launch_morph_rect(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphAxisArgs& ax, const MorphAxisArgs& ay, cudaStream_t st);
// u8, one channel: a whole rectangle in one kernel on 32-bit words (4 pixels a thread), rows of
// at most tuning::Morph::kRectU8MaxTaps taps, the source's pitch a multiple of 4 (morph.u8.cu).
void launch_morph_rect_u8(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                          const MorphAxisArgs& ay, cudaStream_t st);
// u8, one channel, 3x3 and 5x5 on sliding windows of rows (morph_rect_u8_slide_kernel): the
// element's rows in full_rows (bit j: row j) take every tap, the others only the centre column;
// kernels for rectangles (every bit), centred ellipses and crosses (3x3: 0b010; 5x5: 0b01110 and
// 0b00100). False, launching nothing, where it has no kernel for the element or the layout (a
// source pitch of 16-byte steps and a first tap within 4 bytes of a 16-byte chunk), or with
// TEXCV_MORPH_U8_KERNEL=split.
// Whether the sliding-window kernels have a kernel for a k x k element (k 3 or 5) whose rows in
// full_rows are whole and the others the centre tap alone.
inline bool slide_element_fits(int k, unsigned full_rows) {
  if (k != 3 && k != 5) return false;
  return full_rows == (1u << k) - 1u || full_rows == (k == 3 ? 0b010u : 0b01110u) ||
         (k == 5 && full_rows == 0b00100u);
}
bool launch_morph_u8_slide(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                           const MorphAxisArgs& ay, unsigned full_rows, cudaStream_t st);
// f32, one channel, 3x3 and 5x5 anchored at the centre on sliding windows of rows
// (morph_rect_f32_slide_kernel, morph.f32.cu): full_rows as above (rectangles, centred ellipses
// and crosses). False, launching nothing, where it has no kernel for the element or the layout
// (a source at 16-byte steps), or with TEXCV_MORPH_F32_KERNEL=fused.
bool launch_morph_f32_slide(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                            const MorphAxisArgs& ay, unsigned full_rows, cudaStream_t st);
template <typename T>
void launch_morph_mask(const MorphSrc& s, const DstArgs& d, int channels, bool max,
                       const MorphMaskArgs& a, cudaStream_t st);
// d = a - b per element (saturated at 0 for integers); widths in elements.
template <typename T>
void launch_morph_subtract(const MorphSrc& a, const MorphSrc& b, const DstArgs& d, cudaStream_t st);

}  // namespace texcv::cuda::ops
