// rotate on the CPU backend: a quarter turn is an exact permutation of the pixels.
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/test_support.hpp"
#include "cpu/geometry_test_util.hpp"

namespace texcv::geometry_cpu_test {
namespace {

TEST(CpuWarp, Rotate90IsExactPermutation) {
  for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
    Image src = test::random_image(5, 3, 3, ElemType::u16, 3);
    const Rect r = rotated_size(5, 3, 90, true);
    Image dst(r.width, r.height, 3, ElemType::u16);
    Sampling s;
    s.interp = ip;
    rotate(src, dst, 90, s);
    // Counter-clockwise: dst(x, y) = src(w - 1 - y, x).
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 3; ++x)
        for (int c = 0; c < 3; ++c)
          ASSERT_EQ(at<std::uint16_t>(dst, x, y, c), at<std::uint16_t>(src, 4 - y, x, c))
              << to_string(ip);
  }
}

}  // namespace
}  // namespace texcv::geometry_cpu_test
