// CPU backend: gamma (u8/u16 through a table, f32 as |x|^g rounded to the nearest float), parallel
// over rows.
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/cpu/lut_row.hpp"
#include "src/cpu/point_rows.hpp"
#include "src/cpu/pow_rounded.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::by_type;
using detail::for_rows;

void gamma(const ImageView& src, const ImageView& dst, double g) {
  by_type(src.type, "gamma", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 4) {
      const float gf = static_cast<float>(g);
      // |x|^g rounded to the nearest float (pow_rounded.hpp), in vectors where the CPU has them.
      for_rows<T, T>(src, dst, [&](const T* s, T* d, int n) {
        if (!simd::gamma_row(s, d, n, gf)) detail::gamma_plain(s, d, n, gf);
      });
    } else {
      // One table over every element of the row, whatever the channel count.
      const std::vector<T> lut = sd::gamma_lut<T>(g);
      const T* l = lut.data();
      for_rows<T, T>(src, dst, [l](const T* s, T* d, int n) {
        if constexpr (sizeof(T) == 1)
          detail::lut_row(s, d, n, l);
        else
          for (int i = 0; i < n; ++i) d[i] = l[s[i]];
      });
    }
  });
}

}  // namespace texcv::cpu
