// equalize_hist on the CPU backend: hand-computed values, and its table on skewed levels against
// the float64 definition (with Otsu's level from the same counts and gamma's table of every
// level beside it).
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

TEST(ColorCpu, EqualizeHistHandValues) {
  Image d(4, 1, 1, ElemType::u8);
  // cdf after the first level: 20 -> 1, 30 -> 2 of 2: 127.5 -> 128 (half to even), 255.
  equalize_hist(make(4, 1, 1, ElemType::u8, {10, 10, 20, 30}), d);
  EXPECT_EQ(values(d), (V{0, 0, 128, 255}));
  equalize_hist(make(4, 1, 1, ElemType::u8, {9, 9, 9, 9}), d);  // constant stays
  EXPECT_EQ(values(d), (V{9, 9, 9, 9}));
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

}  // namespace
}  // namespace texcv::color_cpu_test
