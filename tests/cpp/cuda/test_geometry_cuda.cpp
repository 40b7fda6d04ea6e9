// The CUDA geometric operations' shared parts: the instantiation of the sampling grid over
// element types and channel counts (its tests, one per op, are in test_<op>_cuda.cpp; helpers
// and bounds in cuda/geometry_test_util.hpp), and the explicit access paths: errors, unbindable
// views, texture reuse, the automatic path's choice.
#include <gtest/gtest.h>

#include <string>

#include "common/test_support.hpp"
#include "cuda/geometry_test_util.hpp"
#include "src/core/sampling.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>

#include "src/cuda/ops/common/path_rule.hpp"
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv::geometry_cuda_test {
namespace {

// Every GeometryCuda test (test_<op>_cuda.cpp) on each element type and channel count.
INSTANTIATE_TEST_SUITE_P(Grid, GeometryCuda, kTypeCases, type_case_name);

using test::expect_error;

TEST(GeometryCudaPaths, ThreeChannelTexturePathIsUnsupportedWithReason) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kSmallW, kSmallH, 3, ElemType::u8, 1);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 3, ElemType::u8, Layout::image, 0, 0);
  for (Path path : {Path::texture, Path::texture_filter}) {
    ResizeParams p;
    p.path = path;
    p.precision = Precision::fast;
    const std::string msg =
        std::string("resize: path ") + to_string(path) +
        " needs a texture, and CUDA has no texture format for 3-channel images; use path global "
        "(or automatic), or convert the image to 4 channels; got 3 channels, expected 1 or 4 "
        "channels";
    expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported, msg);
    Sampling s;
    s.path = path;
    s.precision = Precision::fast;
    expect_error(
        [&] {
          texcv::warp_affine(in.view, out.view, {1, 0, 0, 0, 1, 0}, false, s);
        },
        ErrorCode::Unsupported, "warp_affine" + msg.substr(std::string("resize").size()));
  }
  // automatic takes the global path and works.
  ResizeParams p;
  Image want(kSmallW, kSmallH, 3, ElemType::u8);
  texcv::resize(src, want, p);
  texcv::resize(in.view, out.view, p);
  expect_close("automatic, 3 channels", out, want, exact_bound(ElemType::u8));
}

TEST(GeometryCudaPaths, TextureFilterRefusesWhatHardwareCannotDo) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kSmallW, kSmallH, 1, ElemType::f32, 2);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 1, ElemType::f32, Layout::image, 0, 0);
  ResizeParams p;
  p.path = Path::texture_filter;
  p.precision = Precision::fast;
  p.interp = Interp::cubic;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter is hardware bilinear filtering and only does linear "
               "interpolation; use path texture or global for this interpolation; got interp "
               "cubic, expected interp linear");
  p.interp = Interp::nearest;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter is hardware bilinear filtering and only does linear "
               "interpolation; use path texture or global for this interpolation; got interp "
               "nearest, expected interp linear");
  p.interp = Interp::linear;
  p.border = Border::reflect101;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::Unsupported,
               "resize: path texture_filter has no hardware address mode for border reflect101; "
               "use path texture or global, or border reflect; got border reflect101, expected "
               "constant, replicate, reflect or wrap");
  p.border = Border::replicate;
  p.precision = Precision::exact;
  expect_error([&] { texcv::resize(in.view, out.view, p); }, ErrorCode::InvalidArgument,
               "resize: path texture_filter uses hardware weights with 8 fractional bits, which "
               "precision exact forbids; use precision fast, or path global or texture; got "
               "precision exact, expected precision fast");
  // f32 with automatic precision resolves to exact: refused the same way.
  p.precision = Precision::automatic;
  EXPECT_THROW(texcv::resize(in.view, out.view, p), Error);
}

#if defined(TEXCV_HAS_CUDA)
// A device view whose pitch is not a multiple of texturePitchAlignment, filled from host.
struct OddPitch {
  Image owner;
  ImageView view;
};

OddPitch odd_pitch_view(const ImageView& host, std::size_t align) {
  OddPitch o;
  const std::size_t px = host.pixel_bytes();
  std::size_t pitch = host.row_bytes() + px;
  while (pitch % align == 0) pitch += px;
  const int wide = static_cast<int>((pitch + px - 1) / px) + 1;
  o.owner = Image(wide, host.height, host.channels, host.type, Location::device);
  o.view = host;
  o.view.data = o.owner.data();
  o.view.pitch = pitch;
  o.view.location = Location::device;
  texcv::copy(host, o.view);
  return o;
}

