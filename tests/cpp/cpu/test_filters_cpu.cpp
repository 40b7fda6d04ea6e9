// The CPU linear filters on hand-computed values: box sums, each border mode along a row,
// derivatives of ramps, the sharpen kernel on an impulse, rounding and saturation, Gaussian
// kernels from their formula, and unsharp_mask as its definition.
#include <cmath>
#include <thread>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/filters.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"

namespace texcv {
namespace {

Image make(int w, int h, ElemType t, const std::vector<double>& v, int ch = 1) {
  Image img(w, h, ch, t);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w * ch; ++x) {
      const double e = v[static_cast<std::size_t>(y * w * ch + x)];
      if (t == ElemType::u8) img.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(e);
      if (t == ElemType::u16) img.view().row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(e);
      if (t == ElemType::f32) img.view().row<float>(y)[x] = static_cast<float>(e);
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

// set_cpu_threads (what texcv batch's CPU workers use, one thread each): it changes only the
// calling thread's setting, and results do not depend on the thread count (a convolution and a
// resize of an image large enough to run in parallel, bit for bit).
TEST(CpuThreads, PerThreadSettingAndIdenticalResults) {
  const Image src = test::random_image(640, 480, 3, ElemType::u8, 5);
  const ParamValues conv{{"kernel", "-1|-1|-1|-1|16|-1|-1|-1|-1"}, {"scale", "0.125"}};
  const ParamValues rs{{"scale", "0.9"}};
  const Image conv_default = apply("convolve", src, conv);
  const Image rs_default = apply("resize", src, rs);
  const int before = cpu_threads();
  EXPECT_EQ(set_cpu_threads(1), before);
  const bool openmp = build_info().openmp;
  EXPECT_EQ(cpu_threads(), 1);
  int other = -1;
  std::thread([&] { other = cpu_threads(); }).join();
  EXPECT_EQ(other, before);  // another thread keeps the default
  const Image conv_one = apply("convolve", src, conv);
  const Image rs_one = apply("resize", src, rs);
  EXPECT_EQ(set_cpu_threads(0), 1);
  EXPECT_EQ(cpu_threads(), before);
  EXPECT_EQ(test::compare(conv_one, conv_default).count, 0);
  EXPECT_EQ(test::compare(rs_one, rs_default).count, 0);
  if (openmp) {
    set_cpu_threads(3);
    EXPECT_EQ(cpu_threads(), 3);
    EXPECT_EQ(test::compare(apply("convolve", src, conv), conv_default).count, 0);
    set_cpu_threads(0);
  }
}

TEST(CpuFilters, BoxSumOnKnownImage) {
  // 1 2 3 / 4 5 6 / 7 8 9, 3x3 sums.
  Image src = make(3, 3, ElemType::f32, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Image dst(3, 3, 1, ElemType::f32);
  BoxParams p;
  p.normalize = false;
  p.border.border = Border::constant;
  box_filter(src, dst, p);
  // Constant 0 outside: corner (0,0) = 1+2+4+5, centre = 45.
  EXPECT_EQ(values(dst), (std::vector<double>{12, 21, 16, 27, 45, 33, 24, 39, 28}));
  p.border.border = Border::replicate;
  box_filter(src, dst, p);
  // Corner (0,0): rows 1 1 2 / 1 1 2 / 4 4 5 = 21; centre 45.
  EXPECT_EQ(test::at(dst, 0, 0, 0), 21);
  EXPECT_EQ(test::at(dst, 1, 1, 0), 45);
  p.border.border = Border::reflect101;
  p.normalize = true;
  box_filter(src, dst, p);
  // reflect101 corner (0,0): rows 5 4 5 / 2 1 2 / 5 4 5 = 33, / 9.
  EXPECT_FLOAT_EQ(static_cast<float>(test::at(dst, 0, 0, 0)), 33.0f / 9.0f);
  EXPECT_FLOAT_EQ(static_cast<float>(test::at(dst, 1, 1, 0)), 5.0f);
}

// Picks the source pixel 3 to the left (kernel 1 0 0 0 0 0 0 with the centre anchor) or to the
// right, so the first/last three outputs show the border pattern.
std::vector<double> shifted(const Image& src, Border b, bool left) {
  Image dst(src.width(), 1, 1, ElemType::f32);
  Kernel k{7, 1, std::vector<float>(7, 0.0f)};
  k.values[left ? 0 : 6] = 1.0f;
  ConvolveParams p;
  p.border = {b, {100, 0, 0, 0}};
  convolve(src, dst, k, p);
  std::vector<double> v = values(dst);
  return left ? std::vector<double>(v.begin(), v.begin() + 3)
              : std::vector<double>(v.end() - 3, v.end());
}

TEST(CpuFilters, EachBorderModeOnARow) {
  // abcdefgh = 1..8.
  Image src = make(8, 1, ElemType::f32, {1, 2, 3, 4, 5, 6, 7, 8});
  using V = std::vector<double>;
  EXPECT_EQ(shifted(src, Border::constant, true), (V{100, 100, 100}));
  EXPECT_EQ(shifted(src, Border::constant, false), (V{100, 100, 100}));
  EXPECT_EQ(shifted(src, Border::replicate, true), (V{1, 1, 1}));    // aaa|a
  EXPECT_EQ(shifted(src, Border::replicate, false), (V{8, 8, 8}));   // h|hhh
  EXPECT_EQ(shifted(src, Border::reflect, true), (V{3, 2, 1}));      // cba|a
  EXPECT_EQ(shifted(src, Border::reflect, false), (V{8, 7, 6}));     // h|hgf
  EXPECT_EQ(shifted(src, Border::reflect101, true), (V{4, 3, 2}));   // dcb|a
  EXPECT_EQ(shifted(src, Border::reflect101, false), (V{7, 6, 5}));  // h|gfe
  EXPECT_EQ(shifted(src, Border::wrap, true), (V{6, 7, 8}));         // fgh|a
  EXPECT_EQ(shifted(src, Border::wrap, false), (V{1, 2, 3}));        // h|abc
  // The default is reflect101, as OpenCV's BORDER_DEFAULT.
  EXPECT_EQ(ConvolveParams{}.border.border, Border::reflect101);
}

TEST(CpuFilters, BorderValueConvertedToTheElementType) {
  // A constant value of 300.6 on u8 is saturated to 255 first (as OpenCV's borderValue).
  Image src = make(3, 1, ElemType::u8, {10, 20, 30});
  Image dst(3, 1, 1, ElemType::f32);
  Kernel k{3, 1, {1, 0, 0}};
  ConvolveParams p;
  p.border = {Border::constant, {300.6, 0, 0, 0}};
  convolve(src, dst, k, p);
  EXPECT_EQ(values(dst), (std::vector<double>{255, 10, 20}));
}

TEST(CpuFilters, SobelScharrLaplacianOnRamps) {
  // f(x, y) = 2x + 3y: Sobel 3x3 dx = (f(x+1) - f(x-1)) * (1 + 2 + 1) = 16, dy = 24;
  // Scharr dx = 2 * 2 * 16 = 64; Laplacian of a plane = 0. Checked away from the border.
  std::vector<double> v;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) v.push_back(2 * x + 3 * y);
  Image src = make(9, 9, ElemType::f32, v);
  Image dst(9, 9, 1, ElemType::f32);
  sobel(src, dst, {1, 0, 3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 16);
  sobel(src, dst, {0, 1, 3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 24);
  sobel(src, dst, {0, 1, 1, 1.0, 0.0, {}});  // ksize 1: f(y+1) - f(y-1) = 6
  EXPECT_EQ(test::at(dst, 4, 4, 0), 6);
  // ksize 5: [-1 -2 0 2 1] on 2x gives 16, times [1 4 6 4 1] (sum 16), * 0.5 + 1.
  sobel(src, dst, {1, 0, 5, 0.5, 1.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 16 * 16 * 0.5 + 1);
  scharr(src, dst, {1, 0, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 64);
  for (int k : {1, 3, 5}) {
    laplacian(src, dst, {k, 1.0, 0.0, {}});
    EXPECT_EQ(test::at(dst, 4, 4, 0), 0) << "ksize " << k;
  }
  // x^2: second derivative 2; ksize 1 gives 2, ksize 3 ([2 0 2; 0 -8 0; 2 0 2]) gives 2 * 2 * 2.
  std::vector<double> q;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) q.push_back(x * x);
  Image sq = make(9, 9, ElemType::f32, q);
  laplacian(sq, dst, {1, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 2);
  laplacian(sq, dst, {3, 1.0, 0.0, {}});
  EXPECT_EQ(test::at(dst, 4, 4, 0), 8);
}

TEST(CpuFilters, DerivativeSaturatesOnIntegersAndIsSignedInF32) {
  // A falling step: the x derivative is negative: 0 in u8 (saturated), negative in f32.
  Image src = make(5, 1, ElemType::u8, {200, 200, 100, 100, 100});
  Image u8(5, 1, 1, ElemType::u8), f32(5, 1, 1, ElemType::f32);
  SobelParams p{1, 0, 1, 1.0, 0.0, {}};
  sobel(src, u8, p);
  sobel(src, f32, p);
  EXPECT_EQ(values(u8), (std::vector<double>{0, 0, 0, 0, 0}));
  EXPECT_EQ(values(f32), (std::vector<double>{0, -100, -100, 0, 0}));
  p.delta = 150;
  sobel(src, u8, p);
  EXPECT_EQ(values(u8), (std::vector<double>{150, 50, 50, 150, 150}));
}

TEST(CpuFilters, RoundsHalfToEven) {
  // Box 2x1, anchor 1: (src(x-1) + src(x)) / 2 with replicate: 1, 1.5 -> 2, 2.5 -> 2, 3.5 -> 4.
  Image src = make(4, 1, ElemType::u8, {1, 2, 3, 4});
  Image dst(4, 1, 1, ElemType::u8);
  BoxParams p;
  p.ksize_x = 2;
  p.ksize_y = 1;
  p.border.border = Border::replicate;
  box_filter(src, dst, p);
  EXPECT_EQ(values(dst), (std::vector<double>{1, 2, 2, 4}));
}

TEST(CpuFilters, SharpenImpulse) {
  std::vector<double> v(25, 0.0);
  v[12] = 10;
  Image src = make(5, 5, ElemType::f32, v);
  Image dst(5, 5, 1, ElemType::f32);
  sharpen(src, dst);  // strength 1: the plain kernel: 50 at the centre, -10 at the 4 neighbours
  EXPECT_EQ(test::at(dst, 2, 2, 0), 50);
  EXPECT_EQ(test::at(dst, 1, 2, 0), -10);
  EXPECT_EQ(test::at(dst, 2, 3, 0), -10);
  EXPECT_EQ(test::at(dst, 1, 1, 0), 0);
  sharpen(src, dst, 0.5);  // 10 + 0.5 * (50 - 10) = 30; 0 + 0.5 * (-10) = -5
  EXPECT_EQ(test::at(dst, 2, 2, 0), 30);
  EXPECT_EQ(test::at(dst, 2, 1, 0), -5);
  sharpen(src, dst, 0.0);  // identity
  EXPECT_EQ(values(dst), values(src));
}

TEST(CpuFilters, GaussianKernelFormulaAndTable) {
  EXPECT_EQ(gaussian_kernel(3, 0), (std::vector<float>{0.25f, 0.5f, 0.25f}));
  EXPECT_EQ(gaussian_kernel(5, -1), (std::vector<float>{0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f}));
  // sigma 1, size 5: exp(-x^2 / 2) normalized, in double here.
  const std::vector<float> k = gaussian_kernel(5, 1.0);
  double sum = 0;
  for (int i = -2; i <= 2; ++i) sum += std::exp(-0.5 * i * i);
  for (int i = -2; i <= 2; ++i) EXPECT_NEAR(k[i + 2], std::exp(-0.5 * i * i) / sum, 1e-7) << i;
  // Sizes derived from sigma: 2 * 4 * sigma + 1 (f32) vs 2 * 3 * sigma + 1 (u8): an impulse shows
  // the support. sigma 1: 9 taps for f32, 7 taps for u8.
  for (ElemType t : {ElemType::f32, ElemType::u8}) {
    std::vector<double> v(21, 0.0);
    v[10] = t == ElemType::u8 ? 255 : 1;
    Image src = make(21, 1, t, v);
    Image dst(21, 1, 1, t);
    GaussianParams p;
    p.sigma_x = 1.0;
    p.ksize_y = 1;
    p.border.border = Border::constant;
    gaussian_blur(src, dst, p);
    int support = 0;
    for (int x = 0; x < 21; ++x) support += test::at(dst, x, 0, 0) != 0 ? 1 : 0;
    EXPECT_EQ(support, t == ElemType::f32 ? 9 : 7) << to_string(t);
  }
}

TEST(CpuFilters, SeparableEqualsConvolveWithOuterProduct) {
  Image src = test::random_image(37, 29, 3, ElemType::f32, 4);
  const std::vector<float> kx{0.5f, -1.0f, 2.0f}, ky{1.0f, 0.25f, -0.5f, 3.0f, 1.0f};
  Kernel k{3, 5, {}};
  for (float b : ky)
    for (float a : kx) k.values.push_back(a * b);
  for (Border b : {Border::constant, Border::reflect, Border::wrap}) {
    Image a(37, 29, 3, ElemType::f32), c(37, 29, 3, ElemType::f32);
    SeparableParams sp;
    sp.border.border = b;
    sp.anchor_x = 0;
    sp.anchor_y = 3;
    separable_filter(src, a, kx, ky, sp);
    ConvolveParams cp;
    cp.border.border = b;
    cp.anchor_x = 0;
    cp.anchor_y = 3;
    convolve(src, c, k, cp);
    // Same sums in another association: float rounding of terms up to 3 * 15.75 -> 1e-5 abs.
    EXPECT_LE(test::compare(a, c).max_abs, 1e-5) << to_string(b);
  }
}

TEST(CpuFilters, UnsharpMaskIsItsDefinition) {
  // out = src + amount * (src - blur) where |src - blur| >= threshold, else src; blur is
  // gaussian_blur in src's type (checked against OpenCV in test_filters_opencv.cpp).
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    Image src = test::random_image(41, 23, 3, t, 7);
    UnsharpParams p;
    p.sigma = 1.5;
    p.amount = 0.8;
    const double fs = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1;
    p.threshold = 0.1 * fs + (t == ElemType::f32 ? 0 : 0.5);  // never equal to an integer diff
    Image ours(41, 23, 3, t), blur(41, 23, 3, t);
    unsharp_mask(src, ours, p);
    GaussianParams g;
    g.sigma_x = p.sigma;
    gaussian_blur(src, blur, g);
    double worst = 0;
    long sharpened = 0, kept = 0;
    for (int y = 0; y < 23; ++y)
      for (int x = 0; x < 41; ++x)
        for (int c = 0; c < 3; ++c) {
          const double s = test::at(src, x, y, c), d = s - test::at(blur, x, y, c);
          double e = std::fabs(d) >= p.threshold ? s + p.amount * d : s;
          (std::fabs(d) >= p.threshold ? sharpened : kept)++;
          if (t != ElemType::f32) e = std::min(std::max(std::nearbyint(e), 0.0), fs);
          worst = std::max(worst, std::fabs(test::at(ours, x, y, c) - e));
        }
    // Integers: float vs double can round a value at .5 the other way: 1 level. f32: float
    // rounding of s + amount * d with values in [0, 1.8]: 1e-6.
    EXPECT_LE(worst, t == ElemType::f32 ? 1e-6 : 1.0) << to_string(t);
    EXPECT_GT(sharpened, 100) << to_string(t);  // both branches are exercised
    EXPECT_GT(kept, 100) << to_string(t);
  }
}

TEST(CpuFilters, SubImageViewsAndPitch) {
  // A filter on a sub-view equals the filter on a tight copy of it (no parent pixels are read).
  Image owner;
  const ImageView v = test::padded_view(owner, 19, 13, 4, ElemType::u16, 7, 5, 3);
  Image fill = test::random_image(19, 13, 4, ElemType::u16, 3);
  for (int y = 0; y < 13; ++y)
    std::copy(fill.view().row<std::uint16_t>(y), fill.view().row<std::uint16_t>(y) + 19 * 4,
              v.row<std::uint16_t>(y));
  GaussianParams p;
  p.sigma_x = 2.0;
  Image a(19, 13, 4, ElemType::u16), b(19, 13, 4, ElemType::u16);
  gaussian_blur(v, a, p);
  gaussian_blur(fill, b, p);
  EXPECT_EQ(test::compare(a, b).count, 0);
}

TEST(CpuFilters, LargeImageRunsInParallelLikeSerial) {
  // 300x200 crosses the parallel threshold; rows computed by different threads equal the same
  // rows of a small serial run on a crop that holds their whole neighbourhood.
  Image src = test::random_image(300, 200, 1, ElemType::f32, 9);
  Image big(300, 200, 1, ElemType::f32);
  GaussianParams p;
  p.ksize_x = p.ksize_y = 5;
  gaussian_blur(src, big, p);
  const ImageView crop = src.view().roi(Rect{100, 100, 20, 20});
  Image small(20, 20, 1, ElemType::f32);
  gaussian_blur(crop, small, p);
  // Interior of the crop (2 pixels from its edge) sees the same pixels.
  for (int y = 2; y < 18; ++y)
    for (int x = 2; x < 18; ++x)
      ASSERT_EQ(test::at(small, x, y, 0), test::at(big, 100 + x, 100 + y, 0)) << x << "," << y;
}

}  // namespace
}  // namespace texcv

namespace texcv {
namespace {

TEST(FilterRegistry, PipelineStepsRunTheFilters) {
  Image src = test::random_image(33, 21, 3, ElemType::u8, 12);
  // convolve with the sharpen kernel inline equals sharpen.
  Image a = apply("convolve", src, {{"kernel", "0|-1|0|-1|5|-1|0|-1|0"}});
  Image b(33, 21, 3, ElemType::u8);
  sharpen(src, b);
  EXPECT_EQ(test::compare(a, b).count, 0);
  // gaussian_blur sigma=2 equals the C++ call with sigma 2 (ksize derived).
  Image g = apply("gaussian_blur", src, {{"sigma", "2"}, {"border", "wrap"}});
  GaussianParams gp;
  gp.sigma_x = 2;
  gp.border.border = Border::wrap;
  gaussian_blur(src, b, gp);
  EXPECT_EQ(test::compare(g, b).count, 0);
  Image s = apply("sobel", src, {{"dx", "0"}, {"dy", "1"}, {"delta", "128"}});
  sobel(src, b, SobelParams{0, 1, 3, 1.0, 128.0, {}});
  EXPECT_EQ(test::compare(s, b).count, 0);
  Image bx = apply("box_filter", src, {{"ksize", "5"}, {"ksize_y", "3"}});
  box_filter(src, b, BoxParams{5, 3, true, -1, -1, {}});
  EXPECT_EQ(test::compare(bx, b).count, 0);
  for (const char* op : {"sharpen", "unsharp_mask", "scharr", "laplacian", "separable_filter"}) {
    ParamValues pv;
    if (std::string(op) == "separable_filter") pv = {{"row", "1|2|1"}, {"column", "1"}};
    EXPECT_EQ(apply(op, src, pv).width(), 33) << op;
  }
  try {
    validate("convolve", {{"kernel", "1|2|3|4|5"}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "convolve: the kernel is not square and kw/kh are not given; got 5 numbers, "
                 "expected a square count, or kw and/or kh");
  }
  try {
    validate("convolve", {{"kernel", "1|2|3|4|5|6"}, {"kw", "4"}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "convolve: the kernel count differs from kw x kh; got 6 numbers, expected 4x1 = "
                 "4");
  }
}

}  // namespace
}  // namespace texcv
