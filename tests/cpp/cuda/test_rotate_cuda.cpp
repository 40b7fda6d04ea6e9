// rotate on the CUDA backend against the CPU backend over the sampling grid
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

TEST_P(GeometryCuda, RotateMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 41);
  const Rect r = rotated_size(kBigW, kBigH, 30.0, true);
  // The coordinates of the local step: the inverse of rotate's matrix (as the core inverts it,
  // up to double rounding, which the 1/128-pixel slack of local_step absorbs).
  const std::array<double, 6> fw = rotation_matrix(kBigW, kBigH, r.width, r.height, 30.0);
  const double det = fw[0] * fw[4] - fw[1] * fw[3];
  const double a = fw[4] / det, b = -fw[1] / det, d = -fw[3] / det, e = fw[0] / det;
  const detail::AffineMap map{
      {static_cast<float>(a), static_cast<float>(b), static_cast<float>(-(a * fw[2] + b * fw[5])),
       static_cast<float>(d), static_cast<float>(e), static_cast<float>(-(d * fw[2] + e * fw[5]))}};
  run_grid(
      "rotate", k, src, r.width, r.height,
      [=](int x, int y, float& sx, float& sy) { map(x, y, sx, sy); },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        texcv::rotate(in, out, 30.0, s);
      });
}

}  // namespace
}  // namespace texcv::geometry_cuda_test
