// CPU backend: the copy of crop (and of every host-to-host copy) between two host views of the
// same shape (row by row, any pitches). Views
// that do not share memory have their rows split among the threads (one thread's copy does not
// reach the memory bandwidth: crop 3/4 of a 4096x4096 RGB image took 4.0 ms against numpy's
// 3.3 ms on 2 cores); views that overlap are copied as before, on one thread.
#include <cstdint>
#include <cstring>
#include <utility>

#include "src/core/backends.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

void copy(const ImageView& src, const ImageView& dst) {
  const std::size_t bytes = src.row_bytes();
  if (src.height <= 0 || bytes == 0) return;
  const auto span = [&](const ImageView& v) {
    const auto a = reinterpret_cast<std::uintptr_t>(v.data);
    return std::pair{a, a + v.pitch * static_cast<std::size_t>(v.height - 1) + bytes};
  };
  const auto [s0, s1] = span(src);
  const auto [d0, d1] = span(dst);
  if (s0 < d1 && d0 < s1) {  // overlapping: memmove's order
    if (src.pitch == bytes && dst.pitch == bytes) {
      std::memmove(dst.data, src.data, bytes * static_cast<std::size_t>(src.height));
      return;
    }
    for (int y = 0; y < src.height; ++y)
      std::memmove(dst.row<unsigned char>(y), src.row<const unsigned char>(y), bytes);
    return;
  }
  TEXCV_OMP_PARALLEL_FOR_ROWS(static_cast<long>(bytes / 4), src.height)
  for (int y = 0; y < src.height; ++y)
    std::memcpy(dst.row<unsigned char>(y), src.row<const unsigned char>(y), bytes);
}

}  // namespace texcv::cpu
