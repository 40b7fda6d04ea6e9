// resize on the CUDA backend against the CPU backend on every access path, whole images and
// sub-images (bounds: cuda/geometry_test_util.hpp): the sampling grid, the factor form, and area
// interpolation shrinking (averaging), enlarging and mixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/geometry_test_util.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

namespace texcv::geometry_cuda_test {
namespace {

TEST_P(GeometryCuda, ResizeMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  struct Shape {
    int sw, sh, dw, dh;
  };
  for (const Shape sh : {Shape{kBigW, kBigH, kSmallW, kSmallH},
                         Shape{kSmallW, kSmallH, kBigW, kBigH}, Shape{kBigW, kBigH, 50, 34}}) {
    const Image src = random_image(sh.sw, sh.sh, k.channels, k.type, 11 + sh.dw);
    const detail::ResizeAxis ax{static_cast<float>(static_cast<double>(sh.sw) / sh.dw), false};
    const detail::ResizeAxis ay{static_cast<float>(static_cast<double>(sh.sh) / sh.dh), false};
    const CoordFn coord = [=](int x, int y, float& sx, float& sy) {
      sx = ax(x);
      sy = ay(y);
    };
    const Dev in_image = upload(src, Layout::image), in_roi = upload(src, Layout::roi);
    for (const Sampling& s : sampling_grid(k.type, k.channels)) {
      ResizeParams p;
      p.interp = s.interp;
      p.border = s.border;
      p.border_value = s.border_value;
      p.precision = s.precision;
      p.path = s.path;
      Image want(sh.dw, sh.dh, k.channels, k.type);
      texcv::resize(src, want, p);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev out = device_image(sh.dw, sh.dh, k.channels, k.type, l, 1, 2);
        texcv::resize(l == Layout::image ? in_image.view : in_roi.view, out.view, p);
        expect_close(std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                         std::to_string(sh.dw) + "x" + std::to_string(sh.dh) + " " + describe(s) +
                         " " + to_string(l),
                     out, want, bound(s, src, coord));
      }
    }
  }
}

// resize's factor form (ResizeParams::fx/fy, as cv::resize(src, dst, Size(), fx, fy)) on every
// path, whole images and sub-images. Odd sizes (ties at 0.5: 101 * 0.5 = 50.5 -> 50, 67 * 0.5 =
// 33.5 -> 34); area shrinking by more than 3 (0.3) takes the per-pixel area kernel, by less the
// separable one.
TEST_P(GeometryCuda, ResizeFactorsMatchCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  constexpr double kFactors[][2] = {{0.5, 0.5}, {0.3, 0.7}, {1.5, 2.5}, {0.5, 1.7}, {1.3, 0.45}};
  const Image src = random_image(101, 67, k.channels, k.type, 29);
  const Dev in_image = upload(src.view(), Layout::image), in_roi = upload(src.view(), Layout::roi);
  for (const auto& f : kFactors) {
    const Rect r = resized_size(src.width(), src.height(), f[0], f[1]);
    // The factor form's coordinates: (x + 0.5) / fx - 0.5 (ResizeAxis with scale 1 / fx).
    const detail::ResizeAxis ax{static_cast<float>(1.0 / f[0]), false};
    const detail::ResizeAxis ay{static_cast<float>(1.0 / f[1]), false};
    const CoordFn coord = [=](int x, int y, float& sx, float& sy) {
      sx = ax(x);
      sy = ay(y);
    };
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      for (Path path : {Path::global, Path::texture, Path::texture_filter, Path::automatic}) {
        if (path == Path::texture && k.channels == 3) continue;  // no 3-channel textures
        if (path == Path::texture_filter && (ip != Interp::linear || k.channels == 3)) continue;
        ResizeParams p;
        p.interp = ip;
        p.path = path;
        p.precision = path == Path::texture_filter ? Precision::fast
                      : path == Path::automatic    ? Precision::automatic
                                                   : Precision::exact;
        p.fx = f[0];
        p.fy = f[1];
        Image want(r.width, r.height, k.channels, k.type);
        texcv::resize(src, want, p);
        const Tol tol = ip == Interp::nearest ? identical()
                        : path == Path::texture_filter
                            ? fast_bound(src.view(), Border::replicate, {0, 0, 0, 0}, coord)
                            : exact_bound(k.type);
        for (Layout l : {Layout::image, Layout::roi}) {
          const Dev out = device_image(r.width, r.height, k.channels, k.type, l, 3, 1);
          texcv::resize(l == Layout::roi ? in_roi.view : in_image.view, out.view, p);
          expect_close("fx " + std::to_string(f[0]) + " fy " + std::to_string(f[1]) + " " +
                           to_string(ip) + " path " + to_string(path) + " " + to_string(l),
                       out, want, tol);
        }
      }
    }
  }
}

