// normalize on the CUDA backend against the CPU backend (cuda/hist_test_util.hpp): minmax
// identical; mean_std identical on u8/u16 and, on f32, whose double sums are added in another
// order, within the bound of docs/ops/color.md, |gpu - cpu| <= 2^-21 (|src s| + |o| + |mean|)
// with s = std / std_c and o = mean - mean_c s, checked per element.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::hist_cuda_test {
namespace {

TEST(HistCuda, NormalizeMinmaxIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Ab {
    double alpha, beta;
  };
  // Default [0, 1], reversed bounds, a range that saturates u8/u16, an f32-style range.
  const Ab params[] = {{0.0, 1.0}, {255.0, 10.0}, {-50.0, 300.5}, {-1.0, 40000.0}};
  std::uint32_t seed = 1000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        // The extremes in known places: the largest in the last row, the smallest in the middle.
        const double mx = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1.75;
        set_elem(src, sz.w - 1, sz.h - 1, c - 1, mx);
        set_elem(src, sz.w / 2, sz.h / 2, 0, t == ElemType::f32 ? -0.75 : 0);
        for (const Ab& p : params) {
          NormalizeParams np;
          np.alpha = p.alpha;
          np.beta = p.beta;
          expect_same(std::string("normalize minmax ") + to_string(t) + " x" + std::to_string(c) +
                          " " + size_str(sz) + " alpha " + std::to_string(p.alpha) + " beta " +
                          std::to_string(p.beta),
                      src, [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); });
        }
      }
  // A constant image (range 0: scale 0, every element becomes min(alpha, beta)).
  for (ElemType t : kTypes) {
    Image src(67, 41, 3, t);
    for (int y = 0; y < 41; ++y) set_row(src, y, t == ElemType::f32 ? 0.25 : 77);
    NormalizeParams np;
    np.alpha = 5;
    np.beta = 9;
    expect_same(std::string("normalize minmax constant ") + to_string(t), src,
                [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); });
  }
}

// The f32 bound: per element 2^-21 (|x s| + |o| + |mean|), s and o from the channel's mean and
// std computed here in long double.
Check f32_mean_std_bound(const Image& src, const NormalizeParams& p) {
  const int C = src.channels();
  std::vector<double> s(C), o(C);
  for (int c = 0; c < C; ++c) {
    long double sum = 0, sq = 0;
    const long double n = static_cast<long double>(src.width()) * src.height();
    for (int y = 0; y < src.height(); ++y)
      for (int x = 0; x < src.width(); ++x) sum += test::at(src.view(), x, y, c);
    const long double m = sum / n;
    for (int y = 0; y < src.height(); ++y)
      for (int x = 0; x < src.width(); ++x) {
        const long double d = test::at(src.view(), x, y, c) - m;
        sq += d * d;
      }
    const long double sd = std::sqrt(sq / n);
    s[c] = sd > 0 ? static_cast<double>(p.std / sd) : 0.0;
    o[c] = static_cast<double>(p.mean - m * s[c]);
  }
  return [&src, s, o, p, C](const ImageView& got, const ImageView& want) {
    long bad = 0;
    double worst = 0;
    for (int y = 0; y < got.height; ++y)
      for (int x = 0; x < got.width; ++x)
        for (int c = 0; c < C; ++c) {
          const double g = test::at(got, x, y, c), w = test::at(want, x, y, c);
          const double xv = test::at(src.view(), x, y, c);
          const double bound =
              std::ldexp(std::fabs(xv * s[c]) + std::fabs(o[c]) + std::fabs(p.mean), -21);
          const double diff = std::fabs(g - w);
          if (!(diff <= bound)) ++bad;
          if (diff > worst) worst = diff;
        }
    EXPECT_EQ(bad, 0) << "elements beyond the bound; largest difference " << worst;
  };
}

TEST(HistCuda, NormalizeMeanStdMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  struct Ms {
    double mean, std;
  };
  const Ms params[] = {{0.0, 1.0}, {128.0, 40.0}, {0.5, 0.2}, {30000.0, 9000.0}};
  std::uint32_t seed = 2000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        // Channel 0 of a multi-channel image constant (std 0: it becomes `mean`).
        if (c > 1)
          for (int y = 0; y < sz.h; ++y)
            for (int x = 0; x < sz.w; ++x) set_elem(src, x, y, 0, t == ElemType::f32 ? 0.5 : 99);
        for (const Ms& p : params) {
          NormalizeParams np;
          np.mode = NormalizeMode::mean_std;
          np.mean = p.mean;
          np.std = p.std;
          const std::string what = std::string("normalize mean_std ") + to_string(t) + " x" +
                                   std::to_string(c) + " " + size_str(sz) + " mean " +
                                   std::to_string(p.mean) + " std " + std::to_string(p.std);
          const Op op = [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); };
          if (t == ElemType::f32)
            expect_same(what, src, op, f32_mean_std_bound(src, np));
          else
            expect_same(what, src, op);  // exact integer sums on both backends: identical
        }
      }
}

}  // namespace
}  // namespace texcv::hist_cuda_test
