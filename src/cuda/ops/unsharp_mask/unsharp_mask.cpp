// unsharp_mask on the CUDA backend, on the caller's stream: the filter engine's Gaussian blur in
// src's element type (as the CPU backend) into a stream-ordered temporary, then the pointwise
// step (unsharp_mask.cu).
#include "src/core/filters_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/filter/filter_host.hpp"
#include "src/cuda/ops/unsharp_mask/unsharp_mask_launch.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void unsharp_mask(const ImageView& src, const ImageView& dst, const detail::UnsharpDesc& d,
                  void* stream) {
  constexpr const char* kOp = "unsharp_mask";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  // The blur in src's element type, as the CPU backend.
  filter::PitchedTemp blur(src.row_bytes(), src.height, st, kOp);
  const ops::DstArgs bd{blur.data(), blur.pitch(), src.width, src.height};
  filter::separable(kOp, src, bd, src.type, d.blur, st);
  const int n = src.width * src.channels;
  const ops::FilterSrc s{static_cast<const unsigned char*>(src.data), src.pitch, n, src.height};
  const ops::FilterSrc bs{blur.data(), blur.pitch(), n, src.height};
  ops::DstArgs o = ops::dst_args(dst);
  o.width = n;
  ops::by_type(kOp, src.type,
               [&]<typename T>() { ops::launch_unsharp<T>(s, bs, o, d.amount, d.threshold, st); });
  blur.release(kOp);
}

}  // namespace texcv::cuda
