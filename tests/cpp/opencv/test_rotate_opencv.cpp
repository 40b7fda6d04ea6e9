// rotate against OpenCV (opencv/geometry_test_util.hpp): rotation_matrix against
// cv::getRotationMatrix2D, off-grid angles against cv::warpAffine, quarter turns exact.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/geometry_test_util.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::geometry_opencv_test {
namespace {

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

}  // namespace
}  // namespace texcv::geometry_opencv_test
