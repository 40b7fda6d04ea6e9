// CPU backend: 2-D correlation with a kernel of up to 31x31 (convolve, sharpen, laplacian), in
// float32, parallel over blocks of rows.
#include <algorithm>
#include <memory>
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
    const int kBlock = std::max(8, d.kh);  // output rows a block: its kh - 1 extra rows stay small
    const int blocks = (h + kBlock - 1) / kBlock;
    const std::size_t stride = xi.size() * C;
    // Each thread's rows, allocated once and not zeroed (a fresh zeroed 160 KB per block of 8 rows
    // went through mmap: page faults and memset on every block).
    detail::RegionErrors errors;  // a failed allocation is thrown after the region
    TEXCV_OMP_PARALLEL_IF(static_cast<long>(w) * h * d.kw * d.kh / 8) {
      std::unique_ptr<float[]> pad, acc;
      // The kernel's nonzero taps in order (row by row): the padded row and column offset of each.
      std::vector<int> tap_row, tap_col;
      std::vector<float> tap_k;
      std::vector<const float*> tap_src;
      const bool ready = errors.guard([&] {
        pad = std::make_unique_for_overwrite<float[]>(
            static_cast<std::size_t>(std::min(h, kBlock) + d.kh - 1) * stride);
        acc = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(n));
        for (int j = 0; j < d.kh; ++j)
          for (int k = 0; k < d.kw; ++k)
            if (d.k[static_cast<std::size_t>(j) * d.kw + k] != 0.0f) {
              tap_row.push_back(j);
              tap_col.push_back(k * C);
              tap_k.push_back(d.k[static_cast<std::size_t>(j) * d.kw + k]);
            }
        tap_src.resize(tap_k.size());
      });
      TEXCV_OMP_FOR_N(blocks)
      for (int b = 0; b < blocks; ++b) {
        if (!ready) continue;
        const int y0 = b * kBlock, y1 = std::min(h, y0 + kBlock);
        // The block's source rows y0 - ay .. y1 - 1 - ay + kh - 1, each padded and converted once.
        const int rows = y1 - y0 + d.kh - 1;
        for (int r = 0; r < rows; ++r) {
          const int iy = texcv::detail::border_index(y0 - d.ay + r, h, d.border.border);
          detail::padded_row<T, C>(src, iy, xi, d.ax, d.border.value, pad.get() + r * stride);
        }
        for (int y = y0; y < y1; ++y) {
          // One pass in Highway's vectors (simd.hpp): the same sums as the loops below.
          for (std::size_t t = 0; t < tap_k.size(); ++t)
            tap_src[t] = pad.get() + (y - y0 + tap_row[t]) * stride + tap_col[t];
          if (simd::filter_taps_store(tap_src.data(), tap_k.data(), static_cast<int>(tap_k.size()),
                                      n, d.scale, d.delta, dst.row<Tout>(y)))
            continue;
          std::fill(acc.get(), acc.get() + n, 0.0f);
          for (int j = 0; j < d.kh; ++j) {
            const float* krow = d.k.data() + static_cast<std::size_t>(j) * d.kw;
            if (std::all_of(krow, krow + d.kw, [](float v) { return v == 0.0f; })) continue;
            detail::correlate_row<C>(pad.get() + (y - y0 + j) * stride, krow, d.kw, n, acc.get());
          }
          detail::store_row<Tout>(dst, y, acc.get(), n, d.scale, d.delta);
        }
      }
    }
    errors.rethrow();
  });
}

}  // namespace texcv::cpu