// resize to exactly half size on u8 and u16: the 16-byte chunk kernel (resize_half_fits:
// aligned whole images) and the general kernels (sub-images at odd offsets), linear and area, 1, 3
// and 4 channels, rows that end inside a chunk (37, 65 and 1000 pixels wide), the size form
// (source exactly twice the destination) and the factor form 0.5 on odd source sizes whose half
// rounds down (101 -> 50, 69 -> 34, 77 -> 38, 45 -> 22: round half to even, as cv::resize; the
// last column and row unused). Every result equals the CPU backend bit for bit, and the CPU's
// equals the 2x2 mean rounded half to even computed here; the outputs are poisoned first and
// nothing outside the destination is written. (A size form like 75x47 -> 37x23 scales by 75/37,
// not 2, and is not a half size: the first GPU run, 2fddf06, caught that in this test.)
TEST(ResizeHalfCuda, U8AndU16MatchTheCpuAndTheMeanBitForBit) {
  TEXCV_REQUIRE_GPU();
  struct Shape {
    int sw, sh, dw, dh;
    bool factor;
  };
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (int c : {1, 3, 4})
      for (const Shape sh : {Shape{64, 48, 32, 24, false}, Shape{74, 46, 37, 23, false},
                             Shape{130, 8, 65, 4, false}, Shape{2000, 6, 1000, 3, false},
                             Shape{101, 69, 50, 34, true}, Shape{77, 45, 38, 22, true}}) {
        const Image src = random_image(sh.sw, sh.sh, c, t, 7 * sh.sw + c);
        for (Interp ip : {Interp::linear, Interp::area})
          for (Path path : {Path::automatic, Path::global}) {
            ResizeParams p;
            p.interp = ip;
            p.path = path;
            if (sh.factor) p.fx = p.fy = 0.5;
            Image want(sh.dw, sh.dh, c, t);
            texcv::resize(src, want, p);
            const std::string what = std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                                     std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                                     std::to_string(sh.dw) + "x" + std::to_string(sh.dh) + " " +
                                     to_string(ip) + " path " + to_string(path);
            long off = 0;
            for (int y = 0; y < sh.dh; ++y)
              for (int x = 0; x < sh.dw; ++x)
                for (int k = 0; k < c; ++k) {
                  const auto v = static_cast<unsigned>(
                      test::at(src, 2 * x, 2 * y, k) + test::at(src, 2 * x + 1, 2 * y, k) +
                      test::at(src, 2 * x, 2 * y + 1, k) + test::at(src, 2 * x + 1, 2 * y + 1, k));
                  const unsigned q = v / 4, r = v % 4;  // half to even: 2 rounds to even q
                  const unsigned mean = r < 2 ? q : (r > 2 ? q + 1 : q + (q & 1));
                  off += test::at(want, x, y, k) != mean;
                }
            EXPECT_EQ(off, 0) << what << ": the CPU against the 2x2 mean";
            for (Layout l : {Layout::image, Layout::roi}) {
              const Dev in = upload(src, l);
              const Dev out = device_image(sh.dw, sh.dh, c, t, l, 1, 2);
              texcv::resize(in.view, out.view, p);
              expect_close(what + " " + to_string(l), out, want, identical());
            }
          }
      }
}

