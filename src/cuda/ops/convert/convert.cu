// convert's kernels: the per-element arithmetic of src/core/color_pixel.hpp (shared with the
// CPU) on the per-pixel kernel shape (point.cuh), for every source and destination type.
#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/convert/convert_launch.hpp"

namespace texcv::cuda::ops {

namespace {

template <typename S, typename D>
struct ConvertF {
  float a, b;
  __device__ __forceinline__ void operator()(const S* s, D* d) const {
    d[0] = detail::px_convert<D>(s[0], a, b);
  }
};
template <typename S, typename D>
struct ConvertIdF {
  __device__ __forceinline__ void operator()(const S* s, D* d) const {
    d[0] = detail::px_convert_identity<D>(s[0]);
  }
};

}  // namespace

template <typename S>
void launch_convert(const PointSrc& s, const DstArgs& d, ElemType dst_type,
                    const detail::ScaleDesc& sd, cudaStream_t st) {
  auto go = [&]<typename D>() {
    if (sd.identity)
      launch_point<S, D, 1, 1>("convert", s, d, ConvertIdF<S, D>{}, st);
    else
      launch_point<S, D, 1, 1>("convert", s, d, ConvertF<S, D>{sd.scale, sd.offset}, st);
  };
  switch (dst_type) {
    case ElemType::u8:
      return go.template operator()<std::uint8_t>();
    case ElemType::u16:
      return go.template operator()<std::uint16_t>();
    case ElemType::f32:
      return go.template operator()<float>();
  }
  fail(ErrorCode::Internal, "convert", "unsupported destination element type reached the kernel",
       to_string(dst_type), "u8, u16 or f32");
}

template void launch_convert<std::uint8_t>(const PointSrc&, const DstArgs&, ElemType,
                                           const detail::ScaleDesc&, cudaStream_t);
template void launch_convert<std::uint16_t>(const PointSrc&, const DstArgs&, ElemType,
                                            const detail::ScaleDesc&, cudaStream_t);
template void launch_convert<float>(const PointSrc&, const DstArgs&, ElemType,
                                    const detail::ScaleDesc&, cudaStream_t);

}  // namespace texcv::cuda::ops
