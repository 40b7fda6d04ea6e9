// gamma on the CUDA backend against the CPU backend (cuda/color_test_util.hpp): identical on
// u8/u16; on f32 within 1 ulp (double pow rounded to float against the exact value rounded), and
// bit for bit over the float range.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
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

// f32 over the whole float range (random bit patterns: subnormals, huge values, results that
// overflow or underflow, infinities, zeros; NaNs skipped) and in [-1.5, 2), for gammas on both
// sides of the fast path's limit (64): the device accepts a value only where the CPU's test
// accepts it, so the results are the CPU's bit for bit. Only an exact value within about 2^-50 of
// a float midpoint could differ (double pow against powl): none is in this data.
TEST(ColorCuda, GammaF32BitIdenticalToCpuOverTheFloatRange) {
  TEXCV_REQUIRE_GPU();
  constexpr int kWg = 1021, kHg = 257;
  Image host(kWg, kHg, 1, ElemType::f32);
  std::uint32_t state = 12345;
  for (int y = 0; y < kHg; ++y) {
    float* row = host.view().row<float>(y);
    for (int x = 0; x < kWg; ++x) {
      state = state * 1664525u + 1013904223u;
      std::uint32_t b = state;
      float v;
      if (y % 3 == 0) {
        v = -1.5f + 3.5f * static_cast<float>(b >> 8) / 16777216.0f;
      } else {
        if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0) b &= 0xFF7FFFFFu;  // no NaN
        std::memcpy(&v, &b, 4);
      }
      row[x] = v;
    }
  }
  Image dsrc(kWg, kHg, 1, ElemType::f32, Location::device);
  texcv::copy(host, dsrc);
  Image dout(kWg, kHg, 1, ElemType::f32, Location::device);
  for (double g : {0.45, 1.0, 2.2, 1e-6, 17.5, 63.9, 64.0, 64.5, 300.0}) {
    SCOPED_TRACE("gamma " + std::to_string(g));
    Image want(kWg, kHg, 1, ElemType::f32);
    texcv::gamma(host, want, g);
    test::poison(dout);
    texcv::gamma(dsrc, dout, g);
    const Image got = test::to_host(dout);
    long differ = 0;
    for (int y = 0; y < kHg; ++y)
      differ += std::memcmp(got.view().row<const float>(y), want.view().row<const float>(y),
                            sizeof(float) * kWg) != 0;
    EXPECT_EQ(differ, 0) << "rows not bit-identical; " << test::compare(got, want).describe();
  }
}

}  // namespace
}  // namespace texcv::color_cuda_test
