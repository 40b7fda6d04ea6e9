// The CPU backend's Highway loops (src/cpu/simd.hpp) on every SIMD target this CPU runs (the
// dispatch forced to each in turn: on_every_simd_target.hpp), against plain loops written here:
// flip's row mirror, the filters' taps, the gray rows, resize's half-size mean and the warps'
// bilinear rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/on_every_simd_target.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/simd.hpp"
#include "texcv/geometry.hpp"

namespace texcv {
namespace {

TEST(SimdTargets, FlipMirrorsEveryPixelSizeOnEveryTarget) {
  test::on_every_simd_target("flip", [](const std::string& name) {
    // Pixel sizes 1, 3, 4 (u8 x1/x3/x4), 2, 6, 8 (u16), 4, 12, 16 (f32).
    for (ElemType type : {ElemType::u8, ElemType::u16, ElemType::f32})
      for (int ch : {1, 3, 4})
        for (int w : {1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129, 203}) {
          const int h = 3;
          Image src = test::random_image(w, h, ch, type, static_cast<std::uint32_t>(w * 5 + ch));
          for (FlipCode code : {FlipCode::horizontal, FlipCode::both}) {
            Image dst(w, h, ch, type);
            test::poison(dst.view());
            flip(src, dst, code);
            const std::size_t px = src.view().pixel_bytes();
            for (int y = 0; y < h; ++y) {
              const int sy = code == FlipCode::both ? h - 1 - y : y;
              const auto* s = src.view().row<const unsigned char>(sy);
              const auto* d = dst.view().row<const unsigned char>(y);
              for (int x = 0; x < w; ++x)
                ASSERT_EQ(std::memcmp(d + px * x, s + px * static_cast<std::size_t>(w - 1 - x), px),
                          0)
                    << name << ": " << to_string(type) << " x" << ch << " width " << w << " "
                    << to_string(code) << " at " << x << "," << y;
            }
          }
        }
  });
}

// The separable filters' multiply-add over taps: bit for bit the plain loop's floats (separate
// multiply and add, in tap order, zero taps skipped so that 0 * inf adds no NaN) on every
// target, for lengths around the vector sizes, with infinities, NaN and signed zeros in the data.
TEST(SimdTargets, FilterTapsAddIsThePlainLoopBitForBitOnEveryTarget) {
  const float kern[] = {0.0625f, 0.0f, -0.25f, 1.0f / 3.0f, 0.5f, 0.0f, 7.0f};
  const int taps = 7, step = 3;
  std::vector<float> src(4 * 300 + taps * step);
  std::uint32_t seed = 12345;
  for (float& v : src) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(static_cast<int>(seed >> 8) % 20001 - 10000) / 777.0f;
  }
  src[40] = std::numeric_limits<float>::infinity();
  src[41 + step] = std::numeric_limits<float>::quiet_NaN();  // under a zero tap: skipped
  src[90] = -0.0f;
  test::on_every_simd_target("filter taps", [&](const std::string& name) {
    for (int n : {1, 7, 15, 16, 17, 33, 64, 65, 300}) {
      std::vector<float> got(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) got[i] = want[i] = i % 5 == 0 ? -0.0f : 0.25f * i;
      ASSERT_TRUE(cpu::simd::filter_taps_add(src.data(), step, kern, taps, n, got.data()));
      for (int k = 0; k < taps; ++k) {
        if (kern[k] == 0.0f) continue;
        for (int i = 0; i < n; ++i) {
          const volatile float prod = kern[k] * src[static_cast<std::size_t>(k * step + i)];
          want[i] = want[i] + prod;
        }
      }
      for (int i = 0; i < n; ++i) {
        std::uint32_t g, w;
        std::memcpy(&g, &got[i], sizeof g);
        std::memcpy(&w, &want[i], sizeof w);
        ASSERT_EQ(g, w) << name << ": n " << n << " element " << i << ": " << got[i] << " against "
                        << want[i];
      }
    }
  });
}

// cvt_color's to-gray rows: the same values as color_pixel.hpp's px_to_gray (the plain loop) on
// every target, u8/u16/f32, 3 and 4 channels, RGB and BGR order, widths around the vector sizes.
template <typename T>
void expect_gray_rows_match(const std::string& name) {
  for (int ch : {3, 4})
    for (bool bgr : {false, true})
      for (int w : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 64, 65, 203}) {
        std::vector<T> src(static_cast<std::size_t>(w) * ch);
        std::uint32_t seed = static_cast<std::uint32_t>(w * 31 + ch);
        for (T& v : src) {
          seed = seed * 1664525u + 1013904223u;
          if constexpr (sizeof(T) == 4)
            v = static_cast<float>(seed >> 8) / 16777216.0f * 3.0f - 1.0f;
          else
            v = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
        }
        std::vector<T> got(static_cast<std::size_t>(w), T(77)), want(static_cast<std::size_t>(w));
        for (int x = 0; x < w; ++x) {
          if (bgr)
            detail::px_to_gray<T, true>(src.data() + static_cast<std::size_t>(x) * ch, &want[x]);
          else
            detail::px_to_gray<T, false>(src.data() + static_cast<std::size_t>(x) * ch, &want[x]);
        }
        if (!cpu::simd::to_gray_row(src.data(), got.data(), w, ch, bgr)) {
          // Rows shorter than a vector take the plain loop; 203 pixels fill one on every target.
          ASSERT_TRUE(w < 203 || name == "SCALAR") << name << ": no vector path at width " << w;
          continue;
        }
        for (int x = 0; x < w; ++x)
          ASSERT_EQ(std::memcmp(&got[x], &want[x], sizeof(T)), 0)
              << name << ": " << sizeof(T) << "-byte x" << ch << (bgr ? " bgr" : " rgb")
              << " width " << w << " at " << x << ": " << +got[x] << " against " << +want[x];
      }
}

