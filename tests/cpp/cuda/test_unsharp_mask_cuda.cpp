// unsharp_mask on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp), with and without a threshold.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, UnsharpMaskIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    // Threshold in element units: about 4% of the range.
    const double th = t == ElemType::u8 ? 10.0 : t == ElemType::u16 ? 2600.0 : 0.08;
    const UnsharpParams cases[] = {
        {1.0, 0, 1.0, 0.0, {}}, {2.0, 5, 1.5, th, {}}, {3.0, 31, 0.7, 0.0, {}}};
    for (UnsharpParams p : cases) {
      p.border = border_of(b);
      expect_same("unsharp_mask sigma " + std::to_string(p.sigma) + " ksize " +
                      std::to_string(p.ksize) + " threshold " + std::to_string(p.threshold) + " " +
                      name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    UnsharpParams q = p;
                    q.border.path = path;
                    unsharp_mask(s, d, q);
                  });
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
