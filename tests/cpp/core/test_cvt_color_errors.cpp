// Validation of cvt_color: exact messages ("<op>: <what>; got <x>, expected <y>") and error
// codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "core/error_test_util.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"

namespace texcv::error_test {
namespace {

TEST(ColorErrors, CvtColor) {
  Image g(8, 6, 1, ElemType::u8), c3(8, 6, 3, ElemType::u8), c4(8, 6, 4, ElemType::u8);
  Image f3(8, 6, 3, ElemType::f32), w16(8, 6, 3, ElemType::u16), w16b(8, 6, 3, ElemType::u16);
  expect_error([&] { cvt_color(g, c3, ColorCode::rgb2gray); }, ErrorCode::Unsupported,
               "cvt_color: source channel count does not fit the code rgb2gray; got 1, expected 3");
  expect_error(
      [&] {
        cvt_color(c3, c3.view().roi({0, 0, 8, 6}), ColorCode::rgb2bgr);
      },
      ErrorCode::InvalidArgument,
      "cvt_color: output aliasing input; got destination bytes overlapping the source, "
      "expected separate memory");
  expect_error([&] { cvt_color(g, c4, ColorCode::gray2rgb); }, ErrorCode::InvalidArgument,
               "cvt_color: destination channel count does not fit the code gray2rgb; got 4, "
               "expected 3");
  expect_error(
      [&] {
        cvt_color(c4, c4.view().roi({0, 0, 4, 6}), ColorCode::rgba2bgra);
      },
      ErrorCode::InvalidArgument,
      "cvt_color: destination size differs from the source; got 4x6, expected 8x6");
  expect_error([&] { cvt_color(c3, f3, ColorCode::rgb2yuv_bt709); }, ErrorCode::InvalidArgument,
               "cvt_color: destination element type differs from the source; got f32, expected u8");
  expect_error([&] { cvt_color(w16, w16b, ColorCode::rgb2hsv); }, ErrorCode::Unsupported,
               "cvt_color: element type is not supported by rgb2hsv; got u16, expected u8 or f32");
  expect_error([&] { cvt_color(c3, g, static_cast<ColorCode>(99)); }, ErrorCode::InvalidArgument,
               "cvt_color: colour conversion code is not valid; got 99, expected a ColorCode");
  expect_error([&] { cvt_color(c3, device_view(8, 6, 1, ElemType::u8), ColorCode::rgb2gray); },
               ErrorCode::InvalidArgument,
               "cvt_color: destination location differs from the source; got device, expected "
               "host");
}

}  // namespace
}  // namespace texcv::error_test
