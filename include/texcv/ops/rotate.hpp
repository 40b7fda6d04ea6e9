// rotate (src/core/ops/rotate.cpp), a geometric operation: texcv/geometry.hpp has what they share
// (views, backends, supported types, pixel centres).
#pragma once

#include <array>

#include "texcv/image.hpp"
#include "texcv/ops/geometry_types.hpp"

namespace texcv {

// rotate: angle in degrees, counter-clockwise, about the source centre ((w-1)/2, (h-1)/2), as
// cv::getRotationMatrix2D. The source centre lands on the destination centre, so a dst of the
// source's size keeps the size, and a dst of rotated_size(..., expand=true) holds the whole image.
void rotate(const ImageView& src, const ImageView& dst, double angle_deg, const Sampling& s = {},
            void* stream = nullptr);
// The output size of rotate: the source size, or with expand the bounding box of the rotated
// image (rounded up, as OpenCV users compute it).
Rect rotated_size(int width, int height, double angle_deg, bool expand);
// The 2x3 source-to-destination matrix rotate uses.
std::array<double, 6> rotation_matrix(int src_w, int src_h, int dst_w, int dst_h, double angle_deg);

}  // namespace texcv
