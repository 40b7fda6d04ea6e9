// morphology on the CUDA backend: every operation identical to the CPU backend
// (cuda/morphology_test_util.hpp), f32 special values, elements larger than the image, a
// non-default stream; device views run with the host's validation messages (erode and dilate
// too), and a destination the backend cannot take is refused untouched.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "common/test_support.hpp"
#include "cuda/morphology_test_util.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv::morphology_cuda_test {
namespace {

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

// u8 one-channel rectangles on rows of 16-byte steps (the 16-pixel kernels: 3x3 and 5x5 in split
// form with three-way picks, other sizes byte-wise on words): a 300 x 70 source placed at every
// byte offset 0-15 of its device row, so that the first tap falls on every byte of a 16-byte word;
// centred and corner anchors, 1 and 2 iterations (2 enlarges 3x3 to 5x5), every border.
TEST(MorphCuda, U8RectanglesAtEveryByteOffsetIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  constexpr int w = 300, h = 70;
  const Image host = test::random_image(w, h, 1, ElemType::u8, 4242);
  struct Case {
    int k, ax, ay, it;
  };
  const Case cases[] = {{3, -1, -1, 1}, {3, 0, 2, 1},   {5, -1, -1, 1},
                        {5, 4, 0, 1},   {3, -1, -1, 2}, {7, -1, -1, 1}};
  Image dsrc(w + 16, h + 2, 1, ElemType::u8, Location::device);
  Image dout(w, h, 1, ElemType::u8, Location::device);
  ASSERT_EQ(dsrc.view().pitch % 16, 0u);
  for (int ox = 0; ox < 16; ++ox) {
    const ImageView sv = dsrc.view().roi({ox, 1, w, h});
    texcv::copy(host, sv);
    for (int bi = 0; bi < kBorderCases; ++bi)
      for (const Case& k : cases)
        for (MorphOp op : {MorphOp::erode, MorphOp::dilate}) {
          MorphParams p;
          p.ksize_x = p.ksize_y = k.k;
          p.anchor_x = k.ax;
          p.anchor_y = k.ay;
          p.iterations = k.it;
          p.border = border_case(bi);
          Image want(w, h, 1, ElemType::u8);
          morphology(host, want, op, p);
          test::poison(dout);
          morphology(sv, dout, op, p);
          const Image got = test::to_host(dout);
          const test::Diff d = test::compare(got, want);
          EXPECT_EQ(d.count, 0) << to_string(op) << " " << k.k << "x" << k.k << " anchor (" << k.ax
                                << ", " << k.ay << ") iterations " << k.it << " " << border_name(bi)
                                << " offset " << ox << ": " << d.describe();
        }
  }
}

// The sliding-window kernel (3x3 and 5x5 u8 rectangles, centred ellipses and crosses, whose
// first tap lies within 4 bytes of a 16-byte chunk): rows wider than a warp's 32 chunks (lanes 0
// and 31 load their outer words, the others take them from their neighbours), several row bands
// with a partial last one, every anchor (an off-centre cross runs the general element kernel),
// sources at byte offsets around the chunks, outputs at odd columns (byte stores).
TEST(MorphCuda, U8SlidingWindowElementsAcrossWarpsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  constexpr int w = 1100, h = 53;
  const Image host = test::random_image(w, h, 1, ElemType::u8, 5150);
  Image dsrc(w + 16, h + 2, 1, ElemType::u8, Location::device);
  Image dout(w + 1, h, 1, ElemType::u8, Location::device);
  ASSERT_EQ(dsrc.view().pitch % 16, 0u);
  for (int ox : {0, 1, 3, 4, 11, 12, 14, 15}) {
    const ImageView sv = dsrc.view().roi({ox, 1, w, h});
    const ImageView dv = dout.view().roi({ox & 1, 0, w, h});
    texcv::copy(host, sv);
    for (MorphShape shape : {MorphShape::rect, MorphShape::ellipse, MorphShape::cross})
      for (int k : {3, 5})
        for (int ax = 0; ax < k; ++ax)
          for (int ay : {0, k / 2, k - 1})
            for (int bi = 0; bi < kBorderCases; ++bi)
              for (MorphOp op : {MorphOp::erode, MorphOp::dilate}) {
                MorphParams p;
                p.shape = shape;
                p.ksize_x = p.ksize_y = k;
                p.anchor_x = ax;
                p.anchor_y = ay;
                p.border = border_case(bi);
                Image want(w, h, 1, ElemType::u8);
                morphology(host, want, op, p);
                test::poison(dout);
                morphology(sv, dv, op, p);
                const Image got = test::to_host(dv);
                const test::Diff d = test::compare(got, want);
                EXPECT_EQ(d.count, 0)
                    << to_string(op) << " " << to_string(shape) << " " << k << "x" << k
                    << " anchor (" << ax << ", " << ay << ") " << border_name(bi) << " offset "
                    << ox << ": " << d.describe();
              }
  }
}

// f32's sliding-window kernel (3x3 and 5x5 anchored at the centre, rows at 16-byte steps): rows
// wider than a warp's 128 pixels, several row bands with a partial last one, NaN, infinities and
// signed zeros (only the CPU's order of picks gives the same bytes), sources at 16-byte offsets
// (the kernel) and at 4 and 8 bytes (the fused kernel), outputs at odd columns (scalar stores),
// every border, 1 and 2 iterations (2 enlarges a 3x3 rectangle to 5x5), and off-centre anchors
// (the fused kernel). Rectangles, and centred ellipses and crosses (the same kernel, picked from
// the never-winning extreme as the CPU's general element; +-FLT_MAX among the values, the
// extremes themselves; off-centre anchors: the general element kernel).
TEST(MorphCuda, F32SlidingWindowElementsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  constexpr int w = 301, h = 37;
  Image host = test::random_image(w, h, 1, ElemType::f32, 6262);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::lowest()};
  std::mt19937 g(91);
  std::uniform_int_distribution<int> pick(0, 6), coin(0, 7);
  for (int y = 0; y < h; ++y) {
    float* r = host.view().row<float>(y);
    for (int x = 0; x < w; ++x)
      if (coin(g) == 0) r[x] = specials[pick(g)];
  }
  Image dsrc(w + 4, h + 2, 1, ElemType::f32, Location::device);
  Image dout(w + 1, h, 1, ElemType::f32, Location::device);
  ASSERT_EQ(dsrc.view().pitch % 16, 0u);
  for (int ox : {0, 4, 1, 2}) {
    const ImageView sv = dsrc.view().roi({ox, 1, w, h});
    const ImageView dv = dout.view().roi({ox == 4 ? 1 : 0, 0, w, h});
    texcv::copy(host, sv);
    for (MorphShape shape : {MorphShape::rect, MorphShape::ellipse, MorphShape::cross})
      for (int k : {3, 5})
        for (int a : {-1, 0})
          for (int it : {1, 2})
            for (int bi = 0; bi < kBorderCases; ++bi)
              for (MorphOp op : {MorphOp::erode, MorphOp::dilate}) {
                MorphParams p;
                p.shape = shape;
                p.ksize_x = p.ksize_y = k;
                p.anchor_x = p.anchor_y = a;
                p.iterations = it;
                p.border = border_case(bi);
                Image want(w, h, 1, ElemType::f32);
                morphology(host, want, op, p);
                test::poison(dout);
                morphology(sv, dv, op, p);
                const Image got = test::to_host(dv);
                const test::Diff d = test::compare(got, want);
                EXPECT_EQ(differing_elements(got, want), 0)
                    << to_string(op) << " " << to_string(shape) << " " << k << "x" << k
                    << " anchor " << a << " iterations " << it << " " << border_name(bi)
                    << " offset " << ox << ": not byte-identical; " << d.describe();
                EXPECT_EQ(d.count, 0)
                    << to_string(op) << " " << to_string(shape) << " " << k << "x" << k
                    << " anchor " << a << " iterations " << it << " " << border_name(bi)
                    << " offset " << ox << ": " << d.describe();
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
}  // namespace texcv::morphology_cuda_test
