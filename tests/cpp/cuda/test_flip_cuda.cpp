// flip on the CUDA backend: identical to the CPU backend for every type, channel count and code,
// odd sizes and offsets (cuda/geometry_test_util.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/geometry_test_util.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

namespace texcv::geometry_cuda_test {
namespace {

struct FlipCase {
  ElemType type;
  int channels;
};

class FlipCuda : public testing::TestWithParam<FlipCase> {};

TEST_P(FlipCuda, IdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  const FlipCase& k = GetParam();
  struct Size {
    int w, h;
  };
  for (const Size sz :
       {Size{kSmallW, kSmallH}, Size{kBigW, kBigH}, Size{16, 3}, Size{1, 5}, Size{67, 1}})
    for (FlipCode code : {FlipCode::horizontal, FlipCode::vertical, FlipCode::both}) {
      const Image src = random_image(sz.w, sz.h, k.channels, k.type, 71 + sz.w);
      Image want(sz.w, sz.h, k.channels, k.type);
      texcv::flip(src, want, code);
      for (Layout l : {Layout::image, Layout::roi}) {
        const Dev in = upload(src, l);
        const Dev out = device_image(sz.w, sz.h, k.channels, k.type, l, 1, 2);
        texcv::flip(in.view, out.view, code);
        expect_close(std::to_string(sz.w) + "x" + std::to_string(sz.h) + " " + to_string(code) +
                         " " + to_string(l),
                     out, want, identical());
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Grid, FlipCuda,
                         testing::Values(FlipCase{ElemType::u8, 1}, FlipCase{ElemType::u8, 3},
                                         FlipCase{ElemType::u8, 4}, FlipCase{ElemType::u16, 1},
                                         FlipCase{ElemType::u16, 3}, FlipCase{ElemType::u16, 4},
                                         FlipCase{ElemType::f32, 1}, FlipCase{ElemType::f32, 3},
                                         FlipCase{ElemType::f32, 4}),
                         [](const testing::TestParamInfo<FlipCase>& info) {
                           return std::string(to_string(info.param.type)) + "_c" +
                                  std::to_string(info.param.channels);
                         });

}  // namespace
}  // namespace texcv::geometry_cuda_test
