// Helpers shared by the validation tests of the operations (test_<op>_errors.cpp,
// test_filter_common_errors.cpp, test_color_errors.cpp): an 8x6 u8 source and destination, the
// usual error code, and device views that are validated but never dereferenced.
#pragma once

#include <cstdint>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::error_test {

using test::expect_error;

inline constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;

// An 8x6 3-channel u8 source and destination.
struct Pair {
  Image src{8, 6, 3, ElemType::u8};
  Image dst{8, 6, 3, ElemType::u8};
};

// A device view with a fake pointer: validation runs, nothing is dereferenced.
inline ImageView device_view(int w, int h, int ch, ElemType t) {
  ImageView v;
  v.data = reinterpret_cast<void*>(std::uintptr_t{4096});
  v.width = w;
  v.height = h;
  v.channels = ch;
  v.type = t;
  v.pitch = v.row_bytes();
  v.location = Location::device;
  return v;
}

}  // namespace texcv::error_test
