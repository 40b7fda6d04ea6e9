// The intensity operations on the CUDA backend (normalize, histogram, equalize_hist, clahe,
// threshold with Otsu) against the CPU backend, on random odd-sized images: 67x41 (one block per
// reduction) and 1023x517 (many blocks: the per-block partials and the global counters are
// combined), with whole images and with offset sub-views as source and destination (device
// outputs poisoned first; the frame around a sub-view destination must stay poisoned).
// Identical everywhere (exact integer counts and sums, the CPU's float expressions) except
// normalize mean_std on f32, whose double sums are added in another order: there the bound of
// docs/ops/color.md, |gpu - cpu| <= 2^-21 (|src s| + |o| + |mean|) with s = std / std_c and
// o = mean - mean_c s, is checked per element.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>
#endif

namespace texcv {
namespace {

using test::is_poison;

struct Size {
  int w, h;
};
const Size kSizes[] = {{67, 41}, {1023, 517}};
const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
const int kChannels[] = {1, 3, 4};

std::string size_str(const Size& s) {
  return std::to_string(s.w) + "x" + std::to_string(s.h);
}

using Op = std::function<void(const ImageView& src, const ImageView& dst)>;
// Checks a device result against the CPU's (whole host images of the same shape).
using Check = std::function<void(const ImageView& got, const ImageView& want)>;

void expect_identical(const ImageView& got, const ImageView& want) {
  const test::Diff d = test::compare(got, want);
  EXPECT_EQ(d.count, 0) << d.describe();
  EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
}

// Runs op on the CPU (host src) and on the GPU in two layouts, checks the results with check
// (default: identical) and that nothing outside the destination was written.
void expect_same(const std::string& what, const Image& host, const Op& op,
                 const Check& check = expect_identical) {
  const int w = host.width(), h = host.height(), ch = host.channels();
  const ElemType t = host.type();
  Image want(w, h, ch, t);
  op(host, want);
  for (int layout : {0, 1}) {
    SCOPED_TRACE(what + (layout ? " (offset sub-views)" : " (whole images)"));
    // layout 1: the source at (3, 1) of a larger device image, the destination at (1, 1).
    const int sx = layout ? 3 : 0, sy = layout ? 1 : 0, f = layout;
    Image dsrc_owner(w + 2 * sx, h + 2 * sy, ch, t, Location::device);
    const ImageView dsrc = dsrc_owner.view().roi({sx, sy, w, h});
    texcv::copy(host, dsrc);
    Image dout(w + 2 * f + 1, h + 2 * f, ch, t, Location::device);
    test::poison(dout);
    op(dsrc, dout.view().roi({f, f, w, h}));
    const Image all = test::to_host(dout);
    check(all.view().roi({f, f, w, h}), want);
    long outside = 0;
    for (int y = 0; y < all.height(); ++y)
      for (int x = 0; x < all.width(); ++x) {
        if (x >= f && x < f + w && y >= f && y < f + h) continue;
        for (int k = 0; k < ch; ++k)
          if (!is_poison(all.view(), x, y, k)) ++outside;
      }
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// A random f32 image mapped to [lo, hi) (the helper gives [0, 1)).
Image random_f32(int w, int h, int channels, std::uint32_t seed, float lo, float hi) {
  const Image r = test::random_image(w, h, channels, ElemType::f32, seed);
  Image out(w, h, channels, ElemType::f32);
  texcv::convert(r, out, hi - lo, lo);
  return out;
}

Image random_of(const Size& s, ElemType t, int channels, std::uint32_t seed) {
  return t == ElemType::f32 ? random_f32(s.w, s.h, channels, seed, -0.5f, 1.5f)
                            : test::random_image(s.w, s.h, channels, t, seed);
}

// A u8/u16 1-channel image with structure (a diagonal ramp over [lo, lo + span) plus noise), so
// that clahe's and equalize_hist's tables differ from tile to tile.
Image structured(const Size& s, ElemType t, int lo, int span, std::uint32_t seed) {
  const Image noise = test::random_image(s.w, s.h, 1, ElemType::u8, seed);
  Image out(s.w, s.h, 1, t);
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x) {
      const int n = noise.view().row<const std::uint8_t>(y)[x] % 16;
      const int v = lo + ((x * 7 + y * 3) * span / (s.w * 7 + s.h * 3) + n) % span;
      if (t == ElemType::u8)
        out.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
      else
        out.view().row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
    }
  return out;
}

// Element (x, y, c) set to v (integer types: truncated and clamped to the type's range).
void set_elem(Image& img, int x, int y, int c, double v) {
  const ImageView& m = img.view();
  const int i = x * m.channels + c;
  switch (m.type) {
    case ElemType::u8:
      m.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(std::fmin(std::fmax(v, 0.0), 255.0));
      break;
    case ElemType::u16:
      m.row<std::uint16_t>(y)[i] =
          static_cast<std::uint16_t>(std::fmin(std::fmax(v, 0.0), 65535.0));
      break;
    case ElemType::f32:
      m.row<float>(y)[i] = static_cast<float>(v);
      break;
  }
}

// Every channel of every pixel of row y set to v.
void set_row(Image& img, int y, double v) {
  for (int x = 0; x < img.width(); ++x)
    for (int c = 0; c < img.channels(); ++c) set_elem(img, x, y, c, v);
}

// ---- normalize ----

TEST(HistCuda, NormalizeMinmaxIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Ab {
    double alpha, beta;
  };
  // Default [0, 1], reversed bounds, a range that saturates u8/u16, an f32-style range.
  const Ab params[] = {{0.0, 1.0}, {255.0, 10.0}, {-50.0, 300.5}, {-1.0, 40000.0}};
  std::uint32_t seed = 1000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        // The extremes in known places: the largest in the last row, the smallest in the middle.
        const double mx = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1.75;
        set_elem(src, sz.w - 1, sz.h - 1, c - 1, mx);
        set_elem(src, sz.w / 2, sz.h / 2, 0, t == ElemType::f32 ? -0.75 : 0);
        for (const Ab& p : params) {
          NormalizeParams np;
          np.alpha = p.alpha;
          np.beta = p.beta;
          expect_same(std::string("normalize minmax ") + to_string(t) + " x" + std::to_string(c) +
                          " " + size_str(sz) + " alpha " + std::to_string(p.alpha) + " beta " +
                          std::to_string(p.beta),
                      src, [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); });
        }
      }
  // A constant image (range 0: scale 0, every element becomes min(alpha, beta)).
  for (ElemType t : kTypes) {
    Image src(67, 41, 3, t);
    for (int y = 0; y < 41; ++y) set_row(src, y, t == ElemType::f32 ? 0.25 : 77);
    NormalizeParams np;
    np.alpha = 5;
    np.beta = 9;
    expect_same(std::string("normalize minmax constant ") + to_string(t), src,
                [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); });
  }
}

