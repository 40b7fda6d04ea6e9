// The CPU backend against OpenCV (pinned: the version this test is built with must be 4.6; the
// tolerances below were derived from OpenCV 4.6's implementation and are written next to each
// check with the reason, see docs/conventions.md).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv {
namespace {

using test::as_mat;
using test::cv_border;
using test::cv_depth;
using test::cv_interp;
using test::cv_resize_interp;

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
constexpr int kChannels[] = {1, 3, 4};
constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                               Border::reflect101, Border::wrap};

TEST(OpenCV, VersionIsPinned) {
  EXPECT_EQ(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR, 406) << CV_VERSION;
}

// Full scale of an element type: u8 255, u16 65535, f32 1 (test data of f32 lies in [0, 1]).
double full_scale(ElemType t) {
  return t == ElemType::u8 ? 255.0 : t == ElemType::u16 ? 65535.0 : 1.0;
}

// The rounding tolerance of a type: integer results may differ by 1 level where OpenCV rounds a
// fixed-point or differently ordered sum on the other side of .5; f32 sums in another order differ
// by float rounding, 1e-5 of the [0, 1] range (the relative 1e-5 bound of CONVENTIONS.md).
double rounding_tol(ElemType t) {
  return t == ElemType::f32 ? 1e-5 : 1.0;
}

Image to_image(const cv::Mat& m, ElemType t) {
  Image img(m.cols, m.rows, m.channels(), t);
  m.copyTo(as_mat(img));
  return img;
}

// A test source: a 160x120 region of a sample image (camera.png for 1 channel, astronaut.png for
// 3/4) or random data, in the requested type and channel count.
Image source(bool photo, ElemType t, int ch, std::uint32_t seed = 1) {
  if (!photo) return test::random_image(61, 47, ch, t, seed);
  const std::string path = test::sample_image(ch == 1 ? "camera.png" : "astronaut.png");
  cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
  if (m.empty()) {
    ADD_FAILURE() << "cannot read the sample image " << path;
    return test::random_image(61, 47, ch, t, seed);
  }
  if (ch == 1 && m.channels() != 1) cv::cvtColor(m, m, cv::COLOR_BGR2GRAY);
  if (ch == 4 && m.channels() == 3) cv::cvtColor(m, m, cv::COLOR_BGR2BGRA);
  m = m(cv::Rect(180, 60, 160, 120)).clone();
  cv::Mat conv;
  if (t == ElemType::u16) m.convertTo(conv, CV_16U, 257.0);
  if (t == ElemType::f32) m.convertTo(conv, CV_32F, 1.0 / 255.0);
  if (t == ElemType::u8) conv = m;
  return to_image(conv, t);
}

std::array<double, 4> border_value(ElemType t) {
  const double s = full_scale(t) / 255.0;
  return {17 * s, 200 * s, 3 * s, 99 * s};
}

std::string ctx(const char* what, ElemType t, int ch, bool photo) {
  return std::string(what) + " " + to_string(t) + " x" + std::to_string(ch) +
         (photo ? " photo" : " random");
}

void expect_within(const ImageView& ours, const cv::Mat& theirs, double tol,
                   const std::string& what) {
  Image ref(theirs.cols, theirs.rows, theirs.channels(), ours.type);
  theirs.copyTo(as_mat(ref));
  const test::Diff d = test::compare(ours, ref);
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_LE(d.max_abs, tol) << what << ": " << d.describe();
}

// ---- resize ----