TEST(GeometryCudaPaths, UnbindableViewCopiesForExplicitTexturePathsAndAutoUsesGlobal) {
  TEXCV_REQUIRE_GPU();
  const std::size_t align = gpus().at(0).texture_pitch_alignment;
  ASSERT_GT(align, 1u) << "texturePitchAlignment";
  for (ElemType t : {ElemType::u8, ElemType::f32})
    for (int c : {1, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " c" + std::to_string(c));
      const Image src = random_image(kBigW, kBigH, c, t, 3);
      const OddPitch in = odd_pitch_view(src, align);
      std::string why;
      ASSERT_FALSE(cuda::can_bind_pitch2d(in.view, &why)) << "the test needs an unbindable view";
      for (Path path : {Path::texture, Path::texture_filter, Path::automatic}) {
        ResizeParams p;
        p.path = path;
        p.precision = path == Path::texture ? Precision::exact : Precision::fast;
        p.border = Border::constant;
        p.border_value = border_values(t);
        Image want(kSmallW, kSmallH, c, t);
        texcv::resize(src, want, p);
        const Dev out = device_image(kSmallW, kSmallH, c, t, Layout::roi, 1, 2);
        const long before = live_handles().textures;
        texcv::resize(in.view, out.view, p);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        // The scratch copy's texture is released; automatic does not make one at all.
        EXPECT_EQ(live_handles().textures, before) << to_string(path);
        const detail::ResizeAxis ax{static_cast<float>(double(kBigW) / kSmallW), false};
        const detail::ResizeAxis ay{static_cast<float>(double(kBigH) / kSmallH), false};
        const Tol tol = path == Path::texture_filter
                            ? fast_bound(src, p.border, p.border_value,
                                         [=](int x, int y, float& sx, float& sy) {
                                           sx = ax(x);
                                           sy = ay(y);
                                         })
                            : exact_bound(t);  // automatic -> exact precision -> global
        expect_close(std::string("odd pitch ") + to_string(path), out, want, tol);
      }
      detail::SamplingDesc fast;
      fast.precision = Precision::fast;  // bindable, automatic would take texture_filter
      EXPECT_EQ(cuda::ops::resolved_path(cuda::ops::GeomOp::resize, in.view, fast), Path::global);
    }
}

TEST(GeometryCudaPaths, SecondCallReusesTheCachedTexture) {
  TEXCV_REQUIRE_GPU();
  const Image src = random_image(kBigW, kBigH, 4, ElemType::u8, 4);
  const Dev in = upload(src, Layout::image);
  const Dev out = device_image(kSmallW, kSmallH, 4, ElemType::u8, Layout::image, 0, 0);
  for (Path path : {Path::texture, Path::texture_filter}) {
    SCOPED_TRACE(to_string(path));
    ResizeParams p;
    p.path = path;
    p.precision = Precision::fast;
    texcv::resize(in.view, out.view, p);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const long first = live_handles().textures;
    for (int i = 0; i < 3; ++i) texcv::resize(in.view, out.view, p);
    Sampling s;
    s.path = path;
    s.precision = Precision::fast;
    s.border = Border::replicate;  // same texture spec as resize's default border
    texcv::warp_affine(in.view, out.view, {1, 0, 0.5, 0, 1, 0.25}, true, s);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(live_handles().textures, first);
  }
}

TEST(GeometryCudaPaths, AutomaticResolvesToARunnablePath) {
  TEXCV_REQUIRE_GPU();
  using cuda::ops::GeomOp;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      const Image img(64, 32, c, t, Location::device);
      for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
        for (Border b : {Border::constant, Border::reflect101, Border::wrap})
          for (Precision pr : {Precision::exact, Precision::fast}) {
            detail::SamplingDesc s;
            s.interp = ip;
            s.border = b;
            s.precision = pr;
            for (GeomOp op : {GeomOp::resize, GeomOp::warp, GeomOp::remap}) {
              const Path got = cuda::ops::resolved_path(op, img.view(), s);
              SCOPED_TRACE(std::string(to_string(t)) + " c" + std::to_string(c) + " " +
                           to_string(ip) + " " + to_string(b) + " " + to_string(pr) + " -> " +
                           to_string(got));
              EXPECT_NE(got, Path::automatic);
              if (c == 3) {
                EXPECT_EQ(got, Path::global);
              }
              if (got == Path::texture_filter) {
                EXPECT_EQ(ip, Interp::linear);
                EXPECT_NE(b, Border::reflect101);
                EXPECT_EQ(pr, Precision::fast);
              }
            }
          }
      EXPECT_EQ(cuda::ops::resolved_path(GeomOp::flip, img.view(), detail::SamplingDesc{}),
                Path::global);
    }
}
#endif

}  // namespace
}  // namespace texcv::geometry_cuda_test
