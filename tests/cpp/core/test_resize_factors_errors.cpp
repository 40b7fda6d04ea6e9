// resize's factor form (ResizeParams::fx/fy) and resized_size: the output sizes (cvRound: ties
// to even) and the messages of bad factors and mismatched destinations.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

using test::expect_error;

TEST(ResizedSize, RoundsHalfToEvenAsCvResize) {
  const Rect a = resized_size(5, 7, 0.5, 0.5);  // 2.5 -> 2, 3.5 -> 4
  EXPECT_EQ(a.x, 0);
  EXPECT_EQ(a.y, 0);
  EXPECT_EQ(a.width, 2);
  EXPECT_EQ(a.height, 4);
  const Rect b = resized_size(159, 119, 0.5, 0.5);  // 79.5 -> 80, 59.5 -> 60
  EXPECT_EQ(b.width, 80);
  EXPECT_EQ(b.height, 60);
  const Rect c = resized_size(9, 7, 0.3, 2.5);  // 2.7 -> 3, 17.5 -> 18
  EXPECT_EQ(c.width, 3);
  EXPECT_EQ(c.height, 18);
  const Rect d = resized_size(1, 1, 0.5000001, 1);  // just above the tie: 1
  EXPECT_EQ(d.width, 1);
}

TEST(ResizedSize, Errors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_error([] { resized_size(0, 5, 1, 1); }, ErrorCode::InvalidArgument,
               "resized_size: width must be positive; got 0, expected > 0");
  expect_error([] { resized_size(5, -3, 1, 1); }, ErrorCode::InvalidArgument,
               "resized_size: height must be positive; got -3, expected > 0");
  expect_error([] { resized_size(5, 5, 0, 1); }, ErrorCode::InvalidArgument,
               "resized_size: fx must be finite and positive; got 0, expected a finite factor > 0");
  expect_error([&] { resized_size(5, 5, 1, nan); }, ErrorCode::InvalidArgument,
               "resized_size: fy must be finite and positive; got nan, expected a finite factor "
               "> 0");
  expect_error([&] { resized_size(5, 5, inf, 1); }, ErrorCode::InvalidArgument,
               "resized_size: fx must be finite and positive; got inf, expected a finite factor "
               "> 0");
  expect_error([] { resized_size(5, 5, -0.5, 1); }, ErrorCode::InvalidArgument,
               "resized_size: fx must be finite and positive; got -0.5, expected a finite factor "
               "> 0");
  expect_error([] { resized_size(5, 5, 0.1, 1); }, ErrorCode::InvalidArgument,
               "resized_size: the output width is less than 1; got fx 0.1 on width 5 gives 0, "
               "expected fx > 0.5 / width (an output of at least 1 pixel)");
  expect_error([] { resized_size(5, 1, 1, 0.5); }, ErrorCode::InvalidArgument,
               "resized_size: the output height is less than 1; got fy 0.5 on height 1 gives 0, "
               "expected fy > 0.5 / height (an output of at least 1 pixel)");
  expect_error([] { resized_size(1 << 30, 5, 4, 1); }, ErrorCode::InvalidArgument,
               "resized_size: the output width overflows; got fx 4 on width 1073741824 gives "
               "4294967296, expected at most 2147483647");
  expect_error([] { resized_size(5, 5, 1, 1e300); }, ErrorCode::InvalidArgument,
               "resized_size: the output height overflows; got fy 1e+300 on height 5 gives "
               "5e+300, expected at most 2147483647");
}

TEST(ResizeFactors, BadFactorsAndMismatchedDestinations) {
  const Image src = test::random_image(9, 7, 3, ElemType::u8, 2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto run = [&](int dw, int dh, double fx, double fy) {
    Image dst(dw, dh, 3, ElemType::u8);
    ResizeParams p;
    p.fx = fx;
    p.fy = fy;
    resize(src, dst, p);
  };
  expect_error([&] { run(5, 4, -1, 0); }, ErrorCode::InvalidArgument,
               "resize: fx must be finite and positive (0: the size ratio); got -1, expected a "
               "finite factor > 0, or 0");
  expect_error([&] { run(5, 4, 0.5, nan); }, ErrorCode::InvalidArgument,
               "resize: fy must be finite and positive (0: the size ratio); got nan, expected a "
               "finite factor > 0, or 0");
  // 9 * 0.5 = 4.5 rounds to 4 (ties to even), not 5; 7 * 0.5 = 3.5 to 4.
  expect_error([&] { run(5, 4, 0.5, 0.5); }, ErrorCode::InvalidArgument,
               "resize: destination width does not match fx; got 5 (fx 0.5 on width 9), "
               "expected 4, round(width * fx) as cv::resize (texcv::resized_size)");
  expect_error([&] { run(4, 3, 0.5, 0.5); }, ErrorCode::InvalidArgument,
               "resize: destination height does not match fy; got 3 (fy 0.5 on height 7), "
               "expected 4, round(height * fy) as cv::resize (texcv::resized_size)");
  expect_error([&] { run(4, 4, 0.05, 0); }, ErrorCode::InvalidArgument,
               "resize: the output width is less than 1; got fx 0.05 on width 9 gives 0, expected "
               "fx > 0.5 / width (an output of at least 1 pixel)");
  // Valid: resized_size's dst; one axis by factor, the other by the size ratio (any size).
  EXPECT_NO_THROW(run(4, 4, 0.5, 0.5));
  EXPECT_NO_THROW(run(4, 11, 0.5, 0));
  EXPECT_NO_THROW(run(13, 4, 0, 0.5));
}

TEST(ResizeFactors, AlignCornersKeepsItsMappingAndChecksTheSize) {
  const Image src = test::random_image(9, 7, 1, ElemType::f32, 4);
  Image a(4, 4, 1, ElemType::f32), b(4, 4, 1, ElemType::f32);
  ResizeParams p;
  p.align_corners = true;
  resize(src, a, p);
  p.fx = p.fy = 0.5;
  resize(src, b, p);
  EXPECT_EQ(test::compare(a.view(), b.view()).count, 0);
  Image c(5, 4, 1, ElemType::f32);
  expect_error([&] { resize(src, c, p); }, ErrorCode::InvalidArgument,
               "resize: destination width does not match fx; got 5 (fx 0.5 on width 9), "
               "expected 4, round(width * fx) as cv::resize (texcv::resized_size)");
}

// The factor form maps at (x + 0.5) / fx - 0.5: where size * factor is not whole it differs from
// the size ratio (9 -> 4 at 0.5: step 2, not 2.25).
TEST(ResizeFactors, FactorFormSamplesAtTheInverseFactor) {
  Image src(9, 1, 1, ElemType::f32);
  for (int x = 0; x < 9; ++x) src.view().row<float>(0)[x] = static_cast<float>(x);
  Image by_factor(4, 1, 1, ElemType::f32), by_size(4, 1, 1, ElemType::f32);
  ResizeParams p;
  resize(src, by_size, p);
  p.fx = 0.5;
  p.fy = 1;
  resize(src, by_factor, p);
  // x = (d + 0.5) * 2 - 0.5 = 2d + 0.5 on a ramp.
  for (int d = 0; d < 4; ++d) {
    EXPECT_FLOAT_EQ(by_factor.view().row<float>(0)[d], 2.0f * d + 0.5f) << d;
  }
  // the size ratio: (d + 0.5) * 2.25 - 0.5.
  EXPECT_FLOAT_EQ(by_size.view().row<float>(0)[3], 3.5f * 2.25f - 0.5f);
}

}  // namespace
}  // namespace texcv
