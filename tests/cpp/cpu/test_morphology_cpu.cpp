// morphology on the CPU backend, on small hand-computed cases (values worked out by hand in the
// comments): structuring elements as OpenCV's, every operation on a row, anchors, iterations
// and borders.
#include <array>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/morphology_test_util.hpp"
#include "texcv/morphology.hpp"

namespace texcv::morphology_cpu_test {
namespace {

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

}  // namespace
}  // namespace texcv::morphology_cpu_test