// resize to half size with Interp::nearest where the fixed-point step is exactly 2 (the
// half-size kernel on aligned images: source pixel (2x, 2y), one source row a chunk): u8, u16 and
// f32 (NaN and -0 among the values), 1, 3 and 4 channels, rows that end inside a thread's chunk,
// a 2x2 source, the factor form 0.5, whole images and sub-images (the general kernel). Every
// result is the source pixel (2x, 2y) and the CPU's, byte for byte; outputs poisoned first. (A
// source one pixel wider than twice the destination has another step, 2 + 1/dst: not this
// kernel's.)
TEST(ResizeHalfCuda, NearestPicksTheEvenPixelsAsTheCpu) {
  TEXCV_REQUIRE_GPU();
  struct Shape {
    int sw, sh, dw, dh;
    bool factor;
  };
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4})
      for (const Shape sh :
           {Shape{64, 48, 32, 24, false}, Shape{74, 46, 37, 23, false},
            Shape{2000, 6, 1000, 3, false}, Shape{2, 2, 1, 1, false}, Shape{130, 8, 65, 4, true}}) {
        Image src = random_image(sh.sw, sh.sh, c, t, 13 * sh.sw + c);
        if (t == ElemType::f32 && sh.sw >= 4) {
          float* r = src.view().row<float>(0);
          r[0] = std::numeric_limits<float>::quiet_NaN();
          r[2 * c] = -0.0f;
        }
        ResizeParams p;
        p.interp = Interp::nearest;
        if (sh.factor) p.fx = p.fy = 0.5;
        Image want(sh.dw, sh.dh, c, t);
        texcv::resize(src, want, p);
        const std::string what = std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                                 std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                                 std::to_string(sh.dw) + "x" + std::to_string(sh.dh);
        const std::size_t px = static_cast<std::size_t>(c) * elem_size(t);
        long off = 0;
        for (int y = 0; y < sh.dh; ++y)
          for (int x = 0; x < sh.dw; ++x)
            off += std::memcmp(want.view().row<unsigned char>(y) + x * px,
                               src.view().row<unsigned char>(2 * y) + 2 * x * px, px) != 0;
        EXPECT_EQ(off, 0) << what << ": the CPU against the source's even pixels";
        for (Layout l : {Layout::image, Layout::roi}) {
          const Dev in = upload(src, l);
          const Dev out = device_image(sh.dw, sh.dh, c, t, l, 1, 2);
          texcv::resize(in.view, out.view, p);
          expect_close(what + " " + to_string(l), out, want, identical());
        }
      }
}

// resize to exactly half size on f32 (linear and area, the half-size kernel on aligned images):
// the CPU's float operations in its order, so the same bits, -0 included (area's sums start from
// 0 and turn a -0 block into +0, linear keeps it), NaN, infinities, FLT_MAX (whose halves add
// back to it) and subnormals (halving rounds them). 1, 3 and 4 channels, rows that end inside a
// thread's chunk, whole images and sub-images (the general kernels), outputs poisoned first.
TEST(ResizeHalfCuda, F32MatchesTheCpuBitForBit) {
  TEXCV_REQUIRE_GPU();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(),
                            3 * std::numeric_limits<float>::denorm_min(),
                            -5 * std::numeric_limits<float>::denorm_min()};
  struct Shape {
    int sw, sh, dw, dh;
  };
  for (int c : {1, 3, 4})
    for (const Shape sh : {Shape{64, 48, 32, 24}, Shape{74, 46, 37, 23}, Shape{2000, 6, 1000, 3},
                           Shape{101, 69, 50, 34}}) {
      Image src = random_image(sh.sw, sh.sh, c, ElemType::f32, 11 * sh.sw + c);
      std::mt19937 g(static_cast<std::uint32_t>(sh.sw + c));
      std::uniform_int_distribution<int> pick(0, 9), coin(0, 5);
      for (int y = 0; y < sh.sh; ++y) {
        float* r = src.view().row<float>(y);
        for (int k = 0; k < sh.sw * c; ++k)
          if (coin(g) == 0) r[k] = specials[pick(g)];
      }
      // A block of four -0: at exactly half size linear gives -0, area +0 (checked on the CPU
      // below; 101 x 69 -> 50 x 34 is not exactly half and takes a third column and row).
      for (int k = 0; k < c; ++k)
        for (int j = 0; j < 4; ++j) src.view().row<float>(j / 2)[(j % 2) * c + k] = -0.0f;
      for (Interp ip : {Interp::linear, Interp::area}) {
        ResizeParams p;
        p.interp = ip;
        Image want(sh.dw, sh.dh, c, ElemType::f32);
        texcv::resize(src, want, p);
        const std::string what = "f32 c" + std::to_string(c) + " " + std::to_string(sh.sw) + "x" +
                                 std::to_string(sh.sh) + " " + to_string(ip);
        if (2 * sh.dw == sh.sw && 2 * sh.dh == sh.sh) {  // the exact half: block (0, 0) alone
          EXPECT_EQ(std::signbit(want.view().row<float>(0)[0]), ip == Interp::linear) << what;
        }
        for (Layout l : {Layout::image, Layout::roi}) {
          const Dev in = upload(src, l);
          const Dev out = device_image(sh.dw, sh.dh, c, ElemType::f32, l, 1, 2);
          texcv::resize(in.view, out.view, p);
          const Image all = to_host(out.owner.view());
          const ImageView got = all.view().roi(out.rect);
          long bad = 0;
          for (int y = 0; y < sh.dh; ++y) {
            const auto* a = got.row<const unsigned char>(y);
            const auto* b = want.view().row<const unsigned char>(y);
            for (int k = 0; k < sh.dw * c; ++k) {
              float fa, fb;
              std::memcpy(&fa, a + 4 * k, 4);
              std::memcpy(&fb, b + 4 * k, 4);
              bad += std::memcmp(&fa, &fb, 4) != 0 && !(std::isnan(fa) && std::isnan(fb));
            }
          }
          EXPECT_EQ(bad, 0) << what << " " << to_string(l) << ": elements not bit-identical";
          EXPECT_EQ(test::written_outside(all.view(), out.rect), 0) << what << " " << to_string(l);
        }
      }
    }
}

