// box_filter (src/core/ops/box_filter.cpp), a linear filter: texcv/filters.hpp has what the
// filters share (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// box_filter: as cv::boxFilter: the sum over a ksize_x x ksize_y window (any size >= 1; anchor -1
// = ksize / 2), divided by its area when normalize (cv::blur).
struct BoxParams {
  int ksize_x = 3, ksize_y = 3;
  bool normalize = true;
  int anchor_x = -1, anchor_y = -1;
  FilterBorder border{};
};
void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& p = {},
                void* stream = nullptr);

}  // namespace texcv
