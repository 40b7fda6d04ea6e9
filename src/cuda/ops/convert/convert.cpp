// convert on the CUDA backend, on the caller's stream (a row as width * channels elements).
#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/convert/convert_launch.hpp"

namespace texcv::cuda {

void convert(const ImageView& src, const ImageView& dst, const detail::ScaleDesc& sd,
             void* stream) {
  constexpr const char* kOp = "convert";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename S>() {
    ops::launch_convert<S>(ops::point_src(src), ops::elem_dst(dst), dst.type, sd, st);
  });
}

}  // namespace texcv::cuda
