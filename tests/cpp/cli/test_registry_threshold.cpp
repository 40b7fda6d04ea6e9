// The threshold step of the registry: apply() equals calling the C++ API directly
// (include/texcv/color.hpp), Otsu included.
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::test::expect_same;

TEST(RegistryColor, ThresholdEqualsDirectCall) {
  const Image src = texcv::test::random_image(12, 7, 1, ElemType::u16, 51);
  // maxval defaults to the type's maximum (65535 for u16).
  const Image got = texcv::apply("threshold", src, {{"thresh", "30000.5"}});
  Image want(12, 7, 1, ElemType::u16);
  texcv::threshold(src, want, 30000.5, 65535, texcv::ThresholdType::binary);
  expect_same(got, want);

  const Image f = texcv::test::random_image(12, 7, 3, ElemType::f32, 52);
  const Image got_t =
      texcv::apply("threshold", f, {{"thresh", "0.4"}, {"maxval", "0.9"}, {"type", "tozero_inv"}});
  Image want_t(12, 7, 3, ElemType::f32);
  texcv::threshold(f, want_t, 0.4, 0.9, texcv::ThresholdType::tozero_inv);
  expect_same(got_t, want_t);

  const Image u8 = texcv::test::random_image(16, 16, 1, ElemType::u8, 53);
  const Image got_otsu = texcv::apply("threshold", u8, {{"type", "otsu"}});
  Image want_otsu(16, 16, 1, ElemType::u8);
  texcv::threshold(u8, want_otsu, 0, 255, texcv::ThresholdType::otsu);
  expect_same(got_otsu, want_otsu);
}

}  // namespace
