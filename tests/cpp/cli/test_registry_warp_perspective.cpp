// The warp_perspective step of the registry: apply() equals calling the C++ API directly
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

TEST(Registry, WarpPerspectiveEqualsDirectCall) {
  const Image src = texcv::test::random_image(30, 20, 3, ElemType::u8, 5);
  const Image got = texcv::apply("warp_perspective", src,
                                 {{"m", "1|0.05|1|0.02|1|-2|0.001|0.0005|1"},
                                  {"width", "25"},
                                  {"height", "18"},
                                  {"border", "replicate"}});
  Image want(25, 18, 3, ElemType::u8);
  texcv::Sampling s;
  s.border = texcv::Border::replicate;
  texcv::warp_perspective(src, want, {1, 0.05, 1, 0.02, 1, -2, 0.001, 0.0005, 1}, false, s);
  expect_same(got, want);
}

}  // namespace
