// CPU backend: flip (mirror left-right, top-bottom or both); whole pixels are copied.
#include <cstring>

#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

void flip(const ImageView& src, const ImageView& dst, FlipCode code) {
  const bool mirror_x = code != FlipCode::vertical;
  const bool mirror_y = code != FlipCode::horizontal;
  const std::size_t px = src.pixel_bytes();
  const int w = src.width, h = src.height;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < h; ++y) {
    const unsigned char* s = src.row<const unsigned char>(mirror_y ? h - 1 - y : y);
    unsigned char* d = dst.row<unsigned char>(y);
    if (!mirror_x) {
      std::memcpy(d, s, src.row_bytes());
      continue;
    }
    for (int x = 0; x < w; ++x)
      std::memcpy(d + px * x, s + px * static_cast<std::size_t>(w - 1 - x), px);
  }
}

}  // namespace texcv::cpu
