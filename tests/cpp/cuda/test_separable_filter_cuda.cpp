// separable_filter on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp), with centred and off-centre anchors, a 1-tap axis and 31-tap
// kernels, into the source's type and f32.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, SeparableFilterIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Case {
    int nx, ny, ax, ay;
    double delta;
  };
  // Centred, off-centre anchors, a 1-tap axis, and long kernels (31 taps).
  const Case cases[] = {{3, 3, -1, -1, 0.0},   {5, 1, 0, 0, 0.5},    {31, 5, 3, 4, -2.25},
                        {1, 31, 0, 30, 1.0},   {5, 5, -1, -1, 0.25}, {9, 9, -1, -1, 0.0},
                        {13, 13, -1, -1, 0.0}, {17, 17, -1, -1, 1.5}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (const Case& k : cases) {
      const std::vector<float> kx = random_taps(k.nx, seed * 7 + 1),
                               ky = random_taps(k.ny, seed * 7 + 2);
      SeparableParams p;
      p.anchor_x = k.ax;
      p.anchor_y = k.ay;
      p.delta = k.delta;
      p.border = border_of(b);
      for (ElemType dt : {t, ElemType::f32}) {
        expect_same("separable_filter " + std::to_string(k.nx) + "x" + std::to_string(k.ny) + " " +
                        name_of(t, c, b, dt),
                    src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      SeparableParams q = p;
                      q.border.path = path;
                      separable_filter(s, d, kx, ky, q);
                    });
        if (t == ElemType::f32) break;  // f32 -> f32 once
      }
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
