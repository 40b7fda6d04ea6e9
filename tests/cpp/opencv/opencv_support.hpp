// Helpers shared by the tests against OpenCV: element depths, zero-copy cv::Mat views of texcv
// images, border-mode names.
#pragma once

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>

#include "common/test_support.hpp"

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::test {

inline int cv_depth(ElemType t) {
  return t == ElemType::u8 ? CV_8U : t == ElemType::u16 ? CV_16U : CV_32F;
}

// A cv::Mat over the same host memory (no copy).
inline cv::Mat as_mat(const ImageView& v) {
  return cv::Mat(v.height, v.width, CV_MAKETYPE(cv_depth(v.type), v.channels), v.data, v.pitch);
}

// OpenCV's interpolation flag for texcv's warps and remap (nearest: cv::INTER_NEAREST).
inline int cv_interp(Interp ip) {
  switch (ip) {
    case Interp::nearest:
      return cv::INTER_NEAREST;
    case Interp::linear:
      return cv::INTER_LINEAR;
    case Interp::cubic:
      return cv::INTER_CUBIC;
    case Interp::area:
      return cv::INTER_AREA;
  }
  return -1;
}

// ... and for resize, whose nearest is cv::INTER_NEAREST_EXACT (docs/conventions.md).
inline int cv_resize_interp(Interp ip) {
  return ip == Interp::nearest ? cv::INTER_NEAREST_EXACT : cv_interp(ip);
}

inline int cv_border(Border b) {
  switch (b) {
    case Border::constant:
      return cv::BORDER_CONSTANT;
    case Border::replicate:
      return cv::BORDER_REPLICATE;
    case Border::reflect:
      return cv::BORDER_REFLECT;
    case Border::reflect101:
      return cv::BORDER_REFLECT_101;
    case Border::wrap:
      return cv::BORDER_WRAP;
  }
  return -1;
}

// For OpenCV's filters on sub-matrices: BORDER_ISOLATED makes them ignore the pixels outside the
// view, as texcv does.
inline int cv_border_isolated(Border b) {
  return cv_border(b) | cv::BORDER_ISOLATED;
}

// A width x height region at (180, 60) of camera.png (1 channel) or astronaut.png (3/4
// channels) from the test images (tests/data/images), in type t (u16 = u8 * 257, f32 = u8 / 255).
inline Image photo(ElemType t, int ch, int width = 160, int height = 120) {
  const std::string path = sample_image(ch == 1 ? "camera.png" : "astronaut.png");
  cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
  if (m.empty()) {
    ADD_FAILURE() << "cannot read the sample image " << path;
    return random_image(width, height, ch, t, 5);
  }
  if (ch == 1 && m.channels() != 1) cv::cvtColor(m, m, cv::COLOR_BGR2GRAY);
  if (ch == 4 && m.channels() == 3) cv::cvtColor(m, m, cv::COLOR_BGR2BGRA);
  m = m(cv::Rect(180, 60, width, height)).clone();
  cv::Mat conv = m;
  if (t == ElemType::u16) m.convertTo(conv, CV_16U, 257.0);
  if (t == ElemType::f32) m.convertTo(conv, CV_32F, 1.0 / 255.0);
  Image img(conv.cols, conv.rows, ch, t);
  conv.copyTo(as_mat(img.view()));
  return img;
}

}  // namespace texcv::test