// resize to exactly half size with cubic interpolation (the half-size cubic kernel: 1 and 4
// channels on aligned sources; 3 channels and sub-images take the general kernels): u8, u16 and
// f32, every border (the constant one with a value of its own), rows that end inside a thread's
// chunk, sources of 2 to 4 pixels (every thread at a row's ends), thread rows cut by the image's
// last row. Every element has the CPU's bits (f32 NaNs: any NaN); the f32 sources carry NaN,
// infinities and -0. Outputs poisoned first, nothing written outside the destination.
TEST(ResizeHalfCuda, CubicMatchesTheCpuBitForBit) {
  TEXCV_REQUIRE_GPU();
  struct Shape {
    int sw, sh, dw, dh;
  };
  const Border borders[] = {Border::constant, Border::replicate, Border::reflect,
                            Border::reflect101, Border::wrap};
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4})
      for (const Shape sh : {Shape{64, 48, 32, 24}, Shape{74, 46, 37, 23}, Shape{2000, 6, 1000, 3},
                             Shape{101, 69, 50, 34}, Shape{4, 4, 2, 2}, Shape{130, 38, 65, 19}}) {
        Image src = random_image(sh.sw, sh.sh, c, t, 13 * sh.sw + c);
        if (t == ElemType::f32) {
          const float sp[] = {std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(), -0.0f};
          for (int y = 0; y < sh.sh; y += 3)
            src.view().row<float>(y)[(7 * y) % (sh.sw * c)] = sp[y % 3];
        }
        for (Border b : borders) {
          ResizeParams p;
          p.interp = Interp::cubic;
          p.border = b;
          p.border_value = {7, 9, 11, 13};
          Image want(sh.dw, sh.dh, c, t);
          texcv::resize(src, want, p);
          const std::string what = std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                                   std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " " +
                                   to_string(b);
          for (Layout l : {Layout::image, Layout::roi}) {
            const Dev in = upload(src, l);
            const Dev out = device_image(sh.dw, sh.dh, c, t, l, 1, 2);
            texcv::resize(in.view, out.view, p);
            const Image all = to_host(out.owner.view());
            const ImageView got = all.view().roi(out.rect);
            const std::size_t es = elem_size(t);
            long bad = 0;
            for (int y = 0; y < sh.dh; ++y) {
              const auto* pa = got.row<const unsigned char>(y);
              const auto* pb = want.view().row<const unsigned char>(y);
              for (int k = 0; k < sh.dw * c; ++k) {
                if (std::memcmp(pa + es * k, pb + es * k, es) == 0) continue;
                if (t == ElemType::f32) {
                  float fa, fb;
                  std::memcpy(&fa, pa + es * k, 4);
                  std::memcpy(&fb, pb + es * k, 4);
                  if (std::isnan(fa) && std::isnan(fb)) continue;
                }
                ++bad;
              }
            }
            EXPECT_EQ(bad, 0) << what << " " << to_string(l) << ": elements not bit-identical";
            EXPECT_EQ(test::written_outside(all.view(), out.rect), 0)
                << what << " " << to_string(l);
          }
        }
      }
}

