// Calls f.template operator()<T, C>() for a runtime element type and channel count (1, 3, 4).
#pragma once

#include <cstdint>
#include <string>

#include "texcv/error.hpp"
#include "texcv/image.hpp"

namespace texcv::cuda::ops {

template <typename T, class F>
void dispatch_channels(const char* op, int channels, F&& f) {
  switch (channels) {
    case 1:
      f.template operator()<T, 1>();
      return;
    case 3:
      f.template operator()<T, 3>();
      return;
    case 4:
      f.template operator()<T, 4>();
      return;
    default:
      fail(ErrorCode::InvalidArgument, op, "unsupported channel count", std::to_string(channels),
           "1, 3 or 4");
  }
}

template <class F>
void dispatch_type_channels(const char* op, ElemType type, int channels, F&& f) {
  switch (type) {
    case ElemType::u8:
      return dispatch_channels<std::uint8_t>(op, channels, f);
    case ElemType::u16:
      return dispatch_channels<std::uint16_t>(op, channels, f);
    case ElemType::f32:
      return dispatch_channels<float>(op, channels, f);
  }
  fail(ErrorCode::InvalidArgument, op, "unsupported element type");
}

}  // namespace texcv::cuda::ops
