// CPU backend: histogram, Otsu's threshold, equalize_hist, clahe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/lut_row.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

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
int hist_bands(const ImageView& src, long counters) {
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

}  // namespace

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

// Otsu's threshold (src/core/color_stats.hpp, shared with the CUDA backend).
int otsu_threshold(const ImageView& src) {
  const std::vector<std::uint64_t> h = value_counts<std::uint8_t, 1>(src);
  return sd::otsu_from_hist(h.data(), static_cast<std::uint64_t>(src.width) * src.height);
}

void equalize_hist(const ImageView& src, const ImageView& dst) {
  const std::vector<std::uint64_t> h = value_counts<std::uint8_t, 1>(src);
  std::uint8_t lut[256];
  sd::equalize_lut(h.data(), static_cast<std::uint64_t>(src.width) * src.height, lut);
  TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
  for (int y = 0; y < src.height; ++y) {
    const std::uint8_t* s = src.row<const std::uint8_t>(y);
    std::uint8_t* d = dst.row<std::uint8_t>(y);
    detail::lut_row(s, d, src.width, lut);
  }
}

namespace {

// CLAHE as cv::CLAHE (docs/ops/color.md): the image is extended with reflect101 to a multiple of
// the grid when the grid does not divide it, one clipped-histogram lookup table per tile (256 bins
// for u8, 65536 for u16), and every pixel interpolates bilinearly between the tables of the four
// nearest tile centres.
template <typename T>
void clahe_t(const ImageView& src, const ImageView& dst, double clip_limit, int tiles_x,
             int tiles_y) {
  constexpr int kBins = sizeof(T) == 1 ? 256 : 65536;
  const int w = src.width, h = src.height;
  // Tile sizes, clip limit and table scale: src/core/color_stats.hpp (shared with the CUDA
  // backend).
  const sd::ClaheGeometry g = sd::clahe_geometry(w, h, clip_limit, tiles_x, tiles_y, kBins);
  const int tw = g.tw, th = g.th, clip = g.clip;
  const float lut_scale = g.lut_scale;
  std::vector<T> luts(static_cast<std::size_t>(tiles_x) * tiles_y * kBins);
  const int ntiles = tiles_x * tiles_y;
  detail::RegionErrors errors;  // a failed allocation is thrown after the region
  TEXCV_OMP_PARALLEL_FOR_N(static_cast<long>(w) * h, ntiles)
  for (int t = 0; t < ntiles; ++t) {
    const int tx = t % tiles_x, ty = t / tiles_x;
    std::vector<int> hist;
    if (!errors.guard([&] { hist.assign(kBins, 0); })) continue;
    for (int y = ty * th; y < (ty + 1) * th; ++y) {
      const T* s = src.row<const T>(sd::border_index(y, h, Border::reflect101));
      for (int x = tx * tw; x < (tx + 1) * tw; ++x)
        ++hist[s[x < w ? x : sd::border_index(x, w, Border::reflect101)]];
    }
    if (clip > 0) {
      int clipped = 0;
      for (int i = 0; i < kBins; ++i)
        if (hist[i] > clip) {
          clipped += hist[i] - clip;
          hist[i] = clip;
        }
      const int batch = clipped / kBins;
      int residual = clipped - batch * kBins;
      for (int i = 0; i < kBins; ++i) hist[i] += batch;
      if (residual > 0) {
        const int step = std::max(kBins / residual, 1);
        for (int i = 0; i < kBins && residual > 0; i += step, --residual) ++hist[i];
      }
    }
    T* lut = &luts[static_cast<std::size_t>(t) * kBins];
    int sum = 0;
    for (int i = 0; i < kBins; ++i) {
      sum += hist[i];
      lut[i] = sd::saturate<T>(static_cast<float>(sum) * lut_scale);
    }
  }
  errors.rethrow();
  // Per column: the two tiles and the weight of the right one.
  std::vector<std::size_t> x1(w), x2(w);
  std::vector<float> xa(w);
  const float inv_tw = g.inv_tw, inv_th = g.inv_th;
  for (int x = 0; x < w; ++x) {
    const float f = static_cast<float>(x) * inv_tw - 0.5f;
    const int i = static_cast<int>(std::floor(f));
    xa[x] = f - static_cast<float>(i);
    x1[x] = static_cast<std::size_t>(std::max(i, 0)) * kBins;
    x2[x] = static_cast<std::size_t>(std::min(i + 1, tiles_x - 1)) * kBins;
  }
  const std::size_t row_luts = static_cast<std::size_t>(tiles_x) * kBins;
  // Per row: the tables of the two tile rows and the weight of the lower one.
  std::vector<const T*> y1(h), y2(h);
  std::vector<float> ya(h);
  for (int y = 0; y < h; ++y) {
    const float f = static_cast<float>(y) * inv_th - 0.5f;
    const int i = static_cast<int>(std::floor(f));
    ya[y] = f - static_cast<float>(i);
    y1[y] = &luts[static_cast<std::size_t>(std::max(i, 0)) * row_luts];
    y2[y] = &luts[static_cast<std::size_t>(std::min(i + 1, tiles_y - 1)) * row_luts];
  }
  // Spans of columns between two tile centres (the same two tile columns): [span[k], span[k+1]).
  std::vector<int> span{0};
  for (int x = 1; x < w; ++x)
    if (x1[x] != x1[x - 1] || x2[x] != x2[x - 1]) span.push_back(x);
  span.push_back(w);
  // Blocks of rows, each span by span: a span reads 4 tables, which stay in cache for the
  // block's rows, where a whole row reads those of two tile rows (u16: 2 x tiles_x x 128 KB,
  // about all of L2 for 8 tiles, so that every lookup missed it). Each pixel's arithmetic is the
  // same in any order.
  constexpr int kBlock = 16;
  const int blocks = (h + kBlock - 1) / kBlock;
  TEXCV_OMP_PARALLEL_FOR_N(static_cast<long>(w) * h, blocks)
  for (int b = 0; b < blocks; ++b) {
    const int yb = b * kBlock, ye = std::min(yb + kBlock, h);
    for (std::size_t k = 0; k + 1 < span.size(); ++k) {
      const int xb = span[k], xe = span[k + 1];
      for (int y = yb; y < ye; ++y) {
        const float ya0 = ya[y], ya1 = 1.0f - ya0;
        // The four tables: upper/lower tile row, left/right tile column.
        const T* t11 = y1[y] + x1[xb];
        const T* t12 = y1[y] + x2[xb];
        const T* t21 = y2[y] + x1[xb];
        const T* t22 = y2[y] + x2[xb];
        const T* s = src.row<const T>(y);
        T* d = dst.row<T>(y);
        for (int x = xb; x < xe; ++x) {
          const std::size_t v = s[x];
          const float a = xa[x], a1 = 1.0f - a;
          const float r = (t11[v] * a1 + t12[v] * a) * ya1 + (t21[v] * a1 + t22[v] * a) * ya0;
          d[x] = sd::saturate<T>(r);
        }
      }
    }
  }
}

}  // namespace

void clahe(const ImageView& src, const ImageView& dst, double clip_limit, int tiles_x,
           int tiles_y) {
  if (src.type == ElemType::u16)
    clahe_t<std::uint16_t>(src, dst, clip_limit, tiles_x, tiles_y);
  else
    clahe_t<std::uint8_t>(src, dst, clip_limit, tiles_x, tiles_y);
}

}  // namespace texcv::cpu
