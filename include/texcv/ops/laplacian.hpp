// laplacian (src/core/ops/laplacian.cpp), a linear filter: texcv/filters.hpp has what the filters
// share (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// laplacian: as cv::Laplacian: ksize 1 uses [[0,1,0],[1,-4,1],[0,1,0]], ksize 3
// [[2,0,2],[0,-8,0],[2,0,2]], ksize 5 the sum of the 5x5 second-derivative Sobel kernels;
// then * scale + delta.
struct LaplacianParams {
  int ksize = 1;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void laplacian(const ImageView& src, const ImageView& dst, const LaplacianParams& p = {},
               void* stream = nullptr);

}  // namespace texcv
