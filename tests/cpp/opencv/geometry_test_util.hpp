// Helpers shared by the tests of the CPU geometric operations against OpenCV
// (test_<op>_opencv.cpp of resize, warp_affine, warp_perspective, remap, rotate, flip; the version
// this test is built with must be 4.6: OpenCV.VersionIsPinned in test_opencv_version.cpp). The
// tolerances were derived from OpenCV 4.6's implementation and are written next to each check
// with the reason, see docs/conventions.md.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <array>
#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::geometry_opencv_test {

using test::as_mat;
using test::cv_border;
using test::cv_depth;
using test::cv_interp;
using test::cv_resize_interp;

inline constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline constexpr int kChannels[] = {1, 3, 4};

inline constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                                      Border::reflect101, Border::wrap};

// Full scale of an element type: u8 255, u16 65535, f32 1 (test data of f32 lies in [0, 1]).
inline double full_scale(ElemType t) {
  return t == ElemType::u8 ? 255.0 : t == ElemType::u16 ? 65535.0 : 1.0;
}

// The rounding tolerance of a type: integer results may differ by 1 level where OpenCV rounds a
// fixed-point or differently ordered sum on the other side of .5; f32 sums in another order differ
// by float rounding, 1e-5 of the [0, 1] range (the relative 1e-5 bound of CONVENTIONS.md).
inline double rounding_tol(ElemType t) {
  return t == ElemType::f32 ? 1e-5 : 1.0;
}

inline Image to_image(const cv::Mat& m, ElemType t) {
  Image img(m.cols, m.rows, m.channels(), t);
  m.copyTo(as_mat(img));
  return img;
}

// A test source: a 160x120 region of a sample image (camera.png for 1 channel, astronaut.png for
// 3/4) or random data, in the requested type and channel count.
inline Image source(bool photo, ElemType t, int ch, std::uint32_t seed = 1) {
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

inline std::array<double, 4> border_value(ElemType t) {
  const double s = full_scale(t) / 255.0;
  return {17 * s, 200 * s, 3 * s, 99 * s};
}

inline std::string ctx(const char* what, ElemType t, int ch, bool photo) {
  return std::string(what) + " " + to_string(t) + " x" + std::to_string(ch) +
         (photo ? " photo" : " random");
}

inline void expect_within(const ImageView& ours, const cv::Mat& theirs, double tol,
                          const std::string& what) {
  Image ref(theirs.cols, theirs.rows, theirs.channels(), ours.type);
  theirs.copyTo(as_mat(ref));
  const test::Diff d = test::compare(ours, ref);
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_LE(d.max_abs, tol) << what << ": " << d.describe();
}

}  // namespace texcv::geometry_opencv_test
