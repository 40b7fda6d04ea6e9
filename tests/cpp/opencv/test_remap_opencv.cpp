// remap against cv::remap with maps on grid coordinates, every border and interpolation
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

}  // namespace
}  // namespace texcv::geometry_opencv_test
