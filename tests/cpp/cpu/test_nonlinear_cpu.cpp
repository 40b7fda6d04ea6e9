// The CPU non-linear filters (median_blur, bilateral_filter) against hand-computed values and a
// brute-force median written here (sort of the replicated window), independent of the backend's
// selection and sliding-histogram code.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/on_every_simd_target.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "texcv/filters.hpp"

namespace texcv {
namespace {

Image from_values(int w, int h, int ch, ElemType t, const std::vector<double>& v) {
  Image img(w, h, ch, t);
  const ImageView iv = img.view();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w * ch; ++x) {
      const double d = v[static_cast<std::size_t>(y * w * ch + x)];
      if (t == ElemType::u8) iv.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(d);
      if (t == ElemType::u16) iv.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(d);
      if (t == ElemType::f32) iv.row<float>(y)[x] = static_cast<float>(d);
    }
  return img;
}

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

TEST(NonlinearCpu, BilateralF32HandComputed) {
  // 3x3, centre 1, others 0; d = 3 (radius 1: the 5-tap cross, the corners lie at sqrt(2) > 1),
  // sigma_space = sigma_color = 1, reflect101. Neighbours at distance 1: space weight e^-0.5;
  // colour weight e^-0.5 for |difference| 1, 1 for 0.
  // centre: 1 / (1 + 4 e^-1); top middle (1,0): its reflected upper neighbour is the centre, so
  // two neighbours of value 1 (colour distance 1) and two of value 0 (distance 0):
  // 2 e^-1 / (1 + 2 e^-1 + 2 e^-0.5); corner (0,0): right (1,0) and down (0,1) are 0, left and up
  // reflect to the same 0 pixels: all weights multiply 0 -> 0.
  Image src = from_values(3, 3, 1, ElemType::f32, {0, 0, 0, 0, 1, 0, 0, 0, 0});
  Image dst(3, 3, 1, ElemType::f32);
  test::poison(dst.view());
  BilateralParams p;
  p.d = 3;
  p.sigma_color = 1.0;
  p.sigma_space = 1.0;
  bilateral_filter(src, dst, p);
  const double e1 = std::exp(-1.0), eh = std::exp(-0.5);
  EXPECT_NEAR(test::at(dst, 1, 1, 0), 1.0 / (1.0 + 4.0 * e1), 1e-6);
  EXPECT_NEAR(test::at(dst, 1, 0, 0), 2.0 * e1 / (1.0 + 2.0 * e1 + 2.0 * eh), 1e-6);
  EXPECT_NEAR(test::at(dst, 0, 1, 0), 2.0 * e1 / (1.0 + 2.0 * e1 + 2.0 * eh), 1e-6);
  EXPECT_EQ(test::at(dst, 0, 0, 0), 0.0);
}

TEST(NonlinearCpu, BilateralU8ThreeChannelL1Distance) {
  // Centre (10, 20, 30), the rest 0; d = 3, sigma_space 1, sigma_color 50, constant border 0.
  // The colour distance is L1 over channels: 60, weight exp(-3600 / 5000); each neighbour of the
  // cross has space weight e^-0.5. centre_c = v_c / (1 + 4 e^-0.5 e^-0.72), rounded.
  std::vector<double> v(27, 0.0);
  v[12] = 10;
  v[13] = 20;
  v[14] = 30;
  Image src = from_values(3, 3, 3, ElemType::u8, v);
  Image dst(3, 3, 3, ElemType::u8);
  BilateralParams p;
  p.d = 3;
  p.sigma_color = 50;
  p.sigma_space = 1;
  p.border.border = Border::constant;
  bilateral_filter(src, dst, p);
  const double wn = std::exp(-0.5) * std::exp(-0.72);
  const double share = 1.0 / (1.0 + 4.0 * wn);  // 0.4734...: no value lands near .5
  for (int c = 0; c < 3; ++c)
    EXPECT_EQ(test::at(dst, 1, 1, c), std::nearbyint((c + 1) * 10 * share)) << c;
  // (1,0): neighbours are the centre (distance 60), two zeros and the constant-border zero; the
  // value is 10 * wn / (1 + 3 e^-0.5 + wn) = 1.29.. -> 1 (channel 0).
  EXPECT_EQ(test::at(dst, 1, 0, 0), std::nearbyint(10 * wn / (1.0 + 3.0 * std::exp(-0.5) + wn)));
}

TEST(NonlinearCpu, BilateralConstantImageUnchanged) {
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int ch : {1, 3}) {
      Image src(17, 11, ch, t);
      const ImageView sv = src.view();
      for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 17 * ch; ++x) {
          if (t == ElemType::u8) sv.row<std::uint8_t>(y)[x] = 77;
          if (t == ElemType::f32) sv.row<float>(y)[x] = 0.3f;
        }
      Image dst(17, 11, ch, t);
      BilateralParams p;
      p.d = 7;
      p.sigma_color = 20;
      p.sigma_space = 3;
      bilateral_filter(src, dst, p);
      // u8 exact; f32: sum(w * 0.3) / sum(w) in float, a few ulps of 0.3.
      const test::Diff d = test::compare(src, dst);
      EXPECT_LE(d.max_abs, t == ElemType::u8 ? 0.0 : 1e-6) << d.describe();
    }
}

}  // namespace
}  // namespace texcv
