// erode (and dilate beside it) on the CPU backend: channels are independent; and, issue 18, a
// rectangle far larger than the image (iterations make one rectangle (k - 1) * n + 1 a side,
// as OpenCV) gives the results of a plain evaluation of that whole rectangle, for every border,
// with working memory bounded by the image, not by the rectangle.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/morphology_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::morphology_cpu_test {
namespace {

TEST(MorphologyCpu, ChannelsAreIndependentF32) {
  // 3x1, 3 channels: (1,-2,0.5) (4,0,-1) (2,5,3), 3x1 rect.
  Image src(3, 1, 3, ElemType::f32), dst(3, 1, 3, ElemType::f32);
  const float in[9] = {1, -2, 0.5f, 4, 0, -1, 2, 5, 3};
  std::copy(in, in + 9, src.view().row<float>(0));
  erode(src, dst, row3());
  const float* o = dst.view().row<const float>(0);
  EXPECT_EQ(std::vector<float>(o, o + 9), (std::vector<float>{1, -2, -1, 1, -2, -1, 2, 0, -1}));
  dilate(src, dst, row3());
  EXPECT_EQ(std::vector<float>(o, o + 9), (std::vector<float>{4, 0, 0.5f, 4, 5, 3, 4, 5, 3}));
  // u16 keeps its full range: 65535 and 0 survive erode/dilate of a constant row.
  Image a(3, 1, 1, ElemType::u16), b(3, 1, 1, ElemType::u16);
  std::uint16_t* r = a.view().row<std::uint16_t>(0);
  r[0] = 65535;
  r[1] = 65535;
  r[2] = 0;
  dilate(a, b, row3());
  EXPECT_EQ(values(b.view()), (std::vector<int>{65535, 65535, 65535}));
  erode(a, b, row3());
  EXPECT_EQ(values(b.view()), (std::vector<int>{65535, 0, 0}));
}

// f32 rectangles pick rows top to bottom at every height (a tall rectangle too, whose integer
// column pass runs van Herk / Gil-Werman): a NaN that comes first in a window stays, a later one
// never wins, and of -0 and +0 the first stays. A 1x5 erode (replicate border) of the column
// 3, NaN, 1, 2, 5, -0, +0, 4, 6, the values worked by hand from the rows' order; the same 1x5 on
// a 2-wide image, which takes the rectangle path with a row pass.
TEST(MorphologyCpu, F32TallRectanglesPickRowsTopToBottom) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float in[9] = {3, nan, 1, 2, 5, -0.0f, 0.0f, 4, 6};
  for (int w : {1, 2}) {
    Image src(w, 9, 1, ElemType::f32), dst(w, 9, 1, ElemType::f32);
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < w; ++x) src.view().row<float>(y)[x] = in[y];
    MorphParams p;
    p.ksize_x = 1;
    p.ksize_y = 5;
    p.border.border = Border::replicate;
    erode(src, dst, p);
    // y = 3: rows 1..5 start with NaN; y = 4..7: -0 comes before +0; y = 8: +0 first.
    const float want[9] = {1, 1, 1, nan, -0.0f, -0.0f, -0.0f, -0.0f, 0.0f};
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < w; ++x) {
        const float g = dst.view().row<const float>(y)[x];
        if (std::isnan(want[y])) {
          EXPECT_TRUE(std::isnan(g)) << "width " << w << " row " << y << ": " << g;
        } else {
          EXPECT_EQ(g, want[y]) << "width " << w << " row " << y;
          EXPECT_EQ(std::signbit(g), std::signbit(want[y])) << "width " << w << " row " << y;
        }
      }
  }
}

}  // namespace
}  // namespace texcv::morphology_cpu_test

namespace {

using texcv::Border;
using texcv::ElemType;

int border_index(int i, int n, Border b) {
  if (i >= 0 && i < n) return i;
  switch (b) {
    case Border::constant:
      return -1;
    case Border::replicate:
      return i < 0 ? 0 : n - 1;
    case Border::reflect: {
      const int p = 2 * n;
      i = ((i % p) + p) % p;
      return i < n ? i : p - 1 - i;
    }
    case Border::reflect101: {
      if (n == 1) return 0;
      const int p = 2 * n - 2;
      i = ((i % p) + p) % p;
      return i < n ? i : p - i;
    }
    case Border::wrap:
      return ((i % n) + n) % n;
  }
  return -1;
}

// The min (erode) or max (dilate) over the whole kw x kh rectangle anchored at (ax, ay), pixel
// by pixel (u8, 1 channel), as the operation is defined: outside the image the border, or with
// Border::constant the value (none: a value that never wins).
texcv::Image reference(const texcv::Image& src, int kw, int kh, int ax, int ay, bool dilate,
                       Border b, std::optional<int> value) {
  const texcv::ImageView& s = src.view();
  texcv::Image out(s.width, s.height, 1, ElemType::u8);
  const int never = dilate ? 0 : 255;
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      int acc = never;
      for (int j = 0; j < kh; ++j) {
        const int iy = border_index(y + j - ay, s.height, b);
        for (int i = 0; i < kw; ++i) {
          const int ix = border_index(x + i - ax, s.width, b);
          const int v =
              (ix < 0 || iy < 0) ? value.value_or(never) : s.row<const std::uint8_t>(iy)[ix];
          acc = dilate ? std::max(acc, v) : std::min(acc, v);
        }
      }
      out.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(acc);
    }
  return out;
}

