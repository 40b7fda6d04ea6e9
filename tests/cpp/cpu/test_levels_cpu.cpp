// threshold, histogram, equalize_hist, Otsu's level and gamma of integer images on every level
// against float64 evaluations of their definitions (docs/ops/color.md), written here element by
// element: the CPU backend takes shortcuts on integer levels (a comparison in the element type,
// values counted before they are binned, tables applied eight elements at a time) that must give
// exactly these results. Images of at least 32768 pixels run the parallel paths (bands of rows,
// src/cpu/dispatch.hpp), widths that are no multiple of 8 the tails of the row loops.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/color_stats.hpp"
#include "texcv/color.hpp"

namespace texcv {
namespace {

using Hist = std::vector<std::vector<std::uint64_t>>;

double type_max(ElemType t) {
  return t == ElemType::u8 ? 255.0 : 65535.0;
}

void set(const ImageView& v, int x, int y, int c, double value) {
  const int i = x * v.channels + c;
  if (v.type == ElemType::u8) v.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(value);
  if (v.type == ElemType::u16) v.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(value);
  if (v.type == ElemType::f32) v.row<float>(y)[i] = static_cast<float>(value);
}

// The elements of a u8 or u16 view, row by row.
std::vector<double> elements(const ImageView& v) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(v.width) * v.height * v.channels);
  for (int y = 0; y < v.height; ++y)
    for (int i = 0; i < v.width * v.channels; ++i)
      out.push_back(v.type == ElemType::u8 ? v.row<const std::uint8_t>(y)[i]
                                           : v.row<const std::uint16_t>(y)[i]);
  return out;
}

// Every level in every channel, channel c shifted by 97 c levels: u8 263 x 131 (each level at
// many positions of a row), u16 256 x 256 (each level once per channel).
Image every_level(ElemType t, int channels) {
  const bool u8 = t == ElemType::u8;
  const int w = u8 ? 263 : 256, h = u8 ? 131 : 256;
  const long levels = u8 ? 256 : 65536;
  Image img(w, h, channels, t);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c)
        set(img.view(), x, y, c, static_cast<double>((x + 7L * y + 97L * c) % levels));
  return img;
}

// The bin of level v as docs/ops/color.md defines it (cv::calcHist's uniform bins): floor(v a + b)
// with a = bins / (hi - lo), b = -lo a in double, counted when in [0, bins).
long bin_of(double v, int bins, double lo, double hi) {
  const double a = bins / (hi - lo), b = -lo * a;
  const double f = std::floor(v * a + b);
  return f >= 0.0 && f < bins ? static_cast<long>(f) : -1;
}

Hist reference_histogram(const ImageView& v, int bins, double lo, double hi) {
  Hist h(v.channels, std::vector<std::uint64_t>(bins, 0));
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      for (int c = 0; c < v.channels; ++c) {
        const long b = bin_of(test::at(v, x, y, c), bins, lo, hi);
        if (b >= 0) ++h[c][b];
      }
  return h;
}

TEST(LevelsCpu, HistogramOfEveryLevelIsTheFloat64Bins) {
  struct Range {
    int bins;
    double lo, hi;
  };
  // The identity ([0, 256), 256 bins), other bin counts, ranges cutting levels off at either end
  // or putting a bin edge on a level, half-level offsets, a range below every level.
  const std::vector<Range> u8_ranges = {
      {256, 0, 256},     {2, 0, 256},       {256, 0, 255},  {100, 0, 255},   {255, 0, 256},
      {256, 0.5, 256.5}, {7, -3.25, 300.5}, {1000, 10, 20}, {3, 255, 256},   {256, -256, 0},
      {1, 0, 1},         {17, 3, 250},      {512, 0, 256},  {256, 1e-9, 256}};
  const std::vector<Range> u16_ranges = {
      {65536, 0, 65536}, {256, 0, 65536}, {1000, 100, 60000.5}, {3, 65534, 65536}, {256, 0, 256}};
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (int ch : {1, 3, 4}) {
      const Image img = every_level(t, ch);
      for (const Range& r : t == ElemType::u8 ? u8_ranges : u16_ranges) {
        SCOPED_TRACE(std::string(to_string(t)) + " channels " + std::to_string(ch) + " bins " +
                     std::to_string(r.bins) + " [" + std::to_string(r.lo) + ", " +
                     std::to_string(r.hi) + ")");
        const Hist expected = reference_histogram(img.view(), r.bins, r.lo, r.hi);
        EXPECT_EQ(histogram(img, r.bins, {r.lo, r.hi}), expected);
        // A small region (one band) and a padded view.
        const ImageView part = img.view().roi({5, 3, 41, 9});
        EXPECT_EQ(histogram(part, r.bins, {r.lo, r.hi}),
                  reference_histogram(part, r.bins, r.lo, r.hi));
      }
    }
  // f32: levels on and beside bin edges, outside the range, NaN.
  Image f(300, 200, 3, ElemType::f32);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 300; ++x)
      for (int c = 0; c < 3; ++c) {
        const int k = (x + 11 * y + 5 * c) % 140;
        const double v = k < 128   ? (k - 10) / 100.0
                         : k < 139 ? std::nextafter(k / 128.0f, 0.0f)
                                   : NAN;
        set(f.view(), x, y, c, v);
      }
  for (const Range& r : std::vector<Range>{{100, 0, 1}, {7, -0.05, 1.01}, {1, 0, 0.5}}) {
    EXPECT_EQ(histogram(f, r.bins, {r.lo, r.hi}), reference_histogram(f.view(), r.bins, r.lo, r.hi))
        << "f32 bins " << r.bins;
  }
}

