// sobel on the CPU backend: derivatives of ramps (with scharr and laplacian beside it, on the
// same ramps), saturation of negative derivatives on integers and signed f32 outputs.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, SobelScharrLaplacianOnRamps) {
  // f(x, y) = 2x + 3y: Sobel 3x3 dx = (f(x+1) - f(x-1)) * (1 + 2 + 1) = 16, dy = 24;
  // Scharr dx = 2 * 2 * 16 = 64; Laplacian of a plane = 0. Checked away from the border.
  std::vector<double> v;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) v.push_back(2 * x + 3 * y);
  Image src = make(9, 9, ElemType::f32, v);
  Image dst(9, 9, 1, ElemType::f32);
  sobel(src, dst, {1, 0, 3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 16);
  sobel(src, dst, {0, 1, 3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 24);
  sobel(src, dst, {0, 1, 1, 1.0, 0.0, {}});  // ksize 1: f(y+1) - f(y-1) = 6
  EXPECT_EQ(test::at(dst, 4, 4, 0), 6);
  // ksize 5: [-1 -2 0 2 1] on 2x gives 16, times [1 4 6 4 1] (sum 16), * 0.5 + 1.
  sobel(src, dst, {1, 0, 5, 0.5, 1.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 16 * 16 * 0.5 + 1);
  scharr(src, dst, {1, 0, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 64);
  for (int k : {1, 3, 5}) {
    laplacian(src, dst, {k, 1.0, 0.0, {}});
    EXPECT_EQ(test::at(dst, 4, 4, 0), 0) << "ksize " << k;
  }
  // x^2: second derivative 2; ksize 1 gives 2, ksize 3 ([2 0 2; 0 -8 0; 2 0 2]) gives 2 * 2 * 2.
  std::vector<double> q;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) q.push_back(x * x);
  Image sq = make(9, 9, ElemType::f32, q);
  laplacian(sq, dst, {1, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 2);
  laplacian(sq, dst, {3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 8);
}

TEST(CpuFilters, DerivativeSaturatesOnIntegersAndIsSignedInF32) {
  // A falling step: the x derivative is negative: 0 in u8 (saturated), negative in f32.
  Image src = make(5, 1, ElemType::u8, {200, 200, 100, 100, 100});
  Image u8(5, 1, 1, ElemType::u8), f32(5, 1, 1, ElemType::f32);
  SobelParams p{1, 0, 1, 1.0, 0.0, {}};
  sobel(src, u8, p);
  sobel(src, f32, p);
  EXPECT_EQ(values(u8), (std::vector<double>{0, 0, 0, 0, 0}));
  EXPECT_EQ(values(f32), (std::vector<double>{0, -100, -100, 0, 0}));
  p.delta = 150;
  sobel(src, u8, p);
  EXPECT_EQ(values(u8), (std::vector<double>{150, 50, 50, 150, 150}));
}

}  // namespace
}  // namespace texcv::filter_cpu_test
