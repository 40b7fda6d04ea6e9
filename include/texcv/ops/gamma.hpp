// gamma (src/core/ops/gamma.cpp), an intensity operation: texcv/color.hpp has what the colour and
// intensity operations share (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// gamma: out = max * (in / max)^gamma, max = 255 (u8), 65535 (u16), 1 (f32); u8/u16 through a
// lookup table rounded half to even; f32 computed as is (sign(in) * |in|^gamma). gamma > 0, finite.
void gamma(const ImageView& src, const ImageView& dst, double gamma, void* stream = nullptr);

}  // namespace texcv
