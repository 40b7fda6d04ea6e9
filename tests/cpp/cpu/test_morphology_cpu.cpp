// The CPU morphology on small hand-computed cases (values worked out by hand in the comments).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/morphology.hpp"

namespace texcv {
namespace {

// A w x h 1-channel u8 image from row-major values.
Image u8_image(int w, int h, const std::vector<int>& v) {
  Image img(w, h, 1, ElemType::u8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v[y * w + x]);
  return img;
}

std::vector<int> values(const ImageView& v) {
  std::vector<int> out;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width * v.channels; ++x)
      out.push_back(static_cast<int>(test::at(v, x / v.channels, y, x % v.channels)));
  return out;
}

MorphParams row3() {
  MorphParams p;
  p.ksize_x = 3;
  p.ksize_y = 1;
  return p;
}

std::vector<int> run(MorphOp op, const MorphParams& p) {
  const Image src = u8_image(5, 1, {5, 3, 8, 1, 7});
  Image dst(5, 1, 1, ElemType::u8);
  test::poison(dst.view());
  morphology(src, dst, op, p);
  return values(dst.view());
}

TEST(MorphologyCpu, ElementsAsOpenCV) {
  // OpenCV's 5x5 ellipse, and a 5x3 cross moved to anchor (1, 2).
  const StructuringElement e = structuring_element(MorphShape::ellipse, 5, 5);
  EXPECT_EQ(e.values, (std::vector<std::uint8_t>{0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                                 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0}));
  const StructuringElement c = structuring_element(MorphShape::cross, 5, 3, 1, 2);
  EXPECT_EQ(c.values, (std::vector<std::uint8_t>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1}));
  const StructuringElement r = structuring_element(MorphShape::rect, 3, 1);
  EXPECT_EQ(r.values, (std::vector<std::uint8_t>{1, 1, 1}));
}

TEST(MorphologyCpu, RowOfFiveEveryOperation) {
  // src 5 3 8 1 7, 3x1 rect; the default constant border never wins.
  const MorphParams p = row3();
  EXPECT_EQ(run(MorphOp::erode, p), (std::vector<int>{3, 3, 1, 1, 1}));
  EXPECT_EQ(run(MorphOp::dilate, p), (std::vector<int>{5, 8, 8, 8, 7}));
  // open = dilate(3 3 1 1 1) = 3 3 3 1 1; close = erode(5 8 8 8 7) = 5 5 8 7 7.
  EXPECT_EQ(run(MorphOp::open, p), (std::vector<int>{3, 3, 3, 1, 1}));
  EXPECT_EQ(run(MorphOp::close, p), (std::vector<int>{5, 5, 8, 7, 7}));
  EXPECT_EQ(run(MorphOp::gradient, p), (std::vector<int>{2, 5, 7, 7, 6}));
  EXPECT_EQ(run(MorphOp::tophat, p), (std::vector<int>{2, 0, 5, 0, 6}));
  EXPECT_EQ(run(MorphOp::blackhat, p), (std::vector<int>{0, 2, 0, 6, 0}));
}

TEST(MorphologyCpu, AnchorIterationsBorders) {
  MorphParams p = row3();
  p.anchor_x = 0;  // window x .. x + 2
  EXPECT_EQ(run(MorphOp::erode, p), (std::vector<int>{3, 1, 1, 1, 7}));
  p = row3();
  p.iterations = 2;  // = one 5x1 window x - 2 .. x + 2
  EXPECT_EQ(run(MorphOp::erode, p), (std::vector<int>{3, 1, 1, 1, 1}));
  p = row3();
  p.border.value = std::array<double, 4>{0, 0, 0, 0};  // a zero border wins the min at both ends
  EXPECT_EQ(run(MorphOp::erode, p), (std::vector<int>{0, 3, 1, 1, 0}));
  // A 255 border: open = dilate(3 3 1 1 1) with 255 outside = 255 3 3 1 255; tophat saturates.
  p.border.value = std::array<double, 4>{255, 255, 255, 255};
  EXPECT_EQ(run(MorphOp::open, p), (std::vector<int>{255, 3, 3, 1, 255}));
  EXPECT_EQ(run(MorphOp::tophat, p), (std::vector<int>{0, 0, 5, 0, 0}));
  p = row3();
  p.border.border = Border::wrap;  // x = -1 reads 7, x = 5 reads 5
  EXPECT_EQ(run(MorphOp::dilate, p), (std::vector<int>{7, 8, 8, 8, 7}));
  p.border.border = Border::reflect101;  // x = -1 reads 3, x = 5 reads 1
  EXPECT_EQ(run(MorphOp::erode, p), (std::vector<int>{3, 3, 1, 1, 1}));
  const Image src = u8_image(5, 1, {1, 9, 9, 9, 2});
  Image dst(5, 1, 1, ElemType::u8);
  p.border.border = Border::reflect101;  // x = -1 reads 9, x = 5 reads 9
  erode(src, dst, p);
  EXPECT_EQ(values(dst.view()), (std::vector<int>{1, 1, 9, 2, 2}));
  p.border.border = Border::replicate;  // x = -1 reads 1
  dilate(src, dst, p);
  EXPECT_EQ(values(dst.view()), (std::vector<int>{9, 9, 9, 9, 9}));
}

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

TEST(MorphologyCpu, ChannelsAreIndependentF32) {
  // 3x1, 3 channels: (1,-2,0.5) (4,0,-1) (2,5,3), 3x1 rect.
  Image src(3, 1, 3, ElemType::f32), dst(3, 1, 3, ElemType::f32);
  const float in[9] = {1, -2, 0.5f, 4, 0, -1, 2, 5, 3};
  std::copy(in, in + 9, src.view().row<float>(0));
  erode(src, dst, row3());
  const float* o = dst.view().row<const float>(0);
  EXPECT_EQ(std::vector<float>(o, o + 9), (std::vector<float>{1, -2, -1, 1, -2, -1, 2, 0, -1}));
  dilate(src, dst, row3());
  EXPECT_EQ(std::vector<float>(o, o + 9), (std::vector<float>{4, 0, 0.5f, 4, 5, 3, 4, 5, 3}));
  // u16 keeps its full range: 65535 and 0 survive erode/dilate of a constant row.
  Image a(3, 1, 1, ElemType::u16), b(3, 1, 1, ElemType::u16);
  std::uint16_t* r = a.view().row<std::uint16_t>(0);
  r[0] = 65535;
  r[1] = 65535;
  r[2] = 0;
  dilate(a, b, row3());
  EXPECT_EQ(values(b.view()), (std::vector<int>{65535, 65535, 65535}));
  erode(a, b, row3());
  EXPECT_EQ(values(b.view()), (std::vector<int>{65535, 0, 0}));
}

}  // namespace
}  // namespace texcv
