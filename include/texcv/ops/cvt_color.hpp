// cvt_color (src/core/ops/cvt_color.cpp), a colour operation: texcv/color.hpp has what the colour
// and intensity operations share (views, backends, supported types).
#pragma once

#include <cstdint>
#include <string_view>

#include "texcv/image.hpp"

namespace texcv {

// Colour conversion codes. Channel counts: src -> dst. Same element type on both sides.
enum class ColorCode : std::uint8_t {
  rgb2bgr,    // 3 -> 3 (swap R and B; also BGR -> RGB)
  rgba2bgra,  // 4 -> 4 (swap R and B, keep alpha; also BGRA -> RGBA)
  rgb2gray,   // 3 -> 1: 0.299 R + 0.587 G + 0.114 B
  bgr2gray,   // 3 -> 1
  rgba2gray,  // 4 -> 1
  bgra2gray,  // 4 -> 1
  gray2rgb,   // 1 -> 3
  gray2rgba,  // 1 -> 4 (alpha = 255, 65535 or 1.0)
  // YUV = Y'CbCr: U = Cb, V = Cr (docs/ops/color.md defines the matrices); 3 -> 3.
  rgb2yuv_bt601,          // BT.601, full range
  rgb2yuv_bt601_limited,  // BT.601, limited (video) range
  rgb2yuv_bt709,
  rgb2yuv_bt709_limited,
  yuv2rgb_bt601,
  yuv2rgb_bt601_limited,
  yuv2rgb_bt709,
  yuv2rgb_bt709_limited,
  // HSV as OpenCV: u8 H in [0, 180), S, V in [0, 255]; f32 H in [0, 360), S in [0, 1], V = max.
  rgb2hsv,  // 3 -> 3
  bgr2hsv,
  hsv2rgb,
  hsv2bgr,
};
const char* to_string(ColorCode v) noexcept;
// Parses the names above ("rgb2gray", "rgb2yuv_bt709_limited", ...).
ColorCode parse_color_code(std::string_view s);

// cvt_color: converts between colour spaces. dst has src's size and type and the code's channel
// count. Gray: u8 in OpenCV's 15-bit fixed point (bit-exact with cv::cvtColor 4.6), u16 the
// 14-bit sum rounded once (within 2 levels of OpenCV), f32 in float. docs/ops/color.md has the
// formulas and accuracy of every code.
void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream = nullptr);

}  // namespace texcv