// The f32 bound: per element 2^-21 (|x s| + |o| + |mean|), s and o from the channel's mean and
// std computed here in long double.
Check f32_mean_std_bound(const Image& src, const NormalizeParams& p) {
  const int C = src.channels();
  std::vector<double> s(C), o(C);
  for (int c = 0; c < C; ++c) {
    long double sum = 0, sq = 0;
    const long double n = static_cast<long double>(src.width()) * src.height();
    for (int y = 0; y < src.height(); ++y)
      for (int x = 0; x < src.width(); ++x) sum += test::at(src.view(), x, y, c);
    const long double m = sum / n;
    for (int y = 0; y < src.height(); ++y)
      for (int x = 0; x < src.width(); ++x) {
        const long double d = test::at(src.view(), x, y, c) - m;
        sq += d * d;
      }
    const long double sd = std::sqrt(sq / n);
    s[c] = sd > 0 ? static_cast<double>(p.std / sd) : 0.0;
    o[c] = static_cast<double>(p.mean - m * s[c]);
  }
  return [&src, s, o, p, C](const ImageView& got, const ImageView& want) {
    long bad = 0;
    double worst = 0;
    for (int y = 0; y < got.height; ++y)
      for (int x = 0; x < got.width; ++x)
        for (int c = 0; c < C; ++c) {
          const double g = test::at(got, x, y, c), w = test::at(want, x, y, c);
          const double xv = test::at(src.view(), x, y, c);
          const double bound =
              std::ldexp(std::fabs(xv * s[c]) + std::fabs(o[c]) + std::fabs(p.mean), -21);
          const double diff = std::fabs(g - w);
          if (!(diff <= bound)) ++bad;
          if (diff > worst) worst = diff;
        }
    EXPECT_EQ(bad, 0) << "elements beyond the bound; largest difference " << worst;
  };
}

