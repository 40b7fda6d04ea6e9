// invert on the CUDA backend against the CPU backend: identical for every element type and
// channel count, whole aligned images (vector loads and stores) and odd sub-views (the scalar
// tail), into poisoned device outputs whose frame must stay poisoned.
#include <gtest/gtest.h>

#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

TEST(InvertCuda, EqualsTheCpuBackend) {
  TEXCV_REQUIRE_GPU();
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4})
      for (int off : {0, 1}) {
        SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(c) + " offset " +
                     std::to_string(off));
        const int w = 67, h = 41;
        const Image host = test::random_image(w + off, h + off, c, t, 3 + c);
        Image want(w, h, c, t);
        invert(host.view().roi({off, off, w, h}), want);
        Image dsrc(w + off, h + off, c, t, Location::device);
        copy(host, dsrc);
        Image dout(w + 2 * off + 1, h + 2 * off, c, t, Location::device);
        Image poisoned(dout.width(), dout.height(), c, t);
        test::poison(poisoned);
        copy(poisoned, dout);
        invert(dsrc.view().roi({off, off, w, h}), dout.view().roi({off, off, w, h}));
        const Image all = test::to_host(dout);
        const test::Diff d = test::compare(all.view().roi({off, off, w, h}), want.view());
        EXPECT_EQ(d.count, 0) << d.describe();
        EXPECT_TRUE(test::is_poison(all, dout.width() - 1, 0, 0)) << "written beside the output";
      }
}

}  // namespace
}  // namespace texcv
