// gamma on the CUDA backend, on the caller's stream: u8 and u16 through the CPU's tables, f32
// per element (a row as width * channels elements).
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/launch_batch.hpp"
#include "src/cuda/ops/gamma/gamma_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void gamma(const ImageView& src, const ImageView& dst, double g, void* stream) {
  constexpr const char* kOp = "gamma";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  const ops::PointSrc s = ops::point_src(src);
  const ops::DstArgs d = ops::elem_dst(dst);
  switch (src.type) {
    case ElemType::u8: {
      // The CPU's table, passed by value.
      const std::vector<std::uint8_t> lut = detail::gamma_lut<std::uint8_t>(g);
      ops::Lut8 l;
      for (int i = 0; i < 256; ++i) l.v[i] = lut[static_cast<std::size_t>(i)];
      ops::launch_lut_u8(kOp, s, d, l, st);
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

}  // namespace texcv::cuda
