// dilate on the CPU backend: a dilated point paints the structuring element.
#include <array>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/morphology_test_util.hpp"
#include "texcv/morphology.hpp"

namespace texcv::morphology_cpu_test {
namespace {

TEST(MorphologyCpu, DilatedPointIsTheElement) {
  // One 9 at the centre of a 7x7 image: dilation paints the (symmetric) element around it.
  for (MorphShape s : {MorphShape::rect, MorphShape::ellipse, MorphShape::cross}) {
    std::vector<int> v(49, 0);
    v[3 * 7 + 3] = 9;
    const Image src = u8_image(7, 7, v);
    Image dst(7, 7, 1, ElemType::u8);
    MorphParams p;
    p.shape = s;
    p.ksize_x = p.ksize_y = 5;
    dilate(src, dst, p);
    const StructuringElement e = structuring_element(s, 5, 5);
    for (int y = 0; y < 7; ++y)
      for (int x = 0; x < 7; ++x) {
        const bool inside = x >= 1 && x <= 5 && y >= 1 && y <= 5 && e.values[(y - 1) * 5 + x - 1];
        EXPECT_EQ(test::at(dst.view(), x, y, 0), inside ? 9 : 0)
            << to_string(s) << " " << x << "," << y;
      }
  }
}

}  // namespace
}  // namespace texcv::morphology_cpu_test
