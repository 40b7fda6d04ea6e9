// cvt_color on the CUDA backend: identical to the CPU backend (cuda/color_test_util.hpp) for
// every code and element type (gray pixels for HSV's zero saturation); HSV on u16 refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/test_support.hpp"
#include "cuda/color_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::color_cuda_test {
namespace {

TEST(ColorCuda, CvtColorIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Code {
    ColorCode code;
    int sc, dc;
    bool hsv;
  };
  const Code codes[] = {
      {ColorCode::rgb2bgr, 3, 3, false},       {ColorCode::rgba2bgra, 4, 4, false},
      {ColorCode::rgb2gray, 3, 1, false},      {ColorCode::bgr2gray, 3, 1, false},
      {ColorCode::rgba2gray, 4, 1, false},     {ColorCode::bgra2gray, 4, 1, false},
      {ColorCode::gray2rgb, 1, 3, false},      {ColorCode::gray2rgba, 1, 4, false},
      {ColorCode::rgb2yuv_bt601, 3, 3, false}, {ColorCode::rgb2yuv_bt601_limited, 3, 3, false},
      {ColorCode::rgb2yuv_bt709, 3, 3, false}, {ColorCode::rgb2yuv_bt709_limited, 3, 3, false},
      {ColorCode::yuv2rgb_bt601, 3, 3, false}, {ColorCode::yuv2rgb_bt601_limited, 3, 3, false},
      {ColorCode::yuv2rgb_bt709, 3, 3, false}, {ColorCode::yuv2rgb_bt709_limited, 3, 3, false},
      {ColorCode::rgb2hsv, 3, 3, true},        {ColorCode::bgr2hsv, 3, 3, true},
      {ColorCode::hsv2rgb, 3, 3, true},        {ColorCode::hsv2bgr, 3, 3, true},
  };
  std::uint32_t seed = 400;
  for (const Code& k : codes)
    for (ElemType t : kTypes) {
      if (k.hsv && t == ElemType::u16) continue;  // not supported by the code (checked below)
      Image src = random_of(t, k.sc, ++seed);
      if (t == ElemType::f32 && (k.code == ColorCode::hsv2rgb || k.code == ColorCode::hsv2bgr)) {
        // f32 HSV input: H in [0, 360) (also a little outside), S and V in [0, 1).
        const Image h = random_f32(3, ++seed, -10.0f, 370.0f);
        for (int y = 0; y < kH; ++y)
          for (int x = 0; x < kW; ++x)
            src.view().row<float>(y)[x * 3] = h.view().row<const float>(y)[x * 3];
      }
      expect_same(std::string("cvt_color ") + to_string(k.code) + " " + to_string(t), src, k.dc, t,
                  [&](const ImageView& s, const ImageView& d) { texcv::cvt_color(s, d, k.code); });
    }
  // Gray pixels (R = G = B) take HSV's zero-saturation branch: include a gray-only image too.
  for (ElemType t : {ElemType::u8, ElemType::f32}) {
    const Image g = random_of(t, 1, ++seed);
    Image rgb(kW, kH, 3, t);
    texcv::cvt_color(g, rgb, ColorCode::gray2rgb);
    expect_same(std::string("cvt_color rgb2hsv gray ") + to_string(t), rgb, 3, t,
                [&](const ImageView& s, const ImageView& d) {
                  texcv::cvt_color(s, d, ColorCode::rgb2hsv);
                });
  }
}

TEST(ColorCuda, Hsv16RejectedOnDevice) {
  TEXCV_REQUIRE_GPU();
  Image s16(8, 8, 3, ElemType::u16, Location::device),
      d16(8, 8, 3, ElemType::u16, Location::device);
  try {
    texcv::cvt_color(s16, d16, ColorCode::rgb2hsv);
    ADD_FAILURE() << "rgb2hsv on u16 did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
  }
  // threshold with Otsu runs on the device now: tests/cpp/cuda/test_threshold_cuda.cpp.
}

}  // namespace
}  // namespace texcv::color_cuda_test
