// threshold on the CUDA backend (Otsu's level is resolved by the core before), on the caller's
// stream (a row as width * channels elements).
#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/threshold/threshold_launch.hpp"

namespace texcv::cuda {

void threshold(const ImageView& src, const ImageView& dst, const detail::ThresholdDesc& td,
               void* stream) {
  constexpr const char* kOp = "threshold";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_threshold<T>(ops::point_src(src), ops::elem_dst(dst), td, st);
  });
}

}  // namespace texcv::cuda
