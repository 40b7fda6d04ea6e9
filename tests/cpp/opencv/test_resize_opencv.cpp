// resize against cv::resize (opencv/geometry_test_util.hpp): every interpolation, type and channel
// count, and large sizes where OpenCV is exact. The factor form: test_resize_factors_opencv.cpp.
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

}  // namespace
}  // namespace texcv::geometry_opencv_test