TEST(OpenCVResize, AllInterpolationsTypesAndChannels) {
  const int sizes[][2] = {
      {97, 71}, {251, 203}, {80, 60}, {53, 120}};  // shrink, enlarge, 2:1, mixed
  for (bool photo : {true, false})
    for (ElemType t : kTypes)
      for (int ch : kChannels) {
        Image src = source(photo, t, ch);
        for (const auto& sz : sizes) {
          const int dw = photo ? sz[0] : sz[0] / 2, dh = photo ? sz[1] : sz[1] / 2;
          for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
            const std::string what = ctx("resize", t, ch, photo) + " " + to_string(ip) + " to " +
                                     std::to_string(dw) + "x" + std::to_string(dh);
            Image ours(dw, dh, ch, t);
            ResizeParams p;
            p.interp = ip;
            resize(src, ours, p);
            cv::Mat theirs;
            cv::resize(as_mat(src), theirs, cv::Size(dw, dh), 0, 0, cv_resize_interp(ip));
            if (ip == Interp::nearest) {
              // Nearest picks pixels: identical (same floor((x + 0.5) * scale) index).
              expect_within(ours, theirs, 0, what);
            } else if (ip == Interp::cubic && t == ElemType::f32) {
              // f32 cubic: OpenCV sums 16 products in another order (values up to ~1.3 with the
              // overshoot): float rounding, 1e-5.
              expect_within(ours, theirs, 1e-5, what);
            } else {
              // u8/u16: 1 level (OpenCV's fixed-point weights for u8, rounding of the other
              // summation order); f32: 1e-5.
              expect_within(ours, theirs, rounding_tol(t), what);
            }
          }
        }
      }
}

// cv::resize at every size (issue 16): thin random images up to 65,535 px on a side. texcv's
// positions are exact there (tests/cpp/cpu/test_exact_reference.cpp); OpenCV 4.6 is where it
// computes exactly too:
// - u8 linear and cubic (fixed-point tables from double positions) and area for every type:
//   1 level / 1e-5, as at small sizes;
// - nearest (INTER_NEAREST_EXACT): identical while both sides are below 32,768. Its 16.16 step
//   (size << 16) overflows an int from 32,768 on: 65,535 -> 47,999 picks other pixels, and a
//   65,535-row f32 source read values such as 3e29.
// - u16 and f32 linear and cubic: OpenCV computes each position in float32,
//   (float)((dx + 0.5) * scale - 0.5), the error texcv had before 2026-12-03: 31 u16 levels from
//   a float64 evaluation at 16,411 -> 12,007 (texcv 0.5). Not compared: the float64 reference
//   is the oracle there (docs/conventions.md).
TEST(OpenCVResize, LargeSizesWhereOpenCVIsExact) {
  struct Case {
    int sw, sh, dw, dh;
  };
  const Case cases[] = {{16411, 2, 12007, 2},
                        {65535, 2, 47999, 3},
                        {4099, 2, 16411, 2},
                        {2, 16411, 3, 12007},
                        {3, 65535, 2, 40001}};
  std::uint32_t seed = 11;
  int compared = 0;
  for (ElemType t : kTypes)
    for (const Case& c : cases) {
      Image src = test::random_image(c.sw, c.sh, 1, t, ++seed);
      if (t == ElemType::f32) {  // data in [0, 1]
        for (int y = 0; y < c.sh; ++y)
          for (int x = 0; x < c.sw; ++x) {
            float& v = src.view().row<float>(y)[x];
            v = std::fabs(v) - std::floor(std::fabs(v));
          }
      }
      const bool small_sides = std::max({c.sw, c.sh, c.dw, c.dh}) < 32768;
      for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
        const bool opencv_exact = ip == Interp::area || (ip == Interp::nearest && small_sides) ||
                                  (t == ElemType::u8 && ip != Interp::nearest);
        if (!opencv_exact) continue;
        const std::string what = std::string("resize ") + to_string(t) + " " + to_string(ip) + " " +
                                 std::to_string(c.sw) + "x" + std::to_string(c.sh) + " -> " +
                                 std::to_string(c.dw) + "x" + std::to_string(c.dh);
        Image ours(c.dw, c.dh, 1, t);
        ResizeParams p;
        p.interp = ip;
        resize(src, ours, p);
        cv::Mat theirs;
        cv::resize(as_mat(src), theirs, cv::Size(c.dw, c.dh), 0, 0, cv_resize_interp(ip));
        // nearest: the same 16.16 fixed-point index, identical. Others: u8/u16 1 level (OpenCV's
        // fixed-point u8 weights, the summation order), f32 1e-5 (data in [0, 1]).
        expect_within(ours, theirs, ip == Interp::nearest ? 0 : rounding_tol(t), what);
        ++compared;
      }
    }
  // area: 5 cases x 3 types; nearest: the 3 cases below 32,768 x 3 types; u8 linear, cubic: 5 x 2.
  EXPECT_EQ(compared, 15 + 9 + 10);
}

