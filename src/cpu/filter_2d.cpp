// CPU backend: 2-D correlation with a kernel of up to 31x31 (convolve, sharpen, laplacian), in
// float32, parallel over blocks of rows.
#include <algorithm>
#include <vector>

#include "src/cpu/filter_rows.hpp"

namespace texcv::cpu {

void filter_2d(const ImageView& src, const ImageView& dst, const texcv::detail::Filter2DDesc& d) {
  detail::dispatch_filter(src, dst, "convolve", [&](auto tag, auto ch, auto out_tag) {
    using T = typename decltype(tag)::type;
    using Tout = typename decltype(out_tag)::type;
    constexpr int C = decltype(ch)::value;
    const int w = src.width, h = src.height, n = w * C;
    const std::vector<int> xi = detail::column_table(w, d.kw, d.ax, d.border.border);
    constexpr int kBlock = 8;
    const int blocks = (h + kBlock - 1) / kBlock;
    TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(w) * h * d.kw * d.kh / 8)
    for (int b = 0; b < blocks; ++b) {
      std::vector<float> buf(xi.size() * C), acc(static_cast<std::size_t>(n));
      const int y1 = std::min(h, (b + 1) * kBlock);
      for (int y = b * kBlock; y < y1; ++y) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (int j = 0; j < d.kh; ++j) {
          const float* krow = d.k.data() + static_cast<std::size_t>(j) * d.kw;
          if (std::all_of(krow, krow + d.kw, [](float v) { return v == 0.0f; })) continue;
          const int iy = texcv::detail::border_index(y + j - d.ay, h, d.border.border);
          detail::padded_row<T, C>(src, iy, xi, d.border.value, buf.data());
          detail::correlate_row<C>(buf.data(), krow, d.kw, n, acc.data());
        }
        detail::store_row<Tout>(dst, y, acc.data(), n, d.scale, d.delta);
      }
    }
  });
}

}  // namespace texcv::cpu
