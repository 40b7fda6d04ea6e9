// warp_perspective against cv::warpPerspective on grid coordinates (opencv/geometry_test_util.hpp).
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

}  // namespace
}  // namespace texcv::geometry_opencv_test
