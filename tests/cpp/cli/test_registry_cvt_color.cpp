// The cvt_color step of the registry: apply() gives an output with the code's channels, and its
// code choices are the parser's names.
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::test::expect_same;

TEST(RegistryColor, CvtColorOutputHasTheCodesChannels) {
  const Image rgb = texcv::test::random_image(13, 9, 3, ElemType::u8, 11);
  const Image gray = texcv::apply("cvt_color", rgb, {{"code", "rgb2gray"}});
  Image want_gray(13, 9, 1, ElemType::u8);
  texcv::cvt_color(rgb, want_gray, texcv::ColorCode::rgb2gray);
  expect_same(gray, want_gray);

  const Image g16 = texcv::test::random_image(7, 5, 1, ElemType::u16, 12);
  const Image rgba = texcv::apply("cvt_color", g16, {{"code", "gray2rgba"}});
  Image want_rgba(7, 5, 4, ElemType::u16);
  texcv::cvt_color(g16, want_rgba, texcv::ColorCode::gray2rgba);
  expect_same(rgba, want_rgba);

  const Image f = texcv::test::random_image(6, 4, 3, ElemType::f32, 13);
  const Image hsv = texcv::apply("cvt_color", f, {{"code", "bgr2hsv"}});
  Image want_hsv(6, 4, 3, ElemType::f32);
  texcv::cvt_color(f, want_hsv, texcv::ColorCode::bgr2hsv);
  expect_same(hsv, want_hsv);

  const Image bgra = texcv::test::random_image(5, 5, 4, ElemType::u8, 14);
  const Image g = texcv::apply("cvt_color", bgra, {{"code", "bgra2gray"}});
  Image want_g(5, 5, 1, ElemType::u8);
  texcv::cvt_color(bgra, want_g, texcv::ColorCode::bgra2gray);
  expect_same(g, want_g);
}

TEST(RegistryColor, CvtColorChoicesAreTheParsersNames) {
  const auto* code = texcv::find_operation("cvt_color").find("code");
  ASSERT_NE(code, nullptr);
  EXPECT_TRUE(code->required);
  ASSERT_EQ(code->choices.size(), 20u);
  for (const auto& c : code->choices) EXPECT_EQ(texcv::to_string(texcv::parse_color_code(c)), c);
  EXPECT_EQ(code->choices.front(), "rgb2bgr");
  EXPECT_EQ(code->choices.back(), "hsv2bgr");
}

}  // namespace
