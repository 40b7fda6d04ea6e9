// unsharp_mask (src/core/ops/unsharp_mask.cpp), a linear filter: texcv/filters.hpp has what the
// filters share (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// unsharp_mask: blur = gaussian_blur(src, ksize, sigma) stored in src's element type (as with
// cv::GaussianBlur); out = src + amount * (src - blur) per element where |src - blur| >= threshold,
// else src (the usual OpenCV recipe with a threshold mask).
struct UnsharpParams {
  double sigma = 1.0;
  int ksize = 0;  // 0: derived from sigma as gaussian_blur
  double amount = 1.0;
  double threshold = 0.0;
  FilterBorder border{};
};
void unsharp_mask(const ImageView& src, const ImageView& dst, const UnsharpParams& p = {},
                  void* stream = nullptr);

}  // namespace texcv
