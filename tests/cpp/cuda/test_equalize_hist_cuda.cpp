// equalize_hist on the CUDA backend: identical to the CPU backend (cuda/hist_test_util.hpp) on
// random, low-contrast and constant images.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::hist_cuda_test {
namespace {

TEST(HistCuda, EqualizeHistIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 4000;
  const Op op = [](const ImageView& s, const ImageView& d) { equalize_hist(s, d); };
  for (const Size& sz : kSizes) {
    expect_same("equalize_hist random " + size_str(sz), random_of(sz, ElemType::u8, 1, ++seed), op);
    // Low contrast: levels 50 .. 89 only (the table stretches them; the lowest maps to 0).
    expect_same("equalize_hist low contrast " + size_str(sz),
                structured(sz, ElemType::u8, 50, 40, ++seed), op);
    Image flat(sz.w, sz.h, 1, ElemType::u8);
    for (int y = 0; y < sz.h; ++y) set_row(flat, y, 131);
    expect_same("equalize_hist constant " + size_str(sz), flat, op);  // unchanged
  }
}

}  // namespace
}  // namespace texcv::hist_cuda_test
