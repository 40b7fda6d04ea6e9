// bilateral_filter (src/core/ops/bilateral_filter.cpp), a non-linear filter: texcv/filters.hpp
// has what the filters share (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// bilateral_filter: as cv::bilateralFilter: over the disc of radius r = d / 2 (d <= 0: r =
// round(1.5 * sigma_space); r >= 1; diameter 2r + 1 at most 255),
//   dst(p) = sum_q w(p, q) src(q) / sum_q w(p, q),
//   w = exp(-|p - q|^2 / (2 sigma_space^2)) * exp(-D^2 / (2 sigma_color^2)),
// D the sum over channels of |src(q) - src(p)| (OpenCV's L1 colour distance). u8 and f32, 1 or 3
// channels; sigma_color and sigma_space must be > 0 (OpenCV silently uses 1) and are in element
// units (0-255 for u8). Float arithmetic; u8 results round half to even.
struct BilateralParams {
  int d = 5;
  double sigma_color = 0.0;  // must be set (> 0)
  double sigma_space = 0.0;  // must be set (> 0)
  FilterBorder border{};
};
void bilateral_filter(const ImageView& src, const ImageView& dst, const BilateralParams& p,
                      void* stream = nullptr);

}  // namespace texcv