// ---- warps and remap on OpenCV's 1/32-pixel grid ----
// OpenCV's warpAffine/warpPerspective/remap quantize source coordinates to 1/32 pixel
// (INTER_BITS = 5). When every source coordinate lies on that grid the quantization is exact and
// the results must agree to rounding (1 level for integers, 1e-5 for f32).

TEST(OpenCVWarp, AffineOnGridAllBordersInterpolations) {
  // Inverse map with coefficients multiple of 1/8: every source coordinate is on the 1/32 grid.
  // It shrinks, shears and shifts so that a band of every border pattern appears.
  const std::array<double, 6> inv{1.25, 0.25, -20.375, -0.125, 1.125, -15.5};
  for (bool photo : {true, false})
    for (ElemType t : kTypes)
      for (int ch : kChannels) {
        Image src = source(photo, t, ch);
        const int dw = src.width() + 20, dh = src.height() + 10;
        for (Border b : kBorders)
          for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
            const std::string what =
                ctx("warp_affine", t, ch, photo) + " " + to_string(ip) + " " + to_string(b);
            Sampling s;
            s.interp = ip;
            s.border = b;
            s.border_value = border_value(t);
            Image ours(dw, dh, ch, t);
            warp_affine(src, ours, inv, true, s);
            cv::Mat theirs;
            const cv::Mat m =
                (cv::Mat_<double>(2, 3) << inv[0], inv[1], inv[2], inv[3], inv[4], inv[5]);
            const auto& bv = s.border_value;
            cv::warpAffine(as_mat(src), theirs, m, cv::Size(dw, dh),
                           cv_interp(ip) | cv::WARP_INVERSE_MAP, cv_border(b),
                           cv::Scalar(bv[0], bv[1], bv[2], bv[3]));
            // nearest: identical (both floor(x + 0.5), exact on the grid); linear/cubic: rounding.
            expect_within(ours, theirs, ip == Interp::nearest ? 0 : rounding_tol(t), what);
          }
      }
}

TEST(OpenCVWarp, PerspectiveOnGrid) {
  // sx = (2x + 0.5y + 0.25) / 2 = x + y/4 + 1/8, sy = y + x/4 + 3/8: the division by w = 2 keeps
  // the 1/32 grid, and the fractions (1/8, 3/8, 5/8, 7/8) are never a tie: OpenCV's
  // warpPerspective rounds nearest ties half to even (cvRound) where its warpAffine and texcv round
  // them up (docs/conventions.md), so ties are kept out of this exact comparison.
  const std::array<double, 9> inv{2, 0.5, 0.25, 0.5, 2, 0.75, 0, 0, 2};
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      Image src = source(true, t, ch);
      for (Border b : kBorders)
        for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
          const std::string what =
              ctx("warp_perspective", t, ch, true) + " " + to_string(ip) + " " + to_string(b);
          Sampling s;
          s.interp = ip;
          s.border = b;
          s.border_value = border_value(t);
          Image ours(src.width(), src.height(), ch, t);
          warp_perspective(src, ours, inv, true, s);
          cv::Mat theirs;
          const cv::Mat m(3, 3, CV_64F, const_cast<double*>(inv.data()));
          const auto& bv = s.border_value;
          cv::warpPerspective(as_mat(src), theirs, m, cv::Size(src.width(), src.height()),
                              cv_interp(ip) | cv::WARP_INVERSE_MAP, cv_border(b),
                              cv::Scalar(bv[0], bv[1], bv[2], bv[3]));
          expect_within(ours, theirs, ip == Interp::nearest ? 0 : rounding_tol(t), what);
        }
    }
}

