// sobel on the CUDA backend against the CPU backend: identical results (cuda/filter_test_util.hpp),
// with scharr and laplacian beside it, into the source's type and f32.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

TEST(FiltersCuda, DerivativesIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct SobelCase {
    int dx, dy, ksize;
    double scale, delta;
  };
  const SobelCase sobels[] = {
      {1, 0, 3, 1.0, 0.0}, {0, 1, 5, 0.25, 128.0}, {2, 1, 7, 1.0, 0.0}, {1, 0, 1, 1.0, 0.0}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (ElemType dt : {t, ElemType::f32}) {
      for (const SobelCase& k : sobels) {
        SobelParams p;
        p.dx = k.dx;
        p.dy = k.dy;
        p.ksize = k.ksize;
        p.scale = k.scale;
        p.delta = k.delta;
        p.border = border_of(b);
        expect_same("sobel dx " + std::to_string(k.dx) + " dy " + std::to_string(k.dy) + " ksize " +
                        std::to_string(k.ksize) + " " + name_of(t, c, b, dt),
                    src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      SobelParams q = p;
                      q.border.path = path;
                      sobel(s, d, q);
                    });
      }
      for (int dx : {0, 1}) {
        ScharrParams p;
        p.dx = dx;
        p.dy = 1 - dx;
        p.scale = 0.5;
        p.delta = 3.0;
        p.border = border_of(b);
        expect_same("scharr dx " + std::to_string(dx) + " " + name_of(t, c, b, dt), src, dt,
                    [&](const ImageView& s, const ImageView& d, Path path) {
                      ScharrParams q = p;
                      q.border.path = path;
                      scharr(s, d, q);
                    });
      }
      for (int ksize : {1, 3, 5}) {
        LaplacianParams p;
        p.ksize = ksize;
        p.scale = ksize == 5 ? 0.125 : 1.0;
        p.delta = 10.0;
        p.border = border_of(b);
        expect_same("laplacian ksize " + std::to_string(ksize) + " " + name_of(t, c, b, dt), src,
                    dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      LaplacianParams q = p;
                      q.border.path = path;
                      laplacian(s, d, q);
                    });
      }
      if (t == ElemType::f32) break;  // f32 -> f32 once
    }
  });
}

}  // namespace
}  // namespace texcv::filter_cuda_test
