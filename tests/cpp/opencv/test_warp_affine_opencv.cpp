// warp_affine against cv::warpAffine on grid coordinates, every border and interpolation
// (opencv/geometry_test_util.hpp).
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

}  // namespace
}  // namespace texcv::geometry_opencv_test
