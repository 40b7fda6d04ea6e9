// The warp engine on the CUDA backend (warp_affine, warp_perspective and rotate, an affine warp):
// choose the access path, launch on the caller's stream.
#include "src/core/backends.hpp"
#include "src/cuda/ops/common/dispatch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/warp/warp_launch.hpp"

namespace texcv::cuda {

void warp(const ImageView& src, const ImageView& dst, const WarpDesc& d, void* stream) {
  const bool persp = d.kind == detail::WarpKind::perspective;
  const char* op = persp ? "warp_perspective" : "warp_affine";
  const auto st = static_cast<cudaStream_t>(stream);
  ops::check_device_view(op, dst, "dst");
  ops::SourcePlan plan(op, ops::GeomOp::warp, src, d.sampling, st);
  ops::WarpArgs a;
  a.s = ops::sample_args(d.sampling);
  a.perspective = persp;
  if (persp) {
    for (int i = 0; i < 9; ++i) a.m[i] = d.perspective.m[i];
  } else {
    for (int i = 0; i < 6; ++i) a.m[i] = d.affine.m[i];
  }
  const ops::DstArgs da = ops::dst_args(dst);
  ops::dispatch_type_channels(op, src.type, src.channels, [&]<typename T, int C>() {
    ops::launch_warp<T, C>(plan.args(), da, a, st);
  });
  plan.finish();
}

}  // namespace texcv::cuda
