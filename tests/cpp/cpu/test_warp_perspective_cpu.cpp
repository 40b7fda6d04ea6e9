// warp_perspective on the CPU backend: the homogeneous scale of the matrix (and an affine
// translation beside it).
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/geometry_test_util.hpp"

namespace texcv::geometry_cpu_test {
namespace {

TEST(CpuWarp, PerspectiveHomogeneousScale) {
  Image src = test::random_image(8, 6, 4, ElemType::f32, 5);
  Image dst(4, 3, 4, ElemType::f32);
  Sampling s;
  s.interp = Interp::linear;
  // Inverse map (x, y, 0.5) ~ (2x, 2y): every destination pixel is a source pixel.
  warp_perspective(src, dst, {1, 0, 0, 0, 1, 0, 0, 0, 0.5}, true, s);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(at<float>(dst, x, y, c), at<float>(src, 2 * x, 2 * y, c));
  // The forward matrix 2 * identity maps every pixel to itself.
  Image same(8, 6, 4, ElemType::f32);
  warp_perspective(src, same, {2, 0, 0, 0, 2, 0, 0, 0, 2}, false, s);
  EXPECT_EQ(test::compare(same, src).count, 0);
  // Affine forward matrix: translation by (+1, +2) shifts content right and down.
  Image sh(8, 6, 4, ElemType::f32);
  warp_affine(src, sh, {1, 0, 1, 0, 1, 2}, false, s);
  EXPECT_EQ(at<float>(sh, 3, 4, 2), at<float>(src, 2, 2, 2));
}

}  // namespace
}  // namespace texcv::geometry_cpu_test
