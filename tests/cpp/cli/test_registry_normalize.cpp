// The normalize step of the registry: apply() equals calling the C++ API directly
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

TEST(RegistryColor, NormalizeEqualsDirectCall) {
  const Image src = texcv::test::random_image(9, 8, 3, ElemType::u8, 31);
  const Image got = texcv::apply("normalize", src, {{"alpha", "20"}, {"beta", "200"}});
  Image want(9, 8, 3, ElemType::u8);
  texcv::NormalizeParams p;
  p.alpha = 20;
  p.beta = 200;
  texcv::normalize(src, want, p);
  expect_same(got, want);

  const Image f = texcv::test::random_image(9, 8, 4, ElemType::f32, 32);
  const Image got_ms =
      texcv::apply("normalize", f, {{"mode", "mean_std"}, {"mean", "0.5"}, {"std", "0.25"}});
  Image want_ms(9, 8, 4, ElemType::f32);
  texcv::NormalizeParams q;
  q.mode = texcv::NormalizeMode::mean_std;
  q.mean = 0.5;
  q.std = 0.25;
  texcv::normalize(f, want_ms, q);
  expect_same(got_ms, want_ms);
}

}  // namespace
