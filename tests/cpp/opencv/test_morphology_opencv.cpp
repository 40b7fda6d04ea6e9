// The CPU morphology against OpenCV 4.6: cv::getStructuringElement, cv::erode, cv::dilate and
// cv::morphologyEx, on a camera.png / astronaut.png crop and random data, for u8/u16/f32 x 1/3/4
// channels, every element shape, odd sizes, anchors, iterations, border modes (constant with
// OpenCV's default "never wins" value and with a given value, replicate, reflect, reflect101; wrap
// through a wrap-padded copy, as OpenCV's filter engine rejects BORDER_WRAP) and sub-image views.
// Min/max are exact: every comparison asserts identical values.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <optional>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/morphology.hpp"

namespace texcv::morphology_opencv_test {
namespace {

using test::as_mat;
using test::cv_border;
using test::cv_depth;

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
constexpr int kChannels[] = {1, 3, 4};
constexpr MorphShape kShapes[] = {MorphShape::rect, MorphShape::ellipse, MorphShape::cross};
constexpr MorphOp kOps[] = {MorphOp::erode,    MorphOp::dilate, MorphOp::open,    MorphOp::close,
                            MorphOp::gradient, MorphOp::tophat, MorphOp::blackhat};

int cv_shape(MorphShape s) {
  return s == MorphShape::rect      ? cv::MORPH_RECT
         : s == MorphShape::ellipse ? cv::MORPH_ELLIPSE
                                    : cv::MORPH_CROSS;
}

int cv_op(MorphOp op) {
  switch (op) {
    case MorphOp::erode:
      return cv::MORPH_ERODE;
    case MorphOp::dilate:
      return cv::MORPH_DILATE;
    case MorphOp::open:
      return cv::MORPH_OPEN;
    case MorphOp::close:
      return cv::MORPH_CLOSE;
    case MorphOp::gradient:
      return cv::MORPH_GRADIENT;
    case MorphOp::tophat:
      return cv::MORPH_TOPHAT;
    case MorphOp::blackhat:
      return cv::MORPH_BLACKHAT;
  }
  return -1;
}

// OpenCV's result of op; wrap through a 40-pixel wrap-padded copy (more than any reach here).
cv::Mat reference(const ImageView& src, MorphOp op, const MorphParams& p) {
  const cv::Mat k = cv::getStructuringElement(cv_shape(p.shape), cv::Size(p.ksize_x, p.ksize_y),
                                              cv::Point(p.anchor_x, p.anchor_y));
  const cv::Point anchor(p.anchor_x, p.anchor_y);
  const cv::Scalar value = p.border.value ? cv::Scalar((*p.border.value)[0], (*p.border.value)[1],
                                                       (*p.border.value)[2], (*p.border.value)[3])
                                          : cv::morphologyDefaultBorderValue();
  cv::Mat out;
  if (p.border.border != Border::wrap) {
    cv::morphologyEx(as_mat(src), out, cv_op(op), k, anchor, p.iterations,
                     cv_border(p.border.border), value);
    return out;
  }
  constexpr int kPad = 40;
  cv::Mat padded;
  cv::copyMakeBorder(as_mat(src), padded, kPad, kPad, kPad, kPad, cv::BORDER_WRAP);
  cv::morphologyEx(padded, out, cv_op(op), k, anchor, p.iterations, cv::BORDER_REPLICATE);
  return out(cv::Rect(kPad, kPad, src.width, src.height)).clone();
}

std::string describe(const ImageView& src, MorphOp op, const MorphParams& p) {
  std::string s = std::string(to_string(op)) + " " + to_string(src.type) + "x" +
                  std::to_string(src.channels) + " " + std::to_string(src.width) + "x" +
                  std::to_string(src.height) + " " + to_string(p.shape) + " " +
                  std::to_string(p.ksize_x) + "x" + std::to_string(p.ksize_y) + " anchor (" +
                  std::to_string(p.anchor_x) + "," + std::to_string(p.anchor_y) + ") iter " +
                  std::to_string(p.iterations) + " border " + to_string(p.border.border);
  if (p.border.value) s += " value " + std::to_string((*p.border.value)[0]);
  return s;
}

// ours == OpenCV exactly; dst poisoned first. op erode/dilate also go through erode()/dilate().
void expect_same(const ImageView& src, MorphOp op, const MorphParams& p) {
  const std::string what = describe(src, op, p);
  Image dst(src.width, src.height, src.channels, src.type);
  test::poison(dst.view());
  morphology(src, dst.view(), op, p);
  const cv::Mat theirs = reference(src, op, p);
  Image ref(src.width, src.height, src.channels, src.type);
  theirs.copyTo(as_mat(ref.view()));
  const test::Diff d = test::compare(dst.view(), ref.view());
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_EQ(d.count, 0) << what << ": " << d.describe();
  if (op == MorphOp::erode || op == MorphOp::dilate) {
    Image d2(src.width, src.height, src.channels, src.type);
    test::poison(d2.view());
    if (op == MorphOp::erode) {
      erode(src, d2.view(), p);
    } else {
      dilate(src, d2.view(), p);
    }
    EXPECT_EQ(test::compare(d2.view(), ref.view()).count, 0) << what << " (direct call)";
  }
}

Image photo(ElemType t, int ch) {
  return test::photo(t, ch, 96, 72);
}

TEST(MorphologyOpenCV, StructuringElementsMatch) {
  for (MorphShape s : kShapes)
    for (int w = 1; w <= 15; w += 2)
      for (int h = 1; h <= 15; h += 2)
        for (int a : {-1, 0}) {
          const StructuringElement e = structuring_element(s, w, h, a, a);
          const cv::Mat k = cv::getStructuringElement(cv_shape(s), cv::Size(w, h), cv::Point(a, a));
          ASSERT_EQ(e.width, w);
          ASSERT_EQ(e.height, h);
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
              EXPECT_EQ(e.values[static_cast<std::size_t>(y) * w + x], k.at<std::uint8_t>(y, x))
                  << to_string(s) << " " << w << "x" << h << " anchor " << a << " at " << x << ","
                  << y;
        }
}

// Every op, shape and type on the photo crop; 3x3 and 5x3 elements, default border.
TEST(MorphologyOpenCV, PhotoEveryOpShapeType) {
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      const Image src = photo(t, ch);
      for (MorphOp op : kOps)
        for (MorphShape s : kShapes)
          for (auto [kx, ky] : {std::pair{3, 3}, std::pair{5, 3}, std::pair{7, 7}}) {
            MorphParams p;
            p.shape = s;
            p.ksize_x = kx;
            p.ksize_y = ky;
            expect_same(src.view(), op, p);
          }
    }
}

// Borders, values, anchors and iterations on random data (odd sizes, padded sub-views).
TEST(MorphologyOpenCV, RandomBordersAnchorsIterations) {
  std::uint32_t seed = 100;
  const std::optional<std::array<double, 4>> values[] = {
      std::nullopt, std::array<double, 4>{0, 0, 0, 0}, std::array<double, 4>{200, 7, 90, 255}};
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      const Image rnd = test::random_image(37, 23, ch, t, seed++);
      Image owner;
      const ImageView src = test::padded_view(owner, 37, 23, ch, t, 5, 3, 2);
      as_mat(rnd.view()).copyTo(as_mat(src));
      for (Border b :
           {Border::constant, Border::replicate, Border::reflect, Border::reflect101, Border::wrap})
        for (MorphShape s : kShapes)
          for (int iter : {1, 2, 3}) {
            MorphParams p;
            p.shape = s;
            p.ksize_x = 5;
            p.ksize_y = 3;
            p.iterations = iter;
            p.border.border = b;
            for (MorphOp op : {MorphOp::erode, MorphOp::dilate, MorphOp::open, MorphOp::gradient,
                               MorphOp::blackhat})
              expect_same(src, op, p);
            p.anchor_x = 0;
            p.anchor_y = 2;
            expect_same(src, MorphOp::erode, p);
            expect_same(src, MorphOp::close, p);
            expect_same(src, MorphOp::tophat, p);
            if (b == Border::constant)
              for (const auto& v : values) {
                p.border.value = v;
                expect_same(src, MorphOp::dilate, p);
                expect_same(src, MorphOp::erode, p);
              }
          }
    }
}

