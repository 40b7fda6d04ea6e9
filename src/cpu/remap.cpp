// CPU backend: remap with two float maps (dst(x, y) = src(map_x(x, y), map_y(x, y))).
#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const SamplingDesc& sp) {
  namespace sd = texcv::detail;
  detail::dispatch(src.type, src.channels, "remap", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    const auto s = detail::source_of<T, C>(src);
    TEXCV_OMP_PARALLEL_FOR_ROWS(dst.width, dst.height)
    for (int y = 0; y < dst.height; ++y) {
      const float* mx = map_x.row<const float>(y);
      const float* my = map_y.row<const float>(y);
      T* drow = dst.row<T>(y);
      if constexpr (C == 1) {
        if (sp.interp == Interp::linear) {
          const simd::RemapRow r{static_cast<const unsigned char*>(src.data),
                                 src.pitch,
                                 src.width,
                                 src.height,
                                 mx,
                                 my,
                                 dst.width,
                                 sp.border,
                                 sp.border_value[0]};
          if (simd::remap_linear_row(r, drow)) continue;  // Highway's vectors (simd.hpp)
        }
      }
      for (int x = 0; x < dst.width; ++x) {
        float out[C];
        sd::sample<C>(s, mx[x], my[x], sp.interp, sp.border, sp.border_value, out);
        sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
      }
    }
  });
}

}  // namespace texcv::cpu
