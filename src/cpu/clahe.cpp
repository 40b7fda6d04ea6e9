// CPU backend: clahe (u8 and u16).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
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
