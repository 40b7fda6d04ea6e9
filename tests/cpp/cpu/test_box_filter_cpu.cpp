// box_filter on the CPU backend: box sums of a known image under each border mode, and rounding
// half to even.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, BoxSumOnKnownImage) {
  // 1 2 3 / 4 5 6 / 7 8 9, 3x3 sums.
  Image src = make(3, 3, ElemType::f32, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Image dst(3, 3, 1, ElemType::f32);
  BoxParams p;
  p.normalize = false;
  p.border.border = Border::constant;
  box_filter(src, dst, p);
  // Constant 0 outside: corner (0,0) = 1+2+4+5, centre = 45.
  EXPECT_EQ(values(dst), (std::vector<double>{12, 21, 16, 27, 45, 33, 24, 39, 28}));
  p.border.border = Border::replicate;
  box_filter(src, dst, p);
  // Corner (0,0): rows 1 1 2 / 1 1 2 / 4 4 5 = 21; centre 45.
  EXPECT_EQ(test::at(dst, 0, 0, 0), 21);
  EXPECT_EQ(test::at(dst, 1, 1, 0), 45);
  p.border.border = Border::reflect101;
  p.normalize = true;
  box_filter(src, dst, p);
  // reflect101 corner (0,0): rows 5 4 5 / 2 1 2 / 5 4 5 = 33, / 9.
  EXPECT_FLOAT_EQ(static_cast<float>(test::at(dst, 0, 0, 0)), 33.0f / 9.0f);
  EXPECT_FLOAT_EQ(static_cast<float>(test::at(dst, 1, 1, 0)), 5.0f);
}

TEST(CpuFilters, RoundsHalfToEven) {
  // Box 2x1, anchor 1: (src(x-1) + src(x)) / 2 with replicate: 1, 1.5 -> 2, 2.5 -> 2, 3.5 -> 4.
  Image src = make(4, 1, ElemType::u8, {1, 2, 3, 4});
  Image dst(4, 1, 1, ElemType::u8);
  BoxParams p;
  p.ksize_x = 2;
  p.ksize_y = 1;
  p.border.border = Border::replicate;
  box_filter(src, dst, p);
  EXPECT_EQ(values(dst), (std::vector<double>{1, 2, 2, 4}));
}

}  // namespace
}  // namespace texcv::filter_cpu_test
