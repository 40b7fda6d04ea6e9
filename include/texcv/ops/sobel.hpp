// sobel (src/core/ops/sobel.cpp), a linear filter: texcv/filters.hpp has what the filters share
// (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// sobel: as cv::Sobel: the separable kernels of cv::getDerivKernels(dx, dy, ksize) (ksize 1, 3,
// 5 or 7; ksize 1 is the 3-tap derivative without smoothing), then * scale + delta. Requires dx,
// dy >= 0, dx + dy > 0 and each order < its kernel size (3 for ksize 1).
struct SobelParams {
  int dx = 1, dy = 0;
  int ksize = 3;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void sobel(const ImageView& src, const ImageView& dst, const SobelParams& p = {},
           void* stream = nullptr);

}  // namespace texcv
