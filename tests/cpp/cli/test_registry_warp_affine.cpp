// The warp_affine step of the registry: apply() equals calling the C++ API directly
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

TEST(Registry, WarpAffineEqualsDirectCall) {
  const Image src = texcv::test::random_image(32, 24, 4, ElemType::u16, 3);
  const Image got = texcv::apply("warp_affine", src,
                                 {{"m", "0.9|0.1|3|-0.1|0.9|2.5"},
                                  {"border", "constant"},
                                  {"border_value", "1|2|3|4"},
                                  {"interp", "cubic"},
                                  {"width", "20"}});
  Image want(20, 24, 4, ElemType::u16);
  texcv::Sampling s;
  s.interp = texcv::Interp::cubic;
  s.border_value = {1, 2, 3, 4};
  texcv::warp_affine(src, want, {0.9, 0.1, 3, -0.1, 0.9, 2.5}, false, s);
  expect_same(got, want);
}

}  // namespace
