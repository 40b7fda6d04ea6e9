// remap (src/core/ops/remap.cpp), a geometric operation: texcv/geometry.hpp has what they share
// (views, backends, supported types, pixel centres).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// remap: dst(x, y) = src(map_x(x, y), map_y(x, y)), as cv::remap with two float maps.
// map_x and map_y are 1-channel f32 views of dst's size in the same location as src.
void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const Sampling& s = {}, void* stream = nullptr);

}  // namespace texcv
