// The morphology operations on the CUDA backend against the CPU backend: IDENTICAL results
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
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>

#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv {
namespace {

constexpr int kW = 67, kH = 41;

using test::expect_error;
using test::is_poison;

using Op = std::function<void(const ImageView& src, const ImageView& dst, void* stream)>;

// Elements of two host views of the same shape that differ in their bytes (so signed zeros
// count), except that any two f32 NaNs are equal: min/max copy NaNs through unchanged, but a NaN
// that the subtraction of gradient/tophat/blackhat creates (inf - inf) has the processor's
// default bit pattern, which differs between x86 (0xffc00000) and the GPU (0x7fffffff).
long differing_elements(const ImageView& a, const ImageView& b) {
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
      long outside = 0;
      for (int y = 0; y < all.height(); ++y)
        for (int x = 0; x < all.width(); ++x) {
          if (x >= f && x < f + kW && y >= f && y < f + kH) continue;
          for (int k = 0; k < ch; ++k)
            if (!is_poison(all.view(), x, y, k)) ++outside;
        }
      EXPECT_EQ(outside, 0) << "elements written outside the destination";
    }
  }
};

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
Image source(ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(kW, kH, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
const int kChannels[] = {1, 3, 4};
const MorphShape kShapes[] = {MorphShape::rect, MorphShape::ellipse, MorphShape::cross};

// The five borders, constant twice: index 0 with the never-winning default, 1 with a value.
constexpr int kBorderCases = 6;
MorphBorder border_case(int i) {
  MorphBorder b;
  static const Border modes[] = {Border::constant, Border::constant,   Border::replicate,
                                 Border::reflect,  Border::reflect101, Border::wrap};
  b.border = modes[i];
  if (i == 1) b.value = std::array<double, 4>{11.0, 250.0, 0.25, 130.0};
  return b;
}
std::string border_name(int i) {
  return i == 0   ? "constant (default)"
         : i == 1 ? "constant (value)"
                  : to_string(border_case(i).border);
}

struct Size {
  int kw, kh;
};
const Size kSizes[] = {{1, 1}, {3, 3}, {5, 3}, {7, 7}, {15, 15}};

// Anchors of a kw x kh element: the centre, the top-left corner and the bottom-right corner.
std::vector<std::pair<int, int>> anchors(int kw, int kh) {
  if (kw == 1 && kh == 1) return {{-1, -1}};
  return {{-1, -1}, {0, 0}, {kw - 1, kh - 1}};
}

std::string case_name(const MorphParams& p) {
  return std::string(to_string(p.shape)) + " " + std::to_string(p.ksize_x) + "x" +
         std::to_string(p.ksize_y) + " anchor (" + std::to_string(p.anchor_x) + ", " +
         std::to_string(p.anchor_y) + ") iterations " + std::to_string(p.iterations);
}

// erode and dilate over shapes x sizes x anchors x borders x iterations for one element type.
void erode_dilate_matrix(ElemType t) {
  std::uint32_t seed = 2000 + static_cast<std::uint32_t>(t) * 100;
  for (int c : kChannels) {
    Rig rig(source(t, c, ++seed));
    for (int bi = 0; bi < kBorderCases; ++bi)
      for (MorphShape shape : kShapes)
        for (const Size& s : kSizes)
          for (const auto& [ax, ay] : anchors(s.kw, s.kh))
            for (int it : {1, 2, 3}) {
              MorphParams p;
              p.shape = shape;
              p.ksize_x = s.kw;
              p.ksize_y = s.kh;
              p.anchor_x = ax;
              p.anchor_y = ay;
              p.iterations = it;
              p.border = border_case(bi);
              const std::string name = std::string(to_string(t)) + " x" + std::to_string(c) + " " +
                                       border_name(bi) + " " + case_name(p);
              rig.expect_same("erode " + name, [&](const ImageView& a, const ImageView& b,
                                                   void* st) { erode(a, b, p, st); });
              rig.expect_same("dilate " + name, [&](const ImageView& a, const ImageView& b,
                                                    void* st) { dilate(a, b, p, st); });
            }
  }
}

TEST(MorphCuda, ErodeDilateU8IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u8);
}

TEST(MorphCuda, ErodeDilateU16IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u16);
}

TEST(MorphCuda, ErodeDilateF32IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::f32);
}

const MorphOp kOps[] = {MorphOp::erode,    MorphOp::dilate, MorphOp::open,    MorphOp::close,
                        MorphOp::gradient, MorphOp::tophat, MorphOp::blackhat};

