// threshold on the CPU backend: hand-computed values of every type (Otsu included), and every
// u8 / u16 level against the float64 comparison of its definition (docs/ops/color.md), where
// the backend compares in the element type. Images of at least 32768 pixels run the parallel
// paths (bands of rows), widths that are no multiple of 8 the tails of the row loops.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

TEST(ColorCpu, ThresholdHandValues) {
  const Image s = make(4, 1, 1, ElemType::u8, {99, 100, 101, 250});
  Image d(4, 1, 1, ElemType::u8);
  // u8: thresh floor(100.9) = 100, maxval round(200.5) = 200 (half to even).
  EXPECT_EQ(threshold(s, d, 100.9, 200.5, ThresholdType::binary), 100.0);
  EXPECT_EQ(values(d), (V{0, 0, 200, 200}));
  threshold(s, d, 100.9, 200, ThresholdType::binary_inv);
  EXPECT_EQ(values(d), (V{200, 200, 0, 0}));
  threshold(s, d, 100.9, 0, ThresholdType::trunc);
  EXPECT_EQ(values(d), (V{99, 100, 100, 100}));
  threshold(s, d, 100, 0, ThresholdType::tozero);
  EXPECT_EQ(values(d), (V{0, 0, 101, 250}));
  threshold(s, d, 100, 0, ThresholdType::tozero_inv);
  EXPECT_EQ(values(d), (V{99, 100, 0, 0}));
  threshold(s, d, -5, 300, ThresholdType::binary);  // maxval saturates
  EXPECT_EQ(values(d), (V{255, 255, 255, 255}));
  // Otsu on two levels: every t in [50, 199] separates them equally; the first maximum is 50.
  const Image b = make(4, 1, 1, ElemType::u8, {50, 200, 50, 200});
  EXPECT_EQ(threshold(b, d, 0, 255, ThresholdType::otsu), 50.0);
  EXPECT_EQ(values(d), (V{0, 255, 0, 255}));
  // f32 compares in float and returns thresh as given.
  Image f(2, 1, 1, ElemType::f32);
  EXPECT_EQ(threshold(make(2, 1, 1, ElemType::f32, {0.25, 0.75}), f, 0.5, 2, ThresholdType::trunc),
            0.5);
  EXPECT_EQ(values(f), (V{0.25, 0.5}));
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

}  // namespace
}  // namespace texcv::color_cpu_test
