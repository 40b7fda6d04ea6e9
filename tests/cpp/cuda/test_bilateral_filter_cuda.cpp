// bilateral_filter on the CUDA backend: IDENTICAL bits to the CPU backend
// (cuda/same_bits_test_util.hpp) for u8 and f32 x 1 and 3 channels x the five borders (constant
// with per-channel values outside the f32 range, so the table widens) x several d / sigma pairs,
// a disc of more than one shared-memory chunk, the tiled kernel's block edges and tiny images, a
// constant f32 image (copied), and f32 non-finite inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include "common/test_support.hpp"
#include "cuda/same_bits_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::same_bits_cuda_test {
namespace {

const Border kBorders[] = {Border::constant, Border::replicate, Border::reflect, Border::reflect101,
                           Border::wrap};

FilterBorder border_of(Border b) {
  FilterBorder fb;
  fb.border = b;
  fb.value = {11.0, 250.0, 77.0, 130.0};
  return fb;
}

struct BilateralCase {
  int d;
  double sc, ss;  // sigma_color in u8 units (f32 sources: divided by 255)
};

Op bilateral_op(const BilateralCase& cs, ElemType t, Border b) {
  BilateralParams p;
  p.d = cs.d;
  p.sigma_color = t == ElemType::u8 ? cs.sc : cs.sc / 255.0;
  p.sigma_space = cs.ss;
  p.border = border_of(b);
  return [p](const ImageView& s, const ImageView& d) { bilateral_filter(s, d, p); };
}

std::string bilateral_name(const BilateralCase& cs, ElemType t, int c, Border b) {
  return "bilateral d " + std::to_string(cs.d) + " sc " + std::to_string(cs.sc) + " ss " +
         std::to_string(cs.ss) + " " + name_of(t, c) + " " + to_string(b);
}

TEST(NonlinearCuda, BilateralIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // d = 0 derives r = round(1.5 * 2) = 3; d = 4 gives r = 2; sigma_color 10 weights steeply
  // (u8 distances reach the table's zeros), 200 almost flat.
  const BilateralCase cases[] = {{3, 30, 2}, {4, 10, 1.5}, {5, 200, 3}, {0, 40, 2}, {9, 75, 5}};
  std::uint32_t seed = 2000;
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3})
      for (Border b : kBorders) {
        const Image src = source(67, 41, t, c, ++seed);
        for (const BilateralCase& cs : cases)
          expect_same(bilateral_name(cs, t, c, b), src, bilateral_op(cs, t, b));
      }
}

TEST(NonlinearCuda, BilateralLargeDiscIdenticalToCpu) {
  // r = 20: 1257 taps, more than one shared-memory chunk of the disc (1024).
  TEXCV_REQUIRE_GPU();
  const BilateralCase cs{41, 50, 12};
  std::uint32_t seed = 3000;
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3})
      for (Border b : {Border::constant, Border::reflect101}) {
        const Image src = source(45, 33, t, c, ++seed);
        expect_same(bilateral_name(cs, t, c, b), src, bilateral_op(cs, t, b));
      }
}

TEST(NonlinearCuda, BilateralTiledAcrossBlocksAndOnTinyImages) {
  // The tiled kernel's blocks cover 128 x 16 pixels (tuning::Bilateral, 4 x 2 a thread): images of
  // several blocks each way with partial last blocks, blocks whose tile lies inside the image
  // (no border) and images smaller than the disc, where the tile's border reflects more than
  // once. r = 7 and r = 40 (5025 taps, one pass over the disc, no chunks) take the tiled kernel
  // for every type; r = 20 above runs f32 x3 on the disc kernel (its table and tile exceed the
  // shared memory the tiled kernel may take).
  TEXCV_REQUIRE_GPU();
  const BilateralCase cases[] = {{5, 30, 2}, {15, 60, 4}};
  const int sizes[][2] = {{300, 37}, {129, 17}, {1, 1}, {2, 3}, {7, 1}};
  std::uint32_t seed = 5000;
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3})
      for (const auto& wh : sizes) {
        const Image src = source(wh[0], wh[1], t, c, ++seed);
        for (Border b : {Border::constant, Border::reflect101, Border::wrap})
          for (const BilateralCase& cs : cases)
            expect_same(bilateral_name(cs, t, c, b) + " " + std::to_string(wh[0]) + "x" +
                            std::to_string(wh[1]),
                        src, bilateral_op(cs, t, b));
      }
  const BilateralCase wide{81, 90, 20};
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 3}) {
      const Image src = source(150, 90, t, c, ++seed);
      expect_same(bilateral_name(wide, t, c, Border::reflect), src,
                  bilateral_op(wide, t, Border::reflect));
    }
}

TEST(NonlinearCuda, BilateralF32ConstantAndNonFinite) {
  TEXCV_REQUIRE_GPU();
  const BilateralCase cs{5, 40, 2};
  // A constant image: the range is empty, both backends copy (as OpenCV).
  Image flat(23, 17, 3, ElemType::f32);
  for (int y = 0; y < 17; ++y)
    for (int i = 0; i < 23 * 3; ++i) flat.view().row<float>(y)[i] = 0.3f;
  expect_same("bilateral constant f32", flat, bilateral_op(cs, ElemType::f32, Border::reflect101));
  // Infinities and NaNs: the range covers the finite values; both give the same (NaN where the
  // sums meet a non-finite value).
  for (int c : {1, 3}) {
    Image src = source(29, 21, ElemType::f32, c, 4000u + static_cast<std::uint32_t>(c));
    const ImageView v = src.view();
    v.row<float>(3)[5] = std::numeric_limits<float>::quiet_NaN();
    v.row<float>(10)[7 * c] = std::numeric_limits<float>::infinity();
    v.row<float>(15)[20 * c + c - 1] = -std::numeric_limits<float>::infinity();
    for (Border b : {Border::constant, Border::reflect})
      expect_same("bilateral non-finite f32 x" + std::to_string(c) + " " + to_string(b), src,
                  bilateral_op(cs, ElemType::f32, b));
  }
}

}  // namespace
}  // namespace texcv::same_bits_cuda_test