// Every morphology operation over types x channels x shapes x a few sizes and anchors x borders x
// iterations 1 and 2.
TEST(MorphCuda, MorphologyOpsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Case {
    int kw, kh, ax, ay;
  };
  const Case cases[] = {{3, 3, -1, -1}, {5, 3, 0, 2}, {7, 7, -1, -1}};
  std::uint32_t seed = 3000;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      Rig rig(source(t, c, ++seed));
      for (int bi = 0; bi < kBorderCases; ++bi)
        for (MorphShape shape : kShapes)
          for (const Case& k : cases)
            for (int it : {1, 2})
              for (MorphOp op : kOps) {
                MorphParams p;
                p.shape = shape;
                p.ksize_x = k.kw;
                p.ksize_y = k.kh;
                p.anchor_x = k.ax;
                p.anchor_y = k.ay;
                p.iterations = it;
                p.border = border_case(bi);
                rig.expect_same(std::string(to_string(op)) + " " + to_string(t) + " x" +
                                    std::to_string(c) + " " + border_name(bi) + " " + case_name(p),
                                [&](const ImageView& a, const ImageView& b, void* st) {
                                  morphology(a, b, op, p, st);
                                });
              }
    }
}

// f32 sources sprinkled with NaN, +-inf, +-0 and +-FLT_MAX: min/max keep the first of equal or
// unordered values, so only the CPU's exact comparison order gives the same bytes.
TEST(MorphCuda, F32SpecialValuesIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max()};
  for (int c : {1, 3}) {
    Image h = source(ElemType::f32, c, 4000 + static_cast<std::uint32_t>(c));
    std::mt19937 g(77);
    std::uniform_int_distribution<int> pick(0, 6), coin(0, 3);
    for (int y = 0; y < kH; ++y) {
      float* r = h.view().row<float>(y);
      for (int k = 0; k < kW * c; ++k)
        if (coin(g) == 0) r[k] = specials[pick(g)];
    }
    Rig rig(std::move(h));
    for (int bi = 0; bi < kBorderCases; ++bi)
      for (MorphShape shape : kShapes)
        for (MorphOp op : kOps) {
          MorphParams p;
          p.shape = shape;
          p.ksize_x = 5;
          p.ksize_y = 3;
          p.border = border_case(bi);
          rig.expect_same(std::string(to_string(op)) + " f32 specials x" + std::to_string(c) + " " +
                              border_name(bi) + " " + case_name(p),
                          [&](const ImageView& a, const ImageView& b, void* st) {
                            morphology(a, b, op, p, st);
                          });
        }
  }
}

// Elements wider and taller than the image: a 31x31 rect 5 times is one 151x151 rectangle; a
// 1-row and a 1-column rectangle (one pass each); a 255x3 ellipse and a 3x255 cross.
TEST(MorphCuda, LargeElementsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Case {
    MorphShape shape;
    int kw, kh, ax, ay, it;
  };
  const Case cases[] = {
      {MorphShape::rect, 31, 31, -1, -1, 5},    {MorphShape::rect, 31, 31, 2, 29, 4},
      {MorphShape::rect, 101, 1, -1, -1, 1},    {MorphShape::rect, 1, 75, 0, 70, 2},
      {MorphShape::ellipse, 255, 3, -1, -1, 1}, {MorphShape::cross, 3, 255, 1, 9, 2},
      {MorphShape::ellipse, 45, 45, -1, -1, 2}};
  std::uint32_t seed = 5000;
  for (ElemType t : kTypes)
    for (int c : {1, 4}) {
      Rig rig(source(t, c, ++seed));
      for (int bi = 0; bi < kBorderCases; ++bi)
        for (const Case& k : cases)
          for (MorphOp op : {MorphOp::erode, MorphOp::dilate, MorphOp::gradient}) {
            MorphParams p;
            p.shape = k.shape;
            p.ksize_x = k.kw;
            p.ksize_y = k.kh;
            p.anchor_x = k.ax;
            p.anchor_y = k.ay;
            p.iterations = k.it;
            p.border = border_case(bi);
            rig.expect_same(std::string(to_string(op)) + " " + to_string(t) + " x" +
                                std::to_string(c) + " " + border_name(bi) + " " + case_name(p),
                            [&](const ImageView& a, const ImageView& b, void* st) {
                              morphology(a, b, op, p, st);
                            });
          }
    }
}

