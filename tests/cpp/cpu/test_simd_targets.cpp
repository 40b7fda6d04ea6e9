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
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "common/test_support.hpp"
#include "cpu/on_every_simd_target.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/pow_rounded.hpp"
#include "src/cpu/simd.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"

namespace texcv {
namespace {

// Bytes that end where a page without access begins: reading one byte past them faults (the u8
// gathers' 32-bit reads must stay inside the image).
class GuardedBytes {
 public:
  explicit GuardedBytes(std::size_t n) : n_(n) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    span_ = (n + page - 1) / page * page + page;
    void* m = mmap(nullptr, span_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::runtime_error("GuardedBytes: mmap failed");
    base_ = static_cast<unsigned char*>(m);
    if (mprotect(base_ + span_ - page, page, PROT_NONE) != 0)
      throw std::runtime_error("GuardedBytes: mprotect failed");
  }
  ~GuardedBytes() { munmap(base_, span_); }
  GuardedBytes(const GuardedBytes&) = delete;
  GuardedBytes& operator=(const GuardedBytes&) = delete;
  unsigned char* data() {
    return base_ + span_ - static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) - n_;
  }

 private:
  std::size_t n_, span_;
  unsigned char* base_;
};

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

// resize's nearest rows: d[x] = s[xi[x]] for pixels of 1, 2 and 4 bytes on every target, with
// columns in any order, repeated, and at the row's last pixels; the row ends where a page without
// access begins (the 1- and 2-byte pixels' 32-bit gathers must stay inside it). The tail the
// vectors leave is written here by the plain loop, as resize.cpp does.
TEST(SimdTargets, NearestGatherRowsCopyTheIndexedPixelsOnEveryTarget) {
  test::on_every_simd_target("nearest gather", [](const std::string& name) {
    for (std::size_t px : {1u, 2u, 4u})
      for (int sw : {1, 2, 3, 4, 5, 17, 64, 203})
        for (int w : {1, 7, 8, 9, 16, 17, 33, 64, 100}) {
          GuardedBytes mem(sw * px);
          std::uint32_t seed = static_cast<std::uint32_t>(sw * 131 + w * 7 + px);
          const auto next = [&] {
            seed = seed * 1664525u + 1013904223u;
            return seed >> 8;
          };
          for (std::size_t i = 0; i < sw * px; ++i)
            mem.data()[i] = static_cast<unsigned char>(next());
          for (int order = 0; order < 3; ++order) {
            std::vector<int> xi(static_cast<std::size_t>(w));
            for (int x = 0; x < w; ++x)
              xi[x] = order == 0   ? static_cast<int>(static_cast<long>(x) * sw / w)  // upscale
                      : order == 1 ? sw - 1 - x % sw                                  // the end
                                   : static_cast<int>(next() % static_cast<unsigned>(sw));
            std::vector<unsigned char> got(w * px, 0xA5);
            const int done = cpu::simd::gather_row(mem.data(), sw, xi.data(), got.data(), w, px);
            ASSERT_GE(done, 0);
            ASSERT_LE(done, w);
            for (int x = done; x < w; ++x)
              std::memcpy(&got[x * px], mem.data() + static_cast<std::size_t>(xi[x]) * px, px);
            for (int x = 0; x < w; ++x)
              ASSERT_EQ(
                  std::memcmp(&got[x * px], mem.data() + static_cast<std::size_t>(xi[x]) * px, px),
                  0)
                  << name << ": " << px << "-byte pixels, source width " << sw << ", width " << w
                  << ", order " << order << ", at " << x << " (vectors wrote " << done << ")";
          }
        }
  });
}

// resize's nearest rows by byte shuffles: d[x] = s[xi[x]] for the pixels the plan covers, on every
// target, for pixels of 1-16 bytes and nearest maps that enlarge (one load a block) and shrink
// (up to 4 loads a block; beyond, an empty plan), the source row ending where a page without
// access begins (the 16-byte loads must stay inside it); the plan's blocks are whole, leading,
// and stop before a load would pass the row's end.
TEST(SimdTargets, NearestShuffleRowsCopyTheIndexedPixelsOnEveryTarget) {
  test::on_every_simd_target("nearest shuffle", [](const std::string& name) {
    for (std::size_t px : {1u, 2u, 4u, 8u, 16u})
      for (int sw : {1, 2, 3, 5, 16, 17, 64, 203, 700})
        for (int w : {1, 16, 17, 33, 64, 100, 211, 345}) {
          GuardedBytes mem(sw * px);
          for (std::size_t i = 0; i < sw * px; ++i)
            mem.data()[i] = static_cast<unsigned char>(i * 37 + px);
          std::vector<int> xi(static_cast<std::size_t>(w));
          // floor((x + 0.5) * sw / w): nearest's map (it shrinks where w < sw).
          for (int x = 0; x < w; ++x) xi[x] = static_cast<int>((2L * x + 1) * sw / (2L * w));
          const cpu::simd::ShufflePlan plan = cpu::simd::shuffle_plan(xi.data(), w, sw, px);
          const int per = static_cast<int>(16 / px);
          ASSERT_GE(plan.loads, 1);
          ASSERT_LE(plan.loads, 4);
          ASSERT_EQ(plan.ctl.size(), plan.src.size() * 16 * plan.loads);
          ASSERT_LE(static_cast<int>(plan.src.size()) * per, w);
          for (int v : plan.src) ASSERT_LE(static_cast<std::size_t>(v) + 16 * plan.loads, sw * px);
          // A block of an enlarging map spans at most 16 bytes: one load, and a block at once
          // where the row has room for two loads; a 0.3x shrink of 1-byte pixels needs 4.
          if (w >= sw) {
            EXPECT_EQ(plan.loads, 1);
            if (sw * px >= 32 && w >= 2 * per) {
              EXPECT_GE(plan.src.size(), 1u) << "an enlarging map got no block";
            }
          }
          if (px == 1 && sw == 700 && w == 211) {
            EXPECT_EQ(plan.loads, 4);
            EXPECT_GE(plan.src.size(), 10u) << "a 0.3x shrink got few blocks";
          }
          std::vector<unsigned char> got(w * px, 0xA5);
          const int done = cpu::simd::shuffle_row(mem.data(), plan, got.data(), px);
          ASSERT_TRUE(done == 0 || done == static_cast<int>(plan.src.size()) * per) << name;
          for (int x = 0; x < done; ++x)
            ASSERT_EQ(
                std::memcmp(&got[x * px], mem.data() + static_cast<std::size_t>(xi[x]) * px, px), 0)
                << name << ": " << px << "-byte pixels, source width " << sw << ", width " << w
                << ", " << plan.loads << " loads a block, at " << x << " (shuffles wrote " << done
                << ")";
          for (std::size_t i = static_cast<std::size_t>(done) * px; i < got.size(); ++i)
            ASSERT_EQ(got[i], 0xA5) << name << ": written past the planned blocks";
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
// which runs `want` as cvt_color.cpp runs its plain loop.
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
// image: it ends where a page without access begins).
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
          GuardedBytes mem(pitch * (sh - 1) + sw * sizeof(T));  // ends at the image
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

// remap's bilinear rows: every pixel bit for bit sample_linear<float> at the maps' positions
// (then saturate), on every target: u8, u16, f32; maps that stay inside, cross the edges, lie
// wholly outside (every border mode), hold NaN, infinities and huge values, whole and half
// positions; the last source rows, the image ending where a page without access begins (u8's
// 32-bit gathers must stay inside).
template <typename T>
void expect_remap_rows_match(const std::string& name) {
  namespace sd = texcv::detail;
  const int sw = 45, sh = 31, n = 70;
  const std::size_t pitch = sw * sizeof(T);
  GuardedBytes mem(pitch * sh);  // ends at the image's last pixel
  std::uint32_t seed = 99;
  const auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return seed;
  };
  for (int i = 0; i < sw * sh; ++i) {
    T v;
    if constexpr (sizeof(T) == 4)
      v = static_cast<float>(next() >> 8) / 65536.0f - 100.0f;
    else
      v = static_cast<T>(next() >> (sizeof(T) == 1 ? 24 : 16));
    std::memcpy(mem.data() + i * sizeof(T), &v, sizeof(T));
  }
  const sd::PitchedSource<T, 1> src{mem.data(), pitch, sw, sh};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (int kind = 0; kind < 6; ++kind)
    for (Border b :
         {Border::constant, Border::replicate, Border::reflect, Border::reflect101, Border::wrap}) {
      std::vector<float> mx(n), my(n);
      for (int x = 0; x < n; ++x) {
        const float u = static_cast<float>(next() >> 8) / 16777216.0f;  // [0, 1)
        switch (kind) {
          case 0:  // inside
            mx[x] = u * (sw - 1.001f), my[x] = static_cast<float>(x % (sh - 1)) + u * 0.99f;
            break;
          case 1:  // across the edges
            mx[x] = u * (sw + 4) - 2.0f, my[x] = static_cast<float>(x % (sh + 3)) - 1.5f;
            break;
          case 2:  // wholly outside
            mx[x] = -5.0f - u * 100.0f, my[x] = sh + 3.0f + u;
            break;
          case 3:  // the last rows, right end
            mx[x] = sw - 1.0f - u * 4.0f, my[x] = sh - 1.0f - u * 0.5f;
            break;
          case 4:  // whole and half positions
            mx[x] = static_cast<float>(x % sw) * 0.5f, my[x] = static_cast<float>(x % sh);
            break;
          default: {  // special values among ordinary ones
            const float sp[] = {nan, inf, -inf, 3e9f, -3e9f, 1e9f, 10.0f, 0.0f};
            mx[x] = sp[x % 8], my[x] = sp[(x / 8) % 8];
          }
        }
      }
      const float bv = sizeof(T) == 4 ? -7.5f : 99.0f;
      std::vector<T> got(n + 1, T(77));
      const cpu::simd::RemapRow r{mem.data(), pitch, sw, sh, mx.data(), my.data(), n, b, bv};
      if (!cpu::simd::remap_linear_row(r, got.data())) {
        ASSERT_EQ(name, "SCALAR") << "no vector path";
        return;
      }
      ASSERT_EQ(static_cast<double>(got[n]), 77.0) << name << ": wrote past n";
      for (int x = 0; x < n; ++x) {
        float v;
        sd::sample_linear<1>(src, mx[x], my[x], b, &bv, &v);
        const T want = sd::saturate<T>(v);
        ASSERT_EQ(std::memcmp(&got[x], &want, sizeof(T)), 0)
            << name << ": " << sizeof(T) << "-byte, kind " << kind << ", border "
            << static_cast<int>(b) << ", at " << x << " (" << mx[x] << ", " << my[x]
            << "): " << static_cast<double>(got[x]) << " against " << static_cast<double>(want);
      }
    }
}

TEST(SimdTargets, RemapLinearRowsAreThePlainLoopOnEveryTarget) {
  test::on_every_simd_target("remap linear rows", [](const std::string& name) {
    expect_remap_rows_match<std::uint8_t>(name);
    expect_remap_rows_match<std::uint16_t>(name);
    expect_remap_rows_match<float>(name);
  });
}

TEST(SimdTargets, WarpLinearRowsAreThePlainLoopOnEveryTarget) {
  test::on_every_simd_target("warp linear rows", [](const std::string& name) {
    expect_warp_rows_match<std::uint8_t>(name);
    expect_warp_rows_match<std::uint16_t>(name);
    expect_warp_rows_match<float>(name);
  });
}

// resize's two passes (simd::taps_row, simd::combine_rows): every target's output bit for bit the
// reference target's (reference_simd_target: SCALAR's plain loops where compiled in;
// GeometryCpu.TwoPassResizeIsThePerPixelSamplerBitForBit holds the best target to the per-pixel
// sampler): linear, cubic, area enlarging; u8, u16, f32 x 1, 3, 4
// channels; constant and reflect borders; enlarging and shrinking (one channel's shrinks by
// simd::TapBlocks where a plan fits).
TEST(SimdTargets, ResizeTwoPassSameOnEveryTarget) {
  const int scalar = test::reference_simd_target();
  struct Case {
    int sw, sh, dw, dh;
  };
  // The last three shrink rows wide enough for simd::TapBlocks' groups (one channel: u8 one
  // load a group at 0.32, u16 two, f32 four; 0.14 and 0.57 other load counts).
  const Case cases[] = {{101, 19, 173, 33}, {101, 19, 31, 7}, {40, 12, 97, 5},
                        {300, 9, 97, 4},    {300, 9, 41, 4},  {300, 9, 170, 5}};
  std::vector<std::vector<unsigned char>> want;
  test::on_every_simd_target("resize two passes", [&](const std::string& name) {
    ASSERT_GE(scalar, 0) << "no target to compare with";
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
                  << static_cast<int>(b) << " differs from " << cpu::simd::simd_target_name(scalar)
                  << "'s";
              ++i;
            }
  });
}

// erode/dilate's row min/max: out[k] = b < a ? b : a (max: b > a ? b : a) on every target, out
// aliasing a or not, lengths around the vector sizes; f32 with NaN in either operand and signed
// zeros (the comparison decides: x86's minps would return b for a NaN).
template <typename T>
void expect_pick_rows_match(const std::string& name) {
  std::uint32_t seed = 5;
  for (int n : {1, 15, 16, 17, 63, 64, 65, 200})
    for (bool max : {false, true})
      for (bool alias : {false, true}) {
        std::vector<T> a(n), b(n), out(n + 1, T(7));
        for (int k = 0; k < n; ++k) {
          seed = seed * 1664525u + 1013904223u;
          if constexpr (sizeof(T) == 4) {
            const float sp[] = {std::numeric_limits<float>::quiet_NaN(), 0.0f, -0.0f, 1.5f, -2.0f};
            a[k] = sp[seed % 5];
            b[k] = sp[(seed >> 8) % 5];
          } else {
            a[k] = static_cast<T>(seed >> 16);
            b[k] = static_cast<T>(seed >> 4);
          }
        }
        const std::vector<T> a0 = a;
        T* o = alias ? a.data() : out.data();
        if (!cpu::simd::pick_rows(a.data(), b.data(), o, n, max)) {
          // Shorter than a vector (up to 64 u8 lanes): the plain loop; 200 fills one everywhere.
          ASSERT_TRUE(n < 200 || name == "SCALAR") << name << ": no vector path at " << n;
          continue;
        }
        if (!alias) {
          ASSERT_EQ(static_cast<double>(out[n]), 7.0) << name << ": wrote past n";
        }
        for (int k = 0; k < n; ++k) {
          const T want = max ? (b[k] > a0[k] ? b[k] : a0[k]) : (b[k] < a0[k] ? b[k] : a0[k]);
          ASSERT_EQ(std::memcmp(&o[k], &want, sizeof(T)), 0)
              << name << ": " << sizeof(T) << "-byte " << (max ? "max" : "min") << " n " << n
              << (alias ? " aliased" : "") << " at " << k;
        }
      }
}

TEST(SimdTargets, PickRowsAreMorphologysPickOnEveryTarget) {
  test::on_every_simd_target("morphology pick rows", [](const std::string& name) {
    expect_pick_rows_match<std::uint8_t>(name);
    expect_pick_rows_match<std::uint16_t>(name);
    expect_pick_rows_match<float>(name);
  });
}

// unsharp_mask's row combination: unsharp_mask.cpp's plain formula bit for bit on every target
// (|diff| >= threshold picks the sharpened, saturated value, else the source element): u8, u16,
// f32 with NaN, infinities and signed zeros; thresholds 0 and 3.5, amounts 0.5, 2 and -1.
template <typename T>
void expect_unsharp_rows_match(const std::string& name) {
  std::uint32_t seed = 3;
  const int n = 203;
  std::vector<T> s(n), b(n);
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    if constexpr (sizeof(T) == 4) {
      const float sp[] = {std::numeric_limits<float>::quiet_NaN(), 0.0f, -0.0f,
                          std::numeric_limits<float>::infinity(), 1.25f};
      s[i] = i % 7 == 0 ? sp[(seed >> 3) % 5] : static_cast<float>(seed >> 20) / 7.0f;
      b[i] = i % 11 == 0 ? sp[(seed >> 9) % 5] : static_cast<float>((seed >> 8) & 4095) / 7.0f;
    } else {
      s[i] = static_cast<T>(seed >> (sizeof(T) == 1 ? 24 : 16));
      b[i] = static_cast<T>(s[i] + static_cast<int>((seed >> 4) % 9) - 4);  // close: the threshold
    }
  }
  for (float threshold : {0.0f, 3.5f})
    for (float amount : {0.5f, 2.0f, -1.0f}) {
      std::vector<T> o(n + 1, T(7));
      if (!cpu::simd::unsharp_row(s.data(), b.data(), o.data(), n, amount, threshold)) {
        ASSERT_EQ(name, "SCALAR") << "no vector path";
        return;
      }
      ASSERT_EQ(static_cast<double>(o[n]), 7.0) << name << ": wrote past n";
      for (int i = 0; i < n; ++i) {
        const float v = static_cast<float>(s[i]);
        const float diff = v - static_cast<float>(b[i]);
        const float mag = diff < 0.0f ? -diff : diff;
        const T want = mag >= threshold ? texcv::detail::saturate<T>(v + amount * diff) : s[i];
        ASSERT_EQ(std::memcmp(&o[i], &want, sizeof(T)), 0)
            << name << ": " << sizeof(T) << "-byte, threshold " << threshold << ", amount "
            << amount << ", at " << i << ": " << static_cast<double>(o[i]) << " against "
            << static_cast<double>(want);
      }
    }
}

TEST(SimdTargets, UnsharpRowsAreThePlainFormulaOnEveryTarget) {
  test::on_every_simd_target("unsharp rows", [](const std::string& name) {
    expect_unsharp_rows_match<std::uint8_t>(name);
    expect_unsharp_rows_match<std::uint16_t>(name);
    expect_unsharp_rows_match<float>(name);
  });
}

// The filters' output rows: detail::saturate(acc * scale + delta) bit for bit on every target:
// halves (ties to even), values beyond the type's range, NaN, infinities, signed zeros.
template <typename T>
void expect_store_rows_match(const std::string& name) {
  const int n = 203;
  std::vector<float> acc(n);
  std::uint32_t seed = 8;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    const float sp[] = {std::numeric_limits<float>::quiet_NaN(),
                        std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity(),
                        -0.0f,
                        0.5f,
                        1.5f,
                        254.5f,
                        255.5f,
                        65534.5f,
                        70000.0f,
                        -3.0f};
    acc[i] = i % 3 == 0 ? sp[(seed >> 5) % 11] : static_cast<float>(seed >> 15) / 64.0f - 50.0f;
  }
  for (auto [scale, delta] :
       {std::pair{1.0f, 0.0f}, std::pair{0.2f, 0.5f}, std::pair{3.0f, -7.25f}}) {
    std::vector<T> d(n + 1, T(7));
    if (!cpu::simd::scaled_store_row(acc.data(), n, scale, delta, d.data())) {
      ASSERT_EQ(name, "SCALAR") << "no vector path";
      return;
    }
    ASSERT_EQ(static_cast<double>(d[n]), 7.0) << name << ": wrote past n";
    for (int i = 0; i < n; ++i) {
      const T want = texcv::detail::saturate<T>(acc[i] * scale + delta);
      ASSERT_EQ(std::memcmp(&d[i], &want, sizeof(T)), 0)
          << name << ": " << sizeof(T) << "-byte, scale " << scale << ", at " << i << " (" << acc[i]
          << "): " << static_cast<double>(d[i]) << " against " << static_cast<double>(want);
    }
  }
}

TEST(SimdTargets, FilterStoreRowsSaturateOnEveryTarget) {
  test::on_every_simd_target("filter store rows", [](const std::string& name) {
    expect_store_rows_match<std::uint8_t>(name);
    expect_store_rows_match<std::uint16_t>(name);
    expect_store_rows_match<float>(name);
  });
}

// bilateral_filter of u8 (simd::bilateral_row): every target's output bit for bit the reference
// target's (reference_simd_target: SCALAR's plain per-pixel loop where compiled in; the OpenCV and
// CUDA tests hold the best target): 1 and 3 channels,
// widths around the vector sizes, two diameters and colour sigmas, constant and reflect101
// borders.
TEST(SimdTargets, BilateralU8SameOnEveryTarget) {
  const int scalar = test::reference_simd_target();
  std::vector<std::vector<unsigned char>> want;
  test::on_every_simd_target("bilateral u8", [&](const std::string& name) {
    ASSERT_GE(scalar, 0) << "no target to compare with";
    int current = -1;
    for (int k = 0; k < cpu::simd::simd_target_count(); ++k)
      if (name == cpu::simd::simd_target_name(k)) current = k;
    std::size_t i = 0;
    for (int ch : {1, 3})
      for (int w : {17, 40, 71})
        for (auto [d, sc] : {std::pair{5, 20.0}, std::pair{9, 75.0}})
          for (Border b : {Border::constant, Border::reflect101}) {
            const Image src = test::random_image(w, 13, ch, ElemType::u8, w * 3u + ch);
            Image dst(w, 13, ch, ElemType::u8);
            BilateralParams p;
            p.d = d;
            p.sigma_color = sc;
            p.sigma_space = 3.0;
            p.border.border = b;
            p.border.value = {40, 90, 200, 0};
            const auto run = [&](int target) {
              cpu::simd::simd_force_target(target);
              test::poison(dst.view());
              bilateral_filter(src, dst, p);
              std::vector<unsigned char> out;
              for (int y = 0; y < 13; ++y) {
                const auto* r = dst.view().row<const unsigned char>(y);
                out.insert(out.end(), r, r + static_cast<std::size_t>(w) * ch);
              }
              return out;
            };
            if (want.size() <= i) {
              want.push_back(run(scalar));
              cpu::simd::simd_force_target(current);
            }
            ASSERT_TRUE(run(current) == want[i])
                << name << ": x" << ch << " width " << w << " d " << d << " border "
                << static_cast<int>(b) << " differs from " << cpu::simd::simd_target_name(scalar)
                << "'s";
            ++i;
          }
  });
}

// convolve's one-pass rows: 0 + kv[0] * src[0][i] + ... in order, then saturate(v * scale +
// delta), bit for bit on every target: no taps, one, nine (a 3x3 kernel's rows), lengths around
// the vector sizes, infinities and NaN in the data.
template <typename T>
void expect_taps_store_match(const std::string& name) {
  const int maxn = 203;
  std::vector<std::vector<float>> rows(9, std::vector<float>(maxn));
  std::uint32_t seed = 21;
  for (auto& r : rows)
    for (float& v : r) {
      seed = seed * 1664525u + 1013904223u;
      v = seed % 97 == 0 ? std::numeric_limits<float>::infinity()
                         : static_cast<float>(seed >> 16) / 300.0f - 20.0f;
    }
  rows[4][50] = std::numeric_limits<float>::quiet_NaN();
  const float kv[] = {0.2f, 0.4f, 0.2f, -1.0f / 3.0f, 1.0f, 0.125f, -0.2f, 0.4f, -0.2f};
  std::vector<const float*> src(9);
  for (int t = 0; t < 9; ++t) src[t] = rows[t].data();
  for (int taps : {0, 1, 9})
    for (int n : {16, 17, 63, 64, 65, 203}) {
      std::vector<T> d(n + 1, T(7));
      if (!cpu::simd::filter_taps_store(src.data(), kv, taps, n, 1.5f, 0.25f, d.data())) {
        ASSERT_TRUE(name == "SCALAR") << name << ": no vector path at " << n;
        continue;
      }
      ASSERT_EQ(static_cast<double>(d[n]), 7.0) << name << ": wrote past n";
      for (int i = 0; i < n; ++i) {
        float v = 0.0f;
        for (int t = 0; t < taps; ++t) v += kv[t] * rows[t][i];
        const T want = texcv::detail::saturate<T>(v * 1.5f + 0.25f);
        ASSERT_EQ(std::memcmp(&d[i], &want, sizeof(T)), 0)
            << name << ": " << sizeof(T) << "-byte, " << taps << " taps, n " << n << ", at " << i;
      }
    }
}

TEST(SimdTargets, ConvolveRowsInOnePassOnEveryTarget) {
  test::on_every_simd_target("convolve one-pass rows", [](const std::string& name) {
    expect_taps_store_match<std::uint8_t>(name);
    expect_taps_store_match<std::uint16_t>(name);
    expect_taps_store_match<float>(name);
  });
}

// The warps' bicubic rows of u8 images, 1, 3 and 4 channels: every pixel bit for bit
// sample_cubic at the map's double position, then saturate, on every target; the maps and
// borders of the bilinear test, the image ending where a page without access begins.
void expect_warp_cubic_rows_match(const std::string& name, int ch) {
  namespace sd = texcv::detail;
  const double c30 = std::cos(0.5235987755982988), s30 = std::sin(0.5235987755982988);
  const double maps[][6] = {{c30, s30, -20.3, -s30, c30, 40.7}, {c30, -s30, 31.25, s30, c30, 2.5},
                            {0.013, 0.0, 3.1, 0.0, 0.021, 1.7}, {1.0, 0.0, 0.3, 9.5, 0.0, 0.6},
                            {1.0, 1e-7, 0.125, 0.0, 1.0, 51.9}, {1.0, 0.0, 62.6, 0.0, 1.0, 51.5},
                            {1.0, 0.0, -0.5, 0.0, 1.0, 52.5}};  // last taps: the image's end
  const int sw = 67, sh = 55;
  const std::size_t pitch = static_cast<std::size_t>(sw) * ch;
  GuardedBytes mem(pitch * sh);
  std::uint32_t seed = 4u + ch;
  for (std::size_t i = 0; i < pitch * sh; ++i) {
    seed = seed * 1664525u + 1013904223u;
    mem.data()[i] = static_cast<unsigned char>(seed >> 24);
  }
  const float bv[4] = {99.0f, 3.0f, 250.0f, 17.0f};
  for (const auto& m : maps)
    for (Border b : {Border::constant, Border::replicate, Border::reflect101, Border::wrap})
      for (int y : {0, 3, 40, 54}) {
        const int x0 = 2, x1 = 66;
        std::vector<std::uint8_t> got(static_cast<std::size_t>(x1 + 1) * ch, 77);
        cpu::simd::WarpRow r{mem.data(), pitch, sw, sh, m, false, y, x0, x1, b, bv[0]};
        r.border_values = bv;
        if (!cpu::simd::warp_cubic_row(r, ch, got.data())) {
          ASSERT_EQ(name, "SCALAR") << "no vector path";
          return;
        }
        ASSERT_EQ(got[static_cast<std::size_t>(x1) * ch], 77) << name << ": wrote past x1";
        for (int x = x0; x < x1; ++x) {
          double sx, sy;
          sd::AffineMap{{m[0], m[1], m[2], m[3], m[4], m[5]}}(x, y, sx, sy);
          float v[4];
          if (ch == 1)
            sd::sample_cubic<1>(sd::PitchedSource<std::uint8_t, 1>{mem.data(), pitch, sw, sh}, sx,
                                sy, b, bv, v);
          if (ch == 3)
            sd::sample_cubic<3>(sd::PitchedSource<std::uint8_t, 3>{mem.data(), pitch, sw, sh}, sx,
                                sy, b, bv, v);
          if (ch == 4)
            sd::sample_cubic<4>(sd::PitchedSource<std::uint8_t, 4>{mem.data(), pitch, sw, sh}, sx,
                                sy, b, bv, v);
          for (int c = 0; c < ch; ++c)
            ASSERT_EQ(got[static_cast<std::size_t>(x) * ch + c], sd::saturate<std::uint8_t>(v[c]))
                << name << ": x" << ch << " map " << (&m - maps) << " border "
                << static_cast<int>(b) << " at " << x << "," << y << "," << c;
        }
      }
}

TEST(SimdTargets, WarpCubicRowsAreThePlainLoopOnEveryTarget) {
  test::on_every_simd_target("warp cubic rows", [](const std::string& name) {
    for (int ch : {1, 3, 4}) expect_warp_cubic_rows_match(name, ch);
  });
}

// convert and normalize rows: px_convert (saturate(float(s) * a + b)) bit for bit on every
// target, for the pairs of types simd::convert_row takes; f32 sources with NaN, infinities,
// signed zeros and ties.
template <typename S, typename D>
void expect_convert_rows_match(const std::string& name) {
  const int n = 203;
  std::vector<S> s(n);
  std::uint32_t seed = 77;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    if constexpr (sizeof(S) == 4) {
      const float sp[] = {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(),
                          -0.0f,
                          0.5f,
                          254.5f,
                          1e9f};
      s[i] = i % 4 == 0 ? sp[(seed >> 7) % 6] : static_cast<float>(seed >> 12) / 4096.0f - 100.0f;
    } else {
      s[i] = static_cast<S>(seed >> (sizeof(S) == 1 ? 24 : 16));
    }
  }
  for (auto [a, b] : {std::pair{1.0f, 0.0f}, std::pair{255.0f, 0.5f}, std::pair{-0.75f, 300.0f}}) {
    std::vector<D> o(n + 1, D(7));
    if (!cpu::simd::convert_row(s.data(), n, a, b, o.data())) {
      ASSERT_EQ(name, "SCALAR") << "no vector path";
      return;
    }
    ASSERT_EQ(static_cast<double>(o[n]), 7.0) << name << ": wrote past n";
    for (int i = 0; i < n; ++i) {
      const D want = texcv::detail::px_convert<D>(s[i], a, b);
      ASSERT_EQ(std::memcmp(&o[i], &want, sizeof(D)), 0)
          << name << ": " << sizeof(S) << " -> " << sizeof(D) << " bytes, a " << a << ", at " << i
          << " (" << static_cast<double>(s[i]) << "): " << static_cast<double>(o[i]) << " against "
          << static_cast<double>(want);
    }
  }
}

