// erode and dilate on the CUDA backend: identical to the CPU backend
// (cuda/morphology_test_util.hpp) over shapes, sizes, anchors, borders and iterations, one test per
// element type.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "common/test_support.hpp"
#include "cuda/morphology_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::morphology_cuda_test {
namespace {

// erode and dilate over shapes x sizes x anchors x borders x iterations for one element type.
void erode_dilate_matrix(ElemType t) {
  std::uint32_t seed = 2000 + static_cast<std::uint32_t>(t) * 100;
  for (int c : kChannels) {
    Rig rig(source(t, c, ++seed));
    for (int bi = 0; bi < kBorderCases; ++bi)
      for (MorphShape shape : kShapes)
        for (const Size& s : kSizes)
          for (const auto& [ax, ay] : anchors(s.kw, s.kh))
            for (int it : {1, 2, 3}) {
              MorphParams p;
              p.shape = shape;
              p.ksize_x = s.kw;
              p.ksize_y = s.kh;
              p.anchor_x = ax;
              p.anchor_y = ay;
              p.iterations = it;
              p.border = border_case(bi);
              const std::string name = std::string(to_string(t)) + " x" + std::to_string(c) + " " +
                                       border_name(bi) + " " + case_name(p);
              rig.expect_same("erode " + name, [&](const ImageView& a, const ImageView& b,
                                                   void* st) { erode(a, b, p, st); });
              rig.expect_same("dilate " + name, [&](const ImageView& a, const ImageView& b,
                                                    void* st) { dilate(a, b, p, st); });
            }
  }
}

TEST(MorphCuda, ErodeDilateU8IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u8);
}

TEST(MorphCuda, ErodeDilateU16IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::u16);
}

TEST(MorphCuda, ErodeDilateF32IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  erode_dilate_matrix(ElemType::f32);
}

// u8, one channel, rectangles: the 16-pixel kernel on 16-byte loads (sources whose pitch is a
// multiple of 16) at every start column modulo 16 (each is another window offset), and the 4-pixel
// kernel (pitch a multiple of 4 only), on an image wide enough for threads whose whole window is
// inside the row (the matrix above is 67 pixels wide: mostly edge threads).
TEST(MorphCuda, U8RectanglesOnEveryStartColumnAndPitch) {
  TEXCV_REQUIRE_GPU();
  constexpr int kWw = 203, kHh = 29;
  const Image host = test::random_image(kWw + 16, kHh, 1, ElemType::u8, 777);
  // Device sources: the library's pitch, and one of 4-byte but not 16-byte steps.
  Image pitched(kWw + 16, kHh, 1, ElemType::u8, Location::device);
  texcv::copy(host, pitched);
  const std::size_t odd = (static_cast<std::size_t>(kWw + 16) + 15) / 16 * 16 + 4;
  Image owner(static_cast<int>(odd) + 1, kHh, 1, ElemType::u8, Location::device);
  ImageView oddv = host.view();
  oddv.data = owner.data();
  oddv.pitch = odd;
  oddv.location = Location::device;
  texcv::copy(host, oddv);
  ASSERT_EQ(pitched.view().pitch % 16, 0u) << "the test needs a 16-byte pitch";
  Image dout(kWw, kHh, 1, ElemType::u8, Location::device);
  const Size sizes[] = {{3, 3}, {5, 5}, {15, 15}, {7, 1}, {1, 5}, {13, 3}};
  for (const ImageView& whole : {pitched.view(), oddv})
    for (int x0 : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}) {
      const ImageView src = whole.roi({x0, 0, kWw, kHh});
      const ImageView hsrc = host.view().roi({x0, 0, kWw, kHh});
      for (int bi : {0, 1, 2, 4, 5})
        for (const Size& sz : sizes)
          for (const auto& [ax, ay] : anchors(sz.kw, sz.kh))
            for (bool dil : {false, true}) {
              MorphParams p;
              p.ksize_x = sz.kw;
              p.ksize_y = sz.kh;
              p.anchor_x = ax;
              p.anchor_y = ay;
              p.border = border_case(bi);
              SCOPED_TRACE(std::string(dil ? "dilate" : "erode") + " pitch " +
                           std::to_string(whole.pitch) + " start " + std::to_string(x0) + " " +
                           border_name(bi) + " " + case_name(p));
              Image want(kWw, kHh, 1, ElemType::u8);
              if (dil)
                dilate(hsrc, want, p);
              else
                erode(hsrc, want, p);
              test::poison(dout);
              if (dil)
                dilate(src, dout, p);
              else
                erode(src, dout, p);
              const Image got = test::to_host(dout);
              const test::Diff d = test::compare(got, want);
              ASSERT_EQ(d.count, 0) << d.describe();
            }
    }
}

}  // namespace
}  // namespace texcv::morphology_cuda_test
