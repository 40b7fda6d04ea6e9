// The one dispatch from a run-time element type and channel count to templates, for the CPU
// backend, the CUDA backend's host code and its launchers (.cu): f.template operator()<T>(),
// <C>() or <T, C>(). A type or channel count outside the list is Error(Unsupported) "<op>:
// unsupported element type; got f64, expected u8, u16 or f32" (src/core validates the views
// first, so users meet the op's own message; this one is the backstop, one code for one kind of
// error).
#pragma once

#include <cstdint>
#include <string>

#include "texcv/error.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// "1, 3 or 4" for <1, 3, 4>.
template <int... Cs>
std::string channel_list() {
  const int cs[] = {Cs...};
  std::string s;
  for (std::size_t i = 0; i < sizeof...(Cs); ++i) {
    if (i > 0) s += i + 1 == sizeof...(Cs) ? " or " : ", ";
    s += std::to_string(cs[i]);
  }
  return s;
}

// f.template operator()<C>() for channels among Cs.
template <int... Cs, class F>
void by_channels_of(const char* op, int channels, F&& f) {
  const bool done = ((channels == Cs ? (f.template operator()<Cs>(), true) : false) || ...);
  if (!done)
    fail(ErrorCode::Unsupported, op, "unsupported channel count", std::to_string(channels),
         channel_list<Cs...>());
}

// f.template operator()<C>() for 1, 3 or 4 channels.
template <class F>
void by_channels(const char* op, int channels, F&& f) {
  by_channels_of<1, 3, 4>(op, channels, f);
}

// f.template operator()<T>() for u8 (std::uint8_t), u16 (std::uint16_t) or f32 (float).
template <class F>
void by_type(const char* op, ElemType type, F&& f) {
  switch (type) {
    case ElemType::u8:
      return f.template operator()<std::uint8_t>();
    case ElemType::u16:
      return f.template operator()<std::uint16_t>();
    case ElemType::f32:
      return f.template operator()<float>();
  }
  fail(ErrorCode::Unsupported, op, "unsupported element type",
       std::to_string(static_cast<int>(type)), "u8, u16 or f32");
}

// f.template operator()<T, C>() for the 9 combinations u8/u16/f32 x 1/3/4.
template <class F>
void by_type_channels(const char* op, ElemType type, int channels, F&& f) {
  by_type(op, type, [&]<typename T>() {
    by_channels(op, channels, [&]<int C>() { f.template operator()<T, C>(); });
  });
}

}  // namespace texcv::detail
