// bilateral_filter against cv::bilateralFilter, within the bound derived next to its check, on
// the sample images, random images and a padded sub-image view (opencv/filter_test_util.hpp).
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

// Bounds for bilateral_filter against cv::bilateralFilter:
// u8: 1 level. Both use the same space weights ((float)exp(r^2 c) in double over the same disc)
//   and the same colour table ((float)exp(D^2 c) for the integer L1 distance D); only the float
//   summation order differs (OpenCV's SIMD lanes), which moves sum / wsum by a few ulps and so
//   can move a value near .5 by one level after rounding.
// f32: OpenCV reads the colour weight f(D) = exp(-D^2 / (2 sc^2)) from a table of 4096 * cn
//   bins over [0, cn * range] (range = max - min of the image) with linear interpolation. The
//   interpolation error is at most h^2 / 8 * max|f''| with h = cn * range / 4096 and
//   max|f''| = f''(0) = 1 / sc^2, so each weight is off by at most E = h^2 / (8 sc^2) (the space
//   weight <= 1 only shrinks it). The output sum_k w_k v_k / sum_k w_k moves by at most
//   sum_k |dw_k| |v_k - out| / sum_k w_k <= taps * E * range, since the centre weight is 1 (the
//   table's bin 0 is exact) so sum_k w_k >= 1, and |v_k - out| <= range. Float summation over
//   the taps adds at most taps * 2^-23 * max|v| (< 1e-5 * range for taps <= 80: the test data lie
//   in [0, 1] with a range near 1), so the bound is taps * E * range + 1e-5 * range.
int disc_taps(int radius) {
  int n = 0;
  for (int i = -radius; i <= radius; ++i)
    for (int j = -radius; j <= radius; ++j)
      if (i * i + j * j <= radius * radius) ++n;
  return n;
}

double bilateral_bound(const ImageView& src, int radius, double sigma_color) {
  if (src.type == ElemType::u8) return 1.0;
  double mn = 0, mx = 0;
  cv::minMaxLoc(as_mat(src).reshape(1), &mn, &mx);
  const double range = mx - mn;
  const double h = src.channels * range / 4096.0;
  const double e = h * h / (8.0 * sigma_color * sigma_color);
  return disc_taps(radius) * e * range + 1e-5 * range;
}

TEST(OpenCVNonlinear, BilateralWithinBound) {
  struct Case {
    int d;
    double sc, ss;  // sigma_color in 0-255 units (f32 sources are 0-1: divided by 255)
  };
  // d = 0 derives the radius from sigma_space (round(1.5 * 2) = 3); d = 4 gives radius 2.
  const Case cases[] = {{3, 30, 2}, {5, 50, 3}, {4, 10, 1.5}, {9, 75, 5}, {0, 40, 2}};
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int ch : {1, 3})
      for_each_source(t, ch, [&](const ImageView& src, const std::string& what) {
        for (const Case& cs : cases) {
          const double sc = t == ElemType::u8 ? cs.sc : cs.sc / 255.0;
          BilateralParams p;
          p.d = cs.d;
          p.sigma_color = sc;
          p.sigma_space = cs.ss;
          Image ours(src.width, src.height, ch, t);
          test::poison(ours.view());
          bilateral_filter(src, ours, p);
          cv::Mat theirs;
          cv::bilateralFilter(as_mat(src), theirs, cs.d, sc, cs.ss,
                              cv_border_isolated(Border::reflect101));
          const int radius = cs.d > 0 ? cs.d / 2 : 3;
          const double bound = bilateral_bound(src, radius, sc);
          const test::Diff d = test::compare(ours, to_image(theirs, t));
          EXPECT_EQ(d.nan_or_poison, 0) << what;
          EXPECT_LE(d.max_abs, bound)
              << "bilateral " << what << " d " << cs.d << ": " << d.describe();
        }
      });
}

TEST(OpenCVNonlinear, BilateralBorders) {
  // Every border mode (OpenCV pads with cv::copyMakeBorder; constant pads with 0).
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int ch : {1, 3}) {
      Image src = test::random_image(29, 19, ch, t, 8);
      // OpenCV 4.6 sizes its f32 colour table by the image's range only; with BORDER_CONSTANT
      // (padding 0) below the image's minimum, distances to the padding index past the table's
      // end and read whatever follows it on the heap (the result changes from run to run). One
      // 0 element puts the padding inside the range, where OpenCV is defined.
      if (t == ElemType::f32) src.view().row<float>(0)[0] = 0.0f;
      const double sc = t == ElemType::u8 ? 40.0 : 40.0 / 255.0;
      for (Border b : {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                       Border::wrap}) {
        BilateralParams p;
        p.d = 7;
        p.sigma_color = sc;
        p.sigma_space = 2.5;
        p.border.border = b;
        Image ours(29, 19, ch, t);
        bilateral_filter(src, ours, p);
        cv::Mat theirs;
        cv::bilateralFilter(as_mat(src), theirs, 7, sc, 2.5, cv_border_isolated(b));
        const test::Diff d = test::compare(ours, to_image(theirs, t));
        EXPECT_LE(d.max_abs, bilateral_bound(src, 3, sc))
            << to_string(t) << " x" << ch << " " << to_string(b) << ": " << d.describe();
      }
    }
}

}  // namespace
}  // namespace texcv::filter_opencv_test
