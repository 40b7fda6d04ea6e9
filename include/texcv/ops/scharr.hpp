// scharr (src/core/ops/scharr.cpp), a linear filter: texcv/filters.hpp has what the filters share
// (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// scharr: as cv::Scharr: (dx, dy) = (1, 0) or (0, 1); kernels [-1 0 1] and [3 10 3].
struct ScharrParams {
  int dx = 1, dy = 0;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void scharr(const ImageView& src, const ImageView& dst, const ScharrParams& p = {},
            void* stream = nullptr);

}  // namespace texcv
