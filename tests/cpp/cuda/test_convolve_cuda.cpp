// convolve on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp), one test per source type.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

// One test per source type: under racecheck the three together ran past 300 s (eighth session).
void convolve_identical_to_cpu(ElemType only) {
  struct Case {
    int w, h, ax, ay;
    double scale, delta;
  };
  const Case cases[] = {{3, 3, -1, -1, 1.0, 0.0},
                        {5, 5, 1, 3, 0.5, 1.25},
                        {31, 31, -1, -1, 1.0, -3.5},
                        {5, 5, -1, -1, 0.75, 2.0},
                        {3, 3, 0, 2, 1.0, 0.0}};
  for_all(
      [&](ElemType t, int c, Border b, std::uint32_t seed) {
        const Image whole = source(t, c, seed);
        Image corner(40, 36, c, t);
        texcv::copy(whole.view().roi({0, 0, 40, 36}), corner);
        for (const Case& k : cases) {
          const Image& src = sanitizer_subset() && k.w > 5 ? corner : whole;
          const Kernel kern{k.w, k.h, random_taps(k.w * k.h, seed * 5 + 3)};
          ConvolveParams p;
          p.anchor_x = k.ax;
          p.anchor_y = k.ay;
          p.scale = k.scale;
          p.delta = k.delta;
          p.border = border_of(b);
          for (ElemType dt : {t, ElemType::f32}) {
            expect_same("convolve " + std::to_string(k.w) + "x" + std::to_string(k.h) + " " +
                            name_of(t, c, b, dt),
                        src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                          ConvolveParams q = p;
                          q.border.path = path;
                          convolve(s, d, kern, q);
                        });
            if (t == ElemType::f32) break;  // f32 -> f32 once
          }
        }
      },
      only);
}

// u8 one channel with taps m * 2^-e (m in int8): the dp4a kernel (integer sums, exact) where the
// source's rows start at 16-byte steps, the float kernels elsewhere; both must give the CPU's
// bytes. Sources wide enough for interior blocks (1100 x 70) and narrower than one (75 x 141,
// 20 x 3, 1 x 1); the source at column 16 (aligned) and 3 (not) of a larger device image, the
// destination whole and at (1, 1) (unaligned stores); a constant border of 11 (an integer byte:
// dp4a) and of 11.5 (float kernels); the taps' extremes -128 / 2^7 and 127 / 2^7.
TEST(FiltersCuda, ConvolveU8DyadicTapsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Taps {
    const char* name;
    int k;
    std::vector<float> v;
    double scale, delta;
  };
  std::vector<float> binomial5(25), extremes(9);
  const float b5[5] = {1, 4, 6, 4, 1};
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) binomial5[j * 5 + i] = b5[j] * b5[i] / 256.0f;
  for (int i = 0; i < 9; ++i) extremes[i] = (i % 2 ? -128.0f : 127.0f) / 128.0f;
  const Taps taps[] = {
      {"sharpen", 3, {-1, -1, -1, -1, 16, -1, -1, -1, -1}, 0.125, 0.0},
      {"binomial 3x3",
       3,
       {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f},
       1.0,
       0.0},
      {"box sum / 9", 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 1.0 / 9.0, 0.5},
      {"laplacian", 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}, 1.0, 128.0},
      {"extremes", 3, extremes, 0.25, 3.0},
      {"binomial 5x5", 5, binomial5, 1.0, 0.0},
      // Ties at every sum (halves), negative sums with an integer delta (sobel - 7), a delta
      // with taps of e > 0.
      {"halves", 3, {0.5f, -0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f}, 1.0, 0.0},
      {"sobel dx - 7", 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1.0, -7.0},
      {"binomial 3x3 + 2",
       3,
       {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f},
       1.0,
       2.0},
  };
  const int sizes[][2] = {{1100, 70}, {75, 141}, {20, 3}, {1, 1}};
  std::uint32_t seed = 77;
  for (const auto& wh : sizes) {
    const int w = wh[0], h = wh[1];
    const Image host = test::random_image(w, h, 1, ElemType::u8, ++seed);
    Image dsrc(w + 32, h + 2, 1, ElemType::u8, Location::device);
    ASSERT_EQ(dsrc.view().pitch % 16, 0u);
    for (int sx : {16, 3}) {
      const ImageView sv = dsrc.view().roi({sx, 1, w, h});
      texcv::copy(host, sv);
      for (const Taps& t : taps)
        for (Border b : kBorders)
          for (double cval : {11.0, 11.5}) {
            if (cval != 11.0 && b != Border::constant) continue;
            ConvolveParams p;
            p.scale = t.scale;
            p.delta = t.delta;
            p.border.border = b;
            p.border.value = {cval, cval, cval, cval};
            const Kernel kern{t.k, t.k, t.v};
            for (ElemType dt : {ElemType::u8, ElemType::f32})
              for (int f : {0, 1}) {
                Image want(w, h, 1, dt);
                convolve(host, want, kern, p);
                Image dout(w + 2 * f + 1, h + 2 * f, 1, dt, Location::device);
                test::poison(dout);
                convolve(sv, dout.view().roi({f, f, w, h}), kern, p);
                const Image all = test::to_host(dout);
                const test::Diff d = test::compare(all.view().roi({f, f, w, h}), want);
                EXPECT_EQ(d.count, 0) << t.name << " " << w << "x" << h << " source column " << sx
                                      << " " << to_string(b) << " " << cval << " -> "
                                      << to_string(dt) << " frame " << f << ": " << d.describe();
                EXPECT_EQ(test::written_outside(all.view(), {f, f, w, h}), 0);
              }
          }
    }
  }
}

TEST(FiltersCuda, ConvolveU8IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::u8);
}

TEST(FiltersCuda, ConvolveU16IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::u16);
}

TEST(FiltersCuda, ConvolveF32IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::f32);
}

}  // namespace
}  // namespace texcv::filter_cuda_test
