// invert (src/core/ops/invert.cpp), an intensity operation: texcv/color.hpp has what the colour
// and intensity operations share (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// invert: out = max - in per element, max = 255 (u8), 65535 (u16), 1 (f32): the negative, as
// cv::bitwise_not for u8 and u16; exact. dst: src's size, type and channels
// (src/core/ops/invert.cpp).
void invert(const ImageView& src, const ImageView& dst, void* stream = nullptr);

}  // namespace texcv
