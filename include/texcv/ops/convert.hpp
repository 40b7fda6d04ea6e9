// convert (src/core/ops/convert.cpp), an intensity operation: texcv/color.hpp has what the colour
// and intensity operations share (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// convert: dst = saturate(src * scale + offset) in dst's element type, as cv::Mat::convertTo
// (float arithmetic, rounded half to even, saturated). Same size and channels.
void convert(const ImageView& src, const ImageView& dst, double scale = 1.0, double offset = 0.0,
             void* stream = nullptr);

}  // namespace texcv
