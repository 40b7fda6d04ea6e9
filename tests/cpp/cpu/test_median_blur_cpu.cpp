// median_blur on the CPU backend against hand-computed values and a brute-force median written
// here (sort of the replicated window), independent of the backend's selection, sorting-network
// and sliding-histogram code; f32 special values in their total order; every SIMD target.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "cpu/on_every_simd_target.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "texcv/filters.hpp"
#include "texcv/runtime.hpp"

namespace texcv::filter_cpu_test {
namespace {

TEST(NonlinearCpu, Median3x3HandComputed) {
  // 1 2 3 / 4 5 6 / 7 8 9 with the edge replicated:
  // (0,0): {1,1,2,1,1,2,4,4,5} -> 2; (1,1): 1..9 -> 5; (2,2): {5,6,6,8,9,9,8,9,9} -> 8;
  // (1,0): {1,2,3,1,2,3,4,5,6} -> 3; (0,2): {4,4,5,7,7,8,7,7,8} -> 7.
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    Image src = from_values(3, 3, 1, t, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    Image dst(3, 3, 1, t);
    test::poison(dst.view());
    median_blur(src, dst, 3);
    EXPECT_EQ(test::at(dst, 0, 0, 0), 2) << to_string(t);
    EXPECT_EQ(test::at(dst, 1, 1, 0), 5) << to_string(t);
    EXPECT_EQ(test::at(dst, 2, 2, 0), 8) << to_string(t);
    EXPECT_EQ(test::at(dst, 1, 0, 0), 3) << to_string(t);
    EXPECT_EQ(test::at(dst, 0, 2, 0), 7) << to_string(t);
  }
}

TEST(NonlinearCpu, MedianKsize1Copies) {
  Image src = test::random_image(13, 7, 3, ElemType::u16, 4);
  Image dst(13, 7, 3, ElemType::u16);
  median_blur(src, dst, 1);
  EXPECT_EQ(test::compare(src, dst).count, 0);
}

TEST(NonlinearCpu, MedianRemovesImpulsesAndKeepsSteps) {
  // A step 0 | 200 with isolated 255 spikes: any odd window of 3 or more removes the spikes
  // (fewer than half the window) and keeps the vertical step where it is.
  for (int k : {3, 5, 7, 9, 15}) {
    std::vector<double> v(40 * 30, 0.0);
    for (int y = 0; y < 30; ++y)
      for (int x = 20; x < 40; ++x) v[y * 40 + x] = 200;
    v[10 * 40 + 5] = 255;
    v[20 * 40 + 30] = 255;
    Image src = from_values(40, 30, 1, ElemType::u8, v);
    Image dst(40, 30, 1, ElemType::u8);
    median_blur(src, dst, k);
    for (int y = 0; y < 30; ++y)
      for (int x = 0; x < 40; ++x)
        ASSERT_EQ(test::at(dst, x, y, 0), x < 20 ? 0 : 200) << "k " << k << " at " << x << "," << y;
  }
}

// Brute force: sort the replicated window.
double median_ref(const ImageView& v, int x, int y, int c, int k) {
  std::vector<double> win;
  for (int j = -k / 2; j <= k / 2; ++j)
    for (int i = -k / 2; i <= k / 2; ++i)
      win.push_back(
          test::at(v, std::clamp(x + i, 0, v.width - 1), std::clamp(y + j, 0, v.height - 1), c));
  std::sort(win.begin(), win.end());
  return win[win.size() / 2];
}

// f32 3x3 and 5x5 with NaNs, signed zeros and infinities in some of the network's blocks of 64
// values (those take the order key, the others plain float comparisons): every output has the
// bits of the median in the total order that orders -0 before +0 and puts NaNs at the ends (the
// order both backends use), computed here by sorting the keys.
// f32 3x3 and 5x5 medians over rows with NaNs, signed zeros and infinities in some of the
// networks' blocks (and vectors) only: the result keeps the bits of the element the total order
// (detail::float_key) puts in the middle. `where` names the caller's context in failures.
void expect_f32_specials_keep_their_order(const std::string& where) {
  const int w = 300, h = 4;
  for (int ch : {1, 3}) {
    Image src = test::random_image(w, h, ch, ElemType::f32, 41);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const int n = w * ch;
    for (int y = 0; y < h; ++y) {
      float* r = src.view().row<float>(y);
      for (int e = 0; e < n; ++e) r[e] = std::floor(r[e] * 4.0f) - 2.0f;  // many ties and zeros
      // Specials only in elements 40..99 and 200..239 of each row: blocks with and without them.
      for (int e = 40; e < 100 && e < n; e += 7)
        r[e] = (e / 7) % 3 == 0 ? -0.0f : (e % 2 ? nan : -nan);
      for (int e = 200; e < 240 && e < n; e += 5) r[e] = e % 2 ? inf : -inf;
      for (int e = 0; e < n; e += 3) r[e] = r[e] == 0.0f ? ((e / 3) % 2 ? -0.0f : 0.0f) : r[e];
    }
    for (int k : {3, 5}) {
      Image dst(w, h, ch, ElemType::f32);
      test::poison(dst.view());
      median_blur(src, dst, k);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          for (int c = 0; c < ch; ++c) {
            std::vector<std::uint32_t> keys;
            for (int j = -k / 2; j <= k / 2; ++j)
              for (int i = -k / 2; i <= k / 2; ++i) {
                const float v = src.view().row<const float>(
                    std::clamp(y + j, 0, h - 1))[std::clamp(x + i, 0, w - 1) * ch + c];
                std::uint32_t b;
                std::memcpy(&b, &v, sizeof b);
                keys.push_back(detail::float_key(b));
              }
            std::sort(keys.begin(), keys.end());
            const std::uint32_t want = detail::key_float_bits(keys[keys.size() / 2]);
            std::uint32_t got;
            std::memcpy(&got, &dst.view().row<const float>(y)[x * ch + c], sizeof got);
            ASSERT_EQ(got, want) << where << "k " << k << " x" << ch << " at " << x << "," << y
                                 << "," << c;
          }
    }
  }
}

TEST(NonlinearCpu, MedianF32SpecialValuesKeepTheirOrder) {
  expect_f32_specials_keep_their_order("");
}

TEST(NonlinearCpu, MedianMatchesBruteForce) {
  // Both CPU paths (selection: u8 up to 5, u16/f32; histogram: u8 above 5), all channel counts,
  // a padded sub-image view, and a window larger than the image.
  struct Case {
    ElemType t;
    int k, w, h;
  };
  const Case cases[] = {{ElemType::u8, 3, 37, 29},
                        {ElemType::u8, 5, 37, 29},
                        {ElemType::u8, 7, 37, 29},
                        {ElemType::u8, 15, 37, 29},
                        {ElemType::u8, 31, 37, 29},
                        {ElemType::u8, 41, 9, 6},
                        {ElemType::u16, 3, 21, 17},
                        {ElemType::u16, 7, 21, 17},
                        {ElemType::f32, 5, 21, 17},
                        {ElemType::f32, 9, 21, 17},
                        // Rows long enough for the 3x3 and 5x5 networks' blocks of 64 values
                        // (with the last block overlapping the one before).
                        {ElemType::u8, 3, 203, 7},
                        {ElemType::u8, 5, 203, 7},
                        {ElemType::u16, 3, 131, 5},
                        {ElemType::u16, 5, 131, 5},
                        {ElemType::f32, 3, 97, 5},
                        {ElemType::f32, 5, 131, 5}};
  for (const Case& cs : cases)
    for (int ch : {1, 3, 4}) {
      Image owner;
      const ImageView src = test::padded_view(owner, cs.w, cs.h, ch, cs.t, 4, 2, 3);
      Image fill = test::random_image(cs.w, cs.h, ch, cs.t, static_cast<std::uint32_t>(cs.k + ch));
      copy(fill, src);
      Image dst(cs.w, cs.h, ch, cs.t);
      test::poison(dst.view());
      median_blur(src, dst, cs.k);
      for (int y = 0; y < cs.h; ++y)
        for (int x = 0; x < cs.w; ++x)
          for (int c = 0; c < ch; ++c)
            ASSERT_EQ(test::at(dst, x, y, c), median_ref(src, x, y, c, cs.k))
                << to_string(cs.t) << " x" << ch << " k " << cs.k << " at " << x << "," << y << ","
                << c;
    }
}

TEST(NonlinearCpu, MedianHistogramBandsAndStripsMatchBruteForce) {
  // u8 windows above 5x5 run in bands of 512 output columns and strips of rows, each with the
  // histograms of its own columns (the band and r columns each side): images wider than two
  // bands and taller than a strip, where windows reach across the bands' seams and the image's
  // edges, on a padded sub-image view; four threads: 3 strips of 3 bands.
  const int before = set_cpu_threads(4);
  for (int k : {7, 15}) {
    for (int ch : {1, 3}) {
      const int w = 1100, h = 23;
      Image owner;
      const ImageView src = test::padded_view(owner, w, h, ch, ElemType::u8, 4, 2, 3);
      // Few values, so that windows often hold the median's value several times.
      Image fill = test::random_image(w, h, ch, ElemType::u8, static_cast<std::uint32_t>(k + ch));
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w * ch; ++x)
          fill.view().row<std::uint8_t>(y)[x] =
              static_cast<std::uint8_t>(fill.view().row<std::uint8_t>(y)[x] & 0xF3);
      copy(fill, src);
      Image dst(w, h, ch, ElemType::u8);
      test::poison(dst.view());
      median_blur(src, dst, k);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          for (int c = 0; c < ch; ++c)
            ASSERT_EQ(test::at(dst, x, y, c), median_ref(src, x, y, c, k))
                << "x" << ch << " k " << k << " at " << x << "," << y << "," << c;
    }
  }
  set_cpu_threads(before);
}

// The 3x3 and 5x5 networks run on Highway's widest target by default: every other target this
// CPU runs (SSE4, AVX2, AVX-512, ...) gives the same medians as the brute force.
TEST(NonlinearCpu, MedianNetworksSameOnEverySimdTarget) {
  test::on_every_simd_target("median networks", [](const std::string& name) {
    for (ElemType type : {ElemType::u8, ElemType::u16, ElemType::f32})
      for (int k : {3, 5})
        for (int ch : {1, 3, 4}) {
          const int w = 203, h = 5;  // blocks of 64 values, the last one overlapping
          Image src = test::random_image(w, h, ch, type, static_cast<std::uint32_t>(k * 7 + ch));
          Image dst(w, h, ch, type);
          test::poison(dst.view());
          median_blur(src, dst, k);
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
              for (int c = 0; c < ch; ++c)
                ASSERT_EQ(test::at(dst, x, y, c), median_ref(src.view(), x, y, c, k))
                    << name << ": " << to_string(type) << " x" << ch << " k " << k << " at " << x
                    << "," << y << "," << c;
        }
    expect_f32_specials_keep_their_order(name + ": ");
  });
}

}  // namespace
}  // namespace texcv::filter_cpu_test
