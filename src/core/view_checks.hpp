// Validation shared by the public entry points in src/core (ops/<op>.cpp, <area>_common.cpp):
// source/destination pairs, aliasing, sizes, and constant border values.
#pragma once

#include <string>

#include "texcv/image.hpp"

namespace texcv::detail {

// "640x480".
std::string size_str(int w, int h);
// "3-channel u8".
std::string shape_str(const ImageView& v);

// Fails with "output aliasing input" when out's byte range [data, data + pitch * (h - 1) +
// row bytes) intersects in's (same location only); in_name names the input ("source", "map_x").
void check_no_overlap(const char* op, const ImageView& out, const ImageView& in,
                      const char* in_name);

// Source and destination: valid views, same location; with same_type also the same element type;
// the same channel count; no overlap.
void check_pair(const char* op, const ImageView& src, const ImageView& dst, bool same_type = true);

// Destination of the source's size.
void check_same_size(const char* op, const ImageView& src, const ImageView& dst);

// A constant border value converted to the element type (rounded half to even and saturated for
// u8/u16), as OpenCV converts its borderValue scalar.
float border_value_for(ElemType t, double v);

}  // namespace texcv::detail
