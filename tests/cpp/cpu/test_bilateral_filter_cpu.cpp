// bilateral_filter on the CPU backend against hand-computed values (f32, u8 with three
// channels and the L1 colour distance) and a constant image left unchanged.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(NonlinearCpu, BilateralF32HandComputed) {
  // 3x3, centre 1, others 0; d = 3 (radius 1: the 5-tap cross, the corners lie at sqrt(2) > 1),
  // sigma_space = sigma_color = 1, reflect101. Neighbours at distance 1: space weight e^-0.5;
  // colour weight e^-0.5 for |difference| 1, 1 for 0.
  // centre: 1 / (1 + 4 e^-1); top middle (1,0): its reflected upper neighbour is the centre, so
  // two neighbours of value 1 (colour distance 1) and two of value 0 (distance 0):
  // 2 e^-1 / (1 + 2 e^-1 + 2 e^-0.5); corner (0,0): right (1,0) and down (0,1) are 0, left and up
  // reflect to the same 0 pixels: all weights multiply 0 -> 0.
  Image src = from_values(3, 3, 1, ElemType::f32, {0, 0, 0, 0, 1, 0, 0, 0, 0});
  Image dst(3, 3, 1, ElemType::f32);
  test::poison(dst.view());
  BilateralParams p;
  p.d = 3;
  p.sigma_color = 1.0;
  p.sigma_space = 1.0;
  bilateral_filter(src, dst, p);
  const double e1 = std::exp(-1.0), eh = std::exp(-0.5);
  EXPECT_NEAR(test::at(dst, 1, 1, 0), 1.0 / (1.0 + 4.0 * e1), 1e-6);
  EXPECT_NEAR(test::at(dst, 1, 0, 0), 2.0 * e1 / (1.0 + 2.0 * e1 + 2.0 * eh), 1e-6);
  EXPECT_NEAR(test::at(dst, 0, 1, 0), 2.0 * e1 / (1.0 + 2.0 * e1 + 2.0 * eh), 1e-6);
  EXPECT_EQ(test::at(dst, 0, 0, 0), 0.0);
}

TEST(NonlinearCpu, BilateralU8ThreeChannelL1Distance) {
  // Centre (10, 20, 30), the rest 0; d = 3, sigma_space 1, sigma_color 50, constant border 0.
  // The colour distance is L1 over channels: 60, weight exp(-3600 / 5000); each neighbour of the
  // cross has space weight e^-0.5. centre_c = v_c / (1 + 4 e^-0.5 e^-0.72), rounded.
  std::vector<double> v(27, 0.0);
  v[12] = 10;
  v[13] = 20;
  v[14] = 30;
  Image src = from_values(3, 3, 3, ElemType::u8, v);
  Image dst(3, 3, 3, ElemType::u8);
  BilateralParams p;
  p.d = 3;
  p.sigma_color = 50;
  p.sigma_space = 1;
  p.border.border = Border::constant;
  bilateral_filter(src, dst, p);
  const double wn = std::exp(-0.5) * std::exp(-0.72);
  const double share = 1.0 / (1.0 + 4.0 * wn);  // 0.4734...: no value lands near .5
  for (int c = 0; c < 3; ++c)
    EXPECT_EQ(test::at(dst, 1, 1, c), std::nearbyint((c + 1) * 10 * share)) << c;
  // (1,0): neighbours are the centre (distance 60), two zeros and the constant-border zero; the
  // value is 10 * wn / (1 + 3 e^-0.5 + wn) = 1.29.. -> 1 (channel 0).
  EXPECT_EQ(test::at(dst, 1, 0, 0), std::nearbyint(10 * wn / (1.0 + 3.0 * std::exp(-0.5) + wn)));
}

TEST(NonlinearCpu, BilateralConstantImageUnchanged) {
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int ch : {1, 3}) {
      Image src(17, 11, ch, t);
      const ImageView sv = src.view();
      for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 17 * ch; ++x) {
          if (t == ElemType::u8) sv.row<std::uint8_t>(y)[x] = 77;
          if (t == ElemType::f32) sv.row<float>(y)[x] = 0.3f;
        }
      Image dst(17, 11, ch, t);
      BilateralParams p;
      p.d = 7;
      p.sigma_color = 20;
      p.sigma_space = 3;
      bilateral_filter(src, dst, p);
      // u8 exact; f32: sum(w * 0.3) / sum(w) in float, a few ulps of 0.3.
      const test::Diff d = test::compare(src, dst);
      EXPECT_LE(d.max_abs, t == ElemType::u8 ? 0.0 : 1e-6) << d.describe();
    }
}

}  // namespace
}  // namespace texcv::filter_cpu_test
