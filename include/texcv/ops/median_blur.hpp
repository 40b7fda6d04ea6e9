// median_blur (src/core/ops/median_blur.cpp), a non-linear filter: texcv/filters.hpp has what the
// filters share (views, element types, backends).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// median_blur: as cv::medianBlur: each output element is the median of the ksize x ksize window of
// its channel; pixels outside the image replicate the edge (cv::medianBlur's only border). ksize
// is odd, 1 to 255 (1 copies). u8: any such size (a sliding histogram above 5); u16 and f32:
// also any such size (a selection per pixel, O(ksize^2) each), where OpenCV allows only 3 and 5.
// 1, 3 or 4 channels. Results are exact (a median is one of the inputs).
void median_blur(const ImageView& src, const ImageView& dst, int ksize, void* stream = nullptr);

}  // namespace texcv
