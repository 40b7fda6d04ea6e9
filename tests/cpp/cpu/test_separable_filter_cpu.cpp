// separable_filter on the CPU backend: equal to convolve with the outer product of its kernels.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, SeparableEqualsConvolveWithOuterProduct) {
  Image src = test::random_image(37, 29, 3, ElemType::f32, 4);
  const std::vector<float> kx{0.5f, -1.0f, 2.0f}, ky{1.0f, 0.25f, -0.5f, 3.0f, 1.0f};
  Kernel k{3, 5, {}};
  for (float b : ky)
    for (float a : kx) k.values.push_back(a * b);
  for (Border b : {Border::constant, Border::reflect, Border::wrap}) {
    Image a(37, 29, 3, ElemType::f32), c(37, 29, 3, ElemType::f32);
    SeparableParams sp;
    sp.border.border = b;
    sp.anchor_x = 0;
    sp.anchor_y = 3;
    separable_filter(src, a, kx, ky, sp);
    ConvolveParams cp;
    cp.border.border = b;
    cp.anchor_x = 0;
    cp.anchor_y = 3;
    convolve(src, c, k, cp);
    // Same sums in another association: float rounding of terms up to 3 * 15.75 -> 1e-5 abs.
    EXPECT_LE(test::compare(a, c).max_abs, 1e-5) << to_string(b);
  }
}

}  // namespace
}  // namespace texcv::filter_cpu_test
