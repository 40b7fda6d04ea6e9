// CPU backend: histogram (as cv::calcHist, uniform bins), counted in bands of rows in parallel.
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/cpu/value_counts.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::for_bands;
using detail::hist_bands;
using detail::value_counts;

std::vector<std::vector<std::uint64_t>> histogram(const ImageView& src, int bins, double lo,
                                                  double hi) {
  const int C = src.channels;
  std::vector<std::vector<std::uint64_t>> out(C, std::vector<std::uint64_t>(bins, 0));
  // As cv::calcHist (uniform): bin floor(v a + b) with a = bins / (hi - lo), b = -lo a in
  // double; counted when 0 <= bin < bins (NaN is never counted).
  const double a = bins / (hi - lo), b0 = -lo * a;
  auto bin_of = [&](double v) -> int {
    const double f = std::floor(v * a + b0);
    return f >= 0.0 && f < bins ? static_cast<int>(f) : -1;
  };
  const long pixels = static_cast<long>(src.width) * src.height;
  detail::dispatch(src.type, C, "histogram", [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int kC = decltype(channels)::value;
    if constexpr (sizeof(T) == 4) {
      const int bands = hist_bands(src, static_cast<long>(kC) * bins);
      if (bands == 1) {
        for (int y = 0; y < src.height; ++y) {
          const T* s = src.row<const T>(y);
          for (int x = 0; x < src.width; ++x)
            for (int c = 0; c < kC; ++c) {
              const int b = bin_of(s[x * kC + c]);
              if (b >= 0) ++out[c][b];
            }
        }
        return;
      }
      // Each band counts into its own bins (the same bin of each element), added up in out.
      const std::size_t size = static_cast<std::size_t>(kC) * bins;
      std::vector<std::uint64_t> part(bands * size, 0);
      for_bands(src.height, bands, pixels, [&](int band, int y0, int y1) {
        std::uint64_t* p = &part[band * size];
        for (int y = y0; y < y1; ++y) {
          const T* s = src.row<const T>(y);
          for (int x = 0; x < src.width; ++x)
            for (int c = 0; c < kC; ++c) {
              const int b = bin_of(s[x * kC + c]);
              if (b >= 0) ++p[static_cast<std::size_t>(c) * bins + b];
            }
        }
      });
      for (int band = 0; band < bands; ++band)
        for (int c = 0; c < kC; ++c)
          for (int i = 0; i < bins; ++i)
            out[c][i] += part[band * size + static_cast<std::size_t>(c) * bins + i];
    } else {
      // Integer types: the elements of each value counted, then each value's count added to the
      // value's bin (computed once per value): every element lands in bin_of(its value), as if
      // binned one by one, without a per-element bin lookup and range test.
      constexpr int kN = sizeof(T) == 1 ? 256 : 65536;
      const std::vector<std::uint64_t> counts = value_counts<T, kC>(src);
      for (int v = 0; v < kN; ++v) {
        const int b = bin_of(v);
        if (b >= 0)
          for (int c = 0; c < kC; ++c) out[c][b] += counts[c * kN + v];
      }
    }
  });
  return out;
}

}  // namespace texcv::cpu