TEST(OpenCVRemap, OnGridMapsAllBordersInterpolations) {
  std::mt19937 rng(9);
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      Image src = source(false, t, ch, 3);
      const int dw = 40, dh = 30;
      Image mx(dw, dh, 1, ElemType::f32), my(dw, dh, 1, ElemType::f32);
      // Multiples of 1/32 from 8 pixels before to 8 after the source; never exactly k + 0.5,
      // where OpenCV's remap rounds half to even (cvRound) and texcv's nearest rounds half up
      // (a documented difference at exact ties).
      auto grid = [&](int n) {
        std::uniform_int_distribution<int> d(-8 * 32, (n + 8) * 32);
        int k;
        do k = d(rng);
        while (((k % 32) + 32) % 32 == 16);
        return static_cast<float>(k) / 32.0f;
      };
      for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x) {
          mx.view().row<float>(y)[x] = grid(src.width());
          my.view().row<float>(y)[x] = grid(src.height());
        }
      for (Border b : kBorders)
        for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
          const std::string what =
              ctx("remap", t, ch, false) + " " + to_string(ip) + " " + to_string(b);
          Sampling s;
          s.interp = ip;
          s.border = b;
          s.border_value = border_value(t);
          Image ours(dw, dh, ch, t);
          remap(src, ours, mx, my, s);
          cv::Mat theirs;
          const auto& bv = s.border_value;
          cv::remap(as_mat(src), theirs, as_mat(mx), as_mat(my), cv_interp(ip), cv_border(b),
                    cv::Scalar(bv[0], bv[1], bv[2], bv[3]));
          expect_within(ours, theirs, ip == Interp::nearest ? 0 : rounding_tol(t), what);
        }
    }
}

// ---- warps off the grid: rotation by getRotationMatrix2D ----
// Off the grid OpenCV moves each source coordinate by up to 1/64 + 1/1024 pixel per axis (its
// 1/1024 fixed-point matrix, then the 1/32 table). For nearest the picked pixel is the same except
// within 4/1024 of a tie, so those pixels are skipped (and counted). For linear the value
// may move by that distance times the local slope: the bound per pixel is
//   1 level (f32: 1e-5) + 2 * (1/64 + 1/1024) * (max - min of the 3x3 source neighbourhood),
// up to about 8.5 levels of u8 at the strongest edges, as CONVENTIONS.md allows.

struct OffGridStats {
  long checked = 0, skipped = 0, failed = 0;
  double worst_excess = 0;
};

void check_off_grid(const ImageView& src, const ImageView& ours, const cv::Mat& theirs_m,
                    const std::array<double, 6>& inv, Interp ip, OffGridStats& st) {
  Image theirs(theirs_m.cols, theirs_m.rows, theirs_m.channels(), src.type);
  theirs_m.copyTo(as_mat(theirs));
  const double q = 1.0 / 64 + 1.0 / 1024;
  auto load = [&](const ImageView& v, int x, int y, int c) -> double {
    const std::size_t i = static_cast<std::size_t>(x) * v.channels + c;
    switch (v.type) {
      case ElemType::u8:
        return v.row<const std::uint8_t>(y)[i];
      case ElemType::u16:
        return v.row<const std::uint16_t>(y)[i];
      default:
        return v.row<const float>(y)[i];
    }
  };
  for (int y = 0; y < ours.height; ++y)
    for (int x = 0; x < ours.width; ++x) {
      const double sx = inv[0] * x + inv[1] * y + inv[2], sy = inv[3] * x + inv[4] * y + inv[5];
      const int x0 = static_cast<int>(std::floor(sx)), y0 = static_cast<int>(std::floor(sy));
      // Only pixels whose whole 3x3 neighbourhood is inside (borders are covered on the grid).
      if (x0 < 1 || y0 < 1 || x0 + 2 >= src.width || y0 + 2 >= src.height) continue;
      if (ip == Interp::nearest) {
        const double fx = sx - std::floor(sx), fy = sy - std::floor(sy);
        // Nearest does not use the 1/32 table: OpenCV rounds the matrix terms to 1/1024 (two
        // roundings, <= 2/1024) and then takes floor(x + 0.5); skip 4/1024 around a tie.
        constexpr double kTie = 4.0 / 1024;
        if (std::fabs(fx - 0.5) < kTie || std::fabs(fy - 0.5) < kTie) {
          ++st.skipped;
          continue;
        }
      }
      for (int c = 0; c < src.channels; ++c) {
        double lo = 1e300, hi = -1e300;
        for (int j = -1; j <= 2; ++j)
          for (int i = -1; i <= 2; ++i) {
            const double v = load(src, x0 + i, y0 + j, c);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        const double bound = ip == Interp::nearest ? 0 : rounding_tol(src.type) + 2 * q * (hi - lo);
        const double diff = std::fabs(load(ours, x, y, c) - load(theirs, x, y, c));
        ++st.checked;
        if (!(diff <= bound)) {
          ++st.failed;
          st.worst_excess = std::max(st.worst_excess, diff - bound);
        }
      }
    }
}

TEST(OpenCVRotate, MatrixMatchesGetRotationMatrix2D) {
  for (double angle : {30.0, -17.5, 123.0, 90.0}) {
    const cv::Mat cm = cv::getRotationMatrix2D(cv::Point2f(79.5f, 59.5f), angle, 1.0);
    const auto m = rotation_matrix(160, 120, 160, 120, angle);
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(m[i], cm.at<double>(i / 3, i % 3), 1e-9) << angle << " " << i;  // double rounding
  }
}

TEST(OpenCVRotate, OffGridAgainstWarpAffine) {
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      Image src = source(true, t, ch);
      for (double angle : {30.0, -17.5})
        for (Interp ip : {Interp::nearest, Interp::linear}) {
          const std::string what =
              ctx("rotate", t, ch, true) + " " + to_string(ip) + " " + std::to_string(angle);
          const Rect r = rotated_size(src.width(), src.height(), angle, true);
          Image ours(r.width, r.height, ch, t);
          Sampling s;
          s.interp = ip;
          s.border = Border::reflect101;
          rotate(src, ours, angle, s);
          const auto fwd = rotation_matrix(src.width(), src.height(), r.width, r.height, angle);
          const cv::Mat m =
              (cv::Mat_<double>(2, 3) << fwd[0], fwd[1], fwd[2], fwd[3], fwd[4], fwd[5]);
          cv::Mat theirs;
          cv::warpAffine(as_mat(src), theirs, m, cv::Size(r.width, r.height), cv_interp(ip),
                         cv::BORDER_REFLECT_101);
          cv::Mat im;
          cv::invertAffineTransform(m, im);
          const std::array<double, 6> inv{im.at<double>(0, 0), im.at<double>(0, 1),
                                          im.at<double>(0, 2), im.at<double>(1, 0),
                                          im.at<double>(1, 1), im.at<double>(1, 2)};
          OffGridStats st;
          check_off_grid(src, ours, theirs, inv, ip, st);
          EXPECT_EQ(st.failed, 0) << what << ": worst excess over the bound " << st.worst_excess;
          // The check is not vacuous: most interior pixels were compared.
          EXPECT_GT(st.checked, 10000) << what;
          EXPECT_LT(st.skipped * 20, st.checked / ch) << what;  // < 5 % of pixels near a tie
        }
    }
}

