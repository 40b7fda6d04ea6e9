// The CUDA filter engine (src/cuda/ops/filter/) that serves the linear filters: its register
// kernels on interior and edge blocks (convolve, separable_filter) identical to the CPU backend,
// and the access paths' errors and fallbacks (sharpen, separable_filter).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/filter_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::filter_cuda_test {
namespace {

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
}  // namespace texcv::filter_cuda_test
