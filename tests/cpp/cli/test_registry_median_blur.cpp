// The median_blur step of the registry: apply() equals calling the C++ API directly
// (include/texcv/filters.hpp). Its parameter error: test_registry_bilateral_filter.cpp.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;

TEST(RegistryNonlinear, MedianEqualsDirectCall) {
  const Image src = texcv::test::random_image(19, 13, 3, ElemType::u8, 31);
  const Image got = texcv::apply("median_blur", src, {{"ksize", "7"}});
  Image want(19, 13, 3, ElemType::u8);
  texcv::median_blur(src, want, 7);
  EXPECT_EQ(texcv::test::compare(got.view(), want.view()).count, 0);
  const Image def = texcv::apply("median_blur", src, {});
  texcv::median_blur(src, want, 3);
  EXPECT_EQ(texcv::test::compare(def.view(), want.view()).count, 0);
}

}  // namespace
