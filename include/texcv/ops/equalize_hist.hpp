// equalize_hist (src/core/ops/equalize_hist.cpp), an intensity operation: texcv/color.hpp has what
// the colour and intensity operations share (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// equalize_hist: as cv::equalizeHist (u8 1-channel).
void equalize_hist(const ImageView& src, const ImageView& dst, void* stream = nullptr);

}  // namespace texcv
