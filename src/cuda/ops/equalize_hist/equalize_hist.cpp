// equalize_hist's table applied on the CUDA backend, on the caller's stream (the counts come from
// histogram, the table from src/core/color_stats.hpp, both through src/core/ops/equalize_hist.cpp).
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"

namespace texcv::cuda {

void apply_lut_u8(const char* op, const ImageView& src, const ImageView& dst,
                  const std::uint8_t lut[256], void* stream) {
  ops::check_device_view(op, src, "src");
  ops::check_device_view(op, dst, "dst");
  ops::Lut8 l;
  for (int i = 0; i < 256; ++i) l.v[i] = lut[i];
  ops::launch_lut_u8(op, ops::point_src(src), ops::dst_args(dst), l,
                     static_cast<cudaStream_t>(stream));
}

}  // namespace texcv::cuda
