// cvt_color on the CPU backend: every code bit for bit the per-pixel arithmetic shared with the
// CUDA backend (src/core/color_pixel.hpp), hand-computed gray, YUV and HSV values, and the YUV
// round trip in f32.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/color_test_util.hpp"
#include "src/core/color_pixel.hpp"
#include "texcv/color.hpp"

namespace texcv::color_cpu_test {
namespace {

std::vector<double> cvt1(ColorCode code, ElemType t, int sch, int dch, std::vector<double> px) {
  const Image s = make(1, 1, sch, t, px);
  Image d(1, 1, dch, t);
  cvt_color(s, d, code);
  return values(d);
}

// Every cvt_color code on the CPU backend (Highway vectors where they apply, the plain loops
// elsewhere) bit for bit the per-pixel arithmetic of src/core/color_pixel.hpp, which the CUDA
// backend shares: u8, u16, f32, rows long enough for vectors and a last one overlapping, with
// f32 rows holding NaN, infinities, -0 and huge values among ordinary ones (the pixels the
// vectors hand back to the plain loop).
template <typename T>
void expect_px(ColorCode code, const ImageView& s, const ImageView& d) {
  namespace sd = detail;
  const sd::ColorMatrix m =
      code >= ColorCode::rgb2yuv_bt601 && code <= ColorCode::yuv2rgb_bt709_limited
          ? sd::yuv_matrix(code, s.type)
          : sd::ColorMatrix{};
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      const T* sp = s.row<const T>(y) + static_cast<std::size_t>(x) * s.channels;
      std::vector<T> want(static_cast<std::size_t>(d.channels));
      T* w = want.data();
      switch (code) {
        case ColorCode::rgb2bgr:
          sd::px_swap_rb<T, 3>(sp, w);
          break;
        case ColorCode::rgba2bgra:
          sd::px_swap_rb<T, 4>(sp, w);
          break;
        case ColorCode::rgb2gray:
        case ColorCode::rgba2gray:
          sd::px_to_gray<T, false>(sp, w);
          break;
        case ColorCode::bgr2gray:
        case ColorCode::bgra2gray:
          sd::px_to_gray<T, true>(sp, w);
          break;
        case ColorCode::gray2rgb:
          sd::px_from_gray<T, 3>(sp, w);
          break;
        case ColorCode::gray2rgba:
          sd::px_from_gray<T, 4>(sp, w);
          break;
        case ColorCode::rgb2hsv:
          if constexpr (sizeof(T) != 2) sd::px_to_hsv<T, false>(sp, w);
          break;
        case ColorCode::bgr2hsv:
          if constexpr (sizeof(T) != 2) sd::px_to_hsv<T, true>(sp, w);
          break;
        case ColorCode::hsv2rgb:
          if constexpr (sizeof(T) != 2) sd::px_from_hsv<T, false>(sp, w);
          break;
        case ColorCode::hsv2bgr:
          if constexpr (sizeof(T) != 2) sd::px_from_hsv<T, true>(sp, w);
          break;
        default:
          sd::px_matrix<T>(sp, w, m);
          break;
      }
      ASSERT_EQ(std::memcmp(d.row<const T>(y) + static_cast<std::size_t>(x) * d.channels, w,
                            sizeof(T) * d.channels),
                0)
          << to_string(code) << " " << to_string(s.type) << " at " << x << "," << y;
    }
}

TEST(ColorCpu, CvtColorIsTheSharedPerPixelArithmeticBitForBit) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c = 0; c <= static_cast<int>(ColorCode::hsv2bgr); ++c) {
      const auto code = static_cast<ColorCode>(c);
      const bool hsv = code >= ColorCode::rgb2hsv;
      if (hsv && t == ElemType::u16) continue;
      const int sch = code == ColorCode::rgba2bgra || code == ColorCode::rgba2gray ||
                              code == ColorCode::bgra2gray
                          ? 4
                      : code == ColorCode::gray2rgb || code == ColorCode::gray2rgba ? 1
                                                                                    : 3;
      const int dch = code == ColorCode::rgba2bgra || code == ColorCode::gray2rgba  ? 4
                      : code >= ColorCode::rgb2gray && code <= ColorCode::bgra2gray ? 1
                                                                                    : 3;
      const int w = 203, h = 7;
      Image src = test::random_image(w, h, sch, t, 40u + c);
      if (t == ElemType::f32) {
        const ImageView& v = src.view();
        const float special[] = {nan, inf, -inf, -0.0f, 3e38f, -3e38f, 1e-40f, 359.5f, -720.0f};
        // rows 1..: a special value every few pixels in a rotating channel; row 6: hues
        for (int y = 1; y < h; ++y)
          for (int x = y; x < w; x += 7 * y)
            v.row<float>(y)[x * sch + (x + y) % sch] = special[(x + y) % 9];
        for (int x = 0; x < w && sch == 3; ++x) v.row<float>(h - 1)[x * 3] *= 1000.0f;
      }
      Image dst(w, h, dch, t);
      test::poison(dst.view());
      cvt_color(src, dst, code);
      SCOPED_TRACE(to_string(code));
      if (t == ElemType::u8) expect_px<std::uint8_t>(code, src.view(), dst.view());
      if (t == ElemType::u16) expect_px<std::uint16_t>(code, src.view(), dst.view());
      if (t == ElemType::f32) expect_px<float>(code, src.view(), dst.view());
      if (HasFatalFailure()) return;
    }
}

