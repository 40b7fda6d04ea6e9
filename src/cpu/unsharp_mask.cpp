// CPU backend: unsharp_mask: a Gaussian blur stored in the source's element type, then
// out = src + amount * (src - blur) where |src - blur| >= threshold, else src.
#include "src/cpu/filter_rows.hpp"

namespace texcv::cpu {

void unsharp_mask(const ImageView& src, const ImageView& dst, const texcv::detail::UnsharpDesc& d) {
  Image blur(src.width, src.height, src.channels, src.type);
  const ImageView bv = blur.view();
  filter_separable(src, bv, d.blur);
  detail::dispatch(src.type, src.channels, "unsharp_mask", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    const int n = src.width * C;
    TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
    for (int y = 0; y < src.height; ++y) {
      const T* s = src.row<const T>(y);
      const T* b = bv.row<const T>(y);
      T* o = dst.row<T>(y);
      if (simd::unsharp_row(s, b, o, n, d.amount, d.threshold)) continue;  // Highway (simd.hpp)
      for (int i = 0; i < n; ++i) {
        const float v = static_cast<float>(s[i]);
        const float diff = v - static_cast<float>(b[i]);
        const float mag = diff < 0.0f ? -diff : diff;
        o[i] = mag >= d.threshold ? texcv::detail::saturate<T>(v + d.amount * diff) : s[i];
      }
    }
  });
}

}  // namespace texcv::cpu
