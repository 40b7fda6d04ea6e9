// normalize's per-channel affine map on the per-pixel kernel shape (point.cuh): the CPU's
// expression in the CPU's order (--fmad=false), for every element type.
#include "src/core/dispatch.hpp"
#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/normalize/normalize_launch.hpp"

namespace texcv::cuda::ops {

namespace {

template <typename T, int C>
struct AffineF {
  float scale[4], offset[4];
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
#pragma unroll
    for (int c = 0; c < C; ++c)
      d[c] = detail::saturate<T>(static_cast<float>(s[c]) * scale[c] + offset[c]);
  }
};

}  // namespace

using texcv::detail::by_channels;  // src/core/dispatch.hpp

template <typename T>
void launch_affine_channels(const PointSrc& s, const DstArgs& d, int channels,
                            const detail::AffineChannelDesc& a, cudaStream_t st) {
  by_channels("normalize", channels, [&]<int C>() {
    AffineF<T, C> f;
    for (int c = 0; c < 4; ++c) {
      f.scale[c] = a.scale[c];
      f.offset[c] = a.offset[c];
    }
    launch_point<T, T, C, C>("normalize", s, d, f, st);
  });
}

template void launch_affine_channels<std::uint8_t>(const PointSrc&, const DstArgs&, int,
                                                   const detail::AffineChannelDesc&, cudaStream_t);
template void launch_affine_channels<std::uint16_t>(const PointSrc&, const DstArgs&, int,
                                                    const detail::AffineChannelDesc&, cudaStream_t);
template void launch_affine_channels<float>(const PointSrc&, const DstArgs&, int,
                                            const detail::AffineChannelDesc&, cudaStream_t);

}  // namespace texcv::cuda::ops
