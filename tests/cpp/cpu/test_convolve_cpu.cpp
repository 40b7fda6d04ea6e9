// convolve on the CPU backend: each border mode along a row (a shifting kernel shows the
// pixels read outside), and a constant border value converted to the element type.
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

// Picks the source pixel 3 to the left (kernel 1 0 0 0 0 0 0 with the centre anchor) or to the
// right, so the first/last three outputs show the border pattern.
std::vector<double> shifted(const Image& src, Border b, bool left) {
  Image dst(src.width(), 1, 1, ElemType::f32);
  Kernel k{7, 1, std::vector<float>(7, 0.0f)};
  k.values[left ? 0 : 6] = 1.0f;
  ConvolveParams p;
  p.border = {b, {100, 0, 0, 0}};
  convolve(src, dst, k, p);
  std::vector<double> v = values(dst);
  return left ? std::vector<double>(v.begin(), v.begin() + 3)
              : std::vector<double>(v.end() - 3, v.end());
}

TEST(CpuFilters, EachBorderModeOnARow) {
  // abcdefgh = 1..8.
  Image src = make(8, 1, ElemType::f32, {1, 2, 3, 4, 5, 6, 7, 8});
  using V = std::vector<double>;
  EXPECT_EQ(shifted(src, Border::constant, true), (V{100, 100, 100}));
  EXPECT_EQ(shifted(src, Border::constant, false), (V{100, 100, 100}));
  EXPECT_EQ(shifted(src, Border::replicate, true), (V{1, 1, 1}));    // aaa|a
  EXPECT_EQ(shifted(src, Border::replicate, false), (V{8, 8, 8}));   // h|hhh
  EXPECT_EQ(shifted(src, Border::reflect, true), (V{3, 2, 1}));      // cba|a
  EXPECT_EQ(shifted(src, Border::reflect, false), (V{8, 7, 6}));     // h|hgf
  EXPECT_EQ(shifted(src, Border::reflect101, true), (V{4, 3, 2}));   // dcb|a
  EXPECT_EQ(shifted(src, Border::reflect101, false), (V{7, 6, 5}));  // h|gfe
  EXPECT_EQ(shifted(src, Border::wrap, true), (V{6, 7, 8}));         // fgh|a
  EXPECT_EQ(shifted(src, Border::wrap, false), (V{1, 2, 3}));        // h|abc
  // The default is reflect101, as OpenCV's BORDER_DEFAULT.
  EXPECT_EQ(ConvolveParams{}.border.border, Border::reflect101);
}

TEST(CpuFilters, BorderValueConvertedToTheElementType) {
  // A constant value of 300.6 on u8 is saturated to 255 first (as OpenCV's borderValue).
  Image src = make(3, 1, ElemType::u8, {10, 20, 30});
  Image dst(3, 1, 1, ElemType::f32);
  Kernel k{3, 1, {1, 0, 0}};
  ConvolveParams p;
  p.border = {Border::constant, {300.6, 0, 0, 0}};
  convolve(src, dst, k, p);
  EXPECT_EQ(values(dst), (std::vector<double>{255, 10, 20}));
}

}  // namespace
}  // namespace texcv::filter_cpu_test
