// CPU backend: convert (element type and scale/offset), parallel over rows.
#include <type_traits>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/cpu/point_rows.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::by_type;
using detail::for_rows;

void convert(const ImageView& src, const ImageView& dst, const texcv::detail::ScaleDesc& d) {
  by_type(src.type, "convert", [&](auto stag) {
    using S = typename decltype(stag)::type;
    by_type(dst.type, "convert", [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      if (d.identity) {
        for_rows<S, D>(src, dst, [&](const S* s, D* o, int n) {
          for (int i = 0; i < n; ++i) o[i] = sd::px_convert_identity<D>(s[i]);
        });
      } else {
        const float a = d.scale, b = d.offset;
        for_rows<S, D>(src, dst, [&](const S* s, D* o, int n) {
          if constexpr (std::is_same_v<S, float> || std::is_same_v<S, D>) {
            if (simd::convert_row(s, n, a, b, o)) return;  // Highway's vectors (simd.hpp)
          }
          for (int i = 0; i < n; ++i) o[i] = sd::px_convert<D>(s[i], a, b);
        });
      }
    });
  });
}

}  // namespace texcv::cpu
