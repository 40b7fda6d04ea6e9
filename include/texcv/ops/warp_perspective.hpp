// warp_perspective (src/core/ops/warp_perspective.cpp), a geometric operation: texcv/geometry.hpp
// has what they share (views, backends, supported types, pixel centres).
#pragma once

#include <array>

#include "texcv/image.hpp"
#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// warp_perspective: as cv::warpPerspective with a 3x3 row-major matrix.
void warp_perspective(const ImageView& src, const ImageView& dst, const std::array<double, 9>& m,
                      bool inverse_map = false, const Sampling& s = {}, void* stream = nullptr);

}  // namespace texcv
