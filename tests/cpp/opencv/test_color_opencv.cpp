// The colour and intensity operations of the CPU backend against OpenCV 4.6 (the version is
// pinned by OpenCV.VersionIsPinned in test_geometry_opencv.cpp). Every tolerance is written next
// to its check with the reason; docs/ops/color.md lists the same bounds.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/color.hpp"

namespace texcv {
namespace {

using test::as_mat;
using test::cv_depth;

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

// A texcv host image holding a copy of m.
Image from_mat(const cv::Mat& m) {
  const ElemType t = m.depth() == CV_8U    ? ElemType::u8
                     : m.depth() == CV_16U ? ElemType::u16
                                           : ElemType::f32;
  Image img(m.cols, m.rows, m.channels(), t);
  m.copyTo(as_mat(img.view()));
  return img;
}

// A sample image (RGB order, or gray), converted to type t (u16: * 257, f32: / 255).
cv::Mat photo(const char* name, int channels, ElemType t) {
  const std::string path = test::sample_image(name);
  cv::Mat m = cv::imread(path, cv::IMREAD_COLOR);  // BGR
  if (m.empty()) {
    ADD_FAILURE() << "cannot read " << path;
    return cv::Mat(8, 8, CV_MAKETYPE(cv_depth(t), channels), cv::Scalar::all(0));
  }
  if (channels == 1) cv::cvtColor(m, m, cv::COLOR_BGR2GRAY);
  if (channels == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
  if (channels == 4) cv::cvtColor(m, m, cv::COLOR_BGR2RGBA);
  cv::Mat out;
  m.convertTo(out, cv_depth(t), t == ElemType::u16 ? 257.0 : t == ElemType::f32 ? 1.0 / 255 : 1.0);
  return out;
}

const char* kPhotos[] = {"astronaut.png", "coffee.png", "camera.png"};

// Random data in a sub-image view (odd size, padded pitch, offset) of type t.
ImageView random_view(Image& owner, int w, int h, int ch, ElemType t, std::uint32_t seed) {
  const ImageView v = test::padded_view(owner, w, h, ch, t, 3, 2, 1);
  const Image r = test::random_image(w, h, ch, t, seed);
  copy(r.view(), v);
  return v;
}

// An output view of the given shape inside a poisoned, padded allocation.
ImageView out_view(Image& owner, int w, int h, int ch, ElemType t) {
  return test::padded_view(owner, w, h, ch, t, 5, 1, 2);
}

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

TEST(ColorOpenCV, NormalizeMinMaxMatches) {
  for (ElemType t : kTypes)
    for (int ch : {1, 3, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(ch));
      Image so, dout;
      const ImageView s = random_view(so, 45, 29, ch, t, 5 + ch);
      const ImageView d = out_view(dout, 45, 29, ch, t);
      const double a = t == ElemType::f32 ? -2.0 : 10.0, b = t == ElemType::f32 ? 3.0 : 200.0;
      NormalizeParams p;
      p.alpha = b;  // swapped on purpose: cv::normalize uses min(alpha, beta) .. max
      p.beta = a;
      normalize(s, d, p);
      cv::Mat ref;
      cv::normalize(as_mat(s), ref, b, a, cv::NORM_MINMAX);
      const test::Diff diff = test::compare(d, from_mat(ref).view());
      // Same float scale and shift; OpenCV's SIMD convertTo may fuse the multiply-add, which
      // can move a u8/u16 result across a rounding tie: 1 level; f32: 1e-6 relative.
      if (t == ElemType::f32)
        EXPECT_LE(diff.max_abs, 1e-6) << diff.describe();  // outputs in [-2, 3]: ~4 ulps of 3
      else
        EXPECT_LE(diff.max_abs, 1.0) << diff.describe();
    }
}

TEST(ColorOpenCV, ConvertMatchesConvertTo) {
  for (ElemType st : kTypes)
    for (ElemType dt : kTypes) {
      SCOPED_TRACE(std::string(to_string(st)) + " -> " + to_string(dt));
      Image so, dout;
      const ImageView s = random_view(so, 39, 23, 3, st, 9);
      const ImageView d = out_view(dout, 39, 23, 3, dt);
      const double scale = st == ElemType::f32 ? 300.0 : 1.3, offset = -7.25;
      for (int identity = 0; identity < 2; ++identity) {
        const double sc = identity ? 1.0 : scale, of = identity ? 0.0 : offset;
        convert(s, d, sc, of);
        cv::Mat ref;
        as_mat(s).convertTo(ref, cv_depth(dt), sc, of);
        const test::Diff diff = test::compare(d, from_mat(ref).view());
        // f32: float x * scale + offset, possibly fused in OpenCV (the product rounded or not):
        // one rounding of the largest product, 2^-23 * max |x * scale|, plus one of the result.
        const double big = (st == ElemType::u8    ? 255.0
                            : st == ElemType::u16 ? 65535.0
                                                  : 1.0) *
                               std::fabs(sc) +
                           std::fabs(of);
        if (dt == ElemType::f32)
          EXPECT_LE(diff.max_abs, 2.0 * big * std::ldexp(1.0, -23)) << diff.describe();
        else if (identity)
          EXPECT_EQ(diff.count, 0) << diff.describe();  // plain saturate_cast
        else
          EXPECT_LE(diff.max_abs, 1.0) << diff.describe();  // fused multiply-add at ties
      }
    }
}

TEST(ColorOpenCV, ThresholdMatches) {
  const ThresholdType types[] = {ThresholdType::binary, ThresholdType::binary_inv,
                                 ThresholdType::trunc, ThresholdType::tozero,
                                 ThresholdType::tozero_inv};
  const int cv_types[] = {cv::THRESH_BINARY, cv::THRESH_BINARY_INV, cv::THRESH_TRUNC,
                          cv::THRESH_TOZERO, cv::THRESH_TOZERO_INV};
  for (ElemType t : kTypes)
    for (int ch : {1, 3, 4})
      for (int k = 0; k < 5; ++k) {
        SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(ch) + " " +
                     to_string(types[k]));
        Image so, dout;
        const ImageView s = random_view(so, 41, 19, ch, t, 13);
        const ImageView d = out_view(dout, 41, 19, ch, t);
        const double mx = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1;
        for (double frac : {-0.1, 0.3, 0.5, 1.2}) {
          // Fractional thresholds: u8/u16 floor them; f32 compares in float.
          const double th = frac * mx + (t == ElemType::f32 ? 0.0031 : 0.7), mv = 0.8 * mx + 0.4;
          const double r = threshold(s, d, th, mv, types[k]);
          cv::Mat ref;
          const double rr = cv::threshold(as_mat(s), ref, th, mv, cv_types[k]);
          EXPECT_EQ(r, rr);
          const test::Diff diff = test::compare(d, from_mat(ref).view());
          EXPECT_EQ(diff.count, 0) << diff.describe();  // comparisons and copies: exact
        }
      }
}

TEST(ColorOpenCV, OtsuMatches) {
  for (const char* name : kPhotos) {
    SCOPED_TRACE(name);
    const Image s = from_mat(photo(name, 1, ElemType::u8));
    Image d(s.width(), s.height(), 1, ElemType::u8);
    const double r = threshold(s, d, 0, 255, ThresholdType::otsu);
    cv::Mat ref;
    const double rr =
        cv::threshold(as_mat(s.view()), ref, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    EXPECT_EQ(r, rr);
    EXPECT_EQ(test::compare(d, from_mat(ref).view()).count, 0);
  }
}

TEST(ColorOpenCV, HistogramMatchesCalcHist) {
  struct Case {
    ElemType t;
    int bins;
    float lo, hi;
  };
  const Case cases[] = {{ElemType::u8, 256, 0, 256},   {ElemType::u8, 10, 20, 200},
                        {ElemType::u16, 64, 0, 65536}, {ElemType::u16, 7, 1000, 50000},
                        {ElemType::f32, 10, 0.f, 1.f}, {ElemType::f32, 33, 0.1f, 0.9f}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(to_string(k.t)) + " bins " + std::to_string(k.bins));
    Image so;
    const ImageView s = random_view(so, 53, 41, 3, k.t, 21);
    const auto h = histogram(s, k.bins, {k.lo, k.hi});
    ASSERT_EQ(h.size(), 3u);
    const cv::Mat m = as_mat(s).clone();
    for (int c = 0; c < 3; ++c) {
      cv::Mat hist;
      const int chans[] = {c};
      const int sizes[] = {k.bins};
      const float range[] = {k.lo, k.hi};
      const float* ranges[] = {range};
      cv::calcHist(&m, 1, chans, cv::Mat(), hist, 1, sizes, ranges);
      ASSERT_EQ(h[c].size(), static_cast<std::size_t>(k.bins));
      for (int i = 0; i < k.bins; ++i)
        EXPECT_EQ(static_cast<double>(h[c][i]), hist.at<float>(i))
            << "channel " << c << " bin " << i;
    }
  }
}

TEST(ColorOpenCV, EqualizeHistMatches) {
  for (const char* name : {"astronaut.png", "coffee.png", "camera.png", "random"}) {
    SCOPED_TRACE(name);
    const Image s = std::string(name) == "random" ? test::random_image(83, 29, 1, ElemType::u8, 8)
                                                  : from_mat(photo(name, 1, ElemType::u8));
    Image o;
    const ImageView d = out_view(o, s.width(), s.height(), 1, ElemType::u8);
    equalize_hist(s, d);
    cv::Mat ref;
    cv::equalizeHist(as_mat(s.view()), ref);
    EXPECT_EQ(test::compare(d, from_mat(ref).view()).count, 0);  // same integer table
  }
}

TEST(ColorOpenCV, ClaheMatches) {
  struct Case {
    double clip;
    int tx, ty;
  };
  const Case cases[] = {{40.0, 8, 8}, {2.0, 8, 8}, {0.0, 4, 4}, {3.0, 7, 5}, {1.0, 1, 1}};
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (const char* name : kPhotos)
      for (const Case& k : cases) {
        SCOPED_TRACE(std::string(name) + " " + to_string(t) + " clip " + std::to_string(k.clip) +
                     " grid " + std::to_string(k.tx) + "x" + std::to_string(k.ty));
        const cv::Mat m = photo(name, 1, t)(cv::Rect(3, 5, 301, 207)).clone();
        const Image s = from_mat(m);
        Image o;
        const ImageView d = out_view(o, s.width(), s.height(), 1, t);
        ClaheParams p;
        p.clip_limit = k.clip;
        p.tiles_x = k.tx;
        p.tiles_y = k.ty;
        clahe(s, d, p);
        cv::Mat ref;
        cv::createCLAHE(k.clip, cv::Size(k.tx, k.ty))->apply(m, ref);
        const test::Diff diff = test::compare(d, from_mat(ref).view());
        // Same tables; the bilinear blend of four table entries is float arithmetic whose order
        // and fusing in OpenCV's SIMD loop may differ: 1 level.
        EXPECT_LE(diff.max_abs, 1.0) << diff.describe();
      }
}

}  // namespace
}  // namespace texcv
