// The contract between src/core/filters_nonlinear.cpp and the CPU backend for the non-linear
// filters (include/texcv/filters.hpp: median_blur, bilateral_filter). src/core validates every
// call and resolves the parameters; the CPU backend (src/cpu/filter_median.cpp,
// src/cpu/filter_bilateral.cpp) implements them. The CUDA backend does not implement them yet.
#pragma once

#include "src/core/filters_desc.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// Median of the ksize x ksize window (odd ksize >= 1), replicated border. dst has src's type.
struct MedianDesc {
  int ksize = 3;
};

// Bilateral filter over the disc of radius `radius` (>= 1): weights
// exp(r^2 * space_coeff) * exp(D^2 * color_coeff), D the L1 colour distance; coefficients are
// -0.5 / sigma^2. src is u8 or f32 with 1 or 3 channels; dst has src's type.
struct BilateralDesc {
  int radius = 1;
  double color_coeff = -0.5, space_coeff = -0.5;
  FilterBorderDesc border;
};

}  // namespace texcv::detail

namespace texcv::cpu {
void median_blur(const ImageView& src, const ImageView& dst, const texcv::detail::MedianDesc& d);
void bilateral_filter(const ImageView& src, const ImageView& dst,
                      const texcv::detail::BilateralDesc& d);
}  // namespace texcv::cpu
