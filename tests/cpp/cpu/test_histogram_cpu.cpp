// histogram on the CPU backend: hand-computed counts, and every u8 / u16 level (and f32 values
// on and beside bin edges, NaN) against the float64 bins of its definition (docs/ops/color.md),
// where the backend counts values before it bins them.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, HistogramHandValues) {
  const Image s = make(2, 2, 1, ElemType::u8, {0, 1, 255, 128});
  EXPECT_EQ(histogram(s, 2, {0, 256}), (std::vector<std::vector<std::uint64_t>>{{2, 2}}));
  EXPECT_EQ(histogram(s, 2, {0, 128}), (std::vector<std::vector<std::uint64_t>>{{2, 0}}));
  const Image c = make(2, 1, 3, ElemType::f32, {0.1, 0.6, 2, 0.9, -1, 0.5});
  EXPECT_EQ(histogram(c, 2, {0, 1}),
            (std::vector<std::vector<std::uint64_t>>{{1, 1}, {0, 1}, {0, 1}}));
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

}  // namespace
}  // namespace texcv::color_cpu_test
