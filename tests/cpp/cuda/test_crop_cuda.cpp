// crop and device-to-device copy on the CUDA backend against the CPU backend: identical, for
// every element type and channel count, at rectangles and destinations whose alignment selects
// each copy kernel (16-byte words, 4-byte words, cudaMemcpy2DAsync for odd bytes). Device
// outputs are poisoned first; a frame around the destination must stay poisoned.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

TEST(CropCuda, IdenticalToCpuAtEveryAlignment) {
  TEXCV_REQUIRE_GPU();
  const Rect rects[] = {
      {0, 0, 67, 41}, {16, 3, 32, 20}, {1, 1, 33, 17}, {4, 7, 12, 9}, {66, 40, 1, 1}};
  std::uint32_t seed = 7;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    for (int c : {1, 3, 4}) {
      const Image host = test::random_image(67, 41, c, t, ++seed);
      Image dsrc(67, 41, c, t, Location::device);
      texcv::copy(host, dsrc);
      for (const Rect& r : rects) {
        for (int frame : {0, 1}) {
          SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(c) + " rect " +
                       std::to_string(r.x) + "," + std::to_string(r.y) + " " +
                       std::to_string(r.width) + "x" + std::to_string(r.height) + " frame " +
                       std::to_string(frame));
          Image want(r.width, r.height, c, t);
          crop(host, want, r);
          Image dout(r.width + 2 * frame, r.height + 2 * frame, c, t, Location::device);
          test::poison(dout);
          const ImageView inner = dout.view().roi({frame, frame, r.width, r.height});
          crop(dsrc, inner, r);
          const Image all = test::to_host(dout);
          const test::Diff d =
              test::compare(all.view().roi({frame, frame, r.width, r.height}), want);
          EXPECT_EQ(d.count, 0) << d.describe();
          EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
          const long frame_written =
              test::written_outside(all.view(), {frame, frame, r.width, r.height});
          EXPECT_EQ(frame_written, 0) << "elements written outside the destination";
        }
      }
    }
  }
}

}  // namespace
}  // namespace texcv
