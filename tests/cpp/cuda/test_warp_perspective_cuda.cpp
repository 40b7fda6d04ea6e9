// warp_perspective on the CUDA backend against the CPU backend over the sampling grid
// (cuda/geometry_test_util.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/geometry_test_util.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

namespace texcv::geometry_cuda_test {
namespace {

TEST_P(GeometryCuda, WarpPerspectiveMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const std::array<float, 9> mf = {1.05f, 0.1f, -3.0f, 0.05f, 0.95f, 2.0f, 0.0008f, 0.0005f, 1.0f};
  std::array<double, 9> m;
  for (int i = 0; i < 9; ++i) m[i] = mf[i];
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 31);
  const detail::PerspectiveMap map{{mf[0], mf[1], mf[2], mf[3], mf[4], mf[5], mf[6], mf[7], mf[8]}};
  run_grid(
      "warp_perspective", k, src, kSmallW * 2, kBigH,
      [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::warp_perspective(in, out, m, true, s);
      });
}

}  // namespace
}  // namespace texcv::geometry_cuda_test
