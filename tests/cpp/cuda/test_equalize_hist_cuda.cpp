// equalize_hist on the CUDA backend: identical to the CPU backend (cuda/hist_test_util.hpp) on
// random, low-contrast and constant images.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::hist_cuda_test {
namespace {

TEST(HistCuda, EqualizeHistIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  std::uint32_t seed = 4000;
  const Op op = [](const ImageView& s, const ImageView& d) { equalize_hist(s, d); };
  for (const Size& sz : kSizes) {
    expect_same("equalize_hist random " + size_str(sz), random_of(sz, ElemType::u8, 1, ++seed), op);
    // Low contrast: levels 50 .. 89 only (the table stretches them; the lowest maps to 0).
    expect_same("equalize_hist low contrast " + size_str(sz),
                structured(sz, ElemType::u8, 50, 40, ++seed), op);
    Image flat(sz.w, sz.h, 1, ElemType::u8);
    for (int y = 0; y < sz.h; ++y) set_row(flat, y, 131);
    expect_same("equalize_hist constant " + size_str(sz), flat, op);  // unchanged
  }
}

// The GPU's own table (the counting kernel's last block) and its counting paths: a width with
// bytes past the last 16-byte word of each row (4099 = 256 * 16 + 3) over enough rows for many
// blocks, a width under one word (13), two levels only (the first occupied level 0 and 255),
// levels 200 .. 255 only (the table starts above 0), a single pixel: identical to the CPU every
// time (whole images and offset sub-views, the latter counted byte by byte). In place (src ==
// dst) is refused as on the CPU, with the image untouched.
TEST(HistCuda, EqualizeHistTableOnTheGpuOnEveryCountingPath) {
  TEXCV_REQUIRE_GPU();
  const Op op = [](const ImageView& s, const ImageView& d) { equalize_hist(s, d); };
  std::uint32_t seed = 4100;
  for (const Size sz : {Size{4099, 300}, Size{13, 7}, Size{1, 1}})
    expect_same("equalize_hist random " + size_str(sz), random_of(sz, ElemType::u8, 1, ++seed), op);
  Image two(300, 200, 1, ElemType::u8);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 300; ++x)
      static_cast<std::uint8_t*>(two.data())[y * two.pitch() + x] = (x * 7 + y) % 5 == 0 ? 0 : 255;
  expect_same("equalize_hist two levels", two, op);
  expect_same("equalize_hist levels 200..255", structured({517, 77}, ElemType::u8, 200, 56, ++seed),
              op);

  const Image src = random_of({1031, 259}, ElemType::u8, 1, ++seed);
  Image dev(src.width(), src.height(), 1, ElemType::u8, Location::device);
  copy(src, dev);
  test::expect_error([&] { equalize_hist(dev, dev); }, ErrorCode::InvalidArgument,
                     "equalize_hist: output aliasing input; got destination bytes overlapping the "
                     "source, expected separate memory");
  const Image got = test::to_host(dev.view());
  long off = 0;
  for (int y = 0; y < src.height(); ++y)
    for (int x = 0; x < src.width(); ++x) off += test::at(got, x, y, 0) != test::at(src, x, y, 0);
  EXPECT_EQ(off, 0) << "the refused in-place call changed the image";
}

}  // namespace
}  // namespace texcv::hist_cuda_test