// threshold's definition for integer images: t = floor(thresh); above: v > t; the stored
// maximum nearbyint(maxval) (trunc: t) saturated to the type.
double reference_threshold(ThresholdType type, double v, double thresh, double maxval, double mx) {
  const double t = std::floor(thresh);
  const bool above = v > t;
  const double m =
      std::min(std::max(type == ThresholdType::trunc ? t : std::nearbyint(maxval), 0.0), mx);
  switch (type) {
    case ThresholdType::binary:
      return above ? m : 0;
    case ThresholdType::binary_inv:
      return above ? 0 : m;
    case ThresholdType::trunc:
      return above ? m : v;
    case ThresholdType::tozero:
      return above ? v : 0;
    default:
      return above ? 0 : v;  // tozero_inv
  }
}

TEST(LevelsCpu, ThresholdOfEveryLevelIsTheFloat64Comparison) {
  // Below every level, on and between levels at both ends and in the middle, at and above the
  // type's maximum, far outside.
  const std::vector<double> threshs = {-1e300, -256, -1,    -0.5,    0,     0.25,  1,
                                       99.99,  100,  127.5, 254,     254.9, 255,   255.5,
                                       256,    1000, 65534, 65534.5, 65535, 65536, 1e300};
  const std::vector<double> maxvals = {0, 200.5, 300, 70000};
  const ThresholdType types[] = {ThresholdType::binary, ThresholdType::binary_inv,
                                 ThresholdType::trunc, ThresholdType::tozero,
                                 ThresholdType::tozero_inv};
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (int ch : {1, 3}) {
      if (t == ElemType::u16 && ch == 3) continue;  // one channel has every u16 level already
      const Image img = every_level(t, ch);
      const std::vector<double> src = elements(img.view());
      Image d(img.width(), img.height(), ch, t);
      for (ThresholdType type : types)
        for (double th : threshs)
          for (double mv : maxvals) {
            SCOPED_TRACE(std::string(to_string(t)) + " channels " + std::to_string(ch) + " " +
                         to_string(type) + " thresh " + std::to_string(th) + " maxval " +
                         std::to_string(mv));
            test::poison(d.view());
            EXPECT_EQ(threshold(img, d, th, mv, type), std::floor(th));
            const std::vector<double> got = elements(d.view());
            long wrong = 0;
            std::size_t first = 0;
            for (std::size_t i = 0; i < src.size(); ++i)
              if (got[i] != reference_threshold(type, src[i], th, mv, type_max(t)) && wrong++ == 0)
                first = i;
            EXPECT_EQ(wrong, 0) << "first: level " << src[first] << " gave " << got[first]
                                << ", expected "
                                << reference_threshold(type, src[first], th, mv, type_max(t));
          }
    }
}

TEST(LevelsCpu, EqualizeOtsuAndGammaOfEveryLevelAreTheFloat64Tables) {
  // Skewed levels (some absent, the lowest occupied one above 0) so the table is no identity.
  const int w = 301, h = 127;
  Image s(w, h, 1, ElemType::u8);
  std::vector<std::uint64_t> counts(256, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int k = (x * 13 + y * 7) % 1000;
      const int v = 3 + (k * k) / 4000;  // 3 .. 252, denser at the low end
      set(s.view(), x, y, 0, v);
      ++counts[v];
    }
  const double total = static_cast<double>(w) * h;
  // equalize_hist: lut[v] = round(255 (cdf(v) - cdf(first)) / (total - cdf(first))) in float,
  // half to even.
  int first = 0;
  while (counts[first] == 0) ++first;
  const float scale = 255.0f / static_cast<float>(total - counts[first]);
  std::vector<double> eq(256, 0);
  std::uint64_t cdf = 0;
  for (int v = first + 1; v < 256; ++v) {
    cdf += counts[v];
    eq[v] = std::min(std::nearbyint(static_cast<float>(cdf) * scale), 255.0f);
  }
  Image d(w, h, 1, ElemType::u8);
  equalize_hist(s, d);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double v = test::at(s.view(), x, y, 0);
      ASSERT_EQ(test::at(d.view(), x, y, 0), eq[static_cast<int>(v)]) << "equalize at " << x;
    }
  // Otsu: the level from the counts (color_stats.hpp's search over them).
  const int otsu = detail::otsu_from_hist(counts.data(), static_cast<std::uint64_t>(total));
  EXPECT_EQ(threshold(s, d, 0, 255, ThresholdType::otsu), otsu);
  // gamma: 255 (v / 255)^g in double, half to even; every level in 1, 3 and 4 channels.
  for (int ch : {1, 3, 4}) {
    const Image g = every_level(ElemType::u8, ch);
    Image o(g.width(), g.height(), ch, ElemType::u8);
    for (double gm : {2.2, 0.45}) {
      gamma(g, o, gm);
      long wrong = 0;
      for (int y = 0; y < g.height(); ++y)
        for (int x = 0; x < g.width(); ++x)
          for (int c = 0; c < ch; ++c) {
            const double v = test::at(g.view(), x, y, c);
            const double want = std::min(std::nearbyint(255.0 * std::pow(v / 255.0, gm)), 255.0);
            wrong += test::at(o.view(), x, y, c) != want;
          }
      EXPECT_EQ(wrong, 0) << "gamma " << gm << ", channels " << ch;
    }
  }
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
}  // namespace texcv
