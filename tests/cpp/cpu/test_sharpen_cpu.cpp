// sharpen on the CPU backend: its kernel on an impulse, at strengths 1, 0.5 and 0.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, SharpenImpulse) {
  std::vector<double> v(25, 0.0);
  v[12] = 10;
  Image src = make(5, 5, ElemType::f32, v);
  Image dst(5, 5, 1, ElemType::f32);
  sharpen(src, dst);  // strength 1: the plain kernel: 50 at the centre, -10 at the 4 neighbours
  EXPECT_EQ(test::at(dst, 2, 2, 0), 50);
  EXPECT_EQ(test::at(dst, 1, 2, 0), -10);
  EXPECT_EQ(test::at(dst, 2, 3, 0), -10);
  EXPECT_EQ(test::at(dst, 1, 1, 0), 0);
  sharpen(src, dst, 0.5);  // 10 + 0.5 * (50 - 10) = 30; 0 + 0.5 * (-10) = -5
  EXPECT_EQ(test::at(dst, 2, 2, 0), 30);
  EXPECT_EQ(test::at(dst, 2, 1, 0), -5);
  sharpen(src, dst, 0.0);  // identity
  EXPECT_EQ(values(dst), values(src));
}

}  // namespace
}  // namespace texcv::filter_cpu_test