// Larger elements (including wider than the image) and 1-pixel elements.
TEST(MorphologyOpenCV, SizesFromOneToLargerThanTheImage) {
  const Image src = test::random_image(19, 13, 3, ElemType::u8, 7);
  for (MorphShape s : kShapes)
    for (auto [kx, ky] :
         {std::pair{1, 1}, std::pair{1, 7}, std::pair{9, 1}, std::pair{11, 11}, std::pair{25, 17}})
      for (Border b : {Border::constant, Border::replicate, Border::reflect101})
        for (MorphOp op : {MorphOp::erode, MorphOp::dilate, MorphOp::gradient}) {
          MorphParams p;
          p.shape = s;
          p.ksize_x = kx;
          p.ksize_y = ky;
          p.border.border = b;
          expect_same(src.view(), op, p);
        }
}

// Images taller than one block of rows (the CPU backend's blocks of max(32, 4 kh) output rows, and
// a rectangle's column pass by van Herk / Gil-Werman from 5 rows on): heights that are no
// multiple of the element's or the block's, every type, rectangles and an ellipse, anchors.
TEST(MorphologyOpenCV, TallImagesAcrossRowBlocks) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int ch : {1, 3}) {
      const Image src = test::random_image(23, 301, ch, t, 11u + ch);
      for (auto [kx, ky] : {std::pair{3, 5}, std::pair{15, 15}, std::pair{1, 21}, std::pair{5, 9}})
        for (MorphShape s : {MorphShape::rect, MorphShape::ellipse})
          for (Border b : {Border::constant, Border::reflect101})
            for (MorphOp op : {MorphOp::erode, MorphOp::dilate}) {
              MorphParams p;
              p.shape = s;
              p.ksize_x = kx;
              p.ksize_y = ky;
              p.anchor_y = ky == 9 ? 1 : -1;
              p.border.border = b;
              expect_same(src.view(), op, p);
            }
    }
}

}  // namespace
}  // namespace texcv::morphology_opencv_test
