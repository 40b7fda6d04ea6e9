// convert on the CUDA backend: identical to the CPU backend (cuda/color_test_util.hpp) for every
// pair of element types, scales that saturate both ways.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "cuda/color_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::color_cuda_test {
namespace {

TEST(ColorCuda, ConvertIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Sa {
    double scale, offset;
  };
  // Identity, a scale that saturates u8 and u16 both ways, and an f32-range mapping.
  const Sa params[] = {{1.0, 0.0}, {1.7, -40.25}, {300.0, -20.5}, {1.0 / 255.0, 0.125}};
  std::uint32_t seed = 100;
  for (ElemType st : kTypes)
    for (int c : kChannels) {
      const Image src =
          st == ElemType::f32 ? random_f32(c, ++seed, -0.5f, 1.5f) : random_of(st, c, ++seed);
      for (ElemType dt : kTypes)
        for (const Sa& p : params)
          expect_same(std::string("convert ") + to_string(st) + " -> " + to_string(dt) + " x" +
                          std::to_string(c) + " scale " + std::to_string(p.scale) + " offset " +
                          std::to_string(p.offset),
                      src, c, dt, [&](const ImageView& s, const ImageView& d) {
                        texcv::convert(s, d, p.scale, p.offset);
                      });
    }
}

}  // namespace
}  // namespace texcv::color_cuda_test
