// Helpers shared by the tests against OpenCV: element depths, zero-copy cv::Mat views of texcv
// images, border-mode names.
#pragma once

#include <opencv2/core.hpp>

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

}  // namespace texcv::test
