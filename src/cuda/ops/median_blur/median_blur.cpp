// median_blur on the CUDA backend, on the caller's stream: ksize 1 is a device copy; other sizes
// run the kernels of median_blur_kernels.cuh (see there for the two methods).
#include <cstdint>

#include "src/core/dispatch.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/median_blur/median_blur_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void median_blur(const ImageView& src, const ImageView& dst, const detail::MedianDesc& d,
                 void* stream) {
  constexpr const char* kOp = "median_blur";
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  if (src.width == 0 || src.height == 0) return;
  const auto st = static_cast<cudaStream_t>(stream);
  if (d.ksize == 1) {
    TEXCV_CUDA_CHECK(
        kOp, cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                               static_cast<std::size_t>(src.height), cudaMemcpyDeviceToDevice, st));
    return;
  }
  const ops::MedianSrc s{static_cast<const unsigned char*>(src.data), src.pitch, src.width,
                         src.height};
  const ops::DstArgs o = ops::dst_args(dst);
  texcv::detail::by_type(
      kOp, src.type, [&]<typename T>() { ops::launch_median<T>(s, o, src.channels, d.ksize, st); });
}

}  // namespace texcv::cuda
