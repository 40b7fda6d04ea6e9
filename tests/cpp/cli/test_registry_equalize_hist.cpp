// The equalize_hist step of the registry: apply() equals calling the C++ API directly
// (include/texcv/color.hpp), with clahe's step beside it.
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::test::expect_same;

TEST(RegistryColor, EqualizeHistAndClaheEqualDirectCalls) {
  const Image src = texcv::test::random_image(24, 20, 1, ElemType::u8, 61);
  const Image eq = texcv::apply("equalize_hist", src, {});
  Image want_eq(24, 20, 1, ElemType::u8);
  texcv::equalize_hist(src, want_eq);
  expect_same(eq, want_eq);

  const Image s16 = texcv::test::random_image(24, 20, 1, ElemType::u16, 62);
  const Image cl =
      texcv::apply("clahe", s16, {{"clip_limit", "2"}, {"tiles_x", "3"}, {"tiles_y", "2"}});
  Image want_cl(24, 20, 1, ElemType::u16);
  texcv::ClaheParams p;
  p.clip_limit = 2;
  p.tiles_x = 3;
  p.tiles_y = 2;
  texcv::clahe(s16, want_cl, p);
  expect_same(cl, want_cl);
}

}  // namespace