TEST(ColorCpu, GrayHandValues) {
  // u8: 15-bit weights 9798, 19235, 3735: red (255 * 9798 + 16384) >> 15 = 76; green 150;
  // blue 29 (0.299, 0.587, 0.114 of 255 = 76.2, 149.7, 29.1).
  EXPECT_EQ(cvt1(ColorCode::rgb2gray, ElemType::u8, 3, 1, {255, 0, 0}), V{76});
  EXPECT_EQ(cvt1(ColorCode::rgb2gray, ElemType::u8, 3, 1, {0, 255, 0}), V{150});
  EXPECT_EQ(cvt1(ColorCode::rgb2gray, ElemType::u8, 3, 1, {0, 0, 255}), V{29});
  EXPECT_EQ(cvt1(ColorCode::bgr2gray, ElemType::u8, 3, 1, {0, 0, 255}), V{76});
  EXPECT_EQ(cvt1(ColorCode::rgba2gray, ElemType::u8, 4, 1, {255, 255, 255, 0}), V{255});
  EXPECT_EQ(cvt1(ColorCode::bgra2gray, ElemType::u8, 4, 1, {255, 0, 0, 9}), V{29});
  // u16: 14-bit (4899 * 65535 + 8192) >> 14 = 19596 (4899 / 16384 = 0.29901).
  EXPECT_EQ(cvt1(ColorCode::rgb2gray, ElemType::u16, 3, 1, {65535, 0, 0}), V{19596});
  EXPECT_FLOAT_EQ(static_cast<float>(cvt1(ColorCode::rgb2gray, ElemType::f32, 3, 1, {1, 0, 0})[0]),
                  0.299f);
  EXPECT_EQ(cvt1(ColorCode::gray2rgba, ElemType::u16, 1, 4, {7}), (V{7, 7, 7, 65535}));
  EXPECT_EQ(cvt1(ColorCode::gray2rgba, ElemType::f32, 1, 4, {0.25}), (V{0.25, 0.25, 0.25, 1}));
  EXPECT_EQ(cvt1(ColorCode::rgb2bgr, ElemType::u8, 3, 3, {1, 2, 3}), (V{3, 2, 1}));
  EXPECT_EQ(cvt1(ColorCode::rgba2bgra, ElemType::u16, 4, 4, {1, 2, 3, 4}), (V{3, 2, 1, 4}));
}

TEST(ColorCpu, YuvHandValues) {
  // Standard tables: BT.709 limited red = (63, 102, 240): Y = 16 + 219 * 0.2126 = 62.56,
  // Cb = 128 - 224 * 0.2126 / 1.8556 = 102.34; BT.601 limited red = (81, 90, 240).
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt709_limited, ElemType::u8, 3, 3, {255, 0, 0}),
            (V{63, 102, 240}));
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt601_limited, ElemType::u8, 3, 3, {255, 0, 0}),
            (V{81, 90, 240}));
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt601_limited, ElemType::u8, 3, 3, {255, 255, 255}),
            (V{235, 128, 128}));
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt709_limited, ElemType::u8, 3, 3, {0, 0, 0}),
            (V{16, 128, 128}));
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt601, ElemType::u8, 3, 3, {255, 255, 255}),
            (V{255, 128, 128}));
  // Full-range blue: Cb = 128 + 127.5 = 255.5 saturates to 255; BT.601 Y = 0.114 * 255 = 29.07.
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt601, ElemType::u8, 3, 3, {0, 0, 255}), (V{29, 255, 107}));
  // u16 limited: levels << 8: white Y = 235 * 256 = 60160, chroma 128 * 256.
  EXPECT_EQ(cvt1(ColorCode::rgb2yuv_bt709_limited, ElemType::u16, 3, 3, {65535, 65535, 65535}),
            (V{60160, 32768, 32768}));
  // f32 full range: chroma centred on 0.5; limited = u8 levels / 255.
  const V w = cvt1(ColorCode::rgb2yuv_bt709, ElemType::f32, 3, 3, {1, 1, 1});
  EXPECT_NEAR(w[0], 1.0, 1e-6);
  EXPECT_NEAR(w[1], 0.5, 1e-6);
  EXPECT_NEAR(w[2], 0.5, 1e-6);
  const V l = cvt1(ColorCode::rgb2yuv_bt601_limited, ElemType::f32, 3, 3, {0, 0, 0});
  EXPECT_NEAR(l[0], 16.0 / 255, 1e-6);
  EXPECT_NEAR(l[1], 128.0 / 255, 1e-6);
  // Inverse of the (rounded) limited red: Y' = 47 / 219 * 255 = 54.73, Pb = -26 / 224 * 255 =
  // -29.60, Pr = 127.5: R = 255.5 -> 255, B = -0.20 -> 0, G = (54.73 - 0.2126 R - 0.0722 B) /
  // 0.7152 = 0.59 -> 1.
  EXPECT_EQ(cvt1(ColorCode::yuv2rgb_bt709_limited, ElemType::u8, 3, 3, {63, 102, 240}),
            (V{255, 1, 0}));
  EXPECT_EQ(cvt1(ColorCode::yuv2rgb_bt709_limited, ElemType::u8, 3, 3, {235, 128, 128}),
            (V{255, 255, 255}));
}

