// separable_filter (src/core/ops/separable_filter.cpp), a linear filter: texcv/filters.hpp has
// what the filters share (views, element types, borders, backends).
#pragma once

#include <vector>

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// separable_filter: as cv::sepFilter2D: the row kernel along x, then the column kernel along y
// (correlations), plus delta. Each kernel has 1 to 255 taps; anchors -1 mean the centres.
struct SeparableParams {
  int anchor_x = -1, anchor_y = -1;
  double delta = 0.0;
  FilterBorder border{};
};
void separable_filter(const ImageView& src, const ImageView& dst,
                      const std::vector<float>& row_kernel, const std::vector<float>& column_kernel,
                      const SeparableParams& p = {}, void* stream = nullptr);

}  // namespace texcv
