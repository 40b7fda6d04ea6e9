// remap on the CUDA backend against the CPU backend over the sampling grid, with maps reaching
// every border region (cuda/geometry_test_util.hpp).
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

TEST_P(GeometryCuda, RemapMatchesCpu) {
  TEXCV_REQUIRE_GPU();
  const TypeCase& k = GetParam();
  const int dw = 53, dh = 41;
  Image mx(dw, dh, 1, ElemType::f32), my(dw, dh, 1, ElemType::f32);
  for (int y = 0; y < dh; ++y)
    for (int x = 0; x < dw; ++x) {
      // Coordinates from about -13 to the size + 13 (every border region), some exactly on
      // pixel centres.
      const float fxy = static_cast<float>(x), fyy = static_cast<float>(y);
      float fx = fxy * 2.3f - 10.0f + 3.0f * std::sin(0.3f * fyy);
      float fy = fyy * 2.1f - 10.0f + 2.0f * std::cos(0.2f * fxy);
      if ((x + y) % 7 == 0) fx = std::round(fx);
      if ((x + 2 * y) % 5 == 0) fy = std::round(fy);
      mx.view().row<float>(y)[x] = fx;
      my.view().row<float>(y)[x] = fy;
    }
  const Image src = random_image(kBigW, kBigH, k.channels, k.type, 51);
  const ImageView mxv = mx.view(), myv = my.view();
  // Device maps: one whole image, one sub-image view.
  const Dev dmx = upload(mx, Layout::image), dmy = upload(my, Layout::roi);
  run_grid(
      "remap", k, src, dw, dh,
      [=](int x, int y, float& sx, float& sy) {
        sx = mxv.row<const float>(y)[x];
        sy = myv.row<const float>(y)[x];
      },
      [&](const ImageView& in, const ImageView& out, const Sampling& s) {
        if (in.location == Location::host)
          texcv::remap(in, out, mx.view(), my.view(), s);
        else
          texcv::remap(in, out, dmx.view, dmy.view, s);
      });
}

}  // namespace
}  // namespace texcv::geometry_cuda_test
