// The pointwise colour and intensity ops on the CUDA backend (cvt_color, gamma, convert,
// threshold without Otsu), on the caller's stream. Per-element ops treat a row as width *
// channels elements.
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/color/color_launch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/launch_batch.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {

ops::PointSrc point_src(const ImageView& v) {
  return ops::PointSrc{static_cast<const unsigned char*>(v.data), v.pitch};
}

// The destination with its width counted in elements (width * channels).
ops::DstArgs elem_dst(const ImageView& d) {
  ops::DstArgs a = ops::dst_args(d);
  a.width = d.width * d.channels;
  return a;
}

}  // namespace

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream) {
  constexpr const char* kOp = "cvt_color";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_cvt_color<T>(point_src(src), ops::dst_args(dst), code, st);
  });
}

void gamma(const ImageView& src, const ImageView& dst, double g, void* stream) {
  constexpr const char* kOp = "gamma";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  const ops::PointSrc s = point_src(src);
  const ops::DstArgs d = elem_dst(dst);
  switch (src.type) {
    case ElemType::u8: {
      // The CPU's table, passed by value.
      const std::vector<std::uint8_t> lut = detail::gamma_lut<std::uint8_t>(g);
      ops::GammaLut8 l;
      for (int i = 0; i < 256; ++i) l.v[i] = lut[static_cast<std::size_t>(i)];
      ops::launch_gamma_u8(s, d, l, st);
      return;
    }
    case ElemType::u16: {
      // The CPU's table in stream-ordered device memory, freed on the stream after the kernel.
      const std::vector<std::uint16_t> lut = detail::gamma_lut<std::uint16_t>(g);
      const std::size_t bytes = lut.size() * sizeof(std::uint16_t);
      void* p = nullptr;
      TEXCV_CUDA_CHECK(kOp, cudaMallocAsync(&p, bytes, st));
      try {
        // From pageable memory: returns once `lut` was staged, so it may be freed after.
        TEXCV_CUDA_CHECK(kOp, cudaMemcpyAsync(p, lut.data(), bytes, cudaMemcpyHostToDevice, st));
        const ops::LaunchAtOnce now;  // the table is freed on the stream right after
        ops::launch_gamma_u16(s, d, static_cast<const std::uint16_t*>(p), st);
      } catch (...) {
        cudaFreeAsync(p, st);  // already failing: the first error is the one reported
        throw;
      }
      TEXCV_CUDA_CHECK(kOp, cudaFreeAsync(p, st));
      return;
    }
    case ElemType::f32:
      ops::launch_gamma_f32(s, d, static_cast<float>(g), st);
      return;
  }
  fail(ErrorCode::InvalidArgument, kOp, "unsupported element type", to_string(src.type),
       "u8, u16 or f32");
}

void convert(const ImageView& src, const ImageView& dst, const detail::ScaleDesc& sd,
             void* stream) {
  constexpr const char* kOp = "convert";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename S>() {
    ops::launch_convert<S>(point_src(src), elem_dst(dst), dst.type, sd, st);
  });
}

void threshold(const ImageView& src, const ImageView& dst, const detail::ThresholdDesc& td,
               void* stream) {
  constexpr const char* kOp = "threshold";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_threshold<T>(point_src(src), elem_dst(dst), td, st);
  });
}

}  // namespace texcv::cuda
