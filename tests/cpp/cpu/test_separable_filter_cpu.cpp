// separable_filter on the CPU backend: equal to convolve with the outer product of its kernels.
#include <algorithm>
#include <cmath>
#include <vector>

#include "src/core/sampling.hpp"

#include "common/test_support.hpp"
#include "cpu/filter_test_util.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_cpu_test {
namespace {

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

// The documented arithmetic of the separable filters (src/cpu/filter_separable.cpp), written
// here again: per source row the x sums ((0 + kx0 p0) + kx1 p1) + ... over the nonzero taps in
// float, then per output element the same over the rows' sums with ky, times scale plus delta,
// rounded half to even and saturated (f32: as is). The products are kept apart from the sums
// (volatile: no fused multiply-add on any target).
Image two_float_passes(const Image& src, const std::vector<float>& kx, const std::vector<float>& ky,
                       int ax, int ay, Border b, float bv, ElemType out) {
  const int w = src.width(), h = src.height(), C = src.channels();
  auto px = [&](int x, int y, int c) {
    const int ix = texcv::detail::border_index(x, w, b), iy = texcv::detail::border_index(y, h, b);
    return ix < 0 || iy < 0 ? bv : static_cast<float>(test::at(src, ix, iy, c));
  };
  const int kw = static_cast<int>(kx.size()), kh = static_cast<int>(ky.size());
  std::vector<double> v;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < C; ++c) {
        float acc = 0.0f;
        for (int j = 0; j < kh; ++j) {
          if (ky[j] == 0.0f) continue;
          float t = 0.0f;
          for (int k = 0; k < kw; ++k) {
            if (kx[k] == 0.0f) continue;
            volatile float m = kx[k] * px(x - ax + k, y - ay + j, c);
            t = t + m;
          }
          volatile float m = ky[j] * t;
          acc = acc + m;
        }
        if (out == ElemType::f32) {
          v.push_back(acc);
        } else {
          const double hi = out == ElemType::u8 ? 255.0 : 65535.0;
          const float r = std::nearbyint(std::clamp(acc, 0.0f, static_cast<float>(hi)));
          v.push_back(std::isnan(acc) ? 0.0 : r);
        }
      }
  return from_values(w, h, C, out, v);
}

// Rows wide enough that the y pass's rows of x sums exceed the ring budget: the image is
// filtered in column strips of whole pixels (3 channels: strips of 510 elements), the last one
// narrower. The output equals the two float passes above bit for bit on every border (constant
// with a value), with off-centre anchors and a zero tap, u8 and f32.
TEST(CpuFilters, SeparableInColumnStripsEqualsTheTwoFloatPasses) {
  const std::vector<float> kx{0.03f, 0.1f,  0.0f,  0.2f,  0.25f, 0.1f, 0.07f,
                              0.05f, 0.04f, 0.03f, 0.05f, 0.06f, 0.02f},
      ky{0.02f, 0.05f, 0.1f, 0.13f, 0.2f, 0.15f, 0.1f, 0.08f, 0.06f, 0.04f, 0.03f, 0.02f, 0.02f};
  struct Case {
    int w, h, c;
    ElemType t;
  };
  for (const Case k : {Case{1517, 23, 3, ElemType::u8}, Case{3001, 17, 1, ElemType::f32},
                       Case{1100, 9, 4, ElemType::u8}}) {
    const Image src = test::random_image(k.w, k.h, k.c, k.t, 77 + k.w);
    for (Border b : {Border::constant, Border::replicate, Border::reflect101, Border::wrap}) {
      SeparableParams sp;
      sp.border.border = b;
      sp.border.value = {37.0, 37.0, 37.0, 37.0};
      sp.anchor_x = 3;
      sp.anchor_y = 8;
      Image got(k.w, k.h, k.c, k.t);
      separable_filter(src, got, kx, ky, sp);
      const Image want = two_float_passes(src, kx, ky, 3, 8, b, 37.0f, k.t);
      EXPECT_EQ(test::compare(got, want).max_abs, 0.0)
          << k.w << "x" << k.h << " c" << k.c << " " << to_string(b);
    }
  }
}

}  // namespace
}  // namespace texcv::filter_cpu_test
