// unsharp_mask on the CPU backend: its definition, element by element, for every element type.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(CpuFilters, UnsharpMaskIsItsDefinition) {
  // out = src + amount * (src - blur) where |src - blur| >= threshold, else src; blur is
  // gaussian_blur in src's type (checked against OpenCV in test_gaussian_blur_opencv.cpp).
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    Image src = test::random_image(41, 23, 3, t, 7);
    UnsharpParams p;
    p.sigma = 1.5;
    p.amount = 0.8;
    const double fs = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1;
    p.threshold = 0.1 * fs + (t == ElemType::f32 ? 0 : 0.5);  // never equal to an integer diff
    Image ours(41, 23, 3, t), blur(41, 23, 3, t);
    unsharp_mask(src, ours, p);
    GaussianParams g;
    g.sigma_x = p.sigma;
    gaussian_blur(src, blur, g);
    double worst = 0;
    long sharpened = 0, kept = 0;
    for (int y = 0; y < 23; ++y)
      for (int x = 0; x < 41; ++x)
        for (int c = 0; c < 3; ++c) {
          const double s = test::at(src, x, y, c), d = s - test::at(blur, x, y, c);
          double e = std::fabs(d) >= p.threshold ? s + p.amount * d : s;
          (std::fabs(d) >= p.threshold ? sharpened : kept)++;
          if (t != ElemType::f32) e = std::min(std::max(std::nearbyint(e), 0.0), fs);
          worst = std::max(worst, std::fabs(test::at(ours, x, y, c) - e));
        }
    // Integers: float vs double can round a value at .5 the other way: 1 level. f32: float
    // rounding of s + amount * d with values in [0, 1.8]: 1e-6.
    EXPECT_LE(worst, t == ElemType::f32 ? 1e-6 : 1.0) << to_string(t);
    EXPECT_GT(sharpened, 100) << to_string(t);  // both branches are exercised
    EXPECT_GT(kept, 100) << to_string(t);
  }
}

// Rows wide enough that the blur is filtered in column strips, each strip of a blurred row
// combined as it is made (filter_separable's row sink): every element equals the combination,
// in the library's float arithmetic, of the source and gaussian_blur's output, bit for bit.
TEST(CpuFilters, UnsharpMaskInColumnStripsIsItsDefinitionBitForBit) {
  struct Case {
    int w, h, c;
    ElemType t;
  };
  for (const Case k : {Case{1600, 30, 3, ElemType::u8}, Case{4000, 20, 1, ElemType::f32}}) {
    const Image src = test::random_image(k.w, k.h, k.c, k.t, 5 + k.w);
    UnsharpParams p;
    p.sigma = 2.0;  // 13 taps: the blur's rows of x sums exceed the strips' threshold
    p.amount = 0.7;
    p.threshold = k.t == ElemType::u8 ? 6.5 : 0.02;
    p.border.border = Border::reflect;
    Image ours(k.w, k.h, k.c, k.t), blur(k.w, k.h, k.c, k.t);
    unsharp_mask(src, ours, p);
    GaussianParams g;
    g.sigma_x = p.sigma;
    g.border.border = Border::reflect;
    gaussian_blur(src, blur, g);
    const float amount = static_cast<float>(p.amount), thr = static_cast<float>(p.threshold);
    long off = 0, sharpened = 0;
    for (int y = 0; y < k.h; ++y)
      for (int x = 0; x < k.w; ++x)
        for (int c = 0; c < k.c; ++c) {
          const float v = static_cast<float>(test::at(src, x, y, c));
          const float diff = v - static_cast<float>(test::at(blur, x, y, c));
          double e = v;
          if (std::fabs(diff) >= thr) {
            volatile float m = amount * diff;  // no fused multiply-add
            const float r = v + m;
            e = k.t == ElemType::f32 ? r : std::nearbyint(std::clamp(r, 0.0f, 255.0f));
            ++sharpened;
          }
          off += test::at(ours, x, y, c) != e;
        }
    EXPECT_EQ(off, 0) << to_string(k.t);
    EXPECT_GT(sharpened, 1000) << to_string(k.t);
  }
}

}  // namespace
}  // namespace texcv::filter_cpu_test
