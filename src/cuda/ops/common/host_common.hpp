// Small host helpers of the CUDA operations.
#pragma once

#include <cstdint>

#include "src/core/backends.hpp"
#include "src/core/dispatch.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "texcv/error.hpp"

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

// Both views are device views the kernels can address (check_device_view).
inline void check_views(const char* op, const ImageView& src, const ImageView& dst) {
  check_device_view(op, src, "src");
  check_device_view(op, dst, "dst");
}

// Calls f.template operator()<T>() with the element type of t (u8, u16 or f32): the one
// dispatch, src/core/dispatch.hpp.
template <class F>
void by_type(const char* op, ElemType t, F&& f) {
  texcv::detail::by_type(op, t, f);
}

}  // namespace texcv::cuda::ops
