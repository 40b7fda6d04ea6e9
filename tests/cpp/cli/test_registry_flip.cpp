// The flip step of the registry: apply() equals calling the C++ API directly
// (include/texcv/geometry.hpp), with crop's step beside it.
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

TEST(Registry, FlipAndCropEqualDirectCalls) {
  const Image src = texcv::test::random_image(19, 11, 1, ElemType::f32, 7);
  const Image flipped = texcv::apply("flip", src, {{"code", "vertical"}});
  Image want_flip(19, 11, 1, ElemType::f32);
  texcv::flip(src, want_flip, texcv::FlipCode::vertical);
  expect_same(flipped, want_flip);
  // The default code is horizontal.
  const Image h = texcv::apply("flip", src, {});
  Image want_h(19, 11, 1, ElemType::f32);
  texcv::flip(src, want_h, texcv::FlipCode::horizontal);
  expect_same(h, want_h);

  const Image cropped = texcv::apply("crop", src, {{"x", "3"}, {"y", "2"}, {"width", "7"}});
  // Height defaults to the rest of the image: 11 - 2 = 9.
  Image want_crop(7, 9, 1, ElemType::f32);
  texcv::crop(src, want_crop, texcv::Rect{3, 2, 7, 9});
  expect_same(cropped, want_crop);
}

}  // namespace
