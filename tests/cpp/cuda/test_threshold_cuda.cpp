// threshold on the CUDA backend: identical to the CPU backend for every threshold type, element
// type and channel count (cuda/color_test_util.hpp), with the same returned level; Otsu's level
// and image on bimodal, random and constant images (cuda/hist_test_util.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "common/test_support.hpp"
#include "cuda/color_test_util.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::color_cuda_test {
namespace {

TEST(ColorCuda, ThresholdIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const ThresholdType types[] = {ThresholdType::binary, ThresholdType::binary_inv,
                                 ThresholdType::trunc, ThresholdType::tozero,
                                 ThresholdType::tozero_inv};
  std::uint32_t seed = 300;
  for (ElemType t : kTypes)
    for (int c : kChannels) {
      const Image src = random_of(t, c, ++seed);
      // Fractional thresholds (floored for integer types), a maxval to round and saturate.
      const double th = t == ElemType::u8 ? 127.6 : t == ElemType::u16 ? 30000.5 : 0.4;
      const double mv = t == ElemType::u8 ? 300.4 : t == ElemType::u16 ? 50000.5 : 0.9;
      for (ThresholdType tt : types) {
        double got_cpu = 0, got_gpu = 0;
        expect_same(std::string("threshold ") + to_string(tt) + " " + to_string(t) + " x" +
                        std::to_string(c),
                    src, c, t, [&](const ImageView& s, const ImageView& d) {
                      const double r = texcv::threshold(s, d, th, mv, tt);
                      (s.location == Location::device ? got_gpu : got_cpu) = r;
                    });
        EXPECT_EQ(got_gpu, got_cpu) << "returned threshold";
      }
    }
}

}  // namespace
}  // namespace texcv::color_cuda_test

namespace texcv::hist_cuda_test {
namespace {

TEST(HistCuda, OtsuIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 6000;
  for (const Size& sz : kSizes) {
    // Bimodal (two ramps), uniform random, and constant images.
    Image bimodal = structured(sz, ElemType::u8, 30, 60, ++seed);
    for (int y = 0; y < sz.h; ++y)
      for (int x = sz.w / 3; x < sz.w; ++x)
        bimodal.view().row<std::uint8_t>(y)[x] =
            static_cast<std::uint8_t>(bimodal.view().row<std::uint8_t>(y)[x] + 140);
    Image flat(sz.w, sz.h, 1, ElemType::u8);
    for (int y = 0; y < sz.h; ++y) set_row(flat, y, 200);
    const Image random = random_of(sz, ElemType::u8, 1, ++seed);
    const std::pair<const char*, const Image*> images[] = {
        {"bimodal", &bimodal}, {"random", &random}, {"flat", &flat}};
    for (const auto& [name, img] : images)
      for (double maxval : {255.0, 100.4}) {
        const Image& src = *img;
        double got_cpu = -1, got_gpu = -2;
        expect_same(
            std::string("otsu ") + name + " " + size_str(sz) + " maxval " + std::to_string(maxval),
            src, [&](const ImageView& s, const ImageView& d) {
              const double r = threshold(s, d, 0, maxval, ThresholdType::otsu);
              (s.location == Location::device ? got_gpu : got_cpu) = r;
            });
        EXPECT_EQ(got_gpu, got_cpu) << "Otsu's threshold, " << name;
      }
  }
}

}  // namespace
}  // namespace texcv::hist_cuda_test