TEST(SimdTargets, GrayRowsArePxToGrayOnEveryTarget) {
  test::on_every_simd_target("gray rows", [](const std::string& name) {
    expect_gray_rows_match<std::uint8_t>(name);
    expect_gray_rows_match<std::uint16_t>(name);
    expect_gray_rows_match<float>(name);
  });
}

// Random row data: u8/u16 over their whole range, f32 in [-1, 2) (any bits move the same).
template <typename T>
std::vector<T> random_row(std::size_t n, std::uint32_t seed) {
  std::vector<T> v(n);
  for (T& e : v) {
    seed = seed * 1664525u + 1013904223u;
    if constexpr (sizeof(T) == 4)
      e = static_cast<float>(seed >> 8) / 16777216.0f * 3.0f - 1.0f;
    else
      e = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
  }
  return v;
}

// cvt_color's element moves: rgb2bgr / rgba2bgra (px_swap_rb) and gray2rgb / gray2rgba
// (px_from_gray), byte for byte, on every target, widths around the vector sizes (the 4-channel
// swap works on bytes: f32 pixels of 16 bytes fill a 16-byte block alone).
template <typename T>
void expect_moves_match(const std::string& name) {
  for (int ch : {3, 4})
    for (int w : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 203}) {
      const std::size_t n = static_cast<std::size_t>(w) * ch;
      const std::vector<T> src = random_row<T>(n, static_cast<std::uint32_t>(w * 7 + ch));
      std::vector<T> got(n, T(77)), want(n);
      for (int x = 0; x < w; ++x) {
        if (ch == 3)
          detail::px_swap_rb<T, 3>(&src[x * 3u], &want[x * 3u]);
        else
          detail::px_swap_rb<T, 4>(&src[x * 4u], &want[x * 4u]);
      }
      if (cpu::simd::swap_rb_row(src.data(), got.data(), w, ch)) {
        ASSERT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(T)), 0)
            << name << ": swap_rb " << sizeof(T) << "-byte x" << ch << " width " << w;
      } else {
        // Rows shorter than a vector take the plain loop; 203 pixels fill one on every target.
        ASSERT_TRUE(w < 203 || name == "SCALAR") << name << ": no swap_rb vectors at width " << w;
      }
      std::fill(got.begin(), got.end(), T(77));
      for (int x = 0; x < w; ++x) {
        if (ch == 3)
          detail::px_from_gray<T, 3>(&src[x], &want[x * 3u]);
        else
          detail::px_from_gray<T, 4>(&src[x], &want[x * 4u]);
      }
      if (cpu::simd::from_gray_row(src.data(), got.data(), w, ch)) {
        ASSERT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(T)), 0)
            << name << ": from_gray " << sizeof(T) << "-byte x" << ch << " width " << w;
      } else {
        ASSERT_TRUE(w < 203 || name == "SCALAR") << name << ": no from_gray vectors at width " << w;
      }
    }
}