long peak_rss_kb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// ksize 7 with 20 iterations is one 121 x 121 rectangle over a 20 x 13 image: more than twice the
// image a side, so the backend gets the rectangle cut to the part that matters, which must give
// what the whole rectangle gives, for every border, anchor and operation.
TEST(MorphBounds, IteratedRectangleLargerThanTheImageMatchesTheWholeRectangle) {
  const texcv::Image src = texcv::test::random_image(20, 13, 1, ElemType::u8, 3);
  for (const Border b :
       {Border::constant, Border::replicate, Border::reflect, Border::reflect101, Border::wrap}) {
    for (const std::optional<int> value : {std::optional<int>(), std::optional<int>(77)}) {
      if (value && b != Border::constant) continue;
      for (const auto& [ax, ay] : {std::pair{-1, -1}, std::pair{0, 6}, std::pair{6, 1}}) {
        for (const bool dilate : {false, true}) {
          texcv::MorphParams p;
          p.ksize_x = 7;
          p.ksize_y = 7;
          p.anchor_x = ax;
          p.anchor_y = ay;
          p.iterations = 20;
          p.border.border = b;
          if (value) p.border.value = std::array<double, 4>{77, 77, 77, 77};
          texcv::Image dst(src.view().width, src.view().height, 1, ElemType::u8);
          if (dilate)
            texcv::dilate(src.view(), dst.view(), p);
          else
            texcv::erode(src.view(), dst.view(), p);
          const int cax = (ax == -1 ? 3 : ax) * 20, cay = (ay == -1 ? 3 : ay) * 20;
          const texcv::Image want = reference(src, 121, 121, cax, cay, dilate, b, value);
          const texcv::test::Diff d = texcv::test::compare(dst.view(), want.view());
          EXPECT_EQ(d.max_abs, 0.0) << (dilate ? "dilate" : "erode") << " border "
                                    << static_cast<int>(b) << (value ? " value 77" : "")
                                    << " anchor " << ax << "," << ay << ": " << d.describe();
        }
      }
    }
  }
}

// The pipelines on a 64 x 48 image: ksize 255 with 100 iterations took 3.2 GB (a
// 25,401-pixel rectangle: its 645 MB mask and 1.9 GB of padded rows), 1000 iterations failed
// allocating a 64 GB mask. Now each is the image's minimum / maximum (the rectangle covers it
// from every pixel) in a few megabytes.
TEST(MorphBounds, HugeIterationsOnASmallImageUseMemoryOfTheImage) {
  const texcv::Image src = texcv::test::random_image(64, 48, 3, ElemType::u8, 5);
  const long rss0 = peak_rss_kb();
  for (const int iterations : {100, 1000}) {
    for (const bool dilate : {false, true}) {
      texcv::MorphParams p;
      p.ksize_x = p.ksize_y = 255;
      p.iterations = iterations;
      texcv::Image dst(64, 48, 3, ElemType::u8);
      if (dilate)
        ASSERT_NO_THROW(texcv::dilate(src.view(), dst.view(), p));
      else
        ASSERT_NO_THROW(texcv::erode(src.view(), dst.view(), p));
      for (int c = 0; c < 3; ++c) {
        int want = dilate ? 0 : 255;
        for (int y = 0; y < 48; ++y)
          for (int x = 0; x < 64; ++x) {
            const int v = src.view().row<const std::uint8_t>(y)[x * 3 + c];
            want = dilate ? std::max(want, v) : std::min(want, v);
          }
        for (int y = 0; y < 48; ++y)
          for (int x = 0; x < 64; ++x)
            ASSERT_EQ(dst.view().row<const std::uint8_t>(y)[x * 3 + c], want)
                << (dilate ? "dilate" : "erode") << " iterations " << iterations << " at " << x
                << "," << y << " channel " << c;
      }
    }
  }
  // ctest runs each test in a process of its own: the growth of the peak is this test's.
  EXPECT_LT(peak_rss_kb() - rss0, 64 * 1024)
      << "peak resident set grew by " << (peak_rss_kb() - rss0) / 1024 << " MB";
}

}  // namespace
