// The convert step of the registry: apply() changes the element type as the C++ API does
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

TEST(RegistryColor, ConvertChangesTheElementType) {
  const Image src = texcv::test::random_image(10, 6, 3, ElemType::u8, 41);
  const Image f = texcv::apply("convert", src, {{"type", "f32"}, {"scale", "0.00392156862745098"}});
  Image want_f(10, 6, 3, ElemType::f32);
  texcv::convert(src, want_f, 0.00392156862745098);
  expect_same(f, want_f);

  const Image u16 = texcv::apply("convert", src, {{"type", "u16"}, {"scale", "257"}});
  Image want_u16(10, 6, 3, ElemType::u16);
  texcv::convert(src, want_u16, 257);
  expect_same(u16, want_u16);

  // Without type the output keeps the source's type.
  const Image same = texcv::apply("convert", src, {{"scale", "2"}, {"offset", "-10"}});
  Image want_same(10, 6, 3, ElemType::u8);
  texcv::convert(src, want_same, 2, -10);
  expect_same(same, want_same);
}

}  // namespace