TEST(SimdTargets, ColorMovesArePxSwapRbAndPxFromGrayOnEveryTarget) {
  test::on_every_simd_target("color moves", [](const std::string& name) {
    expect_moves_match<std::uint8_t>(name);
    expect_moves_match<std::uint16_t>(name);
    expect_moves_match<float>(name);
  });
}

// cvt_color's float conversions of three-channel rows: the YUV matrices (px_matrix; u8, u16,
// f32), RGB/BGR to HSV (px_to_hsv) and back (px_from_hsv; u8, f32). want: the plain per-pixel
// code; got: the SIMD row (false: not taken). f32 rows hand pixels back through PlainPixels,
// which runs `want` as color_cvt.cpp runs its plain loop.
struct RowConv {
  enum Kind { matrix, to_hsv, from_hsv } kind;
  ColorCode code;  // matrix: the YUV code
  bool bgr;
  std::string what() const {
    return kind == matrix
               ? to_string(code)
               : std::string(kind == to_hsv ? "to_hsv" : "from_hsv") + (bgr ? " bgr" : " rgb");
  }
};

template <typename T>
ElemType elem_type() {
  return sizeof(T) == 1 ? ElemType::u8 : sizeof(T) == 2 ? ElemType::u16 : ElemType::f32;
}

template <typename T>
[[gnu::noinline]] void want_row(const RowConv& c, const T* s, T* d, int n) {
  const detail::ColorMatrix m = detail::yuv_matrix(c.code, elem_type<T>());
  for (int x = 0; x < n; ++x) {
    const T* sp = s + static_cast<std::size_t>(x) * 3;
    T* dp = d + static_cast<std::size_t>(x) * 3;
    if (c.kind == RowConv::matrix) {
      detail::px_matrix<T>(sp, dp, m);
    } else if constexpr (sizeof(T) != 2) {
      if (c.kind == RowConv::to_hsv)
        c.bgr ? detail::px_to_hsv<T, true>(sp, dp) : detail::px_to_hsv<T, false>(sp, dp);
      else
        c.bgr ? detail::px_from_hsv<T, true>(sp, dp) : detail::px_from_hsv<T, false>(sp, dp);
    }
  }
}

// pixels handed back: counted, so that a test can see the hand-back happen (and not everywhere)
int g_handed_back = 0;

template <typename T>
bool got_row(const RowConv& c, const T* s, T* d, int n) {
  const detail::ColorMatrix m = detail::yuv_matrix(c.code, elem_type<T>());
  if constexpr (sizeof(T) == 4) {
    const cpu::simd::PlainPixels plain{[](const void* ctx, const float* ps, float* pd, int k) {
                                         g_handed_back += k;
                                         want_row(*static_cast<const RowConv*>(ctx), ps, pd, k);
                                       },
                                       &c};
    if (c.kind == RowConv::matrix) return cpu::simd::matrix_row(s, d, n, m.m, m.o, plain);
    if (c.kind == RowConv::to_hsv) return cpu::simd::to_hsv_row(s, d, n, c.bgr, plain);
    return cpu::simd::from_hsv_row(s, d, n, c.bgr, plain);
  } else {
    if (c.kind == RowConv::matrix) return cpu::simd::matrix_row(s, d, n, m.m, m.o);
    if constexpr (sizeof(T) == 1) {
      if (c.kind == RowConv::to_hsv) return cpu::simd::to_hsv_row(s, d, n, c.bgr);
      return cpu::simd::from_hsv_row(s, d, n, c.bgr);
    }
    return false;
  }
}