TEST(OpenCVRotate, QuarterTurnsAreExact) {
  Image src = source(true, ElemType::u8, 3);
  const Rect r = rotated_size(src.width(), src.height(), 90, true);
  Image ours(r.width, r.height, 3, ElemType::u8);
  Sampling s;
  s.interp = Interp::linear;
  rotate(src, ours, 90, s);
  cv::Mat theirs;
  cv::rotate(as_mat(src), theirs, cv::ROTATE_90_COUNTERCLOCKWISE);
  expect_within(ours, theirs, 0, "rotate 90");  // integer coordinates: pure permutation
  Image half(src.width(), src.height(), 3, ElemType::u8);
  rotate(src, half, 180, s);
  cv::rotate(as_mat(src), theirs, cv::ROTATE_180);
  expect_within(half, theirs, 0, "rotate 180");
}

// ---- flip and crop ----

TEST(OpenCVFlip, AllCodes) {
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      Image src = source(true, t, ch);
      const std::pair<FlipCode, int> codes[] = {
          {FlipCode::horizontal, 1}, {FlipCode::vertical, 0}, {FlipCode::both, -1}};
      for (const auto& [code, cvcode] : codes) {
        Image ours(src.width(), src.height(), ch, t);
        flip(src, ours, code);
        cv::Mat theirs;
        cv::flip(as_mat(src), theirs, cvcode);
        expect_within(ours, theirs, 0,
                      ctx("flip", t, ch, true) + " " + to_string(code));  // a permutation
      }
      Image part(50, 40, ch, t);
      crop(src, part, Rect{33, 21, 50, 40});
      expect_within(part, as_mat(src)(cv::Rect(33, 21, 50, 40)), 0, ctx("crop", t, ch, true));
    }
}

}  // namespace
}  // namespace texcv
