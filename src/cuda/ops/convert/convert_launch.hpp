// convert's kernel launcher, one instantiation per source element type (convert.cu); DstArgs'
// width counts elements (width * channels).
#pragma once

#include <cuda_runtime.h>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/point.hpp"

namespace texcv::cuda::ops {

template <typename S>
void launch_convert(const PointSrc& s, const DstArgs& d, ElemType dst_type,
                    const detail::ScaleDesc& sd, cudaStream_t st);

}  // namespace texcv::cuda::ops
