// Small host helpers of the CUDA operations.
#pragma once

#include <cstdint>

#include "src/core/backends.hpp"
#include "src/core/dispatch.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/ops/common/point.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda::ops {

inline DstArgs dst_args(const ImageView& d) {
  return DstArgs{static_cast<unsigned char*>(d.data), d.pitch, d.width, d.height};
}

// A per-pixel op's source (point.cuh).
inline PointSrc point_src(const ImageView& v) {
  return PointSrc{static_cast<const unsigned char*>(v.data), v.pitch};
}

// The destination with its width counted in elements (width * channels): the per-element ops.
inline DstArgs elem_dst(const ImageView& d) {
  DstArgs a = dst_args(d);
  a.width = d.width * d.channels;
  return a;
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
