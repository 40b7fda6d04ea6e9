// remap on the CUDA backend: choose the access path, launch on the caller's stream.
#include "src/core/backends.hpp"
#include "src/cuda/ops/common/dispatch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/remap/remap_launch.hpp"

namespace texcv::cuda {

void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const SamplingDesc& s, void* stream) {
  constexpr const char* kOp = "remap";
  const auto st = static_cast<cudaStream_t>(stream);
  ops::check_device_view(kOp, dst, "dst");
  ops::check_device_view(kOp, map_x, "map_x");
  ops::check_device_view(kOp, map_y, "map_y");
  ops::SourcePlan plan(kOp, ops::GeomOp::remap, src, s, st);
  ops::RemapArgs a;
  a.s = ops::sample_args(s);
  a.map_x = static_cast<const unsigned char*>(map_x.data);
  a.map_x_pitch = map_x.pitch;
  a.map_y = static_cast<const unsigned char*>(map_y.data);
  a.map_y_pitch = map_y.pitch;
  const ops::DstArgs da = ops::dst_args(dst);
  ops::dispatch_type_channels(kOp, src.type, src.channels, [&]<typename T, int C>() {
    ops::launch_remap<T, C>(plan.args(), da, a, st);
  });
  plan.finish();
}

}  // namespace texcv::cuda
