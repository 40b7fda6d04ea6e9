// Small host helpers of the geometric operations.
#pragma once

#include "src/core/backends.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

inline DstArgs dst_args(const ImageView& d) {
  return DstArgs{static_cast<unsigned char*>(d.data), d.pitch, d.width, d.height};
}

inline SampleArgs sample_args(const detail::SamplingDesc& s) {
  SampleArgs a;
  a.interp = s.interp;
  a.border = s.border;
  for (int c = 0; c < 4; ++c) a.bv[c] = s.border_value[c];
  return a;
}

}  // namespace texcv::cuda::ops
