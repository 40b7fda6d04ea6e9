// sharpen on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp), at two strengths.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, SharpenIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (double strength : {1.0, 0.35}) {
      expect_same("sharpen " + std::to_string(strength) + " " + name_of(t, c, b, t), src, t,
                  [&](const ImageView& s, const ImageView& d, Path path) {
                    FilterBorder fb = border_of(b);
                    fb.path = path;
                    sharpen(s, d, strength, fb);
                  });
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
