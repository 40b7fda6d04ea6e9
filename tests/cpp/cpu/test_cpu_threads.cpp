// The CPU backend's thread count: set_cpu_threads is per calling thread, and results do not
// depend on it (convolve and resize, bit for bit).
#include <thread>

#include "common/test_support.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"

namespace texcv {
namespace {

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

}  // namespace
}  // namespace texcv