template <typename T>
std::vector<RowConv> row_convs() {
  std::vector<RowConv> v;
  for (ColorCode code : {ColorCode::rgb2yuv_bt601, ColorCode::rgb2yuv_bt601_limited,
                         ColorCode::rgb2yuv_bt709, ColorCode::rgb2yuv_bt709_limited,
                         ColorCode::yuv2rgb_bt601, ColorCode::yuv2rgb_bt601_limited,
                         ColorCode::yuv2rgb_bt709, ColorCode::yuv2rgb_bt709_limited})
    v.push_back({RowConv::matrix, code, false});
  if (sizeof(T) != 2)
    for (bool bgr : {false, true}) {
      v.push_back({RowConv::to_hsv, ColorCode::rgb2hsv, bgr});
      v.push_back({RowConv::from_hsv, ColorCode::hsv2rgb, bgr});
    }
  return v;
}

// got against want, bit for bit (memcmp: f32 NaN payloads and signed zeros count).
template <typename T>
void expect_row_conv(const std::string& name, const RowConv& c, const std::vector<T>& src,
                     const std::vector<T>& want, int w, bool must_take) {
  std::vector<T> got(src.size(), T(77));
  if (!got_row(c, src.data(), got.data(), w)) {
    ASSERT_FALSE(must_take && name != "SCALAR")
        << name << ": " << c.what() << " " << sizeof(T) << "-byte: no vector path at width " << w;
    return;
  }
  for (int x = 0; x < w; ++x)
    ASSERT_EQ(std::memcmp(&got[x * 3u], &want[x * 3u], 3 * sizeof(T)), 0)
        << name << ": " << c.what() << " " << sizeof(T) << "-byte width " << w << " pixel " << x
        << ": source " << +src[x * 3u] << " " << +src[x * 3u + 1] << " " << +src[x * 3u + 2]
        << " gives " << +got[x * 3u] << " " << +got[x * 3u + 1] << " " << +got[x * 3u + 2]
        << " against " << +want[x * 3u] << " " << +want[x * 3u + 1] << " " << +want[x * 3u + 2];
}

