// The rotate step of the registry: apply() equals calling the C++ API directly
// (include/texcv/geometry.hpp).
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

TEST(Registry, RotateEqualsDirectCall) {
  const Image src = texcv::test::random_image(33, 21, 3, ElemType::u8, 6);
  const Image got = texcv::apply("rotate", src, {{"angle", "30"}, {"interp", "nearest"}});
  Image want(33, 21, 3, ElemType::u8);
  texcv::Sampling s;
  s.interp = texcv::Interp::nearest;
  texcv::rotate(src, want, 30.0, s);
  expect_same(got, want);

  const Image big = texcv::apply("rotate", src, {{"angle", "30"}, {"expand", "true"}});
  const texcv::Rect r = texcv::rotated_size(33, 21, 30.0, true);
  Image want_big(r.width, r.height, 3, ElemType::u8);
  texcv::rotate(src, want_big, 30.0, {});
  expect_same(big, want_big);
}

}  // namespace
