// gamma on the CUDA backend against the CPU backend (cuda/color_test_util.hpp): identical on
// u8/u16; on f32 within 1 ulp (double pow rounded to float against the exact value rounded).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "cuda/color_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::color_cuda_test {
namespace {

TEST(ColorCuda, GammaIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 200;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      // f32 includes negative values (sign(in) * |in|^gamma) and values above 1.
      const Image src =
          t == ElemType::f32 ? random_f32(c, ++seed, -1.5f, 2.0f) : random_of(t, c, ++seed);
      for (double g : {0.45, 1.0, 2.2, 3.7})
        expect_same(
            std::string("gamma ") + to_string(t) + " x" + std::to_string(c) + " g " +
                std::to_string(g),
            src, c, t, [&](const ImageView& s, const ImageView& d) { texcv::gamma(s, d, g); },
            t == ElemType::f32 ? 1 : 0);
    }
}

}  // namespace
}  // namespace texcv::color_cuda_test