// Random rows of widths around the vector sizes (the last vector overlapping the one before).
template <typename T>
void expect_row_convs_random(const std::string& name) {
  for (const RowConv& c : row_convs<T>())
    for (int w : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 203}) {
      std::vector<T> src = random_row<T>(static_cast<std::size_t>(w) * 3, w * 131u + c.kind);
      if constexpr (sizeof(T) == 4)
        if (c.kind == RowConv::from_hsv)  // hues over several turns, either sign
          for (int x = 0; x < w; ++x) src[x * 3u] = (src[x * 3u] - 0.5f) * 1000.0f;
      std::vector<T> want(src.size());
      want_row(c, src.data(), want.data(), w);
      expect_row_conv(name, c, src, want, w, w >= 203);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(SimdTargets, ColorFloatRowsArePxArithmeticOnRandomRowsOnEveryTarget) {
  test::on_every_simd_target("color float rows", [](const std::string& name) {
    expect_row_convs_random<std::uint8_t>(name);
    expect_row_convs_random<std::uint16_t>(name);
    expect_row_convs_random<float>(name);
  });
}

// u8: every one of the 2^24 sources (RGB colours; for HSV to RGB every H, S, V byte, hues past
// 179 included) in one row, bit for bit px_matrix / px_to_hsv / px_from_hsv on every target.
TEST(SimdTargets, ColorU8RowsArePxArithmeticForAllColoursOnEveryTarget) {
  const int w = 1 << 24;
  std::vector<std::uint8_t> src(static_cast<std::size_t>(w) * 3), want(src.size());
  for (int i = 0; i < w; ++i) {
    src[i * 3u] = static_cast<std::uint8_t>(i);
    src[i * 3u + 1] = static_cast<std::uint8_t>(i >> 8);
    src[i * 3u + 2] = static_cast<std::uint8_t>(i >> 16);
  }
  for (const RowConv& c : row_convs<std::uint8_t>()) {
    want_row(c, src.data(), want.data(), w);
    test::on_every_simd_target(
        ("all u8 colours, " + c.what()).c_str(),
        [&](const std::string& name) { expect_row_conv(name, c, src, want, w, true); });
    if (HasFatalFailure()) return;
  }
}

// f32: every triple of edge values (zeros of both signs, grays, ties of the largest and smallest
// channel, the hue sectors' boundaries, values past 1 and below 0, tiny, denormal and huge ones
// whose differences overflow, infinities, NaN), and random rows: bit for bit on every target;
// the vectors holding NaN, infinities (or, to HSV, -0) are handed back to the plain loop, and
// only those.
TEST(SimdTargets, ColorF32RowsArePxArithmeticOnEdgeValuesOnEveryTarget) {
  const float inf = std::numeric_limits<float>::infinity();
  const float edge[] = {0.0f,
                        -0.0f,
                        1.0f,
                        0.5f,
                        -0.5f,
                        1.0f / 3,
                        2.0f / 3,
                        0.25f,
                        1.0000001f,
                        0.9999999f,
                        255.0f,
                        2.0f,
                        60.0f,
                        120.0f,
                        180.0f,
                        240.0f,
                        300.0f,
                        359.99997f,
                        360.0f,
                        720.5f,
                        -60.0f,
                        1e-6f,
                        1e-40f,
                        -1e-40f,
                        1e30f,
                        -1e30f,
                        3.4e38f,
                        -3.4e38f,
                        inf,
                        -inf,
                        std::numeric_limits<float>::quiet_NaN()};
  const int ne = static_cast<int>(sizeof(edge) / sizeof(edge[0]));
  const int w = ne * ne * ne;
  std::vector<float> src(static_cast<std::size_t>(w) * 3), want(src.size());
  for (int i = 0; i < w; ++i) {
    src[i * 3u] = edge[i % ne];
    src[i * 3u + 1] = edge[i / ne % ne];
    src[i * 3u + 2] = edge[i / (ne * ne)];
  }
  // The finite triples in a row of their own: all in vectors (to HSV: but those with a -0).
  std::vector<float> finite;
  for (std::size_t i = 0; i < src.size(); i += 3)
    if (std::isfinite(src[i]) && std::isfinite(src[i + 1]) && std::isfinite(src[i + 2]))
      finite.insert(finite.end(), {src[i], src[i + 1], src[i + 2]});
  const int wf = static_cast<int>(finite.size() / 3);
  std::vector<float> want_f(finite.size());
  for (const RowConv& c : row_convs<float>()) {
    want_row(c, src.data(), want.data(), w);
    want_row(c, finite.data(), want_f.data(), wf);
    test::on_every_simd_target(("f32 edge values, " + c.what()).c_str(),
                               [&](const std::string& name) {
                                 g_handed_back = 0;
                                 expect_row_conv(name, c, src, want, w, true);
                                 if (name == "SCALAR") return;
                                 EXPECT_GT(g_handed_back, 0) << name << ": " << c.what();
                                 EXPECT_LT(g_handed_back, w) << name << ": " << c.what();
                                 g_handed_back = 0;
                                 expect_row_conv(name, c, finite, want_f, wf, true);
                                 if (c.kind != RowConv::to_hsv) {
                                   EXPECT_EQ(g_handed_back, 0) << name << ": " << c.what();
                                 }
                               });
    if (HasFatalFailure()) return;
  }
}

// u8 gray: every one of the 2^24 colours, RGB and BGR order, 3 channels and 4 (alpha varying),
// in one row: bit for bit px_to_gray on every target.
TEST(SimdTargets, GrayU8RowsArePxToGrayForAllColoursOnEveryTarget) {
  const int w = 1 << 24;
  for (int ch : {3, 4}) {
    std::vector<std::uint8_t> src(static_cast<std::size_t>(w) * ch);
    for (int i = 0; i < w; ++i) {
      std::uint8_t* p = &src[static_cast<std::size_t>(i) * ch];
      p[0] = static_cast<std::uint8_t>(i);
      p[1] = static_cast<std::uint8_t>(i >> 8);
      p[2] = static_cast<std::uint8_t>(i >> 16);
      if (ch == 4) p[3] = static_cast<std::uint8_t>(i * 7 + 3);
    }
    for (bool bgr : {false, true}) {
      std::vector<std::uint8_t> want(static_cast<std::size_t>(w)), got(want.size());
      for (int i = 0; i < w; ++i) {
        if (bgr)
          detail::px_to_gray<std::uint8_t, true>(&src[static_cast<std::size_t>(i) * ch], &want[i]);
        else
          detail::px_to_gray<std::uint8_t, false>(&src[static_cast<std::size_t>(i) * ch], &want[i]);
      }
      const std::string what =
          std::string("all u8 colours, gray x") + std::to_string(ch) + (bgr ? " bgr" : " rgb");
      test::on_every_simd_target(what.c_str(), [&](const std::string& name) {
        std::fill(got.begin(), got.end(), std::uint8_t{77});
        if (!cpu::simd::to_gray_row(src.data(), got.data(), w, ch, bgr)) {
          ASSERT_EQ(name, "SCALAR") << what << ": no vector path";
          return;
        }
        for (int i = 0; i < w; ++i)
          ASSERT_EQ(got[i], want[i]) << name << ": " << what << " at " << i;
      });
      if (HasFatalFailure()) return;
    }
  }
}

// resize's half-size mean rows: (a + b + c + d) / 4 rounded half to even, per channel, on every
// target, u8/u16, 1/3/4 channels, output widths around the vector sizes (random data: many ties).
template <typename T>
void expect_half_rows_match(const std::string& name) {
  for (int ch : {1, 3, 4})
    for (int w : {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 101}) {
      const std::size_t n = static_cast<std::size_t>(2 * w) * ch;
      std::vector<T> a(n), b(n);
      std::uint32_t seed = static_cast<std::uint32_t>(w * 13 + ch);
      for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
        seed = seed * 1664525u + 1013904223u;
        b[i] = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
      }
      std::vector<T> got(static_cast<std::size_t>(w) * ch, T(77));
      if (!cpu::simd::half_mean_row(a.data(), b.data(), got.data(), w, ch)) {
        // Rows shorter than a vector take the plain loop; 101 pixels fill one on every target.
        ASSERT_TRUE(w < 101 || name == "SCALAR") << name << ": no vector path at width " << w;
        continue;
      }
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < ch; ++c) {
          const std::size_t e0 = static_cast<std::size_t>(2 * x) * ch + c, e1 = e0 + ch;
          const double want = std::nearbyint((double(a[e0]) + a[e1] + b[e0] + b[e1]) / 4.0);
          ASSERT_EQ(static_cast<double>(got[static_cast<std::size_t>(x) * ch + c]), want)
              << name << ": " << sizeof(T) << "-byte x" << ch << " width " << w << " at " << x
              << ", channel " << c;
        }
    }
}

