// The types the filters share (texcv/filters.hpp): the kernel size limits and the border (with
// the CUDA read path) of the linear and non-linear filters.
#pragma once

#include <array>

#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// Largest convolve kernel side, and largest 1-D kernel of the separable filters.
constexpr int kMaxKernel2D = 31;
constexpr int kMaxKernel1D = 255;

// How pixels outside the image are read (docs/conventions.md); the value is per channel, for
// Border::constant, converted to the element type first (as OpenCV's borderValue). path: how the
// CUDA backend reads the source of the linear filters (automatic: the measured rule in
// docs/performance.md; global: plain loads; shared: a tile staged in shared memory; texture:
// texture fetches; texture_filter is rejected). Every path gives identical results; the CPU
// backend ignores it.
struct FilterBorder {
  Border border = Border::reflect101;
  std::array<double, 4> value{0, 0, 0, 0};
  Path path = Path::automatic;
};

}  // namespace texcv
