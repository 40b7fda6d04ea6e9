// flip (src/core/ops/flip.cpp), a geometric operation: texcv/geometry.hpp has what they share
// (views, backends, supported types).
#pragma once

#include <cstdint>
#include <string_view>

#include "texcv/image.hpp"

namespace texcv {

enum class FlipCode : std::uint8_t { horizontal, vertical, both };
const char* to_string(FlipCode v) noexcept;
FlipCode parse_flip(std::string_view s);
// flip: as cv::flip (horizontal mirrors left-right, vertical top-bottom). dst is src's size.
void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream = nullptr);

}  // namespace texcv