TEST(SimdTargets, HalfMeanRowsRoundHalfToEvenOnEveryTarget) {
  test::on_every_simd_target("half-size mean rows", [](const std::string& name) {
    expect_half_rows_match<std::uint8_t>(name);
    expect_half_rows_match<std::uint16_t>(name);
  });
}

// The warps' bilinear rows: every destination pixel bit for bit what sampling.hpp's plain
// per-pixel path gives (the map in double, sample_linear, saturate), on every target: u8, u16,
// f32; rotations, a shear, a strong zoom (rows far apart in one vector), perspectives (one with
// w = 0 in the row), positions near 30,000 px (issue 16's exactness), every border mode with
// taps outside; padded rows; the last source rows (u8's 32-bit gathers must not read past the
// image: with a tight pitch the image ends exactly at its last pixel).
template <typename T>
void expect_warp_rows_match(const std::string& name) {
  namespace sd = texcv::detail;
  struct Case {
    bool persp;
    double m[9];
  };
  const double c30 = std::cos(0.5235987755982988), s30 = std::sin(0.5235987755982988);
  const Case cases[] = {
      {false, {c30, s30, -20.3, -s30, c30, 40.7}},       // rotation, taps outside
      {false, {c30, -s30, 31.25, s30, c30, 2.5}},        // rotation inside
      {false, {1.0, 0.37, 0.5, 0.0, 1.0, 0.25}},         // shear
      {false, {0.013, 0.0, 3.1, 0.0, 0.021, 1.7}},       // zoom in
      {false, {1.0, 0.0, 0.3, 9.5, 0.0, 0.6}},           // rows far apart in a vector
      {false, {1.0, 0.0, 29990.75, 0.0, 1.0, 30001.3}},  // far from the origin
      {false, {1.0, 1e-7, 0.125, 0.0, 1.0, 52.999999}},  // the last rows
      {true, {1.1, 0.05, 1.0, 0.02, 0.9, 2.0, 1e-3, 2e-3, 1.0}},
      {true, {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, -0.05, 0.0, 1.0}},  // w = 0 at x = 20
  };
  const int sw = 67, sh = 55;
  for (int pad : {0, 5})
    for (int width : {1, 3, 7, 8, 9, 15, 16, 17, 33, 64})
      for (const Case& cs : cases)
        for (Border b : {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                         Border::wrap}) {
          const std::size_t pitch = (static_cast<std::size_t>(sw) + pad) * sizeof(T);
          std::vector<unsigned char> mem(pitch * (sh - 1) + sw * sizeof(T));  // ends at the image
          std::uint32_t seed = static_cast<std::uint32_t>(width * 31 + pad);
          for (int y = 0; y < sh; ++y)
            for (int x = 0; x < sw; ++x) {
              seed = seed * 1664525u + 1013904223u;
              T v;
              if constexpr (sizeof(T) == 4)
                v = static_cast<float>(seed >> 8) / 65536.0f - 100.0f;
              else
                v = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
              std::memcpy(mem.data() + pitch * y + x * sizeof(T), &v, sizeof(T));
            }
          const sd::PitchedSource<T, 1> src{mem.data(), pitch, sw, sh};
          const float bv = sizeof(T) == 4 ? -7.5f : 99.0f;
          for (int y : {0, 3, 40}) {
            const int x0 = 2, x1 = x0 + width;
            std::vector<T> got(static_cast<std::size_t>(x1) + 2, T(77));
            const cpu::simd::WarpRow r{mem.data(), pitch, sw, sh, cs.m, cs.persp, y, x0, x1, b, bv};
            if (!cpu::simd::warp_linear_row(r, got.data())) {
              ASSERT_TRUE(width < 16 || name == "SCALAR") << name << ": no vector path, " << width;
              continue;
            }
            ASSERT_EQ(static_cast<double>(got[x0 - 1]), 77.0) << name << ": wrote before x0";
            ASSERT_EQ(static_cast<double>(got[x1]), 77.0) << name << ": wrote past x1";
            for (int x = x0; x < x1; ++x) {
              double sx, sy;
              if (cs.persp)
                sd::PerspectiveMap{{cs.m[0], cs.m[1], cs.m[2], cs.m[3], cs.m[4], cs.m[5], cs.m[6],
                                    cs.m[7], cs.m[8]}}(x, y, sx, sy);
              else
                sd::AffineMap{{cs.m[0], cs.m[1], cs.m[2], cs.m[3], cs.m[4], cs.m[5]}}(x, y, sx, sy);
              float v;
              sd::sample_linear<1>(src, sx, sy, b, &bv, &v);
              const T want = sd::saturate<T>(v);
              ASSERT_EQ(std::memcmp(&got[x], &want, sizeof(T)), 0)
                  << name << ": " << sizeof(T) << "-byte, map " << (&cs - cases) << ", border "
                  << static_cast<int>(b) << ", width " << width << ", pad " << pad << ", at " << x
                  << "," << y << ": " << static_cast<double>(got[x]) << " against "
                  << static_cast<double>(want);
            }
          }
        }
}

