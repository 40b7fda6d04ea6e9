// The resize step of the registry: apply() equals calling the C++ API directly
// (include/texcv/geometry.hpp), with a border and align_corners too, and the output sizes it gives.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::test::expect_same;

TEST(Registry, ResizeEqualsDirectCall) {
  const Image src = texcv::test::random_image(41, 30, 3, ElemType::u8, 1);
  const Image got = texcv::apply("resize", src, {{"scale", "0.5"}, {"interp", "area"}});
  // 41 * 0.5 = 20.5 rounds to even (20), as cv::resize; 30 * 0.5 = 15. scale is the factor
  // form (cells of 1 / 0.5 = 2 pixels, as cv::resize with fx, fy), not the size ratio 41 / 20.
  Image want(20, 15, 3, ElemType::u8);
  texcv::ResizeParams p;
  p.interp = texcv::Interp::area;
  p.fx = p.fy = 0.5;
  texcv::resize(src, want, p);
  expect_same(got, want);
}

TEST(Registry, ResizeWithBorderAndAlignCornersEqualsDirectCall) {
  const Image src = texcv::test::random_image(17, 13, 1, ElemType::f32, 2);
  const Image got = texcv::apply("resize", src,
                                 {{"width", "40"},
                                  {"height", "25"},
                                  {"interp", "cubic"},
                                  {"align_corners", "true"},
                                  {"border", "reflect101"},
                                  {"precision", "exact"}});
  Image want(40, 25, 1, ElemType::f32);
  texcv::ResizeParams p;
  p.interp = texcv::Interp::cubic;
  p.align_corners = true;
  p.border = texcv::Border::reflect101;
  p.precision = texcv::Precision::exact;
  texcv::resize(src, want, p);
  expect_same(got, want);
}

TEST(Registry, ResizeOutputSizes) {
  EXPECT_EQ(texcv::output_size("resize", 600, 400, {{"scale", "0.5"}}).width, 300);
  EXPECT_EQ(texcv::output_size("resize", 600, 400, {{"scale", "0.5"}}).height, 200);
  // Width alone keeps the aspect ratio: 400 * 150 / 600 = 100.
  const auto r = texcv::output_size("resize", 600, 400, {{"width", "150"}});
  EXPECT_EQ(r.width, 150);
  EXPECT_EQ(r.height, 100);
  // fx alone leaves the height.
  const auto f = texcv::output_size("resize", 600, 400, {{"fx", "2"}});
  EXPECT_EQ(f.width, 1200);
  EXPECT_EQ(f.height, 400);
  // Ties round to even as cv::resize: 5 * 0.5 = 2.5 -> 2, 7 * 0.5 = 3.5 -> 4.
  const auto t = texcv::output_size("resize", 5, 7, {{"scale", "0.5"}});
  EXPECT_EQ(t.width, 2);
  EXPECT_EQ(t.height, 4);
}

}  // namespace
