// clahe on the CPU backend: a constant image by hand, and the float blend of the tile tables as
// docs/ops/color.md defines it, pixel by pixel (u8 and u16, grids that divide the image or
// extend it, with and without clipping).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "src/core/color_stats.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, ClaheConstantImage) {
  // 16x16 of 100, 8x8 tiles of 2x2 = 4 pixels. clip 40: limit max(int(40 * 4 / 256), 1) = 1, so
  // 3 of the 4 counts are redistributed one each to levels 0, 85, 170; the table at 100 holds
  // cdf 3 -> 3 * 255 / 4 = 191.25 -> 191 in every tile.
  const Image s = make(16, 16, 1, ElemType::u8, std::vector<double>(256, 100));
  Image d(16, 16, 1, ElemType::u8);
  clahe(s, d, {});
  EXPECT_EQ(values(d), std::vector<double>(256, 191));
  ClaheParams p;
  p.clip_limit = 0;  // no clipping: plain equalization per tile: 255
  clahe(s, d, p);
  EXPECT_EQ(values(d), std::vector<double>(256, 255));
}

// clahe as docs/ops/color.md defines it, pixel by pixel (the tile geometry and constants of
// color_stats.hpp's clahe_geometry; the blend's float operations in the library's order, which
// computes x / tw as x * (1 / tw)).
template <typename T>
std::vector<double> reference_clahe(const ImageView& s, double clip_limit, int gx, int gy) {
  constexpr int kB = sizeof(T) == 1 ? 256 : 65536;
  const int w = s.width, h = s.height;
  const detail::ClaheGeometry g = detail::clahe_geometry(w, h, clip_limit, gx, gy, kB);
  auto reflect101 = [](int i, int n) {
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
    return n == 1 ? 0 : i;
  };
  auto sat = [](float v) {
    return static_cast<double>(std::min(std::nearbyint(v), static_cast<float>(kB - 1)));
  };
  std::vector<std::vector<double>> lut(static_cast<std::size_t>(gx) * gy);
  for (int ty = 0; ty < gy; ++ty)
    for (int tx = 0; tx < gx; ++tx) {
      std::vector<long> hist(kB, 0);
      for (int y = ty * g.th; y < (ty + 1) * g.th; ++y)
        for (int x = tx * g.tw; x < (tx + 1) * g.tw; ++x)
          ++hist[static_cast<long>(test::at(s, reflect101(x, w), reflect101(y, h), 0))];
      if (g.clip > 0) {
        long excess = 0;
        for (long& c : hist)
          if (c > g.clip) {
            excess += c - g.clip;
            c = g.clip;
          }
        long rest = excess % kB;
        for (long& c : hist) c += excess / kB;
        const long step = std::max(kB / std::max(rest, 1L), 1L);
        for (long i = 0; i < kB && rest > 0; i += step, --rest) ++hist[i];
      }
      std::vector<double>& l = lut[static_cast<std::size_t>(ty) * gx + tx];
      long cdf = 0;
      for (int v = 0; v < kB; ++v) {
        cdf += hist[v];
        l.push_back(sat(static_cast<float>(cdf) * g.lut_scale));
      }
    }
  std::vector<double> out;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float fx = static_cast<float>(x) * g.inv_tw - 0.5f;
      const float fy = static_cast<float>(y) * g.inv_th - 0.5f;
      const int ix = static_cast<int>(std::floor(fx)), iy = static_cast<int>(std::floor(fy));
      const float ax = fx - static_cast<float>(ix), ay = fy - static_cast<float>(iy);
      const int x1 = std::max(ix, 0), x2 = std::min(ix + 1, gx - 1);
      const int y1 = std::max(iy, 0), y2 = std::min(iy + 1, gy - 1);
      const auto v = static_cast<std::size_t>(test::at(s, x, y, 0));
      auto t = [&](int ty, int tx) {
        return static_cast<float>(lut[static_cast<std::size_t>(ty) * gx + tx][v]);
      };
      const float r = (t(y1, x1) * (1.0f - ax) + t(y1, x2) * ax) * (1.0f - ay) +
                      (t(y2, x1) * (1.0f - ax) + t(y2, x2) * ax) * ay;
      out.push_back(sat(std::max(r, 0.0f)));
    }
  return out;
}

TEST(LevelsCpu, ClaheIsTheFloatBlendOfTheTileTables) {
  struct Case {
    int w, h;
    double clip;
    int gx, gy;
  };
  // Grids that divide the image and grids that extend it, no clipping and clipping, one tile;
  // all large enough for the parallel path.
  const Case cases[] = {{301, 207, 2.0, 8, 8},
                        {301, 207, 0.0, 3, 5},
                        {301, 207, 40.0, 7, 5},
                        {256, 160, 2.0, 8, 8},
                        {640, 96, 3.0, 1, 1}};
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (const Case& k : cases) {
      SCOPED_TRACE(std::string(to_string(t)) + " " + std::to_string(k.w) + "x" +
                   std::to_string(k.h) + " clip " + std::to_string(k.clip) + " grid " +
                   std::to_string(k.gx) + "x" + std::to_string(k.gy));
      const Image s = test::random_image(k.w, k.h, 1, t, 31);
      Image d(k.w, k.h, 1, t);
      ClaheParams p;
      p.clip_limit = k.clip;
      p.tiles_x = k.gx;
      p.tiles_y = k.gy;
      clahe(s, d, p);
      const std::vector<double> want =
          t == ElemType::u8 ? reference_clahe<std::uint8_t>(s.view(), k.clip, k.gx, k.gy)
                            : reference_clahe<std::uint16_t>(s.view(), k.clip, k.gx, k.gy);
      const std::vector<double> got = elements(d.view());
      long wrong = 0;
      std::size_t first = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i] && wrong++ == 0) first = i;
      EXPECT_EQ(wrong, 0) << "first at x " << first % k.w << ", y " << first / k.w << ": "
                          << got[first] << ", expected " << want[first];
    }
}

}  // namespace
}  // namespace texcv::color_cpu_test
