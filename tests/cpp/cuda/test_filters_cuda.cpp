// The linear filters on the CUDA backend against the CPU backend: IDENTICAL results for every op,
// element type (u8, u16, f32), channel count (1, 3, 4), border mode (the five, constant with a
// per-channel value), access path (global, shared, texture, automatic), several kernel sizes and
// anchors, and both destination types where f32 is allowed, on odd-sized random images that
// span several blocks' tiles (32 x 64 outputs) in both directions, with aligned whole images and
// with offset sub-views as source and destination. Both backends accumulate in float in the same
// order (kernel rows, then taps left to right, zero coefficients skipped; separable filters as a
// row pass into float then a column pass) and the library builds with --fmad=false /
// -ffp-contract=off, so no tolerance is needed. Device outputs are poisoned first; the frame around
// a sub-view destination must stay poisoned.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

constexpr int kW = 75, kH = 141;

using test::is_poison;

// op(src, dst, path): the operation with FilterBorder::path = path.
using Op = std::function<void(const ImageView& src, const ImageView& dst, Path path)>;

// TEXCV_TEST_SANITIZER_SUBSET=1 (bench/run_device.sh sets it for compute-sanitizer's racecheck,
// under which each launch costs about a tenth of a second and the whole matrix does not finish
// in 300 s): every kernel instantiation still runs (each type, channel count, path and case),
// but with two borders (constant and reflect101) instead of five, offset sub-views only, and
// no automatic path (it picks one of the others); and convolve's 31x31 case on a 40 x 36 corner
// of the source (it alone ran past 300 s under racecheck at 75 x 141, eighth session; 40 x 36
// still has blocks on every edge and the window wider than the image's half). Said on stdout,
// never silent.
bool sanitizer_subset() {
  static const bool on = [] {
    const char* e = std::getenv("TEXCV_TEST_SANITIZER_SUBSET");
    const bool set = e != nullptr && std::string(e) == "1";
    if (set)
      std::printf(
          "[ subset   ] TEXCV_TEST_SANITIZER_SUBSET=1: borders constant and reflect101, "
          "offset sub-views, no automatic path, convolve 31x31 on a 40 x 36 corner\n");
    return set;
  }();
  return on;
}

// The paths every case runs on: texture needs 1 or 4 channels.
std::vector<Path> paths_for(int channels) {
  if (sanitizer_subset()) {
    if (channels == 3) return {Path::global, Path::shared};
    return {Path::global, Path::shared, Path::texture};
  }
  if (channels == 3) return {Path::global, Path::shared, Path::automatic};
  return {Path::global, Path::shared, Path::texture, Path::automatic};
}

// Runs op on the CPU (host images) and on the GPU on every path in two layouts; the results must
// be identical.
void expect_same(const std::string& what, const Image& host, ElemType dst_type, const Op& op) {
  const int ch = host.channels(), kW = host.width(), kH = host.height();
  Image want(kW, kH, ch, dst_type);
  op(host, want, Path::automatic);
  for (const Path path : paths_for(ch))
    for (int layout : {0, 1}) {
      if (layout == 0 && sanitizer_subset()) continue;
      SCOPED_TRACE(what + " path " + to_string(path) +
                   (layout ? " (offset sub-views)" : " (whole images)"));
      // layout 1: the source at (3, 1) of a larger device image, the destination at (1, 1) of a
      // poisoned one (its pitch then also differs from the source's).
      const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = layout;
      Image dsrc_owner(kW + 2 * sx, kH + 2 * sy, ch, host.type(), Location::device);
      const ImageView dsrc = dsrc_owner.view().roi({sx, sy, kW, kH});
      texcv::copy(host, dsrc);
      Image dout(kW + 2 * f + 1, kH + 2 * f, ch, dst_type, Location::device);
      test::poison(dout);
      const ImageView inner = dout.view().roi({f, f, kW, kH});
      op(dsrc, inner, path);
      const Image all = test::to_host(dout);
      const ImageView got = all.view().roi({f, f, kW, kH});
      const test::Diff d = test::compare(got, want);
      EXPECT_EQ(d.count, 0) << d.describe();
      EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
      long outside = 0;
      for (int y = 0; y < all.height(); ++y)
        for (int x = 0; x < all.width(); ++x) {
          if (x >= f && x < f + kW && y >= f && y < f + kH) continue;
          for (int k = 0; k < ch; ++k)
            if (!is_poison(all.view(), x, y, k)) ++outside;
        }
      EXPECT_EQ(outside, 0) << "elements written outside the destination";
    }
}