TEST(SimdTargets, WarpLinearRowsAreThePlainLoopOnEveryTarget) {
  test::on_every_simd_target("warp linear rows", [](const std::string& name) {
    expect_warp_rows_match<std::uint8_t>(name);
    expect_warp_rows_match<std::uint16_t>(name);
    expect_warp_rows_match<float>(name);
  });
}

// resize's two passes (simd::taps_row, simd::combine_rows): every target's output bit for bit the
// SCALAR target's (the plain loops, which GeometryCpu.TwoPassResizeIsThePerPixelSamplerBitForBit
// holds to the per-pixel sampler): linear, cubic, area enlarging; u8, u16, f32 x 1, 3, 4
// channels; constant and reflect borders; enlarging and shrinking.
TEST(SimdTargets, ResizeTwoPassSameOnEveryTarget) {
  int scalar = -1;
  for (int t = 0; t < cpu::simd::simd_target_count(); ++t)
    if (std::string(cpu::simd::simd_target_name(t)) == "SCALAR") scalar = t;
  struct Case {
    int sw, sh, dw, dh;
  };
  const Case cases[] = {{101, 19, 173, 33}, {101, 19, 31, 7}, {40, 12, 97, 5}};
  std::vector<std::vector<unsigned char>> want;
  test::on_every_simd_target("resize two passes", [&](const std::string& name) {
    ASSERT_GE(scalar, 0) << "no SCALAR target to compare with";
    int current = -1;
    for (int k = 0; k < cpu::simd::simd_target_count(); ++k)
      if (name == cpu::simd::simd_target_name(k)) current = k;
    std::size_t i = 0;
    for (Interp ip : {Interp::linear, Interp::cubic, Interp::area})
      for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
        for (int ch : {1, 3, 4})
          for (const Case& cs : cases)
            for (Border b : {Border::constant, Border::reflect}) {
              if (ip == Interp::area && cs.dw < cs.sw && cs.dh < cs.sh) continue;
              const Image src = test::random_image(cs.sw, cs.sh, ch, t, cs.dw * 7u + ch);
              Image dst(cs.dw, cs.dh, ch, t);
              ResizeParams p;
              p.interp = ip;
              p.border = b;
              p.border_value = {9, 200, 31, 77};
              const auto run = [&](int target) {
                cpu::simd::simd_force_target(target);
                test::poison(dst.view());
                resize(src, dst, p);
                const std::size_t bytes = dst.view().pixel_bytes() * cs.dw;
                std::vector<unsigned char> out;
                for (int y = 0; y < cs.dh; ++y) {
                  const auto* r = dst.view().row<const unsigned char>(y);
                  out.insert(out.end(), r, r + bytes);
                }
                return out;
              };
              if (want.size() <= i) {
                want.push_back(run(scalar));
                cpu::simd::simd_force_target(current);
              }
              ASSERT_TRUE(run(current) == want[i])
                  << name << ": " << to_string(ip) << " " << to_string(t) << " x" << ch << " "
                  << cs.sw << "x" << cs.sh << " -> " << cs.dw << "x" << cs.dh << " border "
                  << static_cast<int>(b) << " differs from SCALAR's";
              ++i;
            }
  });
}

}  // namespace
}  // namespace texcv
