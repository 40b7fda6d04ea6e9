// The CUDA backend's names for the one dispatch (src/core/dispatch.hpp): f.template
// operator()<T, C>() for a run-time element type and channel count (1, 3, 4).
#pragma once

#include "src/core/dispatch.hpp"

namespace texcv::cuda::ops {

template <class F>
void dispatch_type_channels(const char* op, ElemType type, int channels, F&& f) {
  texcv::detail::by_type_channels(op, type, channels, f);
}

}  // namespace texcv::cuda::ops
