// normalize on the CPU backend: hand-computed minmax and mean_std values, a constant image.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, NormalizeHandValues) {
  Image d(3, 1, 1, ElemType::u8);
  NormalizeParams p;
  p.alpha = 0;
  p.beta = 100;
  normalize(make(3, 1, 1, ElemType::u8, {10, 20, 30}), d, p);
  EXPECT_EQ(values(d), (V{0, 50, 100}));
  // Constant image: range 0, scale 0: everything becomes min(alpha, beta).
  normalize(make(3, 1, 1, ElemType::u8, {7, 7, 7}), d, p);
  EXPECT_EQ(values(d), (V{0, 0, 0}));
  // mean_std, per channel: channel 0 = {1, 3} (mean 2, std 1), channel 1 = {5, 5} (std 0).
  Image f(2, 1, 2 + 1, ElemType::f32);
  p.mode = NormalizeMode::mean_std;
  p.mean = 10;
  p.std = 2;
  normalize(make(2, 1, 3, ElemType::f32, {1, 5, 0, 3, 5, 4}), f, p);
  EXPECT_EQ(values(f), (V{8, 10, 8, 12, 10, 12}));
}

}  // namespace
}  // namespace texcv::color_cpu_test
