// convert on the CUDA backend: identical to the CPU backend (cuda/color_test_util.hpp) for every
// pair of element types, scales that saturate both ways; widening conversions on rows of many
// lengths and starts.
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

// Widening conversions (u8 -> u16, u8 -> f32, u16 -> f32) map a warp's elements in interleaved
// chunks (point.cuh): rows of 1 to 2,053 elements (partial chunks, partial warps, several warps),
// at start columns 0-3 of source and destination (misaligned vectors), against the CPU; nothing
// written outside the destination.
TEST(ColorCuda, WideningConvertOnEveryRowLengthAndStart) {
  TEXCV_REQUIRE_GPU();
  struct Pair {
    ElemType from, to;
  };
  const Pair pairs[] = {
      {ElemType::u8, ElemType::u16}, {ElemType::u8, ElemType::f32}, {ElemType::u16, ElemType::f32}};
  constexpr int kRows = 3;
  for (const Pair& pr : pairs)
    for (int w : {1, 5, 129, 509, 512, 1031, 2053})
      for (int x0 : {0, 1, 2, 3}) {
        SCOPED_TRACE(std::string(to_string(pr.from)) + " -> " + to_string(pr.to) + " width " +
                     std::to_string(w) + " start " + std::to_string(x0));
        const Image host = test::random_image(w, kRows, 1, pr.from, 31u * w + x0);
        Image want(w, kRows, 1, pr.to);
        texcv::convert(host, want, 1.5, 0.25);
        Image dsrc(w + 4, kRows, 1, pr.from, Location::device);
        const ImageView src = dsrc.view().roi({x0, 0, w, kRows});
        texcv::copy(host, src);
        Image dout(w + 8, kRows, 1, pr.to, Location::device);
        test::poison(dout);
        const ImageView inner = dout.view().roi({3 - x0 + 1, 0, w, kRows});
        texcv::convert(src, inner, 1.5, 0.25);
        const Image all = test::to_host(dout);
        const test::Diff d = test::compare(all.view().roi({3 - x0 + 1, 0, w, kRows}), want);
        EXPECT_EQ(d.count, 0) << d.describe();
        EXPECT_EQ(test::written_outside(all.view(), {3 - x0 + 1, 0, w, kRows}), 0)
            << "elements written outside the destination";
      }
}

}  // namespace
}  // namespace texcv::color_cuda_test
