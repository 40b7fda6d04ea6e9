// The gamma step of the registry: apply() equals calling the C++ API directly
// (include/texcv/color.hpp).
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::test::expect_same;

TEST(RegistryColor, GammaEqualsDirectCall) {
  const Image src = texcv::test::random_image(11, 7, 3, ElemType::u16, 21);
  const Image got = texcv::apply("gamma", src, {{"gamma", "0.45"}});
  Image want(11, 7, 3, ElemType::u16);
  texcv::gamma(src, want, 0.45);
  expect_same(got, want);
}

}  // namespace
