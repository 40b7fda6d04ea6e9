// clahe (src/core/ops/clahe.cpp), an intensity operation: texcv/color.hpp has what the colour and
// intensity operations share (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// clahe: contrast-limited adaptive histogram equalization as cv::createCLAHE(clip_limit,
// tile_grid)->apply (u8 or u16, 1 channel; u16 uses 65536 bins as OpenCV). clip_limit >= 0 (0: no
// clipping); tile grid >= 1 x 1 and at most the image size.
struct ClaheParams {
  double clip_limit = 40.0;
  int tiles_x = 8, tiles_y = 8;
};
void clahe(const ImageView& src, const ImageView& dst, const ClaheParams& p = {},
           void* stream = nullptr);

}  // namespace texcv