// Random sources: u8/u16 over their whole range, f32 in [-0.5, 1.5).
Image source(ElemType t, int channels, std::uint32_t seed) {
  Image r = test::random_image(kW, kH, channels, t, seed);
  if (t != ElemType::f32) return r;
  Image out(kW, kH, channels, ElemType::f32);
  texcv::convert(r, out, 2.0, -0.5);
  return out;
}

const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
const int kChannels[] = {1, 3, 4};
const Border kBorders[] = {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                           Border::wrap};

FilterBorder border_of(Border b) {
  FilterBorder fb;
  fb.border = b;
  fb.value = {11.0, 250.0, 77.0, 130.0};
  return fb;
}

std::string name_of(ElemType t, int c, Border b, ElemType dt) {
  return std::string(to_string(t)) + " x" + std::to_string(c) + " " + to_string(b) + " -> " +
         to_string(dt);
}

// Random taps in [-1, 1) with every fourth one zero (the skipped coefficients).
std::vector<float> random_taps(int n, std::uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> k(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) k[i] = i % 4 == 1 ? 0.0f : u(g);
  return k;
}

// Calls f(src type, channels, border, seed) over the whole matrix, or over its rows of one
// source type (the same seeds as in the whole matrix).
template <class F>
void for_all(F&& f, std::optional<ElemType> only = std::nullopt) {
  std::uint32_t seed = 1000;
  for (ElemType t : kTypes)
    for (int c : kChannels)
      for (Border b : kBorders) {
        ++seed;
        if (only && t != *only) continue;
        if (sanitizer_subset() && b != Border::constant && b != Border::reflect101) continue;
        f(t, c, b, seed);
      }
}

TEST(FiltersCuda, SeparableFilterIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Case {
    int nx, ny, ax, ay;
    double delta;
  };
  // Centred, off-centre anchors, a 1-tap axis, and long kernels (31 taps).
  const Case cases[] = {{3, 3, -1, -1, 0.0},   {5, 1, 0, 0, 0.5},    {31, 5, 3, 4, -2.25},
                        {1, 31, 0, 30, 1.0},   {5, 5, -1, -1, 0.25}, {9, 9, -1, -1, 0.0},
                        {13, 13, -1, -1, 0.0}, {17, 17, -1, -1, 1.5}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (const Case& k : cases) {
      const std::vector<float> kx = random_taps(k.nx, seed * 7 + 1),
                               ky = random_taps(k.ny, seed * 7 + 2);
      SeparableParams p;
      p.anchor_x = k.ax;
      p.anchor_y = k.ay;
      p.delta = k.delta;
      p.border = border_of(b);
      for (ElemType dt : {t, ElemType::f32}) {
        expect_same("separable_filter " + std::to_string(k.nx) + "x" + std::to_string(k.ny) + " " +
                        name_of(t, c, b, dt),
                    src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      SeparableParams q = p;
                      q.border.path = path;
                      separable_filter(s, d, kx, ky, q);
                    });
        if (t == ElemType::f32) break;  // f32 -> f32 once
      }
    }
  });
}

TEST(FiltersCuda, GaussianBlurIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Fixed-table sizes (3, 5), a derived-sigma 31, and sizes derived from two sigmas.
  const GaussianParams cases[] = {{3, 3, 0.0, 0.0, {}},   {5, 3, 0.0, 0.0, {}},
                                  {31, 31, 0.0, 0.0, {}}, {0, 0, 1.3, 2.1, {}},
                                  {0, 0, 2.0, 2.0, {}},   {7, 7, 0.0, 0.0, {}}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (GaussianParams p : cases) {
      p.border = border_of(b);
      expect_same("gaussian_blur " + std::to_string(p.ksize_x) + "x" + std::to_string(p.ksize_y) +
                      " sigma " + std::to_string(p.sigma_x) + " " + name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    GaussianParams q = p;
                    q.border.path = path;
                    gaussian_blur(s, d, q);
                  });
    }
  });
}

TEST(FiltersCuda, BoxFilterIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Normalized, an unnormalized sum (saturates u8 and u16), and a long box with an anchor.
  const BoxParams cases[] = {{3, 3, true, -1, -1, {}},
                             {5, 1, false, -1, -1, {}},
                             {31, 5, true, 2, 1, {}},
                             {5, 5, true, -1, -1, {}},
                             {9, 9, false, -1, -1, {}}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (BoxParams p : cases) {
      p.border = border_of(b);
      expect_same("box_filter " + std::to_string(p.ksize_x) + "x" + std::to_string(p.ksize_y) +
                      (p.normalize ? " normalized " : " sum ") + name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    BoxParams q = p;
                    q.border.path = path;
                    box_filter(s, d, q);
                  });
    }
  });
}