TEST(HistCuda, NormalizeMeanStdMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  struct Ms {
    double mean, std;
  };
  const Ms params[] = {{0.0, 1.0}, {128.0, 40.0}, {0.5, 0.2}, {30000.0, 9000.0}};
  std::uint32_t seed = 2000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        // Channel 0 of a multi-channel image constant (std 0: it becomes `mean`).
        if (c > 1)
          for (int y = 0; y < sz.h; ++y)
            for (int x = 0; x < sz.w; ++x) set_elem(src, x, y, 0, t == ElemType::f32 ? 0.5 : 99);
        for (const Ms& p : params) {
          NormalizeParams np;
          np.mode = NormalizeMode::mean_std;
          np.mean = p.mean;
          np.std = p.std;
          const std::string what = std::string("normalize mean_std ") + to_string(t) + " x" +
                                   std::to_string(c) + " " + size_str(sz) + " mean " +
                                   std::to_string(p.mean) + " std " + std::to_string(p.std);
          const Op op = [&](const ImageView& s, const ImageView& d) { normalize(s, d, np); };
          if (t == ElemType::f32)
            expect_same(what, src, op, f32_mean_std_bound(src, np));
          else
            expect_same(what, src, op);  // exact integer sums on both backends: identical
        }
      }
}

// ---- histogram ----

struct HistCase {
  int bins;
  double lo, hi;
};

void expect_same_histogram(const std::string& what, const Image& host, int bins,
                           std::array<double, 2> range) {
  const auto want = histogram(host, bins, range);
  for (int layout : {0, 1}) {
    SCOPED_TRACE(what + (layout ? " (offset sub-view)" : " (whole image)"));
    const int o = layout ? 5 : 0;
    Image owner(host.width() + 2 * o, host.height() + o, host.channels(), host.type(),
                Location::device);
    // A poisoned frame: its u8/u16 elements (0xA5...) would be counted if they were read.
    test::poison(owner);
    const ImageView dsrc = owner.view().roi({o, o, host.width(), host.height()});
    texcv::copy(host, dsrc);
    const auto got = histogram(dsrc, bins, range);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t c = 0; c < want.size(); ++c) {
      ASSERT_EQ(got[c].size(), want[c].size());
      long differ = 0;
      for (std::size_t b = 0; b < want[c].size(); ++b) differ += got[c][b] != want[c][b];
      EXPECT_EQ(differ, 0) << "channel " << c << ": bins that differ from the CPU's counts";
    }
  }
}

TEST(HistCuda, HistogramIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Per type: the full range, coarse bins, a partial range with fractional edges (values below
  // and above it, the top edge itself excluded), more bins than values, and counters too many for
  // shared memory (global 64-bit atomics).
  const std::vector<HistCase> u8_cases = {{256, 0, 256}, {16, 0, 256}, {7, 10.5, 200.25},
                                          {300, 0, 256}, {1, 0, 1},    {20000, 0, 256}};
  const std::vector<HistCase> u16_cases = {
      {65536, 0, 65536}, {100, 1000, 60000}, {64, 0, 65535}, {4096, 0, 65536}, {3, 7.5, 7.75}};
  const std::vector<HistCase> f32_cases = {
      {10, 0, 1}, {37, -0.25, 1.25}, {5, 0.2, 0.8}, {50000, -0.5, 1.5}, {1, -1e30, 1e30}};
  std::uint32_t seed = 3000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        const auto& cases = t == ElemType::u8    ? u8_cases
                            : t == ElemType::u16 ? u16_cases
                                                 : f32_cases;
        for (const HistCase& hc : cases) {
          // Edge values in the image: exactly lo and hi (hi is outside), and for f32 NaN and
          // infinities (never counted, or counted by the CPU's rule).
          Image img = src.clone();
          set_row(img, 0, hc.lo);
          set_row(img, 1, hc.hi);
          if (t == ElemType::f32) {
            set_elem(img, 0, 2, 0, std::numeric_limits<double>::quiet_NaN());
            set_elem(img, 1, 2, c - 1, std::numeric_limits<double>::infinity());
            set_elem(img, 2, 2, 0, -std::numeric_limits<double>::infinity());
          }
          expect_same_histogram(std::string("histogram ") + to_string(t) + " x" +
                                    std::to_string(c) + " " + size_str(sz) + " bins " +
                                    std::to_string(hc.bins) + " [" + std::to_string(hc.lo) + ", " +
                                    std::to_string(hc.hi) + ")",
                                img, hc.bins, {hc.lo, hc.hi});
        }
      }
}

