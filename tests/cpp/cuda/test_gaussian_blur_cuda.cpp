// gaussian_blur on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp): fixed-table sizes, a derived-sigma 31 and sizes derived from sigmas.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, GaussianBlurIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Fixed-table sizes (3, 5), a derived-sigma 31, and sizes derived from two sigmas.
  const GaussianParams cases[] = {{3, 3, 0.0, 0.0, {}},   {5, 3, 0.0, 0.0, {}},
                                  {31, 31, 0.0, 0.0, {}}, {0, 0, 1.3, 2.1, {}},
                                  {0, 0, 2.0, 2.0, {}},   {7, 7, 0.0, 0.0, {}}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (GaussianParams p : cases) {
      p.border = border_of(b);
      expect_same("gaussian_blur " + std::to_string(p.ksize_x) + "x" + std::to_string(p.ksize_y) +
                      " sigma " + std::to_string(p.sigma_x) + " " + name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    GaussianParams q = p;
                    q.border.path = path;
                    gaussian_blur(s, d, q);
                  });
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
