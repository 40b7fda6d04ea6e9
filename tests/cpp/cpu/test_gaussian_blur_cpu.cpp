// gaussian_blur on the CPU backend: kernels from their formula and the fixed tables, the size
// derived from sigma, sub-image views, and rows run in parallel equal to a serial run.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, GaussianKernelFormulaAndTable) {
  EXPECT_EQ(gaussian_kernel(3, 0), (std::vector<float>{0.25f, 0.5f, 0.25f}));
  EXPECT_EQ(gaussian_kernel(5, -1), (std::vector<float>{0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f}));
  // sigma 1, size 5: exp(-x^2 / 2) normalized, in double here.
  const std::vector<float> k = gaussian_kernel(5, 1.0);
  double sum = 0;
  for (int i = -2; i <= 2; ++i) sum += std::exp(-0.5 * i * i);
  for (int i = -2; i <= 2; ++i) EXPECT_NEAR(k[i + 2], std::exp(-0.5 * i * i) / sum, 1e-7) << i;
  // Sizes derived from sigma: 2 * 4 * sigma + 1 (f32) vs 2 * 3 * sigma + 1 (u8): an impulse shows
  // the support. sigma 1: 9 taps for f32, 7 taps for u8.
  for (ElemType t : {ElemType::f32, ElemType::u8}) {
    std::vector<double> v(21, 0.0);
    v[10] = t == ElemType::u8 ? 255 : 1;
    Image src = make(21, 1, t, v);
    Image dst(21, 1, 1, t);
    GaussianParams p;
    p.sigma_x = 1.0;
    p.ksize_y = 1;
    p.border.border = Border::constant;
    gaussian_blur(src, dst, p);
    int support = 0;
    for (int x = 0; x < 21; ++x) support += test::at(dst, x, 0, 0) != 0 ? 1 : 0;
    EXPECT_EQ(support, t == ElemType::f32 ? 9 : 7) << to_string(t);
  }
}

TEST(CpuFilters, SubImageViewsAndPitch) {
  // A filter on a sub-view equals the filter on a tight copy of it (no parent pixels are read).
  Image owner;
  const ImageView v = test::padded_view(owner, 19, 13, 4, ElemType::u16, 7, 5, 3);
  Image fill = test::random_image(19, 13, 4, ElemType::u16, 3);
  for (int y = 0; y < 13; ++y)
    std::copy(fill.view().row<std::uint16_t>(y), fill.view().row<std::uint16_t>(y) + 19 * 4,
              v.row<std::uint16_t>(y));
  GaussianParams p;
  p.sigma_x = 2.0;
  Image a(19, 13, 4, ElemType::u16), b(19, 13, 4, ElemType::u16);
  gaussian_blur(v, a, p);
  gaussian_blur(fill, b, p);
  EXPECT_EQ(test::compare(a, b).count, 0);
}

TEST(CpuFilters, LargeImageRunsInParallelLikeSerial) {
  // 300x200 crosses the parallel threshold; rows computed by different threads equal the same
  // rows of a small serial run on a crop that holds their whole neighbourhood.
  Image src = test::random_image(300, 200, 1, ElemType::f32, 9);
  Image big(300, 200, 1, ElemType::f32);
  GaussianParams p;
  p.ksize_x = p.ksize_y = 5;
  gaussian_blur(src, big, p);
  const ImageView crop = src.view().roi(Rect{100, 100, 20, 20});
  Image small(20, 20, 1, ElemType::f32);
  gaussian_blur(crop, small, p);
  // Interior of the crop (2 pixels from its edge) sees the same pixels.
  for (int y = 2; y < 18; ++y)
    for (int x = 2; x < 18; ++x)
      ASSERT_EQ(test::at(small, x, y, 0), test::at(big, 100 + x, 100 + y, 0)) << x << "," << y;
}

}  // namespace
}  // namespace texcv::filter_cpu_test