// resize to exactly twice the size on u8 and u16 with linear interpolation: the integer kernel
// (resize_double_fits: every border but constant) and the general kernels (constant border),
// 1, 3 and 4 channels, every border, rows that end inside a thread's chunk (37, 50 and 1000
// pixels wide), one- and two-pixel sources, the size form and the factor form 2, whole images
// and sub-images at odd offsets (unaligned stores). Every result equals the CPU backend bit for
// bit; the CPU's replicate results also equal (9a + 3b + 3c + d) / 16 rounded half to even,
// computed here from the source with clamped indices. Outputs are poisoned first.
TEST(ResizeDoubleCuda, U8AndU16MatchTheCpuAndTheWeightedSumBitForBit) {
  TEXCV_REQUIRE_GPU();
  struct Shape {
    int sw, sh;
    bool factor;
  };
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (int c : {1, 3, 4})
      for (const Shape sh : {Shape{37, 23, false}, Shape{1, 1, false}, Shape{2, 3, false},
                             Shape{50, 7, true}, Shape{1000, 5, false}}) {
        const Image src = random_image(sh.sw, sh.sh, c, t, 11 * sh.sw + c);
        const int dw = 2 * sh.sw, dh = 2 * sh.sh;
        for (Border b : {Border::replicate, Border::reflect, Border::reflect101, Border::wrap,
                         Border::constant}) {
          ResizeParams p;
          p.interp = Interp::linear;
          p.border = b;
          p.border_value = border_values(t);
          if (sh.factor) p.fx = p.fy = 2.0;
          Image want(dw, dh, c, t);
          texcv::resize(src, want, p);
          const std::string what = std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                                   std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " " +
                                   to_string(b);
          if (b == Border::replicate) {
            long off = 0;
            const auto px = [&](int x, int y, int k) {
              x = std::clamp(x, 0, sh.sw - 1);
              y = std::clamp(y, 0, sh.sh - 1);
              return static_cast<unsigned>(test::at(src, x, y, k));
            };
            for (int y = 0; y < dh; ++y)
              for (int x = 0; x < dw; ++x)
                for (int k = 0; k < c; ++k) {
                  // Output 2j takes j - 1 (1/4) and j (3/4); 2j + 1 takes j (3/4) and j + 1.
                  const int xa = x % 2 == 0 ? x / 2 - 1 : x / 2,
                            ya = y % 2 == 0 ? y / 2 - 1 : y / 2;
                  const unsigned wa = x % 2 == 0 ? 1 : 3, wya = y % 2 == 0 ? 1 : 3;
                  const unsigned v =
                      wya * (wa * px(xa, ya, k) + (4 - wa) * px(xa + 1, ya, k)) +
                      (4 - wya) * (wa * px(xa, ya + 1, k) + (4 - wa) * px(xa + 1, ya + 1, k));
                  const unsigned q = v / 16, r = v % 16;
                  const unsigned want_v = r < 8 ? q : (r > 8 ? q + 1 : q + (q & 1));
                  off += test::at(want, x, y, k) != want_v;
                }
            EXPECT_EQ(off, 0) << what << ": the CPU against the weighted sum";
          }
          for (Layout l : {Layout::image, Layout::roi}) {
            const Dev in = upload(src, l);
            const Dev out = device_image(dw, dh, c, t, l, 1, 2);
            texcv::resize(in.view, out.view, p);
            expect_close(what + " " + to_string(l), out, want, identical());
          }
        }
      }
}

struct AreaCase {
  ElemType type;
  int channels;
  Path path;
};

class ResizeAreaCuda : public testing::TestWithParam<AreaCase> {};

TEST_P(ResizeAreaCuda, MatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const AreaCase& k = GetParam();
  ResizeParams p;
  p.interp = Interp::area;
  p.path = k.path;
  p.precision = Precision::exact;
  struct Shape {
    int sw, sh, dw, dh;
  };
  // 2x integer shrink, non-integer shrink, enlarge, and mixed (one axis each way).
  for (const Shape sh :
       {Shape{74, 46, 37, 23}, Shape{kBigW, kBigH, kSmallW, kSmallH},
        Shape{kSmallW, kSmallH, kBigW, kBigH}, Shape{kBigW, kSmallH, kSmallW, kBigH}}) {
    for (Border b : {Border::replicate, Border::constant}) {
      p.border = b;
      p.border_value = border_values(k.type);
      const Image src = random_image(sh.sw, sh.sh, k.channels, k.type, 61 + sh.sw);
      Image want(sh.dw, sh.dh, k.channels, k.type);
      texcv::resize(src, want, p);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev in = upload(src, l);
        const Dev out = device_image(sh.dw, sh.dh, k.channels, k.type, l, 1, 2);
        texcv::resize(in.view, out.view, p);
        // exact bound: u8/u16 1 level, f32 relative 1e-5.
        expect_close(std::to_string(sh.sw) + "x" + std::to_string(sh.sh) + " -> " +
                         std::to_string(sh.dw) + "x" + std::to_string(sh.dh) + " " + to_string(b) +
                         " " + to_string(l),
                     out, want, exact_bound(k.type));
      }
    }
  }
}

std::vector<AreaCase> area_cases() {
  std::vector<AreaCase> v;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      v.push_back({t, c, Path::global});
      if (c != 3) v.push_back({t, c, Path::texture});
      v.push_back({t, c, Path::automatic});
    }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Grid, ResizeAreaCuda, testing::ValuesIn(area_cases()),
                         [](const testing::TestParamInfo<AreaCase>& info) {
                           return std::string(to_string(info.param.type)) + "_c" +
                                  std::to_string(info.param.channels) + "_" +
                                  to_string(info.param.path);
                         });

}  // namespace
}  // namespace texcv::geometry_cuda_test