#if defined(TEXCV_HAS_CUDA)
// On a non-blocking stream: the passes and their stream-ordered temporaries are queued there.
TEST(MorphCuda, NonDefaultStreamIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  cuda::Stream stream;
  std::uint32_t seed = 6000;
  for (ElemType t : kTypes) {
    Rig rig(source(t, 3, ++seed));
    for (MorphShape shape : kShapes)
      for (MorphOp op : kOps) {
        MorphParams p;
        p.shape = shape;
        p.ksize_x = 5;
        p.ksize_y = 5;
        p.iterations = 3;
        p.border.border = Border::reflect101;
        rig.expect_same(
            std::string(to_string(op)) + " on a stream " + to_string(t) + " " + case_name(p),
            [&](const ImageView& a, const ImageView& b, void* st) { morphology(a, b, op, p, st); },
            stream.get());
      }
  }
}
#endif

// Device views run (they raised Unsupported before the CUDA backend existed), and validation
// gives the host path's messages.
TEST(MorphCuda, DeviceViewsRunAndValidationIsUnchanged) {
  TEXCV_REQUIRE_GPU();
  Image src(8, 6, 3, ElemType::u8, Location::device), dst(8, 6, 3, ElemType::u8, Location::device);
  test::poison(src);
  EXPECT_NO_THROW(erode(src, dst));
  EXPECT_NO_THROW(dilate(src, dst));
  EXPECT_NO_THROW(morphology(src, dst, MorphOp::tophat));

  constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;
  MorphParams even;
  even.ksize_x = 4;
  expect_error([&] { erode(src, dst, even); }, kInvalid,
               "erode: ksize_x must be odd; got 4, expected an odd size 1 to 255");
  MorphParams a;
  a.ksize_y = 5;
  a.anchor_x = 3;
  expect_error([&] { dilate(src, dst, a); }, kInvalid,
               "dilate: anchor is outside the structuring element; got (3, -1), expected inside "
               "3x5 (or -1 for the centre)");
  MorphParams it;
  it.iterations = 1001;
  expect_error([&] { morphology(src, dst, MorphOp::close, it); }, kInvalid,
               "morphology: iterations is out of range; got 1001, expected 1 to 1000");
  expect_error([&] { morphology(src, dst, static_cast<MorphOp>(7)); }, kInvalid,
               "morphology: operation is not valid; got 7, expected erode, dilate, open, close, "
               "gradient, tophat or blackhat");
  Image f32(8, 6, 3, ElemType::f32, Location::device),
      small(7, 6, 3, ElemType::u8, Location::device);
  expect_error([&] { erode(src, f32); }, kInvalid,
               "erode: destination element type differs from the source; got f32, expected u8");
  expect_error([&] { dilate(src, small); }, kInvalid,
               "dilate: destination size differs from the source; got 7x6, expected 8x6");
  expect_error([&] { erode(src, src); }, kInvalid,
               "erode: output aliasing input; got destination bytes overlapping the source, "
               "expected separate memory");
  MorphParams b;
  b.border.value = std::array<double, 4>{0, std::numeric_limits<double>::infinity(), 0, 0};
  expect_error([&] { dilate(src, dst, b); }, kInvalid,
               "dilate: border value must be finite; got inf, expected a finite number");
}

// A destination the CUDA backend cannot take (u16 data at an odd address) fails with Unsupported
// after the intermediate passes ran on temporaries: the destination is never written.
TEST(MorphCuda, MisalignedDestinationIsRefusedUntouched) {
  TEXCV_REQUIRE_GPU();
  Image src(8, 6, 1, ElemType::u16, Location::device);
  test::poison(src);
  Image owner(10, 6, 1, ElemType::u16, Location::device);
  test::poison(owner);
  ImageView dst = owner.view();
  dst.data = static_cast<unsigned char*>(dst.data) + 1;
  dst.width = 8;
  for (MorphOp op : {MorphOp::erode, MorphOp::open, MorphOp::gradient, MorphOp::blackhat}) {
    MorphParams p;
    p.shape = MorphShape::ellipse;
    p.ksize_x = p.ksize_y = 5;
    p.iterations = 3;
    SCOPED_TRACE(to_string(op));
    expect_error([&] { morphology(src, dst, op, p); }, ErrorCode::Unsupported,
                 "morphology: dst: the CUDA backend needs data and pitch aligned to the element "
                 "size; got " +
                     dst.describe() + ", expected multiples of 2 bytes");
    const Image back = test::to_host(owner);
    long written = 0;
    for (int y = 0; y < back.height(); ++y)
      for (int x = 0; x < back.width(); ++x)
        if (!is_poison(back.view(), x, y, 0)) ++written;
    EXPECT_EQ(written, 0);
  }
}

}  // namespace
}  // namespace texcv
