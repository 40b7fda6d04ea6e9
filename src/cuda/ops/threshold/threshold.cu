// threshold's kernels: src/core/color_pixel.hpp's comparison (shared with the CPU) on the
// per-pixel kernel shape (point.cuh).
#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/threshold/threshold_launch.hpp"

namespace texcv::cuda::ops {

namespace {

template <typename T, ThresholdType TT>
struct ThresholdF {
  detail::ThreshValues<T> v;
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    d[0] = detail::px_threshold<TT, T>(s[0], v.th, v.mv, v.tv);
  }
};

}  // namespace

template <typename T>
void launch_threshold(const PointSrc& s, const DstArgs& d, const detail::ThresholdDesc& td,
                      cudaStream_t st) {
  const detail::ThreshValues<T> v = detail::thresh_values<T>(td);
  constexpr const char* kOp = "threshold";
  switch (td.type) {
    case ThresholdType::binary:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::binary>{v}, st);
    case ThresholdType::binary_inv:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::binary_inv>{v}, st);
    case ThresholdType::trunc:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::trunc>{v}, st);
    case ThresholdType::tozero:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::tozero>{v}, st);
    case ThresholdType::tozero_inv:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::tozero_inv>{v}, st);
    case ThresholdType::otsu:
      break;
  }
  fail(ErrorCode::Internal, kOp, "threshold type not resolved before the kernel",
       to_string(td.type), "binary, binary_inv, trunc, tozero or tozero_inv");
}

template void launch_threshold<std::uint8_t>(const PointSrc&, const DstArgs&,
                                             const detail::ThresholdDesc&, cudaStream_t);
template void launch_threshold<std::uint16_t>(const PointSrc&, const DstArgs&,
                                              const detail::ThresholdDesc&, cudaStream_t);
template void launch_threshold<float>(const PointSrc&, const DstArgs&, const detail::ThresholdDesc&,
                                      cudaStream_t);

}  // namespace texcv::cuda::ops
