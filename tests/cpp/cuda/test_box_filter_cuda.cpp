// box_filter on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp): normalized, unnormalized sums (saturating) and a long box with an
// anchor.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, BoxFilterIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Normalized, an unnormalized sum (saturates u8 and u16), and a long box with an anchor.
  const BoxParams cases[] = {{3, 3, true, -1, -1, {}},
                             {5, 1, false, -1, -1, {}},
                             {31, 5, true, 2, 1, {}},
                             {5, 5, true, -1, -1, {}},
                             {9, 9, false, -1, -1, {}}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (BoxParams p : cases) {
      p.border = border_of(b);
      expect_same("box_filter " + std::to_string(p.ksize_x) + "x" + std::to_string(p.ksize_y) +
                      (p.normalize ? " normalized " : " sum ") + name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    BoxParams q = p;
                    q.border.path = path;
                    box_filter(s, d, q);
                  });
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