// One test per source type: under racecheck the three together ran past 300 s (eighth session).
void convolve_identical_to_cpu(ElemType only) {
  struct Case {
    int w, h, ax, ay;
    double scale, delta;
  };
  const Case cases[] = {{3, 3, -1, -1, 1.0, 0.0},
                        {5, 5, 1, 3, 0.5, 1.25},
                        {31, 31, -1, -1, 1.0, -3.5},
                        {5, 5, -1, -1, 0.75, 2.0},
                        {3, 3, 0, 2, 1.0, 0.0}};
  for_all(
      [&](ElemType t, int c, Border b, std::uint32_t seed) {
        const Image whole = source(t, c, seed);
        Image corner(40, 36, c, t);
        texcv::copy(whole.view().roi({0, 0, 40, 36}), corner);
        for (const Case& k : cases) {
          const Image& src = sanitizer_subset() && k.w > 5 ? corner : whole;
          const Kernel kern{k.w, k.h, random_taps(k.w * k.h, seed * 5 + 3)};
          ConvolveParams p;
          p.anchor_x = k.ax;
          p.anchor_y = k.ay;
          p.scale = k.scale;
          p.delta = k.delta;
          p.border = border_of(b);
          for (ElemType dt : {t, ElemType::f32}) {
            expect_same("convolve " + std::to_string(k.w) + "x" + std::to_string(k.h) + " " +
                            name_of(t, c, b, dt),
                        src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                          ConvolveParams q = p;
                          q.border.path = path;
                          convolve(s, d, kern, q);
                        });
            if (t == ElemType::f32) break;  // f32 -> f32 once
          }
        }
      },
      only);
}

TEST(FiltersCuda, ConvolveU8IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::u8);
}
TEST(FiltersCuda, ConvolveU16IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::u16);
}
TEST(FiltersCuda, ConvolveF32IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  convolve_identical_to_cpu(ElemType::f32);
}

// The register kernels (3x3 and 5x5 2-D, separable with 3 to 17 equal taps) run the blocks
// whose window is inside the image in a launch without border code and the others in a second
// launch: images wide and tall enough to have interior blocks (a u8 block covers 512 x 16
// outputs, a 17-tap separable one 256 x 64) with edges on every side, per type and channels.
TEST(FiltersCuda, RegisterKernelsInteriorAndEdgeBlocksIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 7000;
  for (ElemType t : kTypes)
    for (int c : kChannels)
      for (Border b : {Border::constant, Border::reflect101}) {
        Image src = test::random_image(1109, 203, c, t, ++seed);
        if (t == ElemType::f32) {
          Image f(src.width(), src.height(), c, ElemType::f32);
          texcv::convert(src, f, 2.0 / 255.0, -0.5);
          src = std::move(f);
        }
        for (int n : {3, 5}) {
          const Kernel kern{n, n, random_taps(n * n, seed * 3 + static_cast<unsigned>(n))};
          expect_same("convolve " + std::to_string(n) + " " + name_of(t, c, b, t), src, t,
                      [&](const ImageView& s, const ImageView& d, Path path) {
                        ConvolveParams p;
                        p.border = border_of(b);
                        p.border.path = path;
                        convolve(s, d, kern, p);
                      });
        }
        for (int n : {3, 9, 17}) {
          const std::vector<float> kx = random_taps(n, seed * 7 + 1);
          const std::vector<float> ky = random_taps(n, seed * 7 + 2);
          expect_same("separable " + std::to_string(n) + " " + name_of(t, c, b, t), src, t,
                      [&](const ImageView& s, const ImageView& d, Path path) {
                        SeparableParams p;
                        p.border = border_of(b);
                        p.border.path = path;
                        separable_filter(s, d, kx, ky, p);
                      });
        }
      }
}

TEST(FiltersCuda, SharpenIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (double strength : {1.0, 0.35}) {
      expect_same("sharpen " + std::to_string(strength) + " " + name_of(t, c, b, t), src, t,
                  [&](const ImageView& s, const ImageView& d, Path path) {
                    FilterBorder fb = border_of(b);
                    fb.path = path;
                    sharpen(s, d, strength, fb);
                  });
    }
  });
}