TEST(ColorCpu, YuvRoundTripF32) {
  // f32 forward then inverse: the two float matrices are inverses to ~1e-7; 1e-5 over [0, 1].
  const Image s = test::random_image(37, 21, 3, ElemType::f32, 3);
  Image y(37, 21, 3, ElemType::f32), b(37, 21, 3, ElemType::f32);
  const ColorCode fw[] = {ColorCode::rgb2yuv_bt601, ColorCode::rgb2yuv_bt601_limited,
                          ColorCode::rgb2yuv_bt709, ColorCode::rgb2yuv_bt709_limited};
  const ColorCode bw[] = {ColorCode::yuv2rgb_bt601, ColorCode::yuv2rgb_bt601_limited,
                          ColorCode::yuv2rgb_bt709, ColorCode::yuv2rgb_bt709_limited};
  for (int i = 0; i < 4; ++i) {
    cvt_color(s, y, fw[i]);
    cvt_color(y, b, bw[i]);
    EXPECT_LE(test::compare(b, s).max_abs, 1e-5) << to_string(fw[i]);
  }
}

TEST(ColorCpu, HsvHandValues) {
  EXPECT_EQ(cvt1(ColorCode::rgb2hsv, ElemType::u8, 3, 3, {255, 0, 0}), (V{0, 255, 255}));
  EXPECT_EQ(cvt1(ColorCode::rgb2hsv, ElemType::u8, 3, 3, {0, 255, 0}), (V{60, 255, 255}));
  EXPECT_EQ(cvt1(ColorCode::bgr2hsv, ElemType::u8, 3, 3, {255, 0, 0}), (V{120, 255, 255}));
  EXPECT_EQ(cvt1(ColorCode::rgb2hsv, ElemType::u8, 3, 3, {128, 128, 128}), (V{0, 0, 128}));
  // (255, 0, 128): magenta-red, H = 360 - 30.1 = 329.9 degrees -> 165 (u8 halves degrees).
  EXPECT_EQ(cvt1(ColorCode::rgb2hsv, ElemType::u8, 3, 3, {255, 0, 128}), (V{165, 255, 255}));
  const V g = cvt1(ColorCode::rgb2hsv, ElemType::f32, 3, 3, {0, 0.5, 0});
  EXPECT_NEAR(g[0], 120.0, 1e-4);
  EXPECT_NEAR(g[1], 1.0, 1e-6);
  EXPECT_NEAR(g[2], 0.5, 1e-7);
  EXPECT_EQ(cvt1(ColorCode::hsv2rgb, ElemType::u8, 3, 3, {60, 255, 255}), (V{0, 255, 0}));
  EXPECT_EQ(cvt1(ColorCode::hsv2bgr, ElemType::u8, 3, 3, {0, 255, 255}), (V{0, 0, 255}));
  const V r = cvt1(ColorCode::hsv2rgb, ElemType::f32, 3, 3, {240, 1, 0.5});
  EXPECT_NEAR(r[0], 0, 1e-7);
  EXPECT_NEAR(r[1], 0, 1e-7);
  EXPECT_NEAR(r[2], 0.5, 1e-7);
}

}  // namespace
}  // namespace texcv::color_cpu_test
