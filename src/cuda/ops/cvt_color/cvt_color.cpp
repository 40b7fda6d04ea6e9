// cvt_color on the CUDA backend, on the caller's stream (kernels: cvt_color_kernels.cuh).
#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/cvt_color/cvt_color_launch.hpp"

namespace texcv::cuda {

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream) {
  constexpr const char* kOp = "cvt_color";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_cvt_color<T>(ops::point_src(src), ops::dst_args(dst), code, st);
  });
}

}  // namespace texcv::cuda