TEST(FiltersCuda, DerivativesIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct SobelCase {
    int dx, dy, ksize;
    double scale, delta;
  };
  const SobelCase sobels[] = {
      {1, 0, 3, 1.0, 0.0}, {0, 1, 5, 0.25, 128.0}, {2, 1, 7, 1.0, 0.0}, {1, 0, 1, 1.0, 0.0}};
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    for (ElemType dt : {t, ElemType::f32}) {
      for (const SobelCase& k : sobels) {
        SobelParams p;
        p.dx = k.dx;
        p.dy = k.dy;
        p.ksize = k.ksize;
        p.scale = k.scale;
        p.delta = k.delta;
        p.border = border_of(b);
        expect_same("sobel dx " + std::to_string(k.dx) + " dy " + std::to_string(k.dy) + " ksize " +
                        std::to_string(k.ksize) + " " + name_of(t, c, b, dt),
                    src, dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      SobelParams q = p;
                      q.border.path = path;
                      sobel(s, d, q);
                    });
      }
      for (int dx : {0, 1}) {
        ScharrParams p;
        p.dx = dx;
        p.dy = 1 - dx;
        p.scale = 0.5;
        p.delta = 3.0;
        p.border = border_of(b);
        expect_same("scharr dx " + std::to_string(dx) + " " + name_of(t, c, b, dt), src, dt,
                    [&](const ImageView& s, const ImageView& d, Path path) {
                      ScharrParams q = p;
                      q.border.path = path;
                      scharr(s, d, q);
                    });
      }
      for (int ksize : {1, 3, 5}) {
        LaplacianParams p;
        p.ksize = ksize;
        p.scale = ksize == 5 ? 0.125 : 1.0;
        p.delta = 10.0;
        p.border = border_of(b);
        expect_same("laplacian ksize " + std::to_string(ksize) + " " + name_of(t, c, b, dt), src,
                    dt, [&](const ImageView& s, const ImageView& d, Path path) {
                      LaplacianParams q = p;
                      q.border.path = path;
                      laplacian(s, d, q);
                    });
      }
      if (t == ElemType::f32) break;  // f32 -> f32 once
    }
  });
}

TEST(FiltersCuda, UnsharpMaskIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  for_all([&](ElemType t, int c, Border b, std::uint32_t seed) {
    const Image src = source(t, c, seed);
    // Threshold in element units: about 4% of the range.
    const double th = t == ElemType::u8 ? 10.0 : t == ElemType::u16 ? 2600.0 : 0.08;
    const UnsharpParams cases[] = {
        {1.0, 0, 1.0, 0.0, {}}, {2.0, 5, 1.5, th, {}}, {3.0, 31, 0.7, 0.0, {}}};
    for (UnsharpParams p : cases) {
      p.border = border_of(b);
      expect_same("unsharp_mask sigma " + std::to_string(p.sigma) + " ksize " +
                      std::to_string(p.ksize) + " threshold " + std::to_string(p.threshold) + " " +
                      name_of(t, c, b, t),
                  src, t, [&](const ImageView& s, const ImageView& d, Path path) {
                    UnsharpParams q = p;
                    q.border.path = path;
                    unsharp_mask(s, d, q);
                  });
    }
  });
}

TEST(FiltersCuda, PathErrors) {
  TEXCV_REQUIRE_GPU();
  Image src(40, 30, 3, ElemType::f32, Location::device);
  Image dst(40, 30, 3, ElemType::f32, Location::device);
  FilterBorder fb;
  fb.path = Path::texture;
  test::expect_error([&] { sharpen(src, dst, 1.0, fb); }, ErrorCode::Unsupported,
                     "sharpen: path texture needs a texture, and CUDA has no texture format for "
                     "3-channel images; use path global (or automatic), or convert the image to 4 "
                     "channels; got 3 channels, expected 1 or 4 channels");
  fb.path = Path::texture_filter;
  test::expect_error(
      [&] { sharpen(src, dst, 1.0, fb); }, ErrorCode::Unsupported,
      "sharpen: path texture_filter (hardware interpolation) does not apply to a "
      "stencil filter; got texture_filter, expected auto, global, shared or texture");
  // A 255 x 255 separable window of 4-channel floats does not fit in shared memory: explicit
  // shared fails with the sizes, automatic falls back to the two-pass global path (same result).
  const Image h4 = source(ElemType::f32, 4, 77);
  const ImageView h4v = h4.view().roi({0, 0, 40, 30});
  Image s4(40, 30, 4, ElemType::f32, Location::device),
      d4(40, 30, 4, ElemType::f32, Location::device);
  texcv::copy(h4v, s4);
  const std::vector<float> k255 = random_taps(255, 5);
  SeparableParams p;
  p.border.path = Path::shared;
  try {
    separable_filter(s4, d4, k255, k255, p);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("separable_filter: path shared: the kernel's source "
                                         "window does not fit in one block's shared memory; use "
                                         "path global (or automatic); got 1617984 bytes (255x255 "
                                         "kernel, 4 channels), expected at most "),
              std::string::npos)
        << e.what();
  }
  p.border.path = Path::automatic;
  test::poison(d4);
  separable_filter(s4, d4, k255, k255, p);
  Image want(40, 30, 4, ElemType::f32);
  separable_filter(h4v, want, k255, k255, p);
  const test::Diff d = test::compare(test::to_host(d4), want);
  EXPECT_EQ(d.count, 0) << d.describe();
  EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
}

}  // namespace
}  // namespace texcv
