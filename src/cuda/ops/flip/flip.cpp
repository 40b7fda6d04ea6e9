// flip on the CUDA backend: always plain loads (pure data movement), on the caller's stream.
#include "src/core/backends.hpp"
#include "src/cuda/ops/common/dispatch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/flip/flip_launch.hpp"

namespace texcv::cuda {

void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream) {
  constexpr const char* kOp = "flip";
  const auto st = static_cast<cudaStream_t>(stream);
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  ops::FlipArgs a;
  a.src = static_cast<const unsigned char*>(src.data);
  a.src_pitch = src.pitch;
  a.flip_x = code == FlipCode::horizontal || code == FlipCode::both;
  a.flip_y = code == FlipCode::vertical || code == FlipCode::both;
  const ops::DstArgs da = ops::dst_args(dst);
  ops::dispatch_type_channels(kOp, src.type, src.channels,
                              [&]<typename T, int C>() { ops::launch_flip<T, C>(a, da, st); });
}

}  // namespace texcv::cuda
