// separable_filter on the CUDA backend against the CPU backend: identical results
// (cuda/filter_test_util.hpp), with centred and off-centre anchors, a 1-tap axis and 31-tap
// kernels, into the source's type and f32.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

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

}  // namespace
}  // namespace texcv::filter_cuda_test

namespace texcv::filter_cuda_test {
namespace {

// u8 one channel, separable taps of the form m * 2^-e (m in int8) in both directions, 3 or 5 of
// them: the CUDA backend runs them as the 2-D dp4a kernel of the taps' outer product
// (src/cuda/ops/filter/filter.cpp, separable_as_dp4a) where the source's rows start at 16-byte
// steps and the path is global or automatic, else the separable float kernels; every case must
// give the CPU's bytes. box_filter (normalized and the saturating sum), sobel, scharr, the 3- and
// 5-tap Gaussians of OpenCV's fixed table, separable_filter with the int8 extremes, and one with
// a tap that is not dyadic (0.3: the float kernels). Sources as ConvolveU8DyadicTapsIdenticalTo
// Cpu's: wide enough for interior blocks and narrower than one, at column 16 (aligned) and 3
// (not) of a larger image, the destination whole and at (1, 1); a constant border of 11 (an
// integer byte) and of 11.5.
TEST(FiltersCuda, SeparableU8DyadicTapsIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  using Call = std::function<void(const ImageView&, const ImageView&, const FilterBorder&)>;
  struct Case {
    std::string name;
    bool f32_out;  // also into f32
    Call call;
  };
  std::vector<Case> cases;
  for (int k : {3, 5})
    for (bool norm : {true, false})
      cases.push_back({"box " + std::to_string(k) + (norm ? " mean" : " sum"), false,
                       [k, norm](const ImageView& s, const ImageView& d, const FilterBorder& b) {
                         BoxParams p;
                         p.ksize_x = p.ksize_y = k;
                         p.normalize = norm;
                         p.border = b;
                         box_filter(s, d, p);
                       }});
  const int sobels[][4] = {{1, 0, 3, 0}, {0, 1, 3, 1}, {1, 1, 5, 0}, {2, 0, 5, 1}};
  for (const auto& k : sobels)
    cases.push_back({"sobel dx " + std::to_string(k[0]) + " dy " + std::to_string(k[1]) +
                         " ksize " + std::to_string(k[2]),
                     true, [k](const ImageView& s, const ImageView& d, const FilterBorder& b) {
                       SobelParams p;
                       p.dx = k[0];
                       p.dy = k[1];
                       p.ksize = k[2];
                       p.scale = k[3] ? 0.25 : 1.0;
                       p.delta = k[3] ? 128.0 : 0.0;
                       p.border = b;
                       sobel(s, d, p);
                     }});
  cases.push_back(
      {"scharr dx 1", true, [](const ImageView& s, const ImageView& d, const FilterBorder& b) {
         ScharrParams p;
         p.dx = 1;
         p.dy = 0;
         p.scale = 0.0625;
         p.delta = 3.0;
         p.border = b;
         scharr(s, d, p);
       }});
  for (int k : {3, 5})
    cases.push_back({"gaussian " + std::to_string(k) + " sigma 0", false,
                     [k](const ImageView& s, const ImageView& d, const FilterBorder& b) {
                       GaussianParams p;
                       p.ksize_x = p.ksize_y = k;
                       p.border = b;
                       gaussian_blur(s, d, p);
                     }});
  const std::vector<float> extremes{127.0f / 128, -1.0f, 0.5f, -0.25f, 127.0f / 128};
  const std::vector<float> halves{0.5f, -1.0f, 0.75f};
  const std::vector<float> not_dyadic{0.25f, 0.3f, 0.25f};
  for (const auto& [name, kx, ky] :
       {std::tuple{"separable int8 extremes", extremes, extremes},
        std::tuple{"separable halves", halves, halves},
        std::tuple{"separable 0.3 (float kernels)", not_dyadic, halves}})
    cases.push_back(
        {name, true, [kx, ky](const ImageView& s, const ImageView& d, const FilterBorder& b) {
           SeparableParams p;
           p.delta = 0.5;
           p.border = b;
           separable_filter(s, d, kx, ky, p);
         }});
  const int sizes[][2] = {{1100, 70}, {75, 141}, {20, 3}, {1, 1}};
  std::uint32_t seed = 91;
  for (const auto& wh : sizes) {
    const int w = wh[0], h = wh[1];
    const Image host = test::random_image(w, h, 1, ElemType::u8, ++seed);
    Image dsrc(w + 32, h + 2, 1, ElemType::u8, Location::device);
    ASSERT_EQ(dsrc.view().pitch % 16, 0u);
    for (int sx : {16, 3}) {
      const ImageView sv = dsrc.view().roi({sx, 1, w, h});
      texcv::copy(host, sv);
      for (const Case& c : cases)
        for (Border b : kBorders)
          for (double cval : {11.0, 11.5}) {
            if (cval != 11.0 && b != Border::constant) continue;
            FilterBorder fb;
            fb.border = b;
            fb.value = {cval, cval, cval, cval};
            for (ElemType dt : {ElemType::u8, ElemType::f32}) {
              if (dt == ElemType::f32 && !c.f32_out) continue;
              Image want(w, h, 1, dt);
              c.call(host, want, fb);
              for (int f : {0, 1}) {
                Image dout(w + 2 * f + 1, h + 2 * f, 1, dt, Location::device);
                test::poison(dout);
                c.call(sv, dout.view().roi({f, f, w, h}), fb);
                const Image all = test::to_host(dout);
                const test::Diff d = test::compare(all.view().roi({f, f, w, h}), want);
                EXPECT_EQ(d.count, 0) << c.name << " " << w << "x" << h << " source column " << sx
                                      << " " << to_string(b) << " " << cval << " -> "
                                      << to_string(dt) << " frame " << f << ": " << d.describe();
                EXPECT_EQ(test::written_outside(all.view(), {f, f, w, h}), 0);
              }
            }
          }
    }
  }
}

}  // namespace
}  // namespace texcv::filter_cuda_test

