// invert on the CPU backend: dst = max - src per element, row by row (the loop vectorizes: no
// rounding, u8/u16 exact, f32 1.0f - x).
#include <cstdint>

#include "src/core/ops/invert.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

void invert(const ImageView& src, const ImageView& dst) {
  detail::dispatch(src.type, 1, "invert", [&](auto tag, auto) {
    using T = typename decltype(tag)::type;
    constexpr T kMax = sizeof(T) == 4 ? T(1) : T(sizeof(T) == 1 ? 255 : 65535);
    const int n = src.width * src.channels;
    TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
    for (int y = 0; y < src.height; ++y) {
      const T* s = src.row<const T>(y);
      T* d = dst.row<T>(y);
      for (int i = 0; i < n; ++i) d[i] = static_cast<T>(kMax - s[i]);
    }
  });
}

}  // namespace texcv::cpu
