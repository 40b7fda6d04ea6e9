// The layout half of the Python module's array checks (module.cpp, view_of): an array's shape
// and element strides to a non-owning ImageView, or Error(InvalidArgument) saying what is wrong.
// Without nanobind, so that C++ can drive it (tests/fuzz/fuzz_view_checks.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "texcv/error.hpp"
#include "texcv/image.hpp"

namespace texcv::python {

// An array of ndim 2 (H x W) or 3 (H x W x C) dimensions, as DLPack gives it: shape, strides in
// elements (of type's size), the first element's address. The type and location are checked by
// the caller (dtype and device). w names the array in messages ("src").
inline ImageView view_from_layout(ElemType type, Location location, const void* data, int ndim,
                                  const std::size_t* shape, const std::int64_t* stride,
                                  const char* op, const std::string& w) {
  if (ndim != 2 && ndim != 3)
    fail(ErrorCode::InvalidArgument, op, w + " must be H x W or H x W x C",
         std::to_string(ndim) + " dimensions", "2 or 3");
  // ImageView's sizes are ints: a larger dimension would be cut to its low bits (an array of
  // 2^32 + 5 rows seen as 5 rows, found by fuzzing), so it is refused.
  constexpr std::size_t kMaxDim = static_cast<std::size_t>(std::numeric_limits<int>::max());
  if (shape[0] > kMaxDim || shape[1] > kMaxDim || (ndim == 3 && shape[2] > kMaxDim))
    fail(ErrorCode::InvalidArgument, op, w + " has a dimension too large",
         "shape (" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) +
             (ndim == 3 ? ", " + std::to_string(shape[2]) : std::string()) + ")",
         "each dimension at most " + std::to_string(kMaxDim));
  ImageView v;
  v.type = type;
  v.location = location;
  v.height = static_cast<int>(shape[0]);
  v.width = static_cast<int>(shape[1]);
  v.channels = ndim == 3 ? static_cast<int>(shape[2]) : 1;
  v.data = const_cast<void*>(data);
  const std::int64_t px = v.channels;
  // An empty array's strides mean nothing (exporters may give 0): its shape is what the
  // library's own checks report ("source height must be positive").
  const bool empty = v.height == 0 || v.width == 0 || v.channels == 0;
  const bool pixels_ok = empty || ((ndim == 2 || shape[2] <= 1 || stride[2] == 1) &&
                                   (shape[1] <= 1 || stride[1] == px));
  if (!pixels_ok || (!empty && stride[0] < 0))
    fail(ErrorCode::InvalidArgument, op, w + " must have contiguous pixels (rows may be pitched)",
         "element strides (" + std::to_string(stride[0]) + ", " + std::to_string(stride[1]) +
             (ndim == 3 ? ", " + std::to_string(stride[2]) : std::string()) + ")",
         "(>= W*C, C, 1)");
  const std::size_t es = elem_size(v.type);
  // The row stride in bytes; one that does not fit in a size_t (found by fuzzing: it wrapped to
  // a pitch that no longer was the array's) is refused.
  std::size_t pitch = 0;
  if (!empty && __builtin_mul_overflow(static_cast<std::size_t>(stride[0]), es, &pitch))
    fail(ErrorCode::InvalidArgument, op, w + " has a row stride too large",
         "row stride " + std::to_string(stride[0]), "a stride whose bytes fit in memory");
  if ((empty || v.height <= 1) && pitch < v.row_bytes()) pitch = v.row_bytes();
  v.pitch = pitch;
  if (v.width > 0 && v.height > 0 && pitch < v.row_bytes())
    fail(ErrorCode::InvalidArgument, op, w + " rows overlap",
         "row stride " + std::to_string(stride[0]), ">= W*C elements");
  return v;
}

}  // namespace texcv::python
