// convert on the CPU backend: rounding half to even, saturation, NaN, scale and offset.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, ConvertHandValues) {
  Image d(6, 1, 1, ElemType::u8);
  convert(make(6, 1, 1, ElemType::f32, {0.5, 1.5, 2.5, -1, 300, NAN}), d);
  EXPECT_EQ(values(d), (V{0, 2, 2, 0, 255, 0}));  // half to even, saturated, NaN -> 0
  Image f(2, 1, 1, ElemType::f32);
  convert(make(2, 1, 1, ElemType::u16, {0, 65535}), f, 1.0 / 65535, 0.5);
  EXPECT_EQ(values(f), (V{0.5, 1.5}));
  Image u(2, 1, 1, ElemType::u16);
  convert(make(2, 1, 1, ElemType::u8, {1, 255}), u, 257.0, 0);
  EXPECT_EQ(values(u), (V{257, 65535}));
}

}  // namespace
}  // namespace texcv::color_cpu_test
