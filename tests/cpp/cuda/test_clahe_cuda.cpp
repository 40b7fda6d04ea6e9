// clahe on the CUDA backend: identical to the CPU backend (cuda/hist_test_util.hpp) over tile
// grids that divide the image or extend it, clip limits, u8 and u16, one-pixel tiles.
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

TEST(HistCuda, ClaheIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Grid {
    int tx, ty;
  };
  // 8x8 and 4x4 divide 64x40 but not 67x41 or 1023x517 (then the image is extended); 7x5 and
  // 3x11 divide none; 1x1 is one table.
  const Grid grids[] = {{8, 8}, {4, 4}, {7, 5}, {3, 11}, {1, 1}};
  const double clips[] = {0.0, 1.0, 2.5, 40.0};
  const Size sizes[] = {{67, 41}, {64, 40}, {1023, 517}};
  std::uint32_t seed = 5000;
  for (const Size& sz : sizes)
    for (ElemType t : {ElemType::u8, ElemType::u16}) {
      const Image images[] = {
          random_of(sz, t, 1, ++seed),
          t == ElemType::u8 ? structured(sz, t, 20, 120, ++seed)
                            : structured(sz, t, 1000, 3000, ++seed),
      };
      for (const Image& src : images)
        for (const Grid& g : grids)
          for (double clip : clips) {
            ClaheParams p;
            p.clip_limit = clip;
            p.tiles_x = g.tx;
            p.tiles_y = g.ty;
            expect_same(std::string("clahe ") + to_string(t) + " " + size_str(sz) + " grid " +
                            std::to_string(g.tx) + "x" + std::to_string(g.ty) + " clip " +
                            std::to_string(clip) + (&src == &images[0] ? " random" : " ramp"),
                        src, [&](const ImageView& s, const ImageView& d) { clahe(s, d, p); });
          }
    }
  // A grid as large as the image (one-pixel tiles; u8 only, 256 bins a tile).
  const Size small{67, 41};
  for (double clip : {0.0, 40.0}) {
    ClaheParams p;
    p.clip_limit = clip;
    p.tiles_x = small.w;
    p.tiles_y = small.h;
    expect_same("clahe u8 one-pixel tiles clip " + std::to_string(clip),
                structured(small, ElemType::u8, 0, 256, ++seed),
                [&](const ImageView& s, const ImageView& d) { clahe(s, d, p); });
  }
}

}  // namespace
}  // namespace texcv::hist_cuda_test
