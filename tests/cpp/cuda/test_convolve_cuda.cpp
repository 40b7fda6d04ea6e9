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
