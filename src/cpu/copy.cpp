// CPU backend: copy between two host views of the same shape (row by row, any pitches).
#include <cstring>

#include "src/core/backends.hpp"

namespace texcv::cpu {

void copy(const ImageView& src, const ImageView& dst) {
  const std::size_t bytes = src.row_bytes();
  if (src.pitch == bytes && dst.pitch == bytes) {
    std::memmove(dst.data, src.data, bytes * static_cast<std::size_t>(src.height));
    return;
  }
  for (int y = 0; y < src.height; ++y)
    std::memmove(dst.row<unsigned char>(y), src.row<const unsigned char>(y), bytes);
}

}  // namespace texcv::cpu