// ---- equalize_hist ----

TEST(HistCuda, EqualizeHistIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 4000;
  const Op op = [](const ImageView& s, const ImageView& d) { equalize_hist(s, d); };
  for (const Size& sz : kSizes) {
    expect_same("equalize_hist random " + size_str(sz), random_of(sz, ElemType::u8, 1, ++seed), op);
    // Low contrast: levels 50 .. 89 only (the table stretches them; the lowest maps to 0).
    expect_same("equalize_hist low contrast " + size_str(sz),
                structured(sz, ElemType::u8, 50, 40, ++seed), op);
    Image flat(sz.w, sz.h, 1, ElemType::u8);
    for (int y = 0; y < sz.h; ++y) set_row(flat, y, 131);
    expect_same("equalize_hist constant " + size_str(sz), flat, op);  // unchanged
  }
}

// ---- clahe ----

TEST(HistCuda, ClaheIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  struct Grid {
    int tx, ty;
  };
  // 8x8 and 4x4 divide 64x40 but not 67x41 or 1023x517 (then the image is extended); 7x5 and
  // 3x11 divide none; 1x1 is one table.
  const Grid grids[] = {{8, 8}, {4, 4}, {7, 5}, {3, 11}, {1, 1}};
  const double clips[] = {0.0, 1.0, 2.5, 40.0};
  const Size sizes[] = {{67, 41}, {64, 40}, {1023, 517}};
  std::uint32_t seed = 5000;
  for (const Size& sz : sizes)
    for (ElemType t : {ElemType::u8, ElemType::u16}) {
      const Image images[] = {
          random_of(sz, t, 1, ++seed),
          t == ElemType::u8 ? structured(sz, t, 20, 120, ++seed)
                            : structured(sz, t, 1000, 3000, ++seed),
      };
      for (const Image& src : images)
        for (const Grid& g : grids)
          for (double clip : clips) {
            ClaheParams p;
            p.clip_limit = clip;
            p.tiles_x = g.tx;
            p.tiles_y = g.ty;
            expect_same(std::string("clahe ") + to_string(t) + " " + size_str(sz) + " grid " +
                            std::to_string(g.tx) + "x" + std::to_string(g.ty) + " clip " +
                            std::to_string(clip) + (&src == &images[0] ? " random" : " ramp"),
                        src, [&](const ImageView& s, const ImageView& d) { clahe(s, d, p); });
          }
    }
  // A grid as large as the image (one-pixel tiles; u8 only, 256 bins a tile).
  const Size small{67, 41};
  for (double clip : {0.0, 40.0}) {
    ClaheParams p;
    p.clip_limit = clip;
    p.tiles_x = small.w;
    p.tiles_y = small.h;
    expect_same("clahe u8 one-pixel tiles clip " + std::to_string(clip),
                structured(small, ElemType::u8, 0, 256, ++seed),
                [&](const ImageView& s, const ImageView& d) { clahe(s, d, p); });
  }
}

// ---- threshold with Otsu ----

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

// ---- streams, device views, errors ----

