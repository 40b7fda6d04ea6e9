// CPU backend: unsharp_mask: a Gaussian blur stored in the source's element type, then
// out = src + amount * (src - blur) where |src - blur| >= threshold, else src.
#include "src/cpu/filter_rows.hpp"

namespace texcv::cpu {

void unsharp_mask(const ImageView& src, const ImageView& dst, const texcv::detail::UnsharpDesc& d) {
  // Each strip of a blurred row is combined as the filter makes it (the views never overlap:
  // check_io), instead of a whole blurred image first (16 MB for 4096^2 u8: its page faults and
  // a second pass over the source). The same values: the blur stored in src's type, then the
  // same combination.
  detail::dispatch(src.type, src.channels, "unsharp_mask", [&](auto tag, auto) {
    using T = typename decltype(tag)::type;
    const detail::RowSink sink = [&](int y, int e0, int n, const void* row) {
      const T* s = src.row<const T>(y) + e0;
      const T* b = static_cast<const T*>(row);
      T* o = dst.row<T>(y) + e0;
      if (simd::unsharp_row(s, b, o, n, d.amount, d.threshold)) return;  // Highway (simd.hpp)
      for (int i = 0; i < n; ++i) {
        const float v = static_cast<float>(s[i]);
        const float diff = v - static_cast<float>(b[i]);
        const float mag = diff < 0.0f ? -diff : diff;
        o[i] = mag >= d.threshold ? texcv::detail::saturate<T>(v + d.amount * diff) : s[i];
      }
    };
    filter_separable(src, dst, d.blur, &sink);
  });
}

}  // namespace texcv::cpu
