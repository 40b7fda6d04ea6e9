// cvt_color's kernel launcher, one explicit instantiation per element type
// (cvt_color.<type>.cu); DstArgs' width counts pixels.
#pragma once

#include <cuda_runtime.h>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/point.hpp"

namespace texcv::cuda::ops {

template <typename T>
void launch_cvt_color(const PointSrc& s, const DstArgs& d, ColorCode code, cudaStream_t st);

}  // namespace texcv::cuda::ops
