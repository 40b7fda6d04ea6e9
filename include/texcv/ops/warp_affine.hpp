// warp_affine (src/core/ops/warp_affine.cpp), a geometric operation: texcv/geometry.hpp has what
// they share (views, backends, supported types, pixel centres).
#pragma once

#include <array>

#include "texcv/image.hpp"
#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// warp_affine: as cv::warpAffine. m is the 2x3 matrix row-major; it maps source to
// destination coordinates unless inverse_map says it already maps destination to source.
// Interp::area is not supported.
void warp_affine(const ImageView& src, const ImageView& dst, const std::array<double, 6>& m,
                 bool inverse_map = false, const Sampling& s = {}, void* stream = nullptr);

}  // namespace texcv
