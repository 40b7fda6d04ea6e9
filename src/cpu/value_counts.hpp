// The value counts of integer images, shared by histogram, Otsu's threshold and equalize_hist:
// counted in bands of rows in parallel, each band into counters of its own, added up at the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/cpu/dispatch.hpp"

namespace texcv::cpu::detail {

// Calls f(band, y0, y1) for `bands` bands of consecutive rows [y0, y1) covering [0, h), in
// parallel (one band per thread) when there are several.
template <class F>
void for_bands(int h, int bands, long work, F&& f) {
  TEXCV_OMP_PARALLEL_FOR_N(bands > 1 ? work : 0, bands)
  for (int b = 0; b < bands; ++b)
    f(b, static_cast<int>(static_cast<long>(h) * b / bands),
      static_cast<int>(static_cast<long>(h) * (b + 1) / bands));
}

// How many bands a histogram of src into `counters` counters is counted in, each into counters
// of its own that are added up at the end (integers: the same sums in any order): one per thread,
// while clearing and adding up the bands' counters costs at most a quarter of the counting.
inline int hist_bands(const ImageView& src, long counters) {
  const long pixels = static_cast<long>(src.width) * src.height;
  const long by_size = pixels * src.channels / (4 * counters);
  return static_cast<int>(
      std::max(1L, std::min({static_cast<long>(detail::parallel_threads(pixels)),
                             static_cast<long>(src.height), by_size})));
}

// The number of elements of each value in rows [y0, y1) of src, per channel, added to
// counts[c * kN + v] (kN = 256 for u8, 65536 for u16).
template <typename T, int C>
void count_values(const ImageView& src, int y0, int y1, std::uint64_t* counts) {
  constexpr int kN = sizeof(T) == 1 ? 256 : 65536;
  const int w = src.width;
  if constexpr (sizeof(T) == 1 && C == 1) {
    // Four tables, for consecutive elements in turn, so that an element of the same value as the
    // previous one (neighbouring pixels often are) does not wait for that one's increment.
    std::uint64_t t[4][kN] = {};
    for (int y = y0; y < y1; ++y) {
      const T* s = src.row<const T>(y);
      int x = 0;
      for (; x + 4 <= w; x += 4) {
        ++t[0][s[x]];
        ++t[1][s[x + 1]];
        ++t[2][s[x + 2]];
        ++t[3][s[x + 3]];
      }
      for (; x < w; ++x) ++t[0][s[x]];
    }
    for (int v = 0; v < kN; ++v) counts[v] += t[0][v] + t[1][v] + t[2][v] + t[3][v];
  } else {
    for (int y = y0; y < y1; ++y) {
      const T* s = src.row<const T>(y);
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < C; ++c) ++counts[c * kN + s[x * C + c]];
    }
  }
}

// The number of elements of each value of an integer image, per channel: [c * kN + v]; counted
// in bands of rows in parallel.
template <typename T, int C>
std::vector<std::uint64_t> value_counts(const ImageView& src) {
  constexpr long kSize = C * (sizeof(T) == 1 ? 256L : 65536L);
  const int bands = hist_bands(src, kSize);
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(bands) * kSize, 0);
  for_bands(src.height, bands, static_cast<long>(src.width) * src.height,
            [&](int b, int y0, int y1) {
              count_values<T, C>(src, y0, y1, &counts[static_cast<std::size_t>(b) * kSize]);
            });
  for (int b = 1; b < bands; ++b)
    for (long i = 0; i < kSize; ++i) counts[i] += counts[static_cast<std::size_t>(b) * kSize + i];
  counts.resize(kSize);
  return counts;
}

}  // namespace texcv::cpu::detail
