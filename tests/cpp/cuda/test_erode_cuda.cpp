// erode and dilate on the CUDA backend: identical to the CPU backend
// (cuda/morphology_test_util.hpp) over shapes, sizes, anchors, borders and iterations, one test per
// element type.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "common/test_support.hpp"
#include "cuda/morphology_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::morphology_cuda_test {
namespace {

// erode and dilate over shapes x sizes x anchors x borders x iterations for one element type.
void erode_dilate_matrix(ElemType t) {
  std::uint32_t seed = 2000 + static_cast<std::uint32_t>(t) * 100;
  for (int c : kChannels) {
    Rig rig(source(t, c, ++seed));
    for (int bi = 0; bi < kBorderCases; ++bi)
      for (MorphShape shape : kShapes)
        for (const Size& s : kSizes)
          for (const auto& [ax, ay] : anchors(s.kw, s.kh))
            for (int it : {1, 2, 3}) {
              MorphParams p;
              p.shape = shape;
              p.ksize_x = s.kw;
              p.ksize_y = s.kh;
              p.anchor_x = ax;
              p.anchor_y = ay;
              p.iterations = it;
              p.border = border_case(bi);
              const std::string name = std::string(to_string(t)) + " x" + std::to_string(c) + " " +
                                       border_name(bi) + " " + case_name(p);
              rig.expect_same("erode " + name, [&](const ImageView& a, const ImageView& b,
                                                   void* st) { erode(a, b, p, st); });
              rig.expect_same("dilate " + name, [&](const ImageView& a, const ImageView& b,
                                                    void* st) { dilate(a, b, p, st); });
            }
  }
}

TEST(MorphCuda, ErodeDilateU8IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u8);
}

TEST(MorphCuda, ErodeDilateU16IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u16);
}

TEST(MorphCuda, ErodeDilateF32IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::f32);
}

}  // namespace
}  // namespace texcv::morphology_cuda_test
