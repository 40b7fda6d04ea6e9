// Helpers shared by the tests of the CPU colour and intensity operations against OpenCV 4.6
// (test_<op>_opencv.cpp; the version is pinned by OpenCV.VersionIsPinned in
// test_opencv_version.cpp): copies of cv::Mat, the sample images in any type, random sub-image
// views and poisoned output views. Every tolerance is written next to its check with the reason;
// docs/ops/color.md lists the same bounds.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::color_opencv_test {

using test::as_mat;
using test::cv_depth;

inline constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

// A texcv host image holding a copy of m.
inline Image from_mat(const cv::Mat& m) {
  const ElemType t = m.depth() == CV_8U    ? ElemType::u8
                     : m.depth() == CV_16U ? ElemType::u16
                                           : ElemType::f32;
  Image img(m.cols, m.rows, m.channels(), t);
  m.copyTo(as_mat(img.view()));
  return img;
}

// A sample image (RGB order, or gray), converted to type t (u16: * 257, f32: / 255).
inline cv::Mat photo(const char* name, int channels, ElemType t) {
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

inline const char* kPhotos[] = {"astronaut.png", "coffee.png", "camera.png"};

// Random data in a sub-image view (odd size, padded pitch, offset) of type t.
inline ImageView random_view(Image& owner, int w, int h, int ch, ElemType t, std::uint32_t seed) {
  const ImageView v = test::padded_view(owner, w, h, ch, t, 3, 2, 1);
  const Image r = test::random_image(w, h, ch, t, seed);
  copy(r.view(), v);
  return v;
}

// An output view of the given shape inside a poisoned, padded allocation.
inline ImageView out_view(Image& owner, int w, int h, int ch, ElemType t) {
  return test::padded_view(owner, w, h, ch, t, 5, 1, 2);
}

}  // namespace texcv::color_opencv_test
