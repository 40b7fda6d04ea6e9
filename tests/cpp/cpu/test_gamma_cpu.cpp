// gamma on the CPU backend: hand-computed values of u8, u16 and f32.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, GammaHandValues) {
  Image d8(4, 1, 1, ElemType::u8);
  gamma(make(4, 1, 1, ElemType::u8, {0, 128, 255, 64}), d8, 2.0);
  // 255 (128/255)^2 = 64.25; 255 (64/255)^2 = 16.06.
  EXPECT_EQ(values(d8), (V{0, 64, 255, 16}));
  gamma(make(1, 1, 1, ElemType::u8, {64}), d8.view().roi({0, 0, 1, 1}), 0.5);
  EXPECT_EQ(test::at(d8, 0, 0, 0), 128);  // 255 sqrt(64/255) = 127.75
  Image d16(1, 1, 1, ElemType::u16);
  gamma(make(1, 1, 1, ElemType::u16, {32768}), d16, 2.0);
  EXPECT_EQ(test::at(d16, 0, 0, 0), 16384);  // 32768^2 / 65535 = 16384.25
  Image f(3, 1, 1, ElemType::f32);
  gamma(make(3, 1, 1, ElemType::f32, {0.5, -0.5, 2}), f, 2.0);
  EXPECT_EQ(values(f), (V{0.25, -0.25, 4}));  // sign(x) |x|^gamma, no clamping
}

}  // namespace
}  // namespace texcv::color_cpu_test
