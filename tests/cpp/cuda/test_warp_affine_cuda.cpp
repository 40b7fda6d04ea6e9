// warp_affine on the CUDA backend against the CPU backend over the sampling grid
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

TEST_P(GeometryCuda, WarpAffineMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const std::array<float, 6> mf = rotation_inverse();
  std::array<double, 6> m;
  for (int i = 0; i < 6; ++i) m[i] = mf[i];
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 21);
  const detail::AffineMap map{{mf[0], mf[1], mf[2], mf[3], mf[4], mf[5]}};
  run_grid(
      "warp_affine", k, src, 89, 71, [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::warp_affine(in, out, m, true, s);
      });
}

}  // namespace
}  // namespace texcv::geometry_cuda_test
