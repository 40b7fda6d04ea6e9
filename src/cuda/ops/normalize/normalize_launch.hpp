// normalize's per-channel affine map (normalize.cu); its min/max and mean/std reductions are the
// hist engine's (src/cuda/ops/hist/hist_launch.hpp).
#pragma once

#include <cuda_runtime.h>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/point.hpp"

namespace texcv::cuda::ops {

// normalize (mean_std): dst = saturate(float(src) * scale[c] + offset[c]) per channel.
template <typename T>
void launch_affine_channels(const PointSrc& s, const DstArgs& d, int channels,
                            const detail::AffineChannelDesc& a, cudaStream_t st);

}  // namespace texcv::cuda::ops