namespace texcv::filter_cuda_test {
namespace {

// 13 and 17 centred taps of 4-channel u8/u16 run sep_tile4_kernel on the global and automatic
// paths (32 x 64 output pixels a block, both passes through shared memory; TEXCV_SEP_TILE_ROWS=32
// runs its 32-row build). Every border; sources with many interior blocks (300 x 200), edge
// blocks only (33 x 65), smaller than the window (5 x 3, 1 x 1); the source at (3, 1) of a larger
// image and the destination at (1, 1) of a poisoned one; and a u8 source whose pixels do not start
// on 4-byte steps (a view one byte into a device buffer: the element-wise loads and stores). Taps:
// random ones with zeros (delta 40.5), a Gaussian (delta 0).
TEST(FiltersCuda, FourChannelLongTapsOnTheSharedTileIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const int sizes[][2] = {{300, 200}, {33, 65}, {5, 3}, {1, 1}};
  std::uint32_t seed = 4100;
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (int nb : {13, 17})
      for (const auto& wh : sizes) {
        const int w = wh[0], h = wh[1];
        const Image host = test::random_image(w, h, 4, t, ++seed);
        const std::vector<float> kx = random_taps(nb, seed * 3 + 1),
                                 ky = random_taps(nb, seed * 3 + 2);
        std::vector<float> g(static_cast<std::size_t>(nb));
        float sum = 0.0f;
        for (int i = 0; i < nb; ++i)
          sum += g[i] = std::exp(-0.5f * (i - nb / 2) * (i - nb / 2) / 9.0f);
        for (float& v : g) v /= sum;
        for (Border b : kBorders)
          for (int taps = 0; taps < 2; ++taps) {
            SeparableParams p;
            p.border = border_of(b);
            p.delta = taps ? 0.0 : 40.5;
            const std::vector<float>& x = taps ? g : kx;
            const std::vector<float>& y = taps ? g : ky;
            Image want(w, h, 4, t);
            separable_filter(host, want, x, y, p);
            for (Path path : {Path::global, Path::automatic})
              for (int f : {0, 1}) {
                const std::string what = std::string(to_string(t)) + "x4 " + std::to_string(nb) +
                                         " taps " + std::to_string(w) + "x" + std::to_string(h) +
                                         " " + to_string(b) + (taps ? " gaussian" : " random") +
                                         " path " + to_string(path) + " layout " +
                                         std::to_string(f);
                Image dsrc(w + 6, h + 2, 4, t, Location::device);
                const ImageView sv = dsrc.view().roi({3 * f, f, w, h});
                texcv::copy(host, sv);
                Image dout(w + 2 * f + 1, h + 2 * f, 4, t, Location::device);
                test::poison(dout);
                SeparableParams q = p;
                q.border.path = path;
                separable_filter(sv, dout.view().roi({f, f, w, h}), x, y, q);
                const Image all = test::to_host(dout);
                const test::Diff d = test::compare(all.view().roi({f, f, w, h}), want);
                EXPECT_EQ(d.count, 0) << what << ": " << d.describe();
                EXPECT_EQ(test::written_outside(all.view(), {f, f, w, h}), 0) << what;
              }
            if (t != ElemType::u8) continue;
            // Pixels one byte off 4-byte steps: a u8 buffer seen as 4-channel pixels from byte 1.
            Image buf(4 * w + 8, h + 1, 1, ElemType::u8, Location::device);
            ImageView odd = buf.view();
            odd.data = static_cast<unsigned char*>(odd.data) + 1;
            odd.width = w;
            odd.channels = 4;
            odd.height = h;
            texcv::copy(host, odd);
            Image dout(w, h, 4, t, Location::device);
            test::poison(dout);
            SeparableParams q = p;
            q.border.path = Path::global;
            separable_filter(odd, dout, x, y, q);
            const test::Diff d = test::compare(test::to_host(dout).view(), want);
            EXPECT_EQ(d.count, 0) << "u8x4 " << nb << " taps " << w << "x" << h << " "
                                  << to_string(b) << " source one byte off: " << d.describe();
          }
      }
}

}  // namespace
}  // namespace texcv::filter_cuda_test
