// convolve (src/core/ops/convolve.cpp), a linear filter: texcv/filters.hpp has what the filters
// share (views, element types, borders, backends).
#pragma once

#include <vector>

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// A 2-D kernel: width x height coefficients, row-major (values[y * width + x]).
struct Kernel {
  int width = 0, height = 0;
  std::vector<float> values;
};

// convolve: as cv::filter2D (a correlation: the kernel is not flipped):
//   dst(x, y) = scale * sum_{i,j} k(i, j) * src(x + i - anchor_x, y + j - anchor_y) + delta.
// anchor -1 means the kernel centre (width / 2, height / 2), as OpenCV. Kernels up to 31x31.
struct ConvolveParams {
  int anchor_x = -1, anchor_y = -1;
  double scale = 1.0;
  double delta = 0.0;
  FilterBorder border{};
};
void convolve(const ImageView& src, const ImageView& dst, const Kernel& kernel,
              const ConvolveParams& p = {}, void* stream = nullptr);
// The same with the kernel as a 1-channel f32 host view.
void convolve(const ImageView& src, const ImageView& dst, const ImageView& kernel,
              const ConvolveParams& p = {}, void* stream = nullptr);

}  // namespace texcv