TEST(HistCuda, RunOnTheCallersStream) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  cudaStream_t st = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
  const Size sz{1023, 517};
  const Image g8 = structured(sz, ElemType::u8, 10, 200, 7001);
  const Image f3 = random_of(sz, ElemType::f32, 3, 7002);
  Image d8(sz.w, sz.h, 1, ElemType::u8, Location::device),
      o8(sz.w, sz.h, 1, ElemType::u8, Location::device),
      d3(sz.w, sz.h, 3, ElemType::f32, Location::device),
      o3(sz.w, sz.h, 3, ElemType::f32, Location::device);
  texcv::copy(g8, d8, st);
  texcv::copy(f3, d3, st);
  Image h8(sz.w, sz.h, 1, ElemType::u8), w8(sz.w, sz.h, 1, ElemType::u8);
  Image h3(sz.w, sz.h, 3, ElemType::f32), w3(sz.w, sz.h, 3, ElemType::f32);
  // Each result is copied back on the same stream (texcv::copy synchronizes it).
  clahe(d8, o8, {}, st);
  texcv::copy(o8, h8, st);
  clahe(g8, w8, {});
  expect_identical(h8, w8);
  equalize_hist(d8, o8, st);
  texcv::copy(o8, h8, st);
  equalize_hist(g8, w8);
  expect_identical(h8, w8);
  EXPECT_EQ(threshold(d8, o8, 0, 255, ThresholdType::otsu, st),
            threshold(g8, w8, 0, 255, ThresholdType::otsu));
  texcv::copy(o8, h8, st);
  expect_identical(h8, w8);
  NormalizeParams np;
  np.alpha = -1;
  np.beta = 2;
  normalize(d3, o3, np, st);
  texcv::copy(o3, h3, st);
  normalize(f3, w3, np);
  expect_identical(h3, w3);
  EXPECT_EQ(histogram(d3, 9, {0.0, 1.0}, st), histogram(f3, 9, {0.0, 1.0}));
  EXPECT_EQ(cudaStreamDestroy(st), cudaSuccess);
#endif
}

TEST(HistCuda, DeviceViewsRunAndValidationMessagesAreUnchanged) {
  TEXCV_REQUIRE_GPU();
  Image s(9, 7, 1, ElemType::u8, Location::device), d(9, 7, 1, ElemType::u8, Location::device);
  Image s3(9, 7, 3, ElemType::u8, Location::device), d3(9, 7, 3, ElemType::u8, Location::device);
  Image s16(9, 7, 1, ElemType::u16, Location::device),
      d16(9, 7, 1, ElemType::u16, Location::device);
  test::poison(s);
  // No longer Unsupported on device views.
  EXPECT_NO_THROW(normalize(s, d));
  EXPECT_NO_THROW(histogram(s, 4, {0, 256}));
  EXPECT_NO_THROW(equalize_hist(s, d));
  ClaheParams small;
  small.tiles_x = small.tiles_y = 2;
  EXPECT_NO_THROW(clahe(s, d, small));
  EXPECT_NO_THROW(threshold(s, d, 0, 255, ThresholdType::otsu));
  // Validation still runs first, with the same messages as on the host.
  test::expect_error([&] { threshold(s3, d3, 0, 255, ThresholdType::otsu); },
                     ErrorCode::Unsupported,
                     "threshold: otsu needs a 1-channel u8 source; got 3-channel u8, expected "
                     "1-channel u8");
  test::expect_error(
      [&] {
        histogram(s, 0, {0, 256});
      },
      ErrorCode::InvalidArgument, "histogram: bins must be positive; got 0, expected > 0");
  test::expect_error(
      [&] {
        histogram(s, 8, {5, 5});
      },
      ErrorCode::InvalidArgument,
      "histogram: range is empty or not finite; got [5, 5), expected finite lo < hi");
  test::expect_error([&] { equalize_hist(s16, d16); }, ErrorCode::Unsupported,
                     "equalize_hist: source element type is not supported; got u16, expected u8");
  ClaheParams bad;
  bad.clip_limit = -1;
  test::expect_error([&] { clahe(s, d, bad); }, ErrorCode::InvalidArgument,
                     "clahe: clip limit must be finite and >= 0; got -1, expected >= 0");
  NormalizeParams np;
  np.mode = NormalizeMode::mean_std;
  test::expect_error([&] { normalize(s, d3, np); }, ErrorCode::InvalidArgument,
                     "normalize: destination channel count differs from the source; got 3, "
                     "expected 1");
}

}  // namespace
}  // namespace texcv
