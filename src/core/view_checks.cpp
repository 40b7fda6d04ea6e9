// Validation shared by the public entry points (src/core/view_checks.hpp).
#include "src/core/view_checks.hpp"

#include <cstdint>

#include "src/core/sampling.hpp"
#include "texcv/error.hpp"

namespace texcv::detail {

namespace {

// Byte range [first, last] (inclusive: a view whose bytes end at the top of the address space
// would make an exclusive end wrap to 0 and look disjoint from everything) that a non-empty
// view's pixels span.
struct ByteRange {
  std::uintptr_t first, last;
};
ByteRange bytes_of(const ImageView& v) {
  const auto first = reinterpret_cast<std::uintptr_t>(v.data);
  return {first, first + v.pitch * static_cast<std::size_t>(v.height - 1) + v.row_bytes() - 1};
}

}  // namespace

std::string size_str(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

std::string shape_str(const ImageView& v) {
  std::string s = std::to_string(v.channels);
  s.append("-channel ").append(to_string(v.type));
  return s;
}

void check_no_overlap(const char* op, const ImageView& out, const ImageView& in,
                      const char* in_name) {
  if (out.location != in.location) return;
  const ByteRange a = bytes_of(out), b = bytes_of(in);
  if (a.first <= b.last && b.first <= a.last) {
    std::string got("destination bytes overlapping the ");
    got.append(in_name);
    fail(ErrorCode::InvalidArgument, op, "output aliasing input", got, "separate memory");
  }
}

void check_pair(const char* op, const ImageView& src, const ImageView& dst, bool same_type) {
  validate_view(src, op, "source");
  validate_view(dst, op, "destination");
  if (src.location != dst.location)
    fail(ErrorCode::InvalidArgument, op, "destination location differs from the source",
         to_string(dst.location), to_string(src.location));
  if (same_type && src.type != dst.type)
    fail(ErrorCode::InvalidArgument, op, "destination element type differs from the source",
         to_string(dst.type), to_string(src.type));
  if (src.channels != dst.channels)
    fail(ErrorCode::InvalidArgument, op, "destination channel count differs from the source",
         std::to_string(dst.channels), std::to_string(src.channels));
  check_no_overlap(op, dst, src, "source");
}

void check_same_size(const char* op, const ImageView& src, const ImageView& dst) {
  if (src.width != dst.width || src.height != dst.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the source",
         size_str(dst.width, dst.height), size_str(src.width, src.height));
}

float border_value_for(ElemType t, double v) {
  switch (t) {
    case ElemType::u8:
      return static_cast<float>(saturate<std::uint8_t>(static_cast<float>(v)));
    case ElemType::u16:
      return static_cast<float>(saturate<std::uint16_t>(static_cast<float>(v)));
    case ElemType::f32:
      break;
  }
  return static_cast<float>(v);
}

}  // namespace texcv::detail