TEST(SimdTargets, ConvertRowsArePxConvertOnEveryTarget) {
  test::on_every_simd_target("convert rows", [](const std::string& name) {
    expect_convert_rows_match<std::uint8_t, std::uint8_t>(name);
    expect_convert_rows_match<std::uint16_t, std::uint16_t>(name);
    expect_convert_rows_match<float, std::uint8_t>(name);
    expect_convert_rows_match<float, std::uint16_t>(name);
    expect_convert_rows_match<float, float>(name);
  });
}

// gamma on f32: |x|^g rounded to the nearest float. Checked against an independent reference,
// powl's value rounded to float (exact but for values within about 2^-63 of a midpoint, far
// rarer than the cases here), element by element through pow_rounded (the plain loop), and
// through gamma_row on every target, bit for bit. The random values include some whose power
// lies within the margin of a midpoint of two floats (the slow path); this is counted, so the
// test keeps covering it.
TEST(SimdTargets, GammaF32RowsArePowRoundedOnEveryTarget) {
  const float inf = std::numeric_limits<float>::infinity();
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> src;
  std::uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  for (int i = 0; i < 60000; ++i) {
    const float u = static_cast<float>(next() >> 8) / 16777216.0f;  // [0, 1)
    src.push_back((next() & 1 ? -8.0f : 8.0f) * u);
  }
  for (float e : {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, qnan, -qnan, 1e-40f, -3e-45f, 1e-30f, 3e38f,
                  -3e38f, 0x1p60f, 0x1p-60f, 0.5f, 2.0f, 1.0f + 0x1p-12f})
    src.push_back(e);
  // Magnitudes over the whole float range (2^-149 to 2^127), for the table-driven log2's
  // exponent and every table entry.
  for (int i = 0; i < 8000; ++i) {
    const std::uint32_t b = 0x00000001u + next() % 0x7F000000u;
    float f;
    std::memcpy(&f, &b, 4);
    src.push_back(i & 1 ? -f : f);
  }
  for (int i = 0; i < 37; ++i) src.push_back(static_cast<float>(i) * 0.25f);  // a ragged tail
  const int n = static_cast<int>(src.size());
  auto bits = [](float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  // 0.1 to 64: the vectors' table-driven log2 and exp2 (64 its limit); 100: Highway's Log and
  // Exp.
  for (float g : {0.45f, 1.0f, 2.2f, 2.0f, 7.3f, 0.1f, 64.0f, 100.0f}) {
    SCOPED_TRACE("gamma " + std::to_string(g));
    std::vector<float> plain(n);
    int near_midpoint = 0;
    for (int i = 0; i < n; ++i) {
      const float ax = std::fabs(src[i]);
      plain[i] = std::copysign(cpu::detail::pow_rounded(ax, g), src[i]);
      if (std::isnan(ax)) {
        ASSERT_EQ(bits(plain[i]), bits(src[i])) << i;
        continue;
      }
      const long double exact = std::pow(static_cast<long double>(ax), static_cast<long double>(g));
      const float want = std::copysign(static_cast<float>(exact), src[i]);
      ASSERT_EQ(bits(plain[i]), bits(want)) << "x " << src[i] << " (element " << i << ")";
      // The float below and above the exact value; near_midpoint: within the margin of theirs.
      const float f = static_cast<float>(exact);
      if (std::isfinite(f) && f > 0x1p-126f) {
        const long double other =
            exact < static_cast<long double>(f) ? std::nextafter(f, 0.0f) : std::nextafter(f, inf);
        const long double mid = (static_cast<long double>(f) + other) / 2;
        if (std::fabs(exact - mid) < exact * static_cast<long double>(cpu::detail::kPowMargin))
          ++near_midpoint;
      }
    }
    if (g != 1.0f) {  // (x^1 is x: never near a midpoint)
      EXPECT_GT(near_midpoint, 0) << "no value took the slow path; the test lost its coverage";
    }
    test::on_every_simd_target("gamma f32 rows", [&](const std::string& name) {
      for (int len : {n, 5, 1}) {
        std::vector<float> out(len, -123.0f);
        if (!cpu::simd::gamma_row(src.data(), out.data(), len, g))
          cpu::detail::gamma_plain(src.data(), out.data(), len, g);
        for (int i = 0; i < len; ++i)
          ASSERT_EQ(bits(out[i]), bits(plain[i]))
              << name << ", x " << src[i] << " (element " << i << " of " << len << ")";
      }
    });
  }
}

}  // namespace
}  // namespace texcv
