// gaussian_blur (src/core/ops/gaussian_blur.cpp), a linear filter: texcv/filters.hpp has what the
// filters share (views, element types, borders, backends).
#pragma once

#include <vector>

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// gaussian_blur: as cv::GaussianBlur. A size <= 0 is derived from its sigma: round(sigma * 4 * 2 +
// 1) | 1 (sigma * 3 for u8, as OpenCV); sigma_y <= 0 takes sigma_x; a sigma <= 0 is derived from
// its size: 0.3 * ((size - 1) * 0.5 - 1) + 0.8, and sizes 1, 3, 5, 7, 9 then use OpenCV 4.6's
// fixed table (getGaussianKernel). ksize_y <= 0 with sigma_y <= 0 takes ksize_x. Sizes must be odd.
struct GaussianParams {
  int ksize_x = 0, ksize_y = 0;
  double sigma_x = 0.0, sigma_y = 0.0;
  FilterBorder border{};
};
void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& p,
                   void* stream = nullptr);
// The 1-D kernel of cv::getGaussianKernel(ksize, sigma) (computed in double, rounded to float).
std::vector<float> gaussian_kernel(int ksize, double sigma);

}  // namespace texcv
