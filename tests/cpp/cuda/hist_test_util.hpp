// Helpers shared by the CUDA tests of the intensity operations that the hist engine serves
// (test_<op>_cuda.cpp of normalize, histogram, equalize_hist, clahe, threshold with Otsu, and
// test_hist_engine_cuda.cpp). Those tests compare the CUDA backend with the CPU backend,
// on random odd-sized images: 67x41 (one block per
// reduction) and 1023x517 (many blocks: the per-block partials and the global counters are
// combined), with whole images and with offset sub-views as source and destination (device
// outputs poisoned first; the frame around a sub-view destination must stay poisoned).
// Identical everywhere (exact integer counts and sums, the CPU's float expressions) except
// normalize mean_std on f32, whose double sums are added in another order: there the bound of
// docs/ops/color.md, |gpu - cpu| <= 2^-21 (|src s| + |o| + |mean|) with s = std / std_c and
// o = mean - mean_c s, is checked per element.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::hist_cuda_test {

struct Size {
  int w, h;
};

inline const Size kSizes[] = {{67, 41}, {1023, 517}};

inline const ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline const int kChannels[] = {1, 3, 4};

inline std::string size_str(const Size& s) {
  return std::to_string(s.w) + "x" + std::to_string(s.h);
}

using Op = std::function<void(const ImageView& src, const ImageView& dst)>;

// Checks a device result against the CPU's (whole host images of the same shape).
using Check = std::function<void(const ImageView& got, const ImageView& want)>;

inline void expect_identical(const ImageView& got, const ImageView& want) {
  const test::Diff d = test::compare(got, want);
  EXPECT_EQ(d.count, 0) << d.describe();
  EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
}

// Runs op on the CPU (host src) and on the GPU in two layouts, checks the results with check
// (default: identical) and that nothing outside the destination was written.
inline void expect_same(const std::string& what, const Image& host, const Op& op,
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
    const long outside = test::written_outside(all.view(), {f, f, w, h});
    EXPECT_EQ(outside, 0) << "elements written outside the destination";
  }
}

// A random f32 image mapped to [lo, hi) (the helper gives [0, 1)).
inline Image random_f32(int w, int h, int channels, std::uint32_t seed, float lo, float hi) {
  const Image r = test::random_image(w, h, channels, ElemType::f32, seed);
  Image out(w, h, channels, ElemType::f32);
  texcv::convert(r, out, hi - lo, lo);
  return out;
}

inline Image random_of(const Size& s, ElemType t, int channels, std::uint32_t seed) {
  return t == ElemType::f32 ? random_f32(s.w, s.h, channels, seed, -0.5f, 1.5f)
                            : test::random_image(s.w, s.h, channels, t, seed);
}

// A u8/u16 1-channel image with structure (a diagonal ramp over [lo, lo + span) plus noise), so
// that clahe's and equalize_hist's tables differ from tile to tile.
inline Image structured(const Size& s, ElemType t, int lo, int span, std::uint32_t seed) {
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
inline void set_elem(Image& img, int x, int y, int c, double v) {
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
inline void set_row(Image& img, int y, double v) {
  for (int x = 0; x < img.width(); ++x)
    for (int c = 0; c < img.channels(); ++c) set_elem(img, x, y, c, v);
}

}  // namespace texcv::hist_cuda_test
