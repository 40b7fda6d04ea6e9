// The colour and intensity operations of the CPU backend on hand-computed values, and the same
// results through sub-image views (padded pitch, offset, poisoned surroundings left untouched).
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/color_pixel.hpp"
#include "texcv/color.hpp"

namespace texcv {
namespace {

// A w x h image of type t whose elements are `vals` (row-major, interleaved).
Image make(int w, int h, int ch, ElemType t, const std::vector<double>& vals) {
  Image img(w, h, ch, t);
  const ImageView& v = img.view();
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w * ch; ++i) {
      const double x = vals[static_cast<std::size_t>(y) * w * ch + i];
      if (t == ElemType::u8) v.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(x);
      if (t == ElemType::u16) v.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(x);
      if (t == ElemType::f32) v.row<float>(y)[i] = static_cast<float>(x);
    }
  return img;
}

std::vector<double> values(const ImageView& v) {
  std::vector<double> out;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      for (int c = 0; c < v.channels; ++c) out.push_back(test::at(v, x, y, c));
  return out;
}

std::vector<double> cvt1(ColorCode code, ElemType t, int sch, int dch, std::vector<double> px) {
  const Image s = make(1, 1, sch, t, px);
  Image d(1, 1, dch, t);
  cvt_color(s, d, code);
  return values(d);
}

using V = std::vector<double>;

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

TEST(ColorCpu, GammaHandValues) {
  Image d8(4, 1, 1, ElemType::u8);
  gamma(make(4, 1, 1, ElemType::u8, {0, 128, 255, 64}), d8, 2.0);
  // 255 (128/255)^2 = 64.25; 255 (64/255)^2 = 16.06.
  EXPECT_EQ(values(d8), (V{0, 64, 255, 16}));
  gamma(make(1, 1, 1, ElemType::u8, {64}), d8.view().roi({0, 0, 1, 1}), 0.5);
  EXPECT_EQ(test::at(d8, 0, 0, 0), 128);  // 255 sqrt(64/255) = 127.75
  Image d16(1, 1, 1, ElemType::u16);
  gamma(make(1, 1, 1, ElemType::u16, {32768}), d16, 2.0);
  EXPECT_EQ(test::at(d16, 0, 0, 0), 16384);  // 32768^2 / 65535 = 16384.25
  Image f(3, 1, 1, ElemType::f32);
  gamma(make(3, 1, 1, ElemType::f32, {0.5, -0.5, 2}), f, 2.0);
  EXPECT_EQ(values(f), (V{0.25, -0.25, 4}));  // sign(x) |x|^gamma, no clamping
}

TEST(ColorCpu, NormalizeHandValues) {
  Image d(3, 1, 1, ElemType::u8);
  NormalizeParams p;
  p.alpha = 0;
  p.beta = 100;
  normalize(make(3, 1, 1, ElemType::u8, {10, 20, 30}), d, p);
  EXPECT_EQ(values(d), (V{0, 50, 100}));
  // Constant image: range 0, scale 0: everything becomes min(alpha, beta).
  normalize(make(3, 1, 1, ElemType::u8, {7, 7, 7}), d, p);
  EXPECT_EQ(values(d), (V{0, 0, 0}));
  // mean_std, per channel: channel 0 = {1, 3} (mean 2, std 1), channel 1 = {5, 5} (std 0).
  Image f(2, 1, 2 + 1, ElemType::f32);
  p.mode = NormalizeMode::mean_std;
  p.mean = 10;
  p.std = 2;
  normalize(make(2, 1, 3, ElemType::f32, {1, 5, 0, 3, 5, 4}), f, p);
  EXPECT_EQ(values(f), (V{8, 10, 8, 12, 10, 12}));
}

TEST(ColorCpu, ConvertHandValues) {
  Image d(6, 1, 1, ElemType::u8);
  convert(make(6, 1, 1, ElemType::f32, {0.5, 1.5, 2.5, -1, 300, NAN}), d);
  EXPECT_EQ(values(d), (V{0, 2, 2, 0, 255, 0}));  // half to even, saturated, NaN -> 0
  Image f(2, 1, 1, ElemType::f32);
  convert(make(2, 1, 1, ElemType::u16, {0, 65535}), f, 1.0 / 65535, 0.5);
  EXPECT_EQ(values(f), (V{0.5, 1.5}));
  Image u(2, 1, 1, ElemType::u16);
  convert(make(2, 1, 1, ElemType::u8, {1, 255}), u, 257.0, 0);
  EXPECT_EQ(values(u), (V{257, 65535}));
}

TEST(ColorCpu, ThresholdHandValues) {
  const Image s = make(4, 1, 1, ElemType::u8, {99, 100, 101, 250});
  Image d(4, 1, 1, ElemType::u8);
  // u8: thresh floor(100.9) = 100, maxval round(200.5) = 200 (half to even).
  EXPECT_EQ(threshold(s, d, 100.9, 200.5, ThresholdType::binary), 100.0);
  EXPECT_EQ(values(d), (V{0, 0, 200, 200}));
  threshold(s, d, 100.9, 200, ThresholdType::binary_inv);
  EXPECT_EQ(values(d), (V{200, 200, 0, 0}));
  threshold(s, d, 100.9, 0, ThresholdType::trunc);
  EXPECT_EQ(values(d), (V{99, 100, 100, 100}));
  threshold(s, d, 100, 0, ThresholdType::tozero);
  EXPECT_EQ(values(d), (V{0, 0, 101, 250}));
  threshold(s, d, 100, 0, ThresholdType::tozero_inv);
  EXPECT_EQ(values(d), (V{99, 100, 0, 0}));
  threshold(s, d, -5, 300, ThresholdType::binary);  // maxval saturates
  EXPECT_EQ(values(d), (V{255, 255, 255, 255}));
  // Otsu on two levels: every t in [50, 199] separates them equally; the first maximum is 50.
  const Image b = make(4, 1, 1, ElemType::u8, {50, 200, 50, 200});
  EXPECT_EQ(threshold(b, d, 0, 255, ThresholdType::otsu), 50.0);
  EXPECT_EQ(values(d), (V{0, 255, 0, 255}));
  // f32 compares in float and returns thresh as given.
  Image f(2, 1, 1, ElemType::f32);
  EXPECT_EQ(threshold(make(2, 1, 1, ElemType::f32, {0.25, 0.75}), f, 0.5, 2, ThresholdType::trunc),
            0.5);
  EXPECT_EQ(values(f), (V{0.25, 0.5}));
}

TEST(ColorCpu, HistogramHandValues) {
  const Image s = make(2, 2, 1, ElemType::u8, {0, 1, 255, 128});
  EXPECT_EQ(histogram(s, 2, {0, 256}), (std::vector<std::vector<std::uint64_t>>{{2, 2}}));
  EXPECT_EQ(histogram(s, 2, {0, 128}), (std::vector<std::vector<std::uint64_t>>{{2, 0}}));
  const Image c = make(2, 1, 3, ElemType::f32, {0.1, 0.6, 2, 0.9, -1, 0.5});
  EXPECT_EQ(histogram(c, 2, {0, 1}),
            (std::vector<std::vector<std::uint64_t>>{{1, 1}, {0, 1}, {0, 1}}));
}

TEST(ColorCpu, EqualizeHistHandValues) {
  Image d(4, 1, 1, ElemType::u8);
  // cdf after the first level: 20 -> 1, 30 -> 2 of 2: 127.5 -> 128 (half to even), 255.
  equalize_hist(make(4, 1, 1, ElemType::u8, {10, 10, 20, 30}), d);
  EXPECT_EQ(values(d), (V{0, 0, 128, 255}));
  equalize_hist(make(4, 1, 1, ElemType::u8, {9, 9, 9, 9}), d);  // constant stays
  EXPECT_EQ(values(d), (V{9, 9, 9, 9}));
}

TEST(ColorCpu, ClaheConstantImage) {
  // 16x16 of 100, 8x8 tiles of 2x2 = 4 pixels. clip 40: limit max(int(40 * 4 / 256), 1) = 1, so
  // 3 of the 4 counts are redistributed one each to levels 0, 85, 170; the table at 100 holds
  // cdf 3 -> 3 * 255 / 4 = 191.25 -> 191 in every tile.
  const Image s = make(16, 16, 1, ElemType::u8, std::vector<double>(256, 100));
  Image d(16, 16, 1, ElemType::u8);
  clahe(s, d, {});
  EXPECT_EQ(values(d), std::vector<double>(256, 191));
  ClaheParams p;
  p.clip_limit = 0;  // no clipping: plain equalization per tile: 255
  clahe(s, d, p);
  EXPECT_EQ(values(d), std::vector<double>(256, 255));
}

// Every op gives the same result on a sub-image view (padded pitch, offset) as on a contiguous
// image, and leaves the poisoned bytes around the destination view alone.
TEST(ColorCpu, SubImageViewsMatchContiguous) {
  using Op = std::function<void(const ImageView&, const ImageView&)>;
  struct Case {
    const char* name;
    ElemType st, dt;
    int sch, dch;
    Op op;
  };
  std::vector<Case> cases;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    cases.push_back(
        {"rgb2gray", t, t, 3, 1, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2gray); }});
    cases.push_back(
        {"bgra2gray", t, t, 4, 1, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::bgra2gray); }});
    cases.push_back(
        {"gray2rgba", t, t, 1, 4, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::gray2rgba); }});
    cases.push_back({"yuv709l", t, t, 3, 3,
                     [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2yuv_bt709_limited); }});
    cases.push_back({"yuv2rgb", t, t, 3, 3,
                     [](auto& s, auto& d) { cvt_color(s, d, ColorCode::yuv2rgb_bt601); }});
    if (t != ElemType::u16) {
      cases.push_back(
          {"hsv", t, t, 3, 3, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2hsv); }});
      cases.push_back(
          {"hsv2bgr", t, t, 3, 3, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::hsv2bgr); }});
    }
    for (int ch : {1, 3, 4}) {
      cases.push_back({"gamma", t, t, ch, ch, [](auto& s, auto& d) { gamma(s, d, 0.7); }});
      cases.push_back({"normalize", t, t, ch, ch, [](auto& s, auto& d) { normalize(s, d, {}); }});
      cases.push_back({"mean_std", t, t, ch, ch, [](auto& s, auto& d) {
                         NormalizeParams p;
                         p.mode = NormalizeMode::mean_std;
                         p.mean = 100;
                         p.std = 20;
                         normalize(s, d, p);
                       }});
      cases.push_back({"threshold", t, t, ch, ch,
                       [](auto& s, auto& d) { threshold(s, d, 0.4, 9, ThresholdType::tozero); }});
      cases.push_back(
          {"convert", t, ElemType::u8, ch, ch, [](auto& s, auto& d) { convert(s, d, 0.5, 3); }});
      cases.push_back(
          {"convert_f32", t, ElemType::f32, ch, ch, [](auto& s, auto& d) { convert(s, d, 2, 0); }});
    }
  }
  cases.push_back({"equalize", ElemType::u8, ElemType::u8, 1, 1,
                   [](auto& s, auto& d) { equalize_hist(s, d); }});
  cases.push_back({"clahe", ElemType::u8, ElemType::u8, 1, 1, [](auto& s, auto& d) {
                     clahe(s, d, {2.0, 3, 5});
                   }});
  cases.push_back({"clahe", ElemType::u16, ElemType::u16, 1, 1, [](auto& s, auto& d) {
                     clahe(s, d, {2.0, 3, 5});
                   }});
  cases.push_back({"otsu", ElemType::u8, ElemType::u8, 1, 1,
                   [](auto& s, auto& d) { threshold(s, d, 0, 255, ThresholdType::otsu); }});
  for (const Case& k : cases)
    for (auto [w, h] : {std::pair{23, 17}, std::pair{61, 9}}) {
      SCOPED_TRACE(std::string(k.name) + " " + to_string(k.st) + " x" + std::to_string(k.sch) +
                   " " + std::to_string(w) + "x" + std::to_string(h));
      const Image a = test::random_image(w, h, k.sch, k.st, 17);
      Image ref(w, h, k.dch, k.dt);
      k.op(a.view(), ref.view());
      Image so, dout;
      const ImageView sv = test::padded_view(so, w, h, k.sch, k.st, 3, 2, 1);
      copy(a.view(), sv);
      const ImageView dv = test::padded_view(dout, w, h, k.dch, k.dt, 5, 1, 2);
      Image before = dout.clone();
      k.op(sv, dv);
      EXPECT_EQ(test::compare(dv, ref).count, 0);
      // Bytes outside the destination view are unchanged: copy the view into the snapshot and
      // compare every row of the allocation.
      copy(dv, before.view().roi({1, 2, w, h}));
      const std::size_t row = dout.view().row_bytes();
      for (int y = 0; y < dout.height(); ++y)
        ASSERT_EQ(std::memcmp(before.view().row<unsigned char>(y),
                              dout.view().row<unsigned char>(y), row),
                  0)
            << "row " << y;
    }
}

}  // namespace
}  // namespace texcv
