// Helpers shared by the CUDA tests of erode, dilate and morphology (test_erode_cuda.cpp,
// test_morphology_cuda.cpp). Those tests compare the CUDA backend with the CPU backend:
// IDENTICAL results
// (byte for byte, NaN bit patterns aside) for erode and dilate over every element type (u8, u16,
// f32), channel count (1, 3, 4), element shape (rect, ellipse, cross), several sizes (1x1 to 15x15)
// and anchors, the five borders (constant both with its never-winning default and with an explicit
// value), and 1 to 3 iterations; for every morphology operation; for f32 data holding NaN,
// infinities and signed zeros (the comparison order matters there); and for large enlarged
// rectangles. Each case runs on whole device images and on offset sub-views as source and
// destination; device outputs are poisoned first, and the frame around a sub-view destination must
// stay poisoned. min/max involve no rounding, so no tolerance is needed. Also: device views are
// accepted (no Unsupported), the validation messages are those of host views, work on a non-default
// stream, and a failing call leaves its destination untouched.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>
#endif

namespace texcv::morphology_cuda_test {

inline constexpr int kW = 67, kH = 41;

using test::expect_error;
using test::is_poison;

using Op = std::function<void(const ImageView& src, const ImageView& dst, void* stream)>;

// Elements of two host views of the same shape that differ in their bytes (so signed zeros
// count), except that any two f32 NaNs are equal: min/max copy NaNs through unchanged, but a NaN
// that the subtraction of gradient/tophat/blackhat creates (inf - inf) has the processor's
// default bit pattern, which differs between x86 (0xffc00000) and the GPU (0x7fffffff).
inline long differing_elements(const ImageView& a, const ImageView& b) {
  long n = 0;
  const std::size_t es = elem_size(a.type), count = a.row_bytes() / es;
  for (int y = 0; y < a.height; ++y) {
    const auto* pa = a.row<const unsigned char>(y);
    const auto* pb = b.row<const unsigned char>(y);
    for (std::size_t k = 0; k < count; ++k) {
      if (std::memcmp(pa + k * es, pb + k * es, es) == 0) continue;
      if (a.type == ElemType::f32) {
        float fa, fb;
        std::memcpy(&fa, pa + k * es, 4);
        std::memcpy(&fb, pb + k * es, 4);
        if (std::isnan(fa) && std::isnan(fb)) continue;
      }
      ++n;
    }
  }
  return n;
}

// A source on the host and on the device in two layouts, with poisoned device destinations.
struct Rig {
  Image host;
  // Layout 0: whole images. Layout 1: the source at (3, 1) of a larger device image, the
  // destination at (1, 1) of a larger one (its pitch then also differs from the source's).
  Image dsrc[2], dout[2];
  ImageView src_view[2], dst_view[2];
  static constexpr int kFrame[2] = {0, 1};

  explicit Rig(Image h) : host(std::move(h)) {
    const int ch = host.channels();
    for (int layout : {0, 1}) {
      const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = kFrame[layout];
      dsrc[layout] = Image(kW + 2 * sx, kH + 2 * sy, ch, host.type(), Location::device);
      src_view[layout] = dsrc[layout].view().roi({sx, sy, kW, kH});
      texcv::copy(host, src_view[layout]);
      dout[layout] = Image(kW + 2 * f + 1, kH + 2 * f, ch, host.type(), Location::device);
      dst_view[layout] = dout[layout].view().roi({f, f, kW, kH});
    }
  }

  // Runs op on the CPU and on the GPU in both layouts (on stream); the results must be identical.
  void expect_same(const std::string& what, const Op& op, void* stream = nullptr) {
    const int ch = host.channels();
    Image want(kW, kH, ch, host.type());
    op(host, want, nullptr);
    for (int layout : {0, 1}) {
      SCOPED_TRACE(what + (layout ? " (offset sub-views)" : " (whole images)"));
      test::poison(dout[layout]);
      op(src_view[layout], dst_view[layout], stream);
#if defined(TEXCV_HAS_CUDA)
      if (stream) {
        ASSERT_EQ(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), cudaSuccess);
      }
#endif
      const Image all = test::to_host(dout[layout]);
      const int f = kFrame[layout];
      const ImageView got = all.view().roi({f, f, kW, kH});
      const long bytes = differing_elements(got, want);
      const test::Diff d = test::compare(got, want);
      EXPECT_EQ(bytes, 0) << "elements not byte-identical; " << d.describe();
      EXPECT_EQ(d.count, 0) << d.describe();
      EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
      const long outside = test::written_outside(all.view(), {f, f, kW, kH});
      EXPECT_EQ(outside, 0) << "elements written outside the destination";
    }
  }
};

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
inline Image source(ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(kW, kH, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

inline const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline const int kChannels[] = {1, 3, 4};

inline const MorphShape kShapes[] = {MorphShape::rect, MorphShape::ellipse, MorphShape::cross};

// The five borders, constant twice: index 0 with the never-winning default, 1 with a value.
inline constexpr int kBorderCases = 6;

inline MorphBorder border_case(int i) {
  MorphBorder b;
  static const Border modes[] = {Border::constant, Border::constant,   Border::replicate,
                                 Border::reflect,  Border::reflect101, Border::wrap};
  b.border = modes[i];
  if (i == 1) b.value = std::array<double, 4>{11.0, 250.0, 0.25, 130.0};
  return b;
}

inline std::string border_name(int i) {
  return i == 0   ? "constant (default)"
         : i == 1 ? "constant (value)"
                  : to_string(border_case(i).border);
}

struct Size {
  int kw, kh;
};

inline const Size kSizes[] = {{1, 1}, {3, 3}, {5, 3}, {7, 7}, {15, 15}};

// Anchors of a kw x kh element: the centre, the top-left corner and the bottom-right corner.
inline std::vector<std::pair<int, int>> anchors(int kw, int kh) {
  if (kw == 1 && kh == 1) return {{-1, -1}};
  return {{-1, -1}, {0, 0}, {kw - 1, kh - 1}};
}

inline std::string case_name(const MorphParams& p) {
  return std::string(to_string(p.shape)) + " " + std::to_string(p.ksize_x) + "x" +
         std::to_string(p.ksize_y) + " anchor (" + std::to_string(p.anchor_x) + ", " +
         std::to_string(p.anchor_y) + ") iterations " + std::to_string(p.iterations);
}

inline const MorphOp kOps[] = {MorphOp::erode,    MorphOp::dilate, MorphOp::open,    MorphOp::close,
                               MorphOp::gradient, MorphOp::tophat, MorphOp::blackhat};

}  // namespace texcv::morphology_cuda_test
