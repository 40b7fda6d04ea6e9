// convolve against cv::filter2D (opencv/filter_test_util.hpp): kernel shapes, anchors and borders
// on the sample images, random data and sub-image views; scale and f32 output; a constant
// border value; a kernel larger than the image.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/filter_test_util.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_opencv_test {
namespace {

TEST(OpenCVFilters, ConvolveKernelsAnchorsBorders) {
  // (width, height, anchor_x, anchor_y): odd, even, non-square, off-centre anchors, 31x31.
  const int shapes[][4] = {{1, 1, -1, -1}, {3, 3, -1, -1}, {5, 3, 0, 2},
                           {4, 6, -1, -1}, {7, 7, 6, 1},   {31, 31, -1, -1}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (const auto& s : shapes) {
      if (s[0] == 31 && src.width < 100) continue;  // 31x31 on the photo only (time)
      Kernel k{s[0], s[1], random_kernel(s[0] * s[1], static_cast<std::uint32_t>(s[0] * 7 + s[1]))};
      for (Border b : kBorders) {
        ConvolveParams p;
        p.anchor_x = s[2];
        p.anchor_y = s[3];
        p.delta = src.type == ElemType::f32 ? 0.25 : 20.0;
        p.border.border = b;
        Image ours(src.width, src.height, src.channels, src.type);
        convolve(src, ours, k, p);
        const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::filter2D(in, out, -1, cv::Mat(s[1], s[0], CV_32F, k.values.data()),
                       cv::Point(s[2], s[3]), p.delta, bf);
        });
        expect_within(ours, theirs, tol(src.type, src.type, sum_abs(k.values)),
                      "convolve " + what + " " + std::to_string(s[0]) + "x" + std::to_string(s[1]) +
                          " " + to_string(b));
      }
    }
  });
}

TEST(OpenCVFilters, ConvolveScaleAndF32Output) {
  for_each_source([&](const ImageView& src, const std::string& what) {
    Kernel k{5, 5, random_kernel(25, 3)};
    ConvolveParams p;
    p.scale = 0.5;  // a power of two: OpenCV's kernel * 0.5 is exact, so the sums agree
    p.delta = -3;
    Image ours(src.width, src.height, src.channels, ElemType::f32);
    convolve(src, ours, k, p);
    std::vector<float> half(k.values);
    for (auto& v : half) v *= 0.5f;
    cv::Mat theirs;
    cv::filter2D(as_mat(src), theirs, CV_32F, cv::Mat(5, 5, CV_32F, half.data()), cv::Point(-1, -1),
                 p.delta, cv_border_isolated(Border::reflect101));
    expect_within(ours, theirs, tol(src.type, ElemType::f32, sum_abs(half)),
                  "convolve f32 output " + what);
  });
}

TEST(OpenCVFilters, ConstantBorderValue) {
  // OpenCV's filters read 0 outside for BORDER_CONSTANT; a non-zero value is checked by padding
  // with cv::copyMakeBorder(value) and filtering the padded image, then cropping.
  for_each_source([&](const ImageView& src, const std::string& what) {
    const double s = full_scale(src.type) / 255.0;
    ConvolveParams p;
    p.border.border = Border::constant;
    p.border.value = {17 * s, 200 * s, 3 * s, 99 * s};
    Kernel k{5, 3, random_kernel(15, 8)};
    Image ours(src.width, src.height, src.channels, src.type);
    convolve(src, ours, k, p);
    cv::Mat padded, full;
    cv::copyMakeBorder(
        as_mat(src), padded, 1, 1, 2, 2, cv::BORDER_CONSTANT,
        cv::Scalar(p.border.value[0], p.border.value[1], p.border.value[2], p.border.value[3]));
    cv::filter2D(padded, full, -1, cv::Mat(3, 5, CV_32F, k.values.data()), cv::Point(-1, -1), 0,
                 cv::BORDER_REFLECT_101);
    expect_within(ours, full(cv::Rect(2, 1, src.width, src.height)),
                  tol(src.type, src.type, sum_abs(k.values)), "constant value " + what);
  });
}

TEST(OpenCVFilters, KernelLargerThanTheImage) {
  // A 9x7 kernel on a 5x3 image: every border mode folds or repeats more than once.
  for (ElemType t : kTypes) {
    Image src = test::random_image(5, 3, 1, t, 31);
    Kernel k{9, 7, random_kernel(63, 32)};
    for (Border b : kBorders) {
      ConvolveParams p;
      p.border.border = b;
      Image ours(5, 3, 1, t);
      convolve(src, ours, k, p);
      const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
        cv::filter2D(in, out, -1, cv::Mat(7, 9, CV_32F, k.values.data()), cv::Point(-1, -1), 0, bf);
      });
      expect_within(ours, theirs, tol(t, t, sum_abs(k.values)),
                    std::string("convolve 9x7 on 5x3 ") + to_string(t) + " " + to_string(b));
    }
  }
}

}  // namespace
}  // namespace texcv::filter_opencv_test
