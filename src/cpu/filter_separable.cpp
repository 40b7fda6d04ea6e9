// CPU backend: separable filters (separable_filter, gaussian_blur, box_filter, sobel, scharr) as
// two 1-D float32 passes: each block of output rows filters the source rows it needs along x into
// a ring of kh float rows, each output row then filters the ring along y. Parallel over blocks of
// rows.
#include <algorithm>
#include <memory>
#include <vector>

#include "src/cpu/filter_rows.hpp"

namespace texcv::cpu {

namespace {
// The floats of a strip of columns (filter_separable): the y pass's 13 rows of a 13-tap Gaussian
// then take 26 KB, within a 32 KB L1 data cache. Only when the rows of whole image rows would
// take more than kRingBytes: on the 2-core AMD EPYC (Zen 4, 1 MB L2) strips made the 13-tap
// Gaussian of a 4096^2 u8 image 10.8-11.1 ms instead of 12.2-14.2 (its 13 rows: 213 KB), but a
// 5x5 box 5.8-6.1 instead of 5.3-5.5 and a 5x3 filter 5.4-6.1 instead of 4.9-5.0 (5 rows:
// 80 KB), whose y pass reads little enough from L2 that the strips' extra calls cost more.
constexpr int kStripFloats = 512;
constexpr long kRingBytes = 128 * 1024;
}  // namespace

void filter_separable(const ImageView& src, const ImageView& dst,
                      const texcv::detail::SepFilterDesc& d) {
  filter_separable(src, dst, d, nullptr);
}

void filter_separable(const ImageView& src, const ImageView& dst,
                      const texcv::detail::SepFilterDesc& d, const detail::RowSink* sink) {
  detail::dispatch_filter(src, dst, "separable_filter", [&](auto tag, auto ch, auto out_tag) {
    using T = typename decltype(tag)::type;
    using Tout = typename decltype(out_tag)::type;
    constexpr int C = decltype(ch)::value;
    const int w = src.width, h = src.height, n = w * C;
    const int kw = static_cast<int>(d.kx.size()), kh = static_cast<int>(d.ky.size());
    const std::vector<int> xi = detail::column_table(w, kw, d.ax, d.border.border);
    // Rows of output per block: the kh - 1 extra row passes per block stay small against it
    // (32 rows: a 13-tap Gaussian filtered 44 source rows per 32 output rows; 64: 76 per 64, and
    // 4096^2 u8 on 2 cores went 19.5 -> 17.5 ms; 128 gave no more).
    const int block = std::min(h, std::max(64, 4 * kh));
    const int blocks = (h + block - 1) / block;
    // Columns per strip (whole pixels): when the y pass's kh rows of x sums would take more than
    // kRingBytes, a block is filtered strip by strip, so that they (kh * kStripFloats floats)
    // stay in the L1 cache instead of L2.
    const bool stripped = static_cast<long>(kh) * n * static_cast<long>(sizeof(float)) > kRingBytes;
    const int strip = stripped ? std::min(n, std::max(C, kStripFloats / C * C)) : n;
    const int strips = (n + strip - 1) / strip;
    // Each thread's rows, allocated once and not zeroed (a fresh zeroed buffer per block, 1.2 MB
    // for 4096-wide rows, went through mmap: page faults and memset on every block).
    detail::RegionErrors errors;  // a failed allocation is thrown after the region
    TEXCV_OMP_PARALLEL_IF(static_cast<long>(w) * h * (kw + kh) / 8) {
      std::unique_ptr<float[]> buf, acc, tmp;
      std::unique_ptr<Tout[]> out;  // with a sink: a strip of an output row
      // The nonzero taps of each pass, in order (simd::filter_taps_store sums them from zero in
      // registers: the same floats as zeroing a row and taps_add, whose zero taps are skipped;
      // the x pass stores with scale 1 and offset 0, exact as its sums are never -0).
      std::vector<int> xo, yo;
      std::vector<float> xk, yk;
      std::vector<const float*> xs, ys;
      const bool ready = errors.guard([&] {
        buf = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(strip) +
                                                      static_cast<std::size_t>(kw - 1) * C);
        acc = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(strip));
        tmp = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(kh) * strip);
        if (sink) out = std::make_unique_for_overwrite<Tout[]>(static_cast<std::size_t>(strip));
        for (int k = 0; k < kw; ++k)
          if (d.kx[k] != 0.0f) xo.push_back(k * C), xk.push_back(d.kx[k]);
        for (int k = 0; k < kh; ++k)
          if (d.ky[k] != 0.0f) yo.push_back(k), yk.push_back(d.ky[k]);
        xs.resize(xk.size());
        ys.resize(yk.size());
      });
      const int nx = static_cast<int>(xk.size()), ny = static_cast<int>(yk.size());
      TEXCV_OMP_FOR_N(blocks)
      for (int b = 0; b < blocks; ++b) {
        if (!ready) continue;
        const int y0 = b * block, y1 = std::min(h, y0 + block);
        for (int si = 0; si < strips; ++si) {
          const int e0 = si * strip, sn = std::min(strip, n - e0);  // the strip's elements
          // Source row r's x sums go to ring slot r % kh, just before the first output row
          // that needs them: the kh rows in use stay in cache.
          const auto x_pass = [&](int r) {
            const int iy = texcv::detail::border_index(y0 - d.ay + r, h, d.border.border);
            detail::padded_slice<T, C>(src, iy, xi, d.ax, d.border.value, e0 / C,
                                       (e0 + sn) / C + kw - 1, buf.get());
            float* t = tmp.get() + static_cast<std::size_t>(r % kh) * strip;
            for (int k = 0; k < nx; ++k) xs[k] = buf.get() + xo[k];
            if (simd::filter_taps_store(xs.data(), xk.data(), nx, sn, 1.0f, 0.0f, t)) return;
            std::fill(t, t + sn, 0.0f);
            detail::correlate_row<C>(buf.get(), d.kx.data(), kw, sn, t);
          };
          for (int r = 0; r < kh - 1; ++r) x_pass(r);
          for (int y = y0; y < y1; ++y) {
            x_pass(y - y0 + kh - 1);
            for (int k = 0; k < ny; ++k)
              ys[k] = tmp.get() + static_cast<std::size_t>((y - y0 + yo[k]) % kh) * strip;
            Tout* o = sink ? out.get() : dst.row<Tout>(y) + e0;
            if (!simd::filter_taps_store(ys.data(), yk.data(), ny, sn, d.scale, d.delta, o)) {
              std::fill(acc.get(), acc.get() + sn, 0.0f);
              for (int k = 0; k < kh; ++k)  // taps_add's loop over the ring's rows
                if (d.ky[k] != 0.0f)
                  detail::taps_add(tmp.get() + static_cast<std::size_t>((y - y0 + k) % kh) * strip,
                                   0, &d.ky[k], 1, sn, acc.get());
              detail::store_elems<Tout>(o, acc.get(), sn, d.scale, d.delta);
            }
            if (sink) (*sink)(y, e0, sn, o);
          }
        }
      }
    }
    errors.rethrow();
  });
}

}  // namespace texcv::cpu
