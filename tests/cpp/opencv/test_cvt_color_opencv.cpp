// cvt_color against cv::cvtColor (opencv/color_test_util.hpp): gray, the channel swaps and gray
// expansion, BT.601 full range against YCrCb, OpenCV's RGB2YUV (not YCbCr), HSV.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/color_test_util.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/color.hpp"

namespace texcv::color_opencv_test {
namespace {

// Largest circular difference of the H channel (channel 0) with period `period`, and the largest
// plain difference of the other channels.
void hsv_diff(const ImageView& a, const cv::Mat& b, double period, double& dh, double& dsv) {
  const Image bi = from_mat(b);
  dh = dsv = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      double d = std::fabs(test::at(a, x, y, 0) - test::at(bi.view(), x, y, 0));
      dh = std::max(dh, std::min(d, period - d));
      for (int c = 1; c < 3; ++c)
        dsv = std::max(dsv, std::fabs(test::at(a, x, y, c) - test::at(bi.view(), x, y, c)));
    }
}

TEST(ColorOpenCV, GrayMatchesCvtColor) {
  struct Case {
    ColorCode code;
    int ch;
    int cv_code;
  };
  const Case cases[] = {{ColorCode::rgb2gray, 3, cv::COLOR_RGB2GRAY},
                        {ColorCode::bgr2gray, 3, cv::COLOR_BGR2GRAY},
                        {ColorCode::rgba2gray, 4, cv::COLOR_RGBA2GRAY},
                        {ColorCode::bgra2gray, 4, cv::COLOR_BGRA2GRAY}};
  for (ElemType t : kTypes)
    for (const Case& k : cases)
      for (int src_kind = 0; src_kind < 3; ++src_kind) {
        SCOPED_TRACE(std::string(to_string(k.code)) + " " + to_string(t) + " source " +
                     std::to_string(src_kind));
        Image so, dout;
        ImageView s;
        Image ph;
        if (src_kind < 2) {
          ph = from_mat(photo(kPhotos[src_kind], k.ch, t));
          s = ph.view();
        } else {
          s = random_view(so, 67, 31, k.ch, t, 7);
        }
        const ImageView d = out_view(dout, s.width, s.height, 1, t);
        cvt_color(s, d, k.code);
        cv::Mat ref;
        cv::cvtColor(as_mat(s), ref, k.cv_code);
        const test::Diff diff = test::compare(d, from_mat(ref).view());
        if (t == ElemType::f32) {
          // OpenCV sums the same three float products; its SIMD path may fuse a multiply-add
          // (one rounding less): a few ulps of values <= 1.
          EXPECT_LE(diff.max_abs, 1e-6) << diff.describe();
        } else if (t == ElemType::u8) {
          // u8: the same 15-bit fixed point (9798, 19235, 3735, rounded sum): bit-exact.
          EXPECT_EQ(diff.count, 0) << diff.describe();
        } else {
          // u16: texcv rounds the exact 14-bit sum (4899, 9617, 1868) once; OpenCV 4.6's SIMD
          // path takes the high half of each 16-bit product separately (truncating each term
          // before the sum): up to 2 levels of 65535.
          EXPECT_LE(diff.max_abs, 2.0) << diff.describe();
        }
      }
}

TEST(ColorOpenCV, SwapsAndGrayExpansionAreExact) {
  for (ElemType t : kTypes) {
    SCOPED_TRACE(to_string(t));
    Image o1, o2, o3, o4, o5, o6;
    const ImageView s3 = random_view(o1, 33, 17, 3, t, 1);
    const ImageView s4 = random_view(o2, 33, 17, 4, t, 2);
    const ImageView s1 = random_view(o3, 33, 17, 1, t, 3);
    const ImageView d3 = out_view(o4, 33, 17, 3, t);
    const ImageView d4 = out_view(o5, 33, 17, 4, t);
    cv::Mat ref;
    cvt_color(s3, d3, ColorCode::rgb2bgr);
    cv::cvtColor(as_mat(s3), ref, cv::COLOR_RGB2BGR);
    EXPECT_EQ(test::compare(d3, from_mat(ref).view()).count, 0);  // pure permutation
    cvt_color(s4, d4, ColorCode::rgba2bgra);
    cv::cvtColor(as_mat(s4), ref, cv::COLOR_RGBA2BGRA);
    EXPECT_EQ(test::compare(d4, from_mat(ref).view()).count, 0);
    cvt_color(s1, d3, ColorCode::gray2rgb);
    cv::cvtColor(as_mat(s1), ref, cv::COLOR_GRAY2RGB);
    EXPECT_EQ(test::compare(d3, from_mat(ref).view()).count, 0);
    cvt_color(s1, d4, ColorCode::gray2rgba);
    cv::cvtColor(as_mat(s1), ref, cv::COLOR_GRAY2RGBA);  // alpha = type maximum in both
    EXPECT_EQ(test::compare(d4, from_mat(ref).view()).count, 0);
  }
}

// texcv's rgb2yuv_bt601 is BT.601 full-range Y'CbCr; OpenCV's COLOR_RGB2YCrCb is the same
// transform with Cr before Cb and chroma coefficients rounded to 3 decimals (0.564 and 0.713
// instead of 0.5/0.886 = 0.56433 and 0.5/0.701 = 0.71327; inverse 1.403/-0.714/-0.344/1.773
// instead of 1.402/-0.71414/-0.34414/1.772).
TEST(ColorOpenCV, Bt601FullRangeMatchesYCrCb) {
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (const char* name : {"astronaut.png", "coffee.png", "camera.png", "random"}) {
      SCOPED_TRACE(std::string(name) + " " + to_string(t));
      const Image s = std::string(name) == "random" ? test::random_image(71, 33, 3, t, 4)
                                                    : from_mat(photo(name, 3, t));
      Image yuv(s.width(), s.height(), 3, t), back(s.width(), s.height(), 3, t);
      cvt_color(s, yuv, ColorCode::rgb2yuv_bt601);
      cv::Mat ycrcb;
      cv::cvtColor(as_mat(s.view()), ycrcb, cv::COLOR_RGB2YCrCb);
      cv::Mat ref;
      cv::mixChannels(std::vector<cv::Mat>{ycrcb},
                      std::vector<cv::Mat>{ref = cv::Mat(ycrcb.size(), ycrcb.type())},
                      std::vector<int>{0, 0, 2, 1, 1, 2});
      test::Diff d = test::compare(yuv, from_mat(ref).view());
      // u8: 0.0003 x 255 < 0.1 level of coefficient difference, plus OpenCV's 14-bit fixed point
      // rounding: 1 level. f32: |B - Y| <= 0.886 times 0.00033 (Cb), |R - Y| <= 0.701 times
      // 0.00027 (Cr): 3e-4.
      EXPECT_LE(d.max_abs, t == ElemType::u8 ? 1.0 : 3e-4) << d.describe();

      cvt_color(yuv, back, ColorCode::yuv2rgb_bt601);
      cv::Mat yuv_cv;  // our Y, U, V back in OpenCV's Y, Cr, Cb order
      cv::mixChannels(std::vector<cv::Mat>{as_mat(yuv.view())},
                      std::vector<cv::Mat>{yuv_cv = cv::Mat(ycrcb.size(), ycrcb.type())},
                      std::vector<int>{0, 0, 2, 1, 1, 2});
      cv::cvtColor(yuv_cv, ref, cv::COLOR_YCrCb2RGB);
      d = test::compare(back, from_mat(ref).view());
      // Inverse coefficients differ by <= 0.001 on chroma <= 0.5 (u8: 0.13 level + rounding of
      // OpenCV's fixed point: 1 level; f32: 1e-3).
      EXPECT_LE(d.max_abs, t == ElemType::u8 ? 1.0 : 1e-3) << d.describe();
    }
}

// OpenCV's COLOR_RGB2YUV is the analog YUV scale (U = 0.492 (B - Y), V = 0.877 (R - Y)), not
// BT.601 Y'CbCr; this pins that finding (docs/ops/color.md), so it is not used as a reference.
TEST(ColorOpenCV, CvRgb2YuvIsNotYCbCr) {
  cv::Mat blue(1, 1, CV_32FC3, cv::Scalar(0, 0, 1));  // R, G, B
  cv::Mat yuv;
  cv::cvtColor(blue, yuv, cv::COLOR_RGB2YUV);
  const cv::Vec3f v = yuv.at<cv::Vec3f>(0, 0);
  EXPECT_NEAR(v[1], 0.5 + 0.492 * 0.886, 1e-3);
  Image s(1, 1, 3, ElemType::f32), d(1, 1, 3, ElemType::f32);
  as_mat(s.view()).setTo(cv::Scalar(0, 0, 1));
  cvt_color(s, d, ColorCode::rgb2yuv_bt601);
  EXPECT_NEAR(test::at(d, 0, 0, 1), 1.0, 1e-6);  // Cb of pure blue is the top of the range
}

TEST(ColorOpenCV, HsvMatchesCvtColor) {
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int kind = 0; kind < 3; ++kind) {
      SCOPED_TRACE(std::string(to_string(t)) + " source " + std::to_string(kind));
      Image ph, so, dout, bout;
      ImageView s;
      if (kind < 2) {
        ph = from_mat(photo(kPhotos[kind], 3, t));
        s = ph.view();
      } else {
        s = random_view(so, 101, 37, 3, t, 11);
      }
      const ImageView d = out_view(dout, s.width, s.height, 3, t);
      for (bool bgr : {false, true}) {
        cvt_color(s, d, bgr ? ColorCode::bgr2hsv : ColorCode::rgb2hsv);
        cv::Mat ref;
        cv::cvtColor(as_mat(s), ref, bgr ? cv::COLOR_BGR2HSV : cv::COLOR_RGB2HSV);
        double dh = 0, dsv = 0;
        hsv_diff(d, ref, t == ElemType::u8 ? 180.0 : 360.0, dh, dsv);
        if (t == ElemType::u8) {
          // OpenCV computes u8 H and S in 12-bit fixed point with reciprocal tables; texcv in
          // float, rounded once: 1 level (H circular, 179 next to 0).
          EXPECT_LE(dh, 1.0);
          EXPECT_LE(dsv, 1.0);
        } else {
          // Same float formula; OpenCV's SIMD path may order or fuse differently: H in degrees
          // 1e-3, S and V 1e-6.
          EXPECT_LE(dh, 1e-3);
          EXPECT_LE(dsv, 1e-6);
        }
        // Back to RGB from OpenCV's HSV.
        const Image hsv = from_mat(ref);
        const ImageView b = out_view(bout, s.width, s.height, 3, t);
        cvt_color(hsv, b, bgr ? ColorCode::hsv2bgr : ColorCode::hsv2rgb);
        cv::Mat rgb;
        cv::cvtColor(ref, rgb, bgr ? cv::COLOR_HSV2BGR : cv::COLOR_HSV2RGB);
        const test::Diff diff = test::compare(b, from_mat(rgb).view());
        // Same six-sector float formula: u8 1 level (rounding of float products), f32 1e-5.
        EXPECT_LE(diff.max_abs, t == ElemType::u8 ? 1.0 : 1e-5) << diff.describe();
      }
    }
}

}  // namespace
}  // namespace texcv::color_opencv_test
