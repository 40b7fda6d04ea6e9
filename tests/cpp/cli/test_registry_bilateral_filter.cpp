// The bilateral_filter step of the registry: apply() equals calling the C++ API directly
// (include/texcv/filters.hpp), and the exact text of its parameter errors (median_blur's
// beside them).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Error;
using texcv::Image;

std::string error_of_step(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no texcv::Error thrown";
  return {};
}

TEST(RegistryNonlinear, BilateralEqualsDirectCall) {
  const Image src = texcv::test::random_image(17, 11, 1, ElemType::f32, 32);
  const Image got = texcv::apply(
      "bilateral_filter", src,
      {{"d", "0"}, {"sigma_color", "0.2"}, {"sigma_space", "1.5"}, {"border", "wrap"}});
  Image want(17, 11, 1, ElemType::f32);
  texcv::BilateralParams p;
  p.d = 0;
  p.sigma_color = 0.2;
  p.sigma_space = 1.5;
  p.border.border = texcv::Border::wrap;
  texcv::bilateral_filter(src, want, p);
  EXPECT_EQ(texcv::test::compare(got.view(), want.view()).count, 0);
}

TEST(RegistryNonlinear, Errors) {
  const Image src = texcv::test::random_image(9, 7, 1, ElemType::u8, 33);
  EXPECT_EQ(error_of_step([&] {
              texcv::apply("median_blur", src, {{"ksize", "4"}});
            }),
            "median_blur: parameter 'ksize' must be odd; got ksize=4, expected an odd number "
            "from 1 to 255");
  EXPECT_EQ(error_of_step([&] {
              texcv::validate("bilateral_filter", {{"sigma_space", "2"}});
            }),
            "bilateral_filter: parameter 'sigma_color' is required; got no sigma_color, expected "
            "sigma_color=<a number > 0>");
  EXPECT_EQ(error_of_step([&] {
              texcv::validate("bilateral_filter", {{"sigma_color", "0"}, {"sigma_space", "2"}});
            }),
            "bilateral_filter: parameter 'sigma_color' is out of range; got sigma_color=0, "
            "expected a number > 0");
}

}  // namespace
